//===- GradientKernelTest.cpp - The backward kernels of training ----------===//
//
// Every backward kernel against central finite differences of its forward
// kernel: for a random upstream gradient dy, the derivative of
// L = sum(dy * forward(inputs)) by each input element. The forward kernels
// run in f64, so h = 1e-5 leaves errors far below the tolerances; f32 runs
// of the backward kernels are checked against their f64 runs.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <functional>
#include <random>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// Uniform values in [lo, hi).
Tensor randomTensor(DType dt, const Shape &s, uint64_t seed, double lo = -1,
                    double hi = 1) {
  Tensor t = alloc(dt, s);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < t.numElements(); ++i)
    setElem(t, i, dist(rng));
  return t;
}

/// sum(a * b) over the elements.
double dot(const Tensor &a, const Tensor &b) {
  EXPECT_EQ(a.numElements(), b.numElements());
  double s = 0;
  for (int64_t i = 0; i < a.numElements() && i < b.numElements(); ++i)
    s += getElem(a, i) * getElem(b, i);
  return s;
}

/// d sum(dy * forward()) / d input, by central differences, perturbing
/// `input` in place (and restoring it).
std::vector<double> finiteDiff(const std::function<Tensor()> &forward,
                               Tensor &input, const Tensor &dy,
                               double h = 1e-5) {
  std::vector<double> g(static_cast<size_t>(input.numElements()));
  for (int64_t i = 0; i < input.numElements(); ++i) {
    const double v = getElem(input, i);
    setElem(input, i, v + h);
    const double plus = dot(forward(), dy);
    setElem(input, i, v - h);
    const double minus = dot(forward(), dy);
    setElem(input, i, v);
    g[i] = (plus - minus) / (2 * h);
  }
  return g;
}

/// Runs `op`, expecting success, into results of the given types/shapes.
std::vector<Tensor> runAll(OpCode op, const InstrAttrs &attrs,
                           const std::vector<const Tensor *> &in,
                           const std::vector<std::pair<DType, Shape>> &outs) {
  std::vector<Tensor> results;
  for (const auto &[dt, shape] : outs)
    results.push_back(alloc(dt, shape));
  std::vector<Tensor *> ptrs;
  for (Tensor &t : results)
    ptrs.push_back(&t);
  Status st = runCpuKernel(op, attrs, in, ptrs);
  EXPECT_TRUE(st.isOk()) << opCodeMnemonic(op) << ": " << st.message();
  return results;
}

/// The error message of a call that must fail.
std::string errorOf(OpCode op, const InstrAttrs &attrs,
                    const std::vector<const Tensor *> &in,
                    const std::vector<std::pair<DType, Shape>> &outs) {
  std::vector<Tensor> results;
  for (const auto &[dt, shape] : outs)
    results.push_back(alloc(dt, shape));
  std::vector<Tensor *> ptrs;
  for (Tensor &t : results)
    ptrs.push_back(&t);
  Status st = runCpuKernel(op, attrs, in, ptrs);
  EXPECT_FALSE(st.isOk()) << opCodeMnemonic(op) << " unexpectedly succeeded";
  return st.message();
}

/// `t` converted to element type dt.
Tensor convert(const Tensor &t, DType dt) {
  return make(dt, t.shape(), values(t));
}

//===----------------------------------------------------------------------===//
// LayerNormGrad, RmsNormGrad.
//===----------------------------------------------------------------------===//

struct NormCase {
  Shape shape;
  int64_t axis;
};

void checkNormGrad(const NormCase &c, bool rms, uint64_t seed) {
  const DType f64 = DType::F64;
  const Shape norm(c.shape.begin() + c.axis, c.shape.end());
  Tensor x = randomTensor(f64, c.shape, seed, -2, 2);
  Tensor scale = randomTensor(f64, norm, seed + 1, 0.5, 1.5);
  Tensor bias = randomTensor(f64, norm, seed + 2);
  Tensor dy = randomTensor(f64, c.shape, seed + 3);
  const double eps = 1e-5;
  const InstrAttrs attrs = {{c.axis}, {eps}};
  const OpCode fwd = rms ? OpCode::RmsNorm : OpCode::LayerNorm;
  auto forward = [&]() {
    std::vector<const Tensor *> in = {&x, &scale};
    if (!rms)
      in.push_back(&bias);
    return run1(fwd, attrs, in, f64, c.shape);
  };
  std::vector<std::pair<DType, Shape>> outs = {{f64, c.shape}, {f64, norm}};
  if (!rms)
    outs.push_back({f64, norm});
  std::vector<Tensor> g =
      runAll(rms ? OpCode::RmsNormGrad : OpCode::LayerNormGrad, attrs,
             {&dy, &x, &scale}, outs);
  ASSERT_EQ(g.size(), outs.size());
  expectNear(values(g[0]), finiteDiff(forward, x, dy), 1e-6);
  expectNear(values(g[1]), finiteDiff(forward, scale, dy), 1e-6);
  if (!rms)
    expectNear(values(g[2]), finiteDiff(forward, bias, dy), 1e-6);

  // f32 operands give the f64 gradients to f32 precision.
  Tensor dy32 = convert(dy, DType::F32), x32 = convert(x, DType::F32),
         scale32 = convert(scale, DType::F32);
  for (auto &o : outs)
    o.first = DType::F32;
  std::vector<Tensor> g32 =
      runAll(rms ? OpCode::RmsNormGrad : OpCode::LayerNormGrad, attrs,
             {&dy32, &x32, &scale32}, outs);
  for (size_t i = 0; i < g32.size(); ++i)
    expectNear(values(g32[i]), values(g[i]), 2e-5);
}

const std::vector<NormCase> &normCases() {
  static const std::vector<NormCase> cases = {
      {{2, 3, 4}, 1},                 // Two normalized dims, a batch of 2.
      {{2, 3, 4}, 2},                 // Rows of 4, a batch of 2 x 3.
      {{3, 5}, 1},    {{2, 3, 4}, 0}, // One row.
      {{4, 1, 6}, 1},
  };
  return cases;
}

TEST(GradientKernelTest, LayerNormGradMatchesFiniteDifferences) {
  uint64_t seed = 10;
  for (const NormCase &c : normCases()) {
    SCOPED_TRACE(shapeToString(c.shape) + " axis " + std::to_string(c.axis));
    checkNormGrad(c, /*rms=*/false, seed += 10);
  }
}

TEST(GradientKernelTest, RmsNormGradMatchesFiniteDifferences) {
  uint64_t seed = 20;
  for (const NormCase &c : normCases()) {
    SCOPED_TRACE(shapeToString(c.shape) + " axis " + std::to_string(c.axis));
    checkNormGrad(c, /*rms=*/true, seed += 10);
  }
}

TEST(GradientKernelTest, NormGradTakesAFlatScale) {
  // A scale with the normalized dims' element count in another shape is
  // read in row-major order, and dscale/dbias take its shape.
  Tensor x = randomTensor(DType::F64, {2, 3, 4}, 1, -2, 2);
  Tensor scale = randomTensor(DType::F64, {3, 4}, 2);
  Tensor flat = make(DType::F64, {12}, values(scale));
  Tensor dy = randomTensor(DType::F64, {2, 3, 4}, 3);
  const InstrAttrs attrs = {{1}, {1e-5}};
  std::vector<Tensor> a = runAll(
      OpCode::LayerNormGrad, attrs, {&dy, &x, &scale},
      {{DType::F64, {2, 3, 4}}, {DType::F64, {3, 4}}, {DType::F64, {3, 4}}});
  std::vector<Tensor> b =
      runAll(OpCode::LayerNormGrad, attrs, {&dy, &x, &flat},
             {{DType::F64, {2, 3, 4}}, {DType::F64, {12}}, {DType::F64, {12}}});
  for (size_t i = 0; i < 3; ++i)
    expectNear(values(b[i]), values(a[i]), 0);
}

TEST(GradientKernelTest, NormGradAccumulates) {
  // With a fourth operand, dx is the gradient plus it; dscale and dbias do
  // not change.
  Tensor x = randomTensor(DType::F64, {3, 8}, 4, -2, 2);
  Tensor scale = randomTensor(DType::F64, {8}, 5);
  Tensor dy = randomTensor(DType::F64, {3, 8}, 6);
  Tensor acc = randomTensor(DType::F64, {3, 8}, 7);
  const InstrAttrs attrs = {{1}, {1e-5}};
  for (OpCode op : {OpCode::LayerNormGrad, OpCode::RmsNormGrad}) {
    std::vector<std::pair<DType, Shape>> outs = {{DType::F64, {3, 8}},
                                                 {DType::F64, {8}}};
    if (op == OpCode::LayerNormGrad)
      outs.push_back({DType::F64, {8}});
    std::vector<Tensor> plain = runAll(op, attrs, {&dy, &x, &scale}, outs);
    std::vector<Tensor> summed =
        runAll(op, attrs, {&dy, &x, &scale, &acc}, outs);
    std::vector<double> want = values(plain[0]);
    for (size_t i = 0; i < want.size(); ++i)
      want[i] += getElem(acc, int64_t(i));
    expectNear(values(summed[0]), want, 1e-12);
    for (size_t i = 1; i < outs.size(); ++i)
      expectNear(values(summed[i]), values(plain[i]), 0);
  }
  Tensor wrong = randomTensor(DType::F64, {3, 4}, 8);
  Tensor dx = alloc(DType::F64, {3, 8}), ds = alloc(DType::F64, {8});
  Status st = runCpuKernel(OpCode::RmsNormGrad, attrs,
                           {&dy, &x, &scale, &wrong}, {&dx, &ds});
  EXPECT_EQ(st.message(),
            "rms_norm_grad: accumulate must have shape [3,8], got f64[3,4]");
}

TEST(GradientKernelTest, NormGradWithNoRows) {
  // No rows: dscale and dbias are written as zeros.
  Tensor x = alloc(DType::F32, {0, 3});
  Tensor scale = make(DType::F32, {3}, {1, 2, 3});
  Tensor dscale = make(DType::F32, {3}, {7, 7, 7});
  Tensor dbias = make(DType::F32, {3}, {7, 7, 7});
  Tensor dx = alloc(DType::F32, {0, 3});
  ASSERT_TRUE(runCpuKernel(OpCode::LayerNormGrad, {{1}, {1e-5}},
                           {&x, &x, &scale}, {&dx, &dscale, &dbias})
                  .isOk());
  expectNear(values(dscale), {0, 0, 0}, 0);
  expectNear(values(dbias), {0, 0, 0}, 0);
}

//===----------------------------------------------------------------------===//
// GeluGrad.
//===----------------------------------------------------------------------===//

TEST(GradientKernelTest, GeluGradMatchesFiniteDifferences) {
  for (int64_t form : {0, 1}) {
    SCOPED_TRACE(form ? "tanh" : "erf");
    Tensor x = randomTensor(DType::F64, {7, 5}, 40 + form, -4, 4);
    Tensor dy = randomTensor(DType::F64, {7, 5}, 50 + form);
    const InstrAttrs attrs = {{form}, {}};
    auto forward = [&]() {
      return run1(OpCode::Gelu, attrs, {&x}, DType::F64, {7, 5});
    };
    Tensor dx = run1(OpCode::GeluGrad, attrs, {&dy, &x}, DType::F64, {7, 5});
    expectNear(values(dx), finiteDiff(forward, x, dy), 1e-7);

    Tensor x32 = convert(x, DType::F32), dy32 = convert(dy, DType::F32);
    Tensor dx32 =
        run1(OpCode::GeluGrad, attrs, {&dy32, &x32}, DType::F32, {7, 5});
    expectNear(values(dx32), values(dx), 1e-6);
    // In place: the result is dy's buffer.
    ASSERT_TRUE(
        runCpuKernel(OpCode::GeluGrad, attrs, {&dy32, &x32}, {&dy32}).isOk());
    expectNear(values(dy32), values(dx32), 0);
  }
}

//===----------------------------------------------------------------------===//
// SiluMul and SiluMulGrad.
//===----------------------------------------------------------------------===//

TEST(GradientKernelTest, SiluMulIsSiluTimesUp) {
  Tensor gate = randomTensor(DType::F64, {6, 5}, 60, -6, 6);
  Tensor up = randomTensor(DType::F64, {6, 5}, 61);
  Tensor y = run1(OpCode::SiluMul, {}, {&gate, &up}, DType::F64, {6, 5});
  Tensor silu = run1(OpCode::Silu, {}, {&gate}, DType::F64, {6, 5});
  Tensor ref = run1(OpCode::Mul, {}, {&silu, &up}, DType::F64, {6, 5});
  expectNear(values(y), values(ref), 1e-14);
}

TEST(GradientKernelTest, SiluMulGradMatchesFiniteDifferences) {
  Tensor gate = randomTensor(DType::F64, {6, 5}, 62, -6, 6);
  Tensor up = randomTensor(DType::F64, {6, 5}, 63);
  Tensor dy = randomTensor(DType::F64, {6, 5}, 64);
  auto forward = [&]() {
    return run1(OpCode::SiluMul, {}, {&gate, &up}, DType::F64, {6, 5});
  };
  std::vector<Tensor> g =
      runAll(OpCode::SiluMulGrad, {}, {&dy, &gate, &up},
           {{DType::F64, {6, 5}}, {DType::F64, {6, 5}}});
  expectNear(values(g[0]), finiteDiff(forward, gate, dy), 1e-7);
  expectNear(values(g[1]), finiteDiff(forward, up, dy), 1e-7);
  // In f32, and in place (the results in dy's and gate's buffers).
  Tensor gate32 = convert(gate, DType::F32), up32 = convert(up, DType::F32),
         dy32 = convert(dy, DType::F32);
  std::vector<Tensor> g32 =
      runAll(OpCode::SiluMulGrad, {}, {&dy32, &gate32, &up32},
           {{DType::F32, {6, 5}}, {DType::F32, {6, 5}}});
  expectNear(values(g32[0]), values(g[0]), 1e-5);
  expectNear(values(g32[1]), values(g[1]), 1e-5);
  ASSERT_TRUE(runCpuKernel(OpCode::SiluMulGrad, OpAttrs(),
                           {&dy32, &gate32, &up32}, {&dy32, &gate32})
                  .isOk());
  expectNear(values(dy32), values(g32[0]), 0);
  expectNear(values(gate32), values(g32[1]), 0);
}

TEST(GradientKernelTest, SiluMulChecksItsOperands) {
  Tensor a = alloc(DType::F32, {4}), b = alloc(DType::F32, {5}),
         i = alloc(DType::I64, {4});
  EXPECT_NE(runError(OpCode::SiluMul, {}, {&a, &b}, DType::F32, {4})
                .find("up"),
            std::string::npos);
  EXPECT_NE(runError(OpCode::SiluMul, {}, {&i, &i}, DType::I64, {4})
                .find("gate"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Rotary.
//===----------------------------------------------------------------------===//

TEST(GradientKernelTest, RotaryIsTheRotateHalfFormula) {
  // x [2, 3, 4, 6] (B, H, S, D), tables [4, 6] broadcast over B and H.
  const Shape shape = {2, 3, 4, 6}, table = {4, 6};
  Tensor x = randomTensor(DType::F64, shape, 70);
  Tensor c = randomTensor(DType::F64, table, 71);
  Tensor sn = randomTensor(DType::F64, table, 72);
  Tensor y = run1(OpCode::Rotary, {{0}, {}}, {&x, &c, &sn}, DType::F64, shape);
  std::vector<double> ref(size_t(x.numElements()));
  for (int64_t i = 0; i < x.numElements(); ++i) {
    const int64_t j = i % 6, row = i / 6, pos = row % 4;
    const double rot = j < 3 ? -getElem(x, i + 3) : getElem(x, i - 3);
    ref[i] = getElem(x, i) * getElem(c, pos * 6 + j) +
             rot * getElem(sn, pos * 6 + j);
  }
  expectNear(values(y), ref, 1e-14);
}

TEST(GradientKernelTest, RotaryTransposedIsTheGradient) {
  // The embedding is linear in x: its gradient is the transposed map, so
  // finite differences of the forward equal it exactly (up to rounding).
  const Shape shape = {2, 5, 8}, table = {5, 1, 8};
  Tensor x = randomTensor(DType::F64, {5, 2, 8}, 73);
  Tensor c = randomTensor(DType::F64, table, 74);
  Tensor sn = randomTensor(DType::F64, table, 75);
  Tensor dy = randomTensor(DType::F64, {5, 2, 8}, 76);
  auto forward = [&]() {
    return run1(OpCode::Rotary, {{0}, {}}, {&x, &c, &sn}, DType::F64,
                {5, 2, 8});
  };
  Tensor dx =
      run1(OpCode::Rotary, {{1}, {}}, {&dy, &c, &sn}, DType::F64, {5, 2, 8});
  expectNear(values(dx), finiteDiff(forward, x, dy), 1e-8);
  // f32, against f64.
  Tensor x32 = convert(x, DType::F32), c32 = convert(c, DType::F32),
         s32 = convert(sn, DType::F32);
  Tensor y32 =
      run1(OpCode::Rotary, {{0}, {}}, {&x32, &c32, &s32}, DType::F32, {5, 2, 8});
  expectNear(values(y32), values(forward()), 1e-5);
}

TEST(GradientKernelTest, RotaryChecksItsOperands) {
  Tensor odd = alloc(DType::F32, {2, 5}), t = alloc(DType::F32, {5});
  EXPECT_NE(runError(OpCode::Rotary, {{0}, {}}, {&odd, &t, &t}, DType::F32,
                     {2, 5})
                .find("even last dim"),
            std::string::npos);
  Tensor x = alloc(DType::F32, {2, 4}), bad = alloc(DType::F32, {3});
  EXPECT_NE(runError(OpCode::Rotary, {{0}, {}}, {&x, &bad, &bad}, DType::F32,
                     {2, 4})
                .find("does not broadcast"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// AttentionGrad.
//===----------------------------------------------------------------------===//

struct AttnCase {
  int64_t b = 2, h = 2, sq = 3, sk = 5, d = 4, dv = 3;
  bool causal = false;
  bool sequenceFirst = false;
  int64_t window = 0;   // With causal: a sliding window.
  Shape mask;           // Empty: none.
  bool maskRow = false; // Mask out the whole first query row.
  const char *what = "";
};

Shape attnShape(const AttnCase &c, int64_t s, int64_t x) {
  return c.sequenceFirst ? Shape{c.b, s, c.h, x} : Shape{c.b, c.h, s, x};
}

void checkAttentionGrad(const AttnCase &c, uint64_t seed) {
  const DType f64 = DType::F64;
  Tensor q = randomTensor(f64, attnShape(c, c.sq, c.d), seed);
  Tensor k = randomTensor(f64, attnShape(c, c.sk, c.d), seed + 1);
  Tensor v = randomTensor(f64, attnShape(c, c.sk, c.dv), seed + 2);
  const Shape yShape = attnShape(c, c.sq, c.dv);
  Tensor dy = randomTensor(f64, yShape, seed + 3);
  Tensor mask;
  if (!c.mask.empty()) {
    mask = randomTensor(f64, c.mask, seed + 4, -2, 1);
    // Some masked-out keys; with maskRow, every key of the first row
    // (the mask's own first row, broadcast).
    setElem(mask, 1, -INFINITY);
    if (c.maskRow)
      for (int64_t j = 0; j < c.mask.back(); ++j)
        setElem(mask, j, -INFINITY);
  }
  InstrAttrs attrs;
  attrs.ints = {c.causal ? 1 : 0, c.sequenceFirst ? 1 : 0, c.window};
  attrs.floats = {0.6};
  std::vector<const Tensor *> in = {&q, &k, &v};
  if (!c.mask.empty())
    in.push_back(&mask);
  auto forward = [&]() {
    return run1(OpCode::Attention, attrs, in, f64, yShape);
  };
  std::vector<const Tensor *> gradIn = {&dy};
  gradIn.insert(gradIn.end(), in.begin(), in.end());
  std::vector<Tensor> g =
      runAll(OpCode::AttentionGrad, attrs, gradIn,
             {{f64, q.shape()}, {f64, k.shape()}, {f64, v.shape()}});
  ASSERT_EQ(g.size(), 3u);
  expectNear(values(g[0]), finiteDiff(forward, q, dy), 1e-6);
  expectNear(values(g[1]), finiteDiff(forward, k, dy), 1e-6);
  expectNear(values(g[2]), finiteDiff(forward, v, dy), 1e-6);

  // f32 operands give the f64 gradients to f32 precision.
  std::vector<Tensor> in32;
  for (const Tensor *t : gradIn)
    in32.push_back(convert(*t, DType::F32));
  std::vector<const Tensor *> in32Ptrs;
  for (const Tensor &t : in32)
    in32Ptrs.push_back(&t);
  std::vector<Tensor> g32 = runAll(OpCode::AttentionGrad, attrs, in32Ptrs,
                                   {{DType::F32, q.shape()},
                                    {DType::F32, k.shape()},
                                    {DType::F32, v.shape()}});
  for (size_t i = 0; i < 3; ++i)
    expectNear(values(g32[i]), values(g[i]), 2e-5);
}

TEST(GradientKernelTest, AttentionGradMatchesFiniteDifferences) {
  std::vector<AttnCase> cases;
  cases.push_back({});
  cases.back().what = "plain, Sq < Sk";
  AttnCase c;
  c.causal = true;
  c.what = "causal, Sq < Sk";
  cases.push_back(c);
  c = AttnCase();
  c.mask = {c.h, c.sq, c.sk};
  c.what = "per-head additive mask with -inf";
  cases.push_back(c);
  c.causal = true;
  c.maskRow = true;
  c.what = "causal, mask with a fully masked row";
  cases.push_back(c);
  c = AttnCase();
  c.sequenceFirst = true;
  c.what = "sequence-first";
  cases.push_back(c);
  c.causal = true;
  c.mask = {c.b, 1, 1, c.sk};
  c.what = "sequence-first, causal, key-padding mask";
  cases.push_back(c);
  c = AttnCase();
  c.causal = true;
  c.sq = 4;
  c.sk = 2;
  c.what = "causal, Sq > Sk: the first rows see no key";
  cases.push_back(c);
  c = AttnCase();
  c.sq = c.sk = 4;
  c.d = 2;
  c.dv = 5;
  c.causal = true;
  c.mask = {c.sq, c.sk};
  c.what = "causal, square, 2-D mask, Dv != D";
  cases.push_back(c);
  c = AttnCase();
  c.sq = c.sk = 6;
  c.causal = true;
  c.window = 2;
  c.what = "sliding window of 2";
  cases.push_back(c);
  c.sequenceFirst = true;
  c.sq = 4;
  c.mask = {c.b, 1, 1, c.sk};
  c.what = "sequence-first, sliding window, Sq < Sk, key padding";
  cases.push_back(c);
  uint64_t seed = 100;
  for (const AttnCase &ac : cases) {
    SCOPED_TRACE(ac.what);
    checkAttentionGrad(ac, seed += 10);
  }
}

TEST(GradientKernelTest, AttentionGradOfFullyMaskedRowsIsZero) {
  // Causal with Sq = 3 > Sk = 1: rows 0 and 1 see no key.
  Tensor q = randomTensor(DType::F32, {1, 3, 2}, 1);
  Tensor k = randomTensor(DType::F32, {1, 1, 2}, 2);
  Tensor v = randomTensor(DType::F32, {1, 1, 2}, 3);
  Tensor dy = randomTensor(DType::F32, {1, 3, 2}, 4);
  std::vector<Tensor> g =
      runAll(OpCode::AttentionGrad, {{1}, {1.0}}, {&dy, &q, &k, &v},
             {{DType::F32, {1, 3, 2}},
              {DType::F32, {1, 1, 2}},
              {DType::F32, {1, 1, 2}}});
  const std::vector<double> dq = values(g[0]);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(dq[i], 0.0) << i;
  // The last row sees its single key with probability 1: dv = dy's row and
  // dS = 0, so dq and dk vanish.
  expectNear(values(g[2]), {getElem(dy, 4), getElem(dy, 5)}, 1e-7);
  expectNear({dq[4], dq[5]}, {0, 0}, 1e-7);
  expectNear(values(g[1]), {0, 0}, 1e-7);
}

//===----------------------------------------------------------------------===//
// CrossEntropyGrad.
//===----------------------------------------------------------------------===//

struct CeCase {
  Shape scores;
  bool nll = false;
  bool weight = false;
  bool hasIgnore = false;
  int64_t ignoreIndex = 0;
  DType labelType = DType::I64;
  const char *what = "";
};

void checkCrossEntropyGrad(const CeCase &c, uint64_t seed) {
  const DType f64 = DType::F64;
  const int64_t classes = c.scores[1];
  Shape labelShape = c.scores;
  labelShape.erase(labelShape.begin() + 1);
  Tensor scores = randomTensor(f64, c.scores, seed, -3, 3);
  Tensor dloss = randomTensor(f64, labelShape, seed + 1);
  Tensor weight = randomTensor(f64, {classes}, seed + 2, 0.2, 2);
  Tensor labels = alloc(c.labelType, labelShape);
  std::mt19937_64 rng(seed + 3);
  for (int64_t i = 0; i < labels.numElements(); ++i) {
    int64_t l = static_cast<int64_t>(rng() % classes);
    if (c.hasIgnore && i % 3 == 1)
      l = c.ignoreIndex;
    setElemInt(labels, i, l);
  }
  const InstrAttrs fwdAttrs = {{0, c.hasIgnore ? 1 : 0, c.ignoreIndex}, {}};
  std::vector<const Tensor *> fwdIn = {&scores, &labels};
  if (c.weight)
    fwdIn.push_back(&weight);
  auto forward = [&]() {
    return run1(c.nll ? OpCode::NllLoss : OpCode::SoftmaxCrossEntropy, fwdAttrs,
                fwdIn, f64, labelShape);
  };
  const InstrAttrs attrs = {{c.nll ? 1 : 0, c.hasIgnore ? 1 : 0, c.ignoreIndex},
                            {}};
  std::vector<const Tensor *> in = {&dloss, &scores, &labels};
  if (c.weight)
    in.push_back(&weight);
  Tensor ds = run1(OpCode::CrossEntropyGrad, attrs, in, f64, c.scores);
  expectNear(values(ds), finiteDiff(forward, scores, dloss), 1e-6);
  if (!c.nll) {
    // The forward's saved statistics (max, sum of exponentials) give the
    // same gradient: the loss is unchanged and the f32 statistics round
    // the probabilities by at most a few f32 ulps.
    InstrAttrs savedFwd = fwdAttrs;
    savedFwd.ints.push_back(1);
    Shape statsShape = labelShape;
    statsShape.push_back(2);
    Tensor loss = alloc(f64, labelShape), stats = alloc(DType::F32, statsShape);
    ASSERT_TRUE(
        run(OpCode::SoftmaxCrossEntropy, savedFwd, fwdIn, {&loss, &stats})
            .isOk());
    expectNear(values(loss), values(forward()), 0);
    InstrAttrs savedGrad = attrs;
    savedGrad.ints.push_back(1);
    std::vector<const Tensor *> savedIn = in;
    savedIn.push_back(&stats);
    Tensor saved =
        run1(OpCode::CrossEntropyGrad, savedGrad, savedIn, f64, c.scores);
    expectNear(values(saved), values(ds), 1e-6);
  }
  if (c.hasIgnore) {
    // Ignored positions have exactly zero gradient for every class.
    const int64_t n = c.scores[0], dd = labels.numElements() / n;
    for (int64_t pos = 0; pos < labels.numElements(); ++pos) {
      if (getElem(labels, pos) != c.ignoreIndex)
        continue;
      for (int64_t k = 0; k < classes; ++k)
        EXPECT_EQ(getElem(ds, (pos / dd * classes + k) * dd + pos % dd), 0.0);
    }
  }
}

TEST(GradientKernelTest, CrossEntropyGradMatchesFiniteDifferences) {
  std::vector<CeCase> cases = {
      {{5, 4}, false, false, false, 0, DType::I64, "logits"},
      {{3, 4, 2}, false, true, false, 0, DType::I32, "logits, weight, [N,C,d]"},
      {{6, 3},
       false,
       true,
       true,
       2,
       DType::I64,
       "logits, weight, ignore_index in range"},
      {{3, 5, 2, 2},
       false,
       false,
       true,
       -100,
       DType::I32,
       "logits, ignore_index -100, [N,C,d1,d2]"},
      {{5, 4}, true, false, false, 0, DType::I64, "nll"},
      {{4, 3, 3}, true, true, true, -1, DType::I64, "nll, weight, ignore"},
  };
  uint64_t seed = 200;
  for (const CeCase &c : cases) {
    SCOPED_TRACE(c.what);
    checkCrossEntropyGrad(c, seed += 10);
  }
}

TEST(GradientKernelTest, CrossEntropyGradF32) {
  Tensor scores = randomTensor(DType::F32, {3, 4}, 7, -3, 3);
  Tensor dloss = make(DType::F32, {3}, {1, 0.5, 2});
  Tensor labels = makeRaw<int64_t>(DType::I64, {3}, {2, 0, 3});
  Tensor ds = run1(OpCode::CrossEntropyGrad, {{0, 0, 0}, {}},
                   {&dloss, &scores, &labels}, DType::F32, {3, 4});
  std::vector<double> expected(12);
  for (int64_t n = 0; n < 3; ++n) {
    double maxv = -INFINITY, sum = 0;
    for (int64_t c = 0; c < 4; ++c)
      maxv = std::max(maxv, getElem(scores, n * 4 + c));
    for (int64_t c = 0; c < 4; ++c)
      sum += std::exp(getElem(scores, n * 4 + c) - maxv);
    for (int64_t c = 0; c < 4; ++c)
      expected[n * 4 + c] = getElem(dloss, n) *
                            (std::exp(getElem(scores, n * 4 + c) - maxv) / sum -
                             (c == getElem(labels, n) ? 1 : 0));
  }
  expectNear(values(ds), expected, 1e-6);
}

/// Saved statistics of the wrong shape or type, or with log-probability
/// scores, are refused.
TEST(GradientKernelTest, CrossEntropyGradSavedStatsChecks) {
  Tensor scores = randomTensor(DType::F32, {3, 4}, 7, -3, 3);
  Tensor dloss = make(DType::F32, {3}, {1, 0.5, 2});
  Tensor labels = makeRaw<int64_t>(DType::I64, {3}, {2, 0, 3});
  Tensor stats = alloc(DType::F32, {3, 2});
  Tensor shortStats = alloc(DType::F32, {3});
  Tensor f64Stats = alloc(DType::F64, {3, 2});
  const InstrAttrs saved = {{0, 0, 0, 1}, {}};
  EXPECT_NE(runError(OpCode::CrossEntropyGrad, saved,
                     {&dloss, &scores, &labels, &shortStats}, DType::F32,
                     {3, 4})
                .find("stats"),
            std::string::npos);
  EXPECT_NE(runError(OpCode::CrossEntropyGrad, saved,
                     {&dloss, &scores, &labels, &f64Stats}, DType::F32, {3, 4})
                .find("stats"),
            std::string::npos);
  EXPECT_NE(runError(OpCode::CrossEntropyGrad, {{1, 0, 0, 1}, {}},
                     {&dloss, &scores, &labels, &stats}, DType::F32, {3, 4})
                .find("logits"),
            std::string::npos);
  // NllLoss has no statistics to save.
  Tensor loss = alloc(DType::F32, {});
  EXPECT_FALSE(run(OpCode::NllLoss, {{2, 0, 0, 1}, {}}, {&scores, &labels},
                   {&loss, &stats})
                   .isOk());
}

/// Mixed precision: an f32 per-element loss gradient with bf16/f16 scores
/// gives the gradient of the scores' exact f32 copy, rounded once.
TEST(GradientKernelTest, CrossEntropyGradF32DlossHalfScores) {
  for (DType dt : {DType::BF16, DType::F16}) {
    Tensor scores = randomTensor(dt, {4, 50}, 13, -3, 3);
    Tensor scoresF32 = make(DType::F32, {4, 50}, values(scores));
    Tensor dloss = make(DType::F32, {4}, {0.25, 1e-3, 0, 3});
    Tensor labels = makeRaw<int64_t>(DType::I64, {4}, {2, 49, 0, -100});
    const InstrAttrs attrs = {{0, 1, -100}, {}};
    Tensor ds = run1(OpCode::CrossEntropyGrad, attrs,
                     {&dloss, &scores, &labels}, dt, {4, 50});
    Tensor ref = run1(OpCode::CrossEntropyGrad, attrs,
                      {&dloss, &scoresF32, &labels}, DType::F32, {4, 50});
    const std::vector<double> got = values(ds), want = values(ref);
    for (size_t i = 0; i < got.size(); ++i)
      // One rounding: 2^-8 relative (bf16), f16 subnormals 6e-8 apart.
      EXPECT_NEAR(got[i], want[i], std::abs(want[i]) * 1e-2 + 6e-8) << i;
  }
}

//===----------------------------------------------------------------------===//
// GatherGrad.
//===----------------------------------------------------------------------===//

void checkGatherGrad(const Shape &dataShape, int64_t axis, DType indexType,
                     const Shape &indexShape,
                     const std::vector<int64_t> &indices, uint64_t seed) {
  const DType f64 = DType::F64;
  Tensor data = randomTensor(f64, dataShape, seed);
  Tensor idx = alloc(indexType, indexShape);
  for (size_t i = 0; i < indices.size(); ++i)
    setElemInt(idx, static_cast<int64_t>(i), indices[i]);
  const int64_t a =
      axis < 0 ? axis + static_cast<int64_t>(dataShape.size()) : axis;
  Shape yShape(dataShape.begin(), dataShape.begin() + a);
  yShape.insert(yShape.end(), indexShape.begin(), indexShape.end());
  yShape.insert(yShape.end(), dataShape.begin() + a + 1, dataShape.end());
  Tensor dy = randomTensor(f64, yShape, seed + 1);
  const InstrAttrs attrs = {{axis}, {}};
  auto forward = [&]() {
    return run1(OpCode::Gather, attrs, {&data, &idx}, f64, yShape);
  };
  Tensor dd = run1(OpCode::GatherGrad, attrs, {&dy, &idx}, f64, dataShape);
  expectNear(values(dd), finiteDiff(forward, data, dy), 1e-8);
}

TEST(GradientKernelTest, GatherGradMatchesFiniteDifferences) {
  // Index 0 three times (as 0 and -4), 3 twice (as -1 and 3), 1 once and 2
  // never.
  checkGatherGrad({3, 4, 2}, 1, DType::I64, {2, 3}, {0, -1, 3, 1, 0, -4}, 300);
  checkGatherGrad({5, 3}, 0, DType::I32, {4}, {4, -1, 0, 2}, 310);
  checkGatherGrad({2, 3, 4}, -1, DType::I32, {5}, {3, 3, -4, 1, 3}, 320);
  checkGatherGrad({6}, 0, DType::I64, {}, {-2}, 330);
}

TEST(GradientKernelTest, GatherGradSumsRepeatedIndices) {
  // Every element of dy lands in row 1: the sum, in f32 too.
  Tensor dy = make(DType::F32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor idx = makeRaw<int32_t>(DType::I32, {4}, {1, -2, 1, 1});
  Tensor dd = make(DType::F32, {3, 2}, {9, 9, 9, 9, 9, 9}); // Overwritten.
  ASSERT_TRUE(
      runCpuKernel(OpCode::GatherGrad, {{0}, {}}, {&dy, &idx}, {&dd}).isOk());
  expectNear(values(dd), {0, 0, 16, 20, 0, 0}, 0);
}

TEST(GradientKernelTest, GatherGradStartsFromAccumulate) {
  // Rows 0 and 2 keep accumulate's values, row 1 gets them plus dy's sum;
  // the same when the result is accumulate's very buffer.
  Tensor dy = make(DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor idx = makeRaw<int64_t>(DType::I64, {3}, {1, 1, -2});
  Tensor acc = make(DType::F32, {3, 2}, {10, 20, 30, 40, 50, 60});
  Tensor dd = make(DType::F32, {3, 2}, {9, 9, 9, 9, 9, 9}); // Overwritten.
  ASSERT_TRUE(
      runCpuKernel(OpCode::GatherGrad, {{0}, {}}, {&dy, &idx, &acc}, {&dd})
          .isOk());
  const std::vector<double> expected = {10, 20, 39, 52, 50, 60};
  expectNear(values(dd), expected, 0);
  expectNear(values(acc), {10, 20, 30, 40, 50, 60}, 0);
  ASSERT_TRUE(
      runCpuKernel(OpCode::GatherGrad, {{0}, {}}, {&dy, &idx, &acc}, {&acc})
          .isOk());
  expectNear(values(acc), expected, 0);
  // accumulate must have the result's type.
  Tensor accBad = make(DType::F32, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(errorOf(OpCode::GatherGrad, {{0}, {}}, {&dy, &idx, &accBad},
                    {{DType::F32, {3, 2}}}),
            "gather_grad: accumulate must have shape [3,2], got f32[2,2]");
}

//===----------------------------------------------------------------------===//
// Errors.
//===----------------------------------------------------------------------===//

TEST(GradientKernelTest, Errors) {
  const DType f32 = DType::F32;
  Tensor x = iota(f32, {2, 4});
  Tensor scale = iota(f32, {4});
  Tensor bad = iota(f32, {3});
  Tensor dyBad = iota(f32, {2, 5});
  Tensor xi = iota(DType::I32, {2, 4});
  const std::vector<std::pair<DType, Shape>> lnOuts = {
      {f32, {2, 4}}, {f32, {4}}, {f32, {4}}};
  // Operand and result counts.
  EXPECT_EQ(errorOf(OpCode::LayerNormGrad, {{1}, {1e-5}}, {&x, &x}, lnOuts),
            "layer_norm_grad: expected 3 to 4 operands, got 2");
  EXPECT_EQ(
      errorOf(OpCode::RmsNormGrad, {{1}, {1e-5}}, {&x, &x, &scale}, lnOuts),
      "rms_norm_grad: expected 2 results, got 3");
  // Shapes.
  EXPECT_EQ(errorOf(OpCode::LayerNormGrad, {{1}, {1e-5}}, {&dyBad, &x, &scale},
                    lnOuts),
            "layer_norm_grad: dy must have shape [2,4], got f32[2,5]");
  EXPECT_EQ(
      errorOf(OpCode::LayerNormGrad, {{1}, {1e-5}}, {&x, &x, &bad}, lnOuts),
      "layer_norm_grad: scale f32[3] must have the 4 elements of the "
      "normalized shape [4]");
  EXPECT_EQ(errorOf(OpCode::LayerNormGrad, {{1}, {1e-5}}, {&x, &x, &scale},
                    {{f32, {2, 4}}, {f32, {4}}, {f32, {1, 4}}}),
            "layer_norm_grad: dbias must have shape [4], got f32[1,4]");
  EXPECT_EQ(
      errorOf(OpCode::LayerNormGrad, {{2}, {1e-5}}, {&x, &x, &scale}, lnOuts),
      "layer_norm_grad: axis must be in [0, 1], got 2");
  EXPECT_EQ(
      errorOf(OpCode::LayerNormGrad, {{1}, {-1}}, {&x, &x, &scale}, lnOuts),
      "layer_norm_grad: epsilon must be finite and non-negative, got -1");
  // Element types.
  EXPECT_TRUE(startsWith(
      errorOf(OpCode::LayerNormGrad, {{1}, {1e-5}}, {&xi, &xi, &scale}, lnOuts),
      "layer_norm_grad: x must have a floating-point type"));
  EXPECT_EQ(
      errorOf(OpCode::GeluGrad, {{0}, {}}, {&xi, &xi}, {{DType::I32, {2, 4}}}),
      "gelu_grad: x must have a floating-point type, got i32[2,4]");
  EXPECT_EQ(errorOf(OpCode::GeluGrad, {{2}, {}}, {&x, &x}, {{f32, {2, 4}}}),
            "gelu_grad: tanhApproximation must be in [0, 1], got 2");
  EXPECT_EQ(errorOf(OpCode::GeluGrad, {{0}, {}}, {&dyBad, &x}, {{f32, {2, 4}}}),
            "gelu_grad: dy must have shape [2,4], got f32[2,5]");

  // Attention.
  Tensor q = iota(f32, {2, 3, 4}, 0.1), k = iota(f32, {2, 5, 4}, 0.1),
         v = iota(f32, {2, 5, 6}, 0.1), dy = iota(f32, {2, 3, 6}, 0.1);
  const std::vector<std::pair<DType, Shape>> attnOuts = {
      {f32, {2, 3, 4}}, {f32, {2, 5, 4}}, {f32, {2, 5, 6}}};
  EXPECT_EQ(
      errorOf(OpCode::AttentionGrad, {{0}, {1.0}}, {&q, &k, &v}, attnOuts),
      "attention_grad: expected 4 to 5 operands, got 3");
  EXPECT_EQ(
      errorOf(OpCode::AttentionGrad, {{0}, {1.0}}, {&q, &q, &k, &v}, attnOuts),
      "attention_grad: dy must have shape [2,3,6], got f32[2,3,4]");
  EXPECT_EQ(errorOf(OpCode::AttentionGrad, {{0}, {1.0}}, {&dy, &q, &k, &v},
                    {{f32, {2, 3, 4}}, {f32, {2, 5, 6}}, {f32, {2, 5, 6}}}),
            "attention_grad: dk must have shape [2,5,4], got f32[2,5,6]");
  EXPECT_EQ(
      errorOf(OpCode::AttentionGrad, {{0}, {1.0}}, {&dy, &q, &k, &v},
              {{DType::F64, {2, 3, 4}}, {f32, {2, 5, 4}}, {f32, {2, 5, 6}}}),
      "attention_grad: dq must have element type f32, got f64[2,3,4]");
  Tensor m = iota(f32, {4, 5});
  EXPECT_TRUE(startsWith(errorOf(OpCode::AttentionGrad, {{1}, {1.0}},
                                 {&dy, &q, &k, &v, &m}, attnOuts),
                         "attention_grad: mask f32[4,5] does not broadcast"));
  EXPECT_TRUE(startsWith(errorOf(OpCode::AttentionGrad, {{0, 2}, {1.0}},
                                 {&dy, &q, &k, &v}, attnOuts),
                         "attention_grad: sequenceFirst"));

  // Cross-entropy: labels out of range name the position and value.
  Tensor scores = iota(f32, {3, 4});
  Tensor dloss = iota(f32, {3});
  Tensor labels = makeRaw<int64_t>(DType::I64, {3}, {0, 4, 1});
  EXPECT_EQ(errorOf(OpCode::CrossEntropyGrad, {{0, 0, 0}, {}},
                    {&dloss, &scores, &labels}, {{f32, {3, 4}}}),
            "cross_entropy_grad: label 4 at position 1 is out of range [0, 4)");
  Tensor negative = makeRaw<int32_t>(DType::I32, {3}, {0, -1, -100});
  EXPECT_EQ(
      errorOf(OpCode::CrossEntropyGrad, {{1, 1, -100}, {}},
              {&dloss, &scores, &negative}, {{f32, {3, 4}}}),
      "cross_entropy_grad: label -1 at position 1 is out of range [0, 4)");
  EXPECT_EQ(errorOf(OpCode::CrossEntropyGrad, {{0, 0, 0}, {}},
                    {&scores, &scores, &labels}, {{f32, {3, 4}}}),
            "cross_entropy_grad: dloss must have shape [3], got f32[3,4]");
  EXPECT_EQ(errorOf(OpCode::CrossEntropyGrad, {{0, 0, 0}, {}},
                    {&dloss, &scores, &labels, &bad}, {{f32, {3, 4}}}),
            "cross_entropy_grad: weight must have shape [4], got f32[3]");
  EXPECT_EQ(errorOf(OpCode::CrossEntropyGrad, {{0, 0, 0}, {}},
                    {&dloss, &scores, &dloss}, {{f32, {3, 4}}}),
            "cross_entropy_grad: labels must have i32 or i64, got f32[3]");
  EXPECT_EQ(errorOf(OpCode::CrossEntropyGrad, {{2, 0, 0}, {}},
                    {&dloss, &scores, &labels}, {{f32, {3, 4}}}),
            "cross_entropy_grad: logProbScores must be in [0, 1], got 2");

  // Gather: indices out of range (either way), shapes, types.
  Tensor gdy = iota(f32, {2, 3});
  Tensor idx = makeRaw<int64_t>(DType::I64, {3}, {0, 4, 1});
  EXPECT_EQ(
      errorOf(OpCode::GatherGrad, {{1}, {}}, {&gdy, &idx}, {{f32, {2, 4}}}),
      "gather_grad: index 4 is out of range for a dimension of size 4");
  Tensor idxNeg = makeRaw<int32_t>(DType::I32, {3}, {0, -5, 1});
  EXPECT_EQ(
      errorOf(OpCode::GatherGrad, {{1}, {}}, {&gdy, &idxNeg}, {{f32, {2, 4}}}),
      "gather_grad: index -5 is out of range for a dimension of size 4");
  EXPECT_EQ(
      errorOf(OpCode::GatherGrad, {{0}, {}}, {&gdy, &idx}, {{f32, {2, 4}}}),
      "gather_grad: dy must have shape [3,4], got f32[2,3]");
  EXPECT_EQ(
      errorOf(OpCode::GatherGrad, {{2}, {}}, {&gdy, &idx}, {{f32, {2, 4}}}),
      "gather_grad: axis 2 is out of range for rank 2");
  EXPECT_EQ(
      errorOf(OpCode::GatherGrad, {{1}, {}}, {&gdy, &gdy}, {{f32, {2, 4}}}),
      "gather_grad: indices must have i32 or i64, got f32[2,3]");
  EXPECT_EQ(errorOf(OpCode::GatherGrad, {{1}, {}}, {&gdy}, {{f32, {2, 4}}}),
            "gather_grad: expected 2 to 3 operands, got 1");
}

} // namespace
