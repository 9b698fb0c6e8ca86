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
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::paracc {

/// The tool's exit code for a failed compile (RunDriver.h's codes):
/// unsupported, or an error.
int failedCompileExitCode(const CompileDiagnostics &diagnostics);

/// compile() in a context of its own, errors to stderr and notes to
/// stdout; on failure `exitCode` is the tool's (failedCompileExitCode).
FailureOr<CompiledProgram> compileModel(const ModelSource &source,
                                        const CompileOptions &options,
                                        int &exitCode);

/// Writes an executable's bytes to `path` ("wrote PATH (N bytes)").
LogicalResult writeExecutableFile(StringRef path, const uint8_t *bytes,
                                  size_t size);

/// Writes `text` to `path` (the --explain-json report).
LogicalResult writeTextFile(StringRef path, StringRef text);

/// Sets `phase` to where --compile-to (or its older alias --emit, whose
/// values map to phases by `emitAliases`) stops the compile; std::nullopt
/// when neither is given. A bad --emit value, or both flags, is an error
/// (to llvm::errs()).
LogicalResult
resolveCompileTo(const llvm::cl::opt<CompilePhase> &compileTo, StringRef emit,
                 ArrayRef<std::pair<StringRef, CompilePhase>> emitAliases,
                 std::optional<CompilePhase> &phase);

/// `paracc train`: its subcommand, its option category, its options (the
/// bound ones are made by declareTrainOptions, before the command line is
/// parsed), its entry point (Train.cpp).
llvm::cl::SubCommand &trainSubCommand();
llvm::cl::OptionCategory &trainCategory();
void declareTrainOptions();
int runTrain();

/// `paracc plan` (Plan.cpp).
llvm::cl::SubCommand &planSubCommand();
llvm::cl::OptionCategory &planCategory();
void declarePlanOptions();
int runPlan();

} // namespace mlir::paracc

#endif // PARACC_TOOLS_PARACC_DRIVERSUPPORT_H
