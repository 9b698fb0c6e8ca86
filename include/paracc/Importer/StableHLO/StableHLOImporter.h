//===- StableHLOImporter.h - StableHLO (as JAX prints it) to graph -*- C++ -*-===//
//
// Imports a StableHLO module, in the pretty form `jax.jit(f).lower(x)
// .as_text()` prints or in MLIR's generic form, into a module holding one
// `func.func @main` of graph-dialect ops, as the ONNX importer does: the
// entry function's arguments are the inputs (input_N), its results the
// outputs (output_N), closed-over float parameters become weights. The
// StableHLO dialect is not linked: pretty ops are rewritten to generic form
// and parsed as unregistered ops.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_IMPORTER_STABLEHLO_STABLEHLOIMPORTER_H
#define PARACC_IMPORTER_STABLEHLO_STABLEHLOIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "paracc/Support/WeightStore.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::paracc {

/// Whether MLIR text holds StableHLO (or CHLO) ops.
bool looksLikeStableHLO(StringRef text);

struct StableHLOImportResult {
  OwningOpRef<ModuleOp> module;
  /// Set when the module uses an op or a form paracc does not read (the
  /// tools exit with 3), as opposed to malformed text (2).
  bool unsupported = false;
};

/// The entry function's leading arguments that are parameters (JAX passes
/// a params pytree as its flattened leaves before the data): they become
/// weights named after `data` (or param_N), with `data`'s bytes, or none
/// (the WeightStore's random fill) past its end.
struct StableHLOParameters {
  int64_t count = 0;
  std::vector<std::pair<std::string, WeightEntry>> data;
};

/// Imports `text`; `name` stands for it in messages (its locations are
/// `name:LINE:COL` of the input). Diagnostics go to the context's handler.
StableHLOImportResult importStableHLO(MLIRContext &context, StringRef text,
                                      StringRef name, WeightStore &weights,
                                      const StableHLOParameters &params = {});

} // namespace mlir::paracc

#endif // PARACC_IMPORTER_STABLEHLO_STABLEHLOIMPORTER_H
