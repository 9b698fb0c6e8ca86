//===- LinearTest.cpp - The linear instruction and its addends ------------===//
//
// Against loops written here: y = x @ w (+ bias) (+ residual), the operand
// flags and the old one-integer form, and how a runner resolves "bias and
// residual on the group's first member" (localLinear).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "paracc/runtime/LinearAddends.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

constexpr int64_t kM = 3, kK = 4, kN = 5;

std::vector<double> reference(const Tensor &x, const Tensor &w,
                              const Tensor *bias, const Tensor *residual) {
  std::vector<double> y(kM * kN);
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < kK; ++k)
        acc += getElem(x, i * kK + k) * getElem(w, k * kN + j);
      if (bias)
        acc += getElem(*bias, j);
      if (residual)
        acc += getElem(*residual, i * kN + j);
      y[i * kN + j] = acc;
    }
  return y;
}

struct Operands {
  Tensor x = iota(DType::F32, {kM, kK}, 0.25);
  Tensor w = iota(DType::F32, {kK, kN}, -0.5);
  Tensor b = iota(DType::F32, {kN}, 2.0);
  Tensor r = iota(DType::F32, {kM, kN}, 0.125);
};

TEST(LinearTest, BiasAndResidualFlags) {
  Operands o;
  InstrAttrs attrs;
  attrs.ints = {0, 3};
  Tensor y = run1(OpCode::Linear, attrs, {&o.x, &o.w, &o.b, &o.r}, DType::F32,
                  {kM, kN});
  expectNear(values(y), reference(o.x, o.w, &o.b, &o.r));
  attrs.ints = {0, 2};
  y = run1(OpCode::Linear, attrs, {&o.x, &o.w, &o.r}, DType::F32, {kM, kN});
  expectNear(values(y), reference(o.x, o.w, nullptr, &o.r));
  attrs.ints = {0, 1};
  y = run1(OpCode::Linear, attrs, {&o.x, &o.w, &o.b}, DType::F32, {kM, kN});
  expectNear(values(y), reference(o.x, o.w, &o.b, nullptr));
  // The one-integer form: a third operand is a bias.
  attrs.ints = {0};
  y = run1(OpCode::Linear, attrs, {&o.x, &o.w, &o.b}, DType::F32, {kM, kN});
  expectNear(values(y), reference(o.x, o.w, &o.b, nullptr));
}

TEST(LinearTest, F32ResultOfBf16Operands) {
  // The f32 result is the product of the bf16 values without rounding: the
  // reference widens the same bf16 values.
  Tensor x = iota(DType::BF16, {kM, kK}, 0.3), w = iota(DType::BF16, {kK, kN}, -0.7);
  InstrAttrs attrs;
  attrs.ints = {0, 0};
  Tensor y = run1(OpCode::Linear, attrs, {&x, &w}, DType::F32, {kM, kN});
  expectNear(values(y), reference(x, w, nullptr, nullptr), 1e-6);
  Tensor b = iota(DType::BF16, {kN});
  attrs.ints = {0, 1};
  EXPECT_TRUE(startsWith(runError(OpCode::Linear, attrs, {&x, &w, &b},
                                  DType::F32, {kM, kN}),
                         "linear: an f32 result takes no bias"));
}

TEST(LinearTest, MalformedInstructions) {
  Operands o;
  InstrAttrs attrs;
  attrs.ints = {0, 3};
  EXPECT_TRUE(startsWith(runError(OpCode::Linear, attrs, {&o.x, &o.w, &o.b},
                                  DType::F32, {kM, kN}),
                         "linear: operand flags 3 need 4 operands, got 3"));
  attrs.ints = {1, 2};
  EXPECT_TRUE(startsWith(runError(OpCode::Linear, attrs, {&o.x, &o.w, &o.r},
                                  DType::F32, {kM, kN}),
                         "linear: a residual goes with no activation"));
  // An unresolved addend group reaches the kernel.
  attrs.ints = {0, 3, 1, 0};
  EXPECT_TRUE(
      startsWith(runError(OpCode::Linear, attrs, {&o.x, &o.w, &o.b, &o.r},
                          DType::F32, {kM, kN}),
                 "linear: an addend group (2 integer attributes) is "
                 "resolved by the runner"));
  Tensor r2 = iota(DType::F32, {1, kN});
  attrs.ints = {0, 2};
  EXPECT_TRUE(startsWith(runError(OpCode::Linear, attrs, {&o.x, &o.w, &r2},
                                  DType::F32, {kM, kN}),
                         "linear: residual f32[1,5] is not f32[3,5]"));
}

TEST(LinearTest, AddendsOnTheGroupsFirstMemberOnly) {
  Mesh mesh;
  mesh.axisNames = {"dp", "tp"};
  mesh.axisSizes = {2, 2};
  // As stored: activation 0, flags 3 (bias and residual), added by the
  // first member of each tp group.
  OpAttrs decoded;
  ASSERT_TRUE(
      decodeOpAttrs(OpCode::Linear, {{0, 3, 1, 1}, {}}, decoded).isOk());
  LinearAttrs stored = std::get<LinearAttrs>(decoded);
  EXPECT_EQ(stored.addendGroup, (std::vector<int64_t>{1, 1}));
  for (int64_t rank = 0; rank < 4; ++rank) {
    LinearAttrs attrs;
    size_t numInputs = 0;
    ASSERT_TRUE(localLinear(stored, 4, mesh, rank, attrs, numInputs).isOk());
    const bool first = rank % 2 == 0; // tp coordinate 0
    EXPECT_EQ(attrs.operandFlags, first ? 3 : 0) << "rank " << rank;
    EXPECT_TRUE(attrs.addendGroup.empty()) << "rank " << rank;
    EXPECT_EQ(numInputs, first ? 4u : 2u) << "rank " << rank;
  }
  // The sums over each tp group add bias and residual once.
  Operands o;
  std::vector<double> sum(kM * kN, 0.0);
  for (int64_t rank = 0; rank < 2; ++rank) {
    LinearAttrs attrs;
    size_t numInputs = 0;
    ASSERT_TRUE(localLinear(stored, 4, mesh, rank, attrs, numInputs).isOk());
    std::vector<const Tensor *> in = {&o.x, &o.w, &o.b, &o.r};
    in.resize(numInputs);
    Tensor y =
        run1(OpCode::Linear, encodeOpAttrs(attrs), in, DType::F32, {kM, kN});
    std::vector<double> v = values(y);
    for (size_t i = 0; i < v.size(); ++i)
      sum[i] += v[i];
  }
  std::vector<double> product = reference(o.x, o.w, nullptr, nullptr),
                      expected = reference(o.x, o.w, &o.b, &o.r);
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] += product[i]; // two members' products, one set of addends
  expectNear(sum, expected);
  // Malformed groups.
  LinearAttrs attrs;
  size_t numInputs = 0;
  stored.addendGroup = {2, 1};
  EXPECT_FALSE(localLinear(stored, 4, mesh, 0, attrs, numInputs).isOk());
  stored.addendGroup = {1, 7};
  EXPECT_FALSE(localLinear(stored, 4, mesh, 0, attrs, numInputs).isOk());
}

} // namespace
