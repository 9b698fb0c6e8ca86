//===- Interpreter.cpp - Running executables on the CPU --------*- C++ -*-===//

#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/CommunicationInstr.h"
#include "paracc/runtime/LinearAddends.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>

using namespace paracc::rt;

//===----------------------------------------------------------------------===//
// Random weights
//===----------------------------------------------------------------------===//

static uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <typename T>
static void fillBlock(T *out, const Shape &local, const Shape &global,
                      const std::vector<int64_t> &offsets, uint64_t seed,
                      float scale) {
  size_t rank = local.size();
  std::vector<int64_t> index(rank, 0);
  int64_t n = shapeNumElements(local);
  for (int64_t i = 0; i < n; ++i) {
    int64_t flat = 0;
    for (size_t d = 0; d < rank; ++d)
      flat = flat * global[d] + index[d] + offsets[d];
    // 24 random bits -> uniform in [-scale, scale).
    double u = double(splitMix64(seed * 0x2545f4914f6cdd1dull + flat) >> 40) /
               double(1 << 24);
    out[i] = T(float((2.0 * u - 1.0) * scale));
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      if (++index[d] < local[d])
        break;
      index[d] = 0;
    }
  }
}

Status paracc::rt::fillRandomWeight(Tensor &local, const Shape &globalShape,
                                    const std::vector<int64_t> &offsets,
                                    uint64_t seed, float scale) {
  const Shape &shape = local.shape();
  switch (local.dtype()) {
  case DType::F32:
    fillBlock(local.as<float>(), shape, globalShape, offsets, seed, scale);
    return Status::ok();
  case DType::F64:
    fillBlock(local.as<double>(), shape, globalShape, offsets, seed, scale);
    return Status::ok();
  case DType::F16:
    fillBlock(local.as<Half>(), shape, globalShape, offsets, seed, scale);
    return Status::ok();
  case DType::BF16:
    fillBlock(local.as<BFloat16>(), shape, globalShape, offsets, seed, scale);
    return Status::ok();
  default:
    // Integer parameters stay zero.
    return Status::ok();
  }
}

//===----------------------------------------------------------------------===//
// RankExecutor
//===----------------------------------------------------------------------===//

RankExecutor::RankExecutor(std::shared_ptr<const Executable> exe, int64_t rank,
                           Communicator &comm)
    : exe_(std::move(exe)), rank_(rank), comm_(comm) {}

Status RankExecutor::prepare() {
  const Executable &exe = *exe_;
  resident_.assign(exe.values().size(), Tensor());
  for (const ConstantInfo &c : exe.constants()) {
    const ValueType &t = exe.values()[c.value];
    // Constants are read-only views of the executable's data segment.
    resident_[c.value] = Tensor::borrow(t.dtype, t.shape,
                                        const_cast<uint8_t *>(c.data));
  }
  const Mesh &mesh = exe.mesh();
  for (const WeightInfo &w : exe.weights()) {
    const ValueType &t = exe.values()[w.value];
    std::vector<int64_t> offsets =
        shardOffsets(t.shape, w.sharding, mesh, rank_);
    if (w.random) {
      auto local = Tensor::allocate(t.dtype, t.shape);
      if (!local)
        return local.status();
      Shape source = w.randomSource(offsets);
      PARACC_RETURN_IF_ERROR(
          fillRandomWeight(*local, source, offsets, w.seed, w.scale));
      resident_[w.value] = std::move(*local);
      continue;
    }
    Tensor global =
        Tensor::borrow(t.dtype, w.globalType.shape, const_cast<uint8_t *>(w.data));
    if (w.sharding.isReplicated()) {
      resident_[w.value] = global;
      continue;
    }
    auto local = extractBlock(global, offsets, t.shape);
    if (!local)
      return local.status().withContext("weight '" + w.name + "'");
    resident_[w.value] = std::move(*local);
  }
  lastUse_.assign(exe.values().size(), -1);
  for (size_t i = 0; i < exe.instrs().size(); ++i)
    for (int32_t v : exe.instrs()[i].inputs)
      lastUse_[v] = int64_t(i);
  for (const PortInfo &o : exe.outputs())
    lastUse_[o.value] = int64_t(exe.instrs().size());
  return Status::ok();
}

Status RankExecutor::runInstr(size_t index, std::vector<Tensor> &values) {
  const InstrInfo &instr = exe_->instrs()[index];
  std::vector<const Tensor *> inputs;
  for (int32_t v : instr.inputs) {
    if (!values[v].isValid())
      return errorf("value %", v, " is not available");
    inputs.push_back(&values[v]);
  }
  std::vector<Tensor *> outputs;
  for (int32_t v : instr.outputs) {
    const ValueType &t = exe_->values()[v];
    auto out = Tensor::allocate(t.dtype, t.shape);
    if (!out)
      return out.status();
    values[v] = std::move(*out);
    outputs.push_back(&values[v]);
  }
  if (instr.opcode == OpCode::Linear) {
    // The bias and residual may belong to another member of a group.
    InstrAttrs attrs;
    size_t numInputs;
    PARACC_RETURN_IF_ERROR(
        localLinear(instr, exe_->mesh(), rank_, attrs, numInputs));
    inputs.resize(numInputs);
    return runCpuKernel(instr.opcode, attrs, inputs, outputs);
  }
  if (!isCollective(instr.opcode))
    return runCpuKernel(instr.opcode, instr.attrs, inputs, outputs);

  // Communication: the group and own ints were checked at load.
  const Mesh &mesh = exe_->mesh();
  const GroupOperands g = groupOperands(instr);
  const std::vector<int> &axes = g.axes;
  const std::vector<int64_t> &extra = g.extra;
  switch (instr.opcode) {
  case OpCode::AllReduce: // extra[0]: 0 sum, 1 max
    return comm_.allReduce(axes, *inputs[0], *outputs[0], extra[0] == 1);
  case OpCode::AllGather:
    return comm_.allGather(axes, extra[0], *inputs[0], *outputs[0]);
  case OpCode::ReduceScatter:
    return comm_.reduceScatter(axes, extra[0], *inputs[0], *outputs[0]);
  case OpCode::AllToAll:
    return comm_.allToAll(axes, extra[0], extra[1], *inputs[0], *outputs[0]);
  case OpCode::Broadcast:
    return comm_.broadcast(axes, extra[0], *inputs[0], *outputs[0]);
  case OpCode::Send: // extra: the peer offset, the tag
    return comm_.send(axes, extra[0], uint32_t(extra[1]), *inputs[0]);
  case OpCode::Recv:
    return comm_.recv(axes, extra[0], uint32_t(extra[1]), *outputs[0]);
  case OpCode::LocalShard: {
    auto block = extractBlock(
        *inputs[0], localShardOffsets(g, mesh, rank_, outputs[0]->shape()),
        outputs[0]->shape());
    if (!block)
      return block.status();
    *outputs[0] = std::move(*block);
    return Status::ok();
  }
  case OpCode::AxisIndex:
    *outputs[0]->as<int64_t>() = mesh.groupIndex(rank_, axes);
    return Status::ok();
  default:
    return errorf(opCodeMnemonic(instr.opcode), ": not a collective");
  }
}

Status RankExecutor::run(const std::vector<Tensor> &inputs,
                         std::vector<Tensor> &outputs) {
  const Executable &exe = *exe_;
  if (inputs.size() != exe.inputs().size())
    return errorf("expected ", exe.inputs().size(), " inputs, got ",
                  inputs.size());
  std::vector<Tensor> values = resident_;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &t = exe.values()[exe.inputs()[i].value];
    if (inputs[i].dtype() != t.dtype || inputs[i].shape() != t.shape)
      return errorf("input '", exe.inputs()[i].name, "': expected ",
                    dtypeName(t.dtype), shapeToString(t.shape), ", got ",
                    inputs[i].typeString());
    values[exe.inputs()[i].value] = inputs[i];
  }
  for (size_t i = 0; i < exe.instrs().size(); ++i) {
    Status st = runInstr(i, values);
    if (!st) {
      const InstrInfo &instr = exe.instrs()[i];
      return st.withContext("rank " + std::to_string(rank_) + ", " +
                            opCodeMnemonic(instr.opcode) +
                            (instr.name.empty() ? "" : " '" + instr.name + "'"));
    }
    // Free what no later instruction reads.
    for (int32_t v : exe.instrs()[i].inputs)
      if (lastUse_[v] == int64_t(i) && !resident_[v].isValid())
        values[v] = Tensor();
  }
  outputs.clear();
  for (const PortInfo &o : exe.outputs())
    outputs.push_back(values[o.value]);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Running all ranks
//===----------------------------------------------------------------------===//

Status paracc::rt::checkGlobalInputs(const Executable &exe,
                                     const std::vector<Tensor> &inputs) {
  if (inputs.size() != exe.inputs().size())
    return errorf("the program takes ", exe.inputs().size(), " inputs, got ",
                  inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &t = exe.inputs()[i].globalType;
    if (inputs[i].dtype() != t.dtype || inputs[i].shape() != t.shape)
      return errorf("input '", exe.inputs()[i].name, "' must be ",
                    dtypeName(t.dtype), shapeToString(t.shape), ", got ",
                    inputs[i].typeString());
  }
  return Status::ok();
}

StatusOr<std::vector<Tensor>> paracc::rt::runOnCpu(
    std::shared_ptr<const Executable> exe, const std::vector<Tensor> &inputs,
    const std::function<std::unique_ptr<Communicator>(int64_t)>
        &makeCommunicator) {
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(*exe, inputs));
  const Mesh &mesh = exe->mesh();
  int64_t ranks = mesh.numRanks();
  if (ranks > 1 && !makeCommunicator)
    return errorf("a ", ranks, "-rank program needs a communicator");

  std::vector<Tensor> globalOutputs;
  for (const PortInfo &o : exe->outputs()) {
    auto t = Tensor::allocate(o.globalType.dtype, o.globalType.shape);
    if (!t)
      return t.status();
    globalOutputs.push_back(std::move(*t));
  }
  std::vector<Status> statuses(ranks);
  // Ranks in the order they failed: the first is the cause, the others
  // usually stopped because of it.
  std::mutex failureMutex;
  std::vector<int64_t> failureOrder;
  std::vector<std::vector<Tensor>> localOutputs(ranks);
  auto runRank = [&](int64_t rank) {
    SingleRankCommunicator single;
    std::unique_ptr<Communicator> owned;
    Communicator *comm = &single;
    if (makeCommunicator) {
      owned = makeCommunicator(rank);
      if (!owned) {
        statuses[rank] = errorf("rank ", rank, ": no communicator");
        return;
      }
      comm = owned.get();
    }
    RankExecutor executor(exe, rank, *comm);
    Status st = executor.prepare();
    std::vector<Tensor> localInputs;
    for (size_t i = 0; st && i < inputs.size(); ++i) {
      const PortInfo &in = exe->inputs()[i];
      const ValueType &t = exe->values()[in.value];
      auto local = extractBlock(
          inputs[i], shardOffsets(t.shape, in.sharding, mesh, rank), t.shape);
      if (!local)
        st = local.status();
      else
        localInputs.push_back(std::move(*local));
    }
    if (st)
      st = executor.run(localInputs, localOutputs[rank]);
    if (!st) {
      // Recorded before abandoning, so the ranks it stops come after it.
      {
        std::lock_guard<std::mutex> lock(failureMutex);
        failureOrder.push_back(rank);
      }
      comm->abandon();
    }
    statuses[rank] = st;
  };
  if (ranks == 1) {
    runRank(0);
  } else {
    std::vector<std::thread> threads;
    for (int64_t r = 0; r < ranks; ++r)
      threads.emplace_back(runRank, r);
    for (auto &t : threads)
      t.join();
  }
  if (!failureOrder.empty()) {
    std::string text = statuses[failureOrder[0]].message();
    if (failureOrder.size() > 1) {
      text += "\n" + std::to_string(failureOrder.size() - 1) +
              " other rank(s) stopped after it:";
      for (size_t i = 1; i < failureOrder.size(); ++i)
        text += "\n  " + statuses[failureOrder[i]].message();
    }
    return errorf(text);
  }
  // Assemble the global outputs from the shards.
  for (size_t i = 0; i < globalOutputs.size(); ++i) {
    const PortInfo &o = exe->outputs()[i];
    for (int64_t r = 0; r < ranks; ++r) {
      const Tensor &local = localOutputs[r][i];
      PARACC_RETURN_IF_ERROR(insertBlock(
          globalOutputs[i], local,
          shardOffsets(local.shape(), o.sharding, mesh, r)));
    }
  }
  return globalOutputs;
}
