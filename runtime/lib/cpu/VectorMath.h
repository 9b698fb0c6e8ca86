//===- VectorMath.h - Vectorized f32 math for the CPU kernels --*- C++ -*-===//
//
// Private to the CPU kernels: the loops whose time is transcendental
// functions (the attention softmax's exponentials, SwiGLU's sigmoid), eight
// f32 at a time in GCC/Clang vector extensions (two SSE registers on plain
// x86-64), with an AVX2 clone chosen at run time where the CPU has it.
// e^x is a polynomial: x = n ln 2 + r with |r| <= ln 2 / 2, e^r by its
// Taylor series to r^7 (relative error below 2e-7, about one f32 ulp),
// times 2^n built in the exponent bits.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_VECTORMATH_H
#define PARACC_RUNTIME_CPU_VECTORMATH_H

#include <cmath>
#include <cstdint>

namespace paracc::rt {

/// e^x for one x <= 0 (-inf included; 0 below -87).
float expNonPositive(float x);

/// s[c] = e^(s[c] - max) for c < n (every s[c] <= max); returns their sum,
/// added in eight lanes and then in a fixed order.
float expAndSum(float *s, int64_t n, float max);

/// The same in f64 (the kernels' f64 path), with std::exp.
inline double expNonPositive(double x) { return std::exp(x); }
inline double expAndSum(double *s, int64_t n, double max) {
  double sum = 0;
  for (int64_t c = 0; c < n; ++c)
    sum += s[c] = std::exp(s[c] - max);
  return sum;
}

/// y[i] = gate[i] * sigmoid(gate[i]) * up[i] for i < n (y may be gate or
/// up).
void siluMulF32(const float *gate, const float *up, float *y, int64_t n);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CPU_VECTORMATH_H
