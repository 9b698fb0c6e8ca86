//===- ExecutableWriter.h - Lowering to the runtime's .pcx -----*- C++ -*-===//
//
// Lowers a function of graph ops (one SPMD program with local shapes) to
// the runtime's executable: value table, constants and weight data in the
// data segment, one instruction per op, and the mesh and shardings that the
// partitioner recorded (the module's `dist.mesh`, and `dist.global_type`
// and `dist.shard_dims` on ports, weights and state). Without them the
// program runs on one rank with global = local types.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_TARGET_EXECUTABLE_EXECUTABLEWRITER_H
#define PARACC_TARGET_EXECUTABLE_EXECUTABLEWRITER_H

#include "mlir/IR/Operation.h"
#include "paracc/Support/WeightStore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::paracc {

struct ExecutableOptions {
  std::string producer = "paracc";
  /// A training step's optimizer and settings, which checkpoints record.
  std::string training;
  /// Copy every weight into the executable. Otherwise a weight whose bytes
  /// are a range of a file (ONNX external data), used whole and in its own
  /// type, is referenced: path, offset, size and fingerprint; the runtime
  /// maps the file.
  bool embedWeights = false;
  /// The cost model's rate table ("cpu", "h200") whose predicted time each
  /// compute instruction records, for profiles to print next to the
  /// measured one; empty: none recorded.
  std::string costRates;
};

/// Lowers `op` to executable bytes, or fails with a diagnostic (an op
/// without an instruction, a weight without data): a func.func, or a module
/// whose functions are all written (a pipelined program's stages, marked
/// `dist.pipeline_function` / `dist.pipeline_stage` / `dist.pipeline_axis`).
FailureOr<std::vector<uint8_t>>
writeExecutable(Operation *func, const WeightStore &weights,
                const ExecutableOptions &options = {});

} // namespace mlir::paracc

#endif // PARACC_TARGET_EXECUTABLE_EXECUTABLEWRITER_H
