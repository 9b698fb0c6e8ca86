//===- ExitCodes.h - The tools' exit codes ----------------------*- C++ -*-===//
//
// What paracc, paracc train and paracc-run (and the worker processes they
// start) exit with; the C API maps its status codes to the same values.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_EXITCODES_H
#define PARACC_RUNTIME_EXITCODES_H

namespace paracc::rt {

/// Exit codes of the tools.
enum ExitCode : int {
  kExitOk = 0,
  /// Outputs or gradients differ from the expected ones.
  kExitMismatch = 1,
  /// Bad input or options, or a failed run.
  kExitError = 2,
  /// The model uses something paracc does not support.
  kExitUnsupported = 3,
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_EXITCODES_H
