//===- AttentionFusion.cpp - Attention as exporters write it ---*- C++ -*-===//
//
// Finds `matmul(softmax(mask(scale * matmul(q, kᵀ))), v)` in the forms
// exporters write and replaces it by graph.attention:
//  * the scale on the product, or split over q and kᵀ, multiplied or
//    divided; kᵀ a transpose of the last two dims;
//  * an optional guard after the softmax, where(is_nan(p), 0, p) (torch's
//    sdpa decomposition), and dropout with ratio 0 (eager attention in
//    train());
//  * the mask: added (`s + M`) or selected (`where(c, s, fill)`), where M
//    is where(c, 0, fill), a 0/fill constant or anything else (kept as the
//    additive operand). A condition c is analysed (AttentionMasks.h): a
//    causal band becomes `causal` (and `window`), a padding mask read from
//    an input becomes a [B, 1, 1, Sk] additive operand, another constant
//    condition an additive constant.
//
// The fused op must compute what the graph did for every input, including
// the query rows that see no key. Those rows are NaN in the graph when the
// fill is -inf (the guard then makes them 0, which is what graph.attention
// gives), and a uniform average of v when the fill is a finite, very
// negative number (the softmax of equal values; finfo.min added to a score
// rounds to finfo.min). With a padding mask the uniform rows are restored
// after the fused op: where(no key, mean(v), attention). A form whose empty
// rows the fused op cannot reproduce is left alone.
//
//===----------------------------------------------------------------------===//

#include "AttentionFusion.h"

#include "AttentionMasks.h"
#include "FusionMatchers.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/IR/ScalarConstant.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// A fill at or below this hides a key: exp(fill + score - max) is 0.
constexpr double kHidingFill = -1e4;
/// A finite fill at or below this absorbs any score added to it (finfo.min
/// is -3.4e38; a score would have to exceed 1e30 to change the sum).
constexpr double kAbsorbingFill = -1e30;

/// Peels multiplications and divisions by splat constants off `x`,
/// multiplying `scale` by what they contribute.
Value peelScale(Value x, double &scale) {
  while (true) {
    if (auto mul = x.getDefiningOp<MulOp>()) {
      std::optional<double> c = splatValue(mul.getRhs());
      Value other = mul.getLhs();
      if (!c) {
        c = splatValue(mul.getLhs());
        other = mul.getRhs();
      }
      if (!c || other.getType() != mul.getType())
        return x;
      scale *= *c;
      x = other;
      continue;
    }
    if (auto div = x.getDefiningOp<DivOp>()) {
      std::optional<double> c = splatValue(div.getRhs());
      if (!c || *c == 0 || div.getLhs().getType() != div.getType())
        return x;
      scale /= *c;
      x = div.getLhs();
      continue;
    }
    return x;
  }
}

/// The scores: scale * matmul(q, transpose(k)) over the last two dims.
struct ScoreProduct {
  Value q, k;
  double scale = 1.0;
};

std::optional<ScoreProduct> matchScores(Value s) {
  ScoreProduct p;
  auto qk = peelScale(s, p.scale).getDefiningOp<MatMulOp>();
  if (!qk)
    return std::nullopt;
  Value q = peelScale(qk.getLhs(), p.scale);
  Value kt = peelScale(qk.getRhs(), p.scale);
  auto transpose = kt.getDefiningOp<TransposeOp>();
  if (!transpose)
    return std::nullopt;
  ArrayRef<int64_t> perm = transpose.getPerm();
  int64_t r = perm.size();
  if (r < 2 || perm[r - 2] != r - 1 || perm[r - 1] != r - 2)
    return std::nullopt;
  for (int64_t d = 0; d < r - 2; ++d)
    if (perm[d] != d)
      return std::nullopt;
  p.q = q;
  p.k = transpose.getX();
  return p;
}

/// How the mask enters the softmax.
struct MaskedScores {
  ScoreProduct product;
  /// `s + additive` (null: not added).
  Value additive;
  /// The visibility condition: of `where(condition, s, fill)` (selected), or
  /// of an additive `where(condition, 0, fill)` (null: none known).
  Value condition;
  /// A constant additive mask's values, as a condition (with `fill`).
  std::shared_ptr<rt::Tensor> constantCondition;
  double fill = 0;
  bool selected = false;
};

/// The additive mask `m` as (condition, fill) when it is where(c, 0, fill)
/// or a constant of zeros and one fill that hides keys.
void analyseAdditive(MaskedScores &ms) {
  Value m = ms.additive;
  if (auto w = m.getDefiningOp<WhereOp>()) {
    std::optional<double> fill = splatValue(w.getB());
    if (isSplat(w.getA(), 0.0) && fill && *fill <= kHidingFill) {
      ms.condition = w.getCond();
      ms.fill = *fill;
    }
    return;
  }
  auto constant = m.getDefiningOp<ConstantOp>();
  auto values =
      constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue()) : nullptr;
  if (!values)
    return;
  auto shape = cast<RankedTensorType>(values.getType()).getShape();
  auto condition = rt::Tensor::allocate(
      rt::DType::Bool, rt::Shape(shape.begin(), shape.end()));
  if (!condition)
    return;
  std::optional<double> fill;
  int64_t i = 0;
  for (const APFloat &value : values.getValues<APFloat>()) {
    double x = value.convertToDouble();
    condition->as<uint8_t>()[i++] = x == 0.0;
    if (x == 0.0)
      continue;
    if (!(x <= kHidingFill) || (fill && *fill != x))
      return;
    fill = x;
  }
  ms.fill = fill ? *fill : -INFINITY;
  ms.constantCondition = std::make_shared<rt::Tensor>(std::move(*condition));
}

/// What the graph computes for a query row that sees no key.
enum class EmptyRow {
  NaN,      ///< The softmax of -inf: NaN (0 after a guard).
  Uniform,  ///< The softmax of equal fills: the mean of v.
  Unmasked, ///< The softmax of the scores shifted by a moderate fill.
};

EmptyRow emptyRowOf(const MaskedScores &ms) {
  if (std::isinf(ms.fill))
    return EmptyRow::NaN;
  if (ms.selected || ms.fill <= kAbsorbingFill)
    return EmptyRow::Uniform;
  return EmptyRow::Unmasked;
}

/// What graph.attention gets.
struct AttentionPlan {
  bool causal = false;
  int64_t window = 0;
  /// An additive mask: an existing value, or a constant / padding mask to
  /// build.
  Value additive;
  DenseElementsAttr additiveConstant;
  Value padding;
  /// Restore the uniform rows of the padding mask after the op.
  bool uniformRows = false;
};

/// The additive constant of a constant condition: 0 where visible, `fill`
/// elsewhere, of element type `elem`.
DenseElementsAttr additiveOf(DenseElementsAttr condition, Type elem,
                             double fill) {
  const auto &sem = cast<FloatType>(elem).getFloatSemantics();
  APFloat hidden(fill);
  bool losesInfo;
  (void)hidden.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  SmallVector<APFloat> values;
  values.reserve(condition.getNumElements());
  for (bool visible : condition.getValues<bool>())
    values.push_back(visible ? APFloat::getZero(sem) : hidden);
  return DenseElementsAttr::get(
      cast<RankedTensorType>(condition.getType()).clone(elem), values);
}

/// Decides the plan from an analysed condition; false when the fused op
/// would not compute what the graph does.
bool planFromCondition(const MaskCondition &m, const MaskedScores &ms,
                       bool guarded, Type elem, AttentionPlan &plan) {
  EmptyRow empty = emptyRowOf(ms);
  bool zeroRowsOk = !m.mayHaveEmptyRows() ||
                    (empty == EmptyRow::NaN && guarded);
  // A band (or nothing) and at most a padding mask: attributes and a small
  // [B, 1, 1, Sk] operand.
  if (!m.hasConstant || m.isBand) {
    plan.causal = m.causal;
    plan.window = m.window;
    plan.padding = m.paddingSource;
    if (zeroRowsOk && !(m.hasConstant && m.constantHasEmptyRows &&
                        empty != EmptyRow::NaN))
      return true;
    // Uniform rows: restored for a padding mask over a causal band without
    // window (or over no band) whose own rows all see a key.
    if (empty == EmptyRow::Uniform && m.paddingSource &&
        !m.constantHasEmptyRows && m.window == 0) {
      plan.uniformRows = true;
      return true;
    }
  }
  // Another constant condition, alone: an additive constant (the graph's
  // own when the mask was added), with the graph's fill where rows may be
  // empty and that fill absorbs the scores (uniform rows stay uniform).
  if (m.constant && !m.paddingSource &&
      (zeroRowsOk ||
       (empty == EmptyRow::Uniform && ms.fill <= kAbsorbingFill))) {
    plan = AttentionPlan();
    if (ms.additive && !ms.selected)
      plan.additive = ms.additive;
    else
      plan.additiveConstant = additiveOf(
          m.constant, elem,
          zeroRowsOk ? -std::numeric_limits<double>::infinity() : ms.fill);
    return true;
  }
  return false;
}

/// Builds graph.attention (and the uniform-row fix-up) for `pv`.
Value buildAttention(OpBuilder &b, MatMulOp pv, const ScoreProduct &product,
                     Value v, const AttentionPlan &plan) {
  Location loc = pv.getLoc();
  auto yType = cast<RankedTensorType>(pv.getType());
  Type elem = yType.getElementType();
  Value mask = plan.additive;
  if (plan.additiveConstant)
    mask = ConstantOp::create(b, loc, plan.additiveConstant);
  Value visible; // [B, Sk] i1, for the fix-up
  if (plan.padding) {
    auto source = cast<RankedTensorType>(plan.padding.getType());
    ArrayRef<int64_t> qShape = cast<RankedTensorType>(product.q.getType())
                                   .getShape();
    int64_t batch = qShape[0];
    int64_t keys = source.getNumElements() / batch;
    auto i1 = IntegerType::get(b.getContext(), 1);
    Value flag = plan.padding;
    if (!source.getElementType().isInteger(1))
      flag = CastOp::create(b, loc, source.clone(i1), flag);
    visible = ReshapeOp::create(
        b, loc, RankedTensorType::get({batch, keys}, i1), flag);
    Value keyMask = ReshapeOp::create(
        b, loc, RankedTensorType::get({batch, 1, 1, keys}, i1), visible);
    Value zero = createScalarConstant(b, loc, elem, 0.0);
    Value hidden = createScalarConstant(
        b, loc, elem, -std::numeric_limits<double>::infinity());
    mask = WhereOp::create(b, loc, keyMask, zero, hidden);
  }
  Value y = AttentionOp::create(
      b, loc, yType, product.q, product.k, v, mask,
      /*query_start=*/Value(), b.getF64FloatAttr(product.scale),
      b.getBoolAttr(plan.causal), b.getBoolAttr(false),
      b.getI64IntegerAttr(plan.window));
  if (!plan.uniformRows)
    return y;
  // Rows that see no key: none of keys [0, i + Sk - Sq] (causal) or none at
  // all is visible. Counted with a cumulative sum of the visible keys.
  int64_t rank = yType.getRank();
  int64_t batch = yType.getDimSize(0), sq = yType.getDimSize(rank - 2);
  auto visibleType = cast<RankedTensorType>(visible.getType());
  int64_t sk = visibleType.getDimSize(1);
  auto f32 = b.getF32Type();
  Value counts = CastOp::create(b, loc, visibleType.clone(f32), visible);
  Value seen;
  if (plan.causal) {
    counts = CumSumOp::create(b, loc, counts.getType(), counts,
                              b.getI64IntegerAttr(1), b.getBoolAttr(false),
                              b.getBoolAttr(false));
    int64_t offset = sk - sq;
    SmallVector<int64_t> starts = {0, offset}, limits = {batch, sk},
                         steps = {1, 1};
    seen = SliceOp::create(b, loc, counts, starts, limits, steps);
    seen = ReshapeOp::create(
        b, loc, RankedTensorType::get({batch, 1, sq, 1}, f32), seen);
  } else {
    seen = ReduceMaxOp::create(b, loc, counts, ArrayRef<int64_t>{1},
                               /*keepdims=*/true);
    seen = ReshapeOp::create(
        b, loc, RankedTensorType::get({batch, 1, 1, 1}, f32), seen);
  }
  auto scalar = RankedTensorType::get({}, f32);
  Value zero =
      ConstantOp::create(b, loc, DenseElementsAttr::get(scalar, 0.0f));
  Value none = EqualOp::create(b, loc, seen, zero);
  Value mean = ReduceMeanOp::create(b, loc, v, ArrayRef<int64_t>{rank - 2},
                                    /*keepdims=*/true);
  return WhereOp::create(b, loc, none, mean, y);
}

/// Tries to replace `pv`; on success its uses go to the fused value (the
/// old chain is left for dead-code removal).
bool fuseOne(MatMulOp pv, MaskAnalysis &masks) {
  Value p = pv.getLhs(), v = pv.getRhs();
  bool guarded = false;
  // where(is_nan(p), 0, p): the guard torch's sdpa decomposition adds.
  if (auto guard = p.getDefiningOp<WhereOp>())
    if (auto isNan = guard.getCond().getDefiningOp<IsNaNOp>())
      if (isNan.getX() == guard.getB() && isSplat(guard.getA(), 0.0) &&
          guard.getType() == guard.getB().getType()) {
        p = guard.getB();
        guarded = true;
      }
  // Dropout of the probabilities with ratio 0 (eager attention, train()).
  if (auto drop = p.getDefiningOp<DropoutOp>();
      drop && drop.getRatio().isZero())
    p = drop.getX();
  auto softmax = p.getDefiningOp<SoftmaxOp>();
  auto pType = cast<RankedTensorType>(p.getType());
  if (!softmax || int64_t(softmax.getAxis()) != pType.getRank() - 1 ||
      pType.getRank() < 3 || pv.getLhs().getType() != pType)
    return false;
  Type elem = pType.getElementType();
  Value x = softmax.getX();
  MaskedScores ms;
  std::optional<ScoreProduct> product;
  if (auto add = x.getDefiningOp<AddOp>()) {
    for (int i = 0; i < 2 && !product; ++i) {
      if (add->getOperand(i).getType() != add.getType())
        continue; // the scores are the full-shape operand
      product = matchScores(add->getOperand(i));
      ms.additive = add->getOperand(1 - i);
    }
  } else if (auto where = x.getDefiningOp<WhereOp>()) {
    std::optional<double> fill = splatValue(where.getB());
    if (!fill || !(*fill <= kHidingFill) ||
        where.getA().getType() != where.getType())
      return false;
    product = matchScores(where.getA());
    ms.condition = where.getCond();
    ms.fill = *fill;
    ms.selected = true;
  } else {
    product = matchScores(x);
  }
  if (!product)
    return false;
  auto qType = cast<RankedTensorType>(product->q.getType());
  auto kType = cast<RankedTensorType>(product->k.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  int64_t r = pType.getRank();
  if (qType.getRank() != r || kType.getRank() != r || vType.getRank() != r ||
      qType.getShape().drop_back(2) != kType.getShape().drop_back(2) ||
      qType.getShape().drop_back(2) != vType.getShape().drop_back(2) ||
      qType.getElementType() != elem || vType.getElementType() != elem)
    return false;
  if (ms.additive) {
    if (cast<RankedTensorType>(ms.additive.getType()).getElementType() != elem)
      return false;
    analyseAdditive(ms);
  }

  AttentionPlan plan;
  bool planned = false;
  ArrayRef<int64_t> scores = pType.getShape();
  if (ms.constantCondition) {
    MaskCondition m =
        masks.classify(*ms.constantCondition, scores, pv.getContext());
    planned = planFromCondition(m, ms, guarded, elem, plan);
  } else if (ms.condition) {
    if (std::optional<MaskCondition> m = masks.analyze(ms.condition, scores))
      planned = planFromCondition(*m, ms, guarded, elem, plan);
  } else if (!ms.additive) {
    planned = true; // no mask
  }
  if (!planned) {
    plan = AttentionPlan();
    if (ms.additive) {
      // Any other added mask is the op's own additive operand.
      plan.additive = ms.additive;
    } else if (ms.selected && std::isinf(ms.fill) && guarded) {
      // where(c, s, -inf) is s + where(c, 0, -inf), NaN rows included.
      OpBuilder b(pv);
      Value zero = createScalarConstant(b, pv.getLoc(), elem, 0.0);
      Value hidden = createScalarConstant(b, pv.getLoc(), elem, ms.fill);
      plan.additive = WhereOp::create(b, pv.getLoc(), ms.condition, zero,
                                      hidden);
    } else {
      return false;
    }
  }
  OpBuilder b(pv);
  Value fused = buildAttention(b, pv, *product, v, plan);
  pv.getResult().replaceAllUsesWith(fused);
  return true;
}

} // namespace

int64_t mlir::paracc::graph::fuseAttentions(func::FuncOp func) {
  SmallVector<MatMulOp> products;
  func.walk([&](MatMulOp op) { products.push_back(op); });
  MaskAnalysis masks;
  int64_t fused = 0;
  for (MatMulOp pv : products)
    fused += fuseOne(pv, masks);
  if (fused) {
    // The replaced chains (and masks only they used) are dead now.
    for (Block &block : func.getBody())
      for (Operation &op :
           llvm::make_early_inc_range(llvm::reverse(block.getOperations())))
        if (isOpTriviallyDead(&op))
          op.erase();
  }
  return fused;
}
