//===- FuseElementwise.cpp - Elementwise chains as one op ------*- C++ -*-===//
//
// Groups elementwise ops of one result shape along their producer edges and
// replaces each group of two or more with a graph.fused_elementwise whose
// body holds the group's ops on rank-0 tensors. A group's fused op takes the
// place of its last op, so an op may join a group only when no use of the
// group's values outside it comes earlier; reductions are first moved after
// their operand's other readers, so that they do not stand in the way.
//
//===----------------------------------------------------------------------===//

#include "ShapeOf.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <memory>

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// Ops that join groups: the fusible elementwise ops, and expands of a
/// fusible element type (in a body an expand is its operand: the operand
/// broadcasts like any other).
bool isGroupable(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  if (auto expand = dyn_cast<ExpandOp>(op)) {
    Type e = cast<RankedTensorType>(expand.getType()).getElementType();
    return e.isF32() || e.isBF16() || e.isF16() || e.isInteger(1);
  }
  return isFusibleElementwiseOp(op);
}

/// A rank-0 or splat constant: an immediate of a body.
DenseElementsAttr splatValue(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat() ? dense : DenseElementsAttr();
}

/// The runtime's limits on a FusedElementwise instruction
/// (kMaxFusedInputs, kMaxFusedResults in runtime/lib/Kernels/FusedProgram.h).
constexpr size_t kMaxInputs = 32;
constexpr size_t kMaxResults = 16;

struct Group {
  SmallVector<Operation *> members;
  SmallVector<int64_t> shape;
  DictionaryAttr attrs;
};

class ElementwiseFusion {
public:
  ElementwiseFusion(Block &block, int64_t maxOps) : maxOps_(maxOps) {
    for (Operation &op : block)
      position_[&op] = position_.size();
  }

  void run(Block &block) {
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Operation *op : ops)
      if (isGroupable(op))
        place(op);
    for (auto &g : groups_)
      if (g && worthFusing(*g))
        materialize(*g);
    // Constants now read only as immediates of fused bodies.
    for (Operation &op : llvm::make_early_inc_range(block))
      if (isa<ConstantOp>(op) && op.use_empty())
        op.erase();
  }

private:
  /// Puts `op` into its producers' groups when it may join them, else into
  /// a group of its own.
  void place(Operation *op) {
    DictionaryAttr attrs = op->getDiscardableAttrDictionary();
    SmallVector<Group *> producers;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      Group *g = def ? groupOf_.lookup(def) : nullptr;
      if (g && ArrayRef<int64_t>(g->shape) == shapeOf(op->getResult(0)) &&
          g->attrs == attrs && !llvm::is_contained(producers, g))
        producers.push_back(g);
    }
    // All the producers' groups at once, else the first one the op may
    // join alone (another producer's values may be used earlier: a forward
    // value the backward reads again).
    if (!producers.empty() && !mayJoin(producers, op)) {
      Group *alone = nullptr;
      for (Group *g : producers)
        if (mayJoin(g, op)) {
          alone = g;
          break;
        }
      producers.clear();
      if (alone)
        producers.push_back(alone);
    }
    if (!producers.empty()) {
      Group *into = producers.front();
      for (Group *g : ArrayRef(producers).drop_front()) {
        for (Operation *m : g->members) {
          into->members.push_back(m);
          groupOf_[m] = into;
        }
        g->members.clear();
      }
      into->members.push_back(op);
      groupOf_[op] = into;
      return;
    }
    auto g = std::make_unique<Group>();
    g->members.push_back(op);
    g->shape.assign(shapeOf(op->getResult(0)).begin(),
                    shapeOf(op->getResult(0)).end());
    g->attrs = attrs;
    groupOf_[op] = g.get();
    groups_.push_back(std::move(g));
  }

  /// Whether `op` may join `producers`' groups: every use of their values
  /// outside them and `op` comes after `op`, and the group stays within the
  /// size a fused op may have.
  bool mayJoin(ArrayRef<Group *> producers, Operation *op) const {
    size_t members = 1;
    for (Group *g : producers)
      members += g->members.size();
    if (int64_t(members) > maxOps_)
      return false;
    // Within the operands and results a fused instruction may have (the
    // runtime's limits: 32 and 16).
    llvm::SmallPtrSet<Operation *, 32> set;
    for (Group *g : producers)
      set.insert(g->members.begin(), g->members.end());
    set.insert(op);
    llvm::SmallPtrSet<Value, 32> inputs;
    size_t outputs = 0;
    for (Operation *m : set) {
      for (Value v : m->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!(def && set.contains(def)) && !splatValue(v))
          inputs.insert(v);
      }
      for (Value r : m->getResults())
        outputs += llvm::any_of(r.getUsers(),
                                [&](Operation *u) { return !set.contains(u); });
    }
    if (inputs.size() > kMaxInputs || outputs > kMaxResults)
      return false;
    const size_t at = position_.lookup(op);
    for (Group *g : producers)
      for (Operation *m : g->members)
        for (Operation *user : m->getUsers()) {
          if (user == op)
            continue;
          Group *ug = groupOf_.lookup(user);
          if (ug && llvm::is_contained(producers, ug))
            continue;
          if (position_.lookup(user) < at)
            return false;
        }
    return true;
  }

  static bool worthFusing(const Group &g) {
    return g.members.size() >= 2 && llvm::any_of(g.members, [](Operation *m) {
             return !isa<ExpandOp>(m);
           });
  }

  void materialize(Group &g) {
    llvm::sort(g.members, [&](Operation *a, Operation *b) {
      return position_.lookup(a) < position_.lookup(b);
    });
    llvm::SmallPtrSet<Operation *, 16> inGroup(g.members.begin(),
                                               g.members.end());
    // Operands from outside (immediates aside) and values used outside.
    llvm::SetVector<Value> inputs;
    SmallVector<Value> outputs;
    for (Operation *m : g.members) {
      for (Value v : m->getOperands()) {
        Operation *def = v.getDefiningOp();
        if ((def && inGroup.contains(def)) || splatValue(v))
          continue;
        inputs.insert(v);
      }
      for (Value r : m->getResults())
        if (llvm::any_of(r.getUsers(),
                         [&](Operation *u) { return !inGroup.contains(u); }))
          outputs.push_back(r);
    }
    if (outputs.empty())
      return;
    Operation *last = g.members.back();
    OpBuilder b(last);
    SmallVector<Location> locs;
    for (Operation *m : g.members)
      locs.push_back(m->getLoc());
    SmallVector<Type> resultTypes;
    for (Value v : outputs)
      resultTypes.push_back(v.getType());
    auto fused =
        FusedElementwiseOp::create(b, FusedLoc::get(b.getContext(), locs),
                                   resultTypes, inputs.getArrayRef());
    fused->setDiscardableAttrs(g.attrs);
    auto scalar = [](Type t) {
      return RankedTensorType::get({},
                                   cast<RankedTensorType>(t).getElementType());
    };
    Block *body = new Block();
    fused.getBody().push_back(body);
    IRMapping map;
    for (Value v : inputs)
      map.map(v, body->addArgument(scalar(v.getType()), v.getLoc()));
    OpBuilder in = OpBuilder::atBlockEnd(body);
    for (Operation *m : g.members) {
      for (Value v : m->getOperands()) {
        if (map.contains(v))
          continue;
        if (DenseElementsAttr splat = splatValue(v)) {
          auto type = scalar(v.getType());
          map.map(v, ConstantOp::create(in, v.getLoc(), type,
                                        splat.resizeSplat(type)));
        }
      }
      if (auto expand = dyn_cast<ExpandOp>(m)) {
        map.map(expand.getResult(), map.lookup(expand.getX()));
        continue;
      }
      Operation *clone = in.clone(*m, map);
      clone->setDiscardableAttrs(DictionaryAttr::get(b.getContext()));
      for (Value r : clone->getResults())
        r.setType(scalar(r.getType()));
    }
    SmallVector<Value> yielded;
    for (Value v : outputs)
      yielded.push_back(map.lookup(v));
    YieldOp::create(in, fused.getLoc(), yielded);
    for (auto [v, r] : llvm::zip(outputs, fused.getResults()))
      v.replaceUsesWithIf(
          r, [&](OpOperand &use) { return !inGroup.contains(use.getOwner()); });
    for (Operation *m : llvm::reverse(g.members))
      m->erase();
  }

  int64_t maxOps_;
  DenseMap<Operation *, size_t> position_;
  DenseMap<Operation *, Group *> groupOf_;
  std::vector<std::unique_ptr<Group>> groups_;
};

/// Moves each reduction later, towards its first user, while its operand
/// is read later anyway: a reduction that reads a value between the value's
/// producer and another elementwise reader (BatchNorm's backward sums dy,
/// then multiplies dy by the centered input and sums that) would otherwise
/// keep the reader out of the producer's group. The reduction stops after
/// the operand's last other reader (the operand's lifetime is unchanged),
/// before its own first user, and before any op of other discardable
/// attributes (pipeline actions, micro-batches).
void sinkReductions(Block &block) {
  SmallVector<Operation *> reductions;
  for (Operation &op : block)
    if (isa<ReduceSumOp, ReduceMeanOp, ReduceSumSquareOp, ReduceMaxOp,
            ReduceMinOp>(op))
      reductions.push_back(&op);
  for (Operation *r : llvm::reverse(reductions)) {
    Operation *lastReader = nullptr, *firstUser = nullptr;
    for (Operation *user : r->getOperand(0).getUsers()) {
      Operation *at = block.findAncestorOpInBlock(*user);
      if (at && at != r && r->isBeforeInBlock(at) &&
          (!lastReader || lastReader->isBeforeInBlock(at)))
        lastReader = at;
    }
    if (!lastReader)
      continue;
    for (Operation *user : r->getUsers()) {
      Operation *at = block.findAncestorOpInBlock(*user);
      if (at && (!firstUser || at->isBeforeInBlock(firstUser)))
        firstUser = at;
    }
    DictionaryAttr attrs = r->getDiscardableAttrDictionary();
    Operation *after = r;
    for (Operation *next = r->getNextNode(); next && next != firstUser;
         next = next->getNextNode()) {
      if (next->getDiscardableAttrDictionary() != attrs)
        break;
      after = next;
      if (next == lastReader)
        break;
    }
    if (after != r)
      r->moveAfter(after);
  }
}

struct FuseElementwisePass
    : graph::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using FuseElementwisePassBase::FuseElementwisePassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();
    sinkReductions(block);
    ElementwiseFusion(block, maxOps).run(block);
  }
};

} // namespace
