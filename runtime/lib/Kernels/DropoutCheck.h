//===- DropoutCheck.h - Dropout's operand checks ---------------*- C++ -*-===//
//
// Shared by the CPU kernel (Dropout.cpp) and the CUDA one (cuda/Random.cu).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_DROPOUTCHECK_H
#define PARACC_RUNTIME_KERNELS_DROPOUTCHECK_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

/// x float, step an f32 scalar, offsets i64 [rank of x], the result x's
/// type; ints seed and stream, floats ratio in [0, 1).
Status checkDropout(const KernelArgs &args);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_DROPOUTCHECK_H
