//===- ConvertPrecision.cpp - Compute in bf16 or f16 -----------*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_CONVERTPRECISIONPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {
/// The operands (x, w) of a matmul by a 2-D weight or a bare graph.linear
/// whose only use is `v`'s consumer, if `v` is one; null otherwise.
static std::pair<Value, Value> bareProduct(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !v.hasOneUse())
    return {};
  if (auto mm = dyn_cast<MatMulOp>(op)) {
    if (mm.getRhs().getType().getRank() != 2 ||
        mm.getLhs().getType().getRank() < 1)
      return {};
    return {mm.getLhs(), mm.getRhs()};
  }
  if (auto linear = dyn_cast<LinearOp>(op)) {
    if (linear.getBias() || linear.getResidual() ||
        linear.getActivation() != "none" || linear.getF32Result())
      return {};
    return {linear.getX(), linear.getW()};
  }
  return {};
}

/// Replaces the bare product `v` by the same product with an f32 result.
static Value toF32Product(OpBuilder &b, Value v) {
  auto [x, w] = bareProduct(v);
  Operation *op = v.getDefiningOp();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  auto direct = LinearOp::create(b, op->getLoc(), x, w, Value(), Value(),
                                 b.getStringAttr("none"),
                                 b.getBoolAttr(true));
  for (NamedAttribute a : op->getDiscardableAttrs())
    direct->setAttr(a.getName(), a.getValue());
  op->getResult(0).replaceAllUsesWith(direct.getResult());
  op->erase();
  return direct.getResult();
}

/// For a bare product returned as it is, or a concat of such products (the
/// micro-batches' logits), the same value computed with f32 results
/// (replacing it), if `expected` is its f32 type; null otherwise.
static Value f32Result(OpBuilder &b, Value v, Type expected) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.clone(b.getF32Type()) != expected)
    return nullptr;
  if (bareProduct(v).first)
    return toF32Product(b, v);
  auto concat = v.getDefiningOp<ConcatOp>();
  if (!concat || !v.hasOneUse() ||
      !llvm::all_of(concat.getInputs(),
                    [](Value p) { return bareProduct(p).first != nullptr; }))
    return nullptr;
  SmallVector<Value> pieces;
  for (Value piece : concat.getInputs())
    pieces.push_back(toF32Product(b, piece));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(concat);
  auto f32 = ConcatOp::create(b, concat.getLoc(), pieces, concat.getAxisAttr());
  concat.getResult().replaceAllUsesWith(f32.getResult());
  concat->erase();
  return f32.getResult();
}

struct ConvertPrecisionPass
    : public graph::impl::ConvertPrecisionPassBase<ConvertPrecisionPass> {
  using ConvertPrecisionPassBase::ConvertPrecisionPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    OpBuilder b(&getContext());
    FloatType target;
    if (type == Precision::BF16)
      target = b.getBF16Type();
    else if (type == Precision::F16)
      target = b.getF16Type();
    else {
      func.emitError("--paracc-convert-precision: type must be bf16 or f16, "
                     "got '")
          << stringifyOption(Precision(type)) << "'";
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
      // A dropout's step is a count, not data: it stays f32.
      if (llvm::all_of(c->getUses(), [](OpOperand &use) {
            auto d = dyn_cast<DropoutOp>(use.getOwner());
            return d && use.get() == d.getStep() &&
                   use.getOperandNumber() == 1;
          }) &&
          !c->use_empty())
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
    // Every other result; master
    // weights and losses stay f32.
    auto keepsF32 = [&](Operation *op) {
      return masterWeights && isa<WeightOp, SoftmaxCrossEntropyOp, NllLossOp>(op);
    };
    // The buffers the model assigns (BatchNorm's running statistics): with
    // master weights they stay f32, so their new values are cast back.
    llvm::StringMap<Type> bufferTypes;
    if (masterWeights)
      func.walk([&](WeightOp w) { bufferTypes[w.getName()] = w.getType(); });
    func.walk([&](Operation *op) {
      if (isa<ConstantOp, func::ReturnOp>(op) || op == func.getOperation() ||
          keepsF32(op))
        return;
      for (Value r : op->getResults())
        r.setType(convert(r.getType()));
      // A type an attribute records for the result (a partitioned
      // weight's global type) follows it.
      for (NamedAttribute attr : llvm::to_vector(op->getDiscardableAttrs()))
        if (auto type = dyn_cast<TypeAttr>(attr.getValue()))
          op->setDiscardableAttr(attr.getName(),
                                 TypeAttr::get(convert(type.getValue())));
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
    if (masterWeights) {
      func.walk([&](AssignOp assign) {
        auto it = bufferTypes.find(assign.getName());
        if (it == bufferTypes.end() ||
            it->second == assign.getValue().getType())
          return;
        b.setInsertionPoint(assign);
        assign.getValueMutable().assign(
            CastOp::create(b, assign.getLoc(), it->second, assign.getValue()));
      });
      // Each master weight is read through one cast to the compute type.
      func.walk([&](WeightOp w) {
        Type want = convert(w.getType());
        if (want == w.getType() || w->use_empty())
          return;
        b.setInsertionPointAfter(w);
        auto cast = CastOp::create(b, w.getLoc(), want, w.getResult());
        w.getResult().replaceAllUsesExcept(cast, cast);
      });
      // Losses read f32 operands, but a softmax cross-entropy without
      // weights or log_prob reads its bf16/f16 scores as they are: its
      // kernels compute in f32, and an f32 copy of the logits (and of their
      // gradient, which the cast would make f32 too) costs a pass over the
      // largest tensor of a language model.
      func.walk([&](Operation *op) {
        if (!isa<SoftmaxCrossEntropyOp, NllLossOp>(op))
          return;
        if (auto sce = dyn_cast<SoftmaxCrossEntropyOp>(op);
            sce && !sce.getWeight() && !sce.getLogProb())
          return;
        b.setInsertionPoint(op);
        for (OpOperand &operand : op->getOpOperands()) {
          auto t = dyn_cast<RankedTensorType>(operand.get().getType());
          if (!t || t.getElementType() != target)
            continue;
          operand.set(CastOp::create(b, op->getLoc(),
                                     t.clone(b.getF32Type()), operand.get()));
        }
      });
    }
    // Results stay f32: cast back before returning.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Type expected = func.getFunctionType().getResult(
          operand.getOperandNumber());
      if (operand.get().getType() == expected)
        continue;
      // A product returned alone yields f32 directly (no rounding, no cast
      // pass over a large result such as the logits).
      if (Value direct = f32Result(b, operand.get(), expected)) {
        operand.set(direct);
        continue;
      }
      operand.set(CastOp::create(b, ret.getLoc(), expected, operand.get()));
    }
  }
};
} // namespace
