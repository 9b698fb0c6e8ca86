//===- LossTest.cpp - SoftmaxCrossEntropy and NllLoss ---------------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

struct LossRef {
  std::vector<double> loss;
  std::vector<double> logProb;
};

/// A transcription of the ONNX specification's reference implementation
/// (softmaxcrossentropy / compute_negative_log_likelihood_loss) for input
/// [N, C, d...], with the gather_weight array built the same way.
LossRef referenceLoss(bool sce, const Tensor &x, const Tensor &target,
                      const Tensor *weight, int reduction, bool hasIgnore,
                      int64_t ignoreIndex) {
  const int64_t n = x.dim(0), c = x.dim(1);
  const int64_t d = x.numElements() / std::max<int64_t>(1, n * c);
  const int64_t total = n * d;
  // inp: log_softmax over axis 1 (for SCE) or the input itself (NLL).
  std::vector<double> inp(static_cast<size_t>(x.numElements()));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < d; ++k) {
      double maxv = -INFINITY;
      for (int64_t j = 0; j < c; ++j)
        maxv = std::max(maxv, getElem(x, (i * c + j) * d + k));
      double sum = 0;
      for (int64_t j = 0; j < c; ++j)
        sum += std::exp(getElem(x, (i * c + j) * d + k) - maxv);
      for (int64_t j = 0; j < c; ++j) {
        const double v = getElem(x, (i * c + j) * d + k);
        inp[(i * c + j) * d + k] = sce ? std::log(std::exp(v - maxv) / sum) : v;
      }
    }
  }
  LossRef ref;
  if (sce)
    ref.logProb = inp;
  // gather_weight.
  std::vector<double> gw;
  const bool hasGw = weight || hasIgnore;
  for (int64_t t = 0; t < total; ++t) {
    const int64_t label = static_cast<int64_t>(getElem(target, t));
    double w = 1;
    if (weight) {
      const int64_t clipped = std::min(std::max<int64_t>(label, 0), c - 1);
      w = getElem(*weight, clipped);
    }
    if (hasIgnore && label == ignoreIndex)
      w = 0;
    gw.push_back(w);
  }
  std::vector<double> loss(static_cast<size_t>(total), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < d; ++k) {
      const int64_t label = static_cast<int64_t>(getElem(target, i * d + k));
      if (!(hasIgnore && label == ignoreIndex))
        loss[i * d + k] = -inp[(i * c + label) * d + k];
    }
  }
  if (hasGw) {
    for (int64_t t = 0; t < total; ++t)
      loss[t] *= gw[t];
    if (reduction == 2) {
      double s = 0, ws = 0;
      for (int64_t t = 0; t < total; ++t) {
        s += loss[t];
        ws += gw[t];
      }
      ref.loss = {s / ws};
      return ref;
    }
  }
  if (reduction == 0) {
    ref.loss = loss;
  } else {
    double s = 0;
    for (double v : loss)
      s += v;
    ref.loss = {reduction == 2 ? s / static_cast<double>(total) : s};
  }
  return ref;
}

void checkLoss(bool sce, DType dt, const Shape &xs, int reduction,
               bool useWeight, bool hasIgnore, int64_t ignoreIndex,
               bool logProb, DType labelType = DType::I64) {
  const int64_t c = xs[1];
  Tensor x = alloc(dt, xs);
  for (int64_t i = 0; i < x.numElements(); ++i)
    setElem(x, i, sce ? ((i * 13) % 17) * 0.25 - 2 : -((i * 13) % 17) * 0.125);
  Shape ls = xs;
  ls.erase(ls.begin() + 1);
  Tensor labels = alloc(labelType, ls);
  for (int64_t i = 0; i < labels.numElements(); ++i) {
    int64_t v = (i * 5 + 1) % c;
    if (hasIgnore && i % 3 == 1)
      v = ignoreIndex;
    setElem(labels, i, static_cast<double>(v));
  }
  Tensor weight = iota(dt, {c}, 0.25, 0.5);
  std::vector<const Tensor *> ins = {&x, &labels};
  if (useWeight)
    ins.push_back(&weight);
  const Shape lossShape = reduction == 0 ? ls : Shape{};
  Tensor loss = alloc(dt, lossShape);
  Tensor lp = alloc(dt, xs);
  std::vector<Tensor *> outs = {&loss};
  if (logProb)
    outs.push_back(&lp);
  const InstrAttrs attrs{{reduction, hasIgnore ? 1 : 0, ignoreIndex}, {}};
  Status st = runCpuKernel(sce ? OpCode::SoftmaxCrossEntropy : OpCode::NllLoss,
                           attrs, ins, outs);
  ASSERT_TRUE(st.isOk()) << st.message();
  const LossRef ref =
      referenceLoss(sce, x, labels, useWeight ? &weight : nullptr, reduction,
                    hasIgnore, ignoreIndex);
  SCOPED_TRACE(std::string(sce ? "sce " : "nll ") + dtypeName(dt) + " " +
               shapeToString(xs) + " reduction " + std::to_string(reduction) +
               (useWeight ? " weight" : "") +
               (hasIgnore ? " ignore " + std::to_string(ignoreIndex) : ""));
  const double tol = dt == DType::F64 ? 1e-12 : tolFor(dt) * 8;
  expectNear(values(loss), ref.loss, tol);
  if (logProb)
    expectNear(values(lp), ref.logProb, tol);
}

} // namespace

TEST(LossTest, MatchesTheOnnxReference) {
  const std::vector<Shape> shapes = {
      {3, 5}, {2, 4, 3}, {2, 3, 2, 2}, {1, 2, 1}};
  for (bool sce : {true, false}) {
    for (DType dt : {DType::F32, DType::F64, DType::F16}) {
      for (const Shape &xs : shapes) {
        for (int reduction = 0; reduction < 3; ++reduction) {
          for (bool useWeight : {false, true}) {
            for (int ig = 0; ig < 3; ++ig) {
              // No ignore_index, one inside [0, C), one outside.
              const bool hasIgnore = ig != 0;
              const int64_t ignoreIndex = ig == 1 ? 1 : -100;
              checkLoss(sce, dt, xs, reduction, useWeight, hasIgnore,
                        ignoreIndex, sce && reduction != 1,
                        ig == 2 ? DType::I32 : DType::I64);
            }
          }
        }
      }
    }
  }
}

/// Mixed-precision training's loss: bf16/f16 scores give an f32 loss, the
/// value of the same loss over the scores' exact f32 copy.
TEST(LossTest, F32LossFromHalfScores) {
  for (DType dt : {DType::BF16, DType::F16}) {
    Tensor x = alloc(dt, {5, 37});
    for (int64_t i = 0; i < x.numElements(); ++i)
      setElem(x, i, ((i * 13) % 17) * 0.37 - 3);
    Tensor xf = make(DType::F32, {5, 37}, values(x));
    Tensor l = make(DType::I64, {5}, {3, 0, 36, -100, 7});
    for (int reduction = 0; reduction < 3; ++reduction) {
      const Shape ls = reduction == 0 ? Shape{5} : Shape{};
      const InstrAttrs attrs = {{reduction, 1, -100}, {}};
      Tensor mixed =
          run1(OpCode::SoftmaxCrossEntropy, attrs, {&x, &l}, DType::F32, ls);
      Tensor ref =
          run1(OpCode::SoftmaxCrossEntropy, attrs, {&xf, &l}, DType::F32, ls);
      expectNear(values(mixed), values(ref), 1e-6);
    }
  }
}

TEST(LossTest, HandComputedValues) {
  // SCE of [N=1, C=2] scores [0, 0]: log(2) for either label.
  Tensor x = make(DType::F64, {2, 2}, {0, 0, 1, 3});
  Tensor l = make(DType::I64, {2}, {0, 1});
  Tensor loss = run1(OpCode::SoftmaxCrossEntropy, {{0, 0, 0}, {}}, {&x, &l},
                     DType::F64, {2});
  expectNear(values(loss), {std::log(2.0), std::log(1 + std::exp(-2.0))},
             1e-12);
  // NLL with weights, mean: sum(w * -x[label]) / sum(w).
  Tensor lp = make(DType::F32, {3, 2}, {-1, -2, -3, -4, -5, -6});
  Tensor lab = make(DType::I32, {3}, {1, 0, 1});
  Tensor w = make(DType::F32, {2}, {2, 0.5});
  Tensor m =
      run1(OpCode::NllLoss, {{2, 0, 0}, {}}, {&lp, &lab, &w}, DType::F32, {});
  expectNear(values(m), {(0.5 * 2 + 2 * 3 + 0.5 * 6) / 3.0}, 1e-6);
  Tensor s =
      run1(OpCode::NllLoss, {{1, 1, 0}, {}}, {&lp, &lab}, DType::F32, {});
  expectNear(values(s), {8}, 1e-6);
}

TEST(LossTest, AllIgnoredMeanIsNaN) {
  Tensor x = iota(DType::F32, {2, 3});
  Tensor l = make(DType::I64, {2}, {-1, -1});
  Tensor m = run1(OpCode::SoftmaxCrossEntropy, {{2, 1, -1}, {}}, {&x, &l},
                  DType::F32, {});
  EXPECT_TRUE(std::isnan(values(m)[0]));
  Tensor s = run1(OpCode::NllLoss, {{1, 1, -1}, {}}, {&x, &l}, DType::F32, {});
  EXPECT_EQ(values(s)[0], 0.0);
}

TEST(LossTest, Errors) {
  Tensor x = iota(DType::F32, {2, 3});
  Tensor l = make(DType::I64, {2}, {0, 3});
  EXPECT_EQ(runError(OpCode::SoftmaxCrossEntropy, {{0, 0, 0}, {}}, {&x, &l},
                     DType::F32, {2}),
            "softmax_cross_entropy: label 3 at position 1 is out of range "
            "[0, 3)");
  Tensor neg = make(DType::I64, {2}, {0, -1});
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{1, 1, -100}, {}}, {&x, &neg}, DType::F32, {}),
      "nll_loss: label -1 at position 1 is out of range [0, 3)");
  Tensor ok = make(DType::I64, {2}, {0, 1});
  Tensor badLabels = make(DType::I64, {3}, {0, 1, 2});
  EXPECT_EQ(runError(OpCode::NllLoss, {{1, 0, 0}, {}}, {&x, &badLabels},
                     DType::F32, {}),
            "nll_loss: labels must have shape [2], got i64[3]");
  Tensor fl = make(DType::F32, {2}, {0, 1});
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{1, 0, 0}, {}}, {&x, &fl}, DType::F32, {}),
      "nll_loss: labels must have i32 or i64, got f32[2]");
  Tensor w = iota(DType::F32, {2});
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{1, 0, 0}, {}}, {&x, &ok, &w}, DType::F32, {}),
      "nll_loss: weight must have shape [3], got f32[2]");
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{3, 0, 0}, {}}, {&x, &ok}, DType::F32, {}),
      "nll_loss: reduction must be in [0, 2], got 3");
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{1, 2, 0}, {}}, {&x, &ok}, DType::F32, {}),
      "nll_loss: hasIgnoreIndex must be in [0, 1], got 2");
  EXPECT_EQ(
      runError(OpCode::NllLoss, {{0, 0, 0}, {}}, {&x, &ok}, DType::F32, {}),
      "nll_loss: loss must have shape [2], got f32[]");
  EXPECT_EQ(runError(OpCode::NllLoss, {{1, 0}, {}}, {&x, &ok}, DType::F32, {}),
            "nll_loss: expected 3 to 4 integer attributes [reduction, "
            "hasIgnoreIndex, ignoreIndex, savedStats?], got 2");
  Tensor xi = iota(DType::I32, {2, 3});
  EXPECT_TRUE(startsWith(
      runError(OpCode::NllLoss, {{1, 0, 0}, {}}, {&xi, &ok}, DType::I32, {}),
      "nll_loss: log_prob must have a floating-point"));
  Tensor v = iota(DType::F32, {3});
  EXPECT_TRUE(startsWith(runError(OpCode::SoftmaxCrossEntropy, {{1, 0, 0}, {}},
                                  {&v, &ok}, DType::F32, {}),
                         "softmax_cross_entropy: scores must have rank >= 2"));
  // NllLoss has no log_prob result; SCE's must match the scores.
  Tensor loss = alloc(DType::F32, {}), extra = alloc(DType::F32, {2, 3});
  Status st = runCpuKernel(OpCode::NllLoss, {{1, 0, 0}, {}}, {&x, &ok},
                           {&loss, &extra});
  EXPECT_EQ(st.message(), "nll_loss: expected 1 result, got 2");
  Tensor wrongLp = alloc(DType::F32, {3, 2});
  st = runCpuKernel(OpCode::SoftmaxCrossEntropy, {{1, 0, 0}, {}}, {&x, &ok},
                    {&loss, &wrongLp});
  EXPECT_EQ(st.message(),
            "softmax_cross_entropy: log_prob must have shape [2,3], got "
            "f32[3,2]");
}
