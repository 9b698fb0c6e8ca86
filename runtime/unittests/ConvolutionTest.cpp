//===- ConvolutionTest.cpp - Conv and Pool against direct loops -----------===//
//
// The kernels (im2col and BLAS for Conv) against ONNX's definitions written
// as direct loops in double over every output element and window element,
// and the gradients (ConvTranspose, ConvWeightGrad, PoolGrad) against the
// same loops read as sums: every product x * w that makes y contributes
// dy * w to dx and dy * x to dw.

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

/// Visits every product of the convolution of an operand of shape `xs` by
/// a weight of shape `ws` (groups `groups`): (flat result index, flat
/// operand index, flat weight index).
template <typename F>
void forEachProduct(const Shape &xs, const Shape &ws, int64_t groups,
                    const Window &w, F &&f) {
  const int64_t c = xs[1], m = ws[0], cg = c / groups, mg = m / groups;
  Shape ys = {xs[0], m};
  for (int64_t o : outSizes(xs, w))
    ys.push_back(o);
  for (int64_t i = 0; i < shapeNumElements(ys); ++i) {
    auto idx = unravel(i, ys);
    std::vector<int64_t> o(idx.begin() + 2, idx.end());
    const int64_t feature = idx[1], g = feature / mg;
    for (int64_t ci = 0; ci < cg; ++ci)
      forWindow(
          xs, w, o,
          [&](const std::vector<int64_t> &k, const std::vector<int64_t> &in) {
            if (in.empty())
              return;
            std::vector<int64_t> xi = {idx[0], g * cg + ci};
            xi.insert(xi.end(), in.begin(), in.end());
            std::vector<int64_t> wi = {feature, ci};
            wi.insert(wi.end(), k.begin(), k.end());
            f(i, ravel(xi, xs), ravel(wi, ws));
          });
  }
}

/// ConvTranspose's definition: dx[x] = sum of w[w] dy[y] over the products.
std::vector<double> naiveConvTranspose(const Tensor &dy, const Tensor &wt,
                                       const Shape &xs, int64_t groups,
                                       const Window &w) {
  std::vector<double> dx(size_t(shapeNumElements(xs)), 0.0);
  forEachProduct(xs, wt.shape(), groups, w,
                 [&](int64_t y, int64_t x, int64_t wi) {
                   dx[x] += getElem(wt, wi) * getElem(dy, y);
                 });
  return dx;
}

/// ConvWeightGrad's definition: dw[w] = sum of x[x] dy[y].
std::vector<double> naiveWeightGrad(const Tensor &x, const Tensor &dy,
                                    const Shape &ws, int64_t groups,
                                    const Window &w) {
  std::vector<double> dw(size_t(shapeNumElements(ws)), 0.0);
  forEachProduct(x.shape(), ws, groups, w,
                 [&](int64_t y, int64_t xi, int64_t wi) {
                   dw[wi] += getElem(x, xi) * getElem(dy, y);
                 });
  return dw;
}

/// PoolGrad's definition: each window's dy to its first maximum (max), or
/// divided among the elements its average counted.
std::vector<double> naivePoolGrad(const Tensor &x, const Tensor &dy,
                                  const Window &w, bool average,
                                  bool countPadding) {
  const Shape &xs = x.shape(), &ys = dy.shape();
  std::vector<double> dx(size_t(x.numElements()), 0.0);
  for (int64_t i = 0; i < dy.numElements(); ++i) {
    auto idx = unravel(i, ys);
    std::vector<int64_t> o(idx.begin() + 2, idx.end());
    std::vector<int64_t> inside;
    int64_t all = 0, best = -1;
    double bestValue = -INFINITY;
    forWindow(
        xs, w, o,
        [&](const std::vector<int64_t> &, const std::vector<int64_t> &in) {
          ++all;
          if (in.empty())
            return;
          std::vector<int64_t> xi = {idx[0], idx[1]};
          xi.insert(xi.end(), in.begin(), in.end());
          const int64_t at = ravel(xi, xs);
          inside.push_back(at);
          if (best < 0 || getElem(x, at) > bestValue) {
            best = at;
            bestValue = getElem(x, at);
          }
        });
    const double g = getElem(dy, i);
    if (!average) {
      if (best >= 0)
        dx[best] += g;
      continue;
    }
    const double divisor = double(
        countPadding ? all : std::max<int64_t>(int64_t(inside.size()), 1));
    for (int64_t at : inside)
      dx[at] += g / divisor;
  }
  return dx;
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

TEST(ConvolutionTest, GradientsMatchTheDefinition) {
  struct GradCase {
    Shape x;
    int64_t features, groups;
    Window w;
    bool bias;
  };
  const std::vector<GradCase> cases = {
      {{2, 3, 9, 8}, 4, 1, {{3, 3}, {2, 2}, {1, 1}, {1, 0}, {1, 1}}, true},
      // Strided with a remainder, dilated, grouped, depthwise.
      {{1, 4, 10}, 6, 2, {{3}, {3}, {2}, {0}, {2}}, false},
      {{2, 4, 6, 6}, 4, 4, {{3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, true},
      {{1, 2, 4, 5, 3},
       3,
       1,
       {{2, 2, 2}, {1, 2, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 2}},
       false},
  };
  for (DType dt : floatTypes())
    for (size_t i = 0; i < cases.size(); ++i) {
      const GradCase &c = cases[i];
      SCOPED_TRACE(std::string(dtypeName(dt)) + " case " + std::to_string(i));
      Shape ws = {c.features, c.x[1] / c.groups};
      ws.insert(ws.end(), c.w.kernel.begin(), c.w.kernel.end());
      Shape ys = {c.x[0], c.features};
      for (int64_t o : outSizes(c.x, c.w))
        ys.push_back(o);
      Tensor x = randomTensor(dt, c.x, 11 + i);
      Tensor w = randomTensor(dt, ws, 110 + i);
      Tensor dy = randomTensor(dt, ys, 210 + i);
      // ConvTranspose (dy [N, M, O] by w [M, C / G, K]) into x's shape, with
      // a bias of C.
      Tensor bias = randomTensor(dt, {c.x[1]}, 310 + i);
      std::vector<const Tensor *> in = {&dy, &w};
      if (c.bias)
        in.push_back(&bias);
      std::vector<double> want = naiveConvTranspose(dy, w, c.x, c.groups, c.w);
      if (c.bias)
        for (size_t e = 0; e < want.size(); ++e)
          want[e] += getElem(bias, unravel(int64_t(e), c.x)[1]);
      Tensor dx = run1(OpCode::ConvTranspose, {convInts(c.groups, c.w), {}}, in,
                       dt, c.x);
      expectNear(values(dx), want, tolFor(dt) * 8);
      Tensor dw = run1(OpCode::ConvWeightGrad, {convInts(c.groups, c.w), {}},
                       {&x, &dy}, dt, ws);
      expectNear(values(dw), naiveWeightGrad(x, dy, ws, c.groups, c.w),
                 tolFor(dt) * 16);
    }
  // A transposed result one larger than the smallest (ONNX's
  // output_padding): the extra row gets only the bias.
  Tensor dy = randomTensor(DType::F64, {1, 1, 2}, 5);
  Tensor w = randomTensor(DType::F64, {1, 1, 2}, 6);
  Window stride2 = {{2}, {2}, {0}, {0}, {1}};
  Tensor dx = run1(OpCode::ConvTranspose, {convInts(1, stride2), {}}, {&dy, &w},
                   DType::F64, {1, 1, 5});
  expectNear(values(dx), naiveConvTranspose(dy, w, {1, 1, 5}, 1, stride2),
             1e-12);
  EXPECT_EQ(getElem(dx, 4), 0.0);
}

TEST(ConvolutionTest, PoolAndItsGradientMatchTheDefinition) {
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
          Tensor dy = randomTensor(dt, ys, 27 + i);
          Tensor dx = run1(OpCode::PoolGrad, {ints, {}}, {&x, &dy}, dt, xs);
          expectNear(values(dx),
                     naivePoolGrad(x, dy, w, kind == 1, countPadding == 1),
                     tolFor(dt) * 4);
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
                 "pool: average must be in [0, 1], got 2"));
  // The gradients check their shapes against the convolution's.
  Tensor dy = iota(DType::F32, {1, 6, 3, 3});
  Tensor pooled = iota(DType::F32, {1, 4, 3, 3});
  EXPECT_TRUE(startsWith(
      runError(OpCode::ConvTranspose, {{2, 1, 1, 0, 0, 0, 0, 1, 1}, {}},
               {&dy, &w}, DType::F32, {1, 4, 6, 6}),
      "conv_transpose: operand must have shape [1,6,4,4], got f32[1,6,3,3]"));
  EXPECT_TRUE(startsWith(
      runError(OpCode::ConvWeightGrad, {{2, 1, 1, 0, 0, 0, 0, 1, 1}, {}},
               {&x, &dy}, DType::F32, {6, 2, 2, 2}),
      "conv_weight_grad: dy must have shape [1,6,4,4], got f32[1,6,3,3]"));
  EXPECT_TRUE(startsWith(
      runError(OpCode::PoolGrad, {{0, 0, 2, 2, 2, 2, 0, 0, 0, 0}, {}},
               {&x, &pooled}, DType::F32, {1, 4, 5, 5}),
      "pool_grad: dy must have shape [1,4,2,2], got f32[1,4,3,3]"));
}
