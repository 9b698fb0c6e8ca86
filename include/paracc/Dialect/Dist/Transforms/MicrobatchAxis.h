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

namespace mlir::paracc::dist {

class AxisIndexOp;
class LocalShardOp;

/// The dim of a `paracc.shard_dims` list split over mesh axis `axis`, or -1.
int64_t microbatchDim(ArrayAttr shardDims, int32_t axis);

/// `shardDims` without mesh axis `axis`.
ArrayAttr withoutMeshAxis(ArrayAttr shardDims, int32_t axis);

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

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_TRANSFORMS_MICROBATCHAXIS_H
