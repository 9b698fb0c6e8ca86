//===- ExpertParallelTest.cpp - Expert parallelism's exchange -------------===//
//
// ExpertParallelMoe(Grad) on ranks as threads (Gloo in process): each rank
// holds its tokens and its block of the experts; the results equal the
// one-rank kernels' on all tokens and experts (their slices), including
// routings that leave a member without a record.

#include "TestUtil.h"

#include "Interpreter/ExpertParallel.h"
#include "paracc/runtime/GlooCommunicator.h"
#include "paracc/runtime/Kernels.h"

#include <random>
#include <thread>

using namespace paracc::rt;
using namespace paracc::rt::test;

#ifdef PARACC_HAVE_GLOO
namespace {

constexpr int64_t kHidden = 6, kInner = 4, kK = 2;

Tensor random(const Shape &shape, std::mt19937 &rng) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  Tensor t = alloc(DType::F32, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElem(t, i, u(rng));
  return t;
}

/// Rows [begin, begin + count) of `t` along dim 0, as a copy.
Tensor rows(const Tensor &t, int64_t begin, int64_t count) {
  Shape shape = t.shape();
  const int64_t row = t.numElements() / shape[0];
  shape[0] = count;
  Tensor out = alloc(t.dtype(), shape);
  for (int64_t i = 0; i < count * row; ++i) {
    if (t.dtype() == DType::I64)
      setElemInt(out, i, int64_t(getElem(t, begin * row + i)));
    else
      setElem(out, i, getElem(t, begin * row + i));
  }
  return out;
}

void expectNear(const Tensor &got, const Tensor &want, int64_t wantBegin,
                double tol) {
  const int64_t n = got.numElements();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_NEAR(getElem(got, i),
                getElem(want, wantBegin * (n / got.dim(0)) + i), tol)
        << "element " << i;
}

/// `members` ranks of `tokensPerRank` tokens each over `experts` experts;
/// `pick(t, j)` is token t's j-th expert. Runs the forward and the
/// gradient on every rank and compares with the one-rank kernels.
void checkExchange(int64_t members, int64_t tokensPerRank, int64_t experts,
                   const std::function<int64_t(int64_t, int64_t)> &pick) {
  std::mt19937 rng(7);
  const int64_t tokens = members * tokensPerRank, local = experts / members;
  Tensor x = random({tokens, kHidden}, rng),
         dy = random({tokens, kHidden}, rng);
  Tensor w = random({tokens, kK}, rng);
  Tensor wIn = random({experts, 2 * kInner, kHidden}, rng);
  Tensor wOut = random({experts, kHidden, kInner}, rng);
  Tensor idx = alloc(DType::I64, {tokens, kK});
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t j = 0; j < kK; ++j)
      setElemInt(idx, t * kK + j, pick(t, j));

  MoeExpertsAttrs one;
  one.gated = true;
  Tensor y = alloc(DType::F32, {tokens, kHidden});
  ASSERT_TRUE(
      runCpuKernel(OpCode::MoeExperts, one, {&x, &idx, &w, &wIn, &wOut}, {&y}));
  Tensor dx = alloc(DType::F32, x.shape()), dw = alloc(DType::F32, w.shape());
  Tensor dwIn = alloc(DType::F32, wIn.shape()),
         dwOut = alloc(DType::F32, wOut.shape());
  ASSERT_TRUE(runCpuKernel(OpCode::MoeExpertsGrad, one,
                           {&dy, &x, &idx, &w, &wIn, &wOut},
                           {&dx, &dw, &dwIn, &dwOut}));

  Mesh mesh{{"ep"}, {members}};
  auto world = GlooWorld::inProcess(mesh);
  std::vector<Status> status(static_cast<size_t>(members));
  std::vector<std::vector<Tensor>> results(static_cast<size_t>(members));
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < members; ++r)
    threads.emplace_back([&, r] {
      auto comm = world->communicator(r, std::chrono::seconds(30));
      Tensor lx = rows(x, r * tokensPerRank, tokensPerRank);
      Tensor ldy = rows(dy, r * tokensPerRank, tokensPerRank);
      Tensor li = rows(idx, r * tokensPerRank, tokensPerRank);
      Tensor lw = rows(w, r * tokensPerRank, tokensPerRank);
      Tensor lin = rows(wIn, r * local, local);
      Tensor lout = rows(wOut, r * local, local);
      std::vector<Tensor> &out = results[size_t(r)];
      out = {alloc(DType::F32, lx.shape()), alloc(DType::F32, lx.shape()),
             alloc(DType::F32, lw.shape()), alloc(DType::F32, lin.shape()),
             alloc(DType::F32, lout.shape())};
      ExpertParallelMoeAttrs attrs;
      attrs.axes = {0};
      attrs.gated = true;
      Status st = runExpertParallelMoe(*comm, attrs, false,
                                       {&lx, &li, &lw, &lin, &lout}, {&out[0]},
                                       members);
      if (st)
        st = runExpertParallelMoe(
            *comm, attrs, true, {&ldy, &lx, &li, &lw, &lin, &lout},
            {&out[1], &out[2], &out[3], &out[4]}, members);
      status[size_t(r)] = st;
    });
  for (std::thread &t : threads)
    t.join();
  for (int64_t r = 0; r < members; ++r) {
    ASSERT_TRUE(status[size_t(r)]) << status[size_t(r)].message();
    const std::vector<Tensor> &out = results[size_t(r)];
    expectNear(out[0], y, r * tokensPerRank, 1e-6);
    expectNear(out[1], dx, r * tokensPerRank, 1e-6);
    expectNear(out[2], dw, r * tokensPerRank, 1e-6);
    expectNear(out[3], dwIn, r * local, 1e-6);
    expectNear(out[4], dwOut, r * local, 1e-6);
  }
}

TEST(ExpertParallelTest, SpreadRoutingEqualsOneRank) {
  std::mt19937 rng(3);
  std::vector<int64_t> picks(64);
  for (int64_t &p : picks)
    p = int64_t(rng() % 8);
  checkExchange(4, 5, 8, [&](int64_t t, int64_t j) {
    // Two distinct experts per token.
    int64_t a = picks[size_t(t * 2)], b = picks[size_t(t * 2 + 1)];
    return j == 0 ? a : (b == a ? (a + 1) % 8 : b);
  });
}

TEST(ExpertParallelTest, AMemberWithoutRecords) {
  // Every token picks experts 0 and 1, both member 0's: member 1 runs its
  // experts on no record, and its weight gradients are zeros.
  checkExchange(2, 3, 4, [](int64_t, int64_t j) { return j; });
}

TEST(ExpertParallelTest, OneMemberGroup) {
  checkExchange(1, 4, 3, [](int64_t t, int64_t j) { return (t + j) % 3; });
}

TEST(ExpertParallelTest, IndexOutsideTheGroupsExperts) {
  Mesh mesh{{"ep"}, {1}};
  auto world = GlooWorld::inProcess(mesh);
  auto comm = world->communicator(0, std::chrono::seconds(5));
  Tensor x = alloc(DType::F32, {1, kHidden}),
         y = alloc(DType::F32, {1, kHidden});
  Tensor idx = alloc(DType::I64, {1, 1}), w = alloc(DType::F32, {1, 1});
  setElemInt(idx, 0, 5);
  Tensor wIn = alloc(DType::F32, {2, 2 * kInner, kHidden});
  Tensor wOut = alloc(DType::F32, {2, kHidden, kInner});
  ExpertParallelMoeAttrs attrs;
  attrs.axes = {0};
  Status st = runExpertParallelMoe(*comm, attrs, false,
                                   {&x, &idx, &w, &wIn, &wOut}, {&y}, 1);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("token 0 picks expert 5, outside [0, 2)"),
            std::string::npos)
      << st.message();
}

} // namespace
#endif // PARACC_HAVE_GLOO
