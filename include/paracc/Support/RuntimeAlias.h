//===- RuntimeAlias.h - The runtime's namespace in the compiler -*- C++ -*-===//
//
// The runtime lives in ::paracc::rt (it has no LLVM/MLIR dependency); the
// compiler lives in mlir::paracc and refers to the runtime as `rt`.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_SUPPORT_RUNTIMEALIAS_H
#define PARACC_SUPPORT_RUNTIMEALIAS_H

namespace paracc::rt {}

namespace mlir::paracc {
namespace rt = ::paracc::rt;
} // namespace mlir::paracc

#endif // PARACC_SUPPORT_RUNTIMEALIAS_H
