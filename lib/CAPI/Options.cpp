//===- Options.cpp - The C API's key/value options --------------*- C++ -*-===//

#include "CAPIObjects.h"

#include "paracc/Compiler/Options.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace paracc::capi;

namespace {
/// What a key's value is. Bytes ("40GiB", "512MiB", "4096B") and Numbers
/// (comma-separated, "0.9,0.95") are checked where they are read.
enum class Kind {
  Text,
  Flag,
  Integer,
  Number,
  Repeated,
  Choice,
  Bytes,
  Numbers
};

/// Which call reads a key: paracc_compile_* (Compile; TrainingCompile with
/// train=1), or paracc_trainer_create (Run: where it runs, also for a
/// Session; Trainer: the training loop).
enum class Scope { Compile, TrainingCompile, Run, Trainer, Plan };

/// The values of a Choice option: the compiler's table of an option enum
/// (paracc/Compiler/Options.h).
struct OptionChoices {
  const char *what;
  std::vector<std::string> (*values)();
  std::string (*bad)(const std::string &value);
};
template <typename E> const OptionChoices *choicesOf() {
  using namespace mlir::paracc;
  static const OptionChoices choices{
      OptionTraits<E>::what,
      [] {
        std::vector<std::string> values;
        for (const OptionSpelling<E> &s : OptionTraits<E>::spellings())
          values.push_back(s.name);
        return values;
      },
      [](const std::string &value) { return badOptionValue<E>(value); }};
  return &choices;
}

struct KnownOption {
  const char *key;
  Scope scope;
  Kind kind;
  const OptionChoices *choices = nullptr;
};
/// The keys paracc_options_set takes: the paracc tool's flags.
const KnownOption kKnownOptions[] = {
    // Compiling.
    {"mesh", Scope::Compile, Kind::Text},
    {"cluster", Scope::Compile, Kind::Text},
    {"sp", Scope::Compile, Kind::Flag},
    {"microbatches", Scope::Compile, Kind::Integer},
    {"stages", Scope::Compile, Kind::Text},
    {"pipeline-schedule", Scope::Compile, Kind::Choice,
     choicesOf<mlir::paracc::PipelineSchedule>()},
    // pipeline-schedule's name before.
    {"schedule", Scope::Compile, Kind::Choice,
     choicesOf<mlir::paracc::PipelineSchedule>()},
    {"virtual-stages", Scope::Compile, Kind::Integer},
    {"precision", Scope::Compile, Kind::Choice,
     choicesOf<mlir::paracc::Precision>()},
    {"input-shape", Scope::Compile, Kind::Repeated},
    {"random-weights", Scope::Compile, Kind::Flag},
    {"embed-weights", Scope::Compile, Kind::Flag},
    {"seed", Scope::Compile, Kind::Integer},
    {"params", Scope::Compile, Kind::Text},
    // Compiling a training step.
    {"train", Scope::TrainingCompile, Kind::Flag},
    {"loss", Scope::TrainingCompile, Kind::Text},
    {"batch", Scope::TrainingCompile, Kind::Integer},
    {"seq", Scope::TrainingCompile, Kind::Integer},
    {"freeze", Scope::TrainingCompile, Kind::Text},
    {"train-only", Scope::TrainingCompile, Kind::Text},
    {"no-auto-freeze", Scope::TrainingCompile, Kind::Flag},
    {"optimizer", Scope::TrainingCompile, Kind::Text},
    {"betas", Scope::TrainingCompile, Kind::Numbers},
    {"eps", Scope::TrainingCompile, Kind::Number},
    {"weight-decay", Scope::TrainingCompile, Kind::Number},
    {"momentum", Scope::TrainingCompile, Kind::Number},
    {"clip-grad-norm", Scope::TrainingCompile, Kind::Number},
    {"recompute", Scope::TrainingCompile, Kind::Choice,
     choicesOf<mlir::paracc::RecomputePolicy>()},
    {"memory-budget", Scope::TrainingCompile, Kind::Bytes},
    {"bucket-mb", Scope::TrainingCompile, Kind::Number},
    {"zero", Scope::TrainingCompile, Kind::Integer},
    {"zero-prefetch", Scope::TrainingCompile, Kind::Integer},
    {"zero-shard-size", Scope::TrainingCompile, Kind::Integer},
    {"dropout-seed", Scope::TrainingCompile, Kind::Integer},
    // Planning (paracc_plan_file).
    {"global-batch", Scope::Plan, Kind::Integer},
    {"top", Scope::Plan, Kind::Integer},
    // Running.
    {"device", Scope::Run, Kind::Choice, choicesOf<mlir::paracc::Device>()},
    {"tf32", Scope::Run, Kind::Flag},
    {"no-cuda-graph", Scope::Run, Kind::Flag},
    // Training.
    {"data", Scope::Trainer, Kind::Text},
    {"data-dir", Scope::Trainer, Kind::Text},
    {"data-dtype", Scope::Trainer, Kind::Text},
    {"data-seed", Scope::Trainer, Kind::Integer},
    {"steps", Scope::Trainer, Kind::Integer},
    {"lr", Scope::Trainer, Kind::Number},
    {"lr-schedule", Scope::Trainer, Kind::Choice,
     choicesOf<mlir::paracc::LrSchedule>()},
    {"warmup", Scope::Trainer, Kind::Integer},
    {"min-lr", Scope::Trainer, Kind::Number},
    {"log-json", Scope::Trainer, Kind::Text},
    {"checkpoint-dir", Scope::Trainer, Kind::Text},
    {"checkpoint-every", Scope::Trainer, Kind::Integer},
    {"resume", Scope::Trainer, Kind::Flag},
    {"progress", Scope::Trainer, Kind::Flag},
};

const KnownOption *findOption(const char *key) {
  for (const KnownOption &o : kKnownOptions)
    if (std::strcmp(o.key, key) == 0)
      return &o;
  return nullptr;
}

bool isFlagText(const std::string &v) {
  return v == "1" || v == "0" || v == "true" || v == "false" || v == "on" ||
         v == "off" || v == "yes" || v == "no";
}

bool isNumberText(const std::string &v) {
  if (v.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  (void)std::strtod(v.c_str(), &end);
  return errno == 0 && end && *end == '\0';
}

bool isIntegerText(const std::string &v) {
  if (v.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  (void)std::strtoll(v.c_str(), &end, 10);
  return errno == 0 && end && *end == '\0';
}
} // namespace

std::string paracc::capi::optionValue(const paracc_options *options,
                                      const std::string &key,
                                      const std::string &fallback) {
  if (!options)
    return fallback;
  std::string value = fallback;
  for (const auto &[k, v] : options->entries)
    if (k == key)
      value = v;
  return value;
}

std::vector<std::string>
paracc::capi::optionValues(const paracc_options *options,
                           const std::string &key) {
  std::vector<std::string> values;
  if (options)
    for (const auto &[k, v] : options->entries)
      if (k == key)
        values.push_back(v);
  return values;
}

bool paracc::capi::hasOption(const paracc_options *options,
                             const std::string &key) {
  if (options)
    for (const auto &entry : options->entries)
      if (entry.first == key)
        return true;
  return false;
}

double paracc::capi::optionNumber(const paracc_options *options,
                                  const std::string &key, double fallback) {
  return hasOption(options, key)
             ? std::strtod(optionValue(options, key, "").c_str(), nullptr)
             : fallback;
}

int64_t paracc::capi::optionInteger(const paracc_options *options,
                                    const std::string &key,
                                    int64_t fallback) {
  return hasOption(options, key)
             ? std::strtoll(optionValue(options, key, "").c_str(), nullptr, 10)
             : fallback;
}

bool paracc::capi::optionFlag(const paracc_options *options,
                              const std::string &key) {
  std::string v = optionValue(options, key, "0");
  return v == "1" || v == "true" || v == "on" || v == "yes";
}

extern "C" {

paracc_status *paracc_options_create(paracc_options **out) {
  if (!out)
    return invalidArgument("paracc_options_create", "out is null");
  return guarded("paracc_options_create", [&]() -> paracc_status * {
    *out = new paracc_options;
    return nullptr;
  });
}

paracc_status *paracc_options_set(paracc_options *options, const char *key,
                                  const char *value) {
  const char *fn = "paracc_options_set";
  if (!options || !key || !value)
    return invalidArgument(fn, "options, key and value must not be null");
  return guarded(fn, [&]() -> paracc_status * {
    const KnownOption *known = findOption(key);
    if (!known) {
      std::string keys;
      for (const KnownOption &o : kKnownOptions)
        keys += std::string(keys.empty() ? "" : ", ") + o.key;
      return invalidArgument(fn, std::string("unknown option '") + key +
                                     "' (known: " + keys + ")");
    }
    std::string text(value);
    if (known->kind == Kind::Flag && !isFlagText(text))
      return invalidArgument(fn, std::string("option '") + key +
                                     "' is a flag (1 or 0), got '" + text +
                                     "'");
    if (known->kind == Kind::Integer && !isIntegerText(text))
      return invalidArgument(fn, std::string("option '") + key +
                                     "' must be an integer, got '" + text +
                                     "'");
    if (known->kind == Kind::Number && !isNumberText(text))
      return invalidArgument(fn, std::string("option '") + key +
                                     "' must be a number, got '" + text + "'");
    if (known->kind == Kind::Choice) {
      const std::vector<std::string> values = known->choices->values();
      if (std::find(values.begin(), values.end(), text) == values.end())
        return invalidArgument(fn, std::string("option '") + key +
                                       "': " + known->choices->bad(text));
    }
    options->entries.emplace_back(key, std::move(text));
    return nullptr;
  });
}

void paracc_options_free(paracc_options *options) { delete options; }

const char *paracc_options_describe(void) {
  static const std::string described = [] {
    llvm::json::Array all;
    for (const KnownOption &o : kKnownOptions) {
      static const char *const kKinds[] = {"text",   "flag",     "integer",
                                           "number", "repeated", "choice",
                                           "bytes",  "numbers"};
      static const char *const kScopes[] = {"compile", "training-compile",
                                            "run", "trainer", "plan"};
      llvm::json::Object entry{{"key", o.key},
                               {"scope", kScopes[int(o.scope)]},
                               {"kind", kKinds[int(o.kind)]}};
      if (o.choices) {
        llvm::json::Array values;
        for (const std::string &v : o.choices->values())
          values.push_back(v);
        entry["values"] = std::move(values);
        entry["what"] = o.choices->what;
      }
      all.push_back(std::move(entry));
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(std::move(all));
    return text;
  }();
  return described.c_str();
}

} // extern "C"
