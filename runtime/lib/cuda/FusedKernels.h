//===- FusedKernels.h - Fused elementwise programs as CUDA kernels -*- C++
//-*-===//
//
// A FusedElementwise instruction runs as a kernel generated for it: CUDA
// C++ written from its decoded program, with the iteration space's merged
// dims and each operand's strides as constants, compiled at set-up by NVRTC
// (libnvrtc, opened at run time) for the device's architecture and loaded
// through the runtime's library API. All of a rank's fused instructions
// compile as one NVRTC program; kernels are kept per process (by their
// source) and compiled programs on disk, in $PARACC_KERNEL_CACHE (default
// $XDG_CACHE_HOME/paracc/kernels or ~/.cache/paracc/kernels; "off": none).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_FUSEDKERNELS_H
#define PARACC_RUNTIME_CUDA_FUSEDKERNELS_H

#include "cuda/CudaKernels.h"

#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace paracc::rt::cuda {

/// A fused instruction compiled for the device.
struct FusedKernel {
  /// One element a thread, and four (null: the program takes no vectors).
  cudaKernel_t kernel = nullptr, kernel4 = nullptr;
  int64_t elements = 0;
  bool wideIndex = false;
};

/// One fused instruction to compile: its attributes and tensors.
struct FusedRequest {
  const OpAttrs *attrs = nullptr;
  std::vector<DeviceTensor> inputs, outputs;
};

/// Whether NVRTC could be opened (libnvrtc.so.<CUDA major>, or
/// $PARACC_NVRTC_LIBRARY). Without it fused instructions run on the CPU.
bool fusedKernelsAvailable();

/// Compiles `requests` (those whose kernels this process has not compiled
/// yet, at once) and sets kernels[i] for each. Errors name the instruction's
/// program or NVRTC's log.
Status compileFusedKernels(const std::vector<FusedRequest> &requests,
                           std::vector<FusedKernel> &kernels);

/// Launches a compiled fused kernel on `inputs` and `outputs` (the tensors
/// it was compiled for, or others of their types and shapes).
Status launchFusedKernel(const FusedKernel &kernel,
                         const std::vector<DeviceTensor> &inputs,
                         const std::vector<DeviceTensor> &outputs,
                         cudaStream_t stream);

/// The CUDA C++ of one request's kernel, named `name` (for tests and
/// PARACC_FUSED_SOURCE=1, which prints each compiled source).
StatusOr<std::string> fusedKernelSource(const FusedRequest &request,
                                        const std::string &name);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_FUSEDKERNELS_H
