//===- Compile.cpp - A model to an executable, in one call ------*- C++ -*-===//

#include "paracc/Driver/Compile.h"

#include "CompileSteps.h"

using namespace mlir;
using namespace mlir::paracc;

FailureOr<CompiledProgram>
mlir::paracc::compile(MLIRContext &context, const ModelSource &source,
                      const CompileOptions &options,
                      CompileDiagnostics &diagnostics) {
  CompiledProgram result;
  LogicalResult compiled =
      options.training
          ? compileTrainingStep(context, source, options, *options.training,
                                result, diagnostics)
          : compileInference(context, source, options, result, diagnostics);
  if (failed(compiled))
    return failure();
  return result;
}
