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

/// Slice with ints [starts..., steps...] and the result's shape as counts:
/// the operand element offset of the first element and, per dim, the
/// operand stride of a result step.
Status checkSlice(const KernelArgs &args, int64_t &base,
                  std::vector<int64_t> &strides);

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

/// GatherND with its batch dims: index tuples of `tupleLength`.
Status checkGatherND(const KernelArgs &args, int64_t &batchDims,
                     int64_t &tupleLength);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_SHAPECHECKS_H
