//===- ElementwiseTest.cpp - Unary, binary, Where, Cast, Clip -------------===//

#include "TestUtil.h"

#include <algorithm>
#include <functional>
#include <limits>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// numpy broadcasting, written out for the tests.
Shape naiveBroadcast(const Shape &a, const Shape &b) {
  const size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i + a.size() >= r ? a[i + a.size() - r] : 1;
    const int64_t db = i + b.size() >= r ? b[i + b.size() - r] : 1;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

using Ref1 = std::function<double(double)>;
using Ref2 = std::function<double(double, double)>;

/// Checks a unary float op against a double reference on every float type.
void checkUnaryFloat(OpCode op, const std::vector<double> &in, const Ref1 &ref,
                     const InstrAttrs &attrs = {}) {
  for (DType dt : floatTypes()) {
    Tensor x = make(dt, {static_cast<int64_t>(in.size())}, in);
    Tensor y = run1(op, attrs, {&x}, dt, x.shape());
    std::vector<double> expected;
    for (double v : values(x))
      expected.push_back(ref(v));
    SCOPED_TRACE(std::string(opCodeMnemonic(op)) + " " + dtypeName(dt));
    expectNear(values(y), expected, tolFor(dt));
  }
}

/// Element values for binary tests: small, varied, non-zero when asked.
std::vector<double> testValues(DType dt, int64_t n, int seed, bool nonZero) {
  std::vector<double> v(static_cast<size_t>(n));
  const bool isUnsigned = dt == DType::U8 || dt == DType::U16 ||
                          dt == DType::U32 || dt == DType::U64;
  for (int64_t i = 0; i < n; ++i) {
    double x = static_cast<double>((i * 7 + seed * 3) % 11) - 5.0;
    if (isUnsigned)
      x += 5.0;
    if (isFloatDType(dt))
      x += 0.5 * ((i + seed) % 2);
    if (nonZero && x == 0)
      x = 3;
    v[i] = x;
  }
  return v;
}

/// Checks a broadcasting binary op against a reference on the given shapes.
void checkBinary(OpCode op, DType dt, const Shape &sa, const Shape &sb,
                 const Ref2 &ref, bool compare = false, bool nonZeroB = false,
                 const InstrAttrs &attrs = {}) {
  Tensor a = make(dt, sa, testValues(dt, shapeNumElements(sa), 1, false));
  Tensor b = make(dt, sb, testValues(dt, shapeNumElements(sb), 2, nonZeroB));
  const Shape so = naiveBroadcast(sa, sb);
  const DType outType = compare ? DType::Bool : dt;
  Tensor y = run1(op, attrs, {&a, &b}, outType, so);
  std::vector<double> expected;
  for (int64_t i = 0; i < shapeNumElements(so); ++i) {
    const std::vector<int64_t> idx = unravel(i, so);
    const double va = getElem(a, broadcastIndex(idx, sa, so));
    const double vb = getElem(b, broadcastIndex(idx, sb, so));
    const double r = ref(va, vb);
    // Round (or wrap, for integers) through the element type like the
    // kernel's store.
    Tensor tmp = alloc(outType, {});
    if (isIntegerDType(outType))
      setElemInt(tmp, 0, static_cast<int64_t>(r));
    else
      setElem(tmp, 0, r);
    expected.push_back(getElem(tmp, 0));
  }
  SCOPED_TRACE(std::string(opCodeMnemonic(op)) + " " + dtypeName(dt) + " " +
               shapeToString(sa) + " " + shapeToString(sb));
  expectNear(values(y), expected, isFloatDType(dt) ? tolFor(dt) : 0.0);
}

const std::vector<std::pair<Shape, Shape>> &broadcastCases() {
  static const std::vector<std::pair<Shape, Shape>> cases = {
      {{2, 3, 4}, {2, 3, 4}},
      {{2, 3, 4}, {4}},
      {{4}, {2, 3, 4}},
      {{2, 3, 4}, {3, 1}},
      {{2, 1, 4}, {3, 1}},
      {{1}, {2, 3}},
      {{}, {2, 2}},
      {{2, 3}, {}},
      {{4, 1}, {1, 5}},
      {{0, 3}, {3}},
      {{3, 1, 2}, {1, 4, 1}},
      {{1, 1, 5}, {2, 3, 1}},
      {{2, 1, 3, 1}, {1, 4, 1, 2}},
      {{}, {}},
  };
  return cases;
}

double truncDiv(double a, double b) { return std::trunc(a / b); }
double floorMod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

} // namespace

//===----------------------------------------------------------------------===//
// Unary.
//===----------------------------------------------------------------------===//

TEST(ElementwiseTest, UnaryFloatMath) {
  const std::vector<double> general = {-2.5, -1, -0.25, 0, 0.5, 1.75, 3};
  const std::vector<double> positive = {0.25, 1, 2, 9.5, 100};
  const std::vector<double> unit = {-0.875, -0.5, 0, 0.25, 0.75};
  checkUnaryFloat(OpCode::Sqrt, positive,
                  [](double x) { return std::sqrt(x); });
  checkUnaryFloat(OpCode::Rsqrt, positive,
                  [](double x) { return 1 / std::sqrt(x); });
  checkUnaryFloat(OpCode::Reciprocal, {-4, -0.5, 0.25, 3},
                  [](double x) { return 1 / x; });
  checkUnaryFloat(OpCode::Exp, {-3, -0.5, 0, 1, 2.5},
                  [](double x) { return std::exp(x); });
  checkUnaryFloat(OpCode::Log, positive, [](double x) { return std::log(x); });
  checkUnaryFloat(OpCode::Tanh, general, [](double x) { return std::tanh(x); });
  checkUnaryFloat(OpCode::Erf, general, [](double x) { return std::erf(x); });
  checkUnaryFloat(OpCode::Sigmoid, general,
                  [](double x) { return 1 / (1 + std::exp(-x)); });
  checkUnaryFloat(OpCode::Relu, general,
                  [](double x) { return x > 0 ? x : 0; });
  checkUnaryFloat(OpCode::Silu, general,
                  [](double x) { return x / (1 + std::exp(-x)); });
  checkUnaryFloat(
      OpCode::Gelu, general,
      [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); },
      {{0}, {}});
  checkUnaryFloat(OpCode::Gelu, general,
                  [](double x) {
                    const double c = std::sqrt(2 / 3.14159265358979323846);
                    return 0.5 * x *
                           (1 + std::tanh(c * (x + 0.044715 * x * x * x)));
                  },
                  {{1}, {}});
  checkUnaryFloat(OpCode::Sin, general, [](double x) { return std::sin(x); });
  checkUnaryFloat(OpCode::Cos, general, [](double x) { return std::cos(x); });
  checkUnaryFloat(OpCode::Tan, {-1, -0.25, 0, 0.375, 1.25},
                  [](double x) { return std::tan(x); });
  checkUnaryFloat(OpCode::Asin, unit, [](double x) { return std::asin(x); });
  checkUnaryFloat(OpCode::Acos, unit, [](double x) { return std::acos(x); });
  checkUnaryFloat(OpCode::Atan, general, [](double x) { return std::atan(x); });
  checkUnaryFloat(OpCode::Sinh, general, [](double x) { return std::sinh(x); });
  checkUnaryFloat(OpCode::Cosh, general, [](double x) { return std::cosh(x); });
  checkUnaryFloat(OpCode::Asinh, general,
                  [](double x) { return std::asinh(x); });
  checkUnaryFloat(OpCode::Acosh, {1, 1.5, 2, 10},
                  [](double x) { return std::acosh(x); });
  checkUnaryFloat(OpCode::Atanh, unit, [](double x) { return std::atanh(x); });
  checkUnaryFloat(OpCode::Floor, general,
                  [](double x) { return std::floor(x); });
  checkUnaryFloat(OpCode::Ceil, general, [](double x) { return std::ceil(x); });
  checkUnaryFloat(OpCode::Neg, general, [](double x) { return -x; });
  checkUnaryFloat(OpCode::Abs, general, [](double x) { return std::fabs(x); });
}

TEST(ElementwiseTest, SigmoidIsStableAtExtremes) {
  Tensor x = make(DType::F32, {4}, {-200, -100, 100, 200});
  Tensor y = run1(OpCode::Sigmoid, {}, {&x}, DType::F32, {4});
  const std::vector<double> v = values(y);
  EXPECT_GE(v[0], 0.0);
  EXPECT_NEAR(v[1], std::exp(-100.0), 3e-45);
  EXPECT_EQ(v[2], 1.0);
  EXPECT_EQ(v[3], 1.0);
  Tensor s = run1(OpCode::Silu, {}, {&x}, DType::F32, {4});
  for (double r : values(s))
    EXPECT_FALSE(std::isnan(r));
}

TEST(ElementwiseTest, RoundHalfToEven) {
  const std::vector<double> in = {0.5, 1.5,  2.5, -0.5, -1.5,   -2.5,     2.4,
                                  2.6, -2.6, 0.0, 3.0,  0x1p70, INFINITY, NAN};
  const std::vector<double> expected = {0, 2,  2, -0.0, -2,     -2,       2,
                                        3, -3, 0, 3,    0x1p70, INFINITY, NAN};
  for (DType dt : {DType::F32, DType::F64}) {
    Tensor x = make(dt, {14}, in);
    Tensor y = run1(OpCode::Round, {}, {&x}, dt, {14});
    expectNear(values(y), expected, 0);
    EXPECT_TRUE(std::signbit(values(y)[3])) << "round(-0.5) is -0";
  }
  Tensor h = make(DType::F16, {4}, {0.5, 1.5, 2.5, -3.5});
  Tensor hy = run1(OpCode::Round, {}, {&h}, DType::F16, {4});
  EXPECT_EQ(values(hy), (std::vector<double>{0, 2, 2, -4}));
}

TEST(ElementwiseTest, SignAndAbsOfFloatSpecials) {
  Tensor x = make(DType::F64, {5}, {-2.5, -0.0, 0.0, 3, NAN});
  Tensor s = run1(OpCode::Sign, {}, {&x}, DType::F64, {5});
  expectNear(values(s), {-1, 0, 0, 1, NAN}, 0);
  Tensor a = run1(OpCode::Abs, {}, {&x}, DType::F64, {5});
  expectNear(values(a), {2.5, 0, 0, 3, NAN}, 0);
  EXPECT_FALSE(std::signbit(values(a)[1]));
}

TEST(ElementwiseTest, IntegerNegAbsSignRelu) {
  Tensor i8 = makeRaw<int8_t>(DType::I8, {5}, {-128, -5, 0, 7, 127});
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Neg, {}, {&i8}, DType::I8, {5})),
            (std::vector<int8_t>{-128, 5, 0, -7, -127}));
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Abs, {}, {&i8}, DType::I8, {5})),
            (std::vector<int8_t>{-128, 5, 0, 7, 127}));
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Sign, {}, {&i8}, DType::I8, {5})),
            (std::vector<int8_t>{-1, -1, 0, 1, 1}));
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Relu, {}, {&i8}, DType::I8, {5})),
            (std::vector<int8_t>{0, 0, 0, 7, 127}));
  Tensor i64 = makeRaw<int64_t>(DType::I64, {3}, {INT64_MIN, -3, INT64_MAX});
  EXPECT_EQ(rawValues<int64_t>(run1(OpCode::Neg, {}, {&i64}, DType::I64, {3})),
            (std::vector<int64_t>{INT64_MIN, 3, -INT64_MAX}));
  EXPECT_EQ(rawValues<int64_t>(run1(OpCode::Abs, {}, {&i64}, DType::I64, {3})),
            (std::vector<int64_t>{INT64_MIN, 3, INT64_MAX}));
  Tensor u8 = makeRaw<uint8_t>(DType::U8, {3}, {0, 1, 200});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Neg, {}, {&u8}, DType::U8, {3})),
            (std::vector<uint8_t>{0, 255, 56}));
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Abs, {}, {&u8}, DType::U8, {3})),
            (std::vector<uint8_t>{0, 1, 200}));
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Sign, {}, {&u8}, DType::U8, {3})),
            (std::vector<uint8_t>{0, 1, 1}));
  for (DType dt :
       {DType::I16, DType::I32, DType::U16, DType::U32, DType::U64}) {
    Tensor x = make(dt, {3}, {0, 2, 9});
    EXPECT_EQ(values(run1(OpCode::Sign, {}, {&x}, dt, {3})),
              (std::vector<double>{0, 1, 1}));
  }
}

TEST(ElementwiseTest, NotIsNaNIsInf) {
  Tensor b = makeRaw<uint8_t>(DType::Bool, {3}, {0, 1, 5});
  EXPECT_EQ(values(run1(OpCode::Not, {}, {&b}, DType::Bool, {3})),
            (std::vector<double>{1, 0, 0}));
  for (DType dt : floatTypes()) {
    Tensor x = make(dt, {5}, {1, NAN, INFINITY, -INFINITY, -0.0});
    EXPECT_EQ(values(run1(OpCode::IsNaN, {}, {&x}, DType::Bool, {5})),
              (std::vector<double>{0, 1, 0, 0, 0}));
    EXPECT_EQ(values(run1(OpCode::IsInf, {{1, 1}, {}}, {&x}, DType::Bool, {5})),
              (std::vector<double>{0, 0, 1, 1, 0}));
    EXPECT_EQ(values(run1(OpCode::IsInf, {{1, 0}, {}}, {&x}, DType::Bool, {5})),
              (std::vector<double>{0, 0, 1, 0, 0}));
    EXPECT_EQ(values(run1(OpCode::IsInf, {{0, 1}, {}}, {&x}, DType::Bool, {5})),
              (std::vector<double>{0, 0, 0, 1, 0}));
    EXPECT_EQ(values(run1(OpCode::IsInf, {{0, 0}, {}}, {&x}, DType::Bool, {5})),
              (std::vector<double>{0, 0, 0, 0, 0}));
  }
}

TEST(ElementwiseTest, UnaryErrors) {
  Tensor i = iota(DType::I32, {4});
  Tensor f = iota(DType::F32, {4});
  Tensor u = iota(DType::U8, {4});
  Tensor b = alloc(DType::Bool, {4});
  EXPECT_EQ(runError(OpCode::Sqrt, {}, {&i}, DType::I32, {4}),
            "sqrt: operand must have a floating-point type, got i32[4]");
  EXPECT_TRUE(startsWith(runError(OpCode::Neg, {}, {&b}, DType::Bool, {4}),
                         "neg: operand must have a numeric type"));
  EXPECT_TRUE(startsWith(runError(OpCode::Relu, {}, {&u}, DType::U8, {4}),
                         "relu: operand must have"));
  EXPECT_TRUE(startsWith(runError(OpCode::Not, {}, {&f}, DType::F32, {4}),
                         "not: operand must have bool"));
  EXPECT_EQ(runError(OpCode::Neg, {}, {&f}, DType::F64, {4}),
            "neg: result must have element type f32, got f64[4]");
  EXPECT_EQ(runError(OpCode::Exp, {}, {&f}, DType::F32, {2, 2}),
            "exp: result must have shape [4], got f32[2,2]");
  EXPECT_EQ(runError(OpCode::Gelu, {}, {&f}, DType::F32, {4}),
            "gelu: expected 1 integer attribute, got 0");
  EXPECT_EQ(runError(OpCode::Gelu, {{2}, {}}, {&f}, DType::F32, {4}),
            "gelu: tanhApproximation must be in [0, 1], got 2");
  EXPECT_TRUE(
      startsWith(runError(OpCode::IsInf, {{1}, {}}, {&f}, DType::Bool, {4}),
                 "is_inf: expected 2 integer attributes"));
  EXPECT_TRUE(startsWith(runError(OpCode::IsNaN, {}, {&f}, DType::F32, {4}),
                         "is_nan: result must have element type bool"));
  EXPECT_TRUE(startsWith(runError(OpCode::IsNaN, {}, {&i}, DType::Bool, {4}),
                         "is_nan: operand"));
}

//===----------------------------------------------------------------------===//
// Binary.
//===----------------------------------------------------------------------===//

TEST(ElementwiseTest, ArithmeticBroadcastsLikeNumpy) {
  for (const auto &[sa, sb] : broadcastCases()) {
    for (DType dt :
         {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32,
          DType::I64, DType::I8, DType::U8, DType::U64}) {
      checkBinary(OpCode::Add, dt, sa, sb,
                  [](double a, double b) { return a + b; });
      checkBinary(OpCode::Sub, dt, sa, sb,
                  [](double a, double b) { return a - b; });
      checkBinary(OpCode::Mul, dt, sa, sb,
                  [](double a, double b) { return a * b; });
      checkBinary(OpCode::Max, dt, sa, sb,
                  [](double a, double b) { return std::max(a, b); });
      checkBinary(OpCode::Min, dt, sa, sb,
                  [](double a, double b) { return std::min(a, b); });
    }
  }
}

TEST(ElementwiseTest, SubOnUnsignedWraps) {
  Tensor a = makeRaw<uint8_t>(DType::U8, {2}, {1, 255});
  Tensor b = makeRaw<uint8_t>(DType::U8, {2}, {2, 1});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Sub, {}, {&a, &b}, DType::U8, {2})),
            (std::vector<uint8_t>{255, 254}));
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Add, {}, {&a, &b}, DType::U8, {2})),
            (std::vector<uint8_t>{3, 0}));
  Tensor c = makeRaw<int8_t>(DType::I8, {2}, {127, -128});
  Tensor d = makeRaw<int8_t>(DType::I8, {2}, {1, 1});
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Add, {}, {&c, &d}, DType::I8, {2})),
            (std::vector<int8_t>{-128, -127}));
  EXPECT_EQ(rawValues<int8_t>(run1(OpCode::Sub, {}, {&d, &c}, DType::I8, {2})),
            (std::vector<int8_t>{-126, -127}));
  Tensor e = makeRaw<int16_t>(DType::I16, {1}, {-32768});
  EXPECT_EQ(
      rawValues<int16_t>(run1(OpCode::Mul, {}, {&e, &e}, DType::I16, {1})),
      (std::vector<int16_t>{0}));
  Tensor m = makeRaw<uint16_t>(DType::U16, {1}, {65535});
  EXPECT_EQ(
      rawValues<uint16_t>(run1(OpCode::Mul, {}, {&m, &m}, DType::U16, {1})),
      (std::vector<uint16_t>{1}));
  Tensor big = makeRaw<int64_t>(DType::I64, {1}, {INT64_MAX});
  EXPECT_EQ(
      rawValues<int64_t>(run1(OpCode::Add, {}, {&big, &big}, DType::I64, {1})),
      (std::vector<int64_t>{-2}));
}

TEST(ElementwiseTest, DivisionAndModulo) {
  for (const auto &[sa, sb] : broadcastCases()) {
    for (DType dt : {DType::F32, DType::F64, DType::I32, DType::I8, DType::I64,
                     DType::U16}) {
      checkBinary(OpCode::Div, dt, sa, sb,
                  isFloatDType(dt)
                      ? Ref2([](double a, double b) { return a / b; })
                      : Ref2(truncDiv),
                  false, true);
      checkBinary(OpCode::Mod, dt, sa, sb,
                  [](double a, double b) { return std::fmod(a, b); }, false,
                  true, {{1}, {}});
      checkBinary(OpCode::Mod, dt, sa, sb, floorMod, false, true, {{0}, {}});
    }
  }
  Tensor a = make(DType::I32, {4}, {7, -7, 7, -7});
  Tensor b = make(DType::I32, {4}, {2, 2, -2, -2});
  EXPECT_EQ(values(run1(OpCode::Div, {}, {&a, &b}, DType::I32, {4})),
            (std::vector<double>{3, -3, -3, 3}));
  EXPECT_EQ(values(run1(OpCode::Mod, {{1}, {}}, {&a, &b}, DType::I32, {4})),
            (std::vector<double>{1, -1, 1, -1}));
  EXPECT_EQ(values(run1(OpCode::Mod, {{0}, {}}, {&a, &b}, DType::I32, {4})),
            (std::vector<double>{1, 1, -1, -1}));
  Tensor fa = make(DType::F32, {4}, {5.5, -5.5, 5.5, -5.5});
  Tensor fb = make(DType::F32, {4}, {2, 2, -2, -2});
  EXPECT_EQ(values(run1(OpCode::Mod, {{1}, {}}, {&fa, &fb}, DType::F32, {4})),
            (std::vector<double>{1.5, -1.5, 1.5, -1.5}));
  EXPECT_EQ(values(run1(OpCode::Mod, {{0}, {}}, {&fa, &fb}, DType::F32, {4})),
            (std::vector<double>{1.5, 0.5, -0.5, -1.5}));
  // INT_MIN / -1 and INT_MIN % -1 wrap instead of trapping.
  Tensor mn = makeRaw<int32_t>(DType::I32, {1}, {INT32_MIN});
  Tensor m1 = makeRaw<int32_t>(DType::I32, {1}, {-1});
  EXPECT_EQ(
      rawValues<int32_t>(run1(OpCode::Div, {}, {&mn, &m1}, DType::I32, {1})),
      (std::vector<int32_t>{INT32_MIN}));
  EXPECT_EQ(rawValues<int32_t>(
                run1(OpCode::Mod, {{0}, {}}, {&mn, &m1}, DType::I32, {1})),
            (std::vector<int32_t>{0}));
  // Float division by zero is IEEE.
  Tensor z = make(DType::F32, {1}, {0});
  Tensor one = make(DType::F32, {1}, {1});
  EXPECT_EQ(values(run1(OpCode::Div, {}, {&one, &z}, DType::F32, {1}))[0],
            INFINITY);
}

TEST(ElementwiseTest, IntegerDivisionByZeroIsAnError) {
  Tensor a = make(DType::I32, {3}, {1, 2, 3});
  Tensor b = make(DType::I32, {3}, {1, 0, 3});
  EXPECT_EQ(runError(OpCode::Div, {}, {&a, &b}, DType::I32, {3}),
            "div: integer division by zero");
  EXPECT_EQ(runError(OpCode::Mod, {{1}, {}}, {&a, &b}, DType::I32, {3}),
            "mod: integer division by zero");
  Tensor zs = make(DType::U8, {}, {0});
  Tensor u = make(DType::U8, {3}, {1, 2, 3});
  EXPECT_EQ(runError(OpCode::Div, {}, {&u, &zs}, DType::U8, {3}),
            "div: integer division by zero");
}

TEST(ElementwiseTest, Pow) {
  for (const auto &[sa, sb] : broadcastCases()) {
    checkBinary(OpCode::Pow, DType::F64, sa, sb,
                [](double a, double b) { return std::pow(a, b); });
  }
  Tensor fa = make(DType::F32, {4}, {2, 9, 4, -2});
  Tensor fb = make(DType::F32, {4}, {10, 0.5, -1, 3});
  expectNear(values(run1(OpCode::Pow, {}, {&fa, &fb}, DType::F32, {4})),
             {1024, 3, 0.25, -8}, 1e-6);
  Tensor ia = make(DType::I32, {5}, {2, -3, 0, 7, 5});
  Tensor ib = make(DType::I32, {5}, {10, 3, 0, 1, 0});
  EXPECT_EQ(values(run1(OpCode::Pow, {}, {&ia, &ib}, DType::I32, {5})),
            (std::vector<double>{1024, -27, 1, 7, 1}));
  Tensor ua = make(DType::U8, {2}, {2, 3});
  Tensor ub = make(DType::U8, {2}, {9, 5});
  EXPECT_EQ(values(run1(OpCode::Pow, {}, {&ua, &ub}, DType::U8, {2})),
            (std::vector<double>{0, 243})); // 512 wraps to 0.
  Tensor neg = make(DType::I32, {5}, {1, 1, -1, 1, 1});
  EXPECT_EQ(runError(OpCode::Pow, {}, {&ia, &neg}, DType::I32, {5}),
            "pow: negative integer exponent -1");
}

TEST(ElementwiseTest, MaxMinPropagateNaN) {
  Tensor a = make(DType::F32, {3}, {NAN, 1, 2});
  Tensor b = make(DType::F32, {3}, {1, NAN, 3});
  expectNear(values(run1(OpCode::Max, {}, {&a, &b}, DType::F32, {3})),
             {NAN, NAN, 3}, 0);
  expectNear(values(run1(OpCode::Min, {}, {&a, &b}, DType::F32, {3})),
             {NAN, NAN, 2}, 0);
}

TEST(ElementwiseTest, LogicalOps) {
  Tensor a = makeRaw<uint8_t>(DType::Bool, {4}, {0, 0, 1, 1});
  Tensor b = makeRaw<uint8_t>(DType::Bool, {4}, {0, 1, 0, 3});
  EXPECT_EQ(values(run1(OpCode::And, {}, {&a, &b}, DType::Bool, {4})),
            (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(values(run1(OpCode::Or, {}, {&a, &b}, DType::Bool, {4})),
            (std::vector<double>{0, 1, 1, 1}));
  EXPECT_EQ(values(run1(OpCode::Xor, {}, {&a, &b}, DType::Bool, {4})),
            (std::vector<double>{0, 1, 1, 0}));
  // Broadcasting a column against a row.
  Tensor col = makeRaw<uint8_t>(DType::Bool, {2, 1}, {0, 1});
  Tensor row = makeRaw<uint8_t>(DType::Bool, {1, 2}, {0, 1});
  EXPECT_EQ(values(run1(OpCode::Xor, {}, {&col, &row}, DType::Bool, {2, 2})),
            (std::vector<double>{0, 1, 1, 0}));
  Tensor f = iota(DType::F32, {4});
  EXPECT_TRUE(startsWith(runError(OpCode::And, {}, {&f, &f}, DType::F32, {4}),
                         "and: operand 0 must have bool"));
}

TEST(ElementwiseTest, Comparisons) {
  struct Cmp {
    OpCode op;
    Ref2 ref;
  } cmps[] = {
      {OpCode::Equal, [](double a, double b) { return double(a == b); }},
      {OpCode::Less, [](double a, double b) { return double(a < b); }},
      {OpCode::LessEqual, [](double a, double b) { return double(a <= b); }},
      {OpCode::Greater, [](double a, double b) { return double(a > b); }},
      {OpCode::GreaterEqual, [](double a, double b) { return double(a >= b); }},
  };
  for (const auto &[sa, sb] : broadcastCases()) {
    for (DType dt : {DType::F32, DType::F16, DType::BF16, DType::I64, DType::U8,
                     DType::Bool}) {
      for (const Cmp &c : cmps)
        checkBinary(c.op, dt, sa, sb, c.ref, true);
    }
  }
  Tensor a = make(DType::F64, {2}, {NAN, 1});
  EXPECT_EQ(values(run1(OpCode::Equal, {}, {&a, &a}, DType::Bool, {2})),
            (std::vector<double>{0, 1}));
  EXPECT_TRUE(startsWith(runError(OpCode::Less, {}, {&a, &a}, DType::F64, {2}),
                         "less: result must have element type bool"));
}

TEST(ElementwiseTest, BinaryErrors) {
  Tensor a = iota(DType::F32, {4});
  Tensor d = iota(DType::F64, {4});
  Tensor c = iota(DType::F32, {3});
  Tensor b = alloc(DType::Bool, {4});
  EXPECT_EQ(runError(OpCode::Add, {}, {&a, &d}, DType::F32, {4}),
            "add: operands must have the same element type, got f32[4] and "
            "f64[4]");
  EXPECT_EQ(runError(OpCode::Add, {}, {&a, &c}, DType::F32, {4}),
            "add: operand shapes [4] and [3] do not broadcast");
  EXPECT_EQ(runError(OpCode::Mul, {}, {&a, &a}, DType::F32, {1, 4}),
            "mul: result must have shape [4], got f32[1,4]");
  EXPECT_TRUE(startsWith(runError(OpCode::Add, {}, {&b, &b}, DType::Bool, {4}),
                         "add: operand 0 must have a numeric type"));
  EXPECT_EQ(runError(OpCode::Mod, {}, {&a, &a}, DType::F32, {4}),
            "mod: expected 1 integer attribute, got 0");
  EXPECT_EQ(runError(OpCode::Mod, {{3}, {}}, {&a, &a}, DType::F32, {4}),
            "mod: fmod must be in [0, 1], got 3");
  EXPECT_EQ(runError(OpCode::Sub, {}, {&a, &a, &a}, DType::F32, {4}),
            "sub: expected 2 operands, got 3");
}

//===----------------------------------------------------------------------===//
// Where, Cast, Clip.
//===----------------------------------------------------------------------===//

TEST(ElementwiseTest, WhereBroadcasts) {
  Tensor c = makeRaw<uint8_t>(DType::Bool, {2, 1}, {1, 0});
  for (DType dt : allTypes()) {
    Tensor a = make(dt, {3}, {1, 0, 1});
    Tensor b = make(dt, {}, {dt == DType::Bool ? 0.0 : 9.0});
    Tensor y = run1(OpCode::Where, {}, {&c, &a, &b}, dt, {2, 3});
    const double bv = dt == DType::Bool ? 0 : 9;
    EXPECT_EQ(values(y), (std::vector<double>{1, 0, 1, bv, bv, bv}))
        << dtypeName(dt);
  }
  // The general case against a naive loop.
  const Shape sc = {2, 1, 4}, sa = {3, 1}, sb = {1, 3, 4}, so = {2, 3, 4};
  Tensor cond = make(DType::Bool, sc, {1, 0, 0, 1, 0, 1, 1, 0});
  Tensor a = iota(DType::I64, sa, 1, 100);
  Tensor b = iota(DType::I64, sb, -1);
  Tensor y = run1(OpCode::Where, {}, {&cond, &a, &b}, DType::I64, so);
  for (int64_t i = 0; i < 24; ++i) {
    const auto idx = unravel(i, so);
    const double expected = getElem(cond, broadcastIndex(idx, sc, so))
                                ? getElem(a, broadcastIndex(idx, sa, so))
                                : getElem(b, broadcastIndex(idx, sb, so));
    EXPECT_EQ(getElem(y, i), expected) << i;
  }
  // Equal shapes fast path.
  Tensor c4 = make(DType::Bool, {4}, {0, 1, 1, 0});
  Tensor a4 = iota(DType::F16, {4});
  Tensor b4 = iota(DType::F16, {4}, -1);
  EXPECT_EQ(values(run1(OpCode::Where, {}, {&c4, &a4, &b4}, DType::F16, {4})),
            (std::vector<double>{0, 1, 2, -3}));
  // Non-canonical bool values come out as 0/1.
  Tensor bt = makeRaw<uint8_t>(DType::Bool, {4}, {5, 0, 7, 0});
  EXPECT_EQ(rawValues<uint8_t>(
                run1(OpCode::Where, {}, {&c4, &bt, &bt}, DType::Bool, {4})),
            (std::vector<uint8_t>{1, 0, 1, 0}));
}

TEST(ElementwiseTest, WhereErrors) {
  Tensor c = make(DType::I32, {2}, {1, 0});
  Tensor a = iota(DType::F32, {2});
  Tensor d = iota(DType::F64, {2});
  Tensor cb = make(DType::Bool, {3}, {1, 0, 1});
  EXPECT_EQ(runError(OpCode::Where, {}, {&c, &a, &a}, DType::F32, {2}),
            "where: condition must have element type bool, got i32[2]");
  Tensor c2 = make(DType::Bool, {2}, {1, 0});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Where, {}, {&c2, &a, &d}, DType::F32, {2}),
                 "where: value operands must have the same element type"));
  EXPECT_TRUE(
      startsWith(runError(OpCode::Where, {}, {&cb, &a, &a}, DType::F32, {2}),
                 "where: operand shapes [3], [2] and [2] do not broadcast"));
  EXPECT_TRUE(
      startsWith(runError(OpCode::Where, {}, {&c2, &a, &a}, DType::F64, {2}),
                 "where: result must have element type f32"));
}

TEST(ElementwiseTest, CastFloatToInt) {
  Tensor f = make(DType::F32, {5}, {-2.75, -0.5, 0, 2.875, 100.875});
  for (DType dt : {DType::I8, DType::I16, DType::I32, DType::I64}) {
    EXPECT_EQ(values(run1(OpCode::Cast, {}, {&f}, dt, {5})),
              (std::vector<double>{-2, 0, 0, 2, 100}))
        << dtypeName(dt);
  }
  for (DType dt : {DType::U8, DType::U16, DType::U32, DType::U64}) {
    EXPECT_EQ(values(run1(OpCode::Cast, {}, {&f}, dt, {5})),
              (std::vector<double>{0, 0, 0, 2, 100}))
        << dtypeName(dt);
  }
  // Out of range saturates; NaN becomes 0.
  Tensor d = make(DType::F64, {5}, {1e10, -1e10, NAN, INFINITY, -INFINITY});
  EXPECT_EQ(
      rawValues<int32_t>(run1(OpCode::Cast, {}, {&d}, DType::I32, {5})),
      (std::vector<int32_t>{INT32_MAX, INT32_MIN, 0, INT32_MAX, INT32_MIN}));
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&d}, DType::U8, {5})),
            (std::vector<uint8_t>{255, 0, 0, 255, 0}));
  EXPECT_EQ(rawValues<int64_t>(run1(OpCode::Cast, {}, {&d}, DType::I64, {5})),
            (std::vector<int64_t>{10000000000LL, -10000000000LL, 0, INT64_MAX,
                                  INT64_MIN}));
  EXPECT_EQ(rawValues<uint64_t>(run1(OpCode::Cast, {}, {&d}, DType::U64, {5})),
            (std::vector<uint64_t>{10000000000ULL, 0, 0, UINT64_MAX, 0}));
  Tensor h = make(DType::F16, {3}, {-3.5, 65504, 0.75});
  EXPECT_EQ(values(run1(OpCode::Cast, {}, {&h}, DType::I16, {3})),
            (std::vector<double>{-3, 32767, 0}));
}

TEST(ElementwiseTest, CastToAndFromBool) {
  Tensor f = make(DType::F32, {5}, {0, -0.0, NAN, 0.5, -3});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&f}, DType::Bool, {5})),
            (std::vector<uint8_t>{0, 0, 1, 1, 1}));
  Tensor i = make(DType::I32, {3}, {0, 5, -1});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&i}, DType::Bool, {3})),
            (std::vector<uint8_t>{0, 1, 1}));
  Tensor b = makeRaw<uint8_t>(DType::Bool, {3}, {0, 1, 2});
  EXPECT_EQ(values(run1(OpCode::Cast, {}, {&b}, DType::F32, {3})),
            (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&b}, DType::Bool, {3})),
            (std::vector<uint8_t>{0, 1, 1}));
  Tensor h = make(DType::BF16, {2}, {0, -2});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&h}, DType::Bool, {2})),
            (std::vector<uint8_t>{0, 1}));
}

TEST(ElementwiseTest, CastBetweenIntegersWraps) {
  Tensor i = makeRaw<int64_t>(DType::I64, {3}, {300, -1, 65537});
  EXPECT_EQ(rawValues<uint8_t>(run1(OpCode::Cast, {}, {&i}, DType::U8, {3})),
            (std::vector<uint8_t>{44, 255, 1}));
  EXPECT_EQ(rawValues<int16_t>(run1(OpCode::Cast, {}, {&i}, DType::I16, {3})),
            (std::vector<int16_t>{300, -1, 1}));
  Tensor u = makeRaw<uint64_t>(DType::U64, {1}, {UINT64_MAX});
  EXPECT_EQ(rawValues<int64_t>(run1(OpCode::Cast, {}, {&u}, DType::I64, {1})),
            (std::vector<int64_t>{-1}));
  EXPECT_EQ(values(run1(OpCode::Cast, {}, {&u}, DType::F32, {1})),
            (std::vector<double>{18446744073709551616.0}));
}

TEST(ElementwiseTest, CastRoundsOnce) {
  // 1 + 2^-11 + 2^-40: nearest half is 1 + 2^-10, but through float it would
  // be a tie rounded to 1.
  Tensor d =
      make(DType::F64, {1}, {1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)});
  EXPECT_EQ(rawValues<uint16_t>(run1(OpCode::Cast, {}, {&d}, DType::F16, {1})),
            (std::vector<uint16_t>{0x3c01}));
  Tensor e =
      make(DType::F64, {1}, {1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)});
  EXPECT_EQ(rawValues<uint16_t>(run1(OpCode::Cast, {}, {&e}, DType::BF16, {1})),
            (std::vector<uint16_t>{0x3f81}));
  // Overflow goes to infinity; ties go to even.
  Tensor big = make(DType::F64, {4}, {1e6, -1e300, 1e300, 65520});
  expectNear(values(run1(OpCode::Cast, {}, {&big}, DType::F16, {4})),
             {INFINITY, -INFINITY, INFINITY, INFINITY}, 0);
  expectNear(values(run1(OpCode::Cast, {}, {&big}, DType::F32, {4})),
             {1e6, -INFINITY, INFINITY, 65520}, 0);
  expectNear(values(run1(OpCode::Cast, {}, {&big}, DType::BF16, {4})),
             {999424, -INFINITY, INFINITY, 65536}, 0);
  Tensor i = make(DType::I32, {3}, {2049, 2051, 70000});
  expectNear(values(run1(OpCode::Cast, {}, {&i}, DType::F16, {3})),
             {2048, 2052, INFINITY}, 0);
  Tensor sub =
      make(DType::F64, {2}, {std::ldexp(1.0, -24), std::ldexp(3.0, -26)});
  EXPECT_EQ(
      rawValues<uint16_t>(run1(OpCode::Cast, {}, {&sub}, DType::F16, {2})),
      (std::vector<uint16_t>{0x0001, 0x0001}));
  Tensor nan = make(DType::F64, {1}, {NAN});
  EXPECT_TRUE(
      std::isnan(values(run1(OpCode::Cast, {}, {&nan}, DType::F16, {1}))[0]));
  EXPECT_TRUE(
      std::isnan(values(run1(OpCode::Cast, {}, {&nan}, DType::BF16, {1}))[0]));
}

TEST(ElementwiseTest, CastEveryPair) {
  for (DType from : allTypes()) {
    Tensor x = make(from, {4}, {0, 1, 2, 3});
    if (from == DType::Bool)
      x = make(from, {4}, {0, 1, 1, 0});
    for (DType to : allTypes()) {
      Tensor y = run1(OpCode::Cast, {}, {&x}, to, {4});
      std::vector<double> expected = values(x);
      if (to == DType::Bool)
        for (double &v : expected)
          v = v != 0;
      EXPECT_EQ(values(y), expected)
          << dtypeName(from) << " -> " << dtypeName(to);
    }
  }
  Tensor x = iota(DType::F32, {4});
  EXPECT_EQ(runError(OpCode::Cast, {}, {&x}, DType::I32, {2, 2}),
            "cast: result must have shape [4], got i32[2,2]");
}

TEST(ElementwiseTest, Clip) {
  for (DType dt : floatTypes()) {
    Tensor x = make(dt, {6}, {-3, -1, 0, 0.5, 2, NAN});
    expectNear(values(run1(OpCode::Clip, {{}, {-1.5, 1}}, {&x}, dt, {6})),
               {-1.5, -1, 0, 0.5, 1, NAN}, 0);
    // Unbounded sides.
    expectNear(
        values(run1(OpCode::Clip, {{}, {-INFINITY, 0.25}}, {&x}, dt, {6})),
        {-3, -1, 0, 0.25, 0.25, NAN}, 0);
  }
  // Integer bounds are the integers inside [min, max].
  for (DType dt : {DType::I8, DType::I32, DType::I64}) {
    Tensor x = make(dt, {5}, {-5, -1, 0, 2, 9});
    EXPECT_EQ(values(run1(OpCode::Clip, {{}, {-1.5, 2.5}}, {&x}, dt, {5})),
              (std::vector<double>{-1, -1, 0, 2, 2}))
        << dtypeName(dt);
    EXPECT_EQ(
        values(run1(OpCode::Clip, {{}, {-1e300, INFINITY}}, {&x}, dt, {5})),
        (std::vector<double>{-5, -1, 0, 2, 9}));
  }
  Tensor u = make(DType::U8, {3}, {0, 100, 255});
  EXPECT_EQ(values(run1(OpCode::Clip, {{}, {-10, 200}}, {&u}, DType::U8, {3})),
            (std::vector<double>{0, 100, 200}));
  // min > max: everything becomes max (numpy).
  Tensor x = make(DType::F32, {3}, {-1, 0, 5});
  EXPECT_EQ(values(run1(OpCode::Clip, {{}, {2, 1}}, {&x}, DType::F32, {3})),
            (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(runError(OpCode::Clip, {{}, {NAN, 1}}, {&x}, DType::F32, {3}),
            "clip: bounds must not be NaN");
  EXPECT_EQ(runError(OpCode::Clip, {{}, {1}}, {&x}, DType::F32, {3}),
            "clip: expected 2 floating attributes, got 1");
  Tensor b = alloc(DType::Bool, {3});
  EXPECT_TRUE(
      startsWith(runError(OpCode::Clip, {{}, {0, 1}}, {&b}, DType::Bool, {3}),
                 "clip: operand must have a numeric type"));
}
