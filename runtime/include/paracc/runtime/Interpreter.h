//===- Interpreter.h - Running executables on the CPU ----------*- C++ -*-===//
//
// Executes every rank of an SPMD executable with the CPU kernels: the global
// inputs are split into each rank's shards, each rank runs the instruction
// list, and the ranks' output shards are assembled into global outputs.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_INTERPRETER_H
#define PARACC_RUNTIME_INTERPRETER_H

#include "paracc/runtime/Collectives.h"
#include "paracc/runtime/Executable.h"

#include <functional>
#include <memory>
#include <vector>

namespace paracc::rt {

/// One rank's execution state: its weights and constants, loaded once, and
/// the instruction loop.
class RankExecutor {
public:
  RankExecutor(std::shared_ptr<const Executable> exe, int64_t rank,
               Communicator &comm);
  /// Materializes this rank's weight shards and constants.
  Status prepare();
  /// Runs the program on this rank's input shards.
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  int64_t rank() const { return rank_; }

private:
  Status runInstr(size_t index, std::vector<Tensor> &values);

  std::shared_ptr<const Executable> exe_;
  int64_t rank_;
  Communicator &comm_;
  /// Values that live across runs (weights, constants).
  std::vector<Tensor> resident_;
  /// Per value, the index of the last instruction that reads it (-1: none).
  std::vector<int64_t> lastUse_;
};

/// Fills `local` (the block at `offsets` of a tensor of `globalShape`) with
/// the deterministic uniform values of a random weight, so that every
/// sharding of the same weight holds the same numbers.
Status fillRandomWeight(Tensor &local, const Shape &globalShape,
                        const std::vector<int64_t> &offsets, uint64_t seed,
                        float scale);

/// Checks that `inputs` match the executable's global input types.
Status checkGlobalInputs(const Executable &exe,
                         const std::vector<Tensor> &inputs);

/// Runs every rank as a thread with CPU kernels and returns the global
/// outputs. `makeCommunicator(rank)` supplies each rank's communicator (null:
/// single-rank meshes only).
StatusOr<std::vector<Tensor>> runOnCpu(
    std::shared_ptr<const Executable> exe, const std::vector<Tensor> &inputs,
    const std::function<std::unique_ptr<Communicator>(int64_t)>
        &makeCommunicator = nullptr);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INTERPRETER_H
