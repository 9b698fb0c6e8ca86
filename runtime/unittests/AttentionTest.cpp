//===- AttentionTest.cpp - The CPU attention kernel, both layouts ---------===//
//
// Against a textbook reference: for every (batch, head) the full score
// matrix, the mask added, a softmax and the product with v, written with
// multi-indices into [B, H, S, D] (default layout) or [B, S, H, D]
// (sequence-first) operands.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

struct Problem {
  int64_t b = 2, h = 3, sq = 5, sk = 7, d = 4, dv = 6;
  bool causal = false;
  bool sequenceFirst = false;
  int64_t window = 0; // with causal: only the last `window` visible keys
  Shape mask; // empty: none; else broadcast to [B, H, Sq, Sk]
};

Shape shapeOf(const Problem &p, int64_t s, int64_t x) {
  return p.sequenceFirst ? Shape{p.b, s, p.h, x} : Shape{p.b, p.h, s, x};
}

/// Element (bi, hi, si, xi) of an operand in the problem's layout.
double at(const Problem &p, const Tensor &t, int64_t bi, int64_t hi,
          int64_t si, int64_t xi) {
  const Shape &s = t.shape();
  std::vector<int64_t> idx = p.sequenceFirst
                                 ? std::vector<int64_t>{bi, si, hi, xi}
                                 : std::vector<int64_t>{bi, hi, si, xi};
  return getElem(t, ravel(idx, s));
}

/// The reference result, in the problem's layout, as a flat vector.
std::vector<double> reference(const Problem &p, const Tensor &q,
                              const Tensor &k, const Tensor &v,
                              const Tensor *mask, double scale,
                              std::vector<double> *logSumExp = nullptr) {
  if (logSumExp)
    logSumExp->assign(size_t(p.b * p.h * p.sq), 0.0);
  Shape yShape = shapeOf(p, p.sq, p.dv);
  std::vector<double> y(size_t(p.b * p.h * p.sq * p.dv), 0.0);
  const Shape scores = {p.b, p.h, p.sq, p.sk};
  for (int64_t bi = 0; bi < p.b; ++bi)
    for (int64_t hi = 0; hi < p.h; ++hi)
      for (int64_t i = 0; i < p.sq; ++i) {
        std::vector<double> s(size_t(p.sk));
        double maxv = -INFINITY;
        for (int64_t j = 0; j < p.sk; ++j) {
          double dot = 0;
          for (int64_t t = 0; t < p.d; ++t)
            dot += at(p, q, bi, hi, i, t) * at(p, k, bi, hi, j, t);
          s[j] = dot * scale;
          if (mask)
            s[j] += getElem(*mask, broadcastIndex({bi, hi, i, j},
                                                  mask->shape(), scores));
          if (p.causal && j > i + p.sk - p.sq)
            s[j] = -INFINITY;
          if (p.window > 0 && j <= i + p.sk - p.sq - p.window)
            s[j] = -INFINITY;
          maxv = std::max(maxv, s[j]);
        }
        double sum = 0;
        for (double &x : s) {
          x = std::isinf(maxv) ? 0 : std::exp(x - maxv);
          sum += x;
        }
        // [B, H, Sq] in both layouts.
        if (logSumExp)
          (*logSumExp)[size_t((bi * p.h + hi) * p.sq + i)] =
              sum > 0 ? maxv + std::log(sum) : -INFINITY;
        for (int64_t t = 0; t < p.dv; ++t) {
          double acc = 0;
          for (int64_t j = 0; j < p.sk; ++j)
            acc += s[j] * at(p, v, bi, hi, j, t);
          std::vector<int64_t> idx =
              p.sequenceFirst ? std::vector<int64_t>{bi, i, hi, t}
                              : std::vector<int64_t>{bi, hi, i, t};
          y[ravel(idx, yShape)] = sum > 0 ? acc / sum : 0;
        }
      }
  return y;
}

Tensor random(const Shape &s, uint64_t seed) {
  Tensor t = alloc(DType::F32, s);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    setElem(t, i, double(x % 2001) / 1000.0 - 1.0);
  }
  return t;
}

void check(const Problem &p) {
  Tensor q = random(shapeOf(p, p.sq, p.d), 1);
  Tensor k = random(shapeOf(p, p.sk, p.d), 2);
  Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
  Tensor mask;
  std::vector<const Tensor *> in = {&q, &k, &v};
  if (!p.mask.empty()) {
    mask = random(p.mask, 4);
    in.push_back(&mask);
  }
  const double scale = 0.7;
  InstrAttrs attrs;
  attrs.ints = {p.causal ? 1 : 0, p.sequenceFirst ? 1 : 0, p.window};
  attrs.floats = {scale};
  Tensor y = run1(OpCode::Attention, attrs, in, DType::F32,
                  shapeOf(p, p.sq, p.dv));
  expectNear(values(y),
             reference(p, q, k, v, p.mask.empty() ? nullptr : &mask, scale),
             1e-5);
}

TEST(AttentionTest, BothLayoutsMatchTheReference) {
  for (bool seqFirst : {false, true})
    for (bool causal : {false, true}) {
      SCOPED_TRACE(testing::Message() << "sequence-first " << seqFirst
                                      << ", causal " << causal);
      Problem p;
      p.sequenceFirst = seqFirst;
      p.causal = causal;
      check(p);
      p.sq = p.sk = 9;
      p.mask = {p.b, 1, 1, p.sk}; // key padding
      check(p);
      p.mask = {p.h, p.sq, p.sk}; // per head
      check(p);
    }
}

TEST(AttentionTest, SlidingWindow) {
  for (bool seqFirst : {false, true}) {
    SCOPED_TRACE(testing::Message() << "sequence-first " << seqFirst);
    Problem p;
    p.sequenceFirst = seqFirst;
    p.causal = true;
    p.sq = p.sk = 11;
    p.window = 3;
    check(p);
    p.sq = 6; // queries aligned at the end of the keys
    p.window = 4;
    p.mask = {p.b, 1, 1, p.sk};
    check(p);
    p.window = 1; // each query sees itself only
    check(p);
  }
}

TEST(AttentionTest, BlocksOfRowsAndKeys) {
  // More rows and keys than one block of each (64 x 256): the online
  // softmax across key blocks, causal and windowed block skipping, partial
  // blocks at the ends, a mask read through its strides.
  Problem p;
  p.b = 1;
  p.h = 2;
  p.d = 8;
  p.dv = 5;
  p.sq = 150;
  p.sk = 600;
  check(p);
  p.causal = true;
  check(p);
  p.window = 300;
  p.mask = {p.b, 1, p.sq, p.sk};
  check(p);
  p.sequenceFirst = true;
  p.window = 0;
  p.mask = {p.h, 1, p.sk};
  check(p);
}

TEST(AttentionTest, SavedStatisticsAreEachRowsLogSumExp) {
  // Causal with Sq > Sk: the first rows see no key (-inf); blocks of rows
  // and keys; a sliding window; both layouts.
  for (bool seqFirst : {false, true})
    for (int64_t window : {0, 3}) {
      SCOPED_TRACE(testing::Message()
                   << "sequence-first " << seqFirst << ", window " << window);
      Problem p;
      p.sequenceFirst = seqFirst;
      p.causal = true;
      p.sq = 300;
      p.sk = 290;
      p.window = window;
      p.mask = {p.b, 1, 1, p.sk};
      Tensor q = random(shapeOf(p, p.sq, p.d), 1);
      Tensor k = random(shapeOf(p, p.sk, p.d), 2);
      Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
      Tensor mask = random(p.mask, 4);
      InstrAttrs attrs;
      attrs.ints = {1, seqFirst ? 1 : 0, window, 1};
      attrs.floats = {0.7};
      Tensor y = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
      Tensor stats = alloc(DType::F32, seqFirst ? Shape{p.b, p.h, p.sq}
                                                : Shape{p.b, p.h, p.sq});
      ASSERT_TRUE(
          run(OpCode::Attention, attrs, {&q, &k, &v, &mask}, {&y, &stats})
              .isOk());
      std::vector<double> lse;
      expectNear(values(y), reference(p, q, k, v, &mask, 0.7, &lse), 1e-5);
      expectNear(values(stats), lse, 1e-5);
      EXPECT_TRUE(std::isinf(getElem(stats, 0)) && getElem(stats, 0) < 0);
    }
}

TEST(AttentionTest, SavedStatisticsErrors) {
  Problem p;
  Tensor q = random(shapeOf(p, p.sq, p.d), 1);
  Tensor k = random(shapeOf(p, p.sk, p.d), 2);
  Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
  Tensor y = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
  InstrAttrs attrs;
  attrs.ints = {0, 0, 0, 1};
  attrs.floats = {0.5};
  EXPECT_EQ(runError(OpCode::Attention, attrs, {&q, &k, &v}, DType::F32,
                     shapeOf(p, p.sq, p.dv)),
            "attention: expected 2 results, got 1");
  Tensor wrongShape = alloc(DType::F32, {p.b, p.h, p.sk});
  EXPECT_TRUE(startsWith(
      run(OpCode::Attention, attrs, {&q, &k, &v}, {&y, &wrongShape}).message(),
      "attention: stats"));
  Tensor wrongType = alloc(DType::F64, {p.b, p.h, p.sq});
  EXPECT_TRUE(startsWith(
      run(OpCode::Attention, attrs, {&q, &k, &v}, {&y, &wrongType}).message(),
      "attention: stats"));
  attrs.ints = {0, 0, 0, 2};
  Tensor stats = alloc(DType::F32, {p.b, p.h, p.sq});
  EXPECT_TRUE(startsWith(
      run(OpCode::Attention, attrs, {&q, &k, &v}, {&y, &stats}).message(),
      "attention: savedStats must be in [0, 1], got 2"));
}

TEST(AttentionTest, GradientWithSavedStatisticsIsTheSame) {
  // The saved result and statistics come after the mask, or in its place;
  // the gradients do not change.
  for (bool withMask : {false, true}) {
    SCOPED_TRACE(testing::Message() << "mask " << withMask);
    Problem p;
    p.causal = true;
    p.sq = p.sk = 9;
    Tensor q = random(shapeOf(p, p.sq, p.d), 1);
    Tensor k = random(shapeOf(p, p.sk, p.d), 2);
    Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
    Tensor dy = random(shapeOf(p, p.sq, p.dv), 5);
    Tensor mask = random({p.b, 1, 1, p.sk}, 4);
    InstrAttrs attrs;
    attrs.ints = {1, 0, 0, 1};
    attrs.floats = {0.7};
    std::vector<const Tensor *> fwdIn = {&q, &k, &v};
    if (withMask)
      fwdIn.push_back(&mask);
    Tensor y = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
    Tensor stats = alloc(DType::F32, {p.b, p.h, p.sq});
    ASSERT_TRUE(run(OpCode::Attention, attrs, fwdIn, {&y, &stats}).isOk());

    auto grads = [&](const InstrAttrs &a, bool saved) {
      std::vector<const Tensor *> in = {&dy, &q, &k, &v};
      if (withMask)
        in.push_back(&mask);
      if (saved) {
        in.push_back(&y);
        in.push_back(&stats);
      }
      std::vector<Tensor> out = {alloc(DType::F32, q.shape()),
                                 alloc(DType::F32, k.shape()),
                                 alloc(DType::F32, v.shape())};
      Status st =
          run(OpCode::AttentionGrad, a, in, {&out[0], &out[1], &out[2]});
      EXPECT_TRUE(st.isOk()) << st.message();
      return out;
    };
    InstrAttrs plain = attrs;
    plain.ints[3] = 0;
    std::vector<Tensor> want = grads(plain, false), got = grads(attrs, true);
    for (int i = 0; i < 3; ++i)
      expectNear(values(got[i]), values(want[i]), 0);

    // Saved, but the statistics missing.
    std::vector<const Tensor *> in = {&dy, &q, &k, &v, &y};
    Tensor a = alloc(DType::F32, q.shape()), b = alloc(DType::F32, k.shape()),
           c = alloc(DType::F32, v.shape());
    if (!withMask)
      EXPECT_EQ(run(OpCode::AttentionGrad, attrs, in, {&a, &b, &c}).message(),
                "attention_grad: expected 6 to 7 operands, got 5");
    // Statistics of the wrong shape.
    Tensor bad = alloc(DType::F32, {p.b, p.h, p.sq + 1});
    std::vector<const Tensor *> badIn = {&dy, &q, &k, &v, &y, &bad};
    EXPECT_TRUE(startsWith(
        run(OpCode::AttentionGrad, attrs, badIn, {&a, &b, &c}).message(),
        "attention_grad: stats"));
  }
}

/// k or v of `p.h / groups` heads repeated to p.h heads (query head i reads
/// key head i / groups), in the problem's layout.
Tensor repeatHeads(const Problem &p, const Tensor &t, int64_t groups, int64_t s,
                   int64_t x) {
  Tensor out = alloc(DType::F32, shapeOf(p, s, x));
  Problem narrow = p;
  narrow.h = p.h / groups;
  for (int64_t bi = 0; bi < p.b; ++bi)
    for (int64_t hi = 0; hi < p.h; ++hi)
      for (int64_t si = 0; si < s; ++si)
        for (int64_t xi = 0; xi < x; ++xi) {
          std::vector<int64_t> idx = p.sequenceFirst
                                         ? std::vector<int64_t>{bi, si, hi, xi}
                                         : std::vector<int64_t>{bi, hi, si, xi};
          setElem(out, ravel(idx, out.shape()),
                  at(narrow, t, bi, hi / groups, si, xi));
        }
  return out;
}

/// A gradient of the repeated k or v summed over each group of query heads.
std::vector<double> sumGroups(const Problem &p, const Tensor &g, int64_t groups,
                              int64_t s, int64_t x) {
  Problem narrow = p;
  narrow.h = p.h / groups;
  const Shape shape = shapeOf(narrow, s, x);
  std::vector<double> sums(size_t(p.b * narrow.h * s * x), 0.0);
  for (int64_t bi = 0; bi < p.b; ++bi)
    for (int64_t hi = 0; hi < p.h; ++hi)
      for (int64_t si = 0; si < s; ++si)
        for (int64_t xi = 0; xi < x; ++xi) {
          const int64_t kh = hi / groups;
          std::vector<int64_t> idx = p.sequenceFirst
                                         ? std::vector<int64_t>{bi, si, kh, xi}
                                         : std::vector<int64_t>{bi, kh, si, xi};
          sums[ravel(idx, shape)] += at(p, g, bi, hi, si, xi);
        }
  return sums;
}

TEST(AttentionTest, GroupedQueryHeadsReadSharedKeyHeads) {
  // Grouped-query attention (k and v with a divisor of q's heads) against
  // the textbook reference over k and v repeated to the query heads; its
  // gradients against the repeated attention's, dk and dv summed over each
  // group (the repeat's gradient), with and without saved statistics.
  for (bool seqFirst : {false, true})
    for (int64_t groups : {2, 4})
      for (bool masked : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << "sequence-first " << seqFirst << ", groups " << groups
                     << ", mask " << masked);
        Problem p;
        p.h = 4;
        p.sq = p.sk = 9;
        p.causal = true;
        p.sequenceFirst = seqFirst;
        Problem narrow = p;
        narrow.h = p.h / groups;
        Tensor q = random(shapeOf(p, p.sq, p.d), 1);
        Tensor k = random(shapeOf(narrow, p.sk, p.d), 2);
        Tensor v = random(shapeOf(narrow, p.sk, p.dv), 3);
        Tensor dy = random(shapeOf(p, p.sq, p.dv), 5);
        Tensor mask = random({p.b, 1, 1, p.sk}, 4);
        Tensor kRep = repeatHeads(p, k, groups, p.sk, p.d);
        Tensor vRep = repeatHeads(p, v, groups, p.sk, p.dv);
        InstrAttrs attrs;
        attrs.ints = {1, seqFirst ? 1 : 0, 0, 1};
        attrs.floats = {0.7};
        std::vector<const Tensor *> in = {&q, &k, &v};
        if (masked)
          in.push_back(&mask);
        Tensor y = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
        Tensor stats = alloc(DType::F32, {p.b, p.h, p.sq});
        Status st = run(OpCode::Attention, attrs, in, {&y, &stats});
        ASSERT_TRUE(st.isOk()) << st.message();
        expectNear(values(y),
                   reference(p, q, kRep, vRep, masked ? &mask : nullptr, 0.7),
                   1e-5);

        auto grads = [&](const Tensor &kk, const Tensor &vv, bool saved) {
          std::vector<const Tensor *> gin = {&dy, &q, &kk, &vv};
          if (masked)
            gin.push_back(&mask);
          if (saved) {
            gin.push_back(&y);
            gin.push_back(&stats);
          }
          InstrAttrs a = attrs;
          a.ints[3] = saved ? 1 : 0;
          std::vector<Tensor> out = {alloc(DType::F32, q.shape()),
                                     alloc(DType::F32, kk.shape()),
                                     alloc(DType::F32, vv.shape())};
          Status gst =
              run(OpCode::AttentionGrad, a, gin, {&out[0], &out[1], &out[2]});
          EXPECT_TRUE(gst.isOk()) << gst.message();
          return out;
        };
        std::vector<Tensor> want = grads(kRep, vRep, false);
        for (bool saved : {false, true}) {
          std::vector<Tensor> got = grads(k, v, saved);
          expectNear(values(got[0]), values(want[0]), 1e-5);
          expectNear(values(got[1]), sumGroups(p, want[1], groups, p.sk, p.d),
                     1e-5);
          expectNear(values(got[2]), sumGroups(p, want[2], groups, p.sk, p.dv),
                     1e-5);
        }
      }
}

TEST(AttentionTest, KeyHeadsMustDivideQueryHeads) {
  InstrAttrs attrs;
  attrs.ints = {0, 0};
  attrs.floats = {1.0};
  // Default layout [B, H, S, D]: 4 query heads, 3 key heads.
  Tensor q = alloc(DType::F32, {2, 4, 5, 8}),
         k = alloc(DType::F32, {2, 3, 5, 8});
  EXPECT_TRUE(startsWith(runError(OpCode::Attention, attrs, {&q, &k, &k},
                                  DType::F32, {2, 4, 5, 8}),
                         "attention: leading dims differ"));
  // k and v with different head counts.
  Tensor v = alloc(DType::F32, {2, 1, 5, 8}),
         k2 = alloc(DType::F32, {2, 2, 5, 8});
  EXPECT_TRUE(startsWith(runError(OpCode::Attention, attrs, {&q, &k2, &v},
                                  DType::F32, {2, 4, 5, 8}),
                         "attention: leading dims differ"));
}

TEST(AttentionTest, WindowNeedsCausal) {
  Problem p;
  Tensor q = random(shapeOf(p, p.sq, p.d), 1);
  InstrAttrs attrs;
  attrs.ints = {0, 0, 2};
  attrs.floats = {0.5};
  EXPECT_EQ(runError(OpCode::Attention, attrs, {&q, &q, &q}, DType::F32,
                     shapeOf(p, p.sq, p.d)),
            "attention: a sliding window (2) needs causal masking");
}

TEST(AttentionTest, OneIntegerAttributeMeansTheDefaultLayout) {
  Problem p;
  Tensor q = random(shapeOf(p, p.sq, p.d), 1);
  Tensor k = random(shapeOf(p, p.sk, p.d), 2);
  Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
  InstrAttrs attrs;
  attrs.ints = {0};
  attrs.floats = {0.5};
  Tensor y = run1(OpCode::Attention, attrs, {&q, &k, &v}, DType::F32,
                  shapeOf(p, p.sq, p.dv));
  expectNear(values(y), reference(p, q, k, v, nullptr, 0.5), 1e-5);
}

TEST(AttentionTest, SequenceFirstShapeErrors) {
  InstrAttrs attrs;
  attrs.ints = {0, 1};
  attrs.floats = {1.0};
  Tensor q2 = alloc(DType::F32, {4, 8});
  EXPECT_TRUE(startsWith(runError(OpCode::Attention, attrs, {&q2, &q2, &q2},
                                  DType::F32, {4, 8}),
                         "attention: q, k and v must have one rank >= 3"));
  // Heads differ between q [2, 5, 3, 4] and k [2, 7, 2, 4].
  Tensor q = alloc(DType::F32, {2, 5, 3, 4}), k = alloc(DType::F32, {2, 7, 2, 4});
  EXPECT_TRUE(startsWith(runError(OpCode::Attention, attrs, {&q, &k, &k},
                                  DType::F32, {2, 5, 3, 4}),
                         "attention: leading dims differ"));
  // The mask broadcasts to [B, H, Sq, Sk] = [2, 3, 5, 5], not [2, 5, 3, 5].
  Tensor m = alloc(DType::F32, {5, 3, 5});
  std::string e = runError(OpCode::Attention, attrs, {&q, &q, &q, &m},
                           DType::F32, {2, 5, 3, 4});
  EXPECT_NE(e.find("does not broadcast to [2,3,5,5]"), std::string::npos)
      << e;
  attrs.ints = {0, 2};
  EXPECT_TRUE(startsWith(runError(OpCode::Attention, attrs, {&q, &q, &q},
                                  DType::F32, {2, 5, 3, 4}),
                         "attention: sequenceFirst"))
      << runError(OpCode::Attention, attrs, {&q, &q, &q}, DType::F32,
                  {2, 5, 3, 4});
}

} // namespace

namespace {
/// Rows [first, first + count) of a [B, H, S, X] tensor.
Tensor rowsOf(const Tensor &t, int64_t first, int64_t count) {
  const Shape &s = t.shape();
  Tensor out = alloc(t.dtype(), {s[0], s[1], count, s[3]});
  for (int64_t bh = 0; bh < s[0] * s[1]; ++bh)
    for (int64_t i = 0; i < count; ++i)
      for (int64_t x = 0; x < s[3]; ++x)
        setElem(out, (bh * count + i) * s[3] + x,
                getElem(t, (bh * s[2] + first + i) * s[3] + x));
  return out;
}
} // namespace

TEST(AttentionTest, QueryBlocksWithStartAreRowsOfTheWholeAttention) {
  // Context parallelism: each rank's block of queries, with every key and
  // its first position as `start`, computes the whole attention's rows; the
  // blocks' dk and dv add up to the whole attention's.
  for (int64_t window : {0, 5}) {
    SCOPED_TRACE(testing::Message() << "window " << window);
    Problem p;
    p.causal = true;
    p.window = window;
    p.sq = p.sk = 12;
    Tensor q = random(shapeOf(p, p.sq, p.d), 1);
    Tensor k = random(shapeOf(p, p.sk, p.d), 2);
    Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
    Tensor dy = random(shapeOf(p, p.sq, p.dv), 5);
    InstrAttrs whole;
    whole.ints = {1, 0, window, 0, 0};
    whole.floats = {0.7};
    InstrAttrs block = whole;
    block.ints[4] = 1;
    auto gradients = [&](const InstrAttrs &a, std::vector<const Tensor *> in) {
      std::vector<Tensor> out = {alloc(DType::F32, in[1]->shape()),
                                 alloc(DType::F32, k.shape()),
                                 alloc(DType::F32, v.shape())};
      Status st =
          run(OpCode::AttentionGrad, a, in, {&out[0], &out[1], &out[2]});
      EXPECT_TRUE(st.isOk()) << st.message();
      return out;
    };
    std::vector<Tensor> want = gradients(whole, {&dy, &q, &k, &v});
    const std::vector<double> y = reference(p, q, k, v, nullptr, 0.7);
    std::vector<double> dk(size_t(k.numElements()), 0.0),
        dv(size_t(v.numElements()), 0.0);
    const int64_t rows = 4;
    for (int64_t first = 0; first < p.sq; first += rows) {
      Tensor qBlock = rowsOf(q, first, rows), dyBlock = rowsOf(dy, first, rows);
      Tensor start = alloc(DType::I64, {});
      setElem(start, 0, double(first));
      Tensor yBlock = run1(OpCode::Attention, block, {&qBlock, &k, &v, &start},
                           DType::F32, shapeOf(p, rows, p.dv));
      Tensor yWhole = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
      for (size_t i = 0; i < y.size(); ++i)
        setElem(yWhole, int64_t(i), y[i]);
      expectNear(values(yBlock), values(rowsOf(yWhole, first, rows)), 1e-5);
      std::vector<Tensor> got =
          gradients(block, {&dyBlock, &qBlock, &k, &v, &start});
      expectNear(values(got[0]), values(rowsOf(want[0], first, rows)), 1e-5);
      std::vector<double> dkBlock = values(got[1]), dvBlock = values(got[2]);
      for (size_t i = 0; i < dk.size(); ++i)
        dk[i] += dkBlock[i];
      for (size_t i = 0; i < dv.size(); ++i)
        dv[i] += dvBlock[i];
    }
    expectNear(dk, values(want[1]), 1e-5);
    expectNear(dv, values(want[2]), 1e-5);
  }
}

TEST(AttentionTest, QueryStartErrors) {
  Problem p;
  p.causal = true;
  p.sq = 4;
  p.sk = 8;
  Tensor q = random(shapeOf(p, p.sq, p.d), 1);
  Tensor k = random(shapeOf(p, p.sk, p.d), 2);
  InstrAttrs attrs;
  attrs.ints = {1, 0, 0, 0, 1};
  attrs.floats = {0.7};
  Tensor y = alloc(DType::F32, shapeOf(p, p.sq, p.d));
  Tensor notScalar = alloc(DType::I64, {1});
  EXPECT_TRUE(startsWith(
      run(OpCode::Attention, attrs, {&q, &k, &k, &notScalar}, {&y}).message(),
      "attention: start"));
  Tensor wrongType = alloc(DType::F32, {});
  EXPECT_TRUE(startsWith(
      run(OpCode::Attention, attrs, {&q, &k, &k, &wrongType}, {&y}).message(),
      "attention: start"));
  // The flag without the operand.
  EXPECT_TRUE(
      startsWith(run(OpCode::Attention, attrs, {&q, &k, &k}, {&y}).message(),
                 "attention: expected 4 to 5 operands"));
  // keyBlock belongs to attention_grad, and needs the saved statistics.
  InstrAttrs keyBlock;
  keyBlock.ints = {1, 0, 0, 0, 0, 1};
  keyBlock.floats = {0.7};
  EXPECT_EQ(run(OpCode::Attention, keyBlock, {&q, &k, &k}, {&y}).message(),
            "attention: keyBlock is an attention_grad flag");
  Tensor dq = alloc(DType::F32, q.shape()), dk = alloc(DType::F32, k.shape()),
         dv = alloc(DType::F32, k.shape());
  EXPECT_EQ(
      run(OpCode::AttentionGrad, keyBlock, {&y, &q, &k, &k}, {&dq, &dk, &dv})
          .message(),
      "attention_grad: keyBlock needs the saved result and statistics");
}

TEST(AttentionTest, RingBlocksMergeIntoTheWholeAttention) {
  // Ring attention on one rank: queries and keys in three blocks of four.
  // Each query block attends to each key block with their relative start
  // (negative: no key visible; past the block: all of them), the partial
  // results merged by AttentionMerge: the whole attention's rows and
  // log-sum-exps. Each pair's gradient given the whole attention's result
  // and statistics (keyBlock) is its share: the shares add up to the whole
  // attention's gradients.
  for (int64_t window : {0, 5}) {
    SCOPED_TRACE(testing::Message() << "window " << window);
    Problem p;
    p.causal = true;
    p.window = window;
    p.sq = p.sk = 12;
    const int64_t rows = 4, blocks = 3, bh = p.b * p.h;
    Tensor q = random(shapeOf(p, p.sq, p.d), 1);
    Tensor k = random(shapeOf(p, p.sk, p.d), 2);
    Tensor v = random(shapeOf(p, p.sk, p.dv), 3);
    Tensor dy = random(shapeOf(p, p.sq, p.dv), 5);
    InstrAttrs whole, part, merge, grad;
    whole.ints = {1, 0, window, 0, 0};
    whole.floats = part.floats = grad.floats = {0.7};
    part.ints = {1, 0, window, 1, 1};
    grad.ints = {1, 0, window, 1, 1, 1};
    merge.ints = {0};
    std::vector<Tensor> want = {alloc(DType::F32, q.shape()),
                                alloc(DType::F32, k.shape()),
                                alloc(DType::F32, v.shape())};
    ASSERT_TRUE(run(OpCode::AttentionGrad, whole, {&dy, &q, &k, &v},
                    {&want[0], &want[1], &want[2]})
                    .isOk());
    std::vector<double> lse;
    const std::vector<double> y = reference(p, q, k, v, nullptr, 0.7, &lse);
    std::vector<double> dq(size_t(q.numElements()), 0.0),
        dk(size_t(k.numElements()), 0.0), dv(size_t(v.numElements()), 0.0);
    // Adds block `got` (rows [first, first + rows) of a [B, H, S, X]
    // tensor) into `sum`.
    auto addRows = [&](std::vector<double> &sum, const Tensor &got,
                       int64_t first, int64_t s) {
      const int64_t x = got.shape()[3];
      std::vector<double> g = values(got);
      for (int64_t b = 0; b < bh; ++b)
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t c = 0; c < x; ++c)
            sum[size_t((b * s + first + i) * x + c)] +=
                g[size_t((b * rows + i) * x + c)];
    };
    for (int64_t qb = 0; qb < blocks; ++qb) {
      Tensor qBlock = rowsOf(q, qb * rows, rows),
             dyBlock = rowsOf(dy, qb * rows, rows);
      Tensor out, stats;
      std::vector<Tensor> starts;
      for (int64_t kb = 0; kb < blocks; ++kb) {
        starts.push_back(alloc(DType::I64, {}));
        setElem(starts.back(), 0, double((qb - kb) * rows));
        Tensor kBlock = rowsOf(k, kb * rows, rows),
               vBlock = rowsOf(v, kb * rows, rows);
        Tensor yPart = alloc(DType::F32, shapeOf(p, rows, p.dv)),
               sPart = alloc(DType::F32, {p.b, p.h, rows});
        ASSERT_TRUE(run(OpCode::Attention, part,
                        {&qBlock, &kBlock, &vBlock, &starts.back()},
                        {&yPart, &sPart})
                        .isOk());
        if (kb == 0) {
          out = yPart;
          stats = sPart;
          continue;
        }
        Tensor merged = alloc(DType::F32, out.shape()),
               mergedStats = alloc(DType::F32, stats.shape());
        Status st =
            run(OpCode::AttentionMerge, merge, {&out, &stats, &yPart, &sPart},
                {&merged, &mergedStats});
        ASSERT_TRUE(st.isOk()) << st.message();
        out = merged;
        stats = mergedStats;
      }
      Tensor yWhole = alloc(DType::F32, shapeOf(p, p.sq, p.dv));
      for (size_t i = 0; i < y.size(); ++i)
        setElem(yWhole, int64_t(i), y[i]);
      expectNear(values(out), values(rowsOf(yWhole, qb * rows, rows)), 1e-5);
      std::vector<double> wantStats, gotStats = values(stats);
      for (int64_t b = 0; b < bh; ++b)
        for (int64_t i = 0; i < rows; ++i)
          wantStats.push_back(lse[size_t(b * p.sq + qb * rows + i)]);
      expectNear(gotStats, wantStats, 1e-5);
      for (int64_t kb = 0; kb < blocks; ++kb) {
        Tensor kBlock = rowsOf(k, kb * rows, rows),
               vBlock = rowsOf(v, kb * rows, rows);
        std::vector<Tensor> got = {alloc(DType::F32, qBlock.shape()),
                                   alloc(DType::F32, kBlock.shape()),
                                   alloc(DType::F32, vBlock.shape())};
        Status st = run(
            OpCode::AttentionGrad, grad,
            {&dyBlock, &qBlock, &kBlock, &vBlock, &starts[kb], &out, &stats},
            {&got[0], &got[1], &got[2]});
        ASSERT_TRUE(st.isOk()) << st.message();
        addRows(dq, got[0], qb * rows, p.sq);
        addRows(dk, got[1], kb * rows, p.sk);
        addRows(dv, got[2], kb * rows, p.sk);
      }
    }
    expectNear(dq, values(want[0]), 1e-5);
    expectNear(dk, values(want[1]), 1e-5);
    expectNear(dv, values(want[2]), 1e-5);
  }
}

TEST(AttentionTest, MergeOfRowsWithoutKeys) {
  // Rows that saw no key on one side take the other's; on neither side,
  // zeros and -inf. Sequence-first statistics put the heads first.
  Tensor a = alloc(DType::F32, {1, 2, 2, 1}),
         b = alloc(DType::F32, {1, 2, 2, 1});
  Tensor sa = alloc(DType::F32, {1, 2, 2}), sb = alloc(DType::F32, {1, 2, 2});
  // Rows (s, h): a's values 1..4, b's 10..40; stats [h][s].
  for (int64_t r = 0; r < 4; ++r) {
    setElem(a, r, double(r + 1));
    setElem(b, r, double(10 * (r + 1)));
  }
  const double inf = INFINITY;
  // h0: s0 (-inf, 0), s1 (0, 0); h1: s0 (0, -inf), s1 (-inf, -inf).
  std::vector<double> va = {-inf, 0, 0, -inf}, vb = {0, 0, -inf, -inf};
  for (int64_t i = 0; i < 4; ++i) {
    setElem(sa, i, va[size_t(i)]);
    setElem(sb, i, vb[size_t(i)]);
  }
  InstrAttrs attrs;
  attrs.ints = {1};
  Tensor y = alloc(DType::F32, a.shape()), s = alloc(DType::F32, sa.shape());
  ASSERT_TRUE(
      run(OpCode::AttentionMerge, attrs, {&a, &sa, &b, &sb}, {&y, &s}).isOk());
  // Row (s, h) = element 2 s + h: (0,0) b's 10; (0,1) a's 2; (1,0) half of
  // 3 and 30; (1,1) zero.
  expectNear(values(y), {10, 2, 16.5, 0}, 1e-6);
  std::vector<double> got = values(s);
  EXPECT_EQ(got[0], 0);
  EXPECT_NEAR(got[1], std::log(2.0), 1e-6);
  EXPECT_EQ(got[2], 0);
  EXPECT_TRUE(std::isinf(got[3]) && got[3] < 0);
}
