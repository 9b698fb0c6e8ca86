//===- Autodiff.cpp - Reverse-mode differentiation of a loss ---*- C++ -*-===//
//
// Implements `--paracc-autodiff` (Passes.td): the loss's gradient with
// respect to every parameter, built from the ops' GradientOpInterface rules
// in one backward walk.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "ParameterSelection.h"

#include "mlir/IR/Builders.h"
#include "paracc/Dialect/Graph/IR/GradientInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_AUTODIFFPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// A parameter, or one block of it: the weight ops that read it.
struct ParameterBlock {
  std::string name;
  SmallVector<int64_t> offsets; // empty: the whole parameter
  SmallVector<WeightOp> reads;
};

bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

/// Gives every op created while a forward op's rule runs that op's
/// inherited attributes.
class InheritAttributes : public OpBuilder::Listener {
public:
  explicit InheritAttributes(StringRef names) {
    SmallVector<StringRef> parts;
    names.split(parts, ',', -1, false);
    for (StringRef p : parts)
      this->names.push_back(p.trim().str());
  }
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (!from)
      return;
    for (const std::string &name : names)
      if (Attribute a = from->getAttr(name))
        op->setAttr(name, a);
  }
  Operation *from = nullptr;

private:
  SmallVector<std::string> names;
};

class Differentiator {
public:
  Differentiator(func::FuncOp func, ParameterSelectionOptions selection,
                 bool whole, StringRef inherited)
      : func(func), selection(std::move(selection)), whole(whole),
        b(func.getContext()), inherit(inherited) {
    b.setListener(&inherit);
  }

  LogicalResult run();

private:
  void accumulate(Value v, Value grad);
  /// The whole-parameter gradient from its blocks' (concatenated along the
  /// one dim where they differ), or failure.
  FailureOr<Value>
  assemble(StringRef name, ArrayRef<std::pair<ParameterBlock *, Value>> blocks);

  func::FuncOp func;
  ParameterSelectionOptions selection;
  bool whole;
  OpBuilder b;
  InheritAttributes inherit;
  DenseMap<Value, Value> grads;
};

void Differentiator::accumulate(Value v, Value grad) {
  auto [it, inserted] = grads.try_emplace(v, grad);
  if (!inserted)
    it->second = AddOp::create(b, grad.getLoc(), it->second, grad);
}

FailureOr<Value>
Differentiator::assemble(StringRef name,
                         ArrayRef<std::pair<ParameterBlock *, Value>> blocks) {
  WeightOp first = blocks.front().first->reads.front();
  ArrayRef<int64_t> source = *first.getSourceShape();
  // The blocks must tile the parameter along one dim.
  std::optional<int64_t> dim;
  for (auto &[block, grad] : blocks)
    for (auto [d, o] : llvm::enumerate(block->offsets))
      if (o != 0)
        dim = int64_t(d);
  SmallVector<std::pair<int64_t, Value>> pieces;
  int64_t covered = 0;
  for (auto &[block, grad] : blocks) {
    auto type = cast<RankedTensorType>(grad.getType());
    for (auto [d, o] : llvm::enumerate(block->offsets))
      if ((!dim || int64_t(d) != *dim) &&
          (o != 0 || type.getDimSize(d) != source[d]))
        return func.emitOpError("cannot assemble the gradient of '")
               << name << "' from its blocks";
    pieces.push_back({dim ? block->offsets[*dim] : 0, grad});
    covered += dim ? type.getDimSize(*dim) : source[0];
  }
  llvm::sort(pieces, [](auto &l, auto &r) { return l.first < r.first; });
  if (!dim || covered != source[*dim])
    return func.emitOpError("cannot assemble the gradient of '")
           << name << "' from its blocks";
  SmallVector<Value> values;
  for (auto &[offset, v] : pieces)
    values.push_back(v);
  return Value(
      ConcatOp::create(b, first.getLoc(), values, b.getI64IntegerAttr(*dim)));
}

LogicalResult Differentiator::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("must have one block to be differentiated");
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // The loss: one scalar float result.
  if (ret.getNumOperands() != 1)
    return func.emitOpError("must return one value, the loss, to be "
                            "differentiated; it returns ")
           << ret.getNumOperands();
  Value loss = ret.getOperand(0);
  auto lossType = cast<RankedTensorType>(loss.getType());
  if (!isFloatTensor(loss) || lossType.getNumElements() != 1)
    return func.emitOpError("must return a scalar float loss to be "
                            "differentiated; it returns ")
           << lossType;

  // The parameters (and their blocks), in the order they are first read;
  // the frozen ones (model state, --freeze, --train-only, auto-freeze) are
  // recorded with why.
  FailureOr<llvm::MapVector<StringRef, std::string>> frozen =
      selectFrozenParameters(func, selection);
  if (failed(frozen))
    return failure();
  llvm::MapVector<std::pair<StringRef, ArrayRef<int64_t>>, ParameterBlock>
      blocks;
  DenseSet<Value> active;
  for (Operation &op : body) {
    auto w = dyn_cast<WeightOp>(op);
    // (A read left unused by an earlier rewrite is no parameter block.)
    if (!w || !isFloatTensor(w) || w->use_empty() ||
        frozen->contains(w.getName()))
      continue;
    ArrayRef<int64_t> offsets =
        w.getOffsets() ? *w.getOffsets() : ArrayRef<int64_t>();
    ParameterBlock &block = blocks[{w.getName(), offsets}];
    block.name = w.getName().str();
    block.offsets.assign(offsets.begin(), offsets.end());
    block.reads.push_back(w);
    active.insert(w);
  }
  auto *graphDialect = func.getContext()->getLoadedDialect<GraphDialect>();
  if (frozen->empty()) {
    graphDialect->getFrozenParametersAttrHelper().removeAttr(func);
  } else {
    SmallVector<NamedAttribute> reasons;
    for (auto &[name, reason] : *frozen)
      reasons.push_back(b.getNamedAttr(name, b.getStringAttr(reason)));
    graphDialect->getFrozenParametersAttrHelper().setAttr(
        func, b.getDictionaryAttr(reasons));
  }
  // Values that depend on a parameter (forward), in program order.
  for (Operation &op : body)
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value r : op.getResults())
        if (isFloatTensor(r))
          active.insert(r);

  // The backward walk, emitted before the return.
  b.setInsertionPoint(ret);
  Value one = ConstantOp::create(
      b, loss.getLoc(),
      DenseElementsAttr::get(
          lossType, b.getFloatAttr(lossType.getElementType(), 1.0).getValue()));
  grads[loss] = one;
  SmallVector<Operation *> forward;
  for (Operation &op : body)
    if (&op != ret.getOperation())
      forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> resultGrads;
    bool any = false;
    for (Value r : op->getResults()) {
      resultGrads.push_back(grads.lookup(r));
      any |= bool(resultGrads.back());
    }
    bool needed = llvm::any_of(op->getOperands(),
                               [&](Value v) { return active.contains(v); });
    if (!any || !needed)
      continue;
    auto rule = dyn_cast<GradientOpInterface>(op);
    if (!rule)
      return op->emitOpError("has no gradient rule: the backward of this op "
                             "is not implemented, and the loss depends on a "
                             "parameter through it");
    SmallVector<Value> operandGrads(op->getNumOperands());
    inherit.from = op;
    if (failed(rule.buildGradients(b, resultGrads, operandGrads)))
      return failure();
    for (auto [v, g] : llvm::zip(op->getOperands(), operandGrads))
      if (g && active.contains(v))
        accumulate(v, g);
    inherit.from = nullptr;
  }

  // One result per parameter (or block): the sum over its reads, zeros for
  // a parameter the loss does not depend on.
  SmallVector<Value> results{loss};
  SmallVector<std::pair<std::string, SmallVector<int64_t>>> marks;
  llvm::MapVector<StringRef, SmallVector<std::pair<ParameterBlock *, Value>>>
      byName;
  for (auto &[key, block] : blocks) {
    Value sum;
    for (WeightOp w : block.reads)
      if (Value g = grads.lookup(w))
        sum = sum ? AddOp::create(b, w.getLoc(), sum, g).getResult() : g;
    if (!sum) {
      auto type = cast<RankedTensorType>(block.reads.front().getType());
      sum = ConstantOp::create(
          b, block.reads.front().getLoc(),
          DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
    }
    byName[key.first].push_back({&block, sum});
  }
  for (auto &[name, parts] : byName) {
    if (whole && parts.size() > 1) {
      FailureOr<Value> assembled = assemble(name, parts);
      if (failed(assembled))
        return failure();
      results.push_back(*assembled);
      marks.push_back({name.str(), {}});
      continue;
    }
    for (auto &[block, grad] : parts) {
      results.push_back(grad);
      marks.push_back({name.str(), block->offsets});
    }
  }
  func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  SmallVector<Type> types;
  for (Value v : results)
    types.push_back(v.getType());
  auto *dialect = func.getContext()->getLoadedDialect<GraphDialect>();
  DictionaryAttr lossAttrs = func.getResultAttrDict(0);
  SmallVector<DictionaryAttr> resultAttrs{lossAttrs ? lossAttrs
                                                    : b.getDictionaryAttr({})};
  for (auto &[name, offsets] : marks) {
    StringAttr nameAttr = b.getStringAttr(name);
    SmallVector<NamedAttribute> attrs{
        b.getNamedAttr(dialect->getGradientOfAttrHelper().getName(), nameAttr),
        b.getNamedAttr(graph::kNameAttrName, nameAttr)};
    if (!offsets.empty())
      attrs.push_back(
          b.getNamedAttr(dialect->getGradientOffsetsAttrHelper().getName(),
                         b.getDenseI64ArrayAttr(offsets)));
    resultAttrs.push_back(b.getDictionaryAttr(attrs));
  }
  func.setType(
      FunctionType::get(func.getContext(), func.getArgumentTypes(), types));
  func.setAllResultAttrs(resultAttrs);
  return success();
}

struct AutodiffPass : public graph::impl::AutodiffPassBase<AutodiffPass> {
  using AutodiffPassBase::AutodiffPassBase;
  void runOnOperation() override {
    Differentiator d(getOperation(), {freeze, trainOnly, autoFreeze},
                     wholeParameters, inheritedAttributes);
    if (failed(d.run()))
      signalPassFailure();
  }
};

} // namespace
