//===- CommandLineBinder.h - Bound options as llvm::cl options -*- C++ -*-===//
//
// The command-line front door of OptionsBinder: each bound option becomes a
// `--KEY` of a tool (or of one of its subcommands), parsed by the bound
// field's OptionValue, so that an error reads "for the --zero option: must
// be in [0, 3], got 4". The pass pipeline's options (Pipelines.h) use the
// same parsers.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_COMPILER_COMMANDLINEBINDER_H
#define PARACC_COMPILER_COMMANDLINEBINDER_H

#include "paracc/Compiler/OptionsBinder.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::paracc {

/// llvm::cl's parser of a bound option that takes a value: the text goes
/// through `value->parse`, and the option keeps the text as given.
class BoundValueParser : public llvm::cl::parser<std::string> {
public:
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             std::string &text);
  const OptionValue *value = nullptr;
};

/// llvm::cl's parser of a bound flag: `--sp`, `--sp=1`, `sp=true`.
class BoundFlagParser : public llvm::cl::parser<bool> {
public:
  using llvm::cl::parser<bool>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             bool &given);
  const OptionValue *value = nullptr;
};

/// Makes each bound option a `--KEY` of `subcommand` (the tool's top level
/// when null), in `category`. The options live as long as the binder, which
/// must be made before the command line is parsed.
class CommandLineBinder : public OptionsBinder {
public:
  CommandLineBinder(llvm::cl::SubCommand *subcommand,
                    llvm::cl::OptionCategory &category);
  ~CommandLineBinder() override;
  void bind(const OptionInfo &info, OptionValue value) override;
  /// Whether `--key` was given.
  bool given(llvm::StringRef key) const;

private:
  llvm::cl::SubCommand *subcommand;
  llvm::cl::OptionCategory &category;
  std::vector<std::unique_ptr<OptionValue>> values;
  std::vector<std::unique_ptr<llvm::cl::Option>> options;
  llvm::StringMap<llvm::cl::Option *> byKey;
};

} // namespace mlir::paracc

#endif // PARACC_COMPILER_COMMANDLINEBINDER_H
