//===- ShapeOps.cpp - Reshape, Transpose, Slice, Concat, Split, Expand ----===//
//
// Data movement kernels. They move elements by size, so every element type
// is supported; strided views go through stridedCopy, which merges
// dimensions and tiles transpositions.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ShapeChecks.h"
#include "cpu/CpuKernels.h"

#include <cstring>

namespace paracc::rt {


Status runReshapeKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkReshape(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (x.byteSize() && x.data() != y.data())
    std::memmove(y.data(), x.data(), x.byteSize());
  return Status::ok();
}

Status runTransposeKernel(const KernelArgs &args) {
  Shape shape;
  std::vector<int64_t> strides;
  PARACC_RETURN_IF_ERROR(checkTranspose(args, shape, strides));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  stridedCopy(y.data(), x.data(), dtypeSize(x.dtype()),
              makeViewPlan(shape, strides));
  return Status::ok();
}

Status runSliceKernel(const KernelArgs &args) {
  SliceView v;
  PARACC_RETURN_IF_ERROR(checkSlice(args, v));
  if (v.y->numElements() != 0)
    stridedCopy(v.y->data(), v.first, v.elementSize,
                makeViewPlan(v.y->shape(), v.strides));
  return Status::ok();
}

Status runConcatKernel(const KernelArgs &args) {
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkConcat(args, split));
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
  const size_t es = dtypeSize(y.dtype());
  const size_t outRow = static_cast<size_t>(y.dim(axis) * inner) * es;
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
  AxisSplit split;
  PARACC_RETURN_IF_ERROR(checkSplit(args, split));
  const Tensor &x = *args.in[0];
  if (x.numElements() == 0)
    return Status::ok();
  const int64_t axis = split.axis, outer = split.outer, inner = split.inner;
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
  PARACC_RETURN_IF_ERROR(checkExpand(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  if (y.numElements() == 0)
    return Status::ok();
  stridedCopy(y.data(), x.data(), dtypeSize(x.dtype()),
              makeBroadcastPlan(y.shape(), {&x.shape()}));
  return Status::ok();
}

} // namespace paracc::rt
