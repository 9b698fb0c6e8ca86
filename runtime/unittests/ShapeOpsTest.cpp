//===- ShapeOpsTest.cpp - Reshape, Transpose, Slice, Concat, Split... ---===//

#include "TestUtil.h"

#include <algorithm>
#include <numeric>

using namespace paracc::rt;
using namespace paracc::rt::test;

TEST(ShapeOpsTest, Reshape) {
  for (DType dt : allTypes()) {
    Tensor x = make(dt, {2, 3}, {1, 0, 1, 1, 0, 1});
    Tensor y = run1(OpCode::Reshape, {}, {&x}, dt, {3, 1, 2});
    EXPECT_EQ(values(y), values(x));
  }
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(
      runError(OpCode::Reshape, {}, {&x}, DType::F32, {4}),
      "reshape: cannot reshape f32[2,3] to f32[4]: element counts differ");
  EXPECT_TRUE(startsWith(runError(OpCode::Reshape, {}, {&x}, DType::I32, {6}),
                         "reshape: result i32[6] must have the element type"));
  // In place.
  ASSERT_TRUE(run(OpCode::Reshape, {}, {&x}, {&x}).isOk());
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(ShapeOpsTest, TransposeAllPermutations) {
  for (const Shape &s : std::vector<Shape>{
           {2, 3}, {2, 3, 4}, {2, 1, 3, 4}, {40, 70}, {3, 33, 17}, {5}, {}}) {
    std::vector<int64_t> perm(s.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      Shape out(s.size());
      for (size_t i = 0; i < s.size(); ++i)
        out[i] = s[perm[i]];
      for (DType dt : {DType::F32, DType::F16, DType::I8, DType::I64}) {
        Tensor x = iota(dt, s, 1, dt == DType::I8 ? -60 : 0);
        if (dt == DType::I8)
          for (int64_t i = 0; i < x.numElements(); ++i)
            setElem(x, i, (i % 100) - 50);
        Tensor y = run1(OpCode::Transpose, {perm, {}}, {&x}, dt, out);
        bool ok = true;
        for (int64_t i = 0; i < y.numElements() && ok; ++i) {
          const auto o = unravel(i, out);
          std::vector<int64_t> in(s.size());
          for (size_t d = 0; d < s.size(); ++d)
            in[perm[d]] = o[d];
          ok = getElem(y, i) == getElem(x, ravel(in, s));
        }
        EXPECT_TRUE(ok) << dtypeName(dt) << " " << shapeToString(s) << " perm "
                        << shapeToString(perm);
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(ShapeOpsTest, TransposeErrors) {
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(runError(OpCode::Transpose, {{0, 0}, {}}, {&x}, DType::F32, {2, 2}),
            "transpose: attributes [0,0] are not a permutation of rank 2");
  EXPECT_EQ(runError(OpCode::Transpose, {{0, 2}, {}}, {&x}, DType::F32, {2, 3}),
            "transpose: attributes [0,2] are not a permutation of rank 2");
  EXPECT_EQ(
      runError(OpCode::Transpose, {{-1, 0}, {}}, {&x}, DType::F32, {3, 2}),
      "transpose: attributes [-1,0] are not a permutation of rank 2");
  EXPECT_EQ(runError(OpCode::Transpose, {{1}, {}}, {&x}, DType::F32, {3, 2}),
            "transpose: expected 2 integer attributes, got 1");
  EXPECT_EQ(runError(OpCode::Transpose, {{1, 0}, {}}, {&x}, DType::F32, {2, 3}),
            "transpose: result must have shape [3,2], got f32[2,3]");
}

TEST(ShapeOpsTest, Slice) {
  const Shape s = {4, 5, 6};
  Tensor x = iota(DType::F32, s);
  struct Case {
    std::vector<int64_t> starts, steps;
    Shape out;
  } cases[] = {
      {{0, 0, 0}, {1, 1, 1}, {4, 5, 6}},
      {{1, 2, 3}, {1, 1, 1}, {2, 3, 3}},
      {{0, 0, 0}, {2, 2, 2}, {2, 3, 3}},
      {{3, 4, 5}, {-1, -1, -1}, {4, 5, 6}},
      {{3, 4, 5}, {-2, -3, -4}, {2, 2, 2}},
      {{1, 0, 5}, {2, 1, -5}, {2, 5, 2}},
      {{0, 0, 0}, {1, 1, 1}, {0, 5, 6}},
      {{2, 1, 0}, {1, 100, 1}, {1, 1, 6}},
      {{0, 4, 0}, {1, -1, 1}, {4, 5, 1}},
  };
  for (const Case &c : cases) {
    std::vector<int64_t> ints = c.starts;
    ints.insert(ints.end(), c.steps.begin(), c.steps.end());
    for (DType dt : {DType::F32, DType::BF16, DType::I16, DType::Bool}) {
      Tensor xt = make(dt, s, values(x));
      Tensor y = run1(OpCode::Slice, {ints, {}}, {&xt}, dt, c.out);
      std::vector<double> expected;
      for (int64_t i = 0; i < shapeNumElements(c.out); ++i) {
        const auto o = unravel(i, c.out);
        std::vector<int64_t> in(3);
        for (int d = 0; d < 3; ++d)
          in[d] = c.starts[d] + o[d] * c.steps[d];
        expected.push_back(getElem(xt, ravel(in, s)));
      }
      EXPECT_EQ(values(y), expected)
          << dtypeName(dt) << " " << shapeToString(ints);
    }
  }
  // Empty results do not check their starts.
  Tensor e = run1(OpCode::Slice, {{4, 0, 0, 1, 1, 1}, {}}, {&x}, DType::F32,
                  {0, 5, 6});
  EXPECT_EQ(e.numElements(), 0);
  // Rank 0.
  Tensor sc = make(DType::F32, {}, {7});
  EXPECT_EQ(values(run1(OpCode::Slice, {}, {&sc}, DType::F32, {})),
            std::vector<double>{7});
}

TEST(ShapeOpsTest, SliceErrors) {
  Tensor x = iota(DType::F32, {4, 5});
  EXPECT_EQ(
      runError(OpCode::Slice, {{4, 0, 1, 1}, {}}, {&x}, DType::F32, {1, 5}),
      "slice: dimension 0: 1 elements from start 4 with step 1 leave "
      "[0, 4)");
  EXPECT_EQ(
      runError(OpCode::Slice, {{-1, 0, 1, 1}, {}}, {&x}, DType::F32, {1, 5}),
      "slice: dimension 0: 1 elements from start -1 with step 1 leave "
      "[0, 4)");
  EXPECT_EQ(
      runError(OpCode::Slice, {{0, 2, 1, 1}, {}}, {&x}, DType::F32, {4, 4}),
      "slice: dimension 1: 4 elements from start 2 with step 1 leave "
      "[0, 5)");
  EXPECT_TRUE(startsWith(
      runError(OpCode::Slice, {{0, 1, 1, -1}, {}}, {&x}, DType::F32, {4, 3}),
      "slice: dimension 1: 3 elements from start 1"));
  EXPECT_EQ(
      runError(OpCode::Slice, {{0, 0, 1, 0}, {}}, {&x}, DType::F32, {4, 1}),
      "slice: step of dimension 1 is zero");
  EXPECT_TRUE(startsWith(runError(OpCode::Slice, {{0, 0, 1, INT64_MAX}, {}},
                                  {&x}, DType::F32, {4, 3}),
                         "slice: dimension 1"));
  EXPECT_EQ(runError(OpCode::Slice, {{0, 0, 1}, {}}, {&x}, DType::F32, {4, 5}),
            "slice: expected 4 integer attributes, got 3");
  EXPECT_TRUE(
      startsWith(runError(OpCode::Slice, {{0, 1}, {}}, {&x}, DType::F32, {4}),
                 "slice: expected 4 integer attributes"));
  Tensor v = iota(DType::F32, {4});
  EXPECT_TRUE(startsWith(
      runError(OpCode::Slice, {{0, 1}, {}}, {&v}, DType::F32, {2, 2}),
      "slice: result f32[2,2] must have the rank of f32[4]"));
}

TEST(ShapeOpsTest, Concat) {
  Tensor a = iota(DType::F32, {2, 3});
  Tensor b = iota(DType::F32, {2, 1}, 1, 100);
  Tensor c = iota(DType::F32, {2, 2}, 1, 200);
  Tensor empty = alloc(DType::F32, {2, 0});
  EXPECT_EQ(
      values(run1(OpCode::Concat, {{1}, {}}, {&a, &b, &empty, &c}, DType::F32,
                  {2, 6})),
      (std::vector<double>{0, 1, 2, 100, 200, 201, 3, 4, 5, 101, 202, 203}));
  EXPECT_EQ(
      values(run1(OpCode::Concat, {{-1}, {}}, {&b, &a}, DType::F32, {2, 4})),
      (std::vector<double>{100, 0, 1, 2, 101, 3, 4, 5}));
  Tensor d = iota(DType::F32, {1, 3}, 1, 50);
  EXPECT_EQ(
      values(run1(OpCode::Concat, {{0}, {}}, {&a, &d}, DType::F32, {3, 3})),
      (std::vector<double>{0, 1, 2, 3, 4, 5, 50, 51, 52}));
  EXPECT_EQ(values(run1(OpCode::Concat, {{0}, {}}, {&a}, DType::F32, {2, 3})),
            values(a));
  for (DType dt : {DType::Bool, DType::F16, DType::U64}) {
    Tensor x = make(dt, {2, 1, 2}, {1, 0, 0, 1});
    Tensor y = make(dt, {2, 2, 2}, {1, 1, 0, 0, 1, 0, 1, 0});
    EXPECT_EQ(values(run1(OpCode::Concat, {{1}, {}}, {&x, &y}, dt, {2, 3, 2})),
              (std::vector<double>{1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0}));
  }
}

TEST(ShapeOpsTest, ConcatErrors) {
  Tensor a = iota(DType::F32, {2, 3});
  Tensor b = iota(DType::F32, {3, 3});
  Tensor c = iota(DType::F64, {2, 3});
  EXPECT_EQ(runError(OpCode::Concat, {{1}, {}}, {&a, &b}, DType::F32, {2, 6}),
            "concat: operand 1 f32[3,3] does not match operand 0 f32[2,3] "
            "outside axis 1");
  EXPECT_TRUE(startsWith(
      runError(OpCode::Concat, {{0}, {}}, {&a, &c}, DType::F32, {4, 3}),
      "concat: operand 1 f64[2,3] does not match"));
  EXPECT_EQ(runError(OpCode::Concat, {{2}, {}}, {&a, &a}, DType::F32, {2, 6}),
            "concat: axis 2 is out of range for rank 2");
  EXPECT_EQ(runError(OpCode::Concat, {{0}, {}}, {&a, &a}, DType::F32, {4, 4}),
            "concat: result must have shape [4,3], got f32[4,4]");
  Tensor s = make(DType::F32, {}, {1});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Concat, {{0}, {}}, {&s, &s}, DType::F32, {2}),
                 "concat: operands must have rank >= 1"));
}

TEST(ShapeOpsTest, Split) {
  Tensor x = iota(DType::I32, {2, 5});
  Tensor y0 = alloc(DType::I32, {2, 2}), y1 = alloc(DType::I32, {2, 0}),
         y2 = alloc(DType::I32, {2, 3});
  ASSERT_TRUE(run(OpCode::Split, {{1}, {}}, {&x}, {&y0, &y1, &y2}).isOk());
  EXPECT_EQ(values(y0), (std::vector<double>{0, 1, 5, 6}));
  EXPECT_EQ(values(y2), (std::vector<double>{2, 3, 4, 7, 8, 9}));
  Tensor z0 = alloc(DType::I32, {1, 5}), z1 = alloc(DType::I32, {1, 5});
  ASSERT_TRUE(run(OpCode::Split, {{-2}, {}}, {&x}, {&z0, &z1}).isOk());
  EXPECT_EQ(values(z1), (std::vector<double>{5, 6, 7, 8, 9}));

  Tensor bad = alloc(DType::I32, {2, 2});
  Status st = run(OpCode::Split, {{1}, {}}, {&x}, {&y0, &bad});
  EXPECT_EQ(st.message(),
            "split: result sizes along axis 1 add up to 4, expected 5");
  Tensor wrong = alloc(DType::I32, {1, 3});
  st = run(OpCode::Split, {{1}, {}}, {&x}, {&y0, &wrong});
  EXPECT_EQ(st.message(), "split: result 1 i32[1,3] does not match the "
                          "operand i32[2,5] outside axis 1");
  Tensor wrongType = alloc(DType::F32, {2, 3});
  st = run(OpCode::Split, {{1}, {}}, {&x}, {&y0, &wrongType});
  EXPECT_TRUE(startsWith(st.message(), "split: result 1 f32[2,3]"));
  st = run(OpCode::Split, {{1}, {}}, {&x}, {});
  EXPECT_EQ(st.message(), "split: expected at least 1 results, got 0");
}

TEST(ShapeOpsTest, Expand) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{3, 1}, {2, 3, 4}}, {{}, {2, 2}},           {{4}, {3, 4}},
      {{1, 1}, {1, 1}},    {{2, 1, 3}, {2, 5, 3}}, {{1}, {0, 3}},
  };
  for (const auto &[from, to] : cases) {
    for (DType dt : {DType::F64, DType::U16, DType::Bool}) {
      Tensor x = iota(dt, from, 1, 1);
      Tensor y = run1(OpCode::Expand, {}, {&x}, dt, to);
      std::vector<double> expected;
      for (int64_t i = 0; i < shapeNumElements(to); ++i)
        expected.push_back(
            getElem(x, broadcastIndex(unravel(i, to), from, to)));
      EXPECT_EQ(values(y), expected)
          << shapeToString(from) << " -> " << shapeToString(to);
    }
  }
  Tensor x = iota(DType::F32, {3});
  EXPECT_EQ(runError(OpCode::Expand, {}, {&x}, DType::F32, {2, 4}),
            "expand: operand f32[3] does not broadcast to f32[2,4]");
  Tensor big = iota(DType::F32, {2, 3});
  EXPECT_TRUE(startsWith(runError(OpCode::Expand, {}, {&big}, DType::F32, {3}),
                         "expand: operand f32[2,3] does not broadcast"));
}
