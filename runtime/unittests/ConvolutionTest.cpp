//===- ConvolutionTest.cpp - Conv and Pool against direct loops -----------===//
//
// The kernels (im2col and BLAS for Conv) against ONNX's definitions written
// as direct loops in double over every output element and window element.

#include "TestUtil.h"

#include <cmath>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// A window op's attributes per spatial dim.
struct Window {
  std::vector<int64_t> kernel, strides, padsBegin, padsEnd, dilations;
};

/// The output's spatial sizes.
std::vector<int64_t> outSizes(const Shape &x, const Window &w) {
  std::vector<int64_t> out;
  for (size_t d = 0; d + 2 < x.size(); ++d) {
    int64_t span = w.dilations[d] * (w.kernel[d] - 1) + 1;
    out.push_back(
        (x[2 + d] + w.padsBegin[d] + w.padsEnd[d] - span) / w.strides[d] + 1);
  }
  return out;
}

/// Visits every window element of output position `o` (spatial index) with
/// its input index, or -1 in the padding.
template <typename F>
void forWindow(const Shape &x, const Window &w, const std::vector<int64_t> &o,
               F &&f) {
  const size_t r = x.size() - 2;
  Shape kernelShape(w.kernel.begin(), w.kernel.end());
  for (int64_t k = 0; k < shapeNumElements(kernelShape); ++k) {
    auto kidx = unravel(k, kernelShape);
    std::vector<int64_t> in(r);
    bool inside = true;
    for (size_t d = 0; d < r; ++d) {
      in[d] = o[d] * w.strides[d] - w.padsBegin[d] + kidx[d] * w.dilations[d];
      inside &= in[d] >= 0 && in[d] < x[2 + d];
    }
    f(kidx, inside ? in : std::vector<int64_t>());
  }
}

std::vector<double> naiveConv(const Tensor &x, const Tensor &wt,
                              const Tensor *bias, int64_t groups,
                              const Window &w) {
  const Shape &xs = x.shape();
  const int64_t n = xs[0], c = xs[1], m = wt.shape()[0];
  const int64_t cg = c / groups, mg = m / groups;
  Shape ys = {n, m};
  for (int64_t o : outSizes(xs, w))
    ys.push_back(o);
  Shape spatial(ys.begin() + 2, ys.end());
  std::vector<double> y(size_t(shapeNumElements(ys)));
  for (int64_t i = 0; i < int64_t(y.size()); ++i) {
    auto idx = unravel(i, ys);
    std::vector<int64_t> o(idx.begin() + 2, idx.end());
    const int64_t f = idx[1], g = f / mg;
    double acc = bias ? getElem(*bias, f) : 0.0;
    for (int64_t ci = 0; ci < cg; ++ci)
      forWindow(
          xs, w, o,
          [&](const std::vector<int64_t> &k, const std::vector<int64_t> &in) {
            if (in.empty())
              return;
            std::vector<int64_t> xi = {idx[0], g * cg + ci};
            xi.insert(xi.end(), in.begin(), in.end());
            std::vector<int64_t> wi = {f, ci};
            wi.insert(wi.end(), k.begin(), k.end());
            acc +=
                getElem(x, ravel(xi, xs)) * getElem(wt, ravel(wi, wt.shape()));
          });
    y[i] = acc;
  }
  return y;
}

std::vector<double> naivePool(const Tensor &x, const Window &w, bool average,
                              bool countPadding) {
  const Shape &xs = x.shape();
  Shape ys = {xs[0], xs[1]};
  for (int64_t o : outSizes(xs, w))
    ys.push_back(o);
  std::vector<double> y(size_t(shapeNumElements(ys)));
  for (int64_t i = 0; i < int64_t(y.size()); ++i) {
    auto idx = unravel(i, ys);
    std::vector<int64_t> o(idx.begin() + 2, idx.end());
    double acc = average ? 0.0 : -INFINITY;
    int64_t count = 0, all = 0;
    forWindow(
        xs, w, o,
        [&](const std::vector<int64_t> &, const std::vector<int64_t> &in) {
          ++all;
          if (in.empty())
            return;
          std::vector<int64_t> xi = {idx[0], idx[1]};
          xi.insert(xi.end(), in.begin(), in.end());
          double v = getElem(x, ravel(xi, xs));
          acc = average ? acc + v : std::max(acc, v);
          ++count;
        });
    y[i] = average
               ? acc / double(countPadding ? all : std::max<int64_t>(count, 1))
               : acc;
  }
  return y;
}

Tensor randomTensor(DType dt, const Shape &shape, uint64_t seed) {
  Tensor t = alloc(dt, shape);
  std::vector<double> v = randomValues(size_t(t.numElements()), seed, -1, 1);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElem(t, i, v[i]);
  return t;
}

std::vector<int64_t> convInts(int64_t groups, const Window &w) {
  std::vector<int64_t> ints = {groups};
  for (const auto *v : {&w.strides, &w.padsBegin, &w.padsEnd, &w.dilations})
    ints.insert(ints.end(), v->begin(), v->end());
  return ints;
}

struct ConvCase {
  Shape x;
  int64_t features, groups;
  Window w;
  bool bias;
};

} // namespace

TEST(ConvolutionTest, ConvMatchesTheDefinition) {
  const std::vector<ConvCase> cases = {
      // 1-D with stride and padding (Whisper's front-end).
      {{2, 3, 11}, 4, 1, {{3}, {2}, {1}, {1}, {1}}, true},
      // 2-D: a stem, a dilated conv with asymmetric pads, a grouped and a
      // depthwise conv, a patch embedding (stride = kernel).
      {{2, 3, 9, 8}, 5, 1, {{3, 3}, {2, 1}, {1, 0}, {1, 2}, {1, 1}}, true},
      {{1, 4, 10, 10}, 6, 1, {{3, 2}, {1, 1}, {2, 0}, {0, 1}, {2, 3}}, false},
      {{2, 4, 6, 7}, 6, 2, {{3, 3}, {1, 2}, {1, 1}, {1, 1}, {1, 1}}, true},
      {{1, 6, 7, 7}, 6, 6, {{7, 7}, {1, 1}, {3, 3}, {3, 3}, {1, 1}}, true},
      {{2, 3, 8, 8}, 8, 1, {{4, 4}, {4, 4}, {0, 0}, {0, 0}, {1, 1}}, true},
      // 3-D.
      {{1, 2, 4, 5, 3},
       3,
       1,
       {{2, 2, 2}, {1, 2, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 2}},
       true},
  };
  for (DType dt : floatTypes())
    for (size_t i = 0; i < cases.size(); ++i) {
      const ConvCase &c = cases[i];
      SCOPED_TRACE(std::string(dtypeName(dt)) + " case " + std::to_string(i));
      Shape ws = {c.features, c.x[1] / c.groups};
      ws.insert(ws.end(), c.w.kernel.begin(), c.w.kernel.end());
      Tensor x = randomTensor(dt, c.x, 1 + i);
      Tensor w = randomTensor(dt, ws, 100 + i);
      Tensor b = randomTensor(dt, {c.features}, 200 + i);
      Shape ys = {c.x[0], c.features};
      for (int64_t o : outSizes(c.x, c.w))
        ys.push_back(o);
      std::vector<const Tensor *> in = {&x, &w};
      if (c.bias)
        in.push_back(&b);
      Tensor y = run1(OpCode::Conv, {convInts(c.groups, c.w), {}}, in, dt, ys);
      expectNear(values(y),
                 naiveConv(x, w, c.bias ? &b : nullptr, c.groups, c.w),
                 tolFor(dt) * 8);
    }
}

TEST(ConvolutionTest, PoolMatchesTheDefinition) {
  const std::vector<std::pair<Shape, Window>> cases = {
      {{2, 3, 9, 9}, {{3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}}},
      {{1, 2, 8, 6}, {{2, 2}, {2, 2}, {0, 0}, {0, 0}, {1, 1}}},
      {{2, 2, 10}, {{3}, {3}, {1}, {2}, {1}}},
      {{1, 2, 4, 4, 5},
       {{2, 2, 3}, {1, 2, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}}},
  };
  for (DType dt : floatTypes())
    for (size_t i = 0; i < cases.size(); ++i)
      for (int kind : {0, 1})
        for (int countPadding : {0, 1}) {
          const auto &[xs, w] = cases[i];
          SCOPED_TRACE(std::string(dtypeName(dt)) + " case " +
                       std::to_string(i) + " kind " + std::to_string(kind) +
                       " count_include_pad " + std::to_string(countPadding));
          Tensor x = randomTensor(dt, xs, 7 + i);
          Shape ys = {xs[0], xs[1]};
          for (int64_t o : outSizes(xs, w))
            ys.push_back(o);
          std::vector<int64_t> ints = {kind, countPadding};
          for (const auto *v :
               {&w.kernel, &w.strides, &w.padsBegin, &w.padsEnd})
            ints.insert(ints.end(), v->begin(), v->end());
          Tensor y = run1(OpCode::Pool, {ints, {}}, {&x}, dt, ys);
          expectNear(values(y), naivePool(x, w, kind == 1, countPadding == 1),
                     tolFor(dt) * 2);
        }
}

TEST(ConvolutionTest, Errors) {
  Tensor x = iota(DType::F32, {1, 4, 5, 5});
  Tensor w = iota(DType::F32, {6, 2, 3, 3});
  auto error = [&](const std::vector<int64_t> &ints, const Tensor &weight) {
    return runError(OpCode::Conv, {ints, {}}, {&x, &weight}, DType::F32,
                    {1, 6, 3, 3});
  };
  // Group 2 takes a weight of 2 input channels; group 1 does not.
  Tensor y = alloc(DType::F32, {1, 6, 3, 3});
  EXPECT_TRUE(
      run(OpCode::Conv, {{2, 1, 1, 0, 0, 0, 0, 1, 1}, {}}, {&x, &w}, {&y})
          .isOk());
  EXPECT_TRUE(startsWith(error({1, 1, 1, 0, 0, 0, 0, 1, 1}, w),
                         "conv: group 1 must divide the 4 input channels"));
  EXPECT_TRUE(startsWith(error({3, 1, 1, 0, 0, 0, 0, 1, 1}, w),
                         "conv: group 3 must divide"));
  EXPECT_TRUE(startsWith(error({2, 1, 1, -1, 0, 0, 0, 1, 1}, w),
                         "conv: spatial dim 0: kernel 3, stride 1, dilation "
                         "1 must be >= 1 and pads -1, 0 >= 0"));
  EXPECT_TRUE(startsWith(error({2, 1, 1, 0, 0, 0, 0, 4, 1}, w),
                         "conv: spatial dim 0: the window (9) is larger than "
                         "the padded input (5)"));
  EXPECT_TRUE(
      startsWith(error({2, 1, 1}, w), "conv: expected 9 integer attributes"));
  Tensor w3 = iota(DType::F32, {6, 2, 3});
  EXPECT_TRUE(startsWith(error({2, 1, 1, 0, 0, 0, 0, 1, 1}, w3),
                         "conv: weight f32[6,2,3] must have the operand's "
                         "rank 4"));
  EXPECT_TRUE(
      startsWith(runError(OpCode::Pool, {{2, 0, 2, 2, 2, 2, 0, 0, 0, 0}, {}},
                          {&x}, DType::F32, {1, 4, 2, 2}),
                 "pool: kind"));
}
