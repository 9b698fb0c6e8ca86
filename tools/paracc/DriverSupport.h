//===- DriverSupport.h - What paracc's subcommands share -------*- C++ -*-===//
//
// The pieces of the paracc driver that inference (paracc.cpp) and training
// (Train.cpp) share beyond lib/Driver: writing the executable, the train
// subcommand.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_TOOLS_PARACC_DRIVERSUPPORT_H
#define PARACC_TOOLS_PARACC_DRIVERSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "paracc/Driver/CompileStatus.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::paracc {

/// The tool's exit code for a compile's status (RunDriver.h's codes).
int exitCode(CompileStatus status);

/// Writes an executable's bytes to `path` ("wrote PATH (N bytes)").
LogicalResult writeExecutableFile(StringRef path, const uint8_t *bytes,
                                  size_t size);

/// Writes `text` to `path` (the --explain-json report).
LogicalResult writeTextFile(StringRef path, StringRef text);

/// `paracc train`: its subcommand, its option category, its entry point
/// (Train.cpp).
llvm::cl::SubCommand &trainSubCommand();
llvm::cl::OptionCategory &trainCategory();
int runTrain();

} // namespace mlir::paracc

#endif // PARACC_TOOLS_PARACC_DRIVERSUPPORT_H
