//===- DTypeTest.cpp - Element types and half-precision conversions -------===//

#include "paracc/runtime/DType.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace paracc::rt;

namespace {

/// The value of binary16 bits, decoded from the definition.
double decodeHalf(uint16_t h) {
  const int sign = h >> 15;
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  double v;
  if (e == 0)
    v = std::ldexp(static_cast<double>(m), -24);
  else if (e == 31)
    v = m ? std::numeric_limits<double>::quiet_NaN()
          : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(1024.0 + m, e - 25);
  return sign ? -v : v;
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

Half halfFromBits(uint16_t b) {
  Half h;
  h.bits = b;
  return h;
}

} // namespace

TEST(DTypeTest, SizesAndNames) {
  struct Case {
    DType t;
    size_t size;
    const char *name;
    bool isFloat, isInt;
  } cases[] = {
      {DType::F32, 4, "f32", true, false},
      {DType::F64, 8, "f64", true, false},
      {DType::F16, 2, "f16", true, false},
      {DType::BF16, 2, "bf16", true, false},
      {DType::I8, 1, "i8", false, true},
      {DType::I16, 2, "i16", false, true},
      {DType::I32, 4, "i32", false, true},
      {DType::I64, 8, "i64", false, true},
      {DType::U8, 1, "u8", false, true},
      {DType::U16, 2, "u16", false, true},
      {DType::U32, 4, "u32", false, true},
      {DType::U64, 8, "u64", false, true},
      {DType::Bool, 1, "bool", false, false},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(dtypeSize(c.t), c.size) << c.name;
    EXPECT_STREQ(dtypeName(c.t), c.name);
    EXPECT_EQ(isFloatDType(c.t), c.isFloat) << c.name;
    EXPECT_EQ(isIntegerDType(c.t), c.isInt) << c.name;
    EXPECT_TRUE(isSupportedDType(static_cast<int>(c.t))) << c.name;
  }
  EXPECT_EQ(dtypeSize(DType::Invalid), 0u);
  EXPECT_STREQ(dtypeName(DType::Invalid), "invalid");
  EXPECT_STREQ(dtypeName(static_cast<DType>(200)), "invalid");
  EXPECT_FALSE(isFloatDType(DType::Invalid));
  EXPECT_FALSE(isIntegerDType(DType::Invalid));
}

TEST(DTypeTest, SupportedRawTypes) {
  // 8 string, 14/15 complex, 17+ the float8 family and later: unsupported.
  for (int raw : {-1, 0, 8, 14, 15, 17, 18, 19, 20, 21, 22, 23, 255, 256,
                  1 << 20, std::numeric_limits<int>::min()})
    EXPECT_FALSE(isSupportedDType(raw)) << raw;
  for (int raw : {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 16})
    EXPECT_TRUE(isSupportedDType(raw)) << raw;
}

TEST(DTypeTest, HalfToFloatIsExactForEveryBitPattern) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float f = halfFromBits(static_cast<uint16_t>(b));
    const double expected = decodeHalf(static_cast<uint16_t>(b));
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
    } else {
      EXPECT_EQ(static_cast<double>(f), expected) << std::hex << b;
      EXPECT_EQ(std::signbit(f), (b & 0x8000) != 0) << std::hex << b;
    }
  }
}

TEST(DTypeTest, HalfRoundTripsEveryValue) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const double v = decodeHalf(static_cast<uint16_t>(b));
    if (std::isnan(v))
      continue;
    EXPECT_EQ(Half(static_cast<float>(v)).bits, b) << std::hex << b;
  }
}

TEST(DTypeTest, HalfRoundsToNearestEven) {
  // Between each pair of adjacent non-negative finite halves (including the
  // subnormals and the step from the largest half to infinity).
  for (uint32_t b = 0; b < 0x7c00; ++b) {
    const double lo = decodeHalf(static_cast<uint16_t>(b));
    const double hi =
        b + 1 == 0x7c00 ? 65536.0 : decodeHalf(static_cast<uint16_t>(b + 1));
    const float mid = static_cast<float>((lo + hi) / 2); // Exact in float.
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
    const uint16_t even = (b & 1) ? b + 1 : b;
    EXPECT_EQ(Half(mid).bits, even) << std::hex << b;
    EXPECT_EQ(Half(std::nextafter(mid, 0.0f)).bits, b) << std::hex << b;
    EXPECT_EQ(Half(std::nextafter(mid, INFINITY)).bits, b + 1) << std::hex << b;
    EXPECT_EQ(Half(-mid).bits, even | 0x8000) << std::hex << b;
  }
}

TEST(DTypeTest, HalfSpecialValues) {
  EXPECT_EQ(Half(0.0f).bits, 0x0000);
  EXPECT_EQ(Half(-0.0f).bits, 0x8000);
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
  EXPECT_EQ(Half(65504.0f).bits, 0x7bff);
  EXPECT_EQ(Half(65519.99f).bits, 0x7bff);
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00);
  EXPECT_EQ(Half(1e10f).bits, 0x7c00);
  EXPECT_EQ(Half(-1e10f).bits, 0xfc00);
  EXPECT_EQ(Half(INFINITY).bits, 0x7c00);
  EXPECT_EQ(Half(-INFINITY).bits, 0xfc00);
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).bits, 0x0001);
  EXPECT_EQ(Half(std::ldexp(1.0f, -25)).bits, 0x0000); // Tie to even 0.
  EXPECT_EQ(Half(std::ldexp(1.5f, -25)).bits, 0x0001);
  EXPECT_EQ(Half(std::ldexp(1.0f, -14)).bits, 0x0400); // Smallest normal.
  EXPECT_EQ(Half(1e-30f).bits, 0x0000);
  EXPECT_EQ(Half(-1e-30f).bits, 0x8000);
  EXPECT_EQ(Half(std::numeric_limits<float>::denorm_min()).bits, 0);
  const Half nan(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan.bits & 0x7c00, 0x7c00);
  EXPECT_NE(nan.bits & 0x3ff, 0);
  EXPECT_TRUE(std::isnan(static_cast<float>(nan)));
  // A signaling NaN whose payload lives only in low bits stays a NaN.
  float snan;
  const uint32_t snanBits = 0x7f800001u;
  std::memcpy(&snan, &snanBits, 4);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(snan))));
}

TEST(DTypeTest, BFloat16Conversions) {
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16(-2.0f).bits, 0xc000);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even (1).
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);
  // 1 + 3 * 2^-8 is a tie between 1 + 2^-7 and 1 + 2^-6: to even (0x3f82).
  EXPECT_EQ(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)).bits,
            0x3f81);
  EXPECT_EQ(static_cast<float>(BFloat16(3.0f)), 3.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(NAN))));
  EXPECT_EQ(static_cast<float>(BFloat16(INFINITY)), INFINITY);
  BFloat16 b;
  b.bits = 0x4049; // 3.140625
  EXPECT_EQ(static_cast<float>(b), 3.140625f);
  EXPECT_EQ(floatBits(static_cast<float>(b)), 0x40490000u);
}
