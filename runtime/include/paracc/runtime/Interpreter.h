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
#include "paracc/runtime/InstrWalk.h"
#include "paracc/runtime/Profile.h"
#include "paracc/runtime/RankGroup.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace paracc::rt {

/// One rank's execution state: its shard of every state buffer, which
/// persists across runs, the selected function's constants and decoded
/// instructions, and the instruction loop.
class RankExecutor {
public:
  RankExecutor(std::shared_ptr<const Executable> exe, int64_t rank,
               Communicator &comm, size_t function = 0);
  /// Materializes this rank's state shards (weights from the data segment
  /// or generated, zeros) and prepares the function.
  Status prepare();
  /// Runs another function from now on (the state stays).
  Status select(size_t function);
  /// Runs the selected function on this rank's input shards; its state
  /// writes take effect at the end.
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  int64_t rank() const { return rank_; }
  /// This rank's shard of each state buffer, by state index.
  const std::vector<Tensor> &state() const { return state_; }
  /// Replaces a shard (a checkpoint's), of the same type.
  Status setState(size_t index, Tensor shard);
  /// Records the following runs' instructions into `recorder` (null: off).
  void setTimeline(TimelineRecorder *recorder) { timeline_ = recorder; }
  /// Times each instruction of the following runs into `profile` (null:
  /// off).
  void setProfile(Profile *profile) { profile_ = profile; }

private:
  /// Runs instruction `index` of the selected function; an error names it.
  Status runInstr(size_t index, std::vector<Tensor> &values);

  std::shared_ptr<const Executable> exe_;
  int64_t rank_;
  Communicator &comm_;
  size_t function_;
  std::vector<Tensor> state_;
  /// Values that live across runs of the function (its constants).
  std::vector<Tensor> resident_;
  /// Per value, the index of the last instruction that reads it (-1: none).
  std::vector<int64_t> lastUse_;
  /// The selected function's instructions, decoded for this rank.
  std::vector<DecodedInstr> decoded_;
  TimelineRecorder *timeline_ = nullptr;
  Profile *profile_ = nullptr;
};

/// This rank's shard of state buffer `s`, from the data segment (a view
/// when replicated), generated (random) or zeros.
StatusOr<Tensor> materializeStateShard(const Executable &exe,
                                       const StateInfo &s, int64_t rank);

/// Fills `local` (the block at `offsets` of a tensor of `globalShape`) with
/// the deterministic uniform values of a random weight, so that every
/// sharding of the same weight holds the same numbers.
Status fillRandomWeight(Tensor &local, const Shape &globalShape,
                        const std::vector<int64_t> &offsets, uint64_t seed,
                        float scale);

/// Checks that `inputs` match a function's global input types.
Status checkGlobalInputs(const FunctionInfo &f,
                         const std::vector<Tensor> &inputs);

/// Every rank of an executable on the CPU, as threads, with state that
/// persists across runs: what a training loop steps.
class CpuRanks : public RankGroup {
public:
  /// Creates the ranks' executors for `function` (communicators from
  /// `makeCommunicator`; null: single-rank meshes only) and materializes
  /// their state shards.
  static StatusOr<std::unique_ptr<CpuRanks>>
  create(std::shared_ptr<const Executable> exe, size_t function,
         const std::function<std::unique_ptr<Communicator>(int64_t)>
             &makeCommunicator);
  std::string describe() const override;
  Status recordTimeline(bool on) override;
  std::vector<TimelineEvent> timeline() const override;
  /// Times each instruction of `rank`'s following runs into `profile`
  /// (null: off).
  void profileRank(int64_t rank, Profile *profile);

protected:
  Status runRanks(const std::vector<std::vector<Tensor>> &inputs,
                  std::vector<std::vector<Tensor>> &outputs) override;
  StatusOr<Tensor> stateShard(int64_t rank, size_t index) const override;
  Status setStateShard(int64_t rank, size_t index, Tensor shard) override;

private:
  CpuRanks(std::shared_ptr<const Executable> exe, size_t function)
      : RankGroup(std::move(exe), function) {}
  void forEachRank(const std::function<void(int64_t)> &body);

  /// Kept alive with the communicators it made (they may share its store).
  std::function<std::unique_ptr<Communicator>(int64_t)> makeCommunicator_;
  std::vector<std::unique_ptr<Communicator>> communicators_;
  std::vector<std::unique_ptr<RankExecutor>> executors_;
  bool recording_ = false;
  std::vector<std::unique_ptr<TimelineRecorder>> recorders_;
};

/// Runs every rank as a thread with CPU kernels and returns the global
/// outputs. `makeCommunicator(rank)` supplies each rank's communicator (null:
/// single-rank meshes only).
StatusOr<std::vector<Tensor>> runOnCpu(
    std::shared_ptr<const Executable> exe, const std::vector<Tensor> &inputs,
    const std::function<std::unique_ptr<Communicator>(int64_t)>
        &makeCommunicator = nullptr);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INTERPRETER_H
