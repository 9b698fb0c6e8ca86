//===- OptionsBinder.cpp - Typed option values seen through text ----------===//

#include "paracc/Compiler/OptionsBinder.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace mlir::paracc;

llvm::StringRef mlir::paracc::stringifyOptionScope(OptionScope scope) {
  switch (scope) {
  case OptionScope::Compile:
    return "compile";
  case OptionScope::TrainingCompile:
    return "training-compile";
  case OptionScope::Run:
    return "run";
  case OptionScope::Trainer:
    return "trainer";
  case OptionScope::Plan:
    return "plan";
  }
  return "?";
}

llvm::StringRef mlir::paracc::stringifyOptionKind(OptionKind kind) {
  static const char *const names[] = {"text",   "flag",     "integer",
                                      "number", "repeated", "choice",
                                      "bytes",  "numbers"};
  return names[int(kind)];
}

const char *mlir::paracc::optionValueName(const OptionInfo &info,
                                          const OptionValue &value) {
  if (info.valueName)
    return info.valueName;
  switch (value.kind) {
  case OptionKind::Integer:
    return "N";
  case OptionKind::Number:
    return "number";
  case OptionKind::Bytes:
    return "SIZE";
  case OptionKind::Numbers:
    return "numbers";
  default:
    return "value";
  }
}

OptionsBinder::~OptionsBinder() = default;

void OptionTable::bind(const OptionInfo &info, OptionValue value) {
  table.push_back({info, std::move(value)});
}

const OptionTable::Entry *OptionTable::find(llvm::StringRef key) const {
  for (const Entry &e : table)
    if (key == e.info.key)
      return &e;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

static std::string quoted(llvm::StringRef text) {
  return "'" + text.str() + "'";
}

/// The flag's value spelt `text`: 1/0, true/false, on/off, yes/no.
static std::optional<bool> parseFlagText(llvm::StringRef text) {
  if (text == "1" || text == "true" || text == "on" || text == "yes")
    return true;
  if (text == "0" || text == "false" || text == "off" || text == "no")
    return false;
  return std::nullopt;
}

static std::optional<std::string>
parseInteger(llvm::StringRef text, int64_t min, int64_t max, int64_t &value) {
  if (text.trim().getAsInteger(10, value))
    return quoted(text) + " is not an integer";
  if (value < min || value > max) {
    std::string range = max == INT64_MAX ? ">= " + std::to_string(min)
                                         : "in [" + std::to_string(min) + ", " +
                                               std::to_string(max) + "]";
    return "must be " + range + ", got " + text.str();
  }
  return std::nullopt;
}

/// The shortest text that reads back as `v` ("0.01", "1e-08").
static std::string numberText(double v) {
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v)
      break;
  }
  return buffer;
}

static std::optional<std::string>
parseNumber(llvm::StringRef text, const NumberRange &range, double &value) {
  if (text.trim().getAsDouble(value) || !std::isfinite(value))
    return quoted(text) + " is not a finite number";
  if (value < range.min || value > range.max ||
      (range.minExclusive && value == range.min) ||
      (range.maxExclusive && value == range.max)) {
    std::string bounds;
    if (range.max == HUGE_VAL)
      bounds = std::string(range.minExclusive ? "> " : ">= ") +
               numberText(range.min);
    else
      bounds = std::string(range.minExclusive ? "in (" : "in [") +
               numberText(range.min) + ", " + numberText(range.max) +
               (range.maxExclusive ? ")" : "]");
    return "must be " + bounds + ", got " + text.str();
  }
  return std::nullopt;
}

OptionValue OptionValue::text(std::string &field) {
  OptionValue v;
  v.kind = OptionKind::Text;
  v.parse = [&field](llvm::StringRef t) -> std::optional<std::string> {
    field = t.str();
    return std::nullopt;
  };
  v.print = [&field] { return field; };
  return v;
}

/// A flag whose field holds the option's value, or its negation.
static OptionValue flagValue(bool &field, bool negated) {
  OptionValue v;
  v.kind = OptionKind::Flag;
  v.parse = [&field, negated](llvm::StringRef t) -> std::optional<std::string> {
    std::optional<bool> b = parseFlagText(t);
    if (!b)
      return "is a flag (1 or 0), got " + quoted(t);
    field = *b != negated;
    return std::nullopt;
  };
  v.print = [&field, negated] {
    return std::string(field != negated ? "true" : "false");
  };
  return v;
}

OptionValue OptionValue::flag(bool &field) { return flagValue(field, false); }

OptionValue OptionValue::negatedFlag(bool &field) {
  return flagValue(field, true);
}

static std::string printed(int64_t v) { return std::to_string(v); }
static std::string printed(double v) { return numberText(v); }
template <typename T> static std::string printed(const std::optional<T> &v) {
  return v ? printed(*v) : std::string();
}

/// A field of type Field (a Value, or an optional one) that `parser(text,
/// value)` reads, failing with its message.
template <typename Value, typename Field, typename Parser>
static OptionValue checkedValue(OptionKind kind, Field &field, Parser parser) {
  OptionValue v;
  v.kind = kind;
  v.parse = [&field, parser](llvm::StringRef t) {
    Value value;
    std::optional<std::string> error = parser(t, value);
    if (!error)
      field = value;
    return error;
  };
  v.print = [&field] { return printed(field); };
  return v;
}

OptionValue OptionValue::integer(int64_t &field, int64_t min, int64_t max) {
  return checkedValue<int64_t>(OptionKind::Integer, field,
                               [min, max](llvm::StringRef t, int64_t &v) {
                                 return parseInteger(t, min, max, v);
                               });
}

OptionValue OptionValue::integer(std::optional<int64_t> &field, int64_t min,
                                 int64_t max) {
  return checkedValue<int64_t>(OptionKind::Integer, field,
                               [min, max](llvm::StringRef t, int64_t &v) {
                                 return parseInteger(t, min, max, v);
                               });
}

OptionValue OptionValue::unsignedInteger(uint64_t &field) {
  OptionValue v;
  v.kind = OptionKind::Integer;
  v.parse = [&field](llvm::StringRef t) -> std::optional<std::string> {
    uint64_t value;
    if (t.trim().getAsInteger(10, value))
      return quoted(t) + " is not an integer >= 0";
    field = value;
    return std::nullopt;
  };
  v.print = [&field] { return std::to_string(field); };
  return v;
}

OptionValue OptionValue::number(double &field, NumberRange range) {
  return checkedValue<double>(OptionKind::Number, field,
                              [range](llvm::StringRef t, double &v) {
                                return parseNumber(t, range, v);
                              });
}

OptionValue OptionValue::number(std::optional<double> &field,
                                NumberRange range) {
  return checkedValue<double>(OptionKind::Number, field,
                              [range](llvm::StringRef t, double &v) {
                                return parseNumber(t, range, v);
                              });
}

OptionValue OptionValue::bytes(std::optional<int64_t> &field) {
  OptionValue v;
  v.kind = OptionKind::Bytes;
  v.parse = [&field](llvm::StringRef t) -> std::optional<std::string> {
    std::string error;
    std::optional<int64_t> size = parseByteSize(t, error);
    if (!size)
      return error;
    field = size;
    return std::nullopt;
  };
  v.print = [&field] {
    return field ? std::to_string(*field) + "B" : std::string();
  };
  return v;
}

OptionValue OptionValue::numbers(llvm::SmallVectorImpl<double> &field,
                                 size_t count, double min, double max) {
  OptionValue v;
  v.kind = OptionKind::Numbers;
  v.parse = [&field, count, min,
             max](llvm::StringRef t) -> std::optional<std::string> {
    llvm::SmallVector<llvm::StringRef> parts;
    t.split(parts, ',');
    llvm::SmallVector<double, 4> values;
    for (llvm::StringRef part : parts) {
      double value;
      if (part.trim().getAsDouble(value) || !(value >= min && value < max))
        break;
      values.push_back(value);
    }
    if (parts.size() != count || values.size() != count)
      return "must be " + std::to_string(count) + " numbers in [" +
             numberText(min) + ", " + numberText(max) + "), such as 0.9,0.95;" +
             " got " + quoted(t);
    field.assign(values.begin(), values.end());
    return std::nullopt;
  };
  v.print = [&field] {
    std::string s;
    for (double x : field)
      s += (s.empty() ? "" : ",") + numberText(x);
    return s;
  };
  return v;
}

OptionValue OptionValue::repeated(std::vector<std::string> &field) {
  OptionValue v;
  v.kind = OptionKind::Repeated;
  v.parse = [&field](llvm::StringRef t) -> std::optional<std::string> {
    field.push_back(t.str());
    return std::nullopt;
  };
  v.print = [&field] { return llvm::join(field, ","); };
  return v;
}

std::optional<int64_t> mlir::paracc::parseByteSize(llvm::StringRef text,
                                                   std::string &error) {
  llvm::StringRef t = text.trim();
  struct Unit {
    const char *suffix;
    double scale;
  };
  // Longest suffix first: "KiB" before "B".
  static const Unit units[] = {{"KiB", 1024.0},
                               {"MiB", 1024.0 * 1024},
                               {"GiB", 1024.0 * 1024 * 1024},
                               {"B", 1.0}};
  for (const Unit &u : units) {
    if (!t.ends_with(u.suffix))
      continue;
    llvm::StringRef number = t.drop_back(strlen(u.suffix)).trim();
    double value;
    if (number.empty() || number.getAsDouble(value) || !(value > 0) ||
        !std::isfinite(value) || value * u.scale > 9.0e18)
      break;
    return int64_t(value * u.scale);
  }
  error = "'" + text.str() +
          "' is not a size: expected a positive number and one of B, KiB, "
          "MiB, GiB (e.g. 512MiB, 40GiB)";
  return std::nullopt;
}
