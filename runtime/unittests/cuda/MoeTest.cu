//===- MoeTest.cu - The experts' GPU kernels against the CPU ----*- C++ -*-===//
//
// MoeExperts and MoeExpertsGrad on the GPU (cuda/Moe.cu: routing on the
// device, CUTLASS grouped products) against the CPU kernels (cpu/Moe.cpp,
// f32 from the same bf16 operands) for activations, gated or not, k from 1
// to 4, experts without tokens, more slots than the routing block's
// threads, and an index out of range (NaN for its token). Each case also
// runs captured in a CUDA graph and must equal the eager run bit for bit.
// Prints one line per case; exits 77 without an sm_90 device.
//
//===----------------------------------------------------------------------===//

#include "cuda/GroupedGemm.h"
#include "cuda/MoeKernels.h"

#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Tensor.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace paracc::rt;
using paracc::rt::cuda::DeviceTensor;

namespace {

struct Case {
  int64_t tokens, hidden, inner, experts, k;
  bool gated;
  int activation; // 0 silu, 1 gelu, 2 gelu_tanh, 3 relu
  /// Experts picked only from [0, usedExperts): the others get no tokens.
  int64_t usedExperts;
  /// Token 1's first pick is this expert (out of range when >= experts).
  int64_t badIndex = -1;
};

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// A host tensor and its device copy.
struct Operand {
  Tensor host;
  DeviceTensor device;
};

bool makeOperand(DType dtype, Shape shape, Operand &o) {
  StatusOr<Tensor> t = Tensor::allocate(dtype, shape);
  if (!t.isOk())
    return false;
  o.host = std::move(*t);
  o.device = {dtype, shape, nullptr};
  return cudaMalloc(&o.device.data, std::max<size_t>(o.host.byteSize(), 1)) ==
         cudaSuccess;
}

bool upload(Operand &o) {
  return cudaMemcpy(o.device.data, o.host.data(), o.host.byteSize(),
                    cudaMemcpyHostToDevice) == cudaSuccess;
}

void fillBf16(Operand &o, std::mt19937 &rng, float scale, bool positive) {
  std::uniform_real_distribution<float> u(positive ? 0.05f : -1.f, 1.f);
  auto *p = o.host.as<uint16_t>();
  for (int64_t i = 0; i < o.host.numElements(); ++i)
    p[i] = toBf16(scale * u(rng));
}

/// The GPU's result as floats.
std::vector<float> download(const DeviceTensor &t) {
  std::vector<uint16_t> bits(size_t(t.numElements()));
  cudaMemcpy(bits.data(), t.data, bits.size() * 2, cudaMemcpyDeviceToHost);
  std::vector<float> out(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    out[i] = fromBf16(bits[i]);
  return out;
}

std::vector<float> hostFloats(const Tensor &t) {
  std::vector<float> out(size_t(t.numElements()));
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = fromBf16(t.as<uint16_t>()[i]);
  return out;
}

/// Compares `got` with `want` (bf16 intermediates on the GPU against f32
/// on the CPU): within 3e-2 (|want| + rms(want)). Rows of a token whose
/// pick is out of range must be NaN on the GPU and are skipped.
bool compare(const char *name, const std::vector<float> &got,
             const std::vector<float> &want, int64_t rowLength, int64_t nanRow,
             std::string &report) {
  double sumSq = 0;
  for (float w : want)
    sumSq += double(w) * w;
  const double rms = want.empty() ? 0 : std::sqrt(sumSq / want.size());
  double worst = 0;
  bool ok = true;
  for (size_t i = 0; i < got.size(); ++i) {
    if (nanRow >= 0 && int64_t(i) / rowLength == nanRow) {
      if (!std::isnan(got[i]))
        ok = false;
      continue;
    }
    const double err = std::fabs(double(got[i]) - want[i]);
    const double tol = 3e-2 * (std::fabs(want[i]) + rms) + 1e-6;
    worst = std::max(worst, err / tol);
    if (!(err <= tol))
      ok = false;
  }
  char line[160];
  std::snprintf(line, sizeof line, " %s: maxErr/tol=%.3g rms=%.3g%s", name,
                worst, rms, ok ? "" : " MISMATCH");
  report += line;
  return ok;
}

const char *activationName(int a) {
  static const char *names[] = {"silu", "gelu", "gelu_tanh", "relu"};
  return names[a];
}

/// Runs `launch` eagerly, then captured in a graph; true when both ran and
/// the graph's results equal the eager ones bit for bit.
template <typename Launch>
bool eagerAndGraph(Launch launch, const std::vector<DeviceTensor> &outs,
                   cudaStream_t stream, std::string &error) {
  Status st = launch(stream);
  if (!st.isOk() || cudaStreamSynchronize(stream) != cudaSuccess) {
    error = st.isOk() ? cudaGetErrorString(cudaGetLastError()) : st.message();
    return false;
  }
  std::vector<std::vector<float>> eager;
  for (const DeviceTensor &t : outs)
    eager.push_back(download(t));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) !=
      cudaSuccess) {
    error = "begin capture failed";
    return false;
  }
  const Status captured = launch(stream);
  cudaError_t end = cudaStreamEndCapture(stream, &graph);
  if (!captured.isOk() || end != cudaSuccess ||
      cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess ||
      cudaGraphLaunch(exec, stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess) {
    error = !captured.isOk() ? captured.message()
                             : std::string("graph: ") +
                                   cudaGetErrorString(cudaGetLastError());
    return false;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  for (size_t i = 0; i < outs.size(); ++i) {
    std::vector<float> g = download(outs[i]);
    if (std::memcmp(g.data(), eager[i].data(), g.size() * 4) != 0) {
      error = "the graph's results differ from the eager run's";
      return false;
    }
  }
  return true;
}

bool runCase(const Case &c, cudaStream_t stream) {
  std::mt19937 rng(uint32_t(c.tokens * 131 + c.experts * 7 + c.k));
  const int64_t f = c.gated ? 2 * c.inner : c.inner;
  Operand x, idx, w, wIn, wOut, dy;
  if (!makeOperand(DType::BF16, {c.tokens, c.hidden}, x) ||
      !makeOperand(DType::I64, {c.tokens, c.k}, idx) ||
      !makeOperand(DType::BF16, {c.tokens, c.k}, w) ||
      !makeOperand(DType::BF16, {c.experts, f, c.hidden}, wIn) ||
      !makeOperand(DType::BF16, {c.experts, c.hidden, c.inner}, wOut) ||
      !makeOperand(DType::BF16, {c.tokens, c.hidden}, dy)) {
    std::printf("FAIL case setup: allocation\n");
    return false;
  }
  fillBf16(x, rng, 1.f, false);
  fillBf16(w, rng, 1.f, true);
  fillBf16(wIn, rng, 1.f / std::sqrt(float(c.hidden)), false);
  fillBf16(wOut, rng, 1.f / std::sqrt(float(c.inner)), false);
  fillBf16(dy, rng, 1.f, false);
  // Distinct experts per token (as top-k picks them).
  auto *ids = idx.host.as<int64_t>();
  for (int64_t t = 0; t < c.tokens; ++t) {
    std::vector<int64_t> pool(size_t(c.usedExperts));
    for (int64_t e = 0; e < c.usedExperts; ++e)
      pool[size_t(e)] = e;
    std::shuffle(pool.begin(), pool.end(), rng);
    for (int64_t j = 0; j < c.k; ++j)
      ids[t * c.k + j] = pool[size_t(j)];
  }
  const int64_t nanRow = c.badIndex >= 0 ? 1 : -1;
  if (c.badIndex >= 0)
    ids[c.k] = c.badIndex;
  for (Operand *o : {&x, &idx, &w, &wIn, &wOut, &dy})
    upload(*o);

  char title[200];
  std::snprintf(title, sizeof title,
                "T=%lld H=%lld I=%lld E=%lld k=%lld %s%s%s",
                (long long)c.tokens, (long long)c.hidden, (long long)c.inner,
                (long long)c.experts, (long long)c.k,
                activationName(c.activation), c.gated ? " gated" : "",
                c.usedExperts < c.experts ? " idle-experts" : "");
  std::string name = title;
  if (c.badIndex >= 0)
    name += " bad-index";

  MoeExpertsAttrs attrs;
  attrs.activation = c.activation;
  attrs.gated = c.gated;
  InstrAttrs raw;
  raw.ints = {c.activation, c.gated ? 1 : 0};
  bool ok = true;
  for (bool backward : {false, true}) {
    const OpCode op = backward ? OpCode::MoeExpertsGrad : OpCode::MoeExperts;
    std::vector<Operand *> ins = {&x, &idx, &w, &wIn, &wOut};
    if (backward)
      ins.insert(ins.begin(), &dy);
    std::vector<Operand> outs(backward ? 4 : 1);
    const Operand *like[] = {&x, &w, &wIn, &wOut};
    for (size_t i = 0; i < outs.size(); ++i)
      makeOperand(DType::BF16, like[i]->host.shape(), outs[i]);
    std::vector<DeviceTensor> dIn, dOut;
    std::vector<const Tensor *> hIn;
    std::vector<Tensor *> hOut;
    for (Operand *o : ins) {
      dIn.push_back(o->device);
      hIn.push_back(&o->host);
    }
    for (Operand &o : outs) {
      dOut.push_back(o.device);
      hOut.push_back(&o.host);
    }
    std::string report = std::string(backward ? "grad " : "") + name;
    // The CPU reference refuses an index out of range: compare the other
    // tokens against a run with that pick moved in range.
    if (c.badIndex >= 0)
      ids[c.k] = (ids[c.k + 1] + 1) % c.experts;
    Status ref = runCpuKernel(op, raw, hIn, hOut);
    if (c.badIndex >= 0)
      ids[c.k] = c.badIndex;
    const size_t bytes = cuda::moeWorkspaceBytes(op, dIn);
    void *workspace = nullptr;
    if (!ref.isOk() || bytes == 0 ||
        cudaMalloc(&workspace, bytes) != cudaSuccess) {
      std::printf("FAIL %s: %s\n", report.c_str(),
                  !ref.isOk() ? ref.message().c_str()
                              : "no GPU workspace (kernels not available)");
      ok = false;
      continue;
    }
    std::string error;
    auto launch = [&](cudaStream_t s) {
      return cuda::launchMoe(op, attrs, dIn, dOut, workspace, bytes, s);
    };
    if (!eagerAndGraph(launch, dOut, stream, error)) {
      std::printf("FAIL %s: %s\n", report.c_str(), error.c_str());
      ok = false;
      cudaFree(workspace);
      continue;
    }
    cudaFree(workspace);
    bool same = true;
    const char *names[] = {backward ? "dx" : "y", "dweights", "dw_in",
                           "dw_out"};
    for (size_t i = 0; i < outs.size(); ++i) {
      // Only dx and dweights have a token's rows; the weight gradients
      // of a case with a bad index take the other tokens' sums (skipped).
      if (c.badIndex >= 0 && i >= 2)
        continue;
      // dweights: only the bad pick itself (element k) is NaN.
      const int64_t rowLength = i == 1 ? 1 : c.hidden;
      const int64_t nanAt = nanRow < 0 ? -1 : i == 1 ? c.k : nanRow;
      same &= compare(names[i], download(outs[i].device),
                      hostFloats(outs[i].host), rowLength, nanAt, report);
    }
    std::printf("%s %s\n", same ? "PASS" : "FAIL", report.c_str());
    ok &= same;
    for (Operand &o : outs)
      cudaFree(o.device.data);
  }
  for (Operand *o : {&x, &idx, &w, &wIn, &wOut, &dy})
    cudaFree(o->device.data);
  return ok;
}

} // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  if (!cuda::groupedGemmAvailable()) {
    std::printf("grouped products not available here (sm_90 and CUTLASS "
                "needed): skipped\n");
    return 77;
  }
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  const Case cases[] = {
      {64, 64, 32, 4, 2, true, 0, 4},       {200, 128, 64, 8, 2, true, 1, 8},
      {37, 32, 16, 3, 1, false, 3, 3},      {256, 64, 64, 8, 2, true, 0, 4},
      {1000, 256, 128, 16, 4, true, 2, 16}, {700, 64, 32, 64, 6, true, 0, 64},
      {48, 64, 32, 4, 2, true, 0, 4, 7},
  };
  int failures = 0;
  for (const Case &c : cases)
    failures += runCase(c, stream) ? 0 : 1;
  cudaStreamDestroy(stream);
  std::printf("%d case(s) failed\n", failures);
  return failures ? 1 : 0;
}
