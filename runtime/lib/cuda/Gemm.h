//===- Gemm.h - Matrix products through cuBLASLt ---------------*- C++ -*-===//
//
// MatMul and Gemm instructions on the GPU: row-major products mapped onto
// cuBLASLt's column-major API (Y^T = B^T A^T), batched with strides (a
// batch operand of one matrix is broadcast with stride 0), bf16/f16 with
// f32 accumulation, f32 with TF32 tensor cores when allowed, and fused
// epilogues (bias on the output features, GELU). The algorithm chosen for
// each problem shape is cached.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_GEMM_H
#define PARACC_RUNTIME_CUDA_GEMM_H

#include "cuda/CudaKernels.h"

#include <cublasLt.h>
#include <map>
#include <memory>
#include <tuple>

namespace paracc::rt::cuda {

enum class Epilogue { None, Bias, GeluTanhBias, GeluTanh };

class GemmEngine {
public:
  /// `workspaceBytes` of device workspace are allocated for cuBLASLt.
  static StatusOr<std::unique_ptr<GemmEngine>> create(size_t workspaceBytes,
                                                      bool allowTf32);
  ~GemmEngine();

  /// Asks cuBLASLt to use at most `sms` multiprocessors (0: all), leaving
  /// the rest to kernels that run beside the products.
  void setSmCountTarget(int sms) { smCountTarget_ = sms; }

  /// Whether the MatMul instruction on these shapes maps onto one (batched)
  /// cuBLASLt call.
  static bool supportsMatMul(const DeviceTensor &a, const DeviceTensor &b,
                             const DeviceTensor &y);

  /// y = epilogue(a @ b + bias) + residual with MatMul semantics (see
  /// supportsMatMul); a residual (y's type, cuBLASLt's C with beta 1) goes
  /// with Epilogue::None or Bias only. bf16/f16 operands may give an f32 y
  /// (no bias, residual or epilogue): the unrounded accumulator.
  Status matmul(const DeviceTensor &a, const DeviceTensor &b,
                const DeviceTensor &y, const DeviceTensor *bias,
                Epilogue epilogue, cudaStream_t stream,
                const DeviceTensor *residual = nullptr);

  /// The Gemm instruction: y = alpha op(a) op(b) + beta c (c: none, [n],
  /// [m, n], or anything broadcastable, expanded into y first).
  Status gemm(const DeviceTensor &a, const DeviceTensor &b,
              const DeviceTensor *c, const DeviceTensor &y, bool transA,
              bool transB, float alpha, float beta, cudaStream_t stream);

private:
  GemmEngine() = default;

  /// One column-major problem: D[m,n] = alpha op(A)[m,k] op(B)[k,n] +
  /// beta C, batched.
  struct Problem {
    cudaDataType_t type;
    bool transA, transB;
    int64_t m, n, k, lda, ldb, ldd, batch, strideA, strideB, strideD;
    Epilogue epilogue;
    bool hasC; ///< beta * C with C = D (read before written)
    bool hasResidual; ///< + C with C a separate buffer (beta 1)
    cudaDataType_t outType; ///< D's (and C's) type: `type`, or f32
  };
  Status run(const Problem &p, const void *a, const void *b, void *d,
             const void *bias, float alpha, float beta, cudaStream_t stream,
             const void *c = nullptr);

  /// Index of the fastest of `count` algorithms on these operands.
  StatusOr<int> timeCandidates(cublasLtMatmulDesc_t desc,
                               cublasLtMatrixLayout_t la,
                               cublasLtMatrixLayout_t lb,
                               cublasLtMatrixLayout_t ld, const void *a,
                               const void *b, const void *c, void *d,
                               float alpha, float beta,
                               const cublasLtMatmulHeuristicResult_t *candidates,
                               int count, cudaStream_t stream);

  /// Heuristic candidates timed per shape (PARACC_GEMM_CANDIDATES, 1..64).
  static constexpr int kTuneCandidates = 32;
  int tuneCandidates_ = kTuneCandidates;
  static constexpr int kTuneRepeats = 3;

  cublasLtHandle_t handle_ = nullptr;
  bool tune_ = true;
  int smCountTarget_ = 0;
  void *workspace_ = nullptr;
  size_t workspaceBytes_ = 0;
  bool allowTf32_ = false;
  using Key = std::tuple<int, bool, bool, int64_t, int64_t, int64_t, int64_t,
                         int64_t, int64_t, int64_t, int, bool, bool, int>;
  std::map<Key, cublasLtMatmulAlgo_t> algos_;
};

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_GEMM_H
