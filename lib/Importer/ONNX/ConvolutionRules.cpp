//===- ConvolutionRules.cpp - ONNX convolution, pooling and BatchNorm -----===//
//
// Conv, ConvTranspose, MaxPool and AveragePool as graph.conv /
// graph.conv_transpose / graph.pool (auto_pad and output sizes resolved into
// explicit pads), GlobalAveragePool / GlobalMaxPool as
// reductions over the spatial dims, and BatchNormalization as (x - mean) *
// scale / sqrt(var + epsilon) + bias per channel: with the running
// statistics (inference) or the batch's, updating the running ones as model
// state (training mode).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

namespace {

/// A window's attributes per spatial dim, as ONNX gives them.
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, padsBegin, padsEnd, dilations;
};

/// The ints attribute `name` with one value per spatial dim (`fill` each
/// when absent).
LogicalResult readPerDim(NodeContext &c, StringRef name, int64_t rank,
                         int64_t fill, SmallVector<int64_t> &dst) {
  dst = c.intsAttr(name);
  if (dst.empty())
    dst.assign(rank, fill);
  if (int64_t(dst.size()) != rank)
    return c.error(Twine(name) + " has " + Twine(dst.size()) + " values for " +
                   Twine(rank) + " spatial dims");
  return success();
}

/// auto_pad, checked to be one of ONNX's four.
FailureOr<std::string> readAutoPad(NodeContext &c) {
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return c.error("auto_pad '" + autoPad +
                   "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
  return autoPad;
}

/// Reads strides, dilations, pads and auto_pad of a window op over `x`
/// with the given kernel sizes (the weight's or kernel_shape), resolving
/// SAME_UPPER / SAME_LOWER / VALID into explicit pads.
FailureOr<WindowAttrs> readWindow(NodeContext &c, RankedTensorType x,
                                  ArrayRef<int64_t> kernel, bool dilated) {
  const int64_t rank = x.getRank() - 2;
  if (rank < 1 || rank > 3)
    return c.unsupported("an input of rank " + Twine(x.getRank()) +
                         " (1 to 3 spatial dims after [N, C])");
  WindowAttrs w;
  w.kernel.assign(kernel.begin(), kernel.end());
  if (failed(readPerDim(c, "strides", rank, 1, w.strides)))
    return failure();
  if (dilated) {
    if (failed(readPerDim(c, "dilations", rank, 1, w.dilations)))
      return failure();
  } else {
    if (c.hasAttr("dilations") &&
        llvm::any_of(c.intsAttr("dilations"), [](int64_t d) { return d != 1; }))
      return c.unsupported("dilations other than 1");
    w.dilations.assign(rank, 1);
  }
  for (int64_t d = 0; d < rank; ++d)
    if (w.strides[d] < 1 || w.dilations[d] < 1 || w.kernel[d] < 1)
      return c.error("strides, dilations and kernel sizes must be >= 1");
  ASSIGN_OR_FAIL(std::string autoPad, readAutoPad(c));
  SmallVector<int64_t> pads = c.intsAttr("pads");
  if (autoPad == "NOTSET") {
    if (pads.empty())
      pads.assign(2 * rank, 0);
    if (int64_t(pads.size()) != 2 * rank)
      return c.error("pads has " + Twine(pads.size()) + " values for " +
                     Twine(rank) + " spatial dims (" + Twine(2 * rank) +
                     " expected)");
    if (llvm::any_of(pads, [](int64_t p) { return p < 0; }))
      return c.error("pads must be non-negative");
    w.padsBegin.assign(pads.begin(), pads.begin() + rank);
    w.padsEnd.assign(pads.begin() + rank, pads.end());
    return w;
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t total = 0;
    if (autoPad != "VALID") {
      // The output keeps ceil(S / stride); the extra padding goes at the
      // end (SAME_UPPER) or the beginning (SAME_LOWER).
      const int64_t size = x.getDimSize(2 + d);
      const int64_t out = (size + w.strides[d] - 1) / w.strides[d];
      const int64_t span =
          g::windowExtent(size, w.kernel[d], 1, 0, 0, w.dilations[d]).span;
      total = std::max<int64_t>(0, (out - 1) * w.strides[d] + span - size);
    }
    const int64_t small = total / 2, large = total - small;
    w.padsBegin.push_back(autoPad == "SAME_LOWER" ? large : small);
    w.padsEnd.push_back(autoPad == "SAME_LOWER" ? small : large);
  }
  return w;
}

/// The output sizes of a window op, or an error when the window does not
/// fit the padded input.
FailureOr<SmallVector<int64_t>> windowShape(NodeContext &c, RankedTensorType x,
                                            int64_t features,
                                            const WindowAttrs &w) {
  SmallVector<int64_t> shape = {x.getDimSize(0), features};
  for (size_t d = 0; d < w.kernel.size(); ++d) {
    g::WindowExtent e =
        g::windowExtent(x.getDimSize(2 + d), w.kernel[d], w.strides[d],
                        w.padsBegin[d], w.padsEnd[d], w.dilations[d]);
    if (!e.fits())
      return c.error("spatial dim " + Twine(d) + ": the window (" +
                     Twine(e.span) + ") is larger than the padded input (" +
                     Twine(e.padded) + ")");
    shape.push_back(e.out);
  }
  return shape;
}

/// A convolution's (or transposed convolution's) operands: x, the weight
/// of x's rank and the optional bias.
struct ConvOperands {
  Value x, w, bias;
  RankedTensorType xt, wt;
};

FailureOr<ConvOperands> readConvOperands(NodeContext &c) {
  ConvOperands o;
  ASSIGN_OR_FAIL(o.x, c.input(0));
  ASSIGN_OR_FAIL(o.w, c.input(1));
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(o.bias, c.input(2));
  }
  o.xt = tensorType(o.x);
  o.wt = tensorType(o.w);
  if (!isa<FloatType>(o.xt.getElementType()))
    return c.unsupported("a non-float input");
  if (o.wt.getRank() != o.xt.getRank())
    return c.error("the weight " + Twine(o.wt.getRank()) +
                   "-d for an input of rank " + Twine(o.xt.getRank()));
  return o;
}

LogicalResult importConv(NodeContext &c) {
  ASSIGN_OR_FAIL(ConvOperands o, readConvOperands(c));
  Value x = o.x, w = o.w, bias = o.bias;
  RankedTensorType xt = o.xt, wt = o.wt;
  const int64_t group = c.intAttr("group", 1);
  const int64_t channels = xt.getDimSize(1), features = wt.getDimSize(0);
  if (group < 1 || channels % group != 0 || features % group != 0 ||
      wt.getDimSize(1) * group != channels)
    return c.error("group " + Twine(group) + " does not fit " +
                   Twine(channels) + " input channels, " + Twine(features) +
                   " output features and " + Twine(wt.getDimSize(1)) +
                   " channels per group in the weight");
  ArrayRef<int64_t> kernel = wt.getShape().drop_front(2);
  SmallVector<int64_t> declared = c.intsAttr("kernel_shape");
  if (!declared.empty() && ArrayRef<int64_t>(declared) != kernel)
    return c.error("kernel_shape does not match the weight's spatial dims");
  ASSIGN_OR_FAIL(WindowAttrs a, readWindow(c, xt, kernel, true));
  ASSIGN_OR_FAIL(SmallVector<int64_t> shape, windowShape(c, xt, features, a));
  Builder b(c.getContext());
  auto op = c.buildTyped<g::ConvOp>(
      RankedTensorType::get(shape, xt.getElementType()), x, w, bias,
      b.getDenseI64ArrayAttr(a.strides), b.getDenseI64ArrayAttr(a.padsBegin),
      b.getDenseI64ArrayAttr(a.padsEnd), b.getDenseI64ArrayAttr(a.dilations),
      b.getI64IntegerAttr(group));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

/// ConvTranspose as graph.conv_transpose: the output sizes from the pads
/// and output_padding, or the pads from output_shape / auto_pad, as ONNX
/// defines them: total padding = stride (X - 1) + output_padding + span -
/// output size, split begin/end by auto_pad.
LogicalResult importConvTranspose(NodeContext &c) {
  ASSIGN_OR_FAIL(ConvOperands o, readConvOperands(c));
  Value x = o.x, w = o.w, bias = o.bias;
  RankedTensorType xt = o.xt, wt = o.wt;
  const int64_t rank = xt.getRank() - 2;
  if (rank < 1 || rank > 3)
    return c.unsupported("an input of rank " + Twine(xt.getRank()) +
                         " (1 to 3 spatial dims after [N, C])");
  const int64_t group = c.intAttr("group", 1);
  const int64_t channels = xt.getDimSize(1);
  if (group < 1 || wt.getDimSize(0) != channels || channels % group != 0)
    return c.error("group " + Twine(group) + " and the weight's " +
                   Twine(wt.getDimSize(0)) + " input channels do not fit " +
                   Twine(channels) + " input channels");
  const int64_t features = wt.getDimSize(1) * group;
  ArrayRef<int64_t> kernel = wt.getShape().drop_front(2);
  SmallVector<int64_t> declared = c.intsAttr("kernel_shape");
  if (!declared.empty() && ArrayRef<int64_t>(declared) != kernel)
    return c.error("kernel_shape does not match the weight's spatial dims");
  SmallVector<int64_t> strides, dilations, outputPadding;
  if (failed(readPerDim(c, "strides", rank, 1, strides)) ||
      failed(readPerDim(c, "dilations", rank, 1, dilations)) ||
      failed(readPerDim(c, "output_padding", rank, 0, outputPadding)))
    return failure();
  ASSIGN_OR_FAIL(std::string autoPad, readAutoPad(c));
  SmallVector<int64_t> outputShape = c.intsAttr("output_shape");
  if (int64_t(outputShape.size()) == rank + 2)
    outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
  if (!outputShape.empty() && int64_t(outputShape.size()) != rank)
    return c.error("output_shape has " + Twine(outputShape.size()) +
                   " values for " + Twine(rank) + " spatial dims");
  SmallVector<int64_t> pads = c.intsAttr("pads");
  if (pads.empty())
    pads.assign(2 * rank, 0);
  if (int64_t(pads.size()) != 2 * rank)
    return c.error("pads has " + Twine(pads.size()) + " values for " +
                   Twine(rank) + " spatial dims");
  SmallVector<int64_t> padsBegin, padsEnd, shape = {xt.getDimSize(0), features};
  for (int64_t d = 0; d < rank; ++d) {
    if (strides[d] < 1 || dilations[d] < 1 || kernel[d] < 1)
      return c.error("strides, dilations and kernel sizes must be >= 1");
    if (outputPadding[d] < 0 || outputPadding[d] >= strides[d])
      return c.unsupported("output_padding " + Twine(outputPadding[d]) +
                           " outside [0, stride)");
    const int64_t in = xt.getDimSize(2 + d);
    const int64_t full =
        strides[d] * (in - 1) + outputPadding[d] +
        g::windowExtent(in, kernel[d], 1, 0, 0, dilations[d]).span;
    int64_t begin = pads[d], end = pads[rank + d];
    if (!outputShape.empty() ||
        (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
      const int64_t out =
          outputShape.empty() ? in * strides[d] : outputShape[d];
      const int64_t total = full - out;
      if (total < 0) {
        // Positions past the last window (an implied output_padding) get
        // only the bias.
        if (outputPadding[d] - total >= strides[d])
          return c.unsupported("an output size " + Twine(out) +
                               " beyond the transposed convolution's " +
                               Twine(full) + " + stride - 1");
        padsBegin.push_back(0);
        padsEnd.push_back(0);
        shape.push_back(out);
        continue;
      }
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "VALID") {
      begin = end = 0;
    }
    if (begin < 0 || end < 0)
      return c.error("pads must be non-negative");
    if (full - begin - end < 1)
      return c.error("spatial dim " + Twine(d) +
                     ": the pads remove the "
                     "whole output");
    padsBegin.push_back(begin);
    padsEnd.push_back(end);
    shape.push_back(full - begin - end);
  }
  Builder b(c.getContext());
  auto op = c.buildTyped<g::ConvTransposeOp>(
      RankedTensorType::get(shape, xt.getElementType()), x, w, bias,
      b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(padsBegin),
      b.getDenseI64ArrayAttr(padsEnd), b.getDenseI64ArrayAttr(dilations),
      b.getI64IntegerAttr(group));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

template <bool Average> LogicalResult importPool(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto xt = tensorType(x);
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("a non-float input");
  if (c.intAttr("ceil_mode", 0) != 0)
    return c.unsupported("ceil_mode 1");
  if (!Average && c.hasOutput(1))
    return c.unsupported("MaxPool's Indices output");
  if (!Average && c.intAttr("storage_order", 0) != 0)
    return c.unsupported("storage_order 1");
  SmallVector<int64_t> kernel = c.intsAttr("kernel_shape");
  if (int64_t(kernel.size()) != xt.getRank() - 2)
    return c.error("kernel_shape has " + Twine(kernel.size()) +
                   " values for an input of rank " + Twine(xt.getRank()));
  ASSIGN_OR_FAIL(WindowAttrs a, readWindow(c, xt, kernel, false));
  for (size_t d = 0; d < kernel.size(); ++d)
    if (a.padsBegin[d] >= kernel[d] || a.padsEnd[d] >= kernel[d])
      return c.error("pads must be smaller than the kernel");
  ASSIGN_OR_FAIL(SmallVector<int64_t> shape,
                 windowShape(c, xt, xt.getDimSize(1), a));
  Builder b(c.getContext());
  auto op = c.buildTyped<g::PoolOp>(
      RankedTensorType::get(shape, xt.getElementType()), x,
      b.getStringAttr(Average ? "avg" : "max"),
      b.getDenseI64ArrayAttr(a.kernel), b.getDenseI64ArrayAttr(a.strides),
      b.getDenseI64ArrayAttr(a.padsBegin), b.getDenseI64ArrayAttr(a.padsEnd),
      b.getBoolAttr(Average && c.intAttr("count_include_pad", 0) != 0));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

/// GlobalAveragePool / GlobalMaxPool: a reduction over the spatial dims,
/// kept.
template <typename ReduceOp> LogicalResult importGlobalPool(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto xt = tensorType(x);
  if (xt.getRank() < 3)
    return c.error("requires [N, C, spatial...], got rank " +
                   Twine(xt.getRank()));
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < xt.getRank(); ++d)
    axes.push_back(d);
  ASSIGN_OR_FAIL(Value y, c.build<ReduceOp>(x, axes, true));
  c.setOutput(0, y);
  return success();
}

/// The running statistic `stored` (input 3 or 4) updated with the batch's
/// `current` [C]: stored * momentum + current * (1 - momentum), as ONNX's
/// training mode defines it. It becomes output `index` and, when the
/// statistic is a model buffer (an initializer, so a graph.weight), that
/// buffer's next value (graph.assign): the model's state, which training
/// keeps and checkpoints, and which is not trained.
static LogicalResult updateRunningStatistic(NodeContext &c, unsigned index,
                                            Value current, double momentum) {
  ASSIGN_OR_FAIL(Value stored, c.input(index + 2));
  ASSIGN_OR_FAIL(Value batch, c.castTo(current, elementType(stored)));
  ASSIGN_OR_FAIL(batch, c.reshapeTo(batch, tensorType(stored).getShape()));
  ASSIGN_OR_FAIL(Value kept, binary<g::MulOp>(
                                 c, stored, scalarLike(c, stored, momentum)));
  ASSIGN_OR_FAIL(Value added,
                 binary<g::MulOp>(c, batch, scalarLike(c, stored, 1 - momentum)));
  ASSIGN_OR_FAIL(Value next, binary<g::AddOp>(c, kept, added));
  if (c.hasOutput(index))
    c.setOutput(index, next);
  if (auto buffer = stored.getDefiningOp<g::WeightOp>()) {
    if (buffer.getOffsets())
      return c.unsupported("a running statistic that is a parameter block");
    if (failed(c.buildTyped<g::AssignOp>(TypeRange(), buffer.getNameAttr(),
                                         next, DenseI64ArrayAttr())))
      return failure();
  }
  return success();
}

/// BatchNormalization per channel (dim 1). Inference: y = (x - mean) *
/// (scale / sqrt(var + epsilon)) + bias with the running statistics as the
/// model stores them. Training mode: the batch's mean and (biased)
/// variance over every dim but the channels normalize instead, and the
/// running statistics are updated (updateRunningStatistic).
LogicalResult importBatchNormalization(NodeContext &c) {
  const bool training = c.intAttr("training_mode", 0) != 0;
  if (!training && c.numOutputs() > 1 && (c.hasOutput(1) || c.hasOutput(2)))
    return c.error("the running-statistics outputs need training_mode = 1");
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto xt = tensorType(x);
  if (xt.getRank() < 2)
    return c.error("requires [N, C, ...], got rank " + Twine(xt.getRank()));
  // [C] -> [C, 1, ..., 1], broadcasting against dims 1.. of x.
  SmallVector<int64_t> channelShape(xt.getRank() - 1, 1);
  channelShape[0] = xt.getDimSize(1);
  SmallVector<Value> params;
  for (unsigned i = 1; i <= 4; ++i) {
    ASSIGN_OR_FAIL(Value p, c.input(i));
    if (tensorType(p).getNumElements() != xt.getDimSize(1))
      return c.error("input " + Twine(i) + " must have the " +
                     Twine(xt.getDimSize(1)) + " channels' values");
    ASSIGN_OR_FAIL(Value cast, c.castTo(p, xt.getElementType()));
    ASSIGN_OR_FAIL(Value shaped, c.reshapeTo(cast, channelShape));
    params.push_back(shaped);
  }
  Value scale = params[0], bias = params[1], mean = params[2], var = params[3];
  if (!training) {
    // The running statistics are data the model reads, not parameters.
    auto *dialect = c.getContext()->getLoadedDialect<g::GraphDialect>();
    for (unsigned i : {3u, 4u}) {
      ASSIGN_OR_FAIL(Value stored, c.input(i));
      if (auto buffer = stored.getDefiningOp<g::WeightOp>())
        dialect->getBufferAttrHelper().setAttr(
            buffer, c.b.getStringAttr("BatchNorm running statistics"));
    }
  }
  Value centered;
  if (training) {
    SmallVector<int64_t> axes = {0};
    for (int64_t d = 2; d < xt.getRank(); ++d)
      axes.push_back(d);
    ASSIGN_OR_FAIL(Moments batch, momentsOver(c, x, axes));
    mean = batch.mean;
    centered = batch.centered;
    var = batch.var;
    double momentum = c.floatAttr("momentum", 0.9);
    if (failed(updateRunningStatistic(c, 1, mean, momentum)) ||
        failed(updateRunningStatistic(c, 2, var, momentum)))
      return failure();
  } else {
    ASSIGN_OR_FAIL(centered, binary<g::SubOp>(c, x, mean));
  }
  double epsilon = c.floatAttr("epsilon", 1e-5);
  ASSIGN_OR_FAIL(Value ve,
                 binary<g::AddOp>(c, var, scalarLike(c, var, epsilon)));
  ASSIGN_OR_FAIL(Value inv, unary<g::RsqrtOp>(c, ve));
  ASSIGN_OR_FAIL(Value factor, binary<g::MulOp>(c, scale, inv));
  ASSIGN_OR_FAIL(Value scaled, binary<g::MulOp>(c, centered, factor));
  ASSIGN_OR_FAIL(Value y, binary<g::AddOp>(c, scaled, bias));
  c.setOutput(0, y);
  return success();
}

} // namespace

void mlir::paracc::onnximport::registerConvolutionRules(RuleTable &t) {
  t.add("Conv", 1, importConv);
  t.add("ConvTranspose", 1, importConvTranspose);
  t.add("MaxPool", 1, importPool<false>);
  t.add("AveragePool", 1, importPool<true>);
  t.add("GlobalAveragePool", 1, importGlobalPool<g::ReduceMeanOp>);
  t.add("GlobalMaxPool", 1, importGlobalPool<g::ReduceMaxOp>);
  t.add("BatchNormalization", 9, importBatchNormalization);
}
