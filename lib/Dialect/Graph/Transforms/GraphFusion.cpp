//===- GraphFusion.cpp - Fuse exporter patterns into graph ops -*- C++ -*-===//
//
// Exporters decompose RMSNorm, SiLU, GELU and attention into elementwise
// ops and matmuls; the compiler wants them whole (one kernel, one sharding
// decision). Each pattern below matches one decomposed form and checks every
// constant it relies on, so a look-alike with other constants is left alone.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "AttentionFusion.h"
#include "FusionMatchers.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_GRAPHFUSIONPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

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
        DenseElementsAttr::get(
            onesType, rewriter.getFloatAttr(xType.getElementType(), 1.0)));
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

/// silu(gate) * up of one type (SwiGLU's product).
struct SiluMulPattern : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      auto silu = op->getOperand(i).getDefiningOp<SiluOp>();
      Value up = op->getOperand(1 - i);
      if (silu && silu.getType() == op.getType() &&
          up.getType() == op.getType()) {
        rewriter.replaceOpWithNewOp<SiluMulOp>(op, op.getType(), silu.getX(),
                                               up);
        return success();
      }
    }
    return failure();
  }
};

/// Whether `v` is computed from graph.constants only (no weight, state or
/// argument on the way): a table the compiler may treat as fixed.
static bool isConstantOnly(Value v) {
  SmallVector<Value> pending = {v};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!pending.empty()) {
    Operation *op = pending.pop_back_val().getDefiningOp();
    if (!op || isa<WeightOp, StateOp>(op) || op->getNumRegions())
      return false;
    if (!seen.insert(op).second || isa<ConstantOp>(op))
      continue;
    llvm::append_range(pending, op->getOperands());
  }
  return true;
}

/// Whether `slice` takes x[..., begin:end] (last dim) and all of the others.
static bool slicesLastDim(SliceOp slice, Value x, int64_t begin, int64_t end) {
  if (!slice || slice.getX() != x)
    return false;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  int64_t last = int64_t(shape.size()) - 1;
  for (int64_t d = 0; d <= last; ++d) {
    int64_t b = d == last ? begin : 0, e = d == last ? end : shape[d];
    if (slice.getStarts()[d] != b || slice.getLimits()[d] != e ||
        slice.getSteps()[d] != 1)
      return false;
  }
  return true;
}

/// x * cos + rotate_half(x) * sin with rotate_half(x) =
/// concat(-x[..., D/2:], x[..., :D/2]) and constant tables (transformers'
/// apply_rotary_pos_emb as torch.onnx exports it), in any operand order.
struct RotaryPattern : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  /// x when `v` is rotate_half(x).
  static Value rotatedHalf(Value v) {
    auto cat = v.getDefiningOp<ConcatOp>();
    auto type = cast<RankedTensorType>(v.getType());
    int64_t rank = type.getRank();
    if (!cat || cat->getNumOperands() != 2 || rank < 1 ||
        int64_t(cat.getAxis()) != rank - 1 || type.getShape().back() % 2)
      return nullptr;
    int64_t d = type.getShape().back(), h = d / 2;
    auto neg = cat->getOperand(0).getDefiningOp<NegOp>();
    auto hi = neg ? neg.getX().getDefiningOp<SliceOp>() : SliceOp();
    auto lo = cat->getOperand(1).getDefiningOp<SliceOp>();
    if (!hi || !lo || hi.getX() != lo.getX() ||
        hi.getX().getType() != v.getType() ||
        !slicesLastDim(hi, hi.getX(), h, d) ||
        !slicesLastDim(lo, lo.getX(), 0, h))
      return nullptr;
    return hi.getX();
  }

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      auto direct = op->getOperand(i).getDefiningOp<MulOp>();
      auto rotated = op->getOperand(1 - i).getDefiningOp<MulOp>();
      if (!direct || !rotated)
        continue;
      for (int j = 0; j < 2; ++j) {
        Value x = direct->getOperand(j), cos = direct->getOperand(1 - j);
        if (x.getType() != op.getType())
          continue;
        for (int k = 0; k < 2; ++k) {
          Value sin = rotated->getOperand(1 - k);
          if (rotatedHalf(rotated->getOperand(k)) != x ||
              !isConstantOnly(cos) || !isConstantOnly(sin))
            continue;
          auto elem = op.getType().getElementType();
          auto table = [&](Value t) {
            auto type = cast<RankedTensorType>(t.getType());
            auto b = broadcastShapes(std::nullopt, type.getShape(),
                                     op.getType().getShape());
            return type.getElementType() == elem && succeeded(b) &&
                   ArrayRef(*b) == op.getType().getShape();
          };
          if (!table(cos) || !table(sin))
            continue;
          rewriter.replaceOpWithNewOp<RotaryOp>(op, op.getType(), x, cos, sin,
                                                rewriter.getBoolAttr(false));
          return success();
        }
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
      if (auto inner = a.getDefiningOp<MulOp>(); inner && !x && isSplat(b, 0.5))
        for (int j = 0; j < 2 && !x; ++j)
          if (isOnePlusInner(inner->getOperand(1 - j), inner->getOperand(j),
                             tanh))
            x = inner->getOperand(j);
    }
    if (!x || x.getType() != op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<GeluOp>(
        op, op.getType(), x, rewriter.getStringAttr(tanh ? "tanh" : "none"));
    return success();
  }
};

/// reshape(transpose(reshape(x))) where the inner reshape merges the leading
/// dims of x, the transpose keeps the merged dim first and the outer reshape
/// splits it again (into the same dims or others of the same product): a
/// transpose of x, reshaped first when the split differs. GPT-2's export of
/// k.transpose(-1, -2) splits into x's own dims; torch.onnx's sdpa splits
/// [B, Hkv, G, S, D] (K repeated for grouped-query attention) merged into
/// [B Hkv G, S, D] back into [B, H, D, S].
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
    // out = [lead..., transposed trailing dims...] with prod(lead) = mid[0].
    ArrayRef<int64_t> tmid = t.getType().getShape();
    int64_t m = int64_t(out.size()) - (int64_t(mid.size()) - 1);
    if (m < 1 || out.drop_front(m) != tmid.drop_front(1))
      return failure();
    int64_t lead = 1;
    for (int64_t d : out.take_front(m))
      lead *= d;
    if (lead != mid[0])
      return failure();
    Value source = inner.getX();
    if (out.take_front(m) != x.take_front(k)) {
      SmallVector<int64_t> split(out.take_front(m));
      llvm::append_range(split, mid.drop_front());
      source = ReshapeOp::create(
          rewriter, inner.getLoc(),
          RankedTensorType::get(split, inner.getType().getElementType()),
          source);
    }
    SmallVector<int64_t> newPerm;
    for (int64_t d = 0; d < m; ++d)
      newPerm.push_back(d);
    for (int64_t p : perm.drop_front())
      newPerm.push_back(m + p - 1);
    rewriter.replaceOpWithNewOp<TransposeOp>(outer, outer.getType(), source,
                                             newPerm);
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
    SmallVector<int64_t> starts(slice.getStarts()), limits(slice.getLimits()),
        steps(slice.getSteps());
    limits[last] = x.getDimSize(last);
    auto rows = SliceOp::create(rewriter, slice.getLoc(), product.getLhs(),
                                starts, limits, steps);
    rewriter.replaceOpWithNewOp<MatMulOp>(slice, slice.getType(), rows,
                                          product.getRhs());
    return success();
  }
};

/// A slice that keeps every element in order is its operand: Phi-3's export
/// slices q and k into the rotated part `[..., :rotary_dim]`, the whole
/// head when rotary_dim is the head dim.
struct WholeSlicePattern : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    if (slice.getType() != slice.getX().getType() ||
        !llvm::all_of(slice.getStarts(), [](int64_t s) { return s == 0; }) ||
        !llvm::all_of(slice.getSteps(), [](int64_t s) { return s == 1; }))
      return failure();
    rewriter.replaceOp(slice, slice.getX());
    return success();
  }
};

/// Empty operands of a concatenation contribute nothing: Phi-3's rotated
/// part concatenated with its empty pass-through part `[..., rotary_dim:]`.
/// With one operand left, the concatenation is that operand.
struct ConcatEmptyPattern : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    auto isEmpty = [](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      return type.hasStaticShape() && type.getNumElements() == 0;
    };
    SmallVector<Value> kept;
    for (Value v : concat.getInputs())
      if (!isEmpty(v))
        kept.push_back(v);
    if (kept.empty() || kept.size() == concat.getInputs().size())
      return failure();
    if (kept.size() == 1)
      rewriter.replaceOp(concat, kept.front());
    else
      rewriter.replaceOpWithNewOp<ConcatOp>(concat, kept, concat.getAxis());
    return success();
  }
};

/// `v` with the ops that only broadcast it stripped: expand, and reshapes
/// that add or drop dims of size 1.
static Value stripBroadcast(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (auto expand = dyn_cast<ExpandOp>(op)) {
      v = expand.getX();
      continue;
    }
    auto reshape = dyn_cast<ReshapeOp>(op);
    if (!reshape)
      break;
    auto shapeWithoutOnes = [](Value x) {
      SmallVector<int64_t> dims;
      for (int64_t d : cast<RankedTensorType>(x.getType()).getShape())
        if (d != 1)
          dims.push_back(d);
      return dims;
    };
    if (shapeWithoutOnes(reshape.getX()) != shapeWithoutOnes(reshape))
      break;
    v = reshape.getX();
  }
  return v;
}

/// `v` with the float-to-float casts that produce it stripped (a bf16
/// softmax's sum, which JAX accumulates in f32 and casts back).
static Value stripFloatCasts(Value v) {
  while (auto cast = v.getDefiningOp<CastOp>()) {
    auto from = cast.getX().getType().getElementType();
    if (!isa<FloatType>(from) ||
        !isa<FloatType>(cast.getType().getElementType()))
      break;
    v = cast.getX();
  }
  return v;
}

/// The `x` that `v` reduces with `OpTy` along its single axis `axis`
/// (after stripBroadcast and float casts of the reduction), or null.
template <typename OpTy> static Value reducedAlong(Value v, int64_t axis) {
  for (Value stripped = v;; v = stripped)
    if ((stripped = stripFloatCasts(stripBroadcast(v))) == v)
      break;
  auto reduce = v.getDefiningOp<OpTy>();
  if (!reduce || reduce.getAxes().size() != 1 || reduce.getAxes()[0] != axis)
    return nullptr;
  return reduce.getX();
}

/// `x - max(x)` along `axis` as JAX writes it (the max possibly raised to
/// an initial -inf, `max(reduce_max(x), -inf)`): returns `x`, or null.
static Value shiftedByMax(Value shifted, int64_t axis) {
  auto sub = shifted.getDefiningOp<SubOp>();
  if (!sub)
    return nullptr;
  Value x = sub.getLhs(), max = stripBroadcast(sub.getRhs());
  if (auto initial = max.getDefiningOp<MaxOp>()) {
    for (int i = 0; i < 2; ++i)
      if (auto fill = splatFloat(initial->getOperand(i));
          fill && fill->isInfinity() && fill->isNegative())
        max = initial->getOperand(1 - i);
  }
  return reducedAlong<ReduceMaxOp>(max, axis) == x ? x : nullptr;
}

/// The axis of a softmax-like result of `op` (its last dim: attention's
/// scores and a model's logits), for the patterns below.
static int64_t lastAxis(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getRank() - 1;
}

/// `e / sum(e)` with `e = exp(x - max(x))` along the last axis (JAX's
/// jax.nn.softmax, and the max-shifted decomposition of other frontends)
/// becomes `graph.softmax x`, so that attention fuses.
struct SoftmaxPattern : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp div,
                                PatternRewriter &rewriter) const override {
    const int64_t axis = lastAxis(div);
    auto exp = div.getLhs().getDefiningOp<ExpOp>();
    if (axis < 0 || !exp)
      return failure();
    // The sum possibly of e widened (bf16 e summed in f32).
    Value summed = reducedAlong<ReduceSumOp>(div.getRhs(), axis);
    if (!summed || stripFloatCasts(summed) != exp.getResult())
      return failure();
    Value x = shiftedByMax(exp.getX(), axis);
    if (!x || x.getType() != div.getType())
      return failure();
    rewriter.replaceOpWithNewOp<SoftmaxOp>(div, div.getType(), x,
                                           rewriter.getI64IntegerAttr(axis));
    return success();
  }
};

/// `s - log(sum(exp(s)))` with `s = x - max(x)` along the last axis (JAX's
/// jax.nn.log_softmax) becomes `graph.log_softmax x`.
struct LogSoftmaxPattern : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp sub,
                                PatternRewriter &rewriter) const override {
    const int64_t axis = lastAxis(sub);
    auto log = stripBroadcast(sub.getRhs()).getDefiningOp<LogOp>();
    if (axis < 0 || !log)
      return failure();
    Value shifted = sub.getLhs();
    Value sum = reducedAlong<ReduceSumOp>(log.getX(), axis);
    auto exp = sum ? stripFloatCasts(sum).getDefiningOp<ExpOp>() : nullptr;
    if (!exp || exp.getX() != shifted)
      return failure();
    Value x = shiftedByMax(shifted, axis);
    if (!x || x.getType() != sub.getType())
      return failure();
    rewriter.replaceOpWithNewOp<LogSoftmaxOp>(sub, sub.getType(), x,
                                              rewriter.getI64IntegerAttr(axis));
    return success();
  }
};

struct GraphFusionPass
    : public graph::impl::GraphFusionPassBase<GraphFusionPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns
        .add<RmsNormMulPattern, RmsNormDivPattern, SiluPattern, SiluMulPattern,
             RotaryPattern, GeluPattern, ReshapeTransposeReshapePattern,
             SliceOfProductPattern, WholeSlicePattern, ConcatEmptyPattern,
             SoftmaxPattern, LogSoftmaxPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Attention last, over the whole function at once: the layers share a
    // mask, analysed once (AttentionMasks.h).
    fuseAttentions(getOperation());
  }
};
} // namespace
