//===- OptimizerKernelTest.cpp - AdamW and SGD parameter updates ----------===//
//
// Several steps of each kernel against the textbook algorithms, written out
// here in double (Loshchilov & Hutter's AdamW with torch's placement of
// eps, and torch's SGD with momentum, dampening and Nesterov), then the
// in-place updates and the operand checks.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"


using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

Tensor f32(const Shape &shape, const std::vector<double> &v) {
  return make(DType::F32, shape, v);
}

Tensor scalar(double v) { return make(DType::F32, {}, {v}); }

/// The f32 rounding of each value, as the kernel sees its operands.
std::vector<double> roundToF32(std::vector<double> v) {
  for (double &x : v)
    x = static_cast<float>(x);
  return v;
}

struct AdamWConfig {
  double beta1, beta2, eps, wd;
};

/// Runs AdamW for `steps` steps from random state and compares param,
/// exp_avg and exp_avg_sq with a double-precision reference after each.
void checkAdamW(const AdamWConfig &c, int steps, uint64_t seed) {
  const Shape shape = {3, 7};
  const size_t n = 21;
  std::vector<double> p = roundToF32(randomValues(n, seed, -1, 1));
  std::vector<double> m(n, 0.0), v(n, 0.0);
  Tensor param = f32(shape, p), expAvg = f32(shape, m),
         expAvgSq = f32(shape, v);
  const InstrAttrs attrs = {{}, {c.beta1, c.beta2, c.eps, c.wd}};
  for (int t = 1; t <= steps; ++t) {
    SCOPED_TRACE("step " + std::to_string(t));
    const double lr = static_cast<float>(1e-2 * (1.0 + 0.25 * t));
    const double gradScale = static_cast<float>(t % 2 ? 0.75 : 1.0);
    std::vector<double> grad =
        roundToF32(randomValues(n, seed + 100 * t, -1, 1));
    // The reference, in double.
    const double bc1 = 1.0 - std::pow(c.beta1, t);
    const double bc2 = 1.0 - std::pow(c.beta2, t);
    for (size_t i = 0; i < n; ++i) {
      const double g = grad[i] * gradScale;
      p[i] -= lr * c.wd * p[i];
      m[i] = c.beta1 * m[i] + (1.0 - c.beta1) * g;
      v[i] = c.beta2 * v[i] + (1.0 - c.beta2) * g * g;
      const double mHat = m[i] / bc1;
      const double vHatSqrt = std::sqrt(v[i]) / std::sqrt(bc2);
      p[i] -= lr * mHat / (vHatSqrt + c.eps);
    }
    Tensor g = f32(shape, grad), lrT = scalar(lr), stepT = scalar(t),
           gs = scalar(gradScale);
    Tensor pOut = alloc(DType::F32, shape), mOut = alloc(DType::F32, shape),
           vOut = alloc(DType::F32, shape);
    Status st =
        runCpuKernel(OpCode::AdamW, attrs,
                     {&param, &g, &expAvg, &expAvgSq, &lrT, &stepT, &gs},
                     {&pOut, &mOut, &vOut});
    ASSERT_TRUE(st.isOk()) << st.message();
    expectNear(values(pOut), p, 2e-6);
    expectNear(values(mOut), m, 2e-6);
    expectNear(values(vOut), v, 2e-6);
    param = std::move(pOut);
    expAvg = std::move(mOut);
    expAvgSq = std::move(vOut);
  }
}

TEST(OptimizerKernelTest, AdamWMatchesTheReference) {
  {
    SCOPED_TRACE("torch defaults with weight decay");
    checkAdamW({0.9, 0.999, 1e-8, 0.01}, 6, 1);
  }
  {
    SCOPED_TRACE("beta1 < 0.5 (torch's lerp from the far end)");
    checkAdamW({0.3, 0.95, 1e-6, 0.1}, 5, 2);
  }
  {
    SCOPED_TRACE("no weight decay, beta1 = 0");
    checkAdamW({0.0, 0.5, 1e-3, 0.0}, 4, 3);
  }
}

struct SgdConfig {
  double momentum, dampening, wd;
  bool nesterov;
};

void checkSgd(const SgdConfig &c, int steps, uint64_t seed) {
  const Shape shape = {10};
  const size_t n = 10;
  std::vector<double> p = roundToF32(randomValues(n, seed, -1, 1));
  // Garbage in the buffer: the first step must not read it.
  std::vector<double> buf = roundToF32(randomValues(n, seed + 1, 5, 6));
  Tensor param = f32(shape, p), buffer = f32(shape, buf);
  const InstrAttrs attrs = {
      {}, {c.momentum, c.dampening, c.wd, c.nesterov ? 1.0 : 0.0}};
  for (int t = 1; t <= steps; ++t) {
    SCOPED_TRACE("step " + std::to_string(t));
    const double lr = static_cast<float>(0.1 / t);
    const double gradScale = static_cast<float>(t == 2 ? 0.5 : 1.0);
    std::vector<double> grad =
        roundToF32(randomValues(n, seed + 100 * t, -1, 1));
    for (size_t i = 0; i < n; ++i) {
      double d = grad[i] * gradScale + c.wd * p[i];
      if (c.momentum != 0) {
        buf[i] = t == 1 ? d : c.momentum * buf[i] + (1 - c.dampening) * d;
        d = c.nesterov ? d + c.momentum * buf[i] : buf[i];
      }
      p[i] -= lr * d;
    }
    Tensor g = f32(shape, grad), lrT = scalar(lr), stepT = scalar(t),
           gs = scalar(gradScale);
    Tensor pOut = alloc(DType::F32, shape), bOut = alloc(DType::F32, shape);
    Status st =
        runCpuKernel(OpCode::Sgd, attrs,
                     {&param, &g, &buffer, &lrT, &stepT, &gs}, {&pOut, &bOut});
    ASSERT_TRUE(st.isOk()) << st.message();
    expectNear(values(pOut), p, 2e-6);
    expectNear(values(bOut), buf, 2e-6);
    param = std::move(pOut);
    buffer = std::move(bOut);
  }
}

TEST(OptimizerKernelTest, SgdMatchesTheReference) {
  {
    SCOPED_TRACE("momentum, dampening, weight decay");
    checkSgd({0.9, 0.1, 0.01, false}, 5, 10);
  }
  {
    SCOPED_TRACE("nesterov");
    checkSgd({0.8, 0.0, 0.0, true}, 5, 11);
  }
  {
    SCOPED_TRACE("plain SGD with weight decay (the buffer is unchanged)");
    checkSgd({0.0, 0.0, 0.1, false}, 3, 12);
  }
}

TEST(OptimizerKernelTest, AdamWInPlace) {
  // Results in the operands' own buffers give bit for bit the results of
  // separate buffers, over several steps.
  const Shape shape = {4, 5};
  const InstrAttrs attrs = {{}, {0.9, 0.999, 1e-8, 0.05}};
  Tensor p = f32(shape, randomValues(20, 1, -1, 1));
  Tensor m = f32(shape, randomValues(20, 2, -0.1, 0.1));
  Tensor v = f32(shape, randomValues(20, 3, 0, 0.01));
  Tensor p2 = *p.clone(), m2 = *m.clone(), v2 = *v.clone();
  for (int t = 1; t <= 3; ++t) {
    Tensor g = f32(shape, randomValues(20, 10 + t, -1, 1));
    Tensor lr = scalar(1e-3), step = scalar(t + 4), gs = scalar(0.9);
    ASSERT_TRUE(runCpuKernel(OpCode::AdamW, attrs,
                             {&p, &g, &m, &v, &lr, &step, &gs}, {&p, &m, &v})
                    .isOk());
    Tensor pOut = alloc(DType::F32, shape), mOut = alloc(DType::F32, shape),
           vOut = alloc(DType::F32, shape);
    ASSERT_TRUE(runCpuKernel(OpCode::AdamW, attrs,
                             {&p2, &g, &m2, &v2, &lr, &step, &gs},
                             {&pOut, &mOut, &vOut})
                    .isOk());
    EXPECT_EQ(rawValues<float>(p), rawValues<float>(pOut));
    EXPECT_EQ(rawValues<float>(m), rawValues<float>(mOut));
    EXPECT_EQ(rawValues<float>(v), rawValues<float>(vOut));
    p2 = std::move(pOut);
    m2 = std::move(mOut);
    v2 = std::move(vOut);
  }
}

TEST(OptimizerKernelTest, SgdInPlace) {
  const Shape shape = {7};
  const InstrAttrs attrs = {{}, {0.9, 0.0, 1e-4, 1.0}};
  Tensor p = f32(shape, randomValues(7, 1, -1, 1));
  Tensor b = f32(shape, randomValues(7, 2, -1, 1));
  Tensor p2 = *p.clone(), b2 = *b.clone();
  for (int t = 1; t <= 3; ++t) {
    Tensor g = f32(shape, randomValues(7, 10 + t, -1, 1));
    Tensor lr = scalar(0.05), step = scalar(t), gs = scalar(1.0);
    ASSERT_TRUE(runCpuKernel(OpCode::Sgd, attrs, {&p, &g, &b, &lr, &step, &gs},
                             {&p, &b})
                    .isOk());
    Tensor pOut = alloc(DType::F32, shape), bOut = alloc(DType::F32, shape);
    ASSERT_TRUE(runCpuKernel(OpCode::Sgd, attrs,
                             {&p2, &g, &b2, &lr, &step, &gs}, {&pOut, &bOut})
                    .isOk());
    EXPECT_EQ(rawValues<float>(p), rawValues<float>(pOut));
    EXPECT_EQ(rawValues<float>(b), rawValues<float>(bOut));
    p2 = std::move(pOut);
    b2 = std::move(bOut);
  }
}

TEST(OptimizerKernelTest, Mnemonics) {
  EXPECT_EQ(opCodeFromMnemonic("adamw"), OpCode::AdamW);
  EXPECT_EQ(opCodeFromMnemonic("sgd"), OpCode::Sgd);
  EXPECT_STREQ(opCodeMnemonic(OpCode::AdamW), "adamw");
}

/// The error message of an AdamW or SGD call that must fail.
std::string errorOf(OpCode op, const InstrAttrs &attrs,
                    const std::vector<const Tensor *> &in, size_t nOut,
                    DType outType = DType::F32, Shape outShape = {4}) {
  std::vector<Tensor> outs;
  for (size_t i = 0; i < nOut; ++i)
    outs.push_back(alloc(outType, outShape));
  std::vector<Tensor *> ptrs;
  for (Tensor &t : outs)
    ptrs.push_back(&t);
  Status st = runCpuKernel(op, attrs, in, ptrs);
  EXPECT_FALSE(st.isOk()) << opCodeMnemonic(op) << " unexpectedly succeeded";
  return st.message();
}

TEST(OptimizerKernelTest, Errors) {
  Tensor p = f32({4}, {1, 2, 3, 4}), g = f32({4}, {1, 1, 1, 1});
  Tensor m = alloc(DType::F32, {4}), v = alloc(DType::F32, {4});
  Tensor lr = scalar(0.1), step = scalar(1), gs = scalar(1);
  Tensor pd = make(DType::F64, {4}, {1, 2, 3, 4});
  Tensor g5 = f32({5}, {1, 1, 1, 1, 1});
  Tensor lr1 = f32({1}, {0.1});
  Tensor step0 = scalar(0), stepNan = scalar(NAN);
  const InstrAttrs adam = {{}, {0.9, 0.999, 1e-8, 0.0}};
  // Operand and result counts, attribute counts.
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &step}, 3),
            "adamw: expected 7 operands, got 6");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &step, &gs}, 2),
            "adamw: expected 3 results, got 2");
  EXPECT_EQ(errorOf(OpCode::AdamW, {{}, {0.9, 0.999, 1e-8}},
                    {&p, &g, &m, &v, &lr, &step, &gs}, 3),
            "adamw: expected 4 floating attributes, got 3");
  // Element types (f32 only for now) and shapes.
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&pd, &g, &m, &v, &lr, &step, &gs}, 3),
            "adamw: param must have element type f32, got f64[4]");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &step, &gs}, 3,
                    DType::F64),
            "adamw: updated param must have element type f32, got f64[4]");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g5, &m, &v, &lr, &step, &gs}, 3),
            "adamw: grad must have shape [4], got f32[5]");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr1, &step, &gs}, 3),
            "adamw: lr must have shape [], got f32[1]");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &step, &gs}, 3,
                    DType::F32, {2, 2}),
            "adamw: updated param must have shape [4], got f32[2,2]");
  // Attribute ranges and the step count.
  EXPECT_EQ(errorOf(OpCode::AdamW, {{}, {1.0, 0.999, 1e-8, 0.0}},
                    {&p, &g, &m, &v, &lr, &step, &gs}, 3),
            "adamw: beta1 must be in [0, 1), got 1");
  EXPECT_EQ(errorOf(OpCode::AdamW, {{}, {0.9, 0.999, -1.0, 0.0}},
                    {&p, &g, &m, &v, &lr, &step, &gs}, 3),
            "adamw: eps must be finite and >= 0, got -1");
  EXPECT_EQ(errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &step0, &gs}, 3),
            "adamw: step must be a finite count >= 1, got 0");
  EXPECT_TRUE(startsWith(
      errorOf(OpCode::AdamW, adam, {&p, &g, &m, &v, &lr, &stepNan, &gs}, 3),
      "adamw: step must be a finite count >= 1"));

  const InstrAttrs sgd = {{}, {0.9, 0.0, 0.0, 0.0}};
  EXPECT_EQ(errorOf(OpCode::Sgd, sgd, {&p, &g, &m, &lr, &step}, 2),
            "sgd: expected 6 operands, got 5");
  EXPECT_EQ(errorOf(OpCode::Sgd, sgd, {&p, &g, &pd, &lr, &step, &gs}, 2),
            "sgd: momentum_buffer must have element type f32, got f64[4]");
  EXPECT_EQ(errorOf(OpCode::Sgd, sgd, {&p, &g5, &m, &lr, &step, &gs}, 2),
            "sgd: grad must have shape [4], got f32[5]");
  EXPECT_EQ(errorOf(OpCode::Sgd, {{}, {0.9, 0.0, 0.0, 0.5}},
                    {&p, &g, &m, &lr, &step, &gs}, 2),
            "sgd: nesterov must be 0 or 1, got 0.5");
  EXPECT_EQ(errorOf(OpCode::Sgd, {{}, {0.9, 0.1, 0.0, 1.0}},
                    {&p, &g, &m, &lr, &step, &gs}, 2),
            "sgd: nesterov momentum needs a momentum > 0 and zero dampening, "
            "got momentum 0.9 and dampening 0.1");
  EXPECT_EQ(errorOf(OpCode::Sgd, {{}, {-0.5, 0.0, 0.0, 0.0}},
                    {&p, &g, &m, &lr, &step, &gs}, 2),
            "sgd: momentum must be finite and >= 0, got -0.5");
  EXPECT_EQ(errorOf(OpCode::Sgd, {{}, {0.9, NAN, 0.0, 0.0}},
                    {&p, &g, &m, &lr, &step, &gs}, 2),
            "sgd: dampening must be finite, got nan");
  EXPECT_EQ(errorOf(OpCode::Sgd, sgd, {&p, &g, &m, &lr, &step0, &gs}, 2),
            "sgd: step must be a finite count >= 1, got 0");
}

} // namespace
