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

#include <optional>
#include <string>

namespace mlir::paracc {

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
};

/// A device's sustained rates.
struct DeviceRates {
  std::string name;
  /// FLOP/s of f32 products (and of every op whose type is not bf16/f16).
  double flopsF32 = 0;
  /// FLOP/s of bf16 and f16 products.
  double flopsLowPrecision = 0;
  /// Memory bandwidth, bytes/s.
  double memoryBytesPerSecond = 0;
  /// Point-to-point bandwidth between two pipeline stages, bytes/s.
  double linkBytesPerSecond = 0;
  /// Fixed cost of one op (launch, dispatch), seconds.
  double launchSeconds = 0;
};

/// Two CPU cores running OpenBLAS.
DeviceRates cpuRates();
/// One NVIDIA H200 with NVLink to its pipeline neighbours.
DeviceRates h200Rates();
/// "cpu" or "h200"; std::nullopt for anything else.
std::optional<DeviceRates> ratesByName(llvm::StringRef name);
/// The same, or an error on `op` naming the known ones.
FailureOr<DeviceRates> ratesByNameOrError(Operation *op, llvm::StringRef name);

/// Bytes of a ranked tensor type (0 for anything else).
int64_t bytesOfTensorType(Type type);

/// The FLOPs and bytes of one forward op. Weights, constants and state cost
/// nothing.
OpCost estimateCost(Operation *op);

/// Roofline time: max(flops / FLOP rate for `elementType`, bytes / memory
/// bandwidth) + launches x launch time.
double predictSeconds(const OpCost &cost, const DeviceRates &rates,
                      Type elementType);

/// The element type that picks an op's FLOP rate: its first result's.
Type costElementType(Operation *op);

/// A training step's time over the forward time of `op`: forward plus
/// backward, the backward of a product (matmul, gemm, linear) or of
/// attention being about twice its forward (two products: the input's and
/// the weight's gradient), that of the rest about once. So 3 or 2.
double trainingFactor(Operation *op);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_COSTMODEL_H
