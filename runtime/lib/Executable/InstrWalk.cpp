//===- InstrWalk.cpp - One instruction walk for every executor ------------===//

#include "paracc/runtime/InstrWalk.h"

#include "paracc/runtime/CommunicationInstr.h"

#include <algorithm>

namespace paracc::rt {

InstrBackend::~InstrBackend() = default;

static InstrKind kindOf(OpCode op) {
  switch (op) {
  case OpCode::Reshape:
    return InstrKind::Alias;
  case OpCode::Linear:
    return InstrKind::Linear;
  case OpCode::Gemm:
    return InstrKind::Gemm;
  case OpCode::LocalShard:
    return InstrKind::LocalShard;
  case OpCode::AxisIndex:
    return InstrKind::AxisIndex;
  default:
    return isCollective(op) ? InstrKind::Collective : InstrKind::Compute;
  }
}

/// The operand and result counts an executor indexes into without looking
/// (the kernels' own checks come later, or not at all on the GPU), in the
/// kernels' words.
static Status checkArity(const InstrInfo &instr, size_t minIn, size_t maxIn,
                         size_t nOut) {
  const char *op = opCodeMnemonic(instr.opcode);
  const size_t in = instr.inputs.size();
  if (in < minIn || in > maxIn) {
    if (minIn == maxIn)
      return errorf(op, ": expected ", minIn, " operand", minIn == 1 ? "" : "s",
                    ", got ", in);
    return errorf(op, ": expected ", minIn, " to ", maxIn, " operands, got ",
                  in);
  }
  if (instr.outputs.size() != nOut)
    return errorf(op, ": expected ", nOut, " result", nOut == 1 ? "" : "s",
                  ", got ", instr.outputs.size());
  return Status::ok();
}

static Status decodeLinearInstr(const InstrInfo &instr,
                                const LinearAttrs &stored, const Mesh &mesh,
                                int64_t rank, LinearInstr &l) {
  PARACC_RETURN_IF_ERROR(checkArity(instr, 2, 4, 1));
  PARACC_RETURN_IF_ERROR(localLinear(stored, instr.inputs.size(), mesh, rank,
                                     l.attrs, l.numInputs));
  // Every rank checks the addends as the group's first member, which adds
  // them, sees them: a malformed form fails on all ranks, not on that one
  // alone. (The other members' form, without addends, then holds too.)
  LinearAttrs first = stored;
  first.addendGroup.clear();
  LinearForm firstForm;
  PARACC_RETURN_IF_ERROR(decodeLinear(first, instr.inputs.size(), firstForm));
  return decodeLinear(l.attrs, l.numInputs, l.form);
}

static Status decodeGemm(const InstrInfo &instr, const GemmAttrs &attrs,
                         GemmInstr &g) {
  PARACC_RETURN_IF_ERROR(checkArity(instr, 2, 3, 1));
  g.transA = attrs.transA;
  g.transB = attrs.transB;
  g.alpha = attrs.alpha;
  g.beta = attrs.beta;
  g.hasC = instr.inputs.size() == 3;
  return Status::ok();
}

/// A checked communication instruction's fields.
static CollectiveInstr decodeCollective(const InstrInfo &instr,
                                        const OpAttrs &attrs) {
  CollectiveInstr c;
  c.opcode = instr.opcode;
  switch (instr.opcode) {
  case OpCode::AllReduce: {
    const auto &a = std::get<AllReduceAttrs>(attrs);
    c.axes = a.axes;
    c.reduceMax = a.reduction == 1; // 0 sum, 1 max
    break;
  }
  case OpCode::AllGather:
  case OpCode::ReduceScatter: {
    const auto &a = std::get<AllGatherAttrs>(attrs);
    c.axes = a.axes;
    c.dim = a.dim;
    break;
  }
  case OpCode::AllToAll: {
    const auto &a = std::get<AllToAllAttrs>(attrs);
    c.axes = a.axes;
    c.splitDim = a.splitDim;
    c.concatDim = a.concatDim;
    break;
  }
  case OpCode::Broadcast: {
    const auto &a = std::get<BroadcastAttrs>(attrs);
    c.axes = a.axes;
    c.root = a.root;
    break;
  }
  case OpCode::Send:
  case OpCode::Recv: {
    const auto &a = std::get<SendAttrs>(attrs);
    c.axes = a.axes;
    c.peerOffset = a.peerOffset;
    c.tag = uint32_t(a.tag);
    break;
  }
  case OpCode::RingShift: {
    const auto &a = std::get<RingShiftAttrs>(attrs);
    c.axes = a.axes;
    c.peerOffset = a.shift;
    break;
  }
  case OpCode::ExpertParallelMoe:
  case OpCode::ExpertParallelMoeGrad:
    c.axes = std::get<ExpertParallelMoeAttrs>(attrs).axes;
    break;
  default:
    break;
  }
  return c;
}

/// Decodes `instr` (of a function with `values`) for `rank` into `d`.
static Status decodeInstr(const InstrInfo &instr,
                          const std::vector<ValueType> &values,
                          const Mesh &mesh, int64_t rank, DecodedInstr &d) {
  d.instr = &instr;
  d.kind = kindOf(instr.opcode);
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(instr.opcode, instr.attrs, d.attrs));
  // Loading checked the communication instructions; checking again here
  // (once per rank and function) holds whatever built the instruction.
  if (isCollective(instr.opcode))
    PARACC_RETURN_IF_ERROR(
        checkCommunicationInstr(instr, d.attrs, mesh, values));
  switch (d.kind) {
  case InstrKind::Compute:
    return Status::ok();
  case InstrKind::Alias:
    return checkArity(instr, 1, 1, 1);
  case InstrKind::Linear: {
    LinearInstr l;
    PARACC_RETURN_IF_ERROR(decodeLinearInstr(
        instr, std::get<LinearAttrs>(d.attrs), mesh, rank, l));
    d.payload = std::move(l);
    return Status::ok();
  }
  case InstrKind::Gemm: {
    GemmInstr g;
    PARACC_RETURN_IF_ERROR(decodeGemm(instr, std::get<GemmAttrs>(d.attrs), g));
    d.payload = g;
    return Status::ok();
  }
  case InstrKind::Collective:
    d.payload = decodeCollective(instr, d.attrs);
    return Status::ok();
  case InstrKind::LocalShard:
    d.payload = LocalShardInstr{
        localShardOffsets(std::get<LocalShardAttrs>(d.attrs), mesh, rank,
                          values[instr.outputs[0]].shape)};
    return Status::ok();
  case InstrKind::AxisIndex:
    d.payload = AxisIndexInstr{
        mesh.groupIndex(rank, std::get<AxisIndexAttrs>(d.attrs).axes)};
    return Status::ok();
  }
  return Status::ok();
}

StatusOr<std::vector<DecodedInstr>>
decodeInstructions(const FunctionInfo &f, const Mesh &mesh, int64_t rank) {
  std::vector<DecodedInstr> decoded(f.instrs.size());
  for (size_t i = 0; i < f.instrs.size(); ++i) {
    const InstrInfo &instr = f.instrs[i];
    DecodedInstr &d = decoded[i];
    d.context = "rank " + std::to_string(rank) + ", " +
                opCodeMnemonic(instr.opcode) +
                (instr.name.empty() ? "" : " '" + instr.name + "'");
    PARACC_RETURN_IF_ERROR(
        decodeInstr(instr, f.values, mesh, rank, d).withContext(d.context));
  }
  return decoded;
}

Status dispatchInstr(const DecodedInstr &d, InstrBackend &backend) {
  Status st;
  switch (d.kind) {
  case InstrKind::Compute:
    st = backend.compute(d);
    break;
  case InstrKind::Alias:
    st = backend.alias(d);
    break;
  case InstrKind::Linear:
    st = backend.linear(d, d.linear());
    break;
  case InstrKind::Gemm:
    st = backend.gemm(d, d.gemm());
    break;
  case InstrKind::Collective:
    st = backend.collective(d, d.collective());
    break;
  case InstrKind::LocalShard:
    st = backend.localShard(d, d.localShard());
    break;
  case InstrKind::AxisIndex:
    st = backend.axisIndex(d, d.axisIndex());
    break;
  }
  return st.withContext(d.context);
}

} // namespace paracc::rt
