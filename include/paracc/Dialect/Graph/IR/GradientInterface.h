//===- GradientInterface.h - Reverse-mode gradient rules -------*- C++ -*-===//
//
// GradientOpInterface (GradientInterface.td) and the registration of the
// graph ops' gradient rules.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_H
#define PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "paracc/Dialect/Graph/IR/GradientInterface.h.inc"

namespace mlir {
class DialectRegistry;
namespace paracc::graph {
/// Attaches GradientOpInterface to every differentiable graph op.
void registerGraphGradientRules(DialectRegistry &registry);
} // namespace paracc::graph
} // namespace mlir

#endif // PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_H
