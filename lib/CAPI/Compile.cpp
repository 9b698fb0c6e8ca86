//===- Compile.cpp - The C API's compile entry points -----------*- C++ -*-===//

#include "CAPIObjects.h"

#include "mlir/IR/MLIRContext.h"
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/Plan.h"
#include "paracc/Driver/StepMemoryPlan.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

using namespace mlir::paracc;
using namespace paracc::capi;

/// The value of option `key` when it is set, from E's table; false with
/// `err` written when it is not one of E's values.
template <typename E>
static bool enumOption(const paracc_options *options, const char *key, E &value,
                       llvm::raw_ostream &err) {
  if (!hasOption(options, key))
    return true;
  const std::string text = optionValue(options, key, "");
  if (std::optional<E> v = parseOptionValue<E>(text)) {
    value = *v;
    return true;
  }
  err << "paracc: error: option '" << key << "': " << badOptionValue<E>(text)
      << "\n";
  return false;
}

/// The compile options that `options` sets (the paracc tool's defaults
/// otherwise); false with `err` written on a bad input shape or value.
static bool compileOptions(const paracc_options *options,
                           CompileOptions &result, llvm::raw_ostream &err) {
  result.mesh = optionValue(options, "mesh", "");
  result.cluster = optionValue(options, "cluster", "local");
  result.sequenceParallel = optionFlag(options, "sp");
  result.microbatches = optionInteger(options, "microbatches", 1);
  result.stages = optionValue(options, "stages", "auto");
  // "schedule": the key's name before pipeline-schedule.
  if (!enumOption(options, "schedule", result.schedule, err) ||
      !enumOption(options, "pipeline-schedule", result.schedule, err) ||
      !enumOption(options, "precision", result.precision, err) ||
      !enumOption(options, "device", result.device, err))
    return false;
  result.virtualStages = optionInteger(options, "virtual-stages", 0);
  result.import.allowMissingWeightData = optionFlag(options, "random-weights");
  result.embedWeights = optionFlag(options, "embed-weights");
  result.seed = uint64_t(optionInteger(options, "seed", 0));
  // The report is the C API's explain(): always made.
  result.explain = true;
  for (const std::string &shape : optionValues(options, "input-shape"))
    if (mlir::failed(parseShapeOption(shape, result.import, err)))
      return false;
  return true;
}

/// The training compile's options (besides the shared ones): the shapes of
/// a token model, the loss, the optimizer, recompute; false with `err`
/// written when one is wrong.
static bool trainingOptions(const paracc_options *options,
                            CompileOptions &compile, llvm::raw_ostream &err) {
  TrainingOptions &result = compile.training.emplace();
  if (compile.import.inputShapes.empty()) {
    // Token models: every input is [batch, seq].
    if (!hasOption(options, "batch") || !hasOption(options, "seq")) {
      err << "paracc: error: train=1 needs batch and seq (a token model's "
             "[batch, seq] inputs) or input-shape for every input\n";
      return false;
    }
    int64_t batch = optionInteger(options, "batch", 0);
    int64_t seq = optionInteger(options, "seq", 0);
    if (batch < 1 || seq < 1) {
      err << "paracc: error: --batch and --seq must be >= 1\n";
      return false;
    }
    for (int i = 0; i < 16; ++i)
      compile.import.inputShapesByPosition.push_back(
          mlir::SmallVector<int64_t>{batch, seq});
  }
  result.loss = optionValue(options, "loss", "");
  result.freeze = optionValue(options, "freeze", "");
  result.trainOnly = optionValue(options, "train-only", "");
  result.autoFreeze = !optionFlag(options, "no-auto-freeze");
  std::optional<double> weightDecay;
  if (hasOption(options, "weight-decay"))
    weightDecay = optionNumber(options, "weight-decay", 0);
  mlir::paracc::graph::OptimizerPassOptions optimizer;
  if (mlir::failed(parseOptimizerOptions(
          optionValue(options, "optimizer", "adamw"),
          optionValue(options, "betas", "0.9,0.999"),
          optionNumber(options, "eps", 1e-8), weightDecay,
          optionNumber(options, "momentum", 0),
          optionNumber(options, "clip-grad-norm", 0), optimizer, err)))
    return false;
  result.optimizer = optimizer;
  if (!enumOption(options, "recompute", result.recompute, err))
    return false;
  if (hasOption(options, "memory-budget")) {
    std::string error;
    result.memoryBudget =
        parseByteSize(optionValue(options, "memory-budget", ""), error);
    if (!result.memoryBudget) {
      err << "paracc: error: --memory-budget: " << error << "\n";
      return false;
    }
  }
  result.bucketMb = optionNumber(options, "bucket-mb", 25.0);
  result.zero = optionInteger(options, "zero", 0);
  result.zeroPrefetch = optionInteger(options, "zero-prefetch", 1);
  result.zeroShardSize = optionInteger(options, "zero-shard-size", 0);
  result.dropoutSeed = uint64_t(optionInteger(options, "dropout-seed", 0));
  return true;
}

namespace {
/// What a compile entry point sets up: the options it reads, a context, and
/// the messages (notes, such as auto recompute's tries, are not errors).
struct CompileCall {
  std::string messages, notes;
  llvm::raw_string_ostream err{messages}, notesStream{notes};
  CompileOptions options;
  mlir::MLIRContext context;
  CompileDiagnostics diagnostics{err, notesStream};

  CompileCall() { setUpParaccContext(context, err); }
  /// Reads `given` (the training compile's options with train=1); an error
  /// status when one is wrong.
  paracc_status *read(const paracc_options *given) {
    if (!compileOptions(given, options, err) ||
        (optionFlag(given, "train") && !trainingOptions(given, options, err)))
      return makeStatus(PARACC_ERROR, messages);
    return nullptr;
  }
  /// The status of a failed `what` ("compile").
  paracc_status *failedStatus(const char *what) {
    return makeStatus(
        diagnostics.unsupported ? PARACC_UNSUPPORTED : PARACC_ERROR,
        messages.empty() ? "paracc: error: " + std::string(what) + " failed"
                         : messages);
  }
};
} // namespace

static paracc_status *compileToExecutable(const ModelSource &source,
                                          const paracc_options *options,
                                          paracc_executable **out) {
  CompileCall call;
  if (paracc_status *bad = call.read(options))
    return bad;
  mlir::FailureOr<CompiledProgram> compiled =
      compile(call.context, source, call.options, call.diagnostics);
  if (mlir::failed(compiled))
    return call.failedStatus("compile");
  auto result = std::make_unique<paracc_executable>();
  if (compiled->exe) {
    result->exe = std::move(compiled->exe);
  } else {
    auto exe =
        ::paracc::rt::Executable::loadBuffer(std::move(compiled->executable));
    if (!exe)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + exe.status().message());
    result->exe = std::move(*exe);
  }
  result->explainJson = std::move(compiled->explainJson);
  result->explainText = std::move(compiled->explainText);
  *out = result.release();
  return nullptr;
}

/// paracc_plan_file's work: the compile options, then planModel.
static paracc_status *planFile(const char *path, const paracc_options *options,
                               paracc_plan **out) {
  CompileCall call;
  if (paracc_status *bad = call.read(options))
    return bad;
  PlanOptions plan;
  plan.cluster = optionValue(options, "cluster", "local");
  plan.globalBatch = optionInteger(options, "global-batch", 0);
  plan.top = optionInteger(options, "top", 10);
  ModelSource source;
  source.path = path;
  source.parameters = optionValue(options, "params", "");
  mlir::FailureOr<PlanOutcome> outcome =
      planModel(call.context, source, call.options, plan, call.diagnostics);
  if (mlir::failed(outcome))
    return call.failedStatus("planning");
  if (outcome->result.candidates.empty()) {
    std::string message = "paracc: error: " +
                          noPlanFits(outcome->result, outcome->request.cluster,
                                     outcome->model.training);
    return makeStatus(PARACC_ERROR, message);
  }
  auto result = std::make_unique<paracc_plan>();
  result->json = std::move(outcome->json);
  result->text = std::move(outcome->text);
  result->html = std::move(outcome->html);
  *out = result.release();
  return nullptr;
}

extern "C" {

paracc_status *paracc_plan_file(const char *path, const paracc_options *options,
                                paracc_plan **out) {
  const char *fn = "paracc_plan_file";
  if (!path || !out)
    return invalidArgument(fn, "path and out must not be null");
  *out = nullptr;
  return guarded(fn, [&] { return planFile(path, options, out); });
}

const char *paracc_plan_json(const paracc_plan *plan) {
  return plan ? plan->json.c_str() : "";
}

const char *paracc_plan_text(const paracc_plan *plan) {
  return plan ? plan->text.c_str() : "";
}

const char *paracc_plan_html(const paracc_plan *plan) {
  return plan ? plan->html.c_str() : "";
}

void paracc_plan_free(paracc_plan *plan) { delete plan; }

paracc_status *paracc_compile_file(const char *path,
                                   const paracc_options *options,
                                   paracc_executable **out) {
  const char *fn = "paracc_compile_file";
  if (!path || !out)
    return invalidArgument(fn, "path and out must not be null");
  *out = nullptr;
  return guarded(fn, [&] {
    ModelSource source;
    source.path = path;
    source.parameters = optionValue(options, "params", "");
    return compileToExecutable(source, options, out);
  });
}

paracc_status *paracc_compile_buffer(const void *bytes, size_t size,
                                     int32_t format, const char *name,
                                     const char *data_dir,
                                     const paracc_options *options,
                                     paracc_executable **out) {
  const char *fn = "paracc_compile_buffer";
  if (!bytes || !out)
    return invalidArgument(fn, "bytes and out must not be null");
  *out = nullptr;
  ModelSource source;
  switch (format) {
  case PARACC_FORMAT_ONNX:
    source.format = ModelSource::Format::ONNX;
    break;
  case PARACC_FORMAT_ONNX_TEXT:
    source.format = ModelSource::Format::ONNXText;
    break;
  case PARACC_FORMAT_MLIR:
    source.format = ModelSource::Format::MLIR;
    break;
  default:
    return invalidArgument(fn, "unknown model format " +
                                   std::to_string(int(format)));
  }
  return guarded(fn, [&] {
    source.path = name && *name ? name : "<buffer>";
    source.bytes = std::string(static_cast<const char *>(bytes), size);
    source.externalDataDir = data_dir ? data_dir : "";
    source.parameters = optionValue(options, "params", "");
    return compileToExecutable(source, options, out);
  });
}

} // extern "C"
