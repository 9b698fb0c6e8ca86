//===- ForeachKernels.cu - Multi-tensor optimizer kernels -----------------===//
//
// GPU kernels of the multi-tensor ("foreach") instructions with the
// semantics of cpu/Optimizers.cpp and cpu/Foreach.cpp: ForeachAdamW,
// ForeachSumSquare and ForeachCast. Operands are checked with the CPU's
// checks (Kernels/TrainingChecks.h, same messages).
//
// Launch design: one launch covers up to kMaxTensors tensors, whose table
// travels by value in the kernel's parameters (pointers, element counts,
// element type codes, whether 16-byte vectors fit; under 3 KB, well below
// the 4 KB parameter limit). Nothing is copied to the device first, so the
// launches work eagerly and under CUDA graph capture alike (a captured
// launch keeps its parameters). Each tensor is cut into chunks of kChunk
// elements (PARACC_FOREACH_CHUNK overrides it for tuning; GPT-406M's step
// does not depend on it from 2048 to 32768, bench/results/
// 2026-12-02-h200-foreach) and gets one block per chunk, at most kMaxBlocks (a
// block then takes every kMaxBlocks-th chunk). A prefix array of block starts,
// start[k] .. start[k + 1] for tensor k of the launch, is in the
// parameters too: a block finds its tensor by a binary search over it (at
// most 5 steps), and its chunks from its index within the tensor. More
// tensors take more launches (ceil(N / kMaxTensors)); empty tensors take
// no block (but ForeachSumSquare's, which must write a zero). Within a
// chunk the threads walk 16-byte vectors (float4 for f32 state, four
// bf16/f16 gradients at a time) when the tensor's buffers are aligned, and
// elements otherwise; chunk starts are multiples of every vector width.
//
//  - ForeachAdamW: each element as AdamW's kernel does it (AdamWMath.cuh:
//    the step's constants from the device scalars by thread 0 of each
//    block, op-by-op rounding), so results equal N single-tensor AdamW
//    launches bit for bit, and the CPU's as AdamW's do. The gradient is
//    read as f32, bf16 or f16 (a per-tensor code in the table) and widened
//    exactly. A thread reads all of an element before writing it, so the
//    results may be the operands' very buffers.
//  - ForeachSumSquare: each block sums the squares of its elements in
//    double (exact products of f32 values) and reduces over the block in a
//    fixed order. With one block per tensor the block writes out[j]
//    directly; otherwise each block writes its partial sum to a
//    stream-ordered scratch buffer (StreamScratch, cudaMallocAsync) and a
//    second kernel per launch, one block per tensor, adds the tensor's
//    partials in a fixed order and rounds to f32 once: deterministic, no
//    atomics. Without scratch memory every tensor gets one block (slower,
//    still correct).
//  - ForeachCast: f32, bf16 and f16 to each other (rounded to nearest even
//    like Cast: __float2bfloat16_rn, __float2half_rn; bf16 <-> f16 through
//    f32), and same-type copies of every GPU cast type (bools made 0 or 1).
//    A same-type cast in place is skipped.
//
//===----------------------------------------------------------------------===//

#include "Kernels/TrainingChecks.h"
#include "cuda/AdamWMath.cuh"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace paracc::rt::cuda {

namespace {

//===----------------------------------------------------------------------===//
// Tensor tables and block maps.
//===----------------------------------------------------------------------===//

/// Tensors of one launch.
constexpr int kMaxTensors = 32;
/// Threads of every block.
constexpr int kThreads = 256;
/// Elements of a chunk, a multiple of every vector width (16 one-byte
/// elements).
constexpr int64_t kChunk = 8192;
/// Most blocks of one tensor in a launch (ForeachAdamW, ForeachCast).
constexpr int64_t kMaxBlocks = 65536;
/// Most blocks (so partial sums) of one tensor in ForeachSumSquare.
constexpr int64_t kMaxSumBlocks = 1024;

static_assert(kChunk % 16 == 0, "chunks must keep vectors aligned");
static_assert(int64_t(kMaxTensors) * kMaxBlocks < (int64_t(1) << 31),
              "a launch's blocks must fit a grid and int32 starts");

/// Blocks of the launch per tensor: tensor k of the launch owns blocks
/// [start[k], start[k + 1]), k < count, each range non-empty.
struct BlockMap {
  int32_t start[kMaxTensors + 1];
  int32_t count;
  int64_t chunk; // Elements per chunk (a multiple of 16).
};

/// The block's share of the work: tensor k of the launch, and its chunks
/// firstChunk, firstChunk + chunkStride, ...
struct BlockWork {
  int k;
  int64_t firstChunk, chunkStride, chunk;
};

__device__ __forceinline__ BlockWork blockWork(const BlockMap &m) {
  const int32_t b = int32_t(blockIdx.x);
  // The largest k with start[k] <= b; start[0] = 0 <= b < start[count].
  int lo = 0, hi = m.count;
  while (hi - lo > 1) {
    const int mid = (lo + hi) >> 1;
    if (m.start[mid] <= b)
      lo = mid;
    else
      hi = mid;
  }
  BlockWork w;
  w.k = lo;
  w.firstChunk = b - m.start[lo];
  w.chunkStride = m.start[lo + 1] - m.start[lo];
  w.chunk = m.chunk;
  return w;
}

/// Elements [begin, begin + len) of chunk c of a tensor of n elements.
__device__ __forceinline__ void chunkRange(int64_t c, int64_t n, int64_t chunk,
                                           int64_t &begin, int64_t &len) {
  begin = c * chunk;
  len = n - begin < chunk ? n - begin : chunk;
}

/// Chunks of a tensor of n elements.
__device__ __forceinline__ int64_t chunksOf(int64_t n, int64_t chunk) {
  return (n + chunk - 1) / chunk;
}

/// Elements per chunk: kChunk, or PARACC_FOREACH_CHUNK (a multiple of 16
/// from 1024 to 2^22) to tune it in benchmarks.
int64_t chunkElements() {
  static const int64_t chunk = [] {
    const char *env = std::getenv("PARACC_FOREACH_CHUNK");
    const int64_t v = env ? std::atoll(env) : 0;
    return v >= 1024 && v <= (int64_t(1) << 22) && v % 16 == 0 ? v : kChunk;
  }();
  return chunk;
}

/// Blocks of a tensor of n elements (0 when empty), at most `cap`.
int64_t blocksFor(int64_t n, int64_t cap) {
  return std::min(ceilDiv(n, chunkElements()), cap);
}

/// Groups tensors 0..n-1 into launches of at most kMaxTensors tensors,
/// blocks(j) blocks each (tensors with none are left out), in order, and
/// calls launch(map, members) for each, members[k] being the tensor of the
/// launch's tensor k.
template <typename Blocks, typename Launch>
Status forEachLaunch(size_t n, Blocks &&blocks, Launch &&launch) {
  BlockMap map;
  map.start[0] = 0;
  map.count = 0;
  map.chunk = chunkElements();
  std::vector<size_t> members;
  auto flush = [&]() -> Status {
    if (map.count == 0)
      return Status::ok();
    const Status st = launch(map, members);
    map.count = 0;
    members.clear();
    return st;
  };
  for (size_t j = 0; j < n; ++j) {
    const int64_t b = blocks(j);
    if (b <= 0)
      continue;
    members.push_back(j);
    map.start[map.count + 1] = map.start[map.count] + int32_t(b);
    ++map.count;
    if (map.count == kMaxTensors)
      PARACC_RETURN_IF_ERROR(flush());
  }
  return flush();
}

/// Grid of a launch: every block of its map.
unsigned gridOf(const BlockMap &map) { return unsigned(map.start[map.count]); }

/// Element type codes of the tables (the floating types of the kernels).
enum FloatCode : int32_t { kF32 = 0, kBF16 = 1, kF16 = 2 };

FloatCode floatCode(DType d) {
  return d == DType::BF16 ? kBF16 : d == DType::F16 ? kF16 : kF32;
}

//===----------------------------------------------------------------------===//
// ForeachAdamW.
//===----------------------------------------------------------------------===//

struct AdamWTensor {
  const float *param, *expAvg, *expAvgSq;
  const void *grad; // f32, bf16 or f16 (gradType).
  float *paramOut, *expAvgOut, *expAvgSqOut;
  void *copyOut; // The new parameter cast to copyType; null: no copy.
  int64_t n;
  int32_t gradType; // FloatCode.
  int16_t vec;      // Every buffer fits 4-element vectors.
  int16_t copyType; // FloatCode (bf16 or f16) of copyOut.
};

struct ForeachAdamWParams {
  AdamWTensor t[kMaxTensors];
  BlockMap map;
  const float *lr, *step, *gradScale; // Device scalars.
  AdamWHyper h;
};
static_assert(sizeof(ForeachAdamWParams) <= 3072,
              "the table must stay well below the kernel parameter limit");

/// p[0..V) rounded to D as Cast rounds, stored at element e of `out`.
template <DType D, int V>
__device__ __forceinline__ void storeRounded(void *out, int64_t e,
                                             const float (&p)[V]) {
  VecT<DevS<D>, V> o;
#pragma unroll
  for (int k = 0; k < V; ++k)
    o.v[k] = stc<D>(p[k]);
  storeVec<V>(static_cast<DevS<D> *>(out) + e, 0, o);
}

/// Stores the new parameter values p[0..V) at element e of t's copy (if it
/// has one), in its type (bf16 or f16).
template <int V>
__device__ __forceinline__ void storeCopy(const AdamWTensor &t, int64_t e,
                                          const float (&p)[V]) {
  if (!t.copyOut)
    return;
  if (t.copyType == kBF16)
    storeRounded<DType::BF16, V>(t.copyOut, e, p);
  else
    storeRounded<DType::F16, V>(t.copyOut, e, p);
}

/// AdamW over the block's chunks of tensor t, whose gradient is of type G.
template <DType G>
__device__ __forceinline__ void
adamwChunks(const AdamWTensor &t, const AdamWHyper &h, const AdamWStep &s,
            const BlockWork &w) {
  using GS = DevS<G>;
  const GS *grad = static_cast<const GS *>(t.grad);
  const int64_t chunks = chunksOf(t.n, w.chunk);
  for (int64_t c = w.firstChunk; c < chunks; c += w.chunkStride) {
    int64_t begin, len;
    chunkRange(c, t.n, w.chunk, begin, len);
    int64_t done = 0;
    if (t.vec) {
      const int64_t nv = len / 4;
      for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
        const int64_t e = begin + 4 * i;
        const VecT<GS, 4> g = loadVec<4>(grad + e, 0);
        float4 pa = *reinterpret_cast<const float4 *>(t.param + e);
        float4 m = *reinterpret_cast<const float4 *>(t.expAvg + e);
        float4 v = *reinterpret_cast<const float4 *>(t.expAvgSq + e);
        adamwElement(h, s, ldc<G>(g.v[0]), pa.x, m.x, v.x);
        adamwElement(h, s, ldc<G>(g.v[1]), pa.y, m.y, v.y);
        adamwElement(h, s, ldc<G>(g.v[2]), pa.z, m.z, v.z);
        adamwElement(h, s, ldc<G>(g.v[3]), pa.w, m.w, v.w);
        *reinterpret_cast<float4 *>(t.paramOut + e) = pa;
        *reinterpret_cast<float4 *>(t.expAvgOut + e) = m;
        *reinterpret_cast<float4 *>(t.expAvgSqOut + e) = v;
        storeCopy<4>(t, e, {pa.x, pa.y, pa.z, pa.w});
      }
      done = nv * 4;
    }
    for (int64_t i = done + threadIdx.x; i < len; i += blockDim.x) {
      const int64_t e = begin + i;
      float pa = t.param[e], m = t.expAvg[e], v = t.expAvgSq[e];
      adamwElement(h, s, ldc<G>(grad[e]), pa, m, v);
      t.paramOut[e] = pa;
      t.expAvgOut[e] = m;
      t.expAvgSqOut[e] = v;
      storeCopy<1>(t, e, {pa});
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    foreachAdamWKernel(ForeachAdamWParams p) {
  const AdamWStep s = adamwBlockStep(p.h, p.lr, p.step, p.gradScale);
  const BlockWork w = blockWork(p.map);
  const AdamWTensor t = p.t[w.k];
  switch (t.gradType) {
  case kBF16:
    adamwChunks<DType::BF16>(t, p.h, s, w);
    break;
  case kF16:
    adamwChunks<DType::F16>(t, p.h, s, w);
    break;
  default:
    adamwChunks<DType::F32>(t, p.h, s, w);
    break;
  }
}

//===----------------------------------------------------------------------===//
// ForeachSumSquare.
//===----------------------------------------------------------------------===//

struct SumSquareTensor {
  const void *x;
  float *y; // The tensor's result element.
  int64_t n;
  int32_t type; // FloatCode.
  int32_t vec;  // x fits 16-byte vectors.
};

struct ForeachSumSquareParams {
  SumSquareTensor t[kMaxTensors];
  BlockMap map;
  /// One partial sum per block of the launch; null when every tensor has
  /// one block, which writes the result itself.
  double *partial;
};
static_assert(sizeof(ForeachSumSquareParams) <= 3072,
              "the table must stay well below the kernel parameter limit");

/// The sum of squares of the block's elements of tensor t (of type D), per
/// thread.
template <DType D>
__device__ __forceinline__ double sumSquareChunks(const SumSquareTensor &t,
                                                  const BlockWork &w) {
  using S = DevS<D>;
  constexpr int V = kVec16<S>;
  const S *x = static_cast<const S *>(t.x);
  double acc = 0.0;
  const int64_t chunks = chunksOf(t.n, w.chunk);
  for (int64_t c = w.firstChunk; c < chunks; c += w.chunkStride) {
    int64_t begin, len;
    chunkRange(c, t.n, w.chunk, begin, len);
    int64_t done = 0;
    if (t.vec) {
      const int64_t nv = len / V;
      for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
        const VecT<S, V> a = loadVec<V>(x + begin, i);
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const double f = double(ldc<D>(a.v[k]));
          acc += f * f; // Exact product of an f32 value.
        }
      }
      done = nv * V;
    }
    for (int64_t i = done + threadIdx.x; i < len; i += blockDim.x) {
      const double f = double(ldc<D>(x[begin + i]));
      acc += f * f;
    }
  }
  return acc;
}

__global__ void __launch_bounds__(kThreads)
    foreachSumSquareKernel(ForeachSumSquareParams p) {
  __shared__ double red[32];
  const BlockWork w = blockWork(p.map);
  const SumSquareTensor t = p.t[w.k];
  double acc;
  switch (t.type) {
  case kBF16:
    acc = sumSquareChunks<DType::BF16>(t, w);
    break;
  case kF16:
    acc = sumSquareChunks<DType::F16>(t, w);
    break;
  default:
    acc = sumSquareChunks<DType::F32>(t, w);
    break;
  }
  acc = blockReduce(acc, SumF(), red);
  if (threadIdx.x != 0)
    return;
  if (p.partial)
    p.partial[blockIdx.x] = acc;
  else
    *t.y = __double2float_rn(acc);
}

/// Block k adds tensor k's partial sums in block order (a fixed tree) and
/// writes its result.
__global__ void __launch_bounds__(kThreads)
    foreachSumSquareFinishKernel(ForeachSumSquareParams p) {
  __shared__ double red[32];
  const int k = int(blockIdx.x);
  const int32_t end = p.map.start[k + 1];
  double acc = 0.0;
  for (int32_t b = p.map.start[k] + int32_t(threadIdx.x); b < end;
       b += int32_t(blockDim.x))
    acc += p.partial[b];
  acc = blockReduce(acc, SumF(), red);
  if (threadIdx.x == 0)
    *p.t[k].y = __double2float_rn(acc);
}

//===----------------------------------------------------------------------===//
// ForeachCast.
//===----------------------------------------------------------------------===//

struct CastTensor {
  const void *x;
  void *y;
  int64_t n;
  int32_t vec; // x and y fit vectors of the kernel's width.
};

struct ForeachCastParams {
  CastTensor t[kMaxTensors];
  BlockMap map;
};
static_assert(sizeof(ForeachCastParams) <= 3072,
              "the table must stay well below the kernel parameter limit");

/// Elements of a vector of the cast from In to Out: 16 bytes of the wider.
template <typename In, typename Out>
inline constexpr int
    kCastVec = int(16 / (sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out)));

/// Between f32, bf16 and f16 (DI != DO), rounded as Cast's CastF
/// (Elementwise.cu): widening is exact, narrowing rounds to nearest even
/// once (bf16 <-> f16 through f32, which holds both exactly).
template <DType DI, DType DO> struct FloatCastF {
  using In = DevS<DI>;
  using Out = DevS<DO>;
  __device__ __forceinline__ Out operator()(In x) const {
    return stc<DO>(ldc<DI>(x));
  }
};

/// A same-type copy of elements of T.
template <typename T> struct CopyF {
  using In = T;
  using Out = T;
  __device__ __forceinline__ T operator()(T x) const { return x; }
};

/// A bool copy, made canonical (0 or 1) as Cast does.
struct BoolCopyF {
  using In = uint8_t;
  using Out = uint8_t;
  __device__ __forceinline__ uint8_t operator()(uint8_t x) const {
    return x != 0 ? 1 : 0;
  }
};

template <typename F>
__global__ void __launch_bounds__(kThreads)
    foreachCastKernel(ForeachCastParams p, F f) {
  using In = typename F::In;
  using Out = typename F::Out;
  constexpr int V = kCastVec<In, Out>;
  const BlockWork w = blockWork(p.map);
  const CastTensor t = p.t[w.k];
  const In *x = static_cast<const In *>(t.x);
  Out *y = static_cast<Out *>(t.y);
  const int64_t chunks = chunksOf(t.n, w.chunk);
  for (int64_t c = w.firstChunk; c < chunks; c += w.chunkStride) {
    int64_t begin, len;
    chunkRange(c, t.n, w.chunk, begin, len);
    int64_t done = 0;
    if (t.vec) {
      const int64_t nv = len / V;
      for (int64_t i = threadIdx.x; i < nv; i += blockDim.x) {
        const VecT<In, V> a = loadVec<V>(x + begin, i);
        VecT<Out, V> o;
#pragma unroll
        for (int k = 0; k < V; ++k)
          o.v[k] = f(a.v[k]);
        storeVec<V>(y + begin, i, o);
      }
      done = nv * V;
    }
    for (int64_t i = done + threadIdx.x; i < len; i += blockDim.x)
      y[begin + i] = f(x[begin + i]);
  }
}

/// ForeachCast with functor F over every tensor; a tensor cast exactly in
/// place is skipped when `skipInPlace` (a same-type copy onto itself).
template <typename F>
Status castLaunches(const KernelArgs &args, F f, bool skipInPlace,
                    cudaStream_t stream) {
  using In = typename F::In;
  using Out = typename F::Out;
  constexpr int V = kCastVec<In, Out>;
  ForeachCastParams p{};
  auto blocks = [&](size_t j) -> int64_t {
    if (skipInPlace && args.in[j]->data() == args.out[j]->data())
      return 0;
    return blocksFor(args.in[j]->numElements(), kMaxBlocks);
  };
  return forEachLaunch(
      args.in.size(), blocks,
      [&](const BlockMap &map, const std::vector<size_t> &members) -> Status {
        p.map = map;
        for (int k = 0; k < map.count; ++k) {
          const Tensor &x = *args.in[members[k]];
          Tensor &y = *args.out[members[k]];
          CastTensor &t = p.t[k];
          t.x = x.data();
          t.y = y.data();
          t.n = x.numElements();
          t.vec =
              isAligned(t.x, V * sizeof(In)) && isAligned(t.y, V * sizeof(Out));
        }
        foreachCastKernel<F><<<gridOf(map), kThreads, 0, stream>>>(p, f);
        return checkLaunch(args);
      });
}

bool isHalfOrSingle(DType d) {
  return d == DType::F32 || d == DType::BF16 || d == DType::F16;
}

/// Calls f(DTypeTag<D>{}) for f32, bf16 or f16.
template <typename F> Status visitHalfOrSingle(DType d, F &&f) {
  switch (d) {
  case DType::BF16:
    return f(DTypeTag<DType::BF16>{});
  case DType::F16:
    return f(DTypeTag<DType::F16>{});
  default:
    return f(DTypeTag<DType::F32>{});
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

bool foreachCastHasKernel(DType from, DType to) {
  if (from == to)
    return isGpuCastDType(from);
  return isHalfOrSingle(from) && isHalfOrSingle(to);
}

Status launchForeachAdamW(const KernelArgs &args, cudaStream_t stream) {
  size_t n = 0;
  PARACC_RETURN_IF_ERROR(checkForeachAdamW(args, n));
  // The step is checked on the device (an invalid one gives NaN results).
  ForeachAdamWParams p{};
  p.lr = static_cast<const float *>(args.in[4 * n]->data());
  p.step = static_cast<const float *>(args.in[4 * n + 1]->data());
  p.gradScale = static_cast<const float *>(args.in[4 * n + 2]->data());
  p.h = adamwHyper(args.attrsAs<AdamWAttrs>());
  const bool copies = args.out.size() == 4 * n;
  auto blocks = [&](size_t j) {
    return blocksFor(args.in[j]->numElements(), kMaxBlocks);
  };
  return forEachLaunch(
      n, blocks,
      [&](const BlockMap &map, const std::vector<size_t> &members) -> Status {
        p.map = map;
        for (int k = 0; k < map.count; ++k) {
          const size_t j = members[k];
          auto in = [&](size_t group) {
            return static_cast<const float *>(args.in[group * n + j]->data());
          };
          auto out = [&](size_t group) {
            return static_cast<float *>(args.out[group * n + j]->data());
          };
          const Tensor &grad = *args.in[n + j];
          AdamWTensor &t = p.t[k];
          t.param = in(0);
          t.grad = grad.data();
          t.expAvg = in(2);
          t.expAvgSq = in(3);
          t.paramOut = out(0);
          t.expAvgOut = out(1);
          t.expAvgSqOut = out(2);
          t.n = args.in[j]->numElements();
          t.gradType = floatCode(grad.dtype());
          bool vec = isAligned(t.grad, 4 * dtypeSize(grad.dtype()));
          t.copyOut = nullptr;
          if (copies) {
            Tensor &copy = *args.out[3 * n + j];
            t.copyOut = copy.data();
            t.copyType = int16_t(floatCode(copy.dtype()));
            vec &= isAligned(t.copyOut, 4 * dtypeSize(copy.dtype()));
          }
          for (const void *q : {static_cast<const void *>(t.param),
                                static_cast<const void *>(t.expAvg),
                                static_cast<const void *>(t.expAvgSq),
                                static_cast<const void *>(t.paramOut),
                                static_cast<const void *>(t.expAvgOut),
                                static_cast<const void *>(t.expAvgSqOut)})
            vec &= isAligned(q, 16);
          t.vec = vec;
        }
        foreachAdamWKernel<<<gridOf(map), kThreads, 0, stream>>>(p);
        return checkLaunch(args);
      });
}

Status launchForeachSumSquare(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkForeachSumSquare(args));
  for (const Tensor *x : args.in)
    PARACC_RETURN_IF_ERROR(checkGpuDType(args, *x, TypeSet::Float, "operand"));
  const size_t n = args.in.size();
  // Every tensor has a block, an empty one too (it writes the zero).
  std::vector<int64_t> blocks(n);
  int64_t total = 0;
  for (size_t j = 0; j < n; ++j) {
    blocks[j] = std::max<int64_t>(
        1, blocksFor(args.in[j]->numElements(), kMaxSumBlocks));
    total += blocks[j];
  }
  const bool split = total > int64_t(n);
  StreamScratch scratch(split ? size_t(total) * sizeof(double) : 0, stream);
  double *partial = scratch.get<double>();
  if (!partial)
    std::fill(blocks.begin(), blocks.end(), 1); // Slower, still correct.
  float *out = static_cast<float *>(args.out[0]->data());
  ForeachSumSquareParams p{};
  int64_t offset = 0; // Of the launch's partial sums.
  return forEachLaunch(
      n, [&](size_t j) { return blocks[j]; },
      [&](const BlockMap &map, const std::vector<size_t> &members) -> Status {
        p.map = map;
        p.partial = partial ? partial + offset : nullptr;
        offset += map.start[map.count];
        for (int k = 0; k < map.count; ++k) {
          const Tensor &x = *args.in[members[k]];
          SumSquareTensor &t = p.t[k];
          t.x = x.data();
          t.y = out + members[k];
          t.n = x.numElements();
          t.type = floatCode(x.dtype());
          t.vec = isAligned(t.x, 16);
        }
        foreachSumSquareKernel<<<gridOf(map), kThreads, 0, stream>>>(p);
        PARACC_RETURN_IF_ERROR(checkLaunch(args));
        if (!p.partial)
          return Status::ok();
        foreachSumSquareFinishKernel<<<unsigned(map.count), kThreads, 0,
                                       stream>>>(p);
        return checkLaunch(args);
      });
}

Status launchForeachCast(const KernelArgs &args, cudaStream_t stream) {
  PARACC_RETURN_IF_ERROR(checkForeachCast(args));
  const DType from = args.in[0]->dtype(), to = args.out[0]->dtype();
  if (!foreachCastHasKernel(from, to))
    return args.fail("no GPU kernel casts ", dtypeName(from), " to ",
                     dtypeName(to));
  if (from == to) {
    if (from == DType::Bool)
      return castLaunches(args, BoolCopyF(), false, stream);
    switch (dtypeSize(from)) {
    case 1:
      return castLaunches(args, CopyF<uint8_t>(), true, stream);
    case 2:
      return castLaunches(args, CopyF<uint16_t>(), true, stream);
    case 4:
      return castLaunches(args, CopyF<uint32_t>(), true, stream);
    default:
      return castLaunches(args, CopyF<uint64_t>(), true, stream);
    }
  }
  return visitHalfOrSingle(from, [&](auto inTag) -> Status {
    constexpr DType DI = decltype(inTag)::value;
    return visitHalfOrSingle(to, [&](auto outTag) -> Status {
      constexpr DType DO = decltype(outTag)::value;
      if constexpr (DI == DO)
        return args.fail("internal error: a same-type cast"); // Above.
      else
        return castLaunches(args, FloatCastF<DI, DO>(), false, stream);
    });
  });
}

} // namespace paracc::rt::cuda
