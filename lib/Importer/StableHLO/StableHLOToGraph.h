//===- StableHLOToGraph.h - StableHLO ops to the graph dialect --*- C++ -*-===//
//
// Converts a module of (unregistered, generic) stablehlo/chlo ops, as MLIR
// parses StableHLO without its dialect, into paracc's graph dialect: one
// `func.func @main` of graph ops. Closed-over float parameters (dense
// constants of rank <= 2 with >= 2 elements) become `graph.weight`s whose
// data goes into the WeightStore, so they are sharded like ONNX
// initializers; private functions are inlined at their calls.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_IMPORTER_STABLEHLO_STABLEHLOTOGRAPH_H
#define PARACC_LIB_IMPORTER_STABLEHLO_STABLEHLOTOGRAPH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "paracc/Importer/StableHLO/StableHLOImporter.h"
#include "paracc/Support/WeightStore.h"

namespace mlir::paracc::stablehlo {

/// The converted module, or null after a located error (`unsupported` set
/// when the input uses an op or a form paracc does not read).
OwningOpRef<ModuleOp> convertToGraph(ModuleOp input, WeightStore &weights,
                                     const StableHLOParameters &params,
                                     bool &unsupported);

} // namespace mlir::paracc::stablehlo

#endif // PARACC_LIB_IMPORTER_STABLEHLO_STABLEHLOTOGRAPH_H
