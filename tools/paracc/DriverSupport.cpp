//===- DriverSupport.cpp - What paracc's subcommands share ------*- C++ -*-===//

#include "DriverSupport.h"

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/RunDriver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::paracc;

int mlir::paracc::exitCode(CompileStatus status) {
  switch (status) {
  case CompileStatus::Ok:
    return ::paracc::rt::kExitOk;
  case CompileStatus::Error:
    return ::paracc::rt::kExitError;
  case CompileStatus::Unsupported:
    return ::paracc::rt::kExitUnsupported;
  }
  return ::paracc::rt::kExitError;
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
