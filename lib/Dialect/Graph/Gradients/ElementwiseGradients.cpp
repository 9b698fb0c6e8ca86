//===- ElementwiseGradients.cpp - Gradients of elementwise ops --*- C++ -*-===//
//
// Gradient rules of the unary and binary elementwise ops, written with
// other graph ops. Binary ops broadcast, so each operand's gradient is the
// result's summed back to the operand's shape. Integer and bool operands
// get no gradient.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {
using Grads = MutableArrayRef<Value>;
using ResultGrads = ArrayRef<Value>;

//===----------------------------------------------------------------------===//
// Unary: dx = dy * f'(x), f' written with x or with the result y
//===----------------------------------------------------------------------===//

LogicalResult negGrad(GradientBuilder &g, NegOp op, ResultGrads dy, Grads dx) {
  dx[0] = g.neg(dy[0]);
  return success();
}

LogicalResult expGrad(GradientBuilder &g, ExpOp op, ResultGrads dy, Grads dx) {
  dx[0] = g.mul(dy[0], op.getResult());
  return success();
}

LogicalResult logGrad(GradientBuilder &g, LogOp op, ResultGrads dy, Grads dx) {
  dx[0] = g.div(dy[0], op.getX());
  return success();
}

LogicalResult tanhGrad(GradientBuilder &g, TanhOp op, ResultGrads dy,
                       Grads dx) {
  Value y = op.getResult();
  dx[0] = g.mul(dy[0], g.sub(g.scalarLike(y, 1.0), g.mul(y, y)));
  return success();
}

LogicalResult sqrtGrad(GradientBuilder &g, SqrtOp op, ResultGrads dy,
                       Grads dx) {
  // d sqrt(x) = 0.5 / sqrt(x)
  Value y = op.getResult();
  dx[0] = g.div(g.mul(dy[0], g.scalarLike(y, 0.5)), y);
  return success();
}

LogicalResult rsqrtGrad(GradientBuilder &g, RsqrtOp op, ResultGrads dy,
                        Grads dx) {
  // d x^(-1/2) = -0.5 y^3
  Value y = op.getResult();
  Value y3 = g.mul(g.mul(y, y), y);
  dx[0] = g.mul(dy[0], g.mul(y3, g.scalarLike(y, -0.5)));
  return success();
}

LogicalResult reciprocalGrad(GradientBuilder &g, ReciprocalOp op,
                             ResultGrads dy, Grads dx) {
  Value y = op.getResult();
  dx[0] = g.neg(g.mul(dy[0], g.mul(y, y)));
  return success();
}

LogicalResult sigmoidGrad(GradientBuilder &g, SigmoidOp op, ResultGrads dy,
                          Grads dx) {
  Value y = op.getResult();
  dx[0] = g.mul(dy[0], g.mul(y, g.sub(g.scalarLike(y, 1.0), y)));
  return success();
}

LogicalResult siluGrad(GradientBuilder &g, SiluOp op, ResultGrads dy,
                       Grads dx) {
  // d x s(x) = s (1 + x (1 - s))
  Value x = op.getX();
  Value s = SigmoidOp::create(g.b, g.loc, x);
  Value one = g.scalarLike(x, 1.0);
  dx[0] = g.mul(dy[0], g.mul(s, g.add(one, g.mul(x, g.sub(one, s)))));
  return success();
}

LogicalResult siluMulGrad(GradientBuilder &g, SiluMulOp op, ResultGrads dy,
                          Grads dx) {
  auto grad = SiluMulGradOp::create(g.b, g.loc, op.getGate().getType(),
                                    op.getUp().getType(), dy[0], op.getGate(),
                                    op.getUp());
  dx[0] = grad.getDgate();
  dx[1] = grad.getDup();
  return success();
}

LogicalResult rotaryGrad(GradientBuilder &g, RotaryOp op, ResultGrads dy,
                         Grads dx) {
  // Linear in x: the gradient is the transposed map. The tables are
  // constants (the fusion only forms the op on constant ones).
  dx[0] = RotaryOp::create(g.b, g.loc, op.getX().getType(), dy[0],
                           op.getCos(), op.getSin(),
                           g.b.getBoolAttr(!op.getTransposed()));
  return success();
}

LogicalResult reluGrad(GradientBuilder &g, ReluOp op, ResultGrads dy,
                       Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  // relu(x) > 0 exactly where x > 0 (NaN in both fails): reading the
  // result lets the backward keep the activation the next layer keeps
  // anyway, not the pre-activation too.
  Value positive = GreaterOp::create(g.b, g.loc, op.getResult(),
                                     g.scalarLike(op.getResult(), 0.0));
  dx[0] = g.maskOrZero(positive, dy[0]);
  return success();
}

LogicalResult erfGrad(GradientBuilder &g, ErfOp op, ResultGrads dy, Grads dx) {
  // d erf(x) = 2/sqrt(pi) exp(-x^2)
  Value x = op.getX();
  Value e = ExpOp::create(g.b, g.loc, g.neg(g.mul(x, x)));
  dx[0] = g.mul(dy[0], g.mul(e, g.scalarLike(x, 2.0 / std::sqrt(M_PI))));
  return success();
}

LogicalResult sinGrad(GradientBuilder &g, SinOp op, ResultGrads dy, Grads dx) {
  dx[0] = g.mul(dy[0], CosOp::create(g.b, g.loc, op.getX()));
  return success();
}

LogicalResult cosGrad(GradientBuilder &g, CosOp op, ResultGrads dy, Grads dx) {
  dx[0] = g.neg(g.mul(dy[0], SinOp::create(g.b, g.loc, op.getX())));
  return success();
}

LogicalResult absGrad(GradientBuilder &g, AbsOp op, ResultGrads dy, Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  dx[0] = g.mul(dy[0], SignOp::create(g.b, g.loc, op.getX()));
  return success();
}

LogicalResult geluGrad(GradientBuilder &g, GeluOp op, ResultGrads dy,
                       Grads dx) {
  dx[0] =
      GeluGradOp::create(g.b, g.loc, dy[0], op.getX(), op.getApproximateAttr());
  return success();
}

/// The same mask, scaled the same: dropout of the gradient under the op's
/// own key (nothing is kept from the forward).
LogicalResult dropoutGrad(GradientBuilder &g, DropoutOp op, ResultGrads dy,
                          Grads dx) {
  dx[0] = DropoutOp::create(g.b, g.loc, dy[0], op.getStep(), op.getOffsets(),
                            op.getRatioAttr(), op.getSeedAttr(),
                            op.getStreamAttr());
  return success();
}

LogicalResult clipGrad(GradientBuilder &g, ClipOp op, ResultGrads dy,
                       Grads dx) {
  if (!g.isFloat(op.getX()))
    return success();
  Value x = op.getX();
  Value aboveMin = GreaterEqualOp::create(
      g.b, g.loc, x, g.scalarLike(x, op.getMin().convertToDouble()));
  Value belowMax = LessEqualOp::create(
      g.b, g.loc, x, g.scalarLike(x, op.getMax().convertToDouble()));
  dx[0] = g.maskOrZero(AndOp::create(g.b, g.loc, aboveMin, belowMax), dy[0]);
  return success();
}

LogicalResult castGrad(GradientBuilder &g, CastOp op, ResultGrads dy,
                       Grads dx) {
  if (!g.isFloat(op.getX()) || !g.isFloat(op.getResult()))
    return success();
  dx[0] = CastOp::create(g.b, g.loc, op.getX().getType(), dy[0]);
  return success();
}

//===----------------------------------------------------------------------===//
// Binary, with broadcasting
//===----------------------------------------------------------------------===//

/// Sets the gradients of a binary op's operands, summed to their shapes.
void setBinary(GradientBuilder &g, Operation *op, Grads dx, Value dLhs,
               Value dRhs) {
  if (dLhs && g.isFloat(op->getOperand(0)))
    dx[0] = g.sumTo(dLhs, op->getOperand(0));
  if (dRhs && g.isFloat(op->getOperand(1)))
    dx[1] = g.sumTo(dRhs, op->getOperand(1));
}

LogicalResult addGrad(GradientBuilder &g, AddOp op, ResultGrads dy, Grads dx) {
  setBinary(g, op, dx, dy[0], dy[0]);
  return success();
}

LogicalResult subGrad(GradientBuilder &g, SubOp op, ResultGrads dy, Grads dx) {
  setBinary(g, op, dx, dy[0], g.neg(dy[0]));
  return success();
}

LogicalResult mulGrad(GradientBuilder &g, MulOp op, ResultGrads dy, Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  setBinary(g, op, dx, g.mul(dy[0], op.getRhs()), g.mul(dy[0], op.getLhs()));
  return success();
}

LogicalResult divGrad(GradientBuilder &g, DivOp op, ResultGrads dy, Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  // d(a/b)/da = 1/b, d(a/b)/db = -(a/b)/b
  Value da = g.div(dy[0], op.getRhs());
  Value db = g.neg(g.mul(da, op.getResult()));
  setBinary(g, op, dx, da, db);
  return success();
}

LogicalResult powGrad(GradientBuilder &g, PowOp op, ResultGrads dy, Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  Value a = op.getLhs(), e = op.getRhs();
  // d a^e/da = e a^(e-1); d a^e/de = a^e log(a) (only used when e depends
  // on a parameter; unused gradients are removed afterwards).
  Value eMinusOne = g.sub(e, g.scalarLike(e, 1.0));
  Value da = g.mul(dy[0], g.mul(e, PowOp::create(g.b, g.loc, a, eMinusOne)));
  Value de = g.mul(dy[0], g.mul(op.getResult(), LogOp::create(g.b, g.loc, a)));
  setBinary(g, op, dx, da, de);
  return success();
}

/// max/min: the gradient goes to the operand that was chosen (the lhs on a
/// tie).
template <typename OpTy, typename CompareOp>
LogicalResult extremumGrad(GradientBuilder &g, OpTy op, ResultGrads dy,
                           Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  Value lhsChosen = CompareOp::create(g.b, g.loc, op.getLhs(), op.getRhs());
  Value zero = g.scalarLike(dy[0], 0.0);
  Value toLhs = WhereOp::create(g.b, g.loc, lhsChosen, dy[0], zero);
  Value toRhs = WhereOp::create(g.b, g.loc, lhsChosen, zero, dy[0]);
  setBinary(g, op, dx, toLhs, toRhs);
  return success();
}

LogicalResult whereGrad(GradientBuilder &g, WhereOp op, ResultGrads dy,
                        Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  Value zero = g.scalarLike(dy[0], 0.0);
  Value toA = WhereOp::create(g.b, g.loc, op.getCond(), dy[0], zero);
  Value toB = WhereOp::create(g.b, g.loc, op.getCond(), zero, dy[0]);
  dx[1] = g.sumTo(toA, op.getA());
  dx[2] = g.sumTo(toB, op.getB());
  return success();
}

} // namespace

void mlir::paracc::graph::registerElementwiseGradients(MLIRContext *ctx) {
  attachRule<NegOp, negGrad>(ctx);
  attachRule<ExpOp, expGrad>(ctx);
  attachRule<LogOp, logGrad>(ctx);
  attachRule<TanhOp, tanhGrad>(ctx);
  attachRule<SqrtOp, sqrtGrad>(ctx);
  attachRule<RsqrtOp, rsqrtGrad>(ctx);
  attachRule<ReciprocalOp, reciprocalGrad>(ctx);
  attachRule<SigmoidOp, sigmoidGrad>(ctx);
  attachRule<SiluOp, siluGrad>(ctx);
  attachRule<SiluMulOp, siluMulGrad>(ctx);
  attachRule<RotaryOp, rotaryGrad>(ctx);
  attachRule<ReluOp, reluGrad>(ctx);
  attachRule<ErfOp, erfGrad>(ctx);
  attachRule<SinOp, sinGrad>(ctx);
  attachRule<CosOp, cosGrad>(ctx);
  attachRule<AbsOp, absGrad>(ctx);
  attachRule<GeluOp, geluGrad>(ctx);
  attachRule<DropoutOp, dropoutGrad>(ctx);
  attachRule<ClipOp, clipGrad>(ctx);
  attachRule<CastOp, castGrad>(ctx);
  attachRule<AddOp, addGrad>(ctx);
  attachRule<SubOp, subGrad>(ctx);
  attachRule<MulOp, mulGrad>(ctx);
  attachRule<DivOp, divGrad>(ctx);
  attachRule<PowOp, powGrad>(ctx);
  attachRule<MaxOp, extremumGrad<MaxOp, GreaterEqualOp>>(ctx);
  attachRule<MinOp, extremumGrad<MinOp, LessEqualOp>>(ctx);
  attachRule<WhereOp, whereGrad>(ctx);
}
