//===- MicrobatchAxis.cpp - The virtual micro-batch mesh axis -------------===//

#include "paracc/Dialect/Dist/Transforms/MicrobatchAxis.h"

#include "mlir/IR/BuiltinOps.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;
namespace g = mlir::paracc::graph;

int64_t dist::microbatchDim(ArrayAttr shardDims, int32_t axis) {
  if (!shardDims)
    return -1;
  for (auto [d, a] : llvm::enumerate(shardDims))
    if (llvm::is_contained(cast<DenseI32ArrayAttr>(a).asArrayRef(), axis))
      return int64_t(d);
  return -1;
}

ArrayAttr dist::withoutMeshAxis(ArrayAttr shardDims, int32_t axis) {
  MLIRContext *ctx = shardDims.getContext();
  SmallVector<Attribute> dims;
  for (Attribute a : shardDims) {
    SmallVector<int32_t> axes;
    for (int32_t x : cast<DenseI32ArrayAttr>(a).asArrayRef())
      if (x != axis)
        axes.push_back(x);
    dims.push_back(DenseI32ArrayAttr::get(ctx, axes));
  }
  return ArrayAttr::get(ctx, dims);
}

Type dist::wholeMicrobatchType(Type type, int64_t dim, int64_t count) {
  if (dim < 0)
    return type;
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[dim] *= count;
  return tensor.clone(shape);
}

void dist::dropMicrobatchAxis(ModuleOp module, MeshAttr mesh, int64_t count) {
  MLIRContext *ctx = module.getContext();
  module->setAttr(kMeshAttrName,
                  MeshAttr::get(ctx, mesh.getAxisNames().drop_back(),
                                mesh.getAxisSizes().drop_back()));
  module->setAttr(kMicrobatchesAttrName,
                  IntegerAttr::get(IntegerType::get(ctx, 64), count));
}

bool dist::hasMeshAxis(ArrayAttr axes, StringRef name) {
  return axes && llvm::any_of(axes, [&](Attribute a) {
           auto s = dyn_cast<StringAttr>(a);
           return s && s.getValue() == name;
         });
}

static Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  auto type = RankedTensorType::get({}, b.getI64Type());
  return g::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, v))
      .getResult();
}

Value dist::sliceMicrobatch(OpBuilder &b, Location loc, Value x, int64_t dim,
                            int64_t c, int64_t count) {
  if (count == 1)
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
      steps(type.getRank(), 1);
  int64_t size = type.getDimSize(dim) / count;
  starts[dim] = c * size;
  limits[dim] = (c + 1) * size;
  return g::SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(starts),
                            b.getDenseI64ArrayAttr(limits),
                            b.getDenseI64ArrayAttr(steps))
      .getResult();
}

FailureOr<Value> dist::microbatchAxisIndex(OpBuilder &b, AxisIndexOp index,
                                           StringAttr mbAxis, int64_t c,
                                           int64_t count) {
  // The micro-batch axis is the last (minor-most) of the mesh.
  ArrayAttr axes = index.getAxes();
  if (cast<StringAttr>(axes[axes.size() - 1]) != mbAxis)
    return index.emitOpError("lists the micro-batch axis before others");
  Location loc = index.getLoc();
  Value value = i64Constant(b, loc, c);
  if (axes.size() > 1) {
    auto rest = ArrayAttr::get(b.getContext(), axes.getValue().drop_back());
    Value major =
        AxisIndexOp::create(b, loc, index.getType(), rest).getResult();
    value = g::AddOp::create(
                b, loc, g::MulOp::create(b, loc, major, i64Constant(b, loc, count)),
                value)
                .getResult();
  }
  return value;
}

FailureOr<Value> dist::microbatchLocalShard(OpBuilder &b, LocalShardOp shard,
                                            Value x, StringAttr mbAxis,
                                            int64_t c, int64_t count) {
  ShardingAttr s = shard.getSharding();
  SmallVector<SmallVector<StringAttr>> dims;
  int64_t dim = -1;
  for (int64_t d = 0; d < s.getRank(); ++d) {
    SmallVector<StringAttr> axes = s.getDimAxes(d);
    if (!axes.empty() && axes.back() == mbAxis) {
      axes.pop_back();
      dim = d;
    } else if (llvm::is_contained(axes, mbAxis)) {
      return shard.emitOpError("lists the micro-batch axis before others");
    }
    dims.push_back(axes);
  }
  ShardingAttr rest = ShardingAttr::get(b.getContext(), dims);
  Location loc = shard.getLoc();
  if (!rest.isReplicated()) {
    auto type = shard.getType();
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] *= count;
    x = LocalShardOp::create(b, loc, type.clone(shape), x, rest).getResult();
  }
  if (count == 1)
    return x;
  return sliceMicrobatch(b, loc, x, dim, c, count);
}

FailureOr<Operation *> dist::cloneForMicrobatch(OpBuilder &b, Operation *op,
                                                IRMapping &operands,
                                                IRMapping &results,
                                                StringAttr mbAxis, int64_t c,
                                                int64_t count) {
  if (auto index = dyn_cast<AxisIndexOp>(op);
      index && hasMeshAxis(index.getAxes(), mbAxis.getValue())) {
    FailureOr<Value> value = microbatchAxisIndex(b, index, mbAxis, c, count);
    if (failed(value))
      return failure();
    results.map(index.getResult(), *value);
    return static_cast<Operation *>(nullptr);
  }
  if (auto shard = dyn_cast<LocalShardOp>(op);
      shard && llvm::is_contained(shard.getSharding().getUsedAxes(), mbAxis)) {
    FailureOr<Value> piece = microbatchLocalShard(
        b, shard, operands.lookupOrDefault(shard.getX()), mbAxis, c, count);
    if (failed(piece))
      return failure();
    results.map(shard.getResult(), *piece);
    return static_cast<Operation *>(nullptr);
  }
  Operation *clone = b.clone(*op, operands);
  for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
    results.map(from, to);
  // Reports list the plan's decisions once, from micro-batch 0.
  if (c > 0 && getTensorParallelRole(clone))
    clone->setAttr(DistDialect::MicrobatchAttrHelper::getNameStr(),
                   b.getI64IntegerAttr(c));
  return clone;
}

DictionaryAttr dist::withoutMeshAxisInAttrs(DictionaryAttr attrs,
                                            int32_t axis) {
  if (!attrs)
    return attrs;
  NamedAttrList list(attrs);
  if (auto dims = list.get(kShardDimsAttrName))
    list.set(kShardDimsAttrName, withoutMeshAxis(cast<ArrayAttr>(dims), axis));
  return list.getDictionary(attrs.getContext());
}
