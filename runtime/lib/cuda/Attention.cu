//===- Attention.cu - Fused scaled-dot-product attention -------*- C++ -*-===//
//
// The Attention instruction (OpCodes.def) on the GPU, memory-efficient: the
// Sq x Sk score matrix is never materialized. Two kernels:
//
// * flashAttentionKernel (bf16/f16, D == Dv in {64, 128}): FlashAttention-2
//   style. One CTA of 8 warps per (batch index, 128 query rows); each warp
//   owns 16 query rows whose Q fragments stay in registers. Key/value tiles
//   of 64 rows stream through shared memory, double-buffered with cp.async
//   (16-byte chunks, XOR-swizzled so that cp.async and ldmatrix are free of
//   bank conflicts). S = Q K^T and O += P V run on the tensor cores
//   (mma.sync m16n8k16, f32 accumulation); the S accumulator fragments are
//   reused as the A operand of P V without going through shared memory.
//   Softmax is online in registers (running max and sum per row, base-2
//   exponentials with log2(e) folded into the scale); O is rescaled per tile
//   and written once, through shared memory, with 16-byte stores. Causal:
//   key tiles past the block's last visible key are never loaded; only
//   tiles that cross the diagonal or the end of the keys are masked, and a
//   warp whose 16 rows see none of a tile's keys skips that tile's math.
//   CTAs with the most key tiles are scheduled first.
//
// * genericAttentionKernel (f32, f16, bf16, D and Dv up to 256, any
//   alignment): a SIMT flash kernel in f32. One CTA of 8 warps per (batch
//   index, 32 query rows); each warp owns 4 rows. Per tile of 32 keys held in
//   shared memory (f32), lane j computes the scores of key j, the warp does
//   the online softmax with shuffles, and lane l accumulates output columns
//   l, l + 32, ... in registers.
//
// Both take the optional additive mask through per-dimension strides of its
// broadcast to [lead..., Sq, Sk] (0 on broadcast dimensions), so every numpy
// broadcast works without materializing it. Fully masked rows (all -inf, or
// no visible key under causal masking) give zeros. Grouped-query attention
// (k and v with 1 / kvGroup of q's heads): the CTAs of query attention b
// read k and v at kv attention b / kvGroup (kvBatchBase).
//
// Where cuDNN's fused attention takes the operands (CudnnAttention.h),
// launchAttention runs it instead of these kernels.
//
// Setting PARACC_ATTENTION_KERNEL=generic in the environment forces the SIMT
// kernel (for debugging and comparisons).
//
//===----------------------------------------------------------------------===//

#include "cuda/AttentionKernel.h"
#include "cuda/AttentionTf32.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/CudnnAttention.h"

#include "Kernels/AttentionGeometry.h"
#include "cuda/AttentionPrimitives.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace paracc::rt::cuda {
namespace {

using namespace attn;

//===----------------------------------------------------------------------===//
// Tiling.
//===----------------------------------------------------------------------===//

/// The tensor-core kernel's tiling.
constexpr int kTcWarps = 8;
constexpr int kTcThreads = kTcWarps * 32;
constexpr int kTcBlockM = kTcWarps * 16; // 16 query rows per warp.
constexpr int kTcBlockN = 64;            // Keys per tile.

/// The SIMT kernel's tiling.
constexpr int kGenWarps = 8;
constexpr int kGenThreads = kGenWarps * 32;
constexpr int kGenRowsPerWarp = 4;
constexpr int kGenBlockM = kGenWarps * kGenRowsPerWarp;
constexpr int kGenBlockN = 32; // One key per lane.
constexpr int kGenMaxDv = 256;
constexpr int kGenMaxD = 256;
constexpr int kGenDvChunks = kGenMaxDv / 32;

/// Sets n floats to -inf (the statistics of attention without keys).
__global__ void fillNegInfKernel(float *x, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    x[i] = kNegInf;
}

//===----------------------------------------------------------------------===//
// Tensor-core kernel.
//===----------------------------------------------------------------------===//

/// FlashAttention-2 forward for bf16/f16, D == Dv == kD. Grid: x = batch
/// index, y = query blocks of kTcBlockM rows (reversed, so that under causal
/// masking the blocks with the most key tiles start first). Dynamic shared
/// memory: Q tile + 2 x (K tile + V tile) = (kTcBlockM + 4 kTcBlockN) kD T.
template <typename T, int kD, bool kHasMask>
__global__ void __launch_bounds__(kTcThreads, kD <= 64 ? 2 : 1)
    flashAttentionKernel(AttentionParams p) {
  const int diag = causalDiag(p);
  static_assert(kD % 64 == 0, "the swizzle needs 64-column multiples");
  constexpr int kM = kTcBlockM, kN = kTcBlockN;
  constexpr int kKSteps = kD / 16; // k-steps of S = Q K^T.
  constexpr int kSTiles = kN / 8;  // 8-column tiles of S.
  constexpr int kOTiles = kD / 8;  // 8-column tiles of O.
  constexpr int kPSteps = kN / 16; // k-steps of O += P V.

  T *sQ = reinterpret_cast<T *>(dynamicSmem());
  T *sK = sQ + kM * kD; // Two buffers of kN x kD.
  T *sV = sK + 2 * kN * kD;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int m0 = static_cast<int>(gridDim.y - 1 - blockIdx.y) * kM;
  const int64_t stride = int64_t(p.heads) * kD;      // q and out.
  const int64_t kvStride = int64_t(kvHeads(p)) * kD; // k and v.
  const T *q = static_cast<const T *>(p.q) + batchBase(p, b, p.sq, kD) +
               int64_t(m0) * stride;
  const T *k = static_cast<const T *>(p.k) + kvBatchBase(p, b, p.sk, kD);
  const T *v = static_cast<const T *>(p.v) + kvBatchBase(p, b, p.sk, kD);

  const int lastKey = lastVisibleKey(p, diag, m0, kM);
  const int nTiles = lastKey < 0 ? 0 : lastKey / kN + 1;
  // Under a sliding window the tiles before the block's first visible key
  // are never loaded either.
  const int firstTile = imin(firstVisibleKey(p, diag, m0) / kN, nTiles);

  // Prologue: Q (group 0) and the first K/V tile (group 1).
  loadTileAsync<kM, kD, kTcThreads>(sQ, q, stride, imin(kM, p.sq - m0));
  cpAsyncCommit();
  if (firstTile < nTiles) {
    const int f0 = firstTile * kN;
    loadTileAsync<kN, kD, kTcThreads>(sK, k + int64_t(f0) * kvStride, kvStride,
                                      imin(kN, p.sk - f0));
    loadTileAsync<kN, kD, kTcThreads>(sV, v + int64_t(f0) * kvStride, kvStride,
                                      imin(kN, p.sk - f0));
  }
  cpAsyncCommit();
  cpAsyncWait<1>();
  blockSync();

  // This warp's 16 query rows as mma A fragments, kept for the whole loop.
  uint32_t qFrag[kKSteps][4];
  {
    const int row = warp * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
#pragma unroll
    for (int kk = 0; kk < kKSteps; ++kk)
      ldmatrixX4(qFrag[kk], sQ + swizzle<kD>(row, kk * 16 + (lane >> 4) * 8));
  }

  // The accumulator rows of this thread: rowA and rowA + 8.
  const int warpRow0 = m0 + warp * 16;
  const int rowA = warpRow0 + (lane >> 2);
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  float o[kOTiles][4];
#pragma unroll
  for (int t = 0; t < kOTiles; ++t)
    o[t][0] = o[t][1] = o[t][2] = o[t][3] = 0.f;
  float rowMax[2] = {kNegInf, kNegInf}, rowSum[2] = {0.f, 0.f};

  for (int j = firstTile; j < nTiles; ++j) {
    const int buf = (j - firstTile) & 1;
    // Prefetch tile j + 1 into the other buffer (free since the barrier at
    // the end of iteration j - 1), then wait for tile j.
    if (j + 1 < nTiles) {
      const int n1 = (j + 1) * kN;
      loadTileAsync<kN, kD, kTcThreads>(sK + (buf ^ 1) * kN * kD,
                                        k + int64_t(n1) * kvStride, kvStride,
                                        imin(kN, p.sk - n1));
      loadTileAsync<kN, kD, kTcThreads>(sV + (buf ^ 1) * kN * kD,
                                        v + int64_t(n1) * kvStride, kvStride,
                                        imin(kN, p.sk - n1));
      cpAsyncCommit();
      cpAsyncWait<1>();
    } else {
      cpAsyncWait<0>();
    }
    blockSync();
    const T *tK = sK + buf * kN * kD;
    const T *tV = sV + buf * kN * kD;
    const int n0 = j * kN;
    // A warp whose rows are all past Sq, or all before this tile's first
    // key under causal masking, skips the tile (p = 0 for all of it).
    const bool warpActive =
        warpRow0 < p.sq && !(p.causal && n0 > warpRow0 + 15 + diag) &&
        !(p.window > 0 && n0 + kN - 1 <= warpRow0 + diag - p.window);
    if (warpActive) {
      // S = Q K^T: the B operand (k = head dim, n = key) is K's rows, so a
      // non-transposed ldmatrix of K gives it; one x4 covers 16 keys x 16 dims.
      float s[kSTiles][4];
#pragma unroll
      for (int t = 0; t < kSTiles; ++t)
        s[t][0] = s[t][1] = s[t][2] = s[t][3] = 0.f;
#pragma unroll
      for (int kk = 0; kk < kKSteps; ++kk) {
#pragma unroll
        for (int np = 0; np < kN / 16; ++np) {
          uint32_t kb[4];
          ldmatrixX4(kb,
                     tK + swizzle<kD>(np * 16 + (lane & 7) + (lane >> 4) * 8,
                                      kk * 16 + ((lane >> 3) & 1) * 8));
          mma16816<T>(s[2 * np], qFrag[kk], kb[0], kb[1]);
          mma16816<T>(s[2 * np + 1], qFrag[kk], kb[2], kb[3]);
        }
      }

      // Scale to base-2 units, add the mask, mask the keys past Sk and past
      // the causal diagonal (only tiles that reach them need it).
      const bool edge = n0 + kN > p.sk ||
                        (p.causal && n0 + kN - 1 > m0 + diag) || p.window > 0;
#pragma unroll
      for (int t = 0; t < kSTiles; ++t) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          float x = s[t][e] * p.scaleLog2;
          const int row = rowA + (e >> 1) * 8;
          const int col = n0 + t * 8 + (lane & 3) * 2 + (e & 1);
          if constexpr (kHasMask) {
            if (row < p.sq && col < p.sk)
              x +=
                  toFloat(mask[row * p.maskRowStride + col * p.maskColStride]) *
                  kLog2e;
          }
          if (edge && (col >= p.sk || outsideBand(p, diag, row, col)))
            x = kNegInf;
          s[t][e] = x;
        }
      }

      // Online softmax: rows rowA (elements 0, 1) and rowA + 8 (2, 3); the 4
      // lanes of a quad share the rows.
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        float mx = kNegInf;
#pragma unroll
        for (int t = 0; t < kSTiles; ++t)
          mx = fmaxf(mx, fmaxf(s[t][2 * r], s[t][2 * r + 1]));
        mx = fmaxf(mx, shflXor(mx, 1));
        mx = fmaxf(mx, shflXor(mx, 2));
        const float newMax = fmaxf(rowMax[r], mx);
        // All -inf so far: subtract 0 so that exp2 gives 0, not NaN.
        const float base = newMax == kNegInf ? 0.f : newMax;
        const float alpha = fastExp2(rowMax[r] - base);
        rowMax[r] = newMax;
        float sum = 0.f;
#pragma unroll
        for (int t = 0; t < kSTiles; ++t) {
          s[t][2 * r] = fastExp2(s[t][2 * r] - base);
          s[t][2 * r + 1] = fastExp2(s[t][2 * r + 1] - base);
          sum += s[t][2 * r] + s[t][2 * r + 1];
        }
        rowSum[r] = rowSum[r] * alpha + sum;
#pragma unroll
        for (int t = 0; t < kOTiles; ++t) {
          o[t][2 * r] *= alpha;
          o[t][2 * r + 1] *= alpha;
        }
      }

      // O += P V: the S accumulators of key tiles 2kk, 2kk + 1 are exactly the
      // A fragment of k-step kk; V (k = key, n = dv) needs the transposed
      // ldmatrix; one x4 covers 16 keys x 16 output columns.
#pragma unroll
      for (int kk = 0; kk < kPSteps; ++kk) {
        uint32_t pa[4];
        pa[0] = packPair<T>(s[2 * kk][0], s[2 * kk][1]);
        pa[1] = packPair<T>(s[2 * kk][2], s[2 * kk][3]);
        pa[2] = packPair<T>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[3] = packPair<T>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
        for (int dp = 0; dp < kD / 16; ++dp) {
          uint32_t vb[4];
          ldmatrixX4Trans(
              vb, tV + swizzle<kD>(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                   dp * 16 + (lane >> 4) * 8));
          mma16816<T>(o[2 * dp], pa, vb[0], vb[1]);
          mma16816<T>(o[2 * dp + 1], pa, vb[2], vb[3]);
        }
      }
    } // warpActive
    // Every warp is done with this buffer before it is refilled.
    blockSync();
  }

  // Epilogue: normalize (rows without a visible key give 0), stage this
  // warp's 16 rows in its own rows of the Q tile (only this warp read them),
  // then store 16-byte chunks.
  float inv[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    float l = rowSum[r];
    l += shflXor(l, 1);
    l += shflXor(l, 2);
    inv[r] = l > 0.f ? 1.f / l : 0.f;
    // The quad shares the row's max and sum: its first lane saves them.
    const int row = rowA + r * 8;
    if (p.stats && (lane & 3) == 0 && row < p.sq)
      p.stats[b * p.sq + row] = rowLogSumExp(rowMax[r], l);
  }
  T *sO = sQ;
  {
    const int row = warp * 16 + (lane >> 2);
#pragma unroll
    for (int t = 0; t < kOTiles; ++t) {
      const int col = t * 8 + (lane & 3) * 2;
      *reinterpret_cast<uint32_t *>(sO + swizzle<kD>(row, col)) =
          packPair<T>(o[t][0] * inv[0], o[t][1] * inv[0]);
      *reinterpret_cast<uint32_t *>(sO + swizzle<kD>(row + 8, col)) =
          packPair<T>(o[t][2] * inv[1], o[t][3] * inv[1]);
    }
  }
  warpSync();
  T *out = static_cast<T *>(p.out) + batchBase(p, b, p.sq, kD);
  constexpr int kChunksPerRow = kD / 8;
#pragma unroll
  for (int i = 0; i < 16 * kChunksPerRow / 32; ++i) {
    const int c = i * 32 + lane;
    const int r = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
    const int row = m0 + warp * 16 + r;
    if (row < p.sq)
      *reinterpret_cast<uint4 *>(out + int64_t(row) * stride + col) =
          *reinterpret_cast<const uint4 *>(sO +
                                           swizzle<kD>(warp * 16 + r, col));
  }
}

//===----------------------------------------------------------------------===//
// SIMT kernel.
//===----------------------------------------------------------------------===//

/// Shared floats of genericAttentionKernel: Q (kGenBlockM x d), K
/// (kGenBlockN x kStride, kStride = d | 1 so that lanes reading different
/// keys hit different banks), V (kGenBlockN x dv).
inline size_t genericSmemBytes(int d, int dv) {
  return sizeof(float) *
         (size_t(kGenBlockM) * d + size_t(kGenBlockN) * (d | 1) +
          size_t(kGenBlockN) * dv);
}

/// Flash attention in f32 on the CUDA cores, any dtype, d <= kGenMaxD, dv
/// <= kGenMaxDv. Grid: x = batch index, y = query blocks of kGenBlockM rows
/// (reversed, like the tensor-core kernel).
template <typename T, bool kHasMask>
__global__ void __launch_bounds__(kGenThreads)
    genericAttentionKernel(AttentionParams p) {
  const int diag = causalDiag(p);
  const int d = p.d, dv = p.dv, kStride = p.d | 1;
  float *sQ = reinterpret_cast<float *>(dynamicSmem());
  float *sK = sQ + kGenBlockM * d;
  float *sV = sK + kGenBlockN * kStride;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int m0 = static_cast<int>(gridDim.y - 1 - blockIdx.y) * kGenBlockM;
  // Row strides of q (d) and out (dv), and of k and v (kvHeads columns).
  const int64_t dStride = int64_t(p.heads) * d, dvStride = int64_t(p.heads) * dv;
  const int64_t kRowStride = int64_t(kvHeads(p)) * d,
                vRowStride = int64_t(kvHeads(p)) * dv;
  const T *q = static_cast<const T *>(p.q) + batchBase(p, b, p.sq, d) +
               int64_t(m0) * dStride;
  const T *k = static_cast<const T *>(p.k) + kvBatchBase(p, b, p.sk, d);
  const T *v = static_cast<const T *>(p.v) + kvBatchBase(p, b, p.sk, dv);
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  const int qRows = imin(kGenBlockM, p.sq - m0);
  for (int i = tid; i < kGenBlockM * d; i += kGenThreads) {
    const int r = i / d;
    sQ[i] = r < qRows ? toFloat(q[int64_t(r) * dStride + (i - r * d)]) : 0.f;
  }

  const int lastKey = lastVisibleKey(p, diag, m0, kGenBlockM);
  const int nTiles = lastKey < 0 ? 0 : lastKey / kGenBlockN + 1;

  float acc[kGenRowsPerWarp][kGenDvChunks];
  float rowMax[kGenRowsPerWarp], rowSum[kGenRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
    rowMax[r] = kNegInf;
    rowSum[r] = 0.f;
#pragma unroll
    for (int c = 0; c < kGenDvChunks; ++c)
      acc[r][c] = 0.f;
  }
  const int row0 = warp * kGenRowsPerWarp; // First row of this warp in sQ.

  for (int j = 0; j < nTiles; ++j) {
    const int n0 = j * kGenBlockN;
    const int keys = imin(kGenBlockN, p.sk - n0);
    blockSync(); // The previous tile is no longer read.
    for (int i = tid; i < kGenBlockN * d; i += kGenThreads) {
      const int r = i / d, c = i - r * d;
      sK[r * kStride + c] =
          r < keys ? toFloat(k[int64_t(n0 + r) * kRowStride + c]) : 0.f;
    }
    for (int i = tid; i < kGenBlockN * dv; i += kGenThreads) {
      const int r = i / dv;
      sV[i] = r < keys ? toFloat(v[int64_t(n0 + r) * vRowStride + (i - r * dv)])
                       : 0.f;
    }
    blockSync();

    // Scores of key n0 + lane against the warp's rows.
    float sc[kGenRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kGenRowsPerWarp; ++r)
      sc[r] = 0.f;
    const float *kRow = sK + lane * kStride;
    for (int c = 0; c < d; ++c) {
      const float kv = kRow[c];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r)
        sc[r] += sQ[(row0 + r) * d + c] * kv;
    }

    const int key = n0 + lane;
    float pr[kGenRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kGenRowsPerWarp; ++r) {
      const int row = m0 + row0 + r;
      float x = sc[r] * p.scaleLog2;
      if constexpr (kHasMask) {
        if (row < p.sq && key < p.sk)
          x += toFloat(mask[row * p.maskRowStride + key * p.maskColStride]) *
               kLog2e;
      }
      if (key >= p.sk || outsideBand(p, diag, row, key))
        x = kNegInf;
      float mx = x;
#pragma unroll
      for (int o = 16; o > 0; o >>= 1)
        mx = fmaxf(mx, shflXor(mx, o));
      const float newMax = fmaxf(rowMax[r], mx);
      const float base = newMax == kNegInf ? 0.f : newMax;
      const float alpha = fastExp2(rowMax[r] - base);
      rowMax[r] = newMax;
      pr[r] = fastExp2(x - base);
      rowSum[r] = rowSum[r] * alpha + pr[r]; // Per lane; summed at the end.
#pragma unroll
      for (int c = 0; c < kGenDvChunks; ++c)
        acc[r][c] *= alpha;
    }

    // acc[r][c] += sum over keys jj of p[r][jj] * V[jj][lane + 32 c].
    for (int jj = 0; jj < keys; ++jj) {
      float pj[kGenRowsPerWarp];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r)
        pj[r] = shflIdx(pr[r], jj);
      const float *vRow = sV + jj * dv;
#pragma unroll
      for (int c = 0; c < kGenDvChunks; ++c) {
        const int col = lane + 32 * c;
        if (col < dv) {
          const float vv = vRow[col];
#pragma unroll
          for (int r = 0; r < kGenRowsPerWarp; ++r)
            acc[r][c] += pj[r] * vv;
        }
      }
    }
  }

  T *out = static_cast<T *>(p.out) + batchBase(p, b, p.sq, dv);
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
    float l = rowSum[r];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      l += shflXor(l, o);
    const float inv = l > 0.f ? 1.f / l : 0.f;
    const int row = m0 + row0 + r;
    if (row >= p.sq)
      continue;
    if (p.stats && lane == 0)
      p.stats[b * p.sq + row] = rowLogSumExp(rowMax[r], l);
#pragma unroll
    for (int c = 0; c < kGenDvChunks; ++c) {
      const int col = lane + 32 * c;
      if (col < dv)
        out[int64_t(row) * dvStride + col] = fromFloat<T>(acc[r][c] * inv);
    }
  }
}

//===----------------------------------------------------------------------===//
// Host side: validation and kernel selection.
//===----------------------------------------------------------------------===//

using AttentionKernelFn = void (*)(AttentionParams);

/// A checked launch: which kernel, its configuration and parameters.
struct AttentionPlan {
  AttentionKernelFn kernel = nullptr; ///< Null: nothing to launch.
  const char *kernelName = "";
  dim3 grid, block;
  size_t smemBytes = 0;
  AttentionParams params;
  /// Zero the output first (no keys at all: every row is fully masked),
  /// and set the saved statistics to -inf.
  bool zeroOutput = false;
  void *outData = nullptr;
  size_t outBytes = 0;
  float *statsData = nullptr;
  int64_t statsElements = 0;
  /// The checked operands, for cuDNN (CudnnAttention.h).
  AttentionGeometry geometry;
  DType dtype = DType::Invalid;
  bool hasMask = false;
  /// f32 on the tensor cores (AttentionTf32.h) instead of `kernel`.
  bool tf32 = false;
};

template <typename T, int kD>
AttentionKernelFn pickTensorCoreKernel(bool hasMask) {
  return hasMask ? &flashAttentionKernel<T, kD, true>
                 : &flashAttentionKernel<T, kD, false>;
}

template <typename T> AttentionKernelFn pickGenericKernel(bool hasMask) {
  return hasMask ? &genericAttentionKernel<T, true>
                 : &genericAttentionKernel<T, false>;
}

/// Checks the operands like the CPU kernel (same messages) and picks the
/// kernel.
Status planAttention(const AttentionAttrs &attrs,
                     const std::vector<DeviceTensor> &inputs,
                     const std::vector<DeviceTensor> &outputs,
                     const KernelOptions &options, AttentionPlan &plan) {
  // (The geometry's operand pointers are into these views: they are gone
  // once planning returns.)
  const HostViews views(inputs, outputs);
  const std::vector<const Tensor *> &in = views.in;
  const std::vector<Tensor *> &outs = views.out;
  const OpAttrs typed = attrs;
  const KernelArgs args{OpCode::Attention, typed, in, outs};

  if (in.empty())
    return args.fail("expected 3 to 4 operands, got 0");
  const DType dt = in[0]->dtype();
  if (dt != DType::F32 && dt != DType::BF16 && dt != DType::F16)
    return args.fail("element type ", dtypeName(dt),
                     " has no GPU kernel (f32, bf16, f16)");
  AttentionGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttention(args, g));
  Tensor &outView = *outs[0];
  float *stats = g.savedStats ? static_cast<float *>(outs[1]->data()) : nullptr;
  const Tensor &q = *in[0], &k = *in[1], &v = *in[2];
  const Tensor *mask = g.hasMask ? in[3] : nullptr;
  const int64_t sq = g.sq, d = g.d, sk = g.sk, dv = g.dv;
  const Shape &scoreShape = g.scoreShape;

  plan = AttentionPlan();
  plan.geometry = g;
  plan.dtype = dt;
  plan.hasMask = mask != nullptr;
  const int64_t statsElements = stats ? outs[1]->numElements() : 0;
  if (statsElements > 0 && !stats)
    return args.fail("null device pointer");
  if (outView.numElements() == 0 && statsElements == 0)
    return Status::ok(); // Nothing to compute.
  if (sk == 0) {
    // No keys: every row is fully masked.
    plan.zeroOutput = true;
    plan.outData = outputs[0].data;
    plan.outBytes = outputs[0].byteSize();
    plan.statsData = stats;
    plan.statsElements = statsElements;
    return Status::ok();
  }
  // Sizes: 32-bit row/key indices with room for i + (sk - sq).
  constexpr int64_t kMaxSeq = int64_t(1) << 30;
  if (sq > kMaxSeq || sk > kMaxSeq)
    return args.fail("sequence lengths up to 2^30 on the GPU, got Sq=", sq,
                     " Sk=", sk);
  if (d > kGenMaxD || dv > kGenMaxDv)
    return args.fail("head dims up to ", kGenMaxD, " on the GPU, got D=", d,
                     " Dv=", dv);
  for (const Tensor *t :
       {&q, &k, &v, mask, static_cast<const Tensor *>(&outView)})
    if (t && t->numElements() > 0 && !t->data())
      return args.fail("null device pointer");

  AttentionParams &p = plan.params;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.mask = mask ? mask->data() : nullptr;
  p.out = outView.data();
  p.stats = stats;
  p.batch = g.batch;
  if (g.heads > int64_t(std::numeric_limits<int32_t>::max()))
    return args.fail("heads ", g.heads, " exceed 2^31");
  p.heads = static_cast<int32_t>(g.heads);
  p.sq = static_cast<int32_t>(sq);
  p.sk = static_cast<int32_t>(sk);
  p.d = static_cast<int32_t>(d);
  p.dv = static_cast<int32_t>(dv);
  p.causal = g.causal ? 1 : 0;
  p.diag = static_cast<int32_t>(sk - sq);
  // (Read by the kernels; checkAttention checked its type and shape.)
  p.queryStart = g.queryStartOperand
                     ? static_cast<const int64_t *>(g.queryStartOperand->data())
                     : nullptr;
  p.window = static_cast<int32_t>(std::min<int64_t>(g.window, kMaxSeq + 1));
  p.scaleLog2 = static_cast<float>(attrs.scale * 1.4426950408889634);
  if (mask)
    PARACC_RETURN_IF_ERROR(setMaskStrides(args, mask->shape(), scoreShape, p));
  if (p.batch > int64_t(std::numeric_limits<int32_t>::max()))
    return args.fail("batch (product of leading dims) ", p.batch,
                     " exceeds the grid");
  p.kvGroup = static_cast<int32_t>(g.kvGroup); // <= batch.

  const bool hasMask = mask != nullptr;
  auto aligned16 = [](const void *ptr) {
    return reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
  };
  const bool tensorCore = (dt == DType::BF16 || dt == DType::F16) && d == dv &&
                          (d == 64 || d == 128) && aligned16(p.q) &&
                          aligned16(p.k) && aligned16(p.v) &&
                          aligned16(p.out) && !forceGenericKernel();
  plan.tf32 = dt == DType::F32 && options.allowTf32 && !forceGenericKernel() &&
              tf32AttentionShape(d, dv, {p.q, p.k, p.v, p.out});
  const int64_t blockM = tensorCore  ? kTcBlockM
                         : plan.tf32 ? kTf32BlockRows
                                     : kGenBlockM;
  const int64_t mBlocks = (sq + blockM - 1) / blockM;
  if (mBlocks > 65535)
    return args.fail("Sq=", sq, " needs ", mBlocks,
                     " query blocks; the grid takes 65535");
  plan.grid =
      dim3(static_cast<unsigned>(p.batch), static_cast<unsigned>(mBlocks), 1);
  if (plan.tf32) {
    plan.kernelName = "tf32AttentionKernel"; // launchTf32Attention's choice.
  } else if (tensorCore) {
    plan.block = dim3(kTcThreads, 1, 1);
    plan.smemBytes = size_t(kTcBlockM + 4 * kTcBlockN) * d * 2;
    if (dt == DType::BF16) {
      plan.kernel = d == 64 ? pickTensorCoreKernel<__nv_bfloat16, 64>(hasMask)
                            : pickTensorCoreKernel<__nv_bfloat16, 128>(hasMask);
      plan.kernelName = d == 64 ? "flashAttentionKernel<bf16, 64>"
                                : "flashAttentionKernel<bf16, 128>";
    } else {
      plan.kernel = d == 64 ? pickTensorCoreKernel<__half, 64>(hasMask)
                            : pickTensorCoreKernel<__half, 128>(hasMask);
      plan.kernelName = d == 64 ? "flashAttentionKernel<f16, 64>"
                                : "flashAttentionKernel<f16, 128>";
    }
  } else {
    plan.block = dim3(kGenThreads, 1, 1);
    plan.smemBytes = genericSmemBytes(p.d, p.dv);
    switch (dt) {
    case DType::BF16:
      plan.kernel = pickGenericKernel<__nv_bfloat16>(hasMask);
      plan.kernelName = "genericAttentionKernel<bf16>";
      break;
    case DType::F16:
      plan.kernel = pickGenericKernel<__half>(hasMask);
      plan.kernelName = "genericAttentionKernel<f16>";
      break;
    default:
      plan.kernel = pickGenericKernel<float>(hasMask);
      plan.kernelName = "genericAttentionKernel<f32>";
      break;
    }
  }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Host side: launch.
//===----------------------------------------------------------------------===//

Status launchPlan(const AttentionPlan &plan, cudaStream_t stream) {
  if (plan.zeroOutput) {
    cudaError_t err = plan.outBytes > 0 ? cudaMemsetAsync(plan.outData, 0,
                                                          plan.outBytes, stream)
                                        : cudaSuccess;
    if (err == cudaSuccess && plan.statsElements > 0) {
      const int64_t blocks =
          std::min<int64_t>((plan.statsElements + 255) / 256, 1024);
      fillNegInfKernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
          plan.statsData, plan.statsElements);
      err = cudaGetLastError();
    }
    if (err != cudaSuccess)
      return errorf("attention: zeroing the result failed: ",
                    cudaGetErrorString(err));
  }
  if (plan.tf32)
    return launchTf32Attention(plan.params, plan.hasMask, stream);
  if (!plan.kernel)
    return Status::ok();
  return launchAttentionKernel("attention", plan.kernelName, plan.kernel,
                               plan.grid, plan.block, plan.smemBytes,
                               plan.params, stream);
}

} // namespace

namespace {

__global__ void paddedSeqLensKernel(const int64_t *start, int32_t *seqLens,
                                    int64_t outer, int64_t sq) {
  const int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (b < outer) {
    seqLens[b] = int32_t(sq);
    seqLens[outer + b] = int32_t(*start + sq);
  }
}

} // namespace

Status launchPaddedSeqLens(const int64_t *start, int32_t *seqLens,
                           int64_t outer, int64_t sq, cudaStream_t stream) {
  paddedSeqLensKernel<<<unsigned((outer + 255) / 256), 256, 0, stream>>>(
      start, seqLens, outer, sq);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf("attention: writing cuDNN's sequence lengths failed: ",
                  cudaGetErrorString(err));
  return Status::ok();
}

Status launchAttention(const AttentionAttrs &attrs,
                       const std::vector<DeviceTensor> &inputs,
                       const std::vector<DeviceTensor> &outputs,
                       cudaStream_t stream, const KernelOptions &options) {
  AttentionPlan plan;
  PARACC_RETURN_IF_ERROR(planAttention(attrs, inputs, outputs, options, plan));
  // cuDNN's diagonal is fixed when its graph is built: a start read at run
  // time (context parallelism) reaches it through the padding mask when the
  // compiler proved it within [0, Sk - Sq]; other starts take paracc's
  // kernels.
  if (plan.kernel &&
      (!plan.params.queryStart || plan.geometry.startWithinKeys)) {
    CudnnOutcome outcome = CudnnOutcome::NotAvailable;
    PARACC_RETURN_IF_ERROR(runCudnnAttention(
        {&plan.geometry, plan.dtype, plan.hasMask, plan.params.queryStart},
        inputs[0].data, inputs[1].data, inputs[2].data, outputs[0].data,
        plan.params.stats, stream, outcome));
    if (outcome == CudnnOutcome::Ran)
      return Status::ok();
  }
  return launchPlan(plan, stream);
}

} // namespace paracc::rt::cuda
