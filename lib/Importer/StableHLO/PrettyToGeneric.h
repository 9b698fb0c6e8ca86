//===- PrettyToGeneric.h - StableHLO's pretty form to generic ---*- C++ -*-===//
//
// The StableHLO dialect is not in Debian's MLIR, so its custom assembly
// (what `jax.jit(f).lower(x).as_text()` prints) cannot be parsed as is. This
// rewrites each pretty-printed stablehlo/chlo op into MLIR's generic form,
// which MLIR parses with unregistered dialects: the same op names,
// attributes as StableHLO's generic form spells them
// (`#stablehlo.dot<...>`, `#stablehlo<comparison_direction GT>`, ...). An
// op keeps its line (a reduce's region goes on the same line), so the
// parser's locations are the input's lines.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_IMPORTER_STABLEHLO_PRETTYTOGENERIC_H
#define PARACC_LIB_IMPORTER_STABLEHLO_PRETTYTOGENERIC_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::paracc::stablehlo {

/// The rewritten text, or an empty optional with `error` ("LINE:COL:
/// message") for an op whose pretty form is not understood.
struct RewriteResult {
  std::string text;
  bool ok = true;
  unsigned line = 0, column = 0;
  std::string error;
};

RewriteResult prettyToGeneric(llvm::StringRef text);

} // namespace mlir::paracc::stablehlo

#endif // PARACC_LIB_IMPORTER_STABLEHLO_PRETTYTOGENERIC_H
