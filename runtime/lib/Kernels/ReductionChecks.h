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

/// A checked op along one axis (ArgMax/ArgMin, CumSum, Softmax/LogSoftmax),
/// as both backends run it: the operand viewed as [outer, c, inner] along
/// the axis, and the attributes by name.
struct AxisScan {
  const Tensor *x = nullptr;
  Tensor *y = nullptr;
  int64_t outer = 1, c = 0, inner = 1;
  /// ArgMax (else ArgMin), and the last of equal extremes.
  bool isMax = false, selectLast = false;
  /// CumSum: each sum without its own element; from the end.
  bool exclusive = false, reverse = false;
  /// LogSoftmax (else Softmax).
  bool isLog = false;
  /// TopK: how many, into `indices` (y holds the values), largest first
  /// (else smallest first).
  int64_t k = 0;
  Tensor *indices = nullptr;
  bool largest = true;

  /// Nothing to compute.
  bool empty() const { return y->numElements() == 0; }
};

/// ArgMax/ArgMin (ArgMaxAttrs).
Status checkArgReduce(const KernelArgs &args, OperandTypeCheck checkType,
                      AxisScan &scan);

/// TopK (TopKAttrs): values into scan.y, positions into scan.indices.
Status checkTopK(const KernelArgs &args, OperandTypeCheck checkType,
                 AxisScan &scan);

/// CumSum (CumSumAttrs).
Status checkCumSum(const KernelArgs &args, OperandTypeCheck checkType,
                   AxisScan &scan);

/// A checked LayerNorm (x, scale[, bias]) / RmsNorm (x, scale)
/// (LayerNormAttrs): rows of the `d` elements from the axis on, each
/// normalized, times scale (plus bias) broadcast over `normShape`.
struct NormProblem {
  const Tensor *x = nullptr, *scale = nullptr, *bias = nullptr;
  Tensor *y = nullptr;
  bool isLayerNorm = false;
  double eps = 0;
  int64_t d = 0;
  Shape normShape;

  /// Nothing to compute.
  bool empty() const { return d == 0 || x->numElements() == 0; }
  int64_t rows() const { return x->numElements() / d; }
};
Status checkNorm(const KernelArgs &args, OperandTypeCheck checkType,
                 NormProblem &norm);

/// Softmax/LogSoftmax (SoftmaxAttrs).
Status checkSoftmax(const KernelArgs &args, OperandTypeCheck checkType,
                    AxisScan &scan);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_REDUCTIONCHECKS_H
