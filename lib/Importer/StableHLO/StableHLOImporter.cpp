//===- StableHLOImporter.cpp - StableHLO (as JAX prints it) to graph -----===//

#include "paracc/Importer/StableHLO/StableHLOImporter.h"

#include "PrettyToGeneric.h"
#include "StableHLOToGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc;

bool mlir::paracc::looksLikeStableHLO(StringRef text) {
  return text.contains("stablehlo.") || text.contains("chlo.");
}

StableHLOImportResult mlir::paracc::importStableHLO(MLIRContext &context,
                                                    StringRef text,
                                                    StringRef name,
                                                    WeightStore &weights,
                                                    const StableHLOParameters &params) {
  StableHLOImportResult result;
  context.loadDialect<func::FuncDialect, graph::GraphDialect,
                      dist::DistDialect>();
  stablehlo::RewriteResult generic = stablehlo::prettyToGeneric(text);
  if (!generic.ok) {
    result.unsupported = true;
    emitError(FileLineColLoc::get(&context, name, generic.line,
                                  generic.column))
        << generic.error;
    return result;
  }
  // stablehlo and chlo ops parse as unregistered ops, for this parse only.
  bool allowed = context.allowsUnregisteredDialects();
  context.allowUnregisteredDialects(true);
  OwningOpRef<ModuleOp> input = parseSourceString<ModuleOp>(
      generic.text, ParserConfig(&context), name);
  context.allowUnregisteredDialects(allowed);
  if (!input)
    return result;
  result.module =
      stablehlo::convertToGraph(*input, weights, params, result.unsupported);
  if (result.module && failed(mlir::verify(*result.module)))
    result.module = nullptr;
  return result;
}
