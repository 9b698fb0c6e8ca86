//===- paracc-opt.cpp - paracc's mlir-opt -----------------------*- C++ -*-===//
//
// Runs paracc's passes on MLIR files: the tool lit tests and other compilers
// drive.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "paracc/Pipelines/Pipelines.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::paracc::registerParaccDialects(registry);
  mlir::paracc::registerParaccPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "paracc optimizer driver\n", registry));
}
