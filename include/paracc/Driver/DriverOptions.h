//===- DriverOptions.h - Parsing and checking compile options --*- C++ -*-===//
//
// The option texts every front end takes (the paracc tool's flags, the C
// API's option keys): a mesh ("dp2,tp4"), input shapes ("input_ids=2x64"),
// pipeline settings, and the pass pipeline's options made from them.
// Errors go to a stream as "paracc: error: ...".
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_DRIVEROPTIONS_H
#define PARACC_DRIVER_DRIVEROPTIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/Planner/CostModel.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::paracc {

/// The options every compile checks before importing: the mesh (parsed
/// into `mesh`), micro-batches in [1, 64], --sp only with a mesh.
LogicalResult checkCompileOptions(StringRef meshText, bool sequenceParallel,
                                  int64_t microbatches, MeshSpec &mesh,
                                  llvm::raw_ostream &err);

/// Checks the pipeline options against the mesh's pp size (0: no pp);
/// `virtualStages` resolved.
LogicalResult checkPipelineOptions(int64_t stages, PipelineSchedule schedule,
                                   int64_t virtualStages, int64_t microbatches,
                                   StringRef ranges, llvm::raw_ostream &err);

/// The phases' options that inference and training share: `parallel`
/// (virtual stages resolved) and the rates of `device`.
PhasedCompileOptions phasedCompileOptions(const ParallelOptions &parallel,
                                          Device device);

/// Parses an input shape "NAME=2x64" ("NAME=scalar" for rank 0) into
/// `options`.
LogicalResult parseShapeOption(StringRef option, ONNXImportOptions &options,
                               llvm::raw_ostream &err);

/// Takes the input shapes from DIR/input_N.pb (by position, and by name
/// where the file names its tensor).
void addTestDataShapes(const std::string &dir, ONNXImportOptions &options);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_DRIVEROPTIONS_H
