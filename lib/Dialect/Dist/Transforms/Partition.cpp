//===- Partition.cpp - SPMD partitioning with collectives ------*- C++ -*-===//
//
// Rewrites a function whose values carry shardings (global types) into one
// program that every rank runs on its local shards:
//
//  1. each op's factors take axes from its operands' and results' recorded
//     shardings (weights first, then the other operands, then the results),
//     skipping any source that would reuse an axis, shard a
//     need-replication factor or split a dimension non-contiguously; when
//     that splits a reduction factor, the order that takes the dims holding
//     reduction factors last is tried too and kept when it moves fewer
//     bytes (gathers, and the reduction of partial results) and gathers
//     only over axes that split weights;
//  2. every operand is resharded to what those factors require;
//  3. the op is cloned with local types; sharded reduction factors make its
//     results partial sums;
//  4. every result is resharded to its recorded sharding.
//
// Resharding (partial -> reduce_scatter / all_reduce, split -> all_gather,
// whole -> local_shard) is in Reshard below. On the module's zig-zag axis
// (context parallelism, `dist.zigzag_axis`) a split sequence is held as 2n
// chunks in the order 0, 2n-1, 1, 2n-2, ..., so that rank i's block is
// chunks i and 2n-1-i: each reshard that adds or removes that axis reorders
// the chunks, function inputs and results stay whole along it, and a causal
// attention runs as one attention per chunk. On the module's ring axis
// (`dist.ring_axis`, ring attention) an attention whose queries are split
// keeps its keys and values split too: each rank's block of them travels
// around the ring (`dist.ring_shift`), every block that reaches a rank is
// attended to by its queries (`start` placing them) and merged into what it
// has so far (`graph.attention_merge`); the backward passes the blocks
// again, with their dK and dV accumulating as they go, and rebuilds each
// block's probabilities from the whole attention's statistics
// (`attention_grad ... {key_block}`). Embedding lookups into a
// vocabulary-split table, Gemm biases under a split reduction, means and
// mean losses over split dims have their own rules.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Dialect/Dist/Transforms/FactorSharding.h"
#include "paracc/Dialect/Graph/IR/ScalarConstant.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_PARTITIONPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;
namespace g = mlir::paracc::graph;

/// `s`'s dim splits with `partial` as its partial axes.
static ShardingAttr withPartial(MLIRContext *ctx, ShardingAttr s,
                                ArrayRef<StringAttr> partial) {
  SmallVector<SmallVector<StringAttr>> dims;
  for (int64_t d = 0; d < s.getRank(); ++d)
    dims.push_back(s.getDimAxes(d));
  return ShardingAttr::get(ctx, dims, partial);
}

/// `s` without its partial axes.
static ShardingAttr withoutPartial(MLIRContext *ctx, ShardingAttr s) {
  return withPartial(ctx, s, {});
}

namespace {

/// A value on the local side and the sharding it is in.
struct Local {
  Value value;
  ShardingAttr sharding;
  RankedTensorType globalType;
};

class Partitioner {
public:
  Partitioner(func::FuncOp func, MeshAttr mesh, StringAttr zigzagAxis,
              StringAttr ringAxis, StringAttr expertAxis,
              FloatAttr expertLoadImbalance)
      : func(func), mesh(mesh), ctx(func.getContext()), b(ctx),
        zigzagAxis(zigzagAxis), ringAxis(ringAxis), expertAxis(expertAxis),
        expertLoadImbalance(expertLoadImbalance) {}

  LogicalResult run();

private:
  LogicalResult partitionOp(Operation *op);
  /// A dropout's mask is keyed by global coordinates: its offsets gain
  /// the local shard's (this rank's block index along each split dim
  /// times the block's size).
  void addShardOffsets(g::DropoutOp dropout, ShardingAttr sharding);
  /// A causal attention (or its gradient) whose queries are split sees
  /// every key: its `start` becomes the global position of this rank's first
  /// query (context parallelism).
  template <typename AttentionOpT>
  void addQueryStart(AttentionOpT local, AttentionOpT global,
                     ShardingAttr queries);
  /// Whether `axes` (of one dim) hold the zig-zag axis.
  bool holdsZigzag(ArrayRef<StringAttr> axes) const {
    return zigzagAxis && llvm::is_contained(axes, zigzagAxis);
  }
  /// The product of the sizes of the axes before the zig-zag axis in
  /// `axes`: the groups a dim's zig-zag chunks repeat in.
  int64_t zigzagGroups(ArrayRef<StringAttr> axes) const;
  /// Dim `dim` of `v`, `groups` x 2n chunks, from natural order into
  /// zig-zag order (`toZigzag`) or back.
  Value reorderZigzag(Location loc, Value v, int64_t dim, int64_t groups,
                      bool toZigzag);
  /// `s` without the zig-zag axis (and the axes after it) on any dim: what
  /// a function's inputs and results hold.
  ShardingAttr withoutZigzag(ShardingAttr s) const;
  /// A causal attention (or its gradient) whose queries are split over the
  /// zig-zag axis: one per chunk of the rank's two, each with its chunk's
  /// start; the results joined (dq concatenated, dk and dv summed).
  template <typename AttentionOpT>
  FailureOr<SmallVector<Value>> splitZigzagAttention(AttentionOpT local,
                                                     AttentionOpT global,
                                                     ShardingAttr queries);
  LogicalResult partitionGather(g::GatherOp op, ArrayRef<AxisList> factorAxes,
                                const OpShardingRule &rule);
  /// A mixture of experts (or its gradient) whose experts are split over
  /// the expert axis: dist.expert_parallel_moe(_grad) on the local tokens
  /// and experts.
  LogicalResult partitionExpertParallel(Operation *op,
                                        ArrayRef<AxisList> factorAxes,
                                        const OpShardingRule &rule);
  /// Reshards each of `op`'s results, computed by `values` in `computed`,
  /// to its target sharding and records it.
  void finishResults(Operation *op, ArrayRef<Value> values,
                     ArrayRef<ShardingAttr> computed);
  /// Ring attention (see the file comment) for an attention or its
  /// gradient whose queries are split over the ring axis alone.
  template <typename AttentionOpT>
  LogicalResult partitionRingAttention(AttentionOpT op,
                                       SmallVector<AxisList> factorAxes,
                                       const OpShardingRule &rule);
  /// One rank's chunks of a ring attention's queries (one, or the two
  /// zig-zag chunks) and where each starts in the sequence, per rank.
  struct RingChunks {
    int64_t count = 1, length = 0;
    /// positions[h][r]: the first position of rank r's chunk h.
    SmallVector<SmallVector<int64_t>> positions;
  };
  RingChunks ringChunks(int64_t localLength, bool causal) const;
  /// The forward ring of attention `att` (global, its attributes) on local
  /// q, k, v and mask: per query chunk, its result and statistics.
  template <typename AttentionOpT>
  std::pair<SmallVector<Value>, SmallVector<Value>>
  ringForward(AttentionOpT att, Value q, Value k, Value v, Value mask);
  /// Chunk `h` of local `x` along `dim` (the whole of it when there is one).
  /// `again`: the backward slices again what the forward sliced; marked
  /// recomputed, CSE keeps the two apart, so the forward's chunks are not
  /// kept for the backward beside the whole they were cut from.
  Value ringChunk(Location loc, Value x, int64_t dim, const RingChunks &c,
                  int64_t h, bool again = false);
  /// The i64 scalar `perRank[r]` on the rank r of the ring axis.
  Value rankTable(Location loc, ArrayRef<int64_t> perRank);
  /// `x` from the previous rank of the ring.
  Value ringShift(Location loc, Value x) {
    return RingShiftOp::create(b, loc, x.getType(), x, axesAttr({ringAxis}),
                               b.getI64IntegerAttr(1));
  }
  /// The block of keys a rank holds at a ring step: K, V and, when it has
  /// the keys' dim (`maskDim` >= 0), the mask.
  struct RingBlock {
    Value k, v, mask;
  };
  /// The previous rank's `block`: K, V and a mask with the keys' dim
  /// shifted (a mask without it is the same on every rank).
  RingBlock nextRingBlock(Location loc, const RingBlock &block,
                          int64_t maskDim) {
    return {ringShift(loc, block.k), ringShift(loc, block.v),
            maskDim >= 0 ? ringShift(loc, block.mask) : block.mask};
  }
  /// At ring step `t` (rank r holds the block of rank (r - t) mod n): where
  /// query chunk `h` lies relative to key chunk `j`, its `start`.
  Value ringStart(Location loc, const RingChunks &c, int64_t t, int64_t h,
                  int64_t j);
  template <typename LossOp>
  LogicalResult partitionMeanLoss(LossOp op, IRMapping &mapping,
                                  ArrayRef<AxisList> factorAxes,
                                  const OpShardingRule &rule);
  SmallVector<AxisList> chooseFactors(Operation *op,
                                      const OpShardingRule &rule);
  /// Whether the partial result `r` (computed as `computed`, wanted as
  /// `target`) should stay partial for its reshape (see partitionReshape).
  bool keepsPartialForReshape(Value r, ShardingAttr computed,
                              ShardingAttr target);
  /// `out` plus `bias` (a deferred Gemm bias on the trailing dims of
  /// `global`, the result in `target`).
  Value addBias(Location loc, Value out, Value bias, RankedTensorType global,
                ShardingAttr target, double beta);

  /// Converts `in` to `to` with collectives (see the file comment), reusing
  /// an earlier identical reshard.
  Value reshard(Location loc, const Local &in, ShardingAttr to);
  Value reshardImpl(Location loc, const Local &in, ShardingAttr to);
  RankedTensorType localType(RankedTensorType global, ShardingAttr s);
  ArrayAttr axesAttr(ArrayRef<StringAttr> axes);
  Value scalar(Location loc, Type elementType, double value);
  /// This rank's block index along `axes` times `block`: where its block
  /// of a dim split over them starts (an i64 scalar).
  Value blockStart(Location loc, ArrayRef<StringAttr> axes, int64_t block);
  /// Elements [begin, end) of `x` along `dim`.
  Value sliceAlong(Location loc, Value x, int64_t dim, int64_t begin,
                   int64_t end);

  func::FuncOp func;
  MeshAttr mesh;
  MLIRContext *ctx;
  OpBuilder b;
  /// The module's zig-zag axis, or null.
  StringAttr zigzagAxis;
  /// The module's ring-attention axis, or null.
  StringAttr ringAxis;
  /// The module's expert-parallel axis, or null.
  StringAttr expertAxis;
  /// The load the module's expert parallelism assumes of its busiest
  /// member over an even share, or null (even routing).
  FloatAttr expertLoadImbalance;
  /// Ring attention forwards already made, by their global (q, k, v): the
  /// per-chunk results and statistics their gradients rebuild from.
  DenseMap<std::tuple<Value, Value, Value>,
           std::pair<SmallVector<Value>, SmallVector<Value>>>
      ringForwards;
  DenseMap<Value, Local> locals;
  /// Every op's rule, taken before any type becomes local.
  DenseMap<Operation *, OpShardingRule> rules;
  /// Reshards already made: (local value, target) -> resharded value, so
  /// that q, k and v projections share one all-gather of their input.
  DenseMap<std::pair<Value, Attribute>, Value> reshards;
  /// Gemm biases (and betas) still to add to a partial result kept for its
  /// reshape: added after the reshape's reduction.
  DenseMap<Value, std::pair<Value, double>> pendingBias;
  /// The sharding of each state buffer read (by bufferKey).
  llvm::StringMap<ShardingAttr> bufferShardings;
  /// The axes that split a weight (tensor parallelism's; not data
  /// parallelism's, whose weights are whole).
  llvm::SmallDenseSet<StringAttr> weightAxes;
};

/// A state buffer's identity: the name and block offsets of a weight, state
/// read or assign.
std::string bufferKey(Operation *op) {
  std::string key = op->getAttrOfType<StringAttr>("name").getValue().str();
  if (auto offsets = op->getAttrOfType<DenseI64ArrayAttr>("offsets"))
    for (int64_t o : offsets.asArrayRef())
      key += "@" + std::to_string(o);
  return key;
}

} // namespace

RankedTensorType Partitioner::localType(RankedTensorType global,
                                        ShardingAttr s) {
  auto shape = s.getLocalShape(mesh, global.getShape());
  assert(succeeded(shape) && "sharding must divide (checked on creation)");
  return global.clone(*shape);
}

ArrayAttr Partitioner::axesAttr(ArrayRef<StringAttr> axes) {
  return ArrayAttr::get(ctx, SmallVector<Attribute>(axes.begin(), axes.end()));
}

Value Partitioner::scalar(Location loc, Type elementType, double value) {
  return g::createScalarConstant(b, loc, elementType, value);
}

Value Partitioner::blockStart(Location loc, ArrayRef<StringAttr> axes,
                              int64_t block) {
  Type i64 = b.getI64Type();
  Value index = AxisIndexOp::create(b, loc, RankedTensorType::get({}, i64),
                                    axesAttr(axes));
  return g::MulOp::create(b, loc, index, scalar(loc, i64, double(block)));
}

Value Partitioner::sliceAlong(Location loc, Value x, int64_t dim, int64_t begin,
                              int64_t end) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
      steps(type.getRank(), 1);
  starts[dim] = begin;
  limits[dim] = end;
  return g::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(starts),
                            b.getDenseI64ArrayAttr(limits),
                            b.getDenseI64ArrayAttr(steps));
}

Value Partitioner::reshard(Location loc, const Local &in, ShardingAttr to) {
  if (in.sharding == to)
    return in.value;
  std::pair<Value, Attribute> key = {in.value, to};
  if (in.sharding.getPartial().empty())
    if (auto it = reshards.find(key); it != reshards.end())
      return it->second;
  // Reshards go right after the value (or at the top for arguments), so
  // that every later user can share them.
  OpBuilder::InsertionGuard guard(b);
  if (in.sharding.getPartial().empty()) {
    Value v = in.value;
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(v.getParentBlock());
  }
  Value result = reshardImpl(loc, in, to);
  if (in.sharding.getPartial().empty())
    reshards[key] = result;
  return result;
}

Value Partitioner::reshardImpl(Location loc, const Local &in,
                               ShardingAttr to) {
  RankedTensorType global = in.globalType;
  int64_t rank = global.getRank();
  SmallVector<SmallVector<StringAttr>> cur;
  for (int64_t d = 0; d < rank; ++d)
    cur.push_back(in.sharding.getDimAxes(d));
  SmallVector<StringAttr> partial = in.sharding.getPartialAxes();
  Value v = in.value;
  auto currentSharding = [&] {
    return ShardingAttr::get(ctx, cur, partial);
  };
  // getDimAxes returns a fresh vector: keep them, never an ArrayRef of one.
  SmallVector<SmallVector<StringAttr>> target;
  for (int64_t d = 0; d < rank; ++d)
    target.push_back(to.getDimAxes(d));
  auto isPrefix = [](ArrayRef<StringAttr> a, ArrayRef<StringAttr> b) {
    return a.size() <= b.size() && llvm::equal(a, b.take_front(a.size()));
  };

  // 1. Partial sums: reduce-scatter onto a dim the target splits over the
  // partial axes, all-reduce the rest.
  for (int64_t d = 0; d < rank && !partial.empty(); ++d) {
    ArrayRef<StringAttr> want = target[d];
    if (!isPrefix(cur[d], want))
      continue;
    SmallVector<StringAttr> extra(want.drop_front(cur[d].size()));
    if (extra.empty() ||
        !llvm::all_of(extra, [&](StringAttr a) {
          return llvm::is_contained(partial, a);
        }))
      continue;
    if (holdsZigzag(extra) && !holdsZigzag(cur[d]))
      v = reorderZigzag(loc, v, d, zigzagGroups(extra), true);
    cur[d].append(extra.begin(), extra.end());
    llvm::erase_if(partial,
                   [&](StringAttr a) { return llvm::is_contained(extra, a); });
    v = ReduceScatterOp::create(b, loc, localType(global, currentSharding()),
                                v, axesAttr(extra), d);
  }
  if (!partial.empty()) {
    v = AllReduceOp::create(b, loc, v.getType(), v, axesAttr(partial),
                            b.getStringAttr("sum"));
    partial.clear();
  }
  // 2. An axis moving from one dim to another (the last axis of the dim it
  // leaves, the next one of the dim that takes it; context parallelism's
  // all-to-all attention moves cp between the sequence and the heads): one
  // all-to-all instead of a gather and a slice.
  for (int64_t e = 0; e < rank; ++e) {
    if (cur[e].empty() || cur[e].back() == zigzagAxis ||
        isPrefix(cur[e], target[e]))
      continue;
    StringAttr a = cur[e].back();
    for (int64_t d = 0; d < rank; ++d) {
      if (d == e || !isPrefix(cur[d], target[d]) ||
          target[d].size() <= cur[d].size() || target[d][cur[d].size()] != a)
        continue;
      cur[e].pop_back();
      cur[d].push_back(a);
      v = AllToAllOp::create(b, loc, localType(global, currentSharding()), v,
                             axesAttr({a}), d, e);
      break;
    }
  }
  // 3. Gather what the target does not split the same way.
  for (int64_t d = 0; d < rank; ++d) {
    ArrayRef<StringAttr> want = target[d];
    size_t common = 0;
    while (common < cur[d].size() && common < want.size() &&
           cur[d][common] == want[common])
      ++common;
    if (common == cur[d].size())
      continue;
    SmallVector<StringAttr> gathered(cur[d].begin() + common, cur[d].end());
    cur[d].resize(common);
    v = AllGatherOp::create(b, loc, localType(global, currentSharding()), v,
                            axesAttr(gathered), d);
    if (holdsZigzag(gathered))
      v = reorderZigzag(loc, v, d, zigzagGroups(gathered), false);
  }
  // An axis a target dim adds may still split another dim of `cur` (moved
  // between dims): gather it there first.
  for (int64_t d = 0; d < rank; ++d) {
    for (StringAttr a : ArrayRef(target[d]).drop_front(cur[d].size())) {
      for (int64_t e = 0; e < rank; ++e) {
        if (e == d || !llvm::is_contained(cur[e], a))
          continue;
        SmallVector<StringAttr> gathered(
            llvm::find(cur[e], a), cur[e].end());
        cur[e].erase(llvm::find(cur[e], a), cur[e].end());
        v = AllGatherOp::create(b, loc, localType(global, currentSharding()),
                                v, axesAttr(gathered), e);
        if (holdsZigzag(gathered))
          v = reorderZigzag(loc, v, e, zigzagGroups(gathered), false);
      }
    }
  }
  // 4. Take this rank's block along what the target adds.
  SmallVector<SmallVector<StringAttr>> delta(rank);
  bool any = false;
  for (int64_t d = 0; d < rank; ++d) {
    ArrayRef<StringAttr> want = target[d];
    delta[d].assign(want.begin() + cur[d].size(), want.end());
    any |= !delta[d].empty();
  }
  if (any) {
    for (int64_t d = 0; d < rank; ++d)
      if (holdsZigzag(delta[d]) && !holdsZigzag(cur[d]))
        v = reorderZigzag(loc, v, d, zigzagGroups(delta[d]), true);
    ShardingAttr deltaSharding = ShardingAttr::get(ctx, delta);
    auto inType = cast<RankedTensorType>(v.getType());
    auto outType = inType.clone(*deltaSharding.getLocalShape(mesh, inType.getShape()));
    v = LocalShardOp::create(b, loc, outType, v, deltaSharding);
  }
  return v;
}

/// Whether `tensor`'s dim `d` holds a reduction factor.
static bool holdsReduction(const OpShardingRule &rule,
                           const TensorFactors &tensor, int64_t d) {
  return llvm::any_of(tensor[d], [&](int64_t f) {
    return rule.factorKinds[f] == FactorKind::Reduction;
  });
}

SmallVector<AxisList> Partitioner::chooseFactors(Operation *op,
                                                 const OpShardingRule &rule) {
  // Operands are in the sharding their producer left them in; results say
  // what they should become.
  auto shardingOf = [&](Value v) {
    auto it = locals.find(v);
    return it != locals.end() ? it->second.sharding
                              : getShardingOrReplicated(v);
  };
  // Sources in order: the op's operand and result dims, each assigning its
  // axes to its factors when none is taken differently and no axis is used
  // twice. `deferReductions`: the dims holding a reduction factor after
  // all the others.
  auto assign = [&](bool deferReductions) {
    SmallVector<AxisList> factorAxes(rule.numFactors());
    SmallVector<bool> decided(rule.numFactors(), false);
    llvm::SmallDenseSet<StringAttr> used;
    auto take = [&](Value v, const TensorFactors &tensor, int round) {
      ShardingAttr s = shardingOf(v);
      for (int64_t d = 0; d < int64_t(tensor.size()) && d < s.getRank(); ++d) {
        if (deferReductions && holdsReduction(rule, tensor, d) != (round == 1))
          continue;
        SmallVector<StringAttr> axes = s.getDimAxes(d);
        if (axes.empty() || tensor[d].empty())
          continue;
        auto split = distributeAxes(rule, tensor[d], axes, mesh);
        if (failed(split))
          continue;
        bool ok = true;
        for (auto [i, f] : llvm::enumerate(tensor[d])) {
          const AxisList &a = (*split)[i];
          if (!a.empty() && rule.factorKinds[f] == FactorKind::NeedReplication)
            ok = false;
          if (decided[f] && factorAxes[f] != a)
            ok = false;
          for (StringAttr x : a)
            if (used.contains(x) && !(decided[f] && factorAxes[f] == a))
              ok = false;
        }
        if (!ok)
          continue;
        for (auto [i, f] : llvm::enumerate(tensor[d])) {
          if (decided[f])
            continue;
          factorAxes[f] = (*split)[i];
          decided[f] = !factorAxes[f].empty();
          for (StringAttr x : factorAxes[f])
            used.insert(x);
        }
      }
    };
    for (int round = 0; round < (deferReductions ? 2 : 1); ++round) {
      // An update of sharded optimizer state (ZeRO) runs where its results
      // are to live: its parameter operand is sliced to them.
      if (ctx->getLoadedDialect<DistDialect>()
              ->getShardedUpdateAttrHelper()
              .isAttrPresent(op))
        for (auto [v, t] : llvm::zip(op->getResults(), rule.results))
          take(v, t, round);
      // Weights stay where they are: they go first.
      for (auto [v, t] : llvm::zip(op->getOperands(), rule.operands))
        if (isWeightLike(v))
          take(v, t, round);
      for (auto [v, t] : llvm::zip(op->getOperands(), rule.operands))
        if (!isWeightLike(v))
          take(v, t, round);
      for (auto [v, t] : llvm::zip(op->getResults(), rule.results))
        take(v, t, round);
    }
    // Every tensor must be split into contiguous blocks; drop the minor
    // splits that are not.
    auto fixContiguity = [&](const TensorFactors &tensor) {
      for (const DimFactors &d : tensor)
        keepContiguousPrefix(rule, d, factorAxes, mesh);
    };
    for (const TensorFactors &t : rule.operands)
      fixContiguity(t);
    for (const TensorFactors &t : rule.results)
      fixContiguity(t);
    return factorAxes;
  };
  // Whether an assignment splits a reduction factor (partial results).
  auto splitsReduction = [&](ArrayRef<AxisList> factorAxes) {
    for (int64_t f = 0; f < rule.numFactors(); ++f)
      if (rule.factorKinds[f] == FactorKind::Reduction &&
          !factorAxes[f].empty())
        return true;
    return false;
  };
  // The bytes an assignment moves: operands gathered (split where the op
  // needs them less split), results gathered (split by the op where they
  // are to be less split), and the results reduced when a reduction factor
  // is split. `gatheredAxes` collects the axes operands are gathered over.
  auto movedBytes = [&](ArrayRef<AxisList> factorAxes,
                        llvm::SmallDenseSet<StringAttr> *gatheredAxes =
                            nullptr) {
    int64_t bytes = 0;
    auto gathers = [&](Value v, const TensorFactors &tensor, bool isResult) {
      ShardingAttr s = shardingOf(v);
      bool any = false;
      for (int64_t d = 0; d < int64_t(tensor.size()) && d < s.getRank(); ++d) {
        AxisList opSide;
        for (int64_t f : tensor[d])
          llvm::append_range(opSide, factorAxes[f]);
        SmallVector<StringAttr> valueSide = s.getDimAxes(d);
        ArrayRef<StringAttr> split = isResult ? ArrayRef(opSide) : valueSide;
        ArrayRef<StringAttr> kept = isResult ? valueSide : ArrayRef(opSide);
        for (StringAttr a : split)
          if (!llvm::is_contained(kept, a)) {
            any = true;
            if (gatheredAxes && !isResult)
              gatheredAxes->insert(a);
          }
      }
      return any;
    };
    for (auto [v, t] : llvm::zip(op->getOperands(), rule.operands))
      if (gathers(v, t, false))
        bytes += staticTensorBytes(v.getType());
    const bool partial = splitsReduction(factorAxes);
    for (auto [v, t] : llvm::zip(op->getResults(), rule.results))
      if (partial || gathers(v, t, true))
        bytes += staticTensorBytes(v.getType());
    return bytes;
  };

  SmallVector<AxisList> chosen = assign(/*deferReductions=*/false);
  // When that splits a reduction factor, the assignment that takes the
  // reduction dims last may move fewer bytes: the weight gradient X^T dY
  // with X split by tokens (sequence parallelism) and dY by the weight's
  // columns would reduce a weight-sized partial and gather dY, where
  // gathering X alone does (Megatron's choice). Taken when strictly
  // cheaper and its gathers are over axes that split weights: a batch
  // split by data parallelism stays (its gradients' reduction is deferred
  // over micro-batches and bucketed, which bytes per op do not see).
  if (splitsReduction(chosen) && llvm::all_of(op->getResultTypes(), [](Type t) {
        return isa<RankedTensorType>(t);
      })) {
    SmallVector<AxisList> alternative = assign(/*deferReductions=*/true);
    llvm::SmallDenseSet<StringAttr> gatheredAxes;
    int64_t alternativeBytes = movedBytes(alternative, &gatheredAxes);
    if (alternativeBytes < movedBytes(chosen) &&
        llvm::all_of(gatheredAxes,
                     [&](StringAttr a) { return weightAxes.contains(a); }))
      chosen = std::move(alternative);
  }
  return chosen;
}

LogicalResult Partitioner::partitionGather(g::GatherOp op,
                                           ArrayRef<AxisList> factorAxes,
                                           const OpShardingRule &rule) {
  Location loc = op.getLoc();
  const Local &table = locals[op.getData()];
  SmallVector<StringAttr> vocabAxes = table.sharding.getDimAxes(0);
  // The table: split along the vocabulary only.
  SmallVector<SmallVector<StringAttr>> tableDims(table.globalType.getRank());
  tableDims[0] = vocabAxes;
  Value localTable = reshard(loc, table, ShardingAttr::get(ctx, tableDims));
  // The indices: as the factors say, without the vocabulary axes (every
  // rank of a vocabulary group must look up the same tokens).
  ShardingAttr idsProjected =
      projectSharding(ctx, rule, rule.operands[1], factorAxes, false);
  SmallVector<SmallVector<StringAttr>> idsDims;
  for (int64_t d = 0; d < idsProjected.getRank(); ++d) {
    idsDims.push_back(idsProjected.getDimAxes(d));
    // Keep a prefix of axes that avoids the vocabulary ones (contiguity).
    auto firstVocab = llvm::find_if(idsDims.back(), [&](StringAttr a) {
      return llvm::is_contained(vocabAxes, a);
    });
    idsDims.back().erase(firstVocab, idsDims.back().end());
  }
  ShardingAttr idsWant = ShardingAttr::get(ctx, idsDims);
  const Local &ids = locals[op.getIndices()];
  Value localIds = reshard(loc, ids, idsWant);
  auto idsType = cast<RankedTensorType>(localIds.getType());
  Type i64 = b.getI64Type();
  if (idsType.getElementType() != i64) {
    idsType = idsType.clone(i64);
    localIds = g::CastOp::create(b, loc, idsType, localIds);
  }
  int64_t localVocab =
      cast<RankedTensorType>(localTable.getType()).getDimSize(0);
  // shifted = ids - index * localVocab; in range -> local row, else masked.
  Value offset = blockStart(loc, vocabAxes, localVocab);
  Value shifted = g::SubOp::create(b, loc, localIds, offset);
  Value geZero =
      g::GreaterEqualOp::create(b, loc, shifted, scalar(loc, i64, 0));
  Value ltLocal =
      g::LessOp::create(b, loc, shifted, scalar(loc, i64, localVocab));
  Value inRange = g::AndOp::create(b, loc, geZero, ltLocal);
  Value safe =
      g::WhereOp::create(b, loc, inRange, shifted, scalar(loc, i64, 0));
  Value rows = g::GatherOp::create(b, loc, localTable, safe, 0);
  copyTensorParallelDecision(op, rows.getDefiningOp());
  auto rowsType = cast<RankedTensorType>(rows.getType());
  SmallVector<int64_t> maskShape(idsType.getShape());
  maskShape.append(rowsType.getRank() - idsType.getRank(), 1);
  Value mask = g::ReshapeOp::create(
      b, loc, RankedTensorType::get(maskShape, b.getI1Type()), inRange);
  Value masked = g::WhereOp::create(
      b, loc, mask, rows, scalar(loc, rowsType.getElementType(), 0));
  // Each row came from one rank, the others contributed zeros: a partial
  // sum over the vocabulary axes.
  SmallVector<SmallVector<StringAttr>> outDims;
  for (int64_t d = 0; d < idsType.getRank(); ++d)
    outDims.push_back(idsWant.getDimAxes(d));
  for (int64_t d = 1; d < table.globalType.getRank(); ++d)
    outDims.emplace_back();
  Local computed{masked, ShardingAttr::get(ctx, outDims, vocabAxes),
                 op.getType()};
  locals[op.getResult()] = {reshard(loc, computed,
                                    getShardingOrReplicated(op.getResult())),
                            getShardingOrReplicated(op.getResult()),
                            op.getType()};
  return success();
}

template <typename LossOp>
LogicalResult Partitioner::partitionMeanLoss(LossOp op, IRMapping &mapping,
                                             ArrayRef<AxisList> factorAxes,
                                             const OpShardingRule &rule) {
  // mean = (sum of losses) / (sum of weights of the counted elements), both
  // summed over the split batch: two partial sums, two all-reduces.
  Location loc = op.getLoc();
  Value scores = mapping.lookup(op.getScores());
  Value labels = mapping.lookup(op.getLabels());
  Value weight = op.getWeight() ? mapping.lookup(op.getWeight()) : Value();
  auto lossType = cast<RankedTensorType>(op->getResult(0).getType());
  Type elem = lossType.getElementType();
  SmallVector<Type> types = {lossType};
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    types.push_back(cast<RankedTensorType>(scores.getType()));
  OperationState state(loc, LossOp::getOperationName());
  state.addOperands({scores, labels});
  if (weight)
    state.addOperands(weight);
  state.addTypes(types);
  state.addAttribute("reduction", b.getStringAttr("sum"));
  if (op.getIgnoreIndex())
    state.addAttribute("ignore_index", op.getIgnoreIndexAttr());
  Operation *local = b.create(state);
  Value localSum = local->getResult(0);

  auto labelsType = cast<RankedTensorType>(labels.getType());
  SmallVector<int64_t> allAxes;
  for (int64_t d = 0; d < labelsType.getRank(); ++d)
    allAxes.push_back(d);
  Value valid;
  // The getter returns the I64Attr as uint64_t: read it back as signed (the
  // usual ignore index is -100).
  if (op.getIgnoreIndex())
    valid = g::NotOp::create(
        b, loc, labelsType.clone(b.getI1Type()),
        g::EqualOp::create(
            b, loc, labels,
            scalar(loc, labelsType.getElementType(),
                   double(op.getIgnoreIndexAttr().getValue().getSExtValue()))));
  Value perElement;
  if (weight) {
    Value safe = valid ? g::WhereOp::create(
                             b, loc, valid, labels,
                             scalar(loc, labelsType.getElementType(), 0))
                       : labels;
    perElement = g::GatherOp::create(b, loc, weight, safe, 0);
    if (valid)
      perElement = g::WhereOp::create(b, loc, valid, perElement,
                                      scalar(loc, elem, 0));
  } else if (valid) {
    perElement = g::CastOp::create(b, loc, labelsType.clone(elem), valid);
  } else {
    perElement = g::ExpandOp::create(b, loc, labelsType.clone(elem),
                                     scalar(loc, elem, 1));
  }
  Value count = g::ReduceSumOp::create(b, loc, perElement, allAxes, false);
  AxisList partial = reductionAxes(rule, factorAxes);
  auto replicatedScalar = ShardingAttr::get(ctx, {});
  auto partialScalar = ShardingAttr::get(ctx, {}, partial);
  Value sum = reshard(loc, {localSum, partialScalar, lossType}, replicatedScalar);
  Value total = reshard(loc, {count, partialScalar, lossType}, replicatedScalar);
  Value mean = g::DivOp::create(b, loc, sum, total);
  locals[op->getResult(0)] = {
      reshard(loc, {mean, replicatedScalar, lossType},
              getShardingOrReplicated(op->getResult(0))),
      getShardingOrReplicated(op->getResult(0)), lossType};
  for (unsigned i = 1; i < op->getNumResults(); ++i) {
    auto global = cast<RankedTensorType>(op->getResult(i).getType());
    ShardingAttr computed =
        projectSharding(ctx, rule, rule.results[i], factorAxes, false);
    local->getResult(i).setType(localType(global, computed));
    ShardingAttr target = getShardingOrReplicated(op->getResult(i));
    locals[op->getResult(i)] = {
        reshard(loc, {local->getResult(i), computed, global}, target), target,
        global};
  }
  return success();
}

void Partitioner::addShardOffsets(g::DropoutOp dropout,
                                  ShardingAttr sharding) {
  Location loc = dropout.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(dropout);
  Type i64 = b.getI64Type();
  auto one = RankedTensorType::get({1}, i64);
  ArrayRef<int64_t> local = dropout.getType().getShape();
  SmallVector<Value> pieces;
  bool sharded = false;
  for (int64_t d = 0; d < int64_t(local.size()); ++d) {
    SmallVector<StringAttr> axes = sharding.getDimAxes(d);
    Value offset = scalar(loc, i64, 0);
    if (!axes.empty()) {
      sharded = true;
      offset = blockStart(loc, axes, local[d]);
    }
    pieces.push_back(g::ReshapeOp::create(b, loc, one, offset));
  }
  if (!sharded)
    return;
  Value shard = g::ConcatOp::create(b, loc, pieces, 0);
  dropout.getOffsetsMutable().assign(
      g::AddOp::create(b, loc, dropout.getOffsets(), shard));
}

/// The dim of an attention's q (and result) that holds the queries.
template <typename AttentionOpT>
static int64_t querySequenceDim(AttentionOpT att) {
  return cast<RankedTensorType>(att.getQ().getType()).getRank() -
         (att.getSequenceFirst() ? 3 : 2);
}

int64_t Partitioner::zigzagGroups(ArrayRef<StringAttr> axes) const {
  int64_t groups = 1;
  for (StringAttr a : axes) {
    if (a == zigzagAxis)
      break;
    groups *= mesh.getAxisSize(a.getValue());
  }
  return groups;
}

Value Partitioner::reorderZigzag(Location loc, Value v, int64_t dim,
                                 int64_t groups, bool toZigzag) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t n = mesh.getAxisSize(zigzagAxis.getValue());
  int64_t chunks = 2 * n, length = type.getDimSize(dim);
  int64_t chunk = length / (groups * chunks);
  // Zig-zag position k holds natural chunk order[k].
  SmallVector<int64_t> order, source(chunks);
  for (int64_t k = 0; k < chunks; ++k)
    order.push_back(k % 2 == 0 ? k / 2 : chunks - 1 - k / 2);
  for (int64_t k = 0; k < chunks; ++k)
    source[toZigzag ? k : order[k]] = toZigzag ? order[k] : k;
  SmallVector<Value> pieces;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t k = 0; k < chunks; ++k) {
      int64_t begin = (g * chunks + source[k]) * chunk;
      pieces.push_back(sliceAlong(loc, v, dim, begin, begin + chunk));
    }
  return g::ConcatOp::create(b, loc, pieces, dim);
}

ShardingAttr Partitioner::withoutZigzag(ShardingAttr s) const {
  SmallVector<SmallVector<StringAttr>> dims;
  for (int64_t d = 0; d < s.getRank(); ++d) {
    dims.push_back(s.getDimAxes(d));
    if (holdsZigzag(dims.back()))
      dims.back().erase(llvm::find(dims.back(), zigzagAxis), dims.back().end());
  }
  return ShardingAttr::get(ctx, dims, s.getPartialAxes());
}

template <typename AttentionOpT>
FailureOr<SmallVector<Value>>
Partitioner::splitZigzagAttention(AttentionOpT local, AttentionOpT global,
                                  ShardingAttr queries) {
  auto type = cast<RankedTensorType>(global.getQ().getType());
  int64_t seq = querySequenceDim(local);
  SmallVector<StringAttr> axes = queries.getDimAxes(seq);
  if (axes.size() != 1 || local.getQueryStart())
    return local.emitOpError("splits its queries over ")
           << axes.size() << " axes with zig-zag chunks; only over '"
           << zigzagAxis.getValue() << "' alone is supported";
  Location loc = local.getLoc();
  // (The caller erases `local`: the builder goes back to where it was.)
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(local);
  Type i64 = b.getI64Type();
  int64_t n = mesh.getAxisSize(zigzagAxis.getValue());
  int64_t globalQueries = type.getDimSize(seq);
  int64_t keys =
      cast<RankedTensorType>(global.getK().getType()).getDimSize(seq);
  int64_t chunk = globalQueries / (2 * n);
  auto half = [&](Value x, int64_t h, int64_t dim) {
    return sliceAlong(loc, x, dim, h * chunk, (h + 1) * chunk);
  };
  // The rank's chunks: i (first half) and 2n - 1 - i (second).
  Value offset = blockStart(loc, axes, chunk);
  Value base = scalar(loc, i64, double(keys - globalQueries));
  Value starts[2] = {
      g::AddOp::create(b, loc, base, offset),
      g::AddOp::create(
          b, loc,
          scalar(loc, i64, double(keys - globalQueries + (2 * n - 1) * chunk)),
          g::NegOp::create(b, loc, offset))};
  // Operands along the queries: q (and dy), and a mask with a query dim.
  Value mask = local.getMask();
  int64_t maskDim = -1;
  if (mask) {
    auto m = cast<RankedTensorType>(mask.getType());
    int64_t d = m.getRank() - 2;
    int64_t localQueries =
        cast<RankedTensorType>(local.getQ().getType()).getDimSize(seq);
    if (d >= 0 && m.getDimSize(d) == localQueries && localQueries > 1)
      maskDim = d;
  }
  SmallVector<Operation *> halves;
  for (int64_t h = 0; h < 2; ++h) {
    Value q = half(local.getQ(), h, seq);
    Value dy;
    if constexpr (std::is_same_v<AttentionOpT, g::AttentionGradOp>)
      dy = half(local.getDy(), h, seq);
    Value maskHalf = maskDim >= 0 ? half(mask, h, maskDim) : Value();
    Operation *op = b.clone(*local.getOperation());
    auto att = cast<AttentionOpT>(op);
    att.getQMutable().assign(q);
    if constexpr (std::is_same_v<AttentionOpT, g::AttentionGradOp>)
      att.getDyMutable().assign(dy);
    if (maskHalf)
      att.getMaskMutable().assign(maskHalf);
    att.getQueryStartMutable().assign(starts[h]);
    // The first result (y, or dq) is the chunk's rows.
    auto rows = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> shape(rows.getShape());
    shape[seq] = chunk;
    op->getResult(0).setType(rows.clone(shape));
    halves.push_back(op);
  }
  SmallVector<Value> joined;
  joined.push_back(g::ConcatOp::create(
      b, loc, ValueRange{halves[0]->getResult(0), halves[1]->getResult(0)},
      seq));
  for (unsigned i = 1; i < local->getNumResults(); ++i)
    joined.push_back(g::AddOp::create(b, loc, halves[0]->getResult(i),
                                      halves[1]->getResult(i)));
  return joined;
}

template <typename AttentionOpT>
void Partitioner::addQueryStart(AttentionOpT local, AttentionOpT global,
                                ShardingAttr queries) {
  if (!local.getCausal())
    return;
  auto type = cast<RankedTensorType>(global.getQ().getType());
  int64_t seq = querySequenceDim(local);
  SmallVector<StringAttr> axes = queries.getDimAxes(seq);
  if (axes.empty())
    return;
  Location loc = local.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(local);
  Type i64 = b.getI64Type();
  int64_t globalQueries = type.getDimSize(seq);
  int64_t keys =
      cast<RankedTensorType>(global.getK().getType()).getDimSize(seq);
  Value start = local.getQueryStart();
  if (!start)
    start = scalar(loc, i64, double(keys - globalQueries));
  int64_t block =
      cast<RankedTensorType>(local.getQ().getType()).getDimSize(seq);
  local.getQueryStartMutable().assign(
      g::AddOp::create(b, loc, start, blockStart(loc, axes, block)));
}

Partitioner::RingChunks Partitioner::ringChunks(int64_t localLength,
                                                bool causal) const {
  // Zig-zag chunks matter to a causal attention only: without a mask by
  // position, a rank's queries see every key alike.
  RingChunks c;
  const int64_t n = mesh.getAxisSize(ringAxis.getValue());
  const bool zigzag = causal && zigzagAxis == ringAxis;
  c.count = zigzag ? 2 : 1;
  c.length = localLength / c.count;
  c.positions.resize(c.count);
  for (int64_t r = 0; r < n; ++r) {
    c.positions[0].push_back(r * c.length);
    if (zigzag)
      c.positions[1].push_back((2 * n - 1 - r) * c.length);
  }
  return c;
}

Value Partitioner::ringChunk(Location loc, Value x, int64_t dim,
                             const RingChunks &c, int64_t h, bool again) {
  if (c.count == 1)
    return x;
  Value chunk = sliceAlong(loc, x, dim, h * c.length, (h + 1) * c.length);
  if (again)
    ctx->getLoadedDialect<DistDialect>()->getRecomputedAttrHelper().setAttr(
        chunk.getDefiningOp(), UnitAttr::get(ctx));
  return chunk;
}

Value Partitioner::rankTable(Location loc, ArrayRef<int64_t> perRank) {
  Type i64 = b.getI64Type();
  auto tableType = RankedTensorType::get({int64_t(perRank.size())}, i64);
  Value table = g::ConstantOp::create(
      b, loc, cast<ElementsAttr>(DenseElementsAttr::get(tableType, perRank)));
  Value index = AxisIndexOp::create(b, loc, RankedTensorType::get({}, i64),
                                    axesAttr({ringAxis}));
  return g::GatherOp::create(b, loc, table, index, 0);
}

Value Partitioner::ringStart(Location loc, const RingChunks &c, int64_t t,
                             int64_t h, int64_t j) {
  const int64_t n = mesh.getAxisSize(ringAxis.getValue());
  SmallVector<int64_t> starts;
  for (int64_t r = 0; r < n; ++r)
    starts.push_back(c.positions[h][r] - c.positions[j][((r - t) % n + n) % n]);
  return rankTable(loc, starts);
}

/// The dim of a mask that holds the keys, when it has one of `keys`.
static int64_t maskKeyDim(Value mask, int64_t keys) {
  if (!mask)
    return -1;
  auto type = cast<RankedTensorType>(mask.getType());
  return type.getRank() >= 1 && type.getDimSize(type.getRank() - 1) == keys
             ? type.getRank() - 1
             : -1;
}

template <typename AttentionOpT>
std::pair<SmallVector<Value>, SmallVector<Value>>
Partitioner::ringForward(AttentionOpT att, Value q, Value k, Value v,
                         Value mask) {
  Location loc = att.getLoc();
  const int64_t n = mesh.getAxisSize(ringAxis.getValue());
  const int64_t seq = querySequenceDim(att);
  auto qType = cast<RankedTensorType>(q.getType());
  const RingChunks c = ringChunks(qType.getDimSize(seq), att.getCausal());
  const int64_t maskDim = maskKeyDim(mask, qType.getDimSize(seq));
  SmallVector<Value> out(c.count), stats(c.count);
  RingBlock held{k, v, mask};
  for (int64_t t = 0; t < n; ++t) {
    // The next block is on its way while this one is attended to.
    RingBlock next;
    if (t + 1 < n)
      next = nextRingBlock(loc, held, maskDim);
    Value kt = held.k, vt = held.v, mt = held.mask;
    for (int64_t h = 0; h < c.count; ++h)
      for (int64_t j = 0; j < c.count; ++j) {
        Value start = att.getCausal() ? ringStart(loc, c, t, h, j) : Value();
        Value maskChunk = maskDim >= 0 ? ringChunk(loc, mt, maskDim, c, j) : mt;
        auto part = g::AttentionWithStatsOp::create(
            b, loc, ringChunk(loc, q, seq, c, h), ringChunk(loc, kt, seq, c, j),
            ringChunk(loc, vt, seq, c, j), maskChunk, start, att.getScaleAttr(),
            att.getCausalAttr(), att.getSequenceFirstAttr(),
            att.getWindowAttr());
        if (!out[h]) {
          out[h] = part.getResult();
          stats[h] = part.getStats();
          continue;
        }
        auto merged = g::AttentionMergeOp::create(
            b, loc, out[h].getType(), stats[h].getType(), out[h], stats[h],
            part.getResult(), part.getStats(), att.getSequenceFirstAttr());
        out[h] = merged.getResult();
        stats[h] = merged.getResultStats();
      }
    held = next;
  }
  return {out, stats};
}

template <typename AttentionOpT>
LogicalResult
Partitioner::partitionRingAttention(AttentionOpT op,
                                    SmallVector<AxisList> factorAxes,
                                    const OpShardingRule &rule) {
  constexpr bool isGrad = std::is_same_v<AttentionOpT, g::AttentionGradOp>;
  const unsigned qi = isGrad ? 1 : 0;
  const int64_t seq = querySequenceDim(op);
  auto global = cast<RankedTensorType>(op.getQ().getType());
  const int64_t keys =
      cast<RankedTensorType>(op.getK().getType()).getDimSize(seq);
  if (op.getQueryStart() || keys != global.getDimSize(seq))
    return op.emitOpError("runs as ring attention (mesh axis '")
           << ringAxis.getValue()
           << "'), which needs as many queries as keys and no start; use "
              "--cp-attention allgather";
  if (Value mask = op.getMask()) {
    auto m = cast<RankedTensorType>(mask.getType());
    if (m.getRank() >= 2 && m.getDimSize(m.getRank() - 2) > 1)
      return op.emitOpError("runs as ring attention (mesh axis '")
             << ringAxis.getValue()
             << "') with a mask that varies by query, which ring attention "
                "does not split yet; use --cp-attention allgather";
  }
  // The keys (and the mask's keys) split like the queries.
  for (int64_t f : rule.operands[qi + 1][seq])
    factorAxes[f] = {ringAxis};
  Location loc = op.getLoc();
  SmallVector<Value> local;
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    local.push_back(reshard(
        loc, locals[v],
        projectSharding(ctx, rule, rule.operands[i], factorAxes, false)));
  auto operand = [&](Value global) {
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (v == global)
        return local[i];
    return Value();
  };
  Value q = operand(op.getQ()), k = operand(op.getK()), v = operand(op.getV());
  Value mask = op.getMask() ? operand(op.getMask()) : Value();

  SmallVector<Value> results;
  if constexpr (!isGrad) {
    auto [out, stats] = ringForward(op, q, k, v, mask);
    ringForwards[{op.getQ(), op.getK(), op.getV()}] = {out, stats};
    results.push_back(out.size() == 1
                          ? out[0]
                          : g::ConcatOp::create(b, loc, out, seq).getResult());
  } else {
    // The forward's per-chunk results and statistics, or the forward again.
    auto it = ringForwards.find({op.getQ(), op.getK(), op.getV()});
    auto [out, stats] =
        it != ringForwards.end() ? it->second : ringForward(op, q, k, v, mask);
    const int64_t n = mesh.getAxisSize(ringAxis.getValue());
    const RingChunks c = ringChunks(
        cast<RankedTensorType>(q.getType()).getDimSize(seq), op.getCausal());
    const int64_t maskDim =
        maskKeyDim(mask, cast<RankedTensorType>(q.getType()).getDimSize(seq));
    Value dy = operand(op.getDy());
    auto shift = [&](Value x) { return ringShift(loc, x); };
    SmallVector<Value> dq(c.count);
    RingBlock held{k, v, mask};
    Value dk, dv;
    for (int64_t t = 0; t < n; ++t) {
      RingBlock next;
      if (t + 1 < n)
        next = nextRingBlock(loc, held, maskDim);
      Value kt = held.k, vt = held.v, mt = held.mask;
      // This block's dK and dV, chunk by chunk, summed over the queries.
      SmallVector<Value> dkChunks(c.count), dvChunks(c.count);
      for (int64_t h = 0; h < c.count; ++h)
        for (int64_t j = 0; j < c.count; ++j) {
          Value start = op.getCausal() ? ringStart(loc, c, t, h, j) : Value();
          Value kc = ringChunk(loc, kt, seq, c, j, true),
                vc = ringChunk(loc, vt, seq, c, j, true),
                qc = ringChunk(loc, q, seq, c, h, true);
          auto part = g::AttentionGradOp::create(
              b, loc, qc.getType(), kc.getType(), vc.getType(),
              ringChunk(loc, dy, seq, c, h), qc, kc, vc,
              maskDim >= 0 ? ringChunk(loc, mt, maskDim, c, j, true) : mt,
              start, out[h], stats[h], op.getScaleAttr(), op.getCausalAttr(),
              op.getSequenceFirstAttr(), op.getWindowAttr(),
              b.getBoolAttr(true));
          auto add = [&](Value &sum, Value x) {
            sum = sum ? g::AddOp::create(b, loc, sum, x).getResult() : x;
          };
          add(dq[h], part.getDq());
          add(dkChunks[j], part.getDk());
          add(dvChunks[j], part.getDv());
        }
      Value dkBlock =
                c.count == 1
                    ? dkChunks[0]
                    : g::ConcatOp::create(b, loc, dkChunks, seq).getResult(),
            dvBlock =
                c.count == 1
                    ? dvChunks[0]
                    : g::ConcatOp::create(b, loc, dvChunks, seq).getResult();
      // The gradients travel with their block: what the ranks before added,
      // plus this rank's share; after the last step one more shift takes
      // them home.
      dk = dk ? g::AddOp::create(b, loc, shift(dk), dkBlock).getResult()
              : dkBlock;
      dv = dv ? g::AddOp::create(b, loc, shift(dv), dvBlock).getResult()
              : dvBlock;
      held = next;
    }
    results.push_back(dq.size() == 1
                          ? dq[0]
                          : g::ConcatOp::create(b, loc, dq, seq).getResult());
    results.push_back(n > 1 ? shift(dk) : dk);
    results.push_back(n > 1 ? shift(dv) : dv);
  }
  // Results in the queries' and keys' sharding, whole sums.
  for (auto [i, r] : llvm::enumerate(op->getResults())) {
    auto globalType = cast<RankedTensorType>(r.getType());
    ShardingAttr computed = withoutPartial(
        ctx, projectSharding(ctx, rule, rule.results[i], factorAxes, true));
    ShardingAttr target = getShardingOrReplicated(r);
    locals[r] = {reshard(loc, {results[i], computed, globalType}, target),
                 target, globalType};
  }
  return success();
}

LogicalResult Partitioner::partitionOp(Operation *op) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  const OpShardingRule &rule = rules[op];
  if (rule.operands.size() != op->getNumOperands() ||
      rule.results.size() != op->getNumResults())
    return op->emitOpError("has a sharding rule that does not fit it");

  // A lookup into a vocabulary-split table.
  if (auto gather = dyn_cast<g::GatherOp>(op);
      gather && gather.getAxis() == 0 &&
      !locals[gather.getData()].sharding.getDimAxes(0).empty()) {
    SmallVector<AxisList> factorAxes = chooseFactors(op, rule);
    return partitionGather(gather, factorAxes, rule);
  }

  SmallVector<AxisList> factorAxes = chooseFactors(op, rule);
  // Ring attention: queries split over the ring axis alone.
  auto ringSplit = [&](auto att, unsigned queries) {
    if (!ringAxis)
      return false;
    ShardingAttr s =
        projectSharding(ctx, rule, rule.operands[queries], factorAxes, false);
    return s.getDimAxes(querySequenceDim(att)) ==
           SmallVector<StringAttr>{ringAxis};
  };
  if (auto att = dyn_cast<g::AttentionOp>(op); att && ringSplit(att, 0))
    return partitionRingAttention(att, factorAxes, rule);
  if (auto grad = dyn_cast<g::AttentionGradOp>(op); grad && ringSplit(grad, 1))
    return partitionRingAttention(grad, factorAxes, rule);
  // Experts split over the expert axis.
  if (expertAxis && isa<g::MoeExpertsOp, g::MoeExpertsGradOp>(op))
    return partitionExpertParallel(op, factorAxes, rule);
  // A constant holds the global value: every rank takes its block of it.
  if (isa<g::ConstantOp>(op))
    for (AxisList &axes : factorAxes)
      axes.clear();
  IRMapping mapping;
  // A reshape of a partial sum kept for it (keepsPartialForReshape) stays a
  // partial sum when its splits need no change.
  SmallVector<StringAttr> carriedPartial;
  Value carriedFrom;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    ShardingAttr want =
        projectSharding(ctx, rule, rule.operands[i], factorAxes, false);
    const Local &in = locals[v];
    if (isa<g::ReshapeOp>(op) && !in.sharding.getPartial().empty() &&
        withoutPartial(ctx, in.sharding) == want) {
      mapping.map(v, in.value);
      carriedPartial = in.sharding.getPartialAxes();
      carriedFrom = v;
      continue;
    }
    mapping.map(v, reshard(loc, in, want));
  }
  AxisList partial = reductionAxes(rule, factorAxes);

  // A Gemm's bias must be added once, after the partial sums are reduced.
  auto gemm = dyn_cast<g::GemmOp>(op);
  Value deferredBias;
  if (gemm && gemm.getC() && !partial.empty()) {
    deferredBias = gemm.getC();
    Operation *clone = g::GemmOp::create(
        b, loc, mapping.lookup(gemm.getA()), mapping.lookup(gemm.getB()),
        Value(), gemm.getTransAAttr(), gemm.getTransBAttr(),
        gemm.getAlphaAttr(), b.getF64FloatAttr(0.0));
    copyTensorParallelDecision(op, clone);
    mapping.map(op->getResult(0), clone->getResult(0));
  } else if (auto loss = dyn_cast<g::SoftmaxCrossEntropyOp>(op);
             loss && loss.getReduction() == "mean" && !partial.empty()) {
    return partitionMeanLoss(loss, mapping, factorAxes, rule);
  } else if (auto loss = dyn_cast<g::NllLossOp>(op);
             loss && loss.getReduction() == "mean" && !partial.empty()) {
    return partitionMeanLoss(loss, mapping, factorAxes, rule);
  } else {
    Operation *clone = b.clone(*op, mapping);
    clone->removeAttr(kShardingsAttrName);
    for (auto [i, r] : llvm::enumerate(clone->getResults())) {
      ShardingAttr s =
          projectSharding(ctx, rule, rule.results[i], factorAxes, false);
      r.setType(localType(cast<RankedTensorType>(op->getResult(i).getType()),
                          s));
    }
    // Slices keep whole dims only where they are split: their limits are
    // local sizes there.
    if (auto slice = dyn_cast<g::SliceOp>(clone)) {
      SmallVector<int64_t> limits(slice.getLimits());
      auto inType = cast<RankedTensorType>(slice.getX().getType());
      for (int64_t d = 0; d < inType.getRank(); ++d)
        if (slice.getStarts()[d] == 0 && slice.getSteps()[d] == 1 &&
            limits[d] == locals[op->getOperand(0)].globalType.getDimSize(d))
          limits[d] = inType.getDimSize(d);
      slice.setLimits(limits);
    }
    for (auto [r, c] : llvm::zip(op->getResults(), clone->getResults()))
      mapping.map(r, c);
    if (auto dropout = dyn_cast<g::DropoutOp>(clone)) {
      ShardingAttr s =
          projectSharding(ctx, rule, rule.results[0], factorAxes, false);
      for (int64_t d = 0; d < s.getRank(); ++d)
        if (holdsZigzag(s.getDimAxes(d)))
          return op->emitOpError("splits its sequence into zig-zag chunks, "
                                 "which its mask does not follow yet; use "
                                 "--cp-layout contiguous");
      addShardOffsets(dropout, s);
    }
    // Split queries: where each rank's block starts, or one attention per
    // zig-zag chunk.
    auto queriesOf = [&](unsigned operand) {
      return projectSharding(ctx, rule, rule.operands[operand], factorAxes,
                             false);
    };
    auto zigzagCausal = [&](auto att, ShardingAttr queries) {
      return att.getCausal() &&
             holdsZigzag(queries.getDimAxes(querySequenceDim(att)));
    };
    FailureOr<SmallVector<Value>> split = SmallVector<Value>();
    if (auto att = dyn_cast<g::AttentionOp>(clone)) {
      auto global = cast<g::AttentionOp>(op);
      if (zigzagCausal(att, queriesOf(0)))
        split = splitZigzagAttention(att, global, queriesOf(0));
      else
        addQueryStart(att, global, queriesOf(0));
    }
    if (auto grad = dyn_cast<g::AttentionGradOp>(clone)) {
      auto global = cast<g::AttentionGradOp>(op);
      if (zigzagCausal(grad, queriesOf(1)))
        split = splitZigzagAttention(grad, global, queriesOf(1));
      else
        addQueryStart(grad, global, queriesOf(1));
    }
    if (failed(split))
      return failure();
    if (!split->empty()) {
      for (auto [r, v] : llvm::zip(op->getResults(), *split))
        mapping.map(r, v);
      clone->erase();
    }
  }

  for (auto [i, r] : llvm::enumerate(op->getResults())) {
    auto global = cast<RankedTensorType>(r.getType());
    ShardingAttr computed =
        projectSharding(ctx, rule, rule.results[i], factorAxes, true);
    if (!carriedPartial.empty())
      computed = withPartial(ctx, computed, carriedPartial);
    Value v = mapping.lookup(r);
    // A mean over split dims is a partial sum of local means scaled down.
    if (isa<g::ReduceMeanOp>(op) && !computed.getPartial().empty()) {
      int64_t parts = mesh.getGroupSize(computed.getPartialAxes());
      v = g::MulOp::create(b, loc, v,
                           scalar(loc, global.getElementType(), 1.0 / parts));
    }
    ShardingAttr target = getShardingOrReplicated(r);
    if (keepsPartialForReshape(r, computed, target)) {
      locals[r] = {v, computed, global};
      if (deferredBias)
        pendingBias[r] = {deferredBias, gemm.getBeta().convertToDouble()};
      continue;
    }
    Value out = reshard(loc, {v, computed, global}, target);
    if (deferredBias)
      out = addBias(loc, out, deferredBias, global, target,
                    gemm.getBeta().convertToDouble());
    if (auto it = pendingBias.find(carriedFrom); carriedFrom &&
                                                 it != pendingBias.end())
      out = addBias(loc, out, it->second.first, global, target,
                    it->second.second);
    locals[r] = {out, target, global};
  }
  return success();
}

LogicalResult Partitioner::partitionExpertParallel(
    Operation *op, ArrayRef<AxisList> factorAxes, const OpShardingRule &rule) {
  Location loc = op->getLoc();
  const bool backward = isa<g::MoeExpertsGradOp>(op);
  // moeRule's operands: (dy,) x, indices, weights, w_in, w_out; its first
  // factor is the tokens'.
  const unsigned first = backward ? 1 : 0;
  Value wIn = op->getOperand(first + 3), wOut = op->getOperand(first + 4);
  auto splitsExperts = [&](Value table) {
    return llvm::is_contained(locals[table].sharding.getDimAxes(0), expertAxis);
  };
  if (!splitsExperts(wIn) || !splitsExperts(wOut))
    return op->emitOpError("is to run expert parallel over mesh axis '")
           << expertAxis.getValue()
           << "', but its experts' tables are not split over it";
  const AxisList &tokenAxes = factorAxes[0];
  if (!llvm::is_contained(tokenAxes, expertAxis))
    return op->emitOpError("runs its experts over mesh axis '")
           << expertAxis.getValue()
           << "', which must split its tokens too (each member sends its "
              "own tokens to the experts)";
  for (const AxisList &axes : factorAxes.drop_front())
    if (!axes.empty())
      return op->emitOpError("splits a dim other than the tokens under "
                             "expert parallelism, which is not supported");
  // The tokens as the rule splits them; each table by its experts alone.
  SmallVector<SmallVector<StringAttr>> byExpert(3);
  byExpert[0] = {expertAxis};
  SmallVector<Value> operands;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    ShardingAttr want =
        v == wIn || v == wOut
            ? ShardingAttr::get(ctx, byExpert)
            : projectSharding(ctx, rule, rule.operands[i], factorAxes, false);
    operands.push_back(reshard(loc, locals[v], want));
  }
  ArrayAttr axes = axesAttr({expertAxis});
  auto attrsOf = [&](auto moe) {
    return std::make_pair(b.getStringAttr(moe.getActivation()),
                          b.getBoolAttr(moe.getGated()));
  };
  auto [activation, gated] = backward ? attrsOf(cast<g::MoeExpertsGradOp>(op))
                                      : attrsOf(cast<g::MoeExpertsOp>(op));
  // The load the cost model assumes of the busiest member (1: even).
  FloatAttr loadImbalance = b.getF64FloatAttr(
      expertLoadImbalance ? expertLoadImbalance.getValueAsDouble() : 1.0);
  SmallVector<Value> values;
  SmallVector<ShardingAttr> computed;
  ShardingAttr tokens =
      projectSharding(ctx, rule, rule.results[0], factorAxes, true);
  if (!backward) {
    values.push_back(ExpertParallelMoeOp::create(
        b, loc, operands[0].getType(), operands[0], operands[1], operands[2],
        operands[3], operands[4], axes, activation, gated, loadImbalance));
    computed.push_back(tokens);
  } else {
    auto grad = ExpertParallelMoeGradOp::create(
        b, loc, operands[1].getType(), operands[3].getType(),
        operands[4].getType(), operands[5].getType(), operands[0], operands[1],
        operands[2], operands[3], operands[4], operands[5], axes, activation,
        gated, loadImbalance);
    llvm::append_range(values, grad->getResults());
    // The tables' gradients sum the group's tokens; over the other axes
    // that split the tokens (data parallelism) they are partial sums.
    SmallVector<StringAttr> partial;
    for (StringAttr a : tokenAxes)
      if (a != expertAxis)
        partial.push_back(a);
    ShardingAttr tables = ShardingAttr::get(ctx, byExpert, partial);
    computed = {tokens,
                projectSharding(ctx, rule, rule.results[1], factorAxes, true),
                tables, tables};
  }
  finishResults(op, values, computed);
  return success();
}

void Partitioner::finishResults(Operation *op, ArrayRef<Value> values,
                                ArrayRef<ShardingAttr> computed) {
  for (auto [r, v, s] : llvm::zip(op->getResults(), values, computed)) {
    auto global = cast<RankedTensorType>(r.getType());
    ShardingAttr target = getShardingOrReplicated(r);
    locals[r] = {reshard(op->getLoc(), {v, s, global}, target), target, global};
  }
}

Value Partitioner::addBias(Location loc, Value out, Value bias,
                           RankedTensorType global, ShardingAttr target,
                           double beta) {
  // The bias broadcasts onto the result's trailing dims.
  auto biasGlobal = cast<RankedTensorType>(bias.getType());
  SmallVector<SmallVector<StringAttr>> dims;
  int64_t offset = global.getRank() - biasGlobal.getRank();
  for (int64_t d = 0; d < biasGlobal.getRank(); ++d)
    dims.push_back(biasGlobal.getDimSize(d) == global.getDimSize(d + offset)
                       ? target.getDimAxes(d + offset)
                       : SmallVector<StringAttr>());
  Value c = reshard(loc, locals[bias], ShardingAttr::get(ctx, dims));
  if (beta != 1.0)
    c = g::MulOp::create(b, loc, c,
                         scalar(loc, global.getElementType(), beta));
  return g::AddOp::create(b, loc, out, c);
}

// An exporter's row-parallel product often works on flattened tokens
// ([B*S, H]) and is reshaped to [B, S, H] after. With sequence parallelism
// the reshaped value is split along S, which a block of the flattened dim
// cannot express: reducing before the reshape would all-reduce and then
// slice. A reshape commutes with the sum, so the product stays a partial
// sum, is reshaped, and its reduction becomes a reduce-scatter along S.
bool Partitioner::keepsPartialForReshape(Value r, ShardingAttr computed,
                                         ShardingAttr target) {
  if (computed.getPartial().empty() || !r.hasOneUse() ||
      withoutPartial(ctx, computed) != target)
    return false;
  auto reshape = dyn_cast<g::ReshapeOp>(*r.user_begin());
  if (!reshape)
    return false;
  // Only when the reshape's result splits a dim over a partial axis.
  ShardingAttr after = getShardingOrReplicated(reshape.getResult());
  SmallVector<StringAttr> partial = computed.getPartialAxes();
  for (int64_t d = 0; d < after.getRank(); ++d)
    for (StringAttr a : after.getDimAxes(d))
      if (llvm::is_contained(partial, a))
        return true;
  return false;
}

/// `dist.shard_dims` for a sharding: per dim, the mesh axis indices.
static ArrayAttr shardDimsAttr(MeshAttr mesh, ShardingAttr s) {
  MLIRContext *ctx = mesh.getContext();
  SmallVector<Attribute> dims;
  for (int64_t d = 0; d < s.getRank(); ++d) {
    SmallVector<int32_t> axes;
    for (StringAttr a : s.getDimAxes(d))
      axes.push_back(int32_t(*mesh.getAxisIndex(a.getValue())));
    dims.push_back(DenseI32ArrayAttr::get(ctx, axes));
  }
  return ArrayAttr::get(ctx, dims);
}

LogicalResult Partitioner::run() {
  Block &body = func.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body) {
    ops.push_back(&op);
    rules[&op] = getRule(&op);
  }
  func.walk([&](g::WeightOp weight) {
    ShardingAttr s = getShardingOrReplicated(weight.getResult());
    // The expert axis splits the experts' tables, but like a data-parallel
    // axis it splits the batch of everything else.
    for (int64_t d = 0; d < s.getRank(); ++d)
      for (StringAttr a : s.getDimAxes(d))
        if (a != expertAxis)
          weightAxes.insert(a);
  });
  // Arguments become local shards of the global inputs.
  SmallVector<Type> argTypes;
  for (BlockArgument arg : body.getArguments()) {
    auto global = cast<RankedTensorType>(arg.getType());
    // The runtime splits inputs into contiguous blocks: whole along a
    // zig-zag axis, split by local_shard inside.
    ShardingAttr s = withoutZigzag(getShardingOrReplicated(arg));
    auto local = s.getLocalShape(mesh, global.getShape());
    if (failed(local))
      return func.emitError("input ")
             << arg.getArgNumber() << " of type " << global
             << " does not divide by its sharding " << s;
    arg.setType(global.clone(*local));
    argTypes.push_back(arg.getType());
    locals[arg] = {arg, s, global};
    func.setArgAttr(arg.getArgNumber(), kGlobalTypeAttrName, TypeAttr::get(global));
    func.setArgAttr(arg.getArgNumber(), kShardDimsAttrName, shardDimsAttr(mesh, s));
    func.removeArgAttr(arg.getArgNumber(), kArgShardingAttrName);
  }

  auto recomputed =
      ctx->getLoadedDialect<DistDialect>()->getRecomputedAttrHelper();
  SmallVector<Operation *> dead;
  for (Operation *op : ops) {
    // Parameters and state buffers: each rank holds its shard.
    if (isa<g::WeightOp, g::StateOp>(op)) {
      Value result = op->getResult(0);
      auto global = cast<RankedTensorType>(result.getType());
      ShardingAttr s = getShardingOrReplicated(result);
      auto local = s.getLocalShape(mesh, global.getShape());
      if (failed(local))
        return op->emitOpError("does not divide by its sharding ") << s;
      result.setType(global.clone(*local));
      op->setAttr(kGlobalTypeAttrName, TypeAttr::get(global));
      op->setAttr(kShardDimsAttrName, shardDimsAttr(mesh, s));
      op->removeAttr(kShardingsAttrName);
      locals[result] = {result, s, global};
      bufferShardings.try_emplace(bufferKey(op), s);
      continue;
    }
    // A state write stores its buffer's sharding (an update of a sharded
    // optimizer state gathers the parameter it computed in shards).
    if (auto assign = dyn_cast<g::AssignOp>(op)) {
      auto it = bufferShardings.find(bufferKey(op));
      if (it != bufferShardings.end()) {
        b.setInsertionPoint(op);
        const Local &in = locals[assign.getValue()];
        Value stored = reshard(op->getLoc(), in, it->second);
        Operation *clone = b.clone(*op);
        clone->setOperand(0, stored);
        clone->removeAttr(kShardingsAttrName);
        dead.push_back(op);
        continue;
      }
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      b.setInsertionPoint(ret);
      SmallVector<Value> outs;
      SmallVector<Type> outTypes;
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        Local l = locals[v];
        if (ShardingAttr whole = withoutZigzag(l.sharding);
            whole != l.sharding) {
          l.value = reshard(ret.getLoc(), l, whole);
          l.sharding = whole;
        }
        outs.push_back(l.value);
        outTypes.push_back(l.value.getType());
        func.setResultAttr(i, kGlobalTypeAttrName, TypeAttr::get(l.globalType));
        func.setResultAttr(i, kShardDimsAttrName, shardDimsAttr(mesh, l.sharding));
      }
      func::ReturnOp::create(b, ret.getLoc(), outs);
      dead.push_back(ret);
      func.setType(FunctionType::get(ctx, argTypes, outTypes));
      continue;
    }
    Operation *previous = op->getPrevNode();
    if (failed(partitionOp(op)))
      return failure();
    // What a recomputed op became is recomputed too (so that CSE keeps it
    // apart from the forward's).
    if (recomputed.getAttr(op))
      for (Operation *made = previous ? previous->getNextNode()
                                      : &op->getBlock()->front();
           made && made != op; made = made->getNextNode())
        recomputed.setAttr(made, UnitAttr::get(ctx));
    dead.push_back(op);
  }
  for (Operation *op : llvm::reverse(dead))
    op->erase();
  return success();
}

namespace {
struct PartitionPass : public dist::impl::PartitionPassBase<PartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = requireMesh(module);
    if (!mesh)
      return signalPassFailure();
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (failed(verifyRecordedShardings(func, mesh)) ||
          failed(
              Partitioner(
                  func, mesh,
                  module->getAttrOfType<StringAttr>(
                      DistDialect::ZigzagAxisAttrHelper::getNameStr()),
                  module->getAttrOfType<StringAttr>(
                      DistDialect::RingAxisAttrHelper::getNameStr()),
                  module->getAttrOfType<StringAttr>(
                      DistDialect::ExpertAxisAttrHelper::getNameStr()),
                  module->getAttrOfType<FloatAttr>(
                      DistDialect::ExpertLoadImbalanceAttrHelper::getNameStr()))
                  .run()))
        return signalPassFailure();
  }
};
} // namespace
