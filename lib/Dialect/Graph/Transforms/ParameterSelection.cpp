//===- ParameterSelection.cpp - Which weights a loss is trained in --------===//

#include "ParameterSelection.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::paracc::graph;

/// Whether every path from `weight` to the function's results passes
/// through a sin or cos (and at least one does): a table that only feeds
/// position math.
static bool feedsOnlyPositionMath(WeightOp weight) {
  SmallVector<Value> work = {weight.getResult()};
  DenseSet<Value> seen;
  bool throughTrig = false;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (isa<SinOp, CosOp>(user)) {
        throughTrig = true;
        continue;
      }
      if (isa<func::ReturnOp>(user))
        return false;
      for (Value r : user->getResults())
        work.push_back(r);
    }
  }
  return throughTrig;
}

static FailureOr<std::optional<llvm::Regex>>
compile(func::FuncOp func, StringRef flag, StringRef pattern) {
  if (pattern.empty())
    return std::optional<llvm::Regex>();
  llvm::Regex regex(pattern);
  std::string error;
  if (!regex.isValid(error))
    return func.emitOpError() << flag << " pattern '" << pattern
                              << "' is not a regular expression: " << error;
  return std::optional<llvm::Regex>(std::move(regex));
}

FailureOr<llvm::MapVector<StringRef, std::string>>
mlir::paracc::graph::selectFrozenParameters(
    func::FuncOp func, const ParameterSelectionOptions &options) {
  FailureOr<std::optional<llvm::Regex>> freeze =
      compile(func, "freeze", options.freeze);
  FailureOr<std::optional<llvm::Regex>> trainOnly =
      compile(func, "train-only", options.trainOnly);
  if (failed(freeze) || failed(trainOnly))
    return failure();
  Block &body = func.getBody().front();
  llvm::StringSet<> assigned;
  for (auto assign : body.getOps<AssignOp>())
    assigned.insert(assign.getName());
  auto *dialect = func.getContext()->getLoadedDialect<GraphDialect>();
  llvm::MapVector<StringRef, std::string> frozen;
  bool freezeMatched = false, trainOnlyMatched = false;
  for (auto w : body.getOps<WeightOp>()) {
    auto type = dyn_cast<RankedTensorType>(w.getType());
    if (!type || !isa<FloatType>(type.getElementType()) || w->use_empty() ||
        frozen.contains(w.getName()))
      continue;
    StringRef name = w.getName();
    const bool freezes = *freeze && (*freeze)->match(name);
    const bool kept = !*trainOnly || (*trainOnly)->match(name);
    freezeMatched |= freezes;
    trainOnlyMatched |= *trainOnly && kept;
    if (assigned.contains(name))
      frozen[name] = "model state: the model assigns it (running statistics)";
    else if (freezes)
      frozen[name] = "--freeze";
    else if (!kept)
      frozen[name] = "not matched by --train-only";
    else if (!options.autoFreeze)
      continue;
    else if (auto buffer = dialect->getBufferAttrHelper().getAttr(w))
      frozen[name] =
          ("a buffer the exporter wrote: " + buffer.getValue()).str();
    else if (feedsOnlyPositionMath(w))
      frozen[name] = "a buffer the exporter wrote: a position table (it "
                     "reaches the loss only through sin/cos, like rotary "
                     "inv_freq)";
  }
  if (*freeze && !freezeMatched)
    func.emitWarning() << "--freeze '" << options.freeze
                       << "' matches no parameter";
  if (*trainOnly && !trainOnlyMatched)
    func.emitWarning() << "--train-only '" << options.trainOnly
                       << "' matches no parameter";
  return frozen;
}
