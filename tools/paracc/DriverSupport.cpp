//===- DriverSupport.cpp - What paracc's subcommands share ------*- C++ -*-===//

#include "DriverSupport.h"

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/RunDriver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::paracc;

int mlir::paracc::failedCompileExitCode(const CompileDiagnostics &diagnostics) {
  return diagnostics.unsupported ? ::paracc::rt::kExitUnsupported
                                 : ::paracc::rt::kExitError;
}

FailureOr<CompiledProgram>
mlir::paracc::compileModel(const ModelSource &source,
                           const CompileOptions &options, int &exitCode) {
  MLIRContext context;
  setUpParaccContext(context, llvm::errs());
  CompileDiagnostics diagnostics(llvm::errs(), llvm::outs());
  FailureOr<CompiledProgram> compiled =
      compile(context, source, options, diagnostics);
  if (failed(compiled))
    exitCode = failedCompileExitCode(diagnostics);
  return compiled;
}

LogicalResult mlir::paracc::writeExecutableFile(StringRef path,
                                                const uint8_t *bytes,
                                                size_t size) {
  // Atomically: a failed write leaves the executable that was there.
  if (::paracc::rt::Status st =
          ::paracc::rt::writeFileAtomically(path.str(), bytes, size);
      !st) {
    llvm::errs() << "paracc: error: " << st.message() << "\n";
    return failure();
  }
  llvm::outs() << "wrote " << path << " (" << size << " bytes)\n";
  return success();
}

LogicalResult mlir::paracc::writeTextFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec) {
    llvm::errs() << "paracc: error: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return failure();
  }
  out << text;
  return success();
}

LogicalResult mlir::paracc::resolveCompileTo(
    const llvm::cl::opt<CompilePhase> &compileTo, StringRef emit,
    ArrayRef<std::pair<StringRef, CompilePhase>> emitAliases,
    std::optional<CompilePhase> &phase) {
  phase.reset();
  if (emit.empty()) {
    if (compileTo.getNumOccurrences() != 0)
      phase = compileTo.getValue();
    return success();
  }
  if (compileTo.getNumOccurrences() != 0) {
    llvm::errs() << "paracc: error: --emit is the older spelling of "
                    "--compile-to; give one of them\n";
    return failure();
  }
  for (auto [name, alias] : emitAliases)
    if (emit == name) {
      phase = alias;
      return success();
    }
  llvm::errs() << "paracc: error: --emit must be";
  for (auto [i, alias] : llvm::enumerate(emitAliases))
    llvm::errs() << (i == 0 ? " '" : " or '") << alias.first << "'";
  llvm::errs() << ", got '" << emit << "' (--compile-to takes a phase: "
               << optionChoices<CompilePhase>() << ")\n";
  return failure();
}
