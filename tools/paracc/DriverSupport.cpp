//===- DriverSupport.cpp - What paracc's subcommands share ------*- C++ -*-===//

#include "DriverSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::paracc;

LogicalResult mlir::paracc::writeExecutableFile(StringRef path,
                                                const uint8_t *bytes,
                                                size_t size) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "paracc: error: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return failure();
  }
  out.write(reinterpret_cast<const char *>(bytes), size);
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
