//===- CostModel.h - Per-op FLOPs, bytes and predicted time -----*- C++ -*-===//
//
// A roofline model of the graph dialect's ops: what each op computes (FLOPs)
// and moves (bytes), and a device's rates that turn them into seconds. The
// pipeline stage planner balances stages with it; the numbers are
// approximations to rank cuts, not to predict wall-clock time exactly.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_COSTMODEL_H
#define PARACC_PLANNER_COSTMODEL_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "paracc/Compiler/Options.h"

#include <optional>
#include <string>

namespace mlir::paracc {

/// Which of a device's FLOP rates an op's arithmetic runs at.
enum class ComputeKind {
  /// Matrix products (matmul, gemm, linear): the GEMM library's rate.
  Product,
  /// Convolutions (conv, conv_transpose, conv_weight_grad): cuDNN's or
  /// im2col's rate, below a plain product's.
  Convolution,
  /// Fused attention's forward and its backward: their kernels' rates.
  Attention,
  AttentionGrad,
  /// Everything else (norms, activations, elementwise, reductions):
  /// vector units, usually limited by memory instead.
  Vector,
};

/// What one op computes and moves.
struct OpCost {
  /// Floating-point operations (a multiply-add counts two).
  int64_t flops = 0;
  /// Bytes read and written: operands plus results, except for views and
  /// gathers (which read only the rows they take).
  int64_t bytes = 0;
  /// Kernel launches (0 for weights, constants and reshapes, which are
  /// views).
  int64_t launches = 0;
  ComputeKind kind = ComputeKind::Vector;
  /// Attention and its backward: the keys' length (its rate depends on it).
  int64_t keys = 0;
};

/// FLOP/s of one kind of arithmetic, by element type.
struct FlopRates {
  /// f32 (and every type that is not bf16/f16).
  double f32 = 0;
  /// bf16 and f16.
  double lowPrecision = 0;
};

/// A device's sustained rates.
struct DeviceRates {
  std::string name;
  FlopRates products, attention, attentionGrad, vector;
  /// Memory bandwidth, bytes/s.
  double memoryBytesPerSecond = 0;
  /// Point-to-point bandwidth between two pipeline stages, bytes/s.
  double linkBytesPerSecond = 0;
  /// Collectives' bus bandwidth (the bytes each rank sends, per second).
  double collectiveBytesPerSecond = 0;
  /// Fixed cost of one op (launch, dispatch), seconds.
  double launchSeconds = 0;
  /// Low-precision attention (forward, backward) runs faster on longer
  /// sequences: its rate is the table's times (S / (S + S0)) / (1024 /
  /// (1024 + S0)) for keys of length S (the tables are calibrated at 1024);
  /// S0 = 0: the same rate at every length.
  double attentionHalfKeys = 0, attentionGradHalfKeys = 0;
  /// Convolutions' rates (a table without them costs convolutions as
  /// products).
  FlopRates convolutions;
};

/// Two CPU cores running OpenBLAS.
DeviceRates cpuRates();
/// One NVIDIA H200 with NVLink to its pipeline neighbours.
DeviceRates h200Rates();
/// H100 SXM 80 GB, A100 SXM 80 GB and 40 GB: the H200's calibrated rates
/// scaled by the spec sheets' peaks (CostModel.cpp says how).
DeviceRates h100Rates();
DeviceRates a100Rates();
DeviceRates a100With40GBRates();
/// A rate table by name.
struct RateTable {
  llvm::StringLiteral name;
  DeviceRates (*rates)();
};
/// Every table: cpu, h200, h100, a100, a100-40g.
llvm::ArrayRef<RateTable> rateTables();
/// The table named `name` (rateTables); std::nullopt for anything else.
std::optional<DeviceRates> ratesByName(llvm::StringRef name);
/// The rate table of the device a program is compiled for: "h200" for
/// "gpu", "cpu" for anything else (cpu, auto).
llvm::StringRef ratesForDevice(Device device);
/// The same, or an error on `op` naming the known ones.
FailureOr<DeviceRates> ratesByNameOrError(Operation *op, llvm::StringRef name);

/// Bytes of a ranked tensor type (0 for anything else).
int64_t bytesOfTensorType(Type type);

/// The FLOPs and bytes of one forward op. Weights, constants and state cost
/// nothing.
OpCost estimateCost(Operation *op);

/// Roofline time: max(flops / the FLOP rate of the cost's kind and
/// `elementType`, bytes / memory bandwidth) + launches x launch time.
double predictSeconds(const OpCost &cost, const DeviceRates &rates,
                      Type elementType);
/// The same for operands of a low-precision (bf16, f16) or f32 type.
double predictSeconds(const OpCost &cost, const DeviceRates &rates,
                      bool lowPrecision);

/// What a dist collective or transfer moves.
struct CollectiveCost {
  /// Bytes of the tensor it works on: its input for all_reduce,
  /// reduce_scatter, all_to_all, broadcast and send, its output for
  /// all_gather and recv.
  int64_t messageBytes = 0;
  /// Bytes each rank sends: ring algorithms; a send's message; none for a
  /// recv, whose bytes its send counts.
  double trafficBytes = 0;
  /// How trafficBytes follows from messageBytes.
  llvm::StringRef formula;
};

/// The cost of `op` if it is a dist collective or transfer over a group of
/// `groupSize` ranks; std::nullopt for anything else.
std::optional<CollectiveCost> estimateCollectiveCost(Operation *op,
                                                     int64_t groupSize);

/// Its time: the traffic at the collective bus bandwidth (a send's at the
/// point-to-point one) plus one launch.
double predictCollectiveSeconds(Operation *op, const CollectiveCost &cost,
                                const DeviceRates &rates);

/// The element type that picks an op's FLOP rate: a product's or
/// attention's first operand's, any other op's first result's.
Type costElementType(Operation *op);

/// A training step's time over the forward time of `op`: forward plus
/// backward, the backward of a product (matmul, gemm, linear) or of
/// attention being about twice its forward (two products: the input's and
/// the weight's gradient), that of the rest about once. So 3 or 2.
double trainingFactor(Operation *op);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_COSTMODEL_H
