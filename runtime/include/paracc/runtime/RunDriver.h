//===- RunDriver.h - Inputs, running and checking outputs ------*- C++ -*-===//
//
// What `paracc` and `paracc-run` share after compilation: reading inputs
// (--input NAME=FILE.pb, an ONNX backend-test folder, or seeded random
// values), running the executable, comparing outputs with expected ones
// (max absolute and relative error, allclose with rtol/atol) and saving
// them.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_RUNDRIVER_H
#define PARACC_RUNTIME_RUNDRIVER_H

#include "paracc/runtime/Collectives.h"
#include "paracc/runtime/Executable.h"
#include "paracc/runtime/ExitCodes.h"
#include "paracc/runtime/Inputs.h"
#include "paracc/runtime/Profile.h"
#include "paracc/runtime/RankGroup.h"
#include "paracc/runtime/TensorProtoIO.h"
#include "paracc/runtime/Timeline.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace paracc::rt {

struct RunRequest {
  /// --input NAME=FILE pairs.
  std::vector<std::pair<std::string, std::string>> inputFiles;
  /// An ONNX backend-test folder: input_N.pb in, output_N.pb expected.
  std::string testDataDir;
  /// Where to write output_N.pb.
  std::string saveOutputsDir;
  double rtol = 1e-4;
  double atol = 1e-5;
  uint64_t seed = 0;
  /// Run every rank as its own process (paracc-run workers) instead of as
  /// threads; collectives rendezvous through files in a temporary folder.
  bool processes = false;
  /// The paracc-run binary that processes start.
  std::string workerBinary;
  /// "auto" (a GPU when there is one, else the CPU), "cpu" or "gpu".
  std::string device = "auto";
  /// After the checked run, time this many steps (GPU) after `warmup`.
  int benchmarkIterations = 0;
  int benchmarkWarmup = 5;
  /// After the checked run, time every instruction of this many eager,
  /// serialized steps (GPU, or CPU ranks as threads) and print where the
  /// time goes, next to the cost model's prediction.
  int profileSteps = 0;
  /// Also write rank 0's profile here, as JSON (Profile::json).
  std::string profileJsonPath;
  /// Run the GPU step eagerly instead of as a CUDA graph.
  bool noGraph = false;
  /// f32 matrix products and attention on TF32 tensor cores.
  bool allowTf32 = false;
  /// Write the run's timeline here (Chrome trace JSON, and an SVG Gantt
  /// chart next to it); CPU ranks as threads only.
  std::string timelinePath;
  /// Where a recorded run's measured bubble goes (optional).
  BubbleMeasurement *measuredBubble = nullptr;
  /// Where rank 0's profile goes when profileSteps > 0 (optional).
  Profile *measuredProfile = nullptr;
};

/// The paracc-run arguments that reproduce `request` (for launched ranks).
std::vector<std::string> requestArguments(const RunRequest &request);

/// Reads the --input files.
StatusOr<std::vector<NamedTensor>>
readInputFiles(const std::vector<std::pair<std::string, std::string>> &files);

/// Comparison of one output with its expected value.
struct Comparison {
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t mismatches = 0;
  bool shapeMismatch = false;
};
Comparison compareTensors(const Tensor &actual, const Tensor &expected,
                          double rtol, double atol);

/// Runs one rank of `exe` as a worker process: reads the global inputs from
/// DIR/input_N.pb, runs with a file-store rendezvous in DIR/store, writes its
/// local outputs to DIR/rank_R/output_N.pb. Returns an exit code.
int runWorker(std::shared_ptr<const Executable> exe, int64_t rank,
              const std::string &dir, std::ostream &err);

/// The path of paracc-run next to the running executable.
std::string siblingWorkerBinary();

/// Runs every rank of `exe` on the CPU (as threads, or as worker processes
/// with `request.processes`) on the global `inputs`; returns the global
/// outputs.
StatusOr<std::vector<Tensor>> runOnCpuRanks(std::shared_ptr<const Executable> exe,
                                            const std::vector<Tensor> &inputs,
                                            const RunRequest &request);

/// Runs the executable on the CPU (ranks as threads or processes), then compares and
/// saves per `request`, printing a report to `out`. Returns an exit code.
int runAndReport(std::shared_ptr<const Executable> exe,
                 const RunRequest &request, std::ostream &out,
                 std::ostream &err);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_RUNDRIVER_H
