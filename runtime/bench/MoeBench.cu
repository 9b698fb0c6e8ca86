//===- MoeBench.cu - The experts against dense products ---------*- C++ -*-===//
//
// For a GPT-MoE layer (8192 tokens, hidden 1024, 8 experts, top-2, bf16):
//   - one grouped product (CUTLASS, sizes on the device) of the 16384
//     routed rows against the experts' [F, H] weights, next to one dense
//     cuBLASLt product of the same total size (16384 x F x 1024);
//   - MoeExperts and MoeExpertsGrad as the executor runs them (routing,
//     gathers, products, activation, combine), in TFLOP/s of their
//     products.
// Times are medians of 20 runs after 3 warm-ups. Prints "skipped" without
// an sm_90 GPU.
//
//===----------------------------------------------------------------------===//

#include "cuda/Gemm.h"
#include "cuda/GroupedGemm.h"
#include "cuda/MoeKernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

namespace {

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));            \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

void check(const Status &st) {
  if (!st.isOk()) {
    std::fprintf(stderr, "%s\n", st.message().c_str());
    std::exit(2);
  }
}

void *randomBf16(size_t n, uint32_t seed, float scale) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<uint16_t> host(n);
  for (uint16_t &h : host) {
    float f = u(rng);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    h = uint16_t(bits >> 16);
  }
  void *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, n * 2));
  CHECK_CUDA(cudaMemcpy(p, host.data(), n * 2, cudaMemcpyHostToDevice));
  return p;
}

double medianMs(const std::function<void()> &run, cudaStream_t stream) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i)
    run();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    cudaEventRecord(a, stream);
    run();
    cudaEventRecord(b, stream);
    CHECK_CUDA(cudaEventSynchronize(b));
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms[ms.size() / 2];
}

struct Layer {
  const char *name;
  int64_t inner;
  bool gated;
  int activation;
};

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      !groupedGemmAvailable()) {
    std::printf("no sm_90 GPU with grouped products: skipped\n");
    return 0;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device 0: %s\n", prop.name);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  auto engine = GemmEngine::create(size_t(32) << 20, /*allowTf32=*/false);
  if (!engine) {
    std::fprintf(stderr, "%s\n", engine.status().message().c_str());
    return 2;
  }
  const int64_t T = 8192, H = 1024, E = 8, k = 2, N = T * k;
  // Top-2 of random router scores: distinct experts, roughly balanced.
  std::vector<int64_t> ids(static_cast<size_t>(N));
  std::mt19937 rng(7);
  for (int64_t t = 0; t < T; ++t) {
    std::vector<int64_t> pool = {0, 1, 2, 3, 4, 5, 6, 7};
    std::shuffle(pool.begin(), pool.end(), rng);
    ids[size_t(t * k)] = pool[0];
    ids[size_t(t * k + 1)] = pool[1];
  }
  std::vector<int32_t> offsets(E + 1, 0);
  for (int64_t e : ids)
    ++offsets[size_t(e + 1)];
  for (int64_t e = 0; e < E; ++e)
    offsets[size_t(e + 1)] += offsets[size_t(e)];
  int64_t *dIds = nullptr;
  int32_t *dOffsets = nullptr;
  CHECK_CUDA(cudaMalloc(&dIds, size_t(N) * 8));
  CHECK_CUDA(
      cudaMemcpy(dIds, ids.data(), size_t(N) * 8, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMalloc(&dOffsets, size_t(E + 1) * 4));
  CHECK_CUDA(cudaMemcpy(dOffsets, offsets.data(), size_t(E + 1) * 4,
                        cudaMemcpyHostToDevice));

  const Layer layers[] = {{"gelu, I=4096", 4096, false, 1},
                          {"swiglu, I=2048", 2048, true, 0}};
  for (const Layer &l : layers) {
    const int64_t I = l.inner, F = l.gated ? 2 * I : I;
    std::printf("\nT=%lld H=%lld E=%lld k=%lld %s (F=%lld)\n", (long long)T,
                (long long)H, (long long)E, (long long)k, l.name, (long long)F);
    void *rows = randomBf16(size_t(N * H), 1, 1.f);
    void *wIn = randomBf16(size_t(E * F * H), 2, 0.03f);
    void *wOut = randomBf16(size_t(E * H * I), 3, 0.02f);
    void *out = nullptr;
    CHECK_CUDA(cudaMalloc(&out, size_t(N * F) * 2));
    void *scratch = nullptr;
    CHECK_CUDA(cudaMalloc(&scratch, groupedGemmScratchBytes(int(E), F)));
    GroupedProblem g;
    g.product = GroupedProduct::RowsTimesWeightT;
    g.groups = int(E);
    g.n = F;
    g.k = H;
    g.a = rows;
    g.b = wIn;
    g.d = out;
    g.rowOffsets = dOffsets;
    const double productFlops = 2.0 * double(N) * double(F) * double(H);
    const double groupedMs =
        medianMs([&] { check(runGroupedGemm(g, scratch, stream)); }, stream);
    const double denseMs = medianMs(
        [&] {
          check((*engine)->matmul(DeviceTensor{DType::BF16, {N, H}, rows},
                                  DeviceTensor{DType::BF16, {H, F}, wIn},
                                  DeviceTensor{DType::BF16, {N, F}, out},
                                  nullptr, Epilogue::None, stream));
        },
        stream);
    std::printf("  grouped product %lldx%lldx%lld over %lld experts: %.4f ms "
                "%.1f TFLOP/s | dense cuBLASLt same size: %.4f ms %.1f "
                "TFLOP/s | ratio %.3f\n",
                (long long)N, (long long)F, (long long)H, (long long)E,
                groupedMs, productFlops / groupedMs / 1e9, denseMs,
                productFlops / denseMs / 1e9, denseMs / groupedMs);

    // The whole layer, forward and backward.
    void *x = randomBf16(size_t(T * H), 4, 1.f);
    void *dy = randomBf16(size_t(T * H), 5, 1.f);
    void *w = randomBf16(size_t(T * k), 6, 0.5f);
    void *y = nullptr, *dx = nullptr, *dw = nullptr, *dwIn = nullptr,
         *dwOut = nullptr;
    CHECK_CUDA(cudaMalloc(&y, size_t(T * H) * 2));
    CHECK_CUDA(cudaMalloc(&dx, size_t(T * H) * 2));
    CHECK_CUDA(cudaMalloc(&dw, size_t(T * k) * 2));
    CHECK_CUDA(cudaMalloc(&dwIn, size_t(E * F * H) * 2));
    CHECK_CUDA(cudaMalloc(&dwOut, size_t(E * H * I) * 2));
    auto bf = [](void *p, Shape s) {
      return DeviceTensor{DType::BF16, std::move(s), p};
    };
    const DeviceTensor dX = bf(x, {T, H}), dIdx{DType::I64, {T, k}, dIds},
                       dW = bf(w, {T, k}), dIn = bf(wIn, {E, F, H}),
                       dOut = bf(wOut, {E, H, I});
    MoeExpertsAttrs attrs;
    attrs.activation = l.activation;
    attrs.gated = l.gated;
    const std::vector<DeviceTensor> fwdIn = {dX, dIdx, dW, dIn, dOut};
    const std::vector<DeviceTensor> bwdIn = {
        bf(dy, {T, H}), dX, dIdx, dW, dIn, dOut};
    const size_t bytes =
        std::max(moeWorkspaceBytes(OpCode::MoeExperts, fwdIn),
                 moeWorkspaceBytes(OpCode::MoeExpertsGrad, bwdIn));
    void *workspace = nullptr;
    CHECK_CUDA(cudaMalloc(&workspace, bytes));
    const double fwdMs = medianMs(
        [&] {
          check(launchMoe(OpCode::MoeExperts, attrs, fwdIn, {bf(y, {T, H})},
                          workspace, bytes, stream));
        },
        stream);
    const double bwdMs = medianMs(
        [&] {
          check(launchMoe(OpCode::MoeExpertsGrad, attrs, bwdIn,
                          {bf(dx, {T, H}), bf(dw, {T, k}), bf(dwIn, {E, F, H}),
                           bf(dwOut, {E, H, I})},
                          workspace, bytes, stream));
        },
        stream);
    const double in = 2.0 * N * F * H, outF = 2.0 * N * H * I;
    std::printf("  moe_experts forward: %.4f ms %.1f TFLOP/s | backward: "
                "%.4f ms %.1f TFLOP/s (its products: the first recomputed, "
                "operand and weight gradients of both)\n",
                fwdMs, (in + outF) / fwdMs / 1e9, bwdMs,
                (3 * in + 2 * outF) / bwdMs / 1e9);
    for (void *p : {rows, wIn, wOut, out, scratch, x, dy, w, y, dx, dw, dwIn,
                    dwOut, workspace})
      cudaFree(p);
  }
  return 0;
}
