//===- Optimizer.cpp - A differentiated loss as a training step -*- C++ -*-===//
//
// Implements `--paracc-optimizer` (Passes.td): the gradient results of
// `--paracc-autodiff` become in-place AdamW or SGD updates of the
// parameters, with the global gradient norm (and clipping) computed once.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "paracc/Dialect/Graph/IR/ScalarConstant.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_OPTIMIZERPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// A gradient result and the parameter block it belongs to.
struct Gradient {
  Value value;
  WeightOp param;
};

struct OptimizerPass : public graph::impl::OptimizerPassBase<OptimizerPass> {
  using OptimizerPassBase::OptimizerPassBase;

  void runOnOperation() override {
    if (failed(run(getOperation())))
      signalPassFailure();
  }

  LogicalResult run(func::FuncOp func);
  Value scalar(OpBuilder &b, Location loc, double v) {
    return createScalarConstant(b, loc, b.getF32Type(), v);
  }
};

LogicalResult OptimizerPass::run(func::FuncOp func) {
  if (optimizer != "adamw" && optimizer != "sgd")
    return func.emitOpError("optimizer must be adamw or sgd, got '")
           << optimizer << "'";
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  auto *dialect = func.getContext()->getLoadedDialect<GraphDialect>();
  StringAttr gradientOf = dialect->getGradientOfAttrHelper().getName();
  StringAttr gradientOffsets =
      dialect->getGradientOffsetsAttrHelper().getName();

  // The parameter blocks, by name and offsets.
  DenseMap<std::pair<StringAttr, Attribute>, WeightOp> params;
  for (auto w : body.getOps<WeightOp>())
    params.try_emplace({w.getNameAttr(), w.getOffsetsAttr()}, w);
  SmallVector<Gradient> gradients;
  SmallVector<Value> kept;
  SmallVector<DictionaryAttr> keptAttrs;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(i, gradientOf);
    if (!name) {
      kept.push_back(v);
      DictionaryAttr attrs = func.getResultAttrDict(i);
      keptAttrs.push_back(attrs ? attrs : DictionaryAttr::get(&getContext()));
      continue;
    }
    Attribute offsets = func.getResultAttr(i, gradientOffsets);
    WeightOp param = params.lookup({name, offsets});
    if (!param)
      return func.emitOpError("has a gradient of '")
             << name.getValue() << "' but no such parameter";
    gradients.push_back({v, param});
  }
  if (gradients.empty())
    return func.emitOpError("has no gradient results (run --paracc-autodiff "
                            "first, and train at least one parameter)");
  if (kept.size() != 1)
    return func.emitOpError("must return the loss and its gradients");

  Location loc = ret.getLoc();
  OpBuilder b(ret);
  Type f32Scalar = RankedTensorType::get({}, b.getF32Type());
  auto named = [&](StringRef name) {
    return b.getDictionaryAttr(
        {b.getNamedAttr(graph::kNameAttrName, b.getStringAttr(name))});
  };
  unsigned n = func.getNumArguments();
  if (failed(func.insertArgument(n, f32Scalar, named("lr"), loc)) ||
      failed(func.insertArgument(n + 1, f32Scalar, named("step"), loc)))
    return func.emitOpError("cannot add the lr and step inputs");
  Value lr = body.getArgument(n), step = body.getArgument(n + 1);
  // Random ops draw anew each step: the step is part of dropout's key.
  func.walk([&](DropoutOp d) { d.getStepMutable().assign(step); });

  // The global L2 norm of the gradients: each parameter's f32 sum of
  // squares, all computed before any is combined (so that a mesh's
  // reductions of them can share one bucket), then their sum. The sums are
  // also returned, so that a run can name the parameter whose gradient
  // stops being finite.
  SmallVector<Value> sums;
  SmallVector<Attribute> partNames;
  for (Gradient &g : gradients) {
    Value x = g.value;
    auto type = cast<RankedTensorType>(x.getType());
    if (!type.getElementType().isF32())
      x = CastOp::create(b, loc, type.clone(b.getF32Type()), x);
    SmallVector<int64_t> all;
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.push_back(d);
    Value sq = MulOp::create(b, loc, x, x);
    sums.push_back(
        all.empty()
            ? sq
            : Value(ReduceSumOp::create(b, loc, sq, b.getDenseI64ArrayAttr(all),
                                        b.getBoolAttr(false))));
    partNames.push_back(g.param.getNameAttr());
  }
  SmallVector<Value> parts;
  for (Value s : sums)
    parts.push_back(ReshapeOp::create(
        b, loc, RankedTensorType::get({1}, b.getF32Type()), s));
  Value partsVector =
      parts.size() == 1
          ? parts[0]
          : Value(ConcatOp::create(b, loc, parts, b.getI64IntegerAttr(0)));
  Value sumSquares =
      ReduceSumOp::create(b, loc, partsVector, b.getDenseI64ArrayAttr({0}),
                          b.getBoolAttr(false));
  Value norm = SqrtOp::create(b, loc, sumSquares);
  // torch.nn.utils.clip_grad_norm_: coefficient max / (norm + 1e-6),
  // clamped to 1.
  Value scale = scalar(b, loc, 1.0);
  if (clipGradNorm > 0) {
    Value coef =
        DivOp::create(b, loc, scalar(b, loc, clipGradNorm),
                      AddOp::create(b, loc, norm, scalar(b, loc, 1e-6)));
    scale = MinOp::create(b, loc, coef, scalar(b, loc, 1.0));
  }

  for (Gradient &g : gradients) {
    WeightOp p = g.param;
    auto moment = [&](StringRef suffix) {
      return StateOp::create(b, loc, p.getType(),
                             b.getStringAttr(p.getName() + "." + suffix),
                             p.getOffsetsAttr(), p.getSourceShapeAttr(),
                             /*copy_of=*/nullptr);
    };
    auto assign = [&](StringRef name, Value v) {
      AssignOp::create(b, loc, b.getStringAttr(name), v, p.getOffsetsAttr());
    };
    if (optimizer == "adamw") {
      Value m = moment("exp_avg"), v = moment("exp_avg_sq");
      auto update = AdamWOp::create(
          b, loc, p, g.value, m, v, lr, step, scale, b.getF64FloatAttr(beta1),
          b.getF64FloatAttr(beta2), b.getF64FloatAttr(eps),
          b.getF64FloatAttr(weightDecay));
      assign(p.getName(), update.getNewParam());
      assign((p.getName() + ".exp_avg").str(), update.getNewExpAvg());
      assign((p.getName() + ".exp_avg_sq").str(), update.getNewExpAvgSq());
    } else {
      Value buffer = moment("momentum_buffer");
      auto update = SgdOp::create(
          b, loc, p, g.value, buffer, lr, step, scale,
          b.getF64FloatAttr(momentum), b.getF64FloatAttr(dampening),
          b.getF64FloatAttr(weightDecay), b.getBoolAttr(nesterov));
      assign(p.getName(), update.getNewParam());
      assign((p.getName() + ".momentum_buffer").str(),
             update.getNewMomentumBuffer());
    }
  }

  func::ReturnOp::create(b, loc, ValueRange{kept[0], norm, partsVector});
  ret.erase();
  SmallVector<Type> argTypes(body.getArgumentTypes());
  func.setType(FunctionType::get(
      &getContext(), argTypes,
      {kept[0].getType(), norm.getType(), partsVector.getType()}));
  keptAttrs.push_back(named("grad_norm"));
  keptAttrs.push_back(b.getDictionaryAttr(
      {b.getNamedAttr(graph::kNameAttrName, b.getStringAttr("grad_sq")),
       b.getNamedAttr(dialect->getGradientNormPartsAttrHelper().getName(),
                      b.getArrayAttr(partNames))}));
  func.setAllResultAttrs(keptAttrs);
  if (!stepName.empty())
    func.setSymName(stepName);
  return success();
}

} // namespace
