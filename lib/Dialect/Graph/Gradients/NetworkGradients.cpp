//===- NetworkGradients.cpp - Gradients of products, norms, losses -*- C++
//-*-===//
//
// Gradient rules of the ops that make up networks: matrix products (as
// Gemms with transpose flags on the flattened tokens, so a weight's
// gradient is one product), softmax, the norms, attention, embedding
// lookups and the cross-entropy losses. Norms, attention, GELU, lookups and
// losses have backward ops of their own (GraphTrainingOps.td); the rest is
// written with graph ops.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {
using Grads = MutableArrayRef<Value>;
using ResultGrads = ArrayRef<Value>;

/// `alpha * op(a) op(b)` as a graph.gemm of 2-D operands.
Value gemm(GradientBuilder &g, Value a, Value b, bool transA, bool transB,
           double alpha = 1.0) {
  return GemmOp::create(g.b, g.loc, a, b, Value(), g.b.getBoolAttr(transA),
                        g.b.getBoolAttr(transB), g.b.getF64FloatAttr(alpha),
                        g.b.getF64FloatAttr(1.0));
}

/// `x [..., n]` as `[prod(...), n]`.
Value flattenRows(GradientBuilder &g, Value x) {
  ArrayRef<int64_t> shape = g.shapeOf(x);
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  return g.reshape(x, {rows, shape.back()});
}

LogicalResult matmulGrad(GradientBuilder &g, MatMulOp op, ResultGrads dy,
                         Grads dx) {
  Value a = op.getLhs(), w = op.getRhs();
  if (!g.isFloat(a))
    return success();
  ArrayRef<int64_t> as = g.shapeOf(a), ws = g.shapeOf(w);
  if (as.size() < 2 || ws.size() < 2)
    return op.emitOpError("has no gradient rule for 1-D operands");
  if (ws.size() == 2) {
    // x [..., K] @ w [K, N]: the tokens flatten into rows.
    Value x2 = flattenRows(g, a), dy2 = flattenRows(g, dy[0]);
    dx[0] = g.reshapeLike(gemm(g, dy2, w, false, true), a);
    dx[1] = gemm(g, x2, dy2, true, false);
    return success();
  }
  // Batched: dA = dY Bᵀ, dB = Aᵀ dY, summed over broadcast batch dims.
  dx[0] =
      g.sumTo(MatMulOp::create(g.b, g.loc, dy[0], g.transposeLastTwo(w)), a);
  dx[1] =
      g.sumTo(MatMulOp::create(g.b, g.loc, g.transposeLastTwo(a), dy[0]), w);
  return success();
}

LogicalResult gemmGrad(GradientBuilder &g, GemmOp op, ResultGrads dy,
                       Grads dx) {
  if (!g.isFloat(op.getResult()))
    return success();
  bool ta = op.getTransA(), tb = op.getTransB();
  double alpha = op.getAlpha().convertToDouble();
  Value a = op.getA(), b = op.getB(), d = dy[0];
  // Y = alpha op(A) op(B): d op(A) = alpha dY op(B)ᵀ, d op(B) = alpha
  // op(A)ᵀ dY, transposed back where the operand was transposed.
  dx[0] =
      ta ? gemm(g, b, d, tb, true, alpha) : gemm(g, d, b, false, !tb, alpha);
  dx[1] =
      tb ? gemm(g, d, a, true, ta, alpha) : gemm(g, a, d, !ta, false, alpha);
  if (Value c = op.getC()) {
    Value dc = g.sumTo(d, c);
    double beta = op.getBeta().convertToDouble();
    dx[2] = beta == 1.0 ? dc : g.mul(dc, g.scalarLike(dc, beta));
  }
  return success();
}

LogicalResult softmaxGrad(GradientBuilder &g, SoftmaxOp op, ResultGrads dy,
                          Grads dx) {
  // dx = y (dy - sum(dy y))
  Value y = op.getResult();
  int64_t axis[] = {int64_t(op.getAxis())};
  Value dot = g.sumKeep(g.mul(dy[0], y), axis);
  dx[0] = g.mul(y, g.sub(dy[0], dot));
  return success();
}

LogicalResult logSoftmaxGrad(GradientBuilder &g, LogSoftmaxOp op,
                             ResultGrads dy, Grads dx) {
  // dx = dy - softmax(x) sum(dy)
  int64_t axis[] = {int64_t(op.getAxis())};
  Value p = ExpOp::create(g.b, g.loc, op.getResult());
  dx[0] = g.sub(dy[0], g.mul(p, g.sumKeep(dy[0], axis)));
  return success();
}

LogicalResult layerNormGrad(GradientBuilder &g, LayerNormOp op, ResultGrads dy,
                            Grads dx) {
  // The backward op takes the scale in the normalized shape.
  ArrayRef<int64_t> normalized = g.shapeOf(op.getX()).drop_front(op.getAxis());
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  int64_t count = 1;
  for (int64_t d : normalized)
    count *= d;
  if (scaleType.getNumElements() != count ||
      (op.getBias() &&
       cast<RankedTensorType>(op.getBias().getType()).getNumElements() !=
           count))
    return op.emitOpError("has no gradient rule for a broadcast scale or bias");
  Value scale = g.reshape(op.getScale(), normalized);
  auto grad = LayerNormGradOp::create(g.b, g.loc, dy[0], op.getX(), scale,
                                      /*accumulate=*/Value(),
                                      op.getAxisAttr(), op.getEpsilonAttr());
  dx[0] = grad.getDx();
  dx[1] = g.reshapeLike(grad.getDscale(), op.getScale());
  if (op.getBias())
    dx[2] = g.reshapeLike(grad.getDbias(), op.getBias());
  return success();
}

LogicalResult rmsNormGrad(GradientBuilder &g, RmsNormOp op, ResultGrads dy,
                          Grads dx) {
  ArrayRef<int64_t> normalized = g.shapeOf(op.getX()).drop_front(op.getAxis());
  int64_t count = 1;
  for (int64_t d : normalized)
    count *= d;
  if (cast<RankedTensorType>(op.getScale().getType()).getNumElements() != count)
    return op.emitOpError("has no gradient rule for a broadcast scale");
  Value scale = g.reshape(op.getScale(), normalized);
  auto grad = RmsNormGradOp::create(g.b, g.loc, dy[0], op.getX(), scale,
                                    /*accumulate=*/Value(),
                                    op.getAxisAttr(), op.getEpsilonAttr());
  dx[0] = grad.getDx();
  dx[1] = g.reshapeLike(grad.getDscale(), op.getScale());
  return success();
}

LogicalResult attentionGrad(GradientBuilder &g, AttentionOp op, ResultGrads dy,
                            Grads dx) {
  auto grad = AttentionGradOp::create(
      g.b, g.loc, dy[0], op.getQ(), op.getK(), op.getV(), op.getMask(),
      op.getQueryStart(), /*out=*/Value(), /*stats=*/Value(), op.getScaleAttr(),
      op.getCausalAttr(), op.getSequenceFirstAttr(), op.getWindowAttr());
  dx[0] = grad.getDq();
  dx[1] = grad.getDk();
  dx[2] = grad.getDv();
  return success();
}

LogicalResult gatherGrad(GradientBuilder &g, GatherOp op, ResultGrads dy,
                         Grads dx) {
  if (!g.isFloat(op.getData()))
    return success();
  dx[0] = GatherGradOp::create(g.b, g.loc, op.getData().getType(), dy[0],
                               op.getIndices(), /*accumulate=*/Value(),
                               op.getAxisAttr());
  return success();
}

/// gather_grad as a forward op (a scatter-add: the StableHLO importer
/// makes one of JAX's `x.at[i].add(v)` and of its gathers' transposes):
/// each added row's gradient is the result's gradient at its index, a
/// gather; `accumulate`'s is the result's gradient itself.
LogicalResult scatterAddGrad(GradientBuilder &g, GatherGradOp op,
                             ResultGrads dy, Grads dx) {
  dx[0] = GatherOp::create(g.b, g.loc, op.getDy().getType(), dy[0],
                           op.getIndices(), op.getAxisAttr());
  if (op.getAccumulate())
    dx[2] = dy[0];
  return success();
}

/// gather_nd (batch_dims 0): each index tuple names a slice of the data's
/// first m dims; the tuples are linearized (negative entries count from the
/// end) and the gradient scattered as gather's is, into the data viewed as
/// [d_0 * ... * d_{m-1}, rest...]. A mixture of experts' stacked weights,
/// gathered per token, get their gradient this way.
LogicalResult gatherNDGrad(GradientBuilder &g, GatherNDOp op, ResultGrads dy,
                           Grads dx) {
  if (!g.isFloat(op.getData()))
    return success();
  if (op.getBatchDims() != 0)
    return op.emitOpError("has no gradient rule for batch_dims = ")
           << op.getBatchDims();
  ArrayRef<int64_t> dataShape = g.shapeOf(op.getData());
  ArrayRef<int64_t> indexShape = g.shapeOf(op.getIndices());
  const int64_t m = indexShape.back();
  SmallVector<int64_t> strides(m, 1), sizes(dataShape.take_front(m));
  int64_t rows = 1;
  for (int64_t j = m - 1; j >= 0; --j) {
    strides[j] = rows;
    rows *= dataShape[j];
  }
  Type indexType = g.elementType(op.getIndices());
  auto vectorOf = [&](ArrayRef<int64_t> values) -> Value {
    auto type = RankedTensorType::get({m}, indexType);
    return ConstantOp::create(g.b, g.loc, DenseElementsAttr::get(type, values));
  };
  Value index = op.getIndices();
  Value negative = LessOp::create(g.b, g.loc, index, g.scalar(indexType, 0.0));
  index = WhereOp::create(g.b, g.loc, negative, g.add(index, vectorOf(sizes)),
                          index);
  Value linear = ReduceSumOp::create(
      g.b, g.loc, g.mul(index, vectorOf(strides)),
      g.b.getDenseI64ArrayAttr({int64_t(indexShape.size()) - 1}),
      g.b.getBoolAttr(false));
  SmallVector<int64_t> flatShape = {rows};
  flatShape.append(dataShape.begin() + m, dataShape.end());
  auto flatType = RankedTensorType::get(flatShape, g.elementType(op.getData()));
  Value flat =
      GatherGradOp::create(g.b, g.loc, flatType, dy[0], linear,
                           /*accumulate=*/Value(), g.b.getI64IntegerAttr(0));
  dx[0] = g.reshape(flat, dataShape);
  return success();
}

/// The gradient of picking `indices` along `axis` from a tensor of
/// `dataShape` (gather_elements, topk's values): each pick's gradient added
/// back at its index. With one more dim after the axis, the K picks are
/// compared with the D positions along it ([.., K, D, ..]) and the
/// gradients masked by the hits summed over the picks (K is 1 for
/// take_along_axis of one label).
Value scatterPicksAlongAxis(GradientBuilder &g, Value dy, Value indices,
                            int64_t axis, ArrayRef<int64_t> dataShape) {
  ArrayRef<int64_t> indexShape = g.shapeOf(indices);
  const int64_t rank = dataShape.size();
  const int64_t positions = dataShape[axis];
  Type indexType = g.elementType(indices);
  SmallVector<int64_t> picks(indexShape);
  picks.insert(picks.begin() + axis + 1, 1);
  Value index = g.reshape(indices, picks);
  // Negative indices count from the end.
  Value negative =
      LessOp::create(g.b, g.loc, index, g.scalar(indexType, 0.0));
  index = WhereOp::create(g.b, g.loc, negative,
                          g.add(index, g.scalar(indexType, double(positions))),
                          index);
  Value along = RangeOp::create(
      g.b, g.loc, RankedTensorType::get({positions}, indexType),
      g.scalar(indexType, 0.0), g.scalar(indexType, double(positions)),
      g.scalar(indexType, 1.0));
  SmallVector<int64_t> alongShape(rank + 1, 1);
  alongShape[axis + 1] = positions;
  Value hit = EqualOp::create(g.b, g.loc, index, g.reshape(along, alongShape));
  SmallVector<int64_t> spread(picks);
  spread[axis + 1] = positions;
  Value masked = g.maskOrZero(hit, g.expand(g.reshape(dy, picks), spread));
  return ReduceSumOp::create(g.b, g.loc, masked,
                             g.b.getDenseI64ArrayAttr({axis}),
                             g.b.getBoolAttr(false));
}

LogicalResult gatherElementsGrad(GradientBuilder &g, GatherElementsOp op,
                                 ResultGrads dy, Grads dx) {
  if (!g.isFloat(op.getData()))
    return success();
  ArrayRef<int64_t> dataShape = g.shapeOf(op.getData());
  ArrayRef<int64_t> indexShape = g.shapeOf(op.getIndices());
  // (In [0, rank): the op verifies it.)
  const int64_t axis = op.getAxis();
  for (int64_t d = 0; d < int64_t(dataShape.size()); ++d)
    if (d != axis && indexShape[d] != dataShape[d])
      return op.emitOpError("has no gradient rule for indices smaller than "
                            "the data outside the axis");
  dx[0] = scatterPicksAlongAxis(g, dy[0], op.getIndices(), axis, dataShape);
  return success();
}

/// topk: the values' gradient goes to the elements picked (the selection
/// itself, the indices, has none).
LogicalResult topKGrad(GradientBuilder &g, TopKOp op, ResultGrads dy,
                       Grads dx) {
  if (!g.isFloat(op.getX()) || !dy[0])
    return success();
  dx[0] = scatterPicksAlongAxis(g, dy[0], op.getIndices(), op.getAxis(),
                                g.shapeOf(op.getX()));
  return success();
}

/// The cross-entropy losses: the per-element gradient (the reduction's
/// scale of the loss gradient), then the backward op. For "mean" the
/// divisor is the summed weight of the counted elements, built with graph
/// ops so that a sharded batch sums it over its shards.
template <typename LossOp>
LogicalResult lossGrad(GradientBuilder &g, LossOp op, ResultGrads dy, Grads dx,
                       bool logProb) {
  if (op->getNumResults() > 1 && dy.size() > 1 && dy[1])
    return op.emitOpError("has no gradient rule for its log_prob result");
  Value scores = op.getScores(), labels = op.getLabels();
  Value weight = op.getWeight();
  auto labelsType = cast<RankedTensorType>(labels.getType());
  // The per-element gradient has the loss's type (f32 for an f32 loss of
  // bf16 scores: its mean's divisor, a count, must not round).
  Type elem = g.elementType(op.getLoss());
  auto elementType = RankedTensorType::get(labelsType.getShape(), elem);
  StringRef reduction = op.getReduction();
  Value perElement;
  if (reduction == "none") {
    perElement = dy[0];
  } else {
    Value scale = dy[0];
    if (reduction == "mean") {
      std::optional<int64_t> ignore = op.getIgnoreIndex();
      Value divisor;
      if (!weight && !ignore) {
        divisor = g.scalar(elem, double(labelsType.getNumElements()));
      } else {
        Value counted;
        Value safeLabels = labels;
        if (ignore) {
          Value ignored =
              g.scalar(labelsType.getElementType(), double(*ignore));
          counted = NotOp::create(g.b, g.loc,
                                  EqualOp::create(g.b, g.loc, labels, ignored));
          safeLabels =
              WhereOp::create(g.b, g.loc, counted, labels,
                              g.scalar(labelsType.getElementType(), 0.0));
        }
        Value w = weight
                      ? Value(GatherOp::create(g.b, g.loc, weight, safeLabels,
                                               g.b.getI64IntegerAttr(0)))
                      : Value(CastOp::create(g.b, g.loc, elementType, counted));
        if (weight && counted)
          w = g.maskOrZero(counted, w);
        SmallVector<int64_t> all;
        for (int64_t d = 0; d < labelsType.getRank(); ++d)
          all.push_back(d);
        divisor =
            ReduceSumOp::create(g.b, g.loc, w, g.b.getDenseI64ArrayAttr(all),
                                g.b.getBoolAttr(false));
      }
      scale = g.div(scale, divisor);
    }
    perElement = g.expand(scale, labelsType.getShape());
  }
  dx[0] = CrossEntropyGradOp::create(
      g.b, g.loc, scores.getType(), perElement, scores, labels, weight,
      /*stats=*/Value(), g.b.getBoolAttr(logProb), op.getIgnoreIndexAttr());
  return success();
}

LogicalResult softmaxCrossEntropyGrad(GradientBuilder &g,
                                      SoftmaxCrossEntropyOp op, ResultGrads dy,
                                      Grads dx) {
  return lossGrad(g, op, dy, dx, /*logProb=*/false);
}

LogicalResult nllLossGrad(GradientBuilder &g, NllLossOp op, ResultGrads dy,
                          Grads dx) {
  return lossGrad(g, op, dy, dx, /*logProb=*/true);
}

} // namespace

void mlir::paracc::graph::registerNetworkGradients(MLIRContext *ctx) {
  attachRule<MatMulOp, matmulGrad>(ctx);
  attachRule<GemmOp, gemmGrad>(ctx);
  attachRule<SoftmaxOp, softmaxGrad>(ctx);
  attachRule<LogSoftmaxOp, logSoftmaxGrad>(ctx);
  attachRule<LayerNormOp, layerNormGrad>(ctx);
  attachRule<RmsNormOp, rmsNormGrad>(ctx);
  attachRule<AttentionOp, attentionGrad>(ctx);
  attachRule<GatherOp, gatherGrad>(ctx);
  attachRule<GatherGradOp, scatterAddGrad>(ctx);
  attachRule<GatherElementsOp, gatherElementsGrad>(ctx);
  attachRule<TopKOp, topKGrad>(ctx);
  attachRule<GatherNDOp, gatherNDGrad>(ctx);
  attachRule<SoftmaxCrossEntropyOp, softmaxCrossEntropyGrad>(ctx);
  attachRule<NllLossOp, nllLossGrad>(ctx);
}
