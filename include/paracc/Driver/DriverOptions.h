//===- DriverOptions.h - Parsing and checking compile options --*- C++ -*-===//
//
// The option texts every front end takes (the paracc tool's flags, the C
// API's option keys): a mesh ("dp2,tp4"), input shapes ("input_ids=2x64"),
// pipeline settings. Errors go to a stream as "paracc: error: ...".
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_DRIVEROPTIONS_H
#define PARACC_DRIVER_DRIVEROPTIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::paracc {

/// Parses a mesh ("dp2,tp4"; "" or "1": one rank) into axis names and sizes.
LogicalResult parseMesh(StringRef text, SmallVectorImpl<std::string> &names,
                        SmallVectorImpl<int64_t> &sizes, llvm::raw_ostream &err);

/// The options every compile checks before importing: the mesh (parsed
/// into `names` and `sizes`), micro-batches in [1, 64], --sp only with a
/// mesh.
LogicalResult checkCompileOptions(StringRef mesh, bool sequenceParallel,
                                  int64_t microbatches,
                                  SmallVectorImpl<std::string> &names,
                                  SmallVectorImpl<int64_t> &sizes,
                                  llvm::raw_ostream &err);

/// The size of mesh axis `name` in parsed mesh axes (0: not there).
int64_t meshAxisSize(ArrayRef<std::string> names, ArrayRef<int64_t> sizes,
                     StringRef name);

/// The virtual stages (model chunks per rank) that --virtual-stages asks
/// for: 0 means 2 under the interleaved schedule and 1 otherwise.
int64_t resolveVirtualStages(PipelineSchedule schedule, int64_t virtualStages);

/// Checks the pipeline options against the mesh's pp size (0: no pp);
/// `virtualStages` resolved.
LogicalResult checkPipelineOptions(int64_t stages, PipelineSchedule schedule,
                                   int64_t virtualStages, int64_t microbatches,
                                   StringRef ranges, llvm::raw_ostream &err);

/// Cuts the forward graph into `stages` x `virtualStages` pipeline stages
/// (`--paracc-pipeline-stages`): `ranges` is "auto" or layer ranges.
LogicalResult planPipelineStages(ModuleOp module, int64_t stages,
                                 int64_t virtualStages, StringRef ranges,
                                 int64_t microbatches,
                                 PipelineSchedule schedule, bool training);

/// Gives the mesh its virtual last axis "mb" of `microbatches`: under pp
/// (`stages` > 0) after cutting the forward graph into stages
/// (planPipelineStages), the pipeline's m (even 1); without pp, when
/// `microbatches` > 1, the micro-batches interleaved on every rank.
LogicalResult addMicrobatchAxis(ModuleOp module, int64_t stages,
                                int64_t virtualStages, StringRef ranges,
                                int64_t microbatches, PipelineSchedule schedule,
                                bool training,
                                SmallVectorImpl<std::string> &names,
                                SmallVectorImpl<int64_t> &sizes);

/// Parses an input shape "NAME=2x64" ("NAME=scalar" for rank 0) into
/// `options`.
LogicalResult parseShapeOption(StringRef option, ONNXImportOptions &options,
                               llvm::raw_ostream &err);

/// Takes the input shapes from DIR/input_N.pb (by position, and by name
/// where the file names its tensor).
void addTestDataShapes(const std::string &dir, ONNXImportOptions &options);

/// Sets the module's `dist.mesh` from parsed mesh axes.
void setModuleMesh(ModuleOp module, ArrayRef<std::string> names,
                   ArrayRef<int64_t> sizes);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_DRIVEROPTIONS_H
