//===- AttentionKernel.h - The fused attention kernel entry ----*- C++ -*-===//
//
// Private to the CUDA backend: the Attention instruction (OpCodes.def) is
// implemented in Attention.cu; KernelDispatch forwards to it after the
// checks shared by every instruction.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_ATTENTIONKERNEL_H
#define PARACC_RUNTIME_CUDA_ATTENTIONKERNEL_H

#include "cuda/CudaKernels.h"

namespace paracc::rt::cuda {

/// Launches the Attention instruction on `stream`: in(q, k, v[, mask])
/// out(y), see OpCodes.def.
Status launchAttention(const InstrAttrs &attrs,
                       const std::vector<DeviceTensor> &inputs,
                       const DeviceTensor &output, cudaStream_t stream);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_ATTENTIONKERNEL_H
