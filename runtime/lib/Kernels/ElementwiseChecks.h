//===- ElementwiseChecks.h - Operand checks of elementwise ops -*- C++ -*-===//
//
// The checks of the unary, binary, Where and Clip instructions, shared by
// the CPU kernels (Elementwise.cpp) and the GPU kernels
// (cuda/Elementwise.cu); the operand type check is a parameter (see
// OperandTypeCheck).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_ELEMENTWISECHECKS_H
#define PARACC_RUNTIME_KERNELS_ELEMENTWISECHECKS_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

/// Rotary: in(x, cos, sin) out(y), one floating type, x's last dim even, cos
/// and sin broadcasting to x, y shaped like x. `checkType` checks x's type.
Status checkRotary(const KernelArgs &args, OperandTypeCheck checkType);

/// A unary op over `set`: the result is bool for a predicate, else the
/// operand's type, and the operand's shape.
Status checkUnary(const KernelArgs &args, OperandTypeCheck checkType,
                  TypeSet set, bool predicate);

/// A binary op over `set` with broadcasting: the result is bool for a
/// comparison, else the operands' type.
Status checkBinary(const KernelArgs &args, OperandTypeCheck checkType,
                   TypeSet set, bool compare);

/// Where(condition, a, b) with broadcasting.
Status checkWhere(const KernelArgs &args);

/// Clip with floats [min, max], neither NaN.
Status checkClip(const KernelArgs &args, OperandTypeCheck checkType);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_ELEMENTWISECHECKS_H
