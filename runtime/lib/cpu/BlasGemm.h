//===- BlasGemm.h - Row-major products through BLAS ------------*- C++ -*-===//
//
// Private to the CPU kernels: one row-major GEMM for the kernels that
// multiply (MatMul, Gemm, Linear, Attention), through BLAS for float and
// double when the runtime has it, plain loops otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_BLASGEMM_H
#define PARACC_RUNTIME_CPU_BLASGEMM_H

#include "cpu/KernelUtil.h"

#ifdef PARACC_HAVE_CBLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace paracc::rt {

/// C[M,N] = alpha * op(A) * op(B) + beta * C, row-major, through BLAS for
/// float and double and wrapping loops for integers (alpha = 1, beta = 0
/// there; Gemm scales integer results itself).
template <typename T>
inline void gemm2d(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
            double alpha, const T *a, int64_t lda, const T *b, int64_t ldb,
            double beta, T *c, int64_t ldc) {
  if (m == 0 || n == 0)
    return;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (k == 0) {
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          c[i * ldc + j] =
              beta == 0.0 ? T(0) : static_cast<T>(beta * c[i * ldc + j]);
      return;
    }
#ifndef PARACC_HAVE_CBLAS
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += double(transA ? a[p * lda + i] : a[i * lda + p]) *
                 double(transB ? b[j * ldb + p] : b[p * ldb + j]);
        T &out = c[i * ldc + j];
        out = static_cast<T>(alpha * sum + (beta == 0.0 ? 0.0 : beta * out));
      }
#else
    const CBLAS_TRANSPOSE ta = transA ? CblasTrans : CblasNoTrans;
    const CBLAS_TRANSPOSE tb = transB ? CblasTrans : CblasNoTrans;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, static_cast<int>(m),
                  static_cast<int>(n), static_cast<int>(k),
                  static_cast<float>(alpha), a, static_cast<int>(lda), b,
                  static_cast<int>(ldb), static_cast<float>(beta), c,
                  static_cast<int>(ldc));
    else
      cblas_dgemm(CblasRowMajor, ta, tb, static_cast<int>(m),
                  static_cast<int>(n), static_cast<int>(k), alpha, a,
                  static_cast<int>(lda), b, static_cast<int>(ldb), beta, c,
                  static_cast<int>(ldc));
#endif
  } else {
    (void)alpha;
    (void)beta;
    for (int64_t i = 0; i < m; ++i) {
      T *row = c + i * ldc;
      std::fill(row, row + n, T(0));
      for (int64_t p = 0; p < k; ++p) {
        const T av = transA ? a[p * lda + i] : a[i * lda + p];
        if (av == 0)
          continue;
        if (!transB) {
          const T *brow = b + p * ldb;
          for (int64_t j = 0; j < n; ++j)
            row[j] = wrapAdd(row[j], wrapMul(av, brow[j]));
        } else {
          for (int64_t j = 0; j < n; ++j)
            row[j] = wrapAdd(row[j], wrapMul(av, b[j * ldb + p]));
        }
      }
    }
  }
}

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CPU_BLASGEMM_H
