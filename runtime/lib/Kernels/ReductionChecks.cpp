//===- ReductionChecks.cpp - Operand checks of the reducing ops -----------===//

#include "Kernels/ReductionChecks.h"

#include <cmath>

namespace paracc::rt {

/// The operand's dims around `axis` in `split`.
static void splitAround(const Tensor &x, int64_t axis, AxisSplit &split) {
  split.axis = axis;
  split.outer = split.inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    split.outer *= x.dim(d);
  for (int64_t d = axis + 1; d < x.rank(); ++d)
    split.inner *= x.dim(d);
}

Status checkReduce(const KernelArgs &args, std::vector<bool> &reduced) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  const ReduceSumAttrs &attrs = args.attrsAs<ReduceSumAttrs>();
  const std::vector<int64_t> &axes = attrs.axes;
  reduced.assign(x.rank(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= x.rank())
      return args.fail("axis ", axes[i], " is out of range for rank ",
                       x.rank());
    if (i > 0 && axes[i] <= axes[i - 1])
      return args.fail("axes must be sorted and unique, got ",
                       shapeToString(axes));
    reduced[axes[i]] = true;
  }
  Shape shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (!reduced[d])
      shape.push_back(x.dim(d));
    else if (attrs.keepDims)
      shape.push_back(1);
  }
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  return args.checkShape(y, shape, "result");
}

/// `x` viewed as [outer, c, inner] along `axis`, into `scan`.
static void scanAlong(const Tensor &x, int64_t axis, AxisScan &scan) {
  AxisSplit split;
  splitAround(x, axis, split);
  scan.outer = split.outer;
  scan.inner = split.inner;
  scan.c = x.dim(axis);
}

Status checkArgReduce(const KernelArgs &args, OperandTypeCheck checkType,
                      AxisScan &scan) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const ArgMaxAttrs &attrs = args.attrsAs<ArgMaxAttrs>();
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::All, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, DType::I64, "result"));
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  int64_t axis;
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(attrs.axis, x.rank(), axis));
  Shape shape = x.shape();
  if (attrs.keepDims)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  PARACC_RETURN_IF_ERROR(args.checkShape(y, shape, "result"));
  // A result with elements needs something to pick from.
  if (y.numElements() != 0 && x.dim(axis) == 0)
    return args.fail("cannot reduce an empty dimension");
  scan.x = &x;
  scan.y = args.out[0];
  scanAlong(x, axis, scan);
  scan.isMax = args.op == OpCode::ArgMax;
  scan.selectLast = attrs.selectLastIndex;
  return Status::ok();
}

Status checkTopK(const KernelArgs &args, OperandTypeCheck checkType,
                 AxisScan &scan) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 2));
  const TopKAttrs &attrs = args.attrsAs<TopKAttrs>();
  const Tensor &x = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::All, "operand"));
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  int64_t axis;
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(attrs.axis, x.rank(), axis));
  if (attrs.k < 0 || attrs.k > x.dim(axis))
    return args.fail("k = ", attrs.k, " is out of range for dim ", axis, " of ",
                     x.typeString());
  Shape shape = x.shape();
  shape[axis] = attrs.k;
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[0], x.dtype(), "values"));
  PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[0], shape, "values"));
  PARACC_RETURN_IF_ERROR(
      args.checkDTypeIs(*args.out[1], DType::I64, "indices"));
  PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[1], shape, "indices"));
  scan.x = &x;
  scan.y = args.out[0];
  scan.indices = args.out[1];
  scanAlong(x, axis, scan);
  scan.k = attrs.k;
  scan.largest = attrs.largest;
  return Status::ok();
}

Status checkCumSum(const KernelArgs &args, OperandTypeCheck checkType,
                   AxisScan &scan) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Numeric, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  const CumSumAttrs &attrs = args.attrsAs<CumSumAttrs>();
  int64_t axis;
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(attrs.axis, x.rank(), axis));
  scan.x = &x;
  scan.y = args.out[0];
  scanAlong(x, axis, scan);
  scan.exclusive = attrs.exclusive;
  scan.reverse = attrs.reverse;
  return Status::ok();
}

Status checkNorm(const KernelArgs &args, OperandTypeCheck checkType,
                 NormProblem &norm) {
  const bool isLayerNorm = args.op == OpCode::LayerNorm;
  PARACC_RETURN_IF_ERROR(isLayerNorm ? args.checkArity(2, 3, 1)
                                     : args.checkArity(2, 2, 1));
  const LayerNormAttrs &attrs = args.attrsAs<LayerNormAttrs>();
  const Tensor &x = *args.in[0];
  const Tensor &scale = *args.in[1];
  const Tensor *bias = args.in.size() > 2 ? args.in[2] : nullptr;
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(scale, x.dtype(), "scale"));
  if (bias)
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*bias, x.dtype(), "bias"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  PARACC_RETURN_IF_ERROR(args.checkIntIn(attrs.axis, 0, x.rank() - 1, "axis"));
  const double eps = attrs.epsilon;
  if (!(eps >= 0.0) || std::isinf(eps))
    return args.fail("epsilon must be finite and non-negative, got ", eps);
  const int64_t axis = attrs.axis;
  const Shape normShape(x.shape().begin() + axis, x.shape().end());
  if (!broadcastsTo(scale.shape(), normShape))
    return args.fail("scale ", scale.typeString(),
                     " does not broadcast to the normalized shape ",
                     shapeToString(normShape));
  if (bias && !broadcastsTo(bias->shape(), normShape))
    return args.fail("bias ", bias->typeString(),
                     " does not broadcast to the normalized shape ",
                     shapeToString(normShape));
  norm.x = &x;
  norm.scale = &scale;
  norm.bias = bias;
  norm.y = args.out[0];
  norm.isLayerNorm = isLayerNorm;
  norm.eps = eps;
  norm.d = shapeNumElements(normShape);
  norm.normShape = normShape;
  return Status::ok();
}

Status checkSoftmax(const KernelArgs &args, OperandTypeCheck checkType,
                    AxisScan &scan) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  const int64_t axis = args.attrsAs<SoftmaxAttrs>().axis;
  PARACC_RETURN_IF_ERROR(args.checkIntIn(axis, 0, x.rank() - 1, "axis"));
  scan.x = &x;
  scan.y = args.out[0];
  scanAlong(x, axis, scan);
  scan.isLog = args.op == OpCode::LogSoftmax;
  return Status::ok();
}

} // namespace paracc::rt
