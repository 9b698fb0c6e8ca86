//===- distribute_mlir.cpp - paracc's passes in another MLIR tool ---------===//
//
// distribute_mlir FILE.mlir MESH
//
// What an MLIR-based compiler that embeds paracc does (Paracc::Passes):
// register paracc's dialects, parse graph-dialect IR, give the module a
// mesh and run paracc's distribution pipeline on it, then print the
// sharded program. Checks that a tensor-parallel MLP got its one
// all-reduce (the row-parallel product's partial sums). Exit 0 when it did.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Pipelines/Pipelines.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: distribute_mlir FILE.mlir tpN\n";
    return 2;
  }
  std::string mesh = argv[2];
  int64_t size = 0;
  if (mesh.size() < 3 || mesh.compare(0, 2, "tp") != 0 ||
      (size = std::stoll(mesh.substr(2))) < 1) {
    llvm::errs() << "distribute_mlir: the mesh must be tpN\n";
    return 2;
  }
  llvm::outs() << "libParaccPasses " << paracc::passesLibraryVersion()
               << "\n";

  DialectRegistry registry;
  paracc::registerParaccDialects(registry);
  MLIRContext context(registry);
  // The mesh attribute below belongs to the dist dialect: load it (and the
  // others) before making attributes of it.
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 2;
  (*module)->setAttr(
      paracc::dist::kMeshAttrName,
      paracc::dist::MeshAttr::get(&context, {StringAttr::get(&context, "tp")},
                                  {size}));
  PassManager pm(&context);
  paracc::DistributePipelineOptions options;
  paracc::buildDistributePipeline(pm, options);
  if (failed(pm.run(*module)))
    return 2;
  module->print(llvm::outs());

  int allReduces = 0;
  module->walk([&](paracc::dist::AllReduceOp) { ++allReduces; });
  llvm::outs() << "all-reduces: " << allReduces << "\n";
  return allReduces == 1 ? 0 : 1;
}
