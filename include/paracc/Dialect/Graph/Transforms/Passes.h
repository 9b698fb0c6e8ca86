//===- Passes.h - Graph dialect passes --------------------------*- C++ -*-===//

#ifndef PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_H
#define PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::graph {

#define GEN_PASS_DECL
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"

} // namespace mlir::paracc::graph

#endif // PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_H
