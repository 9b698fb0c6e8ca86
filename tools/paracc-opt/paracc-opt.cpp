//===- paracc-opt.cpp - paracc's mlir-opt -----------------------*- C++ -*-===//
//
// Runs paracc's passes on MLIR files: the tool lit tests and other compilers
// drive.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GradientInterface.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Pipelines/Pipelines.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::paracc::graph::GraphDialect,
                  mlir::paracc::dist::DistDialect>();
  mlir::paracc::dist::registerGraphShardingRules(registry);
  mlir::paracc::graph::registerGraphGradientRules(registry);
  mlir::paracc::registerParaccPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "paracc optimizer driver\n", registry));
}
