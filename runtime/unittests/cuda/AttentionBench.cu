//===- AttentionBench.cu - Throughput of the GPU attention -----*- C++ -*-===//
//
// Times launchAttention and launchAttentionGrad with CUDA events (median
// of 20 runs after 5 warm-up runs) and prints TFLOP/s. The forward counts F
// = 4 * B * H * Sq * Sk * D FLOPs (its two matrix products), halved for
// causal masking; the backward counts 2.5 F (the five matrix products of a
// backward given the forward's statistics: 10 * B * H * Sq * Sk * D, / 2
// when causal), whatever it really computes (ours recomputes the
// statistics: 7 products of that size by default, dq accumulated with f32
// atomics; 9 with PARACC_ATTENTION_BWD=recompute, the "bwd=recompute"
// configurations), and fwd+bwd is 3.5 F over the sum of both medians. The
// first configuration is the benchmark model (GPT: batch 8, 16 heads of 64,
// sequence 1024, causal, bf16), then the same with bwd=recompute; the
// others show head dim 128, longer sequences, masks, f16 and the SIMT
// kernels. The "chunks=N" configurations time a causal attention as context
// parallelism runs it, on one device: the sequence (one, sequence-first) cut
// into N blocks of queries, each a launch against every key with its
// block's start operand (N = 2 cp: all the zig-zag chunks of a cp group);
// printed next to the whole attention of the same sequence. The "ring=N"
// ones time ring attention's work on one device: every block of queries
// against every block of keys with their relative start (the blocks a rank
// never sees cost a launch and no tiles), each result merged into the
// block's running one (AttentionMerge), then each pair's backward given the
// merged statistics (keyBlock).
//
// Usage: AttentionBench [substring]   runs the configurations whose name
// contains it.
//
//===----------------------------------------------------------------------===//

#include "cuda/AttentionKernel.h"
#include "cuda/CudaKernels.h"

#include "paracc/runtime/DType.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace paracc::rt;
using paracc::rt::cuda::DeviceTensor;

namespace {

struct Config {
  DType dtype = DType::BF16;
  int64_t batch = 8, heads = 16, sq = 1024, sk = 1024, d = 64;
  bool causal = true;
  bool mask = false; ///< An additive [Sq, Sk] mask of zeros.
  bool forceGeneric = false;
  /// Time the backward with PARACC_ATTENTION_BWD=recompute (dq in a second
  /// query pass instead of atomics in the key pass).
  bool recompute = false;
  /// > 1: the causal attention as `chunks` blocks of queries (see above).
  int64_t chunks = 1;
  /// With chunks: ring attention's blocks of keys too, merged (see above).
  bool ring = false;
  /// f32 with TF32 allowed (AttentionTf32.h): the forward saves its
  /// statistics and the backward is given them with the result, as in a
  /// training step.
  bool tf32 = false;
};

std::string configName(const Config &c) {
  std::ostringstream os;
  os << dtypeName(c.dtype) << " B=" << c.batch << " H=" << c.heads
     << " Sq=" << c.sq << " Sk=" << c.sk << " D=" << c.d
     << (c.causal ? " causal" : " full") << (c.mask ? " mask=[Sq,Sk]" : "")
     << (c.forceGeneric ? " forced-generic" : "")
     << (c.recompute ? " bwd=recompute" : "") << (c.tf32 ? " tf32" : "");
  if (c.chunks > 1)
    os << (c.ring ? " ring=" : " chunks=") << c.chunks;
  return os.str();
}

bool check(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return true;
  std::printf("  CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  return false;
}

/// Fills `n` elements of `dt` at `dst` (device) with uniform values in
/// [-range, range).
bool fillRandom(void *dst, DType dt, int64_t n, float range, uint64_t seed) {
  std::vector<unsigned char> host(size_t(n) * dtypeSize(dt));
  uint64_t s = seed;
  for (int64_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const float x = range * (float(s >> 40) / 8388608.f - 1.f);
    switch (dt) {
    case DType::F32:
      reinterpret_cast<float *>(host.data())[i] = x;
      break;
    case DType::BF16:
      reinterpret_cast<BFloat16 *>(host.data())[i] = BFloat16(x);
      break;
    default:
      reinterpret_cast<Half *>(host.data())[i] = Half(x);
      break;
    }
  }
  return check(
      cudaMemcpy(dst, host.data(), host.size(), cudaMemcpyHostToDevice),
      "cudaMemcpy");
}

/// The chunked form of `c` (batch 1, sequence-first operands): `chunks`
/// forward launches, then `chunks` backward ones (each chunk's dk and dv
/// written over the last: the sum is the program's, not timed here).
/// Prints the medians as runConfig does and returns whether it ran.
bool runChunkedConfig(const Config &c) {
  const std::string name = configName(c);
  const size_t es = dtypeSize(c.dtype);
  const int64_t rows = c.sq / c.chunks, rowElems = c.heads * c.d;
  const Shape whole = {1, c.sq, c.heads, c.d}, block = {1, rows, c.heads, c.d};
  const int64_t n = shapeNumElements(whole);
  void *q = nullptr, *k = nullptr, *v = nullptr, *y = nullptr, *dy = nullptr,
       *dq = nullptr, *dk = nullptr, *dv = nullptr, *ws = nullptr,
       *part = nullptr, *merged = nullptr;
  // Ring: per query block its statistics, a partial result's, a merge's.
  float *stats = nullptr, *partStats = nullptr, *mergedStats = nullptr;
  int64_t *starts = nullptr;
  bool ok = c.batch == 1 && c.sq == c.sk && c.sq % c.chunks == 0 && c.causal;
  for (void **p : {&q, &k, &v, &y, &dy, &dq, &dk, &dv, &part, &merged})
    ok = ok && check(cudaMalloc(p, n * es), "cudaMalloc");
  for (float **p : {&stats, &partStats, &mergedStats})
    ok = ok &&
         check(cudaMalloc(p, c.sq * c.heads * sizeof(float)), "cudaMalloc");
  // Chunks: block i's start (i rows); ring: block i's against key block j,
  // at i * chunks + j ((i - j) rows).
  std::vector<int64_t> hostStarts;
  for (int64_t i = 0; i < c.chunks; ++i)
    for (int64_t j = 0; j < (c.ring ? c.chunks : 1); ++j)
      hostStarts.push_back((i - j) * rows);
  const size_t startBytes = hostStarts.size() * sizeof(int64_t);
  ok = ok && check(cudaMalloc(&starts, startBytes), "cudaMalloc") &&
       check(cudaMemcpy(starts, hostStarts.data(), startBytes,
                        cudaMemcpyHostToDevice),
             "cudaMemcpy") &&
       fillRandom(q, c.dtype, n, 2.f, 1) && fillRandom(k, c.dtype, n, 2.f, 2) &&
       fillRandom(v, c.dtype, n, 1.f, 3) && fillRandom(dy, c.dtype, n, 1.f, 4);
  AttentionAttrs attrs;
  attrs.causal = true;
  attrs.sequenceFirst = true;
  attrs.queryStart = true;
  // All-gather chunks start within their keys (what the encoder proves);
  // PARACC_BENCH_START_ANYWHERE=1 times them without the mark (paracc's
  // kernels).
  attrs.startWithinKeys = !std::getenv("PARACC_BENCH_START_ANYWHERE");
  attrs.scale = 1.0 / std::sqrt(double(c.d));
  auto at = [&](void *base, int64_t i) {
    return static_cast<char *>(base) + i * rows * rowElems * es;
  };
  auto forwardIn = [&](int64_t i) {
    return std::vector<DeviceTensor>{{c.dtype, block, at(q, i)},
                                     {c.dtype, whole, k},
                                     {c.dtype, whole, v},
                                     {DType::I64, {}, starts + i}};
  };
  auto gradIn = [&](int64_t i) {
    std::vector<DeviceTensor> in = forwardIn(i);
    in.insert(in.begin(), {c.dtype, block, at(dy, i)});
    return in;
  };
  // Ring: query block i against key block j, with its statistics.
  const Shape statsBlock = {1, c.heads, rows};
  auto statsAt = [&](float *base, int64_t i) {
    return base + i * c.heads * rows;
  };
  AttentionAttrs ringAttrs = attrs, ringGradAttrs = attrs;
  // Ring pairs start before or past their keys (only the diagonal pair is
  // within: not marked here, so every pair runs the same kernel).
  ringAttrs.startWithinKeys = ringGradAttrs.startWithinKeys = false;
  ringAttrs.savedStats = ringGradAttrs.savedStats = true;
  ringGradAttrs.keyBlock = true;
  auto ringIn = [&](int64_t i, int64_t j) {
    return std::vector<DeviceTensor>{
        {c.dtype, block, at(q, i)},
        {c.dtype, block, at(k, j)},
        {c.dtype, block, at(v, j)},
        {DType::I64, {}, starts + i * c.chunks + j}};
  };
  auto ringGradIn = [&](int64_t i, int64_t j) {
    std::vector<DeviceTensor> in = ringIn(i, j);
    in.insert(in.begin(), {c.dtype, block, at(dy, i)});
    in.push_back({c.dtype, block, at(y, i)});
    in.push_back({DType::F32, statsBlock, statsAt(stats, i)});
    return in;
  };
  const size_t wsBytes = cuda::attentionGradWorkspaceBytes(
      c.ring ? ringGradAttrs : attrs, c.ring ? ringGradIn(0, 0) : gradIn(0));
  ok = ok && (wsBytes == 0 || check(cudaMalloc(&ws, wsBytes), "cudaMalloc"));
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ok = ok && check(cudaStreamCreate(&stream), "cudaStreamCreate") &&
       check(cudaEventCreate(&start), "cudaEventCreate") &&
       check(cudaEventCreate(&stop), "cudaEventCreate");
  auto median = [&](bool backward) {
    std::vector<float> ms;
    for (int it = 0; ok && it < 25; ++it) {
      ok = check(cudaEventRecord(start, stream), "cudaEventRecord");
      for (int64_t i = 0; ok && i < c.chunks; ++i) {
        Status st;
        if (!c.ring) {
          st =
              backward
                  ? cuda::launchAttentionGrad(attrs, gradIn(i),
                                              {{c.dtype, block, at(dq, i)},
                                               {c.dtype, whole, dk},
                                               {c.dtype, whole, dv}},
                                              ws, wsBytes, stream)
                  : cuda::launchAttention(attrs, forwardIn(i),
                                          {{c.dtype, block, at(y, i)}}, stream);
        }
        // Ring: the pairs of block i; the forward merges them into block
        // i's result and statistics (ping-pong between two buffers), the
        // backward writes its shares over each other (the sums are the
        // program's, not timed here).
        for (int64_t j = 0; c.ring && st.isOk() && j < c.chunks; ++j) {
          if (backward) {
            st = cuda::launchAttentionGrad(ringGradAttrs, ringGradIn(i, j),
                                           {{c.dtype, block, at(dq, i)},
                                            {c.dtype, block, at(dk, j)},
                                            {c.dtype, block, at(dv, j)}},
                                           ws, wsBytes, stream);
            continue;
          }
          const bool first = j == 0;
          void *acc = j % 2 ? at(merged, i) : at(y, i);
          float *accStats = j % 2 ? statsAt(mergedStats, i) : statsAt(stats, i);
          st = cuda::launchAttention(
              ringAttrs, ringIn(i, j),
              {{c.dtype, block, first ? at(y, i) : at(part, i)},
               {DType::F32, statsBlock,
                first ? statsAt(stats, i) : statsAt(partStats, i)}},
              stream);
          if (first || !st.isOk())
            continue;
          void *prev = j % 2 ? at(y, i) : at(merged, i);
          float *prevStats =
              j % 2 ? statsAt(stats, i) : statsAt(mergedStats, i);
          AttentionMergeAttrs mergeAttrs;
          mergeAttrs.sequenceFirst = true;
          st = cuda::launchKernel(
              OpCode::AttentionMerge, OpAttrs(mergeAttrs),
              {{c.dtype, block, prev},
               {DType::F32, statsBlock, prevStats},
               {c.dtype, block, at(part, i)},
               {DType::F32, statsBlock, statsAt(partStats, i)}},
              {{c.dtype, block, acc}, {DType::F32, statsBlock, accStats}},
              stream);
        }
        if (!st.isOk()) {
          std::printf("  %s\n", st.message().c_str());
          ok = false;
        }
      }
      float t = 0;
      ok = ok && check(cudaEventRecord(stop, stream), "cudaEventRecord") &&
           check(cudaEventSynchronize(stop), "the kernels") &&
           check(cudaEventElapsedTime(&t, start, stop), "elapsed time");
      if (ok && it >= 5)
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms.empty() ? 0.0 : double(ms[ms.size() / 2]);
  };
  const double forwardMs = median(false), backwardMs = median(true);
  if (ok) {
    const double flops =
        2.0 * double(c.heads) * double(c.sq) * double(c.sk) * double(c.d);
    std::printf("%-58s fwd %8.3f ms %6.1f TFLOP/s | bwd %8.3f ms %6.1f "
                "TFLOP/s\n",
                name.c_str(), forwardMs, flops / (forwardMs * 1e-3) / 1e12,
                backwardMs, 2.5 * flops / (backwardMs * 1e-3) / 1e12);
  } else {
    std::printf("%-58s FAILED\n", name.c_str());
  }
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  if (stream)
    cudaStreamDestroy(stream);
  for (void *p :
       {q, k, v, y, dy, dq, dk, dv, ws, part, merged,
        static_cast<void *>(starts), static_cast<void *>(stats),
        static_cast<void *>(partStats), static_cast<void *>(mergedStats)})
    if (p)
      cudaFree(p);
  return ok;
}

bool runConfig(const Config &c) {
  if (c.chunks > 1)
    return runChunkedConfig(c);
  const std::string name = configName(c);
  const size_t es = dtypeSize(c.dtype);
  const Shape qShape = {c.batch, c.heads, c.sq, c.d};
  const Shape kShape = {c.batch, c.heads, c.sk, c.d};
  const Shape maskShape = {c.sq, c.sk};
  const int64_t nq = shapeNumElements(qShape), nk = shapeNumElements(kShape);
  void *q = nullptr, *k = nullptr, *v = nullptr, *y = nullptr, *m = nullptr;
  void *dy = nullptr, *dq = nullptr, *dk = nullptr, *dv = nullptr,
       *ws = nullptr, *stats = nullptr;
  const Shape statsShape = {c.batch, c.heads, c.sq};
  bool ok = check(cudaMalloc(&q, nq * es), "cudaMalloc") &&
            check(cudaMalloc(&stats, shapeNumElements(statsShape) * 4),
                  "cudaMalloc") &&
            check(cudaMalloc(&k, nk * es), "cudaMalloc") &&
            check(cudaMalloc(&v, nk * es), "cudaMalloc") &&
            check(cudaMalloc(&y, nq * es), "cudaMalloc") &&
            check(cudaMalloc(&dy, nq * es), "cudaMalloc") &&
            check(cudaMalloc(&dq, nq * es), "cudaMalloc") &&
            check(cudaMalloc(&dk, nk * es), "cudaMalloc") &&
            check(cudaMalloc(&dv, nk * es), "cudaMalloc") &&
            (!c.mask || check(cudaMalloc(&m, c.sq * c.sk * es), "cudaMalloc"));
  ok = ok && fillRandom(q, c.dtype, nq, 2.f, 1) &&
       fillRandom(k, c.dtype, nk, 2.f, 2) &&
       fillRandom(v, c.dtype, nk, 1.f, 3) &&
       fillRandom(dy, c.dtype, nq, 1.f, 4) &&
       (!c.mask || check(cudaMemset(m, 0, c.sq * c.sk * es), "cudaMemset"));
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ok = ok && check(cudaStreamCreate(&stream), "cudaStreamCreate") &&
       check(cudaEventCreate(&start), "cudaEventCreate") &&
       check(cudaEventCreate(&stop), "cudaEventCreate");

  AttentionAttrs attrs;
  attrs.causal = c.causal;
  attrs.scale = 1.0 / std::sqrt(double(c.d));
  attrs.savedStats = c.tf32;
  const cuda::KernelOptions options{c.tf32};
  std::vector<DeviceTensor> inputs = {
      {c.dtype, qShape, q}, {c.dtype, kShape, k}, {c.dtype, kShape, v}};
  if (c.mask)
    inputs.push_back({c.dtype, maskShape, m});
  const DeviceTensor out{c.dtype, qShape, y};
  std::vector<DeviceTensor> outputs = {out};
  if (c.tf32)
    outputs.push_back({DType::F32, statsShape, stats});

  // The backward: in(dy, q, k, v[, mask][, out, stats]) out(dq, dk, dv).
  std::vector<DeviceTensor> gradInputs = {{c.dtype, qShape, dy}};
  gradInputs.insert(gradInputs.end(), inputs.begin(), inputs.end());
  if (c.tf32)
    gradInputs.insert(gradInputs.end(), outputs.begin(), outputs.end());
  const std::vector<DeviceTensor> gradOutputs = {
      {c.dtype, qShape, dq}, {c.dtype, kShape, dk}, {c.dtype, kShape, dv}};
  const size_t wsBytes = cuda::attentionGradWorkspaceBytes(attrs, gradInputs);
  ok = ok && (wsBytes == 0 || check(cudaMalloc(&ws, wsBytes), "cudaMalloc"));

  if (c.forceGeneric)
    setenv("PARACC_ATTENTION_KERNEL", "generic", 1);
  if (c.recompute)
    setenv("PARACC_ATTENTION_BWD", "recompute", 1);
  // Times `launch` (which returns a Status): the median and minimum in ms.
  auto timeIt = [&](const char *what, auto &&launch, std::vector<float> &ms) {
    for (int it = 0; ok && it < 25; ++it) {
      ok = check(cudaEventRecord(start, stream), "cudaEventRecord");
      const Status st = launch();
      if (!st.isOk()) {
        std::printf("  %s: %s\n", what, st.message().c_str());
        ok = false;
        break;
      }
      ok = ok && check(cudaEventRecord(stop, stream), "cudaEventRecord") &&
           check(cudaEventSynchronize(stop), "the kernel");
      float t = 0;
      ok = ok && check(cudaEventElapsedTime(&t, start, stop), "elapsed time");
      if (ok && it >= 5)
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
  };
  std::vector<float> ms, gradMs;
  timeIt(
      "launchAttention",
      [&] {
        return cuda::launchAttention(attrs, inputs, outputs, stream, options);
      },
      ms);
  timeIt(
      "launchAttentionGrad",
      [&] {
        return cuda::launchAttentionGrad(attrs, gradInputs, gradOutputs, ws,
                                         wsBytes, stream, options);
      },
      gradMs);
  if (c.forceGeneric)
    unsetenv("PARACC_ATTENTION_KERNEL");
  if (c.recompute)
    unsetenv("PARACC_ATTENTION_BWD");

  // The results must be finite (a cheap sanity check; AttentionTest checks
  // the values).
  auto checkFinite = [&](const void *data, int64_t n, const char *what) {
    std::vector<unsigned char> host(size_t(n) * es);
    ok = ok && check(cudaMemcpy(host.data(), data, host.size(),
                                cudaMemcpyDeviceToHost),
                     "cudaMemcpy");
    int64_t bad = 0;
    for (int64_t i = 0; ok && i < n; i += 97) {
      float x = c.dtype == DType::F32
                    ? reinterpret_cast<float *>(host.data())[i]
                : c.dtype == DType::BF16
                    ? float(reinterpret_cast<BFloat16 *>(host.data())[i])
                    : float(reinterpret_cast<Half *>(host.data())[i]);
      bad += !std::isfinite(x);
    }
    if (bad)
      std::printf("  warning: %lld sampled %s elements are not finite\n",
                  (long long)bad, what);
  };
  checkFinite(y, nq, "y");
  checkFinite(dq, nq, "dq");
  checkFinite(dk, nk, "dk");
  checkFinite(dv, nk, "dv");

  if (ok) {
    const double median = ms[ms.size() / 2];
    const double gradMedian = gradMs[gradMs.size() / 2];
    double flops = 4.0 * double(c.batch) * double(c.heads) * double(c.sq) *
                   double(c.sk) * double(c.d);
    if (c.causal)
      flops /= 2;
    const double gradFlops = 2.5 * flops;
    std::printf("%-58s fwd %8.3f ms (min %8.3f) %6.1f TFLOP/s | bwd %8.3f ms "
                "(min %8.3f) %6.1f TFLOP/s | fwd+bwd %6.1f TFLOP/s\n",
                name.c_str(), median, ms.front(),
                flops / (median * 1e-3) / 1e12, gradMedian, gradMs.front(),
                gradFlops / (gradMedian * 1e-3) / 1e12,
                (flops + gradFlops) / ((median + gradMedian) * 1e-3) / 1e12);
  } else {
    std::printf("%-58s FAILED\n", name.c_str());
  }
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  if (stream)
    cudaStreamDestroy(stream);
  for (void *p : {q, k, v, y, m, dy, dq, dk, dv, ws, stats})
    if (p)
      cudaFree(p);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 0;
  }
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    std::printf("device 0: %s, sm_%d%d, %d SMs\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount);
  const std::string filter = argc > 1 ? argv[1] : "";

  std::vector<Config> configs;
  Config gpt; // The benchmark model.
  configs.push_back(gpt);
  Config c = gpt;
  c.recompute = true; // The same, the backward without atomics.
  configs.push_back(c);
  c = gpt;
  c.causal = false;
  configs.push_back(c);
  c = gpt;
  c.dtype = DType::F16;
  configs.push_back(c);
  c = gpt;
  c.heads = 8;
  c.d = 128;
  configs.push_back(c);
  c.recompute = true;
  configs.push_back(c);
  c.recompute = false;
  c.causal = false;
  configs.push_back(c);
  c = gpt;
  c.batch = 2;
  c.sq = c.sk = 4096;
  configs.push_back(c);
  c.heads = 8;
  c.d = 128;
  configs.push_back(c);
  c = gpt;
  c.mask = true;
  configs.push_back(c);
  c = gpt;
  c.forceGeneric = true;
  configs.push_back(c);
  c = gpt;
  c.dtype = DType::F32;
  configs.push_back(c);
  // f32 on the tensor cores (TF32): the benchmark model and its batch 2 x
  // 4096 form, each with 16 heads of 64 and 8 of 128.
  for (int64_t batch : {int64_t(8), int64_t(2)})
    for (int64_t d : {int64_t(64), int64_t(128)}) {
      c = gpt;
      c.dtype = DType::F32;
      c.tf32 = true;
      c.batch = batch;
      c.sq = c.sk = 8192 / batch;
      c.heads = 1024 / d;
      c.d = d;
      configs.push_back(c);
    }
  // Context parallelism's chunks against the whole attention: seq 8192
  // and 32768, one sequence of 16 heads of 128 (the whole first, then 2 cp
  // chunks for cp 2, 4 and 8).
  for (int64_t s : {int64_t(8192), int64_t(32768)})
    for (int64_t chunks : {int64_t(1), int64_t(4), int64_t(8), int64_t(16)}) {
      c = gpt;
      c.batch = 1;
      c.heads = 16;
      c.d = 128;
      c.sq = c.sk = s;
      c.chunks = chunks;
      configs.push_back(c);
      // Ring attention's blocks (cp = chunks: one block per rank).
      if (chunks > 1 && chunks <= 8) {
        c.ring = true;
        configs.push_back(c);
      }
    }

  int failed = 0;
  for (const Config &cfg : configs)
    if (filter.empty() || configName(cfg).find(filter) != std::string::npos)
      failed += !runConfig(cfg);
  return failed ? 1 : 0;
}
