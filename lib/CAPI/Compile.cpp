//===- Compile.cpp - The C API's compile entry points -----------*- C++ -*-===//

#include "CAPIObjects.h"

#include "mlir/IR/MLIRContext.h"
#include "paracc/Driver/CompileModel.h"
#include "paracc/Driver/Context.h"
#include "paracc/Driver/DriverOptions.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::paracc;
using namespace paracc::capi;

/// The compile options that `options` sets (the paracc tool's defaults
/// otherwise); false with `err` written on a bad input shape.
static bool compileOptions(const paracc_options *options,
                           ModelCompileOptions &result,
                           llvm::raw_ostream &err) {
  result.mesh = optionValue(options, "mesh", "");
  result.sequenceParallel = optionFlag(options, "sp");
  result.microbatches =
      std::strtoll(optionValue(options, "microbatches", "1").c_str(), nullptr,
                   10);
  result.stages = optionValue(options, "stages", "auto");
  result.schedule = optionValue(options, "schedule", "1f1b");
  result.precision = optionValue(options, "precision", "f32");
  result.import.allowMissingWeightData = optionFlag(options, "random-weights");
  result.seed = std::strtoull(optionValue(options, "seed", "0").c_str(),
                              nullptr, 10);
  // The report is the C API's explain(): always made.
  result.explain = true;
  for (const std::string &shape : optionValues(options, "input-shape"))
    if (mlir::failed(parseShapeOption(shape, result.import, err)))
      return false;
  return true;
}

static paracc_status *compile(const ModelSource &source,
                              const paracc_options *options,
                              paracc_executable **out) {
  std::string messages;
  llvm::raw_string_ostream err(messages);
  ModelCompileOptions compileOpts;
  if (!compileOptions(options, compileOpts, err))
    return makeStatus(PARACC_ERROR, messages);
  mlir::MLIRContext context;
  setUpParaccContext(context, err);
  CompiledModel compiled;
  int code = compileModel(context, source, compileOpts, compiled, err);
  if (code != 0)
    return makeStatus(paracc_code(code),
                      messages.empty() ? "paracc: error: compile failed"
                                       : messages);
  auto exe =
      ::paracc::rt::Executable::loadBuffer(std::move(compiled.executable));
  if (!exe)
    return makeStatus(PARACC_ERROR,
                      "paracc: error: " + exe.status().message());
  auto *result = new paracc_executable;
  result->exe = std::move(*exe);
  result->explainJson = std::move(compiled.explainJson);
  result->explainText = std::move(compiled.explainText);
  *out = result;
  return nullptr;
}

extern "C" {

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
    return compile(source, options, out);
  });
}

paracc_status *paracc_compile_buffer(const void *bytes, size_t size,
                                     paracc_model_format format,
                                     const char *name, const char *data_dir,
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
    return compile(source, options, out);
  });
}

} // extern "C"
