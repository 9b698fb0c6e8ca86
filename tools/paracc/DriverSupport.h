//===- DriverSupport.h - What paracc's subcommands share -------*- C++ -*-===//
//
// The pieces of the paracc driver that inference (paracc.cpp) and training
// (Train.cpp) share: diagnostics, the context, option parsing.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_TOOLS_PARACC_DRIVERSUPPORT_H
#define PARACC_TOOLS_PARACC_DRIVERSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::paracc {

/// Prints a diagnostic as "FILE: error: MESSAGE" (then its notes).
void printDiagnostic(Diagnostic &diag);

/// Loads the dialects, sharding and gradient rules and installs the
/// diagnostic printer.
void setUpDriverContext(MLIRContext &context);

/// Parses --mesh ("dp2,tp4") into axis names and sizes.
LogicalResult parseMesh(StringRef text, SmallVectorImpl<std::string> &names,
                        SmallVectorImpl<int64_t> &sizes);

/// The size of mesh axis `name` in parsed --mesh axes (0: not there).
int64_t meshAxisSize(ArrayRef<std::string> names, ArrayRef<int64_t> sizes,
                     StringRef name);

/// Checks the pipeline options against the mesh's pp size (0: no pp).
LogicalResult checkPipelineOptions(int64_t stages, StringRef schedule,
                                   StringRef ranges, bool sequenceParallel);

/// Cuts the forward graph into `stages` pipeline stages
/// (`--paracc-pipeline-stages`): `ranges` is "auto" or layer ranges.
LogicalResult planPipelineStages(ModuleOp module, int64_t stages,
                                 StringRef ranges, int64_t microbatches,
                                 StringRef schedule, bool training);

/// Parses --input-shape "NAME=2x64".
LogicalResult parseShapeOption(StringRef option, ONNXImportOptions &options);

/// Takes the input shapes from DIR/input_N.pb (by position, and by name
/// where the file names its tensor).
void addTestDataShapes(const std::string &dir, ONNXImportOptions &options);

/// Writes an executable's bytes to `path` ("wrote PATH (N bytes)").
LogicalResult writeExecutableFile(StringRef path, const uint8_t *bytes,
                                  size_t size);

/// Sets the module's `dist.mesh` from parsed --mesh axes.
void setModuleMesh(ModuleOp module, ArrayRef<std::string> names,
                   ArrayRef<int64_t> sizes);

/// `paracc train`: its subcommand, its option category, its entry point
/// (Train.cpp).
llvm::cl::SubCommand &trainSubCommand();
llvm::cl::OptionCategory &trainCategory();
int runTrain();

} // namespace mlir::paracc

#endif // PARACC_TOOLS_PARACC_DRIVERSUPPORT_H
