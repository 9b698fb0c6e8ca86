//===- MoeKernels.h - The experts' instructions on the GPU ------*- C++ -*-===//
//
// MoeExperts and MoeExpertsGrad (OpCodes.def) with the CPU kernels'
// semantics (cpu/Moe.cpp), as the GPU executor runs them with the rank's
// workspace: the (token, pick) slots sorted by expert on the device (one
// block, stable: a slot keeps its order among its expert's), the rows
// gathered, each projection one grouped product over the experts
// (GroupedGemm.h), the k shares combined per token in pick order. Nothing
// is read back to the host, so the step stays one CUDA graph. An expert
// index outside [0, E) makes its token's result NaN (the CPU kernel
// reports it).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_MOEKERNELS_H
#define PARACC_RUNTIME_CUDA_MOEKERNELS_H

#include "cuda/CudaKernels.h"
#include "paracc/runtime/InstructionSet.h"

#include <cstddef>
#include <vector>

namespace paracc::rt::cuda {

/// The most experts the GPU kernels take (the sort keeps a count per expert
/// and warp in shared memory).
constexpr int kMoeMaxExperts = 256;

/// Workspace bytes a MoeExperts or MoeExpertsGrad with these operands needs
/// on the GPU; 0 when it does not run there (operands not bf16, rows not
/// multiples of 8 elements, more than kMoeMaxExperts experts, no grouped
/// products on this device): the executor runs the CPU kernel instead.
size_t moeWorkspaceBytes(OpCode op, const std::vector<DeviceTensor> &inputs);

/// Enqueues the instruction on `stream`; `workspace` holds at least
/// moeWorkspaceBytes(op, inputs) bytes, 256-byte aligned.
Status launchMoe(OpCode op, const MoeExpertsAttrs &attrs,
                 const std::vector<DeviceTensor> &inputs,
                 const std::vector<DeviceTensor> &outputs, void *workspace,
                 size_t workspaceBytes, cudaStream_t stream);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_MOEKERNELS_H
