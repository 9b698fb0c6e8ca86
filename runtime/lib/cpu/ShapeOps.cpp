//===- ShapeOps.cpp - Reshape, Transpose, Slice, Concat, Split, Expand ----===//
//
// Data movement kernels. They move elements by size, so every element type
// is supported; strided views go through stridedCopy, which merges
// dimensions and tiles transpositions.
//
//===----------------------------------------------------------------------===//

#include "cpu/KernelUtil.h"

#include <cstring>

namespace paracc::rt {

namespace {

Status checkSameDType(const KernelArgs &args, const Tensor &x,
                      const Tensor &y) {
  if (x.dtype() != y.dtype())
    return args.fail("result ", y.typeString(),
                     " must have the element type of the operand ",
                     x.typeString());
  return Status::ok();
}

} // namespace

Status runReshapeKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(0, 0));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  if (x.numElements() != y.numElements())
    return args.fail("cannot reshape ", x.typeString(), " to ", y.typeString(),
                     ": element counts differ");
  if (x.byteSize() && x.data() != y.data())
    std::memmove(y.data(), x.data(), x.byteSize());
  return Status::ok();
}

Status runTransposeKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  const std::vector<int64_t> &perm = args.attrs.ints;
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(x.rank(), 0));
  std::vector<bool> seen(x.rank(), false);
  Shape shape(x.rank());
  const std::vector<int64_t> inStrides = contiguousStrides(x.shape());
  std::vector<int64_t> strides(x.rank());
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (perm[i] < 0 || perm[i] >= x.rank() || seen[perm[i]])
      return args.fail("attributes ", shapeToString(perm),
                       " are not a permutation of rank ", x.rank());
    seen[perm[i]] = true;
    shape[i] = x.dim(perm[i]);
    strides[i] = inStrides[perm[i]];
  }
  PARACC_RETURN_IF_ERROR(args.checkShape(y, shape, "result"));
  if (y.numElements() == 0)
    return Status::ok();
  stridedCopy(y.data(), x.data(), dtypeSize(x.dtype()),
              makeViewPlan(shape, strides));
  return Status::ok();
}

Status runSliceKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  const int64_t rank = x.rank();
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(2 * rank, 0));
  if (y.rank() != rank)
    return args.fail("result ", y.typeString(), " must have the rank of ",
                     x.typeString());
  const std::vector<int64_t> &ints = args.attrs.ints;
  const std::vector<int64_t> inStrides = contiguousStrides(x.shape());
  std::vector<int64_t> strides(rank);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t start = ints[d], step = ints[rank + d];
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
  if (y.numElements() == 0)
    return Status::ok();
  const size_t es = dtypeSize(x.dtype());
  stridedCopy(y.data(), static_cast<const char *>(x.data()) + base * es, es,
              makeViewPlan(y.shape(), strides));
  return Status::ok();
}

Status runConcatKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, SIZE_MAX, 1));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(1, 0));
  const Tensor &first = *args.in[0];
  Tensor &y = *args.out[0];
  if (first.rank() < 1)
    return args.fail("operands must have rank >= 1, got ", first.typeString());
  int64_t axis;
  PARACC_RETURN_IF_ERROR(
      args.normalizeAxis(args.attrs.ints[0], first.rank(), axis));
  Shape shape = first.shape();
  shape[axis] = 0;
  for (size_t i = 0; i < args.in.size(); ++i) {
    const Tensor &t = *args.in[i];
    bool ok = t.dtype() == first.dtype() && t.rank() == first.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == axis || t.dim(d) == first.dim(d);
    if (!ok)
      return args.fail("operand ", i, " ", t.typeString(),
                       " does not match operand 0 ", first.typeString(),
                       " outside axis ", axis);
    if (__builtin_add_overflow(shape[axis], t.dim(axis), &shape[axis]))
      return args.fail("concatenated size overflows");
  }
  PARACC_RETURN_IF_ERROR(checkSameDType(args, first, y));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, shape, "result"));
  if (y.numElements() == 0)
    return Status::ok();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < first.rank(); ++d)
    inner *= shape[d];
  const size_t es = dtypeSize(first.dtype());
  const size_t outRow = static_cast<size_t>(shape[axis] * inner) * es;
  char *dst = static_cast<char *>(y.data());
  size_t col = 0;
  for (const Tensor *t : args.in) {
    const size_t row = static_cast<size_t>(t->dim(axis) * inner) * es;
    const char *src = static_cast<const char *>(t->data());
    if (row) {
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + o * outRow + col, src + o * row, row);
    }
    col += row;
  }
  return Status::ok();
}

Status runSplitKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1, SIZE_MAX));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(1, 0));
  const Tensor &x = *args.in[0];
  if (x.rank() < 1)
    return args.fail("operand must have rank >= 1, got ", x.typeString());
  int64_t axis;
  PARACC_RETURN_IF_ERROR(
      args.normalizeAxis(args.attrs.ints[0], x.rank(), axis));
  int64_t total = 0;
  for (size_t i = 0; i < args.out.size(); ++i) {
    const Tensor &t = *args.out[i];
    bool ok = t.dtype() == x.dtype() && t.rank() == x.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == axis || t.dim(d) == x.dim(d);
    if (!ok)
      return args.fail("result ", i, " ", t.typeString(),
                       " does not match the operand ", x.typeString(),
                       " outside axis ", axis);
    if (__builtin_add_overflow(total, t.dim(axis), &total))
      return args.fail("split sizes overflow");
  }
  if (total != x.dim(axis))
    return args.fail("result sizes along axis ", axis, " add up to ", total,
                     ", expected ", x.dim(axis));
  if (x.numElements() == 0)
    return Status::ok();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= x.dim(d);
  for (int64_t d = axis + 1; d < x.rank(); ++d)
    inner *= x.dim(d);
  const size_t es = dtypeSize(x.dtype());
  const size_t inRow = static_cast<size_t>(x.dim(axis) * inner) * es;
  const char *src = static_cast<const char *>(x.data());
  size_t col = 0;
  for (Tensor *t : args.out) {
    const size_t row = static_cast<size_t>(t->dim(axis) * inner) * es;
    char *dst = static_cast<char *>(t->data());
    if (row) {
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + o * row, src + o * inRow + col, row);
    }
    col += row;
  }
  return Status::ok();
}

Status runExpandKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(0, 0));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkSameDType(args, x, y));
  if (!broadcastsTo(x.shape(), y.shape()))
    return args.fail("operand ", x.typeString(), " does not broadcast to ",
                     y.typeString());
  if (y.numElements() == 0)
    return Status::ok();
  stridedCopy(y.data(), x.data(), dtypeSize(x.dtype()),
              makeBroadcastPlan(y.shape(), {&x.shape()}));
  return Status::ok();
}

} // namespace paracc::rt
