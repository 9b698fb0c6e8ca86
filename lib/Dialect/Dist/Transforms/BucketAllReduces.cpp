//===- BucketAllReduces.cpp - Fewer, larger all-reduces ---------*- C++ -*-===//
//
// After partitioning, a training step all-reduces every data-parallel
// weight gradient, and every tensor-parallel partial sum of squares of the
// gradient norm, separately: hundreds of collectives, most of them far too
// small to use the links. Consecutive all-reduces over the same axes, with
// the same kind and element type, whose results are all needed only after
// the last of them is issued become one bucket: the operands flattened and
// concatenated, one all-reduce, and the pieces sliced back. A bucket closes
// at `bucket-mb` MiB (DDP's 25 by default) or when a later member would
// delay a result some op needs earlier, so a bucket is issued as soon as its
// last gradient exists and overlaps the rest of the backward, as DDP's do.
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

int64_t byteSize(RankedTensorType t) {
  return t.getNumElements() *
         std::max<int64_t>(t.getElementTypeBitWidth() / 8, 1);
}

/// Replaces the members of a bucket by one all-reduce placed at the last
/// member.
void emitBucket(ArrayRef<dist::AllReduceOp> members) {
  dist::AllReduceOp last = members.back();
  OpBuilder b(last);
  Location loc = last.getLoc();
  Type element = last.getType().getElementType();
  SmallVector<Value> flat;
  int64_t total = 0;
  for (dist::AllReduceOp m : members) {
    int64_t n = m.getType().getNumElements();
    flat.push_back(graph::ReshapeOp::create(
        b, loc, RankedTensorType::get({n}, element), m.getX()));
    total += n;
  }
  auto concat = graph::ConcatOp::create(b, loc, flat, b.getI64IntegerAttr(0));
  auto reduced = dist::AllReduceOp::create(b, loc, concat.getType(), concat,
                                           last.getAxesAttr(),
                                           last.getKindAttr());
  int64_t offset = 0;
  for (dist::AllReduceOp m : members) {
    int64_t n = m.getType().getNumElements();
    Value piece = graph::SliceOp::create(
        b, loc, reduced, b.getDenseI64ArrayAttr({offset}),
        b.getDenseI64ArrayAttr({offset + n}), b.getDenseI64ArrayAttr({1}));
    offset += n;
    Value back = graph::ReshapeOp::create(b, loc, m.getType(), piece);
    m.getResult().replaceAllUsesWith(back);
  }
  (void)total;
  for (dist::AllReduceOp m : members)
    m->erase();
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

    // Open buckets by (axes, kind, element type).
    struct Bucket {
      SmallVector<dist::AllReduceOp> members;
      int64_t bytes = 0;
      /// The earliest position where a member's result is used.
      int64_t firstUse = INT64_MAX;
    };
    DenseMap<std::tuple<Attribute, Attribute, Type>, Bucket> open;
    SmallVector<SmallVector<dist::AllReduceOp>> closed;
    auto close = [&](Bucket &bucket) {
      if (bucket.members.size() > 1)
        closed.push_back(bucket.members);
      bucket = Bucket();
    };
    for (Operation &op : body) {
      auto ar = dyn_cast<dist::AllReduceOp>(op);
      if (!ar || !ar.getType().hasStaticShape())
        continue;
      int64_t bytes = byteSize(ar.getType());
      // Large ones go alone (they fill the links by themselves).
      if (bytes >= limit)
        continue;
      auto key = std::make_tuple(Attribute(ar.getAxesAttr()),
                                 Attribute(ar.getKindAttr()),
                                 ar.getType().getElementType());
      Bucket &bucket = open[key];
      // Placing the bucket here must not delay a result needed earlier.
      if (!bucket.members.empty() && bucket.firstUse < position[&op])
        close(bucket);
      int64_t firstUse = INT64_MAX;
      for (Operation *user : ar.getResult().getUsers())
        firstUse = std::min(firstUse, position.lookup(user));
      bucket.members.push_back(ar);
      bucket.bytes += bytes;
      bucket.firstUse = std::min(bucket.firstUse, firstUse);
      if (bucket.bytes >= limit)
        close(bucket);
    }
    for (auto &entry : open)
      close(entry.second);
    for (auto &members : closed)
      emitBucket(members);
  }
};

} // namespace
