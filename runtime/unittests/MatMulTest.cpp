//===- MatMulTest.cpp - MatMul and Gemm -----------------------------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// ONNX MatMul written out: promote 1-D operands, broadcast batch dims,
/// multiply in double (or wrapping int64 for integers), drop promoted dims.
struct NaiveMatMul {
  Shape shape;
  std::vector<double> values;
};

NaiveMatMul naiveMatMul(const Tensor &a, const Tensor &b) {
  Shape sa = a.shape(), sb = b.shape();
  const bool aVec = sa.size() == 1, bVec = sb.size() == 1;
  if (aVec)
    sa.insert(sa.begin(), 1);
  if (bVec)
    sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  const Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  const size_t r = std::max(ba.size(), bb.size());
  Shape batch(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i + ba.size() >= r ? ba[i + ba.size() - r] : 1;
    const int64_t db = i + bb.size() >= r ? bb[i + bb.size() - r] : 1;
    batch[i] = da == 1 ? db : da;
  }
  NaiveMatMul out;
  out.shape = batch;
  if (!aVec)
    out.shape.push_back(m);
  if (!bVec)
    out.shape.push_back(n);
  const bool isInt = isIntegerDType(a.dtype());
  for (int64_t bi = 0; bi < shapeNumElements(batch); ++bi) {
    const auto idx = unravel(bi, batch);
    const int64_t oa = broadcastIndex(idx, ba, batch) * m * k;
    const int64_t ob = broadcastIndex(idx, bb, batch) * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        uint64_t iacc = 0;
        for (int64_t p = 0; p < k; ++p) {
          const double x = getElem(a, oa + i * k + p);
          const double y = getElem(b, ob + p * n + j);
          acc += x * y;
          iacc += static_cast<uint64_t>(static_cast<int64_t>(x)) *
                  static_cast<uint64_t>(static_cast<int64_t>(y));
        }
        if (isInt) {
          Tensor t = alloc(a.dtype(), {});
          setElemInt(t, 0, static_cast<int64_t>(iacc));
          acc = getElem(t, 0);
        }
        out.values.push_back(acc);
      }
    }
  }
  return out;
}

void checkMatMul(DType dt, const Shape &sa, const Shape &sb) {
  const bool isUnsigned = dt == DType::U8 || dt == DType::U16 ||
                          dt == DType::U32 || dt == DType::U64;
  Tensor a = alloc(dt, sa), b = alloc(dt, sb);
  for (int64_t i = 0; i < a.numElements(); ++i)
    setElem(a, i, ((i * 5) % 7) - (isUnsigned ? 0 : 3));
  for (int64_t i = 0; i < b.numElements(); ++i)
    setElem(b, i, ((i * 3) % 5) - (isUnsigned ? 0 : 2));
  const NaiveMatMul ref = naiveMatMul(a, b);
  Tensor y = run1(OpCode::MatMul, {}, {&a, &b}, dt, ref.shape);
  SCOPED_TRACE(std::string(dtypeName(dt)) + " " + shapeToString(sa) + " x " +
               shapeToString(sb));
  // Integer-valued inputs: f32/f64 results are exact; f16/bf16 round once.
  std::vector<double> expected = ref.values;
  if (dt == DType::F16 || dt == DType::BF16) {
    Tensor t = make(dt, {static_cast<int64_t>(expected.size())}, expected);
    expected = values(t);
  }
  expectNear(values(y), expected, 0);
}

} // namespace

TEST(MatMulTest, ShapesAndTypes) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{2, 3}, {3, 4}},
      {{3}, {3, 4}},
      {{2, 3}, {3}},
      {{3}, {3}},
      {{4, 2, 3}, {3, 5}},
      {{2, 3}, {2, 3, 4}},
      {{2, 1, 2, 3}, {3, 3, 2}},
      {{5, 3}, {2, 3, 1}},
      {{3}, {2, 3, 4}},
      {{2, 4, 3}, {3}},
      {{1, 1}, {1, 1}},
      {{2, 2, 3}, {2, 3, 2}},
      {{17, 33}, {33, 9}},
  };
  for (const auto &[sa, sb] : cases) {
    for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16,
                     DType::I32, DType::I64, DType::I8, DType::U8, DType::U64})
      checkMatMul(dt, sa, sb);
  }
}

TEST(MatMulTest, LargeFloatAgainstNaive) {
  Tensor a = iota(DType::F32, {3, 70, 130}, 0.001, -5);
  Tensor b = iota(DType::F32, {130, 40}, -0.002, 3);
  const NaiveMatMul ref = naiveMatMul(a, b);
  Tensor y = run1(OpCode::MatMul, {}, {&a, &b}, DType::F32, ref.shape);
  expectNear(values(y), ref.values, 1e-4);
}

TEST(MatMulTest, IntegerWraps) {
  Tensor a = makeRaw<uint8_t>(DType::U8, {1, 2}, {200, 100});
  Tensor b = makeRaw<uint8_t>(DType::U8, {2, 1}, {2, 1});
  // 400 + 100 = 500 = 244 mod 256.
  EXPECT_EQ(
      rawValues<uint8_t>(run1(OpCode::MatMul, {}, {&a, &b}, DType::U8, {1, 1})),
      (std::vector<uint8_t>{244}));
}

TEST(MatMulTest, EmptyDimensions) {
  // K = 0: all zeros.
  Tensor a = alloc(DType::F32, {2, 0}), b = alloc(DType::F32, {0, 3});
  Tensor y = alloc(DType::F32, {2, 3});
  for (int64_t i = 0; i < 6; ++i)
    setElem(y, i, 7);
  ASSERT_TRUE(run(OpCode::MatMul, {}, {&a, &b}, {&y}).isOk());
  EXPECT_EQ(values(y), std::vector<double>(6, 0.0));
  Tensor ai = alloc(DType::I32, {2, 0}), bi = alloc(DType::I32, {0, 3});
  EXPECT_EQ(values(run1(OpCode::MatMul, {}, {&ai, &bi}, DType::I32, {2, 3})),
            std::vector<double>(6, 0.0));
  // M = 0 and an empty batch.
  Tensor e = alloc(DType::F32, {0, 4}), f = iota(DType::F32, {4, 2});
  run1(OpCode::MatMul, {}, {&e, &f}, DType::F32, {0, 2});
  Tensor g = alloc(DType::F32, {0, 2, 4});
  run1(OpCode::MatMul, {}, {&g, &f}, DType::F32, {0, 2, 2});
}

TEST(MatMulTest, Errors) {
  Tensor a = iota(DType::F32, {2, 3}), b = iota(DType::F32, {4, 5});
  EXPECT_EQ(runError(OpCode::MatMul, {}, {&a, &b}, DType::F32, {2, 5}),
            "matmul: expected inner dimensions to match, got 3 and 4");
  Tensor c = iota(DType::F32, {3, 2, 3}), d = iota(DType::F32, {2, 3, 4});
  EXPECT_EQ(runError(OpCode::MatMul, {}, {&c, &d}, DType::F32, {3, 2, 4}),
            "matmul: batch dimensions [3] and [2] do not broadcast");
  Tensor e = iota(DType::F32, {3, 4});
  EXPECT_EQ(runError(OpCode::MatMul, {}, {&a, &e}, DType::F32, {4, 2}),
            "matmul: result must have shape [2,4], got f32[4,2]");
  Tensor f = iota(DType::F64, {3, 4});
  EXPECT_TRUE(
      startsWith(runError(OpCode::MatMul, {}, {&a, &f}, DType::F32, {2, 4}),
                 "matmul: operands must have the same element type"));
  Tensor s = make(DType::F32, {}, {1});
  EXPECT_TRUE(
      startsWith(runError(OpCode::MatMul, {}, {&s, &e}, DType::F32, {4}),
                 "matmul: operands must have rank >= 1"));
  Tensor bl = alloc(DType::Bool, {2, 2});
  EXPECT_TRUE(
      startsWith(runError(OpCode::MatMul, {}, {&bl, &bl}, DType::Bool, {2, 2}),
                 "matmul: operand 0 must have a numeric type"));
  EXPECT_EQ(runError(OpCode::MatMul, {{0}, {}}, {&a, &e}, DType::F32, {2, 4}),
            "matmul: expected 0 integer attributes, got 1");
  EXPECT_EQ(runError(OpCode::MatMul, {}, {&a, &e}, DType::F64, {2, 4}),
            "matmul: result must have element type f32, got f64[2,4]");
}

namespace {

/// y = alpha * op(a) op(b) + beta * c, written out.
std::vector<double> naiveGemm(const Tensor &a, const Tensor &b, const Tensor *c,
                              bool ta, bool tb, double alpha, double beta) {
  const int64_t m = ta ? a.dim(1) : a.dim(0), k = ta ? a.dim(0) : a.dim(1);
  const int64_t n = tb ? b.dim(0) : b.dim(1);
  std::vector<double> y;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = getElem(a, ta ? p * m + i : i * k + p);
        const double w = getElem(b, tb ? j * k + p : p * n + j);
        acc += x * w;
      }
      double v = alpha * acc;
      if (c)
        v += beta * getElem(*c, broadcastIndex({i, j}, c->shape(), {m, n}));
      y.push_back(v);
    }
  }
  return y;
}

} // namespace

TEST(MatMulTest, Gemm) {
  const int64_t m = 3, k = 4, n = 5;
  const std::vector<Shape> cShapes = {{}, {n}, {m, 1}, {1, n}, {m, n}, {1}};
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
    for (int ta = 0; ta < 2; ++ta) {
      for (int tb = 0; tb < 2; ++tb) {
        Tensor a = iota(dt, ta ? Shape{k, m} : Shape{m, k}, 0.25, -1);
        Tensor b = iota(dt, tb ? Shape{n, k} : Shape{k, n}, -0.5, 2);
        for (const Shape &cs : cShapes) {
          Tensor c = iota(dt, cs, 1, 1);
          const double alpha = 0.5, beta = 2;
          Tensor y = run1(OpCode::Gemm, {{ta, tb}, {alpha, beta}}, {&a, &b, &c},
                          dt, {m, n});
          SCOPED_TRACE(std::string(dtypeName(dt)) +
                       " ta=" + std::to_string(ta) +
                       " tb=" + std::to_string(tb) + " c=" + shapeToString(cs));
          expectNear(values(y), naiveGemm(a, b, &c, ta, tb, alpha, beta),
                     dt == DType::BF16 ? 4e-2 : tolFor(dt) * 4);
        }
        Tensor y =
            run1(OpCode::Gemm, {{ta, tb}, {1.5, 3}}, {&a, &b}, dt, {m, n});
        expectNear(values(y), naiveGemm(a, b, nullptr, ta, tb, 1.5, 0),
                   dt == DType::BF16 ? 4e-2 : tolFor(dt) * 4);
      }
    }
  }
}

TEST(MatMulTest, GemmIntegers) {
  Tensor a = make(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = make(DType::I32, {3, 2}, {1, -1, 2, -2, 3, -3});
  Tensor c = make(DType::I32, {2}, {100, 200});
  EXPECT_EQ(values(run1(OpCode::Gemm, {{0, 0}, {1, 1}}, {&a, &b, &c},
                        DType::I32, {2, 2})),
            (std::vector<double>{114, 186, 132, 168}));
  EXPECT_EQ(values(run1(OpCode::Gemm, {{0, 0}, {2, 0.5}}, {&a, &b, &c},
                        DType::I32, {2, 2})),
            (std::vector<double>{78, 72, 114, 36}));
  EXPECT_EQ(values(run1(OpCode::Gemm, {{1, 1}, {1, 0}}, {&b, &a}, DType::I32,
                        {2, 2})),
            (std::vector<double>{14, 32, -14, -32}));
  Tensor u = make(DType::U64, {1, 1}, {7});
  EXPECT_EQ(values(run1(OpCode::Gemm, {{0, 0}, {1, 1}}, {&u, &u, &u},
                        DType::U64, {1, 1})),
            (std::vector<double>{56}));
}

TEST(MatMulTest, GemmWithZeroK) {
  Tensor a = alloc(DType::F32, {2, 0}), b = alloc(DType::F32, {0, 2});
  Tensor c = make(DType::F32, {2}, {1, 2});
  EXPECT_EQ(values(run1(OpCode::Gemm, {{0, 0}, {1, 3}}, {&a, &b, &c},
                        DType::F32, {2, 2})),
            (std::vector<double>{3, 6, 3, 6}));
  Tensor at = alloc(DType::F64, {0, 2}), bt = alloc(DType::F64, {2, 0});
  EXPECT_EQ(values(run1(OpCode::Gemm, {{1, 1}, {1, 1}}, {&at, &bt}, DType::F64,
                        {2, 2})),
            (std::vector<double>{0, 0, 0, 0}));
}

TEST(MatMulTest, GemmErrors) {
  Tensor a = iota(DType::F32, {2, 3}), b = iota(DType::F32, {3, 4});
  Tensor c = iota(DType::F32, {3});
  EXPECT_EQ(runError(OpCode::Gemm, {{0, 0}, {1, 1}}, {&a, &b, &c}, DType::F32,
                     {2, 4}),
            "gemm: operand 2 f32[3] does not broadcast to [2,4]");
  EXPECT_EQ(
      runError(OpCode::Gemm, {{2, 0}, {1, 1}}, {&a, &b}, DType::F32, {2, 4}),
      "gemm: transA must be in [0, 1], got 2");
  EXPECT_EQ(runError(OpCode::Gemm, {{0}, {1, 1}}, {&a, &b}, DType::F32, {2, 4}),
            "gemm: expected 2 integer attributes, got 1");
  EXPECT_EQ(runError(OpCode::Gemm, {{0, 0}, {1}}, {&a, &b}, DType::F32, {2, 4}),
            "gemm: expected 2 floating attributes, got 1");
  EXPECT_EQ(
      runError(OpCode::Gemm, {{1, 0}, {1, 1}}, {&a, &b}, DType::F32, {3, 4}),
      "gemm: expected inner dimensions to match, got 2 and 3");
  Tensor v = iota(DType::F32, {3});
  EXPECT_TRUE(startsWith(
      runError(OpCode::Gemm, {{0, 0}, {1, 1}}, {&v, &b}, DType::F32, {1, 4}),
      "gemm: operands must be 2-D"));
  EXPECT_EQ(
      runError(OpCode::Gemm, {{0, 0}, {1, 1}}, {&a, &b}, DType::F32, {4, 2}),
      "gemm: result must have shape [2,4], got f32[4,2]");
}
