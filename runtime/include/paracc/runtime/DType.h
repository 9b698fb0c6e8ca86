//===- DType.h - Runtime element types ------------------------*- C++ -*-===//
//
// Element types of runtime tensors. The numbering is ONNX's
// TensorProto.DataType so that tensors read from .pb files need no mapping.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_DTYPE_H
#define PARACC_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace paracc::rt {

enum class DType : uint8_t {
  Invalid = 0,
  F32 = 1,
  U8 = 2,
  I8 = 3,
  U16 = 4,
  I16 = 5,
  I32 = 6,
  I64 = 7,
  Bool = 9,
  F16 = 10,
  F64 = 11,
  U32 = 12,
  U64 = 13,
  BF16 = 16,
};

/// Size of one element in bytes; 0 for Invalid or an unknown value.
size_t dtypeSize(DType t);
/// Short name ("f32", "bf16", "i64", ...), or "invalid".
const char *dtypeName(DType t);
/// Whether `raw` (an ONNX data type number) is a type the runtime supports.
bool isSupportedDType(int raw);
bool isFloatDType(DType t);
bool isIntegerDType(DType t);

/// IEEE binary16 storage with conversions through float.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  explicit Half(float f);
  operator float() const;
};

/// bfloat16 storage (round to nearest even on conversion from float).
struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  explicit BFloat16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) { // NaN: keep it quiet.
      bits = static_cast<uint16_t>((u >> 16) | 0x40);
      return;
    }
    u += 0x7fffu + ((u >> 16) & 1u);
    bits = static_cast<uint16_t>(u >> 16);
  }
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_DTYPE_H
