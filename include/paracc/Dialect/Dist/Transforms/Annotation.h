//===- Annotation.h - Writing sharding annotations --------------*- C++ -*-===//

#ifndef PARACC_DIALECT_DIST_TRANSFORMS_ANNOTATION_H
#define PARACC_DIALECT_DIST_TRANSFORMS_ANNOTATION_H

#include "paracc/Dialect/Dist/IR/DistOps.h"

namespace mlir::paracc::dist {

/// Closes dimension `dim` of `value`'s annotation on `axes`, keeping what
/// other dimensions say (open where nothing was said).
void annotateDim(Value value, int64_t dim, ArrayRef<StringAttr> axes);

/// Annotates every dimension of `value` (closed).
void annotate(Value value, ArrayRef<SmallVector<StringAttr>> dims);

} // namespace mlir::paracc::dist

#endif // PARACC_DIALECT_DIST_TRANSFORMS_ANNOTATION_H
