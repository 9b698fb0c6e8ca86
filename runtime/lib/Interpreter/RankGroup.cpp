//===- RankGroup.cpp - Global inputs, outputs and state of ranks ----------===//

#include "paracc/runtime/RankGroup.h"
#include "paracc/runtime/Interpreter.h"

using namespace paracc::rt;

RankGroup::~RankGroup() = default;

Status RankGroup::recordTimeline(bool on) {
  if (on)
    return errorf("timelines are recorded on CPU ranks only (", describe(),
                  " here)");
  return Status::ok();
}

StatusOr<std::vector<Tensor>>
RankGroup::run(const std::vector<Tensor> &inputs) {
  const Executable &exe = *exe_;
  const FunctionSignature &sig = exe.signature(function_);
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(function(), inputs));
  const Mesh &mesh = exe.mesh();
  const int64_t ranks = mesh.numRanks();
  // Every stage of a pipelined function takes the same inputs.
  std::vector<std::vector<Tensor>> localInputs(ranks), localOutputs(ranks);
  for (int64_t rank = 0; rank < ranks; ++rank) {
    const FunctionInfo &f = exe.functions()[exe.rankFunction(function_, rank)];
    for (size_t i = 0; i < inputs.size(); ++i) {
      const PortInfo &in = f.inputs[i];
      const ValueType &t = f.values[in.value];
      // A whole (replicated) input is shared, not copied: ranks only read
      // their inputs.
      if (t.shape == inputs[i].shape()) {
        localInputs[rank].push_back(inputs[i]);
        continue;
      }
      auto local = extractBlock(
          inputs[i], shardOffsets(t.shape, in.sharding, mesh, rank), t.shape);
      if (!local)
        return local.status();
      localInputs[rank].push_back(std::move(*local));
    }
  }
  PARACC_RETURN_IF_ERROR(runRanks(localInputs, localOutputs));
  // An output comes from the ranks of the stage that has it; `index` is its
  // position among that stage's outputs.
  std::vector<Tensor> globalOutputs;
  const int64_t stages =
      exe.pipelineAxis() < 0 ? 1 : mesh.axisSizes[exe.pipelineAxis()];
  std::vector<size_t> nextOfStage(stages, 0);
  for (const PortInfo &o : sig.outputs) {
    auto global = Tensor::allocate(o.globalType.dtype, o.globalType.shape);
    if (!global)
      return global.status();
    size_t index = nextOfStage[std::max(o.stage, 0)]++;
    for (int64_t r = 0; r < ranks; ++r) {
      if (o.stage >= 0 && exe.stageOf(r) != o.stage)
        continue;
      const FunctionInfo &f = exe.functions()[exe.rankFunction(function_, r)];
      if (localOutputs[r].size() != f.outputs.size())
        return errorf("rank ", r, " returned ", localOutputs[r].size(),
                      " outputs, expected ", f.outputs.size());
      const Tensor &local = localOutputs[r][index];
      PARACC_RETURN_IF_ERROR(insertBlock(
          *global, local, shardOffsets(local.shape(), o.sharding, mesh, r)));
    }
    globalOutputs.push_back(std::move(*global));
  }
  return globalOutputs;
}

StatusOr<Tensor> RankGroup::gatherState(size_t index) const {
  const Executable &exe = *exe_;
  if (index >= exe.state().size())
    return errorf("no state buffer ", index);
  const StateInfo &s = exe.state()[index];
  auto global = Tensor::allocate(s.globalType.dtype, s.globalType.shape);
  if (!global)
    return global.status();
  for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
    if (!exe.holdsState(r, index))
      continue; // the ranks of the stages that use it have it all
    auto local = stateShard(r, index);
    if (!local)
      return local.status();
    PARACC_RETURN_IF_ERROR(insertBlock(
        *global, *local,
        shardOffsets(local->shape(), s.sharding, exe.mesh(), r)));
  }
  return std::move(*global);
}

Status RankGroup::scatterState(size_t index, const Tensor &global) {
  const Executable &exe = *exe_;
  if (index >= exe.state().size())
    return errorf("no state buffer ", index);
  const StateInfo &s = exe.state()[index];
  if (global.dtype() != s.globalType.dtype ||
      global.shape() != s.globalType.shape)
    return errorf("state '", s.name, "' is ", dtypeName(s.globalType.dtype),
                  shapeToString(s.globalType.shape), ", got ",
                  global.typeString());
  auto local = localShape(s.globalType.shape, s.sharding, exe.mesh());
  if (!local)
    return local.status().withContext("state '" + s.name + "'");
  for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
    if (!exe.holdsState(r, index))
      continue;
    auto block = extractBlock(
        global, shardOffsets(*local, s.sharding, exe.mesh(), r), *local);
    if (!block)
      return block.status();
    PARACC_RETURN_IF_ERROR(setStateShard(r, index, std::move(*block)));
  }
  return Status::ok();
}
