//===- CommandLineBinder.cpp - Bound options as llvm::cl options ----------===//

#include "paracc/Compiler/CommandLineBinder.h"

using namespace mlir::paracc;
namespace cl = llvm::cl;

bool BoundValueParser::parse(cl::Option &option, llvm::StringRef,
                             llvm::StringRef arg, std::string &text) {
  if (std::optional<std::string> error = value->parse(arg))
    return option.error(*error);
  text = arg.str();
  return false;
}

bool BoundFlagParser::parse(cl::Option &option, llvm::StringRef,
                            llvm::StringRef arg, bool &given) {
  // `--sp` alone sets the flag.
  llvm::StringRef text = arg.empty() ? llvm::StringRef("1") : arg;
  if (std::optional<std::string> error = value->parse(text))
    return option.error(*error);
  given = true;
  return false;
}

CommandLineBinder::CommandLineBinder(cl::SubCommand *subcommand,
                                     cl::OptionCategory &category)
    : subcommand(subcommand), category(category) {}

CommandLineBinder::~CommandLineBinder() = default;

void CommandLineBinder::bind(const OptionInfo &info, OptionValue value) {
  values.push_back(std::make_unique<OptionValue>(std::move(value)));
  const OptionValue *bound = values.back().get();
  cl::SubCommand &sub =
      subcommand ? *subcommand : cl::SubCommand::getTopLevel();
  cl::value_desc valueName(optionValueName(info, *bound));
  std::unique_ptr<cl::Option> option;
  switch (bound->kind) {
  case OptionKind::Flag: {
    auto flag = std::make_unique<cl::opt<bool, false, BoundFlagParser>>(
        llvm::StringRef(info.key), cl::desc(info.help), cl::sub(sub),
        cl::cat(category));
    flag->getParser().value = bound;
    option = std::move(flag);
    break;
  }
  case OptionKind::Repeated: {
    auto list = std::make_unique<cl::list<std::string, bool, BoundValueParser>>(
        llvm::StringRef(info.key), cl::desc(info.help), valueName, cl::sub(sub),
        cl::cat(category));
    list->getParser().value = bound;
    option = std::move(list);
    break;
  }
  default: {
    auto text = std::make_unique<cl::opt<std::string, false, BoundValueParser>>(
        llvm::StringRef(info.key), cl::desc(info.help), valueName, cl::sub(sub),
        cl::cat(category));
    text->getParser().value = bound;
    option = std::move(text);
    break;
  }
  }
  byKey[info.key] = option.get();
  options.push_back(std::move(option));
}

bool CommandLineBinder::given(llvm::StringRef key) const {
  auto it = byKey.find(key);
  return it != byKey.end() && it->second->getNumOccurrences() > 0;
}
