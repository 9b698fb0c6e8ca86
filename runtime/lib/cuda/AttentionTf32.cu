//===- AttentionTf32.cu - f32 attention on the tensor cores -----*- C++ -*-===//
//
// The f32 Attention and AttentionGrad instructions on the tensor cores when
// the rank allows TF32 (AttentionTf32.h). Both kernels use mma.sync
// m16n8k8 with TF32 operands and f32 accumulators (g = lane / 4, c = lane
// % 4): A (16 x 8) holds (row g, col c), (g+8, c), (g, c+4), (g+8, c+4); B
// (8 x 8) holds (k row c, col g) and (c+4, g); the accumulator holds (row
// g, cols 2c, 2c+1) and (g+8, 2c, 2c+1).
//
// An accumulator tile is turned into the A operand of the next product
// (P V, P^T dY, dS^T Q, dS K) without exchanging values between lanes by
// reading the product's k index through a permutation: within each k-step
// of 8, k index c stands for row 2c of the B operand and c+4 for row 2c+1,
// so a lane's accumulators (cols 2c, 2c+1 of rows g, g+8) are exactly its
// A fragment, and B is read from shared memory at rows 2c and 2c+1.
//
// Operands are rounded to TF32 (cvt.rna) as they are stored into shared
// memory (or, for P and dS, when they become A fragments). Shared tiles are
// f32 rows of D + 4 words (D a multiple of 32): the fragment reads, (row g,
// col c) and (row 2c, col g) patterns alike, then hit 32 distinct banks.
//
// * tf32AttentionKernel: FlashAttention-2's forward. A CTA of 4 warps owns
//   64 query rows, 16 per warp, whose Q fragments stay in registers; tiles
//   of K and V (64 keys for D <= 64, 32 for D = 128) stream through shared
//   memory; online softmax in registers (base-2 exponentials); each row's
//   log-sum-exp is saved when asked for.
// * tf32AttentionGradKeyKernel: the backward's key pass, given each row's
//   log-sum-exp and Delta = rowsum(dY * Y) (from the forward's saved
//   statistics). A CTA of 4 warps owns 64 keys, 16 per warp, and loops over
//   tiles of queries (64 for D <= 64, 32 for D = 128): S^T = K Q^T and dP^T
//   = V dY^T, P^T and dS^T = P^T * (dP^T - Delta) in registers, dV += P^T
//   dY and dK += dS^T Q; the tile's dS^T goes through shared memory to the
//   4 warps, which add dS K, the tile's part of dq, to dq (f32) with
//   vector reductions.
//
// Masking is the other kernels' (AttentionPrimitives.cuh): the additive
// mask through broadcast strides, causal diagonals (also read at run time),
// sliding windows, rows that see no key (zeros, and no gradient). So is
// grouped-query attention: k and v are read at kv attention b / kvGroup,
// and the key pass writes dk and dv per query attention (the caller sums
// each group's).
//
//===----------------------------------------------------------------------===//

#include "cuda/AttentionTf32.h"

#include "cuda/CudaKernelUtil.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace paracc::rt::cuda::attn {
namespace {

constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;
constexpr int kBlockRows = kTf32BlockRows;
static_assert(kBlockRows == kWarps * 16, "16 rows per warp");

/// Keys per tile in the forward, queries per tile in the key pass.
template <int kD> constexpr int streamTile() { return kD <= 64 ? 64 : 32; }

/// Words per row of a shared tile of kD columns.
template <int kD> constexpr int tileStride() { return kD + 4; }

__device__ __forceinline__ uint32_t tf32Bits(float x) {
  return __float_as_uint(roundTf32(x));
}

__device__ __forceinline__ uint32_t bits(float x) { return __float_as_uint(x); }

/// d += A (16 x 8) * B (8 x 8), TF32 operands, f32 accumulation.
__device__ __forceinline__ void mma1688(float (&d)[4], const uint32_t (&a)[4],
                                        uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <int kTiles>
__device__ __forceinline__ void zeroTiles(float (&acc)[kTiles][4]) {
#pragma unroll
  for (int t = 0; t < kTiles; ++t)
    acc[t][0] = acc[t][1] = acc[t][2] = acc[t][3] = 0.f;
}

/// Copies rows [0, kRows) of kD f32 columns of `src` (rows `rowStride`
/// elements apart, 16-byte aligned) into the shared tile `dst` (rows
/// tileStride<kD>() apart), rounded to TF32; rows at or past `validRows`
/// become zeros.
template <int kRows, int kD>
__device__ __forceinline__ void loadTile(float *dst, const float *src,
                                         int64_t rowStride, int validRows) {
  constexpr int kQuads = kD / 4;
  constexpr int kStride = tileStride<kD>();
  for (int i = threadIdx.x; i < kRows * kQuads; i += kThreads) {
    const int r = i / kQuads, col = (i - r * kQuads) * 4;
    float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
    if (r < validRows)
      x = __ldg(reinterpret_cast<const float4 *>(src + r * rowStride + col));
    x.x = roundTf32(x.x);
    x.y = roundTf32(x.y);
    x.z = roundTf32(x.z);
    x.w = roundTf32(x.w);
    *reinterpret_cast<float4 *>(dst + r * kStride + col) = x;
  }
}

/// The A fragment of k-step kk of rows [row0, row0 + 16) of a shared tile.
template <int kD>
__device__ __forceinline__ void
loadRowsFrag(uint32_t (&a)[4], const float *tile, int row0, int kk, int lane) {
  constexpr int kStride = tileStride<kD>();
  const float *p = tile + (row0 + (lane >> 2)) * kStride + kk * 8 + (lane & 3);
  a[0] = bits(p[0]);
  a[1] = bits(p[8 * kStride]);
  a[2] = bits(p[4]);
  a[3] = bits(p[8 * kStride + 4]);
}

/// acc (16 x kRows) += A (16 x kD) * tile^T for a tile of kRows rows of kD
/// columns (B: k = column, n = row); A's k-step kk is aFrag(kk).
template <int kD, int kRows, typename AFrag>
__device__ __forceinline__ void
mmaRowsT(float (&acc)[kRows / 8][4], AFrag aFrag, const float *tile, int lane) {
  constexpr int kStride = tileStride<kD>();
  const float *base = tile + (lane >> 2) * kStride + (lane & 3);
#pragma unroll
  for (int kk = 0; kk < kD / 8; ++kk) {
    uint32_t a[4];
    aFrag(a, kk);
#pragma unroll
    for (int nt = 0; nt < kRows / 8; ++nt) {
      const float *b = base + nt * 8 * kStride + kk * 8;
      mma1688(acc[nt], a, bits(b[0]), bits(b[4]));
    }
  }
}

/// acc (16 x kCols) += P (16 x kRows) * tile[:, col0:col0 + kCols], P given
/// as the accumulators of a 16 x kRows product (read through the k
/// permutation), the tile kRows rows of kD columns.
template <int kD, int kRows, int kCols>
__device__ __forceinline__ void
mmaAccTile(float (&acc)[kCols / 8][4], const float (&pm)[kRows / 8][4],
           const float *tile, int col0, int lane) {
  constexpr int kStride = tileStride<kD>();
  const float *base = tile + 2 * (lane & 3) * kStride + col0 + (lane >> 2);
#pragma unroll
  for (int j = 0; j < kRows / 8; ++j) {
    const uint32_t a[4] = {tf32Bits(pm[j][0]), tf32Bits(pm[j][2]),
                           tf32Bits(pm[j][1]), tf32Bits(pm[j][3])};
    const float *b = base + j * 8 * kStride;
#pragma unroll
    for (int t = 0; t < kCols / 8; ++t)
      mma1688(acc[t], a, bits(b[t * 8]), bits(b[kStride + t * 8]));
  }
}

/// Base-2 row maximum over the 4 lanes that share a row.
__device__ __forceinline__ float quadMax(float v) {
  v = fmaxf(v, shflXor(v, 1));
  return fmaxf(v, shflXor(v, 2));
}
__device__ __forceinline__ float quadSum(float v) {
  v += shflXor(v, 1);
  return v + shflXor(v, 2);
}

/// The scaled (base-2) score of (row, key) with the mask added, or -inf
/// where the key is out of range or outside the causal band.
template <bool kHasMask>
__device__ __forceinline__ float maskedScore(const AttentionParams &p,
                                             const float *mask, int diag,
                                             int row, int key, float s) {
  if (key >= p.sk || row >= p.sq || outsideBand(p, diag, row, key))
    return kNegInf;
  float x = s * p.scaleLog2;
  if constexpr (kHasMask)
    x += mask[row * p.maskRowStride + key * p.maskColStride] * kLog2e;
  return x;
}

/// Whether every (row, key) of rows [row0, row0 + rows) and keys [key0,
/// key0 + keys) is visible without a mask: in range, inside the causal band
/// and the sliding window. Such tiles skip maskedScore's checks.
__device__ __forceinline__ bool wholeTile(const AttentionParams &p, int diag,
                                          int row0, int rows, int key0,
                                          int keys) {
  const int lastRow = row0 + rows - 1, lastKey = key0 + keys - 1;
  if (lastRow >= p.sq || lastKey >= p.sk)
    return false;
  if (!p.causal)
    return true;
  return lastKey <= row0 + diag &&
         (p.window <= 0 || key0 > lastRow + diag - p.window);
}

//===----------------------------------------------------------------------===//
// Forward.
//===----------------------------------------------------------------------===//

/// Grid: x = batch index, y = query blocks of kBlockRows rows (reversed:
/// under causal masking the blocks with the most key tiles start first).
/// Dynamic shared memory: max(kBlockRows, 2 kN) rows of tileStride<kD>()
/// words (Q staged first, then the K and V tiles).
template <int kD, bool kHasMask>
__global__ void __launch_bounds__(kThreads)
    tf32AttentionKernel(AttentionParams p) {
  constexpr int kN = streamTile<kD>();
  constexpr int kStride = tileStride<kD>();
  constexpr int kKSteps = kD / 8, kSTiles = kN / 8, kOTiles = kD / 8;
  float *sK = reinterpret_cast<float *>(dynamicSmem());
  float *sV = sK + kN * kStride;

  const int diag = causalDiag(p);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t b = blockIdx.x;
  const int m0 = static_cast<int>(gridDim.y - 1 - blockIdx.y) * kBlockRows;
  const int64_t stride = int64_t(p.heads) * kD;      // q and out.
  const int64_t kvStride = int64_t(kvHeads(p)) * kD; // k and v.
  const float *q = static_cast<const float *>(p.q) + batchBase(p, b, p.sq, kD) +
                   int64_t(m0) * stride;
  const float *k =
      static_cast<const float *>(p.k) + kvBatchBase(p, b, p.sk, kD);
  const float *v =
      static_cast<const float *>(p.v) + kvBatchBase(p, b, p.sk, kD);
  [[maybe_unused]] const float *mask =
      kHasMask ? static_cast<const float *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  // This warp's 16 query rows as A fragments, staged through sK.
  loadTile<kBlockRows, kD>(sK, q, stride, imin(kBlockRows, p.sq - m0));
  blockSync();
  uint32_t qFrag[kKSteps][4];
#pragma unroll
  for (int kk = 0; kk < kKSteps; ++kk)
    loadRowsFrag<kD>(qFrag[kk], sK, warp * 16, kk, lane);

  const int rowA = m0 + warp * 16 + (lane >> 2), rowB = rowA + 8;
  const int warpRow0 = m0 + warp * 16;
  const int warpLast =
      warpRow0 < p.sq ? lastVisibleKey(p, diag, warpRow0, 16) : -1;
  const int warpFirst = firstVisibleKey(p, diag, warpRow0);
  const int lastKey = lastVisibleKey(p, diag, m0, kBlockRows);
  const int nTiles = lastKey < 0 ? 0 : lastKey / kN + 1;
  const int firstTile = imin(firstVisibleKey(p, diag, m0) / kN, nTiles);

  float o[kOTiles][4];
  zeroTiles(o);
  float maxA = kNegInf, maxB = kNegInf, sumA = 0.f, sumB = 0.f;

  for (int j = firstTile; j < nTiles; ++j) {
    const int n0 = j * kN;
    blockSync(); // Q's staging, or the previous tile, is no longer read.
    loadTile<kN, kD>(sK, k + int64_t(n0) * kvStride, kvStride, p.sk - n0);
    loadTile<kN, kD>(sV, v + int64_t(n0) * kvStride, kvStride, p.sk - n0);
    blockSync();
    if (n0 > warpLast || n0 + kN - 1 < warpFirst)
      continue; // None of this warp's rows sees the tile.

    float s[kSTiles][4];
    zeroTiles(s);
    mmaRowsT<kD, kN>(
        s,
        [&](uint32_t(&a)[4], int kk) {
          a[0] = qFrag[kk][0];
          a[1] = qFrag[kk][1];
          a[2] = qFrag[kk][2];
          a[3] = qFrag[kk][3];
        },
        sK, lane);

    float tileMaxA = kNegInf, tileMaxB = kNegInf;
    if (!kHasMask && wholeTile(p, diag, warpRow0, 16, n0, kN)) {
#pragma unroll
      for (int nt = 0; nt < kSTiles; ++nt)
#pragma unroll
        for (int e = 0; e < 4; ++e)
          s[nt][e] *= p.scaleLog2;
    } else {
#pragma unroll
      for (int nt = 0; nt < kSTiles; ++nt) {
        const int key = n0 + nt * 8 + 2 * (lane & 3);
        s[nt][0] = maskedScore<kHasMask>(p, mask, diag, rowA, key, s[nt][0]);
        s[nt][1] =
            maskedScore<kHasMask>(p, mask, diag, rowA, key + 1, s[nt][1]);
        s[nt][2] = maskedScore<kHasMask>(p, mask, diag, rowB, key, s[nt][2]);
        s[nt][3] =
            maskedScore<kHasMask>(p, mask, diag, rowB, key + 1, s[nt][3]);
      }
    }
#pragma unroll
    for (int nt = 0; nt < kSTiles; ++nt) {
      tileMaxA = fmaxf(tileMaxA, fmaxf(s[nt][0], s[nt][1]));
      tileMaxB = fmaxf(tileMaxB, fmaxf(s[nt][2], s[nt][3]));
    }
    const float newMaxA = fmaxf(maxA, quadMax(tileMaxA));
    const float newMaxB = fmaxf(maxB, quadMax(tileMaxB));
    const float baseA = newMaxA == kNegInf ? 0.f : newMaxA;
    const float baseB = newMaxB == kNegInf ? 0.f : newMaxB;
    const float alphaA = fastExp2(maxA - baseA);
    const float alphaB = fastExp2(maxB - baseB);
    maxA = newMaxA;
    maxB = newMaxB;
    sumA *= alphaA;
    sumB *= alphaB;
#pragma unroll
    for (int nt = 0; nt < kSTiles; ++nt) {
      s[nt][0] = fastExp2(s[nt][0] - baseA);
      s[nt][1] = fastExp2(s[nt][1] - baseA);
      s[nt][2] = fastExp2(s[nt][2] - baseB);
      s[nt][3] = fastExp2(s[nt][3] - baseB);
      sumA += s[nt][0] + s[nt][1];
      sumB += s[nt][2] + s[nt][3];
    }
#pragma unroll
    for (int t = 0; t < kOTiles; ++t) {
      o[t][0] *= alphaA;
      o[t][1] *= alphaA;
      o[t][2] *= alphaB;
      o[t][3] *= alphaB;
    }
    mmaAccTile<kD, kN, kD>(o, s, sV, 0, lane);
  }

  sumA = quadSum(sumA);
  sumB = quadSum(sumB);
  const float invA = sumA > 0.f ? 1.f / sumA : 0.f;
  const float invB = sumB > 0.f ? 1.f / sumB : 0.f;
  float *out = static_cast<float *>(p.out) + batchBase(p, b, p.sq, kD);
  const int col = 2 * (lane & 3);
#pragma unroll
  for (int t = 0; t < kOTiles; ++t) {
    if (rowA < p.sq)
      *reinterpret_cast<float2 *>(out + rowA * stride + t * 8 + col) =
          make_float2(o[t][0] * invA, o[t][1] * invA);
    if (rowB < p.sq)
      *reinterpret_cast<float2 *>(out + rowB * stride + t * 8 + col) =
          make_float2(o[t][2] * invB, o[t][3] * invB);
  }
  if (p.stats && (lane & 3) == 0) {
    if (rowA < p.sq)
      p.stats[b * p.sq + rowA] = rowLogSumExp(maxA, sumA);
    if (rowB < p.sq)
      p.stats[b * p.sq + rowB] = rowLogSumExp(maxB, sumB);
  }
}

//===----------------------------------------------------------------------===//
// Backward: the key pass.
//===----------------------------------------------------------------------===//

/// Grid: x = batch index, y = key blocks of kBlockRows keys. Dynamic
/// shared memory: the K and V blocks (kBlockRows rows each), the Q and dY
/// tiles (kM rows each), the tile's LSE and Delta (kM floats each), the
/// tile's dS^T (kBlockRows rows of kM + 4 words).
template <int kD, bool kHasMask>
__global__ void __launch_bounds__(kThreads, 1)
    tf32AttentionGradKeyKernel(AttentionGradParams p) {
  constexpr int kN = kBlockRows, kM = streamTile<kD>();
  constexpr int kStride = tileStride<kD>();
  constexpr int kDsStride = kM + 4;
  constexpr int kSTiles = kM / 8, kDTiles = kD / 8;
  // The dq product: warps split the tile's kM rows in 16-row groups and
  // the kD columns among the warps left over.
  constexpr int kRowGroups = kM / 16;
  static_assert(kWarps % kRowGroups == 0, "dq tile split");
  constexpr int kDqCols = kD / (kWarps / kRowGroups);
  float *sK = reinterpret_cast<float *>(dynamicSmem());
  float *sV = sK + kN * kStride;
  float *sQ = sV + kN * kStride;
  float *sDy = sQ + kM * kStride;
  float *sLse = sDy + kM * kStride;
  float *sDelta = sLse + kM;
  float *sDs = sDelta + kM;

  const int diag = causalDiag(p);
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int64_t b = blockIdx.x;
  const int n0 = static_cast<int>(blockIdx.y) * kN;
  const int64_t stride = int64_t(p.heads) * kD;
  // k and v are read with their own heads; dk and dv are written with q's
  // (p.gradK and p.gradV: AttentionGradParams).
  const int64_t kvStride = int64_t(kvHeads(p)) * kD;
  const int64_t kvBase = kvBatchBase(p, b, p.sk, kD);
  const int64_t kBase = batchBase(p, b, p.sk, kD);
  const int64_t qBase = batchBase(p, b, p.sq, kD);
  const float *q = static_cast<const float *>(p.q) + qBase;
  const float *dy = static_cast<const float *>(p.dy) + qBase;
  float *dq = static_cast<float *>(p.gradQ) + qBase;
  const float *lse = p.lse + b * p.sq;
  const float *delta = p.delta + b * p.sq;
  [[maybe_unused]] const float *mask =
      kHasMask ? static_cast<const float *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  const int keys = imin(kN, p.sk - n0);
  loadTile<kN, kD>(
      sK, static_cast<const float *>(p.k) + kvBase + int64_t(n0) * kvStride,
      kvStride, keys);
  loadTile<kN, kD>(
      sV, static_cast<const float *>(p.v) + kvBase + int64_t(n0) * kvStride,
      kvStride, keys);

  // Query tiles [t0, nT): under causal masking the first query that sees
  // key n0 is n0 - diag; with a window, the last that sees the block's last
  // key is that key - diag + window - 1.
  const int t0 = p.causal ? imax(0, n0 - diag) / kM : 0;
  int lastQuery = p.sq - 1;
  if (p.causal && p.window > 0)
    lastQuery = imin(lastQuery, n0 + keys - 1 - diag + p.window - 1);
  const int nT = lastQuery < 0 ? 0 : lastQuery / kM + 1;

  const int keyA = n0 + warp * 16 + (lane >> 2), keyB = keyA + 8;
  float dk[kDTiles][4], dv[kDTiles][4];
  zeroTiles(dk);
  zeroTiles(dv);
  const int rowGroup = warp % kRowGroups;
  const int dqCol0 = (warp / kRowGroups) * kDqCols;

  for (int t = t0; t < nT; ++t) {
    const int i0 = t * kM;
    const int rows = imin(kM, p.sq - i0);
    blockSync(); // The previous tile is no longer read.
    loadTile<kM, kD>(sQ, q + int64_t(i0) * stride, stride, rows);
    loadTile<kM, kD>(sDy, dy + int64_t(i0) * stride, stride, rows);
    for (int i = tid; i < kM; i += kThreads) {
      sLse[i] = i < rows ? lse[i0 + i] : INFINITY;
      sDelta[i] = i < rows ? delta[i0 + i] : 0.f;
    }
    blockSync();

    // S^T = K Q^T and dP^T = V dY^T for this warp's 16 keys.
    float s[kSTiles][4], dp[kSTiles][4];
    zeroTiles(s);
    zeroTiles(dp);
    mmaRowsT<kD, kM>(
        s,
        [&](uint32_t(&a)[4], int kk) {
          loadRowsFrag<kD>(a, sK, warp * 16, kk, lane);
        },
        sQ, lane);
    mmaRowsT<kD, kM>(
        dp,
        [&](uint32_t(&a)[4], int kk) {
          loadRowsFrag<kD>(a, sV, warp * 16, kk, lane);
        },
        sDy, lane);

    // P^T from the saved LSE, dS^T = P^T (dP^T - Delta), times the scale
    // (dq and dk are scale * dS products).
    const bool whole =
        !kHasMask && wholeTile(p, diag, i0, kM, n0 + warp * 16, 16);
#pragma unroll
    for (int nt = 0; nt < kSTiles; ++nt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int col = nt * 8 + 2 * (lane & 3) + (e & 1);
        const int key = e < 2 ? keyA : keyB;
        const float x = whole ? s[nt][e] * p.scaleLog2
                              : maskedScore<kHasMask>(p, mask, diag, i0 + col,
                                                      key, s[nt][e]);
        const float prob = fastExp2(x - sLse[col]);
        s[nt][e] = prob;
        dp[nt][e] = prob * (dp[nt][e] - sDelta[col]) * p.scale;
      }
    }
    mmaAccTile<kD, kM, kD>(dv, s, sDy, 0, lane);
    mmaAccTile<kD, kM, kD>(dk, dp, sQ, 0, lane);

    // The tile's dS^T (keys x queries) for the dq product.
    {
      float *row = sDs + (warp * 16 + (lane >> 2)) * kDsStride;
#pragma unroll
      for (int nt = 0; nt < kSTiles; ++nt) {
        const int col = nt * 8 + 2 * (lane & 3);
        *reinterpret_cast<float2 *>(row + col) =
            make_float2(roundTf32(dp[nt][0]), roundTf32(dp[nt][1]));
        *reinterpret_cast<float2 *>(row + 8 * kDsStride + col) =
            make_float2(roundTf32(dp[nt][2]), roundTf32(dp[nt][3]));
      }
    }
    blockSync();

    // dq[rows of this warp's group, its columns] += dS K: A = dS (queries x
    // keys) read from dS^T through the k permutation, B = the K block.
    float acc[kDqCols / 8][4];
    zeroTiles(acc);
    const int g = lane >> 2, c = lane & 3;
#pragma unroll
    for (int kk = 0; kk < kN / 8; ++kk) {
      const float *ds0 = sDs + (kk * 8 + 2 * c) * kDsStride + rowGroup * 16 + g;
      const uint32_t a[4] = {bits(ds0[0]), bits(ds0[8]), bits(ds0[kDsStride]),
                             bits(ds0[kDsStride + 8])};
      const float *kb = sK + (kk * 8 + 2 * c) * kStride + dqCol0 + g;
#pragma unroll
      for (int nt = 0; nt < kDqCols / 8; ++nt)
        mma1688(acc[nt], a, bits(kb[nt * 8]), bits(kb[kStride + nt * 8]));
    }
    const int qA = i0 + rowGroup * 16 + g, qB = qA + 8;
#pragma unroll
    for (int nt = 0; nt < kDqCols / 8; ++nt) {
      const int col = dqCol0 + nt * 8 + 2 * c;
      if (qA < p.sq)
        atomicAddPair(dq + qA * stride + col, acc[nt][0], acc[nt][1]);
      if (qB < p.sq)
        atomicAddPair(dq + qB * stride + col, acc[nt][2], acc[nt][3]);
    }
  }

  float *gk = static_cast<float *>(p.gradK) + kBase;
  float *gv = static_cast<float *>(p.gradV) + kBase;
  const int col = 2 * (lane & 3);
#pragma unroll
  for (int t = 0; t < kDTiles; ++t) {
    if (keyA < p.sk) {
      *reinterpret_cast<float2 *>(gk + keyA * stride + t * 8 + col) =
          make_float2(dk[t][0], dk[t][1]);
      *reinterpret_cast<float2 *>(gv + keyA * stride + t * 8 + col) =
          make_float2(dv[t][0], dv[t][1]);
    }
    if (keyB < p.sk) {
      *reinterpret_cast<float2 *>(gk + keyB * stride + t * 8 + col) =
          make_float2(dk[t][2], dk[t][3]);
      *reinterpret_cast<float2 *>(gv + keyB * stride + t * 8 + col) =
          make_float2(dv[t][2], dv[t][3]);
    }
  }
}

//===----------------------------------------------------------------------===//
// Host side.
//===----------------------------------------------------------------------===//

/// Blocks of kBlockRows rows over `rows`, within the grid's y limit;
/// errors start with `op`.
Status blocksOf(const char *op, int64_t rows, const char *what,
                unsigned &blocks) {
  const int64_t n = (rows + kBlockRows - 1) / kBlockRows;
  if (n > 65535)
    return errorf(op, ": ", what, "=", rows, " needs ", n, " blocks of ",
                  kBlockRows, "; the grid takes 65535");
  blocks = static_cast<unsigned>(n);
  return Status::ok();
}

template <int kD>
Status launchForward(const AttentionParams &p, bool hasMask,
                     cudaStream_t stream) {
  constexpr int kN = streamTile<kD>();
  const size_t smem = size_t(kBlockRows > 2 * kN ? kBlockRows : 2 * kN) *
                      tileStride<kD>() * sizeof(float);
  unsigned blocks = 0;
  PARACC_RETURN_IF_ERROR(blocksOf("attention", p.sq, "Sq", blocks));
  const dim3 grid(static_cast<unsigned>(p.batch), blocks, 1);
  return launchAttentionKernel("attention", "tf32AttentionKernel",
                               hasMask ? &tf32AttentionKernel<kD, true>
                                       : &tf32AttentionKernel<kD, false>,
                               grid, dim3(kThreads), smem, p, stream);
}

template <int kD>
Status launchGradKeys(const AttentionGradParams &p, bool hasMask,
                      cudaStream_t stream) {
  constexpr int kM = streamTile<kD>();
  const size_t smem = (size_t(2 * kBlockRows + 2 * kM) * tileStride<kD>() +
                       2 * kM + size_t(kBlockRows) * (kM + 4)) *
                      sizeof(float);
  unsigned blocks = 0;
  PARACC_RETURN_IF_ERROR(blocksOf("attention_grad", p.sk, "Sk", blocks));
  const dim3 grid(static_cast<unsigned>(p.batch), blocks, 1);
  return launchAttentionKernel("attention_grad", "tf32AttentionGradKeyKernel",
                               hasMask ? &tf32AttentionGradKeyKernel<kD, true>
                                       : &tf32AttentionGradKeyKernel<kD, false>,
                               grid, dim3(kThreads), smem, p, stream);
}

/// f(std::integral_constant<int, D>) for head dim d = D in {32, 64, 128};
/// an error starting with `op` otherwise.
template <typename F> Status withHeadDim(const char *op, int d, F &&f) {
  switch (d) {
  case 32:
    return f(std::integral_constant<int, 32>());
  case 64:
    return f(std::integral_constant<int, 64>());
  case 128:
    return f(std::integral_constant<int, 128>());
  default:
    return errorf(op, ": the TF32 kernels take head dims 32, 64 and 128, got ",
                  d);
  }
}

} // namespace

bool tf32AttentionShape(int64_t d, int64_t dv,
                        std::initializer_list<const void *> pointers) {
  if (d != dv || (d != 32 && d != 64 && d != 128))
    return false;
  for (const void *ptr : pointers)
    if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0)
      return false;
  return true;
}

Status launchTf32Attention(const AttentionParams &p, bool hasMask,
                           cudaStream_t stream) {
  return withHeadDim("attention", p.d, [&](auto d) {
    return launchForward<decltype(d)::value>(p, hasMask, stream);
  });
}

Status launchTf32AttentionGradKeys(const AttentionGradParams &p, bool hasMask,
                                   cudaStream_t stream) {
  return withHeadDim("attention_grad", p.d, [&](auto d) {
    return launchGradKeys<decltype(d)::value>(p, hasMask, stream);
  });
}

} // namespace paracc::rt::cuda::attn
