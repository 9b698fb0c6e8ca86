//===- BucketAllReduces.cpp - Fewer, larger collectives ---------*- C++ -*-===//
//
// After partitioning, a training step all-reduces every data-parallel
// weight gradient, and every tensor-parallel partial sum of squares of the
// gradient norm, separately (with ZeRO it reduce-scatters or all-reduces
// them and all-gathers every updated parameter): hundreds of collectives,
// most of them far too small to use the links. Consecutive collectives of
// one kind over the same axes, with the same element type, whose results
// are all needed only after the last of them is issued become one bucket:
// one collective of the concatenated operands, and the pieces sliced back.
// Reduce-scatters and all-gathers along dim 0 join their operands as rows
// (rank r's shard of each in row r), so that one collective still gives
// every rank its shard of each. A result read only through views (ZeRO's
// local shard of an all-reduced gradient, a reshape, a transpose, a cast)
// counts as needed where the views' users are; the views move after the
// bucket. A bucket closes at `bucket-mb` MiB (DDP's 25 by default) or when a
// later member would delay a result some op needs earlier, so a bucket is
// issued as soon as its last gradient exists and overlaps the rest of the
// backward, as DDP's do.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Graph/IR/GraphDialect.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_BUCKETALLREDUCESPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;

namespace {

/// Ops that only view or slice one value (moved, with their own such users,
/// after a bucket when they read a member's result): what ZeRO puts between
/// a gradient's all-reduce and the sharded update; and the state writes of
/// the updated parameters ZeRO all-gathers (they take effect at the step's
/// end wherever they are).
bool isMovableView(Operation *op) {
  return isa<graph::AssignOp, dist::LocalShardOp>(op) ||
         graph::isReshapeTransposeOrCast(op);
}

/// `v`'s users and, through movable views, theirs: the views (in `views`)
/// and the earliest position of any other user.
int64_t firstRealUse(Value v, const DenseMap<Operation *, int64_t> &position,
                     SmallVectorImpl<Operation *> &views) {
  int64_t first = INT64_MAX;
  for (Operation *user : v.getUsers()) {
    if (isMovableView(user)) {
      views.push_back(user);
      for (Value r : user->getResults())
        first = std::min(first, firstRealUse(r, position, views));
    } else {
      first = std::min(first, position.lookup(user));
    }
  }
  return first;
}

/// A member's operand `v` as the bucket joins it: [groups, n / groups] for
/// a reduce-scatter over `groups` ranks (rank r's shard is row r), [1, n]
/// for an all-gather (`groups` 1), flat for an all-reduce (`groups` 0).
Value rows(OpBuilder &b, Location loc, Value v, int64_t groups) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t n = type.getNumElements();
  SmallVector<int64_t> shape = groups ? SmallVector<int64_t>{groups, n / groups}
                                      : SmallVector<int64_t>{n};
  return graph::ReshapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v);
}

/// The permutation that brings dim `d` of a rank-`rank` tensor to the
/// front, or empty when no move is needed (every dim before `d` has size
/// 1 in `shape`: the block of each rank is contiguous already).
SmallVector<int64_t> frontPermutation(ArrayRef<int64_t> shape, int64_t d) {
  if (llvm::all_of(shape.take_front(d), [](int64_t n) { return n == 1; }))
    return {};
  SmallVector<int64_t> perm = {d};
  for (int64_t i = 0; i < int64_t(shape.size()); ++i)
    if (i != d)
      perm.push_back(i);
  return perm;
}

/// `v` transposed by `perm` (itself when `perm` is empty).
Value permuted(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  if (perm.empty())
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return graph::TransposeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v,
      b.getDenseI64ArrayAttr(perm));
}

/// The dim a reduce-scatter or all-gather splits or joins.
int64_t collectiveDim(Operation *op) {
  if (auto rs = dyn_cast<dist::ReduceScatterOp>(op))
    return rs.getDim();
  return cast<dist::AllGatherOp>(op).getDim();
}

/// Replaces the members of a bucket by one collective of their kind placed
/// at the last member. All-reduces concatenate their flattened operands.
/// Reduce-scatters and all-gathers concatenate rows: each operand, its
/// split dim brought to the front when dims of more than one element lie
/// before it, viewed as [g, n / g] (reduce-scatter over g ranks) or [1, n]
/// (all-gather), joined along dim 1, so that one collective along dim 0
/// gives every rank its shard of every member. Movable views of the
/// members' results (`views`) go after the bucket.
void emitBucket(ArrayRef<Operation *> members, ArrayRef<Operation *> views) {
  Operation *last = members.back();
  OpBuilder b(last);
  Location loc = last->getLoc();
  auto resultType = [](Operation *op) {
    return cast<RankedTensorType>(op->getResult(0).getType());
  };
  auto operandType = [](Operation *op) {
    return cast<RankedTensorType>(op->getOperand(0).getType());
  };
  Type element = resultType(last).getElementType();
  const bool allReduce = isa<dist::AllReduceOp>(last);
  const bool gather = isa<dist::AllGatherOp>(last);
  // Ranks in the group: how the split dim changes.
  int64_t groups = 0;
  if (!allReduce) {
    int64_t d = collectiveDim(last);
    groups =
        gather
            ? resultType(last).getDimSize(d) / operandType(last).getDimSize(d)
            : operandType(last).getDimSize(d) / resultType(last).getDimSize(d);
  }
  // Per member, how its split dim is brought to the front.
  SmallVector<SmallVector<int64_t>> perms;
  SmallVector<Value> pieces;
  int64_t total = 0;
  for (Operation *m : members) {
    Value x = m->getOperand(0);
    perms.push_back(allReduce ? SmallVector<int64_t>{}
                              : frontPermutation(operandType(m).getShape(),
                                                 collectiveDim(m)));
    x = permuted(b, loc, x, perms.back());
    pieces.push_back(rows(b, loc, x, allReduce ? 0 : (gather ? 1 : groups)));
    total += cast<RankedTensorType>(pieces.back().getType()).getShape().back();
  }
  auto joined = graph::ConcatOp::create(b, loc, pieces,
                                        b.getI64IntegerAttr(allReduce ? 0 : 1));
  Value combined;
  if (auto ar = dyn_cast<dist::AllReduceOp>(last))
    combined = dist::AllReduceOp::create(b, loc, joined.getType(), joined,
                                         ar.getAxesAttr(), ar.getKindAttr());
  else if (auto rs = dyn_cast<dist::ReduceScatterOp>(last))
    combined = dist::ReduceScatterOp::create(
        b, loc, RankedTensorType::get({1, total}, element), joined,
        rs.getAxesAttr(), b.getI64IntegerAttr(0));
  else
    combined = dist::AllGatherOp::create(
        b, loc, RankedTensorType::get({groups, total}, element), joined,
        cast<dist::AllGatherOp>(last).getAxesAttr(), b.getI64IntegerAttr(0));
  auto combinedType = cast<RankedTensorType>(combined.getType());
  int64_t offset = 0;
  for (auto [m, piece, perm] : llvm::zip(members, pieces, perms)) {
    int64_t n = cast<RankedTensorType>(piece.getType()).getShape().back();
    Value part;
    if (allReduce)
      part = graph::SliceOp::create(
          b, loc, combined, b.getDenseI64ArrayAttr({offset}),
          b.getDenseI64ArrayAttr({offset + n}), b.getDenseI64ArrayAttr({1}));
    else
      part = graph::SliceOp::create(
          b, loc, combined, b.getDenseI64ArrayAttr({0, offset}),
          b.getDenseI64ArrayAttr({combinedType.getDimSize(0), offset + n}),
          b.getDenseI64ArrayAttr({1, 1}));
    offset += n;
    // The result's shape with its split dim in front, then back in place.
    RankedTensorType type = resultType(m);
    SmallVector<int64_t> shape, inverse(perm.size());
    for (auto [i, p] : llvm::enumerate(perm)) {
      shape.push_back(type.getDimSize(p));
      inverse[p] = int64_t(i);
    }
    Value back = graph::ReshapeOp::create(
        b, loc,
        perm.empty() ? type
                     : RankedTensorType::get(shape, type.getElementType()),
        part);
    back = permuted(b, loc, back, inverse);
    m->getResult(0).replaceAllUsesWith(back);
  }
  for (Operation *view : views)
    view->moveBefore(last);
  for (Operation *m : members)
    m->erase();
}

/// The mesh axes that split a weight of `func` (tensor parallelism's), by
/// the weights' shard dims; not the axis ZeRO stage 3 shards a parameter
/// over (its gathers are data parallelism's, bucketed like its gradients).
llvm::SmallDenseSet<StringAttr> weightAxes(func::FuncOp func) {
  llvm::SmallDenseSet<StringAttr> axes;
  auto module = func->getParentOfType<ModuleOp>();
  dist::MeshAttr mesh = module ? dist::getMesh(module) : dist::MeshAttr();
  if (!mesh)
    return axes;
  auto *dialect = func.getContext()->getLoadedDialect<dist::DistDialect>();
  func.walk([&](graph::WeightOp weight) {
    StringAttr zeroAxis =
        dialect->getShardedParameterAttrHelper().getAttr(weight);
    auto dims = weight->getAttrOfType<ArrayAttr>(dist::kShardDimsAttrName);
    for (Attribute dim : dims ? dims.getValue() : ArrayRef<Attribute>())
      if (auto indices = dyn_cast<DenseI32ArrayAttr>(dim))
        for (int32_t i : indices.asArrayRef())
          if (i >= 0 && size_t(i) < mesh.getAxisNames().size() &&
              mesh.getAxisNames()[i] != zeroAxis)
            axes.insert(mesh.getAxisNames()[i]);
  });
  return axes;
}

/// Whether `op` is a collective the pass combines: an all-reduce, or a
/// reduce-scatter or all-gather over axes that split no weight (ZeRO's
/// over dp; tensor and sequence parallelism's activations go alone), of
/// static shape.
bool isBucketable(Operation *op,
                  const llvm::SmallDenseSet<StringAttr> &weightAxes) {
  auto type = op->getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                  : RankedTensorType();
  if (!type || !type.hasStaticShape())
    return false;
  if (isa<dist::AllReduceOp>(op))
    return true;
  if (!isa<dist::ReduceScatterOp, dist::AllGatherOp>(op))
    return false;
  auto axes = op->getAttrOfType<ArrayAttr>("axes");
  return axes &&
         llvm::none_of(axes.getAsRange<StringAttr>(),
                       [&](StringAttr a) { return weightAxes.contains(a); });
}

struct BucketAllReducesPass
    : public dist::impl::BucketAllReducesPassBase<BucketAllReducesPass> {
  using BucketAllReducesPassBase::BucketAllReducesPassBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (bucketMb < 0) {
      func.emitError("--paracc-bucket-all-reduces: bucket-mb must be >= 0, "
                     "got ")
          << bucketMb;
      return signalPassFailure();
    }
    if (bucketMb == 0)
      return;
    const int64_t limit = int64_t(bucketMb * double(1 << 20));
    Block &body = func.getBody().front();
    DenseMap<Operation *, int64_t> position;
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = int64_t(i);

    // Open buckets by (op kind, axes, reduction kind, element type).
    struct Bucket {
      SmallVector<Operation *> members;
      /// The members' results' movable views.
      SmallVector<Operation *> views;
      int64_t bytes = 0;
      /// The earliest position where a member's result is used (through
      /// its views).
      int64_t firstUse = INT64_MAX;
    };
    using Key = std::tuple<OperationName, Attribute, Attribute, Type>;
    DenseMap<Key, Bucket> open;
    SmallVector<std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
        closed;
    auto close = [&](Bucket &bucket) {
      if (bucket.members.size() > 1)
        closed.push_back({bucket.members, bucket.views});
      bucket = Bucket();
    };
    const llvm::SmallDenseSet<StringAttr> modelAxes = weightAxes(func);
    for (Operation &op : body) {
      if (!isBucketable(&op, modelAxes))
        continue;
      auto type = cast<RankedTensorType>(op.getResult(0).getType());
      int64_t bytes = dist::staticTensorBytes(type);
      // Large ones go alone (they fill the links by themselves).
      if (bytes >= limit)
        continue;
      Attribute kind;
      if (auto ar = dyn_cast<dist::AllReduceOp>(op))
        kind = ar.getKindAttr();
      Key key{op.getName(), op.getAttr("axes"), kind, type.getElementType()};
      Bucket &bucket = open[key];
      // Placing the bucket here must not delay a result needed earlier,
      // nor move a view this member's operand depends on.
      Operation *def = op.getOperand(0).getDefiningOp();
      if (!bucket.members.empty() &&
          (bucket.firstUse < position[&op] ||
           (def && llvm::is_contained(bucket.views, def))))
        close(bucket);
      SmallVector<Operation *> views;
      int64_t firstUse = firstRealUse(op.getResult(0), position, views);
      bucket.members.push_back(&op);
      llvm::append_range(bucket.views, views);
      bucket.bytes += bytes;
      bucket.firstUse = std::min(bucket.firstUse, firstUse);
      if (bucket.bytes >= limit)
        close(bucket);
    }
    for (auto &entry : open)
      close(entry.second);
    for (auto &[members, views] : closed) {
      // The views in program order (they may read each other).
      llvm::sort(views, [&](Operation *a, Operation *b) {
        return position.lookup(a) < position.lookup(b);
      });
      views.erase(std::unique(views.begin(), views.end()), views.end());
      // Only those before the bucket move; the others are after it already.
      llvm::erase_if(views, [&](Operation *v) {
        return position.lookup(v) > position.lookup(members.back());
      });
      emitBucket(members, views);
    }
  }
};

} // namespace
