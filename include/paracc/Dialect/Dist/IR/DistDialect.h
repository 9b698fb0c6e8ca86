//===- DistDialect.h - Dist dialect -----------------------------*- C++ -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTDIALECT_H
#define PARACC_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "paracc/Dialect/Dist/IR/DistDialect.h.inc"

#endif // PARACC_DIALECT_DIST_IR_DISTDIALECT_H
