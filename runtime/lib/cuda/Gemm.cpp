//===- Gemm.cpp - Matrix products through cuBLASLt -------------*- C++ -*-===//
//
// A row-major product Y[M,N] = A[M,K] B[K,N] is the column-major product
// Y^T[N,M] = B^T[N,K] A^T[K,M], whose operands are the same buffers read
// column-major: cuBLASLt's A is our B (ld N), its B is our A (ld K), its D
// our Y (ld N). A bias on Y's last dim is then a bias on D's rows, which is
// what cuBLASLt's bias epilogue adds.
//
// The algorithm for a shape is chosen once: the heuristic's best
// kTuneCandidates (32; PARACC_GEMM_CANDIDATES) are timed on the first
// call's operands and the fastest is
// kept (PARACC_GEMM_TUNE=0 takes the heuristic's first instead).
//
//===----------------------------------------------------------------------===//

#include "cuda/Gemm.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

#define PARACC_CUBLAS(call)                                                    \
  do {                                                                         \
    cublasStatus_t _s = (call);                                                \
    if (_s != CUBLAS_STATUS_SUCCESS)                                           \
      return errorf("matmul: " #call " failed: cuBLAS status ", int(_s));      \
  } while (0)

static std::optional<cudaDataType_t> cudaTypeOf(DType t) {
  switch (t) {
  case DType::F32:
    return CUDA_R_32F;
  case DType::BF16:
    return CUDA_R_16BF;
  case DType::F16:
    return CUDA_R_16F;
  default:
    return std::nullopt;
  }
}

StatusOr<std::unique_ptr<GemmEngine>>
GemmEngine::create(size_t workspaceBytes, bool allowTf32) {
  std::unique_ptr<GemmEngine> e(new GemmEngine());
  PARACC_CUBLAS(cublasLtCreate(&e->handle_));
  if (workspaceBytes) {
    cudaError_t err = cudaMalloc(&e->workspace_, workspaceBytes);
    if (err != cudaSuccess)
      return errorf("matmul: cudaMalloc of the ", workspaceBytes,
                    "-byte cuBLASLt workspace failed: ",
                    cudaGetErrorString(err));
  }
  e->workspaceBytes_ = workspaceBytes;
  e->allowTf32_ = allowTf32;
  const char *tune = std::getenv("PARACC_GEMM_TUNE");
  e->tune_ = !(tune && std::string(tune) == "0");
  if (const char *n = std::getenv("PARACC_GEMM_CANDIDATES")) {
    int v = std::atoi(n);
    if (v >= 1 && v <= 64)
      e->tuneCandidates_ = v;
  }
  return e;
}

GemmEngine::~GemmEngine() {
  if (workspace_)
    cudaFree(workspace_);
  if (handle_)
    cublasLtDestroy(handle_);
}

namespace {
/// A MatMul instruction as one batched column-major problem.
struct MatMulShape {
  int64_t m, n, k;    // row-major Y[m, n] = A[m, k] B[k, n]
  int64_t batch;      // number of products
  int64_t strideA, strideB, strideY;
};
} // namespace

/// Flattens a MatMul's operands into a batched product, or fails when the
/// batch dims broadcast in a way one strided call cannot express.
static std::optional<MatMulShape> matmulShape(const DeviceTensor &a,
                                              const DeviceTensor &b,
                                              const DeviceTensor &y) {
  Shape as = a.shape, bs = b.shape;
  if (as.empty() || bs.empty())
    return std::nullopt;
  if (as.size() == 1)
    as.insert(as.begin(), 1);
  if (bs.size() == 1)
    bs.push_back(1);
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return std::nullopt;
  auto batchOf = [](const Shape &s) {
    int64_t p = 1;
    for (size_t i = 0; i + 2 < s.size(); ++i)
      p *= s[i];
    return p;
  };
  int64_t pa = batchOf(as), pb = batchOf(bs);
  MatMulShape r{m, n, k, 1, 0, 0, 0};
  if (pb == 1) {
    // One right matrix: fold A's batch into its rows.
    r.m = pa * m;
    r.strideY = r.m * n;
  } else if (pa == 1) {
    r.batch = pb;
    r.strideA = 0;
    r.strideB = k * n;
    r.strideY = m * n;
  } else {
    // Equal batch dims (element by element) only.
    Shape ba(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
    while (ba.size() < bb.size())
      ba.insert(ba.begin(), 1);
    while (bb.size() < ba.size())
      bb.insert(bb.begin(), 1);
    if (ba != bb)
      return std::nullopt;
    r.batch = pa;
    r.strideA = m * k;
    r.strideB = k * n;
    r.strideY = m * n;
  }
  if (y.numElements() != r.batch * r.m * n)
    return std::nullopt;
  return r;
}

bool GemmEngine::supportsMatMul(const DeviceTensor &a, const DeviceTensor &b,
                                const DeviceTensor &y) {
  return cudaTypeOf(a.dtype) && a.dtype == b.dtype && a.dtype == y.dtype &&
         matmulShape(a, b, y).has_value();
}

Status GemmEngine::run(const Problem &p, const void *a, const void *b,
                       void *d, const void *bias, float alpha, float beta,
                       cudaStream_t stream, const void *c) {
  if (!c)
    c = d;
  void *savedC = nullptr; // C set aside while tuning (freed below)
  cublasComputeType_t compute =
      p.type == CUDA_R_32F
          ? (allowTf32_ ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F)
          : CUBLAS_COMPUTE_32F;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
  // Descriptors are destroyed on every path.
  struct Cleanup {
    cublasLtMatmulDesc_t &desc;
    cublasLtMatrixLayout_t &la, &lb, &ld;
    ~Cleanup() {
      if (desc)
        cublasLtMatmulDescDestroy(desc);
      if (la)
        cublasLtMatrixLayoutDestroy(la);
      if (lb)
        cublasLtMatrixLayoutDestroy(lb);
      if (ld)
        cublasLtMatrixLayoutDestroy(ld);
    }
  } cleanup{desc, la, lb, ld};

  PARACC_CUBLAS(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F));
  cublasOperation_t opA = p.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opB = p.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  PARACC_CUBLAS(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof(opA)));
  PARACC_CUBLAS(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof(opB)));
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
  switch (p.epilogue) {
  case Epilogue::None:
    break;
  case Epilogue::Bias:
    epi = CUBLASLT_EPILOGUE_BIAS;
    break;
  case Epilogue::GeluTanhBias:
    epi = CUBLASLT_EPILOGUE_GELU_BIAS;
    break;
  case Epilogue::GeluTanh:
    epi = CUBLASLT_EPILOGUE_GELU;
    break;
  }
  PARACC_CUBLAS(cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)));
  if (bias)
    PARACC_CUBLAS(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  if (smCountTarget_ > 0)
    PARACC_CUBLAS(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &smCountTarget_,
        sizeof(smCountTarget_)));

  auto layout = [&](cublasLtMatrixLayout_t &l, int64_t rows, int64_t cols,
                    int64_t ldv, int64_t stride) -> Status {
    PARACC_CUBLAS(cublasLtMatrixLayoutCreate(&l, p.type, uint64_t(rows),
                                             uint64_t(cols), ldv));
    if (p.batch > 1) {
      int32_t count = int32_t(p.batch);
      PARACC_CUBLAS(cublasLtMatrixLayoutSetAttribute(
          l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
      PARACC_CUBLAS(cublasLtMatrixLayoutSetAttribute(
          l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
          sizeof(stride)));
    }
    return Status::ok();
  };
  PARACC_RETURN_IF_ERROR(layout(la, p.transA ? p.k : p.m,
                                p.transA ? p.m : p.k, p.lda, p.strideA));
  PARACC_RETURN_IF_ERROR(layout(lb, p.transB ? p.n : p.k,
                                p.transB ? p.k : p.n, p.ldb, p.strideB));
  {
    // D (and C) in the output type.
    PARACC_CUBLAS(cublasLtMatrixLayoutCreate(&ld, p.outType, uint64_t(p.m),
                                             uint64_t(p.n), p.ldd));
    if (p.batch > 1) {
      int32_t count = int32_t(p.batch);
      PARACC_CUBLAS(cublasLtMatrixLayoutSetAttribute(
          ld, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
      PARACC_CUBLAS(cublasLtMatrixLayoutSetAttribute(
          ld, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &p.strideD,
          sizeof(p.strideD)));
    }
  }

  Key key{int(p.type), p.transA, p.transB, p.m,       p.n,
          p.k,         p.lda,    p.ldb,    p.batch,   p.strideA,
          int(p.epilogue), p.hasC, p.hasResidual, int(p.outType)};
  auto it = algos_.find(key);
  if (it == algos_.end()) {
    cublasLtMatmulPreference_t pref = nullptr;
    PARACC_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    PARACC_CUBLAS(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes_,
        sizeof(workspaceBytes_)));
    std::vector<cublasLtMatmulHeuristicResult_t> results(
        size_t(tune_ ? tuneCandidates_ : 1));
    int found = 0;
    cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(
        handle_, desc, la, lb, ld, ld, pref, int(results.size()),
        results.data(), &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (s != CUBLAS_STATUS_SUCCESS || found == 0)
      return errorf("matmul: cuBLASLt has no algorithm for m=", p.m, " n=",
                    p.n, " k=", p.k, " batch=", p.batch);
    int best = 0;
    // Time the candidates on the real operands (not while the stream is
    // being captured into a graph). When D is also an input (beta * C, or
    // a residual in D's buffer), C is first copied aside: the timed runs
    // and this call read the copy.
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    cudaStreamIsCapturing(stream, &capture);
    bool readsD = p.hasC || (p.hasResidual && c == d);
    if (found > 1 && capture == cudaStreamCaptureStatusNone) {
      if (readsD) {
        size_t elem = p.outType == CUDA_R_32F ? 4 : 2;
        size_t bytes = elem * size_t(p.batch > 1 ? p.strideD * p.batch
                                                 : p.ldd * p.n);
        cudaError_t e = cudaMalloc(&savedC, bytes);
        if (e == cudaSuccess)
          e = cudaMemcpyAsync(savedC, d, bytes, cudaMemcpyDeviceToDevice,
                              stream);
        if (e != cudaSuccess)
          return errorf("matmul: setting C aside for tuning failed: ",
                        cudaGetErrorString(e));
        c = savedC;
      }
      auto timed = timeCandidates(desc, la, lb, ld, a, b, c, d, alpha, beta,
                                  results.data(), found, stream);
      if (!timed) {
        cudaFree(savedC);
        return timed.status();
      }
      best = *timed;
    }
    it = algos_.emplace(key, results[best].algo).first;
  }
  cublasStatus_t status =
      cublasLtMatmul(handle_, desc, &alpha, a, la, b, lb, &beta, c, ld, d, ld,
                     &it->second, workspace_, workspaceBytes_, stream);
  if (savedC) {
    cudaStreamSynchronize(stream);
    cudaFree(savedC);
  }
  if (status != CUBLAS_STATUS_SUCCESS)
    return errorf("matmul: cublasLtMatmul failed: cuBLAS status ",
                  int(status));
  return Status::ok();
}

StatusOr<int> GemmEngine::timeCandidates(
    cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t la,
    cublasLtMatrixLayout_t lb, cublasLtMatrixLayout_t ld, const void *a,
    const void *b, const void *c, void *d, float alpha, float beta,
    const cublasLtMatmulHeuristicResult_t *candidates, int count,
    cudaStream_t stream) {
  cudaEvent_t start = nullptr, stop = nullptr;
  if (cudaEventCreate(&start) != cudaSuccess ||
      cudaEventCreate(&stop) != cudaSuccess) {
    cudaEventDestroy(start);
    return errorf("matmul: cudaEventCreate failed while tuning");
  }
  int best = 0;
  float bestMs = 0;
  for (int i = 0; i < count; ++i) {
    float ms = 0;
    bool ok = true;
    // One untimed run, then kTuneRepeats timed ones.
    for (int r = 0; r <= kTuneRepeats && ok; ++r) {
      if (r == 1)
        cudaEventRecord(start, stream);
      ok = cublasLtMatmul(handle_, desc, &alpha, a, la, b, lb, &beta, c, ld,
                          d, ld, &candidates[i].algo, workspace_,
                          workspaceBytes_, stream) == CUBLAS_STATUS_SUCCESS;
    }
    cudaEventRecord(stop, stream);
    if (cudaEventSynchronize(stop) != cudaSuccess) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
      return errorf("matmul: a kernel failed while tuning: ",
                    cudaGetErrorString(cudaGetLastError()));
    }
    if (!ok || cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
      continue;
    if (i == 0 || ms < bestMs) {
      best = i;
      bestMs = ms;
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

Status GemmEngine::matmul(const DeviceTensor &a, const DeviceTensor &b,
                          const DeviceTensor &y, const DeviceTensor *bias,
                          Epilogue epilogue, cudaStream_t stream,
                          const DeviceTensor *residual) {
  std::optional<cudaDataType_t> type = cudaTypeOf(a.dtype);
  std::optional<MatMulShape> s = matmulShape(a, b, y);
  // bf16/f16 operands with an f32 result: nothing else fused.
  const bool widen = y.dtype == DType::F32 && a.dtype != DType::F32 &&
                     !bias && !residual && epilogue == Epilogue::None;
  if (!type || a.dtype != b.dtype || (a.dtype != y.dtype && !widen) || !s)
    return errorf("matmul: operands ", dtypeName(a.dtype),
                  shapeToString(a.shape), " and ", dtypeName(b.dtype),
                  shapeToString(b.shape), " do not map onto cuBLASLt");
  if (bias && (bias->dtype != y.dtype || bias->numElements() != s->n))
    return errorf("matmul: bias ", shapeToString(bias->shape),
                  " does not fit ", s->n, " output features");
  if (residual && (residual->dtype != y.dtype || residual->shape != y.shape ||
                   (epilogue != Epilogue::None && epilogue != Epilogue::Bias)))
    return errorf("matmul: residual ", dtypeName(residual->dtype),
                  shapeToString(residual->shape), " does not fit ",
                  dtypeName(y.dtype), shapeToString(y.shape),
                  " (or follows an activation)");
  // Column-major: D[n, m] = B'[n, k] A'[k, m] (+ C, the residual).
  Problem p{*type,    false,      false,      s->n,       s->m,
            s->k,     s->n,       s->k,       s->n,       s->batch,
            s->strideB, s->strideA, s->strideY, epilogue, false,
            residual != nullptr, *cudaTypeOf(y.dtype)};
  return run(p, b.data, a.data, y.data, bias ? bias->data : nullptr, 1.0f,
             residual ? 1.0f : 0.0f, stream,
             residual ? residual->data : nullptr);
}

Status GemmEngine::gemm(const DeviceTensor &a, const DeviceTensor &b,
                        const DeviceTensor *c, const DeviceTensor &y,
                        bool transA, bool transB, float alpha, float beta,
                        cudaStream_t stream) {
  std::optional<cudaDataType_t> type = cudaTypeOf(a.dtype);
  if (!type || a.dtype != b.dtype || a.dtype != y.dtype ||
      a.shape.size() != 2 || b.shape.size() != 2 || y.shape.size() != 2)
    return errorf("gemm: operands do not map onto cuBLASLt");
  int64_t m = transA ? a.shape[1] : a.shape[0];
  int64_t k = transA ? a.shape[0] : a.shape[1];
  int64_t n = transB ? b.shape[0] : b.shape[1];
  if ((transB ? b.shape[1] : b.shape[0]) != k || y.shape[0] != m ||
      y.shape[1] != n)
    return errorf("gemm: shapes do not match");
  const void *bias = nullptr;
  Epilogue epilogue = Epilogue::None;
  bool hasC = false;
  const void *residual = nullptr;
  if (c && c->numElements() > 0 && beta != 0.0f) {
    if (beta == 1.0f && c->numElements() == n && c->dtype == y.dtype) {
      bias = c->data;
      epilogue = Epilogue::Bias;
    } else if (c->dtype == y.dtype && c->shape == y.shape) {
      // A whole addend (a gradient accumulated into the product): read
      // as cuBLASLt's C in place, no copy into y first.
      residual = c->data;
    } else {
      // beta * c through cuBLASLt's C: expand c into y first.
      PARACC_RETURN_IF_ERROR(
          launchKernel(OpCode::Expand, OpAttrs(), {*c}, {y}, stream));
      hasC = true;
    }
  }
  // Column-major: D[n, m] = op(B)'[n, k] op(A)'[k, m].
  Problem p{*type, transB, transA, n, m, k,
            transB ? k : n, transA ? m : k, n, 1, 0, 0, 0, epilogue, hasC,
            residual != nullptr, *type};
  return run(p, b.data, a.data, y.data, bias, alpha,
             hasC || residual ? beta : 0.0f, stream, residual);
}
