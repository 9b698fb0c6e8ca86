//===- TrainingChecks.h - Operand checks of the training ops ---*- C++ -*-===//
//
// The checks of LayerNormGrad/RmsNormGrad, GatherGrad and the optimizer updates
// (AdamW, Sgd), shared by the CPU kernels and the GPU kernels so that both
// reject the same instructions with the same messages (as ReductionChecks.h
// does for the reducing ops).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_TRAININGCHECKS_H
#define PARACC_RUNTIME_KERNELS_TRAININGCHECKS_H

#include "Kernels/KernelUtil.h"

namespace paracc::rt {

/// LayerNormGrad/RmsNormGrad: in(dy, x, scale[, accumulate]) out(dx,
/// dscale[, dbias]) with ints [axis] and floats [epsilon] (accumulate, of
/// x's type, is added to dx); `normalized` is the number of
/// elements each row normalizes. `checkType` checks x's element type.
Status checkNormGrad(const KernelArgs &args, OperandTypeCheck checkType,
                     int64_t &normalized);

/// GatherGrad: in(dy, indices[, accumulate]) out(ddata) with ints [axis];
/// dy is ddata's shape with the axis replaced by the indices' shape;
/// accumulate has ddata's type. Sets ddata's view
/// [outer, axisDim, inner]. `checkType` checks the result's element type.
Status checkGatherGrad(const KernelArgs &args, OperandTypeCheck checkType,
                       int64_t &outer, int64_t &axisDim, int64_t &inner);

/// Operands [0, nTensors) and every result are f32 of the first operand's
/// shape; the operands after them are f32 scalars. `names` lists the
/// operands, then the results.
Status checkOptimizerOperands(const KernelArgs &args, size_t nTensors,
                              const char *const *names);

/// AdamW's and ForeachAdamW's floats: beta1 and beta2 in [0, 1), eps and
/// weight_decay finite and >= 0.
Status checkAdamWAttrs(const KernelArgs &args);

/// ForeachAdamW (OpCodes.def): 4N + 3 operands, 3N results, each group's
/// shapes and element types as AdamW's except that grad_j may be bf16 or
/// f16; the floats as AdamW's. Sets `count` to N.
Status checkForeachAdamW(const KernelArgs &args, size_t &count);

/// ForeachSumSquare: N >= 1 floating operands, one f32 [N] result.
Status checkForeachSumSquare(const KernelArgs &args);

/// ForeachCast: N >= 1 operands of one element type and N results of one
/// element type, result j of operand j's shape, no attributes.
Status checkForeachCast(const KernelArgs &args);

/// Sgd's attributes, checked (OpCodes.def: momentum >= 0, dampening
/// finite, weight_decay >= 0, nesterov 0 or 1 and only with momentum > 0
/// and no dampening).
struct SgdUpdate {
  double momentum = 0, dampening = 0, weightDecay = 0;
  bool nesterov = false;
};

/// Sgd: in(param, grad, momentum_buffer, lr, step, grad_scale)
/// out(param, momentum_buffer): the operands as checkOptimizerOperands
/// says, and the attributes into `update`.
Status checkSgd(const KernelArgs &args, SgdUpdate &update);

/// A loss's scores seen as [n, c, d] (d the product of the dims after the
/// class axis).
struct LossShape {
  int64_t n = 0, c = 0, d = 1;
  /// SoftmaxCrossEntropy's or CrossEntropyGrad's weight, log-softmax and
  /// softmax statistics (savedStats), each null when absent.
  const Tensor *weight = nullptr;
  Tensor *logProb = nullptr;
  const Tensor *stats = nullptr;
  Tensor *statsOut = nullptr;
};

/// SoftmaxCrossEntropy / NegativeLogLikelihoodLoss: in(scores or log_prob,
/// labels[, weight]) out(loss[, log_prob]) with ints [reduction,
/// has_ignore_index, ignore_index], or out(loss, stats) with savedStats
/// (SoftmaxCrossEntropy only). `checkType` checks the scores' element
/// type.
Status checkLoss(const KernelArgs &args, OperandTypeCheck checkType,
                 LossShape &shape);

/// CrossEntropyGrad: in(dloss, scores, labels[, weight][, stats with
/// savedStats]) out(dscores) with ints [log_prob_scores, has_ignore_index,
/// ignore_index]; everything but
/// the labels' range, which a kernel checks where it reads them.
/// `checkType` checks the scores' element type.
Status checkCrossEntropyGrad(const KernelArgs &args, OperandTypeCheck checkType,
                             LossShape &shape);

/// AdamW: in(param, grad, exp_avg, exp_avg_sq, lr, step, grad_scale)
/// out(param, exp_avg, exp_avg_sq): the operands as checkOptimizerOperands
/// says, the floats as checkAdamWAttrs.
Status checkAdamW(const KernelArgs &args);

/// A floating attribute `v` is finite and in [lo, hi) (or [lo, inf) when hi
/// is infinite, or any finite value when lo is -inf too).
Status checkFloatAttr(const KernelArgs &args, double v, double lo, double hi,
                      const char *what);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_TRAININGCHECKS_H
