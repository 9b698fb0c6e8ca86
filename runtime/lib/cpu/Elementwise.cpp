//===- Elementwise.cpp - Unary, binary, Where, Cast and Clip kernels ------===//
//
// Elementwise kernels with numpy broadcasting. Each op is a functor inlined
// into a typed loop; contiguous equal shapes and scalar operands take direct
// loops, everything else walks a merged broadcasting plan row by row.
//
//===----------------------------------------------------------------------===//

#include "Kernels/ElementwiseChecks.h"
#include "cpu/CpuKernels.h"
#include "cpu/ElementwiseFunctors.h"

#include <algorithm>
#include <cmath>

namespace paracc::rt {

using namespace elementwise;

namespace {

//===----------------------------------------------------------------------===//
// Conversions.
//===----------------------------------------------------------------------===//

/// Converts one element between element types: float -> int truncates
/// toward zero and saturates (NaN -> 0), -> bool is x != 0, int -> int
/// wraps, every rounding is to nearest even and happens once.
template <DType DI, DType DO> inline StorageT<DO> castElem(StorageT<DI> x) {
  using SO = StorageT<DO>;
  const ComputeT<DI> v = load<DI>(&x);
  SO out;
  if constexpr (kIsBool<DO>) {
    out = v != 0 ? 1 : 0;
  } else if constexpr (DI == DO) {
    out = x;
  } else if constexpr (DO == DType::F16 || DO == DType::BF16) {
    if constexpr (std::is_same_v<ComputeT<DI>, float>) {
      out = SO(v);
    } else {
      out.bits = DO == DType::F16
                     ? halfBitsFromDouble(static_cast<double>(v))
                     : bfloat16BitsFromDouble(static_cast<double>(v));
    }
  } else if constexpr (DO == DType::F32) {
    if constexpr (DI == DType::F64) {
      // Out-of-range doubles become infinities (avoids the UB of a plain
      // conversion).
      if (std::isfinite(v) && std::fabs(v) >= 3.4028235677973366e38)
        out = std::signbit(v) ? -INFINITY : INFINITY;
      else
        out = static_cast<float>(v);
    } else {
      out = static_cast<float>(v);
    }
  } else if constexpr (DO == DType::F64) {
    out = static_cast<double>(v);
  } else if constexpr (kIsFloat<DI>) {
    out = saturatingCast<SO>(static_cast<double>(v));
  } else {
    out = static_cast<SO>(v);
  }
  return out;
}

/// A floating attribute as an element of type D (rounded like a cast).
template <DType D> inline ComputeT<D> attrAs(double v) {
  const StorageT<D> s = castElem<DType::F64, D>(v);
  return load<D>(&s);
}

template <DType DI, DType DO, typename Op>
void unaryLoop(const Tensor &x, Tensor &y, const Op &op) {
  const auto *in = static_cast<const StorageT<DI> *>(x.data());
  auto *out = static_cast<StorageT<DO> *>(y.data());
  const int64_t n = x.numElements();
  for (int64_t i = 0; i < n; ++i)
    store<DO>(out + i, static_cast<ComputeT<DO>>(op(load<DI>(in + i))));
}

/// Validates and runs a unary op over the element types of `Set`; the result
/// has the operand's type, or bool for predicates.
template <TypeSet Set, bool Predicate = false, typename Op>
Status runUnary(const KernelArgs &args, const Op &op) {
  PARACC_RETURN_IF_ERROR(checkUnary(args, checkCpuDType, Set, Predicate));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  return visitDTypeIn<Set>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (Predicate)
      unaryLoop<D, DType::Bool>(x, y, op);
    else
      unaryLoop<D, D>(x, y, op);
    return Status::ok();
  });
}

template <DType DI, DType DO, typename Op>
void binaryLoop(const Tensor &a, const Tensor &b, Tensor &y, const Op &op) {
  using SI = StorageT<DI>;
  using SO = StorageT<DO>;
  using CO = ComputeT<DO>;
  const SI *pa = static_cast<const SI *>(a.data());
  const SI *pb = static_cast<const SI *>(b.data());
  SO *out = static_cast<SO *>(y.data());
  const int64_t n = y.numElements();
  if (n == 0)
    return;
  const int64_t na = a.numElements();
  const int64_t nb = b.numElements();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i)
      store<DO>(out + i,
                static_cast<CO>(op(load<DI>(pa + i), load<DI>(pb + i))));
    return;
  }
  if (na == n && nb == 1) {
    const ComputeT<DI> bv = load<DI>(pb);
    for (int64_t i = 0; i < n; ++i)
      store<DO>(out + i, static_cast<CO>(op(load<DI>(pa + i), bv)));
    return;
  }
  if (na == 1 && nb == n) {
    const ComputeT<DI> av = load<DI>(pa);
    for (int64_t i = 0; i < n; ++i)
      store<DO>(out + i, static_cast<CO>(op(av, load<DI>(pb + i))));
    return;
  }
  const StridedPlan plan =
      makeBroadcastPlan(y.shape(), {&a.shape(), &b.shape()});
  forEachRow<2>(
      plan, [&](int64_t o, const int64_t *off, int64_t len, const int64_t *st) {
        const SI *ra = pa + off[0];
        const SI *rb = pb + off[1];
        SO *ro = out + o;
        if (st[0] == 1 && st[1] == 1) {
          for (int64_t j = 0; j < len; ++j)
            store<DO>(ro + j,
                      static_cast<CO>(op(load<DI>(ra + j), load<DI>(rb + j))));
        } else if (st[0] == 1 && st[1] == 0) {
          const ComputeT<DI> bv = load<DI>(rb);
          for (int64_t j = 0; j < len; ++j)
            store<DO>(ro + j, static_cast<CO>(op(load<DI>(ra + j), bv)));
        } else if (st[0] == 0 && st[1] == 1) {
          const ComputeT<DI> av = load<DI>(ra);
          for (int64_t j = 0; j < len; ++j)
            store<DO>(ro + j, static_cast<CO>(op(av, load<DI>(rb + j))));
        } else {
          for (int64_t j = 0; j < len; ++j)
            store<DO>(ro + j, static_cast<CO>(op(load<DI>(ra + j * st[0]),
                                                 load<DI>(rb + j * st[1]))));
        }
      });
}

/// Validates and runs a binary op over the element types of `Set`; the
/// result has the operands' type, or bool for comparisons.
template <TypeSet Set, bool Compare = false, typename Op>
Status runBinary(const KernelArgs &args, const Op &op) {
  PARACC_RETURN_IF_ERROR(checkBinary(args, checkCpuDType, Set, Compare));
  const Tensor &a = *args.in[0];
  const Tensor &b = *args.in[1];
  Tensor &y = *args.out[0];
  return visitDTypeIn<Set>(a.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (Compare) {
      binaryLoop<D, DType::Bool>(a, b, y, op);
    } else {
      // Integer division by zero is an error, as are negative integer
      // exponents (numpy's rule), checked before anything is written.
      if constexpr (kIsInt<D>) {
        if (y.numElements() > 0 &&
            (args.op == OpCode::Div || args.op == OpCode::Mod ||
             (args.op == OpCode::Pow && kIsSignedInt<D>))) {
          const StorageT<D> *pb = static_cast<const StorageT<D> *>(b.data());
          for (int64_t i = 0; i < b.numElements(); ++i) {
            if (args.op == OpCode::Pow) {
              if (pb[i] < 0)
                return args.fail("negative integer exponent ",
                                 static_cast<int64_t>(pb[i]));
            } else if (pb[i] == 0) {
              return args.fail("integer division by zero");
            }
          }
        }
      }
      binaryLoop<D, D>(a, b, y, op);
    }
    return Status::ok();
  });
}

} // namespace

Status runUnaryKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const OpCode op = args.op;
  switch (op) {
  case OpCode::Neg:
    return runUnary<TypeSet::Numeric>(args, NegOp());
  case OpCode::Abs:
    return runUnary<TypeSet::Numeric>(args, AbsOp());
  case OpCode::Sign:
    return runUnary<TypeSet::Numeric>(args, SignOp());
  case OpCode::Relu:
    return runUnary<TypeSet::Signed>(args, ReluOp());
  case OpCode::Not:
    return runUnary<TypeSet::Bool>(args, NotOp());
  case OpCode::IsNaN:
    return runUnary<TypeSet::Float, true>(args, IsNaNOp());
  case OpCode::IsInf:
    return runUnary<TypeSet::Float, true>(
        args, IsInfOp{args.attrsAs<IsInfAttrs>().detectPositive,
                      args.attrsAs<IsInfAttrs>().detectNegative});
  case OpCode::Gelu:
    return runUnary<TypeSet::Float>(
        args, GeluOp{args.attrsAs<GeluAttrs>().tanhApproximation});
  case OpCode::Sqrt:
    return runUnary<TypeSet::Float>(args, SqrtOp());
  case OpCode::Rsqrt:
    return runUnary<TypeSet::Float>(args, RsqrtOp());
  case OpCode::Reciprocal:
    return runUnary<TypeSet::Float>(args, ReciprocalOp());
  case OpCode::Exp:
    return runUnary<TypeSet::Float>(args, ExpOp());
  case OpCode::Log:
    return runUnary<TypeSet::Float>(args, LogOp());
  case OpCode::Tanh:
    return runUnary<TypeSet::Float>(args, TanhOp());
  case OpCode::Erf:
    return runUnary<TypeSet::Float>(args, ErfOp());
  case OpCode::Sigmoid:
    return runUnary<TypeSet::Float>(args, SigmoidOp());
  case OpCode::Silu:
    return runUnary<TypeSet::Float>(args, SiluOp());
  case OpCode::Sin:
    return runUnary<TypeSet::Float>(args, SinOp());
  case OpCode::Cos:
    return runUnary<TypeSet::Float>(args, CosOp());
  case OpCode::Tan:
    return runUnary<TypeSet::Float>(args, TanOp());
  case OpCode::Asin:
    return runUnary<TypeSet::Float>(args, AsinOp());
  case OpCode::Acos:
    return runUnary<TypeSet::Float>(args, AcosOp());
  case OpCode::Atan:
    return runUnary<TypeSet::Float>(args, AtanOp());
  case OpCode::Sinh:
    return runUnary<TypeSet::Float>(args, SinhOp());
  case OpCode::Cosh:
    return runUnary<TypeSet::Float>(args, CoshOp());
  case OpCode::Asinh:
    return runUnary<TypeSet::Float>(args, AsinhOp());
  case OpCode::Acosh:
    return runUnary<TypeSet::Float>(args, AcoshOp());
  case OpCode::Atanh:
    return runUnary<TypeSet::Float>(args, AtanhOp());
  case OpCode::Floor:
    return runUnary<TypeSet::Float>(args, FloorOp());
  case OpCode::Ceil:
    return runUnary<TypeSet::Float>(args, CeilOp());
  case OpCode::Round:
    return runUnary<TypeSet::Float>(args, RoundOp());
  default:
    return args.fail("not a unary elementwise op");
  }
}

Status runBinaryKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  switch (args.op) {
  case OpCode::Add:
    return runBinary<TypeSet::Numeric>(args, AddOp());
  case OpCode::Sub:
    return runBinary<TypeSet::Numeric>(args, SubOp());
  case OpCode::Mul:
    return runBinary<TypeSet::Numeric>(args, MulOp());
  case OpCode::Div:
    return runBinary<TypeSet::Numeric>(args, DivOp());
  case OpCode::Pow:
    return runBinary<TypeSet::Numeric>(args, PowOp());
  case OpCode::Max:
    return runBinary<TypeSet::Numeric>(args, MaxOp());
  case OpCode::Min:
    return runBinary<TypeSet::Numeric>(args, MinOp());
  case OpCode::Mod:
    return runBinary<TypeSet::Numeric>(args,
                                       ModOp{args.attrsAs<ModAttrs>().fmod});
  case OpCode::And:
    return runBinary<TypeSet::Bool>(args, AndOp());
  case OpCode::Or:
    return runBinary<TypeSet::Bool>(args, OrOp());
  case OpCode::Xor:
    return runBinary<TypeSet::Bool>(args, XorOp());
  case OpCode::Equal:
    return runBinary<TypeSet::All, true>(args, EqualOp());
  case OpCode::Less:
    return runBinary<TypeSet::All, true>(args, LessOp());
  case OpCode::LessEqual:
    return runBinary<TypeSet::All, true>(args, LessEqualOp());
  case OpCode::Greater:
    return runBinary<TypeSet::All, true>(args, GreaterOp());
  case OpCode::GreaterEqual:
    return runBinary<TypeSet::All, true>(args, GreaterEqualOp());
  default:
    return args.fail("not a binary elementwise op");
  }
}

//===----------------------------------------------------------------------===//
// Where.
//===----------------------------------------------------------------------===//

namespace {

template <typename E>
void whereLoop(const Tensor &c, const Tensor &a, const Tensor &b, Tensor &y) {
  const uint8_t *pc = static_cast<const uint8_t *>(c.data());
  const E *pa = static_cast<const E *>(a.data());
  const E *pb = static_cast<const E *>(b.data());
  E *out = static_cast<E *>(y.data());
  const int64_t n = y.numElements();
  if (n == 0)
    return;
  if (c.numElements() == n && a.numElements() == n && b.numElements() == n) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = pc[i] ? pa[i] : pb[i];
    return;
  }
  const StridedPlan plan =
      makeBroadcastPlan(y.shape(), {&c.shape(), &a.shape(), &b.shape()});
  forEachRow<3>(
      plan, [&](int64_t o, const int64_t *off, int64_t len, const int64_t *st) {
        const uint8_t *rc = pc + off[0];
        const E *ra = pa + off[1];
        const E *rb = pb + off[2];
        for (int64_t j = 0; j < len; ++j)
          out[o + j] = rc[j * st[0]] ? ra[j * st[1]] : rb[j * st[2]];
      });
}

} // namespace

Status runWhereKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkWhere(args));
  const Tensor &c = *args.in[0];
  const Tensor &a = *args.in[1];
  const Tensor &b = *args.in[2];
  Tensor &y = *args.out[0];
  return visitElemSize(dtypeSize(a.dtype()), [&](auto e) -> Status {
    whereLoop<decltype(e)>(c, a, b, y);
    if (y.dtype() == DType::Bool) { // Keep bools canonical (0 or 1).
      uint8_t *p = static_cast<uint8_t *>(y.data());
      for (int64_t i = 0; i < y.numElements(); ++i)
        p[i] = p[i] != 0;
    }
    return Status::ok();
  });
}

//===----------------------------------------------------------------------===//
// Cast.
//===----------------------------------------------------------------------===//

Status runCastKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  const int64_t n = x.numElements();
  return visitDType(x.dtype(), [&](auto inTag) -> Status {
    constexpr DType DI = decltype(inTag)::value;
    return visitDType(y.dtype(), [&](auto outTag) -> Status {
      constexpr DType DO = decltype(outTag)::value;
      const auto *in = static_cast<const StorageT<DI> *>(x.data());
      auto *out = static_cast<StorageT<DO> *>(y.data());
      for (int64_t i = 0; i < n; ++i)
        out[i] = castElem<DI, DO>(in[i]);
      return Status::ok();
    });
  });
}

//===----------------------------------------------------------------------===//
// Clip.
//===----------------------------------------------------------------------===//

Status runClipKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkClip(args, checkCpuDType));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  const ClipAttrs &bounds = args.attrsAs<ClipAttrs>();
  const double minV = bounds.min, maxV = bounds.max;
  return visitDTypeIn<TypeSet::Numeric>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using C = ComputeT<D>;
    C lo, hi;
    if constexpr (kIsFloat<D>) {
      lo = attrAs<D>(minV);
      hi = attrAs<D>(maxV);
    } else {
      // Integer bounds: the integers inside [min, max].
      lo = saturatingCast<C>(std::ceil(minV));
      hi = saturatingCast<C>(std::floor(maxV));
    }
    const auto *in = static_cast<const StorageT<D> *>(x.data());
    auto *out = static_cast<StorageT<D> *>(y.data());
    for (int64_t i = 0; i < x.numElements(); ++i) {
      C v = load<D>(in + i);
      v = v < lo ? lo : v;
      v = hi < v ? hi : v;
      store<D>(out + i, v);
    }
    return Status::ok();
  });
}

} // namespace paracc::rt
