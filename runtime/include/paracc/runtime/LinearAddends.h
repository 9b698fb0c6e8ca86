//===- LinearAddends.h - A linear instruction as one rank runs it -*- C++ -*-//
//
// A Linear instruction's LinearAttrs: the activation; the operand flags
// (1 bias, 2 residual; operands x, w, then the bias, then the residual), or
// -1 when absent (a bias iff a third operand); and the addend group [n,
// axis...]: when there is one, the bias and residual are added by the first
// member of the group over those n mesh axes only (the partial sums are
// all-reduced over them afterwards). The kernels take attributes without a
// group; a runner resolves the group for its rank with localLinear.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_LINEARADDENDS_H
#define PARACC_RUNTIME_LINEARADDENDS_H

#include "paracc/runtime/InstructionSet.h"
#include "paracc/runtime/Mesh.h"
#include "paracc/runtime/Status.h"

#include <cstddef>

namespace paracc::rt {

/// The attributes and operand count of a Linear (`stored`, with
/// `storedInputs` operands) on `rank`: without the group, and with the flags
/// cleared (and the operand count cut to x, w) on every member of the group
/// but the first. Attributes without a group are returned as they are.
Status localLinear(const LinearAttrs &stored, size_t storedInputs,
                   const Mesh &mesh, int64_t rank, LinearAttrs &local,
                   size_t &numInputs);

/// What a Linear instruction computes, from its resolved attributes and
/// operand count: activation 0 none, 1 tanh GELU, 2 exact GELU, 3 ReLU;
/// operands x, w, then the bias and the residual when present.
struct LinearForm {
  int64_t activation = 0;
  bool bias = false, residual = false;
};
Status decodeLinear(const LinearAttrs &attrs, size_t numInputs,
                    LinearForm &form);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_LINEARADDENDS_H
