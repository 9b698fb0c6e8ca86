//===- ShapeChecks.cpp - Operand checks of the data-movement ops ----------===//

#include "Kernels/ShapeChecks.h"

#include <algorithm>

namespace paracc::rt {

Status checkSameDType(const KernelArgs &args, const Tensor &x,
                      const Tensor &y) {
  if (x.dtype() != y.dtype())
    return args.fail("result ", y.typeString(),
                     " must have the element type of the operand ",
                     x.typeString());
  return Status::ok();
}

Status checkReshape(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  if (x.numElements() != y.numElements())
    return args.fail("cannot reshape ", x.typeString(), " to ", y.typeString(),
                     ": element counts differ");
  return Status::ok();
}

Status checkTranspose(const KernelArgs &args, Shape &shape,
                      std::vector<int64_t> &strides) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  const std::vector<int64_t> &perm = args.attrsAs<TransposeAttrs>().perm;
  PARACC_RETURN_IF_ERROR(args.checkIntCount(x.rank(), perm.size()));
  std::vector<bool> seen(x.rank(), false);
  shape.assign(x.rank(), 0);
  strides.assign(x.rank(), 0);
  const std::vector<int64_t> inStrides = contiguousStrides(x.shape());
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (perm[i] < 0 || perm[i] >= x.rank() || seen[perm[i]])
      return args.fail("attributes ", shapeToString(perm),
                       " are not a permutation of rank ", x.rank());
    seen[perm[i]] = true;
    shape[i] = x.dim(perm[i]);
    strides[i] = inStrides[perm[i]];
  }
  return args.checkShape(y, shape, "result");
}

Status checkSlice(const KernelArgs &args, SliceView &view) {
  std::vector<int64_t> &strides = view.strides;
  int64_t base = 0;
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  const int64_t rank = x.rank();
  const std::vector<int64_t> &startsThenSteps =
      args.attrsAs<SliceAttrs>().startsThenSteps;
  PARACC_RETURN_IF_ERROR(args.checkIntCount(2 * rank, startsThenSteps.size()));
  if (y.rank() != rank)
    return args.fail("result ", y.typeString(), " must have the rank of ",
                     x.typeString());
  const std::vector<int64_t> inStrides = contiguousStrides(x.shape());
  strides.assign(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t start = startsThenSteps[d];
    const int64_t step = startsThenSteps[rank + d];
    const int64_t count = y.dim(d), dim = x.dim(d);
    if (step == 0)
      return args.fail("step of dimension ", d, " is zero");
    if (count == 0)
      continue; // An empty result reads nothing; its start is not checked.
    int64_t span, last;
    if (start < 0 || start >= dim ||
        __builtin_mul_overflow(count - 1, step, &span) ||
        __builtin_add_overflow(start, span, &last) || last < 0 || last >= dim)
      return args.fail("dimension ", d, ": ", count, " elements from start ",
                       start, " with step ", step, " leave [0, ", dim, ")");
    base += start * inStrides[d];
    strides[d] = step * inStrides[d];
  }
  view.elementSize = dtypeSize(x.dtype());
  view.first = static_cast<const char *>(x.data()) + base * view.elementSize;
  view.y = args.out[0];
  return Status::ok();
}

/// The pieces (`pieces`, named `kind`) match `whole` outside the axis and
/// their sizes along it add up to whole's; `whole` is the result of a
/// Concat (its size along the axis is then taken from the pieces) or the
/// operand of a Split.
static Status checkAxisPieces(const KernelArgs &args, const Tensor &whole,
                              const std::vector<const Tensor *> &pieces,
                              bool concat, AxisSplit &split) {
  const Tensor &ref = concat ? *pieces[0] : whole;
  const int64_t axis = split.axis;
  Shape shape = ref.shape();
  int64_t total = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Tensor &t = *pieces[i];
    bool ok = t.dtype() == ref.dtype() && t.rank() == ref.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == axis || t.dim(d) == ref.dim(d);
    if (!ok)
      return concat ? args.fail("operand ", i, " ", t.typeString(),
                                " does not match operand 0 ", ref.typeString(),
                                " outside axis ", axis)
                    : args.fail("result ", i, " ", t.typeString(),
                                " does not match the operand ",
                                ref.typeString(), " outside axis ", axis);
    if (__builtin_add_overflow(total, t.dim(axis), &total))
      return args.fail(concat ? "concatenated size overflows"
                              : "split sizes overflow");
  }
  if (concat) {
    shape[axis] = total;
    PARACC_RETURN_IF_ERROR(checkSameDType(args, ref, whole));
    PARACC_RETURN_IF_ERROR(args.checkShape(whole, shape, "result"));
  } else if (total != whole.dim(axis)) {
    return args.fail("result sizes along axis ", axis, " add up to ", total,
                     ", expected ", whole.dim(axis));
  }
  for (int64_t d = 0; d < axis; ++d)
    split.outer *= shape[d];
  for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
    split.inner *= shape[d];
  return Status::ok();
}

Status checkConcat(const KernelArgs &args, AxisSplit &split) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, SIZE_MAX, 1));
  const Tensor &first = *args.in[0];
  if (first.rank() < 1)
    return args.fail("operands must have rank >= 1, got ", first.typeString());
  split = AxisSplit();
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(args.attrsAs<ConcatAttrs>().axis,
                                            first.rank(), split.axis));
  return checkAxisPieces(args, *args.out[0], args.in, true, split);
}

Status checkSplit(const KernelArgs &args, AxisSplit &split) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1, SIZE_MAX));
  const Tensor &x = *args.in[0];
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  split = AxisSplit();
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(args.attrsAs<ConcatAttrs>().axis,
                                            x.rank(), split.axis));
  std::vector<const Tensor *> pieces(args.out.begin(), args.out.end());
  return checkAxisPieces(args, x, pieces, false, split);
}

Status checkExpand(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  if (!broadcastsTo(x.shape(), y.shape()))
    return args.fail("operand ", x.typeString(), " does not broadcast to ",
                     y.typeString());
  return Status::ok();
}

Status checkTrilu(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (x.rank() < 2)
    return args.fail("operand must have rank >= 2, got ", x.typeString());
  return Status::ok();
}

/// Gathers: two operands (data, i32/i64 indices), one result of data's type.
static Status checkGatherOperands(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  PARACC_RETURN_IF_ERROR(
      args.checkDType(*args.in[1], TypeSet::Index, "indices"));
  return args.checkDTypeIs(*args.out[0], args.in[0]->dtype(), "result");
}

Status checkGather(const KernelArgs &args, AxisSplit &split) {
  PARACC_RETURN_IF_ERROR(checkGatherOperands(args));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  if (data.rank() < 1)
    return args.fail("data must have rank >= 1, got ", data.typeString());
  split = AxisSplit();
  PARACC_RETURN_IF_ERROR(args.normalizeAxis(args.attrsAs<GatherAttrs>().axis,
                                            data.rank(), split.axis));
  Shape shape(data.shape().begin(), data.shape().begin() + split.axis);
  shape.insert(shape.end(), indices.shape().begin(), indices.shape().end());
  shape.insert(shape.end(), data.shape().begin() + split.axis + 1,
               data.shape().end());
  PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[0], shape, "result"));
  for (int64_t d = 0; d < split.axis; ++d)
    split.outer *= data.dim(d);
  for (int64_t d = split.axis + 1; d < data.rank(); ++d)
    split.inner *= data.dim(d);
  return Status::ok();
}

Status checkGatherElements(const KernelArgs &args, int64_t &axis) {
  PARACC_RETURN_IF_ERROR(checkGatherOperands(args));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  if (data.rank() < 1)
    return args.fail("data must have rank >= 1, got ", data.typeString());
  if (indices.rank() != data.rank())
    return args.fail("indices ", indices.typeString(),
                     " must have the rank of data ", data.typeString());
  PARACC_RETURN_IF_ERROR(
      args.normalizeAxis(args.attrsAs<GatherAttrs>().axis, data.rank(), axis));
  for (int64_t d = 0; d < data.rank(); ++d) {
    if (d != axis && indices.dim(d) > data.dim(d))
      return args.fail("indices ", indices.typeString(), " exceed data ",
                       data.typeString(), " in dimension ", d);
  }
  return args.checkShape(*args.out[0], indices.shape(), "result");
}

Status checkGatherND(const KernelArgs &args, GatherNDProblem &gather) {
  PARACC_RETURN_IF_ERROR(checkGatherOperands(args));
  const Tensor &data = *args.in[0];
  const Tensor &indices = *args.in[1];
  const int64_t r = data.rank(), q = indices.rank();
  if (r < 1 || q < 1)
    return args.fail("data and indices must have rank >= 1, got ",
                     data.typeString(), " and ", indices.typeString());
  const int64_t b = args.attrsAs<GatherNDAttrs>().batchDims;
  PARACC_RETURN_IF_ERROR(
      args.checkIntIn(b, 0, std::min(q, r) - 1, "batchDims"));
  const int64_t k = indices.dim(q - 1);
  if (k < 1 || k > r - b)
    return args.fail("the last dimension of indices (", k, ") must be in [1, ",
                     r - b, "]");
  for (int64_t d = 0; d < b; ++d) {
    if (indices.dim(d) != data.dim(d))
      return args.fail("batch dimension ", d, " differs: indices ",
                       indices.typeString(), ", data ", data.typeString());
  }
  Shape shape(indices.shape().begin(), indices.shape().end() - 1);
  shape.insert(shape.end(), data.shape().begin() + b + k, data.shape().end());
  PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[0], shape, "result"));
  gather.data = &data;
  gather.indices = &indices;
  gather.y = args.out[0];
  gather.b = b;
  gather.k = k;
  for (int64_t d = 0; d < b; ++d)
    gather.batches *= data.dim(d);
  for (int64_t d = b; d < q - 1; ++d)
    gather.perBatch *= indices.dim(d);
  for (int64_t d = b + k; d < r; ++d)
    gather.slice *= data.dim(d);
  gather.dataStrides = contiguousStrides(data.shape());
  return Status::ok();
}

Status checkRange(const KernelArgs &args, OperandTypeCheck checkType) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 3, 1));
  const Tensor &start = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkType(args, start, TypeSet::Numeric, "start"));
  const char *names[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    const Tensor &t = *args.in[i];
    if (t.dtype() != start.dtype())
      return args.fail("operands must have the same element type, got ",
                       start.typeString(), " and ", t.typeString());
    if (t.rank() > 1 || t.numElements() != 1)
      return args.fail(names[i], " must be a scalar, got ", t.typeString());
  }
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, start.dtype(), "result"));
  if (y.rank() != 1)
    return args.fail("result must be 1-D, got ", y.typeString());
  return Status::ok();
}

} // namespace paracc::rt
