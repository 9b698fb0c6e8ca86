//===- paracc-translate.cpp - ONNX to MLIR translation ---------*- C++ -*-===//
//
// paracc-translate --import-onnx MODEL.onnx     (binary protobuf)
// paracc-translate --import-onnx MODEL.pbtxt    (protobuf text format)
//
// Prints the graph-dialect module the importer produces; lit tests use it to
// check imported IR and importer diagnostics.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::paracc;

static llvm::cl::list<std::string>
    inputShapes("input-shape",
                llvm::cl::desc("Concrete shape of a graph input (NAME=2x64)"));

int main(int argc, char **argv) {
  TranslateToMLIRRegistration importONNX(
      "import-onnx", "Import an ONNX model into the graph dialect",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        std::string path =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                ->getBufferIdentifier()
                .str();
        ONNXImportOptions options;
        options.textFormat = StringRef(path).ends_with(".pbtxt") ||
                             StringRef(path).ends_with(".textproto");
        for (const std::string &s : inputShapes) {
          auto [name, dims] = StringRef(s).split('=');
          SmallVector<int64_t> shape;
          SmallVector<StringRef> parts;
          if (!dims.empty() && dims != "scalar")
            dims.split(parts, 'x');
          for (StringRef p : parts) {
            int64_t d = 0;
            (void)p.getAsInteger(10, d);
            shape.push_back(d);
          }
          options.inputShapes[name] = shape;
        }
        WeightStore weights;
        ONNXImportResult result =
            importONNXFile(*context, path, options, weights);
        if (!result.module)
          return nullptr;
        return OwningOpRef<Operation *>(result.module.release());
      },
      registerONNXImporterDialects);
  return failed(mlirTranslateMain(argc, argv, "paracc translation tool"));
}
