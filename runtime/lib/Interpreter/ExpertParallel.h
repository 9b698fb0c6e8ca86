//===- ExpertParallel.h - Expert parallelism on CPU ranks -------*- C++ -*-===//
//
// ExpertParallelMoe and its gradient (OpCodes.def) on a rank's communicator
// and the CPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_INTERPRETER_EXPERTPARALLEL_H
#define PARACC_RUNTIME_INTERPRETER_EXPERTPARALLEL_H

#include "paracc/runtime/Collectives.h"
#include "paracc/runtime/InstructionSet.h"

#include <vector>

namespace paracc::rt {

/// Runs ExpertParallelMoe (`grad` false; in: x, indices, weights, w_in,
/// w_out; out: y) or ExpertParallelMoeGrad (in: dy, then those; out: dx,
/// dweights, dw_in, dw_out) over the group of `attrs.axes`. Every member
/// of the group runs it at the same point of its program.
Status runExpertParallelMoe(Communicator &comm,
                            const ExpertParallelMoeAttrs &attrs, bool grad,
                            const std::vector<const Tensor *> &in,
                            const std::vector<Tensor *> &out,
                            int64_t groupSize);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INTERPRETER_EXPERTPARALLEL_H
