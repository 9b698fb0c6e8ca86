//===- InstructionSet.h - Opcodes and their typed attributes ---*- C++ -*-===//
//
// The instruction set of OpCodes.def: the opcodes, an instruction's
// attributes as the executable stores them (InstrAttrs: ints and floats),
// and as the kernels read them: one struct per attribute layout, with named
// fields, generated from the PARACC_ATTRS declarations in OpCodes.def.
// decodeOpAttrs turns the stored form into the typed one and checks the
// counts and the ranges the table declares; it is the only reader of the
// stored lists (the communication instructions' groups aside, which
// CommunicationInstr.h decodes). What depends on shapes (an axis against a
// rank, a permutation's length) stays with each op's shared checks.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_INSTRUCTIONSET_H
#define PARACC_RUNTIME_INSTRUCTIONSET_H

#include "paracc/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
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

/// The tensors N of a ForeachAdamW of `operands` operands (4N + 3: params,
/// grads, exp_avgs, exp_avg_sqs, then lr, step, grad_scale); 0 for fewer
/// than 7. Its results are 3N, or 4N with the parameters' copies last.
inline size_t foreachAdamWTensors(size_t operands) {
  return operands >= 7 ? (operands - 3) / 4 : 0;
}

/// The operand of an instruction of `operands` operands whose very buffer
/// its first result may be, besides the operands of the elementwise ops
/// (each result element read from its own position), or -1: GatherGrad's
/// accumulate (each row is read before the block that writes it). The
/// kernels accept that overlap, and the arena plan places the result there
/// when the operand dies at the instruction.
inline int64_t overwritableOperand(OpCode op, size_t operands) {
  return op == OpCode::GatherGrad && operands == 3 ? 2 : -1;
}

/// Integer and floating attributes of an instruction as the executable
/// stores them (the order OpCodes.def declares).
struct InstrAttrs {
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

// One struct per PARACC_ATTRS declaration: GeluAttrs, AttentionAttrs, ...
#define PARACC_FLAG(name) bool name = false;
#define PARACC_INT(name) int64_t name = 0;
#define PARACC_INT_IN(name, lo, hi) int64_t name = 0;
#define PARACC_OPT_FLAG(name) bool name = false;
#define PARACC_OPT_INT(name, lo, hi, dflt) int64_t name = dflt;
#define PARACC_INTS(name) std::vector<int64_t> name;
#define PARACC_FLOAT(name) double name = 0;
#define PARACC_FLOATS(name) std::vector<double> name;
#define PARACC_GROUP(name) std::vector<int> name;
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...)                                                \
  struct Name##Attrs {                                                         \
    __VA_ARGS__                                                                \
  };
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS
#undef PARACC_OP

/// An instruction's typed attributes: the struct of its opcode's layout, or
/// monostate for opcodes without attributes.
using OpAttrs = std::variant<std::monostate
#define PARACC_OP(Name, Mnemonic)
#define PARACC_ATTRS(Name, ...) , Name##Attrs
#include "paracc/runtime/OpCodes.def"
#undef PARACC_ATTRS
#undef PARACC_OP
                             >;

/// Decodes `raw`, the stored attributes of an `op` instruction, into
/// `attrs`: the counts (ints and floats), each flag 0 or 1, each ranged int
/// in range. Errors start with the mnemonic ("gelu: expected 1 integer
/// attribute, got 0").
Status decodeOpAttrs(OpCode op, const InstrAttrs &raw, OpAttrs &attrs);

/// Whether `attrs` holds the struct of `op`'s layout (monostate for an
/// opcode without attributes).
bool attrsFitOpCode(OpCode op, const OpAttrs &attrs);

/// The stored form of typed attributes (decodeOpAttrs's inverse), for
/// callers that build instructions themselves.
InstrAttrs encodeOpAttrs(const OpAttrs &attrs);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INSTRUCTIONSET_H
