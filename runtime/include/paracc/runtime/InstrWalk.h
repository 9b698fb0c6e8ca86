//===- InstrWalk.h - One instruction walk for every executor ---*- C++ -*-===//
//
// The CPU interpreter (RankExecutor) and the GPU executor (GpuRank) run the
// same instruction lists. Each decodes a function's list once per rank, when
// it selects or sets up the function, into DecodedInstrs: the instruction's
// kind and, where the kind has any, its attributes as typed fields resolved
// for the rank (a linear's addends, a gemm's transposes and scales, a
// collective's group and own ints, a local_shard's offsets, an axis_index's
// value). Running an instruction is then one dispatchInstr call, which holds
// the only switch over the kinds, into the executor's InstrBackend; the
// backends keep what is theirs alone (the CPU's kernels and Communicator,
// the GPU's kernels, cuBLASLt, NCCL and CPU fallbacks).
//
// A malformed attribute is an error at decode time that names the
// instruction. Decoding checks what every rank checks alike (a linear's
// addends as the group member that keeps them sees them), so a malformed
// program fails on every rank before any rank communicates, never on one
// rank while its peers wait on it.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_INSTRWALK_H
#define PARACC_RUNTIME_INSTRWALK_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/LinearAddends.h"
#include "paracc/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace paracc::rt {

/// How an executor runs an instruction.
enum class InstrKind : uint8_t {
  /// A kernel over the operands, with the instruction's own attributes.
  Compute,
  /// reshape: the result holds the operand's bytes (on the GPU an alias of
  /// the operand's buffer; the CPU may copy them).
  Alias,
  Linear,
  Gemm,
  /// all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send,
  /// recv: on a communicator.
  Collective,
  LocalShard,
  AxisIndex,
};

/// A linear as this rank runs it (LinearAddends.h).
struct LinearInstr {
  /// The attributes the kernels take, the addend group resolved for this
  /// rank, and the operands it reads (x, w, then the bias and the residual
  /// when this rank adds them).
  LinearAttrs attrs;
  size_t numInputs = 0;
  LinearForm form;
};

/// gemm: y = alpha * op(a) @ op(b) + beta * c, c optional.
struct GemmInstr {
  bool transA = false, transB = false;
  double alpha = 1, beta = 0;
  /// Whether a third operand (c) is there.
  bool hasC = false;
};

/// A communication instruction's group and own ints, by name. Only the
/// fields of `opcode` are meaningful.
struct CollectiveInstr {
  OpCode opcode = OpCode::AllReduce;
  /// The mesh axes of the group.
  std::vector<int> axes;
  /// all_reduce: the elementwise maximum instead of the sum.
  bool reduceMax = false;
  /// all_gather: the concatenation dim; reduce_scatter: the split dim.
  int64_t dim = 0;
  /// all_to_all: the dim split into pieces sent to the members, and the
  /// dim the received pieces are concatenated along.
  int64_t splitDim = 0, concatDim = 0;
  /// broadcast: the group index of the member whose operand every member
  /// receives.
  int64_t root = 0;
  /// send and recv: the peer's group index minus this member's, and the
  /// tag that pairs them; ring_shift: the shift (the tag stays 0).
  int64_t peerOffset = 0;
  uint32_t tag = 0;
};

/// local_shard: where this rank's block starts in the operand.
struct LocalShardInstr {
  std::vector<int64_t> offsets;
};

/// axis_index: this rank's index in the group.
struct AxisIndexInstr {
  int64_t index = 0;
};

/// An instruction decoded for one rank.
struct DecodedInstr {
  /// The instruction, in the function it was decoded from.
  const InstrInfo *instr = nullptr;
  InstrKind kind = InstrKind::Compute;
  /// What an error names: "rank R, mnemonic 'name'".
  std::string context;
  /// The instruction's typed attributes (decodeOpAttrs); the communication
  /// instructions' fields are also the payload's. A linear's, as stored,
  /// with its addend group; LinearInstr has them resolved for the rank.
  OpAttrs attrs;
  /// The kind's fields (none for Compute and Alias).
  std::variant<std::monostate, LinearInstr, GemmInstr, CollectiveInstr,
               LocalShardInstr, AxisIndexInstr>
      payload;

  const LinearInstr &linear() const { return std::get<LinearInstr>(payload); }
  const GemmInstr &gemm() const { return std::get<GemmInstr>(payload); }
  const CollectiveInstr &collective() const {
    return std::get<CollectiveInstr>(payload);
  }
  const LocalShardInstr &localShard() const {
    return std::get<LocalShardInstr>(payload);
  }
  const AxisIndexInstr &axisIndex() const {
    return std::get<AxisIndexInstr>(payload);
  }
};

/// Decodes every instruction of `f` (a function of an executable on
/// `mesh`) for `rank`. An error names the instruction as running it would.
StatusOr<std::vector<DecodedInstr>>
decodeInstructions(const FunctionInfo &f, const Mesh &mesh, int64_t rank);

/// What an executor does per kind of instruction. Each method runs the
/// instruction `d` (operands and results as the executor placed them) with
/// its decoded fields.
class InstrBackend {
public:
  virtual ~InstrBackend();
  virtual Status compute(const DecodedInstr &d) = 0;
  virtual Status alias(const DecodedInstr &d) = 0;
  virtual Status linear(const DecodedInstr &d, const LinearInstr &l) = 0;
  virtual Status gemm(const DecodedInstr &d, const GemmInstr &g) = 0;
  virtual Status collective(const DecodedInstr &d,
                            const CollectiveInstr &c) = 0;
  virtual Status localShard(const DecodedInstr &d,
                            const LocalShardInstr &s) = 0;
  virtual Status axisIndex(const DecodedInstr &d, const AxisIndexInstr &a) = 0;
};

/// Calls the method of `backend` for `d`'s kind; a failure is prefixed with
/// `d.context`.
Status dispatchInstr(const DecodedInstr &d, InstrBackend &backend);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INSTRWALK_H
