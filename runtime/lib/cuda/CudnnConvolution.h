//===- CudnnConvolution.h - Convolutions on cuDNN --------------*- C++ -*-===//
//
// Private to the CUDA backend. Conv, ConvTranspose (a convolution's data
// gradient) and ConvWeightGrad run on cuDNN's convolution engines (forward,
// dgrad, wgrad of the cuDNN frontend's graph API; NCHW/OIHW operands as the
// instructions hold them, 1 to 3 spatial dims, groups, strides, padding,
// dilations) when
//  * the runtime was built with the frontend's headers and libcudnn.so.9
//    loads at run time (CudnnLibrary.h), and
//  * cuDNN builds a plan for the operands: bf16 and f16 on any engine, f32
//    on engines without tensor cores unless --tf32 allows TF32 (so f32
//    results keep f32's precision); deterministic engines only.
// Otherwise the instruction runs on the CPU kernel, as before. A bias (Conv:
// per output feature; ConvTranspose: per result channel) is added by a
// small kernel after cuDNN's.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_CUDNNCONVOLUTION_H
#define PARACC_RUNTIME_CUDA_CUDNNCONVOLUTION_H

#include "cuda/CudaKernels.h"
#include "paracc/runtime/InstructionSet.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace paracc::rt::cuda {

/// The workspace bytes cuDNN needs for this Conv, ConvTranspose or
/// ConvWeightGrad, or nullopt when cuDNN does not run it (the CPU kernel
/// does). Builds and caches the plan: call it outside stream capture,
/// before the first launch.
std::optional<size_t> convolutionWorkspaceBytes(
    OpCode op, const OpAttrs &attrs, const std::vector<DeviceTensor> &inputs,
    const std::vector<DeviceTensor> &outputs, const KernelOptions &options);

/// Runs the instruction whose plan convolutionWorkspaceBytes built, on
/// `stream`, with `workspace` of at least that many bytes.
Status launchConvolution(OpCode op, const OpAttrs &attrs,
                         const std::vector<DeviceTensor> &inputs,
                         const std::vector<DeviceTensor> &outputs,
                         void *workspace, size_t workspaceBytes,
                         cudaStream_t stream, const KernelOptions &options);

/// y[n, c, s] += bias[c] for y [outer, channels, inner] (f32, bf16, f16).
Status launchChannelBias(DType dtype, void *y, const void *bias, int64_t outer,
                         int64_t channels, int64_t inner, cudaStream_t stream);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_CUDNNCONVOLUTION_H
