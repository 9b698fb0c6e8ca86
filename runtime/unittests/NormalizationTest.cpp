//===- NormalizationTest.cpp - LayerNorm, RmsNorm, Softmax, LogSoftmax ----===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// LayerNorm (or RmsNorm) over dims [axis, rank), written out in double.
std::vector<double> naiveNorm(const Tensor &x, const Tensor &scale,
                              const Tensor *bias, int64_t axis, double eps,
                              bool rms) {
  const Shape norm(x.shape().begin() + axis, x.shape().end());
  const int64_t d = shapeNumElements(norm);
  const int64_t rows = x.numElements() / d;
  std::vector<double> y(static_cast<size_t>(x.numElements()));
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, sq = 0;
    for (int64_t i = 0; i < d; ++i)
      mean += getElem(x, r * d + i);
    mean /= d;
    for (int64_t i = 0; i < d; ++i) {
      const double v = getElem(x, r * d + i) - (rms ? 0 : mean);
      sq += v * v;
    }
    const double denom = std::sqrt(sq / d + eps);
    for (int64_t i = 0; i < d; ++i) {
      const auto idx = unravel(i, norm);
      double v = (getElem(x, r * d + i) - (rms ? 0 : mean)) / denom *
                 getElem(scale, broadcastIndex(idx, scale.shape(), norm));
      if (bias)
        v += getElem(*bias, broadcastIndex(idx, bias->shape(), norm));
      y[r * d + i] = v;
    }
  }
  return y;
}

/// Softmax / LogSoftmax along `axis`, from the definition.
std::vector<double> naiveSoftmax(const Tensor &x, int64_t axis, bool log) {
  std::vector<double> y(static_cast<size_t>(x.numElements()));
  const Shape &s = x.shape();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    auto idx = unravel(i, s);
    double maxv = -INFINITY;
    for (int64_t c = 0; c < s[axis]; ++c) {
      idx[axis] = c;
      maxv = std::max(maxv, getElem(x, ravel(idx, s)));
    }
    double sum = 0;
    for (int64_t c = 0; c < s[axis]; ++c) {
      idx[axis] = c;
      sum += std::exp(getElem(x, ravel(idx, s)) - maxv);
    }
    const double v = getElem(x, i) - maxv;
    y[i] = log ? v - std::log(sum) : std::exp(v) / sum;
  }
  return y;
}

} // namespace

TEST(NormalizationTest, LayerNorm) {
  const Shape s = {2, 3, 4};
  for (DType dt : floatTypes()) {
    Tensor x = iota(dt, s, 0.375, -4);
    for (int64_t axis : {0, 1, 2}) {
      const Shape norm(s.begin() + axis, s.end());
      std::vector<Shape> scaleShapes = {norm, {norm.back()}};
      if (norm.size() >= 2)
        scaleShapes.push_back({norm[norm.size() - 2], 1});
      for (const Shape &ss : scaleShapes) {
        Tensor scale = iota(dt, ss, 0.25, 0.5);
        Tensor bias = iota(dt, ss, -0.5, 1);
        SCOPED_TRACE(std::string(dtypeName(dt)) + " axis=" +
                     std::to_string(axis) + " scale=" + shapeToString(ss));
        Tensor y = run1(OpCode::LayerNorm, {{axis}, {1e-5}},
                        {&x, &scale, &bias}, dt, s);
        expectNear(values(y), naiveNorm(x, scale, &bias, axis, 1e-5, false),
                   tolFor(dt) * 4);
        Tensor y2 =
            run1(OpCode::LayerNorm, {{axis}, {1e-3}}, {&x, &scale}, dt, s);
        expectNear(values(y2), naiveNorm(x, scale, nullptr, axis, 1e-3, false),
                   tolFor(dt) * 4);
      }
    }
  }
}

TEST(NormalizationTest, LayerNormConstantRowsAndLargeOffsets) {
  // A constant row normalizes to 0 (then bias); a large offset must not
  // lose the variance (two-pass statistics).
  Tensor x = make(DType::F32, {2, 4},
                  {3, 3, 3, 3, 1e4 + 1, 1e4 + 2, 1e4 + 3, 1e4 + 4});
  Tensor scale = make(DType::F32, {4}, {1, 1, 1, 1});
  Tensor bias = make(DType::F32, {4}, {0.5, 0.5, 0.5, 0.5});
  Tensor y = run1(OpCode::LayerNorm, {{1}, {0}}, {&x, &scale, &bias},
                  DType::F32, {2, 4});
  const double r = 1 / std::sqrt(1.25);
  expectNear(values(y),
             {NAN, NAN, NAN, NAN, 0.5 - 1.5 * r, 0.5 - 0.5 * r, 0.5 + 0.5 * r,
              0.5 + 1.5 * r},
             1e-5);
  Tensor y2 = run1(OpCode::LayerNorm, {{1}, {1e-5}}, {&x, &scale, &bias},
                   DType::F32, {2, 4});
  EXPECT_EQ(values(y2)[0], 0.5);
}

TEST(NormalizationTest, RmsNorm) {
  const Shape s = {3, 2, 5};
  for (DType dt : floatTypes()) {
    Tensor x = iota(dt, s, 0.5, -7);
    for (int64_t axis : {0, 1, 2}) {
      const Shape norm(s.begin() + axis, s.end());
      Tensor scale = iota(dt, {norm.back()}, 0.25, 1);
      SCOPED_TRACE(std::string(dtypeName(dt)) +
                   " axis=" + std::to_string(axis));
      Tensor y = run1(OpCode::RmsNorm, {{axis}, {1e-6}}, {&x, &scale}, dt, s);
      expectNear(values(y), naiveNorm(x, scale, nullptr, axis, 1e-6, true),
                 tolFor(dt) * 4);
    }
  }
}

TEST(NormalizationTest, NormErrors) {
  Tensor x = iota(DType::F32, {2, 4});
  Tensor scale = iota(DType::F32, {4});
  Tensor bad = iota(DType::F32, {3});
  Tensor d = iota(DType::F64, {4});
  Tensor xi = iota(DType::I32, {2, 4});
  EXPECT_EQ(runError(OpCode::LayerNorm, {{-1}, {1e-5}}, {&x, &scale},
                     DType::F32, {2, 4}),
            "layer_norm: axis must be in [0, 1], got -1");
  EXPECT_EQ(runError(OpCode::LayerNorm, {{2}, {1e-5}}, {&x, &scale}, DType::F32,
                     {2, 4}),
            "layer_norm: axis must be in [0, 1], got 2");
  EXPECT_EQ(runError(OpCode::LayerNorm, {{1}, {1e-5}}, {&x, &bad}, DType::F32,
                     {2, 4}),
            "layer_norm: scale f32[3] does not broadcast to the normalized "
            "shape [4]");
  EXPECT_EQ(runError(OpCode::LayerNorm, {{1}, {1e-5}}, {&x, &scale, &bad},
                     DType::F32, {2, 4}),
            "layer_norm: bias f32[3] does not broadcast to the normalized "
            "shape [4]");
  EXPECT_TRUE(startsWith(
      runError(OpCode::LayerNorm, {{1}, {1e-5}}, {&x, &d}, DType::F32, {2, 4}),
      "layer_norm: scale must have element type f32"));
  EXPECT_TRUE(startsWith(runError(OpCode::LayerNorm, {{1}, {1e-5}},
                                  {&xi, &scale}, DType::I32, {2, 4}),
                         "layer_norm: operand must have a floating-point"));
  EXPECT_EQ(runError(OpCode::LayerNorm, {{1}, {-1}}, {&x, &scale}, DType::F32,
                     {2, 4}),
            "layer_norm: epsilon must be finite and non-negative, got -1");
  EXPECT_TRUE(startsWith(runError(OpCode::LayerNorm, {{1}, {NAN}}, {&x, &scale},
                                  DType::F32, {2, 4}),
                         "layer_norm: epsilon"));
  EXPECT_EQ(
      runError(OpCode::LayerNorm, {{1}, {}}, {&x, &scale}, DType::F32, {2, 4}),
      "layer_norm: expected 1 floating attribute, got 0");
  EXPECT_EQ(runError(OpCode::RmsNorm, {{1}, {1e-5}}, {&x, &scale, &scale},
                     DType::F32, {2, 4}),
            "rms_norm: expected 2 operands, got 3");
  EXPECT_EQ(runError(OpCode::RmsNorm, {{1}, {1e-5}}, {&x, &scale}, DType::F32,
                     {4, 2}),
            "rms_norm: result must have shape [2,4], got f32[4,2]");
}

TEST(NormalizationTest, Softmax) {
  const Shape s = {2, 3, 4};
  for (DType dt : floatTypes()) {
    Tensor x = iota(dt, s, 0.375, -4);
    for (int64_t axis : {0, 1, 2}) {
      for (bool log : {false, true}) {
        SCOPED_TRACE(std::string(dtypeName(dt)) +
                     " axis=" + std::to_string(axis) + (log ? " log" : ""));
        Tensor y = run1(log ? OpCode::LogSoftmax : OpCode::Softmax,
                        {{axis}, {}}, {&x}, dt, s);
        expectNear(values(y), naiveSoftmax(x, axis, log), tolFor(dt) * 4);
      }
    }
  }
}

TEST(NormalizationTest, SoftmaxIsStable) {
  Tensor x =
      make(DType::F32, {2, 3}, {1000, 1001, 1002, -INFINITY, 0, -INFINITY});
  Tensor y = run1(OpCode::Softmax, {{1}, {}}, {&x}, DType::F32, {2, 3});
  const double e1 = std::exp(-1.0), e2 = std::exp(-2.0);
  const double z = 1 + e1 + e2;
  expectNear(values(y), {e2 / z, e1 / z, 1 / z, 0, 1, 0}, 1e-6);
  Tensor l = run1(OpCode::LogSoftmax, {{1}, {}}, {&x}, DType::F32, {2, 3});
  expectNear(values(l),
             {-2 - std::log(z), -1 - std::log(z), -std::log(z), -INFINITY, 0,
              -INFINITY},
             1e-6);
  // NaN propagates through its row.
  Tensor n = make(DType::F64, {1, 3}, {1, NAN, 2});
  expectNear(values(run1(OpCode::Softmax, {{1}, {}}, {&n}, DType::F64, {1, 3})),
             {NAN, NAN, NAN}, 0);
}

TEST(NormalizationTest, SoftmaxErrors) {
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(runError(OpCode::Softmax, {{2}, {}}, {&x}, DType::F32, {2, 3}),
            "softmax: axis must be in [0, 1], got 2");
  EXPECT_EQ(runError(OpCode::LogSoftmax, {{-1}, {}}, {&x}, DType::F32, {2, 3}),
            "log_softmax: axis must be in [0, 1], got -1");
  EXPECT_EQ(runError(OpCode::Softmax, {}, {&x}, DType::F32, {2, 3}),
            "softmax: expected 1 integer attribute, got 0");
  Tensor i = iota(DType::I64, {2, 3});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Softmax, {{1}, {}}, {&i}, DType::I64, {2, 3}),
                 "softmax: operand must have a floating-point type"));
  Tensor s = make(DType::F32, {}, {1});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Softmax, {{0}, {}}, {&s}, DType::F32, {}),
                 "softmax: operand must have rank >= 1"));
}
