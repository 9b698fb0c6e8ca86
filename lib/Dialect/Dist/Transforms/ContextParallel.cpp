//===- ContextParallel.cpp - Split the sequence over the cp axis -*- C++
//-*-===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_CONTEXTPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace {
namespace g = graph;

/// A slice that keeps one dim's [begin, end) of a length-`n` dim and every
/// other dim whole: that dim, or -1.
int64_t slicedDim(g::SliceOp slice, int64_t begin, int64_t endFromLength) {
  auto in = cast<RankedTensorType>(slice.getX().getType());
  int64_t dim = -1;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    int64_t n = in.getDimSize(d);
    if (slice.getSteps()[d] != 1)
      return -1;
    if (slice.getStarts()[d] == 0 && slice.getLimits()[d] == n)
      continue;
    if (dim >= 0 || slice.getStarts()[d] != begin ||
        slice.getLimits()[d] != n + endFromLength)
      return -1;
    dim = d;
  }
  return dim;
}

/// `type` with dim `d` of size `n`.
RankedTensorType withDim(RankedTensorType type, int64_t d, int64_t n) {
  SmallVector<int64_t> shape(type.getShape());
  shape[d] = n;
  return type.clone(shape);
}

/// Whether `op` maps each token's row of its first operand to one row of
/// its result: `cast`, `log_softmax`, a `matmul` by a matrix.
bool keepsTokenRows(Operation *op) {
  return isa_and_nonnull<g::CastOp, g::LogSoftmaxOp>(op) ||
         (isa_and_nonnull<g::MatMulOp>(op) &&
          cast<RankedTensorType>(op->getOperand(1).getType()).getRank() == 2);
}

/// Walks from a loss operand back through the ops that keep a per-token
/// row (`reshape` flattening the leading dims, and, for scores, those of
/// keepsTokenRows) to a slice of the sequence; the ops on the way, nearest
/// the loss first.
g::SliceOp findShift(Value v, bool scores, SmallVector<Operation *> &chain) {
  while (Operation *op = v.getDefiningOp()) {
    if (auto slice = dyn_cast<g::SliceOp>(op))
      return v.hasOneUse() ? slice : g::SliceOp();
    bool rowwise = isa<g::ReshapeOp>(op) || (scores && keepsTokenRows(op));
    if (!rowwise || !v.hasOneUse())
      return g::SliceOp();
    chain.push_back(op);
    v = op->getOperand(0);
  }
  return g::SliceOp();
}

/// Retypes `chain` (nearest the loss first) for a sequence dim `d` of
/// `n` tokens where it had `n - 1`: the dim itself, or the flattened dim 0
/// of a reshape that merged the dims up to it. False (nothing changed)
/// when an op does not have that form.
bool retypeChain(ArrayRef<Operation *> chain, RankedTensorType from, int64_t d,
                 int64_t n) {
  SmallVector<RankedTensorType> types;
  RankedTensorType in = from, newIn = withDim(from, d, n);
  bool flattened = false;
  for (Operation *op : llvm::reverse(chain)) {
    auto out = cast<RankedTensorType>(op->getResult(0).getType());
    RankedTensorType newOut;
    if (auto reshape = dyn_cast<g::ReshapeOp>(op)) {
      if (flattened)
        return false;
      int64_t lead = 1, newLead = 1;
      for (int64_t i = 0; i <= d; ++i) {
        lead *= in.getDimSize(i);
        newLead *= newIn.getDimSize(i);
      }
      SmallVector<int64_t> rest(in.getShape().drop_front(d + 1));
      if (out.getRank() == 0 || out.getDimSize(0) != lead ||
          out.getShape().drop_front() != ArrayRef<int64_t>(rest))
        return false;
      newOut = withDim(out, 0, newLead);
      flattened = true;
      d = 0;
    } else {
      // Row-wise ops keep the token dims where they were.
      if (d >= out.getRank() - 1)
        return false;
      newOut = withDim(out, d, newIn.getDimSize(d));
    }
    in = out;
    newIn = newOut;
    types.push_back(newOut);
  }
  for (auto [op, type] : llvm::zip(llvm::reverse(chain), types))
    op->getResult(0).setType(type);
  return true;
}

/// The next-token loss as users write it, `loss(h[:, :-1] @ W, ids[:, 1:])`,
/// becomes `loss(h @ W, [ids[:, 1:], ignore])`: every position is scored
/// and the last one's label ignored, so the sequence keeps its length
/// through the loss (a split sequence could not lose one token) and the
/// loss is the same. Only "mean" and "sum" losses (a "none" loss's shape
/// would change).
template <typename LossOp> void unshiftNextTokenLoss(LossOp loss) {
  if (loss.getReduction() == "none")
    return;
  SmallVector<Operation *> scoreChain, labelChain;
  g::SliceOp scores = findShift(loss.getScores(), true, scoreChain);
  g::SliceOp labels = findShift(loss.getLabels(), false, labelChain);
  if (!scores || !labels)
    return;
  int64_t d = slicedDim(scores, 0, -1);
  if (d < 0 || slicedDim(labels, 1, 0) != d)
    return;
  auto scoresIn = cast<RankedTensorType>(scores.getX().getType());
  auto labelsIn = cast<RankedTensorType>(labels.getX().getType());
  int64_t n = scoresIn.getDimSize(d);
  if (labelsIn.getRank() <= d || labelsIn.getDimSize(d) != n ||
      scoresIn.getShape().take_front(d) != labelsIn.getShape().take_front(d))
    return;
  // Both chains must retype before either changes.
  SmallVector<Type> before;
  for (Operation *op : scoreChain)
    before.push_back(op->getResult(0).getType());
  if (!retypeChain(scoreChain, cast<RankedTensorType>(scores.getType()), d, n))
    return;
  if (!retypeChain(labelChain, cast<RankedTensorType>(labels.getType()), d,
                   n)) {
    for (auto [op, type] : llvm::zip(scoreChain, before))
      op->getResult(0).setType(type);
    return;
  }
  int64_t ignore = loss.getIgnoreIndex() ? *loss.getIgnoreIndex() : -100;
  OpBuilder b(labels->getContext());
  b.setInsertionPointAfter(labels);
  auto fillType = withDim(cast<RankedTensorType>(labels.getType()), d, 1);
  Value fill = g::ConstantOp::create(
      b, labels.getLoc(),
      cast<ElementsAttr>(DenseElementsAttr::get(
          fillType, APInt(fillType.getElementTypeBitWidth(), uint64_t(ignore),
                          /*isSigned=*/true))));
  Value padded = g::ConcatOp::create(b, labels.getLoc(),
                                     ValueRange{labels.getResult(), fill}, d);
  labels.getResult().replaceAllUsesExcept(padded, padded.getDefiningOp());
  scores.getResult().replaceAllUsesWith(scores.getX());
  scores->erase();
  if (!loss.getIgnoreIndex())
    loss.setIgnoreIndex(ignore);
}

/// Whether `op` reshapes [B, S, ...] (or [P, S, B/P, ...]) into
/// [B * S, ...]: its leading `lead` dims merged into one.
bool mergesLeadingDims(Operation *op, int64_t lead) {
  auto reshape = dyn_cast_or_null<g::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto in = cast<RankedTensorType>(reshape.getX().getType());
  auto out = cast<RankedTensorType>(reshape.getType());
  if (in.getRank() < lead || out.getRank() != in.getRank() - lead + 1)
    return false;
  int64_t rows = 1;
  for (int64_t d = 0; d < lead; ++d)
    rows *= in.getDimSize(d);
  return out.getDimSize(0) == rows &&
         out.getShape().drop_front() == in.getShape().drop_front(lead);
}

/// A loss over rows flattened from [B, S, ...]: with the sequence split
/// over cp and more than one sequence per data-parallel rank, each rank's
/// rows would be strided, so the whole loss (and the product before it)
/// would run unsplit on every rank. Reordered as [P, S, B/P, ...] (P: the
/// ranks and micro-batches the batch is split over) before the row-wise
/// ops, each rank's rows are one block; the loss (a sum or mean over rows)
/// is the same. The reorder is taken before the product by the output
/// matrix, where rows are narrowest.
template <typename LossOp>
void putSequenceFirstInRows(LossOp loss, int64_t batchParts) {
  if (loss.getReduction() == "none")
    return;
  // Scores: [row-wise ops after the flatten,] the flatten, row-wise ops
  // back to where the rows start.
  Value v = loss.getScores();
  while (v.hasOneUse() &&
         isa_and_nonnull<g::CastOp, g::LogSoftmaxOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  Operation *flatten = v.getDefiningOp();
  if (!v.hasOneUse() || !mergesLeadingDims(flatten, 2))
    return;
  SmallVector<Operation *> rowwise;
  Value rows = flatten->getOperand(0);
  while (rows.hasOneUse()) {
    Operation *op = rows.getDefiningOp();
    if (!keepsTokenRows(op))
      break;
    rowwise.push_back(op);
    rows = op->getOperand(0);
  }
  auto rowsType = cast<RankedTensorType>(rows.getType());
  if (rowsType.getRank() != 3 || batchParts < 1 ||
      rowsType.getDimSize(0) % batchParts != 0 ||
      rowsType.getDimSize(0) / batchParts == 1)
    return;
  Operation *labelsFlatten = loss.getLabels().getDefiningOp();
  if (!loss.getLabels().hasOneUse() || !mergesLeadingDims(labelsFlatten, 2) ||
      cast<RankedTensorType>(labelsFlatten->getOperand(0).getType())
              .getRank() != 2)
    return;
  // [B, S, ...] -> [P, B/P, S, ...] -> [P, S, B/P, ...].
  auto reorder = [&](OpBuilder &b, Location loc, Value x) -> Value {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> split = {batchParts, type.getDimSize(0) / batchParts};
    llvm::append_range(split, type.getShape().drop_front());
    Value parts = g::ReshapeOp::create(b, loc, type.clone(split), x);
    SmallVector<int64_t> perm = {0, 2, 1};
    for (int64_t d = 3; d < int64_t(split.size()); ++d)
      perm.push_back(d);
    return g::TransposeOp::create(b, loc, parts, b.getDenseI64ArrayAttr(perm));
  };
  Operation *first = rowwise.empty() ? flatten : rowwise.back();
  OpBuilder b(first);
  Value reordered = reorder(b, first->getLoc(), rows);
  ArrayRef<int64_t> order =
      cast<RankedTensorType>(reordered.getType()).getShape().take_front(3);
  first->setOperand(0, reordered);
  for (Operation *op : llvm::reverse(rowwise)) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> shape(order);
    shape.push_back(type.getShape().back());
    op->getResult(0).setType(type.clone(shape));
  }
  b.setInsertionPoint(labelsFlatten);
  labelsFlatten->setOperand(
      0, reorder(b, labelsFlatten->getLoc(), labelsFlatten->getOperand(0)));
}

/// How many parts the data-parallel pass split the batch into: the group
/// of the axes on dim 0 of the functions' arguments (1 without). 0 when one
/// of those axes has size 1 (a pipeline's single micro-batch): a reorder
/// could not keep such an axis on the batch's major part.
int64_t batchParts(ModuleOp module, MeshAttr mesh) {
  int64_t parts = 1;
  module.walk([&](func::FuncOp func) {
    for (BlockArgument arg : func.getArguments()) {
      ShardingAttr s = getSharding(arg);
      if (!s || s.getRank() == 0 || parts == 0)
        continue;
      SmallVector<StringAttr> axes = s.getDimAxes(0);
      if (llvm::any_of(axes, [&](StringAttr a) {
            return mesh.getAxisSize(a.getValue()) == 1;
          }))
        parts = 0;
      else
        parts = std::max(parts, mesh.getGroupSize(axes));
    }
  });
  return parts;
}

/// The sequence dim of an attention operand or result.
int64_t sequenceDim(Value v, bool sequenceFirst) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  return sequenceFirst ? rank - 3 : rank - 2;
}

struct ContextParallelPass
    : public impl::ContextParallelPassBase<ContextParallelPass> {
  using ContextParallelPassBase::ContextParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis) || mesh.getAxisSize(axis) <= 1)
      return;
    int64_t parts = mesh.getAxisSize(axis);
    // The losses keep the whole sequence, in rows that split into blocks.
    int64_t batch = batchParts(module, mesh);
    auto keepSequence = [&](auto loss) {
      unshiftNextTokenLoss(loss);
      putSequenceFirstInRows(loss, batch);
    };
    module.walk([&](Operation *op) {
      if (auto loss = dyn_cast<g::SoftmaxCrossEntropyOp>(op);
          loss && !loss.getLogProb())
        keepSequence(loss);
      else if (auto loss = dyn_cast<g::NllLossOp>(op))
        keepSequence(loss);
    });
    StringAttr cp = StringAttr::get(&getContext(), axis);
    const bool ulysses = attention == CpAttention::AllToAll;
    // Zig-zag balances causal attention over split queries (all-gather);
    // without a causal one, or with whole sequences per head (all-to-all),
    // it changes nothing.
    bool zigzag = layout == CpLayout::Zigzag && !ulysses &&
                  module
                      .walk([](g::AttentionOp op) {
                        return op.getCausal() ? WalkResult::interrupt()
                                              : WalkResult::advance();
                      })
                      .wasInterrupted();
    int64_t chunks = zigzag ? 2 * parts : parts;
    int64_t attentions = 0;
    WalkResult walk = module.walk([&](g::AttentionOp op) {
      ++attentions;
      bool seqFirst = op.getSequenceFirst();
      for (Value v : {op.getQ(), op.getK(), op.getV()}) {
        int64_t d = sequenceDim(v, seqFirst);
        int64_t length = cast<RankedTensorType>(v.getType()).getDimSize(d);
        if (length % chunks != 0) {
          InFlightDiagnostic diag =
              op.emitError("context parallelism: a sequence of ");
          diag << length << " does not divide ";
          if (zigzag)
            diag << "into 2 x " << parts << " zig-zag chunks (mesh axis '"
                 << axis << "'; --cp-layout contiguous needs " << parts << ")";
          else
            diag << "over mesh axis '" << axis << "' of size " << parts;
          return WalkResult::interrupt();
        }
        if (!ulysses) {
          annotateDim(v, d, {cp});
          continue;
        }
        // All-to-all: the heads split, the sequence whole.
        int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
        int64_t h = seqFirst ? rank - 2 : rank - 3;
        int64_t heads =
            h >= 0 ? cast<RankedTensorType>(v.getType()).getDimSize(h) : 1;
        if (h < 0 || heads % parts != 0) {
          op.emitError("context parallelism with all-to-all attention: ")
              << heads << " head(s) do not divide over mesh axis '" << axis
              << "' of size " << parts << " (--cp-attention allgather has no "
              << "such limit)";
          return WalkResult::interrupt();
        }
        annotateDim(v, h, {cp});
        annotateDim(v, d, {});
      }
      Value y = op.getResult();
      int64_t d = sequenceDim(y, seqFirst);
      if (ulysses) {
        annotateDim(y, seqFirst ? d + 1 : d - 1, {cp});
        annotateDim(y, d, {});
      } else {
        annotateDim(y, d, {cp});
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // All-to-all: the rest of the model holds the sequence split, from the
    // norms' activations (before the sequence split of sequence
    // parallelism, when it is on).
    if (ulysses)
      module.walk([&](Operation *op) {
        if (!isa<g::LayerNormOp, g::RmsNormOp>(op))
          return;
        for (Value v : {op->getOperand(0), Value(op->getResult(0))}) {
          auto type = cast<RankedTensorType>(v.getType());
          if (type.getRank() < 3)
            continue;
          int64_t d = type.getRank() - 2;
          if (type.getDimSize(d) % parts != 0)
            continue;
          SmallVector<StringAttr> axes = {cp};
          if (ShardingAttr s = getSharding(v); s && !s.isDimOpen(d))
            llvm::append_range(axes, s.getDimAxes(d));
          annotateDim(v, d, axes);
        }
      });
    if (attentions == 0) {
      module.emitError("context parallelism (mesh axis '")
          << axis << "') needs a model with attention: there is no sequence "
          << "to split";
      return signalPassFailure();
    }
    if (zigzag)
      module->setAttr(DistDialect::ZigzagAxisAttrHelper::getNameStr(), cp);
    if (attention == CpAttention::Ring)
      module->setAttr(DistDialect::RingAxisAttrHelper::getNameStr(), cp);
  }
};
} // namespace
} // namespace mlir::paracc::dist
