//===- PersistentWeightCopies.cpp - bf16 weights kept between steps -*- C++
//-*-//
//
// Mixed precision casts every f32 master weight to bf16 at the start of the
// step and updates the f32 weight at its end. Keeping the bf16 weight as
// state, written by the update while it holds the new value, saves the
// cast's second read of every parameter (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphDialect.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_PERSISTENTWEIGHTCOPIESPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

/// Where the step reads weight `w` narrowed: a graph.cast's result or one
/// result of a graph.foreach_cast.
struct NarrowRead {
  Operation *cast = nullptr;
  unsigned index = 0;
  Value value() const { return cast->getResult(index); }
};

bool isNarrowing(Type from, Type to) {
  Type f = getElementTypeOrSelf(from), t = getElementTypeOrSelf(to);
  return f.isF32() && (t.isBF16() || t.isF16());
}

/// The one narrowing cast that reads `w`, if there is exactly one.
std::optional<NarrowRead> soleNarrowRead(g::WeightOp w) {
  std::optional<NarrowRead> found;
  for (OpOperand &use : w->getUses()) {
    Operation *user = use.getOwner();
    std::optional<NarrowRead> read;
    if (auto cast = dyn_cast<g::CastOp>(user)) {
      if (isNarrowing(w.getType(), cast.getType()))
        read = NarrowRead{cast, 0};
    } else if (auto group = dyn_cast<g::ForeachCastOp>(user)) {
      unsigned k = use.getOperandNumber();
      if (isNarrowing(w.getType(), group.getResults()[k].getType()))
        read = NarrowRead{group, k};
    }
    if (!read)
      continue;
    if (found)
      return std::nullopt; // Two narrow reads: leave it as it is.
    found = read;
  }
  return found;
}

/// The assign of `w`'s own block among `v`'s users.
g::AssignOp assignOfWeight(Value v, g::WeightOp w) {
  for (Operation *user : v.getUsers())
    if (auto assign = dyn_cast<g::AssignOp>(user))
      if (assign.getName() == w.getName() &&
          assign.getOffsets() == w.getOffsets())
        return assign;
  return nullptr;
}

/// One parameter of an update that gets a copy.
struct Member {
  unsigned index;
  g::WeightOp weight;
  NarrowRead read;
  g::AssignOp assign;
};

/// The state holding `w`'s copy of type `type`, after `w`, with `w`'s block
/// and sharding (its global type narrowed too).
g::StateOp createCopyState(g::WeightOp w, RankedTensorType type) {
  OpBuilder b(w->getContext());
  b.setInsertionPointAfter(w);
  std::string name =
      (w.getName() + "." + (type.getElementType().isBF16() ? "bf16" : "f16") +
       "_copy")
          .str();
  auto state = g::StateOp::create(b, w.getLoc(), type, b.getStringAttr(name),
                                  w.getOffsetsAttr(), w.getSourceShapeAttr(),
                                  b.getStringAttr(w.getName()));
  state->setDiscardableAttrs(w->getDiscardableAttrDictionary());
  if (auto global = w->getAttrOfType<TypeAttr>(kGlobalTypeAttrName))
    state->setAttr(kGlobalTypeAttrName,
                   TypeAttr::get(cast<RankedTensorType>(global.getValue())
                                     .clone(type.getElementType())));
  return state;
}

/// Rebuilds a graph.foreach_cast without the results nothing reads (erases
/// it when none is read).
void dropUnreadResults(g::ForeachCastOp group) {
  SmallVector<Value> xs, kept;
  SmallVector<Type> types;
  for (auto [x, y] : llvm::zip(group.getXs(), group.getResults())) {
    if (y.use_empty())
      continue;
    xs.push_back(x);
    types.push_back(y.getType());
    kept.push_back(y);
  }
  if (kept.size() == group.getResults().size())
    return;
  if (!xs.empty()) {
    OpBuilder b(group);
    auto smaller = g::ForeachCastOp::create(b, group.getLoc(), types, xs);
    smaller->setDiscardableAttrs(group->getDiscardableAttrDictionary());
    for (auto [old, now] : llvm::zip(kept, smaller.getResults()))
      old.replaceAllUsesWith(now);
  }
  group->erase();
}

/// Rebuilds `update` as one op over `indices` of its parameters, with
/// copies of types `copies` (empty: none); the old results' users move to
/// the new op's.
g::ForeachAdamWOp rebuild(g::ForeachAdamWOp update, ArrayRef<unsigned> indices,
                          ArrayRef<Type> copies) {
  SmallVector<Value> params, grads, expAvgs, expAvgSqs;
  SmallVector<Type> types;
  for (unsigned j : indices) {
    params.push_back(update.getParams()[j]);
    grads.push_back(update.getGrads()[j]);
    expAvgs.push_back(update.getExpAvgs()[j]);
    expAvgSqs.push_back(update.getExpAvgSqs()[j]);
    types.push_back(update.getParams()[j].getType());
  }
  OpBuilder b(update);
  auto built = g::ForeachAdamWOp::create(
      b, update.getLoc(), types, types, types, copies, params, grads, expAvgs,
      expAvgSqs, update.getLr(), update.getStep(), update.getGradScale(),
      update.getBeta1Attr(), update.getBeta2Attr(), update.getEpsAttr(),
      update.getWeightDecayAttr());
  built->setDiscardableAttrs(update->getDiscardableAttrDictionary());
  for (auto [k, j] : llvm::enumerate(indices)) {
    update.getNewParams()[j].replaceAllUsesWith(built.getNewParams()[k]);
    update.getNewExpAvgs()[j].replaceAllUsesWith(built.getNewExpAvgs()[k]);
    update.getNewExpAvgSqs()[j].replaceAllUsesWith(built.getNewExpAvgSqs()[k]);
  }
  return built;
}

void addCopies(g::ForeachAdamWOp update) {
  if (!update.getNewParamCopies().empty())
    return;
  SmallVector<Member> members;
  SmallVector<unsigned> others;
  for (auto [j, param] : llvm::enumerate(update.getParams())) {
    auto w = param.getDefiningOp<g::WeightOp>();
    std::optional<NarrowRead> read = w ? soleNarrowRead(w) : std::nullopt;
    g::AssignOp assign =
        read ? assignOfWeight(update.getNewParams()[j], w) : nullptr;
    if (assign)
      members.push_back({unsigned(j), w, *read, assign});
    else
      others.push_back(unsigned(j));
  }
  if (members.empty())
    return;
  SmallVector<unsigned> indices;
  SmallVector<Type> copyTypes;
  for (const Member &m : members) {
    indices.push_back(m.index);
    copyTypes.push_back(m.read.value().getType());
  }
  g::ForeachAdamWOp withCopies = rebuild(update, indices, copyTypes);
  if (!others.empty())
    rebuild(update, others, {});
  update->erase();
  for (auto [k, m] : llvm::enumerate(members)) {
    auto type = cast<RankedTensorType>(m.read.value().getType());
    g::StateOp state = createCopyState(m.weight, type);
    // (The casts go at the end: one graph.foreach_cast may serve several
    // updates.)
    m.read.value().replaceAllUsesWith(state.getResult());
    OpBuilder b(m.assign);
    b.setInsertionPointAfter(m.assign);
    g::AssignOp::create(b, m.assign.getLoc(), state.getNameAttr(),
                        withCopies.getNewParamCopies()[k],
                        m.weight.getOffsetsAttr());
  }
}

struct PersistentWeightCopiesPass
    : public impl::PersistentWeightCopiesPassBase<PersistentWeightCopiesPass> {
  void runOnOperation() override {
    SmallVector<g::ForeachAdamWOp> updates;
    getOperation().walk([&](g::ForeachAdamWOp op) { updates.push_back(op); });
    for (g::ForeachAdamWOp update : updates)
      addCopies(update);
    SmallVector<Operation *> casts;
    getOperation().walk([&](Operation *op) {
      if (isa<g::CastOp, g::ForeachCastOp>(op))
        casts.push_back(op);
    });
    for (Operation *op : casts) {
      if (auto group = dyn_cast<g::ForeachCastOp>(op))
        dropUnreadResults(group);
      else if (op->use_empty() &&
               op->getOperand(0).getDefiningOp<g::WeightOp>())
        op->erase();
    }
  }
};

} // namespace
} // namespace mlir::paracc::dist
