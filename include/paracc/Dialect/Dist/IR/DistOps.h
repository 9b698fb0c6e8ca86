//===- DistOps.h - Dist dialect attributes and ops --------------*- C++ -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTOPS_H
#define PARACC_DIALECT_DIST_IR_DISTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Dist/IR/ShardingRule.h"

#define GET_ATTRDEF_CLASSES
#include "paracc/Dialect/Dist/IR/DistAttrs.h.inc"

#define GET_OP_CLASSES
#include "paracc/Dialect/Dist/IR/DistOps.h.inc"

namespace mlir::paracc::dist {

/// The module attribute holding the mesh.
inline constexpr const char *kMeshAttrName = "dist.mesh";
/// Module attribute: the micro-batches each rank interleaves.
inline constexpr const char *kMicrobatchesAttrName = "dist.microbatches";
/// The op attribute holding its results' shardings (an ArrayAttr) and the
/// argument attribute holding an argument's sharding.
inline constexpr const char *kShardingsAttrName = "dist.shardings";
inline constexpr const char *kArgShardingAttrName = "dist.sharding";
/// A sharding a front end asked for (a ShardingAttr on a graph.weight op or
/// a function argument): paracc-user-shardings makes it the annotation.
inline constexpr const char *kUserShardingAttrName = "dist.user_sharding";
/// On a graph.linear whose partial sums are all-reduced over these mesh
/// axes (a StrArrayAttr): its bias and residual are added on the group's
/// first member only.
inline constexpr const char *kAddendsOnFirstAttrName = "dist.addends_on_first";

/// The mesh of the module enclosing `op` (null if none).
MeshAttr getMesh(Operation *op);

/// The recorded sharding of `value`, or null.
ShardingAttr getSharding(Value value);
/// Records the sharding of `value` (an op result or a function argument).
void setSharding(Value value, ShardingAttr sharding);

/// Checks that `axes` name distinct axes of the enclosing mesh.
LogicalResult verifyGroupAxes(Operation *op, ArrayAttr axes);

/// Registers the sharding rules of the graph dialect's ops.
void registerGraphShardingRules(DialectRegistry &registry);

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_IR_DISTOPS_H
