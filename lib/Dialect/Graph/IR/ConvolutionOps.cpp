//===- ConvolutionOps.cpp - graph.conv and graph.pool verifiers -*- C++ -*-===//
//
// The window ops' sizes and attributes checked against ONNX's definitions;
// the negative lit tests are in test/Dialect/Graph/conv-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::paracc::graph;

/// O = (S + pads - span) / stride + 1 per spatial dim of `x`, after checking
/// the window attributes; the result's expected shape [N, features, O...].
static FailureOr<SmallVector<int64_t>>
windowResultShape(Operation *op, RankedTensorType x, int64_t features,
                  ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                  ArrayRef<int64_t> padsBegin, ArrayRef<int64_t> padsEnd,
                  ArrayRef<int64_t> dilations) {
  const int64_t rank = x.getRank() - 2;
  if (rank < 1 || rank > 3)
    return op->emitOpError("requires an operand [N, C, spatial...] with 1 "
                           "to 3 spatial dims, got ")
           << x;
  for (auto [name, values] : {std::make_pair("strides", strides),
                              std::make_pair("pads_begin", padsBegin),
                              std::make_pair("pads_end", padsEnd),
                              std::make_pair("dilations", dilations)})
    if (int64_t(values.size()) != rank)
      return op->emitOpError("requires ")
             << rank << " " << name << " (one per spatial dim), got "
             << values.size();
  SmallVector<int64_t> shape = {x.getDimSize(0), features};
  for (int64_t d = 0; d < rank; ++d) {
    if (strides[d] < 1 || dilations[d] < 1 || kernel[d] < 1)
      return op->emitOpError("requires kernel sizes, strides and dilations "
                             ">= 1; spatial dim ")
             << d << " has kernel " << kernel[d] << ", stride " << strides[d]
             << ", dilation " << dilations[d];
    if (padsBegin[d] < 0 || padsEnd[d] < 0)
      return op->emitOpError("requires non-negative pads; spatial dim ")
             << d << " has " << padsBegin[d] << ", " << padsEnd[d];
    WindowExtent e = windowExtent(x.getDimSize(2 + d), kernel[d], strides[d],
                                  padsBegin[d], padsEnd[d], dilations[d]);
    if (!e.fits())
      return op->emitOpError("spatial dim ")
             << d << ": the window (" << e.span
             << ") is larger than the padded input (" << e.padded << ")";
    shape.push_back(e.out);
  }
  return shape;
}

LogicalResult ConvOp::verify() {
  RankedTensorType x = getX().getType(), w = getW().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (w.getRank() != x.getRank())
    return emitOpError("requires a weight of the operand's rank ")
           << x.getRank() << " ([M, C / group, kernel...]), got " << w;
  if (w.getElementType() != x.getElementType() ||
      result.getElementType() != x.getElementType() ||
      (getBias() &&
       cast<RankedTensorType>(getBias().getType()).getElementType() !=
           x.getElementType()))
    return emitOpError("requires one element type for operand, weight, bias "
                       "and result");
  const int64_t group = getGroup(), channels = x.getDimSize(1),
                features = w.getDimSize(0);
  if (group < 1 || channels % group != 0 || features % group != 0 ||
      w.getDimSize(1) * group != channels)
    return emitOpError("group ")
           << group << " must divide the " << channels
           << " input channels and the " << features
           << " output features, with channels / group input channels in "
              "the weight "
           << w;
  if (getBias()) {
    auto bias = cast<RankedTensorType>(getBias().getType());
    if (bias.getRank() != 1 || bias.getDimSize(0) != features)
      return emitOpError("requires a bias of the ")
             << features << " output features, got " << bias;
  }
  FailureOr<SmallVector<int64_t>> shape = windowResultShape(
      *this, x, features, w.getShape().drop_front(2), getStrides(),
      getPadsBegin(), getPadsEnd(), getDilations());
  if (failed(shape))
    return failure();
  if (result.getShape() != ArrayRef<int64_t>(*shape))
    return emitOpError("result must be ")
           << RankedTensorType::get(*shape, x.getElementType()) << ", got "
           << result;
  return success();
}

LogicalResult PoolOp::verify() {
  RankedTensorType x = getX().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (getKind() != "max" && getKind() != "avg")
    return emitOpError("kind must be \"max\" or \"avg\", got \"")
           << getKind() << "\"";
  if (result.getElementType() != x.getElementType())
    return emitOpError("requires the operand's element type for the result");
  const int64_t rank = x.getRank() - 2;
  if (rank >= 1 && int64_t(getKernel().size()) != rank)
    return emitOpError("requires ")
           << rank << " kernel sizes (one per spatial dim), got "
           << getKernel().size();
  SmallVector<int64_t> ones(std::max<int64_t>(rank, 0), 1);
  FailureOr<SmallVector<int64_t>> shape = windowResultShape(
      *this, x, x.getRank() >= 2 ? x.getDimSize(1) : 0, getKernel(),
      getStrides(), getPadsBegin(), getPadsEnd(), ones);
  if (failed(shape))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (getPadsBegin()[d] >= getKernel()[d] ||
        getPadsEnd()[d] >= getKernel()[d])
      return emitOpError("requires pads smaller than the kernel; spatial dim ")
             << d << " has kernel " << getKernel()[d] << " and pads "
             << getPadsBegin()[d] << ", " << getPadsEnd()[d];
  if (result.getShape() != ArrayRef<int64_t>(*shape))
    return emitOpError("result must be ")
           << RankedTensorType::get(*shape, x.getElementType()) << ", got "
           << result;
  return success();
}

WindowExtent mlir::paracc::graph::windowExtent(int64_t in, int64_t kernel,
                                               int64_t stride,
                                               int64_t padsBegin,
                                               int64_t padsEnd,
                                               int64_t dilation) {
  WindowExtent e;
  e.span = dilation * (kernel - 1) + 1;
  e.padded = in + padsBegin + padsEnd;
  if (e.fits())
    e.out = (e.padded - e.span) / stride + 1;
  return e;
}
