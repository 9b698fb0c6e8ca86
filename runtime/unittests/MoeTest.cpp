//===- MoeTest.cpp - MoeExperts and its gradient on the CPU ---------------===//

#include "TestUtil.h"

#include <cmath>
#include <random>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

struct MoeCase {
  int64_t tokens = 5, hidden = 6, k = 2, experts = 3, inner = 4;
  int64_t activation = 0;
  bool gated = true;
  int64_t f() const { return gated ? 2 * inner : inner; }
};

Tensor random(const Shape &shape, std::mt19937 &rng, double scale = 0.5) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Tensor t = alloc(DType::F32, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElem(t, i, u(rng));
  return t;
}

double act(int64_t kind, double x) {
  switch (kind) {
  case 1:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case 2:
    return 0.5 * x *
           (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  case 3:
    return x > 0 ? x : 0;
  default:
    return x / (1 + std::exp(-x));
  }
}

/// The op's definition, in double.
std::vector<double> reference(const MoeCase &c, const Tensor &x,
                              const Tensor &idx, const Tensor &w,
                              const Tensor &wIn, const Tensor &wOut) {
  const int64_t H = c.hidden, F = c.f(), I = c.inner;
  std::vector<double> y(c.tokens * H, 0);
  for (int64_t t = 0; t < c.tokens; ++t)
    for (int64_t j = 0; j < c.k; ++j) {
      const int64_t e = int64_t(getElem(idx, t * c.k + j));
      std::vector<double> h(F, 0), a(I, 0);
      for (int64_t r = 0; r < F; ++r)
        for (int64_t q = 0; q < H; ++q)
          h[r] += getElem(wIn, (e * F + r) * H + q) * getElem(x, t * H + q);
      for (int64_t r = 0; r < I; ++r)
        a[r] = c.gated ? act(c.activation, h[r]) * h[I + r]
                       : act(c.activation, h[r]);
      for (int64_t r = 0; r < H; ++r) {
        double o = 0;
        for (int64_t q = 0; q < I; ++q)
          o += getElem(wOut, (e * H + r) * I + q) * a[q];
        y[t * H + r] += getElem(w, t * c.k + j) * o;
      }
    }
  return y;
}

InstrAttrs attrsOf(const MoeCase &c) {
  return {{c.activation, c.gated ? 1 : 0}, {}};
}

} // namespace

TEST(MoeTest, ForwardMatchesTheDefinition) {
  std::mt19937 rng(7);
  for (int64_t activation = 0; activation < 4; ++activation) {
    for (bool gated : {true, false}) {
      MoeCase c;
      c.activation = activation;
      c.gated = gated;
      Tensor x = random({c.tokens, c.hidden}, rng);
      Tensor w = random({c.tokens, c.k}, rng);
      Tensor wIn = random({c.experts, c.f(), c.hidden}, rng);
      Tensor wOut = random({c.experts, c.hidden, c.inner}, rng);
      // Expert 2 unused; token 3 picks expert 0 twice.
      Tensor idx =
          make(DType::I64, {c.tokens, c.k}, {0, 1, 1, 0, 0, 1, 0, 0, 1, 1});
      Tensor y =
          run1(OpCode::MoeExperts, attrsOf(c), {&x, &idx, &w, &wIn, &wOut},
               DType::F32, {c.tokens, c.hidden});
      const std::vector<double> want = reference(c, x, idx, w, wIn, wOut);
      const std::vector<double> got = values(y);
      for (size_t i = 0; i < want.size(); ++i)
        EXPECT_NEAR(got[i], want[i], 1e-5)
            << "activation " << activation << " gated " << gated << " at " << i;
    }
  }
}

/// The gradients against central differences of the double reference.
TEST(MoeTest, GradientsMatchFiniteDifferences) {
  std::mt19937 rng(11);
  for (bool gated : {true, false}) {
    MoeCase c;
    c.gated = gated;
    c.activation = gated ? 0 : 1;
    Tensor x = random({c.tokens, c.hidden}, rng);
    Tensor w = random({c.tokens, c.k}, rng);
    Tensor wIn = random({c.experts, c.f(), c.hidden}, rng);
    Tensor wOut = random({c.experts, c.hidden, c.inner}, rng);
    Tensor idx =
        make(DType::I64, {c.tokens, c.k}, {0, 2, 1, 0, 2, 1, 0, 0, 1, 2});
    Tensor dy = random({c.tokens, c.hidden}, rng, 1.0);
    Tensor dx = alloc(DType::F32, x.shape()), dw = alloc(DType::F32, w.shape()),
           dwIn = alloc(DType::F32, wIn.shape()),
           dwOut = alloc(DType::F32, wOut.shape());
    ASSERT_TRUE(run(OpCode::MoeExpertsGrad, attrsOf(c),
                    {&dy, &x, &idx, &w, &wIn, &wOut}, {&dx, &dw, &dwIn, &dwOut})
                    .isOk());
    // loss = sum(dy * y): d loss / d p = the gradient's element.
    auto loss = [&] {
      const std::vector<double> y = reference(c, x, idx, w, wIn, wOut);
      double l = 0;
      for (size_t i = 0; i < y.size(); ++i)
        l += getElem(dy, int64_t(i)) * y[i];
      return l;
    };
    std::pair<Tensor *, Tensor *> pairs[] = {
        {&x, &dx}, {&w, &dw}, {&wIn, &dwIn}, {&wOut, &dwOut}};
    for (auto [param, grad] : pairs) {
      for (int64_t i = 0; i < param->numElements(); i += 3) {
        const double v = getElem(*param, i), h = 1e-3;
        setElem(*param, i, v + h);
        const double up = loss();
        setElem(*param, i, v - h);
        const double down = loss();
        setElem(*param, i, v);
        EXPECT_NEAR(getElem(*grad, i), (up - down) / (2 * h), 2e-3)
            << "gated " << gated << " element " << i;
      }
    }
  }
}

TEST(MoeTest, Errors) {
  std::mt19937 rng(3);
  MoeCase c;
  Tensor x = random({c.tokens, c.hidden}, rng);
  Tensor w = random({c.tokens, c.k}, rng);
  Tensor wIn = random({c.experts, c.f(), c.hidden}, rng);
  Tensor wOut = random({c.experts, c.hidden, c.inner}, rng);
  Tensor idx =
      make(DType::I64, {c.tokens, c.k}, {0, 1, 1, 0, 0, 3, 0, 0, 1, 1});
  EXPECT_EQ(runError(OpCode::MoeExperts, attrsOf(c),
                     {&x, &idx, &w, &wIn, &wOut}, DType::F32,
                     {c.tokens, c.hidden}),
            "moe_experts: token 2 picks expert 3, outside [0, 3)");
  Tensor small = random({c.experts, c.inner, c.hidden}, rng);
  EXPECT_EQ(runError(OpCode::MoeExperts, attrsOf(c),
                     {&x, &idx, &w, &small, &wOut}, DType::F32,
                     {c.tokens, c.hidden}),
            "moe_experts: w_in must have shape [3,8,6], got f32[3,4,6]");
}

/// ExpertLoad counts each expert's slots; indices outside [0, E) count
/// nowhere (moe_experts refuses them).
TEST(MoeTest, ExpertLoadCountsEachExpertsSlots) {
  Tensor idx = make(DType::I64, {5, 2}, {0, 1, 1, 0, 0, 3, 2, 2, -1, 1});
  Tensor counts = run1(OpCode::ExpertLoad, {}, {&idx}, DType::F32, {3});
  EXPECT_EQ(values(counts), (std::vector<double>{3, 3, 2}));
  Tensor none = make(DType::I64, {0, 2}, {});
  EXPECT_EQ(values(run1(OpCode::ExpertLoad, {}, {&none}, DType::F32, {2})),
            (std::vector<double>{0, 0}));
  Tensor flat = make(DType::I64, {4}, {0, 1, 2, 3});
  EXPECT_EQ(runError(OpCode::ExpertLoad, {}, {&flat}, DType::F32, {4}),
            "expert_load: needs indices [T, k] and counts [E], E >= 1, got "
            "i64[4] and f32[4]");
  EXPECT_EQ(runError(OpCode::ExpertLoad, {}, {&idx}, DType::BF16, {3}),
            "expert_load: counts must have element type f32, got bf16[3]");
}
