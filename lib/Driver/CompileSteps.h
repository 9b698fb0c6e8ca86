//===- CompileSteps.h - The halves of compile() -----------------*- C++ -*-===//
//
// Private to lib/Driver: importing a model, and the inference and training
// compiles that compile() (Compile.h) chooses between.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DRIVER_COMPILESTEPS_H
#define PARACC_LIB_DRIVER_COMPILESTEPS_H

#include "mlir/IR/OwningOpRef.h"
#include "paracc/Driver/Compile.h"

namespace mlir::paracc {

/// Imports `source` (ONNX binary or text, graph-dialect MLIR, StableHLO)
/// into a module of graph-dialect ops, its weights' data into `weights`
/// (weights without data filled from options.seed when allowed). Null on
/// failure, with `diagnostics.unsupported` set when the model uses
/// something paracc does not support.
OwningOpRef<ModuleOp> importModel(MLIRContext &context,
                                  const ModelSource &source,
                                  const CompileOptions &options,
                                  WeightStore &weights,
                                  CompileDiagnostics &diagnostics);

/// The module's IR as text, as --compile-to prints it (and paracc-opt
/// would).
std::string printIR(ModuleOp module);

/// compile() for inference.
LogicalResult compileInference(MLIRContext &context, const ModelSource &source,
                               const CompileOptions &options,
                               CompiledProgram &result,
                               CompileDiagnostics &diagnostics);

/// compile() for a training step (`training` is options.training).
LogicalResult compileTrainingStep(MLIRContext &context,
                                  const ModelSource &source,
                                  const CompileOptions &options,
                                  const TrainingOptions &training,
                                  CompiledProgram &result,
                                  CompileDiagnostics &diagnostics);

} // namespace mlir::paracc

#endif // PARACC_LIB_DRIVER_COMPILESTEPS_H
