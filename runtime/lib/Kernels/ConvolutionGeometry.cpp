//===- ConvolutionGeometry.cpp - Conv and Pool operand checks -------------===//

#include "Kernels/ConvolutionGeometry.h"

namespace paracc::rt {

namespace {

/// Reads the window attributes (`window`, `rank` values each: the kernel
/// (Pool's; Conv's comes from the weight), strides, pads_begin, pads_end and
/// the dilations (Conv's; Pool's are 1)), checks them and computes the
/// output sizes and the positions' strides.
Status readWindow(const KernelArgs &args, const Tensor &x,
                  const std::vector<int64_t> &window, bool hasKernelAttr,
                  bool hasDilations, ConvGeometry &g) {
  const int64_t r = g.rank;
  size_t at = 0;
  auto next = [&](std::array<int64_t, ConvGeometry::kMaxRank> &dst) {
    for (int64_t d = 0; d < r; ++d)
      dst[d] = window[at++];
  };
  if (hasKernelAttr)
    next(g.kernel);
  next(g.strides);
  next(g.padsBegin);
  next(g.padsEnd);
  if (hasDilations)
    next(g.dilations);
  else
    g.dilations.fill(1);
  for (int64_t d = 0; d < r; ++d) {
    g.in[d] = x.shape()[2 + d];
    if (g.kernel[d] < 1 || g.strides[d] < 1 || g.dilations[d] < 1 ||
        g.padsBegin[d] < 0 || g.padsEnd[d] < 0)
      return args.fail("spatial dim ", d, ": kernel ", g.kernel[d], ", stride ",
                       g.strides[d], ", dilation ", g.dilations[d],
                       " must be >= 1 and pads ", g.padsBegin[d], ", ",
                       g.padsEnd[d], " >= 0");
    const int64_t span = g.dilations[d] * (g.kernel[d] - 1) + 1;
    const int64_t padded = g.in[d] + g.padsBegin[d] + g.padsEnd[d];
    if (padded < span)
      return args.fail("spatial dim ", d, ": the window (", span,
                       ") is larger than the padded input (", padded, ")");
    g.out[d] = (padded - span) / g.strides[d] + 1;
  }
  for (int64_t d = r - 1; d >= 0; --d) {
    g.inStride[d] = g.inSize;
    g.outStride[d] = g.outSize;
    g.kernelStride[d] = g.kernelSize;
    g.inSize *= g.in[d];
    g.outSize *= g.out[d];
    g.kernelSize *= g.kernel[d];
  }
  return Status::ok();
}

/// x [N, C, S_1..S_r] with r in 1..3, and `window` holding `groups` of r
/// after the layout's `fixed` leading ints.
Status readRank(const KernelArgs &args, const Tensor &x, size_t fixed,
                const std::vector<int64_t> &window, size_t groups,
                ConvGeometry &g) {
  if (x.rank() < 3 || x.rank() > 2 + ConvGeometry::kMaxRank)
    return args.fail("operand must be [N, C, spatial...] with 1 to 3 "
                     "spatial dims, got ",
                     x.typeString());
  g.rank = x.rank() - 2;
  g.batch = x.shape()[0];
  g.channels = x.shape()[1];
  return args.checkIntCount(fixed + groups * size_t(g.rank),
                            fixed + window.size());
}

/// `t` is [N, features, O_1..O_r] of `like`'s type.
Status checkWindowShape(const KernelArgs &args, const Tensor &t,
                        const Tensor &like, const ConvGeometry &g,
                        const char *what) {
  Shape shape = {g.batch, g.features};
  for (int64_t d = 0; d < g.rank; ++d)
    shape.push_back(g.out[d]);
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, like.dtype(), what));
  return args.checkShape(t, shape, what);
}

/// The convolution of `in` by a weight shaped as `w` (Conv's frame: the
/// operand, the weight, and `out` its result, named `outName`), with the
/// attributes of Conv.
Status convolutionFrame(const KernelArgs &args, const Tensor &in,
                        const Tensor &w, const Tensor &out, const char *outName,
                        ConvGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(w, in.dtype(), "weight"));
  const ConvAttrs &attrs = args.attrsAs<ConvAttrs>();
  PARACC_RETURN_IF_ERROR(readRank(args, in, 1, attrs.window, 4, g));
  g.groups = attrs.groups;
  if (w.rank() != in.rank())
    return args.fail("weight ", w.typeString(),
                     " must have the operand's rank ", in.rank());
  g.features = w.shape()[0];
  if (g.groups < 1 || g.channels % g.groups != 0 ||
      g.features % g.groups != 0 || w.shape()[1] * g.groups != g.channels)
    return args.fail("group ", g.groups, " must divide the ", g.channels,
                     " input channels and the ", g.features,
                     " output features, and the weight ", w.typeString(),
                     " must have channels / group input channels");
  for (int64_t d = 0; d < g.rank; ++d)
    g.kernel[d] = w.shape()[2 + d];
  PARACC_RETURN_IF_ERROR(readWindow(args, in, attrs.window, false, true, g));
  return checkWindowShape(args, out, in, g, outName);
}

Status checkBias(const KernelArgs &args, const Tensor &like, int64_t count) {
  if (args.in.size() < 3)
    return Status::ok();
  const Tensor &bias = *args.in[2];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(bias, like.dtype(), "bias"));
  return args.checkShape(bias, {count}, "bias");
}

} // namespace

Status checkConv(const KernelArgs &args, OperandTypeCheck checkType,
                 ConvGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 3, 1));
  const Tensor &x = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(
      convolutionFrame(args, x, *args.in[1], *args.out[0], "result", g));
  return checkBias(args, x, g.features);
}

Status checkConvTranspose(const KernelArgs &args, OperandTypeCheck checkType,
                          ConvGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 3, 1));
  const Tensor &x = *args.in[0], &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  // The convolution this transposes maps the result's shape to x's.
  PARACC_RETURN_IF_ERROR(
      convolutionFrame(args, y, *args.in[1], x, "operand", g));
  return checkBias(args, x, g.channels);
}

Status checkConvWeightGrad(const KernelArgs &args, OperandTypeCheck checkType,
                           ConvGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  const Tensor &x = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[0], x.dtype(), "result"));
  return convolutionFrame(args, x, *args.out[0], *args.in[1], "dy", g);
}

namespace {

/// Pool's attributes and geometry for operand `x`.
Status poolFrame(const KernelArgs &args, const Tensor &x, ConvGeometry &g,
                 bool &average, bool &countPadding) {
  const PoolAttrs &attrs = args.attrsAs<PoolAttrs>();
  PARACC_RETURN_IF_ERROR(readRank(args, x, 2, attrs.window, 4, g));
  average = attrs.average;
  countPadding = attrs.countIncludePad;
  g.features = g.channels;
  return readWindow(args, x, attrs.window, true, false, g);
}

} // namespace

Status checkPool(const KernelArgs &args, OperandTypeCheck checkType,
                 ConvGeometry &g, bool &average, bool &countPadding) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(poolFrame(args, x, g, average, countPadding));
  return checkWindowShape(args, *args.out[0], x, g, "result");
}

Status checkPoolGrad(const KernelArgs &args, OperandTypeCheck checkType,
                     ConvGeometry &g, bool &average, bool &countPadding) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  const Tensor &x = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(poolFrame(args, x, g, average, countPadding));
  PARACC_RETURN_IF_ERROR(checkWindowShape(args, *args.in[1], x, g, "dy"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[0], x.dtype(), "result"));
  return args.checkShape(*args.out[0], x.shape(), "result");
}

} // namespace paracc::rt
