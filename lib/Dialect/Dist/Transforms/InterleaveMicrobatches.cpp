//===- InterleaveMicrobatches.cpp - Overlap collectives with compute -*- C++ -*-===//
//
// The program was partitioned over one more mesh axis than the machine has:
// a last, virtual axis that splits the batch into micro-batches. Every rank
// runs all of them: the body is cloned once per micro-batch (ops that do
// not depend on the batch, such as weights, stay shared) and the clones are
// interleaved segment by segment, a segment ending at a collective. While
// one micro-batch's collective runs on the communication stream, the next
// micro-batch's segment computes.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"
#include "paracc/Dialect/Dist/Transforms/MicrobatchAxis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_INTERLEAVEMICROBATCHESPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

class Interleaver {
public:
  Interleaver(func::FuncOp func, StringAttr axis, int32_t axisIndex,
              int64_t count)
      : func(func), ctx(func.getContext()), axis(axis), axisIndex(axisIndex),
        count(count), b(func.getContext()), maps(count) {}

  LogicalResult run();

private:
  LogicalResult classify();
  /// The value of micro-batch `c`'s `x` sliced from the whole `x` along
  /// `dim`.
  Value slice(Location loc, Value x, int64_t dim, int64_t c);
  void emitShared(Operation *op);
  void emitSharedOperands(Operation *op);
  LogicalResult emitClone(Operation *op, int64_t c);
  LogicalResult emitJoin(Operation *op);

  func::FuncOp func;
  MLIRContext *ctx;
  StringAttr axis;
  int32_t axisIndex;
  int64_t count;
  OpBuilder b;
  std::vector<IRMapping> maps;
  /// Values that differ between micro-batches.
  DenseSet<Value> dependent;
  /// Ops cloned per micro-batch, grouped into segments; `joins[s]` is the
  /// collective over the micro-batch axis that ends segment s, if any.
  SmallVector<SmallVector<Operation *>> segments;
  SmallVector<Operation *> joins;
  DenseSet<Operation *> perBatch, emitted;
};

LogicalResult Interleaver::classify() {
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 kShardDimsAttrName);
    if (microbatchDim(dims, axisIndex) >= 0)
      dependent.insert(arg);
  }
  segments.emplace_back();
  joins.push_back(nullptr);
  for (Operation &op : body.without_terminator()) {
    bool dep = llvm::any_of(op.getOperands(),
                            [&](Value v) { return dependent.contains(v); });
    if (auto index = dyn_cast<AxisIndexOp>(op))
      dep |= hasMeshAxis(index.getAxes(), axis.getValue());
    if (auto shard = dyn_cast<LocalShardOp>(op))
      dep |= llvm::is_contained(shard.getSharding().getUsedAxes(), axis);
    // Every micro-batch is a rank of the virtual mesh that sends and
    // receives on its own: the transfers are cloned per micro-batch (in
    // micro-batch order on both sides, so they still pair), even when what
    // they send is the same for all.
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    dep |= collective && collective.isPointToPoint();
    if (isa<g::WeightOp>(op) &&
        microbatchDim(op.getAttrOfType<ArrayAttr>(kShardDimsAttrName), axisIndex) >= 0)
      return op.emitOpError("is split over the micro-batch axis");
    if (collective && hasMeshAxis(collective.getGroupAxes(), axis.getValue())) {
      if (!isa<AllReduceOp>(op))
        return op.emitOpError("over the micro-batch axis is not supported");
      // The clones' values meet here; the result is the same for all.
      joins.back() = &op;
      segments.emplace_back();
      joins.push_back(nullptr);
      continue;
    }
    if (!dep)
      continue;
    for (Value r : op.getResults())
      dependent.insert(r);
    perBatch.insert(&op);
    segments.back().push_back(&op);
    if (collective) {
      segments.emplace_back();
      joins.push_back(nullptr);
    }
  }
  return success();
}

Value Interleaver::slice(Location loc, Value x, int64_t dim, int64_t c) {
  return sliceMicrobatch(b, loc, x, dim, c, count);
}

void Interleaver::emitSharedOperands(Operation *op) {
  for (Value v : op->getOperands())
    if (Operation *def = v.getDefiningOp();
        def && !dependent.contains(v) && !emitted.contains(def))
      emitShared(def);
}

void Interleaver::emitShared(Operation *op) {
  emitSharedOperands(op);
  Operation *clone = b.clone(*op, maps[0]);
  for (int64_t c = 1; c < count; ++c)
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      maps[c].map(from, to);
  emitted.insert(op);
}

LogicalResult Interleaver::emitClone(Operation *op, int64_t c) {
  emitSharedOperands(op);
  return cloneForMicrobatch(b, op, maps[c], maps[c], axis, c, count);
}

LogicalResult Interleaver::emitJoin(Operation *op) {
  auto reduce = cast<AllReduceOp>(op);
  emitSharedOperands(op);
  bool max = reduce.getKind() == "max";
  if (!max && reduce.getKind() != "sum")
    return reduce.emitOpError("of kind '")
           << reduce.getKind() << "' over the micro-batch axis";
  Location loc = op->getLoc();
  Value acc = maps[0].lookupOrDefault(reduce.getX());
  for (int64_t c = 1; c < count; ++c) {
    Value next = maps[c].lookupOrDefault(reduce.getX());
    acc = max ? g::MaxOp::create(b, loc, acc, next).getResult()
              : g::AddOp::create(b, loc, acc, next).getResult();
  }
  SmallVector<Attribute> rest;
  for (Attribute a : reduce.getAxes())
    if (cast<StringAttr>(a) != axis)
      rest.push_back(a);
  if (!rest.empty())
    acc = AllReduceOp::create(b, loc, acc.getType(), acc, ArrayAttr::get(ctx, rest),
                              reduce.getKindAttr())
              .getResult();
  for (IRMapping &map : maps)
    map.map(reduce.getResult(), acc);
  emitted.insert(op);
  return success();
}

LogicalResult Interleaver::run() {
  if (failed(classify()))
    return failure();
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());

  // The new body: arguments hold every micro-batch.
  Block *block = new Block();
  SmallVector<Type> argTypes;
  for (BlockArgument arg : body.getArguments()) {
    auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 kShardDimsAttrName);
    int64_t dim = microbatchDim(dims, axisIndex);
    Type type = wholeMicrobatchType(arg.getType(), dim, count);
    if (dim >= 0) {
      func.setArgAttr(arg.getArgNumber(), kShardDimsAttrName,
                      withoutMeshAxis(dims, axisIndex));
    }
    argTypes.push_back(type);
    BlockArgument whole = block->addArgument(type, arg.getLoc());
    b.setInsertionPointToEnd(block);
    for (int64_t c = 0; c < count; ++c)
      maps[c].map(arg, dim >= 0 ? slice(arg.getLoc(), whole, dim, c)
                                : Value(whole));
  }
  b.setInsertionPointToEnd(block);

  for (size_t s = 0; s < segments.size(); ++s) {
    for (int64_t c = 0; c < count; ++c)
      for (Operation *op : segments[s])
        if (failed(emitClone(op, c)))
          return failure();
    if (joins[s] && failed(emitJoin(joins[s])))
      return failure();
  }
  for (Operation &op : body.without_terminator())
    if (!perBatch.contains(&op) && !emitted.contains(&op) &&
        !llvm::is_contained(joins, &op))
      emitShared(&op);

  // Results: micro-batch pieces are concatenated back.
  SmallVector<Value> outs;
  SmallVector<Type> outTypes;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto dims = func.getResultAttrOfType<ArrayAttr>(i, kShardDimsAttrName);
    int64_t dim = microbatchDim(dims, axisIndex);
    Value out;
    if (dim >= 0) {
      SmallVector<Value> pieces;
      for (IRMapping &map : maps)
        pieces.push_back(map.lookupOrDefault(v));
      out = g::ConcatOp::create(b, ret.getLoc(), pieces, dim).getResult();
      func.setResultAttr(i, kShardDimsAttrName, withoutMeshAxis(dims, axisIndex));
    } else if (dependent.contains(v)) {
      return ret.emitOpError("returns result ")
             << i << ", which differs between micro-batches but is not "
             << "split over them";
    } else {
      out = maps[0].lookupOrDefault(v);
    }
    outs.push_back(out);
    outTypes.push_back(out.getType());
  }
  func::ReturnOp::create(b, ret.getLoc(), outs);

  // Swap the bodies.
  func.getBody().push_back(block);
  body.dropAllDefinedValueUses();
  body.erase();
  func.setType(FunctionType::get(ctx, argTypes, outTypes));
  return success();
}

struct InterleaveMicrobatchesPass
    : public dist::impl::InterleaveMicrobatchesPassBase<
          InterleaveMicrobatchesPass> {
  using InterleaveMicrobatchesPassBase::InterleaveMicrobatchesPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh)
      return;
    std::optional<unsigned> index = mesh.getAxisIndex(axis);
    if (!index)
      return;
    ArrayRef<StringAttr> names = mesh.getAxisNames();
    if (*index + 1 != names.size()) {
      module.emitError("the micro-batch axis '")
          << axis << "' must be the last mesh axis";
      return signalPassFailure();
    }
    int64_t count = mesh.getAxisSize(axis);
    StringAttr name = StringAttr::get(&getContext(), axis);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isDeclaration())
        continue;
      Interleaver interleaver(func, name, int32_t(*index), count);
      if (failed(interleaver.run()))
        return signalPassFailure();
    }
    // The mesh the executable sees no longer has the virtual axis.
    dropMicrobatchAxis(module, mesh, count);
  }
};

} // namespace
} // namespace mlir::paracc::dist
