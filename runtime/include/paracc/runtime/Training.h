//===- Training.h - The training loop over a step executable ---*- C++ -*-===//
//
// What `paracc train` runs once the step function is compiled: token
// batches from a flat token file, the learning-rate schedule, one step per
// batch on the CPU ranks (whose state persists), a progress line and a JSON
// log line per step, and a stop with the step and the first parameter named
// when the loss or a gradient stops being finite.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_TRAINING_H
#define PARACC_RUNTIME_TRAINING_H

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/Executable.h"
#include "paracc/runtime/RankGroup.h"
#include "paracc/runtime/Status.h"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace paracc::rt {

/// The learning rate of step k (0-based): constant, or linear warm-up over
/// `warmup` steps (lr * (k + 1) / warmup) then cosine from lr to minLr over
/// the remaining steps of `steps`.
struct LrSchedule {
  std::string kind = "constant"; // "constant" or "cosine"
  double lr = 1e-3;
  double minLr = 0.0;
  int64_t warmup = 0;
  int64_t steps = 1;
  double at(int64_t step) const;
  /// Checks the settings: a known kind, lr > 0 and minLr >= 0 finite,
  /// steps >= 1, warmup in [0, steps]; the message names the option.
  Status validate() const;
};

/// Which of W windows step k reads: k mod W, or with a seed the k mod W-th
/// window of a seeded shuffle of the W windows (a new shuffle every epoch).
class EpochOrder {
public:
  int64_t window(int64_t step, int64_t windows, uint64_t seed) const;

private:
  /// One epoch's shuffled order, kept until the epoch changes.
  mutable std::vector<int64_t> order_;
  mutable int64_t epoch_ = -1;
};

/// A flat file of token ids (little-endian u16, nanoGPT's .bin, or u32),
/// read as windows of batch * seq tokens.
class TokenData {
public:
  static StatusOr<TokenData> load(const std::string &path,
                                  const std::string &dtype, int64_t batch,
                                  int64_t seq);
  /// The number of whole windows W.
  int64_t windows() const { return windows_; }
  /// Step k's batch [batch, seq] as i64: window k mod W, or with a data
  /// seed the k mod W-th window of a seeded shuffle of the W windows (a new
  /// shuffle every epoch).
  Tensor batch(int64_t step, uint64_t seed) const;

private:
  std::vector<int64_t> tokens_;
  int64_t batch_ = 0, seq_ = 0, windows_ = 0;
  EpochOrder order_;
};

/// Batches for models whose inputs are not token ids (`--data-dir`): the
/// subfolders of a folder, in name order, each holding input_N.pb (the
/// step's data inputs in graph input order, as ONNX test-data folders do);
/// a folder with input_0.pb itself is one batch.
class BatchFolders {
public:
  static StatusOr<BatchFolders> open(const std::string &dir);
  int64_t windows() const { return int64_t(folders_.size()); }
  const std::string &folder(int64_t i) const { return folders_[i]; }
  /// The folder step k reads (as TokenData picks windows).
  const std::string &folderFor(int64_t step, uint64_t seed) const {
    return folders_[order_.window(step, windows(), seed)];
  }

private:
  std::vector<std::string> folders_;
  EpochOrder order_;
};

struct TrainingRequest {
  std::string dataPath;
  /// Instead of dataPath: a folder of input_N.pb batches (BatchFolders).
  std::string dataDir;
  std::string dataDtype = "u16";
  uint64_t dataSeed = 0; // 0: windows in order
  int64_t steps = 1;
  LrSchedule schedule;
  std::string logJsonPath;
  /// Checkpoints: written to this folder every `checkpointEvery` steps (0:
  /// only at the end) when set; with `resume`, the run continues from its
  /// latest checkpoint (on this executable's mesh, whatever it was saved on).
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
  bool resume = false;
  CheckpointIdentity identity;
  /// When set, receives the trained state (whole tensors by name).
  std::map<std::string, Tensor> *finalState = nullptr;
  /// "auto" (GPUs when the machine has enough for the mesh, else the CPU),
  /// "cpu" or "gpu".
  std::string device = "auto";
  /// On GPUs: f32 products and attention on TF32 tensor cores; run eagerly, not
  /// as a CUDA graph.
  bool allowTf32 = false;
  bool noGraph = false;
  /// CPU ranks as paracc-run processes (`workerBinary`) instead of threads.
  bool processes = false;
  std::string workerBinary;
  /// Write the last step's timeline here (Chrome trace JSON and an SVG
  /// Gantt chart next to it; CPU ranks).
  std::string timelinePath;
  /// After the run, print the most bytes the CPU ranks' tensors held at once
  /// during the steps (ranks as threads: all of them together) and that
  /// divided by the ranks.
  bool reportMemory = false;
};

/// A mixture of experts' routing in one step (the step function's
/// expert_tokens result): per MoE layer, the (token, pick) slots each expert
/// received, and the most any expert received over the mean (1: even); with
/// a capacity (the expert_dropped result), the slots each layer dropped.
struct RoutingStats {
  std::vector<std::vector<int64_t>> tokens;
  std::vector<double> maxOverMean;
  std::vector<int64_t> dropped;

  /// The dropped slots' share of all slots, over the layers.
  double droppedShare() const;
};

/// One training step's figures.
struct StepRecord {
  /// The global step (from 0, continuing after a resume).
  int64_t step = 0;
  double loss = 0, gradNorm = 0, lr = 0, tokensPerSecond = 0, ms = 0;
  /// Empty for a model without experts.
  RoutingStats experts;
};

/// A training run, one step at a time: what runTraining loops over and
/// what the C API's callers step. Each step writes its progress line to
/// `out`, its JSON line to the log and its periodic checkpoint.
class Trainer {
public:
  /// Checks the step's ports, opens the data, starts the ranks (GPUs or
  /// CPU threads, as request.device says), resumes from the latest
  /// checkpoint when asked. `out` must outlive the trainer.
  static StatusOr<std::unique_ptr<Trainer>>
  create(std::shared_ptr<const Executable> exe, const TrainingRequest &request,
         std::ostream &out, std::ostream &err);
  ~Trainer();

  /// The global step the next step() runs.
  int64_t nextStep() const { return next_; }
  bool finished() const { return next_ >= request_.steps; }
  /// Runs the next step. A loss or gradient norm that is not finite stops
  /// the run with an error naming the step and the first parameter whose
  /// gradient is not finite (diverged() then says so).
  StatusOr<StepRecord> step();
  bool diverged() const { return diverged_; }
  /// After the last step: the final checkpoint, the memory line and the
  /// trained state (request.finalState).
  Status finish();
  /// The ranks and their state.
  RankGroup &ranks() { return *ranks_; }

private:
  struct Data;
  Trainer();
  Status saveCheckpointAt(int64_t nextStep);

  std::shared_ptr<const Executable> exe_;
  TrainingRequest request_;
  std::ostream *out_ = nullptr;
  size_t function_ = 0;
  int64_t tokensPerStep_ = 0;
  bool hasParts_ = false;
  /// The step function's expert_tokens and expert_dropped results, if it
  /// has them.
  std::optional<size_t> expertTokensOutput_, expertDroppedOutput_;
  std::unique_ptr<Data> data_;
  std::unique_ptr<RankGroup> ranks_;
  std::unique_ptr<std::ofstream> log_;
  int64_t first_ = 0, next_ = 0;
  bool diverged_ = false;
  std::chrono::steady_clock::time_point start_;
};

/// Runs request.steps steps of `exe`'s `step` function (inputs: the token
/// batch for every integer input, then lr and step; outputs: loss and
/// grad_norm) on GPUs or on the CPU (ranks as threads). Returns an exit
/// code.
int runTraining(std::shared_ptr<const Executable> exe,
                const TrainingRequest &request, std::ostream &out,
                std::ostream &err);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_TRAINING_H
