//===- ScalarConstant.h - Rank-0 graph.constant builder ---------*- C++ -*-===//
//
// The one way passes and gradient rules make a rank-0 graph.constant of a
// given element type (a loss coefficient, an optimizer's clip threshold, a
// gradient rule's 1/n).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_SCALARCONSTANT_H
#define PARACC_DIALECT_GRAPH_IR_SCALARCONSTANT_H

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {

/// A rank-0 graph.constant of `elementType` (a float type, or an integer
/// type: `value` truncated toward zero) holding `value`.
Value createScalarConstant(OpBuilder &b, Location loc, Type elementType,
                           double value);

} // namespace mlir::paracc::graph

#endif // PARACC_DIALECT_GRAPH_IR_SCALARCONSTANT_H
