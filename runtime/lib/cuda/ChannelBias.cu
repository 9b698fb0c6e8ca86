//===- ChannelBias.cu - A per-channel bias after a convolution ------------===//
//
// See CudnnConvolution.h (launchChannelBias).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaKernelUtil.h"
#include "cuda/CudnnConvolution.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace paracc::rt::cuda {

namespace {

template <typename T>
__global__ void channelBiasKernel(T *y, const T *bias, int64_t total,
                                  int64_t channels, int64_t inner) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t c = (i / inner) % channels;
    y[i] = T(float(y[i]) + float(bias[c]));
  }
}

template <typename T>
Status launchTyped(void *y, const void *bias, int64_t outer, int64_t channels,
                   int64_t inner, cudaStream_t stream) {
  const int64_t total = outer * channels * inner;
  if (total == 0)
    return Status::ok();
  const int threads = 256;
  const int64_t blocks = std::min<int64_t>((total + threads - 1) / threads,
                                           int64_t(deviceSMCount()) * 16);
  channelBiasKernel<T><<<unsigned(blocks), threads, 0, stream>>>(
      static_cast<T *>(y), static_cast<const T *>(bias), total, channels,
      inner);
  return checkLaunch("channelBiasKernel");
}

} // namespace

Status launchChannelBias(DType dtype, void *y, const void *bias, int64_t outer,
                         int64_t channels, int64_t inner, cudaStream_t stream) {
  switch (dtype) {
  case DType::F32:
    return launchTyped<float>(y, bias, outer, channels, inner, stream);
  case DType::BF16:
    return launchTyped<__nv_bfloat16>(y, bias, outer, channels, inner, stream);
  case DType::F16:
    return launchTyped<__half>(y, bias, outer, channels, inner, stream);
  default:
    return errorf("conv: a bias of element type ", dtypeName(dtype),
                  " has no GPU kernel");
  }
}

} // namespace paracc::rt::cuda
