//===- Kernels.h - CPU reference kernels ----------------------*- C++ -*-===//
//
// The instruction set (OpCodes.def) and the CPU implementation of every
// compute instruction. The compiler also calls runCpuKernel to fold
// constants, so folding and execution share one definition of each op.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_H
#define PARACC_RUNTIME_KERNELS_H

#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace paracc::rt {

enum class OpCode : uint16_t {
#define PARACC_OP(Name, Mnemonic) Name,
#include "paracc/runtime/OpCodes.def"
#undef PARACC_OP
  NumOpCodes
};

/// "matmul", or "unknown" for a value out of range.
const char *opCodeMnemonic(OpCode op);
std::optional<OpCode> opCodeFromMnemonic(std::string_view mnemonic);
/// Whether `op` is a collective (executed by a communicator, not a kernel).
bool isCollective(OpCode op);

/// Integer and floating attributes of an instruction (see OpCodes.def).
struct InstrAttrs {
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

/// Runs compute instruction `op` on the CPU. `outputs` are allocated by the
/// caller with the result element types and shapes. Every precondition that
/// an untrusted executable could violate (operand count, shapes, element
/// types, attribute ranges, index bounds) is checked and reported as an
/// error naming the op; nothing is assumed.
Status runCpuKernel(OpCode op, const InstrAttrs &attrs,
                    const std::vector<const Tensor *> &inputs,
                    const std::vector<Tensor *> &outputs);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_H
