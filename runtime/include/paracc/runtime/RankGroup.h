//===- RankGroup.h - Every rank of an executable, with state ---*- C++ -*-===//
//
// What a training loop steps: all ranks of one function of an executable,
// whose state shards persist across runs, on the CPU (CpuRanks, ranks as
// threads) or on GPUs (one GPU per rank). The group splits global inputs
// into shards and assembles global outputs and state buffers from them, the
// same way for every backend; a backend only runs its ranks and reads or
// replaces one rank's shard.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_RANKGROUP_H
#define PARACC_RUNTIME_RANKGROUP_H

#include "paracc/runtime/Collectives.h"
#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Timeline.h"

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace paracc::rt {

class RankGroup {
public:
  virtual ~RankGroup();

  /// Runs the function on every rank with the global `inputs` (split into
  /// shards); returns the global outputs.
  StatusOr<std::vector<Tensor>> run(const std::vector<Tensor> &inputs);
  /// State buffer `index` assembled from the ranks' shards.
  StatusOr<Tensor> gatherState(size_t index) const;
  /// Gives every rank its shard of the global value of buffer `index`.
  Status scatterState(size_t index, const Tensor &global);
  /// Rank `rank`'s own shard of buffer `index` (a host copy), and its
  /// replacement: what sharded checkpoints save and load.
  StatusOr<Tensor> readStateShard(int64_t rank, size_t index) const {
    return stateShard(rank, index);
  }
  Status writeStateShard(int64_t rank, size_t index, Tensor shard) {
    return setStateShard(rank, index, std::move(shard));
  }

  const Executable &executable() const { return *exe_; }
  const FunctionInfo &function() const {
    return exe_->functions()[function_];
  }
  /// Where the ranks run, for messages: "4 CPU rank(s)", "1 GPU".
  virtual std::string describe() const = 0;
  /// The memory the ranks use now, as the devices report it ("" where
  /// nothing is measured: CPU ranks).
  virtual std::string memoryInUse() const { return ""; }
  /// One line on how the step runs on the devices (GPU ranks: kernels,
  /// products, collectives, CPU fallbacks and which, CUDA graph or not);
  /// empty on CPU ranks.
  virtual std::string summary() const { return ""; }
  /// Records a timeline of every following run (each run replaces it).
  virtual Status recordTimeline(bool on);
  /// The last recorded run's events, every rank's.
  virtual std::vector<TimelineEvent> timeline() const { return {}; }

protected:
  RankGroup(std::shared_ptr<const Executable> exe, size_t function)
      : exe_(std::move(exe)), function_(function) {}

  /// Runs every rank on its input shards. A failing rank stops the others;
  /// the error names the first that failed.
  virtual Status runRanks(const std::vector<std::vector<Tensor>> &inputs,
                          std::vector<std::vector<Tensor>> &outputs) = 0;
  /// Rank `rank`'s shard of buffer `index` (a host tensor).
  virtual StatusOr<Tensor> stateShard(int64_t rank, size_t index) const = 0;
  /// Replaces rank `rank`'s shard of buffer `index` (same type).
  virtual Status setStateShard(int64_t rank, size_t index, Tensor shard) = 0;

  std::shared_ptr<const Executable> exe_;
  size_t function_ = 0;
};

/// Makes each rank's communicator (null for a one-rank mesh).
using CommunicatorFactory =
    std::function<std::unique_ptr<Communicator>(int64_t)>;

/// Communicators for ranks that are threads of this process (Gloo), or an
/// error when the runtime has no Gloo and the mesh has several ranks.
StatusOr<CommunicatorFactory> inProcessCommunicators(const Mesh &mesh);

/// Where a RankGroup runs.
struct RankGroupOptions {
  /// "auto" (GPUs when the machine has one per rank), "cpu" or "gpu".
  std::string device = "auto";
  /// On GPUs: f32 products and attention on TF32 tensor cores; eager steps
  /// instead of a CUDA graph.
  bool allowTf32 = false;
  bool noGraph = false;
  /// CPU ranks as processes running `workerBinary` (paracc-run), each
  /// keeping its state, instead of threads (a one-rank mesh stays a
  /// thread).
  bool processes = false;
  std::string workerBinary;
};

/// Every rank of function `function` of `exe`, with its state: GPUs when
/// asked, or by default when the machine has one per rank; else CPU ranks
/// as threads or processes. Why a GPU machine runs on the CPU goes to
/// `notes`.
StatusOr<std::unique_ptr<RankGroup>>
createRankGroup(std::shared_ptr<const Executable> exe, size_t function,
                const RankGroupOptions &options, std::ostream &notes);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_RANKGROUP_H
