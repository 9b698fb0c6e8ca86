//===- AttentionLayout.cpp - Attention on sequence-first operands -*- C++ -*-//
//
// Exporters move the head dim in front of the sequence dim before attention
// ([B, S, H, D] -> [B, H, S, D]) and back after it. graph.attention with
// sequence_first reads and writes [B, S, H, D] directly, so those transposes
// (each a full pass over an activation) disappear. The same holds for
// graph.attention_grad in a training step: its dy, q, k, v come from such
// transposes and its dq, dk, dv are transposed back.
//
// Between a transpose and the attention there may be layout-agnostic ops:
// the rotary embedding (Llama, Qwen2, Mistral), and the reshape / expand /
// reshape that repeats K and V for grouped-query attention (its gradient
// a reshape / reduce_sum / reshape). Such a chain is rebuilt in the
// sequence-first layout (the rotary tables reshaped, the repeat done over
// [B, S, Hkv, G, D]), so the transposes at both ends cancel.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_ATTENTIONLAYOUTPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {
using Perm = SmallVector<int64_t, 6>;

/// The permutation that swaps the third- and second-to-last dims of a
/// rank-`rank` tensor ([0, .., r-4, r-2, r-3, r-1]): [.., S, H, D] <->
/// [.., H, S, D].
static Perm sequenceHeadSwap(int64_t rank) {
  Perm perm = llvm::to_vector<6>(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 3], perm[rank - 2]);
  return perm;
}

static SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape,
                                         ArrayRef<int64_t> perm) {
  return llvm::map_to_vector(perm, [&](int64_t d) { return shape[d]; });
}

/// Consecutive dims of a reshape's operand and result with equal products:
/// [in.first, in.second) holds the elements of [out.first, out.second).
struct ReshapeGroup {
  std::pair<int64_t, int64_t> in, out;
};

/// The reshape from `in` to `out` as groups (unit dims on either side form
/// groups of their own, matched to a unit dim or to nothing), or nothing
/// for dynamic shapes.
static std::optional<SmallVector<ReshapeGroup>>
reshapeGroups(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  if (ShapedType::isDynamicShape(in) || ShapedType::isDynamicShape(out))
    return std::nullopt;
  SmallVector<ReshapeGroup> groups;
  int64_t i = 0, j = 0, n = in.size(), m = out.size();
  while (i < n || j < m) {
    bool unitIn = i < n && in[i] == 1, unitOut = j < m && out[j] == 1;
    if (unitIn || unitOut) {
      groups.push_back({{i, i + unitIn}, {j, j + unitOut}});
      i += unitIn;
      j += unitOut;
      continue;
    }
    if (i == n || j == m)
      return std::nullopt;
    int64_t i0 = i, j0 = j, pi = in[i++], pj = out[j++];
    while (pi != pj) {
      if (pi < pj && i < n)
        pi *= in[i++];
      else if (pj < pi && j < m)
        pj *= out[j++];
      else
        return std::nullopt;
    }
    groups.push_back({{i0, i}, {j0, j}});
  }
  return groups;
}

/// The operand permutation that, followed by a reshape, gives the reshape's
/// result permuted by `perm`: defined when `perm` moves the result's groups
/// as wholes. A group with no result dims travels with the group before it.
static std::optional<Perm> reshapeOperandPerm(ArrayRef<int64_t> in,
                                              ArrayRef<int64_t> out,
                                              ArrayRef<int64_t> perm) {
  auto groups = reshapeGroups(in, out);
  if (!groups)
    return std::nullopt;
  // Fold operand-only groups into their neighbour with result dims.
  SmallVector<ReshapeGroup> merged;
  for (ReshapeGroup g : *groups) {
    if (g.out.first == g.out.second && !merged.empty()) {
      merged.back().in.second = g.in.second;
      continue;
    }
    if (!merged.empty() &&
        merged.back().out.first == merged.back().out.second) {
      g.in.first = merged.back().in.first;
      merged.back() = g;
      continue;
    }
    merged.push_back(g);
  }
  SmallVector<int64_t> groupOf(out.size(), -1);
  for (auto [index, g] : llvm::enumerate(merged))
    for (int64_t d = g.out.first; d < g.out.second; ++d)
      groupOf[d] = index;
  Perm operandPerm;
  for (size_t k = 0; k < perm.size();) {
    const ReshapeGroup &g = merged[groupOf[perm[k]]];
    for (int64_t d = g.out.first; d < g.out.second; ++d, ++k)
      if (k >= perm.size() || perm[k] != d)
        return std::nullopt;
    for (int64_t d = g.in.first; d < g.in.second; ++d)
      operandPerm.push_back(d);
  }
  if (operandPerm.size() != in.size())
    return std::nullopt;
  return operandPerm;
}

/// Rebuilds values in a permuted layout from their producers, without
/// transposes. With no builder it only checks that it could.
class LayoutRewriter {
public:
  explicit LayoutRewriter(OpBuilder *builder) : builder(builder) {}

  /// Values taken to be `transpose(base, perm)` while checking (the results
  /// of an op about to be rebuilt sequence-first).
  void assumeTransposed(Value v, ArrayRef<int64_t> perm) {
    assumed[v.getAsOpaquePointer()] = Perm(perm);
  }

  /// A value equal to `transpose(v, perm)` built from v's producers with no
  /// transpose, or failure. Null (on success) when only checking.
  FailureOr<Value> permuted(Value v, ArrayRef<int64_t> perm) {
    auto key = std::make_pair(v.getAsOpaquePointer(), Perm(perm));
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    FailureOr<Value> result = build(v, perm);
    if (succeeded(result) && builder)
      memo[key] = *result;
    return result;
  }

private:
  FailureOr<Value> build(Value v, ArrayRef<int64_t> perm) {
    if (auto it = assumed.find(v.getAsOpaquePointer()); it != assumed.end())
      return cancels(it->second, perm) ? FailureOr<Value>(Value())
                                       : FailureOr<Value>(failure());
    if (auto t = v.getDefiningOp<TransposeOp>())
      return cancels(t.getPerm(), perm) ? FailureOr<Value>(t.getX())
                                        : FailureOr<Value>(failure());
    Operation *op = v.getDefiningOp();
    // Rebuilding an op that other readers keep would compute it twice;
    // attention and its gradient read the same q, k and v.
    if (!op || !llvm::all_of(v.getUsers(), [&](Operation *user) {
          return v.hasOneUse() || isa<AttentionOp, AttentionGradOp>(user);
        }))
      return failure();
    auto type = cast<RankedTensorType>(v.getType());
    auto permutedType = type.clone(permuteShape(type.getShape(), perm));
    if (auto rotary = dyn_cast<RotaryOp>(op))
      return permuteRotary(rotary, perm, permutedType);
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      auto operandPerm = reshapeOperandPerm(reshape.getX().getType().getShape(),
                                            type.getShape(), perm);
      if (!operandPerm)
        return failure();
      FailureOr<Value> x = permuted(reshape.getX(), *operandPerm);
      if (failed(x) || !builder)
        return x;
      return ReshapeOp::create(*builder, op->getLoc(), permutedType, *x)
          .getResult();
    }
    if (auto expand = dyn_cast<ExpandOp>(op)) {
      if (expand.getX().getType().getRank() != type.getRank())
        return failure();
      FailureOr<Value> x = permuted(expand.getX(), perm);
      if (failed(x) || !builder)
        return x;
      return ExpandOp::create(*builder, op->getLoc(), permutedType, *x)
          .getResult();
    }
    if (auto sum = dyn_cast<ReduceSumOp>(op)) {
      if (!sum.getKeepdims())
        return failure();
      FailureOr<Value> x = permuted(sum.getX(), perm);
      if (failed(x) || !builder)
        return x;
      SmallVector<int64_t> axes;
      for (int64_t a : sum.getAxes())
        axes.push_back(llvm::find(perm, a) - perm.begin());
      llvm::sort(axes);
      return ReduceSumOp::create(*builder, op->getLoc(), *x, axes, true)
          .getResult();
    }
    return failure();
  }

  /// Whether `transpose(transpose(x, inner), outer)` is x.
  static bool cancels(ArrayRef<int64_t> inner, ArrayRef<int64_t> outer) {
    if (inner.size() != outer.size())
      return false;
    for (auto [i, o] : llvm::enumerate(outer))
      if (inner[o] != int64_t(i))
        return false;
    return true;
  }

  /// The rotary embedding permuted: the same on the permuted x when the
  /// last dim stays last, with its tables reshaped to the new layout (they
  /// broadcast over the heads, so only unit dims move).
  FailureOr<Value> permuteRotary(RotaryOp op, ArrayRef<int64_t> perm,
                                 RankedTensorType permutedType) {
    int64_t rank = perm.size();
    if (perm.back() != rank - 1)
      return failure();
    SmallVector<SmallVector<int64_t>> tableShapes;
    for (Value table : {op.getCos(), op.getSin()}) {
      auto shape = cast<RankedTensorType>(table.getType()).getShape();
      if (int64_t(shape.size()) > rank)
        return failure();
      SmallVector<int64_t> aligned(rank - shape.size(), 1);
      llvm::append_range(aligned, shape);
      // A reshape only when the non-unit dims keep their order.
      SmallVector<int64_t> movedNonUnit;
      for (int64_t d : perm)
        if (aligned[d] != 1)
          movedNonUnit.push_back(d);
      if (!llvm::is_sorted(movedNonUnit))
        return failure();
      tableShapes.push_back(permuteShape(aligned, perm));
    }
    FailureOr<Value> x = permuted(op.getX(), perm);
    if (failed(x) || !builder)
      return x;
    Location loc = op.getLoc();
    auto reshapeTable = [&](Value table, ArrayRef<int64_t> shape) -> Value {
      auto type = cast<RankedTensorType>(table.getType());
      if (type.getShape() == shape)
        return table;
      Value &reshaped = reshapedTables[{table.getAsOpaquePointer(),
                                        Perm(shape.begin(), shape.end())}];
      if (!reshaped) {
        // Next to the table, so that every layer's rotary can read it.
        OpBuilder::InsertionGuard guard(*builder);
        builder->setInsertionPointAfterValue(table);
        reshaped = ReshapeOp::create(*builder, loc, type.clone(shape), table);
      }
      return reshaped;
    };
    Value cos = reshapeTable(op.getCos(), tableShapes[0]);
    Value sin = reshapeTable(op.getSin(), tableShapes[1]);
    return RotaryOp::create(*builder, loc, permutedType, *x, cos, sin,
                            op.getTransposedAttr())
        .getResult();
  }

  OpBuilder *builder;
  DenseMap<void *, Perm> assumed;
  /// Rebuilt values by (value, permutation).
  std::map<std::pair<void *, Perm>, Value> memo;
  /// Reshaped rotary tables by (table, shape).
  std::map<std::pair<void *, Perm>, Value> reshapedTables;
};

/// The transposes that end the chains reading `v` through ops that
/// LayoutRewriter rebuilds (rotary, reshape, expand, reduce_sum), or
/// failure if a chain ends anywhere else.
static LogicalResult collectChainEnds(Value v, SetVector<TransposeOp> &ends) {
  for (Operation *user : v.getUsers()) {
    if (auto t = dyn_cast<TransposeOp>(user)) {
      ends.insert(t);
      continue;
    }
    auto rotary = dyn_cast<RotaryOp>(user);
    if (rotary && (rotary.getCos() == v || rotary.getSin() == v))
      return failure();
    if (!rotary && !isa<ReshapeOp, ExpandOp, ReduceSumOp>(user))
      return failure();
    if (failed(collectChainEnds(user->getResult(0), ends)))
      return failure();
  }
  return success();
}

/// An attention-like op (AttentionOp, AttentionGradOp) with the operands
/// that the sequence-first op reads in the other layout.
struct AttentionSite {
  Operation *op;
  SmallVector<Value, 4> operands;
  /// The q, k and v that a forward op and its gradient share.
  std::tuple<Value, Value, Value> qkv;
};

static std::optional<AttentionSite> attentionSite(Operation *op) {
  if (auto fwd = dyn_cast<AttentionOp>(op)) {
    if (fwd.getSequenceFirst())
      return std::nullopt;
    return AttentionSite{op,
                         {fwd.getQ(), fwd.getK(), fwd.getV()},
                         {fwd.getQ(), fwd.getK(), fwd.getV()}};
  }
  auto grad = dyn_cast<AttentionGradOp>(op);
  // Saved statistics are laid out for the operands as they are.
  if (!grad || grad.getSequenceFirst() || grad.getStats())
    return std::nullopt;
  return AttentionSite{op,
                       {grad.getDy(), grad.getQ(), grad.getK(), grad.getV()},
                       {grad.getQ(), grad.getK(), grad.getV()}};
}

/// Whether each operand of `site` can be rebuilt sequence-first and each
/// result's readers end in transposes that a sequence-first result cancels.
static bool canRewrite(const AttentionSite &site) {
  auto rank = cast<RankedTensorType>(site.op->getResult(0).getType()).getRank();
  if (rank < 3)
    return false;
  Perm swap = sequenceHeadSwap(rank);
  LayoutRewriter check(nullptr);
  for (Value operand : site.operands)
    if (failed(check.permuted(operand, swap)))
      return false;
  SetVector<TransposeOp> ends;
  for (Value result : site.op->getResults()) {
    check.assumeTransposed(result, swap);
    if (failed(collectChainEnds(result, ends)))
      return false;
  }
  return llvm::all_of(ends, [&](TransposeOp end) {
    return succeeded(check.permuted(end.getX(), end.getPerm()));
  });
}

/// The op of `site` rebuilt sequence-first on `operands`.
static Operation *createSequenceFirst(IRRewriter &ir, Operation *op,
                                      ArrayRef<Value> operands) {
  if (auto fwd = dyn_cast<AttentionOp>(op)) {
    auto type = cast<RankedTensorType>(fwd.getType());
    return AttentionOp::create(
        ir, fwd.getLoc(),
        type.clone(
            permuteShape(type.getShape(), sequenceHeadSwap(type.getRank()))),
        operands[0], operands[1], operands[2], fwd.getMask(),
        fwd.getQueryStart(), fwd.getScaleAttr(), fwd.getCausalAttr(),
        ir.getBoolAttr(true), fwd.getWindowAttr());
  }
  auto grad = cast<AttentionGradOp>(op);
  return AttentionGradOp::create(
      ir, grad.getLoc(), operands[1].getType(), operands[2].getType(),
      operands[3].getType(), operands[0], operands[1], operands[2], operands[3],
      grad.getMask(), grad.getQueryStart(), /*out=*/Value(),
      /*stats=*/Value(), grad.getScaleAttr(), grad.getCausalAttr(),
      ir.getBoolAttr(true), grad.getWindowAttr());
}

/// Rewrites `site` sequence-first (canRewrite holds).
static void rewriteSequenceFirst(const AttentionSite &site,
                                 LayoutRewriter &rewriter, IRRewriter &ir) {
  Operation *op = site.op;
  Perm swap = sequenceHeadSwap(
      cast<RankedTensorType>(op->getResult(0).getType()).getRank());
  SetVector<TransposeOp> ends;
  for (Value result : op->getResults())
    (void)collectChainEnds(result, ends);
  ir.setInsertionPoint(op);
  SmallVector<Value> rebuilt;
  for (Value operand : site.operands)
    rebuilt.push_back(*rewriter.permuted(operand, swap));
  Operation *fused = createSequenceFirst(ir, op, rebuilt);
  // The old results as transposes of the new ones, which the chains' ends
  // then cancel.
  for (auto [old, now] : llvm::zip(op->getResults(), fused->getResults())) {
    auto back = TransposeOp::create(ir, op->getLoc(), now, swap);
    ir.replaceAllUsesWith(old, back.getResult());
  }
  ir.eraseOp(op);
  for (TransposeOp end : ends) {
    ir.setInsertionPoint(end);
    ir.replaceOp(end, *rewriter.permuted(end.getX(), end.getPerm()));
  }
}

struct AttentionLayoutPass
    : public graph::impl::AttentionLayoutPassBase<AttentionLayoutPass> {
  void runOnOperation() override {
    SmallVector<AttentionSite> sites;
    getOperation().walk([&](Operation *op) {
      if (auto site = attentionSite(op))
        sites.push_back(*site);
    });
    // A forward op and its gradient (same q, k, v) change layout together:
    // the gradient reads the forward's saved statistics only when both
    // have one layout (paracc-save-attention-stats).
    std::map<std::tuple<void *, void *, void *>, bool> groupOk;
    auto groupOf = [](const AttentionSite &site) {
      auto [q, k, v] = site.qkv;
      return std::make_tuple(q.getAsOpaquePointer(), k.getAsOpaquePointer(),
                             v.getAsOpaquePointer());
    };
    for (const AttentionSite &site : sites) {
      auto [it, inserted] = groupOk.try_emplace(groupOf(site), true);
      it->second = it->second && canRewrite(site);
    }
    IRRewriter ir(&getContext());
    // One rewriter for the function: attention and its gradient share the
    // rebuilt q, k and v.
    LayoutRewriter rewriter(&ir);
    for (const AttentionSite &site : sites)
      if (groupOk[groupOf(site)])
        rewriteSequenceFirst(site, rewriter, ir);
    // The transposes and the head-first chains left without readers.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : llvm::reverse(ops))
      if (op->getNumResults() > 0 && isOpTriviallyDead(op))
        op->erase();
  }
};
} // namespace
