//===- ConvertPrecision.cpp - Compute in bf16 or f16 -----------*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "paracc/Target/Executable/ExecutableAttrs.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_CONVERTPRECISIONPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {
struct ConvertPrecisionPass
    : public graph::impl::ConvertPrecisionPassBase<ConvertPrecisionPass> {
  using ConvertPrecisionPassBase::ConvertPrecisionPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    OpBuilder b(&getContext());
    FloatType target;
    if (type == "bf16")
      target = b.getBF16Type();
    else if (type == "f16")
      target = b.getF16Type();
    else {
      func.emitError("--paracc-convert-precision: type must be bf16 or f16, "
                     "got '")
          << type << "'";
      return signalPassFailure();
    }
    if (func.isExternal())
      return;
    auto convert = [&](Type t) -> Type {
      auto ranked = dyn_cast<RankedTensorType>(t);
      if (ranked && ranked.getElementType().isF32())
        return ranked.clone(target);
      return t;
    };
    Block &body = func.getBody().front();
    // Constants: convert their values (round to nearest even); a value that
    // is not dense (dense_resource) stays f32 and is cast.
    func.walk([&](ConstantOp c) {
      if (!c.getType().getElementType().isF32())
        return;
      auto dense = dyn_cast<DenseFPElementsAttr>(c.getValue());
      if (!dense) {
        b.setInsertionPointAfter(c);
        auto cast = CastOp::create(b, c.getLoc(), convert(c.getType()), c);
        c.getResult().replaceAllUsesExcept(cast, cast);
        return;
      }
      const auto &sem = target.getFloatSemantics();
      auto converted = dense.mapValues(target, [&](const APFloat &v) {
        APFloat f = v;
        bool lost;
        f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        return f.bitcastToAPInt();
      });
      c.setValueAttr(converted);
      c.getResult().setType(cast<RankedTensorType>(converted.getType()));
    });
    // Every other result (and a partitioned weight's global type).
    func.walk([&](Operation *op) {
      if (isa<ConstantOp, func::ReturnOp>(op) || op == func.getOperation())
        return;
      for (Value r : op->getResults())
        r.setType(convert(r.getType()));
      if (auto global = op->getAttrOfType<TypeAttr>(kGlobalTypeAttr))
        op->setAttr(kGlobalTypeAttr,
                    TypeAttr::get(convert(global.getValue())));
    });
    // Arguments stay f32 at the boundary: cast on entry.
    b.setInsertionPointToStart(&body);
    for (BlockArgument arg : body.getArguments()) {
      Type want = convert(arg.getType());
      if (want == arg.getType())
        continue;
      auto cast = CastOp::create(b, arg.getLoc(), want, arg);
      arg.replaceAllUsesExcept(cast, cast);
    }
    // Results stay f32: cast back before returning.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Type expected = func.getFunctionType().getResult(
          operand.getOperandNumber());
      if (operand.get().getType() != expected)
        operand.set(CastOp::create(b, ret.getLoc(), expected, operand.get()));
    }
  }
};
} // namespace
