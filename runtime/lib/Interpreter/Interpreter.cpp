//===- Interpreter.cpp - Running executables on the CPU --------*- C++ -*-===//

#include "paracc/runtime/Interpreter.h"

#include "Interpreter/ExpertParallel.h"
#include "paracc/runtime/Kernels.h"

#include <algorithm>
#include <chrono>
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
                           Communicator &comm, size_t function)
    : exe_(std::move(exe)), rank_(rank), comm_(comm), function_(function) {}

StatusOr<Tensor> paracc::rt::materializeStateShard(const Executable &exe,
                                                   const StateInfo &s,
                                                   int64_t rank) {
  const Mesh &mesh = exe.mesh();
  auto localShapeOr = localShape(s.globalType.shape, s.sharding, mesh);
  if (!localShapeOr)
    return localShapeOr.status();
  const Shape &local = *localShapeOr;
  std::vector<int64_t> offsets = shardOffsets(local, s.sharding, mesh, rank);
  switch (s.init) {
  case StateInit::Zeros: {
    auto t = Tensor::allocate(s.globalType.dtype, local);
    if (!t)
      return t.status();
    std::memset(t->data(), 0, t->byteSize());
    return std::move(*t);
  }
  case StateInit::Random: {
    auto t = Tensor::allocate(s.globalType.dtype, local);
    if (!t)
      return t.status();
    Shape source = s.randomSource(offsets);
    PARACC_RETURN_IF_ERROR(
        fillRandomWeight(*t, source, offsets, s.seed, s.scale));
    return std::move(*t);
  }
  case StateInit::CastOf: {
    // (Decoding checked that the source is an earlier parameter with this
    // buffer's shape, sharding and block.)
    auto source =
        materializeStateShard(exe, exe.state()[size_t(s.source)], rank);
    if (!source)
      return source.status();
    return castOnCpu(*source, s.globalType.dtype);
  }
  case StateInit::Data:
    break;
  }
  Tensor global = Tensor::borrow(s.globalType.dtype, s.globalType.shape,
                                 const_cast<uint8_t *>(s.data));
  if (s.sharding.isReplicated())
    return global;
  auto block = extractBlock(global, offsets, local);
  if (!block)
    return block.status().withContext("state '" + s.name + "'");
  return std::move(*block);
}

Status RankExecutor::prepare() {
  const Executable &exe = *exe_;
  // Every buffer some function reads or writes: this rank's shard.
  state_.assign(exe.state().size(), Tensor());
  for (size_t s = 0; s < exe.state().size(); ++s) {
    if (!exe.holdsState(rank_, s))
      continue; // another pipeline stage's
    auto shard = materializeStateShard(exe, exe.state()[s], rank_);
    if (!shard)
      return shard.status();
    state_[s] = std::move(*shard);
  }
  return select(function_);
}

Status RankExecutor::select(size_t function) {
  const Executable &exe = *exe_;
  if (function >= exe.functions().size())
    return errorf("no function ", function);
  const size_t selected = exe.rankFunction(function, rank_);
  const FunctionInfo &f = exe.functions()[selected];
  auto decoded = decodeInstructions(f, exe.mesh(), rank_);
  if (!decoded)
    return decoded.status();
  function_ = selected;
  decoded_ = std::move(*decoded);
  resident_.assign(f.values.size(), Tensor());
  for (const ConstantInfo &c : f.constants) {
    const ValueType &t = f.values[c.value];
    // Constants are read-only views of the executable's data segment.
    resident_[c.value] = Tensor::borrow(t.dtype, t.shape,
                                        const_cast<uint8_t *>(c.data));
  }
  lastUse_.assign(f.values.size(), -1);
  for (size_t i = 0; i < f.instrs.size(); ++i)
    for (int32_t v : f.instrs[i].inputs)
      lastUse_[v] = int64_t(i);
  for (const PortInfo &o : f.outputs)
    lastUse_[o.value] = int64_t(f.instrs.size());
  for (const StateBinding &w : f.writes)
    lastUse_[w.value] = int64_t(f.instrs.size());
  return Status::ok();
}

Status RankExecutor::setState(size_t index, Tensor shard) {
  if (index >= state_.size())
    return errorf("no state buffer ", index);
  const Tensor &old = state_[index];
  if (old.dtype() != shard.dtype() || old.shape() != shard.shape())
    return errorf("state '", exe_->state()[index].name, "': expected ",
                  old.typeString(), ", got ", shard.typeString());
  state_[index] = std::move(shard);
  return Status::ok();
}

namespace {
/// An instruction on the CPU: kernels over the operands and results that
/// the executor placed, collectives on the rank's communicator.
class CpuBackend final : public InstrBackend {
public:
  CpuBackend(Communicator &comm, const Mesh &mesh,
             std::vector<const Tensor *> inputs, std::vector<Tensor *> outputs)
      : comm_(comm), mesh_(mesh), in_(std::move(inputs)),
        out_(std::move(outputs)) {}

  Status compute(const DecodedInstr &d) override {
    return runCpuKernel(d.instr->opcode, d.attrs, in_, out_);
  }
  /// The reshape kernel copies the bytes (and checks the types).
  Status alias(const DecodedInstr &d) override { return compute(d); }
  Status linear(const DecodedInstr &, const LinearInstr &l) override {
    // The bias and residual may belong to another member of a group.
    in_.resize(l.numInputs);
    return runCpuKernel(OpCode::Linear, l.attrs, in_, out_);
  }
  /// The kernel takes the attributes as they are, and checks the shapes.
  Status gemm(const DecodedInstr &d, const GemmInstr &) override {
    return compute(d);
  }
  Status collective(const DecodedInstr &d, const CollectiveInstr &c) override;
  Status localShard(const DecodedInstr &, const LocalShardInstr &s) override {
    auto block = extractBlock(*in_[0], s.offsets, out_[0]->shape());
    if (!block)
      return block.status();
    *out_[0] = std::move(*block);
    return Status::ok();
  }
  Status axisIndex(const DecodedInstr &, const AxisIndexInstr &a) override {
    *out_[0]->as<int64_t>() = a.index;
    return Status::ok();
  }

private:
  Communicator &comm_;
  const Mesh &mesh_;
  std::vector<const Tensor *> in_;
  std::vector<Tensor *> out_;
};
} // namespace

Status CpuBackend::collective(const DecodedInstr &d, const CollectiveInstr &c) {
  const std::vector<int> &axes = c.axes;
  switch (c.opcode) {
  case OpCode::AllReduce:
    return comm_.allReduce(axes, *in_[0], *out_[0], c.reduceMax);
  case OpCode::AllGather:
    return comm_.allGather(axes, c.dim, *in_[0], *out_[0]);
  case OpCode::ReduceScatter:
    return comm_.reduceScatter(axes, c.dim, *in_[0], *out_[0]);
  case OpCode::AllToAll:
    return comm_.allToAll(axes, c.splitDim, c.concatDim, *in_[0], *out_[0]);
  case OpCode::Broadcast:
    return comm_.broadcast(axes, c.root, *in_[0], *out_[0]);
  case OpCode::Send:
    return comm_.send(axes, c.peerOffset, c.tag, *in_[0]);
  case OpCode::Recv:
    return comm_.recv(axes, c.peerOffset, c.tag, *out_[0]);
  case OpCode::RingShift:
    return comm_.ringShift(axes, c.peerOffset, *in_[0], *out_[0]);
  case OpCode::ExpertParallelMoe:
  case OpCode::ExpertParallelMoeGrad:
    return runExpertParallelMoe(comm_,
                                std::get<ExpertParallelMoeAttrs>(d.attrs),
                                c.opcode == OpCode::ExpertParallelMoeGrad, in_,
                                out_, mesh_.groupSize(axes));
  default:
    return errorf(opCodeMnemonic(c.opcode), ": not a collective");
  }
}

Status RankExecutor::runInstr(size_t index, std::vector<Tensor> &values) {
  const FunctionInfo &f = exe_->functions()[function_];
  const DecodedInstr &d = decoded_[index];
  const InstrInfo &instr = *d.instr;
  std::vector<const Tensor *> inputs;
  for (int32_t v : instr.inputs) {
    if (!values[v].isValid())
      return errorf("value %", v, " is not available").withContext(d.context);
    inputs.push_back(&values[v]);
  }
  std::vector<Tensor *> outputs;
  for (int32_t v : instr.outputs) {
    const ValueType &t = f.values[v];
    auto out = Tensor::allocate(t.dtype, t.shape);
    if (!out)
      return out.status().withContext(d.context);
    values[v] = std::move(*out);
    outputs.push_back(&values[v]);
  }
  CpuBackend backend(comm_, exe_->mesh(), std::move(inputs),
                     std::move(outputs));
  return dispatchInstr(d, backend);
}

Status RankExecutor::run(const std::vector<Tensor> &inputs,
                         std::vector<Tensor> &outputs) {
  const FunctionInfo &f = exe_->functions()[function_];
  if (inputs.size() != f.inputs.size())
    return errorf("expected ", f.inputs.size(), " inputs, got ", inputs.size());
  std::vector<Tensor> values = resident_;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &t = f.values[f.inputs[i].value];
    if (inputs[i].dtype() != t.dtype || inputs[i].shape() != t.shape)
      return errorf("input '", f.inputs[i].name, "': expected ",
                    dtypeName(t.dtype), shapeToString(t.shape), ", got ",
                    inputs[i].typeString());
    values[f.inputs[i].value] = inputs[i];
  }
  // State reads see the buffers as they were at entry.
  for (const WeightInfo &w : f.weights)
    values[w.value] = state_[w.state];
  for (size_t i = 0; i < f.instrs.size(); ++i) {
    const bool timed = timeline_ || profile_;
    auto begin = timed ? std::chrono::steady_clock::now()
                       : std::chrono::steady_clock::time_point();
    Status st = runInstr(i, values);
    auto end = timed ? std::chrono::steady_clock::now() : begin;
    if (profile_ && st)
      profile_->add(
          f, f.instrs[i],
          std::chrono::duration<double, std::milli>(end - begin).count());
    if (timeline_ && st) {
      const InstrInfo &instr = f.instrs[i];
      uint64_t bytes = 0;
      if (instr.opcode == OpCode::Send)
        bytes = values[instr.inputs[0]].byteSize();
      else if (instr.opcode == OpCode::Recv)
        bytes = values[instr.outputs[0]].byteSize();
      timeline_->record(f, instr, begin, end, bytes);
    }
    if (!st)
      return st; // named by runInstr
    // Free what no later instruction reads (the state keeps its buffers).
    for (int32_t v : f.instrs[i].inputs)
      if (lastUse_[v] == int64_t(i) && !resident_[v].isValid())
        values[v] = Tensor();
  }
  outputs.clear();
  for (const PortInfo &o : f.outputs)
    outputs.push_back(values[o.value]);
  // The writes take effect when the function ends.
  for (const StateBinding &w : f.writes)
    state_[w.state] = values[w.value];
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Running all ranks
//===----------------------------------------------------------------------===//

Status paracc::rt::checkGlobalInputs(const FunctionInfo &f,
                                     const std::vector<Tensor> &inputs) {
  if (inputs.size() != f.inputs.size())
    return errorf("the program takes ", f.inputs.size(), " inputs, got ",
                  inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &t = f.inputs[i].globalType;
    if (inputs[i].dtype() != t.dtype || inputs[i].shape() != t.shape)
      return errorf("input '", f.inputs[i].name, "' must be ",
                    dtypeName(t.dtype), shapeToString(t.shape), ", got ",
                    inputs[i].typeString());
  }
  return Status::ok();
}

StatusOr<std::unique_ptr<CpuRanks>>
CpuRanks::create(std::shared_ptr<const Executable> exe, size_t function,
                 const std::function<std::unique_ptr<Communicator>(int64_t)>
                     &makeCommunicator) {
  int64_t ranks = exe->mesh().numRanks();
  if (ranks > 1 && !makeCommunicator)
    return errorf("a ", ranks, "-rank program needs a communicator");
  std::unique_ptr<CpuRanks> group(new CpuRanks(exe, function));
  group->makeCommunicator_ = makeCommunicator;
  for (int64_t r = 0; r < ranks; ++r) {
    std::unique_ptr<Communicator> comm;
    if (makeCommunicator) {
      comm = makeCommunicator(r);
      if (!comm)
        return errorf("rank ", r, ": no communicator");
    } else {
      comm = std::make_unique<SingleRankCommunicator>();
    }
    group->executors_.push_back(
        std::make_unique<RankExecutor>(exe, r, *comm, function));
    group->communicators_.push_back(std::move(comm));
  }
  // Materializing the state shards is per rank and independent.
  std::vector<Status> statuses(ranks);
  group->forEachRank(
      [&](int64_t r) { statuses[r] = group->executors_[r]->prepare(); });
  for (const Status &st : statuses)
    PARACC_RETURN_IF_ERROR(st);
  return group;
}

void CpuRanks::forEachRank(const std::function<void(int64_t)> &body) {
  int64_t ranks = int64_t(executors_.size());
  if (ranks == 1) {
    body(0);
    return;
  }
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < ranks; ++r)
    threads.emplace_back(body, r);
  for (auto &t : threads)
    t.join();
}

std::string CpuRanks::describe() const {
  return std::to_string(executors_.size()) + " CPU rank(s)";
}

Status CpuRanks::recordTimeline(bool on) {
  recording_ = on;
  if (!on) {
    for (auto &e : executors_)
      e->setTimeline(nullptr);
    recorders_.clear();
  }
  return Status::ok();
}

void CpuRanks::profileRank(int64_t rank, Profile *profile) {
  if (rank >= 0 && rank < int64_t(executors_.size()))
    executors_[rank]->setProfile(profile);
}

std::vector<TimelineEvent> CpuRanks::timeline() const {
  std::vector<TimelineEvent> events;
  for (const auto &r : recorders_)
    events.insert(events.end(), r->events().begin(), r->events().end());
  return events;
}

Status CpuRanks::runRanks(const std::vector<std::vector<Tensor>> &inputs,
                          std::vector<std::vector<Tensor>> &outputs) {
  const int64_t ranks = int64_t(executors_.size());
  if (recording_) {
    // One clock for every rank, from this run's start.
    auto start = std::chrono::steady_clock::now();
    recorders_.clear();
    for (int64_t r = 0; r < ranks; ++r) {
      recorders_.push_back(std::make_unique<TimelineRecorder>(r, start));
      executors_[r]->setTimeline(recorders_.back().get());
    }
  }
  std::vector<Status> statuses(ranks);
  // Ranks in the order they failed: the first is the cause, the others
  // usually stopped because of it.
  std::mutex failureMutex;
  std::vector<int64_t> failureOrder;
  outputs.assign(ranks, {});
  forEachRank([&](int64_t rank) {
    Status st = executors_[rank]->run(inputs[rank], outputs[rank]);
    if (!st) {
      // Recorded before abandoning, so the ranks it stops come after it.
      {
        std::lock_guard<std::mutex> lock(failureMutex);
        failureOrder.push_back(rank);
      }
      communicators_[rank]->abandon();
    }
    statuses[rank] = st;
  });
  if (failureOrder.empty())
    return Status::ok();
  std::string text = statuses[failureOrder[0]].message();
  if (failureOrder.size() > 1) {
    text += "\n" + std::to_string(failureOrder.size() - 1) +
            " other rank(s) stopped after it:";
    for (size_t i = 1; i < failureOrder.size(); ++i)
      text += "\n  " + statuses[failureOrder[i]].message();
  }
  return errorf(text);
}

StatusOr<Tensor> CpuRanks::stateShard(int64_t rank, size_t index) const {
  if (rank < 0 || rank >= int64_t(executors_.size()) ||
      index >= executors_[rank]->state().size())
    return errorf("no state buffer ", index, " on rank ", rank);
  return executors_[rank]->state()[index];
}

Status CpuRanks::setStateShard(int64_t rank, size_t index, Tensor shard) {
  if (rank < 0 || rank >= int64_t(executors_.size()))
    return errorf("no rank ", rank);
  return executors_[rank]->setState(index, std::move(shard));
}

StatusOr<std::vector<Tensor>>
paracc::rt::runOnCpu(std::shared_ptr<const Executable> exe,
                     const std::vector<Tensor> &inputs,
                     const std::function<std::unique_ptr<Communicator>(int64_t)>
                         &makeCommunicator) {
  // (CpuRanks::run checks the inputs; they are checked before the state
  // is materialized too, which is the slow part.)
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(exe->main(), inputs));
  auto ranks = CpuRanks::create(exe, 0, makeCommunicator);
  if (!ranks)
    return ranks.status();
  return (*ranks)->run(inputs);
}
