//===- FoldConstants.cpp - Evaluate ops on constants -----------*- C++ -*-===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"
#include "paracc/Encoding/KernelFolding.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;

namespace {
struct FoldConstantsPass
    : public graph::impl::FoldConstantsPassBase<FoldConstantsPass> {
  using FoldConstantsPassBase::FoldConstantsPassBase;
  void runOnOperation() override {
    for (Block &block : getOperation().getBody())
      foldConstantOps(block.begin(), block.end(), maxElements);
  }
};
} // namespace
