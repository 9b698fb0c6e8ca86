//===- AttentionTf32.h - f32 attention on the tensor cores ------*- C++ -*-===//
//
// Private to the CUDA backend. Where the rank allows TF32 (--tf32, as for
// its f32 products), f32 attention runs on the tensor cores instead of the
// SIMT kernels: mma.sync m16n8k8 with TF32 operands (each rounded to
// nearest, 10-bit significand, f32 range) and f32 accumulation, softmax and
// results; the numerics of a TF32 product (AttentionTf32.cu).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_ATTENTIONTF32_H
#define PARACC_RUNTIME_CUDA_ATTENTIONTF32_H

#include "paracc/runtime/Status.h"

#include "cuda/AttentionPrimitives.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <initializer_list>

namespace paracc::rt::cuda::attn {

/// Query rows per CTA of the forward kernel, key rows per CTA of the
/// backward's key pass.
constexpr int kTf32BlockRows = 64;

/// Whether the TF32 kernels take f32 operands of these head dims at these
/// addresses: D == Dv in {32, 64, 128}, every pointer 16-byte aligned.
bool tf32AttentionShape(int64_t d, int64_t dv,
                        std::initializer_list<const void *> pointers);

/// The forward: p.out (and p.stats when set) from p.q, p.k, p.v and the
/// optional mask. Grid: (p.batch, query blocks of kTf32BlockRows).
Status launchTf32Attention(const AttentionParams &p, bool hasMask,
                           cudaStream_t stream);

/// The backward's key pass, given each query row's base-2 log-sum-exp and
/// Delta (p.lse, p.delta): writes dk and dv (per query attention, with q's
/// heads, as AttentionGradParams::gradK says) and adds dq's terms to
/// p.gradQ (f32, zeroed beforehand on the stream) with f32 atomics, so dq
/// may vary in its last bits between runs. Grid: (p.batch, key blocks of
/// kTf32BlockRows).
Status launchTf32AttentionGradKeys(const AttentionGradParams &p, bool hasMask,
                                   cudaStream_t stream);

} // namespace paracc::rt::cuda::attn

#endif // PARACC_RUNTIME_CUDA_ATTENTIONTF32_H
