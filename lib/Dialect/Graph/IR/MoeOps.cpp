//===- MoeOps.cpp - Mixture-of-experts op verifiers -------------*- C++ -*-===//
//
// graph.moe_experts and its gradient share the operand checks; each error
// has a negative lit test in test/Dialect/Graph/moe-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/MoeVerifier.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc::graph;

LogicalResult mlir::paracc::graph::verifyMoeOperands(
    Operation *op, Value xValue, Value indicesValue, Value weightsValue,
    Value wInValue, Value wOutValue, bool gated, StringRef activation,
    int64_t groupSize) {
  auto x = cast<RankedTensorType>(xValue.getType());
  auto indices = cast<RankedTensorType>(indicesValue.getType());
  auto weights = cast<RankedTensorType>(weightsValue.getType());
  auto wIn = cast<RankedTensorType>(wInValue.getType());
  auto wOut = cast<RankedTensorType>(wOutValue.getType());
  // moe_ranks
  if (x.getRank() != 2 || indices.getRank() != 2 || weights.getRank() != 2 ||
      wIn.getRank() != 3 || wOut.getRank() != 3)
    return op->emitOpError("needs x [T, H], indices and weights [T, k], w_in "
                           "[E, F, H] and w_out [E, H, I]");
  // moe_index_type (graph's ops say it in their operand types)
  if (!indices.getElementType().isInteger(64))
    return op->emitOpError("needs i64 indices, got ") << indices;
  // moe_float_types (likewise)
  if (!isa<FloatType>(x.getElementType()))
    return op->emitOpError("needs floating-point x, weights and experts, got ")
           << x;
  const int64_t tokens = x.getDimSize(0), hidden = x.getDimSize(1);
  // Each member of a group of groupSize holds wIn's share of the experts.
  const int64_t localExperts = wIn.getDimSize(0);
  const int64_t experts = localExperts * groupSize, k = indices.getDimSize(1);
  // moe_routing_shape
  if (indices.getDimSize(0) != tokens ||
      weights.getShape() != indices.getShape())
    return op->emitOpError("needs indices and weights of shape [")
           << tokens << ", k], got " << indices << " and " << weights;
  // moe_k_in_range
  if (k < 1 || k > experts)
    return op->emitOpError("picks k = ")
           << k << " experts of " << experts << " (need 1 <= k <= E)";
  // moe_expert_shapes
  const int64_t inner = wOut.getDimSize(2);
  const int64_t wantF = gated ? 2 * inner : inner;
  if (wOut.getDimSize(0) != localExperts || wIn.getDimSize(2) != hidden ||
      wOut.getDimSize(1) != hidden || wIn.getDimSize(1) != wantF)
    return op->emitOpError("needs w_in [")
           << localExperts << ", " << wantF << ", " << hidden << "] and w_out ["
           << localExperts << ", " << hidden << ", " << inner << "]"
           << (gated ? " (gated: F = 2 I)" : "") << ", got " << wIn << " and "
           << wOut;
  // moe_element_types
  Type elem = x.getElementType();
  if (weights.getElementType() != elem || wIn.getElementType() != elem ||
      wOut.getElementType() != elem)
    return op->emitOpError(
        "needs x, weights, w_in and w_out of one element type");
  // moe_activation
  if (activation != "silu" && activation != "gelu" &&
      activation != "gelu_tanh" && activation != "relu")
    return op->emitOpError("activation must be silu, gelu, gelu_tanh or "
                           "relu, got '")
           << activation << "'";
  return success();
}

LogicalResult MoeExpertsOp::verify() {
  if (failed(verifyMoeOperands(*this, getX(), getIndices(), getWeights(),
                               getWIn(), getWOut(), getGated(),
                               getActivation())))
    return failure();
  // moe_result_type
  if (getType() != getX().getType())
    return emitOpError("result must have x's type ") << getX().getType();
  return success();
}

LogicalResult MoeExpertsGradOp::verify() {
  if (failed(verifyMoeOperands(*this, getX(), getIndices(), getWeights(),
                               getWIn(), getWOut(), getGated(),
                               getActivation())))
    return failure();
  // moe_grad_types: dy like x, each gradient like its operand.
  return verifyMoeGradientTypes(*this);
}

LogicalResult ExpertLoadOp::verify() {
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto result = cast<RankedTensorType>(getType());
  // expert_load_shapes
  if (indices.getRank() != 2 || result.getRank() != 1 ||
      !result.hasStaticShape() || result.getDimSize(0) < 1)
    return emitOpError("needs indices [T, k] and a result [E] with E >= 1, "
                       "got ")
           << indices << " and " << result;
  // expert_load_f32
  if (!result.getElementType().isF32())
    return emitOpError("counts in f32, got ") << result;
  return success();
}
