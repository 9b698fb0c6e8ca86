//===- OptionBindings.cpp - The compile's options, declared once ----------===//
//
// Every option of ParallelOptions and TrainingOptions: its key, scope, help
// and checks. The tools' command lines, the pass pipeline paracc-compile
// and the C API (and through it Python) take exactly these.
//
//===----------------------------------------------------------------------===//

#include "paracc/Compiler/OptionsBinder.h"

#include <algorithm>
#include <cmath>

using namespace mlir::paracc;

void ParallelOptions::bindOptions(OptionsBinder &binder) {
  constexpr OptionScope scope = OptionScope::Compile;
  binder.bind({"mesh", scope,
               "Device mesh, e.g. dp2,tp4 or dp2,cp2,tp2 (axes dp, pp, cp: the "
               "sequence, tp; major to minor: tp groups are consecutive "
               "ranks), or auto (the planner chooses the mesh, "
               "sp, micro-batches, pipeline schedule, recompute and ZeRO for "
               "--cluster)",
               "AXES"},
              OptionValue::text(mesh));
  binder.bind({"sp", scope, "Sequence parallelism on the tensor-parallel axis"},
              OptionValue::flag(sequenceParallel));
  binder.bind({"microbatches", scope,
               "Split each rank's batch into N micro-batches: the pipeline's "
               "m under pp, else (inference) interleaved so that one's "
               "collectives overlap another's compute",
               "N"},
              OptionValue::integer(microbatches, 1, 64));
  binder.bind({"stages", scope,
               "Pipeline stages: 'auto' (balance the modelled time) or layer "
               "ranges per stage, e.g. 0-2,3-5,6-7",
               "RANGES"},
              OptionValue::text(stages));
  binder.bind({"pipeline-schedule", scope,
               "Under pp, the pipeline schedule: gpipe, 1f1b (default), zb-h1 "
               "or interleaved"},
              OptionValue::choice(schedule));
  binder.bind({"virtual-stages", scope,
               "Under --pipeline-schedule interleaved: model chunks per rank "
               "(default 2; the graph is cut into pp x N stages)",
               "N"},
              OptionValue::integer(virtualStages, 0));
  binder.bind({"precision", scope,
               "Compute type: f32 (default), or bf16/f16 (f32 accumulation; "
               "training keeps f32 master weights, optimizer state and "
               "loss)"},
              OptionValue::choice(precision));
  binder.bind({"cp-layout", scope,
               "Under cp, the sequence's layout: zigzag (default; 2 cp "
               "chunks, rank i holding i and 2 cp - 1 - i, so causal "
               "attention's work is even) or contiguous"},
              OptionValue::choice(cpLayout));
  binder.bind({"cp-attention", scope,
               "Under cp, attention over the split sequence: allgather "
               "(default; K and V all-gathered), alltoall (Ulysses: heads "
               "split instead, for the attention; the heads must divide "
               "over cp) or ring (K/V blocks passed around the cp ring, "
               "merged by log-sum-exp; CPU backend only for training)"},
              OptionValue::choice(cpAttention));
  binder.bind({"no-fuse-elementwise", scope,
               "Run every elementwise op as its own kernel (by default "
               "chains of them over one shape run as one fused kernel)"},
              OptionValue::negatedFlag(fuseElementwise));
  binder.bind(
      {"moe-capacity-factor", scope,
       "Mixtures of experts: each expert takes at most F x an even "
       "share of a sequence's picks (ceil(F x seq x k / experts)), "
       "the earliest tokens first; the other picks are dropped (their "
       "routing weight is zero) and paracc train counts them (0: "
       "dropless, every pick reaches its expert)",
       "F"},
      OptionValue::number(moeCapacityFactor, NumberRange::nonNegative()));
  binder.bind(
      {"moe-imbalance", scope,
       "Expert parallelism: assume the busiest ep rank receives R x an even "
       "share of the picks (its all-to-all traffic and experts' work, which "
       "the others wait for) in explain, the step prediction and the "
       "planner (default 1: even routing; paracc train's 'experts max/mean' "
       "is a per-expert bound of it; capped by --moe-capacity-factor)",
       "R"},
      OptionValue::number(moeImbalance, NumberRange{1.0, HUGE_VAL}));
}

double ParallelOptions::effectiveMoeImbalance() const {
  if (moeCapacityFactor > 0)
    return std::min(moeImbalance, std::max(moeCapacityFactor, 1.0));
  return moeImbalance;
}

void TrainingOptions::bindOptions(OptionsBinder &binder) {
  constexpr OptionScope scope = OptionScope::TrainingCompile;
  binder.bind({"loss", scope,
               "Add a loss to a model that returns logits [batch, seq, "
               "vocab]: next-token-ce (labels are the tokens shifted by one) "
               "or ce (labels become an input)"},
              OptionValue::text(loss));
  binder.bind({"freeze", scope,
               "Do not train parameters whose name matches this regular "
               "expression",
               "REGEX"},
              OptionValue::text(freeze));
  binder.bind({"train-only", scope,
               "Train only the parameters whose name matches this regular "
               "expression",
               "REGEX"},
              OptionValue::text(trainOnly));
  binder.bind({"no-auto-freeze", scope,
               "Train the buffers exporters write as initializers too "
               "(BatchNorm's running statistics in inference form, position "
               "tables such as rotary inv_freq), which are frozen by "
               "default"},
              OptionValue::negatedFlag(autoFreeze));
  binder.bind({"moe-aux-loss", scope,
               "Mixtures of experts: add this times each layer's "
               "load-balancing loss (transformers' load_balancing_loss_func: "
               "E x sum of the experts' token fractions times their mean "
               "router probabilities) to the loss (0: off)",
               "COEF"},
              OptionValue::number(moeAuxLoss, NumberRange::nonNegative()));
  binder.bind({"moe-z-loss", scope,
               "Mixtures of experts: add this times each layer's router "
               "z-loss (the mean squared logsumexp of its router logits) to "
               "the loss (0: off)",
               "COEF"},
              OptionValue::number(moeZLoss, NumberRange::nonNegative()));
  binder.bind({"optimizer", scope, "adamw (default) or sgd"},
              OptionValue::choice(optimizer));
  binder.bind({"betas", scope, "AdamW's betas", "B1,B2"},
              OptionValue::numbers(betas, 2, 0.0, 1.0));
  binder.bind({"eps", scope, "AdamW's eps"},
              OptionValue::number(eps, NumberRange::positive()));
  binder.bind({"weight-decay", scope,
               "Weight decay (AdamW: decoupled; default 0.01, SGD 0)"},
              OptionValue::number(weightDecay, NumberRange::nonNegative()));
  binder.bind({"momentum", scope, "SGD's momentum, in [0, 1)"},
              OptionValue::number(momentum, NumberRange::fraction()));
  binder.bind({"clip-grad-norm", scope,
               "Clip the global gradient norm to this (0: off)"},
              OptionValue::number(clipGradNorm, NumberRange::nonNegative()));
  binder.bind({"recompute", scope,
               "Activations recomputed in the backward instead of kept: none, "
               "full (each layer from its input), selective (cheap ops: "
               "norms, activations, softmax) or auto (the least recompute "
               "within --memory-budget)"},
              OptionValue::choice(recompute));
  binder.bind({"memory-budget", scope,
               "Peak memory per rank the step must fit (e.g. 40GiB, 512MiB); "
               "auto recomputes to fit it, the other policies are refused "
               "over it. auto without it: 90 % of the device's memory",
               "SIZE"},
              OptionValue::bytes(memoryBudget));
  binder.bind({"bucket-mb", scope,
               "All-reduce buckets of this many MiB (gradients, gradient-norm "
               "terms; 0: one all-reduce each)"},
              OptionValue::number(bucketMb, NumberRange::nonNegative()));
  binder.bind({"zero", scope,
               "ZeRO stage over the dp axis: 0 (none), 1 (optimizer moments "
               "sharded: gradients reduce-scattered once per step, each rank "
               "updates its shard, parameters all-gathered), 2 (gradients "
               "reduce-scattered per micro-batch too), 3 (parameters sharded "
               "too: each layer's gathered before its forward and its "
               "backward)"},
              OptionValue::integer(zero, 0, 3));
  binder.bind({"zero-prefetch", scope,
               "--zero 3: layers ahead at which a layer's parameter gather is "
               "issued (0: just before the layer)"},
              OptionValue::integer(zeroPrefetch, 0));
  binder.bind({"no-weight-copies", scope,
               "Mixed precision: cast the f32 master weights to bf16 at every "
               "step's start (by default the optimizer writes each updated "
               "weight's bf16 copy, kept between steps, and the cast is not "
               "needed)"},
              OptionValue::negatedFlag(weightCopies));
  binder.bind({"zero-shard-size", scope,
               "Hybrid sharding (HSDP): --zero shards within groups of N "
               "consecutive dp ranks and replicates across the groups "
               "(gradients reduce-scattered inside a group, all-reduced "
               "across); N divides dp (default: all of dp)",
               "N"},
              OptionValue::integer(zeroShardSize, 0));
  binder.bind({"dropout-seed", scope,
               "Seed of every training-mode Dropout's mask (with the op, the "
               "step and the element's position; the same on any mesh)"},
              OptionValue::unsignedInteger(dropoutSeed));
}
