//===- MoeChecks.h - Operand checks of the experts ops ----------*- C++ -*-===//
//
// MoeExperts and MoeExpertsGrad, shared by the CPU and GPU kernels: the
// shapes of the tokens, the routing and the stacked expert weights.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_MOECHECKS_H
#define PARACC_RUNTIME_KERNELS_MOECHECKS_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

/// A checked MoeExperts (in: x [T, H], indices [T, k] i64, weights [T, k],
/// w_in [E, F, H], w_out [E, H, I]; out: y [T, H]) or MoeExpertsGrad (in:
/// dy [T, H], then the forward's operands; out: dx, dweights, dw_in,
/// dw_out, shaped as their operands).
struct MoeProblem {
  const Tensor *dy = nullptr, *x = nullptr, *indices = nullptr,
               *weights = nullptr, *wIn = nullptr, *wOut = nullptr;
  int64_t tokens = 0, hidden = 0, k = 0, experts = 0, inner = 0, f = 0;
  /// MoeExpertsAttrs: 0 silu, 1 gelu (erf), 2 gelu (tanh), 3 relu.
  int64_t activation = 0;
  bool gated = true;
};
Status checkMoe(const KernelArgs &args, OperandTypeCheck checkType,
                MoeProblem &p);

/// The indices' values in [0, E) (read on the host).
Status checkMoeIndices(const KernelArgs &args, const MoeProblem &p,
                       const int64_t *indices);

/// A checked ExpertLoad (in: indices [T, k] i64; out: counts [E] f32):
/// the slots and the experts.
Status checkExpertLoad(const KernelArgs &args, int64_t &slots,
                       int64_t &experts);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_MOECHECKS_H
