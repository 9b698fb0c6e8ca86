//===- NormalizationRules.cpp - ONNX norms and softmax ---------*- C++ -*-===//
//
// LayerNormalization (with its optional Mean/InvStdDev outputs),
// RMSNormalization (opset 23) as graph.rms_norm,
// InstanceNormalization and GroupNormalization (as their statistics over
// each image's channel or group, then the per-channel affine map), Softmax
// and LogSoftmax in both their pre-13 (flatten to 2-D) and 13+ (one axis)
// forms.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

FailureOr<Moments>
mlir::paracc::onnximport::momentsOver(NodeContext &c, Value x,
                                      ArrayRef<int64_t> axes) {
  Moments m;
  ASSIGN_OR_FAIL(m.mean, c.build<g::ReduceMeanOp>(x, axes, true));
  ASSIGN_OR_FAIL(m.centered, binary<g::SubOp>(c, x, m.mean));
  ASSIGN_OR_FAIL(Value squares, binary<g::MulOp>(c, m.centered, m.centered));
  ASSIGN_OR_FAIL(m.var, c.build<g::ReduceMeanOp>(squares, axes, true));
  return m;
}

/// The statistics outputs of LayerNormalization: mean and 1/sqrt(var+eps)
/// over [axis, rank), with the reduced dims kept, in the stash type.
static LogicalResult importLayerNormStats(NodeContext &c, Value x,
                                          int64_t axis, double epsilon) {
  Type stash = elementTypeFromOnnx(c.getContext(), c.intAttr("stash_type", 1));
  if (!stash || !isa<FloatType>(stash))
    return c.unsupported("stash_type");
  ASSIGN_OR_FAIL(Value xs, c.castTo(x, stash));
  int64_t rank = tensorType(x).getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  ASSIGN_OR_FAIL(Moments m, momentsOver(c, xs, axes));
  ASSIGN_OR_FAIL(Value ve,
                 binary<g::AddOp>(c, m.var, scalarLike(c, m.var, epsilon)));
  ASSIGN_OR_FAIL(Value invStd, unary<g::RsqrtOp>(c, ve));
  c.setOutput(1, m.mean);
  c.setOutput(2, invStd);
  return success();
}

static LogicalResult importLayerNormalization(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value scale, c.input(1));
  Value bias;
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(bias, c.input(2));
  }
  int64_t rank = tensorType(x).getRank();
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", -1), rank));
  double epsilon = c.floatAttr("epsilon", 1e-5);
  Builder b(c.getContext());
  auto op = c.buildTyped<g::LayerNormOp>(x.getType(), x, scale, bias,
                                         b.getI64IntegerAttr(axis),
                                         b.getF64FloatAttr(epsilon));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  if (c.hasOutput(1) || c.hasOutput(2))
    return importLayerNormStats(c, x, axis, epsilon);
  return success();
}

/// (x - mean) / sqrt(var + epsilon) with the mean and (biased) variance
/// over `axes`, kept.
static FailureOr<Value> standardize(NodeContext &c, Value x,
                                    ArrayRef<int64_t> axes, double epsilon) {
  ASSIGN_OR_FAIL(Moments m, momentsOver(c, x, axes));
  ASSIGN_OR_FAIL(Value ve,
                 binary<g::AddOp>(c, m.var, scalarLike(c, m.var, epsilon)));
  ASSIGN_OR_FAIL(Value inv, unary<g::RsqrtOp>(c, ve));
  return binary<g::MulOp>(c, m.centered, inv);
}

/// y * scale + bias with [C] values broadcast over dims 1.. of y.
static FailureOr<Value> perChannelAffine(NodeContext &c, Value y, Value scale,
                                         Value bias) {
  auto yt = tensorType(y);
  SmallVector<int64_t> channelShape(yt.getRank() - 1, 1);
  channelShape[0] = yt.getDimSize(1);
  Value out = y;
  for (auto [p, isScale] :
       {std::make_pair(scale, true), std::make_pair(bias, false)}) {
    ASSIGN_OR_FAIL(Value cast, c.castTo(p, yt.getElementType()));
    ASSIGN_OR_FAIL(Value shaped, c.reshapeTo(cast, channelShape));
    if (isScale) {
      ASSIGN_OR_FAIL(out, binary<g::MulOp>(c, out, shaped));
    } else {
      ASSIGN_OR_FAIL(out, binary<g::AddOp>(c, out, shaped));
    }
  }
  return out;
}

/// InstanceNormalization: each (image, channel)'s spatial positions
/// standardized, then scale and bias per channel.
static LogicalResult importInstanceNormalization(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value scale, c.input(1));
  ASSIGN_OR_FAIL(Value bias, c.input(2));
  auto xt = tensorType(x);
  if (xt.getRank() < 3)
    return c.error("requires [N, C, spatial...], got rank " +
                   Twine(xt.getRank()));
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("a non-float input");
  for (Value p : {scale, bias})
    if (tensorType(p).getRank() != 1 ||
        tensorType(p).getDimSize(0) != xt.getDimSize(1))
      return c.error("scale and B must have the " + Twine(xt.getDimSize(1)) +
                     " channels' values");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < xt.getRank(); ++d)
    axes.push_back(d);
  ASSIGN_OR_FAIL(Value y,
                 standardize(c, x, axes, c.floatAttr("epsilon", 1e-5)));
  ASSIGN_OR_FAIL(y, perChannelAffine(c, y, scale, bias));
  c.setOutput(0, y);
  return success();
}

/// GroupNormalization: each image's channels in num_groups groups, each
/// group standardized over its channels and positions (in stash_type,
/// opset 21), then scale and bias: per channel from opset 21, per group
/// before (each group's value repeated over its channels).
static LogicalResult importGroupNormalization(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value scale, c.input(1));
  ASSIGN_OR_FAIL(Value bias, c.input(2));
  auto xt = tensorType(x);
  if (xt.getRank() < 2)
    return c.error("requires [N, C, ...], got rank " + Twine(xt.getRank()));
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("a non-float input");
  const int64_t channels = xt.getDimSize(1);
  const int64_t groups = c.intAttr("num_groups", 0);
  if (groups < 1 || channels % groups != 0)
    return c.error("num_groups " + Twine(groups) + " must divide the " +
                   Twine(channels) + " channels");
  const bool perChannel = c.opset >= 21;
  const int64_t values = perChannel ? channels : groups;
  for (Value p : {scale, bias})
    if (tensorType(p).getRank() != 1 || tensorType(p).getDimSize(0) != values)
      return c.error("scale and bias must have " + Twine(values) + " values (" +
                     (perChannel ? "one per channel" : "one per group") + ")");
  Type stash = xt.getElementType();
  if (perChannel) {
    stash = elementTypeFromOnnx(c.getContext(), c.intAttr("stash_type", 1));
    if (!stash || !isa<FloatType>(stash))
      return c.unsupported("stash_type");
  }
  int64_t rest = 1;
  for (int64_t d = 1; d < xt.getRank(); ++d)
    rest *= xt.getDimSize(d);
  ASSIGN_OR_FAIL(Value xs, c.castTo(x, stash));
  ASSIGN_OR_FAIL(Value grouped,
                 c.reshapeTo(xs, {xt.getDimSize(0), groups, rest / groups}));
  ASSIGN_OR_FAIL(Value y,
                 standardize(c, grouped, {2}, c.floatAttr("epsilon", 1e-5)));
  ASSIGN_OR_FAIL(y, c.reshapeTo(y, xt.getShape()));
  ASSIGN_OR_FAIL(y, c.castTo(y, xt.getElementType()));
  if (!perChannel) {
    // [G] -> [G, C / G] -> [C]: group g's value for each of its channels.
    for (Value *p : {&scale, &bias}) {
      ASSIGN_OR_FAIL(Value column, c.reshapeTo(*p, {groups, 1}));
      ASSIGN_OR_FAIL(Value spread,
                     c.expandTo(column, {groups, channels / groups}));
      ASSIGN_OR_FAIL(*p, c.reshapeTo(spread, {channels}));
    }
  }
  ASSIGN_OR_FAIL(y, perChannelAffine(c, y, scale, bias));
  c.setOutput(0, y);
  return success();
}

/// RMSNormalization (opset 23) as graph.rms_norm over [axis, rank).
static LogicalResult importRMSNormalization(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(Value scale, c.input(1));
  auto xt = tensorType(x);
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("a non-float input");
  ASSIGN_OR_FAIL(int64_t axis,
                 c.normalizeAxis(c.intAttr("axis", -1), xt.getRank()));
  ASSIGN_OR_FAIL(scale, c.castTo(scale, xt.getElementType()));
  Builder b(c.getContext());
  auto op = c.buildTyped<g::RmsNormOp>(
      x.getType(), x, scale, b.getI64IntegerAttr(axis),
      b.getF64FloatAttr(c.floatAttr("epsilon", 1e-5)));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

template <typename OpTy> static LogicalResult importSoftmax(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  int64_t rank = type.getRank();
  Builder b(c.getContext());
  if (c.opset >= 13) {
    ASSIGN_OR_FAIL(int64_t axis,
                   c.normalizeAxis(c.intAttr("axis", -1), std::max<int64_t>(rank, 1)));
    if (rank == 0)
      return c.error("requires an input of rank >= 1");
    auto op = c.buildTyped<OpTy>(x.getType(), x, b.getI64IntegerAttr(axis));
    if (failed(op))
      return failure();
    c.setOutput(0, (*op)->getResult(0));
    return success();
  }
  // Before opset 13 the input is coerced to 2-D at `axis`.
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 1), rank));
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? rows : cols) *= type.getDimSize(d);
  ASSIGN_OR_FAIL(Value flat, c.reshapeTo(x, {rows, cols}));
  auto op = c.buildTyped<OpTy>(flat.getType(), flat, b.getI64IntegerAttr(1));
  if (failed(op))
    return failure();
  ASSIGN_OR_FAIL(Value y, c.reshapeTo((*op)->getResult(0), type.getShape()));
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerNormalizationRules(RuleTable &t) {
  t.add("LayerNormalization", 17, importLayerNormalization);
  t.add("RMSNormalization", 23, importRMSNormalization);
  t.add("InstanceNormalization", 1, importInstanceNormalization);
  t.add("GroupNormalization", 18, importGroupNormalization);
  t.add("Softmax", 1, importSoftmax<g::SoftmaxOp>);
  t.add("LogSoftmax", 1, importSoftmax<g::LogSoftmaxOp>);
}
