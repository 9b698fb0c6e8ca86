//===- ExecutableWriter.cpp - Lowering to the runtime's .pcx ---*- C++ -*-===//

#include "paracc/Target/Executable/ExecutableWriter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Encoding/KernelFolding.h"
#include "paracc/Encoding/OpEncoding.h"
#include "paracc/Planner/StepPrediction.h"
#include "paracc/runtime/Executable.h"
#include "paracc/runtime/MappedFile.h"
#include "paracc/runtime/MemoryPlan.h"
#include "paracc/runtime/Mesh.h"
#include "paracc/runtime/UpdatePlacement.h"
#include "paracc/runtime/executable_generated.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::paracc;
namespace fb = ::paracc::fb;

/// The executable's phase of a pipeline action (not the once-per-step
/// part, which is no action).
static fb::ActionPhase actionPhase(dist::PipelinePhase phase) {
  switch (phase) {
  case dist::PipelinePhase::Forward:
    return fb::ActionPhase::Forward;
  case dist::PipelinePhase::Backward:
    return fb::ActionPhase::Backward;
  case dist::PipelinePhase::Weight:
  case dist::PipelinePhase::Once:
    break;
  }
  return fb::ActionPhase::Weight;
}

namespace {
class Writer {
public:
  Writer(ArrayRef<func::FuncOp> funcs, const WeightStore &weights)
      : funcs(funcs), weights(weights) {}
  FailureOr<std::vector<uint8_t>> run(const ExecutableOptions &options);

private:
  /// Writes `func` (the function tables below start empty).
  FailureOr<flatbuffers::Offset<fb::Function>> writeFunction(func::FuncOp f);
  int32_t valueId(Value v);
  /// The rates instructions' predicted times use (none: not recorded).
  std::optional<DeviceRates> costRates;
  flatbuffers::Offset<fb::TensorType> tensorType(Type t);
  flatbuffers::Offset<fb::Sharding> sharding(Attribute shardDims);
  fb::DataRef appendData(const void *data, size_t size);
  LogicalResult addConstant(graph::ConstantOp op);
  LogicalResult addWeight(graph::WeightOp op);
  LogicalResult addState(graph::StateOp op);
  LogicalResult addAssign(graph::AssignOp op);
  /// What a state buffer holds (the table entry without its sharding).
  struct StateDescription {
    StringRef name;
    fb::StateKind kind = fb::StateKind::Parameter;
    fb::StateInit init = fb::StateInit::Data;
    RankedTensorType globalType;
    fb::DataRef data{0, 0};
    /// External: the file range.
    std::string externalPath;
    uint64_t externalOffset = 0, externalSize = 0, fingerprint = 0;
    uint64_t seed = 0;
    /// A block of a larger tensor: its shape and the block's offsets.
    std::optional<ArrayRef<int64_t>> sourceShape, offsets;
    /// CastOf: the parameter's state index.
    int32_t sourceState = -1;
  };
  /// The index of the state buffer `d` with `op`'s sharding, added the
  /// first time.
  FailureOr<int32_t> stateBuffer(Operation *op, const StateDescription &d);
  LogicalResult addInstr(Operation *op);
  flatbuffers::Offset<fb::Port> port(int32_t value, StringRef name,
                                     Type localType, DictionaryAttr attrs);

  ArrayRef<func::FuncOp> funcs;
  const WeightStore &weights;
  flatbuffers::FlatBufferBuilder fbb{1 << 16};
  std::vector<uint8_t> data;
  std::vector<flatbuffers::Offset<fb::StateBuffer>> stateTable;
  /// State buffers by name, block offsets and sharding.
  llvm::StringMap<int32_t> stateIndex;
  /// Weight data already in the data segment, by name (tied weights).
  llvm::StringMap<fb::DataRef> weightData;
  /// The fingerprints of referenced weights, by name (tied weights, and the
  /// functions that read the same one).
  llvm::StringMap<uint64_t> weightFingerprints;
  bool embedWeights = false;

  // The function being written.
  func::FuncOp func;
  llvm::DenseMap<Value, int32_t> ids;
  std::vector<flatbuffers::Offset<fb::TensorType>> values;
  std::vector<flatbuffers::Offset<fb::Constant>> constants;
  std::vector<flatbuffers::Offset<fb::StateBinding>> reads, writes;
  /// The buffer each (name, offsets) resolves to, for assigns.
  llvm::StringMap<int32_t> stateByBlock;
  std::vector<flatbuffers::Offset<fb::Instr>> instrs;
  /// The instructions and value sizes again, for the memory plan.
  std::vector<::paracc::rt::PlanInstr> planInstrs;
  std::vector<uint64_t> valueBytes;
  std::vector<bool> arenaValues, liveToEnd;
  /// The state bindings and outputs again, for the updates the GPU
  /// executor writes in place (rt::updatesWrittenInPlace).
  std::vector<::paracc::rt::StateValue> stateReads, stateWrites;
  std::vector<int32_t> outputIds;
  /// Pipeline actions by (micro-batch, phase, chunk), and the last
  /// instruction's; each action's chunk.
  std::map<std::tuple<int64_t, int64_t, int64_t>, int32_t> actionIndex;
  std::vector<fb::Action> actions;
  std::vector<int32_t> actionChunks;
  int32_t lastAction = -1;
};
} // namespace

int32_t Writer::valueId(Value v) {
  auto [it, inserted] = ids.try_emplace(v, int32_t(values.size()));
  if (inserted) {
    values.push_back(tensorType(v.getType()));
    auto type = cast<RankedTensorType>(v.getType());
    valueBytes.push_back(
        uint64_t(type.getNumElements()) *
        ::paracc::rt::dtypeSize(toDType(type.getElementType())
                                    .value_or(::paracc::rt::DType::Invalid)));
    arenaValues.push_back(false);
    liveToEnd.push_back(false);
  }
  return it->second;
}

flatbuffers::Offset<fb::TensorType> Writer::tensorType(Type t) {
  auto ranked = cast<RankedTensorType>(t);
  std::vector<int64_t> shape(ranked.getShape().begin(),
                             ranked.getShape().end());
  uint8_t dtype = uint8_t(
      toDType(ranked.getElementType()).value_or(::paracc::rt::DType::Invalid));
  return fb::CreateTensorTypeDirect(fbb, dtype, &shape);
}

flatbuffers::Offset<fb::Sharding> Writer::sharding(Attribute shardDims) {
  auto dims = dyn_cast_or_null<ArrayAttr>(shardDims);
  if (!dims)
    return 0;
  std::vector<flatbuffers::Offset<fb::DimSharding>> out;
  for (Attribute d : dims) {
    std::vector<int32_t> axes;
    if (auto a = dyn_cast<DenseI32ArrayAttr>(d))
      axes.assign(a.asArrayRef().begin(), a.asArrayRef().end());
    out.push_back(fb::CreateDimShardingDirect(fbb, &axes));
  }
  return fb::CreateShardingDirect(fbb, &out);
}

fb::DataRef Writer::appendData(const void *bytes, size_t size) {
  size_t offset = (data.size() + 63) / 64 * 64;
  data.resize(offset + size, 0);
  if (size)
    std::memcpy(data.data() + offset, bytes, size);
  return fb::DataRef(offset, size);
}

LogicalResult Writer::addConstant(graph::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitOpError("has a non-dense value");
  FailureOr<::paracc::rt::Tensor> tensor = tensorFromAttr(dense);
  if (failed(tensor))
    return op.emitOpError("has an element type the runtime does not support");
  fb::DataRef ref = appendData(tensor->data(), tensor->byteSize());
  constants.push_back(fb::CreateConstant(fbb, valueId(op), &ref));
  return success();
}

/// "name@o1@o2...": the key of a parameter block (the name alone for a
/// whole parameter).
static std::string blockKey(StringRef name, ArrayRef<int64_t> offsets) {
  std::string key = name.str();
  for (int64_t o : offsets)
    key += "@" + std::to_string(o);
  return key;
}

/// FNV-1a: a hash that is the same in every process (random weights must be
/// reproducible).
static uint64_t stableHash(StringRef s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s)
    h = (h ^ uint8_t(c)) * 0x100000001b3ull;
  return h;
}

/// The whole (unsharded) type of a weight or state op's value.
static Type globalTypeOf(Operation *op) {
  if (auto attr = op->getAttrOfType<TypeAttr>(dist::kGlobalTypeAttrName))
    return attr.getValue();
  return op->getResult(0).getType();
}

LogicalResult Writer::addWeight(graph::WeightOp op) {
  int32_t id = valueId(op);
  auto global = cast<RankedTensorType>(globalTypeOf(op));
  const WeightEntry *entry = weights.lookup(op.getName().str());
  bool random = !entry || !entry->hasData();
  if (random && !weights.randomFill)
    return op.emitOpError("has no data for weight '")
           << op.getName() << "' (use random weights for shape-only models)";
  // A block of the parameter (offsets) or all of it.
  SmallVector<int64_t> sourceShape(global.getShape());
  SmallVector<int64_t> offsets(global.getRank(), 0);
  if (op.getSourceShape()) {
    sourceShape.assign(op.getSourceShape()->begin(),
                       op.getSourceShape()->end());
    offsets.assign(op.getOffsets()->begin(), op.getOffsets()->end());
  }
  std::optional<::paracc::rt::DType> want = toDType(global.getElementType());
  // f32 data may be stored in a lower precision (--precision bf16).
  bool narrow =
      entry && entry->dtype == ::paracc::rt::DType::F32 &&
      (want == ::paracc::rt::DType::BF16 || want == ::paracc::rt::DType::F16);
  if (entry && (entry->shape != std::vector<int64_t>(sourceShape.begin(),
                                                     sourceShape.end()) ||
                (entry->dtype != want && !narrow)))
    return op.emitOpError("type does not match the data of weight '")
           << op.getName() << "'";
  StateDescription d;
  fb::DataRef ref(0, 0);
  // Bytes used as they are in the file: referenced, not copied.
  bool external = !random && entry->file && !narrow && !op.getSourceShape() &&
                  !embedWeights;
  if (external) {
    d.init = fb::StateInit::External;
    d.externalPath = ::paracc::rt::absolutePath(entry->file->path());
    d.externalOffset = entry->offset;
    d.externalSize = entry->size;
    auto [it, inserted] = weightFingerprints.try_emplace(op.getName(), 0);
    if (inserted) {
      // (Only the samples are read: the file stays out of memory.)
      entry->file->adviseSparseReads();
      it->second = ::paracc::rt::fingerprintBytes(entry->data(), entry->size);
    }
    d.fingerprint = it->second;
  } else if (!random) {
    std::string key = blockKey(op.getName(), offsets);
    auto it = weightData.find(key);
    if (it == weightData.end()) {
      ::paracc::rt::Tensor whole = ::paracc::rt::Tensor::borrow(
          entry->dtype, entry->shape, const_cast<uint8_t *>(entry->data()));
      // (f32 data stays f32 until the block is taken.)
      auto block = ::paracc::rt::extractBlock(
          whole, std::vector<int64_t>(offsets.begin(), offsets.end()),
          ::paracc::rt::Shape(global.getShape().begin(),
                              global.getShape().end()));
      if (!block)
        return op.emitOpError("cannot take its block: ")
               << block.status().message();
      ::paracc::rt::Tensor stored = std::move(*block);
      if (narrow) {
        auto converted = ::paracc::rt::Tensor::allocate(*want, stored.shape());
        if (!converted)
          return op.emitOpError("cannot convert its data: ")
                 << converted.status().message();
        const float *from = stored.as<float>();
        for (int64_t i = 0; i < stored.numElements(); ++i) {
          if (*want == ::paracc::rt::DType::BF16)
            converted->as<::paracc::rt::BFloat16>()[i] =
                ::paracc::rt::BFloat16(from[i]);
          else
            converted->as<::paracc::rt::Half>()[i] =
                ::paracc::rt::Half(from[i]);
        }
        stored = std::move(*converted);
      }
      it = weightData
               .try_emplace(key, appendData(stored.data(), stored.byteSize()))
               .first;
    }
    ref = it->second;
  }
  d.name = op.getName();
  if (!external)
    d.init = random ? fb::StateInit::Random : fb::StateInit::Data;
  d.globalType = global;
  d.data = ref;
  d.seed = weights.randomSeed ^ stableHash(op.getName());
  d.sourceShape = op.getSourceShape();
  d.offsets = op.getOffsets();
  FailureOr<int32_t> index = stateBuffer(op, d);
  if (failed(index))
    return failure();
  stateReads.push_back({*index, id});
  reads.push_back(fb::CreateStateBinding(fbb, *index, id));
  return success();
}

FailureOr<int32_t> Writer::stateBuffer(Operation *op,
                                       const StateDescription &d) {
  std::string block = blockKey(d.name, d.offsets.value_or(ArrayRef<int64_t>()));
  std::string key = block;
  llvm::raw_string_ostream os(key);
  os << "#";
  Attribute shardDims = op->getAttr(dist::kShardDimsAttrName);
  if (shardDims)
    os << shardDims;
  auto it = stateIndex.find(key);
  if (it != stateIndex.end()) {
    // (Another function's read made it: this function reads it too.)
    auto [blockIt, inserted] = stateByBlock.try_emplace(block, it->second);
    if (!inserted && blockIt->second != it->second)
      blockIt->second = -1;
    return it->second;
  }
  // One buffer per parameter block: two reads with different shardings
  // would be two copies that an update could not keep equal.
  if (stateByBlock.count(block) && !isa<graph::WeightOp>(op))
    return op->emitOpError("reads state '")
           << d.name << "' with a second sharding";
  auto name = fbb.CreateString(d.name.str());
  auto typeOffset = tensorType(d.globalType);
  auto shard = sharding(shardDims);
  flatbuffers::Offset<fb::ExternalData> external;
  if (d.init == fb::StateInit::External)
    external = fb::CreateExternalDataDirect(fbb, d.externalPath.c_str(),
                                            d.externalOffset, d.externalSize,
                                            d.fingerprint);
  flatbuffers::Offset<flatbuffers::Vector<int64_t>> sourceShape, sourceOffsets;
  bool isBlock = d.sourceShape && d.offsets;
  if (isBlock) {
    sourceShape =
        fbb.CreateVector(d.sourceShape->data(), d.sourceShape->size());
    sourceOffsets = fbb.CreateVector(d.offsets->data(), d.offsets->size());
  }
  fb::StateBufferBuilder w(fbb);
  w.add_name(name);
  w.add_kind(d.kind);
  w.add_global_type(typeOffset);
  if (!shard.IsNull())
    w.add_sharding(shard);
  w.add_init(d.init);
  if (d.sourceState >= 0)
    w.add_source_state(d.sourceState);
  w.add_data(&d.data);
  w.add_seed(d.seed);
  if (!external.IsNull())
    w.add_external(external);
  if (isBlock) {
    w.add_source_shape(sourceShape);
    w.add_source_offsets(sourceOffsets);
  }
  int32_t index = int32_t(stateTable.size());
  stateTable.push_back(w.Finish());
  stateIndex[key] = index;
  auto [blockIt, inserted] = stateByBlock.try_emplace(block, index);
  if (!inserted)
    blockIt->second = -1; // ambiguous: an assign to it is an error
  return index;
}

LogicalResult Writer::addState(graph::StateOp op) {
  int32_t id = valueId(op);
  Type globalType = globalTypeOf(op);
  StateDescription d;
  d.name = op.getName();
  d.kind = fb::StateKind::OptimizerState;
  d.init = fb::StateInit::Zeros;
  d.globalType = cast<RankedTensorType>(globalType);
  d.sourceShape = op.getSourceShape();
  d.offsets = op.getOffsets();
  if (std::optional<StringRef> source = op.getCopyOf()) {
    // The parameter's buffer: read earlier in this function, with the same
    // block and sharding.
    auto it = stateByBlock.find(
        blockKey(*source, op.getOffsets().value_or(ArrayRef<int64_t>())));
    if (it == stateByBlock.end() || it->second < 0)
      return op.emitOpError("copies '")
             << *source << "', which the function does not read before it "
             << "with one sharding";
    d.kind = fb::StateKind::WeightCopy;
    d.init = fb::StateInit::CastOf;
    d.sourceState = it->second;
  }
  FailureOr<int32_t> index = stateBuffer(op, d);
  if (failed(index))
    return failure();
  stateReads.push_back({*index, id});
  reads.push_back(fb::CreateStateBinding(fbb, *index, id));
  return success();
}

LogicalResult Writer::addAssign(graph::AssignOp op) {
  auto it = stateByBlock.find(
      blockKey(op.getName(), op.getOffsets().value_or(ArrayRef<int64_t>())));
  if (it == stateByBlock.end())
    return op.emitOpError("assigns '")
           << op.getName() << "', which the function does not read";
  if (it->second < 0)
    return op.emitOpError("assigns '")
           << op.getName() << "', which the function reads with two shardings";
  auto value = ids.find(op.getValue());
  if (value == ids.end())
    return op.emitOpError("assigns a value defined outside the function");
  writes.push_back(fb::CreateStateBinding(fbb, it->second, value->second));
  stateWrites.push_back({it->second, value->second});
  liveToEnd[value->second] = true;
  return success();
}

static std::string locationName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (std::string s = locationName(l); !s.empty())
        return s;
  return "";
}

LogicalResult Writer::addInstr(Operation *op) {
  FailureOr<EncodedOp> encoded = encodeOp(op);
  if (failed(encoded))
    return failure();
  std::vector<int32_t> inputs, outputs;
  for (Value v : op->getOperands()) {
    auto it = ids.find(v);
    if (it == ids.end())
      return op->emitOpError("uses a value defined outside the function");
    inputs.push_back(it->second);
  }
  for (Value v : op->getResults()) {
    if (!isa<RankedTensorType>(v.getType()) ||
        !toDType(cast<RankedTensorType>(v.getType()).getElementType()))
      return op->emitOpError("has a result type the runtime does not support");
    outputs.push_back(valueId(v));
  }
  for (int32_t v : outputs)
    arenaValues[v] = true;
  planInstrs.push_back({encoded->opcode, inputs, outputs});
  std::string name = locationName(op->getLoc());
  // The pipeline action: the op's, or (an op a later pass made) the one
  // before it; transfers belong to none.
  int32_t action = -1;
  auto *dist = op->getContext()->getLoadedDialect<dist::DistDialect>();
  if (isa<dist::SendOp, dist::RecvOp>(op)) {
    action = -1;
  } else if (dist::PipelineActionAttr key =
                 dist ? dist->getPipelineActionAttrHelper().getAttr(op)
                      : dist::PipelineActionAttr()) {
    if (key.getPhase() == dist::PipelinePhase::Once) {
      action = lastAction = -1;
    } else {
      auto [it, inserted] = actionIndex.try_emplace(
          {key.getMicrobatch(), int64_t(key.getPhase()), key.getChunk()},
          int32_t(actions.size()));
      if (inserted) {
        actions.emplace_back(int32_t(key.getMicrobatch()),
                             actionPhase(key.getPhase()));
        actionChunks.push_back(int32_t(key.getChunk()));
      }
      action = lastAction = it->second;
    }
  } else {
    action = lastAction;
  }
  // The cost model's view of the instruction: a compute op's FLOPs and
  // bytes, a collective's or transfer's traffic over its group.
  OpPrediction cost;
  if (costRates)
    cost = predictOp(op, *costRates);
  instrs.push_back(fb::CreateInstrDirect(
      fbb, uint16_t(encoded->opcode), &inputs, &outputs, &encoded->attrs.ints,
      &encoded->attrs.floats, name.empty() ? nullptr : name.c_str(), action,
      cost.cost.flops, cost.cost.bytes, cost.seconds));
  return success();
}

flatbuffers::Offset<fb::Port> Writer::port(int32_t value, StringRef name,
                                           Type localType,
                                           DictionaryAttr attrs) {
  Type global = localType;
  Attribute shardDims;
  if (attrs) {
    if (auto t = attrs.getAs<TypeAttr>(dist::kGlobalTypeAttrName))
      global = t.getValue();
    shardDims = attrs.get(dist::kShardDimsAttrName);
  }
  auto nameOffset = fbb.CreateString(name.str());
  auto typeOffset = tensorType(global);
  auto shard = sharding(shardDims);
  fb::PortBuilder p(fbb);
  p.add_value(value);
  p.add_name(nameOffset);
  p.add_global_type(typeOffset);
  if (!shard.IsNull())
    p.add_sharding(shard);
  return p.Finish();
}

static StringRef portName(DictionaryAttr attrs, StringRef fallback) {
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>(graph::kNameAttrName))
      return name.getValue();
  return fallback;
}

FailureOr<flatbuffers::Offset<fb::Function>>
Writer::writeFunction(func::FuncOp f) {
  func = f;
  ids.clear();
  values.clear();
  constants.clear();
  reads.clear();
  writes.clear();
  stateByBlock.clear();
  instrs.clear();
  planInstrs.clear();
  valueBytes.clear();
  arenaValues.clear();
  liveToEnd.clear();
  stateReads.clear();
  stateWrites.clear();
  outputIds.clear();
  actionIndex.clear();
  actions.clear();
  actionChunks.clear();
  lastAction = -1;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("must have one block");
  Block &body = func.getBody().front();
  std::vector<flatbuffers::Offset<fb::Port>> inputs, outputs;
  for (BlockArgument arg : body.getArguments()) {
    int32_t id = valueId(arg);
    arenaValues[id] = true;
    DictionaryAttr attrs = func.getArgAttrDict(arg.getArgNumber());
    std::string fallback = "input_" + std::to_string(arg.getArgNumber());
    inputs.push_back(port(id, portName(attrs, fallback), arg.getType(), attrs));
  }
  for (Operation &op : body) {
    LogicalResult result = success();
    if (auto c = dyn_cast<graph::ConstantOp>(op))
      result = addConstant(c);
    else if (auto w = dyn_cast<graph::WeightOp>(op))
      result = addWeight(w);
    else if (auto st = dyn_cast<graph::StateOp>(op))
      result = addState(st);
    else if (auto assign = dyn_cast<graph::AssignOp>(op))
      result = addAssign(assign);
    else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        DictionaryAttr attrs = func.getResultAttrDict(i);
        std::string fallback = "output_" + std::to_string(i);
        outputs.push_back(
            port(ids.lookup(v), portName(attrs, fallback), v.getType(), attrs));
        liveToEnd[ids.lookup(v)] = true;
        outputIds.push_back(ids.lookup(v));
      }
    } else
      result = addInstr(&op);
    if (failed(result))
      return failure();
  }
  // An optimizer's new value that the GPU executor writes straight into its
  // state buffer needs no arena space (the CPU interpreter gives every
  // value a buffer of its own).
  std::vector<bool> inPlace = ::paracc::rt::updatesWrittenInPlace(
      valueBytes.size(), stateTable.size(), planInstrs, stateReads, stateWrites,
      outputIds);
  for (size_t b = 0; b < stateWrites.size(); ++b)
    if (inPlace[b])
      arenaValues[stateWrites[b].value] = false;
  ::paracc::rt::MemoryPlanResult plan =
      ::paracc::rt::planArena(valueBytes, arenaValues, liveToEnd, planInstrs);
  auto memoryPlan =
      fb::CreateMemoryPlanDirect(fbb, plan.arenaBytes, &plan.offsets);
  // A pipeline stage's function is called by its program function's name.
  auto *dist = func->getContext()->getLoadedDialect<dist::DistDialect>();
  std::string name = func.getSymName().str();
  int32_t stage = -1;
  if (dist) {
    if (auto n = dist->getPipelineFunctionAttrHelper().getAttr(func))
      name = n.str();
    if (auto s = dist->getPipelineStageAttrHelper().getAttr(func))
      stage = int32_t(s.getInt());
  }
  const bool interleaved = llvm::any_of(actionChunks,
                                       [](int32_t c) { return c != 0; });
  return fb::CreateFunctionDirect(fbb, name.c_str(), stage, &values,
                                  &constants, &reads, &writes, &inputs,
                                  &outputs, &instrs, memoryPlan,
                                  actions.empty() ? nullptr : &actions,
                                  interleaved ? &actionChunks : nullptr);
}

FailureOr<std::vector<uint8_t>> Writer::run(const ExecutableOptions &options) {
  if (funcs.empty())
    return failure();
  embedWeights = options.embedWeights;
  if (!options.costRates.empty()) {
    FailureOr<DeviceRates> known =
        ratesByNameOrError(funcs.front(), options.costRates);
    if (failed(known))
      return failure();
    costRates = *known;
  }
  std::vector<flatbuffers::Offset<fb::Function>> functions;
  for (func::FuncOp f : funcs) {
    FailureOr<flatbuffers::Offset<fb::Function>> written = writeFunction(f);
    if (failed(written))
      return failure();
    functions.push_back(*written);
  }
  // The module's mesh (none: one rank) and the pipeline axis.
  func::FuncOp first = funcs.front();
  std::vector<flatbuffers::Offset<flatbuffers::String>> axisNames;
  std::vector<int32_t> axisSizes;
  dist::MeshAttr meshAttr = dist::getMesh(first);
  if (meshAttr) {
    for (StringAttr a : meshAttr.getAxisNames())
      axisNames.push_back(fbb.CreateString(a.str()));
    for (int64_t s : meshAttr.getAxisSizes())
      axisSizes.push_back(int32_t(s));
  }
  int32_t pipelineAxis = -1;
  auto *dist = first->getContext()->getLoadedDialect<dist::DistDialect>();
  if (dist)
    if (auto name = dist->getPipelineAxisAttrHelper().getAttr(first)) {
      std::optional<unsigned> index =
          meshAttr ? meshAttr.getAxisIndex(name.getValue()) : std::nullopt;
      if (!index)
        return first.emitOpError("has pipeline axis '")
               << name.getValue() << "', which is not a mesh axis";
      pipelineAxis = int32_t(*index);
    }
  auto mesh = fb::CreateMeshDirect(fbb, &axisNames, &axisSizes);
  // The parameter of each element of the per-parameter gradient norms.
  std::vector<flatbuffers::Offset<flatbuffers::String>> normParts;
  auto *graphDialect =
      first->getContext()->getLoadedDialect<graph::GraphDialect>();
  for (func::FuncOp f : funcs)
    for (unsigned i = 0; graphDialect && i < f.getNumResults(); ++i)
      if (auto parts = f.getResultAttrOfType<ArrayAttr>(
              i, graphDialect->getGradientNormPartsAttrHelper().getName()))
        for (Attribute a : parts)
          if (auto name = dyn_cast<StringAttr>(a))
            normParts.push_back(fbb.CreateString(name.str()));
  auto program = fb::CreateProgramDirect(
      fbb, ::paracc::rt::kExecutableFormatVersion, options.producer.c_str(),
      mesh, &stateTable, &functions,
      options.training.empty() ? nullptr : options.training.c_str(),
      normParts.empty() ? nullptr : &normParts, pipelineAxis,
      costRates ? costRates->name.c_str() : nullptr);
  fb::FinishProgramBuffer(fbb, program);
  return ::paracc::rt::packExecutable(fbb.GetBufferPointer(), fbb.GetSize(),
                                      data);
}

FailureOr<std::vector<uint8_t>>
mlir::paracc::writeExecutable(Operation *op, const WeightStore &weights,
                              const ExecutableOptions &options) {
  SmallVector<func::FuncOp> funcs;
  if (auto func = dyn_cast<func::FuncOp>(op))
    funcs.push_back(func);
  else if (auto module = dyn_cast<ModuleOp>(op))
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration())
        funcs.push_back(func);
  if (funcs.empty())
    return op->emitOpError("is not a func.func or a module with functions");
  return Writer(funcs, weights).run(options);
}
