//===- ReductionTest.cpp - Reduce* and ArgMax/ArgMin ----------------------===//

#include "TestUtil.h"

#include <algorithm>
#include <limits>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

enum class Kind { Sum, Mean, Max, Min, Prod };

/// The reduction written out: for every output position, visit the input
/// elements that map to it.
std::vector<double> naiveReduce(const Tensor &x,
                                const std::vector<int64_t> &axes, Kind kind,
                                Shape &keptShape) {
  const Shape &s = x.shape();
  std::vector<bool> red(s.size(), false);
  for (int64_t a : axes)
    red[a] = true;
  keptShape = s;
  for (size_t d = 0; d < s.size(); ++d)
    if (red[d])
      keptShape[d] = 1;
  std::vector<double> out;
  for (int64_t o = 0; o < shapeNumElements(keptShape); ++o) {
    const auto oi = unravel(o, keptShape);
    double acc = kind == Kind::Prod  ? 1
                 : kind == Kind::Max ? -INFINITY
                 : kind == Kind::Min ? INFINITY
                                     : 0;
    int64_t count = 0;
    for (int64_t i = 0; i < x.numElements(); ++i) {
      const auto ii = unravel(i, s);
      bool match = true;
      for (size_t d = 0; d < s.size(); ++d)
        match &= red[d] || ii[d] == oi[d];
      if (!match)
        continue;
      const double v = getElem(x, i);
      ++count;
      switch (kind) {
      case Kind::Sum:
      case Kind::Mean:
        acc += v;
        break;
      case Kind::Prod:
        acc *= v;
        break;
      case Kind::Max:
        acc = std::isnan(acc) || v < acc ? acc : v;
        break;
      case Kind::Min:
        acc = std::isnan(acc) || v > acc ? acc : v;
        break;
      }
    }
    if (kind == Kind::Mean)
      acc = isIntegerDType(x.dtype()) ? std::trunc(acc / count) : acc / count;
    out.push_back(acc);
  }
  return out;
}

OpCode opFor(Kind k) {
  switch (k) {
  case Kind::Sum:
    return OpCode::ReduceSum;
  case Kind::Mean:
    return OpCode::ReduceMean;
  case Kind::Max:
    return OpCode::ReduceMax;
  case Kind::Min:
    return OpCode::ReduceMin;
  case Kind::Prod:
    return OpCode::ReduceProd;
  }
  return OpCode::ReduceSum;
}

} // namespace

TEST(ReductionTest, AllAxisSets) {
  const Shape s = {2, 3, 4};
  const std::vector<std::vector<int64_t>> axisSets = {
      {0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}, {0, 1, 2}};
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32,
                   DType::I64, DType::I8, DType::U32}) {
    Tensor x = alloc(dt, s);
    for (int64_t i = 0; i < x.numElements(); ++i)
      setElem(x, i,
              isFloatDType(dt) ? ((i * 7) % 13) * 0.25 - 1.5
                               : ((i * 7) % 5) - (dt == DType::U32 ? 0 : 2));
    for (Kind kind :
         {Kind::Sum, Kind::Mean, Kind::Max, Kind::Min, Kind::Prod}) {
      for (const auto &axes : axisSets) {
        if (kind == Kind::Prod && axes.size() == 3 && !isFloatDType(dt))
          continue; // Products of 24 values overflow small integer types.
        Shape kept;
        std::vector<double> expected = naiveReduce(x, axes, kind, kept);
        // Round (or wrap) through the element type.
        Tensor e = alloc(dt, {static_cast<int64_t>(expected.size())});
        for (size_t i = 0; i < expected.size(); ++i) {
          if (isIntegerDType(dt))
            setElemInt(e, i, static_cast<int64_t>(expected[i]));
          else
            setElem(e, i, expected[i]);
        }
        expected = values(e);
        for (int keep = 0; keep < 2; ++keep) {
          Shape outShape;
          for (size_t d = 0; d < s.size(); ++d) {
            const bool r = std::find(axes.begin(), axes.end(), d) != axes.end();
            if (!r)
              outShape.push_back(s[d]);
            else if (keep)
              outShape.push_back(1);
          }
          std::vector<int64_t> ints = {keep};
          ints.insert(ints.end(), axes.begin(), axes.end());
          Tensor y = run1(opFor(kind), {ints, {}}, {&x}, dt, outShape);
          SCOPED_TRACE(std::string(opCodeMnemonic(opFor(kind))) + " " +
                       dtypeName(dt) + " axes " + shapeToString(axes));
          expectNear(values(y), expected,
                     isFloatDType(dt) ? tolFor(dt) * 4 : 0);
        }
      }
    }
  }
}

TEST(ReductionTest, IntegerProductWrapsAndMeanTruncates) {
  Tensor x = makeRaw<int8_t>(DType::I8, {3}, {16, 16, 3});
  EXPECT_EQ(rawValues<int8_t>(
                run1(OpCode::ReduceProd, {{0, 0}, {}}, {&x}, DType::I8, {})),
            (std::vector<int8_t>{0})); // 768 mod 256.
  EXPECT_EQ(rawValues<int8_t>(
                run1(OpCode::ReduceSum, {{0, 0}, {}}, {&x}, DType::I8, {})),
            (std::vector<int8_t>{35}));
  Tensor m = make(DType::I32, {4}, {-3, -2, 0, 0});
  EXPECT_EQ(
      values(run1(OpCode::ReduceMean, {{1, 0}, {}}, {&m}, DType::I32, {1})),
      (std::vector<double>{-1})); // -5/4 truncates toward zero.
  Tensor big = makeRaw<int64_t>(DType::I64, {2}, {INT64_MAX, INT64_MAX});
  EXPECT_EQ(rawValues<int64_t>(
                run1(OpCode::ReduceMax, {{0, 0}, {}}, {&big}, DType::I64, {})),
            (std::vector<int64_t>{INT64_MAX}));
}

TEST(ReductionTest, NaNAndEmptySets) {
  Tensor x = make(DType::F32, {2, 3}, {1, NAN, 3, 4, 5, 6});
  expectNear(
      values(run1(OpCode::ReduceMax, {{0, 1}, {}}, {&x}, DType::F32, {2})),
      {NAN, 6}, 0);
  expectNear(
      values(run1(OpCode::ReduceMin, {{0, 1}, {}}, {&x}, DType::F32, {2})),
      {NAN, 4}, 0);
  expectNear(
      values(run1(OpCode::ReduceSum, {{0, 1}, {}}, {&x}, DType::F32, {2})),
      {NAN, 15}, 0);
  Tensor e = alloc(DType::F32, {2, 0});
  expectNear(
      values(run1(OpCode::ReduceSum, {{0, 1}, {}}, {&e}, DType::F32, {2})),
      {0, 0}, 0);
  expectNear(
      values(run1(OpCode::ReduceProd, {{0, 1}, {}}, {&e}, DType::F32, {2})),
      {1, 1}, 0);
  expectNear(
      values(run1(OpCode::ReduceMax, {{0, 1}, {}}, {&e}, DType::F32, {2})),
      {-INFINITY, -INFINITY}, 0);
  expectNear(
      values(run1(OpCode::ReduceMin, {{0, 1}, {}}, {&e}, DType::F32, {2})),
      {INFINITY, INFINITY}, 0);
  expectNear(
      values(run1(OpCode::ReduceMean, {{0, 1}, {}}, {&e}, DType::F32, {2})),
      {NAN, NAN}, 0);
  Tensor ei = alloc(DType::I32, {2, 0});
  EXPECT_EQ(
      values(run1(OpCode::ReduceMax, {{0, 1}, {}}, {&ei}, DType::I32, {2})),
      (std::vector<double>{INT32_MIN, INT32_MIN}));
  EXPECT_EQ(runError(OpCode::ReduceMean, {{0, 1}, {}}, {&ei}, DType::I32, {2}),
            "reduce_mean: mean of an empty set of integers");
  // Reducing an empty tensor to an empty result is fine.
  Tensor ee = alloc(DType::F32, {0, 3});
  run1(OpCode::ReduceSum, {{0, 1}, {}}, {&ee}, DType::F32, {0});
}

TEST(ReductionTest, BoolMaxMinAndNoAxes) {
  Tensor b = makeRaw<uint8_t>(DType::Bool, {2, 2}, {0, 1, 0, 0});
  EXPECT_EQ(
      values(run1(OpCode::ReduceMax, {{0, 1}, {}}, {&b}, DType::Bool, {2})),
      (std::vector<double>{1, 0}));
  EXPECT_EQ(
      values(run1(OpCode::ReduceMin, {{0, 0}, {}}, {&b}, DType::Bool, {2})),
      (std::vector<double>{0, 0}));
  // An empty axis list reduces nothing.
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(
      values(run1(OpCode::ReduceSum, {{0}, {}}, {&x}, DType::F32, {2, 3})),
      values(x));
  EXPECT_EQ(
      values(run1(OpCode::ReduceMean, {{1}, {}}, {&x}, DType::F32, {2, 3})),
      values(x));
  EXPECT_TRUE(startsWith(
      runError(OpCode::ReduceSum, {{0}, {}}, {&b}, DType::Bool, {2, 2}),
      "reduce_sum: operand must have a numeric type"));
}

TEST(ReductionTest, ReduceErrors) {
  Tensor x = iota(DType::F32, {2, 3, 4});
  EXPECT_EQ(runError(OpCode::ReduceSum, {{0, 2, 1}, {}}, {&x}, DType::F32, {2}),
            "reduce_sum: axes must be sorted and unique, got [2,1]");
  EXPECT_EQ(
      runError(OpCode::ReduceSum, {{0, 1, 1}, {}}, {&x}, DType::F32, {2, 4}),
      "reduce_sum: axes must be sorted and unique, got [1,1]");
  EXPECT_EQ(runError(OpCode::ReduceMax, {{0, 3}, {}}, {&x}, DType::F32, {2, 3}),
            "reduce_max: axis 3 is out of range for rank 3");
  EXPECT_EQ(
      runError(OpCode::ReduceMax, {{0, -1}, {}}, {&x}, DType::F32, {2, 3}),
      "reduce_max: axis -1 is out of range for rank 3");
  EXPECT_EQ(runError(OpCode::ReduceMin, {{2, 1}, {}}, {&x}, DType::F32, {2, 4}),
            "reduce_min: keepDims must be in [0, 1], got 2");
  EXPECT_TRUE(startsWith(
      runError(OpCode::ReduceMin, {{}, {}}, {&x}, DType::F32, {2, 4}),
      "reduce_min: expected at least 1 integer attribute [keepDims, "
      "axes...], got 0"));
  EXPECT_EQ(
      runError(OpCode::ReduceProd, {{1, 1}, {}}, {&x}, DType::F32, {2, 4}),
      "reduce_prod: result must have shape [2,1,4], got f32[2,4]");
  EXPECT_TRUE(startsWith(
      runError(OpCode::ReduceSum, {{0, 1}, {}}, {&x}, DType::F64, {2, 4}),
      "reduce_sum: result must have element type f32"));
}

TEST(ReductionTest, ArgMaxArgMin) {
  const Shape s = {3, 4, 2};
  for (DType dt :
       {DType::F32, DType::F16, DType::I32, DType::U8, DType::Bool}) {
    Tensor x = alloc(dt, s);
    for (int64_t i = 0; i < x.numElements(); ++i)
      setElem(x, i, dt == DType::Bool ? (i % 3 == 0) : (i * 5) % 7);
    for (int64_t axis = -3; axis < 3; ++axis) {
      const int64_t a = axis < 0 ? axis + 3 : axis;
      for (int keep = 0; keep < 2; ++keep) {
        for (int last = 0; last < 2; ++last) {
          for (bool isMax : {true, false}) {
            Shape out = s;
            if (keep)
              out[a] = 1;
            else
              out.erase(out.begin() + a);
            Shape kept = s;
            kept[a] = 1;
            std::vector<double> expected;
            for (int64_t o = 0; o < shapeNumElements(kept); ++o) {
              auto idx = unravel(o, kept);
              int64_t best = 0;
              double bv = 0;
              for (int64_t j = 0; j < s[a]; ++j) {
                idx[a] = j;
                const double v = getElem(x, ravel(idx, s));
                const bool better =
                    j == 0 || (isMax ? v > bv : v < bv) || (last && v == bv);
                if (better) {
                  bv = v;
                  best = j;
                }
              }
              expected.push_back(static_cast<double>(best));
            }
            Tensor y = run1(isMax ? OpCode::ArgMax : OpCode::ArgMin,
                            {{axis, keep, last}, {}}, {&x}, DType::I64, out);
            EXPECT_EQ(values(y), expected)
                << dtypeName(dt) << " axis " << axis << " keep " << keep
                << " last " << last << (isMax ? " max" : " min");
          }
        }
      }
    }
  }
}

TEST(ReductionTest, ArgMaxNaN) {
  Tensor x = make(DType::F32, {5}, {1, NAN, 3, NAN, 2});
  EXPECT_EQ(values(run1(OpCode::ArgMax, {{0, 0, 0}, {}}, {&x}, DType::I64, {})),
            std::vector<double>{1});
  EXPECT_EQ(values(run1(OpCode::ArgMax, {{0, 0, 1}, {}}, {&x}, DType::I64, {})),
            std::vector<double>{3});
  EXPECT_EQ(values(run1(OpCode::ArgMin, {{0, 0, 0}, {}}, {&x}, DType::I64, {})),
            std::vector<double>{1});
}

/// TopK against a stable sort of each vector: the k largest (smallest)
/// values and positions, equal values by position, NaN the largest.
TEST(ReductionTest, TopK) {
  const Shape s = {3, 6, 2};
  for (DType dt : {DType::F32, DType::BF16, DType::I64}) {
    Tensor x = alloc(dt, s);
    for (int64_t i = 0; i < x.numElements(); ++i)
      setElem(x, i, (i * 5) % 7); // with ties
    for (int64_t axis = 0; axis < 3; ++axis) {
      for (int64_t k : {int64_t(0), int64_t(1), s[axis]}) {
        for (bool largest : {true, false}) {
          Shape out = s;
          out[axis] = k;
          Shape kept = s;
          kept[axis] = 1;
          std::vector<double> wantValues(shapeNumElements(out)),
              wantIndices(shapeNumElements(out));
          for (int64_t o = 0; o < shapeNumElements(kept); ++o) {
            auto idx = unravel(o, kept);
            std::vector<std::pair<double, int64_t>> row;
            for (int64_t j = 0; j < s[axis]; ++j) {
              idx[axis] = j;
              row.push_back({getElem(x, ravel(idx, s)), j});
            }
            std::stable_sort(
                row.begin(), row.end(), [&](const auto &a, const auto &b) {
                  return largest ? a.first > b.first : a.first < b.first;
                });
            for (int64_t j = 0; j < k; ++j) {
              idx[axis] = j;
              wantValues[ravel(idx, out)] = row[j].first;
              wantIndices[ravel(idx, out)] = double(row[j].second);
            }
          }
          Tensor values_ = alloc(dt, out), indices = alloc(DType::I64, out);
          ASSERT_TRUE(run(OpCode::TopK, {{axis, k, largest}, {}}, {&x},
                          {&values_, &indices})
                          .isOk());
          EXPECT_EQ(values(values_), wantValues)
              << dtypeName(dt) << " axis " << axis << " k " << k;
          EXPECT_EQ(values(indices), wantIndices)
              << dtypeName(dt) << " axis " << axis << " k " << k;
        }
      }
    }
  }
  Tensor n = make(DType::F32, {5}, {1, NAN, 3, NAN, 2});
  Tensor v = alloc(DType::F32, {3}), i = alloc(DType::I64, {3});
  ASSERT_TRUE(run(OpCode::TopK, {{0, 3, 1}, {}}, {&n}, {&v, &i}).isOk());
  EXPECT_EQ(values(i), (std::vector<double>{1, 3, 2}));
  ASSERT_TRUE(run(OpCode::TopK, {{0, 3, 0}, {}}, {&n}, {&v, &i}).isOk());
  EXPECT_EQ(values(i), (std::vector<double>{0, 4, 2}));
  Tensor v7 = alloc(DType::F32, {7}), i7 = alloc(DType::I64, {7});
  EXPECT_EQ(run(OpCode::TopK, {{0, 7, 1}, {}}, {&n}, {&v7, &i7}).message(),
            "topk: k = 7 is out of range for dim 0 of f32[5]");
  Tensor f3 = alloc(DType::F32, {3});
  EXPECT_EQ(run(OpCode::TopK, {{0, 3, 1}, {}}, {&n}, {&v, &f3}).message(),
            "topk: indices must have element type i64, got f32[3]");
}

TEST(ReductionTest, ArgErrors) {
  Tensor x = iota(DType::F32, {2, 3});
  EXPECT_EQ(runError(OpCode::ArgMax, {{1, 0, 0}, {}}, {&x}, DType::I32, {2}),
            "argmax: result must have element type i64, got i32[2]");
  EXPECT_EQ(runError(OpCode::ArgMax, {{2, 0, 0}, {}}, {&x}, DType::I64, {2}),
            "argmax: axis 2 is out of range for rank 2");
  EXPECT_EQ(runError(OpCode::ArgMin, {{1, 3, 0}, {}}, {&x}, DType::I64, {2}),
            "argmin: keepDims must be in [0, 1], got 3");
  EXPECT_EQ(runError(OpCode::ArgMin, {{1, 0}, {}}, {&x}, DType::I64, {2}),
            "argmin: expected 3 integer attributes, got 2");
  EXPECT_EQ(runError(OpCode::ArgMin, {{1, 0, 0}, {}}, {&x}, DType::I64, {3}),
            "argmin: result must have shape [2], got i64[3]");
  Tensor e = alloc(DType::F32, {2, 0});
  EXPECT_EQ(runError(OpCode::ArgMax, {{1, 0, 0}, {}}, {&e}, DType::I64, {2}),
            "argmax: cannot reduce an empty dimension");
}

TEST(ReductionTest, SumSquareIsTheSumOfSquares) {
  // Every axis set of a [3, 5, 8] tensor, in each floating type: the naive
  // sum of the squared elements (f64), rounded to the element type.
  const Shape s = {3, 5, 8};
  const std::vector<std::vector<int64_t>> axisSets = {
      {0}, {1}, {2}, {0, 1}, {1, 2}, {0, 1, 2}};
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
    Tensor x = alloc(dt, s);
    Tensor squares = alloc(DType::F64, s);
    for (int64_t i = 0; i < x.numElements(); ++i) {
      setElem(x, i, ((i * 11) % 17) * 0.125 - 1.0);
      const double v = getElem(x, i);
      setElem(squares, i, v * v);
    }
    for (const auto &axes : axisSets) {
      Shape kept;
      std::vector<double> expected =
          naiveReduce(squares, axes, Kind::Sum, kept);
      Tensor e = alloc(dt, {static_cast<int64_t>(expected.size())});
      for (size_t i = 0; i < expected.size(); ++i)
        setElem(e, i, expected[i]);
      std::vector<int64_t> ints = {1};
      ints.insert(ints.end(), axes.begin(), axes.end());
      Tensor y = run1(OpCode::ReduceSumSquare, {ints, {}}, {&x}, dt, kept);
      SCOPED_TRACE(std::string(dtypeName(dt)) + " axes " +
                   shapeToString(axes));
      expectNear(values(y), values(e), tolFor(dt) * 4);
    }
  }
  // Integers have no sum of squares here; an empty axis list is an error.
  Tensor i32 = alloc(DType::I32, {2, 3});
  EXPECT_FALSE(
      runError(OpCode::ReduceSumSquare, {{1, 1}, {}}, {&i32}, DType::I32, {2, 1})
          .empty());
  Tensor f = alloc(DType::F32, {2, 3});
  EXPECT_NE(runError(OpCode::ReduceSumSquare, {{1}, {}}, {&f}, DType::F32,
                     {2, 3})
                .find("at least one axis"),
            std::string::npos);
}
