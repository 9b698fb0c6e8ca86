//===- ExecutableAttrs.h - Attributes the executable writer reads -*- C++ -*-===//
//
// The attributes through which the partitioner tells the executable writer
// about the mesh and each port's and weight's global type and sharding:
//   func attrs:   paracc.mesh_axes = ["dp", "tp"], paracc.mesh_sizes = [2, 4]
//   arg/result/weight attrs: paracc.global_type = tensor<...>,
//                 paracc.shard_dims = [[axis indices] per dim]
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_TARGET_EXECUTABLE_EXECUTABLEATTRS_H
#define PARACC_TARGET_EXECUTABLE_EXECUTABLEATTRS_H

namespace mlir::paracc {

inline constexpr const char *kMeshAxesAttr = "paracc.mesh_axes";
inline constexpr const char *kMeshSizesAttr = "paracc.mesh_sizes";
inline constexpr const char *kGlobalTypeAttr = "paracc.global_type";
inline constexpr const char *kShardDimsAttr = "paracc.shard_dims";

} // namespace mlir::paracc

#endif // PARACC_TARGET_EXECUTABLE_EXECUTABLEATTRS_H
