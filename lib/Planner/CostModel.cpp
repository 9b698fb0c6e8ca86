//===- CostModel.cpp - Per-op FLOPs, bytes and predicted time ---*- C++ -*-===//

#include "paracc/Planner/CostModel.h"

#include "mlir/IR/BuiltinTypes.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

// The rates are per rank:
// - CPU: one core per rank, calibrated per op by bench/profile-cpu-ranks.sh
//   (bench/results/2026-12-03-h200-costmodel/cpu-device-host: 8 one-rank
//   training steps at once on the device host's 16 cores, OpenBLAS on one
//   thread each, sharing the memory bandwidth as a pipeline's ranks do):
//   products at 22 GFLOP/s f32 (21-24 measured), paracc's attention
//   kernels at 2.2 forward and 2.9 backward (scalar loops), the other ops'
//   arithmetic at 0.5 GFLOP/s (a transcendental function counting 8) and
//   their streaming at 3 GB/s, 5 us of dispatch per op (6.7-7.8 measured
//   on the smallest); bf16/f16, converted to f32 around the kernels, at
//   half. A ~2 GB/s shared-memory transfer between ranks. (The first
//   table, one FLOP rate for every op, was calibrated per pipeline stage,
//   bench/results/2026-12-01-cpu-pipeline; per op it was off by x2.1-2.4.)
// - H200: calibrated per op by `bench/run-gpu.sh costmodel`
//   (bench/results/2026-12-03-h200-costmodel: GPT-406M's bf16 forward and
//   bf16/f32 training steps, every instruction timed on its own):
//   - products: 720 TFLOP/s bf16 (cuBLASLt measured 693-741 of the 989
//     peak); 50 TFLOP/s f32, which runs on the CUDA cores (TF32, asked for
//     at run time with --tf32, is not modelled);
//   - fused attention: 280 TFLOP/s forward and 170 backward in bf16
//     (cuDNN), 6.4 and 4.6 in f32 (paracc's own kernels);
//   - everything else is memory-bound: 2.5 TB/s (2.2-2.8 measured) of the
//     4.8 TB/s HBM3e peak; its arithmetic at 60 TFLOP/s;
//   - 5 us per instruction (launch and the profile's events; 4.9-5.1
//     measured on the smallest ops);
//   - convolutions (cuDNN, NCHW): 185 TFLOP/s bf16, ResNet-50's 156
//     convolution instructions of a bf16 training step at batch 128
//     (3.05 TFLOP in 16.5 ms; 110-395 per shape) measured on an H100, whose
//     tensor-core peak is the H200's (bench/results/
//     2026-12-06-h100-vision-input-pool); a stem's 3 input channels reach
//     only 24-34. f32 (not measured): the products' f32 rate times the same
//     fraction of it, 12.8 TFLOP/s;
//   - ~150 GB/s of NVLink point-to-point between two GPUs (of 450 GB/s per
//     direction), 220 GB/s of collective bus bandwidth (NCCL's all-reduce
//     of 16 MiB on two GPUs, bench/results/2026-11-30-h200).
// - The CPU's collectives: Gloo between threads or processes of one host,
//   at the transfer rate.
// - Convolutions on the CPU (im2col or col2im around one BLAS product per
//   image and group) run at 0.49 of the products' rate: ResNet-50's
//   training step at batch 2 on this 2-core machine did its 47.6 GFLOP of
//   convolutions at 45 GFLOP/s where paracc's products of the same GEMM
//   shapes ran at 92 (bench/results/2026-12-06-h100-vision-input-pool).
DeviceRates mlir::paracc::cpuRates() {
  DeviceRates rates{"cpu",
                    /*products=*/{22e9, 11e9},
                    /*attention=*/{2.2e9, 1.1e9},
                    /*attentionGrad=*/{2.9e9, 1.45e9},
                    /*vector=*/{0.5e9, 0.25e9},
                    3e9,
                    2e9,
                    2e9,
                    5e-6};
  rates.convolutions = {10.8e9, 5.4e9};
  return rates;
}

// The attention's growth with the sequence (attentionHalfKeys): fitted to
// cuDNN's causal bf16 attention through PyTorch's SDPA on the H200 at head
// dim 64 (BENCHMARKS.md, the one-GPU speed issue: 350 / 257 TFLOP/s forward
// / backward at S 1024, 445 / 380 at 4096, 463 / 427 at 16384), S / (S + S0)
// with S0 = 407 forward and 778 backward (within 3 % at all three).
static void setAttentionGrowth(DeviceRates &rates) {
  rates.attentionHalfKeys = 407;
  rates.attentionGradHalfKeys = 778;
}

DeviceRates mlir::paracc::h200Rates() {
  DeviceRates rates{"h200",
                    /*products=*/{50e12, 720e12},
                    /*attention=*/{6.4e12, 280e12},
                    /*attentionGrad=*/{4.6e12, 170e12},
                    /*vector=*/{60e12, 60e12},
                    2.5e12,
                    150e9,
                    220e9,
                    5e-6};
  setAttentionGrowth(rates);
  rates.convolutions = {12.8e12, 185e12};
  return rates;
}

// H100 and A100: not measured here (no such machine is lent); the H200's
// calibrated rates scaled by the ratio of each device's spec-sheet peak to
// the H200's (NVIDIA's datasheets, dense): products and attention by the
// tensor-core bf16 peak (H200 and H100 SXM 989 TFLOP/s, A100 312) and the
// f32 rates by the f32 peak (67 and 19.5 TFLOP/s), memory-bound ops by the
// HBM bandwidth (H200 4.8 TB/s, H100 SXM 3.35, A100 80 GB 2.039, A100 40 GB
// 1.555), NVLink by its per-direction bandwidth (NVLink 4: 450 GB/s, NVLink
// 3: 300). That is, each device is assumed to reach the fraction of its
// peak that the H200 reaches of its own; docs/PLANNER.md keeps the table
// of sources and assumptions.
static DeviceRates scaledFromH200(const char *name, double tensorPeak,
                                  double f32Peak, double memoryPeak,
                                  double nvlinkPerDirection) {
  const DeviceRates h200 = h200Rates();
  const double tensor = tensorPeak / 989e12, f32 = f32Peak / 67e12,
               memory = memoryPeak / 4.8e12, link = nvlinkPerDirection / 450e9;
  auto scaled = [&](FlopRates r) {
    return FlopRates{r.f32 * f32, r.lowPrecision * tensor};
  };
  DeviceRates rates{
      name,
      scaled(h200.products),
      scaled(h200.attention),
      scaled(h200.attentionGrad),
      FlopRates{h200.vector.f32 * f32, h200.vector.lowPrecision * f32},
      h200.memoryBytesPerSecond * memory,
      h200.linkBytesPerSecond * link,
      h200.collectiveBytesPerSecond * link,
      h200.launchSeconds};
  setAttentionGrowth(rates);
  rates.convolutions = scaled(h200.convolutions);
  return rates;
}

DeviceRates mlir::paracc::h100Rates() {
  return scaledFromH200("h100", 989e12, 67e12, 3.35e12, 450e9);
}

DeviceRates mlir::paracc::a100Rates() {
  return scaledFromH200("a100", 312e12, 19.5e12, 2.039e12, 300e9);
}

DeviceRates mlir::paracc::a100With40GBRates() {
  return scaledFromH200("a100-40g", 312e12, 19.5e12, 1.555e12, 300e9);
}

llvm::ArrayRef<RateTable> mlir::paracc::rateTables() {
  static const RateTable tables[] = {{"cpu", cpuRates},
                                     {"h200", h200Rates},
                                     {"h100", h100Rates},
                                     {"a100", a100Rates},
                                     {"a100-40g", a100With40GBRates}};
  return tables;
}

std::optional<DeviceRates> mlir::paracc::ratesByName(llvm::StringRef name) {
  for (const RateTable &t : rateTables())
    if (t.name == name)
      return t.rates();
  return std::nullopt;
}

llvm::StringRef mlir::paracc::ratesForDevice(Device device) {
  return device == Device::Gpu ? "h200" : "cpu";
}

FailureOr<DeviceRates> mlir::paracc::ratesByNameOrError(Operation *op,
                                                        llvm::StringRef name) {
  if (std::optional<DeviceRates> rates = ratesByName(name))
    return *rates;
  InFlightDiagnostic diag = op->emitError("unknown device rates '")
                            << name << "', expected one of ";
  llvm::interleaveComma(rateTables(), diag,
                        [&](const RateTable &t) { diag << t.name; });
  return diag;
}

int64_t mlir::paracc::bytesOfTensorType(Type type) {
  return dist::staticTensorBytes(type);
}

static int64_t numElements(Value v) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  return tensor && tensor.hasStaticShape() ? tensor.getNumElements() : 0;
}

static int64_t dimFromEnd(Value v, int64_t fromEnd) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor || tensor.getRank() < fromEnd)
    return 1;
  int64_t d = tensor.getDimSize(tensor.getRank() - fromEnd);
  return ShapedType::isDynamic(d) ? 1 : d;
}

static int64_t operandBytes(Operation *op) {
  int64_t b = 0;
  for (Value v : op->getOperands())
    b += bytesOfTensorType(v.getType());
  return b;
}

static int64_t resultBytes(Operation *op) {
  int64_t b = 0;
  for (Value v : op->getResults())
    b += bytesOfTensorType(v.getType());
  return b;
}

static int64_t resultElements(Operation *op) {
  int64_t n = 0;
  for (Value v : op->getResults())
    n += numElements(v);
  return n;
}

/// 4 B H Sq Sk D (two products, q kᵀ and p v), halved when causal.
static int64_t attentionFlops(Value q, Value k, Value v, bool causal,
                              bool sequenceFirst, int64_t window) {
  // [..., Sq, D] or, sequence first, [..., Sq, H, D].
  int64_t seqFromEnd = sequenceFirst ? 3 : 2;
  int64_t sq = dimFromEnd(q, seqFromEnd);
  int64_t sk = dimFromEnd(k, seqFromEnd);
  int64_t d = dimFromEnd(q, 1), dv = dimFromEnd(v, 1);
  int64_t batchHeads = numElements(q) / std::max<int64_t>(sq * d, 1);
  // The (query, key) pairs computed: all, about half under a causal mask,
  // about Sq x window under a sliding window.
  int64_t pairs = sq * sk;
  if (causal)
    pairs = window > 0 && window < sk ? std::min(sq, sk) * window : pairs / 2;
  return 2 * batchHeads * pairs * (d + dv);
}

/// The keys' length of an attention operand ([..., Sk, D], or
/// [..., Sk, H, D] sequence-first); 0 when unknown.
static int64_t attentionKeys(Value k, bool sequenceFirst) {
  auto type = dyn_cast<RankedTensorType>(k.getType());
  if (!type || type.getRank() < (sequenceFirst ? 3 : 2))
    return 0;
  return type.getDimSize(type.getRank() - (sequenceFirst ? 3 : 2));
}

/// An attention forward (graph.attention or attention_with_stats: the
/// statistics are a by-product of the online softmax).
template <typename AttentionOpT>
static void attentionForwardCost(AttentionOpT att, OpCost &c) {
  c.kind = ComputeKind::Attention;
  c.keys = attentionKeys(att.getK(), att.getSequenceFirst());
  c.flops = attentionFlops(att.getQ(), att.getK(), att.getV(), att.getCausal(),
                           att.getSequenceFirst(), att.getWindow());
}

/// The growth of attention's rate at `keys` over its rate at 1024 keys.
static double attentionGrowth(int64_t keys, double halfKeys) {
  if (halfKeys <= 0 || keys <= 0)
    return 1.0;
  double s = double(keys);
  return (s / (s + halfKeys)) / (1024.0 / (1024.0 + halfKeys));
}

/// 2 x `elements`' count x a weight's elements per output channel: the
/// products of a convolution (or its transpose, or its weight gradient)
/// whose every `elements` value meets that many weights.
static int64_t convolutionFlops(Value elements, Value weight) {
  auto w = cast<RankedTensorType>(weight.getType());
  return 2 * cast<RankedTensorType>(elements.getType()).getNumElements() *
         (w.getNumElements() / w.getDimSize(0));
}

/// The experts' products: every (token, pick) meets one expert's w_in
/// ([F, H]) and w_out ([H, I]), with the activation between. The backward
/// recomputes the first product and runs two per weight (operand and
/// weight gradients): 3 of w_in's and 2 of w_out's.
static int64_t moeFlops(Value indices, Value wIn, Value wOut, bool backward) {
  auto wi = cast<RankedTensorType>(wIn.getType());
  auto wo = cast<RankedTensorType>(wOut.getType());
  const int64_t slots =
      cast<RankedTensorType>(indices.getType()).getNumElements();
  const int64_t in = 2 * wi.getDimSize(1) * wi.getDimSize(2),
                out = 2 * wo.getDimSize(1) * wo.getDimSize(2),
                act = 8 * wo.getDimSize(2);
  return slots * (backward ? 3 * in + 2 * out + 2 * act : in + out + act);
}

/// Expert parallelism's busiest member: `load` times an even share of the
/// slots, so its FLOPs and the bytes of its tokens (all but `tableBytes`,
/// the experts' tables it reads and writes) scale by it.
static void scaleExpertTokens(OpCost &c, double load, int64_t tableBytes) {
  if (load <= 1.0)
    return;
  c.flops = int64_t(double(c.flops) * load);
  const int64_t tokens = std::max<int64_t>(c.bytes - tableBytes, 0);
  c.bytes = tableBytes + int64_t(double(tokens) * load);
}

static int64_t windowElements(ArrayRef<int64_t> kernel) {
  int64_t window = 1;
  for (int64_t k : kernel)
    window *= k;
  return window;
}

OpCost mlir::paracc::estimateCost(Operation *op) {
  OpCost c;
  if (isa<g::WeightOp, g::ConstantOp, g::StateOp>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return c;
  c.launches = 1;
  c.bytes = operandBytes(op) + resultBytes(op);
  int64_t out = resultElements(op);

  if (isa<g::MatMulOp, g::GemmOp, g::LinearOp, g::MoeExpertsOp,
          g::MoeExpertsGradOp, dist::ExpertParallelMoeOp,
          dist::ExpertParallelMoeGradOp>(op))
    c.kind = ComputeKind::Product;
  if (isa<g::ConvOp, g::ConvTransposeOp, g::ConvWeightGradOp>(op))
    c.kind = ComputeKind::Convolution;
  if (auto mm = dyn_cast<g::MatMulOp>(op)) {
    // 2 M N K over the broadcast batch: the result has M x N per batch.
    c.flops = 2 * out * dimFromEnd(mm.getLhs(), 1);
  } else if (auto gemm = dyn_cast<g::GemmOp>(op)) {
    auto a = cast<RankedTensorType>(gemm.getA().getType());
    int64_t k = a.getRank() == 2 ? a.getDimSize(gemm.getTransA() ? 0 : 1) : 1;
    c.flops = 2 * out * k + (gemm.getC() ? out : 0);
  } else if (auto conv = dyn_cast<g::ConvOp>(op)) {
    // Each output element meets (C / group) x kernel weights; the bias.
    c.flops = convolutionFlops(conv.getResult(), conv.getW()) +
              (conv.getBias() ? out : 0);
  } else if (auto convT = dyn_cast<g::ConvTransposeOp>(op)) {
    // Each operand element meets (Cout / group) x kernel weights.
    c.flops = convolutionFlops(convT.getX(), convT.getW()) +
              (convT.getBias() ? out : 0);
  } else if (auto wgrad = dyn_cast<g::ConvWeightGradOp>(op)) {
    // Each dy element meets (C / group) x kernel operand elements.
    c.flops = convolutionFlops(wgrad.getDy(), wgrad.getResult());
  } else if (auto moe = dyn_cast<g::MoeExpertsOp>(op)) {
    c.flops = moeFlops(moe.getIndices(), moe.getWIn(), moe.getWOut(), false);
  } else if (auto grad = dyn_cast<g::MoeExpertsGradOp>(op)) {
    c.flops = moeFlops(grad.getIndices(), grad.getWIn(), grad.getWOut(), true);
  } else if (auto moe = dyn_cast<dist::ExpertParallelMoeOp>(op)) {
    // A member runs as many slots as it sends, routing spread evenly; the
    // busiest, which the group waits for, load_imbalance times as many.
    c.flops = moeFlops(moe.getIndices(), moe.getWIn(), moe.getWOut(), false);
    scaleExpertTokens(c, moe.getLoadImbalance().convertToDouble(),
                      bytesOfTensorType(moe.getWIn().getType()) +
                          bytesOfTensorType(moe.getWOut().getType()));
  } else if (auto grad = dyn_cast<dist::ExpertParallelMoeGradOp>(op)) {
    c.flops = moeFlops(grad.getIndices(), grad.getWIn(), grad.getWOut(), true);
    // The tables are read and their gradients written.
    scaleExpertTokens(c, grad.getLoadImbalance().convertToDouble(),
                      2 * (bytesOfTensorType(grad.getWIn().getType()) +
                           bytesOfTensorType(grad.getWOut().getType())));
  } else if (auto pool = dyn_cast<g::PoolOp>(op)) {
    c.flops = out * windowElements(pool.getKernel());
  } else if (auto grad = dyn_cast<g::PoolGradOp>(op)) {
    // Each window of dy spreads over its elements.
    c.flops = cast<RankedTensorType>(grad.getDy().getType()).getNumElements() *
              windowElements(grad.getKernel());
  } else if (auto linear = dyn_cast<g::LinearOp>(op)) {
    c.flops = 2 * out * dimFromEnd(linear.getX(), 1);
    // The epilogue: one op per element each for bias, residual, activation.
    c.flops +=
        out * ((linear.getBias() ? 1 : 0) + (linear.getResidual() ? 1 : 0) +
               (linear.getActivation() != "none" ? 8 : 0));
  } else if (auto att = dyn_cast<g::AttentionOp>(op)) {
    attentionForwardCost(att, c);
  } else if (auto att = dyn_cast<g::AttentionWithStatsOp>(op)) {
    attentionForwardCost(att, c);
  } else if (auto grad = dyn_cast<g::AttentionGradOp>(op)) {
    // Recomputes the probabilities and takes four more products.
    c.kind = ComputeKind::AttentionGrad;
    c.keys = attentionKeys(grad.getK(), grad.getSequenceFirst());
    c.flops = attentionFlops(grad.getQ(), grad.getK(), grad.getV(),
                             grad.getCausal(), grad.getSequenceFirst(),
                             grad.getWindow()) *
              5 / 2;
  } else if (isa<g::GatherOp, g::GatherElementsOp, g::GatherNDOp>(op)) {
    // Reads the rows it takes, not the whole table.
    c.bytes =
        bytesOfTensorType(op->getOperand(1).getType()) + 2 * resultBytes(op);
  } else if (isa<g::SliceOp>(op)) {
    // Reads the elements it keeps, not the whole operand (the pieces of a
    // bucket of collectives are slices of it).
    c.bytes = 2 * resultBytes(op);
    c.flops = out;
  } else if (auto fused = dyn_cast<g::FusedElementwiseOp>(op)) {
    // One pass over the operands and results; each body op's work per
    // element of the iteration space.
    int64_t perElement = 0;
    for (Operation &inner : fused.getBodyBlock().without_terminator())
      perElement += estimateCost(&inner).flops;
    c.flops = perElement * numElements(op->getResult(0));
  } else if (isa<g::ReshapeOp>(op)) {
    c = OpCost();
  } else if (isa<g::LayerNormOp, g::RmsNormOp, g::SoftmaxOp, g::LogSoftmaxOp,
                 g::LayerNormGradOp, g::RmsNormGradOp, g::SoftmaxCrossEntropyOp,
                 g::SoftmaxCrossEntropyWithStatsOp, g::CrossEntropyGradOp,
                 g::NllLossOp>(op)) {
    // Statistics, normalization and scale: a few ops per element of the
    // larger of the input and the result (a loss's gradient is shaped like
    // the logits, its first operand like the per-token losses).
    c.flops = 5 * std::max(numElements(op->getOperand(0)), out);
  } else if (isa<g::GeluOp, g::GeluGradOp, g::ExpOp, g::LogOp, g::TanhOp,
                 g::ErfOp, g::SigmoidOp, g::SiluOp, g::SiluMulOp,
                 g::SiluMulGradOp, g::RotaryOp, g::PowOp, g::SinOp, g::CosOp,
                 g::TanOp, g::AsinOp, g::AcosOp, g::AtanOp, g::SinhOp,
                 g::CoshOp, g::AsinhOp, g::AcoshOp, g::AtanhOp>(op)) {
    // A transcendental function per element: ~8 operations' worth (what
    // the CPU's scalar loops take; the GPU is memory-bound on them anyway).
    c.flops = 8 * out;
  } else if (op->getNumOperands() == 1 &&
             numElements(op->getOperand(0)) > out) {
    // Reductions: one op per input element.
    c.flops = numElements(op->getOperand(0));
  } else {
    // Elementwise and data movement: one op per result element.
    c.flops = out;
  }
  return c;
}

std::optional<CollectiveCost>
mlir::paracc::estimateCollectiveCost(Operation *op, int64_t groupSize) {
  auto collective = dyn_cast<dist::CollectiveOpInterface>(op);
  if (!collective)
    return std::nullopt;
  CollectiveCost c;
  c.messageBytes = collective.getMessageBytes();
  c.trafficBytes = collective.getTrafficBytes(groupSize);
  c.formula = collective.getTrafficFormula();
  return c;
}

double mlir::paracc::predictCollectiveSeconds(Operation *op,
                                              const CollectiveCost &cost,
                                              const DeviceRates &rates) {
  auto collective = dyn_cast<dist::CollectiveOpInterface>(op);
  double rate = collective && collective.isPointToPoint()
                    ? rates.linkBytesPerSecond
                    : rates.collectiveBytesPerSecond;
  return (rate > 0 ? cost.trafficBytes / rate : 0) + rates.launchSeconds;
}

Type mlir::paracc::costElementType(Operation *op) {
  // A product's or attention's rate is its operands' (a bf16 product with
  // an f32 result, the logits', runs on the bf16 tensor cores).
  if (isa<g::MatMulOp, g::GemmOp, g::LinearOp, g::ConvOp, g::ConvTransposeOp,
          g::ConvWeightGradOp, g::AttentionOp, g::AttentionWithStatsOp,
          g::AttentionGradOp, g::MoeExpertsOp, g::MoeExpertsGradOp,
          dist::ExpertParallelMoeOp, dist::ExpertParallelMoeGradOp>(op) &&
      op->getNumOperands() > 0)
    if (auto tensor = dyn_cast<ShapedType>(op->getOperand(0).getType()))
      return tensor.getElementType();
  if (op->getNumResults() == 0)
    return Type();
  if (auto tensor = dyn_cast<ShapedType>(op->getResult(0).getType()))
    return tensor.getElementType();
  return Type();
}

static const FlopRates &flopRatesOf(ComputeKind kind,
                                    const DeviceRates &rates) {
  switch (kind) {
  case ComputeKind::Product:
    return rates.products;
  case ComputeKind::Convolution:
    return rates.convolutions.f32 > 0 || rates.convolutions.lowPrecision > 0
               ? rates.convolutions
               : rates.products;
  case ComputeKind::Attention:
    return rates.attention;
  case ComputeKind::AttentionGrad:
    return rates.attentionGrad;
  case ComputeKind::Vector:
    break;
  }
  return rates.vector;
}

double mlir::paracc::predictSeconds(const OpCost &cost,
                                    const DeviceRates &rates,
                                    Type elementType) {
  return predictSeconds(cost, rates,
                        elementType &&
                            (elementType.isBF16() || elementType.isF16()));
}

double mlir::paracc::predictSeconds(const OpCost &cost,
                                    const DeviceRates &rates, bool low) {
  const FlopRates &flops = flopRatesOf(cost.kind, rates);
  double flopRate = low ? flops.lowPrecision : flops.f32;
  if (low && cost.kind == ComputeKind::Attention)
    flopRate *= attentionGrowth(cost.keys, rates.attentionHalfKeys);
  else if (low && cost.kind == ComputeKind::AttentionGrad)
    flopRate *= attentionGrowth(cost.keys, rates.attentionGradHalfKeys);
  double compute = flopRate > 0 ? double(cost.flops) / flopRate : 0;
  double memory = rates.memoryBytesPerSecond > 0
                      ? double(cost.bytes) / rates.memoryBytesPerSecond
                      : 0;
  return std::max(compute, memory) +
         double(cost.launches) * rates.launchSeconds;
}

double mlir::paracc::trainingFactor(Operation *op) {
  if (isa<g::MatMulOp, g::GemmOp, g::LinearOp, g::AttentionOp>(op))
    return 3.0;
  return 2.0;
}
