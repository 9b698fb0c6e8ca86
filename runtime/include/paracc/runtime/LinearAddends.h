//===- LinearAddends.h - A linear instruction as one rank runs it -*- C++ -*-//
//
// A Linear instruction has ints [activation] (bias iff a third operand),
// [activation, flags] (flags: 1 bias, 2 residual; operands x, w, then the
// bias, then the residual) or [activation, flags, n, axis...]: the bias and
// residual are added by the first member of the group over those n mesh
// axes only (the partial sums are all-reduced over them afterwards). The
// kernels take the first two forms; a runner resolves the third for its
// rank with localLinear.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_LINEARADDENDS_H
#define PARACC_RUNTIME_LINEARADDENDS_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Status.h"

#include <cstddef>

namespace paracc::rt {

/// The attributes and operand count of `instr` (a Linear) on `rank`: the
/// group form becomes [activation, flags] with flags cleared (and the
/// operand count cut to x, w) on every member but the first. Other forms
/// are returned as they are.
Status localLinear(const InstrInfo &instr, const Mesh &mesh, int64_t rank,
                   InstrAttrs &attrs, size_t &numInputs);

/// What a Linear instruction computes, from its (resolved) ints and operand
/// count: activation 0 none, 1 tanh GELU, 2 exact GELU, 3 ReLU; operands x,
/// w, then the bias and the residual when present.
struct LinearForm {
  int64_t activation = 0;
  bool bias = false, residual = false;
};
Status decodeLinear(const InstrAttrs &attrs, size_t numInputs,
                    LinearForm &form);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_LINEARADDENDS_H
