//===- GradientInterface.td - Reverse-mode gradient rules --*- tablegen -*-===//
//
// The interface through which `--paracc-autodiff` asks an op for the
// gradients of its operands. Every differentiable graph op implements it
// (lib/Dialect/Graph/IR/Gradients/, one rule per op); an op without it is
// reported as having no gradient.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_TD
#define PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_TD

include "mlir/IR/OpBase.td"

def Graph_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::mlir::paracc::graph";
  let description = [{
    The vector-Jacobian product of an op: given the gradients of the loss
    with respect to the op's results, build (at the builder's insertion
    point, with graph ops) the gradients with respect to its operands.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the operand gradients. `resultGradients` has one entry per
        result, null for a result the loss does not depend on (at least one
        is non-null). `operandGradients` comes sized to the operand count,
        all null; the rule sets the entries of the operands that have a
        gradient, each of its operand's type. Fails (with a diagnostic on the
        op) for a configuration the rule does not support.
      }],
      "::llvm::LogicalResult", "buildGradients",
      (ins "::mlir::OpBuilder &":$builder,
           "::llvm::ArrayRef<::mlir::Value>":$resultGradients,
           "::llvm::MutableArrayRef<::mlir::Value>":$operandGradients)>,
  ];
}

#endif // PARACC_DIALECT_GRAPH_IR_GRADIENTINTERFACE_TD
