//===- CudnnAttention.h - cuDNN's fused attention, when present -*- C++ -*-===//
//
// Private to the CUDA backend. The Attention and AttentionGrad instructions
// run on cuDNN's fused scaled-dot-product attention (through the cuDNN
// frontend's graph API) when
//  * the runtime was built with the cuDNN frontend headers
//    (PARACC_HAVE_CUDNN_FRONTEND),
//  * libcudnn.so.9 loads at run time (it is opened on first use, never
//    linked: machines without cuDNN run paracc's own kernels),
//  * the operands are a shape cuDNN's engines take (bf16/f16, no additive
//    mask, D == Dv, a multiple of 8 up to 128, k and v with q's heads or a
//    divisor of them (grouped-query attention, native to cuDNN's graphs),
//    causal only when Sq == Sk or with a start operand promised within [0,
//    Sk - Sq]: then cuDNN's padding mask holds Sk' = start + Sq keys and
//    its causal diagonal sits at the bottom right
//    (PARACC_CUDNN_PADDED_START=0 sends those to paracc's kernels instead);
//    16-byte aligned) and cuDNN builds a plan for them, and
//  * PARACC_ATTENTION_KERNEL is unset or "cudnn" (any other value, e.g.
//    "paracc" or "generic", selects paracc's kernels; so does
//    PARACC_ATTENTION_BWD=recompute for the backward).
// Otherwise the callers launch paracc's own kernels (Attention.cu,
// AttentionBackward.cu): the results agree to the element type's rounding.
//
// An Attention instruction that saves its softmax statistics (savedStats)
// writes them with its result; an AttentionGrad given them (and the
// forward's result) runs cuDNN's backward alone. Without them the backward
// first reruns cuDNN's forward with the statistics into its workspace: 1 +
// 2.5 forwards' FLOPs, where the backward alone is 2.5.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_CUDNNATTENTION_H
#define PARACC_RUNTIME_CUDA_CUDNNATTENTION_H

#include "Kernels/AttentionGeometry.h"
#include "cuda/CudaKernels.h"

#include <cstddef>

namespace paracc::rt::cuda {

/// What a cuDNN attention call did.
enum class CudnnOutcome {
  Ran,          ///< Launched on the stream.
  NotAvailable, ///< No cuDNN, a shape it does not take, or switched off:
                ///< launch paracc's kernels instead (nothing was launched).
};

/// The operands of an attention as cuDNN sees them: [B, H, S, D] views with
/// element strides, from the shared geometry (sequence-first or not; k and
/// v with their own heads, Hkv = H / kvGroup).
struct CudnnAttentionOperands {
  const AttentionGeometry *geometry = nullptr;
  DType dtype = DType::Invalid;
  bool hasMask = false;
  /// The start operand's device pointer (padded attentions). The geometry's
  /// queryStartOperand is a host view that is gone after planning: only
  /// its presence may be asked.
  const int64_t *queryStart = nullptr;
};

/// Writes a padded attention's sequence lengths for cuDNN: seqLens[b] = sq
/// and seqLens[outer + b] = *start + sq for b < outer (Attention.cu).
Status launchPaddedSeqLens(const int64_t *start, int32_t *seqLens,
                           int64_t outer, int64_t sq, cudaStream_t stream);

/// Runs y = attention(q, k, v) on cuDNN when it can (see the file comment),
/// with each row's log-sum-exp into `stats` ([batch, Sq] f32) when it is
/// not null; NotAvailable launches nothing. Errors are cuDNN failures
/// after a plan was built (the launch itself).
Status runCudnnAttention(const CudnnAttentionOperands &ops, const void *q,
                         const void *k, const void *v, void *y, float *stats,
                         cudaStream_t stream, CudnnOutcome &outcome);

/// Bytes of workspace runCudnnAttentionGrad needs for these operands (the
/// recomputed output and statistics unless the geometry's are saved, and
/// cuDNN's own workspaces), or 0 when cuDNN will not run them. Builds (and
/// caches) the plans: call it outside stream capture, before the first
/// launch.
size_t cudnnAttentionGradWorkspaceBytes(const CudnnAttentionOperands &ops);

/// The forward's result and statistics an AttentionGrad was given (both
/// null when not saved).
struct SavedAttention {
  const void *out = nullptr;
  const float *stats = nullptr;
};

/// Runs (dq, dk, dv) = attention_grad(dy, q, k, v) on cuDNN when it can and
/// `workspaceBytes` covers cudnnAttentionGradWorkspaceBytes; NotAvailable
/// launches nothing.
Status runCudnnAttentionGrad(const CudnnAttentionOperands &ops, const void *dy,
                             const void *q, const void *k, const void *v,
                             SavedAttention saved, void *dq, void *dk, void *dv,
                             void *workspace, size_t workspaceBytes,
                             cudaStream_t stream, CudnnOutcome &outcome);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_CUDNNATTENTION_H
