//===- GraphDialect.h - Graph dialect ---------------------------*- C++ -*-===//
//
// Declares the graph dialect.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "paracc/Dialect/Graph/IR/GraphDialect.h.inc"

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHDIALECT_H
