//===- ShapeOf.h - The static shape of a ranked tensor value ---*- C++ -*-===//
//
// Private to the graph transforms: the one-line shape query their patterns
// share (every graph value is a ranked tensor).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_SHAPEOF_H
#define PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_SHAPEOF_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace mlir::paracc::graph {

/// The shape of `v`, a ranked tensor.
inline ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_SHAPEOF_H
