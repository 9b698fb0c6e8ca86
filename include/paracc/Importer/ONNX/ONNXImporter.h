//===- ONNXImporter.h - ONNX models to the graph dialect -------*- C++ -*-===//
//
// Imports an ONNX ModelProto (binary or protobuf text format) into a module
// holding one `func.func @main` of graph-dialect ops with static shapes.
// Shape and mask subgraphs are folded while importing; parameters become
// `graph.weight` ops whose data goes into a WeightStore.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_IMPORTER_ONNX_ONNXIMPORTER_H
#define PARACC_IMPORTER_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "paracc/Support/WeightStore.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir::paracc {

struct ONNXImportOptions {
  /// Concrete shapes of graph inputs, by name; they replace the model's
  /// symbolic or missing dims (and must agree with its fixed ones).
  llvm::StringMap<SmallVector<int64_t>> inputShapes;
  /// Concrete shapes of graph inputs by position (the ONNX backend-test
  /// convention for unnamed input_N.pb files); used where no name matches.
  SmallVector<std::optional<SmallVector<int64_t>>> inputShapesByPosition;
  /// Names in `inputShapes` that the user gave (--input-shape): each must be
  /// one of the model's inputs.
  llvm::StringSet<> namedByUser;
  /// Parse the file as protobuf text format instead of binary.
  bool textFormat = false;
  /// Keep initializers of floating type with at least this many elements as
  /// `graph.weight`s; smaller ones become constants.
  int64_t minWeightElements = 2;
  /// Accept initializers that carry a shape but no data (shape-only models
  /// for benchmarks); their weights are then filled with seeded random
  /// values (--random-weights).
  bool allowMissingWeightData = false;
  /// Read no weight's data at all, inline or external (the external files
  /// need not exist): a model imported to be planned from its shapes.
  bool shapesOnly = false;
  /// Name of the function to create.
  std::string functionName = "main";
};

/// Why an import failed.
enum class ImportFailure {
  None,
  /// The model is malformed or inconsistent (bad protobuf, bad shapes,
  /// unsafe external data, ...).
  Invalid,
  /// The model uses something paracc does not support (op, opset, attribute
  /// value, element type).
  Unsupported,
};

struct ONNXImportResult {
  OwningOpRef<ModuleOp> module;
  ImportFailure failure = ImportFailure::None;
};

/// Imports `path`. Diagnostics go to the context's handler; external data is
/// read relative to the model's folder and may not leave it.
ONNXImportResult importONNXFile(MLIRContext &context, const std::string &path,
                                const ONNXImportOptions &options,
                                WeightStore &weights);

/// Imports a model held in memory; `name` stands for it in messages.
/// External data is read from `externalDataDir` ("": the model may have
/// none).
ONNXImportResult importONNXBuffer(MLIRContext &context, StringRef bytes,
                                  const std::string &name,
                                  const std::string &externalDataDir,
                                  const ONNXImportOptions &options,
                                  WeightStore &weights);

/// Registers the dialects the importer creates.
void registerONNXImporterDialects(DialectRegistry &registry);

} // namespace mlir::paracc

#endif // PARACC_IMPORTER_ONNX_ONNXIMPORTER_H
