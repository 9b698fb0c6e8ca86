//===- AttentionFusion.h - Attention as exporters write it -----*- C++ -*-===//
//
// Private to the graph transforms: the attention part of
// `--paracc-graph-fusion` (GraphFusion.cpp runs it after its patterns).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONFUSION_H
#define PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONFUSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::paracc::graph {

/// Replaces every `matmul(softmax(mask(scale * q kᵀ)), v)` chain of `func`
/// that computes attention by graph.attention (see the pass description in
/// Passes.td for the forms and masks), and erases what it no longer uses.
/// Returns the number of attentions formed.
int64_t fuseAttentions(func::FuncOp func);

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONFUSION_H
