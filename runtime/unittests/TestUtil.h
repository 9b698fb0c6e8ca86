//===- TestUtil.h - Helpers for the runtime unit tests --------*- C++ -*-===//
//
// Building tensors from plain values, reading them back, and running one
// kernel on freshly allocated results.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_UNITTESTS_TESTUTIL_H
#define PARACC_RUNTIME_UNITTESTS_TESTUTIL_H

#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Tensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace paracc::rt::test {

/// Allocates a tensor or fails the test.
/// n values uniform in [lo, hi) from a seeded generator.
inline std::vector<double> randomValues(size_t n, uint64_t seed, double lo,
                                        double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double &x : v)
    x = dist(rng);
  return v;
}

inline Tensor alloc(DType dt, const Shape &shape) {
  StatusOr<Tensor> t = Tensor::allocate(dt, shape);
  EXPECT_TRUE(t.isOk()) << t.status().message();
  return t.isOk() ? std::move(*t) : Tensor();
}

/// Stores `v` into element `i` of `t`, converted like a C++ cast (f16/bf16
/// round to nearest even, bool is v != 0).
inline void setElem(Tensor &t, int64_t i, double v) {
  void *p = t.data();
  switch (t.dtype()) {
  case DType::F32:
    static_cast<float *>(p)[i] = static_cast<float>(v);
    break;
  case DType::F64:
    static_cast<double *>(p)[i] = v;
    break;
  case DType::F16:
    static_cast<Half *>(p)[i] = Half(static_cast<float>(v));
    break;
  case DType::BF16:
    static_cast<BFloat16 *>(p)[i] = BFloat16(static_cast<float>(v));
    break;
  case DType::I8:
    static_cast<int8_t *>(p)[i] = static_cast<int8_t>(v);
    break;
  case DType::I16:
    static_cast<int16_t *>(p)[i] = static_cast<int16_t>(v);
    break;
  case DType::I32:
    static_cast<int32_t *>(p)[i] = static_cast<int32_t>(v);
    break;
  case DType::I64:
    static_cast<int64_t *>(p)[i] = static_cast<int64_t>(v);
    break;
  case DType::U8:
    static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(v);
    break;
  case DType::U16:
    static_cast<uint16_t *>(p)[i] = static_cast<uint16_t>(v);
    break;
  case DType::U32:
    static_cast<uint32_t *>(p)[i] = static_cast<uint32_t>(v);
    break;
  case DType::U64:
    static_cast<uint64_t *>(p)[i] = static_cast<uint64_t>(v);
    break;
  case DType::Bool:
    static_cast<uint8_t *>(p)[i] = v != 0;
    break;
  default:
    ADD_FAILURE() << "bad dtype";
  }
}

/// Stores integer `v` into element `i` of integer tensor `t`, wrapping
/// modulo the type's width.
inline void setElemInt(Tensor &t, int64_t i, int64_t v) {
  void *p = t.data();
  switch (t.dtype()) {
  case DType::I8:
    static_cast<int8_t *>(p)[i] = static_cast<int8_t>(v);
    break;
  case DType::I16:
    static_cast<int16_t *>(p)[i] = static_cast<int16_t>(v);
    break;
  case DType::I32:
    static_cast<int32_t *>(p)[i] = static_cast<int32_t>(v);
    break;
  case DType::I64:
    static_cast<int64_t *>(p)[i] = v;
    break;
  case DType::U8:
    static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(v);
    break;
  case DType::U16:
    static_cast<uint16_t *>(p)[i] = static_cast<uint16_t>(v);
    break;
  case DType::U32:
    static_cast<uint32_t *>(p)[i] = static_cast<uint32_t>(v);
    break;
  case DType::U64:
    static_cast<uint64_t *>(p)[i] = static_cast<uint64_t>(v);
    break;
  default:
    ADD_FAILURE() << "not an integer dtype";
  }
}

/// Element `i` of `t` as a double.
inline double getElem(const Tensor &t, int64_t i) {
  const void *p = t.data();
  switch (t.dtype()) {
  case DType::F32:
    return static_cast<const float *>(p)[i];
  case DType::F64:
    return static_cast<const double *>(p)[i];
  case DType::F16:
    return static_cast<float>(static_cast<const Half *>(p)[i]);
  case DType::BF16:
    return static_cast<float>(static_cast<const BFloat16 *>(p)[i]);
  case DType::I8:
    return static_cast<const int8_t *>(p)[i];
  case DType::I16:
    return static_cast<const int16_t *>(p)[i];
  case DType::I32:
    return static_cast<const int32_t *>(p)[i];
  case DType::I64:
    return static_cast<double>(static_cast<const int64_t *>(p)[i]);
  case DType::U8:
    return static_cast<const uint8_t *>(p)[i];
  case DType::U16:
    return static_cast<const uint16_t *>(p)[i];
  case DType::U32:
    return static_cast<const uint32_t *>(p)[i];
  case DType::U64:
    return static_cast<double>(static_cast<const uint64_t *>(p)[i]);
  case DType::Bool:
    return static_cast<const uint8_t *>(p)[i];
  default:
    ADD_FAILURE() << "bad dtype";
    return 0;
  }
}

/// A tensor with the given values (converted to dt).
inline Tensor make(DType dt, const Shape &shape,
                   const std::vector<double> &values) {
  Tensor t = alloc(dt, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements());
  for (size_t i = 0; i < values.size() && i < size_t(t.numElements()); ++i)
    setElem(t, static_cast<int64_t>(i), values[i]);
  return t;
}

/// A tensor of C++ element type T holding exactly `values`.
template <typename T>
Tensor makeRaw(DType dt, const Shape &shape, const std::vector<T> &values) {
  Tensor t = alloc(dt, shape);
  EXPECT_EQ(sizeof(T), dtypeSize(dt));
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements());
  if (static_cast<int64_t>(values.size()) == t.numElements() && !values.empty())
    std::memcpy(t.data(), values.data(), values.size() * sizeof(T));
  return t;
}

/// A tensor filled with i * scale + offset.
inline Tensor iota(DType dt, const Shape &shape, double scale = 1.0,
                   double offset = 0.0) {
  Tensor t = alloc(dt, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElem(t, i, static_cast<double>(i) * scale + offset);
  return t;
}

inline std::vector<double> values(const Tensor &t) {
  std::vector<double> v(static_cast<size_t>(t.numElements()));
  for (int64_t i = 0; i < t.numElements(); ++i)
    v[i] = getElem(t, i);
  return v;
}

template <typename T> std::vector<T> rawValues(const Tensor &t) {
  std::vector<T> v(static_cast<size_t>(t.numElements()));
  if (!v.empty())
    std::memcpy(v.data(), t.data(), v.size() * sizeof(T));
  return v;
}

/// Runs `op` with results allocated as `outTypes`.
inline Status run(OpCode op, const InstrAttrs &attrs,
                  const std::vector<const Tensor *> &inputs,
                  const std::vector<Tensor *> &outputs) {
  return runCpuKernel(op, attrs, inputs, outputs);
}

/// Runs a one-result op; fails the test on error.
inline Tensor run1(OpCode op, const InstrAttrs &attrs,
                   const std::vector<const Tensor *> &inputs, DType outType,
                   const Shape &outShape) {
  Tensor out = alloc(outType, outShape);
  Status st = runCpuKernel(op, attrs, inputs, {&out});
  EXPECT_TRUE(st.isOk()) << opCodeMnemonic(op) << ": " << st.message();
  return out;
}

/// The error message of a one-result op that must fail.
inline std::string runError(OpCode op, const InstrAttrs &attrs,
                            const std::vector<const Tensor *> &inputs,
                            DType outType, const Shape &outShape) {
  Tensor out = alloc(outType, outShape);
  Status st = runCpuKernel(op, attrs, inputs, {&out});
  EXPECT_FALSE(st.isOk()) << opCodeMnemonic(op) << " unexpectedly succeeded";
  return st.message();
}

/// Expects every element of `actual` to be within an absolute plus relative
/// tolerance of `expected`; NaNs must match NaNs.
inline void expectNear(const std::vector<double> &actual,
                       const std::vector<double> &expected, double tol = 1e-6) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "at " << i << ": " << actual[i];
      continue;
    }
    if (std::isinf(expected[i])) {
      EXPECT_EQ(actual[i], expected[i]) << "at " << i;
      continue;
    }
    EXPECT_NEAR(actual[i], expected[i], tol * (1.0 + std::fabs(expected[i])))
        << "at " << i;
  }
}

inline bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// Tolerance of a floating type for values near 1.
inline double tolFor(DType dt) {
  switch (dt) {
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  case DType::F32:
    return 2e-6;
  default:
    return 1e-12;
  }
}

inline const std::vector<DType> &floatTypes() {
  static const std::vector<DType> t = {DType::F32, DType::F64, DType::F16,
                                       DType::BF16};
  return t;
}

inline const std::vector<DType> &intTypes() {
  static const std::vector<DType> t = {DType::I8,  DType::I16, DType::I32,
                                       DType::I64, DType::U8,  DType::U16,
                                       DType::U32, DType::U64};
  return t;
}

inline std::vector<DType> numericTypes() {
  std::vector<DType> t = floatTypes();
  t.insert(t.end(), intTypes().begin(), intTypes().end());
  return t;
}

inline std::vector<DType> allTypes() {
  std::vector<DType> t = numericTypes();
  t.push_back(DType::Bool);
  return t;
}

/// Row-major multi-index of flat index i.
inline std::vector<int64_t> unravel(int64_t i, const Shape &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
  return idx;
}

/// Flat index of a multi-index.
inline int64_t ravel(const std::vector<int64_t> &idx, const Shape &shape) {
  int64_t f = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    f = f * shape[d] + idx[d];
  return f;
}

/// The flat index into `from` (numpy-broadcast to `to`) of the element at
/// multi-index `idx` of `to`.
inline int64_t broadcastIndex(const std::vector<int64_t> &idx,
                              const Shape &from, const Shape &to) {
  const size_t lead = to.size() - from.size();
  int64_t f = 0;
  for (size_t d = 0; d < from.size(); ++d)
    f = f * from[d] + (from[d] == 1 ? 0 : idx[lead + d]);
  return f;
}

} // namespace paracc::rt::test

#endif // PARACC_RUNTIME_UNITTESTS_TESTUTIL_H
