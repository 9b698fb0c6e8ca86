//===- ConvolutionGeometry.h - Conv and Pool operand checks ----*- C++ -*-===//
//
// The checks of Conv, Pool and their gradients (OpCodes.def) and the geometry
// they leave: batch, channels, spatial sizes and the window's strides, pads and
// dilations, shared by every backend so that all reject the same
// instructions with the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_CONVOLUTIONGEOMETRY_H
#define PARACC_RUNTIME_KERNELS_CONVOLUTIONGEOMETRY_H

#include "Kernels/ShapeChecks.h"

#include <array>

namespace paracc::rt {

/// A window op over `rank` (1 to 3) spatial dims.
struct ConvGeometry {
  static constexpr int64_t kMaxRank = 3;
  int64_t rank = 0, batch = 0, channels = 0;
  /// Conv: output features and groups (Pool: channels and 1).
  int64_t features = 0, groups = 1;
  std::array<int64_t, kMaxRank> in{}, out{}, kernel{}, strides{}, padsBegin{},
      padsEnd{}, dilations{};
  /// Row-major strides of the input's, the output's and the kernel's
  /// spatial positions, and their counts.
  std::array<int64_t, kMaxRank> inStride{}, outStride{}, kernelStride{};
  int64_t inSize = 1, outSize = 1, kernelSize = 1;
};

/// Conv (x, w[, bias]) with ints [group, strides, pads_begin, pads_end,
/// dilations]: the geometry, the result's shape checked.
Status checkConv(const KernelArgs &args, OperandTypeCheck checkType,
                 ConvGeometry &g);

/// ConvTranspose (x, w[, bias]) -> y with Conv's ints: the geometry of the
/// Conv it transposes (operand y, result x).
Status checkConvTranspose(const KernelArgs &args, OperandTypeCheck checkType,
                          ConvGeometry &g);

/// ConvWeightGrad (x, dy) -> dw with Conv's ints: the Conv's geometry.
Status checkConvWeightGrad(const KernelArgs &args, OperandTypeCheck checkType,
                           ConvGeometry &g);

/// PoolGrad (x, dy) -> dx with Pool's ints: the pool's geometry.
Status checkPoolGrad(const KernelArgs &args, OperandTypeCheck checkType,
                     ConvGeometry &g, bool &average, bool &countPadding);

/// Pool (x) with ints [kind, count_include_pad, kernel, strides,
/// pads_begin, pads_end]: the geometry and the kind.
Status checkPool(const KernelArgs &args, OperandTypeCheck checkType,
                 ConvGeometry &g, bool &average, bool &countPadding);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_CONVOLUTIONGEOMETRY_H
