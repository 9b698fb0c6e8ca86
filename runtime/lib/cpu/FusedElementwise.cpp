//===- FusedElementwise.cpp - Fused elementwise programs on the CPU -------===//
//
// Interprets a FusedElementwise program block by block: each operand's
// elements of a block of the iteration space are read into a register row
// of floats, each step runs over the whole row with its instruction's scalar
// function (ElementwiseFunctors.h) and rounds to its element type, and the
// result rows are written out. The decoding of a step happens once per
// block, not per element.
//
//===----------------------------------------------------------------------===//

#include "Kernels/FusedProgram.h"
#include "cpu/CpuKernels.h"
#include "cpu/ElementwiseFunctors.h"

#include <algorithm>

namespace paracc::rt {

using namespace elementwise;

namespace {

constexpr int64_t kBlock = 1024;

/// Rounds a row to `d` (a loop per type, so that each vectorizes).
void roundRow(DType d, float *__restrict y, int64_t n) {
  switch (d) {
  case DType::BF16:
    for (int64_t i = 0; i < n; ++i)
      y[i] = roundToFusedType(DType::BF16, y[i]);
    return;
  case DType::F16:
    for (int64_t i = 0; i < n; ++i)
      y[i] = roundToFusedType(DType::F16, y[i]);
    return;
  case DType::Bool:
    for (int64_t i = 0; i < n; ++i)
      y[i] = y[i] != 0 ? 1.0f : 0.0f;
    return;
  default:
    return;
  }
}

template <typename F>
void unaryRow(float *__restrict y, const float *__restrict a, int64_t n,
              const F &f) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = static_cast<float>(f(a[i]));
}

template <typename F>
void binaryRow(float *__restrict y, const float *__restrict a,
               const float *__restrict b, int64_t n, const F &f) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = static_cast<float>(f(a[i], b[i]));
}

template <typename F>
void logicalRow(float *__restrict y, const float *__restrict a,
                const float *__restrict b, int64_t n, const F &f) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = f(a[i] != 0, b[i] != 0) ? 1.0f : 0.0f;
}

void runUnaryStep(const FusedStep &s, float *y, const float *a, int64_t n) {
  switch (s.op) {
  case OpCode::Neg:
    return unaryRow(y, a, n, NegOp());
  case OpCode::Abs:
    return unaryRow(y, a, n, AbsOp());
  case OpCode::Sign:
    return unaryRow(y, a, n, SignOp());
  case OpCode::Relu:
    return unaryRow(y, a, n, ReluOp());
  case OpCode::Not:
    for (int64_t i = 0; i < n; ++i)
      y[i] = a[i] != 0 ? 0.0f : 1.0f;
    return;
  case OpCode::IsNaN:
    return unaryRow(y, a, n, IsNaNOp());
  case OpCode::IsInf: {
    const auto &attrs = std::get<IsInfAttrs>(s.attrs);
    return unaryRow(y, a, n,
                    IsInfOp{attrs.detectPositive, attrs.detectNegative});
  }
  case OpCode::Gelu:
    return unaryRow(y, a, n,
                    GeluOp{std::get<GeluAttrs>(s.attrs).tanhApproximation});
  case OpCode::Sqrt:
    return unaryRow(y, a, n, SqrtOp());
  case OpCode::Rsqrt:
    return unaryRow(y, a, n, RsqrtOp());
  case OpCode::Reciprocal:
    return unaryRow(y, a, n, ReciprocalOp());
  case OpCode::Exp:
    return unaryRow(y, a, n, ExpOp());
  case OpCode::Log:
    return unaryRow(y, a, n, LogOp());
  case OpCode::Tanh:
    return unaryRow(y, a, n, TanhOp());
  case OpCode::Erf:
    return unaryRow(y, a, n, ErfOp());
  case OpCode::Sigmoid:
    return unaryRow(y, a, n, SigmoidOp());
  case OpCode::Silu:
    return unaryRow(y, a, n, SiluOp());
  case OpCode::Sin:
    return unaryRow(y, a, n, SinOp());
  case OpCode::Cos:
    return unaryRow(y, a, n, CosOp());
  case OpCode::Tan:
    return unaryRow(y, a, n, TanOp());
  case OpCode::Asin:
    return unaryRow(y, a, n, AsinOp());
  case OpCode::Acos:
    return unaryRow(y, a, n, AcosOp());
  case OpCode::Atan:
    return unaryRow(y, a, n, AtanOp());
  case OpCode::Sinh:
    return unaryRow(y, a, n, SinhOp());
  case OpCode::Cosh:
    return unaryRow(y, a, n, CoshOp());
  case OpCode::Asinh:
    return unaryRow(y, a, n, AsinhOp());
  case OpCode::Acosh:
    return unaryRow(y, a, n, AcoshOp());
  case OpCode::Atanh:
    return unaryRow(y, a, n, AtanhOp());
  case OpCode::Floor:
    return unaryRow(y, a, n, FloorOp());
  case OpCode::Ceil:
    return unaryRow(y, a, n, CeilOp());
  case OpCode::Round:
    return unaryRow(y, a, n, RoundOp());
  default:
    return;
  }
}

void runBinaryStep(const FusedStep &s, float *y, const float *a, const float *b,
                   int64_t n) {
  switch (s.op) {
  case OpCode::Add:
    return binaryRow(y, a, b, n, AddOp());
  case OpCode::Sub:
    return binaryRow(y, a, b, n, SubOp());
  case OpCode::Mul:
    return binaryRow(y, a, b, n, MulOp());
  case OpCode::Div:
    return binaryRow(y, a, b, n, DivOp());
  case OpCode::Pow:
    return binaryRow(y, a, b, n, PowOp());
  case OpCode::Max:
    return binaryRow(y, a, b, n, MaxOp());
  case OpCode::Min:
    return binaryRow(y, a, b, n, MinOp());
  case OpCode::Mod:
    return binaryRow(y, a, b, n, ModOp{std::get<ModAttrs>(s.attrs).fmod});
  case OpCode::And:
    return logicalRow(y, a, b, n, AndOp());
  case OpCode::Or:
    return logicalRow(y, a, b, n, OrOp());
  case OpCode::Xor:
    return logicalRow(y, a, b, n, XorOp());
  case OpCode::Equal:
    return binaryRow(y, a, b, n, EqualOp());
  case OpCode::Less:
    return binaryRow(y, a, b, n, LessOp());
  case OpCode::LessEqual:
    return binaryRow(y, a, b, n, LessEqualOp());
  case OpCode::Greater:
    return binaryRow(y, a, b, n, GreaterOp());
  case OpCode::GreaterEqual:
    return binaryRow(y, a, b, n, GreaterEqualOp());
  default:
    return;
  }
}

void runStep(const FusedStep &s, float *y, const float *const *args,
             int64_t n) {
  if (isUnaryElementwise(s.op)) {
    runUnaryStep(s, y, args[0], n);
  } else if (isBinaryElementwise(s.op)) {
    runBinaryStep(s, y, args[0], args[1], n);
  } else if (s.op == OpCode::Where) {
    for (int64_t i = 0; i < n; ++i)
      y[i] = args[0][i] != 0 ? args[1][i] : args[2][i];
  } else if (s.op == OpCode::Cast) {
    std::copy(args[0], args[0] + n, y);
  } else if (s.op == OpCode::Clip) {
    const auto &c = std::get<ClipAttrs>(s.attrs);
    const float lo = roundToFusedType(s.dtype, float(c.min));
    const float hi = roundToFusedType(s.dtype, float(c.max));
    for (int64_t i = 0; i < n; ++i) {
      float v = args[0][i];
      v = v < lo ? lo : v;
      y[i] = hi < v ? hi : v;
    }
  }
  roundRow(s.dtype, y, n);
}

/// Reads `n` elements of `t` at the iteration space's positions
/// [start, start + n) into `row`, a run of the innermost dim at a time (a
/// broadcast operand's run is one value).
template <DType D>
void readRow(const Tensor &t, const std::vector<int64_t> &dims,
             const std::vector<int64_t> &strides, int64_t start, int64_t n,
             float *__restrict row) {
  const auto *data = static_cast<const StorageT<D> *>(t.data());
  const size_t rank = dims.size();
  if (rank == 0) {
    std::fill(row, row + n, float(load<D>(data)));
    return;
  }
  int64_t coord[8] = {};
  int64_t offset = 0, rest = start;
  for (size_t d = rank; d-- > 0;) {
    coord[d] = rest % dims[d];
    rest /= dims[d];
    offset += coord[d] * strides[d];
  }
  const size_t inner = rank - 1;
  const int64_t step = strides[inner];
  for (int64_t i = 0; i < n;) {
    const int64_t run = std::min(n - i, dims[inner] - coord[inner]);
    const StorageT<D> *from = data + offset;
    if (step == 0) {
      std::fill(row + i, row + i + run, float(load<D>(from)));
    } else if (step == 1) {
      for (int64_t k = 0; k < run; ++k)
        row[i + k] = float(load<D>(from + k));
    } else {
      for (int64_t k = 0; k < run; ++k)
        row[i + k] = float(load<D>(from + k * step));
    }
    i += run;
    offset += run * step;
    coord[inner] += run;
    if (coord[inner] < dims[inner])
      continue;
    // The run ended its row: carry into the outer dims.
    for (size_t d = inner;; --d) {
      offset -= coord[d] * strides[d];
      coord[d] = 0;
      if (d == 0)
        break;
      offset += strides[d - 1];
      if (++coord[d - 1] < dims[d - 1])
        break;
    }
  }
}

template <DType D>
void writeRow(Tensor &t, int64_t start, int64_t n,
              const float *__restrict row) {
  auto *data = static_cast<StorageT<D> *>(t.data()) + start;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (kIsBool<D>)
      store<D>(data + i, row[i] != 0);
    else
      store<D>(data + i, row[i]);
  }
}

template <typename F> void withFusedDType(DType d, F &&f) {
  switch (d) {
  case DType::F32:
    return f(DTypeTag<DType::F32>{});
  case DType::BF16:
    return f(DTypeTag<DType::BF16>{});
  case DType::F16:
    return f(DTypeTag<DType::F16>{});
  default:
    return f(DTypeTag<DType::Bool>{});
  }
}

} // namespace

Status runFusedElementwiseKernel(const KernelArgs &args) {
  FusedProgram p;
  PARACC_RETURN_IF_ERROR(decodeFusedProgram(args, p));
  CoalescedSpace space =
      coalesceFusedSpace(p.shape, fusedOperandStrides(p, args.in));
  if (space.dims.size() > 8)
    return args.fail("the iteration space has more than 8 dims once merged");
  const int64_t n = shapeNumElements(p.shape);
  const size_t registers = p.registerTypes.size();
  std::vector<float> rows(registers * size_t(kBlock));
  auto row = [&](int reg) { return rows.data() + size_t(reg) * kBlock; };
  for (size_t s = 0; s < p.steps.size(); ++s)
    if (p.steps[s].immediate)
      std::fill(row(p.inputCount + int(s)), row(p.inputCount + int(s)) + kBlock,
                p.steps[s].value);
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    for (int i = 0; i < p.inputCount; ++i)
      withFusedDType(args.in[i]->dtype(), [&](auto tag) {
        readRow<decltype(tag)::value>(*args.in[i], space.dims, space.strides[i],
                                      start, len, row(i));
      });
    for (size_t s = 0; s < p.steps.size(); ++s) {
      const FusedStep &step = p.steps[s];
      if (step.immediate)
        continue;
      const float *operands[3] = {row(step.args[0]), row(step.args[1]),
                                  row(step.args[2])};
      runStep(step, row(p.inputCount + int(s)), operands, len);
    }
    for (size_t r = 0; r < p.results.size(); ++r)
      withFusedDType(args.out[r]->dtype(), [&](auto tag) {
        writeRow<decltype(tag)::value>(*args.out[r], start, len,
                                       row(p.results[r]));
      });
  }
  return Status::ok();
}

} // namespace paracc::rt
