//===- Moe.cu - Mixture-of-experts instructions on the GPU ------*- C++ -*-===//
//
// See MoeKernels.h (and ExpertLoad, the routing statistic, at the end).
// The forward, with N = T k slots:
//  1. routeKernel (one block): counts per expert, their offsets, and each
//     slot's row in expert order (stable), with the slot of every row;
//  2. the token rows gathered into that order (Xs [N, H]);
//  3. Hs = Xs w_in[e]^T per expert (grouped), As = act(Hs) (SwiGLU's halves
//     or one activation), Os = As w_out[e]^T per expert (grouped);
//  4. y[t] = sum_j weights[t, j] Os[row(t, j)] in pick order, in f32.
// The backward recomputes Hs and As and, with dYs the gathered dy rows:
//  dAu = dYs w_out[e] (grouped); per row dweights = dAu . As, dH = the
//  activation's backward of weights * dAu, and As scaled by the weight;
//  dw_out[e] = dYs_e^T As_e, dw_in[e] = dH_e^T Xs_e (grouped over the
//  experts' rows), dXs = dH w_in[e] (grouped), dx[t] = sum_j dXs[row(t, j)].
// bf16 throughout, f32 accumulation and element math.
//
//===----------------------------------------------------------------------===//

#include "cuda/MoeKernels.h"

#include "Kernels/MoeChecks.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"
#include "cuda/GroupedGemm.h"

#include <algorithm>
#include <cstdint>

namespace paracc::rt::cuda {

namespace {

using bf16 = __nv_bfloat16;

constexpr int kRouteThreads = 1024;
constexpr int kRouteWarps = kRouteThreads / 32;
constexpr int kThreads = 256;
constexpr size_t kAlign = 256;
size_t alignUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

//===----------------------------------------------------------------------===//
// Routing.
//===----------------------------------------------------------------------===//

/// One block: offsets[e] (exclusive, offsets[E] the rows), rowOf[s] (-1 for
/// an index out of range) and slotOf[row].
__global__ void __launch_bounds__(kRouteThreads)
    routeKernel(const int64_t *indices, int64_t slots, int experts,
                int32_t *offsets, int32_t *rowOf, int32_t *slotOf) {
  __shared__ int32_t base[kMoeMaxExperts];
  __shared__ int32_t warpCounts[kRouteWarps][kMoeMaxExperts];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  for (int e = tid; e < experts; e += kRouteThreads)
    base[e] = 0;
  __syncthreads();
  for (int64_t s = tid; s < slots; s += kRouteThreads) {
    const int64_t e = indices[s];
    if (e >= 0 && e < experts)
      atomicAdd(&base[e], 1);
  }
  __syncthreads();
  if (tid == 0) {
    int32_t run = 0;
    for (int e = 0; e < experts; ++e) {
      const int32_t count = base[e];
      offsets[e] = run;
      base[e] = run;
      run += count;
    }
    offsets[experts] = run;
  }
  __syncthreads();
  // Chunks of one slot per thread: a slot's row is its expert's base, the
  // same expert's slots in earlier warps, then its rank in its warp.
  for (int64_t chunk = 0; chunk < slots; chunk += kRouteThreads) {
    for (int i = tid; i < kRouteWarps * experts; i += kRouteThreads)
      warpCounts[i / experts][i % experts] = 0;
    __syncthreads();
    const int64_t s = chunk + tid;
    int e = -1;
    if (s < slots) {
      const int64_t v = indices[s];
      if (v >= 0 && v < experts)
        e = int(v);
    }
    const unsigned peers = __match_any_sync(0xffffffffu, e);
    const int rank = __popc(peers & ((1u << lane) - 1u));
    if (e >= 0 && rank == 0)
      warpCounts[warp][e] = __popc(peers);
    __syncthreads();
    if (s < slots) {
      if (e < 0) {
        rowOf[s] = -1;
      } else {
        int32_t row = base[e] + rank;
        for (int w = 0; w < warp; ++w)
          row += warpCounts[w][e];
        rowOf[s] = row;
        slotOf[row] = int32_t(s);
      }
    }
    __syncthreads();
    for (int x = tid; x < experts; x += kRouteThreads) {
      int32_t count = 0;
      for (int w = 0; w < kRouteWarps; ++w)
        count += warpCounts[w][x];
      base[x] += count;
    }
    __syncthreads();
  }
}

/// dst[row] = src[slotOf[row] / k] for the routed rows, 16 bytes at a time.
__global__ void gatherRowsKernel(const uint4 *src, const int32_t *slotOf,
                                 const int32_t *rows, int64_t k,
                                 int64_t rowVectors, uint4 *dst) {
  const int64_t n = int64_t(*rows) * rowVectors;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t row = i / rowVectors, c = i - row * rowVectors;
    dst[i] = src[(slotOf[row] / k) * rowVectors + c];
  }
}

//===----------------------------------------------------------------------===//
// The activation and its gradient (cpu/Moe.cpp's formulas).
//===----------------------------------------------------------------------===//

__device__ __forceinline__ float activate(int kind, float x) {
  switch (kind) {
  case 1:
    return 0.5f * x * (1.f + erff(x * 0.70710678f));
  case 2: {
    const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.f + tanhf(u));
  }
  case 3:
    return x > 0.f ? x : 0.f;
  default:
    return x / (1.f + expf(-x));
  }
}

__device__ __forceinline__ float activateGrad(int kind, float x) {
  switch (kind) {
  case 1:
    return 0.5f * (1.f + erff(x * 0.70710678f)) +
           x * expf(-0.5f * x * x) * 0.39894228f;
  case 2: {
    const float c = 0.7978845608f;
    const float t = tanhf(c * (x + 0.044715f * x * x * x));
    return 0.5f * (1.f + t) +
           0.5f * x * (1.f - t * t) * c * (1.f + 3.f * 0.044715f * x * x);
  }
  case 3:
    return x > 0.f ? 1.f : 0.f;
  default: {
    const float s = 1.f / (1.f + expf(-x));
    return s * (1.f + x * (1.f - s));
  }
  }
}

/// As[row] = act(Hs[row]) (gated: act(gate) * up, the halves of Hs).
__global__ void activateRowsKernel(const bf16 *hs, const int32_t *rows,
                                   int64_t inner, int64_t f, bool gated,
                                   int kind, bf16 *as) {
  const int64_t n = int64_t(*rows) * inner;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t row = i / inner, c = i - row * inner;
    const float g = __bfloat162float(hs[row * f + c]);
    float a = activate(kind, g);
    if (gated)
      a *= __bfloat162float(hs[row * f + inner + c]);
    as[i] = __float2bfloat16_rn(a);
  }
}

/// One block per row: dweights[slot] = dAu . act(Hs), dH = the activation's
/// backward of weight * dAu, As = weight * act(Hs).
__global__ void activateRowsBackwardKernel(const bf16 *hs, const bf16 *dAu,
                                           const int32_t *slotOf,
                                           const int32_t *rows,
                                           const bf16 *weights, int64_t inner,
                                           int64_t f, bool gated, int kind,
                                           bf16 *dH, bf16 *as, bf16 *dweights) {
  __shared__ float partial[kThreads / 32];
  const int64_t row = blockIdx.x;
  if (row >= *rows)
    return;
  const int32_t slot = slotOf[row];
  const float w = __bfloat162float(weights[slot]);
  float dot = 0.f;
  for (int64_t c = threadIdx.x; c < inner; c += blockDim.x) {
    const float g = __bfloat162float(hs[row * f + c]);
    const float da = __bfloat162float(dAu[row * inner + c]);
    const float act = activate(kind, g);
    if (gated) {
      const float u = __bfloat162float(hs[row * f + inner + c]);
      dot += da * act * u;
      dH[row * f + c] = __float2bfloat16_rn(w * da * u * activateGrad(kind, g));
      dH[row * f + inner + c] = __float2bfloat16_rn(w * da * act);
      as[row * inner + c] = __float2bfloat16_rn(w * act * u);
    } else {
      dot += da * act;
      dH[row * f + c] = __float2bfloat16_rn(w * da * activateGrad(kind, g));
      as[row * inner + c] = __float2bfloat16_rn(w * act);
    }
  }
  for (int offset = 16; offset > 0; offset >>= 1)
    dot += __shfl_down_sync(0xffffffffu, dot, offset);
  if ((threadIdx.x & 31) == 0)
    partial[threadIdx.x >> 5] = dot;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.f;
    for (int i = 0; i < int(blockDim.x) / 32; ++i)
      sum += partial[i];
    dweights[slot] = __float2bfloat16_rn(sum);
  }
}

//===----------------------------------------------------------------------===//
// Combining the k rows of each token.
//===----------------------------------------------------------------------===//

/// y[t] = sum_j scale(t, j) rowsData[rowOf[t k + j]] in pick order (scale
/// the routing weight, or 1 without `weights`); NaN for a pick out of
/// range. With `dweights`, a pick out of range also gets a NaN there.
__global__ void combineRowsKernel(const bf16 *rowsData, const int32_t *rowOf,
                                  const bf16 *weights, int64_t tokens,
                                  int64_t k, int64_t hidden, bf16 *y,
                                  bf16 *dweights) {
  const int64_t n = tokens * hidden;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t t = i / hidden, c = i - t * hidden;
    float acc = 0.f;
    for (int64_t j = 0; j < k; ++j) {
      const int32_t row = rowOf[t * k + j];
      if (row < 0) {
        acc = __int_as_float(0x7fc00000);
        if (dweights && c == 0)
          dweights[t * k + j] = __float2bfloat16_rn(acc);
        continue;
      }
      const float v = __bfloat162float(rowsData[int64_t(row) * hidden + c]);
      acc += weights ? __bfloat162float(weights[t * k + j]) * v : v;
    }
    y[i] = __float2bfloat16_rn(acc);
  }
}

//===----------------------------------------------------------------------===//
// Workspace and launches.
//===----------------------------------------------------------------------===//

/// Whether the GPU kernels take these sizes (bf16 is checked apart).
bool gpuTakes(int64_t slots, int64_t experts, int64_t hidden, int64_t f,
              int64_t inner) {
  return experts >= 1 && experts <= kMoeMaxExperts && hidden % 8 == 0 &&
         f % 8 == 0 && inner % 8 == 0 && slots < (int64_t(1) << 31);
}

/// The unchecked operands' sizes (for the workspace query, before the
/// launch's checks), or false when the GPU kernels do not take them.
bool moeSizes(OpCode op, const std::vector<DeviceTensor> &in, int64_t &slots,
              int64_t &experts, int64_t &hidden, int64_t &f, int64_t &inner) {
  const size_t o = op == OpCode::MoeExpertsGrad ? 1 : 0;
  if (in.size() != 5 + o)
    return false;
  const DeviceTensor &x = in[o], &idx = in[o + 1], &wIn = in[o + 3],
                     &wOut = in[o + 4];
  if (x.dtype != DType::BF16 || x.shape.size() != 2 || idx.shape.size() != 2 ||
      wIn.shape.size() != 3 || wOut.shape.size() != 3)
    return false;
  slots = x.shape[0] * idx.shape[1];
  experts = wIn.shape[0];
  hidden = x.shape[1];
  f = wIn.shape[1];
  inner = wOut.shape[2];
  return gpuTakes(slots, experts, hidden, f, inner);
}

/// The workspace's buffers, in order; `base` null only sizes them.
struct MoeBuffers {
  int32_t *offsets = nullptr, *rowOf = nullptr, *slotOf = nullptr;
  bf16 *xs = nullptr, *hs = nullptr, *as = nullptr;
  /// Forward: the expert outputs. Backward: the gathered dy rows, then dXs.
  bf16 *rowsH = nullptr;
  /// Backward only.
  bf16 *dAu = nullptr, *dH = nullptr;
  void *gemmScratch = nullptr;
  size_t bytes = 0;

  MoeBuffers(char *base, bool backward, int64_t slots, int64_t experts,
             int64_t hidden, int64_t f, int64_t inner) {
    size_t offset = 0;
    auto take = [&](size_t n) {
      char *p = base ? base + offset : nullptr;
      offset += alignUp(n);
      return p;
    };
    const size_t b = sizeof(bf16), n = size_t(slots);
    offsets = reinterpret_cast<int32_t *>(take((experts + 1) * 4));
    rowOf = reinterpret_cast<int32_t *>(take(n * 4));
    slotOf = reinterpret_cast<int32_t *>(take(n * 4));
    xs = reinterpret_cast<bf16 *>(take(n * hidden * b));
    hs = reinterpret_cast<bf16 *>(take(n * f * b));
    as = reinterpret_cast<bf16 *>(take(n * inner * b));
    rowsH = reinterpret_cast<bf16 *>(take(n * hidden * b));
    if (backward) {
      dAu = reinterpret_cast<bf16 *>(take(n * inner * b));
      dH = reinterpret_cast<bf16 *>(take(n * f * b));
    }
    gemmScratch = take(
        groupedGemmScratchBytes(int(experts), std::max({hidden, f, inner})));
    bytes = offset;
  }
};

unsigned gridFor(int64_t n) {
  return unsigned(std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1,
                                      int64_t(deviceSMCount()) * 16));
}

} // namespace

size_t moeWorkspaceBytes(OpCode op, const std::vector<DeviceTensor> &inputs) {
  int64_t slots, experts, hidden, f, inner;
  if (!groupedGemmAvailable() ||
      !moeSizes(op, inputs, slots, experts, hidden, f, inner))
    return 0;
  return MoeBuffers(nullptr, op == OpCode::MoeExpertsGrad, slots, experts,
                    hidden, f, inner)
      .bytes;
}

Status launchMoe(OpCode op, const MoeExpertsAttrs &attrs,
                 const std::vector<DeviceTensor> &inputs,
                 const std::vector<DeviceTensor> &outputs, void *workspace,
                 size_t workspaceBytes, cudaStream_t stream) {
  const HostViews views(inputs, outputs);
  const OpAttrs typed = attrs;
  const KernelArgs args{op, typed, views.in, views.out};
  MoeProblem p;
  PARACC_RETURN_IF_ERROR(checkMoe(args, checkGpuDType, p));
  const bool backward = op == OpCode::MoeExpertsGrad;
  const int64_t tokens = p.tokens, hidden = p.hidden, k = p.k,
                experts = p.experts, f = p.f, inner = p.inner;
  if (p.x->dtype() != DType::BF16 ||
      !gpuTakes(tokens * k, experts, hidden, f, inner))
    return args.fail("no GPU kernel for these operands (bf16, rows of "
                     "multiples of 8 elements, up to ",
                     kMoeMaxExperts, " experts)");
  const int64_t slots = tokens * k;
  const MoeBuffers buf(static_cast<char *>(workspace), backward, slots, experts,
                       hidden, f, inner);
  if (!workspace || workspaceBytes < buf.bytes)
    return args.fail("workspace of ", workspaceBytes, " bytes, needs ",
                     buf.bytes);
  if (tokens == 0) {
    for (const DeviceTensor &t : outputs)
      if (t.byteSize() && cudaMemsetAsync(t.data, 0, t.byteSize(), stream))
        return args.fail("clearing an empty result failed");
    return Status::ok();
  }
  const size_t o = backward ? 1 : 0;
  const auto *x = static_cast<const bf16 *>(inputs[o].data);
  const auto *indices = static_cast<const int64_t *>(inputs[o + 1].data);
  const auto *weights = static_cast<const bf16 *>(inputs[o + 2].data);
  const void *wIn = inputs[o + 3].data, *wOut = inputs[o + 4].data;
  const int kind = int(attrs.activation);
  const int32_t *rows = buf.offsets + experts;

  routeKernel<<<1, kRouteThreads, 0, stream>>>(
      indices, slots, int(experts), buf.offsets, buf.rowOf, buf.slotOf);
  PARACC_RETURN_IF_ERROR(checkLaunch("moe routing"));
  gatherRowsKernel<<<gridFor(slots * hidden / 8), kThreads, 0, stream>>>(
      reinterpret_cast<const uint4 *>(x), buf.slotOf, rows, k, hidden / 8,
      reinterpret_cast<uint4 *>(buf.xs));
  PARACC_RETURN_IF_ERROR(checkLaunch("moe gather"));
  auto grouped = [&](GroupedProduct product, int64_t m, int64_t n, int64_t kk,
                     const void *a, const void *b, void *d) {
    GroupedProblem g;
    g.product = product;
    g.groups = int(experts);
    g.m = m;
    g.n = n;
    g.k = kk;
    g.a = a;
    g.b = b;
    g.d = d;
    g.rowOffsets = buf.offsets;
    return runGroupedGemm(g, buf.gemmScratch, stream);
  };
  // Hs = Xs w_in[e]^T, As = act(Hs).
  PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTimesWeightT, 0, f, hidden,
                                 buf.xs, wIn, buf.hs));
  if (!backward) {
    activateRowsKernel<<<gridFor(slots * inner), kThreads, 0, stream>>>(
        buf.hs, rows, inner, f, attrs.gated, kind, buf.as);
    PARACC_RETURN_IF_ERROR(checkLaunch("moe activation"));
    PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTimesWeightT, 0, hidden,
                                   inner, buf.as, wOut, buf.rowsH));
    combineRowsKernel<<<gridFor(tokens * hidden), kThreads, 0, stream>>>(
        buf.rowsH, buf.rowOf, weights, tokens, k, hidden,
        static_cast<bf16 *>(outputs[0].data), nullptr);
    return checkLaunch("moe combine");
  }
  // Backward: dYs, dAu = dYs w_out[e]; the rows' activation backward.
  gatherRowsKernel<<<gridFor(slots * hidden / 8), kThreads, 0, stream>>>(
      reinterpret_cast<const uint4 *>(inputs[0].data), buf.slotOf, rows, k,
      hidden / 8, reinterpret_cast<uint4 *>(buf.rowsH));
  PARACC_RETURN_IF_ERROR(checkLaunch("moe gather dy"));
  PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTimesWeight, 0, inner,
                                 hidden, buf.rowsH, wOut, buf.dAu));
  auto *dweights = static_cast<bf16 *>(outputs[1].data);
  activateRowsBackwardKernel<<<unsigned(slots), kThreads, 0, stream>>>(
      buf.hs, buf.dAu, buf.slotOf, rows, weights, inner, f, attrs.gated, kind,
      buf.dH, buf.as, dweights);
  PARACC_RETURN_IF_ERROR(checkLaunch("moe activation backward"));
  // dw_out[e] = dYs_e^T (w As)_e; dw_in[e] = dH_e^T Xs_e.
  PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTransposedTimesRows,
                                 hidden, inner, 0, buf.rowsH, buf.as,
                                 outputs[3].data));
  PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTransposedTimesRows, f,
                                 hidden, 0, buf.dH, buf.xs, outputs[2].data));
  // dXs = dH w_in[e] (over dYs, no longer needed); dx[t] = sum_j dXs.
  PARACC_RETURN_IF_ERROR(grouped(GroupedProduct::RowsTimesWeight, 0, hidden, f,
                                 buf.dH, wIn, buf.rowsH));
  combineRowsKernel<<<gridFor(tokens * hidden), kThreads, 0, stream>>>(
      buf.rowsH, buf.rowOf, nullptr, tokens, k, hidden,
      static_cast<bf16 *>(outputs[0].data), dweights);
  return checkLaunch("moe combine backward");
}

//===----------------------------------------------------------------------===//
// ExpertLoad.
//===----------------------------------------------------------------------===//

namespace {

/// Experts counted in shared memory first (48 KiB of int32 counts); more
/// go straight to the result.
constexpr int64_t kLoadSharedExperts = 12288;

/// counts (zeroed) += each slot's expert, per block in shared memory when
/// `shared`, then one atomic per expert and block.
__global__ void __launch_bounds__(kThreads)
    expertLoadKernel(const int64_t *indices, int64_t slots, int64_t experts,
                     bool shared, float *counts) {
  extern __shared__ int32_t local[];
  if (shared) {
    for (int64_t e = threadIdx.x; e < experts; e += blockDim.x)
      local[e] = 0;
    __syncthreads();
  }
  for (int64_t s = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; s < slots;
       s += int64_t(gridDim.x) * blockDim.x) {
    const int64_t e = indices[s];
    if (e < 0 || e >= experts)
      continue;
    if (shared)
      atomicAdd(&local[e], 1);
    else
      atomicAdd(&counts[e], 1.f);
  }
  if (!shared)
    return;
  __syncthreads();
  for (int64_t e = threadIdx.x; e < experts; e += blockDim.x)
    if (local[e])
      atomicAdd(&counts[e], float(local[e]));
}

} // namespace

Status launchExpertLoad(const KernelArgs &args, cudaStream_t stream) {
  int64_t slots = 0, experts = 0;
  PARACC_RETURN_IF_ERROR(checkExpertLoad(args, slots, experts));
  auto *counts = static_cast<float *>(args.out[0]->data());
  const cudaError_t err =
      cudaMemsetAsync(counts, 0, size_t(experts) * sizeof(float), stream);
  if (err != cudaSuccess)
    return args.fail("zeroing the counts failed: ", cudaGetErrorString(err));
  if (slots == 0)
    return Status::ok();
  const bool shared = experts <= kLoadSharedExperts;
  // Two blocks per SM read the indices at full speed and keep the blocks'
  // final atomics (E each) few.
  const int blocks = int(std::min<int64_t>((slots + kThreads - 1) / kThreads,
                                           2 * int64_t(deviceSMCount())));
  expertLoadKernel<<<blocks, kThreads,
                     shared ? size_t(experts) * sizeof(int32_t) : 0, stream>>>(
      static_cast<const int64_t *>(args.in[0]->data()), slots, experts, shared,
      counts);
  return checkLaunch(args);
}

} // namespace paracc::rt::cuda
