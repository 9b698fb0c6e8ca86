//===- IndexingTest.cpp - Gather, GatherElements, GatherND ----------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// np.take(data, indices, axis), written out.
std::vector<double> naiveGather(const Tensor &data, const Tensor &indices,
                                int64_t axis, Shape &outShape) {
  const Shape &ds = data.shape();
  outShape.assign(ds.begin(), ds.begin() + axis);
  outShape.insert(outShape.end(), indices.shape().begin(),
                  indices.shape().end());
  outShape.insert(outShape.end(), ds.begin() + axis + 1, ds.end());
  const int64_t q = indices.rank();
  std::vector<double> out;
  for (int64_t i = 0; i < shapeNumElements(outShape); ++i) {
    const auto o = unravel(i, outShape);
    std::vector<int64_t> idxPos(o.begin() + axis, o.begin() + axis + q);
    int64_t v =
        static_cast<int64_t>(getElem(indices, ravel(idxPos, indices.shape())));
    if (v < 0)
      v += ds[axis];
    std::vector<int64_t> d(o.begin(), o.begin() + axis);
    d.push_back(v);
    d.insert(d.end(), o.begin() + axis + q, o.end());
    out.push_back(getElem(data, ravel(d, ds)));
  }
  return out;
}

} // namespace

TEST(IndexingTest, Gather) {
  const Shape ds = {3, 4, 2};
  for (DType dt :
       {DType::F32, DType::F16, DType::I64, DType::U8, DType::Bool}) {
    Tensor data = iota(dt, ds, 1, dt == DType::Bool ? 0 : 1);
    if (dt == DType::Bool)
      data = make(dt, ds, std::vector<double>(24, 0));
    for (int64_t i = 0; i < data.numElements(); i += 3)
      if (dt == DType::Bool)
        setElem(data, i, 1);
    for (DType it : {DType::I32, DType::I64}) {
      const std::vector<Tensor> indexSets = {
          make(it, {2}, {0, -1}), make(it, {2, 2}, {1, 0, -2, 1}),
          make(it, {}, {1}), make(it, {0}, {}), make(it, {3}, {-1, -1, 0})};
      for (int64_t axis = -3; axis < 3; ++axis) {
        const int64_t a = axis < 0 ? axis + 3 : axis;
        for (const Tensor &idx : indexSets) {
          bool inRange = true;
          for (double v : values(idx))
            inRange &= v >= -ds[a] && v < ds[a];
          if (!inRange)
            continue;
          Shape outShape;
          const std::vector<double> expected =
              naiveGather(data, idx, a, outShape);
          Tensor y =
              run1(OpCode::Gather, {{axis}, {}}, {&data, &idx}, dt, outShape);
          EXPECT_EQ(values(y), expected)
              << dtypeName(dt) << " axis " << axis << " idx "
              << shapeToString(idx.shape());
        }
      }
    }
  }
}

TEST(IndexingTest, GatherErrors) {
  Tensor data = iota(DType::F32, {3, 4});
  Tensor idx = make(DType::I64, {2}, {0, 3});
  EXPECT_EQ(
      runError(OpCode::Gather, {{0}, {}}, {&data, &idx}, DType::F32, {2, 4}),
      "gather: index 3 is out of range for a dimension of size 3");
  Tensor neg = make(DType::I32, {1}, {-4});
  EXPECT_EQ(
      runError(OpCode::Gather, {{0}, {}}, {&data, &neg}, DType::F32, {1, 4}),
      "gather: index -4 is out of range for a dimension of size 3");
  Tensor fidx = make(DType::F32, {1}, {0});
  EXPECT_EQ(
      runError(OpCode::Gather, {{0}, {}}, {&data, &fidx}, DType::F32, {1, 4}),
      "gather: indices must have i32 or i64, got f32[1]");
  Tensor ok = make(DType::I64, {1}, {0});
  EXPECT_EQ(
      runError(OpCode::Gather, {{2}, {}}, {&data, &ok}, DType::F32, {3, 1}),
      "gather: axis 2 is out of range for rank 2");
  EXPECT_EQ(
      runError(OpCode::Gather, {{1}, {}}, {&data, &ok}, DType::F32, {1, 3}),
      "gather: result must have shape [3,1], got f32[1,3]");
  Tensor scalar = make(DType::F32, {}, {1});
  EXPECT_TRUE(startsWith(
      runError(OpCode::Gather, {{0}, {}}, {&scalar, &ok}, DType::F32, {1}),
      "gather: data must have rank >= 1"));
  // Out-of-range indices are rejected even when the result is empty.
  Tensor empty = alloc(DType::F32, {3, 0});
  EXPECT_TRUE(startsWith(
      runError(OpCode::Gather, {{0}, {}}, {&empty, &idx}, DType::F32, {2, 0}),
      "gather: index 3"));
}

TEST(IndexingTest, GatherElements) {
  // The ONNX examples.
  Tensor data = make(DType::F32, {2, 2}, {1, 2, 3, 4});
  Tensor idx = make(DType::I64, {2, 2}, {0, 0, 1, 0});
  EXPECT_EQ(values(run1(OpCode::GatherElements, {{1}, {}}, {&data, &idx},
                        DType::F32, {2, 2})),
            (std::vector<double>{1, 1, 4, 3}));
  Tensor data2 = make(DType::I32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor idx2 = make(DType::I32, {2, 3}, {1, 2, 0, 2, 0, 0});
  EXPECT_EQ(values(run1(OpCode::GatherElements, {{0}, {}}, {&data2, &idx2},
                        DType::I32, {2, 3})),
            (std::vector<double>{4, 8, 3, 7, 2, 3}));
  // Negative indices and axis; indices smaller than data in other dims.
  Tensor idx3 = make(DType::I64, {2, 2}, {-1, 0, -3, 1});
  EXPECT_EQ(values(run1(OpCode::GatherElements, {{-1}, {}}, {&data2, &idx3},
                        DType::I32, {2, 2})),
            (std::vector<double>{3, 1, 4, 5}));
  // 3-D against a naive loop.
  const Shape ds = {2, 3, 4}, is = {2, 2, 5};
  Tensor d3 = iota(DType::F64, ds);
  for (int64_t axis = 0; axis < 3; ++axis) {
    const Shape isA = axis == 2 ? is : Shape{2, axis == 1 ? 5 : 2, 3};
    Tensor i3 = alloc(DType::I64, isA);
    for (int64_t i = 0; i < i3.numElements(); ++i)
      setElem(i3, i, (i * 7) % ds[axis] - (i % 2 ? ds[axis] : 0));
    Tensor y =
        run1(OpCode::GatherElements, {{axis}, {}}, {&d3, &i3}, DType::F64, isA);
    for (int64_t i = 0; i < i3.numElements(); ++i) {
      auto pos = unravel(i, isA);
      int64_t v = static_cast<int64_t>(getElem(i3, i));
      pos[axis] = v < 0 ? v + ds[axis] : v;
      EXPECT_EQ(getElem(y, i), getElem(d3, ravel(pos, ds))) << axis << " " << i;
    }
  }
}

TEST(IndexingTest, GatherElementsErrors) {
  Tensor data = iota(DType::F32, {2, 2});
  Tensor idx = make(DType::I64, {2, 2}, {0, 2, 1, 0});
  EXPECT_EQ(runError(OpCode::GatherElements, {{1}, {}}, {&data, &idx},
                     DType::F32, {2, 2}),
            "gather_elements: index 2 is out of range for a dimension of size "
            "2");
  Tensor big = make(DType::I64, {3, 1}, {0, 0, 0});
  EXPECT_TRUE(startsWith(runError(OpCode::GatherElements, {{1}, {}},
                                  {&data, &big}, DType::F32, {3, 1}),
                         "gather_elements: indices i64[3,1] exceed data"));
  Tensor r1 = make(DType::I64, {2}, {0, 0});
  EXPECT_TRUE(startsWith(runError(OpCode::GatherElements, {{0}, {}},
                                  {&data, &r1}, DType::F32, {2}),
                         "gather_elements: indices i64[2] must have the rank"));
  Tensor ok = make(DType::I64, {1, 2}, {0, 1});
  EXPECT_EQ(runError(OpCode::GatherElements, {{0}, {}}, {&data, &ok},
                     DType::F32, {2, 1}),
            "gather_elements: result must have shape [1,2], got f32[2,1]");
}

TEST(IndexingTest, GatherND) {
  // ONNX examples.
  Tensor d1 = make(DType::I32, {2, 2}, {0, 1, 2, 3});
  Tensor i1 = make(DType::I64, {2, 2}, {0, 0, 1, 1});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{0}, {}}, {&d1, &i1}, DType::I32, {2})),
      (std::vector<double>{0, 3}));
  Tensor i2 = make(DType::I64, {2, 1}, {1, 0});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{0}, {}}, {&d1, &i2}, DType::I32, {2, 2})),
      (std::vector<double>{2, 3, 0, 1}));
  Tensor d3 = iota(DType::F32, {2, 2, 2});
  Tensor i3 = make(DType::I64, {2, 2}, {0, 1, 1, 0});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{0}, {}}, {&d3, &i3}, DType::F32, {2, 2})),
      (std::vector<double>{2, 3, 4, 5}));
  Tensor i4 = make(DType::I64, {2, 1, 2}, {0, 1, 1, 0});
  EXPECT_EQ(values(run1(OpCode::GatherND, {{0}, {}}, {&d3, &i4}, DType::F32,
                        {2, 1, 2})),
            (std::vector<double>{2, 3, 4, 5}));
  // batch_dims = 1.
  Tensor i5 = make(DType::I64, {2, 1}, {1, 0});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{1}, {}}, {&d3, &i5}, DType::F32, {2, 2})),
      (std::vector<double>{2, 3, 4, 5}));
  // Negative indices, full-depth tuples, i32 indices.
  Tensor i6 = make(DType::I32, {2, 3}, {-1, -1, -1, 0, 1, -2});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{0}, {}}, {&d3, &i6}, DType::F32, {2})),
      (std::vector<double>{7, 2}));
  // batch_dims = 2 with a scalar slice per tuple.
  Tensor i7 = make(DType::I64, {2, 2, 1}, {1, 0, 0, 1});
  EXPECT_EQ(
      values(run1(OpCode::GatherND, {{2}, {}}, {&d3, &i7}, DType::F32, {2, 2})),
      (std::vector<double>{1, 2, 4, 7}));
}

TEST(IndexingTest, GatherNDErrors) {
  Tensor d = iota(DType::F32, {2, 3});
  Tensor i = make(DType::I64, {1, 2}, {1, 3});
  EXPECT_EQ(runError(OpCode::GatherND, {{0}, {}}, {&d, &i}, DType::F32, {1}),
            "gather_nd: index 3 is out of range for a dimension of size 3");
  Tensor deep = make(DType::I64, {1, 3}, {0, 0, 0});
  EXPECT_EQ(runError(OpCode::GatherND, {{0}, {}}, {&d, &deep}, DType::F32, {1}),
            "gather_nd: the last dimension of indices (3) must be in [1, 2]");
  Tensor b = make(DType::I64, {3, 1}, {0, 0, 0});
  EXPECT_TRUE(startsWith(
      runError(OpCode::GatherND, {{1}, {}}, {&d, &b}, DType::F32, {3}),
      "gather_nd: batch dimension 0 differs"));
  EXPECT_EQ(runError(OpCode::GatherND, {{2}, {}}, {&d, &i}, DType::F32, {1}),
            "gather_nd: batchDims must be in [0, 1], got 2");
  Tensor ok = make(DType::I64, {1, 2}, {1, 2});
  EXPECT_EQ(runError(OpCode::GatherND, {{0}, {}}, {&d, &ok}, DType::F32, {2}),
            "gather_nd: result must have shape [1], got f32[2]");
}
