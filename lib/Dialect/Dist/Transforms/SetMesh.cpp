//===- SetMesh.cpp - The module's device mesh -------------------*- C++ -*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "paracc/Compiler/Options.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_SETMESHPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;

namespace {
struct SetMeshPass : public dist::impl::SetMeshPassBase<SetMeshPass> {
  using SetMeshPassBase::SetMeshPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::optional<MeshSpec> spec = parseMeshSpec(mesh, "mesh", error);
    if (!spec) {
      module.emitError(error);
      return signalPassFailure();
    }
    if (microbatches < 1 || microbatches > 64) {
      module.emitError("microbatches must be in [1, 64], got ")
          << int64_t(microbatches);
      return signalPassFailure();
    }
    if (spec->empty()) {
      if (microbatches > 1) {
        module.emitError("microbatches > 1 need a mesh");
        return signalPassFailure();
      }
      return;
    }
    if (dataShards < 0) {
      module.emitError("data-shards must be >= 0, got ") << int64_t(dataShards);
      return signalPassFailure();
    }
    // Hybrid sharding: dp(D) -> dpr(D / N), dp(N).
    if (dataShards > 0) {
      int64_t dp = spec->size("dp");
      if (dp == 0 || dp % dataShards != 0) {
        module.emitError("data-shards ")
            << int64_t(dataShards) << " must divide the dp axis (of size " << dp
            << ")";
        return signalPassFailure();
      }
      if (dataShards < dp) {
        auto at = llvm::find_if(
            spec->axes, [](const MeshSpec::Axis &a) { return a.name == "dp"; });
        at->size = dataShards;
        spec->axes.insert(at, {"dpr", dp / dataShards});
      }
    }
    // The pipeline's micro-batches (even 1), or interleaved ones.
    if (spec->size("pp") > 0 || microbatches > 1)
      spec->axes.push_back({"mb", microbatches});
    SmallVector<StringAttr> names;
    SmallVector<int64_t> sizes;
    for (const MeshSpec::Axis &axis : spec->axes) {
      names.push_back(StringAttr::get(&getContext(), axis.name));
      sizes.push_back(axis.size);
    }
    module->setAttr(dist::kMeshAttrName,
                    dist::MeshAttr::get(&getContext(), names, sizes));
  }
};
} // namespace
