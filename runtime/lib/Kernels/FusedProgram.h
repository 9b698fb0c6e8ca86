//===- FusedProgram.h - A fused elementwise instruction's program -*- C++
//-*-===//
//
// The program of a FusedElementwise instruction (OpCodes.def), decoded and
// checked once against the instruction's operands and results: every step's
// opcode, registers, element types and attributes. The CPU interpreter and
// the GPU code generator read the decoded form only.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_FUSEDPROGRAM_H
#define PARACC_RUNTIME_KERNELS_FUSEDPROGRAM_H

#include "Kernels/KernelUtil.h"

#include <array>
#include <vector>

namespace paracc::rt {

/// One step: an instruction on earlier registers, or an immediate.
struct FusedStep {
  /// The instruction; unused for an immediate.
  OpCode op = OpCode::Add;
  bool immediate = false;
  /// The value an immediate holds (already of `dtype`'s precision).
  float value = 0;
  /// The step's element type: f16, bf16, f32 or bool.
  DType dtype = DType::F32;
  /// The registers it reads (argCount of them).
  std::array<int, 3> args = {0, 0, 0};
  int argCount = 0;
  /// Its instruction's attributes (monostate for most).
  OpAttrs attrs;
};

struct FusedProgram {
  /// Registers 0..inputCount-1 are the operands; step i defines register
  /// inputCount + i.
  int inputCount = 0;
  std::vector<FusedStep> steps;
  /// Per register, its element type.
  std::vector<DType> registerTypes;
  /// Per result, the register it stores.
  std::vector<int> results;
  /// The iteration space: the results' common shape.
  Shape shape;
};

/// The most operands, results and steps a program may have (the GPU passes
/// each operand and result as its own kernel parameter).
inline constexpr int kMaxFusedInputs = 32;
inline constexpr int kMaxFusedResults = 16;
inline constexpr int kMaxFusedSteps = 256;

/// v as an element of the fused type `d` holds it (f16/bf16 rounded to
/// nearest even, bool 0 or 1), as a float: each step's rounding, an
/// immediate's value and clip's bounds on both backends.
inline float roundToFusedType(DType d, float v) {
  switch (d) {
  case DType::BF16: {
    StorageT<DType::BF16> s;
    store<DType::BF16>(&s, v);
    return load<DType::BF16>(&s);
  }
  case DType::F16: {
    StorageT<DType::F16> s;
    store<DType::F16>(&s, v);
    return load<DType::F16>(&s);
  }
  case DType::Bool:
    return v != 0 ? 1.0f : 0.0f;
  default:
    return v;
  }
}

/// Whether a fused step may run `op` (unary and binary elementwise, Where,
/// Cast, Clip).
bool isFusibleStepOp(OpCode op);

/// Decodes args' FusedElementwiseAttrs and checks the program against
/// args.in and args.out: registers defined before use, each step's operand
/// and result types as its instruction requires, each operand broadcasting
/// to the results' shape and each result of its register's type.
Status decodeFusedProgram(const KernelArgs &args, FusedProgram &program);

/// For each operand, its element strides over `program.shape`'s dims (0
/// where it broadcasts).
std::vector<std::vector<int64_t>>
fusedOperandStrides(const FusedProgram &program,
                    const std::vector<const Tensor *> &inputs);

/// The iteration space with size-1 dims dropped and neighbours merged where
/// every operand walks them as one (contiguous, or broadcast over both):
/// `dims` and, per operand, its strides over them.
struct CoalescedSpace {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> strides;
};
CoalescedSpace coalesceFusedSpace(const Shape &shape,
                                  std::vector<std::vector<int64_t>> strides);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_FUSEDPROGRAM_H
