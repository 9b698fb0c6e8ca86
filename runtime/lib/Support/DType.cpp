//===- DType.cpp - Runtime element types ----------------------------------===//
//
// Element type sizes and names, and the binary16 / bfloat16 conversions.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/DType.h"

#include "Kernels/KernelUtil.h"

#include <cmath>

namespace paracc::rt {

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  default:
    return 0;
  }
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::Bool:
    return "bool";
  default:
    return "invalid";
  }
}

bool isSupportedDType(int raw) {
  if (raw <= 0 || raw > 255)
    return false;
  return dtypeSize(static_cast<DType>(raw)) != 0;
}

bool isFloatDType(DType t) {
  return t == DType::F32 || t == DType::F64 || t == DType::F16 ||
         t == DType::BF16;
}

bool isIntegerDType(DType t) {
  switch (t) {
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

Half::Half(float f) : bits(floatToHalfBits(f)) {}

Half::operator float() const { return halfBitsToFloat(bits); }

namespace {

/// Round half to even of a non-negative double below 2^52.
double roundHalfEvenSmall(double v) {
  const double f = std::floor(v);
  const double r = v - f;
  if (r > 0.5 || (r == 0.5 && std::fmod(f, 2.0) != 0.0))
    return f + 1.0;
  return f;
}

/// Bits of the binary floating format with `expBits` exponent bits and
/// `mantBits` mantissa bits nearest to `d` (ties to even).
template <int ExpBits, int MantBits> uint16_t narrowFromDouble(double d) {
  constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  constexpr uint32_t kExpMask = ((1u << ExpBits) - 1) << MantBits;
  const uint32_t sign = std::signbit(d) ? 1u << (ExpBits + MantBits) : 0u;
  if (std::isnan(d))
    return static_cast<uint16_t>(sign | kExpMask | (1u << (MantBits - 1)));
  const double x = std::fabs(d);
  if (std::isinf(x))
    return static_cast<uint16_t>(sign | kExpMask);
  if (x == 0.0)
    return static_cast<uint16_t>(sign);
  int e2;
  std::frexp(x, &e2); // x = f * 2^e2, f in [0.5, 1).
  const int unbiased = e2 - 1;
  constexpr int kMinExp = 1 - kBias;
  uint32_t result;
  if (unbiased < kMinExp) {
    // Subnormal: count units of 2^(kMinExp - MantBits).
    const double q = roundHalfEvenSmall(std::ldexp(x, MantBits - kMinExp));
    result = static_cast<uint32_t>(q);
  } else {
    if (unbiased > kBias + 1)
      return static_cast<uint16_t>(sign | kExpMask);
    const double q = roundHalfEvenSmall(std::ldexp(x, MantBits - unbiased));
    result = (static_cast<uint32_t>(unbiased + kBias) << MantBits) +
             (static_cast<uint32_t>(q) - (1u << MantBits));
    if (result >= kExpMask)
      result = kExpMask;
  }
  return static_cast<uint16_t>(sign | result);
}

} // namespace

uint16_t halfBitsFromDouble(double d) { return narrowFromDouble<5, 10>(d); }

uint16_t bfloat16BitsFromDouble(double d) { return narrowFromDouble<8, 7>(d); }

} // namespace paracc::rt
