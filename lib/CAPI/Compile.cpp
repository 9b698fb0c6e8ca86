//===- Compile.cpp - The C API's compile entry points -----------*- C++ -*-===//

#include "CAPIObjects.h"
#include "ParsedOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/Plan.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

using namespace mlir::paracc;
using namespace paracc::capi;

/// The compile's options from `parsed`: with train=1 a training step, whose
/// token model's [batch, seq] inputs need batch and seq unless input-shape
/// gives every input's shape; false with `err` written when they are wrong.
static bool compileOptions(ParsedOptions &parsed, llvm::raw_ostream &err) {
  CompileOptions &result = parsed.compile;
  // The report is the C API's explain(): always made.
  result.explain = true;
  if (mlir::failed(result.applyInputShapes(err)))
    return false;
  if (!parsed.train)
    return true;
  if (result.import.inputShapes.empty()) {
    if (!parsed.tokens.batch || !parsed.tokens.seq) {
      err << "paracc: error: train=1 needs batch and seq (a token model's "
             "[batch, seq] inputs) or input-shape for every input\n";
      return false;
    }
    for (int i = 0; i < 16; ++i)
      result.import.inputShapesByPosition.push_back(
          mlir::SmallVector<int64_t>{*parsed.tokens.batch, *parsed.tokens.seq});
  }
  result.training = parsed.training;
  return true;
}

namespace {
/// What a compile entry point sets up: the options it reads, a context, and
/// the messages (notes, such as auto recompute's tries, are not errors).
struct CompileCall {
  std::string messages, notes;
  llvm::raw_string_ostream err{messages}, notesStream{notes};
  ParsedOptions parsed;
  CompileOptions &options = parsed.compile;
  mlir::MLIRContext context;
  CompileDiagnostics diagnostics{err, notesStream};

  CompileCall() { setUpParaccContext(context, err); }
  /// Reads `given` (the training compile's options with train=1); an error
  /// status when one is wrong.
  paracc_status *read(const paracc_options *given) {
    std::string error;
    if (!parseOptions(given, parsed, error))
      return makeStatus(PARACC_ERROR, error);
    if (!compileOptions(parsed, err))
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

/// Compiles the model of `source` (its `params` from `options`).
static paracc_status *compileToExecutable(ModelSource source,
                                          const paracc_options *options,
                                          paracc_executable **out) {
  CompileCall call;
  if (paracc_status *bad = call.read(options))
    return bad;
  source.parameters = call.parsed.source.parameters;
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
  PlanOptions &plan = call.parsed.plan;
  plan.cluster = call.options.cluster;
  ModelSource &source = call.parsed.source;
  source.path = path;
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
    return compileToExecutable(source, options, out);
  });
}

} // extern "C"
