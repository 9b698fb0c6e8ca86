//===- CompileStatus.h - How a compile ended --------------------*- C++ -*-===//
//
// What compileModel and compileTraining return. The diagnostics say why; the
// front doors map the status to their own codes (the tools' exit codes in
// tools/paracc, the C API's status codes in lib/CAPI).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_COMPILESTATUS_H
#define PARACC_DRIVER_COMPILESTATUS_H

namespace mlir::paracc {

enum class CompileStatus {
  Ok,
  /// The input or the options are wrong.
  Error,
  /// The model uses something paracc does not support.
  Unsupported,
};

} // namespace mlir::paracc

#endif // PARACC_DRIVER_COMPILESTATUS_H
