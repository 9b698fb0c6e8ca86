//===- Context.h - An MLIRContext set up for paracc ------------*- C++ -*-===//
//
// What every front end of the compiler (the paracc tool, the C API) does to a
// context before importing a model: load paracc's dialects with their
// sharding and gradient rules, and print diagnostics to a stream of its
// choice as "FILE:LINE:COL: error: MESSAGE".
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_CONTEXT_H
#define PARACC_DRIVER_CONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::paracc {

/// Prints `diag` as "FILE:LINE:COL: error: MESSAGE" (or "paracc: error:
/// MESSAGE" without a file location), then its notes, to `os`.
void printDiagnostic(Diagnostic &diag, llvm::raw_ostream &os);

/// Loads paracc's dialects (with their sharding and gradient rules) into
/// `context` and prints its diagnostics to `diagnostics`, which must outlive
/// the context's use.
void setUpParaccContext(MLIRContext &context, llvm::raw_ostream &diagnostics);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_CONTEXT_H
