//===- ForeachKernelTest.cpp - Multi-tensor optimizer instructions --------===//
//
// ForeachAdamW, ForeachSumSquare and ForeachCast against their single-tensor
// instructions run tensor by tensor (AdamW of the widened gradient, the sum
// of squares written out in double, Cast), in place and with results that
// alias another tensor's operands, and their operand checks.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstring>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

Tensor scalar(double v) { return make(DType::F32, {}, {v}); }

Tensor castTo(const Tensor &x, DType to) {
  Tensor y = alloc(to, x.shape());
  EXPECT_TRUE(runCpuKernel(OpCode::Cast, OpAttrs(), {&x}, {&y}).isOk());
  return y;
}

const Shape kShapes[] = {{1}, {3, 7}, {5}, {2, 3, 4}};
const DType kGradTypes[] = {DType::F32, DType::BF16, DType::F16, DType::BF16};
constexpr size_t kTensors = 4;

/// The state of kTensors parameters: param, grad, exp_avg, exp_avg_sq.
struct Params {
  std::vector<Tensor> p, g, m, v;
  explicit Params(uint64_t seed) {
    for (size_t j = 0; j < kTensors; ++j) {
      const int64_t n = shapeNumElements(kShapes[j]);
      p.push_back(
          make(DType::F32, kShapes[j], randomValues(n, seed + j, -1, 1)));
      g.push_back(make(kGradTypes[j], kShapes[j],
                       randomValues(n, seed + 10 + j, -1, 1)));
      m.push_back(make(DType::F32, kShapes[j],
                       randomValues(n, seed + 20 + j, -0.1, 0.1)));
      v.push_back(make(DType::F32, kShapes[j],
                       randomValues(n, seed + 30 + j, 0, 0.01)));
    }
  }
  /// A ForeachAdamW's operands: the four lists, then the scalars.
  std::vector<const Tensor *> operands(Tensor &lr, Tensor &step,
                                       Tensor &gradScale) {
    std::vector<const Tensor *> in;
    for (auto *list : {&p, &g, &m, &v})
      for (Tensor &t : *list)
        in.push_back(&t);
    in.insert(in.end(), {&lr, &step, &gradScale});
    return in;
  }
};

std::vector<Tensor *> pointers(std::vector<Tensor> &ts) {
  std::vector<Tensor *> out;
  for (Tensor &t : ts)
    out.push_back(&t);
  return out;
}

const InstrAttrs kAdam = {{}, {0.9, 0.95, 1e-8, 0.1}};

} // namespace

TEST(ForeachKernelTest, AdamWEqualsAdamWPerTensor) {
  Params a(1), b(1);
  Tensor lr = scalar(3e-3), step = scalar(4), gs = scalar(0.8);
  // One ForeachAdamW, results in fresh buffers.
  std::vector<Tensor> outs;
  for (size_t k = 0; k < 3; ++k)
    for (size_t j = 0; j < kTensors; ++j)
      outs.push_back(alloc(DType::F32, kShapes[j]));
  ASSERT_TRUE(runCpuKernel(OpCode::ForeachAdamW, kAdam,
                           a.operands(lr, step, gs), pointers(outs))
                  .isOk());
  // AdamW on each tensor, its gradient widened to f32 first.
  for (size_t j = 0; j < kTensors; ++j) {
    SCOPED_TRACE("tensor " + std::to_string(j));
    Tensor g = castTo(b.g[j], DType::F32);
    ASSERT_TRUE(runCpuKernel(OpCode::AdamW, kAdam,
                             {&b.p[j], &g, &b.m[j], &b.v[j], &lr, &step, &gs},
                             {&b.p[j], &b.m[j], &b.v[j]})
                    .isOk());
    EXPECT_EQ(rawValues<float>(outs[j]), rawValues<float>(b.p[j]));
    EXPECT_EQ(rawValues<float>(outs[kTensors + j]), rawValues<float>(b.m[j]));
    EXPECT_EQ(rawValues<float>(outs[2 * kTensors + j]),
              rawValues<float>(b.v[j]));
  }
}

TEST(ForeachKernelTest, AdamWCopiesAreCastsOfTheNewParameters) {
  // With 4N results the last N are the new parameters cast to their types
  // (bf16, f16), the first 3N unchanged.
  Params a(2);
  Tensor lr = scalar(3e-3), step = scalar(4), gs = scalar(0.8);
  const std::vector<const Tensor *> in = a.operands(lr, step, gs);
  std::vector<Tensor> plain, copied;
  for (size_t k = 0; k < 4; ++k)
    for (size_t j = 0; j < kTensors; ++j) {
      if (k < 3)
        plain.push_back(alloc(DType::F32, kShapes[j]));
      copied.push_back(alloc(k < 3   ? DType::F32
                             : j % 2 ? DType::F16
                                     : DType::BF16,
                             kShapes[j]));
    }
  ASSERT_TRUE(
      runCpuKernel(OpCode::ForeachAdamW, kAdam, in, pointers(plain)).isOk());
  ASSERT_TRUE(
      runCpuKernel(OpCode::ForeachAdamW, kAdam, in, pointers(copied)).isOk());
  for (size_t j = 0; j < kTensors; ++j) {
    SCOPED_TRACE("tensor " + std::to_string(j));
    for (size_t k = 0; k < 3; ++k)
      EXPECT_EQ(rawValues<float>(plain[k * kTensors + j]),
                rawValues<float>(copied[k * kTensors + j]));
    Tensor &copy = copied[3 * kTensors + j];
    Tensor expected = castTo(plain[j], copy.dtype());
    EXPECT_EQ(std::memcmp(copy.data(), expected.data(), copy.byteSize()), 0);
  }
}

TEST(ForeachKernelTest, AdamWInPlaceAndAcrossTensors) {
  // In place (each result in its own operand's buffer) equals separate
  // buffers. Two tensors of one shape whose results alias each other's
  // operands (tensor 0's param' is tensor 1's param) still see the old
  // values: the kernel computes into scratch buffers.
  const Shape shape = {6};
  Tensor p0 = make(DType::F32, shape, randomValues(6, 1, -1, 1));
  Tensor p1 = make(DType::F32, shape, randomValues(6, 2, -1, 1));
  Tensor g0 = make(DType::F32, shape, randomValues(6, 3, -1, 1));
  Tensor g1 = make(DType::BF16, shape, randomValues(6, 4, -1, 1));
  Tensor m0 = make(DType::F32, shape, randomValues(6, 5, -0.1, 0.1));
  Tensor m1 = make(DType::F32, shape, randomValues(6, 6, -0.1, 0.1));
  Tensor v0 = make(DType::F32, shape, randomValues(6, 7, 0, 0.01));
  Tensor v1 = make(DType::F32, shape, randomValues(6, 8, 0, 0.01));
  Tensor lr = scalar(1e-2), step = scalar(2), gs = scalar(1);
  std::vector<const Tensor *> in = {&p0, &p1, &g0, &g1,   &m0, &m1,
                                    &v0, &v1, &lr, &step, &gs};
  std::vector<Tensor> fresh;
  for (int k = 0; k < 6; ++k)
    fresh.push_back(alloc(DType::F32, shape));
  std::vector<Tensor *> out;
  for (Tensor &t : fresh)
    out.push_back(&t);
  ASSERT_TRUE(runCpuKernel(OpCode::ForeachAdamW, kAdam, in, out).isOk());

  Tensor q0 = *p0.clone(), q1 = *p1.clone(), n0 = *m0.clone(), n1 = *m1.clone(),
         w0 = *v0.clone(), w1 = *v1.clone();
  ASSERT_TRUE(
      runCpuKernel(OpCode::ForeachAdamW, kAdam,
                   {&q0, &q1, &g0, &g1, &n0, &n1, &w0, &w1, &lr, &step, &gs},
                   {&q0, &q1, &n0, &n1, &w0, &w1})
          .isOk());
  EXPECT_EQ(rawValues<float>(q0), rawValues<float>(fresh[0]));
  EXPECT_EQ(rawValues<float>(q1), rawValues<float>(fresh[1]));
  EXPECT_EQ(rawValues<float>(w1), rawValues<float>(fresh[5]));

  Tensor r0 = *p0.clone(), r1 = *p1.clone();
  Tensor mo0 = alloc(DType::F32, shape), mo1 = alloc(DType::F32, shape),
         vo0 = alloc(DType::F32, shape), vo1 = alloc(DType::F32, shape);
  ASSERT_TRUE(
      runCpuKernel(OpCode::ForeachAdamW, kAdam,
                   {&r0, &r1, &g0, &g1, &m0, &m1, &v0, &v1, &lr, &step, &gs},
                   {&r1, &r0, &mo0, &mo1, &vo0, &vo1})
          .isOk());
  EXPECT_EQ(rawValues<float>(r1), rawValues<float>(fresh[0]));
  EXPECT_EQ(rawValues<float>(r0), rawValues<float>(fresh[1]));
}

TEST(ForeachKernelTest, SumSquareOfEachTensor) {
  Params a(7);
  Tensor empty = alloc(DType::BF16, {0, 3});
  std::vector<const Tensor *> in;
  for (Tensor &t : a.g)
    in.push_back(&t);
  in.push_back(&empty);
  Tensor y = alloc(DType::F32, {int64_t(in.size())});
  ASSERT_TRUE(
      runCpuKernel(OpCode::ForeachSumSquare, OpAttrs(), in, {&y}).isOk());
  const std::vector<double> got = values(y);
  for (size_t j = 0; j < in.size(); ++j) {
    double expected = 0;
    for (double x : values(*in[j]))
      expected += x * x;
    EXPECT_EQ(got[j], double(float(expected))) << "tensor " << j;
  }
}

TEST(ForeachKernelTest, CastEqualsCastPerTensor) {
  Params a(9);
  std::vector<const Tensor *> in;
  std::vector<Tensor> outs;
  for (Tensor &t : a.p) {
    in.push_back(&t);
    outs.push_back(alloc(DType::BF16, t.shape()));
  }
  std::vector<Tensor *> out;
  for (Tensor &t : outs)
    out.push_back(&t);
  ASSERT_TRUE(runCpuKernel(OpCode::ForeachCast, OpAttrs(), in, out).isOk());
  for (size_t j = 0; j < kTensors; ++j)
    EXPECT_EQ(rawValues<uint16_t>(outs[j]),
              rawValues<uint16_t>(castTo(a.p[j], DType::BF16)));
}

TEST(ForeachKernelTest, Errors) {
  Tensor p = make(DType::F32, {4}, {1, 2, 3, 4});
  Tensor p3 = make(DType::F32, {3}, {1, 2, 3});
  Tensor g64 = make(DType::F64, {4}, {1, 1, 1, 1});
  Tensor lr = scalar(0.1), step = scalar(1), gs = scalar(1);
  Tensor a = alloc(DType::F32, {4}), b = alloc(DType::F32, {4}),
         c = alloc(DType::F32, {4});
  auto error = [](OpCode op, const InstrAttrs &attrs,
                  std::vector<const Tensor *> in, std::vector<Tensor *> out) {
    Status st = runCpuKernel(op, attrs, in, out);
    EXPECT_FALSE(st.isOk());
    return st.message();
  };
  EXPECT_EQ(error(OpCode::ForeachAdamW, kAdam, {&p, &p, &p, &lr, &step, &gs},
                  {&a, &b, &c}),
            "foreach_adamw: expected 4N + 3 operands and 3N results, or 4N "
            "with the parameters' copies (N >= 1), got 6 operands and 3 "
            "results");
  Tensor copy32 = alloc(DType::F32, {4}), copy3 = alloc(DType::BF16, {3});
  EXPECT_EQ(error(OpCode::ForeachAdamW, kAdam,
                  {&p, &p, &p, &p, &lr, &step, &gs}, {&a, &b, &c, &copy32}),
            "foreach_adamw: parameter copy 0 must be bf16 or f16, got f32[4]");
  EXPECT_EQ(error(OpCode::ForeachAdamW, kAdam,
                  {&p, &p, &p, &p, &lr, &step, &gs}, {&a, &b, &c, &copy3}),
            "foreach_adamw: parameter copy must have shape [4], got bf16[3]");
  EXPECT_EQ(error(OpCode::ForeachAdamW, kAdam,
                  {&p, &g64, &p, &p, &lr, &step, &gs}, {&a, &b, &c}),
            "foreach_adamw: grad 0 must be f32, bf16 or f16, got f64[4]");
  EXPECT_EQ(error(OpCode::ForeachAdamW, kAdam,
                  {&p, &p, &p3, &p, &lr, &step, &gs}, {&a, &b, &c}),
            "foreach_adamw: exp_avg must have shape [4], got f32[3]");
  EXPECT_EQ(error(OpCode::ForeachAdamW, {{}, {0.9, 1.5, 1e-8, 0.0}},
                  {&p, &p, &p, &p, &lr, &step, &gs}, {&a, &b, &c}),
            "foreach_adamw: beta2 must be in [0, 1), got 1.5");
  Tensor y3 = alloc(DType::F32, {3});
  EXPECT_EQ(error(OpCode::ForeachSumSquare, {}, {&p, &p}, {&y3}),
            "foreach_sum_square: result must have shape [2], got f32[3]");
  Tensor h = alloc(DType::BF16, {4});
  EXPECT_EQ(error(OpCode::ForeachCast, {}, {&p, &h}, {&a, &b}),
            "foreach_cast: operand must have element type f32, got bf16[4]");
  EXPECT_EQ(error(OpCode::ForeachCast, {}, {&p}, {&a, &b}),
            "foreach_cast: expected N >= 1 operands and as many results, got "
            "1 operands and 2 results");
}
