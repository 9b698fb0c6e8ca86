//===- RunOptions.h - Where a program runs, and the training loop -*- C++
//-*-===//
//
// The options of running a compiled program (RunOptions) and of the
// training loop (TrainerOptions), declared once (OptionsBinder.h) for
// `paracc`, `paracc train` and the C API's Session and Trainer, which copy
// them into the runtime's requests.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_RUNOPTIONS_H
#define PARACC_DRIVER_RUNOPTIONS_H

#include "paracc/Compiler/OptionsBinder.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::paracc {

/// How a program runs on GPUs (where it runs is CompileOptions::device).
struct RunOptions {
  /// f32 products and attention on TF32 tensor cores.
  bool allowTf32 = false;
  /// Each step eagerly instead of as a CUDA graph.
  bool noCudaGraph = false;

  void bindOptions(OptionsBinder &binder);
};

/// A token model's inputs, [batch, seq] each: the shapes a training step is
/// compiled for when no input shapes are given.
struct TokenBatchOptions {
  std::optional<int64_t> batch, seq;

  void bindOptions(OptionsBinder &binder);
};

/// The training loop: data, steps, learning rate, log, checkpoints.
struct TrainerOptions {
  /// A flat token file, or a folder of input_N.pb batches.
  std::string data, dataDir;
  std::string dataDtype = "u16";
  /// Shuffle the batches with this seed (0: in file order).
  uint64_t dataSeed = 0;
  int64_t steps = 1;
  double lr = 3e-4;
  LrSchedule lrSchedule = LrSchedule::Constant;
  int64_t warmup = 0;
  double minLr = 0.0;
  std::string logJson;
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
  bool resume = false;

  void bindOptions(OptionsBinder &binder);
};

} // namespace mlir::paracc

#endif // PARACC_DRIVER_RUNOPTIONS_H
