//===- MoeOps.cpp - Mixture-of-experts op verifiers --------------*- C++
//-*-===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc::graph;

LogicalResult MoeExpertsOp::verify() {
  auto x = cast<RankedTensorType>(getX().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto weights = cast<RankedTensorType>(getWeights().getType());
  auto wIn = cast<RankedTensorType>(getWIn().getType());
  auto wOut = cast<RankedTensorType>(getWOut().getType());
  // moe_ranks
  if (x.getRank() != 2 || indices.getRank() != 2 || weights.getRank() != 2 ||
      wIn.getRank() != 3 || wOut.getRank() != 3)
    return emitOpError("needs x [T, H], indices and weights [T, k], w_in "
                       "[E, F, H] and w_out [E, H, I]");
  const int64_t tokens = x.getDimSize(0), hidden = x.getDimSize(1);
  const int64_t experts = wIn.getDimSize(0), k = indices.getDimSize(1);
  // moe_routing_shape
  if (indices.getDimSize(0) != tokens ||
      weights.getShape() != indices.getShape())
    return emitOpError("needs indices and weights of shape [")
           << tokens << ", k], got " << indices << " and " << weights;
  // moe_k_in_range
  if (k < 1 || k > experts)
    return emitOpError("picks k = ")
           << k << " experts of " << experts << " (need 1 <= k <= E)";
  // moe_expert_shapes
  const int64_t inner = wOut.getDimSize(2);
  const int64_t wantF = getGated() ? 2 * inner : inner;
  if (wOut.getDimSize(0) != experts || wIn.getDimSize(2) != hidden ||
      wOut.getDimSize(1) != hidden || wIn.getDimSize(1) != wantF)
    return emitOpError("needs w_in [")
           << experts << ", " << wantF << ", " << hidden << "] and w_out ["
           << experts << ", " << hidden << ", " << inner << "]"
           << (getGated() ? " (gated: F = 2 I)" : "") << ", got " << wIn
           << " and " << wOut;
  // moe_element_types
  Type elem = x.getElementType();
  if (weights.getElementType() != elem || wIn.getElementType() != elem ||
      wOut.getElementType() != elem)
    return emitOpError("needs x, weights, w_in and w_out of one element type");
  // moe_result_type
  if (getType() != x)
    return emitOpError("result must have x's type ") << x;
  // moe_activation
  StringRef act = getActivation();
  if (act != "silu" && act != "gelu" && act != "gelu_tanh" && act != "relu")
    return emitOpError("activation must be silu, gelu, gelu_tanh or relu, "
                       "got '")
           << act << "'";
  return success();
}
