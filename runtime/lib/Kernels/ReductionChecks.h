//===- ReductionChecks.h - Operand checks of the reducing ops --*- C++ -*-===//
//
// The checks of the ops that reduce or scan along axes (Reduce*, ArgMax/
// ArgMin, CumSum, LayerNorm/RmsNorm, Softmax/LogSoftmax), shared by the CPU
// kernels and the GPU kernels so that both reject the same instructions
// with the same messages. The operand's element-type check is a parameter:
// the GPU kernels also reject types they have no kernel for, at the same
// point of the sequence.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_REDUCTIONCHECKS_H
#define PARACC_RUNTIME_KERNELS_REDUCTIONCHECKS_H

#include "Kernels/ShapeChecks.h"

namespace paracc::rt {

/// Reduce* (ReduceSumAttrs): which operand dims are reduced.
/// (The operand's type is checked by the kernel, per op.)
Status checkReduce(const KernelArgs &args, std::vector<bool> &reduced);

/// ArgMax/ArgMin (ArgMaxAttrs): the operand
/// viewed as [outer, axis, inner].
Status checkArgReduce(const KernelArgs &args, OperandTypeCheck checkType,
                      AxisSplit &split);

/// CumSum (CumSumAttrs): the operand viewed as
/// [outer, axis, inner].
Status checkCumSum(const KernelArgs &args, OperandTypeCheck checkType,
                   AxisSplit &split);

/// LayerNorm (x, scale[, bias]) / RmsNorm (x, scale) (LayerNormAttrs): the
/// number of elements each row normalizes.
Status checkNorm(const KernelArgs &args, OperandTypeCheck checkType,
                 int64_t &normalized);

/// Softmax/LogSoftmax along their axis: the operand viewed as [outer, axis,
/// inner].
Status checkSoftmax(const KernelArgs &args, OperandTypeCheck checkType,
                    AxisSplit &split);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_REDUCTIONCHECKS_H
