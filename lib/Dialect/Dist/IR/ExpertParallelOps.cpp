//===- ExpertParallelOps.cpp - Expert parallelism's op verifiers -*- C++
//-*-===//
//
// dist.expert_parallel_moe and its gradient: graph.moe_experts' operand
// checks with the tables holding 1/n of the experts (n the group's size),
// and the results' types. Each error has a negative lit test in
// test/Dialect/Dist/expert-parallel-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/MoeVerifier.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;

/// The group's axes, then the operands as graph.moe_experts checks them
/// with each member holding 1/n of the experts.
template <typename OpT> static LogicalResult verifyExpertParallel(OpT op) {
  if (failed(verifyGroupAxes(op, op.getAxes())))
    return failure();
  // expert_parallel_load_imbalance
  if (!(op.getLoadImbalance().convertToDouble() >= 1.0))
    return op.emitOpError("requires load_imbalance >= 1, got ")
           << op.getLoadImbalance().convertToDouble();
  MeshAttr mesh = getMesh(op);
  int64_t n = 1;
  for (Attribute a : op.getAxes())
    n *= mesh.getAxisSize(cast<StringAttr>(a).getValue());
  return graph::verifyMoeOperands(op, op.getX(), op.getIndices(),
                                  op.getWeights(), op.getWIn(), op.getWOut(),
                                  op.getGated(), op.getActivation(), n);
}

LogicalResult ExpertParallelMoeOp::verify() {
  if (failed(verifyExpertParallel(*this)))
    return failure();
  // expert_parallel_result_type
  if (getType() != getX().getType())
    return emitOpError("result must have x's type ") << getX().getType();
  return success();
}

LogicalResult ExpertParallelMoeGradOp::verify() {
  if (failed(verifyExpertParallel(*this)))
    return failure();
  // expert_parallel_grad_types
  return graph::verifyMoeGradientTypes(*this);
}
