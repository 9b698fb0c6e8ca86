//===- GraphFusion.cpp - Fuse exporter patterns into graph ops -*- C++ -*-===//
//
// Exporters decompose RMSNorm, SiLU, GELU and attention into elementwise
// ops and matmuls; the compiler wants them whole (one kernel, one sharding
// decision). Each pattern below matches one decomposed form and checks every
// constant it relies on, so a look-alike with other constants is left alone.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_GRAPHFUSIONPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

/// The value of a splat floating-point constant.
static std::optional<APFloat> splatFloat(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseFPElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>();
}

static std::optional<double> splatValue(Value v) {
  if (std::optional<APFloat> value = splatFloat(v))
    return value->convertToDouble();
  return std::nullopt;
}

/// Whether `v` is a splat of `expected`: within `tolerance` (relative, and
/// absolute below 1), or exactly `expected` rounded to the constant's type,
/// which is all an f16 or bf16 constant can hold.
static bool isSplat(Value v, double expected, double tolerance = 1e-6) {
  std::optional<APFloat> value = splatFloat(v);
  if (!value)
    return false;
  APFloat rounded(expected);
  bool losesInfo;
  (void)rounded.convert(value->getSemantics(), APFloat::rmNearestTiesToEven,
                        &losesInfo);
  if (value->compare(rounded) == APFloat::cmpEqual)
    return true;
  return std::abs(value->convertToDouble() - expected) <=
         tolerance * std::max(1.0, std::abs(expected));
}

/// For a commutative binary op, the operand that is not `known` (or null).
static Value otherOperand(Operation *op, Value known) {
  if (op->getOperand(0) == known)
    return op->getOperand(1);
  if (op->getOperand(1) == known)
    return op->getOperand(0);
  return nullptr;
}

namespace {
/// What an inverse-RMS subexpression computes from.
struct InvRms {
  Value x;
  int64_t axis;
  double epsilon;
};
} // namespace

/// Matches `reduce_mean(x*x or x^2, trailing axes) + eps` and returns x.
static std::optional<InvRms> matchMeanSquarePlusEps(Value v) {
  auto add = v.getDefiningOp<AddOp>();
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    auto mean = add->getOperand(i).getDefiningOp<ReduceMeanOp>();
    std::optional<double> eps = splatValue(add->getOperand(1 - i));
    // rms_norm takes a finite, non-negative epsilon only.
    if (!mean || !eps || !std::isfinite(*eps) || *eps < 0 ||
        !mean.getKeepdims())
      continue;
    Value sq = mean.getX();
    Value x;
    if (auto mul = sq.getDefiningOp<MulOp>();
        mul && mul.getLhs() == mul.getRhs())
      x = mul.getLhs();
    else if (auto pow = sq.getDefiningOp<PowOp>();
             pow && isSplat(pow.getRhs(), 2.0))
      x = pow.getLhs();
    if (!x)
      continue;
    // The reduced axes must be the trailing ones.
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    ArrayRef<int64_t> axes = mean.getAxes();
    if (axes.empty() || axes.back() != rank - 1 ||
        int64_t(axes.size()) != rank - axes.front())
      continue;
    return InvRms{x, axes.front(), *eps};
  }
  return std::nullopt;
}

/// Matches `1 / sqrt(mean(x^2) + eps)` in its reciprocal and rsqrt forms.
static std::optional<InvRms> matchInvRms(Value v) {
  if (auto rsqrt = v.getDefiningOp<RsqrtOp>())
    return matchMeanSquarePlusEps(rsqrt.getX());
  if (auto rec = v.getDefiningOp<ReciprocalOp>())
    if (auto sqrt = rec.getX().getDefiningOp<SqrtOp>())
      return matchMeanSquarePlusEps(sqrt.getX());
  if (auto div = v.getDefiningOp<DivOp>())
    if (isSplat(div.getLhs(), 1.0))
      if (auto sqrt = div.getRhs().getDefiningOp<SqrtOp>())
        return matchMeanSquarePlusEps(sqrt.getX());
  return std::nullopt;
}

/// Replaces `normalized` (x scaled by the inverse RMS) with rms_norm, taking
/// a following multiplication by a weight into the op when there is one.
static LogicalResult fuseRmsNorm(Operation *normalized, const InvRms &m,
                                 PatternRewriter &rewriter) {
  auto xType = cast<RankedTensorType>(m.x.getType());
  if (normalized->getResult(0).getType() != xType)
    return failure();
  ArrayRef<int64_t> normShape = xType.getShape().drop_front(m.axis);
  Operation *target = normalized;
  Value scale;
  if (normalized->hasOneUse()) {
    Operation *user = *normalized->user_begin();
    if (auto mul = dyn_cast<MulOp>(user)) {
      Value w = otherOperand(mul, normalized->getResult(0));
      auto wType = cast<RankedTensorType>(w.getType());
      auto shape = broadcastShapes(std::nullopt, wType.getShape(), normShape);
      if (mul.getType() == xType && succeeded(shape) &&
          ArrayRef(*shape) == normShape) {
        target = mul;
        scale = w;
      }
    }
  }
  rewriter.setInsertionPoint(target);
  if (!scale) {
    auto onesType = RankedTensorType::get(normShape, xType.getElementType());
    scale = ConstantOp::create(
        rewriter, target->getLoc(),
        DenseElementsAttr::get(onesType,
                               rewriter.getFloatAttr(
                                   xType.getElementType(), 1.0)));
  }
  rewriter.replaceOpWithNewOp<RmsNormOp>(target, xType, m.x, scale,
                                         rewriter.getI64IntegerAttr(m.axis),
                                         rewriter.getF64FloatAttr(m.epsilon));
  return success();
}

namespace {
/// x * invrms(x) (either operand order).
struct RmsNormMulPattern : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      std::optional<InvRms> m = matchInvRms(op->getOperand(i));
      if (m && op->getOperand(1 - i) == m->x)
        return fuseRmsNorm(op, *m, rewriter);
    }
    return failure();
  }
};

/// x / sqrt(mean(x^2) + eps).
struct RmsNormDivPattern : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    auto sqrt = op.getRhs().getDefiningOp<SqrtOp>();
    if (!sqrt)
      return failure();
    std::optional<InvRms> m = matchMeanSquarePlusEps(sqrt.getX());
    if (!m || op.getLhs() != m->x)
      return failure();
    return fuseRmsNorm(op, *m, rewriter);
  }
};

/// x * sigmoid(x).
struct SiluPattern : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      auto sigmoid = op->getOperand(i).getDefiningOp<SigmoidOp>();
      if (sigmoid && sigmoid.getX() == op->getOperand(1 - i) &&
          sigmoid.getType() == op.getType()) {
        rewriter.replaceOpWithNewOp<SiluOp>(op, op.getType(), sigmoid.getX());
        return success();
      }
    }
    return failure();
  }
};

/// 0.5 * x * (1 + t), where t is tanh(c (x + 0.044715 x^3)) or erf(x/sqrt2),
/// in the operand orders exporters produce: (x * 0.5) * (1 + t),
/// x * (0.5 * (1 + t)), (x * (1 + t)) * 0.5.
struct GeluPattern : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Whether `v` is tanh/erf of the GELU argument of `x`; sets `tanh`.
  static bool isGeluInner(Value v, Value x, bool &tanh) {
    if (auto t = v.getDefiningOp<TanhOp>()) {
      // c * (x + 0.044715 * x^3), c = sqrt(2/pi).
      auto mul = t.getX().getDefiningOp<MulOp>();
      if (!mul)
        return false;
      for (int i = 0; i < 2; ++i) {
        if (!isSplat(mul->getOperand(i), 0.7978845608028654, 1e-5))
          continue;
        auto add = mul->getOperand(1 - i).getDefiningOp<AddOp>();
        Value cube = add ? otherOperand(add, x) : nullptr;
        auto scaled = cube ? cube.getDefiningOp<MulOp>() : nullptr;
        if (!scaled)
          continue;
        for (int j = 0; j < 2; ++j) {
          if (!isSplat(scaled->getOperand(j), 0.044715, 1e-5))
            continue;
          Value p = scaled->getOperand(1 - j);
          if (auto pow = p.getDefiningOp<PowOp>();
              pow && pow.getLhs() == x && isSplat(pow.getRhs(), 3.0)) {
            tanh = true;
            return true;
          }
        }
      }
      return false;
    }
    if (auto e = v.getDefiningOp<ErfOp>()) {
      if (auto div = e.getX().getDefiningOp<DivOp>())
        if (div.getLhs() == x && isSplat(div.getRhs(), std::sqrt(2.0), 1e-5)) {
          tanh = false;
          return true;
        }
      if (auto mul = e.getX().getDefiningOp<MulOp>())
        if (Value c = otherOperand(mul, x);
            c && isSplat(c, 1.0 / std::sqrt(2.0), 1e-5)) {
          tanh = false;
          return true;
        }
    }
    return false;
  }

  /// Whether `v` is 1 + gelu-inner(x).
  static bool isOnePlusInner(Value v, Value x, bool &tanh) {
    auto add = v.getDefiningOp<AddOp>();
    if (!add)
      return false;
    for (int i = 0; i < 2; ++i)
      if (isSplat(add->getOperand(i), 1.0) &&
          isGeluInner(add->getOperand(1 - i), x, tanh))
        return true;
    return false;
  }

  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    Value x;
    bool tanh = false;
    for (int i = 0; i < 2 && !x; ++i) {
      Value a = op->getOperand(i), b = op->getOperand(1 - i);
      // (x * 0.5) * (1 + t)
      if (auto half = a.getDefiningOp<MulOp>())
        for (int j = 0; j < 2 && !x; ++j)
          if (isSplat(half->getOperand(j), 0.5) &&
              isOnePlusInner(b, half->getOperand(1 - j), tanh))
            x = half->getOperand(1 - j);
      // x * (0.5 * (1 + t))
      if (auto half = b.getDefiningOp<MulOp>(); half && !x)
        for (int j = 0; j < 2 && !x; ++j)
          if (isSplat(half->getOperand(j), 0.5) &&
              isOnePlusInner(half->getOperand(1 - j), a, tanh))
            x = a;
      // (x * (1 + t)) * 0.5
      if (auto inner = a.getDefiningOp<MulOp>(); inner && !x &&
                                                 isSplat(b, 0.5))
        for (int j = 0; j < 2 && !x; ++j)
          if (isOnePlusInner(inner->getOperand(1 - j), inner->getOperand(j),
                             tanh))
            x = inner->getOperand(j);
    }
    if (!x || x.getType() != op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<GeluOp>(op, op.getType(), x,
                                        rewriter.getStringAttr(
                                            tanh ? "tanh" : "none"));
    return success();
  }
};

/// reshape(transpose(reshape(x))) where the inner reshape merges the leading
/// dims of x, the transpose keeps the merged dim first and the outer reshape
/// splits it back: a transpose of x (GPT-2's export of k.transpose(-1, -2)).
struct ReshapeTransposeReshapePattern : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp outer,
                                PatternRewriter &rewriter) const override {
    auto t = outer.getX().getDefiningOp<TransposeOp>();
    auto inner = t ? t.getX().getDefiningOp<ReshapeOp>() : ReshapeOp();
    if (!inner)
      return failure();
    ArrayRef<int64_t> x = inner.getX().getType().getShape();
    ArrayRef<int64_t> mid = inner.getType().getShape();
    ArrayRef<int64_t> out = outer.getType().getShape();
    ArrayRef<int64_t> perm = t.getPerm();
    // mid = [prod(x[:k]), x[k:]...] and the transpose keeps dim 0.
    int64_t k = int64_t(x.size()) - (int64_t(mid.size()) - 1);
    if (k < 1 || perm.empty() || perm[0] != 0 ||
        x.drop_front(k) != mid.drop_front(1))
      return failure();
    // out = [x[:k]..., transposed trailing dims...].
    ArrayRef<int64_t> tmid = t.getType().getShape();
    if (out.size() != x.size() || out.take_front(k) != x.take_front(k) ||
        out.drop_front(k) != tmid.drop_front(1))
      return failure();
    SmallVector<int64_t> newPerm;
    for (int64_t d = 0; d < k; ++d)
      newPerm.push_back(d);
    for (int64_t p : perm.drop_front())
      newPerm.push_back(k + p - 1);
    rewriter.replaceOpWithNewOp<TransposeOp>(outer, outer.getType(),
                                             inner.getX(), newPerm);
    return success();
  }
};

/// slice(matmul(x, w)) with a matrix `w` and the slice keeping the last
/// (output feature) dim whole: the product of the sliced rows,
/// matmul(slice(x), w). The product then computes only the rows that are
/// kept (a language model's logits without the last position, shifted for
/// the next-token loss, or only the last position when decoding), and its
/// gradient pads the small input instead of the logits.
struct SliceOfProductPattern : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto product = slice.getX().getDefiningOp<MatMulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    auto x = cast<RankedTensorType>(product.getLhs().getType());
    auto w = cast<RankedTensorType>(product.getRhs().getType());
    auto y = product.getType();
    int64_t rank = y.getRank();
    if (w.getRank() != 2 || x.getRank() != rank || rank < 2)
      return failure();
    int64_t last = rank - 1;
    if (slice.getStarts()[last] != 0 || slice.getSteps()[last] != 1 ||
        slice.getLimits()[last] != y.getDimSize(last))
      return failure();
    SmallVector<int64_t> starts(slice.getStarts()),
        limits(slice.getLimits()), steps(slice.getSteps());
    limits[last] = x.getDimSize(last);
    auto rows = SliceOp::create(rewriter, slice.getLoc(), product.getLhs(),
                                starts, limits, steps);
    rewriter.replaceOpWithNewOp<MatMulOp>(slice, slice.getType(), rows,
                                          product.getRhs());
    return success();
  }
};

/// Whether a constant mask of `scoresShape` broadcast is causal: 0 (or true)
/// where key j <= i + sk - sq, very negative (or false) elsewhere, the same
/// for every leading index. With sq > sk the first rows see no key: the
/// exporters' finite fill gives them a uniform softmax where the causal flag
/// gives zeros, so such a mask is not causal here.
static bool isCausalMask(DenseElementsAttr mask, ArrayRef<int64_t> scores,
                         bool boolean) {
  auto type = cast<RankedTensorType>(mask.getType());
  int64_t r = scores.size();
  if (type.getRank() < 2 || type.getRank() > r)
    return false;
  int64_t sq = scores[r - 2], sk = scores[r - 1];
  if (type.getDimSize(type.getRank() - 2) != sq ||
      type.getDimSize(type.getRank() - 1) != sk || sq == 0 || sq > sk)
    return false;
  int64_t slices = type.getNumElements() / (sq * sk);
  SmallVector<double> values;
  if (boolean) {
    for (bool b : mask.getValues<bool>())
      values.push_back(b ? 0.0 : -INFINITY);
  } else if (isa<FloatType>(type.getElementType())) {
    for (const APFloat &f : mask.getValues<APFloat>())
      values.push_back(f.convertToDouble());
  } else {
    return false;
  }
  for (int64_t s = 0; s < slices; ++s)
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t j = 0; j < sk; ++j) {
        double m = values[(s * sq + i) * sk + j];
        bool visible = j <= i + sk - sq;
        if (visible ? m != 0.0 : !(m <= -1e9))
          return false;
      }
  return true;
}

/// Whether a bool mask is causal by construction: lower trilu of a nonzero
/// splat, [sq, sk] with k = sk - sq, cast to i1 (what exporters emit for
/// sequences whose [S, S] mask is too large to fold into a constant).
static bool isTriluCausalMask(Value cond, ArrayRef<int64_t> scores) {
  auto condType = dyn_cast<RankedTensorType>(cond.getType());
  if (!condType || !condType.getElementType().isInteger(1))
    return false;
  Value x = cond;
  if (auto c = cond.getDefiningOp<CastOp>())
    x = c.getX();
  auto trilu = x.getDefiningOp<TriluOp>();
  if (!trilu || trilu.getUpper())
    return false;
  std::optional<double> fill = splatValue(trilu.getX());
  auto type = cast<RankedTensorType>(trilu.getType());
  int64_t r = scores.size();
  if (!fill || *fill == 0.0 || type.getRank() != 2 || r < 2)
    return false;
  int64_t sq = scores[r - 2], sk = scores[r - 1];
  return type.getDimSize(0) == sq && type.getDimSize(1) == sk && sq > 0 &&
         sq <= sk && trilu.getK() == sk - sq;
}

/// Whether every row (last dim) of a bool mask keeps a key. A row that keeps
/// none is a uniform softmax (finite fill) or NaN in where(mask, s, fill),
/// not the zeros of graph.attention's fully masked row.
static bool everyRowVisible(DenseElementsAttr mask) {
  auto type = cast<RankedTensorType>(mask.getType());
  int64_t row = type.getRank() ? type.getShape().back() : 1, seen = 0;
  bool visible = false;
  for (bool b : mask.getValues<bool>()) {
    visible |= b;
    if (++seen % row == 0) {
      if (!visible)
        return false;
      visible = false;
    }
  }
  return true;
}

/// matmul(softmax(mask(scale * matmul(q, transpose(k)))), v), with the
/// exporters' variants (scale on q and k, division, where-masks, a NaN
/// guard after the softmax), becomes graph.attention.
struct AttentionPattern : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatMulOp pv,
                                PatternRewriter &rewriter) const override {
    Value p = pv.getLhs(), v = pv.getRhs();
    // An optional NaN guard: where(is_nan(p), 0, p).
    if (auto guard = p.getDefiningOp<WhereOp>())
      if (auto isNan = guard.getCond().getDefiningOp<IsNaNOp>())
        if (isNan.getX() == guard.getB() && isSplat(guard.getA(), 0.0))
          p = guard.getB();
    auto softmax = p.getDefiningOp<SoftmaxOp>();
    auto pType = cast<RankedTensorType>(p.getType());
    if (!softmax || int64_t(softmax.getAxis()) != pType.getRank() - 1 ||
        pType.getRank() < 3)
      return failure();
    Value s = softmax.getX();
    Type elem = pType.getElementType();
    double scale = 1.0;
    Value mask;
    DenseElementsAttr whereMask; // made an additive mask once matched
    bool causal = false;
    // The mask, outermost.
    if (auto add = s.getDefiningOp<AddOp>()) {
      for (int i = 0; i < 2 && !mask && !causal; ++i) {
        Value m = add->getOperand(1 - i);
        if (m.getType() == add.getType())
          continue; // the scores are the full-shape operand
        auto c = m.getDefiningOp<ConstantOp>();
        auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
        if (dense && isCausalMask(dense, pType.getShape(), false))
          causal = true;
        else
          mask = m;
        s = add->getOperand(i);
      }
    } else if (auto where = s.getDefiningOp<WhereOp>()) {
      auto c = where.getCond().getDefiningOp<ConstantOp>();
      auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
      std::optional<double> fill = splatValue(where.getB());
      if (!fill || !(*fill <= -1e9) ||
          where.getA().getType() != where.getType())
        return failure();
      if (!dense && isTriluCausalMask(where.getCond(), pType.getShape()))
        causal = true;
      else if (!dense)
        return failure();
      else if (isCausalMask(dense, pType.getShape(), true))
        causal = true;
      else if (everyRowVisible(dense))
        whereMask = dense;
      else
        return failure();
      s = where.getA();
    }
    // Scales.
    auto peelScale = [&](Value &x) {
      while (true) {
        if (auto mul = x.getDefiningOp<MulOp>()) {
          std::optional<double> c = splatValue(mul.getRhs());
          Value other = mul.getLhs();
          if (!c) {
            c = splatValue(mul.getLhs());
            other = mul.getRhs();
          }
          if (!c || other.getType() != mul.getType())
            return;
          scale *= *c;
          x = other;
          continue;
        }
        if (auto div = x.getDefiningOp<DivOp>()) {
          std::optional<double> c = splatValue(div.getRhs());
          if (!c || *c == 0 || div.getLhs().getType() != div.getType())
            return;
          scale /= *c;
          x = div.getLhs();
          continue;
        }
        return;
      }
    };
    peelScale(s);
    // Neither the mask nor the NaN guard may broadcast the scores.
    auto qk = s.getDefiningOp<MatMulOp>();
    if (!qk || qk.getType() != pv.getLhs().getType())
      return failure();
    Value q = qk.getLhs(), kt = qk.getRhs();
    peelScale(q);
    peelScale(kt);
    auto transpose = kt.getDefiningOp<TransposeOp>();
    if (!transpose)
      return failure();
    ArrayRef<int64_t> perm = transpose.getPerm();
    int64_t r = perm.size();
    if (r < 2)
      return failure();
    for (int64_t d = 0; d < r - 2; ++d)
      if (perm[d] != d)
        return failure();
    if (perm[r - 2] != r - 1 || perm[r - 1] != r - 2)
      return failure();
    Value k = transpose.getX();
    auto qType = cast<RankedTensorType>(q.getType());
    auto kType = cast<RankedTensorType>(k.getType());
    auto vType = cast<RankedTensorType>(v.getType());
    if (qType.getRank() != r || kType.getRank() != r || vType.getRank() != r ||
        qType.getShape().drop_back(2) != kType.getShape().drop_back(2) ||
        qType.getShape().drop_back(2) != vType.getShape().drop_back(2) ||
        qType.getElementType() != elem)
      return failure();
    if (mask && cast<RankedTensorType>(mask.getType()).getElementType() != elem)
      return failure();
    if (whereMask) {
      // where(c, s, fill) = s + (c ? 0 : -inf) when every row keeps a key.
      auto condType = cast<RankedTensorType>(whereMask.getType());
      SmallVector<APFloat> values;
      const auto &sem = cast<FloatType>(elem).getFloatSemantics();
      for (bool b : whereMask.getValues<bool>())
        values.push_back(b ? APFloat::getZero(sem)
                           : APFloat::getInf(sem, /*Negative=*/true));
      rewriter.setInsertionPoint(pv);
      mask = ConstantOp::create(
          rewriter, pv.getLoc(),
          DenseElementsAttr::get(condType.clone(elem), values));
    }
    rewriter.replaceOpWithNewOp<AttentionOp>(
        pv, pv.getType(), q, k, v, mask, rewriter.getF64FloatAttr(scale),
        rewriter.getBoolAttr(causal));
    return success();
  }
};

struct GraphFusionPass
    : public graph::impl::GraphFusionPassBase<GraphFusionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RmsNormMulPattern, RmsNormDivPattern, SiluPattern,
                 GeluPattern, ReshapeTransposeReshapePattern,
                 AttentionPattern, SliceOfProductPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
