//===- AttentionRules.cpp - ONNX Attention (opset 23, 24) ------*- C++ -*-===//
//
// ONNX's fused Attention, as the newest exporters write it, straight to
// graph.attention: 4-D [B, H, S, D] operands, or 3-D [B, S, H D] with
// q_num_heads / kv_num_heads; grouped-query K/V (fewer heads) repeated to
// the query heads as the decomposed exports do; the boolean (true: the key
// takes part) or additive attn_mask as the op's additive mask; is_causal as
// `causal` when queries and keys are equally many (the spec aligns the
// causal frontier at the start without a cache, graph.attention at the
// end, which only agree then; otherwise the frontier becomes part of the
// additive mask). A row that sees no key yields zeros, in the spec and in
// graph.attention. Caches (past_key/past_value, nonpad_kv_seqlen), softcap
// and the qk_matmul_output debug output are refused as unsupported. And
// RotaryEmbedding (opset 23) as graph.rotary.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

/// [B, S, H D] to [B, H, S, D].
static FailureOr<Value> splitHeads(NodeContext &c, Value x, int64_t heads,
                                   StringRef what) {
  auto t = tensorType(x);
  int64_t b = t.getDimSize(0), s = t.getDimSize(1), hd = t.getDimSize(2);
  if (heads <= 0 || hd % heads != 0)
    return c.error(Twine("requires ") + what + "'s last dim (" + Twine(hd) +
                   ") to divide into " + Twine(heads) + " heads");
  ASSIGN_OR_FAIL(Value r, c.reshapeTo(x, {b, s, heads, hd / heads}));
  Builder builder(c.getContext());
  return c.build<g::TransposeOp>(
      r, builder.getDenseI64ArrayAttr(ArrayRef<int64_t>{0, 2, 1, 3}));
}

/// K or V of `kvHeads` heads repeated for `heads` query heads (each kv head
/// serves heads / kvHeads consecutive query heads).
static FailureOr<Value> repeatHeads(NodeContext &c, Value x, int64_t heads) {
  auto t = tensorType(x);
  int64_t b = t.getDimSize(0), kv = t.getDimSize(1), s = t.getDimSize(2),
          d = t.getDimSize(3);
  if (kv == heads)
    return x;
  if (kv <= 0 || heads % kv != 0)
    return c.error("requires the query heads (" + Twine(heads) +
                   ") to be a multiple of the key/value heads (" + Twine(kv) +
                   ")");
  ASSIGN_OR_FAIL(Value r, c.reshapeTo(x, {b, kv, 1, s, d}));
  ASSIGN_OR_FAIL(Value e, c.expandTo(r, {b, kv, heads / kv, s, d}));
  return c.reshapeTo(e, {b, heads, s, d});
}

static LogicalResult importAttention(NodeContext &c) {
  for (unsigned i = 4; i < c.numInputs(); ++i)
    if (c.hasInput(i))
      return c.unsupported(i == 6 ? "input 'nonpad_kv_seqlen' (a KV cache)"
                                  : "inputs 'past_key'/'past_value' (a KV "
                                    "cache)");
  for (unsigned o = 1; o < c.numOutputs(); ++o)
    if (c.hasOutput(o))
      return c.unsupported(o == 3 ? "output 'qk_matmul_output'"
                                  : "outputs 'present_key'/'present_value'");
  if (c.floatAttr("softcap", 0.0) != 0.0)
    return c.unsupported("attribute softcap (non-zero)");
  ASSIGN_OR_FAIL(Value q, c.input(0));
  ASSIGN_OR_FAIL(Value k, c.input(1));
  ASSIGN_OR_FAIL(Value v, c.input(2));
  int64_t rank = tensorType(q).getRank();
  if (rank != 3 && rank != 4)
    return c.error("requires 3-D or 4-D Q, got rank " + Twine(rank));
  if (tensorType(k).getRank() != rank || tensorType(v).getRank() != rank)
    return c.error("requires Q, K and V of one rank");
  if (!isa<FloatType>(elementType(q)))
    return c.unsupported("input Q of a non-float type");
  int64_t batch = tensorType(q).getDimSize(0);
  if (rank == 3) {
    int64_t qHeads = c.intAttr("q_num_heads", 0),
            kvHeads = c.intAttr("kv_num_heads", 0);
    if (qHeads <= 0 || kvHeads <= 0)
      return c.error("requires q_num_heads and kv_num_heads with 3-D inputs");
    ASSIGN_OR_FAIL(q, splitHeads(c, q, qHeads, "Q"));
    ASSIGN_OR_FAIL(k, splitHeads(c, k, kvHeads, "K"));
    ASSIGN_OR_FAIL(v, splitHeads(c, v, kvHeads, "V"));
  }
  int64_t heads = tensorType(q).getDimSize(1);
  int64_t sq = tensorType(q).getDimSize(2), d = tensorType(q).getDimSize(3);
  int64_t sk = tensorType(k).getDimSize(2);
  ASSIGN_OR_FAIL(k, repeatHeads(c, k, heads));
  ASSIGN_OR_FAIL(v, repeatHeads(c, v, heads));
  Type elem = elementType(q);
  double scale = c.floatAttr("scale", 1.0 / std::sqrt(double(d)));
  bool causal = c.intAttr("is_causal", 0) != 0;

  Value mask;
  if (c.hasInput(3)) {
    ASSIGN_OR_FAIL(mask, c.input(3));
    if (elementType(mask).isInteger(1)) {
      ASSIGN_OR_FAIL(
          mask, c.build<g::WhereOp>(
                    mask, c.scalar(elem, 0.0),
                    c.scalar(elem, -std::numeric_limits<double>::infinity())));
    } else if (elementType(mask) != elem) {
      return c.error("requires a boolean attn_mask or one of Q's type");
    }
  }
  if (causal && sq != sk) {
    // The spec's frontier without a cache: query i sees keys j <= i.
    auto type = RankedTensorType::get({sq, sk}, elem);
    const auto &sem = cast<FloatType>(elem).getFloatSemantics();
    SmallVector<APFloat> values;
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t j = 0; j < sk; ++j)
        values.push_back(j <= i ? APFloat::getZero(sem)
                                : APFloat::getInf(sem, /*Negative=*/true));
    Value band = c.constant(DenseElementsAttr::get(type, values));
    if (mask) {
      ASSIGN_OR_FAIL(mask, binary<g::AddOp>(c, mask, band));
    } else {
      mask = band;
    }
    causal = false;
  }
  Builder b(c.getContext());
  auto yType = RankedTensorType::get(
      {batch, heads, sq, tensorType(v).getDimSize(3)}, elem);
  auto op = c.buildTyped<g::AttentionOp>(
      yType, q, k, v, mask, /*query_start=*/Value(), b.getF64FloatAttr(scale),
      b.getBoolAttr(causal), b.getBoolAttr(false), b.getI64IntegerAttr(0));
  if (failed(op))
    return failure();
  Value y = (*op)->getResult(0);
  if (rank == 3) {
    ASSIGN_OR_FAIL(y, c.build<g::TransposeOp>(
                          y, b.getDenseI64ArrayAttr(
                                 ArrayRef<int64_t>{0, 2, 1, 3})));
    ASSIGN_OR_FAIL(
        y, c.reshapeTo(y, {batch, sq, heads * tensorType(y).getDimSize(3)}));
  }
  c.setOutput(0, y);
  return success();
}

/// RotaryEmbedding (opset 23) as graph.rotary: the caches' rows (by
/// position_ids, or given per token) doubled to the rotated width
/// (rotate-half form), broadcast over the heads; with rotary_embedding_dim
/// below the head size the rest of each head passes through. X is [B, H,
/// S, D], or [B, S, H D] with num_heads. The interleaved form is refused as
/// unsupported.
static LogicalResult importRotaryEmbedding(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value cosCache, c.input(1));
  ASSIGN_OR_FAIL(Value sinCache, c.input(2));
  auto xt = tensorType(x);
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("a non-float input");
  if (c.intAttr("interleaved", 0) != 0)
    return c.unsupported("interleaved = 1");
  Value operand = x;
  const bool packed = xt.getRank() == 3;
  if (packed) {
    // [B, S, H D] -> [B, S, H, D]: the rotation is per head.
    const int64_t heads = c.intAttr("num_heads", 0);
    if (heads <= 0 || xt.getDimSize(2) % heads != 0)
      return c.error("a 3-D input needs num_heads dividing its " +
                     Twine(xt.getDimSize(2)) + " features");
    ASSIGN_OR_FAIL(operand, c.reshapeTo(x, {xt.getDimSize(0), xt.getDimSize(1),
                                            heads, xt.getDimSize(2) / heads}));
  } else if (xt.getRank() != 4) {
    return c.error("requires X [B, H, S, D] or [B, S, H D], got rank " +
                   Twine(xt.getRank()));
  }
  auto ot = tensorType(operand);
  const int64_t batch = ot.getDimSize(0), head = ot.getDimSize(3);
  const int64_t seq = ot.getDimSize(packed ? 1 : 2);
  const int64_t width = c.intAttr("rotary_embedding_dim", 0) > 0
                            ? c.intAttr("rotary_embedding_dim", 0)
                            : head;
  if (width % 2 != 0 || width > head)
    return c.error("the rotated width " + Twine(width) +
                   " must be even and at most the head size " + Twine(head));
  // The caches' rows for each token: [B, S, width / 2].
  SmallVector<Value, 2> tables;
  for (Value cache : {cosCache, sinCache}) {
    Value rows = cache;
    if (c.hasInput(3)) {
      ASSIGN_OR_FAIL(Value positions, c.input(3));
      ASSIGN_OR_FAIL(rows, c.build<g::GatherOp>(cache, positions, 0));
    }
    auto rt = tensorType(rows);
    if (rt.getRank() != 3 || rt.getDimSize(0) != batch ||
        rt.getDimSize(1) != seq || rt.getDimSize(2) != width / 2)
      return c.error("the cos/sin rows must be [" + Twine(batch) + ", " +
                     Twine(seq) + ", " + Twine(width / 2) + "]");
    ASSIGN_OR_FAIL(rows, c.castTo(rows, ot.getElementType()));
    ASSIGN_OR_FAIL(Value doubled,
                   c.build<g::ConcatOp>(ValueRange{rows, rows}, int64_t(2)));
    // Broadcast over the heads: [B, 1, S, W] or (packed) [B, S, 1, W].
    SmallVector<int64_t> shape =
        packed ? SmallVector<int64_t>{batch, seq, 1, width}
               : SmallVector<int64_t>{batch, 1, seq, width};
    ASSIGN_OR_FAIL(doubled, c.reshapeTo(doubled, shape));
    tables.push_back(doubled);
  }
  Value rotated = operand, rest;
  if (width < head) {
    SmallVector<int64_t> starts(4, 0), limits(ot.getShape()), steps(4, 1);
    limits[3] = width;
    ASSIGN_OR_FAIL(rotated,
                   c.build<g::SliceOp>(operand, starts, limits, steps));
    starts[3] = width;
    limits[3] = head;
    ASSIGN_OR_FAIL(rest, c.build<g::SliceOp>(operand, starts, limits, steps));
  }
  auto op = c.buildTyped<g::RotaryOp>(rotated.getType(), rotated, tables[0],
                                      tables[1], c.b.getBoolAttr(false));
  if (failed(op))
    return failure();
  Value y = (*op)->getResult(0);
  if (rest) {
    ASSIGN_OR_FAIL(y, c.build<g::ConcatOp>(ValueRange{y, rest}, int64_t(3)));
  }
  if (packed) {
    ASSIGN_OR_FAIL(y, c.reshapeTo(y, xt.getShape()));
  }
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerAttentionRules(RuleTable &t) {
  t.add("Attention", 23, importAttention);
  t.add("RotaryEmbedding", 23, importRotaryEmbedding);
}
