//===- ElementwiseRules.cpp - ONNX elementwise ops -------------*- C++ -*-===//
//
// Unary and binary elementwise ops, the activations that decompose into
// them, Where, Cast/CastLike and Clip.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

template <typename OpTy> static LogicalResult importUnary(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value y, unary<OpTy>(c, x));
  c.setOutput(0, y);
  return success();
}

template <typename OpTy> static LogicalResult importBinary(NodeContext &c) {
  ASSIGN_OR_FAIL(Value a, c.input(0));
  ASSIGN_OR_FAIL(Value b, c.input(1));
  ASSIGN_OR_FAIL(Value y, binary<OpTy>(c, a, b));
  c.setOutput(0, y);
  return success();
}

/// Max, Min, Sum, Mean: a left fold over any number of inputs.
template <typename OpTy, bool IsMean = false>
static LogicalResult importVariadic(NodeContext &c) {
  ASSIGN_OR_FAIL(Value acc, c.input(0));
  for (unsigned i = 1; i < c.numInputs(); ++i) {
    ASSIGN_OR_FAIL(Value next, c.input(i));
    ASSIGN_OR_FAIL(acc, binary<OpTy>(c, acc, next));
  }
  if (IsMean && c.numInputs() > 1) {
    Value n = scalarLike(c, acc, c.numInputs());
    ASSIGN_OR_FAIL(acc, binary<g::DivOp>(c, acc, n));
  }
  // A single input still gets the op's identity semantics.
  c.setOutput(0, acc);
  return success();
}

static LogicalResult importPow(NodeContext &c) {
  ASSIGN_OR_FAIL(Value base, c.input(0));
  ASSIGN_OR_FAIL(Value exponent, c.input(1));
  Type bt = elementType(base), et = elementType(exponent);
  if (bt != et) {
    // Pow allows a different exponent type. An integer exponent converts
    // exactly to a float base's type; a float exponent of an integer base
    // would not.
    if (!isa<FloatType>(bt) && isa<FloatType>(et))
      return c.unsupported("integer base with a floating-point exponent");
    ASSIGN_OR_FAIL(exponent, c.castTo(exponent, bt));
  }
  ASSIGN_OR_FAIL(Value y, binary<g::PowOp>(c, base, exponent));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importMod(NodeContext &c) {
  ASSIGN_OR_FAIL(Value a, c.input(0));
  ASSIGN_OR_FAIL(Value b, c.input(1));
  bool fmod = c.intAttr("fmod", 0);
  if (!fmod && isa<FloatType>(elementType(a)))
    return c.error("fmod must be 1 for floating-point operands");
  ASSIGN_OR_FAIL(Value y, c.build<g::ModOp>(a, b, fmod));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importWhere(NodeContext &c) {
  ASSIGN_OR_FAIL(Value cond, c.input(0));
  ASSIGN_OR_FAIL(Value a, c.input(1));
  ASSIGN_OR_FAIL(Value b, c.input(2));
  ASSIGN_OR_FAIL(Value y, c.build<g::WhereOp>(cond, a, b));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importCast(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  int64_t to = c.intAttr("to", 0);
  Type t = elementTypeFromOnnx(c.getContext(), to);
  if (!t)
    return c.unsupported("target element type " + Twine(to));
  ASSIGN_OR_FAIL(Value y, c.castTo(x, t));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importCastLike(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value like, c.input(1));
  ASSIGN_OR_FAIL(Value y, c.castTo(x, elementType(like)));
  c.setOutput(0, y);
  return success();
}

/// The lowest and highest finite value of a numeric element type.
static std::pair<double, double> typeRange(Type t) {
  if (isa<FloatType>(t))
    return {-std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity()};
  unsigned w = t.getIntOrFloatBitWidth();
  if (t.isUnsignedInteger())
    return {0.0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

static LogicalResult importClip(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto [lo, hi] = typeRange(elementType(x));
  if (c.opset < 11) {
    lo = c.floatAttr("min", lo);
    hi = c.floatAttr("max", hi);
  } else {
    if (c.hasInput(1)) {
      ASSIGN_OR_FAIL(lo, c.floatInput(1, "min"));
    }
    if (c.hasInput(2)) {
      ASSIGN_OR_FAIL(hi, c.floatInput(2, "max"));
    }
  }
  if (lo > hi) {
    // ONNX: all elements become max when min > max.
    ASSIGN_OR_FAIL(Value y, c.expandTo(scalarLike(c, x, hi),
                                       tensorType(x).getShape()));
    c.setOutput(0, y);
    return success();
  }
  Builder b(c.getContext());
  auto op = c.buildTyped<g::ClipOp>(x.getType(), x, b.getF64FloatAttr(lo),
                                    b.getF64FloatAttr(hi));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

static LogicalResult importIsInf(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value y,
                 c.build<g::IsInfOp>(x, c.intAttr("detect_positive", 1) != 0,
                                     c.intAttr("detect_negative", 1) != 0));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importIsNaN(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value y, c.build<g::IsNaNOp>(x));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importGelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  std::string approximate = c.stringAttr("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return c.unsupported("approximate=\"" + approximate + "\"");
  auto op = c.buildTyped<g::GeluOp>(x.getType(), x,
                                    c.b.getStringAttr(approximate));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Activations that decompose into primitives
//===----------------------------------------------------------------------===//

/// x < 0 ? negative : positive.
static FailureOr<Value> selectNegative(NodeContext &c, Value x, Value negative,
                                       Value positive) {
  ASSIGN_OR_FAIL(Value isNeg, binary<g::LessOp>(c, x, scalarLike(c, x, 0)));
  return c.build<g::WhereOp>(isNeg, negative, positive);
}

/// alpha * (exp(x) - 1).
static FailureOr<Value> scaledExpm1(NodeContext &c, Value x, double alpha) {
  ASSIGN_OR_FAIL(Value e, unary<g::ExpOp>(c, x));
  ASSIGN_OR_FAIL(Value em1, binary<g::SubOp>(c, e, scalarLike(c, x, 1)));
  return binary<g::MulOp>(c, em1, scalarLike(c, x, alpha));
}

static LogicalResult importLeakyRelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  double alpha = c.floatAttr("alpha", 0.01);
  ASSIGN_OR_FAIL(Value scaled,
                 binary<g::MulOp>(c, x, scalarLike(c, x, alpha)));
  ASSIGN_OR_FAIL(Value y, selectNegative(c, x, scaled, x));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importPRelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value slope, c.input(1));
  ASSIGN_OR_FAIL(Value scaled, binary<g::MulOp>(c, x, slope));
  ASSIGN_OR_FAIL(Value full, c.expandTo(x, tensorType(scaled).getShape()));
  ASSIGN_OR_FAIL(Value y, selectNegative(c, x, scaled, full));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importElu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value neg, scaledExpm1(c, x, c.floatAttr("alpha", 1.0)));
  ASSIGN_OR_FAIL(Value y, selectNegative(c, x, neg, x));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importSelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  double alpha = c.floatAttr("alpha", 1.67326319217681884765625);
  double gamma = c.floatAttr("gamma", 1.05070102214813232421875);
  ASSIGN_OR_FAIL(Value neg, scaledExpm1(c, x, alpha));
  ASSIGN_OR_FAIL(Value isPos, binary<g::GreaterOp>(c, x, scalarLike(c, x, 0)));
  ASSIGN_OR_FAIL(Value sel, c.build<g::WhereOp>(isPos, x, neg));
  ASSIGN_OR_FAIL(Value y, binary<g::MulOp>(c, sel, scalarLike(c, x, gamma)));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importCelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  double alpha = c.floatAttr("alpha", 1.0);
  ASSIGN_OR_FAIL(Value xs, binary<g::DivOp>(c, x, scalarLike(c, x, alpha)));
  ASSIGN_OR_FAIL(Value neg, scaledExpm1(c, xs, alpha));
  Value zero = scalarLike(c, x, 0);
  ASSIGN_OR_FAIL(Value pos, binary<g::MaxOp>(c, x, zero));
  ASSIGN_OR_FAIL(Value negPart, binary<g::MinOp>(c, neg, zero));
  ASSIGN_OR_FAIL(Value y, binary<g::AddOp>(c, pos, negPart));
  c.setOutput(0, y);
  return success();
}

/// clip(alpha * x + beta, 0, 1).
static FailureOr<Value> hardSigmoid(NodeContext &c, Value x, double alpha,
                                    double beta) {
  ASSIGN_OR_FAIL(Value ax, binary<g::MulOp>(c, x, scalarLike(c, x, alpha)));
  ASSIGN_OR_FAIL(Value axb, binary<g::AddOp>(c, ax, scalarLike(c, x, beta)));
  Builder b(c.getContext());
  auto op = c.buildTyped<g::ClipOp>(x.getType(), axb, b.getF64FloatAttr(0.0),
                                    b.getF64FloatAttr(1.0));
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

static LogicalResult importHardSigmoid(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value y, hardSigmoid(c, x, c.floatAttr("alpha", 0.2),
                                      c.floatAttr("beta", 0.5)));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importHardSwish(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value hs, hardSigmoid(c, x, 1.0 / 6.0, 0.5));
  ASSIGN_OR_FAIL(Value y, binary<g::MulOp>(c, x, hs));
  c.setOutput(0, y);
  return success();
}

/// log(1 + exp(x)).
static FailureOr<Value> softplus(NodeContext &c, Value x) {
  ASSIGN_OR_FAIL(Value e, unary<g::ExpOp>(c, x));
  ASSIGN_OR_FAIL(Value e1, binary<g::AddOp>(c, e, scalarLike(c, x, 1)));
  return unary<g::LogOp>(c, e1);
}

static LogicalResult importSoftplus(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value y, softplus(c, x));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importMish(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value sp, softplus(c, x));
  ASSIGN_OR_FAIL(Value t, unary<g::TanhOp>(c, sp));
  ASSIGN_OR_FAIL(Value y, binary<g::MulOp>(c, x, t));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importSoftsign(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value a, unary<g::AbsOp>(c, x));
  ASSIGN_OR_FAIL(Value a1, binary<g::AddOp>(c, a, scalarLike(c, x, 1)));
  ASSIGN_OR_FAIL(Value y, binary<g::DivOp>(c, x, a1));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importThresholdedRelu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  double alpha = c.floatAttr("alpha", 1.0);
  ASSIGN_OR_FAIL(Value keep,
                 binary<g::GreaterOp>(c, x, scalarLike(c, x, alpha)));
  ASSIGN_OR_FAIL(Value y,
                 c.build<g::WhereOp>(keep, x, scalarLike(c, x, 0)));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importShrink(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  double bias = c.floatAttr("bias", 0.0), lambd = c.floatAttr("lambd", 0.5);
  ASSIGN_OR_FAIL(Value low,
                 binary<g::LessOp>(c, x, scalarLike(c, x, -lambd)));
  ASSIGN_OR_FAIL(Value high,
                 binary<g::GreaterOp>(c, x, scalarLike(c, x, lambd)));
  ASSIGN_OR_FAIL(Value plus, binary<g::AddOp>(c, x, scalarLike(c, x, bias)));
  ASSIGN_OR_FAIL(Value minus, binary<g::SubOp>(c, x, scalarLike(c, x, bias)));
  ASSIGN_OR_FAIL(Value inner,
                 c.build<g::WhereOp>(high, minus, scalarLike(c, x, 0)));
  ASSIGN_OR_FAIL(Value y, c.build<g::WhereOp>(low, plus, inner));
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerElementwiseRules(RuleTable &t) {
  t.add("Neg", 6, importUnary<g::NegOp>);
  t.add("Abs", 6, importUnary<g::AbsOp>);
  t.add("Sign", 9, importUnary<g::SignOp>);
  t.add("Sqrt", 6, importUnary<g::SqrtOp>);
  t.add("Reciprocal", 6, importUnary<g::ReciprocalOp>);
  t.add("Exp", 6, importUnary<g::ExpOp>);
  t.add("Log", 6, importUnary<g::LogOp>);
  t.add("Tanh", 6, importUnary<g::TanhOp>);
  t.add("Erf", 9, importUnary<g::ErfOp>);
  t.add("Sigmoid", 6, importUnary<g::SigmoidOp>);
  t.add("Relu", 6, importUnary<g::ReluOp>);
  t.add("Sin", 7, importUnary<g::SinOp>);
  t.add("Cos", 7, importUnary<g::CosOp>);
  t.add("Tan", 7, importUnary<g::TanOp>);
  t.add("Asin", 7, importUnary<g::AsinOp>);
  t.add("Acos", 7, importUnary<g::AcosOp>);
  t.add("Atan", 7, importUnary<g::AtanOp>);
  t.add("Sinh", 9, importUnary<g::SinhOp>);
  t.add("Cosh", 9, importUnary<g::CoshOp>);
  t.add("Asinh", 9, importUnary<g::AsinhOp>);
  t.add("Acosh", 9, importUnary<g::AcoshOp>);
  t.add("Atanh", 9, importUnary<g::AtanhOp>);
  t.add("Floor", 6, importUnary<g::FloorOp>);
  t.add("Ceil", 6, importUnary<g::CeilOp>);
  t.add("Round", 11, importUnary<g::RoundOp>);
  t.add("Not", 1, importUnary<g::NotOp>);
  t.add("IsNaN", 9, importIsNaN);
  t.add("IsInf", 10, importIsInf);
  t.add("Gelu", 20, importGelu);

  t.add("Add", 7, importBinary<g::AddOp>);
  t.add("Sub", 7, importBinary<g::SubOp>);
  t.add("Mul", 7, importBinary<g::MulOp>);
  t.add("Div", 7, importBinary<g::DivOp>);
  t.add("Pow", 7, importPow);
  t.add("Mod", 10, importMod);
  t.add("And", 7, importBinary<g::AndOp>);
  t.add("Or", 7, importBinary<g::OrOp>);
  t.add("Xor", 7, importBinary<g::XorOp>);
  t.add("Equal", 7, importBinary<g::EqualOp>);
  t.add("Less", 7, importBinary<g::LessOp>);
  t.add("LessOrEqual", 12, importBinary<g::LessEqualOp>);
  t.add("Greater", 7, importBinary<g::GreaterOp>);
  t.add("GreaterOrEqual", 12, importBinary<g::GreaterEqualOp>);
  t.add("Max", 8, importVariadic<g::MaxOp>);
  t.add("Min", 8, importVariadic<g::MinOp>);
  t.add("Sum", 8, importVariadic<g::AddOp>);
  t.add("Mean", 8, importVariadic<g::AddOp, /*IsMean=*/true>);

  t.add("Where", 9, importWhere);
  t.add("Cast", 6, importCast);
  t.add("CastLike", 15, importCastLike);
  t.add("Clip", 6, importClip);

  t.add("LeakyRelu", 6, importLeakyRelu);
  t.add("PRelu", 7, importPRelu);
  t.add("Elu", 6, importElu);
  t.add("Selu", 6, importSelu);
  t.add("Celu", 12, importCelu);
  t.add("HardSigmoid", 6, importHardSigmoid);
  t.add("HardSwish", 14, importHardSwish);
  t.add("Softplus", 1, importSoftplus);
  t.add("Softsign", 1, importSoftsign);
  t.add("Mish", 18, importMish);
  t.add("ThresholdedRelu", 10, importThresholdedRelu);
  t.add("Shrink", 9, importShrink);
}
