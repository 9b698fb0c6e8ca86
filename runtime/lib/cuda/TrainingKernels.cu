//===- TrainingKernels.cu - Backward, loss and optimizer kernels ----------===//
//
// GPU kernels of the training instructions with the semantics of
// cpu/Gradients.cpp, cpu/Loss.cpp and cpu/Optimizers.cpp: LayerNormGrad,
// RmsNormGrad, GeluGrad, CrossEntropyGrad, the forward losses
// SoftmaxCrossEntropy and NllLoss, and the AdamW and Sgd updates. Operands
// are checked with the CPU kernels' checks (same messages, replicated here
// with KernelArgs because the CPU's are private to its files), except the
// checks that read tensor contents, which would need a synchronization:
//
//  - a label outside [0, C) that is not ignore_index (an error on the CPU)
//    makes the gradient row of its position NaN (CrossEntropyGrad), or its
//    loss and weight NaN (so the sum and the mean are NaN too);
//  - a step that is not a finite count >= 1 (AdamW, Sgd) makes every result
//    element NaN.
//
// Floating math is f32 for f32/bf16/f16 (the CPU uses double), results are
// rounded once to the result type. Every result element is written.
//
//  - LayerNormGrad/RmsNormGrad: a fixed grid of "workers" (as many blocks
//    as the device keeps resident) walks the rows; a row is handled by a
//    slot of 32..256 threads holding it in registers (longer rows: a block
//    of 512 threads passing over global memory), statistics recomputed in
//    f32, dx written at once. dscale/dbias accumulate per thread in
//    registers over the worker's rows; each worker writes one partial row
//    to a stream-ordered scratch buffer (cudaMallocAsync, as the row
//    reductions of Reduction.cu do) and a second kernel sums the partials
//    column-wise in a fixed order: deterministic, no atomics. Without
//    scratch memory one worker does everything (slow, still correct).
//  - GeluGrad: elementwise, 16-byte vectors, may run exactly in place.
//  - SiluMul, SiluMulGrad: SwiGLU's product and its gradient, likewise.
//  - CrossEntropyGrad, SoftmaxCrossEntropy: scores [N, C, D]. With D == 1
//    and C >= 64 one warp (short rows) or block per row: an online max/sum
//    pass, then a pass that writes (both over 16-byte vectors when
//    aligned); otherwise one thread per (n, d) position walking the classes
//    (stride D, coalesced across positions). NllLoss: one thread per
//    position.
//  - Sum and mean losses: each block accumulates (loss, weight) in double
//    over its rows, writes one partial to scratch memory and a one-block
//    kernel adds the partials in a fixed order (without scratch memory one
//    block does it all). Deterministic for a given device.
//  - AdamW, Sgd (f32): elementwise, float4 when aligned, the step's scalars
//    (lr, step, grad_scale) read from device memory by thread 0 of each
//    block, which computes the bias corrections in double. The tensor math
//    uses __fmul_rn/__fadd_rn/__fdiv_rn/__fsqrt_rn in the CPU's op order,
//    so that nothing contracts into an FMA: exp_avg, exp_avg_sq and every
//    Sgd result match the CPU bit for bit; AdamW's parameter too unless the
//    device's pow differs from the host's in the last bit (AdamW's element
//    math is in AdamWMath.cuh, shared with ForeachAdamW). Results may be
//    the very buffers of the operands.
//
//===----------------------------------------------------------------------===//

#include "Kernels/TrainingChecks.h"
#include "cuda/AdamWMath.cuh"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace paracc::rt::cuda {

namespace {

constexpr int64_t kMaxGrid = int64_t(1) << 30;

/// Largest scratch buffer of per-worker partial sums, in bytes.
constexpr int64_t kScratchBudget = int64_t(32) << 20;

unsigned gridFor(int64_t work, int64_t perBlock, int64_t cap = kMaxGrid) {
  return unsigned(
      std::min<int64_t>(cap, std::max<int64_t>(1, ceilDiv(work, perBlock))));
}

int roundUp32(int64_t n) {
  return int(std::max<int64_t>(32, ceilDiv(n, 32) * 32));
}

/// The smallest power of two >= n (n >= 1).
int64_t pow2Ceil(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

template <int N> struct IntTag { static constexpr int value = N; };

/// Blocks of `kernel` (with `threads` threads and `smem` bytes of dynamic
/// shared memory) the device keeps resident at once (at least 1).
template <typename K>
int64_t residentBlocks(K kernel, int threads, size_t smem) {
  int perSM = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, threads,
                                                    smem) != cudaSuccess ||
      perSM <= 0) {
    (void)cudaGetLastError();
    perSM = 1;
  }
  return int64_t(perSM) * deviceSMCount();
}

/// The element type of a label or index tensor.
bool isIndex32(const Tensor &t) { return t.dtype() == DType::I32; }

/// Sums N values over the threads of a row slot (the blockDim.x threads of
/// one threadIdx.y, a multiple of 32); every thread of the block calls it
/// (it synchronizes the block when a slot spans several warps) and gets its
/// slot's sums. `red` holds 2 * 32 floats.
template <int N>
__device__ __forceinline__ void slotSum(float (&v)[N], float *red) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    v[i] = warpReduce(v[i], SumF());
  if (blockDim.x == 32)
    return;
  const int nw = int(blockDim.x) >> 5;
  const int first = int(threadIdx.y) * nw;
  __syncthreads(); // red may still be read by a previous call.
  if ((threadIdx.x & 31) == 0) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      red[(first + int(threadIdx.x >> 5)) * N + i] = v[i];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < N; ++i) {
    float s = red[first * N + i];
    for (int w = 1; w < nw; ++w)
      s += red[(first + w) * N + i];
    v[i] = s;
  }
}

//===----------------------------------------------------------------------===//
// LayerNormGrad, RmsNormGrad.
//===----------------------------------------------------------------------===//


struct NormGradParams {
  const void *dy = nullptr;
  const void *x = nullptr;
  const void *scale = nullptr;
  void *dx = nullptr;
  void *dscale = nullptr;
  void *dbias = nullptr; // Null for RmsNormGrad.
  /// Added to dx as it is written (the accumulate operand), or null.
  const void *acc = nullptr;
  /// [gridDim.x][2][d] partial dscale/dbias sums, one pair of rows per
  /// block; null when one block writes dscale/dbias itself.
  float *partial = nullptr;
  int64_t rows = 0;
  int64_t d = 0;
  float eps = 0.0f;
  bool layerNorm = true;
};

/// Threads of the block of normGradKernel.
constexpr int kNormGradThreads = 256;
/// Threads of the block of normGradLongKernel.
constexpr int kNormGradLongThreads = 512;

/// dscale[j] (k = 0) or dbias[j] (k = 1) of block `worker`: into the
/// partial rows, or the result itself when there are none.
template <DType D>
__device__ __forceinline__ void emitNormGradSum(const NormGradParams &p,
                                                int64_t worker, int64_t j,
                                                float s, float b) {
  if (p.partial) {
    p.partial[(worker * 2) * p.d + j] = s;
    if (p.layerNorm)
      p.partial[(worker * 2 + 1) * p.d + j] = b;
    return;
  }
  static_cast<DevS<D> *>(p.dscale)[j] = stc<D>(s);
  if (p.dbias)
    static_cast<DevS<D> *>(p.dbias)[j] = stc<D>(b);
}

/// Rows held in registers: blockDim = (W, R), R slots of W threads (W in
/// {32, ..., 256}, R * W = 256), each slot one row at a time; a thread holds
/// kChunks vectors of V elements of the row (vectors threadIdx.x + c * W)
/// and accumulates dscale/dbias for them over the block's rows. With R > 1
/// the slots' sums meet in dynamic shared memory ([R][2][d] floats).
/// kLayerNorm is p.layerNorm (RmsNormGrad keeps no dbias sums and no mean);
/// with one chunk the registers are capped so that four blocks stay
/// resident per multiprocessor (at 80 registers three did, and the kernel
/// ran at a third of the memory's speed).
template <DType D, int V, int kChunks, bool kLayerNorm>
__global__ void __launch_bounds__(kNormGradThreads, kChunks == 1 ? 4 : 1)
    normGradKernel(NormGradParams p) {
  // Two rows of vectors in registers where they fit in the 64 registers
  // of four resident blocks (one chunk, no mean); else one.
  constexpr bool kPrefetch = kChunks == 1 && !kLayerNorm;
  using S = DevS<D>;
  extern __shared__ float comb[];
  __shared__ float red[64];
  const S *dy = static_cast<const S *>(p.dy);
  const S *x = static_cast<const S *>(p.x);
  const S *scale = static_cast<const S *>(p.scale);
  S *dx = static_cast<S *>(p.dx);
  const int W = int(blockDim.x), R = int(blockDim.y);
  const int tx = int(threadIdx.x), slot = int(threadIdx.y);
  const int64_t nv = p.d / V;
  const float fd = float(p.d);
  constexpr bool ln = kLayerNorm;

  // The scale stays in its own type (fewer registers), zero past the row.
  VecT<S, V> scv[kChunks];
  float accS[kChunks][V], accB[kChunks][ln ? V : 1];
  bool valid[kChunks];
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
    const int64_t vi = tx + int64_t(c) * W;
    valid[c] = vi < nv;
    if (valid[c])
      scv[c] = loadVec<V>(scale, vi);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      if (!valid[c])
        scv[c].v[k] = stc<D>(0.0f);
      accS[c][k] = 0.0f;
      if constexpr (ln)
        accB[c][k] = 0.0f;
    }
  }

  // The row's raw vectors (x, dy and, with kPrefetch, the accumulate
  // operand): with kPrefetch the next row's are loaded before this row's
  // sums, so that every slot keeps one row of loads in flight while it
  // reduces and writes the other.
  struct RowVectors {
    VecT<S, V> x[kChunks], dy[kChunks], acc[kChunks];
  };
  const S *acc = static_cast<const S *>(p.acc);
  auto load = [&](int64_t row, RowVectors &r) {
    if (row >= p.rows)
      return;
    const int64_t off = row * p.d;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      const int64_t vi = tx + int64_t(c) * W;
      if (!valid[c])
        continue;
      r.x[c] = loadVec<V>(x + off, vi);
      r.dy[c] = loadVec<V>(dy + off, vi);
      if (kPrefetch && acc)
        r.acc[c] = loadVec<V>(acc + off, vi);
    }
  };
  const int64_t rowStep = int64_t(gridDim.x) * R;
  RowVectors cur;
  load(int64_t(blockIdx.x) * R + slot, cur);
  for (int64_t base = int64_t(blockIdx.x) * R; base < p.rows; base += rowStep) {
    const int64_t row = base + slot;
    const bool active = row < p.rows;
    const int64_t off = active ? row * p.d : 0;
    RowVectors next;
    if (kPrefetch)
      load(row + rowStep, next);
    float xv[kChunks][V], dv[kChunks][V];
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
#pragma unroll
      for (int k = 0; k < V; ++k) {
        xv[c][k] = active && valid[c] ? ldc<D>(cur.x[c].v[k]) : 0.0f;
        dv[c][k] = active && valid[c] ? ldc<D>(cur.dy[c].v[k]) : 0.0f;
      }
    }
    float mean = 0.0f, rstd, meanG = 0.0f, meanGX;
    if constexpr (ln) {
      float s[1] = {0.0f};
#pragma unroll
      for (int c = 0; c < kChunks; ++c)
#pragma unroll
        for (int k = 0; k < V; ++k)
          s[0] += xv[c][k]; // Padding is zero.
      slotSum(s, red);
      mean = s[0] / fd;
      float q[1] = {0.0f};
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        if (valid[c]) {
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const float t = xv[c][k] - mean;
            q[0] += t * t;
          }
        }
      }
      slotSum(q, red);
      rstd = rsqrtf(q[0] / fd + p.eps);
      float sums[2] = {0.0f, 0.0f};
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        if (valid[c]) {
#pragma unroll
          for (int k = 0; k < V; ++k) {
            const float xh = (xv[c][k] - mean) * rstd;
            const float g = dv[c][k] * ldc<D>(scv[c].v[k]);
            xv[c][k] = xh;
            sums[0] += g;
            sums[1] += g * xh;
          }
        }
      }
      slotSum(sums, red);
      meanG = sums[0] / fd;
      meanGX = sums[1] / fd;
    } else {
      // No mean: sum(x^2) and sum(g x) in one reduction; sum(g xh) is
      // rstd * sum(g x).
      float sums[2] = {0.0f, 0.0f};
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
#pragma unroll
        for (int k = 0; k < V; ++k) {
          sums[0] += xv[c][k] * xv[c][k]; // Padding is zero.
          sums[1] += dv[c][k] * ldc<D>(scv[c].v[k]) * xv[c][k];
        }
      }
      slotSum(sums, red);
      rstd = rsqrtf(sums[0] / fd + p.eps);
      meanGX = rstd * sums[1] / fd;
#pragma unroll
      for (int c = 0; c < kChunks; ++c)
#pragma unroll
        for (int k = 0; k < V; ++k)
          xv[c][k] *= rstd;
    }
    if (active) {
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        if (!valid[c])
          continue;
        VecT<S, V> o;
        if (!kPrefetch && acc) // Loaded late: registers are short.
          cur.acc[c] = loadVec<V>(acc + off, tx + int64_t(c) * W);
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const float g = dv[c][k] * ldc<D>(scv[c].v[k]);
          o.v[k] = stc<D>(rstd * (g - meanG - xv[c][k] * meanGX) +
                          (acc ? ldc<D>(cur.acc[c].v[k]) : 0.0f));
          accS[c][k] += dv[c][k] * xv[c][k];
          if constexpr (ln)
            accB[c][k] += dv[c][k];
        }
        storeVec<V>(dx + off, tx + int64_t(c) * W, o);
      }
    }
    if (kPrefetch)
      cur = next;
    else
      load(row + rowStep, cur);
  }

  // One pair of sums per block.
  if (R == 1) {
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      if (!valid[c])
        continue;
#pragma unroll
      for (int k = 0; k < V; ++k)
        emitNormGradSum<D>(p, blockIdx.x, (tx + int64_t(c) * W) * V + k,
                           accS[c][k], ln ? accB[c][ln ? k : 0] : 0.0f);
    }
    return;
  }
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
    if (!valid[c])
      continue;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const int64_t j = (tx + int64_t(c) * W) * V + k;
      comb[(slot * 2) * p.d + j] = accS[c][k];
      comb[(slot * 2 + 1) * p.d + j] = ln ? accB[c][ln ? k : 0] : 0.0f;
    }
  }
  __syncthreads();
  for (int64_t j = int64_t(slot) * W + tx; j < p.d; j += int64_t(W) * R) {
    float s = comb[j], b = comb[p.d + j];
    for (int r = 1; r < R; ++r) {
      s += comb[(r * 2) * p.d + j];
      b += comb[(r * 2 + 1) * p.d + j];
    }
    emitNormGradSum<D>(p, blockIdx.x, j, s, b);
  }
}

/// Long rows: one block of kNormGradLongThreads per row at a time, four
/// passes over the row in global memory; dscale/dbias accumulate in the
/// block's partial rows (each thread owns the same elements in every row,
/// so no synchronization is needed). Requires p.partial.
template <DType D, int V>
__global__ void __launch_bounds__(kNormGradLongThreads)
    normGradLongKernel(NormGradParams p) {
  using S = DevS<D>;
  __shared__ float red[64];
  const S *dy = static_cast<const S *>(p.dy);
  const S *x = static_cast<const S *>(p.x);
  const S *scale = static_cast<const S *>(p.scale);
  S *dx = static_cast<S *>(p.dx);
  const int tid = int(threadIdx.x), nthr = int(blockDim.x);
  const int64_t nv = p.d / V;
  const float fd = float(p.d);
  const bool ln = p.layerNorm;
  float *ps = p.partial + int64_t(blockIdx.x) * 2 * p.d;
  float *pb = ps + p.d;
  for (int64_t vi = tid; vi < nv; vi += nthr) {
#pragma unroll
    for (int k = 0; k < V; ++k) {
      ps[vi * V + k] = 0.0f;
      if (ln)
        pb[vi * V + k] = 0.0f;
    }
  }
  for (int64_t row = blockIdx.x; row < p.rows; row += gridDim.x) {
    const S *xr = x + row * p.d, *dyr = dy + row * p.d;
    S *dxr = dx + row * p.d;
    float mean = 0.0f;
    if (ln) {
      float s[1] = {0.0f};
      for (int64_t vi = tid; vi < nv; vi += nthr) {
        const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
        for (int k = 0; k < V; ++k)
          s[0] += ldc<D>(t.v[k]);
      }
      slotSum(s, red);
      mean = s[0] / fd;
    }
    float q[1] = {0.0f};
    for (int64_t vi = tid; vi < nv; vi += nthr) {
      const VecT<S, V> t = loadVec<V>(xr, vi);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const float u = ldc<D>(t.v[k]) - mean;
        q[0] += u * u;
      }
    }
    slotSum(q, red);
    const float rstd = rsqrtf(q[0] / fd + p.eps);
    float sums[2] = {0.0f, 0.0f};
    for (int64_t vi = tid; vi < nv; vi += nthr) {
      const VecT<S, V> tx4 = loadVec<V>(xr, vi);
      const VecT<S, V> td = loadVec<V>(dyr, vi);
      const VecT<S, V> ts = loadVec<V>(scale, vi);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const float xh = (ldc<D>(tx4.v[k]) - mean) * rstd;
        const float g = ldc<D>(td.v[k]) * ldc<D>(ts.v[k]);
        sums[0] += g;
        sums[1] += g * xh;
      }
    }
    slotSum(sums, red);
    const float meanG = ln ? sums[0] / fd : 0.0f;
    const float meanGX = sums[1] / fd;
    for (int64_t vi = tid; vi < nv; vi += nthr) {
      const VecT<S, V> tx4 = loadVec<V>(xr, vi);
      const VecT<S, V> td = loadVec<V>(dyr, vi);
      const VecT<S, V> ts = loadVec<V>(scale, vi);
      VecT<S, V> o, a;
      if (p.acc)
        a = loadVec<V>(static_cast<const S *>(p.acc) + row * p.d, vi);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const int64_t j = vi * V + k;
        const float xh = (ldc<D>(tx4.v[k]) - mean) * rstd;
        const float dyv = ldc<D>(td.v[k]);
        const float g = dyv * ldc<D>(ts.v[k]);
        o.v[k] = stc<D>(rstd * (g - meanG - xh * meanGX) +
                        (p.acc ? ldc<D>(a.v[k]) : 0.0f));
        ps[j] += dyv * xh;
        if (ln)
          pb[j] += dyv;
      }
      storeVec<V>(dxr, vi, o);
    }
  }
}

/// dscale (blockIdx.y 0) and dbias (1) from the workers' partial rows: 32
/// columns per block, the workers split over 8 thread rows and combined in
/// a fixed order.
template <DType D>
__global__ void __launch_bounds__(256)
    normGradFinishKernel(const float *partial, int64_t workers, int64_t d,
                         void *dscale, void *dbias) {
  __shared__ float sm[8][33];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int k = int(blockIdx.y);
  DevS<D> *out = static_cast<DevS<D> *>(k == 0 ? dscale : dbias);
  const int64_t tiles = (d + 31) / 32;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t j = tile * 32 + tx;
    float s = 0.0f;
    if (j < d) {
      for (int64_t w = ty; w < workers; w += 8)
        s += partial[(w * 2 + k) * d + j];
    }
    sm[ty][tx] = s;
    __syncthreads();
    if (ty == 0 && j < d) {
      float t = sm[0][tx];
      for (int r = 1; r < 8; ++r)
        t += sm[r][tx];
      out[j] = stc<D>(t);
    }
    __syncthreads();
  }
}

template <DType D>
Status normGradTyped(const KernelArgs &args, int64_t d, cudaStream_t stream) {
  using S = DevS<D>;
  constexpr int kV = kVec16<S>;
  NormGradParams p;
  p.dy = args.in[0]->data();
  p.x = args.in[1]->data();
  p.scale = args.in[2]->data();
  p.dx = args.out[0]->data();
  p.dscale = args.out[1]->data();
  p.layerNorm = args.op == OpCode::LayerNormGrad;
  p.dbias = p.layerNorm ? args.out[2]->data() : nullptr;
  p.acc = args.in.size() > 3 ? args.in[3]->data() : nullptr;
  p.d = d;
  p.rows = args.in[1]->numElements() / d;
  p.eps = float(args.attrsAs<LayerNormAttrs>().epsilon);
  const bool vec = kV > 1 && d % kV == 0 && isAligned(p.dy, 16) &&
                   isAligned(p.x, 16) && isAligned(p.scale, 16) &&
                   isAligned(p.dx, 16) && (!p.acc || isAligned(p.acc, 16));
  const int64_t maxWorkers =
      std::max<int64_t>(1, kScratchBudget / (2 * d * int64_t(sizeof(float))));

  // Launches `kernel` over `workers` blocks (partials through scratch
  // memory when there are several), then the column sums.
  auto run = [&](auto kernel, dim3 block, size_t smem, int64_t workers,
                 bool needScratch) -> Status {
    const size_t bytes = size_t(workers) * 2 * size_t(d) * sizeof(float);
    StreamScratch scratch((workers > 1 || needScratch) ? bytes : 0, stream);
    if (!scratch.get<float>()) {
      if (needScratch)
        return args.fail("no device memory for ", bytes,
                         " bytes of partial sums");
      workers = 1;
    }
    p.partial = scratch.get<float>();
    kernel<<<unsigned(workers), block, smem, stream>>>(p);
    PARACC_RETURN_IF_ERROR(checkLaunch(args));
    if (!p.partial)
      return Status::ok();
    const dim3 fblock(32, 8);
    const dim3 fgrid(gridFor(d, 32, int64_t(1) << 20), p.layerNorm ? 2 : 1);
    normGradFinishKernel<D><<<fgrid, fblock, 0, stream>>>(p.partial, workers, d,
                                                          p.dscale, p.dbias);
    return checkLaunch(args);
  };

  auto go = [&](auto vTag) -> Status {
    constexpr int V = decltype(vTag)::value;
    const int64_t nv = d / V;
    if (nv <= 4 * int64_t(kNormGradThreads)) {
      const int chunks = nv <= 256 ? 1 : (nv <= 512 ? 2 : 4);
      const int w = int(std::clamp<int64_t>(pow2Ceil(ceilDiv(nv, chunks)), 32,
                                            kNormGradThreads));
      const int r = kNormGradThreads / w;
      const size_t smem = r > 1 ? size_t(r) * 2 * size_t(d) * sizeof(float) : 0;
      auto launch = [&](auto kernel) -> Status {
        const int64_t workers = std::min(
            {ceilDiv(p.rows, r), residentBlocks(kernel, kNormGradThreads, smem),
             maxWorkers});
        return run(kernel, dim3(w, r), smem, workers, false);
      };
      auto withChunks = [&](auto lnTag) -> Status {
        constexpr bool kLn = decltype(lnTag)::value;
        if (chunks == 1)
          return launch(normGradKernel<D, V, 1, kLn>);
        if (chunks == 2)
          return launch(normGradKernel<D, V, 2, kLn>);
        return launch(normGradKernel<D, V, 4, kLn>);
      };
      if (p.layerNorm)
        return withChunks(std::true_type());
      return withChunks(std::false_type());
    }
    auto kernel = normGradLongKernel<D, V>;
    const int64_t workers = std::min(
        {p.rows, residentBlocks(kernel, kNormGradLongThreads, 0), maxWorkers});
    return run(kernel, dim3(kNormGradLongThreads), 0, workers, true);
  };
  if constexpr (kV > 1) {
    if (vec)
      return go(IntTag<kV>());
  }
  return go(IntTag<1>());
}

//===----------------------------------------------------------------------===//
// GeluGrad.
//===----------------------------------------------------------------------===//

/// d/dx of GELU at x in f32, written to stay accurate in the tails:
/// 0.5 * (1 + erf(x / sqrt 2)) as 0.5 * erfc(-x / sqrt 2), and for the tanh
/// form 0.5 * (1 + tanh u) = s and 1 - tanh^2 u = 4 s (1 - s) with s =
/// sigmoid(2u).
__device__ __forceinline__ float geluDerivative(float x, bool tanhForm) {
  if (tanhForm) {
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    constexpr float kCoeff = 0.044715f;
    // Beyond |x| = 1e4 the derivative is 1 or 0 to f32 precision (and x^3
    // would overflow); infinities go through the formula and give NaN, as
    // on the CPU.
    const float ax = fabsf(x);
    if (ax > 1e4f && !isInff(x))
      return x > 0.0f ? 1.0f : 0.0f;
    const float u = kSqrt2OverPi * (x + kCoeff * x * x * x);
    const float e = expf(-2.0f * fabsf(u));
    const float r = 1.0f / (1.0f + e);
    const float s = u >= 0.0f ? r : e * r; // sigmoid(2u)
    const float t = u >= 0.0f ? e * r : r; // 1 - sigmoid(2u)
    return s + 2.0f * x * s * t * kSqrt2OverPi * (1.0f + 3.0f * kCoeff * x * x);
  }
  constexpr float kInvSqrt2 = 0.7071067811865476f;
  constexpr float kInvSqrt2Pi = 0.3989422804014327f;
  return 0.5f * erfcf(-x * kInvSqrt2) + x * kInvSqrt2Pi * expf(-0.5f * x * x);
}

/// dx = dy * gelu'(x) over n elements, V at a time (then a scalar tail). No
/// restrict: dx may be dy's or x's very buffer.
template <DType D, int V>
__global__ void __launch_bounds__(256)
    geluGradKernel(const DevS<D> *dy, const DevS<D> *x, DevS<D> *dx, int64_t n,
                   bool tanhForm) {
  using S = DevS<D>;
  const int64_t nv = n / V;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i < nv; i += stride) {
    const VecT<S, V> g = loadVec<V>(dy, i);
    const VecT<S, V> v = loadVec<V>(x, i);
    VecT<S, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k)
      o.v[k] =
          stc<D>(ldc<D>(g.v[k]) * geluDerivative(ldc<D>(v.v[k]), tanhForm));
    storeVec<V>(dx, i, o);
  }
  const int64_t t = nv * V + first;
  if (t < n)
    dx[t] = stc<D>(ldc<D>(dy[t]) * geluDerivative(ldc<D>(x[t]), tanhForm));
}

//===----------------------------------------------------------------------===//
// SiluMul, SiluMulGrad.
//===----------------------------------------------------------------------===//

/// sigmoid(x) in f32 without overflow for large |x|.
__device__ __forceinline__ float sigmoidF(float x) {
  const float e = expf(-fabsf(x));
  const float r = 1.0f / (1.0f + e);
  return x >= 0.0f ? r : e * r;
}

/// y = gate * sigmoid(gate) * up over n elements, V at a time (then a
/// scalar tail). No restrict: y may be an operand's very buffer.
template <DType D, int V>
__global__ void __launch_bounds__(256)
    siluMulKernel(const DevS<D> *gate, const DevS<D> *up, DevS<D> *y,
                  int64_t n) {
  using S = DevS<D>;
  const int64_t nv = n / V;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i < nv; i += stride) {
    const VecT<S, V> g = loadVec<V>(gate, i);
    const VecT<S, V> u = loadVec<V>(up, i);
    VecT<S, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const float x = ldc<D>(g.v[k]);
      o.v[k] = stc<D>(x * sigmoidF(x) * ldc<D>(u.v[k]));
    }
    storeVec<V>(y, i, o);
  }
  const int64_t t = nv * V + first;
  if (t < n) {
    const float x = ldc<D>(gate[t]);
    y[t] = stc<D>(x * sigmoidF(x) * ldc<D>(up[t]));
  }
}

/// dgate = dy * up * s * (1 + gate * (1 - s)), dup = dy * gate * s with s
/// = sigmoid(gate); every operand element is read before the results at
/// its position are written.
template <DType D, int V>
__global__ void __launch_bounds__(256)
    siluMulGradKernel(const DevS<D> *dy, const DevS<D> *gate,
                      const DevS<D> *up, DevS<D> *dgate, DevS<D> *dup,
                      int64_t n) {
  using S = DevS<D>;
  const int64_t nv = n / V;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  auto one = [](float d, float g, float u, float &dg, float &du) {
    const float s = sigmoidF(g);
    dg = d * u * s * (1.0f + g * (1.0f - s));
    du = d * g * s;
  };
  for (int64_t i = first; i < nv; i += stride) {
    const VecT<S, V> d = loadVec<V>(dy, i);
    const VecT<S, V> g = loadVec<V>(gate, i);
    const VecT<S, V> u = loadVec<V>(up, i);
    VecT<S, V> og, ou;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      float dg, du;
      one(ldc<D>(d.v[k]), ldc<D>(g.v[k]), ldc<D>(u.v[k]), dg, du);
      og.v[k] = stc<D>(dg);
      ou.v[k] = stc<D>(du);
    }
    storeVec<V>(dgate, i, og);
    storeVec<V>(dup, i, ou);
  }
  const int64_t t = nv * V + first;
  if (t < n) {
    float dg, du;
    one(ldc<D>(dy[t]), ldc<D>(gate[t]), ldc<D>(up[t]), dg, du);
    dgate[t] = stc<D>(dg);
    dup[t] = stc<D>(du);
  }
}

//===----------------------------------------------------------------------===//
// Softmax statistics of a row (CrossEntropyGrad, SoftmaxCrossEntropy).
//===----------------------------------------------------------------------===//

/// A running maximum m and sum s of exp(x - m). While the final maximum is
/// finite every intermediate m is finite or -inf (then s = 0); a final m of
/// NaN or +-inf is resolved by finishMaxSum.
struct MaxSum {
  float m;
  float s;
};

/// Adds V values to a running MaxSum.
template <int V>
__device__ __forceinline__ void addMaxSum(MaxSum &a, const float (&x)[V]) {
  float vm = x[0];
#pragma unroll
  for (int k = 1; k < V; ++k)
    vm = nanMax(vm, x[k]);
  const float m = nanMax(a.m, vm);
  if (m == -INFINITY)
    return; // Everything so far is -inf: s stays 0.
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < V; ++k)
    s += __expf(x[k] - m);
  a.s = a.s * __expf(a.m - m) + s;
  a.m = m;
}

/// Combines two MaxSums; exactly commutative (no contraction into an FMA),
/// so that every lane of a butterfly reduction gets the same bits.
__device__ __forceinline__ MaxSum combineMaxSum(MaxSum a, MaxSum b) {
  const float m = nanMax(a.m, b.m);
  if (m == -INFINITY)
    return {m, 0.0f};
  return {m, __fadd_rn(__fmul_rn(a.s, __expf(a.m - m)),
                       __fmul_rn(b.s, __expf(b.m - m)))};
}

/// The CPU sums exp(x - max) over the row: a maximum of NaN or +-inf (NaN
/// or +inf in the row, or nothing but -inf) makes that sum NaN.
__device__ __forceinline__ MaxSum finishMaxSum(MaxSum a) {
  if (isNaNf(a.m) || isInff(a.m))
    a.s = NAN;
  return a;
}

__device__ __forceinline__ MaxSum warpMaxSum(MaxSum v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const MaxSum w{__shfl_xor_sync(0xffffffffu, v.m, o),
                   __shfl_xor_sync(0xffffffffu, v.s, o)};
    v = combineMaxSum(v, w);
  }
  return v;
}

/// The MaxSum of a row over the warp (kWarp) or the whole block (blockDim.x
/// threads, blockDim.y == 1); every thread gets it. `smem` holds 32.
template <bool kWarp>
__device__ __forceinline__ MaxSum rowMaxSum(MaxSum v, MaxSum *smem) {
  v = warpMaxSum(v);
  if constexpr (!kWarp) {
    const int nw = int(blockDim.x) >> 5;
    __syncthreads(); // smem may still be read by a previous call.
    if ((threadIdx.x & 31) == 0)
      smem[threadIdx.x >> 5] = v;
    __syncthreads();
    v = smem[0];
    for (int w = 1; w < nw; ++w)
      v = combineMaxSum(v, smem[w]);
  }
  return finishMaxSum(v);
}

/// This thread's part of the MaxSum of the V-vectors first, first + step,
/// ... < nv of a row.
template <DType D, int V>
__device__ __forceinline__ MaxSum threadMaxSum(const DevS<D> *row, int64_t nv,
                                               int64_t first, int64_t step) {
  MaxSum a{-INFINITY, 0.0f};
#pragma unroll 2
  for (int64_t vi = first; vi < nv; vi += step) {
    const VecT<DevS<D>, V> t = loadVec<V>(row, vi);
    float x[V];
#pragma unroll
    for (int k = 0; k < V; ++k)
      x[k] = ldc<D>(t.v[k]);
    addMaxSum<V>(a, x);
  }
  return a;
}

//===----------------------------------------------------------------------===//
// CrossEntropyGrad.
//===----------------------------------------------------------------------===//

/// Operands of CrossEntropyGrad and of the losses, scores seen as [n, c, d].
struct CeParams {
  const void *dloss = nullptr; // CrossEntropyGrad.
  const void *scores = nullptr;
  const void *labels = nullptr;
  const void *weight = nullptr; // Null: no weights.
  void *out = nullptr;          // dscores, or the loss.
  void *logProb = nullptr;      // SoftmaxCrossEntropy's log_prob, or null.
  // Per position (max, sum of exp(x - max)): SoftmaxCrossEntropy writes
  // statsOut, CrossEntropyGrad reads stats (savedStats); null otherwise.
  float *statsOut = nullptr;
  const float *stats = nullptr;
  double *partial = nullptr;    // Loss sums: [gridDim.x][2], or null.
  int64_t n = 0, c = 0, d = 1;
  int64_t ignoreIndex = 0;
  bool labels32 = false;
  bool hasIgnore = false;
  bool logProbScores = false; // CrossEntropyGrad: scores are log-probs.
  int reduction = 0;          // Losses: 0 none, 1 sum, 2 mean.
  bool lossF32 = false;       // The loss (or dloss) is f32, scores not.
  bool meanByWeight = false;  // Mean over the weights (else over n * d).
};

/// Element i of the loss gradient (CrossEntropyGrad's dloss).
template <DType D>
__device__ __forceinline__ float loadDloss(const CeParams &p, int64_t i) {
  if (p.lossF32)
    return static_cast<const float *>(p.dloss)[i];
  return ldc<D>(static_cast<const DevS<D> *>(p.dloss)[i]);
}

/// Stores element i of a loss result.
template <DType D>
__device__ __forceinline__ void storeLoss(const CeParams &p, int64_t i,
                                          float v) {
  if (p.lossF32)
    static_cast<float *>(p.out)[i] = v;
  else
    static_cast<DevS<D> *>(p.out)[i] = stc<D>(v);
}

constexpr int kWarpRows = 4; // Rows per block in warp mode.
/// The most threads of a one-block-per-row kernel.
constexpr int kRowBlockMaxThreads = 512;

/// Row kernels below use one warp per row (kWarp: blockDim = (32,
/// kWarpRows)) or one block per row (blockDim = (T, 1)).
template <bool kWarp> struct RowMapping {
  __device__ static int64_t first() {
    return kWarp ? int64_t(blockIdx.x) * blockDim.y + threadIdx.y
                 : int64_t(blockIdx.x);
  }
  __device__ static int64_t step() {
    return kWarp ? int64_t(gridDim.x) * blockDim.y : int64_t(gridDim.x);
  }
  __device__ static int threads() { return kWarp ? 32 : int(blockDim.x); }
  __device__ static int tid() { return int(threadIdx.x); }
};

/// CrossEntropyGrad with d == 1: one warp or block per row of c classes.
template <DType D, int V, bool kWarp>
__global__ void __launch_bounds__(kWarp ? 32 * kWarpRows : kRowBlockMaxThreads)
    ceGradRowKernel(CeParams p) {
  using S = DevS<D>;
  using M = RowMapping<kWarp>;
  __shared__ MaxSum smem[32];
  const S *scores = static_cast<const S *>(p.scores);
  const S *w = static_cast<const S *>(p.weight);
  S *out = static_cast<S *>(p.out);
  const int tid = M::tid(), nthr = M::threads();
  const int64_t nv = p.c / V;
  for (int64_t row = M::first(); row < p.n; row += M::step()) {
    const S *xr = scores + row * p.c;
    S *yr = out + row * p.c;
    const int64_t label = readLabel(p.labels, p.labels32, row);
    const bool ignored = p.hasIgnore && label == p.ignoreIndex;
    const bool bad = !ignored && (label < 0 || label >= p.c);
    if (ignored || bad || p.logProbScores) {
      float g = 0.0f;
      if (!ignored && !bad) {
        g = loadDloss<D>(p, row);
        if (w)
          g *= ldc<D>(w[label]);
      }
      for (int64_t vi = tid; vi < nv; vi += nthr) {
        VecT<S, V> o;
#pragma unroll
        for (int k = 0; k < V; ++k)
          o.v[k] = stc<D>(bad ? NAN : (vi * V + k == label ? -g : 0.0f));
        storeVec<V>(yr, vi, o);
      }
      continue;
    }
    float g = loadDloss<D>(p, row);
    if (w)
      g *= ldc<D>(w[label]);
    // p.stats is the same for every thread: the block reduction is skipped
    // by all of them or none.
    const MaxSum ms =
        p.stats ? MaxSum{p.stats[2 * row], p.stats[2 * row + 1]}
                : rowMaxSum<kWarp>(threadMaxSum<D, V>(xr, nv, tid, nthr), smem);
    const float inv = 1.0f / ms.s;
    for (int64_t vi = tid; vi < nv; vi += nthr) {
      const VecT<S, V> t = loadVec<V>(xr, vi);
      VecT<S, V> o;
#pragma unroll
      for (int k = 0; k < V; ++k) {
        const float prob = __expf(ldc<D>(t.v[k]) - ms.m) * inv;
        o.v[k] = stc<D>(g * (prob - (vi * V + k == label ? 1.0f : 0.0f)));
      }
      storeVec<V>(yr, vi, o);
    }
  }
}

/// CrossEntropyGrad in general: one thread per (n, d) position walking the
/// c classes (stride d).
template <DType D>
__global__ void __launch_bounds__(256) ceGradPositionKernel(CeParams p) {
  using S = DevS<D>;
  const S *scores = static_cast<const S *>(p.scores);
  const S *w = static_cast<const S *>(p.weight);
  S *out = static_cast<S *>(p.out);
  const int64_t total = p.n * p.d;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t pos = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       pos < total; pos += stride) {
    const int64_t i = pos / p.d, j = pos - i * p.d;
    const S *col = scores + i * p.c * p.d + j;
    S *dcol = out + i * p.c * p.d + j;
    const int64_t label = readLabel(p.labels, p.labels32, pos);
    const bool ignored = p.hasIgnore && label == p.ignoreIndex;
    const bool bad = !ignored && (label < 0 || label >= p.c);
    float g = 0.0f;
    if (!ignored && !bad) {
      g = loadDloss<D>(p, pos);
      if (w)
        g *= ldc<D>(w[label]);
    }
    if (ignored || bad || p.logProbScores) {
      for (int64_t k = 0; k < p.c; ++k)
        dcol[k * p.d] = stc<D>(bad ? NAN : (k == label ? -g : 0.0f));
      continue;
    }
    MaxSum ms{-INFINITY, 0.0f};
    if (p.stats) {
      ms = {p.stats[2 * pos], p.stats[2 * pos + 1]};
    } else {
      for (int64_t k = 0; k < p.c; ++k) {
        const float v[1] = {ldc<D>(col[k * p.d])};
        addMaxSum<1>(ms, v);
      }
      ms = finishMaxSum(ms);
    }
    const float inv = 1.0f / ms.s;
    for (int64_t k = 0; k < p.c; ++k) {
      const float prob = __expf(ldc<D>(col[k * p.d]) - ms.m) * inv;
      dcol[k * p.d] = stc<D>(g * (prob - (k == label ? 1.0f : 0.0f)));
    }
  }
}

/// Whether the scores rows go to the row kernels (one warp or block per
/// row) rather than one thread per position.
bool useRowKernel(int64_t c, int64_t d) { return d == 1 && c >= 64; }

/// Block size of the one-block-per-row kernels for rows of nv vectors.
int rowBlockThreads(int64_t nv) {
  return int(
      std::clamp<int64_t>(roundUp32(ceilDiv(nv, 8)), 64, kRowBlockMaxThreads));
}

/// Whether rows of nv vectors take the warp-per-row form.
bool useWarpRows(int64_t nv) { return nv <= 256; }

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropy, NllLoss.
//===----------------------------------------------------------------------===//

/// The loss and weight of position `pos` given -log_prob[label] (negLogP,
/// read only for a valid, not ignored label): ONNX's per-element loss.
template <DType D>
__device__ __forceinline__ void positionLoss(const CeParams &p, int64_t label,
                                             float negLogP, float &loss,
                                             float &weight) {
  const bool ignored = p.hasIgnore && label == p.ignoreIndex;
  if (ignored) {
    loss = 0.0f;
    weight = 0.0f;
  } else if (label < 0 || label >= p.c) {
    loss = NAN;
    weight = NAN;
  } else {
    weight =
        p.weight ? ldc<D>(static_cast<const DevS<D> *>(p.weight)[label]) : 1.0f;
    loss = weight * negLogP;
  }
}

/// The reduced loss from the sums of the losses and the weights.
template <DType D>
__device__ __forceinline__ void
storeReducedLoss(const CeParams &p, double lossSum, double weightSum) {
  double r = lossSum;
  if (p.reduction == 2)
    r = lossSum / (p.meanByWeight ? weightSum : double(p.n * p.d));
  storeLoss<D>(p, 0, __double2float_rn(r));
}

/// The block's loss sums: to the partials, or the result when this is the
/// only block. Called by one thread.
template <DType D>
__device__ __forceinline__ void emitLossSums(const CeParams &p, double lossSum,
                                             double weightSum) {
  if (p.partial) {
    p.partial[2 * blockIdx.x] = lossSum;
    p.partial[2 * blockIdx.x + 1] = weightSum;
  } else {
    storeReducedLoss<D>(p, lossSum, weightSum);
  }
}

/// SoftmaxCrossEntropy with d == 1: one warp or block per row; log_prob is
/// written when requested, the loss per row (reduction none) or summed per
/// block in double by the row's first thread.
template <DType D, int V, bool kWarp>
__global__ void __launch_bounds__(kWarp ? 32 * kWarpRows : kRowBlockMaxThreads)
    sceRowKernel(CeParams p) {
  using S = DevS<D>;
  using M = RowMapping<kWarp>;
  __shared__ MaxSum smem[32];
  __shared__ double sums[kWarpRows][2];
  const S *scores = static_cast<const S *>(p.scores);
  S *lp = static_cast<S *>(p.logProb);
  const int tid = M::tid(), nthr = M::threads();
  const int64_t nv = p.c / V;
  double lossSum = 0.0, weightSum = 0.0;
  for (int64_t row = M::first(); row < p.n; row += M::step()) {
    const S *xr = scores + row * p.c;
    const MaxSum ms =
        rowMaxSum<kWarp>(threadMaxSum<D, V>(xr, nv, tid, nthr), smem);
    const float lse = ms.m + logf(ms.s);
    if (p.statsOut && tid == 0) {
      p.statsOut[2 * row] = ms.m;
      p.statsOut[2 * row + 1] = ms.s;
    }
    if (lp) {
      S *lr = lp + row * p.c;
      for (int64_t vi = tid; vi < nv; vi += nthr) {
        const VecT<S, V> t = loadVec<V>(xr, vi);
        VecT<S, V> o;
#pragma unroll
        for (int k = 0; k < V; ++k)
          o.v[k] = stc<D>(ldc<D>(t.v[k]) - lse);
        storeVec<V>(lr, vi, o);
      }
    }
    if (tid != 0)
      continue;
    const int64_t label = readLabel(p.labels, p.labels32, row);
    const bool valid = label >= 0 && label < p.c;
    const float negLogP = valid ? lse - ldc<D>(xr[label]) : 0.0f;
    float loss, weight;
    positionLoss<D>(p, label, negLogP, loss, weight);
    if (p.reduction == 0) {
      storeLoss<D>(p, row, loss);
    } else {
      lossSum += loss;
      weightSum += weight;
    }
  }
  if (p.reduction == 0)
    return;
  if constexpr (kWarp) {
    if (threadIdx.x == 0) {
      sums[threadIdx.y][0] = lossSum;
      sums[threadIdx.y][1] = weightSum;
    }
    __syncthreads();
    if (threadIdx.x != 0 || threadIdx.y != 0)
      return;
    for (int r = 1; r < int(blockDim.y); ++r) {
      lossSum += sums[r][0];
      weightSum += sums[r][1];
    }
  } else if (threadIdx.x != 0) {
    return;
  }
  emitLossSums<D>(p, lossSum, weightSum);
}

/// SoftmaxCrossEntropy (kSce) or NllLoss in general: one thread per (n, d)
/// position; sums per block in double (fixed tree).
template <DType D, bool kSce>
__global__ void __launch_bounds__(256) lossPositionKernel(CeParams p) {
  using S = DevS<D>;
  __shared__ double smem[32];
  const S *scores = static_cast<const S *>(p.scores);
  S *lp = static_cast<S *>(p.logProb);
  const int64_t total = p.n * p.d;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  double lossSum = 0.0, weightSum = 0.0;
  for (int64_t pos = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       pos < total; pos += stride) {
    const int64_t i = pos / p.d, j = pos - i * p.d;
    const S *col = scores + i * p.c * p.d + j;
    const int64_t label = readLabel(p.labels, p.labels32, pos);
    const bool valid = label >= 0 && label < p.c;
    float negLogP = 0.0f;
    if constexpr (kSce) {
      MaxSum ms{-INFINITY, 0.0f};
      for (int64_t k = 0; k < p.c; ++k) {
        const float v[1] = {ldc<D>(col[k * p.d])};
        addMaxSum<1>(ms, v);
      }
      ms = finishMaxSum(ms);
      const float lse = ms.m + logf(ms.s);
      if (p.statsOut) {
        p.statsOut[2 * pos] = ms.m;
        p.statsOut[2 * pos + 1] = ms.s;
      }
      if (lp) {
        S *lcol = lp + i * p.c * p.d + j;
        for (int64_t k = 0; k < p.c; ++k)
          lcol[k * p.d] = stc<D>(ldc<D>(col[k * p.d]) - lse);
      }
      if (valid)
        negLogP = lse - ldc<D>(col[label * p.d]);
    } else if (valid) {
      negLogP = -ldc<D>(col[label * p.d]);
    }
    float loss, weight;
    positionLoss<D>(p, label, negLogP, loss, weight);
    if (p.reduction == 0) {
      storeLoss<D>(p, pos, loss);
    } else {
      lossSum += loss;
      weightSum += weight;
    }
  }
  if (p.reduction == 0)
    return;
  lossSum = blockReduce(lossSum, SumF(), smem);
  weightSum = blockReduce(weightSum, SumF(), smem);
  if (threadIdx.x == 0)
    emitLossSums<D>(p, lossSum, weightSum);
}

/// The reduced loss from `parts` partial sums: one block, a fixed order.
template <DType D>
__global__ void __launch_bounds__(256)
    lossFinishKernel(CeParams p, int64_t parts) {
  __shared__ double smem[32];
  double l = 0.0, w = 0.0;
  for (int64_t i = threadIdx.x; i < parts; i += blockDim.x) {
    l += p.partial[2 * i];
    w += p.partial[2 * i + 1];
  }
  l = blockReduce(l, SumF(), smem);
  w = blockReduce(w, SumF(), smem);
  if (threadIdx.x == 0)
    storeReducedLoss<D>(p, l, w);
}

/// Blocks of a loss kernel that sums: enough to fill the device, few
/// enough that the partials stay small.
int64_t lossBlocksCap() { return 4 * int64_t(deviceSMCount()); }

template <DType D>
Status lossTyped(const KernelArgs &args, CeParams p, cudaStream_t stream) {
  using S = DevS<D>;
  constexpr int kV = kVec16<S>;
  const bool isSce = args.op == OpCode::SoftmaxCrossEntropy;
  const bool reduce = p.reduction != 0;
  const int64_t positions = p.n * p.d;

  // Picks the kernel and its grid (capped when summing).
  auto launch = [&](auto kernel, unsigned grid, dim3 block) -> Status {
    StreamScratch scratch(
        reduce && grid > 1 ? size_t(grid) * 2 * sizeof(double) : 0, stream);
    if (reduce && !scratch.get<double>())
      grid = 1;
    p.partial = scratch.get<double>();
    kernel<<<grid, block, 0, stream>>>(p);
    PARACC_RETURN_IF_ERROR(checkLaunch(args));
    if (!p.partial)
      return Status::ok();
    lossFinishKernel<D><<<1, 256, 0, stream>>>(p, int64_t(grid));
    return checkLaunch(args);
  };
  const int64_t cap = reduce ? lossBlocksCap() : kMaxGrid;
  if (isSce && useRowKernel(p.c, p.d)) {
    auto rows = [&](auto vTag) -> Status {
      constexpr int V = decltype(vTag)::value;
      const int64_t nv = p.c / V;
      if (useWarpRows(nv))
        return launch(sceRowKernel<D, V, true>, gridFor(p.n, kWarpRows, cap),
                      dim3(32, kWarpRows));
      return launch(sceRowKernel<D, V, false>, gridFor(p.n, 1, cap),
                    dim3(rowBlockThreads(nv)));
    };
    const bool vec = kV > 1 && p.c % kV == 0 && isAligned(p.scores, 16) &&
                     (!p.logProb || isAligned(p.logProb, 16));
    if constexpr (kV > 1) {
      if (vec)
        return rows(IntTag<kV>());
    }
    return rows(IntTag<1>());
  }
  const unsigned grid =
      gridFor(positions, 256, std::min<int64_t>(cap, 1 << 20));
  if (isSce)
    return launch(lossPositionKernel<D, true>, grid, dim3(256));
  return launch(lossPositionKernel<D, false>, grid, dim3(256));
}

//===----------------------------------------------------------------------===//
// AdamW, Sgd.
//===----------------------------------------------------------------------===//

constexpr int kOptThreads = 256;

struct AdamWParams {
  const float *param, *grad, *expAvg, *expAvgSq;
  const float *lr, *step, *gradScale; // Device scalars.
  float *paramOut, *expAvgOut, *expAvgSqOut;
  int64_t n;
  AdamWHyper h;
};

/// One AdamW step over n elements: float4 (kVec) then a scalar tail.
template <bool kVec>
__global__ void __launch_bounds__(kOptThreads) adamwKernel(AdamWParams p) {
  const AdamWStep s = adamwBlockStep(p.h, p.lr, p.step, p.gradScale);
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t nv = kVec ? p.n / 4 : 0;
  if constexpr (kVec) {
    for (int64_t i = first; i < nv; i += stride) {
      const float4 g = reinterpret_cast<const float4 *>(p.grad)[i];
      float4 pa = reinterpret_cast<const float4 *>(p.param)[i];
      float4 m = reinterpret_cast<const float4 *>(p.expAvg)[i];
      float4 v = reinterpret_cast<const float4 *>(p.expAvgSq)[i];
      adamwElement(p.h, s, g.x, pa.x, m.x, v.x);
      adamwElement(p.h, s, g.y, pa.y, m.y, v.y);
      adamwElement(p.h, s, g.z, pa.z, m.z, v.z);
      adamwElement(p.h, s, g.w, pa.w, m.w, v.w);
      reinterpret_cast<float4 *>(p.paramOut)[i] = pa;
      reinterpret_cast<float4 *>(p.expAvgOut)[i] = m;
      reinterpret_cast<float4 *>(p.expAvgSqOut)[i] = v;
    }
  }
  for (int64_t i = nv * 4 + first; i < p.n; i += stride) {
    float pa = p.param[i], m = p.expAvg[i], v = p.expAvgSq[i];
    adamwElement(p.h, s, p.grad[i], pa, m, v);
    p.paramOut[i] = pa;
    p.expAvgOut[i] = m;
    p.expAvgSqOut[i] = v;
  }
}

struct SgdParams {
  const float *param, *grad, *buffer;
  const float *lr, *step, *gradScale; // Device scalars.
  float *paramOut, *bufferOut;
  int64_t n;
  float wdf, momentumf, gradWeight;
  bool hasWd, useMomentum, nesterov;
};

struct SgdStep {
  float negLr, gradScale;
  bool firstStep, ok;
};

__device__ __forceinline__ void sgdElement(const SgdParams &p, const SgdStep &s,
                                           float grad, float &param,
                                           float &buf) {
  if (!s.ok) {
    param = buf = NAN;
    return;
  }
  float g = __fmul_rn(grad, s.gradScale);
  if (p.hasWd)
    g = __fadd_rn(g, __fmul_rn(p.wdf, param)); // grad.add(param, alpha=wd)
  if (p.useMomentum) {
    // The first step clones g into the (then absent) buffer.
    buf = s.firstStep ? g
                      : __fadd_rn(__fmul_rn(buf, p.momentumf),
                                  __fmul_rn(p.gradWeight, g));
    g = p.nesterov ? __fadd_rn(g, __fmul_rn(p.momentumf, buf)) : buf;
  }
  param = __fadd_rn(param, __fmul_rn(s.negLr, g)); // param.add_(g, -lr)
}

/// One SGD step over n elements: float4 (kVec) then a scalar tail.
template <bool kVec>
__global__ void __launch_bounds__(kOptThreads) sgdKernel(SgdParams p) {
  __shared__ SgdStep shared;
  if (threadIdx.x == 0) {
    const double step = double(*p.step);
    SgdStep s;
    s.ok = validStep(step);
    s.firstStep = step == 1.0;
    s.negLr = __double2float_rn(-double(*p.lr));
    s.gradScale = *p.gradScale;
    shared = s;
  }
  __syncthreads();
  const SgdStep s = shared;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t nv = kVec ? p.n / 4 : 0;
  if constexpr (kVec) {
    for (int64_t i = first; i < nv; i += stride) {
      const float4 g = reinterpret_cast<const float4 *>(p.grad)[i];
      float4 pa = reinterpret_cast<const float4 *>(p.param)[i];
      float4 b = reinterpret_cast<const float4 *>(p.buffer)[i];
      sgdElement(p, s, g.x, pa.x, b.x);
      sgdElement(p, s, g.y, pa.y, b.y);
      sgdElement(p, s, g.z, pa.z, b.z);
      sgdElement(p, s, g.w, pa.w, b.w);
      reinterpret_cast<float4 *>(p.paramOut)[i] = pa;
      reinterpret_cast<float4 *>(p.bufferOut)[i] = b;
    }
  }
  for (int64_t i = nv * 4 + first; i < p.n; i += stride) {
    float pa = p.param[i], b = p.buffer[i];
    sgdElement(p, s, p.grad[i], pa, b);
    p.paramOut[i] = pa;
    p.bufferOut[i] = b;
  }
}

/// Grid of the optimizer kernels for n elements (4 per thread when kVec).
unsigned optimizerGrid(int64_t n, bool vec) {
  return gridFor(vec ? ceilDiv(n, 4) : n, kOptThreads,
                 8 * int64_t(deviceSMCount()));
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

Status launchNormGrad(const KernelArgs &args, cudaStream_t stream) {
  int64_t d;
  PARACC_RETURN_IF_ERROR(checkNormGrad(args, checkGpuDType, d));
  if (d == 0)
    return Status::ok(); // Every result is empty.
  if (args.in[1]->numElements() == 0) {
    // No rows: dx is empty, dscale and dbias are sums over nothing.
    for (size_t o = 1; o < args.out.size(); ++o) {
      if (cudaMemsetAsync(args.out[o]->data(), 0, args.out[o]->byteSize(),
                          stream) != cudaSuccess)
        return checkLaunch(args);
    }
    return Status::ok();
  }
  return visitGpuDType<TypeSet::Float>(
      args, args.in[1]->dtype(), [&](auto tag) -> Status {
        return normGradTyped<decltype(tag)::value>(args, d, stream);
      });
}

Status launchGeluGrad(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  const Tensor &dy = *args.in[0], &x = *args.in[1];
  Tensor &dx = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkGpuDType(args, x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, x.dtype(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dx, x.dtype(), "dx"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dy, x.shape(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dx, x.shape(), "dx"));
  const int64_t n = x.numElements();
  if (n == 0)
    return Status::ok();
  const bool tanhForm = args.attrsAs<GeluAttrs>().tanhApproximation;
  return visitGpuDType<TypeSet::Float>(
      args, x.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        const S *pdy = static_cast<const S *>(dy.data());
        const S *px = static_cast<const S *>(x.data());
        S *pdx = static_cast<S *>(dx.data());
        const bool vec = kV > 1 && isAligned(pdy, 16) && isAligned(px, 16) &&
                         isAligned(pdx, 16);
        const int v = vec ? kV : 1;
        const unsigned grid =
            gridFor(std::max<int64_t>(n / v, n % v), 256, int64_t(1) << 20);
        if (vec)
          geluGradKernel<D, kV>
              <<<grid, 256, 0, stream>>>(pdy, px, pdx, n, tanhForm);
        else
          geluGradKernel<D, 1>
              <<<grid, 256, 0, stream>>>(pdy, px, pdx, n, tanhForm);
        return checkLaunch(args);
      });
}

/// One floating type and shape for every operand and result.
static Status checkSameFloatShapes(const KernelArgs &args, size_t ins,
                                   size_t outs, const char *const *names) {
  PARACC_RETURN_IF_ERROR(args.checkArity(ins, ins, outs));
  const Tensor &first = *args.in[0];
  PARACC_RETURN_IF_ERROR(checkGpuDType(args, first, TypeSet::Float, names[0]));
  for (size_t i = 0; i < ins + outs; ++i) {
    const Tensor &t = i < ins ? *args.in[i] : *args.out[i - ins];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, first.dtype(), names[i]));
    PARACC_RETURN_IF_ERROR(args.checkShape(t, first.shape(), names[i]));
  }
  return Status::ok();
}

Status launchSiluMul(const KernelArgs &args, cudaStream_t stream) {
  static const char *const kNames[] = {"gate", "up", "result"};
  PARACC_RETURN_IF_ERROR(checkSameFloatShapes(args, 2, 1, kNames));
  const int64_t n = args.in[0]->numElements();
  if (n == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        const S *g = static_cast<const S *>(args.in[0]->data());
        const S *u = static_cast<const S *>(args.in[1]->data());
        S *y = static_cast<S *>(args.out[0]->data());
        const bool vec = kV > 1 && isAligned(g, 16) && isAligned(u, 16) &&
                         isAligned(y, 16);
        const int v = vec ? kV : 1;
        const unsigned grid =
            gridFor(std::max<int64_t>(n / v, n % v), 256, int64_t(1) << 20);
        if (vec)
          siluMulKernel<D, kV><<<grid, 256, 0, stream>>>(g, u, y, n);
        else
          siluMulKernel<D, 1><<<grid, 256, 0, stream>>>(g, u, y, n);
        return checkLaunch(args);
      });
}

Status launchSiluMulGrad(const KernelArgs &args, cudaStream_t stream) {
  static const char *const kNames[] = {"dy", "gate", "up", "dgate", "dup"};
  PARACC_RETURN_IF_ERROR(checkSameFloatShapes(args, 3, 2, kNames));
  const int64_t n = args.in[0]->numElements();
  if (n == 0)
    return Status::ok();
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        const S *d = static_cast<const S *>(args.in[0]->data());
        const S *g = static_cast<const S *>(args.in[1]->data());
        const S *u = static_cast<const S *>(args.in[2]->data());
        S *dg = static_cast<S *>(args.out[0]->data());
        S *du = static_cast<S *>(args.out[1]->data());
        const bool vec = kV > 1 && isAligned(d, 16) && isAligned(g, 16) &&
                         isAligned(u, 16) && isAligned(dg, 16) &&
                         isAligned(du, 16);
        const int v = vec ? kV : 1;
        const unsigned grid =
            gridFor(std::max<int64_t>(n / v, n % v), 256, int64_t(1) << 20);
        if (vec)
          siluMulGradKernel<D, kV><<<grid, 256, 0, stream>>>(d, g, u, dg, du, n);
        else
          siluMulGradKernel<D, 1><<<grid, 256, 0, stream>>>(d, g, u, dg, du, n);
        return checkLaunch(args);
      });
}

Status launchCrossEntropyGrad(const KernelArgs &args, cudaStream_t stream) {
  LossShape shape;
  PARACC_RETURN_IF_ERROR(checkCrossEntropyGrad(args, checkGpuDType, shape));
  const int64_t n = shape.n, c = shape.c, d = shape.d;
  const Tensor &scores = *args.in[1];
  if (scores.numElements() == 0)
    return Status::ok();
  CeParams p;
  p.dloss = args.in[0]->data();
  p.scores = scores.data();
  p.labels = args.in[2]->data();
  p.labels32 = isIndex32(*args.in[2]);
  p.weight = shape.weight ? shape.weight->data() : nullptr;
  p.stats = shape.stats ? shape.stats->as<float>() : nullptr;
  p.out = args.out[0]->data();
  p.n = n;
  p.c = c;
  p.d = d;
  const CrossEntropyGradAttrs &attrs = args.attrsAs<CrossEntropyGradAttrs>();
  p.logProbScores = attrs.logProbScores;
  p.lossF32 = args.in[0]->dtype() != scores.dtype();
  p.hasIgnore = attrs.hasIgnoreIndex;
  p.ignoreIndex = attrs.ignoreIndex;
  return visitGpuDType<TypeSet::Float>(
      args, scores.dtype(), [&](auto tag) -> Status {
        constexpr DType D = decltype(tag)::value;
        using S = DevS<D>;
        constexpr int kV = kVec16<S>;
        if (!useRowKernel(c, d)) {
          ceGradPositionKernel<D>
              <<<gridFor(n * d, 256, int64_t(1) << 20), 256, 0, stream>>>(p);
          return checkLaunch(args);
        }
        auto rows = [&](auto vTag) -> Status {
          constexpr int V = decltype(vTag)::value;
          const int64_t nv = c / V;
          if (useWarpRows(nv))
            ceGradRowKernel<D, V, true>
                <<<gridFor(n, kWarpRows), dim3(32, kWarpRows), 0, stream>>>(p);
          else
            ceGradRowKernel<D, V, false>
                <<<gridFor(n, 1), rowBlockThreads(nv), 0, stream>>>(p);
          return checkLaunch(args);
        };
        const bool vec = kV > 1 && c % kV == 0 && isAligned(p.scores, 16) &&
                         isAligned(p.out, 16);
        if constexpr (kV > 1) {
          if (vec)
            return rows(IntTag<kV>());
        }
        return rows(IntTag<1>());
      });
}

Status launchLoss(const KernelArgs &args, cudaStream_t stream) {
  LossShape shape;
  PARACC_RETURN_IF_ERROR(checkLoss(args, checkGpuDType, shape));
  const int64_t n = shape.n, c = shape.c, d = shape.d;
  const Tensor &scores = *args.in[0];
  CeParams p;
  p.scores = scores.data();
  p.labels = args.in[1]->data();
  p.labels32 = isIndex32(*args.in[1]);
  p.weight = shape.weight ? shape.weight->data() : nullptr;
  p.out = args.out[0]->data();
  p.logProb = shape.logProb ? shape.logProb->data() : nullptr;
  p.statsOut = shape.statsOut ? shape.statsOut->as<float>() : nullptr;
  p.n = n;
  p.c = c;
  p.d = d;
  const SoftmaxCrossEntropyAttrs &attrs =
      args.attrsAs<SoftmaxCrossEntropyAttrs>();
  p.reduction = int(attrs.reduction);
  p.hasIgnore = attrs.hasIgnoreIndex;
  p.ignoreIndex = attrs.ignoreIndex;
  p.meanByWeight = p.weight || p.hasIgnore;
  p.lossF32 = args.out[0]->dtype() != scores.dtype();
  if (n * d == 0 && p.reduction == 0)
    return Status::ok(); // No positions, so no loss elements nor log_prob.
  return visitGpuDType<TypeSet::Float>(
      args, scores.dtype(), [&](auto tag) -> Status {
        return lossTyped<decltype(tag)::value>(args, p, stream);
      });
}

Status launchAdamW(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkAdamW(args));
  // The step is checked on the device (an invalid one gives NaN results).
  AdamWParams p;
  auto in = [&](size_t i) {
    return static_cast<const float *>(args.in[i]->data());
  };
  auto out = [&](size_t i) {
    return static_cast<float *>(args.out[i]->data());
  };
  p.param = in(0);
  p.grad = in(1);
  p.expAvg = in(2);
  p.expAvgSq = in(3);
  p.lr = in(4);
  p.step = in(5);
  p.gradScale = in(6);
  p.paramOut = out(0);
  p.expAvgOut = out(1);
  p.expAvgSqOut = out(2);
  p.n = args.in[0]->numElements();
  p.h = adamwHyper(args.attrsAs<AdamWAttrs>());
  if (p.n == 0)
    return Status::ok();
  bool vec = true;
  for (size_t i = 0; i < 4; ++i)
    vec &= isAligned(in(i), 16);
  for (size_t o = 0; o < 3; ++o)
    vec &= isAligned(out(o), 16);
  const unsigned grid = optimizerGrid(p.n, vec);
  if (vec)
    adamwKernel<true><<<grid, kOptThreads, 0, stream>>>(p);
  else
    adamwKernel<false><<<grid, kOptThreads, 0, stream>>>(p);
  return checkLaunch(args);
}

Status launchSgd(const KernelArgs &args, cudaStream_t stream) {
  SgdUpdate attrs;
  PARACC_RETURN_IF_ERROR(checkSgd(args, attrs));
  // The step is checked on the device (an invalid one gives NaN results).
  SgdParams p;
  auto in = [&](size_t i) {
    return static_cast<const float *>(args.in[i]->data());
  };
  auto out = [&](size_t i) {
    return static_cast<float *>(args.out[i]->data());
  };
  p.param = in(0);
  p.grad = in(1);
  p.buffer = in(2);
  p.lr = in(3);
  p.step = in(4);
  p.gradScale = in(5);
  p.paramOut = out(0);
  p.bufferOut = out(1);
  p.n = args.in[0]->numElements();
  p.hasWd = attrs.weightDecay != 0.0;
  p.useMomentum = attrs.momentum != 0.0;
  p.nesterov = attrs.nesterov;
  p.wdf = static_cast<float>(attrs.weightDecay);
  p.momentumf = static_cast<float>(attrs.momentum);
  p.gradWeight = static_cast<float>(1.0 - attrs.dampening);
  if (p.n == 0)
    return Status::ok();
  bool vec = true;
  for (size_t i = 0; i < 3; ++i)
    vec &= isAligned(in(i), 16);
  for (size_t o = 0; o < 2; ++o)
    vec &= isAligned(out(o), 16);
  const unsigned grid = optimizerGrid(p.n, vec);
  if (vec)
    sgdKernel<true><<<grid, kOptThreads, 0, stream>>>(p);
  else
    sgdKernel<false><<<grid, kOptThreads, 0, stream>>>(p);
  return checkLaunch(args);
}

} // namespace paracc::rt::cuda
