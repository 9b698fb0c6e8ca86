//===- OptionsBinder.h - Options declared once, for every door --*- C++ -*-===//
//
// Each options struct (ParallelOptions, TrainingOptions, the driver's
// CompileOptions, the trainer's) declares its options once, in a
// `bindOptions(OptionsBinder &)` that names each field's option: its key,
// what it sets, its kind and its checks (IREE's OptionsBinder is the
// model). One binder per front door turns that into its own options:
//
//  - the tools' command lines (`--KEY`; tools/paracc/CommandLineBinder.h),
//  - the pass pipeline `paracc-compile`'s options (`KEY=VALUE`;
//    Pipelines.h),
//  - the C API's key/value options and their table, which
//    `paracc_options_describe()` prints and the Python package reads
//    (keyword: the key with '_' for '-'; lib/CAPI/Options.cpp).
//
// A value is parsed and checked by the bound field's OptionValue; its error
// names the value, and each front door puts its own spelling of the option
// in front ("for the --zero option: ...", "option 'zero': ...").
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_COMPILER_OPTIONSBINDER_H
#define PARACC_COMPILER_OPTIONSBINDER_H

#include "paracc/Compiler/Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::paracc {

/// Which call takes an option: a compile (Compile; TrainingCompile for a
/// training step), planning (Plan), where a program runs (Run), the
/// training loop (Trainer).
enum class OptionScope { Compile, TrainingCompile, Run, Trainer, Plan };

/// What an option's value is. The C API's table prints it and the Python
/// package converts its keywords' values by it.
enum class OptionKind {
  Text,
  Flag,
  Integer,
  Number,
  Repeated,
  Choice,
  Bytes,
  Numbers
};

/// "compile", "training-compile", "run", "trainer", "plan".
llvm::StringRef stringifyOptionScope(OptionScope scope);
/// "text", "flag", "integer", "number", "repeated", "choice", "bytes",
/// "numbers".
llvm::StringRef stringifyOptionKind(OptionKind kind);

/// An option's declaration.
struct OptionInfo {
  /// `--KEY` on a command line, the pass pipeline's `KEY=`, the C API's key
  /// and, with '_' for '-', Python's keyword.
  const char *key;
  OptionScope scope;
  /// What it sets (the command line's help).
  const char *help;
  /// The value's name in the help ("AXES", "SIZE"), if any.
  const char *valueName = nullptr;
};

/// The values a Number option takes.
struct NumberRange {
  double min = -HUGE_VAL, max = HUGE_VAL;
  bool minExclusive = false, maxExclusive = false;

  /// >= 0; > 0; [0, 1).
  static NumberRange nonNegative() { return {0.0, HUGE_VAL}; }
  static NumberRange positive() { return {0.0, HUGE_VAL, true}; }
  static NumberRange fraction() { return {0.0, 1.0, false, true}; }
};

/// A field of an options struct seen through text: what `bind` receives.
struct OptionValue {
  OptionKind kind = OptionKind::Text;
  /// Sets the field from `text` (a Repeated option appends). Fails with the
  /// reason, which does not name the option ("'x' is not an integer").
  std::function<std::optional<std::string>(llvm::StringRef text)> parse;
  /// The field's value as `parse` reads it back.
  std::function<std::string()> print;
  /// A Choice's values (its first spellings) and its set's name.
  std::vector<std::string> choices;
  const char *what = nullptr;

  /// The field as a typed option value.
  static OptionValue text(std::string &field);
  static OptionValue flag(bool &field);
  /// A flag that clears `field` when given ("no-auto-freeze" sets
  /// autoFreeze false).
  static OptionValue negatedFlag(bool &field);
  static OptionValue integer(int64_t &field, int64_t min = INT64_MIN,
                             int64_t max = INT64_MAX);
  static OptionValue integer(std::optional<int64_t> &field,
                             int64_t min = INT64_MIN, int64_t max = INT64_MAX);
  static OptionValue unsignedInteger(uint64_t &field);
  /// A finite number in `range`.
  static OptionValue number(double &field, NumberRange range);
  static OptionValue number(std::optional<double> &field, NumberRange range);
  /// A size: "512MiB", "40GiB", "4096B".
  static OptionValue bytes(std::optional<int64_t> &field);
  /// `count` comma-separated numbers in [min, max) ("0.9,0.95").
  static OptionValue numbers(llvm::SmallVectorImpl<double> &field, size_t count,
                             double min, double max);
  static OptionValue repeated(std::vector<std::string> &field);
  /// A value of option enum E (OptionTraits<E>'s table).
  template <typename E> static OptionValue choice(E &field) {
    OptionValue v;
    v.kind = OptionKind::Choice;
    v.parse = [&field](llvm::StringRef text) -> std::optional<std::string> {
      if (std::optional<E> e = parseOptionValue<E>(text)) {
        field = *e;
        return std::nullopt;
      }
      return badOptionValue<E>(text);
    };
    v.print = [&field] { return stringifyOption(field).str(); };
    for (const OptionSpelling<E> &s : OptionTraits<E>::spellings())
      v.choices.push_back(s.name);
    v.what = OptionTraits<E>::what;
    return v;
  }
};

/// The help's name of the option's value ("--zero=<N>"): its valueName,
/// else one by its kind.
const char *optionValueName(const OptionInfo &info, const OptionValue &value);

/// Receives the options of the structs that bind themselves to it.
class OptionsBinder {
public:
  virtual ~OptionsBinder();
  virtual void bind(const OptionInfo &info, OptionValue value) = 0;
};

/// The options bound to it, in order: the C API's table, and what a front
/// door that takes key/value text (the C API) parses with.
class OptionTable : public OptionsBinder {
public:
  struct Entry {
    OptionInfo info;
    OptionValue value;
  };
  void bind(const OptionInfo &info, OptionValue value) override;
  const Entry *find(llvm::StringRef key) const;
  llvm::ArrayRef<Entry> entries() const { return table; }

private:
  std::vector<Entry> table;
};

/// Parses a size ("512MiB", "40GiB", "4096B"); std::nullopt with `error`
/// saying why.
std::optional<int64_t> parseByteSize(llvm::StringRef text, std::string &error);

} // namespace mlir::paracc

#endif // PARACC_COMPILER_OPTIONSBINDER_H
