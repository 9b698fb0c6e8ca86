//===- Options.cpp - The C API's key/value options --------------*- C++ -*-===//

#include "CAPIObjects.h"
#include "ParsedOptions.h"

#include "paracc/Compiler/Options.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace paracc::capi;

void ParsedOptions::bindOptions(mlir::paracc::OptionsBinder &binder) {
  using namespace mlir::paracc;
  compile.bindOptions(binder);
  source.bindOptions(binder);
  binder.bind({"train", OptionScope::TrainingCompile,
               "Compile a training step from a loss model"},
              OptionValue::flag(train));
  tokens.bindOptions(binder);
  training.bindOptions(binder);
  plan.bindOptions(binder);
  run.bindOptions(binder);
  trainer.bindOptions(binder);
  binder.bind({"progress", OptionScope::Trainer,
               "Print each training step's line to standard output"},
              OptionValue::flag(progress));
}

bool paracc::capi::parseOptions(const paracc_options *options,
                                ParsedOptions &result, std::string &error) {
  mlir::paracc::OptionTable table;
  result.bindOptions(table);
  if (!options)
    return true;
  for (const auto &[key, value] : options->entries) {
    const mlir::paracc::OptionTable::Entry *entry = table.find(key);
    if (!entry)
      continue; // (paracc_options_set takes only known keys.)
    if (std::optional<std::string> bad = entry->value.parse(value)) {
      error = "paracc: error: option '" + key + "': " + *bad;
      return false;
    }
  }
  return true;
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
    // The value is checked by parsing it into a scratch set of options.
    ParsedOptions scratch;
    mlir::paracc::OptionTable table;
    scratch.bindOptions(table);
    const mlir::paracc::OptionTable::Entry *entry = table.find(key);
    if (!entry) {
      std::string keys;
      for (const auto &e : table.entries())
        keys += std::string(keys.empty() ? "" : ", ") + e.info.key;
      return invalidArgument(fn, std::string("unknown option '") + key +
                                     "' (known: " + keys + ")");
    }
    if (std::optional<std::string> bad = entry->value.parse(value))
      return invalidArgument(fn, std::string("option '") + key + "': " + *bad);
    options->entries.emplace_back(key, value);
    return nullptr;
  });
}

void paracc_options_free(paracc_options *options) { delete options; }

const char *paracc_options_describe(void) {
  static const std::string described = [] {
    ParsedOptions scratch;
    mlir::paracc::OptionTable table;
    scratch.bindOptions(table);
    llvm::json::Array all;
    for (const auto &[info, value] : table.entries()) {
      llvm::json::Object entry{
          {"key", info.key},
          {"scope", mlir::paracc::stringifyOptionScope(info.scope)},
          {"kind", mlir::paracc::stringifyOptionKind(value.kind)},
          {"help", info.help}};
      if (value.kind == mlir::paracc::OptionKind::Choice) {
        llvm::json::Array values;
        for (const std::string &v : value.choices)
          values.push_back(v);
        entry["values"] = std::move(values);
        entry["what"] = value.what;
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
