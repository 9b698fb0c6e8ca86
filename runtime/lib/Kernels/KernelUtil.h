//===- KernelUtil.h - What every backend's kernels share -------*- C++ -*-===//
//
// Private to the runtime library: element type traits and dispatch, the
// kernel ABI (KernelArgs) and operand validation, numpy broadcasting plans
// and strided copies, shared by the CPU and CUDA backends and the
// executable's loader. The CPU kernels' entry points are cpu/CpuKernels.h.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_KERNELUTIL_H
#define PARACC_RUNTIME_KERNELS_KERNELUTIL_H

#include "paracc/runtime/DType.h"
#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

namespace paracc::rt {

//===----------------------------------------------------------------------===//
// binary16 / bfloat16 conversions.
//===----------------------------------------------------------------------===//

/// IEEE binary16 bits nearest to `f` (ties to even), inline so that f16
/// kernels convert without a call per element. Half(float) uses it.
inline uint16_t floatToHalfBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const uint32_t sign = (u >> 16) & 0x8000u;
  u &= 0x7fffffffu;
  if (u >= 0x7f800000u) // Inf, or NaN kept quiet with its top payload bits.
    return static_cast<uint16_t>(u == 0x7f800000u
                                     ? sign | 0x7c00u
                                     : sign | 0x7e00u | ((u >> 13) & 0x3ffu));
  if (u >= 0x477ff000u) // >= 65520 rounds to infinity.
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (u < 0x38800000u) {  // Below 2^-14: a subnormal half or zero.
    if (u <= 0x33000000u) // <= 2^-25 (a tie at 2^-25 goes to even 0).
      return static_cast<uint16_t>(sign);
    // value = mant * 2^(e - 150); in units of 2^-24 that is
    // mant * 2^(e - 126), a right shift by 126 - e in [14, 24].
    const uint32_t e = u >> 23;
    const uint32_t mant = (u & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - e;
    uint32_t q = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1u)))
      ++q; // May carry into the smallest normal, which is correct.
    return static_cast<uint16_t>(sign | q);
  }
  // Normal: rebias the exponent (127 -> 15) and keep 10 mantissa bits; a
  // rounding carry propagates into the exponent.
  uint32_t q = (u >> 13) - (112u << 10);
  const uint32_t rem = u & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (q & 1u)))
    ++q;
  return static_cast<uint16_t>(sign | q);
}

/// The float value of binary16 bits (exact).
inline float halfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  const uint32_t m = h & 0x3ffu;
  uint32_t u;
  if (e == 0) {
    // Zero or subnormal: m * 2^-24 is exact in float.
    const float f = static_cast<float>(m) * 5.9604644775390625e-8f;
    std::memcpy(&u, &f, 4);
    u |= sign;
  } else if (e == 31) {
    u = sign | 0x7f800000u | (m << 13);
  } else {
    u = sign | ((e + 112u) << 23) | (m << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// IEEE binary16 bits nearest to `d` (ties to even), without going through
/// float, so that f64 -> f16 casts round once (defined in DType.cpp).
uint16_t halfBitsFromDouble(double d);
/// bfloat16 bits nearest to `d` (ties to even).
uint16_t bfloat16BitsFromDouble(double d);

//===----------------------------------------------------------------------===//
// Element type traits.
//===----------------------------------------------------------------------===//

/// Storage type `S` (what the buffer holds) and compute type `C` (what the
/// kernels compute in) of each element type. Bool is stored as one byte and
/// computed as bool; any non-zero byte reads as true.
template <DType D> struct DTypeTraits;
#define PARACC_DTYPE_TRAITS(Name, Storage, Compute)                            \
  template <> struct DTypeTraits<DType::Name> {                                \
    using S = Storage;                                                         \
    using C = Compute;                                                         \
  };
PARACC_DTYPE_TRAITS(F32, float, float)
PARACC_DTYPE_TRAITS(F64, double, double)
PARACC_DTYPE_TRAITS(F16, Half, float)
PARACC_DTYPE_TRAITS(BF16, BFloat16, float)
PARACC_DTYPE_TRAITS(I8, int8_t, int8_t)
PARACC_DTYPE_TRAITS(I16, int16_t, int16_t)
PARACC_DTYPE_TRAITS(I32, int32_t, int32_t)
PARACC_DTYPE_TRAITS(I64, int64_t, int64_t)
PARACC_DTYPE_TRAITS(U8, uint8_t, uint8_t)
PARACC_DTYPE_TRAITS(U16, uint16_t, uint16_t)
PARACC_DTYPE_TRAITS(U32, uint32_t, uint32_t)
PARACC_DTYPE_TRAITS(U64, uint64_t, uint64_t)
PARACC_DTYPE_TRAITS(Bool, uint8_t, bool)
#undef PARACC_DTYPE_TRAITS

template <DType D> using StorageT = typename DTypeTraits<D>::S;
template <DType D> using ComputeT = typename DTypeTraits<D>::C;

template <DType D>
inline constexpr bool kIsFloat =
    D == DType::F32 || D == DType::F64 || D == DType::F16 || D == DType::BF16;
template <DType D> inline constexpr bool kIsBool = D == DType::Bool;
template <DType D> inline constexpr bool kIsInt = !kIsFloat<D> && !kIsBool<D>;
template <DType D>
inline constexpr bool kIsSignedInt = kIsInt<D> &&std::is_signed_v<ComputeT<D>>;
template <DType D>
inline constexpr bool kIsUnsignedInt = kIsInt<D> && !kIsSignedInt<D>;

/// The accumulator of sums and products: double for floating types, 64-bit
/// integers (wrapping) for integer types.
template <DType D>
using AccT =
    std::conditional_t<kIsFloat<D>, double,
                       std::conditional_t<kIsSignedInt<D>, int64_t, uint64_t>>;

/// Reads one element as its compute type.
template <DType D> inline ComputeT<D> load(const StorageT<D> *p) {
  if constexpr (kIsBool<D>)
    return *p != 0;
  else if constexpr (D == DType::F16)
    return halfBitsToFloat(p->bits);
  else if constexpr (D == DType::BF16)
    return static_cast<float>(*p);
  else
    return *p;
}

/// Writes one element from its compute type.
template <DType D> inline void store(StorageT<D> *p, ComputeT<D> v) {
  if constexpr (kIsBool<D>)
    *p = v ? 1 : 0;
  else if constexpr (D == DType::F16)
    p->bits = floatToHalfBits(v);
  else if constexpr (D == DType::BF16)
    *p = StorageT<D>(v);
  else
    *p = v;
}

template <DType D> using DTypeTag = std::integral_constant<DType, D>;

/// The unsigned type in which integer arithmetic on T wraps without
/// undefined behaviour (at least `unsigned`, so that promotion cannot turn
/// it signed).
template <typename T>
using WrapT = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;

template <typename T> inline T wrapAdd(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(a) + static_cast<WrapT<T>>(b));
}
template <typename T> inline T wrapSub(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(a) - static_cast<WrapT<T>>(b));
}
template <typename T> inline T wrapMul(T a, T b) {
  return static_cast<T>(static_cast<WrapT<T>>(a) * static_cast<WrapT<T>>(b));
}
template <typename T> inline T wrapNeg(T a) {
  return static_cast<T>(WrapT<T>(0) - static_cast<WrapT<T>>(a));
}

/// 2^n as a constant.
constexpr double pow2(int n) {
  double p = 1.0;
  for (int i = 0; i < n; ++i)
    p *= 2.0;
  return p;
}

/// Converts a double to integer type T: truncation toward zero, saturating
/// at T's range, NaN -> 0.
template <typename T> inline T saturatingCast(double d) {
  static_assert(std::is_integral_v<T>);
  if (std::isnan(d))
    return 0;
  // 2^digits is exact in double for every integer type.
  constexpr double kHi = pow2(std::numeric_limits<T>::digits);
  constexpr double kLo = std::is_signed_v<T> ? -kHi : 0.0;
  if (d >= kHi)
    return std::numeric_limits<T>::max();
  if (d <= kLo)
    return std::numeric_limits<T>::min();
  return static_cast<T>(d);
}

//===----------------------------------------------------------------------===//
// Dispatch.
//===----------------------------------------------------------------------===//

enum class TypeSet {
  Float,   // f16 bf16 f32 f64
  Int,     // i8..u64
  Signed,  // floats and signed integers
  Numeric, // floats and integers
  All,     // numeric and bool
  Bool,    // bool
  Index,   // i32 i64
};

bool dtypeInSet(DType d, TypeSet set);
const char *typeSetName(TypeSet set);

/// Calls f(DTypeTag<D>{}) for the element type d; f returns Status. Every
/// type is instantiated: callers guard unsupported ones with dtypeInSet
/// first and `if constexpr` inside f.
template <typename F> Status visitDType(DType d, F &&f) {
  switch (d) {
  case DType::F32:
    return f(DTypeTag<DType::F32>{});
  case DType::F64:
    return f(DTypeTag<DType::F64>{});
  case DType::F16:
    return f(DTypeTag<DType::F16>{});
  case DType::BF16:
    return f(DTypeTag<DType::BF16>{});
  case DType::I8:
    return f(DTypeTag<DType::I8>{});
  case DType::I16:
    return f(DTypeTag<DType::I16>{});
  case DType::I32:
    return f(DTypeTag<DType::I32>{});
  case DType::I64:
    return f(DTypeTag<DType::I64>{});
  case DType::U8:
    return f(DTypeTag<DType::U8>{});
  case DType::U16:
    return f(DTypeTag<DType::U16>{});
  case DType::U32:
    return f(DTypeTag<DType::U32>{});
  case DType::U64:
    return f(DTypeTag<DType::U64>{});
  case DType::Bool:
    return f(DTypeTag<DType::Bool>{});
  default:
    return errorf("unsupported element type ", static_cast<int>(d));
  }
}

/// Whether element type D is in `Set`, at compile time.
template <TypeSet Set, DType D>
inline constexpr bool kInSet =
    Set == TypeSet::Float     ? kIsFloat<D>
    : Set == TypeSet::Int     ? kIsInt<D>
    : Set == TypeSet::Signed  ? kIsFloat<D> || kIsSignedInt<D>
    : Set == TypeSet::Numeric ? !kIsBool<D>
    : Set == TypeSet::All     ? true
    : Set == TypeSet::Bool    ? kIsBool<D>
                              : D == DType::I32 || D == DType::I64;

/// visitDType restricted to the types of `Set`: only those instantiate f.
template <TypeSet Set, typename F> Status visitDTypeIn(DType d, F &&f) {
  return visitDType(d, [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (kInSet<Set, D>)
      return f(tag);
    else
      return errorf("element type ", dtypeName(D), " is not ",
                    typeSetName(Set));
  });
}

/// Calls f(UIntOfSize{}) with an unsigned integer type of the element size
/// (1, 2, 4 or 8 bytes), for kernels that only move elements.
template <typename F> Status visitElemSize(size_t size, F &&f) {
  switch (size) {
  case 1:
    return f(uint8_t{});
  case 2:
    return f(uint16_t{});
  case 4:
    return f(uint32_t{});
  case 8:
    return f(uint64_t{});
  default:
    return errorf("unsupported element size ", size);
  }
}

//===----------------------------------------------------------------------===//
// Validation.
//===----------------------------------------------------------------------===//

/// The operands of one kernel invocation.
struct KernelArgs {
  OpCode op;
  /// The typed attributes of op's layout (attrsFitOpCode holds).
  const OpAttrs &attrs;
  const std::vector<const Tensor *> &in;
  const std::vector<Tensor *> &out;

  const char *name() const { return opCodeMnemonic(op); }
  /// An error whose message starts with the op mnemonic.
  template <typename... Args> Status fail(const Args &...args) const {
    return errorf(name(), ": ", args...);
  }

  /// Operand count in [minIn, maxIn] and exactly nOut results.
  Status checkArity(size_t minIn, size_t maxIn, size_t nOut) const;
  /// Result count in [minOut, maxOut].
  Status checkArity(size_t minIn, size_t maxIn, size_t minOut,
                    size_t maxOut) const;
  /// The attributes, as the struct of op's layout.
  template <typename T> const T &attrsAs() const { return std::get<T>(attrs); }
  /// A layout whose integer count depends on the shapes (a permutation per
  /// dim): `got` integer attributes where `expected` are needed.
  Status checkIntCount(size_t expected, size_t got) const;
  /// An integer attribute whose range depends on the shapes.
  Status checkIntIn(int64_t v, int64_t lo, int64_t hi, const char *what) const;
  /// t's element type is in `set`.
  Status checkDType(const Tensor &t, TypeSet set, const char *what) const;
  /// t has element type d.
  Status checkDTypeIs(const Tensor &t, DType d, const char *what) const;
  /// t has shape s.
  Status checkShape(const Tensor &t, const Shape &s, const char *what) const;
  /// Normalizes an axis in [-rank, rank) to [0, rank).
  Status normalizeAxis(int64_t axis, int64_t rank, int64_t &result) const;
};

//===----------------------------------------------------------------------===//
// Checks and opcode classes shared by the CPU and GPU dispatchers.
//===----------------------------------------------------------------------===//

/// Unary elementwise instructions: the first block of OpCodes.def.
inline bool isUnaryElementwise(OpCode op) { return op <= OpCode::IsInf; }
/// Binary elementwise instructions with broadcasting: the block after.
inline bool isBinaryElementwise(OpCode op) {
  return op >= OpCode::Add && op <= OpCode::GreaterEqual;
}
static_assert(static_cast<int>(OpCode::IsInf) + 1 ==
                      static_cast<int>(OpCode::Add) &&
                  static_cast<int>(OpCode::GreaterEqual) + 1 ==
                      static_cast<int>(OpCode::Where),
              "OpCodes.def: unary, then binary, then Where");

/// Ops whose result may be the very buffer of an operand of the same size:
/// each result element depends only on the operand elements at its own
/// position (or on broadcast operands that do not alias it).
bool allowsExactInPlace(OpCode op);
/// The tensor (j) of a multi-tensor instruction that operand or result
/// `index` belongs to: a result may work in place only on its own tensor's
/// operands. -1 for operands every tensor reads (ForeachAdamW's lr, step and
/// grad_scale); 0 for single-tensor instructions.
int64_t inPlaceTensorOf(const KernelArgs &args, bool isResult, size_t index);

/// What every kernel call checks first, on either backend (`backend`: "CPU",
/// "GPU"): not a collective (those run on a communicator), and each operand
/// and result a tensor with the buffer its type needs.
Status checkKernelCall(const KernelArgs &args, const char *backend);

/// The first overlap of a result with an operand that is not an exact
/// in-place use the op allows, tensor by tensor (`found` false: none).
struct UnsafeOverlap {
  bool found = false;
  size_t result = 0, operand = 0;
  /// The same buffer, for an op that works in place, but another tensor's
  /// (a multi-tensor op).
  bool otherTensor = false;
};
/// Fails when two results overlap; else finds the first unsafe overlap of
/// a result with an operand (both backends' rule: the CPU computes such a
/// result into a scratch buffer, the GPU refuses it).
Status findUnsafeOverlap(const KernelArgs &args, UnsafeOverlap &overlap);

/// How a kernel checks an operand's element type (`what` in `set`): the
/// shared checks take it as a parameter, the GPU kernels pass one that also
/// rejects types they have no kernel for.
using OperandTypeCheck = Status (*)(const KernelArgs &args, const Tensor &t,
                                    TypeSet set, const char *what);
/// The CPU's: KernelArgs::checkDType.
Status checkCpuDType(const KernelArgs &args, const Tensor &t, TypeSet set,
                     const char *what);

/// Whether a loss (or its gradient `dloss`) of element type `loss` fits
/// scores of `scores`: the same type, or f32 for bf16/f16 scores without
/// class weights (the loss kept in f32 by mixed precision, see
/// graph.softmax_cross_entropy). Also the GPU's hasKernel rule.
bool isLossDTypeOf(DType loss, DType scores, bool weighted);

/// checkDTypeIs for a loss or dloss under isLossDTypeOf.
Status checkLossDType(const KernelArgs &args, const Tensor &loss,
                      const Tensor &scores, const Tensor *weight,
                      const char *what);

/// Operand or result `i` (`kind`) is present, of a supported element type,
/// consistently shaped, not too large to index, and has a buffer unless
/// empty.
Status checkTensor(const KernelArgs &args, const Tensor *t, const char *kind,
                   size_t i);

//===----------------------------------------------------------------------===//
// Broadcasting and strided iteration.
//===----------------------------------------------------------------------===//

/// The numpy broadcast of two shapes; false if incompatible.
bool broadcastShapes(const Shape &a, const Shape &b, Shape &result);
/// Whether `from` broadcasts to exactly `to` (unidirectional).
bool broadcastsTo(const Shape &from, const Shape &to);
/// Element strides of a tensor of shape `from` read as its broadcast to
/// `to` (aligned at the end; 0 along broadcast dims), one per dim of `to`.
std::vector<int64_t> broadcastStrides(const Shape &from, const Shape &to);

/// Element strides of each operand broadcast to an output shape, with
/// dimensions of size 1 dropped and adjacent dimensions merged where every
/// operand stays linear. `dims` has at least one entry.
struct StridedPlan {
  Shape dims;
  std::vector<std::vector<int64_t>> strides; // [operand][dim]
};

/// Plan for operands of shapes `operands` broadcast to `outShape` (each must
/// broadcast to it).
StridedPlan makeBroadcastPlan(const Shape &outShape,
                              const std::vector<const Shape *> &operands);
/// Plan for one operand read with explicit element strides (a view).
StridedPlan makeViewPlan(const Shape &dims,
                         const std::vector<int64_t> &strides);
/// Merges and drops dimensions of a plan in place.
void simplifyPlan(StridedPlan &plan);

/// Walks a plan over the contiguous output: f(outOffset, offsets, len, inner
/// strides) for each innermost row, where offsets[k] is operand k's element
/// offset of the row start.
template <size_t N, typename F>
void forEachRow(const StridedPlan &plan, F &&f) {
  const int64_t rank = static_cast<int64_t>(plan.dims.size());
  const int64_t len = plan.dims[rank - 1];
  if (len == 0)
    return;
  int64_t inner[N];
  for (size_t k = 0; k < N; ++k)
    inner[k] = plan.strides[k][rank - 1];
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    if (plan.dims[d] == 0)
      return;
    rows *= plan.dims[d];
  }
  std::vector<int64_t> idx(rank, 0);
  int64_t off[N] = {};
  int64_t outOff = 0;
  for (int64_t r = 0; r < rows; ++r) {
    f(outOff, off, len, inner);
    outOff += len;
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++idx[d] < plan.dims[d]) {
        for (size_t k = 0; k < N; ++k)
          off[k] += plan.strides[k][d];
        break;
      }
      idx[d] = 0;
      for (size_t k = 0; k < N; ++k)
        off[k] -= plan.strides[k][d] * (plan.dims[d] - 1);
    }
  }
}

/// Copies the elements a one-operand plan reads from `src` (element size
/// `elemSize`) into the contiguous `dst`.
void stridedCopy(void *dst, const void *src, size_t elemSize,
                 const StridedPlan &plan);

/// Row-major element strides of a shape.
std::vector<int64_t> contiguousStrides(const Shape &shape);

/// Whether two byte ranges overlap.
bool rangesOverlap(const void *a, size_t aSize, const void *b, size_t bSize);

//===----------------------------------------------------------------------===//
// Kernel families.
//===----------------------------------------------------------------------===//

/// `t` (which broadcasts to `shape`) expanded to numel(shape) doubles.
template <DType D>
inline std::vector<double> expandToDoubles(const Tensor &t,
                                           const Shape &shape) {
  std::vector<double> out(static_cast<size_t>(shapeNumElements(shape)));
  const auto *p = static_cast<const StorageT<D> *>(t.data());
  const StridedPlan plan = makeBroadcastPlan(shape, {&t.shape()});
  forEachRow<1>(
      plan, [&](int64_t o, const int64_t *off, int64_t len, const int64_t *st) {
        for (int64_t j = 0; j < len; ++j)
          out[o + j] = static_cast<double>(load<D>(p + off[0] + j * st[0]));
      });
  return out;
}

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_KERNELUTIL_H
