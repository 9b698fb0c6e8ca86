//===- Kernels.h - CPU reference kernels ----------------------*- C++ -*-===//
//
// The CPU implementation of every compute instruction of the instruction
// set (InstructionSet.h). The compiler also calls runCpuKernel to fold
// constants, so folding and execution share one definition of each op.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_H
#define PARACC_RUNTIME_KERNELS_H

#include "paracc/runtime/InstructionSet.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <vector>

namespace paracc::rt {

/// Runs compute instruction `op` on the CPU. `outputs` are allocated by the
/// caller with the result element types and shapes. Every precondition that
/// an untrusted executable could violate (operand count, shapes, element
/// types, attribute ranges, index bounds) is checked and reported as an
/// error naming the op; nothing is assumed. `attrs` are `op`'s typed
/// attributes (decodeOpAttrs); a struct of another opcode is an error.
Status runCpuKernel(OpCode op, const OpAttrs &attrs,
                    const std::vector<const Tensor *> &inputs,
                    const std::vector<Tensor *> &outputs);
/// The same from the attributes as an executable stores them: decodes them
/// first.
Status runCpuKernel(OpCode op, const InstrAttrs &attrs,
                    const std::vector<const Tensor *> &inputs,
                    const std::vector<Tensor *> &outputs);

/// `x` converted to element type `to` on the CPU (graph.cast's rounding).
StatusOr<Tensor> castOnCpu(const Tensor &x, DType to);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_H
