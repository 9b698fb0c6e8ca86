//===- MicrobatchAxis.h - The virtual micro-batch mesh axis ----*- C++ -*-===//
//
// Micro-batches are partitioned as the last axis of the mesh, a virtual one
// whose members all run on the same rank. The passes that turn that axis
// into per-micro-batch clones (interleaved micro-batches, pipeline stages)
// share these helpers: where an argument is split over it, and what an
// axis index or a local shard over it becomes for micro-batch `c`.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_TRANSFORMS_MICROBATCHAXIS_H
#define PARACC_DIALECT_DIST_TRANSFORMS_MICROBATCHAXIS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"

namespace mlir::paracc::dist {

class AxisIndexOp;
class LocalShardOp;

/// The dim of a `dist.shard_dims` list split over mesh axis `axis`, or -1.
int64_t microbatchDim(ArrayAttr shardDims, int32_t axis);

/// `shardDims` without mesh axis `axis`.
ArrayAttr withoutMeshAxis(ArrayAttr shardDims, int32_t axis);

/// `type` holding all `count` micro-batches along `dim` (unchanged when
/// `dim` is -1: a value not split over them).
Type wholeMicrobatchType(Type type, int64_t dim, int64_t count);

/// Makes `module`'s mesh `mesh` without its last axis (the micro-batch
/// axis, whose size `count` the module then records as its micro-batches),
/// once the micro-batches are spelled out.
void dropMicrobatchAxis(ModuleOp module, MeshAttr mesh, int64_t count);

/// Whether the string array `axes` names `name`.
bool hasMeshAxis(ArrayAttr axes, StringRef name);

/// Micro-batch `c` of `count` of `x`, sliced along `dim`.
Value sliceMicrobatch(OpBuilder &b, Location loc, Value x, int64_t dim,
                      int64_t c, int64_t count);

/// `index` (an axis index whose last axis is the micro-batch axis) for
/// micro-batch `c`: the index over the other axes times `count`, plus `c`.
FailureOr<Value> microbatchAxisIndex(OpBuilder &b, AxisIndexOp index,
                                     StringAttr mbAxis, int64_t c,
                                     int64_t count);

/// `shard` (a local shard split over the micro-batch axis, last) for
/// micro-batch `c`, `x` its operand there: the block over the other axes,
/// then its c-th piece.
FailureOr<Value> microbatchLocalShard(OpBuilder &b, LocalShardOp shard,
                                      Value x, StringAttr mbAxis, int64_t c,
                                      int64_t count);

/// Emits `op` for micro-batch `c` of `count` at `b`'s insertion point, its
/// operands looked up in `operands`, and maps its results in `results`: an
/// axis index or a local shard over the micro-batch axis `mbAxis` becomes
/// the micro-batch's own, anything else a clone (marked `dist.microbatch`
/// when it carries a tensor-parallel decision that reports list once).
/// Returns the clone, or null for a rewritten axis index / local shard.
FailureOr<Operation *> cloneForMicrobatch(OpBuilder &b, Operation *op,
                                          IRMapping &operands,
                                          IRMapping &results,
                                          StringAttr mbAxis, int64_t c,
                                          int64_t count);

/// An argument's or result's attributes with `dist.shard_dims` not
/// naming mesh axis `axis` any more.
DictionaryAttr withoutMeshAxisInAttrs(DictionaryAttr attrs, int32_t axis);

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_TRANSFORMS_MICROBATCHAXIS_H
