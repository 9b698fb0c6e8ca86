//===- MiscTest.cpp - Range, CumSum, Trilu --------------------------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

TEST(MiscTest, Range) {
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
    Tensor s = make(dt, {}, {1}), l = make(dt, {}, {2.5}),
           d = make(dt, {}, {0.25});
    EXPECT_EQ(values(run1(OpCode::Range, {}, {&s, &l, &d}, dt, {6})),
              (std::vector<double>{1, 1.25, 1.5, 1.75, 2, 2.25}))
        << dtypeName(dt);
  }
  Tensor s = make(DType::I32, {}, {10}), l = make(DType::I32, {}, {0}),
         d = make(DType::I32, {}, {-3});
  EXPECT_EQ(values(run1(OpCode::Range, {}, {&s, &l, &d}, DType::I32, {4})),
            (std::vector<double>{10, 7, 4, 1}));
  // Rank-1 single-element operands are accepted as scalars.
  Tensor s1 = make(DType::I64, {1}, {-2}), l1 = make(DType::I64, {1}, {3}),
         d1 = make(DType::I64, {1}, {2});
  EXPECT_EQ(values(run1(OpCode::Range, {}, {&s1, &l1, &d1}, DType::I64, {3})),
            (std::vector<double>{-2, 0, 2}));
  // Empty ranges.
  Tensor e = make(DType::I64, {}, {5});
  run1(OpCode::Range, {}, {&e, &e, &d1}, DType::I64, {0});
  run1(OpCode::Range, {}, {&e, &s1, &d1}, DType::I64, {0});
  // The full range of a small type.
  Tensor u0 = make(DType::U8, {}, {0}), u1 = make(DType::U8, {}, {255}),
         ud = make(DType::U8, {}, {1});
  Tensor r = run1(OpCode::Range, {}, {&u0, &u1, &ud}, DType::U8, {255});
  EXPECT_EQ(getElem(r, 254), 254);
  Tensor i0 = make(DType::I8, {}, {-128}), i1 = make(DType::I8, {}, {127}),
         id = make(DType::I8, {}, {100});
  EXPECT_EQ(values(run1(OpCode::Range, {}, {&i0, &i1, &id}, DType::I8, {3})),
            (std::vector<double>{-128, -28, 72}));
  Tensor b0 = makeRaw<int64_t>(DType::I64, {}, {INT64_MIN}),
         b1 = makeRaw<int64_t>(DType::I64, {}, {INT64_MAX}),
         bd = makeRaw<int64_t>(DType::I64, {}, {INT64_MAX});
  EXPECT_EQ(rawValues<int64_t>(
                run1(OpCode::Range, {}, {&b0, &b1, &bd}, DType::I64, {3})),
            (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1}));
}

TEST(MiscTest, RangeErrors) {
  Tensor s = make(DType::F32, {}, {0}), l = make(DType::F32, {}, {1}),
         d = make(DType::F32, {}, {0.25}), z = make(DType::F32, {}, {0});
  EXPECT_EQ(runError(OpCode::Range, {}, {&s, &l, &d}, DType::F32, {5}),
            "range: result f32[5] must have 4 elements");
  EXPECT_EQ(runError(OpCode::Range, {}, {&s, &l, &z}, DType::F32, {0}),
            "range: delta must not be zero");
  Tensor inf = make(DType::F32, {}, {INFINITY});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Range, {}, {&s, &inf, &d}, DType::F32, {0}),
                 "range: element count"));
  Tensor v = make(DType::F32, {2}, {0, 1});
  EXPECT_EQ(runError(OpCode::Range, {}, {&v, &l, &d}, DType::F32, {4}),
            "range: start must be a scalar, got f32[2]");
  Tensor i = make(DType::I32, {}, {1});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Range, {}, {&s, &i, &d}, DType::F32, {4}),
                 "range: operands must have the same element type"));
  EXPECT_EQ(runError(OpCode::Range, {}, {&s, &l, &d}, DType::F32, {2, 2}),
            "range: result must be 1-D, got f32[2,2]");
  Tensor b = make(DType::Bool, {}, {1});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Range, {}, {&b, &b, &b}, DType::Bool, {1}),
                 "range: start must have a numeric type"));
}

TEST(MiscTest, CumSum) {
  const Shape s = {2, 3, 4};
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::I32, DType::U8,
                   DType::I64}) {
    Tensor x = alloc(dt, s);
    for (int64_t i = 0; i < x.numElements(); ++i)
      setElem(x, i, (i * 7) % 5 + (isFloatDType(dt) ? 0.5 : 0));
    for (int64_t axis = -3; axis < 3; ++axis) {
      const int64_t a = axis < 0 ? axis + 3 : axis;
      for (int excl = 0; excl < 2; ++excl) {
        for (int rev = 0; rev < 2; ++rev) {
          std::vector<double> expected;
          for (int64_t i = 0; i < x.numElements(); ++i) {
            auto idx = unravel(i, s);
            const int64_t pos = idx[a];
            double acc = 0;
            for (int64_t j = 0; j < s[a]; ++j) {
              const bool take = rev ? (excl ? j > pos : j >= pos)
                                    : (excl ? j < pos : j <= pos);
              if (!take)
                continue;
              idx[a] = j;
              acc += getElem(x, ravel(idx, s));
            }
            expected.push_back(acc);
          }
          Tensor y = run1(OpCode::CumSum, {{axis, excl, rev}, {}}, {&x}, dt, s);
          EXPECT_EQ(values(y), expected) << dtypeName(dt) << " axis " << axis
                                         << " excl " << excl << " rev " << rev;
        }
      }
    }
  }
  Tensor w = makeRaw<uint8_t>(DType::U8, {3}, {200, 100, 1});
  EXPECT_EQ(rawValues<uint8_t>(
                run1(OpCode::CumSum, {{0, 0, 0}, {}}, {&w}, DType::U8, {3})),
            (std::vector<uint8_t>{200, 44, 45}));
}

TEST(MiscTest, CumSumErrors) {
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(runError(OpCode::CumSum, {{2, 0, 0}, {}}, {&x}, DType::F32, {2, 3}),
            "cumsum: axis 2 is out of range for rank 2");
  EXPECT_EQ(runError(OpCode::CumSum, {{0, 2, 0}, {}}, {&x}, DType::F32, {2, 3}),
            "cumsum: exclusive must be in [0, 1], got 2");
  EXPECT_EQ(
      runError(OpCode::CumSum, {{0, 0, -1}, {}}, {&x}, DType::F32, {2, 3}),
      "cumsum: reverse must be in [0, 1], got -1");
  EXPECT_EQ(runError(OpCode::CumSum, {{0}, {}}, {&x}, DType::F32, {2, 3}),
            "cumsum: expected 3 integer attributes, got 1");
  Tensor s = make(DType::F32, {}, {1});
  EXPECT_TRUE(startsWith(
      runError(OpCode::CumSum, {{0, 0, 0}, {}}, {&s}, DType::F32, {}),
      "cumsum: operand must have rank >= 1"));
  Tensor b = alloc(DType::Bool, {2});
  EXPECT_TRUE(startsWith(
      runError(OpCode::CumSum, {{0, 0, 0}, {}}, {&b}, DType::Bool, {2}),
      "cumsum: operand must have a numeric type"));
}

TEST(MiscTest, Trilu) {
  const Shape s = {2, 3, 4};
  for (DType dt : {DType::F32, DType::BF16, DType::I64, DType::Bool}) {
    Tensor x = iota(dt, s, 1, 1);
    for (int upper = 0; upper < 2; ++upper) {
      for (int64_t k :
           std::vector<int64_t>{-5, -1, 0, 1, 2, 10, INT64_MIN, INT64_MAX}) {
        std::vector<double> expected;
        for (int64_t i = 0; i < x.numElements(); ++i) {
          const auto idx = unravel(i, s);
          const int64_t r = idx[1], c = idx[2];
          const bool keep = upper ? c - r >= k : c - r <= k;
          expected.push_back(keep ? getElem(x, i) : 0);
        }
        Tensor y = run1(OpCode::Trilu, {{upper, k}, {}}, {&x}, dt, s);
        EXPECT_EQ(values(y), expected)
            << dtypeName(dt) << " upper " << upper << " k " << k;
      }
    }
  }
  // The ONNX example: triu with k = 1.
  Tensor m = make(DType::I64, {4, 5},
                  {4, 7, 3, 7, 9, 1, 2, 8, 6, 9, 9, 4, 0, 8, 7, 4, 1, 7, 1, 1});
  EXPECT_EQ(values(run1(OpCode::Trilu, {{1, 1}, {}}, {&m}, DType::I64, {4, 5})),
            (std::vector<double>{0, 7, 3, 7, 9, 0, 0, 8, 6, 9,
                                 0, 0, 0, 8, 7, 0, 0, 0, 0, 1}));
}

TEST(MiscTest, TriluErrors) {
  Tensor v = iota(DType::F32, {4});
  EXPECT_EQ(runError(OpCode::Trilu, {{1, 0}, {}}, {&v}, DType::F32, {4}),
            "trilu: operand must have rank >= 2, got f32[4]");
  Tensor x = iota(DType::F32, {2, 2});
  EXPECT_EQ(runError(OpCode::Trilu, {{2, 0}, {}}, {&x}, DType::F32, {2, 2}),
            "trilu: upper must be in [0, 1], got 2");
  EXPECT_EQ(runError(OpCode::Trilu, {{1}, {}}, {&x}, DType::F32, {2, 2}),
            "trilu: expected 2 integer attributes, got 1");
  EXPECT_EQ(runError(OpCode::Trilu, {{1, 0}, {}}, {&x}, DType::I32, {2, 2}),
            "trilu: result must have element type f32, got i32[2,2]");
}
