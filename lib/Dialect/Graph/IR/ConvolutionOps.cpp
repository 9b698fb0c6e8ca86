//===- ConvolutionOps.cpp - Verifiers of the window ops ---------*- C++ -*-===//
//
// graph.conv, graph.conv_transpose, graph.pool and their gradients
// (graph.conv_weight_grad, graph.pool_grad): sizes and attributes checked
// against ONNX's definitions, every op against the convolution or pooling
// it belongs to; the negative lit tests are in
// test/Dialect/Graph/conv-invalid.mlir.
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

/// The convolution of `in` [N, C, S...] by a weight of shape `w` [M, C /
/// group, K...]: its attributes and channels checked, the result's shape
/// [N, M, O...]. `inName` and `wName` name the two in messages.
static FailureOr<SmallVector<int64_t>>
convolutionShape(Operation *op, RankedTensorType in, RankedTensorType w,
                 StringRef inName, StringRef wName, int64_t group,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> padsBegin,
                 ArrayRef<int64_t> padsEnd, ArrayRef<int64_t> dilations) {
  if (w.getRank() != in.getRank())
    return op->emitOpError("requires a ")
           << wName << " of the " << inName << "'s rank " << in.getRank()
           << " ([M, C / group, kernel...]), got " << w;
  if (w.getElementType() != in.getElementType())
    return op->emitOpError("requires one element type for operands and "
                           "result");
  if (in.getRank() < 2)
    return op->emitOpError("requires ")
           << inName << " [N, C, spatial...], got " << in;
  const int64_t channels = in.getDimSize(1), features = w.getDimSize(0);
  if (group < 1 || channels % group != 0 || features % group != 0 ||
      w.getDimSize(1) * group != channels)
    return op->emitOpError("group ")
           << group << " must divide the " << channels << " channels of the "
           << inName << " and the " << features << " output features, with "
           << "channels / group input channels in the " << wName << " " << w;
  return windowResultShape(op, in, features, w.getShape().drop_front(2),
                           strides, padsBegin, padsEnd, dilations);
}

/// `type`'s element type and shape are `elementType` and `shape`.
static LogicalResult expectShape(Operation *op, StringRef name,
                                 RankedTensorType type, Type elementType,
                                 ArrayRef<int64_t> shape) {
  if (type.getElementType() != elementType)
    return op->emitOpError("requires one element type for operands and "
                           "result");
  if (type.getShape() != shape)
    return op->emitOpError()
           << name << " must be " << RankedTensorType::get(shape, elementType)
           << ", got " << type;
  return success();
}

/// An optional bias of `features` values.
static LogicalResult verifyBias(Operation *op, Value bias, int64_t features,
                                Type elementType) {
  if (!bias)
    return success();
  auto type = cast<RankedTensorType>(bias.getType());
  if (type.getElementType() != elementType)
    return op->emitOpError("requires one element type for operands and "
                           "result");
  if (type.getRank() != 1 || type.getDimSize(0) != features)
    return op->emitOpError("requires a bias of the ")
           << features << " output features, got " << type;
  return success();
}

LogicalResult ConvOp::verify() {
  RankedTensorType x = getX().getType(), w = getW().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  FailureOr<SmallVector<int64_t>> shape = convolutionShape(
      *this, x, w, "operand", "weight", getGroup(), getStrides(),
      getPadsBegin(), getPadsEnd(), getDilations());
  if (failed(shape) ||
      failed(verifyBias(*this, getBias(), w.getDimSize(0), x.getElementType())))
    return failure();
  return expectShape(*this, "result", result, x.getElementType(), *shape);
}

LogicalResult ConvTransposeOp::verify() {
  RankedTensorType x = getX().getType(), w = getW().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (result.getRank() != x.getRank() || result.getRank() < 2 ||
      result.getElementType() != x.getElementType())
    return emitOpError("requires a result of the operand's rank and element "
                       "type, got ")
           << result;
  // The convolution this op transposes maps the result's shape to x's.
  FailureOr<SmallVector<int64_t>> shape = convolutionShape(
      *this, result, w, "result", "weight", getGroup(), getStrides(),
      getPadsBegin(), getPadsEnd(), getDilations());
  if (failed(shape) || failed(verifyBias(*this, getBias(), result.getDimSize(1),
                                         x.getElementType())))
    return failure();
  return expectShape(*this, "operand (the convolution of the result's shape)",
                     x, x.getElementType(), *shape);
}

LogicalResult ConvWeightGradOp::verify() {
  RankedTensorType x = getX().getType(), dy = getDy().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  FailureOr<SmallVector<int64_t>> shape = convolutionShape(
      *this, x, result, "operand", "result", getGroup(), getStrides(),
      getPadsBegin(), getPadsEnd(), getDilations());
  if (failed(shape))
    return failure();
  return expectShape(*this, "dy (the convolution's result)", dy,
                     x.getElementType(), *shape);
}

/// A pool's attributes checked against `x`; the result's shape.
static FailureOr<SmallVector<int64_t>>
poolShape(Operation *op, RankedTensorType x, StringRef kind,
          ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
          ArrayRef<int64_t> padsBegin, ArrayRef<int64_t> padsEnd) {
  if (kind != "max" && kind != "avg")
    return op->emitOpError("kind must be \"max\" or \"avg\", got \"")
           << kind << "\"";
  const int64_t rank = x.getRank() - 2;
  if (rank >= 1 && int64_t(kernel.size()) != rank)
    return op->emitOpError("requires ")
           << rank << " kernel sizes (one per spatial dim), got "
           << kernel.size();
  SmallVector<int64_t> ones(std::max<int64_t>(rank, 0), 1);
  FailureOr<SmallVector<int64_t>> shape =
      windowResultShape(op, x, x.getRank() >= 2 ? x.getDimSize(1) : 0, kernel,
                        strides, padsBegin, padsEnd, ones);
  if (failed(shape))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (padsBegin[d] >= kernel[d] || padsEnd[d] >= kernel[d])
      return op->emitOpError(
                 "requires pads smaller than the kernel; spatial dim ")
             << d << " has kernel " << kernel[d] << " and pads " << padsBegin[d]
             << ", " << padsEnd[d];
  return shape;
}

LogicalResult PoolOp::verify() {
  RankedTensorType x = getX().getType();
  FailureOr<SmallVector<int64_t>> shape =
      poolShape(*this, x, getKind(), getKernel(), getStrides(), getPadsBegin(),
                getPadsEnd());
  if (failed(shape))
    return failure();
  return expectShape(*this, "result",
                     cast<RankedTensorType>(getResult().getType()),
                     x.getElementType(), *shape);
}

LogicalResult PoolGradOp::verify() {
  RankedTensorType x = getX().getType();
  FailureOr<SmallVector<int64_t>> shape =
      poolShape(*this, x, getKind(), getKernel(), getStrides(), getPadsBegin(),
                getPadsEnd());
  if (failed(shape) ||
      failed(expectShape(*this, "dy (the pool's result)", getDy().getType(),
                         x.getElementType(), *shape)))
    return failure();
  return expectShape(*this, "result (the operand's gradient)",
                     cast<RankedTensorType>(getResult().getType()),
                     x.getElementType(), x.getShape());
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
