//===- Context.cpp - An MLIRContext set up for paracc -----------*- C++ -*-===//

#include "paracc/Driver/Context.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "paracc/Pipelines/Pipelines.h"
#include "paracc/runtime/PrintableText.h"

using namespace mlir;
using namespace mlir::paracc;

void mlir::paracc::printDiagnostic(Diagnostic &diag, llvm::raw_ostream &os) {
  std::string file;
  if (auto loc = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    file = loc.getFilename().str();
    if (loc.getLine() > 0)
      file += ":" + std::to_string(loc.getLine()) + ":" +
              std::to_string(loc.getColumn());
  }
  const char *kind = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                     : diag.getSeverity() == DiagnosticSeverity::Warning
                         ? "warning"
                         : "note";
  // Paths, names and op types in a message come from the input file: print
  // them as text whatever bytes they hold.
  os << (file.empty() ? "paracc" : ::paracc::rt::printableText(file)) << ": "
     << kind << ": " << ::paracc::rt::printableText(diag.str()) << "\n";
  for (Diagnostic &note : diag.getNotes())
    printDiagnostic(note, os);
}

void mlir::paracc::setUpParaccContext(MLIRContext &context,
                                      llvm::raw_ostream &diagnostics) {
  context.getDiagEngine().registerHandler([&diagnostics](Diagnostic &diag) {
    printDiagnostic(diag, diagnostics);
    return success();
  });
  DialectRegistry registry;
  registerONNXImporterDialects(registry);
  registerParaccDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  // Errors name the op and its location; the whole op adds nothing.
  context.printOpOnDiagnostic(false);
}
