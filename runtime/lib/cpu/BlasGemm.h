//===- BlasGemm.h - Row-major products through BLAS ------------*- C++ -*-===//
//
// Private to the CPU kernels: one row-major GEMM for the kernels that
// multiply (MatMul, Gemm, Linear, Attention), through BLAS for float and
// double when the runtime has it, plain loops otherwise.
//
// BLAS runs on the calling thread only, and a large product is split by
// rows of C over the runtime's own threads, one per core: OpenBLAS's pool
// spins for a while after each product, taking the cores from whatever the
// runtime computes next (the attention kernel's own threads ran 1.6x
// slower next to it), and each element of C is computed the same way
// whichever rows a thread takes.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_BLASGEMM_H
#define PARACC_RUNTIME_CPU_BLASGEMM_H

#include "Kernels/KernelUtil.h"

#ifdef PARACC_HAVE_CBLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

#ifdef PARACC_HAVE_CBLAS
// OpenBLAS's thread control, when the BLAS is OpenBLAS.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
#endif

namespace paracc::rt {

namespace detail {
/// The threads products may use (every core), BLAS itself made
/// single-threaded on first use.
inline int64_t productThreads() {
  static const int64_t threads = [] {
#ifdef PARACC_HAVE_CBLAS
    if (openblas_set_num_threads)
      openblas_set_num_threads(1);
#endif
    return std::max<int64_t>(1, std::thread::hardware_concurrency());
  }();
  return threads;
}
/// Set on threads that already run in parallel (a split product, the
/// attention kernel's workers): their products stay on them.
inline thread_local bool inParallelRegion = false;

/// Runs f(part) for part in [0, parts) on `parts` threads (part 0 on the
/// calling one), each marked as in a parallel region.
template <typename F> void runInParallel(int64_t parts, F &&f) {
  std::vector<std::thread> pool;
  for (int64_t p = 1; p < parts; ++p)
    pool.emplace_back([&f, p] {
      inParallelRegion = true;
      f(p);
    });
  const bool outer = inParallelRegion;
  inParallelRegion = true;
  f(0);
  inParallelRegion = outer;
  for (std::thread &t : pool)
    t.join();
}
} // namespace detail

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
    // Products of at least 2^22 FLOPs, with rows for every thread, split.
    const int64_t threads = detail::productThreads();
    if (!detail::inParallelRegion && threads > 1 && m >= 8 * threads &&
        double(m) * double(n) * double(k) >= double(1 << 21)) {
      const int64_t chunk = (m + threads - 1) / threads;
      detail::runInParallel(threads, [&](int64_t p) {
        const int64_t r0 = p * chunk, rows = std::min(chunk, m - r0);
        if (rows > 0)
          gemm2d<T>(transA, transB, rows, n, k, alpha,
                    transA ? a + r0 : a + r0 * lda, lda, b, ldb, beta,
                    c + r0 * ldc, ldc);
      });
      return;
    }
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
