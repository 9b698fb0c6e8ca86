//===- ValuesOverRanks.h - A scalar's value on every rank -------*- C++ -*-===//
//
// The values an i64 scalar of a partitioned program takes across the ranks
// of its mesh, when it is computed from constants and dist.axis_index by
// neg, add, sub, mul and a gather from a constant table (what the partitioner
// writes for a block's position: a context-parallel attention's start).
// The encoder proves instruction flags with it.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_ENCODING_VALUESOVERRANKS_H
#define PARACC_LIB_ENCODING_VALUESOVERRANKS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::paracc {

/// The values of the 0-d integer `scalar` over every combination of the
/// mesh coordinates it depends on (any order, repeats kept), or nullopt when
/// it is computed some other way or the module has no mesh.
std::optional<llvm::SmallVector<int64_t>> valuesOverRanks(Value scalar);

} // namespace mlir::paracc

#endif // PARACC_LIB_ENCODING_VALUESOVERRANKS_H
