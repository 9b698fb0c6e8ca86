//===- GraphOps.cpp - Graph dialect operations ------------------*- C++ -*-===//
//
// Type inference, verifiers and folders of the graph dialect's operations.
// Each check carries the name of its constraint in a comment; the negative
// lit test for it is test/Dialect/Graph/invalid.mlir (for graph.attention and
// graph.linear, attention-linear-invalid.mlir).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::paracc::graph;

#include "paracc/Dialect/Graph/IR/GraphDialect.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "paracc/Dialect/Graph/IR/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// Shared shape helpers
//===----------------------------------------------------------------------===//

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::interleave(
      shape, [&](int64_t d) { s += std::to_string(d); }, [&] { s += ","; });
  return s + "]";
}

FailureOr<SmallVector<int64_t>>
mlir::paracc::graph::broadcastShapes(std::optional<Location> loc,
                                     ArrayRef<int64_t> lhs,
                                     ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    // broadcast_compatible: equal dims or one of them is 1.
    if (a != b && a != 1 && b != 1) {
      (void)emitOptionalError(loc, "operands are not broadcast-compatible: ",
                              shapeString(lhs), " vs ", shapeString(rhs));
      return failure();
    }
    result[i] = a == 1 ? b : a;
  }
  return result;
}

LogicalResult mlir::paracc::graph::inferBroadcastBinary(
    MLIRContext *context, std::optional<Location> loc, Type lhs, Type rhs,
    Type resultElementType, SmallVectorImpl<Type> &types) {
  auto lhsType = cast<RankedTensorType>(lhs);
  auto rhsType = cast<RankedTensorType>(rhs);
  // same_element_type: ONNX requires both operands to share a type.
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOptionalError(loc, "requires operands of the same element "
                                  "type, got ",
                             lhsType.getElementType(), " and ",
                             rhsType.getElementType());
  auto shape = broadcastShapes(loc, lhsType.getShape(), rhsType.getShape());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(
      *shape, resultElementType ? resultElementType
                                : lhsType.getElementType()));
  return success();
}

LogicalResult mlir::paracc::graph::inferBoolLike(MLIRContext *context,
                                                 Type like,
                                                 SmallVectorImpl<Type> &types) {
  types.push_back(RankedTensorType::get(cast<RankedTensorType>(like).getShape(),
                                        IntegerType::get(context, 1)));
  return success();
}

FailureOr<int64_t> mlir::paracc::graph::normalizeAxis(int64_t axis,
                                                      int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return failure();
  return axis < 0 ? axis + rank : axis;
}

/// Checks 0 <= axis < rank for ops that keep their axis normalized.
static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  // axis_in_range
  if (axis < 0 || axis >= rank)
    return op->emitOpError("requires axis in [0, ")
           << rank << "), got " << axis;
  return success();
}

LogicalResult mlir::paracc::graph::inferReduce(std::optional<Location> loc,
                                               Type x, ArrayRef<int64_t> axes,
                                               bool keepdims, Type elementType,
                                               SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(x);
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    // reduce_axes_sorted_unique_in_range
    if (axis < 0 || axis >= rank || (i > 0 && axes[i - 1] >= axis))
      return emitOptionalError(loc, "requires sorted, unique axes in [0, ",
                               rank, "), got ", shapeString(axes));
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(type.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(
      shape, elementType ? elementType : type.getElementType()));
  return success();
}

LogicalResult mlir::paracc::graph::inferArgReduce(
    MLIRContext *context, std::optional<Location> loc, Type x, int64_t axis,
    bool keepdims, SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(x);
  // axis_in_range
  if (axis < 0 || axis >= type.getRank())
    return emitOptionalError(loc, "requires axis in [0, ", type.getRank(),
                             "), got ", axis);
  // arg_reduce_nonempty_axis: an empty dim has no extremum.
  if (type.getDimSize(axis) == 0)
    return emitOptionalError(loc, "requires a non-empty dim at axis ", axis);
  int64_t axes[] = {axis};
  return inferReduce(loc, x, axes, keepdims, IntegerType::get(context, 64),
                     types);
}

LogicalResult mlir::paracc::graph::inferTopK(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Type x, int64_t axis, int64_t k,
                                             SmallVectorImpl<Type> &types) {
  auto type = cast<RankedTensorType>(x);
  // topk_axis_in_range
  if (axis < 0 || axis >= type.getRank())
    return emitOptionalError(loc, "requires axis in [0, ", type.getRank(),
                             "), got ", axis);
  // topk_k_in_range
  if (k < 0 || k > type.getDimSize(axis))
    return emitOptionalError(loc, "requires k in [0, ", type.getDimSize(axis),
                             "] (the size of dim ", axis, "), got ", k);
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = k;
  types.push_back(type.clone(shape));
  types.push_back(type.clone(shape, IntegerType::get(context, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult WeightOp::verify() {
  // weight_name_nonempty
  if (getName().empty())
    return emitOpError("requires a non-empty name");
  // weight_block_attrs
  if (bool(getOffsets()) != bool(getSourceShape()))
    return emitOpError("requires offsets and source_shape together");
  if (!getOffsets())
    return success();
  ArrayRef<int64_t> offsets = *getOffsets(), source = *getSourceShape();
  auto shape = getType().getShape();
  // weight_block_in_bounds
  if (offsets.size() != shape.size() || source.size() != shape.size())
    return emitOpError("requires offsets and source_shape of rank ")
           << shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    if (offsets[d] < 0 || offsets[d] + shape[d] > source[d])
      return emitOpError("requires the block to lie inside the parameter: "
                         "dim ")
             << d << " at offset " << offsets[d] << " of size " << shape[d]
             << " exceeds " << source[d];
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult GeluOp::verify() {
  // gelu_approximate_kind
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("requires approximate to be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto cond = cast<RankedTensorType>(adaptor.getCond().getType());
  auto a = cast<RankedTensorType>(adaptor.getA().getType());
  auto b = cast<RankedTensorType>(adaptor.getB().getType());
  // same_element_type
  if (a.getElementType() != b.getElementType())
    return emitOptionalError(loc, "requires branches of the same element "
                                  "type, got ",
                             a.getElementType(), " and ", b.getElementType());
  auto ab = broadcastShapes(loc, a.getShape(), b.getShape());
  if (failed(ab))
    return failure();
  auto shape = broadcastShapes(loc, cond.getShape(), *ab);
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, a.getElementType()));
  return success();
}

LogicalResult CastOp::verify() {
  // cast_same_shape
  if (getX().getType().getShape() != getResult().getType().getShape())
    return emitOpError("requires the result to have the operand's shape");
  return success();
}

LogicalResult ClipOp::verify() {
  // clip_bounds_not_nan
  if (getMin().isNaN() || getMax().isNaN())
    return emitOpError("requires bounds that are not NaN");
  // clip_min_le_max
  if (getMin().convertToDouble() > getMax().convertToDouble())
    return emitOpError("requires min <= max, got ")
           << getMin().convertToDouble() << " > " << getMax().convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lhs = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<RankedTensorType>(adaptor.getRhs().getType());
  // same_element_type
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "requires operands of the same element "
                                  "type, got ",
                             lhs.getElementType(), " and ",
                             rhs.getElementType());
  // matmul_rank_ge_1
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return emitOptionalError(loc, "requires operands of rank >= 1");
  SmallVector<int64_t> a(lhs.getShape()), b(rhs.getShape());
  bool lhsVector = a.size() == 1, rhsVector = b.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    b.push_back(1);
  // matmul_contracting_dims_match
  if (a.back() != b[b.size() - 2])
    return emitOptionalError(loc, "requires matching contracting dims, got ",
                             shapeString(lhs.getShape()), " and ",
                             shapeString(rhs.getShape()));
  auto batch = broadcastShapes(loc, ArrayRef(a).drop_back(2),
                               ArrayRef(b).drop_back(2));
  if (failed(batch))
    return failure();
  SmallVector<int64_t> shape(*batch);
  if (!lhsVector)
    shape.push_back(a[a.size() - 2]);
  if (!rhsVector)
    shape.push_back(b.back());
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto a = cast<RankedTensorType>(adaptor.getA().getType());
  auto b = cast<RankedTensorType>(adaptor.getB().getType());
  // gemm_rank_2
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOptionalError(loc, "requires 2-D a and b");
  // same_element_type
  if (a.getElementType() != b.getElementType())
    return emitOptionalError(loc, "requires a and b of the same element type");
  int64_t m = adaptor.getTransA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t ka = adaptor.getTransA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kb = adaptor.getTransB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = adaptor.getTransB() ? b.getDimSize(0) : b.getDimSize(1);
  // gemm_contracting_dims_match
  if (ka != kb)
    return emitOptionalError(loc, "requires matching contracting dims, got ",
                             ka, " and ", kb);
  SmallVector<int64_t> shape = {m, n};
  if (Value c = adaptor.getC()) {
    auto cType = cast<RankedTensorType>(c.getType());
    // same_element_type
    if (cType.getElementType() != a.getElementType())
      return emitOptionalError(loc, "requires c of the same element type");
    // gemm_c_broadcasts
    auto bc = broadcastShapes(std::nullopt, cType.getShape(), shape);
    if (failed(bc) || *bc != shape)
      return emitOptionalError(loc, "requires c to broadcast to ",
                               shapeString(shape));
  }
  types.push_back(RankedTensorType::get(shape, a.getElementType()));
  return success();
}

LogicalResult LinearOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto x = cast<RankedTensorType>(adaptor.getX().getType());
  auto w = cast<RankedTensorType>(adaptor.getW().getType());
  // linear_weight_matrix
  if (w.getRank() != 2 || x.getRank() < 1 ||
      x.getShape().back() != w.getDimSize(0))
    return emitOptionalError(loc, "requires x [..., K] and w [K, N], got ",
                             shapeString(x.getShape()), " and ",
                             shapeString(w.getShape()));
  // same_element_type
  if (x.getElementType() != w.getElementType())
    return emitOptionalError(loc, "requires x and w of one element type");
  if (Value bias = adaptor.getBias()) {
    auto b = cast<RankedTensorType>(bias.getType());
    // linear_bias_shape
    if (b.getRank() != 1 || b.getDimSize(0) != w.getDimSize(1) ||
        b.getElementType() != x.getElementType())
      return emitOptionalError(loc, "requires a bias of shape [",
                               w.getDimSize(1), "]");
  }
  SmallVector<int64_t> shape(x.getShape());
  shape.back() = w.getDimSize(1);
  Type element = adaptor.getF32Result() ? Float32Type::get(context)
                                        : x.getElementType();
  auto result = RankedTensorType::get(shape, element);
  // linear_residual_type
  if (Value residual = adaptor.getResidual())
    if (residual.getType() != result)
      return emitOptionalError(loc, "requires a residual of the result type ",
                               result, ", got ", residual.getType());
  types.push_back(result);
  return success();
}

LogicalResult LinearOp::verify() {
  StringRef a = getActivation();
  // linear_activation_kind
  if (a != "none" && a != "gelu_tanh" && a != "gelu" && a != "relu")
    return emitOpError("requires activation \"none\", \"gelu_tanh\", "
                       "\"gelu\" or \"relu\", got \"")
           << a << "\"";
  // linear_residual_without_activation
  if (getResidual() && a != "none")
    return emitOpError("requires activation \"none\" with a residual, got \"")
           << a << "\"";
  if (getF32Result()) {
    // linear_f32_result_operands
    Type element = getX().getType().getElementType();
    if (!element.isBF16() && !element.isF16())
      return emitOpError("requires bf16 or f16 operands with f32_result, got ")
             << element;
    // linear_f32_result_alone
    if (getBias() || getResidual() || a != "none")
      return emitOpError(
          "requires no bias, residual or activation with f32_result");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Checks that `param` broadcasts to dims [axis, rank) of `x`.
static LogicalResult verifyNormParam(Operation *op, RankedTensorType x,
                                     int64_t axis, Value param,
                                     StringRef what) {
  auto type = cast<RankedTensorType>(param.getType());
  ArrayRef<int64_t> normalized = x.getShape().drop_front(axis);
  // norm_param_broadcasts
  auto shape = broadcastShapes(std::nullopt, type.getShape(), normalized);
  if (failed(shape) || ArrayRef(*shape) != normalized)
    return op->emitOpError("requires ")
           << what << " of shape " << shapeString(type.getShape())
           << " to broadcast to the normalized shape "
           << shapeString(normalized);
  // same_element_type
  if (type.getElementType() != x.getElementType())
    return op->emitOpError("requires ")
           << what << " of element type " << x.getElementType();
  return success();
}

LogicalResult LayerNormOp::verify() {
  auto x = getX().getType();
  if (failed(verifyAxis(*this, getAxis(), x.getRank())) ||
      failed(verifyNormParam(*this, x, getAxis(), getScale(), "scale")))
    return failure();
  if (getBias() &&
      failed(verifyNormParam(*this, x, getAxis(), getBias(), "bias")))
    return failure();
  // epsilon_non_negative
  double epsilon = getEpsilon().convertToDouble();
  if (!std::isfinite(epsilon) || epsilon < 0)
    return emitOpError("requires a finite, non-negative epsilon, got ")
           << epsilon;
  return success();
}

LogicalResult RmsNormOp::verify() {
  auto x = getX().getType();
  if (failed(verifyAxis(*this, getAxis(), x.getRank())) ||
      failed(verifyNormParam(*this, x, getAxis(), getScale(), "scale")))
    return failure();
  // epsilon_non_negative
  double epsilon = getEpsilon().convertToDouble();
  if (!std::isfinite(epsilon) || epsilon < 0)
    return emitOpError("requires a finite, non-negative epsilon, got ")
           << epsilon;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult RotaryOp::verify() {
  auto x = getX().getType();
  // rotary_even_last_dim
  if (x.getRank() < 1 || x.getShape().back() % 2 != 0)
    return emitOpError("requires x with an even last dim, got ")
           << shapeString(x.getShape());
  for (Value t : {getCos(), getSin()}) {
    auto type = cast<RankedTensorType>(t.getType());
    // rotary_tables_broadcast
    auto b = broadcastShapes(std::nullopt, type.getShape(), x.getShape());
    if (failed(b) || ArrayRef(*b) != x.getShape() ||
        type.getElementType() != x.getElementType())
      return emitOpError("requires cos and sin of x's element type that "
                         "broadcast to ")
             << shapeString(x.getShape()) << ", got " << type;
  }
  return success();
}

/// The result type of graph.attention (and attention_with_stats) from its
/// operands and attributes, or a diagnostic at `loc`.
template <typename AdaptorT>
static LogicalResult inferAttentionResult(std::optional<Location> loc,
                                          AdaptorT adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto q = cast<RankedTensorType>(adaptor.getQ().getType());
  auto k = cast<RankedTensorType>(adaptor.getK().getType());
  auto v = cast<RankedTensorType>(adaptor.getV().getType());
  bool seqFirst = adaptor.getSequenceFirst();
  // attention_operand_ranks
  if (q.getRank() < (seqFirst ? 3 : 2) || k.getRank() != q.getRank() ||
      v.getRank() != q.getRank())
    return emitOptionalError(loc, "requires q, k and v of the same rank >= ",
                             seqFirst ? "3 (sequence_first)" : "2");
  // same_element_type
  if (k.getElementType() != q.getElementType() ||
      v.getElementType() != q.getElementType())
    return emitOptionalError(loc, "requires q, k and v of one element type");
  // attention_window: a sliding window is a band below a causal diagonal.
  // (I64Attr reads as unsigned.)
  int64_t window = static_cast<int64_t>(adaptor.getWindow());
  if (window < 0 || (window > 0 && !adaptor.getCausal()))
    return emitOptionalError(loc, "requires window >= 0, and causal with a "
                                  "window > 0, got window ",
                             window,
                             adaptor.getCausal() ? "" : " without causal");
  // The checks below read the [..., S, D] view: a sequence-first operand
  // [..., S, H, D] with S and H swapped.
  auto view = [&](RankedTensorType t) {
    SmallVector<int64_t> s(t.getShape());
    if (seqFirst)
      std::swap(s[s.size() - 3], s[s.size() - 2]);
    return s;
  };
  SmallVector<int64_t> qs = view(q), ks = view(k), vs = view(v);
  int64_t r = q.getRank();
  // attention_batch_dims_match: equal, but for the head dim (the last
  // leading dim), where k and v may have a divisor of q's (grouped-query
  // attention).
  const int64_t heads = r - 3;
  for (int64_t i = 0; i + 2 < r; ++i) {
    if (i == heads && ks[i] == vs[i] && ks[i] > 0 && qs[i] % ks[i] == 0)
      continue;
    if (qs[i] != ks[i] || qs[i] != vs[i])
      return emitOptionalError(
          loc,
          "requires equal leading dims (k and v may have a divisor of q's "
          "heads), got ",
          shapeString(q.getShape()), ", ", shapeString(k.getShape()), " and ",
          shapeString(v.getShape()));
  }
  // attention_head_dims
  if (qs[r - 1] != ks[r - 1] || ks[r - 2] != vs[r - 2])
    return emitOptionalError(loc, "requires q and k to share the head dim and "
                                  "k and v the key count");
  SmallVector<int64_t> shape(q.getShape());
  shape.back() = v.getShape().back();
  if (Value mask = adaptor.getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> scores(qs.begin(), qs.end() - 1);
    scores.push_back(ks[r - 2]);
    // attention_mask_broadcasts
    auto b = broadcastShapes(std::nullopt, m.getShape(), scores);
    if (failed(b) || ArrayRef(*b) != ArrayRef(scores) ||
        m.getElementType() != q.getElementType())
      return emitOptionalError(loc, "requires the mask to broadcast to ",
                               shapeString(scores));
  }
  types.push_back(RankedTensorType::get(shape, q.getElementType()));
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferAttentionResult(loc, adaptor, types);
}

SmallVector<int64_t>
mlir::paracc::graph::attentionStatsShape(ArrayRef<int64_t> q,
                                         bool sequenceFirst) {
  SmallVector<int64_t> shape(q.drop_back());
  if (sequenceFirst && shape.size() >= 2)
    std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);
  return shape;
}

int64_t mlir::paracc::graph::attentionHeadDim(int64_t rank,
                                              bool sequenceFirst) {
  return sequenceFirst ? rank - 2 : rank - 3;
}

int64_t mlir::paracc::graph::attentionKeyValueGroup(ArrayRef<int64_t> q,
                                                    ArrayRef<int64_t> k,
                                                    bool sequenceFirst) {
  const int64_t h = attentionHeadDim(q.size(), sequenceFirst);
  if (h < 0 || int64_t(k.size()) != int64_t(q.size()) || k[h] <= 0 ||
      q[h] % k[h] != 0)
    return 1;
  return q[h] / k[h];
}

LogicalResult AttentionWithStatsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  if (failed(inferAttentionResult(loc, adaptor, types)))
    return failure();
  auto q = cast<RankedTensorType>(adaptor.getQ().getType());
  types.push_back(RankedTensorType::get(
      attentionStatsShape(q.getShape(), adaptor.getSequenceFirst()),
      Float32Type::get(context)));
  return success();
}

LogicalResult AttentionMergeOp::verify() {
  auto out = cast<RankedTensorType>(getOut().getType());
  auto stats = cast<RankedTensorType>(getStats().getType());
  // attention_merge_rank
  const int64_t minRank = getSequenceFirst() ? 3 : 2;
  if (out.getRank() < minRank)
    return emitOpError("expects a result of rank >= ")
           << minRank << ", got " << out;
  // attention_merge_stats_shape
  auto expected = RankedTensorType::get(
      attentionStatsShape(out.getShape(), getSequenceFirst()),
      stats.getElementType());
  if (stats != expected)
    return emitOpError("expects statistics of type ")
           << expected << " for a result of type " << out << ", got " << stats;
  return success();
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto data = cast<RankedTensorType>(adaptor.getData().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  int64_t axis = adaptor.getAxis();
  // axis_in_range
  if (axis < 0 || axis >= data.getRank())
    return emitOptionalError(loc, "requires axis in [0, ", data.getRank(),
                             "), got ", axis);
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  auto data = cast<RankedTensorType>(adaptor.getData().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  int64_t axis = adaptor.getAxis();
  // axis_in_range
  if (axis < 0 || axis >= data.getRank())
    return emitOptionalError(loc, "requires axis in [0, ", data.getRank(),
                             "), got ", axis);
  // gather_elements_same_rank
  if (indices.getRank() != data.getRank())
    return emitOptionalError(loc, "requires indices of the data's rank");
  // gather_elements_indices_fit: outside the axis, indices address data.
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != axis && indices.getDimSize(d) > data.getDimSize(d))
      return emitOptionalError(loc, "requires indices dims no larger than the "
                                    "data's outside the axis, got ",
                               shapeString(indices.getShape()), " and ",
                               shapeString(data.getShape()));
  types.push_back(
      RankedTensorType::get(indices.getShape(), data.getElementType()));
  return success();
}

LogicalResult GatherNDOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto data = cast<RankedTensorType>(adaptor.getData().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  int64_t b = adaptor.getBatchDims();
  int64_t r = data.getRank(), q = indices.getRank();
  // gather_nd_batch_dims
  if (b < 0 || b >= std::min(r, q))
    return emitOptionalError(loc, "requires batch_dims in [0, min(rank)), got ",
                             b);
  // gather_nd_batch_dims_match
  if (data.getShape().take_front(b) != indices.getShape().take_front(b))
    return emitOptionalError(loc, "requires equal leading batch dims");
  int64_t k = indices.getShape().back();
  // gather_nd_index_depth
  if (k < 1 || k > r - b)
    return emitOptionalError(loc, "requires the index depth in [1, ", r - b,
                             "], got ", k);
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  llvm::append_range(shape, data.getShape().drop_front(b + k));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getX().getType();
  auto out = getResult().getType();
  // same_element_type
  if (in.getElementType() != out.getElementType())
    return emitOpError("requires the result to have the operand's element "
                       "type");
  // reshape_same_count
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("requires the same number of elements, got ")
           << in.getNumElements() << " and " << out.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    return dense.reshape(getType());
  // reshape(reshape(x)) = reshape(x)
  if (auto inner = getX().getDefiningOp<ReshapeOp>()) {
    getXMutable().assign(inner.getX());
    return getResult();
  }
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto x = cast<RankedTensorType>(adaptor.getX().getType());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  // transpose_perm_is_permutation
  SmallVector<bool> seen(x.getRank(), false);
  bool valid = static_cast<int64_t>(perm.size()) == x.getRank();
  for (int64_t p : perm) {
    if (!valid || p < 0 || p >= x.getRank() || seen[p]) {
      valid = false;
      break;
    }
    seen[p] = true;
  }
  if (!valid)
    return emitOptionalError(loc, "requires perm to be a permutation of [0, ",
                             x.getRank(), "), got ", shapeString(perm));
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.getDimSize(p));
  types.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPerm()))
    if (static_cast<int64_t>(i) != p)
      return {};
  return getX();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto x = cast<RankedTensorType>(adaptor.getX().getType());
  ArrayRef<int64_t> starts = adaptor.getStarts(), limits = adaptor.getLimits(),
                    steps = adaptor.getSteps();
  int64_t rank = x.getRank();
  // slice_attr_sizes
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(limits.size()) != rank ||
      static_cast<int64_t>(steps.size()) != rank)
    return emitOptionalError(loc, "requires one start, limit and step per "
                                  "dimension (",
                             rank, ")");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = x.getDimSize(d), start = starts[d], limit = limits[d],
            step = steps[d];
    // slice_step_nonzero
    if (step == 0)
      return emitOptionalError(loc, "requires non-zero steps");
    // slice_bounds: limits in [-1, size]; starts in [0, size) unless the
    // slice is empty (start == limit), so an empty dim only slices to empty.
    if (limit < -1 || limit > size ||
        ((start < 0 || start >= size) && start != limit))
      return emitOptionalError(loc, "requires start ", start, " and limit ",
                               limit, " within dim ", d, " of size ", size);
    // The count, without overflow for any step: start and limit are in
    // range whenever the slice is not empty.
    int64_t count = 0;
    if (step > 0 && limit > start)
      count = (limit - start - 1) / step + 1;
    else if (step < 0 && start > limit)
      count = (limit - start + 1) / step + 1;
    shape.push_back(count);
  }
  types.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  ValueRange inputs = adaptor.getInputs();
  // concat_nonempty
  if (inputs.empty())
    return emitOptionalError(loc, "requires at least one operand");
  auto first = cast<RankedTensorType>(inputs.front().getType());
  int64_t axis = adaptor.getAxis();
  // axis_in_range
  if (axis < 0 || axis >= first.getRank())
    return emitOptionalError(loc, "requires axis in [0, ", first.getRank(),
                             "), got ", axis);
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (Value v : inputs) {
    auto t = cast<RankedTensorType>(v.getType());
    // concat_compatible_operands
    if (t.getElementType() != first.getElementType() ||
        t.getRank() != first.getRank())
      return emitOptionalError(loc, "requires operands of the same rank and "
                                    "element type");
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && t.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(loc, "requires operand dims to match except "
                                      "at the axis, got ",
                                 shapeString(first.getShape()), " and ",
                                 shapeString(t.getShape()));
    shape[axis] += t.getDimSize(axis);
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SplitOp::verify() {
  auto x = getX().getType();
  if (failed(verifyAxis(*this, getAxis(), x.getRank())))
    return failure();
  int64_t axis = getAxis(), total = 0;
  // split_nonempty
  if (getResults().empty())
    return emitOpError("requires at least one result");
  for (Type t : getResults().getTypes()) {
    auto r = cast<RankedTensorType>(t);
    // split_result_dims
    if (r.getElementType() != x.getElementType() || r.getRank() != x.getRank())
      return emitOpError("requires results of the operand's rank and element "
                         "type");
    for (int64_t d = 0; d < x.getRank(); ++d)
      if (d != axis && r.getDimSize(d) != x.getDimSize(d))
        return emitOpError("requires result dims to match the operand except "
                           "at the axis");
    total += r.getDimSize(axis);
  }
  // split_sizes_sum
  if (total != x.getDimSize(axis))
    return emitOpError("requires the pieces to add up to ")
           << x.getDimSize(axis) << ", got " << total;
  return success();
}

LogicalResult ExpandOp::verify() {
  auto in = getX().getType();
  auto out = getResult().getType();
  // same_element_type
  if (in.getElementType() != out.getElementType())
    return emitOpError("requires the result to have the operand's element "
                       "type");
  // expand_broadcasts_to_result
  auto shape = broadcastShapes(std::nullopt, in.getShape(), out.getShape());
  if (failed(shape) || ArrayRef(*shape) != out.getShape())
    return emitOpError("requires the operand shape ")
           << shapeString(in.getShape()) << " to broadcast to "
           << shapeString(out.getShape());
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX()))
    if (dense.isSplat())
      return dense.resizeSplat(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// Checks the operand shapes of a loss op and returns the per-element loss
/// shape [N, d...].
static LogicalResult verifyLoss(Operation *op, Value scores, Value labels,
                                Value weight, StringRef reduction,
                                Type lossType) {
  auto s = cast<RankedTensorType>(scores.getType());
  auto l = cast<RankedTensorType>(labels.getType());
  // loss_scores_rank
  if (s.getRank() < 2)
    return op->emitOpError("requires scores of rank >= 2 ([N, C, d...])");
  SmallVector<int64_t> perElement(s.getShape());
  perElement.erase(perElement.begin() + 1);
  // loss_labels_shape
  if (l.getShape() != ArrayRef(perElement))
    return op->emitOpError("requires labels of shape ")
           << shapeString(perElement) << ", got " << shapeString(l.getShape());
  // loss_weight_shape
  if (weight) {
    auto w = cast<RankedTensorType>(weight.getType());
    if (w.getRank() != 1 || w.getDimSize(0) != s.getDimSize(1) ||
        w.getElementType() != s.getElementType())
      return op->emitOpError("requires weight of shape [")
             << s.getDimSize(1) << "] and the scores' element type";
  }
  // loss_reduction_kind
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return op->emitOpError("requires reduction \"none\", \"sum\" or "
                           "\"mean\", got \"")
           << reduction << "\"";
  auto loss = cast<RankedTensorType>(lossType);
  SmallVector<int64_t> expected;
  if (reduction == "none")
    expected = perElement;
  // loss_result_shape
  if (loss.getShape() != ArrayRef(expected))
    return op->emitOpError("requires a loss of shape ")
           << shapeString(expected) << " for reduction \"" << reduction
           << "\"";
  // loss_result_type: the scores' type, or f32 from bf16/f16 scores (the
  // loss accumulated in f32 without an f32 copy of the scores).
  Type scoreElem = s.getElementType(), lossElem = loss.getElementType();
  if (lossElem != scoreElem &&
      !(lossElem.isF32() && (scoreElem.isBF16() || scoreElem.isF16()) &&
        !weight))
    return op->emitOpError("requires a loss of the scores' element type")
           << " (or f32 from bf16/f16 scores without weights), got "
           << lossElem;
  return success();
}

LogicalResult SoftmaxCrossEntropyOp::verify() {
  if (failed(verifyLoss(*this, getScores(), getLabels(), getWeight(),
                        getReduction(), getLoss().getType())))
    return failure();
  // sce_log_prob_type
  if (getLogProb() && getLogProb().getType() != getScores().getType())
    return emitOpError("requires log_prob of the scores' type");
  return success();
}

LogicalResult SoftmaxCrossEntropyWithStatsOp::verify() {
  if (failed(verifyLoss(*this, getScores(), getLabels(), getWeight(),
                        getReduction(), getLoss().getType())))
    return failure();
  // sce_stats_shape: (max, sum) per element of the labels.
  SmallVector<int64_t> stats(
      cast<RankedTensorType>(getLabels().getType()).getShape());
  stats.push_back(2);
  if (getStats().getType().getShape() != ArrayRef<int64_t>(stats))
    return emitOpError("requires statistics of shape ")
           << shapeString(stats) << ", got "
           << shapeString(getStats().getType().getShape());
  return success();
}

LogicalResult NllLossOp::verify() {
  return verifyLoss(*this, getScores(), getLabels(), getWeight(),
                    getReduction(), getLoss().getType());
}

//===----------------------------------------------------------------------===//
// Generators and scans
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  Type elem = getResult().getType().getElementType();
  for (Value v : {getStart(), getLimit(), getDelta()}) {
    auto t = cast<RankedTensorType>(v.getType());
    // range_scalar_operands
    if (t.getRank() != 0 || t.getElementType() != elem)
      return emitOpError("requires scalar operands of the result's element "
                         "type");
  }
  // range_result_rank
  if (getResult().getType().getRank() != 1)
    return emitOpError("requires a 1-D result");
  return success();
}

LogicalResult CumSumOp::verify() {
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult TriluOp::verify() {
  // trilu_rank_ge_2
  if (getX().getType().getRank() < 2)
    return emitOpError("requires rank >= 2");
  return success();
}

#define GET_OP_CLASSES
#include "paracc/Dialect/Graph/IR/GraphOps.cpp.inc"

bool mlir::paracc::graph::isReshapeTransposeOrCast(Operation *op) {
  return op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         isa<CastOp, TransposeOp, ReshapeOp>(op);
}
