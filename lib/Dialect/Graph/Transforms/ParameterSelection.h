//===- ParameterSelection.h - The weights a loss trains --------*- C++ -*-===//
//
// The parameters `--paracc-autodiff` differentiates: every float
// graph.weight the loss reads, less those frozen, each with the rule that
// froze it: model state (the model assigns it), --freeze, --train-only, or
// the buffers exporters write as initializers (auto-freeze): what an
// importer marked `graph.buffer` (BatchNorm's running statistics) and
// position tables, weights whose every path to the loss passes through
// sin or cos (rotary inv_freq).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_PARAMETERSELECTION_H
#define PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_PARAMETERSELECTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::paracc::graph {

struct ParameterSelectionOptions {
  std::string freeze;    // regular expression; empty: none
  std::string trainOnly; // regular expression; empty: all
  bool autoFreeze = true;
};

/// The frozen weights of `func` by name, with why, in program order.
/// Fails (with a diagnostic) on an invalid regular expression; warns when
/// --freeze or --train-only matches no weight.
FailureOr<llvm::MapVector<StringRef, std::string>>
selectFrozenParameters(func::FuncOp func,
                       const ParameterSelectionOptions &options);

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_PARAMETERSELECTION_H
