//===- AttentionBackward.cu - Flash attention backward ----------*- C++ -*-===//
//
// The AttentionGrad instruction (OpCodes.def) on the GPU: in(dy, q, k, v[,
// mask]) out(dq, dk, dv), flash-style. The Sq x Sk score matrix is never
// stored; the forward saves nothing, so the softmax statistics are
// recomputed. With P = softmax(scale q k^T + mask), dP = dy v^T and
// Delta_i = sum_j P_ij dP_ij:
//
//   dv_j = sum_i P_ij dy_i,  dS = P * (dP - Delta),
//   dq_i = scale sum_j dS_ij k_j,  dk_j = scale sum_i dS_ij q_i.
//
// Kernels run one after the other on the stream:
//
// * The query pass, one CTA per (batch index, block of query rows). Pass 1
//   over the key tiles computes the online-softmax statistics of each row,
//   the running max m_i and sum l_i, together with Delta'_i = sum_j
//   exp(s_ij - m_i) dP_ij, rescaled like l_i when m_i grows; Delta_i =
//   Delta'_i / l_i. LSE_i and Delta_i go to the workspace. On the recompute
//   path only, pass 2 over the same tiles recomputes P_ij = exp(s_ij -
//   LSE_i) and dP, and accumulates dq_i, written once.
// * The key pass, one CTA per (batch index, block of key rows), loops over
//   the query tiles: it recomputes S^T = k q^T and dP^T = v dy^T, P^T from
//   the saved LSE, and accumulates dv_j and dk_j. On the tensor-core atomic
//   path (the default) it also stages each tile's dS^T (bf16/f16) in shared
//   memory and adds dS k, its part of the tile's dq, to an f32 dq
//   accumulator in the workspace (red.global.add.v2.f32), which is zeroed
//   (cudaMemsetAsync) before the query pass.
// * On the atomic path, a conversion kernel after the key pass writes dq =
//   scale * the accumulator in dq's type.
//
// The atomic path sums dq's terms in an unspecified order, so dq may
// differ between runs in its last bits (dk and dv do not). The SIMT
// kernels and PARACC_ATTENTION_BWD=recompute (the tensor-core kernels with
// the dq pass in the query kernel) use no atomics and are deterministic.
//
// Each has a tensor-core version (bf16/f16, D == Dv in {64, 128}, 16-byte
// aligned operands) built like the forward flashAttentionKernel: CTAs of 8
// warps, each warp owning 16 rows (query rows in the query pass, key rows
// in the key pass: 128 per CTA) whose mma A fragments (Q and dY, or K and
// V) stay in registers (for D = 128, dY's and K/V's are re-read from shared
// memory per tile to fit the register file); the other operand streams in
// tiles of 64 rows (32 for D = 128) through XOR-swizzled, cp.async
// double-buffered shared memory; mma.sync m16n8k16 with f32 accumulation;
// the score accumulators are turned in registers into P or dS and reused as
// the A operand of the next product, so no warp ever exchanges data with
// another and the CTA only synchronizes around the tile buffers. CTAs with
// the most tiles are scheduled first (the atomic path's dq product, which
// needs every warp's dS^T, is the exception: one more CTA barrier per tile,
// the dq tile split over the 8 warps). Matrix products per (query, key)
// tile: 2 in pass 1 (S, dP), 5 in the atomic key pass (S^T, dP^T, dv, dk,
// dq), i.e. 7; the recompute path has 3 in pass 2 (S, dP, dq) and 4 in the
// key pass, i.e. 9; a backward that is given the log-sum-exp and the
// forward's output needs 5.
//
// The SIMT versions (f32/f16/bf16, D and Dv up to 256, any alignment) work
// in f32 like the forward genericAttentionKernel: 8 warps of 4 rows per
// CTA, tiles of 32 rows in shared memory (f32), one key (query pass) or one
// query (key pass) per lane for the scores, shuffles for the row
// reductions and for broadcasting P and dS, lane l accumulating columns l,
// l + 32, ...
//
// Causal masking: tiles that no row of a warp can see are skipped (query
// i sees keys j <= i + Sk - Sq), only tiles crossing the diagonal or the
// ends of the sequences are masked elementwise. Rows with no visible key,
// and rows whose mask is all -inf, give zero gradients (as the forward gives
// zeros): their LSE is stored as +inf, so that every P of theirs is 0. The
// optional mask broadcasts like the forward's (per-dimension strides, 0 on
// broadcast dims) and gets no gradient.
//
// Given the forward's result and statistics (saved), the atomic path does
// without the query pass: a small kernel converts the saved log-sum-exps to
// LSE and computes Delta_i = rowsum(dy_i * out_i), so the backward runs 5
// products per tile instead of 7, and its probabilities are those of the
// saved statistics (a ring attention's block of keys: keyBlock). The other
// paths recompute their statistics and refuse keyBlock.
//
// Grouped-query attention (k and v with 1 / kvGroup of q's heads,
// AttentionGeometry::kvGroup): every kernel still runs per query attention
// b and reads k and v at kv attention b / kvGroup (kvBatchBase). The key
// pass writes its dk and dv per query attention, as if k and v had q's
// heads, into an expanded dk and dv in the workspace; a last kernel
// (kvGroupSumKernel) sums each group's kvGroup query heads into dk and dv
// in f32, deterministically.
//
// Workspace (f32): LSE[batch, Sq] (base-2 log-sum-exp of the scores, in
// units of log2(e) * (scale q k + mask)), then Delta[batch, Sq]: 8 batch Sq
// bytes; the query pass writes both, the key pass reads them. For the
// tensor-core shapes (bf16/f16, D == Dv in {64, 128}) then 16 bytes of
// slack and the dq accumulator, shaped like dq (batch Sq D f32, 16-byte
// aligned): attentionGradWorkspaceBytes = 8 batch Sq + 16 + 4 batch Sq D
// bytes, reserved whether or not that path runs (it is picked at launch).
// With kvGroup > 1 then, after what the path uses, 256 bytes of slack and
// the expanded dk (batch Sk D elements, 256-byte aligned, its bytes
// rounded up to 256) and dv (batch Sk Dv elements) in the element type.
// The results must not alias the operands (the key pass reads q and dy
// after the query pass may have written dq).
//
// PARACC_ATTENTION_KERNEL=generic forces the SIMT kernels, as for the
// forward; PARACC_ATTENTION_BWD=recompute the tensor-core kernels without
// atomics.
//
// f32 operands under --tf32 (KernelOptions::allowTf32), given the forward's
// saved result and statistics, take the TF32 key pass instead
// (AttentionTf32.h): LSE and Delta from the saved ones (dy and out rounded
// to TF32, like the key pass's operands), dq accumulated into dq itself.
//
// Where cuDNN's fused attention takes the operands (CudnnAttention.h),
// launchAttentionGrad runs it instead, in a workspace of its own size
// (attentionGradWorkspaceBytes returns the larger of the two needs).
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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace paracc::rt::cuda {
namespace {

using namespace attn;

//===----------------------------------------------------------------------===//
// Parameters and tiling.
//===----------------------------------------------------------------------===//

/// The tensor-core kernels: 8 warps of 16 rows.
constexpr int kTcWarps = 8;
constexpr int kTcThreads = kTcWarps * 32;
constexpr int kTcBlockRows = kTcWarps * 16;

/// Per head dim: the tile of the streamed operand (keys per tile in the
/// query pass, queries per tile in the key pass) and where the key pass
/// keeps its K and V A fragments. Chosen so that the accumulators fit the
/// 255 registers of a thread.
template <int kD> struct TcTiling {
  static constexpr int kQueryPassTile = kD == 64 ? 64 : 32;
  static constexpr int kKeyPassTile = kD == 64 ? 64 : 32;
  /// Keep dy's A fragments in registers in the query pass (else reload
  /// them from shared memory per tile).
  static constexpr bool kQueryPassDyInRegs = kD == 64;
  /// Keep the K and V A fragments in registers in the key pass.
  static constexpr bool kKeyPassKVInRegs = kD == 64;
};

/// The SIMT kernels: 8 warps of 4 rows, tiles of 32 rows (one per lane).
constexpr int kGenWarps = 8;
constexpr int kGenThreads = kGenWarps * 32;
constexpr int kGenRowsPerWarp = 4;
constexpr int kGenBlock = kGenWarps * kGenRowsPerWarp;
static_assert(kGenBlock == 32, "one row of the streamed tile per lane");
constexpr int kGenMaxD = 256;
constexpr int kGenChunks = kGenMaxD / 32;

constexpr float kPosInf = INFINITY;

//===----------------------------------------------------------------------===//
// Device helpers.
//===----------------------------------------------------------------------===//


__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += shflXor(v, o);
  return v;
}
__device__ __forceinline__ float warpMax(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, shflXor(v, o));
  return v;
}

/// The statistics of a row from its online-softmax state: LSE = m +
/// log2(l) and Delta = Delta' / l, or (+inf, 0) for a row without any
/// non-zero probability.
__device__ __forceinline__ void finishRow(float rowMax, float sum, float dot,
                                          float &lse, float &delta) {
  if (sum > 0.f) {
    lse = rowMax + log2f(sum);
    delta = dot / sum;
  } else {
    lse = kPosInf;
    delta = 0.f;
  }
}

//===----------------------------------------------------------------------===//
// Tensor-core fragments.
//===----------------------------------------------------------------------===//
//
// mma.sync m16n8k16 (g = lane / 4, c = 2 (lane % 4)): the A fragment (16 x
// 16) holds (row g, cols c, c+1), (g+8, c..), (g, c+8..), (g+8, c+8..); B
// (16 x 8) holds (k rows c, c+1, col g) and (k rows c+8, c+9, col g); the
// accumulator (16 x 8) holds (row g, cols c, c+1) and (row g+8, cols c,
// c+1). All tiles are row-major with kCols (= the head dim) 16-bit columns,
// swizzled (swizzle<kCols>).

/// A fragment: rows [row0, row0 + 16) x columns [16 kk, 16 kk + 16).
template <int kCols, typename T>
__device__ __forceinline__ void loadAFrag(uint32_t (&a)[4], const T *tile,
                                          int row0, int kk, int lane) {
  ldmatrixX4(a, tile + swizzle<kCols>(row0 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                      kk * 16 + (lane >> 4) * 8));
}

/// acc (16 x kRows) += A (16 x kD) * tile^T, tile = kRows rows of kD
/// columns: the B operand (k = column, n = row) is the tile's rows, read
/// without transposition; one x4 covers 16 rows x 16 columns. A's k-step kk
/// is aFrag[kk].
template <typename T, int kD, int kRows>
__device__ __forceinline__ void mmaTileT(float (&acc)[kRows / 8][4],
                                         const uint32_t (&aFrag)[kD / 16][4],
                                         const T *tile, int lane) {
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk) {
#pragma unroll
    for (int np = 0; np < kRows / 16; ++np) {
      uint32_t b[4];
      ldmatrixX4(b, tile + swizzle<kD>(np * 16 + (lane & 7) + (lane >> 4) * 8,
                                       kk * 16 + ((lane >> 3) & 1) * 8));
      mma16816<T>(acc[2 * np], aFrag[kk], b[0], b[1]);
      mma16816<T>(acc[2 * np + 1], aFrag[kk], b[2], b[3]);
    }
  }
}

/// As above with A read per k-step from rows [aRow0, aRow0 + 16) of the
/// swizzled `aTile`.
template <typename T, int kD, int kRows>
__device__ __forceinline__ void mmaTileT(float (&acc)[kRows / 8][4],
                                         const T *aTile, int aRow0,
                                         const T *tile, int lane) {
#pragma unroll
  for (int kk = 0; kk < kD / 16; ++kk) {
    uint32_t a[4];
    loadAFrag<kD>(a, aTile, aRow0, kk, lane);
#pragma unroll
    for (int np = 0; np < kRows / 16; ++np) {
      uint32_t b[4];
      ldmatrixX4(b, tile + swizzle<kD>(np * 16 + (lane & 7) + (lane >> 4) * 8,
                                       kk * 16 + ((lane >> 3) & 1) * 8));
      mma16816<T>(acc[2 * np], a, b[0], b[1]);
      mma16816<T>(acc[2 * np + 1], a, b[2], b[3]);
    }
  }
}

/// acc (16 x kD) += P (16 x kRows) * tile (kRows x kD), P given as the
/// accumulators of a 16 x kRows product (those of n-tiles 2 kk, 2 kk + 1 are
/// exactly the A fragment of k-step kk). The B operand (k = row, n =
/// column) needs the transposed ldmatrix; one x4 covers 16 rows x 16
/// columns.
template <typename T, int kD, int kRows>
__device__ __forceinline__ void mmaAccTile(float (&acc)[kD / 8][4],
                                           const float (&pm)[kRows / 8][4],
                                           const T *tile, int lane) {
#pragma unroll
  for (int kk = 0; kk < kRows / 16; ++kk) {
    uint32_t pa[4];
    pa[0] = packPair<T>(pm[2 * kk][0], pm[2 * kk][1]);
    pa[1] = packPair<T>(pm[2 * kk][2], pm[2 * kk][3]);
    pa[2] = packPair<T>(pm[2 * kk + 1][0], pm[2 * kk + 1][1]);
    pa[3] = packPair<T>(pm[2 * kk + 1][2], pm[2 * kk + 1][3]);
#pragma unroll
    for (int dp = 0; dp < kD / 16; ++dp) {
      uint32_t b[4];
      ldmatrixX4Trans(
          b, tile + swizzle<kD>(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                dp * 16 + (lane >> 4) * 8));
      mma16816<T>(acc[2 * dp], pa, b[0], b[1]);
      mma16816<T>(acc[2 * dp + 1], pa, b[2], b[3]);
    }
  }
}

template <int kTiles>
__device__ __forceinline__ void zeroAcc(float (&acc)[kTiles][4]) {
#pragma unroll
  for (int t = 0; t < kTiles; ++t)
    acc[t][0] = acc[t][1] = acc[t][2] = acc[t][3] = 0.f;
}

/// Stores a warp's 16 x kD accumulator (times `mul`) as rows [row0, row0 +
/// 16) of `out` (row stride `stride`), rows at or past `limit` skipped:
/// staged in the warp's rows [tileRow0, tileRow0 + 16) of the swizzled
/// `stage` tile (which no other warp may touch meanwhile), then written in
/// 16-byte chunks.
template <typename T, int kD>
__device__ __forceinline__ void
storeWarpRows(const float (&acc)[kD / 8][4], float mul, T *stage, int tileRow0,
              T *out, int64_t stride, int row0, int limit, int lane) {
  warpSync();
  {
    const int row = tileRow0 + (lane >> 2);
#pragma unroll
    for (int t = 0; t < kD / 8; ++t) {
      const int col = t * 8 + (lane & 3) * 2;
      *reinterpret_cast<uint32_t *>(stage + swizzle<kD>(row, col)) =
          packPair<T>(acc[t][0] * mul, acc[t][1] * mul);
      *reinterpret_cast<uint32_t *>(stage + swizzle<kD>(row + 8, col)) =
          packPair<T>(acc[t][2] * mul, acc[t][3] * mul);
    }
  }
  warpSync();
  constexpr int kChunksPerRow = kD / 8;
#pragma unroll
  for (int i = 0; i < 16 * kChunksPerRow / 32; ++i) {
    const int c = i * 32 + lane;
    const int r = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
    const int row = row0 + r;
    if (row < limit)
      *reinterpret_cast<uint4 *>(out + int64_t(row) * stride + col) =
          *reinterpret_cast<const uint4 *>(stage +
                                           swizzle<kD>(tileRow0 + r, col));
  }
}

/// The element offset of (row, col) in a swizzled tile of kCols 16-bit
/// columns: swizzle<kCols> for multiples of 64; for 32 columns (64-byte
/// rows, two per 128-byte line) the 16-byte chunk is XORed with (row / 2) %
/// 4, so that the 8 rows an ldmatrix matrix reads hit distinct banks.
template <int kCols> __device__ __forceinline__ int dsSwizzle(int row, int col) {
  if constexpr (kCols % 64 == 0) {
    return swizzle<kCols>(row, col);
  } else {
    static_assert(kCols == 32, "dS tiles of 32 or 64k columns");
    return row * kCols + ((((col >> 3) ^ ((row >> 1) & 3))) << 3) + (col & 7);
  }
}

/// The atomic path's last kernel: dq = scale * the f32 accumulator, 8
/// elements per thread and step (dqElems is a multiple of 64, both
/// pointers 16-byte aligned), grid-stride.
template <typename T>
__global__ void __launch_bounds__(kTcThreads)
    dqConvertKernel(AttentionGradParams p) {
  const int64_t nChunks = p.dqElems / 8;
  const float4 *src = reinterpret_cast<const float4 *>(p.dqAccum);
  uint4 *dst = reinterpret_cast<uint4 *>(p.gradQ);
  for (int64_t c = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; c < nChunks;
       c += int64_t(gridDim.x) * blockDim.x) {
    const float4 lo = src[2 * c], hi = src[2 * c + 1];
    uint4 o;
    o.x = packPair<T>(lo.x * p.scale, lo.y * p.scale);
    o.y = packPair<T>(lo.z * p.scale, lo.w * p.scale);
    o.z = packPair<T>(hi.x * p.scale, hi.y * p.scale);
    o.w = packPair<T>(hi.z * p.scale, hi.w * p.scale);
    dst[c] = o;
  }
}

/// Grouped-query attention: one result (dk or dv) of `elems` elements,
/// [n, inner] with n = elems / inner (kv attentions, or kv heads of a row
/// when sequence-first), and the key pass's expanded one with q's heads,
/// [n, kvGroup, inner].
struct GroupSumJob {
  const void *expanded = nullptr;
  void *out = nullptr;
  int64_t elems = 0, inner = 0;
};

/// out[n, i] = sum over g of expanded[n, g, i], in f32 (g in order, so
/// deterministic), rounded once to T. Grid: x strides over the elements, y
/// = 0 for dk, 1 for dv.
template <typename T>
__global__ void __launch_bounds__(256)
    kvGroupSumKernel(GroupSumJob dk, GroupSumJob dv, int group) {
  const GroupSumJob job = blockIdx.y == 0 ? dk : dv;
  const T *src = static_cast<const T *>(job.expanded);
  T *dst = static_cast<T *>(job.out);
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       e < job.elems; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t n = e / job.inner, i = e - n * job.inner;
    const T *x = src + n * group * job.inner + i;
    float sum = 0.f;
    for (int g = 0; g < group; ++g)
      sum += toFloat(x[g * job.inner]);
    dst[e] = fromFloat<T>(sum);
  }
}

//===----------------------------------------------------------------------===//
// Tensor-core query pass.
//===----------------------------------------------------------------------===//

/// Grid: x = batch index, y = query blocks of kTcBlockRows rows (reversed:
/// under causal masking the blocks with the most key tiles start first).
/// Dynamic shared memory: Q and dY tiles (kTcBlockRows x kD each), then two
/// buffers of K and V tiles (kN x kD each). With kDqPass the key tiles
/// are streamed twice (pass 1, then pass 2) through one double-buffered
/// pipeline of 2 nTiles steps; without it only pass 1 runs (the
/// statistics; dq comes from the key pass).
template <typename T, int kD, bool kHasMask, bool kDqPass>
__global__ void __launch_bounds__(kTcThreads, 1)
    flashGradQueryKernel(AttentionGradParams p) {
  const int diag = causalDiag(p);
  static_assert(kD % 64 == 0, "the swizzle needs 64-column multiples");
  constexpr int kM = kTcBlockRows, kN = TcTiling<kD>::kQueryPassTile;
  constexpr bool kDyInRegs = TcTiling<kD>::kQueryPassDyInRegs;
  constexpr int kKSteps = kD / 16;
  constexpr int kSTiles = kN / 8;
  constexpr int kDTiles = kD / 8;

  T *sQ = reinterpret_cast<T *>(dynamicSmem());
  T *sDy = sQ + kM * kD;
  T *sK = sDy + kM * kD; // Two buffers of kN x kD.
  T *sV = sK + 2 * kN * kD;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int m0 = static_cast<int>(gridDim.y - 1 - blockIdx.y) * kM;
  const int64_t stride = int64_t(p.heads) * kD;      // q, dy, dq alike.
  const int64_t kvStride = int64_t(kvHeads(p)) * kD; // k and v.
  const int64_t qBase = batchBase(p, b, p.sq, kD) + int64_t(m0) * stride;
  const T *q = static_cast<const T *>(p.q) + qBase;
  const T *dy = static_cast<const T *>(p.dy) + qBase;
  const T *k = static_cast<const T *>(p.k) + kvBatchBase(p, b, p.sk, kD);
  const T *v = static_cast<const T *>(p.v) + kvBatchBase(p, b, p.sk, kD);

  const int lastKey = lastVisibleKey(p, diag, m0, kM);
  const int nTiles = lastKey < 0 ? 0 : lastKey / kN + 1;
  // Step s handles tile s % nTiles; without the dq pass only pass 1 runs.
  const int nSteps = kDqPass ? 2 * nTiles : nTiles;

  // Prologue: Q and dY (group 0), the first K/V tile (group 1).
  const int qRows = imin(kM, p.sq - m0);
  loadTileAsync<kM, kD, kTcThreads>(sQ, q, stride, qRows);
  loadTileAsync<kM, kD, kTcThreads>(sDy, dy, stride, qRows);
  cpAsyncCommit();
  if (nTiles > 0) {
    loadTileAsync<kN, kD, kTcThreads>(sK, k, kvStride, imin(kN, p.sk));
    loadTileAsync<kN, kD, kTcThreads>(sV, v, kvStride, imin(kN, p.sk));
  }
  cpAsyncCommit();
  cpAsyncWait<1>();
  blockSync();

  // This warp's 16 query rows of Q (and dY) as A fragments.
  uint32_t qFrag[kKSteps][4];
  [[maybe_unused]] uint32_t dyFrag[kDyInRegs ? kKSteps : 1][4];
#pragma unroll
  for (int kk = 0; kk < kKSteps; ++kk) {
    loadAFrag<kD>(qFrag[kk], sQ, warp * 16, kk, lane);
    if constexpr (kDyInRegs)
      loadAFrag<kD>(dyFrag[kk], sDy, warp * 16, kk, lane);
  }

  // The accumulator rows of this thread: rowA and rowA + 8.
  const int warpRow0 = m0 + warp * 16;
  const int rowA = warpRow0 + (lane >> 2);
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  float dq[kDTiles][4];
  zeroAcc(dq);
  // Pass 1 state per row: running max (base 2), sum and Delta'.
  float rowMax[2] = {kNegInf, kNegInf}, rowSum[2] = {0.f, 0.f},
        rowDot[2] = {0.f, 0.f};
  // Pass 2: the finished statistics.
  float rowLse[2] = {kPosInf, kPosInf}, rowDelta[2] = {0.f, 0.f};
  auto finishStats = [&]() {
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float l = rowSum[r], dl = rowDot[r];
      l += shflXor(l, 1);
      l += shflXor(l, 2);
      dl += shflXor(dl, 1);
      dl += shflXor(dl, 2);
      finishRow(rowMax[r], l, dl, rowLse[r], rowDelta[r]);
      const int row = rowA + r * 8;
      if ((lane & 3) == 0 && row < p.sq) {
        p.lse[b * p.sq + row] = rowLse[r];
        p.delta[b * p.sq + row] = rowDelta[r];
      }
    }
  };

  for (int step = 0; step < nSteps; ++step) {
    const int buf = step & 1;
    // Prefetch the next step's tile into the other buffer (free since the
    // barrier at the end of the previous step), then wait for this one.
    if (step + 1 < nSteps) {
      const int next = step + 1 < nTiles ? step + 1 : step + 1 - nTiles;
      const int n1 = next * kN;
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
    const bool gradPass = kDqPass && step >= nTiles;
    if (kDqPass && step == nTiles)
      finishStats();
    const T *tK = sK + buf * kN * kD;
    const T *tV = sV + buf * kN * kD;
    const int n0 = (gradPass ? step - nTiles : step) * kN;
    // A warp whose rows are all past Sq, or all before this tile's first
    // key under causal masking, skips the tile (P = 0 for all of it).
    const bool warpActive =
        warpRow0 < p.sq && !(p.causal && n0 > warpRow0 + 15 + diag);
    if (warpActive) {
      // S = Q K^T and dP = dY V^T.
      float s[kSTiles][4], dp[kSTiles][4];
      zeroAcc(s);
      zeroAcc(dp);
      mmaTileT<T, kD, kN>(s, qFrag, tK, lane);
      if constexpr (kDyInRegs)
        mmaTileT<T, kD, kN>(dp, dyFrag, tV, lane);
      else
        mmaTileT<T, kD, kN>(dp, sDy, warp * 16, tV, lane);

      // s[t][e] <- the score in base-2 units plus `bias` (0 in pass 1,
      // -LSE in pass 2): scaled, the mask added, the keys past Sk and past
      // the causal diagonal masked (only tiles that reach them need it).
      const bool edge = n0 + kN > p.sk ||
                        (p.causal && n0 + kN - 1 > warpRow0 + diag) ||
                        p.window > 0;
      auto toScores = [&](const float(&bias)[2]) {
#pragma unroll
        for (int t = 0; t < kSTiles; ++t) {
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            float x = fmaf(s[t][e], p.scaleLog2, bias[e >> 1]);
            const int row = rowA + (e >> 1) * 8;
            const int col = n0 + t * 8 + (lane & 3) * 2 + (e & 1);
            if constexpr (kHasMask) {
              if (row < p.sq && col < p.sk)
                x += toFloat(
                         mask[row * p.maskRowStride + col * p.maskColStride]) *
                     kLog2e;
            }
            if (edge && (col >= p.sk || outsideBand(p, diag, row, col)))
              x = kNegInf;
            s[t][e] = x;
          }
        }
      };

      if (!gradPass) {
        const float zero[2] = {0.f, 0.f};
        toScores(zero);
        // Online statistics: rows rowA (elements 0, 1) and rowA + 8 (2, 3);
        // the 4 lanes of a quad share the rows and keep partial sums.
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
          float sum = 0.f, dot = 0.f;
#pragma unroll
          for (int t = 0; t < kSTiles; ++t) {
            const float e0 = fastExp2(s[t][2 * r] - base);
            const float e1 = fastExp2(s[t][2 * r + 1] - base);
            sum += e0 + e1;
            dot += e0 * dp[t][2 * r] + e1 * dp[t][2 * r + 1];
          }
          rowSum[r] = rowSum[r] * alpha + sum;
          rowDot[r] = rowDot[r] * alpha + dot;
        }
      } else if constexpr (kDqPass) {
        // P = exp2(S - LSE) (0 for rows with LSE = +inf), dS = P * (dP -
        // Delta) in place of S, then dQ += dS K.
        const float negLse[2] = {-rowLse[0], -rowLse[1]};
        toScores(negLse);
#pragma unroll
        for (int t = 0; t < kSTiles; ++t) {
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float pr = fastExp2(s[t][e]);
            s[t][e] = pr * (dp[t][e] - rowDelta[e >> 1]);
          }
        }
        mmaAccTile<T, kD, kN>(dq, s, tK, lane);
      }
    } // warpActive
    // Every warp is done with this buffer before it is refilled.
    blockSync();
  }
  // No visible key: LSE = +inf, Delta = 0, dq = 0.
  if (!kDqPass || nTiles == 0)
    finishStats();

  if constexpr (kDqPass) {
    // dq = scale * sum dS k, staged in this warp's own rows of the Q tile.
    T *gq = static_cast<T *>(p.gradQ) + qBase;
    storeWarpRows<T, kD>(dq, p.scale, sQ, warp * 16, gq, stride, warp * 16,
                         qRows, lane);
  }
}

//===----------------------------------------------------------------------===//
// Tensor-core key pass.
//===----------------------------------------------------------------------===//

/// Grid: x = batch index, y = key blocks of kTcBlockRows keys (in order:
/// under causal masking the first blocks see the most query tiles).
/// Dynamic shared memory: K and V blocks (kTcBlockRows x kD each), two
/// buffers of Q and dY tiles (kM x kD each), two buffers of the tile's
/// LSE and Delta (kM floats each), then (kAccumDq) the tile's dS^T
/// (kTcBlockRows x kM). kAccumDq: also add dq's terms to p.dqAccum.
template <typename T, int kD, bool kHasMask, bool kAccumDq>
__global__ void __launch_bounds__(kTcThreads, 1)
    flashGradKeyKernel(AttentionGradParams p) {
  const int diag = causalDiag(p);
  static_assert(kD % 64 == 0, "the swizzle needs 64-column multiples");
  constexpr int kN = kTcBlockRows, kM = TcTiling<kD>::kKeyPassTile;
  constexpr bool kKVInRegs = TcTiling<kD>::kKeyPassKVInRegs;
  constexpr int kKSteps = kD / 16;
  constexpr int kSTiles = kM / 8;
  constexpr int kDTiles = kD / 8;

  T *sK = reinterpret_cast<T *>(dynamicSmem());
  T *sV = sK + kN * kD;
  T *sQ = sV + kN * kD;      // Two buffers of kM x kD.
  T *sDy = sQ + 2 * kM * kD; // Two buffers of kM x kD.
  float *sLse = reinterpret_cast<float *>(sDy + 2 * kM * kD); // 2 x kM.
  float *sDelta = sLse + 2 * kM;                              // 2 x kM.
  // The atomic path: the tile's dS^T (kN keys x kM queries, swizzled).
  [[maybe_unused]] T *sDs = reinterpret_cast<T *>(sDelta + 2 * kM);

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int n0 = static_cast<int>(blockIdx.y) * kN;
  const int64_t stride = int64_t(p.heads) * kD; // q, dy, dq, dk and dv.
  // k and v are read with their own heads (kvStride), dk and dv written
  // with q's (AttentionGradParams::gradK).
  const int64_t kvStride = int64_t(kvHeads(p)) * kD;
  const int64_t kvBase = kvBatchBase(p, b, p.sk, kD) + int64_t(n0) * kvStride;
  const int64_t kBase = batchBase(p, b, p.sk, kD) + int64_t(n0) * stride;
  const int64_t qBase = batchBase(p, b, p.sq, kD);
  const T *k = static_cast<const T *>(p.k) + kvBase;
  const T *v = static_cast<const T *>(p.v) + kvBase;
  const T *q = static_cast<const T *>(p.q) + qBase;
  const T *dy = static_cast<const T *>(p.dy) + qBase;
  const float *lse = p.lse + b * p.sq;
  const float *delta = p.delta + b * p.sq;

  // Query tiles [t0, nT): under causal masking the first query that sees
  // key n0 is n0 - diag (< Sq since n0 < Sk).
  const int firstQuery = p.causal ? imax(0, n0 - diag) : 0;
  const int t0 = firstQuery / kM;
  const int nT = (p.sq + kM - 1) / kM;

  auto loadQueryTile = [&](int t, int buf) {
    const int i0 = t * kM;
    const int rows = imin(kM, p.sq - i0);
    loadTileAsync<kM, kD, kTcThreads>(sQ + buf * kM * kD,
                                      q + int64_t(i0) * stride, stride, rows);
    loadTileAsync<kM, kD, kTcThreads>(sDy + buf * kM * kD,
                                      dy + int64_t(i0) * stride, stride, rows);
    if (tid < 2 * kM) {
      const int i = tid < kM ? tid : tid - kM;
      const bool valid = i < rows;
      const float *src = tid < kM ? lse : delta;
      float *dst = (tid < kM ? sLse : sDelta) + buf * kM + i;
      cpAsync4(dst, valid ? src + i0 + i : src, valid);
    }
  };

  // Prologue: the K/V block (group 0), the first query tile (group 1).
  const int kRows = imin(kN, p.sk - n0);
  loadTileAsync<kN, kD, kTcThreads>(sK, k, kvStride, kRows);
  loadTileAsync<kN, kD, kTcThreads>(sV, v, kvStride, kRows);
  cpAsyncCommit();
  if (t0 < nT)
    loadQueryTile(t0, 0);
  cpAsyncCommit();
  cpAsyncWait<1>();
  blockSync();

  // This warp's 16 keys of K and V as A fragments (or read per tile).
  [[maybe_unused]] uint32_t kFrag[kKVInRegs ? kKSteps : 1][4];
  [[maybe_unused]] uint32_t vFrag[kKVInRegs ? kKSteps : 1][4];
  if constexpr (kKVInRegs) {
#pragma unroll
    for (int kk = 0; kk < kKSteps; ++kk) {
      loadAFrag<kD>(kFrag[kk], sK, warp * 16, kk, lane);
      loadAFrag<kD>(vFrag[kk], sV, warp * 16, kk, lane);
    }
  }

  // The accumulator rows (keys) of this thread: keyA and keyA + 8.
  const int warpKey0 = n0 + warp * 16;
  const int keyA = warpKey0 + (lane >> 2);
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  float dk[kDTiles][4], dv[kDTiles][4];
  zeroAcc(dk);
  zeroAcc(dv);

  for (int t = t0; t < nT; ++t) {
    const int buf = (t - t0) & 1;
    if (t + 1 < nT) {
      loadQueryTile(t + 1, buf ^ 1);
      cpAsyncCommit();
      cpAsyncWait<1>();
    } else {
      cpAsyncWait<0>();
    }
    blockSync();
    const T *tQ = sQ + buf * kM * kD;
    const T *tDy = sDy + buf * kM * kD;
    const float *tLse = sLse + buf * kM;
    const float *tDelta = sDelta + buf * kM;
    const int i0 = t * kM;
    // A warp whose keys are all past Sk, or all after this tile's last
    // query's diagonal, skips the tile.
    const bool warpActive =
        warpKey0 < p.sk && !(p.causal && warpKey0 > i0 + kM - 1 + diag);
    if (warpActive) {
      // S^T = K Q^T and dP^T = V dY^T (rows = keys, columns = queries).
      float s[kSTiles][4], dp[kSTiles][4];
      zeroAcc(s);
      zeroAcc(dp);
      if constexpr (kKVInRegs) {
        mmaTileT<T, kD, kM>(s, kFrag, tQ, lane);
        mmaTileT<T, kD, kM>(dp, vFrag, tDy, lane);
      } else {
        mmaTileT<T, kD, kM>(s, sK, warp * 16, tQ, lane);
        mmaTileT<T, kD, kM>(dp, sV, warp * 16, tDy, lane);
      }

      // P^T = exp2(S^T - LSE) and dS^T = P^T * (dP^T - Delta); queries past
      // Sq (zero-filled, LSE 0) and past the diagonal are masked.
      const bool edge = i0 + kM > p.sq ||
                        (p.causal && warpKey0 + 15 > i0 + diag) || p.window > 0;
#pragma unroll
      for (int tt = 0; tt < kSTiles; ++tt) {
        const int c = tt * 8 + (lane & 3) * 2;
        const float2 l2 = *reinterpret_cast<const float2 *>(tLse + c);
        const float2 d2 = *reinterpret_cast<const float2 *>(tDelta + c);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int key = keyA + (e >> 1) * 8;
          const int query = i0 + c + (e & 1);
          // exp2(S^T - LSE): LSE is +inf for queries without any visible
          // key, making P^T = 0.
          float x = fmaf(s[tt][e], p.scaleLog2, -((e & 1) ? l2.y : l2.x));
          if constexpr (kHasMask) {
            if (query < p.sq && key < p.sk)
              x += toFloat(
                       mask[query * p.maskRowStride + key * p.maskColStride]) *
                   kLog2e;
          }
          if (edge && (query >= p.sq || outsideBand(p, diag, query, key)))
            x = kNegInf;
          const float pr = fastExp2(x);
          s[tt][e] = pr;
          dp[tt][e] = pr * (dp[tt][e] - ((e & 1) ? d2.y : d2.x));
        }
      }

      if constexpr (kAccumDq) {
        // This warp's 16 rows of dS^T, for the dq product below.
        const int row = warp * 16 + (lane >> 2);
#pragma unroll
        for (int tt = 0; tt < kSTiles; ++tt) {
          const int col = tt * 8 + (lane & 3) * 2;
          *reinterpret_cast<uint32_t *>(sDs + dsSwizzle<kM>(row, col)) =
              packPair<T>(dp[tt][0], dp[tt][1]);
          *reinterpret_cast<uint32_t *>(sDs + dsSwizzle<kM>(row + 8, col)) =
              packPair<T>(dp[tt][2], dp[tt][3]);
        }
      }

      // dV += P^T dY and dK += dS^T Q.
      mmaAccTile<T, kD, kM>(dv, s, tDy, lane);
      mmaAccTile<T, kD, kM>(dk, dp, tQ, lane);
    } else if constexpr (kAccumDq) {
      // dS^T = 0 for this warp's keys.
      const int row = warp * 16 + (lane >> 2);
#pragma unroll
      for (int tt = 0; tt < kSTiles; ++tt) {
        const int col = tt * 8 + (lane & 3) * 2;
        *reinterpret_cast<uint32_t *>(sDs + dsSwizzle<kM>(row, col)) = 0u;
        *reinterpret_cast<uint32_t *>(sDs + dsSwizzle<kM>(row + 8, col)) = 0u;
      }
    } // warpActive
    if constexpr (kAccumDq) {
      // dq (kM x kD) += dS K over the CTA's kN keys: warp w owns query rows
      // [16 rg, 16 rg + 16) and columns [kDqCols cg, kDqCols (cg + 1)),
      // reads dS^T (transposed ldmatrix: the A operand) and K (the B
      // operand, as in mmaAccTile) from shared memory, and adds its part
      // to the f32 accumulator in global memory.
      constexpr int kRowGroups = kM / 16;
      constexpr int kColGroups = kTcWarps / kRowGroups;
      constexpr int kDqCols = kD / kColGroups;
      static_assert(kRowGroups * kColGroups == kTcWarps && kDqCols % 16 == 0,
                    "the dq tile must split evenly over the warps");
      const int rg = warp % kRowGroups, cg = warp / kRowGroups;
      blockSync(); // Every warp's dS^T rows are in sDs.
      float dqAcc[kDqCols / 8][4];
      zeroAcc(dqAcc);
#pragma unroll
      for (int kk = 0; kk < kN / 16; ++kk) {
        uint32_t a[4];
        ldmatrixX4Trans(a, sDs + dsSwizzle<kM>(kk * 16 + (lane & 7) +
                                                   (lane >> 4) * 8,
                                               rg * 16 + ((lane >> 3) & 1) * 8));
#pragma unroll
        for (int dp2 = 0; dp2 < kDqCols / 16; ++dp2) {
          uint32_t bf[4];
          ldmatrixX4Trans(
              bf, sK + swizzle<kD>(kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8,
                                   cg * kDqCols + dp2 * 16 + (lane >> 4) * 8));
          mma16816<T>(dqAcc[2 * dp2], a, bf[0], bf[1]);
          mma16816<T>(dqAcc[2 * dp2 + 1], a, bf[2], bf[3]);
        }
      }
      const int query = i0 + rg * 16 + (lane >> 2);
      float *gdq = p.dqAccum + qBase;
#pragma unroll
      for (int nt = 0; nt < kDqCols / 8; ++nt) {
        const int col = cg * kDqCols + nt * 8 + (lane & 3) * 2;
        if (query < p.sq)
          atomicAddPair(gdq + int64_t(query) * stride + col, dqAcc[nt][0],
                        dqAcc[nt][1]);
        if (query + 8 < p.sq)
          atomicAddPair(gdq + int64_t(query + 8) * stride + col, dqAcc[nt][2],
                        dqAcc[nt][3]);
      }
    }
    // Every warp is done with this buffer (and sDs) before it is refilled.
    blockSync();
  }

  // dk = scale * sum dS q and dv, staged in this warp's own rows of the K
  // and V blocks (only this warp read them).
  blockSync();
  T *gk = static_cast<T *>(p.gradK) + kBase;
  T *gv = static_cast<T *>(p.gradV) + kBase;
  storeWarpRows<T, kD>(dk, p.scale, sK, warp * 16, gk, stride, warp * 16, kRows,
                       lane);
  storeWarpRows<T, kD>(dv, 1.f, sV, warp * 16, gv, stride, warp * 16, kRows,
                       lane);
}

//===----------------------------------------------------------------------===//
// SIMT kernels.
//===----------------------------------------------------------------------===//

/// Shared floats of either SIMT kernel: its own block (kGenBlock x d and
/// kGenBlock x dv), the streamed tile (kGenBlock x (d | 1) and kGenBlock x
/// (dv | 1): odd strides, so that lanes reading different rows hit
/// different banks), and the key pass's LSE and Delta of the tile.
inline size_t genericGradSmemBytes(int d, int dv) {
  return sizeof(float) *
         (size_t(kGenBlock) * (d + dv + (d | 1) + (dv | 1)) + 2 * kGenBlock);
}

/// The query pass in f32 on the CUDA cores. Grid: x = batch index, y =
/// query blocks of kGenBlock rows (reversed). Each warp owns 4 query rows;
/// per tile of 32 keys, lane j computes the scores and dP of key j.
template <typename T, bool kHasMask>
__global__ void __launch_bounds__(kGenThreads)
    genericGradQueryKernel(AttentionGradParams p) {
  const int diag = causalDiag(p);
  const int d = p.d, dv = p.dv, kStride = p.d | 1, vStride = p.dv | 1;
  float *sQ = reinterpret_cast<float *>(dynamicSmem());
  float *sDy = sQ + kGenBlock * d;
  float *sK = sDy + kGenBlock * dv;
  float *sV = sK + kGenBlock * kStride;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int m0 = static_cast<int>(gridDim.y - 1 - blockIdx.y) * kGenBlock;
  const int64_t dStride = int64_t(p.heads) * d,
                dvStride = int64_t(p.heads) * dv;
  const T *q = static_cast<const T *>(p.q) + batchBase(p, b, p.sq, d) +
               int64_t(m0) * dStride;
  const T *dy = static_cast<const T *>(p.dy) + batchBase(p, b, p.sq, dv) +
                int64_t(m0) * dvStride;
  // k and v: their own heads.
  const int64_t kRowStride = int64_t(kvHeads(p)) * d,
                vRowStride = int64_t(kvHeads(p)) * dv;
  const T *k = static_cast<const T *>(p.k) + kvBatchBase(p, b, p.sk, d);
  const T *v = static_cast<const T *>(p.v) + kvBatchBase(p, b, p.sk, dv);
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  const int qRows = imin(kGenBlock, p.sq - m0);
  for (int i = tid; i < kGenBlock * d; i += kGenThreads) {
    const int r = i / d;
    sQ[i] = r < qRows ? toFloat(q[int64_t(r) * dStride + (i - r * d)]) : 0.f;
  }
  for (int i = tid; i < kGenBlock * dv; i += kGenThreads) {
    const int r = i / dv;
    sDy[i] =
        r < qRows ? toFloat(dy[int64_t(r) * dvStride + (i - r * dv)]) : 0.f;
  }

  const int lastKey = lastVisibleKey(p, diag, m0, kGenBlock);
  const int nTiles = lastKey < 0 ? 0 : lastKey / kGenBlock + 1;
  const int row0 = warp * kGenRowsPerWarp; // First row of this warp.

  float acc[kGenRowsPerWarp][kGenChunks];
  float rowMax[kGenRowsPerWarp], rowSum[kGenRowsPerWarp],
      rowDot[kGenRowsPerWarp], rowLse[kGenRowsPerWarp],
      rowDelta[kGenRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
    rowMax[r] = kNegInf;
    rowSum[r] = rowDot[r] = 0.f;
    rowLse[r] = kPosInf;
    rowDelta[r] = 0.f;
#pragma unroll
    for (int c = 0; c < kGenChunks; ++c)
      acc[r][c] = 0.f;
  }

  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      // The statistics (rowSum and rowDot are per-lane partial sums).
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r) {
        finishRow(rowMax[r], warpSum(rowSum[r]), warpSum(rowDot[r]), rowLse[r],
                  rowDelta[r]);
        const int row = m0 + row0 + r;
        if (lane == 0 && row < p.sq) {
          p.lse[b * p.sq + row] = rowLse[r];
          p.delta[b * p.sq + row] = rowDelta[r];
        }
      }
    }
    for (int j = 0; j < nTiles; ++j) {
      const int n0 = j * kGenBlock;
      const int keys = imin(kGenBlock, p.sk - n0);
      blockSync(); // The previous tile is no longer read.
      for (int i = tid; i < kGenBlock * d; i += kGenThreads) {
        const int r = i / d, c = i - r * d;
        sK[r * kStride + c] =
            r < keys ? toFloat(k[int64_t(n0 + r) * kRowStride + c]) : 0.f;
      }
      for (int i = tid; i < kGenBlock * dv; i += kGenThreads) {
        const int r = i / dv, c = i - r * dv;
        sV[r * vStride + c] =
            r < keys ? toFloat(v[int64_t(n0 + r) * vRowStride + c]) : 0.f;
      }
      blockSync();

      // The scores and dP of key n0 + lane against the warp's rows.
      float sc[kGenRowsPerWarp], dpv[kGenRowsPerWarp];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r)
        sc[r] = dpv[r] = 0.f;
      const float *kRow = sK + lane * kStride;
      for (int c = 0; c < d; ++c) {
        const float kv = kRow[c];
#pragma unroll
        for (int r = 0; r < kGenRowsPerWarp; ++r)
          sc[r] += sQ[(row0 + r) * d + c] * kv;
      }
      const float *vRow = sV + lane * vStride;
      for (int c = 0; c < dv; ++c) {
        const float vv = vRow[c];
#pragma unroll
        for (int r = 0; r < kGenRowsPerWarp; ++r)
          dpv[r] += sDy[(row0 + r) * dv + c] * vv;
      }

      const int key = n0 + lane;
      float ds[kGenRowsPerWarp];
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
        if (pass == 0) {
          const float newMax = fmaxf(rowMax[r], warpMax(x));
          const float base = newMax == kNegInf ? 0.f : newMax;
          const float alpha = fastExp2(rowMax[r] - base);
          rowMax[r] = newMax;
          const float e = fastExp2(x - base);
          rowSum[r] = rowSum[r] * alpha + e;
          rowDot[r] = rowDot[r] * alpha + e * dpv[r];
        } else {
          const float pr = fastExp2(x - rowLse[r]);
          ds[r] = pr * (dpv[r] - rowDelta[r]);
        }
      }
      if (pass == 0)
        continue;

      // acc[r][c] += sum over keys jj of dS[r][jj] * K[jj][lane + 32 c].
      for (int jj = 0; jj < keys; ++jj) {
        float dsj[kGenRowsPerWarp];
#pragma unroll
        for (int r = 0; r < kGenRowsPerWarp; ++r)
          dsj[r] = shflIdx(ds[r], jj);
        const float *kj = sK + jj * kStride;
#pragma unroll
        for (int c = 0; c < kGenChunks; ++c) {
          const int col = lane + 32 * c;
          if (col < d) {
            const float kv = kj[col];
#pragma unroll
            for (int r = 0; r < kGenRowsPerWarp; ++r)
              acc[r][c] += dsj[r] * kv;
          }
        }
      }
    }
  }

  T *gq = static_cast<T *>(p.gradQ) + batchBase(p, b, p.sq, d) +
          int64_t(m0) * dStride;
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
    if (row0 + r >= qRows)
      continue;
#pragma unroll
    for (int c = 0; c < kGenChunks; ++c) {
      const int col = lane + 32 * c;
      if (col < d)
        gq[int64_t(row0 + r) * dStride + col] =
            fromFloat<T>(acc[r][c] * p.scale);
    }
  }
}

/// The key pass in f32 on the CUDA cores. Grid: x = batch index, y = key
/// blocks of kGenBlock keys. Each warp owns 4 keys; per tile of 32 queries,
/// lane i computes the scores and dP of query i.
template <typename T, bool kHasMask>
__global__ void __launch_bounds__(kGenThreads)
    genericGradKeyKernel(AttentionGradParams p) {
  const int diag = causalDiag(p);
  const int d = p.d, dv = p.dv, qStride = p.d | 1, dyStride = p.dv | 1;
  float *sK = reinterpret_cast<float *>(dynamicSmem());
  float *sV = sK + kGenBlock * d;
  float *sQ = sV + kGenBlock * dv;
  float *sDy = sQ + kGenBlock * qStride;
  float *sLse = sDy + kGenBlock * dyStride;
  float *sDelta = sLse + kGenBlock;

  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid >> 5, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const int n0 = static_cast<int>(blockIdx.y) * kGenBlock;
  // q, dy, dk and dv rows (q's heads); k and v rows (their own heads).
  const int64_t dStride = int64_t(p.heads) * d,
                dvStride = int64_t(p.heads) * dv;
  const int64_t kRowStride = int64_t(kvHeads(p)) * d,
                vRowStride = int64_t(kvHeads(p)) * dv;
  const int64_t kBase = batchBase(p, b, p.sk, d) + int64_t(n0) * dStride;
  const int64_t vBase = batchBase(p, b, p.sk, dv) + int64_t(n0) * dvStride;
  const T *k = static_cast<const T *>(p.k) + kvBatchBase(p, b, p.sk, d) +
               int64_t(n0) * kRowStride;
  const T *v = static_cast<const T *>(p.v) + kvBatchBase(p, b, p.sk, dv) +
               int64_t(n0) * vRowStride;
  const T *q = static_cast<const T *>(p.q) + batchBase(p, b, p.sq, d);
  const T *dy = static_cast<const T *>(p.dy) + batchBase(p, b, p.sq, dv);
  const float *lse = p.lse + b * p.sq;
  const float *delta = p.delta + b * p.sq;
  [[maybe_unused]] const T *mask =
      kHasMask ? static_cast<const T *>(p.mask) + maskBatchOffset(p, b)
               : nullptr;

  const int kRows = imin(kGenBlock, p.sk - n0);
  for (int i = tid; i < kGenBlock * d; i += kGenThreads) {
    const int r = i / d;
    sK[i] = r < kRows ? toFloat(k[int64_t(r) * kRowStride + (i - r * d)]) : 0.f;
  }
  for (int i = tid; i < kGenBlock * dv; i += kGenThreads) {
    const int r = i / dv;
    sV[i] =
        r < kRows ? toFloat(v[int64_t(r) * vRowStride + (i - r * dv)]) : 0.f;
  }

  const int row0 = warp * kGenRowsPerWarp; // First key of this warp.
  float gk[kGenRowsPerWarp][kGenChunks], gv[kGenRowsPerWarp][kGenChunks];
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
#pragma unroll
    for (int c = 0; c < kGenChunks; ++c)
      gk[r][c] = gv[r][c] = 0.f;
  }

  // Under causal masking the first query that sees key n0 is n0 - diag.
  const int firstQuery = p.causal ? imax(0, n0 - diag) : 0;
  for (int i0 = firstQuery / kGenBlock * kGenBlock; i0 < p.sq;
       i0 += kGenBlock) {
    const int rows = imin(kGenBlock, p.sq - i0);
    blockSync(); // The previous tile is no longer read.
    for (int i = tid; i < kGenBlock * d; i += kGenThreads) {
      const int r = i / d, c = i - r * d;
      sQ[r * qStride + c] =
          r < rows ? toFloat(q[int64_t(i0 + r) * dStride + c]) : 0.f;
    }
    for (int i = tid; i < kGenBlock * dv; i += kGenThreads) {
      const int r = i / dv, c = i - r * dv;
      sDy[r * dyStride + c] =
          r < rows ? toFloat(dy[int64_t(i0 + r) * dvStride + c]) : 0.f;
    }
    if (tid < kGenBlock) {
      sLse[tid] = tid < rows ? lse[i0 + tid] : kPosInf;
      sDelta[tid] = tid < rows ? delta[i0 + tid] : 0.f;
    }
    blockSync();

    // The scores and dP of query i0 + lane against the warp's keys.
    float sc[kGenRowsPerWarp], dpv[kGenRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kGenRowsPerWarp; ++r)
      sc[r] = dpv[r] = 0.f;
    const float *qRow = sQ + lane * qStride;
    for (int c = 0; c < d; ++c) {
      const float qv = qRow[c];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r)
        sc[r] += sK[(row0 + r) * d + c] * qv;
    }
    const float *dyRow = sDy + lane * dyStride;
    for (int c = 0; c < dv; ++c) {
      const float g = dyRow[c];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r)
        dpv[r] += sV[(row0 + r) * dv + c] * g;
    }

    const int query = i0 + lane;
    const float lseQ = sLse[lane], deltaQ = sDelta[lane];
    float pr[kGenRowsPerWarp], ds[kGenRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kGenRowsPerWarp; ++r) {
      const int key = n0 + row0 + r;
      float x = sc[r] * p.scaleLog2;
      if constexpr (kHasMask) {
        if (query < p.sq && key < p.sk)
          x += toFloat(mask[query * p.maskRowStride + key * p.maskColStride]) *
               kLog2e;
      }
      if (query >= p.sq || outsideBand(p, diag, query, key))
        x = kNegInf;
      pr[r] = fastExp2(x - lseQ);
      ds[r] = pr[r] * (dpv[r] - deltaQ);
    }

    // gv[r][c] += sum over queries jj of P[r][jj] dY[jj][lane + 32 c], and
    // gk likewise with dS and Q.
    for (int jj = 0; jj < rows; ++jj) {
      float pj[kGenRowsPerWarp], dsj[kGenRowsPerWarp];
#pragma unroll
      for (int r = 0; r < kGenRowsPerWarp; ++r) {
        pj[r] = shflIdx(pr[r], jj);
        dsj[r] = shflIdx(ds[r], jj);
      }
      const float *qj = sQ + jj * qStride, *dyj = sDy + jj * dyStride;
#pragma unroll
      for (int c = 0; c < kGenChunks; ++c) {
        const int col = lane + 32 * c;
        if (col < dv) {
          const float g = dyj[col];
#pragma unroll
          for (int r = 0; r < kGenRowsPerWarp; ++r)
            gv[r][c] += pj[r] * g;
        }
        if (col < d) {
          const float qv = qj[col];
#pragma unroll
          for (int r = 0; r < kGenRowsPerWarp; ++r)
            gk[r][c] += dsj[r] * qv;
        }
      }
    }
  }

  T *outK = static_cast<T *>(p.gradK) + kBase;
  T *outV = static_cast<T *>(p.gradV) + vBase;
#pragma unroll
  for (int r = 0; r < kGenRowsPerWarp; ++r) {
    if (row0 + r >= kRows)
      continue;
#pragma unroll
    for (int c = 0; c < kGenChunks; ++c) {
      const int col = lane + 32 * c;
      if (col < d)
        outK[int64_t(row0 + r) * dStride + col] =
            fromFloat<T>(gk[r][c] * p.scale);
      if (col < dv)
        outV[int64_t(row0 + r) * dvStride + col] = fromFloat<T>(gv[r][c]);
    }
  }
}

//===----------------------------------------------------------------------===//
// Host side: validation and kernel selection.
//===----------------------------------------------------------------------===//

using GradKernelFn = void (*)(AttentionGradParams);

/// One kernel launch of a plan.
struct GradLaunch {
  GradKernelFn kernel = nullptr;
  const char *name = "";
  dim3 grid;
  size_t smemBytes = 0;
};

/// A checked AttentionGrad: the kernels (none, or the query pass then the
/// key pass), their parameters, and the results to zero-fill instead.
struct GradPlan {
  GradLaunch query, key;
  /// The atomic path (accumDq): dq's conversion from the f32 accumulator,
  /// after the key pass.
  GradLaunch convert;
  bool accumDq = false;
  unsigned threads = 0;
  AttentionGradParams params;
  std::vector<std::pair<void *, size_t>> zeroFills;
  /// Bytes of workspace the kernels need.
  size_t workspaceBytes = 0;
  /// The checked operands, for cuDNN (CudnnAttention.h).
  AttentionGeometry geometry;
  DType dtype = DType::Invalid;
  bool hasMask = false;
  /// f32 on the tensor cores (AttentionTf32.h): the saved statistics' LSE
  /// and Delta, then its key pass, instead of `query` and `key`.
  bool tf32 = false;
  /// Grouped-query attention (kvGroup > 1): the key pass writes dk and dv
  /// per query attention into the workspace (expandedGradBytes), then
  /// kvGroupSumKernel sums each group's into the results.
  GroupSumJob groupSumK, groupSumV;
};

/// The CPU kernel's checks (checkAttentionGradOperands, same messages) plus
/// the element types the GPU has kernels for. Without outputs (the
/// workspace query) only the inputs are checked.
Status checkGradOperands(const KernelArgs &args, bool withOutputs,
                         AttentionGeometry &g) {
  if (withOutputs && args.out.size() != 3)
    return args.fail("expected 3 results, got ", args.out.size());
  if (args.in.size() >= 2) {
    const DType dt = args.in[1]->dtype();
    if (dt != DType::F32 && dt != DType::BF16 && dt != DType::F16)
      return args.fail("element type ", dtypeName(dt),
                       " has no GPU kernel (f32, bf16, f16)");
  }
  PARACC_RETURN_IF_ERROR(checkAttentionGradOperands(args, g));
  if (!withOutputs)
    return Status::ok();
  const DType dt = args.in[1]->dtype();
  static const char *const kNames[] = {"dq", "dk", "dv"};
  for (size_t o = 0; o < 3; ++o) {
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[o], dt, kNames[o]));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[o], args.in[1 + o]->shape(), kNames[o]));
  }
  return Status::ok();
}

/// The statistics' bytes: LSE and Delta, [batch, sq] f32 each.
size_t statsBytes(const AttentionGeometry &g) {
  return 2 * size_t(g.batch) * size_t(g.sq) * sizeof(float);
}

/// Whether the operands have the tensor-core kernels' element type and head
/// dims (alignment and PARACC_ATTENTION_KERNEL aside).
bool tensorCoreShape(DType dt, const AttentionGeometry &g) {
  return (dt == DType::BF16 || dt == DType::F16) && g.d == g.dv &&
         (g.d == 64 || g.d == 128);
}

/// The atomic path's dq accumulator: f32, shaped like dq, 16-byte aligned
/// (hence 16 bytes of slack after the statistics).
size_t dqAccumBytes(const AttentionGeometry &g) {
  return 16 + size_t(g.batch) * size_t(g.sq) * size_t(g.d) * sizeof(float);
}

/// The alignment of the expanded dk and dv in the workspace.
constexpr size_t kExpandedAlign = 256;
size_t alignExpanded(size_t n) {
  return (n + kExpandedAlign - 1) / kExpandedAlign * kExpandedAlign;
}

/// Grouped-query attention (kvGroup > 1): the key pass's dk and dv with q's
/// heads, laid out like k and v would be with them ([batch, Sk, D] and
/// [batch, Sk, Dv] in batchBase order, the element type), each 256-byte
/// aligned: 256 bytes of slack, dk's bytes rounded up to 256, dv's. 0
/// otherwise.
size_t expandedGradBytes(const AttentionGeometry &g, DType dt) {
  if (g.kvGroup <= 1)
    return 0;
  const size_t rows = size_t(g.batch) * size_t(g.sk) * dtypeSize(dt);
  return kExpandedAlign + alignExpanded(rows * size_t(g.d)) +
         rows * size_t(g.dv);
}

/// PARACC_ATTENTION_BWD=recompute selects the tensor-core path without
/// atomics (dq in a second pass of the query kernel).
bool recomputeDq() {
  const char *env = std::getenv("PARACC_ATTENTION_BWD");
  return env && std::strcmp(env, "recompute") == 0;
}

template <typename T, int kD, bool kAccum>
void pickTensorCoreKernels(bool hasMask, GradPlan &plan) {
  plan.query.kernel = hasMask ? &flashGradQueryKernel<T, kD, true, !kAccum>
                              : &flashGradQueryKernel<T, kD, false, !kAccum>;
  plan.key.kernel = hasMask ? &flashGradKeyKernel<T, kD, true, kAccum>
                            : &flashGradKeyKernel<T, kD, false, kAccum>;
  constexpr bool kBf16 = std::is_same_v<T, __nv_bfloat16>;
  plan.accumDq = kAccum;
  if constexpr (kAccum) {
    plan.convert.kernel = &dqConvertKernel<T>;
    plan.convert.name = kBf16 ? "dqConvertKernel<bf16>" : "dqConvertKernel<f16>";
    plan.convert.smemBytes = 0;
    const int64_t chunks = plan.params.dqElems / 8;
    plan.convert.grid = dim3(static_cast<unsigned>(std::min<int64_t>(
                                 (chunks + kTcThreads - 1) / kTcThreads, 4096)),
                             1, 1);
  }
  if constexpr (kD == 64) {
    plan.query.name = kBf16 ? "flashGradQueryKernel<bf16, 64>"
                            : "flashGradQueryKernel<f16, 64>";
    plan.key.name =
        kBf16 ? "flashGradKeyKernel<bf16, 64>" : "flashGradKeyKernel<f16, 64>";
  } else {
    plan.query.name = kBf16 ? "flashGradQueryKernel<bf16, 128>"
                            : "flashGradQueryKernel<f16, 128>";
    plan.key.name = kBf16 ? "flashGradKeyKernel<bf16, 128>"
                          : "flashGradKeyKernel<f16, 128>";
  }
  constexpr int kQTile = TcTiling<kD>::kQueryPassTile;
  constexpr int kKTile = TcTiling<kD>::kKeyPassTile;
  plan.query.smemBytes = size_t(2 * kTcBlockRows + 4 * kQTile) * kD * 2;
  plan.key.smemBytes = size_t(2 * kTcBlockRows + 4 * kKTile) * kD * 2 +
                       size_t(4 * kKTile) * sizeof(float) +
                       (kAccum ? size_t(kTcBlockRows) * kKTile * 2 : 0);
}

template <typename T, int kD>
void pickTensorCoreKernels(bool hasMask, bool accum, GradPlan &plan) {
  if (accum)
    pickTensorCoreKernels<T, kD, true>(hasMask, plan);
  else
    pickTensorCoreKernels<T, kD, false>(hasMask, plan);
}

template <typename T> void pickGenericKernels(bool hasMask, GradPlan &plan) {
  plan.query.kernel = hasMask ? &genericGradQueryKernel<T, true>
                              : &genericGradQueryKernel<T, false>;
  plan.key.kernel = hasMask ? &genericGradKeyKernel<T, true>
                            : &genericGradKeyKernel<T, false>;
}

/// Checks the operands like the CPU kernel and picks the kernels.
Status planAttentionGrad(const AttentionAttrs &attrs,
                         const std::vector<DeviceTensor> &inputs,
                         const std::vector<DeviceTensor> &outputs,
                         const KernelOptions &options, GradPlan &plan) {
  HostViews views(inputs, outputs);
  const OpAttrs typed = attrs;
  const KernelArgs args{OpCode::AttentionGrad, typed, views.in, views.out};
  AttentionGeometry g;
  PARACC_RETURN_IF_ERROR(checkGradOperands(args, /*withOutputs=*/true, g));
  const Tensor &dy = *args.in[0], &q = *args.in[1], &k = *args.in[2],
               &v = *args.in[3];
  // The saved result and statistics, when given, are cuDNN's: paracc's
  // kernels compute their own.
  const Tensor *mask = g.hasMask ? args.in[4] : nullptr;
  Tensor &dq = *args.out[0], &dk = *args.out[1], &dv = *args.out[2];
  const DType dt = q.dtype();
  const int64_t sq = g.sq, sk = g.sk, d = g.d, dvDim = g.dv;

  plan = GradPlan();
  plan.geometry = g;
  plan.dtype = dt;
  plan.hasMask = mask != nullptr;
  if (g.batch == 0)
    return Status::ok(); // Every operand is empty.
  if (sq == 0 || sk == 0) {
    // No queries: dk = dv = 0. No keys: every row is fully masked, dq = 0.
    for (Tensor *t : {&dq, &dk, &dv})
      if (t->byteSize() > 0) {
        if (!t->data())
          return args.fail("null device pointer");
        plan.zeroFills.emplace_back(t->data(), t->byteSize());
      }
    return Status::ok();
  }
  constexpr int64_t kMaxSeq = int64_t(1) << 30;
  if (sq > kMaxSeq || sk > kMaxSeq)
    return args.fail("sequence lengths up to 2^30 on the GPU, got Sq=", sq,
                     " Sk=", sk);
  if (d > kGenMaxD || dvDim > kGenMaxD)
    return args.fail("head dims up to ", kGenMaxD, " on the GPU, got D=", d,
                     " Dv=", dvDim);
  for (const Tensor *t :
       {&dy, &q, &k, &v, mask, static_cast<const Tensor *>(&dq),
        static_cast<const Tensor *>(&dk), static_cast<const Tensor *>(&dv)})
    if (t && t->numElements() > 0 && !t->data())
      return args.fail("null device pointer");
  if (g.heads > int64_t(std::numeric_limits<int32_t>::max()))
    return args.fail("heads ", g.heads, " exceed 2^31");
  if (g.batch > int64_t(std::numeric_limits<int32_t>::max()))
    return args.fail("batch (product of leading dims) ", g.batch,
                     " exceeds the grid");

  AttentionGradParams &p = plan.params;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.mask = mask ? mask->data() : nullptr;
  p.dy = dy.data();
  p.gradQ = dq.data();
  p.gradK = dk.data();
  p.gradV = dv.data();
  p.batch = g.batch;
  p.heads = static_cast<int32_t>(g.heads);
  p.kvGroup = static_cast<int32_t>(g.kvGroup); // <= batch.
  p.sq = static_cast<int32_t>(sq);
  p.sk = static_cast<int32_t>(sk);
  p.d = static_cast<int32_t>(d);
  p.dv = static_cast<int32_t>(dvDim);
  p.causal = g.causal ? 1 : 0;
  p.diag = static_cast<int32_t>(sk - sq);
  p.queryStart = g.queryStartOperand
                     ? static_cast<const int64_t *>(g.queryStartOperand->data())
                     : nullptr;
  p.window = static_cast<int32_t>(
      std::min<int64_t>(g.window, std::numeric_limits<int32_t>::max()));
  p.scale = static_cast<float>(g.scale);
  p.scaleLog2 = static_cast<float>(g.scale * 1.4426950408889634);
  if (mask)
    PARACC_RETURN_IF_ERROR(
        setMaskStrides(args, mask->shape(), g.scoreShape, p));
  p.dqElems = g.batch * sq * d;
  plan.workspaceBytes = statsBytes(g);
  if (g.kvGroup > 1) {
    // The group sums read the expanded dk and dv (their pointers are set
    // at launch, in the workspace) and write the results.
    const int64_t kvBatch = g.batch / g.kvGroup;
    plan.groupSumK = {nullptr, dk.data(), kvBatch * sk * d,
                      g.sequenceFirst ? d : sk * d};
    plan.groupSumV = {nullptr, dv.data(), kvBatch * sk * dvDim,
                      g.sequenceFirst ? dvDim : sk * dvDim};
  }

  const bool hasMask = mask != nullptr;
  auto aligned16 = [](const void *ptr) {
    return reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
  };
  // With kvGroup > 1 the kernels write dk and dv into the workspace (256-
  // byte aligned): the results' own alignment does not matter.
  const bool resultsKVAligned =
      g.kvGroup > 1 || (aligned16(p.gradK) && aligned16(p.gradV));
  const bool tensorCore = (dt == DType::BF16 || dt == DType::F16) &&
                          d == dvDim && (d == 64 || d == 128) &&
                          aligned16(p.q) && aligned16(p.k) && aligned16(p.v) &&
                          aligned16(p.dy) && aligned16(p.gradQ) &&
                          resultsKVAligned && !forceGenericKernel();
  // TF32 needs the forward's statistics: it has no query pass.
  plan.tf32 = dt == DType::F32 && options.allowTf32 && g.savedStats &&
              !forceGenericKernel() && resultsKVAligned &&
              tf32AttentionShape(d, dvDim, {p.q, p.k, p.v, p.dy, p.gradQ});
  const int64_t block = tensorCore ? kTcBlockRows : kGenBlock;
  const int64_t mBlocks = (sq + block - 1) / block;
  const int64_t nBlocks = (sk + block - 1) / block;
  if (mBlocks > 65535 || nBlocks > 65535)
    return args.fail("Sq=", sq, ", Sk=", sk, " need ", mBlocks, " query and ",
                     nBlocks, " key blocks; the grid takes 65535");
  const unsigned batch = static_cast<unsigned>(p.batch);
  plan.query.grid = dim3(batch, static_cast<unsigned>(mBlocks), 1);
  plan.key.grid = dim3(batch, static_cast<unsigned>(nBlocks), 1);
  if (tensorCore) {
    plan.threads = kTcThreads;
    const bool accum = !recomputeDq();
    if (dt == DType::BF16) {
      if (d == 64)
        pickTensorCoreKernels<__nv_bfloat16, 64>(hasMask, accum, plan);
      else
        pickTensorCoreKernels<__nv_bfloat16, 128>(hasMask, accum, plan);
    } else {
      if (d == 64)
        pickTensorCoreKernels<__half, 64>(hasMask, accum, plan);
      else
        pickTensorCoreKernels<__half, 128>(hasMask, accum, plan);
    }
    if (accum)
      plan.workspaceBytes += dqAccumBytes(g);
  } else {
    plan.threads = kGenThreads;
    plan.query.smemBytes = plan.key.smemBytes = genericGradSmemBytes(p.d, p.dv);
    switch (dt) {
    case DType::BF16:
      pickGenericKernels<__nv_bfloat16>(hasMask, plan);
      plan.query.name = "genericGradQueryKernel<bf16>";
      plan.key.name = "genericGradKeyKernel<bf16>";
      break;
    case DType::F16:
      pickGenericKernels<__half>(hasMask, plan);
      plan.query.name = "genericGradQueryKernel<f16>";
      plan.key.name = "genericGradKeyKernel<f16>";
      break;
    default:
      pickGenericKernels<float>(hasMask, plan);
      plan.query.name = "genericGradQueryKernel<f32>";
      plan.key.name = "genericGradKeyKernel<f32>";
      break;
    }
  }
  // After the statistics and the dq accumulator, whichever path runs.
  plan.workspaceBytes += expandedGradBytes(g, dt);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Host side: launch.
//===----------------------------------------------------------------------===//

/// LSE (base 2, +inf for a row without keys) and Delta = rowsum(dy * out)
/// from a forward's saved result and natural-log statistics: one warp per
/// query row. kTf32: dy and out rounded to TF32 first, as the TF32 key pass
/// rounds dy and v for dP, so that dS = P (dP - Delta) cancels exactly
/// where it should (a row whose P is one-hot has out = v_j).
template <typename T, bool kTf32 = false>
__global__ void __launch_bounds__(256)
    statsFromSavedKernel(AttentionGradParams p, const T *out,
                         const float *stats) {
  auto value = [](T x) {
    if constexpr (kTf32)
      return roundTf32(toFloat(x));
    else
      return toFloat(x);
  };
  const int64_t rows = p.batch * int64_t(p.sq);
  const int lane = threadIdx.x & 31;
  for (int64_t r = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
       r < rows; r += (int64_t(gridDim.x) * blockDim.x) >> 5) {
    const int64_t b = r / p.sq;
    const int i = int(r % p.sq);
    const int64_t base =
        batchBase(p, b, p.sq, p.dv) + int64_t(i) * p.heads * p.dv;
    const T *dy = static_cast<const T *>(p.dy) + base;
    float dot = 0.f;
    for (int c = lane; c < p.dv; c += 32)
      dot += value(dy[c]) * value(out[base + c]);
    for (int o = 16; o > 0; o >>= 1)
      dot += __shfl_xor_sync(0xffffffffu, dot, o);
    if (lane == 0) {
      const float lse = stats[r];
      const bool none = lse == kNegInf;
      p.lse[r] = none ? kPosInf : lse * kLog2e;
      p.delta[r] = none ? 0.f : dot;
    }
  }
}

Status launchStatsFromSaved(const AttentionGradParams &p, const void *out,
                            const float *stats, DType dt, cudaStream_t stream) {
  const int64_t rows = p.batch * int64_t(p.sq);
  const unsigned grid = unsigned(std::min<int64_t>(
      int64_t(1) << 20, std::max<int64_t>(1, (rows + 7) / 8)));
  if (dt == DType::BF16)
    statsFromSavedKernel<__nv_bfloat16><<<grid, 256, 0, stream>>>(
        p, static_cast<const __nv_bfloat16 *>(out), stats);
  else if (dt == DType::F16)
    statsFromSavedKernel<__half>
        <<<grid, 256, 0, stream>>>(p, static_cast<const __half *>(out), stats);
  else // f32 comes here only on the TF32 path.
    statsFromSavedKernel<float, /*kTf32=*/true>
        <<<grid, 256, 0, stream>>>(p, static_cast<const float *>(out), stats);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf("attention_grad: statsFromSavedKernel launch failed: ",
                  cudaGetErrorString(err));
  return Status::ok();
}

Status launchOne(const GradLaunch &l, unsigned threads,
                 const AttentionGradParams &params, cudaStream_t stream) {
  return launchAttentionKernel("attention_grad", l.name, l.kernel, l.grid,
                               dim3(threads, 1, 1), l.smemBytes, params,
                               stream);
}

/// Grouped-query attention: dk and dv from the key pass's expanded ones.
Status launchGroupSum(const GroupSumJob &dk, const GroupSumJob &dv,
                      int32_t group, DType dt, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t most = std::max(dk.elems, dv.elems);
  const dim3 grid(
      static_cast<unsigned>(std::min<int64_t>(
          std::max<int64_t>(1, (most + kThreads - 1) / kThreads), 4096)),
      2, 1);
  if (dt == DType::BF16)
    kvGroupSumKernel<__nv_bfloat16>
        <<<grid, kThreads, 0, stream>>>(dk, dv, group);
  else if (dt == DType::F16)
    kvGroupSumKernel<__half><<<grid, kThreads, 0, stream>>>(dk, dv, group);
  else
    kvGroupSumKernel<float><<<grid, kThreads, 0, stream>>>(dk, dv, group);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf("attention_grad: kvGroupSumKernel launch failed: ",
                  cudaGetErrorString(err));
  return Status::ok();
}

} // namespace

size_t attentionGradWorkspaceBytes(const AttentionAttrs &attrs,
                                   const std::vector<DeviceTensor> &inputs) {
  HostViews views(inputs, {});
  const OpAttrs typed = attrs;
  const KernelArgs args{OpCode::AttentionGrad, typed, views.in, views.out};
  AttentionGeometry g;
  if (!checkGradOperands(args, /*withOutputs=*/false, g).isOk())
    return 0;
  if (g.sq == 0 || g.sk == 0)
    return 0; // Only zero-fills.
  // The dq accumulator whenever the tensor-core kernels may run (the path
  // is picked at launch, by alignment and the environment), then the
  // expanded dk and dv of grouped-query attention.
  const DType dt = args.in[1]->dtype();
  const size_t own = statsBytes(g) +
                     (tensorCoreShape(dt, g) ? dqAccumBytes(g) : 0) +
                     expandedGradBytes(g, dt);
  // Room for either path: cuDNN's when it takes these operands (its plans
  // are built here, before any capture), paracc's kernels otherwise.
  const size_t cudnn =
      cudnnAttentionGradWorkspaceBytes({&g, args.in[1]->dtype(), g.hasMask});
  return std::max(own, cudnn);
}

Status launchAttentionGrad(const AttentionAttrs &attrs,
                           const std::vector<DeviceTensor> &inputs,
                           const std::vector<DeviceTensor> &outputs,
                           void *workspace, size_t workspaceBytes,
                           cudaStream_t stream, const KernelOptions &options) {
  GradPlan plan;
  PARACC_RETURN_IF_ERROR(
      planAttentionGrad(attrs, inputs, outputs, options, plan));
  for (const auto &[ptr, bytes] : plan.zeroFills) {
    const cudaError_t err = cudaMemsetAsync(ptr, 0, bytes, stream);
    if (err != cudaSuccess)
      return errorf("attention_grad: zeroing a result failed: ",
                    cudaGetErrorString(err));
  }
  if (!plan.query.kernel)
    return Status::ok();
  CudnnOutcome outcome = CudnnOutcome::NotAvailable;
  SavedAttention saved;
  if (plan.geometry.savedStats) {
    saved.out = inputs[inputs.size() - 2].data;
    saved.stats = static_cast<const float *>(inputs.back().data);
  }
  // (A start read at run time takes paracc's kernels unless the compiler
  // proved it within [0, Sk - Sq]: cuDNN's diagonal is fixed when its graph
  // is built, its padding mask is not.)
  if (!plan.params.queryStart || plan.geometry.startWithinKeys)
    PARACC_RETURN_IF_ERROR(runCudnnAttentionGrad(
        {&plan.geometry, plan.dtype, plan.hasMask, plan.params.queryStart},
        inputs[0].data, inputs[1].data, inputs[2].data, inputs[3].data, saved,
        outputs[0].data, outputs[1].data, outputs[2].data, workspace,
        workspaceBytes, stream, outcome));
  if (outcome == CudnnOutcome::Ran)
    return Status::ok();
  // Given the statistics, the atomic path builds LSE and Delta from them
  // and skips the query pass; the others recompute their own, which a
  // block of a larger attention's keys cannot use.
  const bool fromSaved =
      plan.geometry.savedStats && (plan.accumDq || plan.tf32);
  if (attrs.keyBlock && !fromSaved)
    return errorf("attention_grad: a block of a ring attention's keys needs "
                  "the saved statistics, which only cuDNN, the "
                  "tensor-core kernels with the atomic dq path (bf16/f16, "
                  "head dim 64 or 128, aligned operands, not "
                  "PARACC_ATTENTION_BWD=recompute) and the TF32 kernels "
                  "(f32 under --tf32, head dim 32, 64 or 128) take; use "
                  "--cp-attention allgather or alltoall here");
  if (workspaceBytes < plan.workspaceBytes || !workspace)
    return errorf("attention_grad: the workspace has ", workspaceBytes,
                  " bytes at ", workspace, "; ", plan.workspaceBytes,
                  " are needed");
  if (reinterpret_cast<uintptr_t>(workspace) % alignof(float) != 0)
    return errorf("attention_grad: the workspace is not aligned for f32");
  AttentionGradParams &p = plan.params;
  p.lse = static_cast<float *>(workspace);
  p.delta = p.lse + p.batch * int64_t(p.sq);
  float *end = p.delta + p.batch * int64_t(p.sq);
  if (plan.accumDq) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(end);
    p.dqAccum = reinterpret_cast<float *>((at + 15) & ~uintptr_t(15));
    end = p.dqAccum + p.dqElems;
    const cudaError_t err = cudaMemsetAsync(
        p.dqAccum, 0, size_t(p.dqElems) * sizeof(float), stream);
    if (err != cudaSuccess)
      return errorf("attention_grad: zeroing the dq accumulator failed: ",
                    cudaGetErrorString(err));
  }
  if (p.kvGroup > 1) {
    // The key pass writes dk and dv per query attention here (every
    // element: each key block's CTA stores all of its rows), the group sum
    // reads them.
    const uintptr_t at = reinterpret_cast<uintptr_t>(end);
    char *expanded = reinterpret_cast<char *>((at + kExpandedAlign - 1) &
                                              ~uintptr_t(kExpandedAlign - 1));
    const size_t es = dtypeSize(plan.dtype);
    p.gradK = expanded;
    p.gradV = expanded +
              alignExpanded(size_t(p.batch) * size_t(p.sk) * size_t(p.d) * es);
    plan.groupSumK.expanded = p.gradK;
    plan.groupSumV.expanded = p.gradV;
  }
  // The key pass reads the statistics the query pass (or the saved ones'
  // conversion) wrote, and the conversion the key pass's dq sums: stream
  // order.
  if (fromSaved)
    PARACC_RETURN_IF_ERROR(launchStatsFromSaved(
        p, inputs[inputs.size() - 2].data,
        static_cast<const float *>(inputs.back().data), plan.dtype, stream));
  else
    PARACC_RETURN_IF_ERROR(launchOne(plan.query, plan.threads, p, stream));
  if (plan.tf32) {
    // The TF32 key pass adds dq's terms to dq itself (f32).
    const cudaError_t err =
        cudaMemsetAsync(p.gradQ, 0, size_t(p.dqElems) * sizeof(float), stream);
    if (err != cudaSuccess)
      return errorf("attention_grad: zeroing dq failed: ",
                    cudaGetErrorString(err));
    PARACC_RETURN_IF_ERROR(
        launchTf32AttentionGradKeys(p, plan.hasMask, stream));
  } else {
    PARACC_RETURN_IF_ERROR(launchOne(plan.key, plan.threads, p, stream));
    if (plan.accumDq)
      PARACC_RETURN_IF_ERROR(launchOne(plan.convert, plan.threads, p, stream));
  }
  if (p.kvGroup > 1)
    return launchGroupSum(plan.groupSumK, plan.groupSumV, p.kvGroup, plan.dtype,
                          stream);
  return Status::ok();
}

} // namespace paracc::rt::cuda
