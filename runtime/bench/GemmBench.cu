//===- GemmBench.cpp - paracc's matmul against cuBLASLt alone --*- C++ -*-===//
//
// Times Y[M,N] = X[M,K] W[K,N] in bf16 (f32 accumulation) on the GPT-406M
// shapes (M = 8192 tokens) and 8192^3, two ways in the same process:
//   - paracc: GemmEngine::matmul, as the executor calls it (algorithm tuned
//     on first use, cached per shape);
//   - cuBLASLt alone: one cublasLtMatmul with the heuristic's first
//     algorithm, the way a plain cuBLASLt user calls it.
// Each is the median of 30 CUDA-event-timed products after 5 warm-ups,
// rotating over 4 operand sets so that the inputs do not sit in L2.
// Prints one line per shape: ms, TFLOP/s and the ratio paracc / cuBLASLt.
//
//===----------------------------------------------------------------------===//

#include "cuda/Gemm.h"

#include <algorithm>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <vector>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

namespace {

constexpr int kSets = 4, kWarmup = 5, kTimed = 30;
constexpr size_t kWorkspace = 32u << 20;

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t _e = (call);                                                   \
    if (_e != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(_e));  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_LT(call)                                                         \
  do {                                                                         \
    cublasStatus_t _s = (call);                                                \
    if (_s != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "%s failed: %d\n", #call, int(_s));                 \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void fillKernel(__nv_bfloat16 *p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    p[i] = __float2bfloat16((float(h & 0xffff) / 65536.0f - 0.5f) * 0.1f);
  }
}

void *randomBuffer(size_t elements, uint32_t seed) {
  void *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, elements * 2));
  fillKernel<<<1024, 256>>>(static_cast<__nv_bfloat16 *>(p), elements, seed);
  return p;
}

template <typename F> double medianMs(F &&launch, cudaStream_t stream) {
  for (int i = 0; i < kWarmup; ++i)
    launch(i % kSets);
  std::vector<cudaEvent_t> events(kTimed + 1);
  for (auto &e : events)
    CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < kTimed; ++i) {
    CHECK_CUDA(cudaEventRecord(events[i], stream));
    launch(i % kSets);
  }
  CHECK_CUDA(cudaEventRecord(events[kTimed], stream));
  CHECK_CUDA(cudaEventSynchronize(events[kTimed]));
  std::vector<float> ms(kTimed);
  for (int i = 0; i < kTimed; ++i)
    CHECK_CUDA(cudaEventElapsedTime(&ms[i], events[i], events[i + 1]));
  for (auto &e : events)
    cudaEventDestroy(e);
  std::sort(ms.begin(), ms.end());
  return ms[kTimed / 2];
}

/// The plain cuBLASLt call: row-major Y = X W as column-major
/// Y^T = W^T X^T, heuristic's first algorithm.
struct PlainLt {
  cublasLtHandle_t handle;
  void *workspace;
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatmulAlgo_t algo;

  PlainLt(int64_t m, int64_t n, int64_t k) {
    CHECK_LT(cublasLtCreate(&handle));
    CHECK_CUDA(cudaMalloc(&workspace, kWorkspace));
    CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CHECK_LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, n, k, n));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, k, m, k));
    CHECK_LT(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, n, m, n));
    cublasLtMatmulPreference_t pref;
    CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
    size_t ws = kWorkspace;
    CHECK_LT(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)));
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    CHECK_LT(cublasLtMatmulAlgoGetHeuristic(handle, desc, la, lb, ld, ld, pref,
                                            1, &result, &found));
    cublasLtMatmulPreferenceDestroy(pref);
    algo = result.algo;
  }
  ~PlainLt() {
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cudaFree(workspace);
    cublasLtDestroy(handle);
  }
  void run(const void *x, const void *w, void *y, cudaStream_t stream) {
    float one = 1, zero = 0;
    CHECK_LT(cublasLtMatmul(handle, desc, &one, w, la, x, lb, &zero, y, ld, y,
                            ld, &algo, workspace, kWorkspace, stream));
  }
};

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 0;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  auto engine = GemmEngine::create(kWorkspace, /*allowTf32=*/false);
  if (!engine) {
    std::fprintf(stderr, "%s\n", engine.status().message().c_str());
    return 2;
  }
  struct Problem {
    const char *what;
    int64_t m, n, k;
  };
  const Problem shapes[] = {
      {"q/k/v/proj 1024x1024", 8192, 1024, 1024},
      {"fused qkv 3072x1024", 8192, 3072, 1024},
      {"fc1 4096x1024", 8192, 4096, 1024},
      {"fc2 1024x4096", 8192, 1024, 4096},
      {"head 50304x1024", 8192, 50304, 1024},
      {"8192^3", 8192, 8192, 8192},
  };
  std::printf("%-22s %10s %10s %10s %10s %7s\n", "shape (M=8192) NxK",
              "paracc ms", "TFLOP/s", "cuBLASLt", "TFLOP/s", "ratio");
  for (const Problem &s : shapes) {
    std::vector<void *> x(kSets), w(kSets), y(kSets);
    for (int i = 0; i < kSets; ++i) {
      x[i] = randomBuffer(size_t(s.m * s.k), 17 + i);
      w[i] = randomBuffer(size_t(s.k * s.n), 91 + i);
      CHECK_CUDA(cudaMalloc(&y[i], size_t(s.m * s.n) * 2));
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    auto tensor = [](void *p, paracc::rt::Shape shape) {
      return DeviceTensor{DType::BF16, std::move(shape), p};
    };
    double oursMs = medianMs(
        [&](int i) {
          Status st = (*engine)->matmul(tensor(x[i], {s.m, s.k}),
                                        tensor(w[i], {s.k, s.n}),
                                        tensor(y[i], {s.m, s.n}), nullptr,
                                        Epilogue::None, stream);
          if (!st) {
            std::fprintf(stderr, "%s\n", st.message().c_str());
            std::exit(2);
          }
        },
        stream);
    PlainLt plain(s.m, s.n, s.k);
    double plainMs =
        medianMs([&](int i) { plain.run(x[i], w[i], y[i], stream); }, stream);
    double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
    std::printf("%-22s %10.4f %10.1f %10.4f %10.1f %7.3f\n", s.what, oursMs,
                flops / oursMs / 1e9, plainMs, flops / plainMs / 1e9,
                plainMs / oursMs);
    for (int i = 0; i < kSets; ++i) {
      cudaFree(x[i]);
      cudaFree(w[i]);
      cudaFree(y[i]);
    }
  }
  return 0;
}
