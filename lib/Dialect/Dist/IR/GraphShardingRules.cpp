//===- GraphShardingRules.cpp - Sharding rules of graph ops ----*- C++ -*-===//
//
// The factor-based sharding rule of every graph op, attached to the graph
// dialect as external models of ShardingRuleOpInterface. Ops not listed
// explicitly (gathers by element, cumsum's axis, ...) get a rule that keeps
// their unsupported dimensions whole.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;
namespace g = mlir::paracc::graph;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

OpShardingRule OpShardingRule::replicateAll(Operation *op) {
  OpShardingRule rule;
  auto tensorFactors = [&](Value v) {
    TensorFactors t;
    for (int64_t size : shapeOf(v))
      t.push_back({rule.addFactor(size, FactorKind::NeedReplication)});
    return t;
  };
  for (Value v : op->getOperands())
    rule.operands.push_back(tensorFactors(v));
  for (Value v : op->getResults())
    rule.results.push_back(tensorFactors(v));
  return rule;
}

namespace {
/// Helpers for building rules: one factor per result dimension, operands
/// that map onto them.
struct RuleBuilder {
  OpShardingRule rule;

  /// One factor per dim of `shape` with `kind`; returns their ids.
  SmallVector<int64_t> factorsFor(ArrayRef<int64_t> shape,
                                  FactorKind kind = FactorKind::Parallel) {
    SmallVector<int64_t> ids;
    for (int64_t size : shape)
      ids.push_back(rule.addFactor(size, kind));
    return ids;
  }
  /// A tensor whose dims are `ids` (-1: a dim of size 1 with no factor).
  static TensorFactors tensor(ArrayRef<int64_t> ids) {
    TensorFactors t;
    for (int64_t id : ids)
      t.push_back(id < 0 ? DimFactors{} : DimFactors{id});
    return t;
  }
  /// Maps a numpy-broadcast operand of `shape` onto result factors `ids`
  /// (right-aligned; broadcast dims of size 1 get no factor).
  TensorFactors broadcastOperand(ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> ids) {
    TensorFactors t;
    size_t offset = ids.size() - shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t id = ids[offset + d];
      bool same = rule.factorSizes[id] == shape[d];
      t.push_back(same ? DimFactors{id} : DimFactors{});
    }
    return t;
  }
};
} // namespace

/// Elementwise with numpy broadcasting: one parallel factor per result dim.
static OpShardingRule broadcastRule(Operation *op) {
  RuleBuilder b;
  SmallVector<int64_t> ids = b.factorsFor(shapeOf(op->getResult(0)));
  for (Value v : op->getOperands())
    b.rule.operands.push_back(b.broadcastOperand(shapeOf(v), ids));
  // (Several results of one shape: the optimizer updates.)
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    b.rule.results.push_back(RuleBuilder::tensor(ids));
  return b.rule;
}

/// Ops that act on trailing dims [axis, rank) as a whole (norms, softmax):
/// leading dims parallel, the rest need replication. Other operands
/// broadcast onto the trailing dims.
static OpShardingRule trailingWholeRule(Operation *op, int64_t axis) {
  RuleBuilder b;
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0));
  SmallVector<int64_t> ids;
  for (auto [d, size] : llvm::enumerate(shape))
    ids.push_back(b.rule.addFactor(size, int64_t(d) < axis
                                             ? FactorKind::Parallel
                                             : FactorKind::NeedReplication));
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    b.rule.operands.push_back(i == 0 ? RuleBuilder::tensor(ids)
                                     : b.broadcastOperand(shapeOf(v), ids));
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    b.rule.results.push_back(RuleBuilder::tensor(ids));
  return b.rule;
}

static OpShardingRule matmulRule(g::MatMulOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> a = shapeOf(op.getLhs()), w = shapeOf(op.getRhs());
  ArrayRef<int64_t> y = shapeOf(op.getResult());
  bool lhsVector = a.size() == 1, rhsVector = w.size() == 1;
  int64_t k = b.rule.addFactor(a.back(), FactorKind::Reduction);
  // Result dims: batch..., [m], [n].
  size_t batchRank = y.size() - (lhsVector ? 0 : 1) - (rhsVector ? 0 : 1);
  SmallVector<int64_t> ids = b.factorsFor(y);
  SmallVector<int64_t> batch(ids.begin(), ids.begin() + batchRank);
  int64_t m = lhsVector ? -1 : ids[batchRank];
  int64_t n = rhsVector ? -1 : ids.back();
  auto operand = [&](ArrayRef<int64_t> shape, bool vector, bool isLhs) {
    if (vector)
      return TensorFactors{DimFactors{k}};
    TensorFactors t = b.broadcastOperand(shape.drop_back(2), batch);
    if (isLhs) {
      t.push_back(m < 0 ? DimFactors{} : DimFactors{m});
      t.push_back({k});
    } else {
      t.push_back({k});
      t.push_back(n < 0 ? DimFactors{} : DimFactors{n});
    }
    return t;
  };
  b.rule.operands.push_back(operand(a, lhsVector, true));
  b.rule.operands.push_back(operand(w, rhsVector, false));
  b.rule.results.push_back(RuleBuilder::tensor(ids));
  return b.rule;
}

/// Linear: x [..., K] @ w [K, N] (+ bias [N]) (+ residual [..., N]). K is a
/// reduction only for a bare product: the bias, residual and activation
/// apply to whole sums, so with any of them K stays whole.
static OpShardingRule linearRule(g::LinearOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> y = shapeOf(op.getResult());
  bool bare = !op.getBias() && !op.getResidual() &&
              op.getActivation() == "none";
  int64_t k = b.rule.addFactor(shapeOf(op.getX()).back(),
                               bare ? FactorKind::Reduction
                                    : FactorKind::NeedReplication);
  SmallVector<int64_t> ids = b.factorsFor(y);
  int64_t n = ids.back();
  SmallVector<int64_t> xs(ids.begin(), ids.end() - 1);
  xs.push_back(k);
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.operands.push_back(RuleBuilder::tensor({k, n}));
  if (op.getBias())
    b.rule.operands.push_back(RuleBuilder::tensor({n}));
  if (op.getResidual())
    b.rule.operands.push_back(RuleBuilder::tensor(ids));
  b.rule.results.push_back(RuleBuilder::tensor(ids));
  return b.rule;
}

static OpShardingRule gemmRule(g::GemmOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> y = shapeOf(op.getResult());
  int64_t m = b.rule.addFactor(y[0]), n = b.rule.addFactor(y[1]);
  int64_t kSize = shapeOf(op.getA())[op.getTransA() ? 0 : 1];
  int64_t k = b.rule.addFactor(kSize, FactorKind::Reduction);
  b.rule.operands.push_back(op.getTransA() ? RuleBuilder::tensor({k, m})
                                           : RuleBuilder::tensor({m, k}));
  b.rule.operands.push_back(op.getTransB() ? RuleBuilder::tensor({n, k})
                                           : RuleBuilder::tensor({k, n}));
  if (op.getC())
    b.rule.operands.push_back(b.broadcastOperand(shapeOf(op.getC()), {m, n}));
  b.rule.results.push_back(RuleBuilder::tensor({m, n}));
  return b.rule;
}

/// Dims of `perm`-permuted result share the operand's factors.
static OpShardingRule transposeRule(g::TransposeOp op) {
  RuleBuilder b;
  SmallVector<int64_t> ids = b.factorsFor(shapeOf(op.getX()));
  SmallVector<int64_t> out;
  for (int64_t p : op.getPerm())
    out.push_back(ids[p]);
  b.rule.operands.push_back(RuleBuilder::tensor(ids));
  b.rule.results.push_back(RuleBuilder::tensor(out));
  return b.rule;
}

/// Reshape: the common refinement of both shapes into factors, so that a
/// dimension split into (major, minor) keeps a sharding on its major part.
static OpShardingRule reshapeRule(g::ReshapeOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> in = shapeOf(op.getX()), out = shapeOf(op.getResult());
  TensorFactors inF(in.size()), outF(out.size());
  size_t i = 0, j = 0;
  int64_t ri = i < in.size() ? in[i] : 1, rj = j < out.size() ? out[j] : 1;
  auto advance = [](ArrayRef<int64_t> shape, size_t &idx, int64_t &rest) {
    ++idx;
    rest = idx < shape.size() ? shape[idx] : 1;
  };
  while (i < in.size() || j < out.size()) {
    // Dims of size 1 (and exhausted remainders) carry no factor.
    if (i < in.size() && ri == 1) {
      advance(in, i, ri);
      continue;
    }
    if (j < out.size() && rj == 1) {
      advance(out, j, rj);
      continue;
    }
    if (i >= in.size() || j >= out.size())
      break; // only size-1 dims remain on one side
    int64_t f = std::gcd(ri, rj);
    if (ri % rj == 0)
      f = rj;
    else if (rj % ri == 0)
      f = ri;
    int64_t id = b.rule.addFactor(f);
    inF[i].push_back(id);
    outF[j].push_back(id);
    ri /= f;
    rj /= f;
  }
  b.rule.operands.push_back(inF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// Slice: fully kept dims are parallel; sliced ones need replication.
static OpShardingRule sliceRule(g::SliceOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> in = shapeOf(op.getX()), out = shapeOf(op.getResult());
  TensorFactors inF, outF;
  for (size_t d = 0; d < in.size(); ++d) {
    bool whole = op.getStarts()[d] == 0 && op.getSteps()[d] == 1 &&
                 out[d] == in[d];
    if (whole) {
      int64_t id = b.rule.addFactor(in[d]);
      inF.push_back({id});
      outF.push_back({id});
    } else {
      inF.push_back({b.rule.addFactor(in[d], FactorKind::NeedReplication)});
      outF.push_back({b.rule.addFactor(out[d], FactorKind::NeedReplication)});
    }
  }
  b.rule.operands.push_back(inF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// Concat and split: every dim but the axis is shared; the axis is whole.
static OpShardingRule axisWholeRule(Operation *op, int64_t axis) {
  RuleBuilder b;
  ArrayRef<int64_t> ref = shapeOf(op->getOperand(0));
  SmallVector<int64_t> shared;
  for (auto [d, size] : llvm::enumerate(ref))
    shared.push_back(int64_t(d) == axis ? -1 : b.rule.addFactor(size));
  auto tensor = [&](Value v) {
    TensorFactors t;
    for (auto [d, size] : llvm::enumerate(shapeOf(v)))
      t.push_back(int64_t(d) == axis
                      ? DimFactors{b.rule.addFactor(
                            size, FactorKind::NeedReplication)}
                      : DimFactors{shared[d]});
    return t;
  };
  for (Value v : op->getOperands())
    b.rule.operands.push_back(tensor(v));
  for (Value v : op->getResults())
    b.rule.results.push_back(tensor(v));
  return b.rule;
}

/// gather_elements: the dims other than the axis are shared by the data,
/// the indices and the result where their sizes agree (a batch split keeps
/// JAX's take_along_axis local); the axis, and dims whose sizes differ,
/// whole.
static OpShardingRule gatherElementsRule(g::GatherElementsOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> data = shapeOf(op.getData());
  ArrayRef<int64_t> indices = shapeOf(op.getIndices());
  const int64_t rank = data.size();
  // (In [0, rank): the op verifies it.)
  const int64_t axis = op.getAxis();
  SmallVector<int64_t> shared;
  for (int64_t d = 0; d < rank; ++d)
    shared.push_back(d != axis && data[d] == indices[d]
                         ? b.rule.addFactor(data[d])
                         : -1);
  auto tensor = [&](Value v) {
    TensorFactors t;
    for (auto [d, size] : llvm::enumerate(shapeOf(v)))
      t.push_back(shared[d] >= 0 ? DimFactors{shared[d]}
                                 : DimFactors{b.rule.addFactor(
                                       size, FactorKind::NeedReplication)});
    return t;
  };
  b.rule.operands.push_back(tensor(op.getData()));
  b.rule.operands.push_back(tensor(op.getIndices()));
  b.rule.results.push_back(tensor(op.getResult()));
  return b.rule;
}

/// Expand: result dims; operand dims of equal size share them.
static OpShardingRule expandRule(g::ExpandOp op) {
  RuleBuilder b;
  SmallVector<int64_t> ids = b.factorsFor(shapeOf(op.getResult()));
  b.rule.operands.push_back(b.broadcastOperand(shapeOf(op.getX()), ids));
  b.rule.results.push_back(RuleBuilder::tensor(ids));
  return b.rule;
}

/// Reductions: reduced dims are reduction factors (sum, mean) or whole
/// (max, min, prod, which a sum of partials cannot express).
static OpShardingRule reduceRule(Operation *op, ArrayRef<int64_t> axes,
                                 bool keepdims, bool summable) {
  RuleBuilder b;
  ArrayRef<int64_t> in = shapeOf(op->getOperand(0));
  TensorFactors inF, outF;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    if (llvm::is_contained(axes, d)) {
      inF.push_back({b.rule.addFactor(
          in[d], summable ? FactorKind::Reduction : FactorKind::NeedReplication)});
      if (keepdims)
        outF.push_back({});
      continue;
    }
    int64_t id = b.rule.addFactor(in[d]);
    inF.push_back({id});
    outF.push_back({id});
  }
  b.rule.operands.push_back(inF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// TopK: the dims around the axis are parallel; the axis, and the k picks
/// from it, are whole.
static OpShardingRule topKRule(g::TopKOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> in = shapeOf(op.getX());
  const int64_t axis = op.getAxis();
  TensorFactors inF, outF;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    if (d == axis) {
      inF.push_back({b.rule.addFactor(in[d], FactorKind::NeedReplication)});
      outF.push_back(
          {b.rule.addFactor(op.getK(), FactorKind::NeedReplication)});
      continue;
    }
    int64_t id = b.rule.addFactor(in[d]);
    inF.push_back({id});
    outF.push_back({id});
  }
  b.rule.operands.push_back(inF);
  b.rule.results.push_back(outF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// Gather: data dims around the axis and the index dims are parallel; the
/// gathered dim is whole (the partitioner turns a vocabulary-sharded table
/// into a masked lookup before this rule matters).
static OpShardingRule gatherRule(g::GatherOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> data = shapeOf(op.getData()),
                    idx = shapeOf(op.getIndices());
  int64_t axis = op.getAxis();
  TensorFactors dataF, idxF, outF;
  for (int64_t d = 0; d < axis; ++d) {
    int64_t id = b.rule.addFactor(data[d]);
    dataF.push_back({id});
    outF.push_back({id});
  }
  dataF.push_back(
      {b.rule.addFactor(data[axis], FactorKind::NeedReplication)});
  for (int64_t size : idx) {
    int64_t id = b.rule.addFactor(size);
    idxF.push_back({id});
    outF.push_back({id});
  }
  for (int64_t d = axis + 1; d < int64_t(data.size()); ++d) {
    int64_t id = b.rule.addFactor(data[d]);
    dataF.push_back({id});
    outF.push_back({id});
  }
  b.rule.operands.push_back(dataF);
  b.rule.operands.push_back(idxF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// Losses: scores [N, C, d...], labels [N, d...]. N and d are reduced
/// (mean, sum: reduction factors) or kept (none: parallel); C is whole.
template <typename LossOp> static OpShardingRule lossRule(LossOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> scores = shapeOf(op.getScores());
  bool reduced = op.getReduction() != "none";
  FactorKind kind = reduced ? FactorKind::Reduction : FactorKind::Parallel;
  SmallVector<int64_t> elementFactors;
  for (auto [d, size] : llvm::enumerate(scores))
    if (d != 1)
      elementFactors.push_back(b.rule.addFactor(size, kind));
  int64_t c = b.rule.addFactor(scores[1], FactorKind::NeedReplication);
  TensorFactors scoresF = RuleBuilder::tensor(elementFactors);
  scoresF.insert(scoresF.begin() + 1, DimFactors{c});
  b.rule.operands.push_back(scoresF);
  b.rule.operands.push_back(RuleBuilder::tensor(elementFactors));
  if (op.getWeight())
    b.rule.operands.push_back(RuleBuilder::tensor({c}));
  b.rule.results.push_back(reduced ? TensorFactors{}
                                   : RuleBuilder::tensor(elementFactors));
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    b.rule.results.push_back(scoresF);
  return b.rule;
}

namespace {
/// The factors of attention over q, k, v: the leading (batch, head) dims
/// parallel; the queries of kind `queryKind`; keys and head dims whole.
/// With sequence_first the head dim follows the sequence dim in q, k, v and
/// the result ([lead..., S, H, D]) and precedes Sq in the mask's scores.
/// Split queries see every key (partitioning gives a causal attention its
/// block's `start`): context parallelism.
///
/// Grouped-query attention (k and v with fewer heads than q, which
/// `--paracc-attention-kv-groups` forms after partitioning) keeps its head
/// dims whole: q's heads and k's are factors of different sizes, and a
/// rank's block of query heads needs its own block of key heads.
struct AttentionFactors {
  AttentionFactors(RuleBuilder &b, Value qv, Value kv, Value vv, bool seqFirst,
                   FactorKind queryKind) {
    ArrayRef<int64_t> q = shapeOf(qv), k = shapeOf(kv), v = shapeOf(vv);
    int64_t r = q.size();
    int64_t s = seqFirst ? r - 3 : r - 2;
    auto whole = [&](int64_t size) {
      return b.rule.addFactor(size, FactorKind::NeedReplication);
    };
    // The head dim: after the sequence dim, or the last leading dim.
    int64_t h = seqFirst ? r - 2 : r - 3;
    bool grouped = h >= 0 && k[h] != q[h];
    lead = b.factorsFor(q.take_front(grouped && !seqFirst ? h : s));
    // (Without groups, the default layout's heads are a lead factor.)
    headsFirst = grouped && !seqFirst;
    if (grouped) {
      queryHeads = {whole(q[h])};
      keyHeads = {whole(k[h])};
    } else if (seqFirst) {
      queryHeads = keyHeads = b.factorsFor(q.slice(r - 2, 1));
    }
    sq = b.rule.addFactor(q[s], queryKind);
    d = whole(q[r - 1]);
    sk = whole(k[s]);
    dv = whole(v[r - 1]);
  }
  /// A [lead..., a, (heads), c] tensor ([lead..., (heads), a, c] for
  /// grouped heads in the default layout), with q's heads or k's.
  TensorFactors tensor(int64_t a, int64_t c, bool keys = false) const {
    ArrayRef<int64_t> heads = keys ? keyHeads : queryHeads;
    SmallVector<int64_t> ids(lead);
    if (headsFirst)
      ids.append(heads.begin(), heads.end());
    ids.push_back(a);
    if (!headsFirst)
      ids.append(heads.begin(), heads.end());
    ids.push_back(c);
    return RuleBuilder::tensor(ids);
  }
  /// The mask, broadcast onto [lead..., (heads), Sq, Sk].
  TensorFactors mask(RuleBuilder &b, Value m) const {
    SmallVector<int64_t> ids(lead);
    ids.append(queryHeads);
    ids.append({sq, sk});
    return b.broadcastOperand(shapeOf(m), ids);
  }
  SmallVector<int64_t> lead, queryHeads, keyHeads;
  bool headsFirst = false;
  int64_t sq, d, sk, dv;
};
} // namespace

/// Attention: q, k, v and the result as AttentionFactors says; the mask
/// broadcasts onto the scores.
static OpShardingRule attentionRule(g::AttentionOp op) {
  RuleBuilder b;
  AttentionFactors f(b, op.getQ(), op.getK(), op.getV(), op.getSequenceFirst(),
                     FactorKind::Parallel);
  b.rule.operands = {f.tensor(f.sq, f.d), f.tensor(f.sk, f.d, true),
                     f.tensor(f.sk, f.dv, true)};
  if (op.getMask())
    b.rule.operands.push_back(f.mask(b, op.getMask()));
  if (op.getQueryStart())
    b.rule.operands.push_back({});
  b.rule.results.push_back(f.tensor(f.sq, f.dv));
  return b.rule;
}

/// Backward norms: the token (leading) dims index dy, x and dx and are
/// summed into the scale's and bias's gradients (reduction factors those
/// do not carry); the normalized dims are whole.
static OpShardingRule normGradRule(Operation *op, int64_t axis) {
  RuleBuilder b;
  ArrayRef<int64_t> x = shapeOf(op->getOperand(1));
  SmallVector<int64_t> ids, normalized;
  for (auto [d, size] : llvm::enumerate(x)) {
    bool token = int64_t(d) < axis;
    ids.push_back(b.rule.addFactor(size, token ? FactorKind::Reduction
                                               : FactorKind::NeedReplication));
    if (!token)
      normalized.push_back(ids.back());
  }
  TensorFactors whole = RuleBuilder::tensor(ids);
  // The scale has the normalized shape.
  TensorFactors param = RuleBuilder::tensor(normalized);
  b.rule.operands = {whole, whole, param};
  if (op->getNumOperands() > 3) // accumulate: another gradient of x
    b.rule.operands.push_back(whole);
  b.rule.results.push_back(whole);
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    b.rule.results.push_back(param);
  return b.rule;
}

/// The attention backward: the forward's factors, dy shaped like the result
/// and the gradients like q, k and v. The queries are summed into dk and dv
/// (a reduction they do not carry).
static OpShardingRule attentionGradRule(g::AttentionGradOp op) {
  RuleBuilder b;
  AttentionFactors f(b, op.getQ(), op.getK(), op.getV(), op.getSequenceFirst(),
                     FactorKind::Reduction);
  b.rule.operands = {f.tensor(f.sq, f.dv), f.tensor(f.sq, f.d),
                     f.tensor(f.sk, f.d, true), f.tensor(f.sk, f.dv, true)};
  if (op.getMask())
    b.rule.operands.push_back(f.mask(b, op.getMask()));
  if (op.getQueryStart())
    b.rule.operands.push_back({});
  // (Saved results and statistics come after partitioning.)
  b.rule.results = {f.tensor(f.sq, f.d), f.tensor(f.sk, f.d, true),
                    f.tensor(f.sk, f.dv, true)};
  return b.rule;
}

/// The experts: tokens parallel; the hidden dim, the picks and the stacked
/// expert weights whole on every rank (experts split over ranks need the
/// dispatch of an ep axis, not a factor). The backward sums the tokens
/// into the weights' gradients (a reduction they do not carry).
static OpShardingRule moeRule(Value x, Value indices, Value wIn, Value wOut,
                              bool backward) {
  RuleBuilder b;
  ArrayRef<int64_t> xs = shapeOf(x), wi = shapeOf(wIn), wo = shapeOf(wOut);
  const int64_t t = b.rule.addFactor(xs[0], backward ? FactorKind::Reduction
                                                     : FactorKind::Parallel);
  auto whole = [&](int64_t size) {
    return b.rule.addFactor(size, FactorKind::NeedReplication);
  };
  const int64_t h = whole(xs[1]), k = whole(shapeOf(indices)[1]),
                e = whole(wi[0]), f = whole(wi[1]), i = whole(wo[2]);
  TensorFactors tokens = RuleBuilder::tensor({t, h}),
                routing = RuleBuilder::tensor({t, k}),
                in = RuleBuilder::tensor({e, f, h}),
                out = RuleBuilder::tensor({e, h, i});
  if (backward)
    b.rule.operands.push_back(tokens); // dy
  b.rule.operands.append({tokens, routing, routing, in, out});
  if (backward)
    b.rule.results = {tokens, routing, in, out};
  else
    b.rule.results = {tokens};
  return b.rule;
}

/// A router's counts per expert: a sum over the slots (tokens split over
/// ranks count partial sums), the experts whole.
static OpShardingRule expertLoadRule(g::ExpertLoadOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> picks = shapeOf(op.getIndices());
  const int64_t t = b.rule.addFactor(picks[0], FactorKind::Reduction),
                k = b.rule.addFactor(picks[1], FactorKind::NeedReplication),
                e = b.rule.addFactor(op.getNumExperts(),
                                     FactorKind::NeedReplication);
  b.rule.operands.push_back(RuleBuilder::tensor({t, k}));
  b.rule.results.push_back(RuleBuilder::tensor({e}));
  return b.rule;
}

/// The losses' backward: elements parallel, the class dim whole.
static OpShardingRule crossEntropyGradRule(g::CrossEntropyGradOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> scores = shapeOf(op.getScores());
  SmallVector<int64_t> elements;
  for (auto [d, size] : llvm::enumerate(scores))
    if (d != 1)
      elements.push_back(b.rule.addFactor(size));
  int64_t c = b.rule.addFactor(scores[1], FactorKind::NeedReplication);
  TensorFactors scoresF = RuleBuilder::tensor(elements);
  scoresF.insert(scoresF.begin() + 1, DimFactors{c});
  b.rule.operands = {RuleBuilder::tensor(elements), scoresF,
                     RuleBuilder::tensor(elements)};
  if (op.getWeight())
    b.rule.operands.push_back(RuleBuilder::tensor({c}));
  if (op.getStats()) {
    // (max, sum) per element: the pair stays whole.
    TensorFactors statsF = RuleBuilder::tensor(elements);
    statsF.push_back(
        DimFactors{b.rule.addFactor(2, FactorKind::NeedReplication)});
    b.rule.operands.push_back(statsF);
  }
  b.rule.results.push_back(scoresF);
  return b.rule;
}

/// The lookup's backward: the index dims are summed into the table's rows
/// (reductions), the gathered dim is whole, the others parallel.
static OpShardingRule gatherGradRule(g::GatherGradOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> data = shapeOf(op.getResult()),
                    idx = shapeOf(op.getIndices());
  int64_t axis = op.getAxis();
  TensorFactors dyF, idxF, outF;
  for (int64_t d = 0; d < axis; ++d) {
    int64_t id = b.rule.addFactor(data[d]);
    dyF.push_back({id});
    outF.push_back({id});
  }
  outF.push_back({b.rule.addFactor(data[axis], FactorKind::NeedReplication)});
  for (int64_t size : idx) {
    int64_t id = b.rule.addFactor(size, FactorKind::Reduction);
    dyF.push_back({id});
    idxF.push_back({id});
  }
  for (int64_t d = axis + 1; d < int64_t(data.size()); ++d) {
    int64_t id = b.rule.addFactor(data[d]);
    dyF.push_back({id});
    outF.push_back({id});
  }
  b.rule.operands = {dyF, idxF};
  if (op.getAccumulate()) // another gradient of the table
    b.rule.operands.push_back(outF);
  b.rule.results.push_back(outF);
  return b.rule;
}

/// Conv: the batch and (ungrouped) the output features are parallel; the
/// input channels are a reduction for an ungrouped conv without a bias
/// (with one, the bias applies to whole sums, as linear's); spatial and
/// kernel dims stay whole (windows overlap).
static OpShardingRule convRule(g::ConvOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> y = shapeOf(op.getResult()), w = shapeOf(op.getW());
  const bool grouped = op.getGroup() != 1;
  int64_t n = b.rule.addFactor(y[0]);
  int64_t m = b.rule.addFactor(y[1], grouped ? FactorKind::NeedReplication
                                             : FactorKind::Parallel);
  int64_t c = b.rule.addFactor(w[1], grouped || op.getBias()
                                         ? FactorKind::NeedReplication
                                         : FactorKind::Reduction);
  // A grouped conv's input has all groups' channels: its own factor.
  int64_t xc = grouped ? b.rule.addFactor(shapeOf(op.getX())[1],
                                          FactorKind::NeedReplication)
                       : c;
  SmallVector<int64_t> xs = {n, xc}, ws = {m, c}, ys = {n, m};
  for (size_t d = 2; d < y.size(); ++d) {
    xs.push_back(
        b.rule.addFactor(shapeOf(op.getX())[d], FactorKind::NeedReplication));
    ws.push_back(b.rule.addFactor(w[d], FactorKind::NeedReplication));
    ys.push_back(b.rule.addFactor(y[d], FactorKind::NeedReplication));
  }
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.operands.push_back(RuleBuilder::tensor(ws));
  if (op.getBias())
    b.rule.operands.push_back(RuleBuilder::tensor({m}));
  b.rule.results.push_back(RuleBuilder::tensor(ys));
  return b.rule;
}

/// Pool: batch and channels parallel, the spatial dims whole.
static OpShardingRule poolRule(g::PoolOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> x = shapeOf(op.getX()), y = shapeOf(op.getResult());
  SmallVector<int64_t> xs = {b.rule.addFactor(y[0]), b.rule.addFactor(y[1])};
  SmallVector<int64_t> ys = xs;
  for (size_t d = 2; d < y.size(); ++d) {
    xs.push_back(b.rule.addFactor(x[d], FactorKind::NeedReplication));
    ys.push_back(b.rule.addFactor(y[d], FactorKind::NeedReplication));
  }
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.results.push_back(RuleBuilder::tensor(ys));
  return b.rule;
}

/// ConvTranspose x [N, Cin, X...] by w [Cin, Cout / group, K...] into [N,
/// Cout, R...]: conv's rule read backwards. The batch is parallel, output
/// channels parallel and input channels a reduction when ungrouped (and,
/// for the reduction, without a bias); spatial and kernel dims stay whole.
static OpShardingRule convTransposeRule(g::ConvTransposeOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> x = shapeOf(op.getX()), w = shapeOf(op.getW()),
                    y = shapeOf(op.getResult());
  const bool grouped = op.getGroup() != 1;
  int64_t n = b.rule.addFactor(y[0]);
  int64_t cin = b.rule.addFactor(x[1], grouped || op.getBias()
                                           ? FactorKind::NeedReplication
                                           : FactorKind::Reduction);
  int64_t wout = b.rule.addFactor(w[1], grouped ? FactorKind::NeedReplication
                                                : FactorKind::Parallel);
  // A grouped result has all groups' channels: its own factor.
  int64_t cout =
      grouped ? b.rule.addFactor(y[1], FactorKind::NeedReplication) : wout;
  SmallVector<int64_t> xs = {n, cin}, ws = {cin, wout}, ys = {n, cout};
  for (size_t d = 2; d < y.size(); ++d) {
    xs.push_back(b.rule.addFactor(x[d], FactorKind::NeedReplication));
    ws.push_back(b.rule.addFactor(w[d], FactorKind::NeedReplication));
    ys.push_back(b.rule.addFactor(y[d], FactorKind::NeedReplication));
  }
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.operands.push_back(RuleBuilder::tensor(ws));
  if (op.getBias())
    b.rule.operands.push_back(RuleBuilder::tensor({cout}));
  b.rule.results.push_back(RuleBuilder::tensor(ys));
  return b.rule;
}

/// ConvWeightGrad of x [N, C, S...] and dy [N, M, O...] into [M, C / group,
/// K...]: the batch is a reduction (each rank's images give a partial
/// gradient), the channels parallel when ungrouped.
static OpShardingRule convWeightGradRule(g::ConvWeightGradOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> x = shapeOf(op.getX()), dy = shapeOf(op.getDy()),
                    w = shapeOf(op.getResult());
  const bool grouped = op.getGroup() != 1;
  const FactorKind channelKind =
      grouped ? FactorKind::NeedReplication : FactorKind::Parallel;
  int64_t n = b.rule.addFactor(x[0], FactorKind::Reduction);
  int64_t m = b.rule.addFactor(dy[1], channelKind);
  int64_t c = b.rule.addFactor(w[1], channelKind);
  int64_t xc =
      grouped ? b.rule.addFactor(x[1], FactorKind::NeedReplication) : c;
  SmallVector<int64_t> xs = {n, xc}, dys = {n, m}, ws = {m, c};
  for (size_t d = 2; d < w.size(); ++d) {
    xs.push_back(b.rule.addFactor(x[d], FactorKind::NeedReplication));
    dys.push_back(b.rule.addFactor(dy[d], FactorKind::NeedReplication));
    ws.push_back(b.rule.addFactor(w[d], FactorKind::NeedReplication));
  }
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.operands.push_back(RuleBuilder::tensor(dys));
  b.rule.results.push_back(RuleBuilder::tensor(ws));
  return b.rule;
}

/// PoolGrad (x, dy) into x's shape: as the pool, batch and channels
/// parallel, the spatial dims whole.
static OpShardingRule poolGradRule(g::PoolGradOp op) {
  RuleBuilder b;
  ArrayRef<int64_t> x = shapeOf(op.getX()), dy = shapeOf(op.getDy());
  SmallVector<int64_t> xs = {b.rule.addFactor(x[0]), b.rule.addFactor(x[1])};
  SmallVector<int64_t> dys = xs;
  for (size_t d = 2; d < x.size(); ++d) {
    xs.push_back(b.rule.addFactor(x[d], FactorKind::NeedReplication));
    dys.push_back(b.rule.addFactor(dy[d], FactorKind::NeedReplication));
  }
  b.rule.operands.push_back(RuleBuilder::tensor(xs));
  b.rule.operands.push_back(RuleBuilder::tensor(dys));
  b.rule.results.push_back(RuleBuilder::tensor(xs));
  return b.rule;
}

/// Ops without operands: their result dims are parallel (a rank can take
/// its slice of a constant or weight).
static OpShardingRule sourceRule(Operation *op) {
  RuleBuilder b;
  b.rule.results.push_back(
      RuleBuilder::tensor(b.factorsFor(shapeOf(op->getResult(0)))));
  return b.rule;
}

static OpShardingRule computeRule(Operation *op) {
  return llvm::TypeSwitch<Operation *, OpShardingRule>(op)
      .Case<g::ConstantOp, g::WeightOp, g::StateOp>(
          [](Operation *op) { return sourceRule(op); })
      .Case([](g::MatMulOp op) { return matmulRule(op); })
      .Case([](g::GemmOp op) { return gemmRule(op); })
      .Case([](g::ConvOp op) { return convRule(op); })
      .Case([](g::PoolOp op) { return poolRule(op); })
      .Case([](g::ConvTransposeOp op) { return convTransposeRule(op); })
      .Case([](g::ConvWeightGradOp op) { return convWeightGradRule(op); })
      .Case([](g::PoolGradOp op) { return poolGradRule(op); })
      .Case([](g::LinearOp op) { return linearRule(op); })
      .Case([](g::TransposeOp op) { return transposeRule(op); })
      .Case([](g::ReshapeOp op) { return reshapeRule(op); })
      .Case([](g::SliceOp op) { return sliceRule(op); })
      .Case([](g::ConcatOp op) { return axisWholeRule(op, op.getAxis()); })
      .Case([](g::SplitOp op) { return axisWholeRule(op, op.getAxis()); })
      .Case([](g::ExpandOp op) { return expandRule(op); })
      .Case([](g::GatherOp op) { return gatherRule(op); })
      .Case([](g::AttentionOp op) { return attentionRule(op); })
      .Case([](g::AttentionGradOp op) { return attentionGradRule(op); })
      .Case<g::LayerNormGradOp, g::RmsNormGradOp>(
          [](auto op) { return normGradRule(op, op.getAxis()); })
      .Case([](g::CrossEntropyGradOp op) { return crossEntropyGradRule(op); })
      .Case([](g::GatherGradOp op) { return gatherGradRule(op); })
      .Case([](g::MoeExpertsOp op) {
        return moeRule(op.getX(), op.getIndices(), op.getWIn(), op.getWOut(),
                       /*backward=*/false);
      })
      .Case([](g::ExpertLoadOp op) { return expertLoadRule(op); })
      .Case([](g::MoeExpertsGradOp op) {
        return moeRule(op.getX(), op.getIndices(), op.getWIn(), op.getWOut(),
                       /*backward=*/true);
      })
      .Case([](g::AssignOp op) {
        // A sink: its value keeps whatever split it has (the partitioner
        // reshards it to the buffer's).
        RuleBuilder b;
        b.rule.operands.push_back(
            RuleBuilder::tensor(b.factorsFor(shapeOf(op.getValue()))));
        return b.rule;
      })
      .Case<g::LayerNormOp, g::RmsNormOp>(
          [](auto op) { return trailingWholeRule(op, op.getAxis()); })
      .Case([](g::RotaryOp op) {
        // Elementwise with the tables broadcast, but the last dim's halves
        // mix: it stays whole.
        OpShardingRule rule = broadcastRule(op);
        int64_t last = op.getType().getRank() - 1;
        rule.factorKinds[rule.results[0][last][0]] =
            FactorKind::NeedReplication;
        return rule;
      })
      .Case<g::SoftmaxOp, g::LogSoftmaxOp, g::CumSumOp>([](auto op) {
        // Only the axis is whole; dims after it are parallel.
        OpShardingRule rule = broadcastRule(op);
        int64_t axis = op.getAxis();
        rule.factorKinds[rule.results[0][axis][0]] =
            FactorKind::NeedReplication;
        return rule;
      })
      .Case<g::ReduceSumOp, g::ReduceMeanOp, g::ReduceSumSquareOp>([](auto op) {
        return reduceRule(op, op.getAxes(), op.getKeepdims(), true);
      })
      .Case<g::ReduceMaxOp, g::ReduceMinOp, g::ReduceProdOp>([](auto op) {
        return reduceRule(op, op.getAxes(), op.getKeepdims(), false);
      })
      .Case<g::ArgMaxOp, g::ArgMinOp>([](auto op) {
        int64_t axes[] = {int64_t(op.getAxis())};
        return reduceRule(op, axes, op.getKeepdims(), false);
      })
      .Case<g::SoftmaxCrossEntropyOp, g::NllLossOp>(
          [](auto op) { return lossRule(op); })
      .Case([](g::TriluOp op) {
        OpShardingRule rule = broadcastRule(op);
        int64_t rank = op.getType().getRank();
        for (int64_t d = rank - 2; d < rank; ++d)
          rule.factorKinds[rule.results[0][d][0]] = FactorKind::NeedReplication;
        return rule;
      })
      .Case([](g::DropoutOp op) {
        // Elementwise in x; the step and the offsets (one per dim of x,
        // not a broadcast operand) stay whole.
        RuleBuilder b;
        SmallVector<int64_t> ids = b.factorsFor(shapeOf(op.getResult()));
        b.rule.operands.push_back(RuleBuilder::tensor(ids));
        b.rule.operands.push_back(b.broadcastOperand({}, ids));
        b.rule.operands.push_back(RuleBuilder::tensor({b.rule.addFactor(
            shapeOf(op.getOffsets())[0], FactorKind::NeedReplication)}));
        b.rule.results.push_back(RuleBuilder::tensor(ids));
        return b.rule;
      })
      .Case([](g::GatherElementsOp op) { return gatherElementsRule(op); })
      .Case([](g::TopKOp op) { return topKRule(op); })
      .Case<g::GatherNDOp, g::RangeOp>(
          [](Operation *op) { return OpShardingRule::replicateAll(op); })
      .Default([](Operation *op) {
        // Everything else is elementwise (unary, binary, where, cast, the
        // GELU backward, the optimizer updates with their scalars
        // broadcast, assign's value).
        return broadcastRule(op);
      });
}

namespace {
template <typename OpTy>
struct GraphShardingRuleModel
    : public ShardingRuleOpInterface::ExternalModel<GraphShardingRuleModel<OpTy>,
                                                    OpTy> {
  OpShardingRule getShardingRule(Operation *op) const {
    return computeRule(op);
  }
};

template <typename... OpTys>
void attachRules(MLIRContext *ctx) {
  (OpTys::template attachInterface<GraphShardingRuleModel<OpTys>>(*ctx), ...);
}
} // namespace

void mlir::paracc::dist::registerGraphShardingRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, graph::GraphDialect *) {
    attachRules<
#define GET_OP_LIST
#include "paracc/Dialect/Graph/IR/GraphOps.cpp.inc"
        >(ctx);
  });
}
