//===- ShapeChecks.h - Operand checks of the data-movement ops -*- C++ -*-===//
//
// The checks (and the strided views they imply) of Reshape, Transpose,
// Slice, Concat, Split, Expand, Trilu and the gathers, shared by the CPU
// kernels (ShapeOps.cpp, Indexing.cpp, Misc.cpp) and the GPU kernels
// (cuda/DataMovement.cu) so that both reject the same instructions with the
// same messages.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_SHAPECHECKS_H
#define PARACC_RUNTIME_KERNELS_SHAPECHECKS_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

/// The result has the operand's element type.
Status checkSameDType(const KernelArgs &args, const Tensor &x, const Tensor &y);

/// Reshape: same element type and count.
Status checkReshape(const KernelArgs &args);

/// Transpose by the permutation in ints: the result shape and, per result
/// dim, the operand's element stride.
Status checkTranspose(const KernelArgs &args, Shape &shape,
                      std::vector<int64_t> &strides);

/// A checked Slice (ints [starts..., steps...], the result's shape as
/// counts) as a strided view of the operand: its first element and, per
/// dim, the operand's element stride of a result step.
struct SliceView {
  const char *first = nullptr;
  size_t elementSize = 0;
  std::vector<int64_t> strides;
  Tensor *y = nullptr;
};
Status checkSlice(const KernelArgs &args, SliceView &view);

/// Concat (the operands) or Split (the results) along their axis: the whole
/// side's shape viewed as [outer, axis, inner].
struct AxisSplit {
  int64_t axis = 0, outer = 1, inner = 1;
};
Status checkConcat(const KernelArgs &args, AxisSplit &split);
Status checkSplit(const KernelArgs &args, AxisSplit &split);

/// Expand: the operand broadcasts to the result.
Status checkExpand(const KernelArgs &args);

/// Trilu: ints [upper, k], a result like the operand, rank >= 2.
Status checkTrilu(const KernelArgs &args);

/// Gather along its axis: data viewed as [outer, axis, inner]. The indices'
/// values are the kernels' to check.
Status checkGather(const KernelArgs &args, AxisSplit &split);

/// GatherElements along its axis (returned).
Status checkGatherElements(const KernelArgs &args, int64_t &axis);

/// A checked GatherND: `batches` x `perBatch` index tuples of `k`
/// coordinates (after the `b` batch dims), each picking a slice of `slice`
/// contiguous elements of data (whose element strides are `dataStrides`).
struct GatherNDProblem {
  const Tensor *data = nullptr, *indices = nullptr;
  Tensor *y = nullptr;
  int64_t b = 0, k = 0, batches = 1, perBatch = 1, slice = 1;
  std::vector<int64_t> dataStrides;
};
Status checkGatherND(const KernelArgs &args, GatherNDProblem &gather);

/// Range (start, limit, delta scalars of one numeric type) into a 1-D
/// result of that type.
Status checkRange(const KernelArgs &args, OperandTypeCheck checkType);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_SHAPECHECKS_H
