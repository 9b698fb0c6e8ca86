//===- ElementwiseFunctors.h - Scalar elementwise functions ----*- C++ -*-===//
//
// The scalar function of each unary and binary elementwise instruction, on
// the compute type (float for f16/bf16/f32), shared by the typed loops of
// Elementwise.cpp and the fused programs of FusedElementwise.cpp, so that a
// fused step computes exactly what its instruction would.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_ELEMENTWISEFUNCTORS_H
#define PARACC_RUNTIME_CPU_ELEMENTWISEFUNCTORS_H

#include "Kernels/KernelUtil.h"

#include <cmath>
#include <type_traits>

namespace paracc::rt::elementwise {

//===----------------------------------------------------------------------===//
// Unary functors: operator()(C x) on the compute type.
//===----------------------------------------------------------------------===//

struct NegOp {
  template <typename C> C operator()(C x) const {
    if constexpr (std::is_integral_v<C>)
      return wrapNeg(x);
    else
      return -x;
  }
};

struct AbsOp {
  template <typename C> C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>)
      return std::fabs(x);
    else if constexpr (std::is_signed_v<C>)
      return x < 0 ? wrapNeg(x) : x;
    else
      return x;
  }
};

struct SignOp {
  template <typename C> C operator()(C x) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (x > 0)
        return C(1);
      if (x < 0)
        return C(-1);
      return x; // Zero or NaN.
    } else if constexpr (std::is_signed_v<C>) {
      return static_cast<C>((x > 0) - (x < 0));
    } else {
      return static_cast<C>(x > 0);
    }
  }
};

struct ReluOp {
  template <typename C> C operator()(C x) const { return x < 0 ? C(0) : x; }
};

struct NotOp {
  bool operator()(bool x) const { return !x; }
};

struct IsNaNOp {
  template <typename C> bool operator()(C x) const { return std::isnan(x); }
};

struct IsInfOp {
  bool pos;
  bool neg;
  template <typename C> bool operator()(C x) const {
    return std::isinf(x) && (x > 0 ? pos : neg);
  }
};

struct SigmoidOp {
  template <typename C> C operator()(C x) const {
    if (x >= 0)
      return C(1) / (C(1) + std::exp(-x));
    const C e = std::exp(x);
    return e / (C(1) + e);
  }
};

struct SiluOp {
  template <typename C> C operator()(C x) const { return x * SigmoidOp()(x); }
};

struct GeluOp {
  bool tanhForm;
  template <typename C> C operator()(C x) const {
    if (tanhForm) {
      constexpr C kSqrt2OverPi = C(0.7978845608028654);
      const C inner = kSqrt2OverPi * (x + C(0.044715) * x * x * x);
      return C(0.5) * x * (C(1) + std::tanh(inner));
    }
    constexpr C kInvSqrt2 = C(0.7071067811865476);
    return C(0.5) * x * (C(1) + std::erf(x * kInvSqrt2));
  }
};

struct RoundOp {
  template <typename C> C operator()(C x) const {
    const C f = std::floor(x);
    const C d = x - f;
    C r;
    if (d > C(0.5))
      r = f + C(1);
    else if (d < C(0.5))
      r = f;
    else
      r = std::fmod(f, C(2)) == C(0) ? f : f + C(1);
    return r == C(0) ? std::copysign(C(0), x) : r;
  }
};

#define PARACC_FLOAT_UNARY(Name, Expr)                                         \
  struct Name {                                                                \
    template <typename C> C operator()(C x) const { return Expr; }             \
  };
PARACC_FLOAT_UNARY(SqrtOp, std::sqrt(x))
PARACC_FLOAT_UNARY(RsqrtOp, C(1) / std::sqrt(x))
PARACC_FLOAT_UNARY(ReciprocalOp, C(1) / x)
PARACC_FLOAT_UNARY(ExpOp, std::exp(x))
PARACC_FLOAT_UNARY(LogOp, std::log(x))
PARACC_FLOAT_UNARY(TanhOp, std::tanh(x))
PARACC_FLOAT_UNARY(ErfOp, std::erf(x))
PARACC_FLOAT_UNARY(SinOp, std::sin(x))
PARACC_FLOAT_UNARY(CosOp, std::cos(x))
PARACC_FLOAT_UNARY(TanOp, std::tan(x))
PARACC_FLOAT_UNARY(AsinOp, std::asin(x))
PARACC_FLOAT_UNARY(AcosOp, std::acos(x))
PARACC_FLOAT_UNARY(AtanOp, std::atan(x))
PARACC_FLOAT_UNARY(SinhOp, std::sinh(x))
PARACC_FLOAT_UNARY(CoshOp, std::cosh(x))
PARACC_FLOAT_UNARY(AsinhOp, std::asinh(x))
PARACC_FLOAT_UNARY(AcoshOp, std::acosh(x))
PARACC_FLOAT_UNARY(AtanhOp, std::atanh(x))
PARACC_FLOAT_UNARY(FloorOp, std::floor(x))
PARACC_FLOAT_UNARY(CeilOp, std::ceil(x))
#undef PARACC_FLOAT_UNARY

//===----------------------------------------------------------------------===//
// Binary functors: operator()(C a, C b).
//===----------------------------------------------------------------------===//

struct AddOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapAdd(a, b);
    else
      return a + b;
  }
};

struct SubOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapSub(a, b);
    else
      return a - b;
  }
};

struct MulOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return wrapMul(a, b);
    else
      return a * b;
  }
};

/// Integer divisors are checked for zero before the loop.
struct DivOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) {
      if (b == -1)
        return wrapNeg(a); // INT_MIN / -1 wraps.
      return static_cast<C>(a / b);
    } else {
      return static_cast<C>(a / b);
    }
  }
};

/// Integer exponents are checked to be non-negative before the loop.
struct PowOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      return std::pow(a, b);
    } else {
      C result = 1;
      C base = a;
      auto e = static_cast<std::make_unsigned_t<C>>(b);
      while (e) {
        if (e & 1)
          result = wrapMul(result, base);
        base = wrapMul(base, base);
        e >>= 1;
      }
      return result;
    }
  }
};

struct MaxOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(a))
        return a;
      if (std::isnan(b))
        return b;
    }
    return a < b ? b : a;
  }
};

struct MinOp {
  template <typename C> C operator()(C a, C b) const {
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(a))
        return a;
      if (std::isnan(b))
        return b;
    }
    return b < a ? b : a;
  }
};

/// fmod: the sign of the dividend; otherwise floor mod: the sign of the
/// divisor. Integer divisors are checked for zero before the loop.
struct ModOp {
  bool fmodMode;
  template <typename C> C operator()(C a, C b) const {
    C r;
    if constexpr (std::is_floating_point_v<C>) {
      r = std::fmod(a, b);
    } else if constexpr (std::is_signed_v<C>) {
      if (b == -1)
        return 0; // INT_MIN % -1 is 0.
      r = static_cast<C>(a % b);
    } else {
      return static_cast<C>(a % b);
    }
    if (!fmodMode && r != 0 && ((r < 0) != (b < 0)))
      r = static_cast<C>(r + b);
    return r;
  }
};

struct AndOp {
  bool operator()(bool a, bool b) const { return a && b; }
};
struct OrOp {
  bool operator()(bool a, bool b) const { return a || b; }
};
struct XorOp {
  bool operator()(bool a, bool b) const { return a != b; }
};
struct EqualOp {
  template <typename C> bool operator()(C a, C b) const { return a == b; }
};
struct LessOp {
  template <typename C> bool operator()(C a, C b) const { return a < b; }
};
struct LessEqualOp {
  template <typename C> bool operator()(C a, C b) const { return a <= b; }
};
struct GreaterOp {
  template <typename C> bool operator()(C a, C b) const { return a > b; }
};
struct GreaterEqualOp {
  template <typename C> bool operator()(C a, C b) const { return a >= b; }
};

} // namespace paracc::rt::elementwise

#endif // PARACC_RUNTIME_CPU_ELEMENTWISEFUNCTORS_H
