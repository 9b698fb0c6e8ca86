//===- SeedDropout.cpp - The run's seed on every dropout --------*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_SEEDDROPOUTPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc::graph;

namespace {
struct SeedDropoutPass
    : public mlir::paracc::graph::impl::SeedDropoutPassBase<SeedDropoutPass> {
  using SeedDropoutPassBase::SeedDropoutPassBase;
  void runOnOperation() override {
    auto type = IntegerType::get(&getContext(), 64);
    getOperation().walk([&](DropoutOp dropout) {
      dropout.setSeedAttr(IntegerAttr::get(type, int64_t(uint64_t(seed))));
    });
  }
};
} // namespace
