//===- ShapeChecks.h - Operand checks of the data-movement ops -*- C++ -*-===//
//
// The checks (and the strided views they imply) of Reshape, Transpose,
// Slice, Concat, Split and Expand, shared by the CPU kernels (ShapeOps.cpp)
// and the GPU kernels (cuda/DataMovement.cu) so that both reject the same
// instructions with the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_SHAPECHECKS_H
#define PARACC_RUNTIME_CPU_SHAPECHECKS_H

#include "cpu/KernelUtil.h"

namespace paracc::rt {

/// The result has the operand's element type.
Status checkSameDType(const KernelArgs &args, const Tensor &x,
                      const Tensor &y);

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

/// Concat (the operands) or Split (the results) along ints[0]: the whole
/// side's shape viewed as [outer, axis, inner].
struct AxisSplit {
  int64_t axis = 0, outer = 1, inner = 1;
};
Status checkConcat(const KernelArgs &args, AxisSplit &split);
Status checkSplit(const KernelArgs &args, AxisSplit &split);

/// Expand: the operand broadcasts to the result.
Status checkExpand(const KernelArgs &args);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CPU_SHAPECHECKS_H
