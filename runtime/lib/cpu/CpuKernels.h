//===- CpuKernels.h - The CPU kernel families' entry points ----*- C++ -*-===//
//
// One entry point per kernel family of the CPU backend, each defined in the
// family's file and called by KernelDispatch.cpp (and the unit tests).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_CPUKERNELS_H
#define PARACC_RUNTIME_CPU_CPUKERNELS_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

Status runUnaryKernel(const KernelArgs &args);
Status runBinaryKernel(const KernelArgs &args);
Status runWhereKernel(const KernelArgs &args);
Status runCastKernel(const KernelArgs &args);
Status runClipKernel(const KernelArgs &args);
Status runFusedElementwiseKernel(const KernelArgs &args);
Status runMatMulKernel(const KernelArgs &args);
Status runGemmKernel(const KernelArgs &args);
Status runNormKernel(const KernelArgs &args);
Status runSoftmaxKernel(const KernelArgs &args);
Status runGatherKernel(const KernelArgs &args);
Status runGatherElementsKernel(const KernelArgs &args);
Status runGatherNDKernel(const KernelArgs &args);
Status runReshapeKernel(const KernelArgs &args);
Status runTransposeKernel(const KernelArgs &args);
Status runSliceKernel(const KernelArgs &args);
Status runConcatKernel(const KernelArgs &args);
Status runSplitKernel(const KernelArgs &args);
Status runExpandKernel(const KernelArgs &args);
Status runReduceKernel(const KernelArgs &args);
Status runArgReduceKernel(const KernelArgs &args);
Status runTopKKernel(const KernelArgs &args);
Status runMoeExpertsKernel(const KernelArgs &args);
Status runExpertLoadKernel(const KernelArgs &args);
Status runLossKernel(const KernelArgs &args);
Status runRangeKernel(const KernelArgs &args);
Status runCumSumKernel(const KernelArgs &args);
Status runTriluKernel(const KernelArgs &args);
Status runDropoutKernel(const KernelArgs &args);
Status runAttentionKernel(const KernelArgs &args);
/// AttentionMerge: two attentions over disjoint keys combined (ring
/// attention).
Status runAttentionMergeKernel(const KernelArgs &args);
Status runLinearKernel(const KernelArgs &args);
// Training (Gradients.cpp, Optimizers.cpp).
Status runNormGradKernel(const KernelArgs &args);
Status runGeluGradKernel(const KernelArgs &args);
Status runAttentionGradKernel(const KernelArgs &args);
Status runCrossEntropyGradKernel(const KernelArgs &args);
Status runGatherGradKernel(const KernelArgs &args);
Status runAdamWKernel(const KernelArgs &args);
Status runSgdKernel(const KernelArgs &args);
// Multi-tensor forms (Optimizers.cpp, Foreach.cpp).
Status runForeachAdamWKernel(const KernelArgs &args);
Status runForeachSumSquareKernel(const KernelArgs &args);
Status runForeachCastKernel(const KernelArgs &args);
Status runSiluMulKernel(const KernelArgs &args);
Status runSiluMulGradKernel(const KernelArgs &args);
Status runRotaryKernel(const KernelArgs &args);
Status runConvKernel(const KernelArgs &args);
Status runPoolKernel(const KernelArgs &args);
Status runConvTransposeKernel(const KernelArgs &args);
Status runConvWeightGradKernel(const KernelArgs &args);
Status runPoolGradKernel(const KernelArgs &args);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CPU_CPUKERNELS_H
