//===- DistDialect.h - Dist dialect -----------------------------*- C++ -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTDIALECT_H
#define PARACC_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"
#include "paracc/Compiler/Options.h"

// The attributes come first: the dialect's helpers for its declared
// attributes (DistDialect.td) are typed with them.
#include "paracc/Dialect/Dist/IR/DistEnums.h.inc"

namespace mlir::paracc::dist {
class DistDialect;
} // namespace mlir::paracc::dist

#define GET_ATTRDEF_CLASSES
#include "paracc/Dialect/Dist/IR/DistAttrs.h.inc"

#include "paracc/Dialect/Dist/IR/DistDialect.h.inc"

#endif // PARACC_DIALECT_DIST_IR_DISTDIALECT_H
