//===- Compile.cpp - A model to an executable, in one call ------*- C++ -*-===//

#include "paracc/Driver/Compile.h"

#include "CompileSteps.h"
#include "paracc/Driver/Plan.h"

using namespace mlir;
using namespace mlir::paracc;

FailureOr<CompiledProgram>
mlir::paracc::compile(MLIRContext &context, const ModelSource &source,
                      const CompileOptions &options,
                      CompileDiagnostics &diagnostics) {
  // mesh "auto": the planner's choice, compiled like a plan given by hand.
  if (options.mesh == "auto") {
    std::string error;
    std::optional<Cluster> cluster =
        resolveCluster(options.cluster, options.device, error);
    if (!cluster) {
      diagnostics.errors << "paracc: error: --cluster: " << error << "\n";
      return failure();
    }
    CompileOptions planned = options;
    if (failed(chooseAutoPlan(context, source, planned, *cluster, diagnostics)))
      return failure();
    return compile(context, source, planned, diagnostics);
  }
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
