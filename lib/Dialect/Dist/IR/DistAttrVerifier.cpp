//===- DistAttrVerifier.cpp - The dist dialect's declared attributes ------===//
//
// Verifies every `dist.*` attribute on an op, a function argument or a
// function result: it must be one that DistDialect.td declares, of the
// declared kind, and, for what partitioning records (`global_type`,
// `shard_dims`), consistent with the value it describes and the mesh.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::paracc::dist;

namespace {

/// What kind of attribute a declared name holds.
enum class Kind {
  Unknown,
  Integer,
  Float,
  String,
  Unit,
  PipelinePlan,
  RecomputePlan,
  ZeroPlan,
  PipelineAction,
  Mesh,
  Sharding,
  ShardingList,
  AxisList,
  TensorParallelRole,
  GlobalType,
  ShardDims,
};

Kind kindOf(StringRef name) {
  return llvm::StringSwitch<Kind>(name)
      .Cases({"stage", "pipeline_stage", "microbatches", "microbatch",
              "gather_unit"},
             Kind::Integer)
      .Cases({"pipeline_axis", "pipeline_function", "tp_reason", "sp_skipped",
              "zigzag_axis", "ring_axis", "expert_axis", "sharded_parameter",
              "parameter_gather"},
             Kind::String)
      .Cases({"recomputed", "sharded_update"}, Kind::Unit)
      .Case("expert_load_imbalance", Kind::Float)
      .Case("pipeline_plan", Kind::PipelinePlan)
      .Case("recompute_plan", Kind::RecomputePlan)
      .Case("zero_plan", Kind::ZeroPlan)
      .Case("pipeline_action", Kind::PipelineAction)
      .Case("mesh", Kind::Mesh)
      .Cases({"sharding", "user_sharding"}, Kind::Sharding)
      .Case("shardings", Kind::ShardingList)
      .Case("addends_on_first", Kind::AxisList)
      .Case("tp_role", Kind::TensorParallelRole)
      .Case("global_type", Kind::GlobalType)
      .Case("shard_dims", Kind::ShardDims)
      .Default(Kind::Unknown);
}

StringRef describe(Kind kind) {
  switch (kind) {
  case Kind::Integer:
    return "an integer";
  case Kind::Float:
    return "a float";
  case Kind::String:
    return "a string";
  case Kind::Unit:
    return "a unit attribute";
  case Kind::PipelinePlan:
    return "a #dist.pipeline_plan";
  case Kind::RecomputePlan:
    return "a #dist.recompute_plan";
  case Kind::ZeroPlan:
    return "a #dist.zero_plan";
  case Kind::PipelineAction:
    return "a #dist.pipeline_action";
  case Kind::Mesh:
    return "a #dist.mesh";
  case Kind::Sharding:
    return "a #dist.sharding";
  case Kind::ShardingList:
    return "an array of #dist.sharding or unit, one per result";
  case Kind::AxisList:
    return "an array of axis-name strings";
  case Kind::TensorParallelRole:
    return "a #dist.tp_role";
  case Kind::GlobalType:
    return "a ranked tensor type";
  case Kind::ShardDims:
    return "an array of array<i32> of mesh-axis indices, one per dimension";
  case Kind::Unknown:
    break;
  }
  return "";
}

bool hasKind(Attribute a, Kind kind) {
  auto all = [](ArrayAttr array, auto pred) {
    return array && llvm::all_of(array.getValue(), pred);
  };
  switch (kind) {
  case Kind::Integer:
    return isa<IntegerAttr>(a);
  case Kind::Float:
    return isa<FloatAttr>(a);
  case Kind::String:
    return isa<StringAttr>(a);
  case Kind::Unit:
    return isa<UnitAttr>(a);
  case Kind::PipelinePlan:
    return isa<PipelinePlanAttr>(a);
  case Kind::RecomputePlan:
    return isa<RecomputePlanAttr>(a);
  case Kind::ZeroPlan:
    return isa<ZeroPlanAttr>(a);
  case Kind::PipelineAction:
    return isa<PipelineActionAttr>(a);
  case Kind::Mesh:
    return isa<MeshAttr>(a);
  case Kind::Sharding:
    return isa<ShardingAttr>(a);
  case Kind::ShardingList:
    return all(dyn_cast<ArrayAttr>(a), [](Attribute e) {
      return isa<ShardingAttr, UnitAttr>(e);
    });
  case Kind::AxisList:
    return all(dyn_cast<ArrayAttr>(a),
               [](Attribute e) { return isa<StringAttr>(e); });
  case Kind::TensorParallelRole:
    return isa<TensorParallelRoleAttr>(a);
  case Kind::GlobalType: {
    auto type = dyn_cast<TypeAttr>(a);
    return type && isa<RankedTensorType>(type.getValue());
  }
  case Kind::ShardDims:
    return all(dyn_cast<ArrayAttr>(a),
               [](Attribute e) { return isa<DenseI32ArrayAttr>(e); });
  case Kind::Unknown:
    break;
  }
  return false;
}

/// Checks one attribute of `where` (an op, or an op's argument or result
/// `local`, of that type). `siblings` are the attributes next to it.
LogicalResult verifyAttribute(Operation *op, NamedAttribute attr,
                              DictionaryAttr siblings, Type local,
                              StringRef where) {
  StringRef name = attr.getName().strref().drop_front(
      DistDialect::getDialectNamespace().size() + 1);
  Kind kind = kindOf(name);
  // attr_declared
  if (kind == Kind::Unknown)
    return op->emitError("unknown attribute '")
           << attr.getName().getValue() << "'" << where
           << " (the dist dialect declares its attributes in DistDialect.td)";
  // attr_kind
  if (!hasKind(attr.getValue(), kind))
    return op->emitError("attribute '")
           << attr.getName().getValue() << "'" << where << " must be " << describe(kind)
           << ", got " << attr.getValue();
  if (kind == Kind::ShardingList) {
    size_t n = cast<ArrayAttr>(attr.getValue()).size();
    // shardings_per_result
    if (where.empty() && n != op->getNumResults())
      return op->emitError("attribute '")
             << attr.getName().getValue() << "' has " << n << " entries for "
             << op->getNumResults() << " results";
  }
  if (kind != Kind::ShardDims)
    return success();
  auto dims = cast<ArrayAttr>(attr.getValue());
  auto global = siblings ? siblings.getAs<TypeAttr>(
                               DistDialect::GlobalTypeAttrHelper::getNameStr())
                         : TypeAttr();
  // shard_dims_rank
  if (global)
    if (auto type = dyn_cast<RankedTensorType>(global.getValue());
        type && int64_t(dims.size()) != type.getRank())
      return op->emitError("attribute '")
             << attr.getName().getValue() << "'" << where << " has " << dims.size()
             << " dimensions for global type " << type;
  if (auto localType = dyn_cast_or_null<RankedTensorType>(local);
      localType && int64_t(dims.size()) != localType.getRank())
    return op->emitError("attribute '")
           << attr.getName().getValue() << "'" << where << " has " << dims.size()
           << " dimensions for local type " << localType;
  MeshAttr mesh = getMesh(op);
  int64_t axes = mesh ? int64_t(mesh.getAxisNames().size()) : 0;
  for (Attribute d : dims)
    for (int32_t axis : cast<DenseI32ArrayAttr>(d).asArrayRef())
      // shard_dims_axis_in_mesh
      if (axis < 0 || axis >= axes)
        return op->emitError("attribute '")
               << attr.getName().getValue() << "'" << where << " names mesh axis "
               << axis << ", but the mesh has " << axes << " axes";
  return success();
}

} // namespace

LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  Type local = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
  return verifyAttribute(op, attr, op->getAttrDictionary(), local, "");
}

LogicalResult DistDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned region,
                                                    unsigned arg,
                                                    NamedAttribute attr) {
  Type local;
  Region &r = op->getRegion(region);
  if (!r.empty() && arg < r.front().getNumArguments())
    local = r.front().getArgument(arg).getType();
  DictionaryAttr siblings;
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    siblings = fn.getArgAttrDict(arg);
  return verifyAttribute(op, attr, siblings, local,
                         (" on argument " + Twine(arg)).str());
}

LogicalResult DistDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned region,
                                                       unsigned result,
                                                       NamedAttribute attr) {
  Type local;
  DictionaryAttr siblings;
  if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
    if (result < fn.getNumResults())
      local = fn.getResultTypes()[result];
    siblings = fn.getResultAttrDict(result);
  }
  return verifyAttribute(op, attr, siblings, local,
                         (" on result " + Twine(result)).str());
}
