//===- VectorMath.cpp - Vectorized f32 math for the CPU kernels -*- C++ -*-=//

#include "cpu/VectorMath.h"

#include <cstring>

namespace paracc::rt {

namespace {

typedef float F8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));

__attribute__((always_inline)) inline F8 exp8(F8 x) {
  const F8 zero = {};
  const F8 y = x < -87.0f ? zero - 87.0f : x;
  // Round to nearest by adding 1.5 * 2^23.
  const F8 n = (y * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  const F8 r = (y - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  F8 p = zero + 1.98412698e-4f;
  p = p * r + 1.38888889e-3f;
  p = p * r + 8.33333333e-3f;
  p = p * r + 4.16666667e-2f;
  p = p * r + 1.66666667e-1f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const I8 bits = (__builtin_convertvector(n, I8) + 127) << 23;
  const F8 scale = (F8)bits; // the same bits
  return x < -87.0f ? zero : p * scale;
}

/// Eight floats at p[0..n) (n <= 8; the rest 0).
__attribute__((always_inline)) inline F8 load8(const float *p, int64_t n) {
  F8 v = {};
  std::memcpy(&v, p, size_t(n) * sizeof(float));
  return v;
}

} // namespace

float expNonPositive(float x) {
  F8 v = {};
  v[0] = x;
  return exp8(v)[0];
}

__attribute__((target_clones("avx2", "default"))) float
expAndSum(float *s, int64_t n, float max) {
  F8 sum = {};
  int64_t c = 0;
  for (; c + 8 <= n; c += 8) {
    F8 x;
    std::memcpy(&x, s + c, sizeof x);
    x = exp8(x - max);
    std::memcpy(s + c, &x, sizeof x);
    sum += x;
  }
  if (c < n) {
    F8 x = {};
    std::memcpy(&x, s + c, size_t(n - c) * sizeof(float));
    x = exp8(x - max);
    std::memcpy(s + c, &x, size_t(n - c) * sizeof(float));
    for (int64_t l = 0; l < n - c; ++l)
      sum[l] += x[l];
  }
  float total = 0;
  for (int l = 0; l < 8; ++l)
    total += sum[l];
  return total;
}

namespace {
__attribute__((always_inline)) inline F8 siluMul8(F8 g, F8 u) {
  const F8 zero = {}, one = zero + 1.0f;
  // sigmoid(g) from e^-|g| <= 1: no overflow at either end.
  const F8 e = exp8(g < 0.0f ? g : zero - g);
  const F8 r = one / (one + e);
  const F8 s = g < 0.0f ? e * r : r;
  return g * s * u;
}
} // namespace

__attribute__((target_clones("avx2", "default"))) void
siluMulF32(const float *gate, const float *up, float *y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    F8 g, u;
    std::memcpy(&g, gate + i, sizeof g);
    std::memcpy(&u, up + i, sizeof u);
    const F8 v = siluMul8(g, u);
    std::memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    const F8 v = siluMul8(load8(gate + i, n - i), load8(up + i, n - i));
    std::memcpy(y + i, &v, size_t(n - i) * sizeof(float));
  }
}

} // namespace paracc::rt
