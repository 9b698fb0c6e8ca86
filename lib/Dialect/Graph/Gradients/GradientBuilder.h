//===- GradientBuilder.h - Helpers for writing gradient rules --*- C++ -*-===//
//
// What the gradient rules share: sums of broadcast gradients back to an
// operand's shape, scalar constants, zeros, and the glue that lets a rule be
// a plain function of (builder, op, result gradients, operand gradients).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_GRADIENTS_GRADIENTBUILDER_H
#define PARACC_LIB_DIALECT_GRAPH_GRADIENTS_GRADIENTBUILDER_H

#include "paracc/Dialect/Graph/IR/GradientInterface.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {

/// Builds the ops of one gradient rule at the builder's insertion point,
/// with the forward op's location.
class GradientBuilder {
public:
  GradientBuilder(OpBuilder &b, Operation *op) : b(b), loc(op->getLoc()) {}

  /// `grad` (of a broadcast result) summed back to `shape`: leading dims
  /// and dims broadcast from 1 are reduced.
  Value sumToShape(Value grad, ArrayRef<int64_t> shape);
  /// `sumToShape` to `like`'s shape.
  Value sumTo(Value grad, Value like) {
    return sumToShape(grad, cast<RankedTensorType>(like.getType()).getShape());
  }
  /// A rank-0 constant of `elementType`.
  Value scalar(Type elementType, double value);
  /// A rank-0 constant of `like`'s element type.
  Value scalarLike(Value like, double value) {
    return scalar(elementType(like), value);
  }
  /// Zeros of `type`.
  Value zeros(RankedTensorType type);
  Value reshape(Value x, ArrayRef<int64_t> shape);
  Value reshapeLike(Value x, Value like) {
    return reshape(x, cast<RankedTensorType>(like.getType()).getShape());
  }
  /// `x` broadcast to `shape`.
  Value expand(Value x, ArrayRef<int64_t> shape);
  Value transpose(Value x, ArrayRef<int64_t> perm);
  /// `x` with its last two dims swapped.
  Value transposeLastTwo(Value x);
  /// `x` summed over `axes`, keeping them as size 1.
  Value sumKeep(Value x, ArrayRef<int64_t> axes);

  Value add(Value a, Value c) { return AddOp::create(b, loc, a, c); }
  Value sub(Value a, Value c) { return SubOp::create(b, loc, a, c); }
  Value mul(Value a, Value c) { return MulOp::create(b, loc, a, c); }
  Value div(Value a, Value c) { return DivOp::create(b, loc, a, c); }
  Value neg(Value a) { return NegOp::create(b, loc, a); }
  /// `where(cond, x, 0)`.
  Value maskOrZero(Value cond, Value x);

  static Type elementType(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  static bool isFloat(Value v) { return isa<FloatType>(elementType(v)); }

  OpBuilder &b;
  Location loc;
};

/// Registers the rules of each family (ElementwiseGradients.cpp,
/// ShapeGradients.cpp, NetworkGradients.cpp, ConvolutionGradients.cpp,
/// MoeGradients.cpp).
void registerElementwiseGradients(MLIRContext *ctx);
void registerShapeGradients(MLIRContext *ctx);
void registerNetworkGradients(MLIRContext *ctx);
void registerConvolutionGradients(MLIRContext *ctx);
void registerMoeGradients(MLIRContext *ctx);

/// A gradient rule: fills `dx` (one entry per operand) from `dy` (one per
/// result, null where the loss does not depend on it).
template <typename OpTy>
using GradientRule = LogicalResult (*)(GradientBuilder &, OpTy, ArrayRef<Value>,
                                       MutableArrayRef<Value>);

/// Attaches `Rule` to `OpTy` as its GradientOpInterface.
template <typename OpTy, GradientRule<OpTy> Rule>
struct RuleModel
    : public GradientOpInterface::ExternalModel<RuleModel<OpTy, Rule>, OpTy> {
  LogicalResult buildGradients(Operation *op, OpBuilder &b, ArrayRef<Value> dy,
                               MutableArrayRef<Value> dx) const {
    GradientBuilder g(b, op);
    return Rule(g, cast<OpTy>(op), dy, dx);
  }
};

template <typename OpTy, GradientRule<OpTy> Rule>
void attachRule(MLIRContext *ctx) {
  OpTy::template attachInterface<RuleModel<OpTy, Rule>>(*ctx);
}

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_GRADIENTS_GRADIENTBUILDER_H
