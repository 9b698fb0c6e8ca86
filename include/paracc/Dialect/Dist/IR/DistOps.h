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

#define GET_OP_CLASSES
#include "paracc/Dialect/Dist/IR/DistOps.h.inc"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::paracc::dist {

/// Bytes of a static tensor type (0 for anything else; i1 counts a byte):
/// what a collective moves of it (CollectiveTraffic.cpp).
int64_t staticTensorBytes(Type type);

// The names of declared attributes (DistDialect.td) that passes read
// before the dialect is at hand.
/// The module attribute holding the mesh.
inline constexpr llvm::StringLiteral kMeshAttrName =
    DistDialect::MeshAttrHelper::getNameStr();
/// Module attribute: the micro-batches each rank interleaves.
inline constexpr llvm::StringLiteral kMicrobatchesAttrName =
    DistDialect::MicrobatchesAttrHelper::getNameStr();
/// The op attribute holding its results' shardings (an ArrayAttr) and the
/// argument attribute holding an argument's sharding.
inline constexpr llvm::StringLiteral kShardingsAttrName =
    DistDialect::ShardingsAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kArgShardingAttrName =
    DistDialect::ShardingAttrHelper::getNameStr();
/// A sharding a front end asked for (a ShardingAttr on a graph.weight op or
/// a function argument): paracc-user-shardings makes it the annotation.
inline constexpr llvm::StringLiteral kUserShardingAttrName =
    DistDialect::UserShardingAttrHelper::getNameStr();
/// On a graph.linear whose partial sums are all-reduced over these mesh
/// axes (a StrArrayAttr): its bias and residual are added on the group's
/// first member only.
inline constexpr llvm::StringLiteral kAddendsOnFirstAttrName =
    DistDialect::AddendsOnFirstAttrHelper::getNameStr();
/// After partitioning, on ports, weights and state: the global type and the
/// mesh-axis indices each dimension is split over.
inline constexpr llvm::StringLiteral kGlobalTypeAttrName =
    DistDialect::GlobalTypeAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kShardDimsAttrName =
    DistDialect::ShardDimsAttrHelper::getNameStr();

/// Records what tensor parallelism decided for `op` (`dist.tp_role`) and
/// why (`dist.tp_reason`).
void setTensorParallelDecision(Operation *op, TensorParallelRole role,
                               StringRef reason);
/// Copies `from`'s tensor-parallel decision, if any, to `to` (an op that
/// replaces it).
void copyTensorParallelDecision(Operation *from, Operation *to);
/// The tensor-parallel role recorded on `op`, if any.
std::optional<TensorParallelRole> getTensorParallelRole(Operation *op);
/// The role as reports spell it ("column", "row", "vocab-parallel").
std::string tensorParallelRoleLabel(TensorParallelRole role);

/// The mesh of the module enclosing `op` (null if none).
MeshAttr getMesh(Operation *op);
/// `module`'s mesh; null, with an error on the module, when it has none
/// (what a pass that needs one reports).
MeshAttr requireMesh(ModuleOp module);

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
