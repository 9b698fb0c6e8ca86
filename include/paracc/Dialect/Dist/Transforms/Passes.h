//===- Passes.h - Sharding and partitioning passes --------------*- C++ -*-===//

#ifndef PARACC_DIALECT_DIST_TRANSFORMS_PASSES_H
#define PARACC_DIALECT_DIST_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "paracc/Compiler/Options.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::dist {

#define GEN_PASS_DECL
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_TRANSFORMS_PASSES_H
