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
/// out(y[, stats]), see OpCodes.def. `options.allowTf32` lets f32 operands
/// run on the tensor cores (AttentionTf32.h).
Status launchAttention(const AttentionAttrs &attrs,
                       const std::vector<DeviceTensor> &inputs,
                       const std::vector<DeviceTensor> &outputs,
                       cudaStream_t stream, const KernelOptions &options = {});

/// Bytes of device workspace launchAttentionGrad needs for these operands
/// (the per-row log-sum-exp and rowsum(dP * P) statistics, in f32, for the
/// tensor-core shapes, bf16/f16 with D == Dv in {64, 128}, 16 bytes of
/// slack and an f32 dq accumulator shaped like dq, and when k and v have
/// fewer heads than q, 256-byte aligned dk and dv with q's heads; see
/// AttentionBackward.cu); 0 when the operands are not a valid AttentionGrad
/// (launchAttentionGrad then reports why).
size_t attentionGradWorkspaceBytes(const AttentionAttrs &attrs,
                                   const std::vector<DeviceTensor> &inputs);

/// Launches the AttentionGrad instruction on `stream`: in(dy, q, k, v[,
/// mask][, out, stats]) out(dq, dk, dv), the gradients of Attention with the
/// same attributes (OpCodes.def), flash-style: the score matrix is recomputed
/// per tile and never stored. `workspace` holds attentionGradWorkspaceBytes
/// bytes of device memory (contents need not be initialized; the launch
/// zeroes the dq accumulator on the stream). The tensor-core path sums dq
/// with f32 atomics, so dq may vary in its last bits between runs;
/// PARACC_ATTENTION_BWD=recompute (and the SIMT path) are deterministic.
Status launchAttentionGrad(const AttentionAttrs &attrs,
                           const std::vector<DeviceTensor> &inputs,
                           const std::vector<DeviceTensor> &outputs,
                           void *workspace, size_t workspaceBytes,
                           cudaStream_t stream,
                           const KernelOptions &options = {});

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_ATTENTIONKERNEL_H
