//===- CostModel.cpp - Per-op FLOPs, bytes and predicted time ---*- C++ -*-===//

#include "paracc/Planner/CostModel.h"

#include "mlir/IR/BuiltinTypes.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

// The rates are per rank:
// - CPU: one core per rank, calibrated by bench/run-pipeline-cpu.sh
//   (bench/results/2026-12-01-cpu-pipeline: 16-core device host, OpenBLAS
//   on one thread per rank): the first table (40 GFLOP/s, 5 GB/s) predicted
//   every stage's time 2.8-3.9x too low (layers 2.8-3.3x, the LM head and
//   its loss 3.4x, the embedding's backward 3.9x), so the rates are a third
//   of it: ~13 GFLOP/s f32 (bf16/f16 converted, at half that), ~1.7 GB/s of
//   streaming per rank, a ~2 GB/s shared-memory transfer between ranks and
//   ~2 us of dispatch per op in the interpreter. (The relative costs, which
//   decide the cut, were within ~20 % of the measured ones.)
// - H200: ~400 TFLOP/s effective of the 989 dense bf16 tensor-core peak,
//   ~200 TFLOP/s for f32 run as TF32, 3.3 TB/s of the 4.8 TB/s HBM3e peak,
//   ~150 GB/s of NVLink point-to-point between two GPUs (of 450 GB/s per
//   direction), ~5 us of launch and synchronization per op.
DeviceRates mlir::paracc::cpuRates() {
  return {"cpu", 13e9, 6.5e9, 1.7e9, 2e9, 2e-6};
}

DeviceRates mlir::paracc::h200Rates() {
  return {"h200", 200e12, 400e12, 3.3e12, 150e9, 5e-6};
}

std::optional<DeviceRates> mlir::paracc::ratesByName(llvm::StringRef name) {
  if (name == "cpu")
    return cpuRates();
  if (name == "h200")
    return h200Rates();
  return std::nullopt;
}

FailureOr<DeviceRates> mlir::paracc::ratesByNameOrError(Operation *op,
                                                        llvm::StringRef name) {
  if (std::optional<DeviceRates> rates = ratesByName(name))
    return *rates;
  return op->emitError("unknown device rates '")
         << name << "', expected 'cpu' or 'h200'";
}

int64_t mlir::paracc::bytesOfTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  Type element = tensor.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return tensor.getNumElements() * std::max<int64_t>((bits + 7) / 8, 1);
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
                              bool sequenceFirst) {
  // [..., Sq, D] or, sequence first, [..., Sq, H, D].
  int64_t seqFromEnd = sequenceFirst ? 3 : 2;
  int64_t sq = dimFromEnd(q, seqFromEnd);
  int64_t sk = dimFromEnd(k, seqFromEnd);
  int64_t d = dimFromEnd(q, 1), dv = dimFromEnd(v, 1);
  int64_t batchHeads = numElements(q) / std::max<int64_t>(sq * d, 1);
  int64_t flops = 2 * batchHeads * sq * sk * (d + dv);
  return causal ? flops / 2 : flops;
}

OpCost mlir::paracc::estimateCost(Operation *op) {
  OpCost c;
  if (isa<g::WeightOp, g::ConstantOp, g::StateOp>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return c;
  c.launches = 1;
  c.bytes = operandBytes(op) + resultBytes(op);
  int64_t out = resultElements(op);

  if (auto mm = dyn_cast<g::MatMulOp>(op)) {
    // 2 M N K over the broadcast batch: the result has M x N per batch.
    c.flops = 2 * out * dimFromEnd(mm.getLhs(), 1);
  } else if (auto gemm = dyn_cast<g::GemmOp>(op)) {
    auto a = cast<RankedTensorType>(gemm.getA().getType());
    int64_t k = a.getRank() == 2 ? a.getDimSize(gemm.getTransA() ? 0 : 1) : 1;
    c.flops = 2 * out * k + (gemm.getC() ? out : 0);
  } else if (auto linear = dyn_cast<g::LinearOp>(op)) {
    c.flops = 2 * out * dimFromEnd(linear.getX(), 1);
    // The epilogue: one op per element each for bias, residual, activation.
    c.flops +=
        out * ((linear.getBias() ? 1 : 0) + (linear.getResidual() ? 1 : 0) +
               (linear.getActivation() != "none" ? 8 : 0));
  } else if (auto att = dyn_cast<g::AttentionOp>(op)) {
    c.flops = attentionFlops(att.getQ(), att.getK(), att.getV(),
                             att.getCausal(), att.getSequenceFirst());
  } else if (auto grad = dyn_cast<g::AttentionGradOp>(op)) {
    // Recomputes the probabilities and takes four more products.
    c.flops = attentionFlops(grad.getQ(), grad.getK(), grad.getV(),
                             grad.getCausal(), grad.getSequenceFirst()) *
              5 / 2;
  } else if (isa<g::GatherOp, g::GatherElementsOp, g::GatherNDOp>(op)) {
    // Reads the rows it takes, not the whole table.
    c.bytes =
        bytesOfTensorType(op->getOperand(1).getType()) + 2 * resultBytes(op);
  } else if (isa<g::ReshapeOp>(op)) {
    c = OpCost();
  } else if (isa<g::LayerNormOp, g::RmsNormOp, g::SoftmaxOp, g::LogSoftmaxOp,
                 g::LayerNormGradOp, g::RmsNormGradOp, g::SoftmaxCrossEntropyOp,
                 g::CrossEntropyGradOp, g::NllLossOp>(op)) {
    // Statistics, normalization and scale: a few ops per input element.
    c.flops = 5 * numElements(op->getOperand(0));
  } else if (isa<g::GeluOp, g::GeluGradOp>(op)) {
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

Type mlir::paracc::costElementType(Operation *op) {
  if (op->getNumResults() == 0)
    return Type();
  if (auto tensor = dyn_cast<ShapedType>(op->getResult(0).getType()))
    return tensor.getElementType();
  return Type();
}

double mlir::paracc::predictSeconds(const OpCost &cost,
                                    const DeviceRates &rates,
                                    Type elementType) {
  bool low = elementType && (elementType.isBF16() || elementType.isF16());
  double flopRate = low ? rates.flopsLowPrecision : rates.flopsF32;
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
