//===- FusionOps.cpp - graph.fused_elementwise ----------------*- C++ -*-===//
//
// The fused elementwise op's verifiers and the set of ops a fused body may
// hold (shared with paracc-fuse-elementwise). Each error has a negative lit
// test in test/Dialect/Graph/fused-elementwise-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc::graph;

static bool isFusibleElementType(Type t) {
  return t.isF32() || t.isBF16() || t.isF16() || t.isInteger(1);
}

bool mlir::paracc::graph::isFusibleElementwiseOp(Operation *op) {
  if (!isa<NegOp, AbsOp, SignOp, SqrtOp, RsqrtOp, ReciprocalOp, ExpOp, LogOp,
           TanhOp, ErfOp, SigmoidOp, ReluOp, SiluOp, SinOp, CosOp, TanOp,
           AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp, AcoshOp, AtanhOp,
           FloorOp, CeilOp, RoundOp, NotOp, GeluOp, IsNaNOp, IsInfOp, AddOp,
           SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp, ModOp, AndOp, OrOp, XorOp,
           EqualOp, LessOp, LessEqualOp, GreaterOp, GreaterEqualOp, WhereOp,
           CastOp, ClipOp>(op))
    return false;
  auto typeOk = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && isFusibleElementType(tensor.getElementType());
  };
  return llvm::all_of(op->getOperandTypes(), typeOk) &&
         llvm::all_of(op->getResultTypes(), typeOk);
}

LogicalResult FusedElementwiseOp::verify() {
  // fused_results
  if (getResults().empty())
    return emitOpError("needs at least one result");
  auto first = cast<RankedTensorType>(getResult(0).getType());
  for (auto [i, t] : llvm::enumerate(getResultTypes())) {
    auto tensor = cast<RankedTensorType>(t);
    // fused_result_shape
    if (tensor.getShape() != first.getShape())
      return emitOpError("result ")
             << i << " has shape of " << tensor
             << ", not the first result's (the results share one shape)";
    // fused_result_type
    if (!isFusibleElementType(tensor.getElementType()))
      return emitOpError("result ")
             << i << " must be f16, bf16, f32 or i1, got " << tensor;
  }
  for (auto [i, t] : llvm::enumerate(getInputs().getTypes())) {
    auto tensor = cast<RankedTensorType>(t);
    // fused_operand_type
    if (!isFusibleElementType(tensor.getElementType()))
      return emitOpError("operand ")
             << i << " must be f16, bf16, f32 or i1, got " << tensor;
    // fused_operand_broadcast
    FailureOr<SmallVector<int64_t>> shape =
        broadcastShapes(std::nullopt, tensor.getShape(), first.getShape());
    if (failed(shape) || ArrayRef<int64_t>(*shape) != first.getShape())
      return emitOpError("operand ")
             << i << " of type " << tensor
             << " does not broadcast to the results' shape";
  }
  return success();
}

LogicalResult FusedElementwiseOp::verifyRegions() {
  Block &body = getBodyBlock();
  auto scalarOf = [](Type t) {
    return RankedTensorType::get({},
                                 cast<RankedTensorType>(t).getElementType());
  };
  // fused_body_arguments
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " operands";
  for (auto [i, arg] : llvm::enumerate(body.getArguments()))
    if (arg.getType() != scalarOf(getInputs()[i].getType()))
      return emitOpError("body argument ")
             << i << " must be " << scalarOf(getInputs()[i].getType())
             << ", got " << arg.getType();
  // fused_body_terminator
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with graph.yield");
  if (yield.getValues().size() != getNumResults())
    return emitOpError("body yields ")
           << yield.getValues().size() << " values for " << getNumResults()
           << " results";
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (v.getType() != scalarOf(getResult(i).getType()))
      return emitOpError("body yields ")
             << v.getType() << " for result " << i << ", which needs "
             << scalarOf(getResult(i).getType());
  for (Operation &op : body.without_terminator()) {
    // fused_body_ops
    auto constant = dyn_cast<ConstantOp>(op);
    if (!constant && !isFusibleElementwiseOp(&op))
      return emitOpError("body holds '")
             << op.getName() << "', not an elementwise op a fused body runs";
    // fused_body_rank
    for (Type t : op.getResultTypes())
      if (cast<RankedTensorType>(t).getRank() != 0)
        return emitOpError("body op '")
               << op.getName() << "' must compute a rank-0 tensor, got " << t;
  }
  return success();
}
