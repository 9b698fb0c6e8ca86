//===- FusedProgram.cpp - A fused elementwise instruction's program -------===//

#include "Kernels/FusedProgram.h"

#include <cmath>

namespace paracc::rt {

namespace {

bool isFusedDType(DType d) {
  return d == DType::F32 || d == DType::BF16 || d == DType::F16 ||
         d == DType::Bool;
}

bool isFusedFloat(DType d) { return d != DType::Bool && isFusedDType(d); }

bool isComparison(OpCode op) {
  return op == OpCode::Equal || op == OpCode::Less || op == OpCode::LessEqual ||
         op == OpCode::Greater || op == OpCode::GreaterEqual;
}

bool isLogical(OpCode op) {
  return op == OpCode::And || op == OpCode::Or || op == OpCode::Xor;
}

/// The result type `op` gives operands of type `t` (Invalid: it does not
/// take them). Cast's is the step's own.
DType resultTypeOf(OpCode op, const std::array<DType, 3> &t, int argCount) {
  if (isUnaryElementwise(op)) {
    if (argCount != 1)
      return DType::Invalid;
    if (op == OpCode::Not)
      return t[0] == DType::Bool ? DType::Bool : DType::Invalid;
    if (!isFusedFloat(t[0]))
      return DType::Invalid;
    return op == OpCode::IsNaN || op == OpCode::IsInf ? DType::Bool : t[0];
  }
  if (isBinaryElementwise(op)) {
    if (argCount != 2 || t[0] != t[1])
      return DType::Invalid;
    if (isLogical(op))
      return t[0] == DType::Bool ? DType::Bool : DType::Invalid;
    if (isComparison(op))
      return DType::Bool;
    return isFusedFloat(t[0]) ? t[0] : DType::Invalid;
  }
  if (op == OpCode::Where)
    return argCount == 3 && t[0] == DType::Bool && t[1] == t[2]
               ? t[1]
               : DType::Invalid;
  if (op == OpCode::Clip)
    return argCount == 1 && isFusedFloat(t[0]) ? t[0] : DType::Invalid;
  return DType::Invalid;
}

/// Reads the next int of the program, failing past its end.
struct Reader {
  const std::vector<int64_t> &ints;
  size_t next = 0;
  bool take(int64_t &v) {
    if (next >= ints.size())
      return false;
    v = ints[next++];
    return true;
  }
};

} // namespace

bool isFusibleStepOp(OpCode op) {
  return isUnaryElementwise(op) || isBinaryElementwise(op) ||
         op == OpCode::Where || op == OpCode::Cast || op == OpCode::Clip;
}

Status decodeFusedProgram(const KernelArgs &args, FusedProgram &p) {
  if (args.in.size() > size_t(kMaxFusedInputs) || args.out.empty() ||
      args.out.size() > size_t(kMaxFusedResults))
    return args.fail("expected at most ", kMaxFusedInputs,
                     " operands and 1 to ", kMaxFusedResults, " results, got ",
                     args.in.size(), " and ", args.out.size());
  const auto &attrs = args.attrsAs<FusedElementwiseAttrs>();
  p = FusedProgram();
  p.inputCount = int(args.in.size());
  p.shape = args.out[0]->shape();
  for (const Tensor *t : args.in) {
    if (!isFusedDType(t->dtype()))
      return args.fail("operand ", p.registerTypes.size(), " (",
                       t->typeString(), ") is not f16, bf16, f32 or bool");
    if (!broadcastsTo(t->shape(), p.shape))
      return args.fail("operand ", p.registerTypes.size(), " ", t->typeString(),
                       " does not broadcast to ", shapeToString(p.shape));
    p.registerTypes.push_back(t->dtype());
  }
  Reader r{attrs.program};
  size_t nextFloat = 0;
  int64_t stepCount = 0;
  if (!r.take(stepCount) || stepCount < 1 || stepCount > kMaxFusedSteps)
    return args.fail("the program needs 1 to ", kMaxFusedSteps, " steps");
  for (int64_t s = 0; s < stepCount; ++s) {
    FusedStep step;
    int64_t op = 0, dtype = 0, argCount = 0, intCount = 0, floatCount = 0;
    if (!r.take(op) || !r.take(dtype) || !r.take(argCount) || argCount < 0 ||
        argCount > 3)
      return args.fail("step ", s, " is malformed");
    if (!isSupportedDType(int(dtype)) ||
        !isFusedDType(static_cast<DType>(dtype)))
      return args.fail("step ", s, " has element type ", dtype,
                       ", not f16, bf16, f32 or bool");
    step.dtype = static_cast<DType>(dtype);
    std::array<DType, 3> argTypes = {DType::Invalid, DType::Invalid,
                                     DType::Invalid};
    const int64_t defined = int64_t(p.registerTypes.size());
    for (int64_t a = 0; a < argCount; ++a) {
      int64_t reg = 0;
      if (!r.take(reg) || reg < 0 || reg >= defined)
        return args.fail("step ", s, " reads a register not yet defined");
      step.args[a] = int(reg);
      argTypes[a] = p.registerTypes[reg];
    }
    step.argCount = int(argCount);
    InstrAttrs raw;
    if (!r.take(intCount) || intCount < 0 ||
        r.next + size_t(intCount) > attrs.program.size())
      return args.fail("step ", s, " is malformed");
    raw.ints.assign(attrs.program.begin() + r.next,
                    attrs.program.begin() + r.next + intCount);
    r.next += size_t(intCount);
    if (!r.take(floatCount) || floatCount < 0 ||
        nextFloat + size_t(floatCount) > attrs.floats.size())
      return args.fail("step ", s, " reads floats past the program's");
    raw.floats.assign(attrs.floats.begin() + nextFloat,
                      attrs.floats.begin() + nextFloat + floatCount);
    nextFloat += size_t(floatCount);
    if (op == -1) {
      if (argCount != 0 || intCount != 0 || floatCount != 1)
        return args.fail("immediate step ", s, " is malformed");
      step.immediate = true;
      step.value = roundToFusedType(step.dtype, float(raw.floats[0]));
    } else {
      if (op < 0 || op >= int64_t(OpCode::NumOpCodes) ||
          !isFusibleStepOp(static_cast<OpCode>(op)))
        return args.fail("step ", s, " has opcode ", op,
                         ", which a fused program cannot run");
      step.op = static_cast<OpCode>(op);
      const DType expected =
          step.op == OpCode::Cast
              ? (argCount == 1 ? step.dtype : DType::Invalid)
              : resultTypeOf(step.op, argTypes, int(argCount));
      if (expected != step.dtype)
        return args.fail("step ", s, " (", opCodeMnemonic(step.op),
                         ") does not take its operands' types to ",
                         dtypeName(step.dtype));
      PARACC_RETURN_IF_ERROR(decodeOpAttrs(step.op, raw, step.attrs));
      if (step.op == OpCode::Clip) {
        const ClipAttrs &c = std::get<ClipAttrs>(step.attrs);
        if (std::isnan(c.min) || std::isnan(c.max))
          return args.fail("step ", s, ": clip bounds must not be NaN");
      }
    }
    p.registerTypes.push_back(step.dtype);
    p.steps.push_back(std::move(step));
  }
  if (nextFloat != attrs.floats.size())
    return args.fail("the program leaves ", attrs.floats.size() - nextFloat,
                     " floats unread");
  for (size_t i = 0; i < args.out.size(); ++i) {
    int64_t reg = 0;
    if (!r.take(reg) || reg < 0 || reg >= int64_t(p.registerTypes.size()))
      return args.fail("result ", i, " names no register");
    const Tensor &y = *args.out[i];
    if (y.dtype() != p.registerTypes[reg])
      return args.fail("result ", i, " (", y.typeString(),
                       ") is not of its register's type ",
                       dtypeName(p.registerTypes[reg]));
    PARACC_RETURN_IF_ERROR(args.checkShape(y, p.shape, "result"));
    p.results.push_back(int(reg));
  }
  if (r.next != attrs.program.size())
    return args.fail("the program has ", attrs.program.size() - r.next,
                     " ints past its results");
  return Status::ok();
}

std::vector<std::vector<int64_t>>
fusedOperandStrides(const FusedProgram &p,
                    const std::vector<const Tensor *> &inputs) {
  const size_t rank = p.shape.size();
  std::vector<std::vector<int64_t>> strides;
  for (const Tensor *t : inputs) {
    const Shape &s = t->shape();
    std::vector<int64_t> st(rank, 0);
    int64_t stride = 1;
    // Right-aligned (numpy): the operand's dim k is the space's dim
    // rank - s.size() + k.
    for (size_t k = s.size(); k-- > 0;) {
      const size_t d = rank - s.size() + k;
      st[d] = s[k] == 1 ? 0 : stride;
      stride *= s[k];
    }
    strides.push_back(std::move(st));
  }
  return strides;
}

CoalescedSpace coalesceFusedSpace(const Shape &shape,
                                  std::vector<std::vector<int64_t>> strides) {
  CoalescedSpace out;
  out.strides.resize(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    bool merge = !out.dims.empty();
    for (size_t i = 0; merge && i < strides.size(); ++i)
      merge = out.strides[i].back() == strides[i][d] * shape[d];
    if (merge) {
      out.dims.back() *= shape[d];
      for (size_t i = 0; i < strides.size(); ++i)
        out.strides[i].back() = strides[i][d];
      continue;
    }
    out.dims.push_back(shape[d]);
    for (size_t i = 0; i < strides.size(); ++i)
      out.strides[i].push_back(strides[i][d]);
  }
  return out;
}

} // namespace paracc::rt
