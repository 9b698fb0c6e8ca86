//===- AttentionPrimitives.cuh - Shared attention device code --*- C++ -*-===//
//
// Private to the CUDA backend: what the forward (Attention.cu) and backward
// (AttentionBackward.cu) attention kernels share. The launch parameters of
// one attention (operands, sizes, causal diagonal, the additive mask's
// broadcast strides, grouped-query attention's kvGroup) and their index
// arithmetic; PTX wrappers (cp.async, ldmatrix, mma.sync m16n8k16 for
// bf16/f16 with f32 accumulation, ex2); element conversions; the XOR
// swizzle of the shared-memory tiles and the cp.async tile loader; the
// host-side mask-stride computation and the PARACC_ATTENTION_KERNEL
// switch.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_ATTENTIONPRIMITIVES_CUH
#define PARACC_RUNTIME_CUDA_ATTENTIONPRIMITIVES_CUH

#include "Kernels/AttentionGeometry.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace paracc::rt::cuda::attn {

//===----------------------------------------------------------------------===//
// Launch parameters.
//===----------------------------------------------------------------------===//

/// The most leading (batch) dimensions of a mask after merging.
constexpr int kMaxMaskLeadDims = 8;

/// Everything a kernel needs; passed by value.
struct AttentionParams {
  const void *q = nullptr; ///< [batch, sq, d] or [batch / heads, sq, heads, d]
  /// [batch, sk, d] or [batch / heads, sk, heads, d] with kvGroup == 1; with
  /// fewer heads (grouped-query attention) [batch / kvGroup, sk, d] or
  /// [batch / heads, sk, heads / kvGroup, d]: read through kvBatchBase.
  const void *k = nullptr;
  const void *v = nullptr; ///< As k, with dv columns.
  const void *mask = nullptr;
  void *out = nullptr; ///< [batch, sq, dv] or [batch / heads, sq, heads, dv]
  /// Each row's log-sum-exp, [batch, sq] f32, or null (not saved).
  float *stats = nullptr;
  int64_t batch = 0;
  /// 1, or H for sequence-first operands (AttentionGeometry.h).
  int32_t heads = 1;
  int32_t sq = 0, sk = 0, d = 0, dv = 0;
  /// Causal masking: query i sees keys j <= i + diag, diag = sk - sq (or
  /// what `queryStart` holds); with a sliding window w > 0 only keys
  /// j > i + diag - w of those.
  int32_t causal = 0, diag = 0, window = 0;
  /// The instruction's start operand (an i64 in device memory: a rank's
  /// block of queries under context parallelism), or null.
  const int64_t *queryStart = nullptr;
  /// The scale times log2(e): scores are kept in base-2 units.
  float scaleLog2 = 0;
  /// Grouped-query attention: kvGroup consecutive attentions b read k and v
  /// at kv attention b / kvGroup (AttentionGeometry::kvGroup); 1 when k and
  /// v have q's heads. (In the padding after scaleLog2: shifting the fields
  /// below made ptxas spill more in the masked tensor-core kernels.)
  int32_t kvGroup = 1;
  /// Mask element strides along Sq and Sk (0 where broadcast).
  int64_t maskRowStride = 0, maskColStride = 0;
  /// The mask's strides along the (merged) leading dimensions of q, which
  /// the batch index enumerates in row-major order.
  int32_t maskLeadRank = 0;
  int64_t maskLeadDims[kMaxMaskLeadDims] = {};
  int64_t maskLeadStrides[kMaxMaskLeadDims] = {};
};

/// The forward's parameters (q, k, v, mask, sizes, scaleLog2; `out` unused)
/// and the backward's own operands.
struct AttentionGradParams : AttentionParams {
  const void *dy = nullptr; ///< Shaped like the forward's result.
  void *gradQ = nullptr;    ///< dq, shaped like q.
  /// dk and dv, written by the key pass with q's batch indexing (batchBase,
  /// rows heads * d apart): shaped like k and v when kvGroup == 1, else
  /// the workspace's expanded dk and dv (one per query head), which a
  /// reduction sums into the results (AttentionBackward.cu).
  void *gradK = nullptr;
  void *gradV = nullptr;
  /// [batch, sq] each, in the workspace.
  float *lse = nullptr;
  float *delta = nullptr;
  /// The f32 dq accumulator (shaped like dq, in the workspace) of the
  /// atomic path; null on the recompute path.
  float *dqAccum = nullptr;
  /// Elements of dq.
  int64_t dqElems = 0;
  /// The scale itself (dq and dk are multiplied by it).
  float scale = 0;
};

/// Element offset of attention b's first row in a tensor of `rows` rows of
/// `cols` per attention (AttentionGeometry::base).
__device__ __forceinline__ int64_t batchBase(const AttentionParams &p,
                                             int64_t b, int rows, int cols) {
  return (b / p.heads) * rows * p.heads * cols + (b % p.heads) * cols;
}

/// k's and v's heads in a sequence-first row: heads / kvGroup (1 in the
/// default layout, where heads is 1 and the head dim is a leading dim).
__device__ __forceinline__ int kvHeads(const AttentionParams &p) {
  const int h = p.heads / p.kvGroup;
  return h > 0 ? h : 1;
}

/// Element offset, in k or v, of the first row that query attention b
/// reads (AttentionGeometry::kvBase); rows are kvHeads(p) * cols apart.
/// (32-bit divisions: the hosts check that batch fits the grid's int32.)
__device__ __forceinline__ int64_t kvBatchBase(const AttentionParams &p,
                                               int64_t b, int rows, int cols) {
  const int kb = static_cast<int>(b) / p.kvGroup;
  const int h = kvHeads(p);
  return int64_t(kb / h) * rows * h * cols + int64_t(kb % h) * cols;
}

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kNegInf = -INFINITY;

//===----------------------------------------------------------------------===//
// Device primitives (PTX wrappers).
//===----------------------------------------------------------------------===//

__device__ __forceinline__ unsigned char *dynamicSmem() {
  extern __shared__ __align__(128) unsigned char attentionSmem[];
  return attentionSmem;
}

__device__ __forceinline__ void blockSync() { __syncthreads(); }
__device__ __forceinline__ void warpSync() { __syncwarp(); }

__device__ __forceinline__ float shflXor(float v, int laneMask) {
  return __shfl_xor_sync(0xffffffffu, v, laneMask);
}
__device__ __forceinline__ float shflIdx(float v, int srcLane) {
  return __shfl_sync(0xffffffffu, v, srcLane);
}

/// 2^x (ex2.approx: relative error ~2^-22; -inf gives +0).
__device__ __forceinline__ float fastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// x rounded to TF32 (10-bit significand, to nearest, ties away from
/// zero), as an f32.
__device__ __forceinline__ float roundTf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

/// p[0] += a, p[1] += b in global memory, atomically per element (p
/// 8-byte aligned); the result is not read, so this is a reduction (red):
/// one v2 reduction on sm_90, two scalar ones before.
__device__ __forceinline__ void atomicAddPair(float *p, float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(p), "f"(a),
               "f"(b)
               : "memory");
#else
  atomicAdd(p, a);
  atomicAdd(p + 1, b);
#endif
}

/// A row's log-sum-exp of its scaled scores (natural log) from the online
/// softmax's running max (base-2 units) and sum; -inf when no key is
/// visible.
__device__ __forceinline__ float rowLogSumExp(float rowMax, float sum) {
  constexpr float kLn2 = 0.6931471805599453f;
  return sum > 0.f ? (rowMax + log2f(sum)) * kLn2 : kNegInf;
}

/// Copies 16 bytes global -> shared asynchronously; when !valid, writes 16
/// zero bytes and reads nothing (src must still be a valid address).
__device__ __forceinline__ void cpAsync16(void *smemDst, const void *gmemSrc,
                                          bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smemDst));
  const int srcBytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst),
               "l"(gmemSrc), "r"(srcBytes)
               : "memory");
}
/// As cpAsync16 for 4 bytes (through L1: .cg takes 16-byte copies only).
__device__ __forceinline__ void cpAsync4(void *smemDst, const void *gmemSrc,
                                         bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smemDst));
  const int srcBytes = valid ? 4 : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst),
               "l"(gmemSrc), "r"(srcBytes)
               : "memory");
}

__device__ __forceinline__ void cpAsyncCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
/// Waits until at most N committed groups of this thread are in flight.
template <int N> __device__ __forceinline__ void cpAsyncWait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/// Four 8x8 b16 matrices; lanes 8i..8i+7 give the row addresses of matrix
/// i, and r[i] receives (row lane/4, columns 2(lane%4), +1) of matrix i.
__device__ __forceinline__ void ldmatrixX4(uint32_t (&r)[4], const void *p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a));
}
/// As ldmatrixX4, transposed: r[i] receives (rows 2(lane%4), +1, column
/// lane/4) of matrix i.
__device__ __forceinline__ void ldmatrixX4Trans(uint32_t (&r)[4],
                                                const void *p) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(a));
}

/// d += A(16x16, row) * B(16x8, col) on the tensor cores, f32 accumulation.
template <typename T>
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4],
                                         uint32_t b0, uint32_t b1);
template <>
__device__ __forceinline__ void
mma16816<__nv_bfloat16>(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                        uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void mma16816<__half>(float (&d)[4],
                                                 const uint32_t (&a)[4],
                                                 uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

//===----------------------------------------------------------------------===//
// Element conversions and shared helpers.
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float toFloat(float x) { return x; }
__device__ __forceinline__ float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ __forceinline__ float toFloat(__half x) { return __half2float(x); }

template <typename T> __device__ __forceinline__ T fromFloat(float x);
template <> __device__ __forceinline__ float fromFloat<float>(float x) {
  return x;
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}

/// Two floats rounded to T and packed into 32 bits, `lo` in the low half
/// (the lower column of an mma fragment).
template <typename T>
__device__ __forceinline__ uint32_t packPair(float lo, float hi);
template <>
__device__ __forceinline__ uint32_t packPair<__nv_bfloat16>(float lo,
                                                            float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  uint32_t u;
  memcpy(&u, &v, sizeof(u));
  return u;
}
template <>
__device__ __forceinline__ uint32_t packPair<__half>(float lo, float hi) {
  const __half2 v = __floats2half2_rn(lo, hi);
  uint32_t u;
  memcpy(&u, &v, sizeof(u));
  return u;
}

__device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }
__device__ __forceinline__ int imax(int a, int b) { return a > b ? a : b; }

/// The element offset of the mask for batch index `b`.
__device__ __forceinline__ int64_t maskBatchOffset(const AttentionParams &p,
                                                   int64_t b) {
  int64_t offset = 0;
  for (int i = p.maskLeadRank - 1; i >= 0; --i) {
    const int64_t n = p.maskLeadDims[i];
    offset += (b % n) * p.maskLeadStrides[i];
    b /= n;
  }
  return offset;
}

/// The causal diagonal of this launch: query i sees keys j <= i + diag.
/// Kernels read it once, at their start.
__device__ __forceinline__ int causalDiag(const AttentionParams &p) {
  return p.queryStart ? static_cast<int>(*p.queryStart) : p.diag;
}

/// Whether key `col` lies outside query `row`'s causal band (past the
/// diagonal `diag`, or before a sliding window).
__device__ __forceinline__ bool outsideBand(const AttentionParams &p, int diag,
                                            int row, int col) {
  return p.causal &&
         (col > row + diag || (p.window > 0 && col <= row + diag - p.window));
}

/// Index of the first key any query row from m0 on may see (0 without a
/// sliding window).
__device__ __forceinline__ int firstVisibleKey(const AttentionParams &p,
                                               int diag, int m0) {
  return p.window > 0 ? imax(0, m0 + diag - p.window + 1) : 0;
}

/// Index of the last key any of the query rows [m0, m0 + rows) may see, or
/// -1 when none may.
__device__ __forceinline__ int lastVisibleKey(const AttentionParams &p,
                                              int diag, int m0, int rows) {
  int last = p.sk - 1;
  if (p.causal) // Sizes are < 2^30: no overflow.
    last = imin(last, imin(m0 + rows, p.sq) - 1 + diag);
  return last < 0 ? -1 : last;
}
//===----------------------------------------------------------------------===//
// Swizzled shared-memory tiles.
//===----------------------------------------------------------------------===//

/// Element offset of (row, col) in a shared tile of kCols 16-bit columns per
/// row whose 16-byte chunks are permuted by chunk ^ (row % 8): the 8 rows
/// that one ldmatrix matrix (or 8 consecutive cp.async chunks) touches then
/// hit 8 different bank groups. kCols must be a multiple of 64.
template <int kCols> __device__ __forceinline__ int swizzle(int row, int col) {
  return row * kCols + ((((col >> 3) ^ (row & 7))) << 3) + (col & 7);
}

/// Issues cp.async of rows [0, kRows) x kCols 16-bit columns of the
/// row-major `src` (rows `rowStride` elements apart) into the swizzled tile
/// `dst`, spread over the kThreads threads of the CTA; rows at or past
/// `validRows` are zero-filled.
template <int kRows, int kCols, int kThreads, typename T>
__device__ __forceinline__ void
loadTileAsync(T *dst, const T *src, int64_t rowStride, int validRows) {
  constexpr int kChunksPerRow = kCols / 8;
  constexpr int kChunks = kRows * kChunksPerRow;
  static_assert(kChunks % kThreads == 0, "tile must split evenly");
#pragma unroll
  for (int i = 0; i < kChunks / kThreads; ++i) {
    const int c = i * kThreads + static_cast<int>(threadIdx.x);
    const int row = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
    const bool valid = row < validRows;
    cpAsync16(dst + swizzle<kCols>(row, col),
              valid ? src + int64_t(row) * rowStride + col : src, valid);
  }
}

//===----------------------------------------------------------------------===//
// Host side.
//===----------------------------------------------------------------------===//

/// Whether PARACC_ATTENTION_KERNEL=generic asks for the SIMT kernel.
inline bool forceGenericKernel() {
  const char *env = std::getenv("PARACC_ATTENTION_KERNEL");
  return env && std::strcmp(env, "generic") == 0;
}

/// Fills the mask's strides in `p` for its broadcast to `scoreShape`
/// ([lead..., sq, sk]); leading dimensions are merged where possible.
inline Status setMaskStrides(const KernelArgs &args, const Shape &maskShape,
                             const Shape &scoreShape, AttentionParams &p) {
  const size_t rank = scoreShape.size();
  // Right-aligned broadcast (checked by the caller): pad with 1s.
  Shape dims(rank - maskShape.size(), 1);
  dims.insert(dims.end(), maskShape.begin(), maskShape.end());
  std::vector<int64_t> strides(rank, 0);
  int64_t s = 1;
  for (size_t i = rank; i-- > 0;) {
    strides[i] = dims[i] == 1 ? 0 : s;
    s *= dims[i];
  }
  p.maskRowStride = strides[rank - 2];
  p.maskColStride = strides[rank - 1];
  // Leading dims of the score shape with their mask strides; size-1 dims
  // dropped, adjacent dims merged when the mask stays linear across them.
  std::vector<int64_t> leadDims, leadStrides;
  for (size_t i = 0; i + 2 < rank; ++i) {
    if (scoreShape[i] == 1)
      continue;
    if (!leadDims.empty() && leadStrides.back() == strides[i] * scoreShape[i]) {
      leadDims.back() *= scoreShape[i];
      leadStrides.back() = strides[i];
      continue;
    }
    leadDims.push_back(scoreShape[i]);
    leadStrides.push_back(strides[i]);
  }
  if (leadDims.size() > size_t(kMaxMaskLeadDims))
    return args.fail("the mask's broadcast over the leading dims needs ",
                     leadDims.size(), " dims; the GPU kernel takes at most ",
                     kMaxMaskLeadDims);
  p.maskLeadRank = static_cast<int32_t>(leadDims.size());
  for (size_t i = 0; i < leadDims.size(); ++i) {
    p.maskLeadDims[i] = leadDims[i];
    p.maskLeadStrides[i] = leadStrides[i];
  }
  return Status::ok();
}

/// Launches `kernel(params)` on `stream` with `smemBytes` of dynamic shared
/// memory, setting the kernel's shared-memory limit first (per launch
/// rather than cached: the attribute is per device, and the call is cheap
/// next to the kernel). Errors start with `op` ("attention" or
/// "attention_grad") and name the kernel.
template <typename Params>
Status launchAttentionKernel(const char *op, const char *name,
                             void (*kernel)(Params), dim3 grid, dim3 block,
                             size_t smemBytes, const Params &params,
                             cudaStream_t stream) {
  const void *fn = reinterpret_cast<const void *>(kernel);
  cudaError_t err = cudaFuncSetAttribute(
      fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (err != cudaSuccess)
    return errorf(op, ": ", name, ": setting ", smemBytes,
                  " bytes of shared memory failed: ", cudaGetErrorString(err));
  Params p = params;
  void *args[] = {&p};
  err = cudaLaunchKernel(fn, grid, block, args, smemBytes, stream);
  if (err != cudaSuccess)
    return errorf(op, ": CUDA kernel launch failed (", name, ", grid ", grid.x,
                  "x", grid.y, ", ", smemBytes,
                  " bytes of shared memory): ", cudaGetErrorString(err));
  return Status::ok();
}

} // namespace paracc::rt::cuda::attn

#endif // PARACC_RUNTIME_CUDA_ATTENTIONPRIMITIVES_CUH
