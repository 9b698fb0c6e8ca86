//===- GpuRank.cpp - Running executables on NVIDIA GPUs --------*- C++ -*-===//
//
// Set-up decodes the instruction list for the rank once (InstrWalk.h) and
// turns it into steps with device pointers fixed once: weights and
// constants in a persistent region, activations at their offsets in the
// arena (the compiler's plan), reshapes as aliases. A step is enqueued on
// the compute stream through dispatchInstr, as the CPU runs an instruction;
// a collective runs on the communication stream after an event from its
// producer, and the compute stream waits for it only before the first later
// step that reads its result or touches its buffers, so independent work
// overlaps it. After the first step the whole step is captured as a CUDA
// graph (unless a CPU fallback is in it). The host waits for a step with a
// deadline; past it, the NCCL communicators are aborted so that no rank
// waits forever.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/GpuRunner.h"

#include "cuda/AttentionKernel.h"
#include "cuda/CudaKernels.h"
#include "cuda/CudnnConvolution.h"
#include "cuda/FusedKernels.h"
#include "cuda/Gemm.h"
#include "cuda/MoeKernels.h"
#include "cuda/Nccl.h"
#include "paracc/runtime/Collectives.h"
#include "paracc/runtime/InstrWalk.h"
#include "paracc/runtime/MemoryPlan.h"
#include "paracc/runtime/UpdatePlacement.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <cuda_runtime.h>
#include <sstream>
#include <thread>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

#define PARACC_CUDA(call, what)                                                \
  do {                                                                         \
    cudaError_t _e = (call);                                                   \
    if (_e != cudaSuccess)                                                     \
      return errorf("rank ", rank, ": " #call " failed (", what, "): ",       \
                    cudaGetErrorString(_e));                                   \
  } while (0)

/// PARACC_CUDA for code that goes on after an error (to release events).
static Status withCuda(cudaError_t e, int64_t rank, const char *what) {
  if (e == cudaSuccess)
    return Status::ok();
  return errorf("rank ", rank, ": ", what, ": ", cudaGetErrorString(e));
}

StatusOr<int> paracc::rt::cudaDeviceCount() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return errorf("no usable CUDA device: ", cudaGetErrorString(e));
  if (count == 0)
    return errorf("no CUDA device on this machine");
  return count;
}

StatusOr<CudaDeviceSummary> paracc::rt::probeCudaDevices() {
  auto count = cudaDeviceCount();
  if (!count)
    return count.status();
  CudaDeviceSummary out;
  out.count = *count;
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess)
    return errorf("cannot read CUDA device 0: ", cudaGetErrorString(e));
  out.name = prop.name;
  out.memoryBytes = int64_t(prop.totalGlobalMem);
  out.major = prop.major;
  out.minor = prop.minor;
  for (int a = 0; a < out.count; ++a)
    for (int b = 0; b < out.count; ++b) {
      int can = 1;
      if (a != b && cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess)
        out.peerAccess &= can != 0;
    }
  return out;
}

StatusOr<NcclId> paracc::rt::newNcclId() {
  auto id = newUniqueId();
  if (!id)
    return id.status();
  NcclId out;
  static_assert(sizeof(ncclUniqueId) == sizeof(NcclId));
  std::memcpy(out.data(), &*id, sizeof(NcclId));
  return out;
}

namespace {
/// How a step runs its instruction: the instruction's kind (InstrKind),
/// with a compute instruction's refined by what the GPU has for it.
enum class Kind {
  Kernel,        // launchKernel
  Linear,        // cuBLASLt with an epilogue
  MatMul,        // cuBLASLt
  Gemm,          // cuBLASLt
  Collective,    // NCCL on the communication stream
  LocalShard,    // copyBlock at this rank's offsets
  Alias,         // reshape: the result is the operand's bytes
  Nop,           // axis_index: a constant per rank, written at set-up
  AttentionGrad, // launchAttentionGrad with the rank's workspace
  Moe,           // launchMoe (grouped products) with the rank's workspace
  Conv,          // launchConvolution (cuDNN) with the rank's workspace
  Fused,         // launchFusedKernel: the program's kernel, compiled at set-up
  Cpu,           // the CPU kernel (no GPU one)
  NumKinds,
};

struct Step {
  Kind kind;
  size_t instr;
};

/// A byte range of device memory.
struct Range {
  const uint8_t *begin, *end;
  bool overlaps(const Range &o) const { return begin < o.end && o.begin < end; }
};

/// A collective still running on the communication stream.
struct Pending {
  cudaEvent_t done;
  std::vector<Range> buffers;
  std::vector<int32_t> outputs;
};

/// Whether collective `op` goes through the staging buffer (a broadcast,
/// send, recv or ring shift works in its operand and result alone).
bool usesStaging(OpCode op) {
  return op != OpCode::Broadcast && op != OpCode::Send && op != OpCode::Recv &&
         op != OpCode::RingShift;
}
} // namespace

struct GpuRank::Impl {
  std::shared_ptr<const Executable> exe;
  int64_t rank = 0;
  int device = 0;
  GpuOptions options;
  cudaStream_t compute = nullptr, comm = nullptr;
  bool skipCollectives = false;
  std::unique_ptr<GemmEngine> gemm;
  std::unique_ptr<NcclComms> nccl;
  void *arena = nullptr, *persistent = nullptr, *staging = nullptr,
       *workspace = nullptr;
  /// Updates the compiler left out of the arena that could not be written
  /// in place here after all (none when the two agree).
  void *spill = nullptr;
  size_t arenaBytes = 0, persistentBytes = 0, stagingBytes = 0,
         workspaceBytes = 0;
  /// Pinned host memory that large inputs pass through on their way to the
  /// device (a copy from pageable memory is staged by the driver in small
  /// pieces at a fraction of the link's rate), and each input's offset in it
  /// (SIZE_MAX: copied directly).
  void *hostStaging = nullptr;
  size_t hostStagingBytes = 0;
  std::vector<size_t> inputStagingOffset;
  /// What the device had in use when the rank began (its CUDA context
  /// made), so that what the rank added can be read from the device.
  size_t deviceUsedAtStart = 0;
  std::vector<void *> ptr;
  /// Per state buffer, its shard in the persistent region (null: the
  /// function does not read it) and the shard's type.
  std::vector<void *> statePtr;
  std::vector<ValueType> stateType;
  /// Per state write, whether its value is computed in the state buffer
  /// itself (an optimizer update that is the last reader of the buffer), so
  /// that the step's end has nothing to copy.
  std::vector<bool> writtenInPlace;
  /// The function's instructions, decoded for this rank.
  std::vector<DecodedInstr> decoded;
  std::vector<Step> steps;
  /// Per decoded instruction, its compiled kernel (fused instructions).
  std::vector<FusedKernel> fused;
  std::vector<cudaEvent_t> events;
  cudaEvent_t stepDone = nullptr;
  cudaGraphExec_t graph = nullptr;
  bool graphable = true;
  int stepsRun = 0;
  size_t counts[size_t(Kind::NumKinds)] = {};

  ~Impl();
  Status setup(const NcclId *id);
  Status placeValues();
  void placeUpdatesInPlace();
  Status loadWeights();
  /// Casts each weight copy (StateInit::CastOf) from its parameter.
  Status castWeightCopies();
  Status buildSteps();
  Status compileFusedSteps();
  Status allocateInputStaging();
  Status uploadInput(size_t i, const Tensor &host);
  DeviceTensor tensor(int32_t v) const {
    const ValueType &t = exe->values()[v];
    return {t.dtype, t.shape, ptr[v]};
  }
  std::vector<DeviceTensor> tensors(const std::vector<int32_t> &values) const {
    std::vector<DeviceTensor> out;
    out.reserve(values.size());
    for (int32_t v : values)
      out.push_back(tensor(v));
    return out;
  }
  Range range(int32_t v) const {
    const auto *p = static_cast<const uint8_t *>(ptr[v]);
    return {p, p + tensor(v).byteSize()};
  }
  Status enqueue();
  Status runStep(const Step &s, std::vector<Pending> &pending);
  Status runCpu(const DecodedInstr &d);
  Status waitForStep();
  cudaEvent_t newEvent();
};

GpuRank::Impl::~Impl() {
  if (graph)
    cudaGraphExecDestroy(graph);
  for (cudaEvent_t e : events)
    cudaEventDestroy(e);
  if (stepDone)
    cudaEventDestroy(stepDone);
  nccl.reset();
  gemm.reset();
  for (void *p : {arena, persistent, staging, workspace, spill})
    if (p)
      cudaFree(p);
  for (cudaStream_t s : {compute, comm})
    if (s)
      cudaStreamDestroy(s);
  if (hostStaging)
    cudaFreeHost(hostStaging);
}

/// Inputs from this size on go through pinned staging.
static constexpr size_t kStagedInputBytes = size_t(1) << 20;

Status GpuRank::Impl::allocateInputStaging() {
  inputStagingOffset.assign(exe->inputs().size(), SIZE_MAX);
  size_t bytes = 0;
  for (size_t i = 0; i < exe->inputs().size(); ++i) {
    size_t size = tensor(exe->inputs()[i].value).byteSize();
    if (size < kStagedInputBytes)
      continue;
    inputStagingOffset[i] = bytes;
    bytes += (size + 255) / 256 * 256;
  }
  if (bytes == 0)
    return Status::ok();
  PARACC_CUDA(cudaHostAlloc(&hostStaging, bytes, cudaHostAllocDefault),
              "allocating pinned staging for the inputs");
  hostStagingBytes = bytes;
  return Status::ok();
}

/// memcpy by several threads: one thread moves ~10 GB/s, the link more.
static void copyInParallel(void *dst, const void *src, size_t bytes) {
  const size_t chunk = size_t(8) << 20;
  const size_t pieces = std::min<size_t>(
      {(bytes + chunk - 1) / chunk, 8,
       std::max<size_t>(1, std::thread::hardware_concurrency())});
  if (pieces <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const size_t each = (bytes + pieces - 1) / pieces;
  std::vector<std::thread> threads;
  for (size_t k = 0; k < pieces; ++k) {
    const size_t begin = k * each, end = std::min(bytes, begin + each);
    threads.emplace_back([=] {
      std::memcpy(static_cast<uint8_t *>(dst) + begin,
                  static_cast<const uint8_t *>(src) + begin, end - begin);
    });
  }
  for (std::thread &t : threads)
    t.join();
}

Status GpuRank::Impl::uploadInput(size_t i, const Tensor &host) {
  DeviceTensor t = tensor(exe->inputs()[i].value);
  const void *from = host.data();
  if (inputStagingOffset[i] != SIZE_MAX) {
    // The previous step's copies are done: run() waited for its end.
    void *staged = static_cast<uint8_t *>(hostStaging) + inputStagingOffset[i];
    copyInParallel(staged, from, t.byteSize());
    from = staged;
  }
  PARACC_CUDA(cudaMemcpyAsync(t.data, from, t.byteSize(),
                              cudaMemcpyHostToDevice, compute),
              "input '" + exe->inputs()[i].name + "'");
  return Status::ok();
}

cudaEvent_t GpuRank::Impl::newEvent() {
  cudaEvent_t e = nullptr;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  events.push_back(e);
  return e;
}

static size_t align256(size_t n) { return (n + 255) / 256 * 256; }

Status GpuRank::Impl::placeValues() {
  const Executable &x = *exe;
  size_t n = x.values().size();
  ptr.assign(n, nullptr);
  // The arena: the compiler's plan, or one made here for older files.
  std::vector<uint64_t> offsets = x.arenaOffsets();
  uint64_t bytes = x.arenaBytes();
  if (offsets.size() != n) {
    std::vector<uint64_t> sizes(n);
    std::vector<bool> inArena(n, false), toEnd(n, false);
    std::vector<PlanInstr> instrs;
    for (size_t v = 0; v < n; ++v)
      sizes[v] = uint64_t(shapeNumElements(x.values()[v].shape)) *
                 dtypeSize(x.values()[v].dtype);
    for (const PortInfo &p : x.inputs())
      inArena[p.value] = true;
    for (const PortInfo &p : x.outputs())
      toEnd[p.value] = true;
    for (const InstrInfo &in : x.instrs()) {
      for (int32_t v : in.outputs)
        inArena[v] = true;
      instrs.push_back({in.opcode, in.inputs, in.outputs});
    }
    MemoryPlanResult plan = planArena(sizes, inArena, toEnd, instrs);
    offsets = plan.offsets;
    bytes = plan.arenaBytes;
  }
  arenaBytes = std::max<size_t>(bytes, 256);
  PARACC_CUDA(cudaMalloc(&arena, arenaBytes), "the activation arena");
  for (size_t v = 0; v < n; ++v)
    if (offsets[v] != kNotInArena)
      ptr[v] = static_cast<uint8_t *>(arena) + offsets[v];

  // Persistent: the state shards (parameters, optimizer moments; every read
  // of a buffer is its one shard), constants, per-rank constants (axis
  // indices).
  std::vector<size_t> persistentOffset(n, SIZE_MAX);
  auto reserve = [&](int32_t v) {
    persistentOffset[v] = persistentBytes;
    persistentBytes += align256(tensor(v).byteSize());
  };
  std::vector<size_t> stateOffset(x.state().size(), SIZE_MAX);
  stateType.assign(x.state().size(), ValueType());
  for (const WeightInfo &w : x.weights()) {
    if (w.state < 0 || size_t(w.state) >= x.state().size())
      return errorf("rank ", rank, ": a read of state buffer ", w.state,
                    ", which the program does not have");
    if (stateOffset[w.state] != SIZE_MAX) {
      if (stateType[w.state].dtype != x.values()[w.value].dtype ||
          stateType[w.state].shape != x.values()[w.value].shape)
        return errorf("rank ", rank, ": state '", w.name,
                      "' is read with two types");
      persistentOffset[w.value] = stateOffset[w.state];
      continue;
    }
    reserve(w.value);
    stateOffset[w.state] = persistentOffset[w.value];
    stateType[w.state] = x.values()[w.value];
  }
  for (const StateBinding &b : x.main().writes) {
    if (b.state < 0 || size_t(b.state) >= x.state().size() ||
        stateOffset[b.state] == SIZE_MAX)
      return errorf("rank ", rank, ": a write of state buffer ", b.state,
                    ", which the function does not read");
    const ValueType &t = x.values()[b.value];
    if (t.dtype != stateType[b.state].dtype ||
        t.shape != stateType[b.state].shape)
      return errorf("rank ", rank, ": the write of state '",
                    x.state()[b.state].name, "' has another type");
  }
  for (const ConstantInfo &c : x.constants())
    reserve(c.value);
  for (const DecodedInstr &d : decoded)
    if (d.kind == InstrKind::AxisIndex)
      reserve(d.instr->outputs[0]);
  persistentBytes = std::max<size_t>(persistentBytes, 256);
  PARACC_CUDA(cudaMalloc(&persistent, persistentBytes), "weights");
  for (size_t v = 0; v < n; ++v)
    if (persistentOffset[v] != SIZE_MAX)
      ptr[v] = static_cast<uint8_t *>(persistent) + persistentOffset[v];
  statePtr.assign(x.state().size(), nullptr);
  for (size_t st = 0; st < stateOffset.size(); ++st)
    if (stateOffset[st] != SIZE_MAX)
      statePtr[st] = static_cast<uint8_t *>(persistent) + stateOffset[st];
  placeUpdatesInPlace();
  // The compiler leaves out of the arena the optimizer updates it expects
  // to be written into their state buffers (by the rule above); any that
  // were not get buffers of their own.
  std::vector<std::pair<int32_t, size_t>> unplaced;
  size_t spillBytes = 0;
  for (const InstrInfo &in : x.instrs())
    for (int32_t v : in.outputs)
      if (!ptr[v] && tensor(v).byteSize() > 0 &&
          (in.opcode == OpCode::ForeachAdamW || in.opcode == OpCode::AdamW ||
           in.opcode == OpCode::Sgd)) {
        unplaced.push_back({v, spillBytes});
        spillBytes += align256(tensor(v).byteSize());
      }
  if (!unplaced.empty()) {
    PARACC_CUDA(cudaMalloc(&spill, spillBytes), "updates outside the arena");
    for (auto [v, offset] : unplaced)
      ptr[v] = static_cast<uint8_t *>(spill) + offset;
  }
  return Status::ok();
}

void GpuRank::Impl::placeUpdatesInPlace() {
  const Executable &x = *exe;
  const FunctionInfo &f = x.main();
  std::vector<PlanInstr> instrs;
  for (const InstrInfo &in : f.instrs)
    instrs.push_back({in.opcode, in.inputs, in.outputs});
  std::vector<StateValue> reads, writes;
  for (const WeightInfo &w : f.weights)
    reads.push_back({w.state, w.value});
  for (const StateBinding &w : f.writes)
    writes.push_back({w.state, w.value});
  std::vector<int32_t> outputs;
  for (const PortInfo &o : f.outputs)
    outputs.push_back(o.value);
  writtenInPlace = updatesWrittenInPlace(f.values.size(), x.state().size(),
                                         instrs, reads, writes, outputs);
  for (size_t b = 0; b < f.writes.size(); ++b)
    if (writtenInPlace[b])
      ptr[f.writes[b].value] = statePtr[f.writes[b].state];
}

Status GpuRank::Impl::castWeightCopies() {
  for (const WeightInfo &w : exe->weights()) {
    if (w.init != StateInit::CastOf)
      continue;
    auto source =
        std::find_if(exe->weights().begin(), exe->weights().end(),
                     [&](const WeightInfo &p) { return p.state == w.source; });
    if (source == exe->weights().end())
      return errorf("state '", w.name, "' copies a parameter that the ",
                    "function does not read");
    PARACC_RETURN_IF_ERROR(launchKernel(OpCode::Cast, OpAttrs{},
                                        {tensor(source->value)},
                                        {tensor(w.value)}, compute, {}));
  }
  return Status::ok();
}

Status GpuRank::Impl::loadWeights() {
  const Executable &x = *exe;
  const Mesh &mesh = x.mesh();
  for (const WeightInfo &w : x.weights()) {
    const ValueType &t = x.values()[w.value];
    std::vector<int64_t> offsets = shardOffsets(t.shape, w.sharding, mesh, rank);
    if (w.init == StateInit::Zeros) {
      PARACC_CUDA(cudaMemset(ptr[w.value], 0, tensor(w.value).byteSize()),
                  "state '" + w.name + "'");
      continue;
    }
    if (w.init == StateInit::Random) {
      Shape source = w.randomSource(offsets);
      PARACC_RETURN_IF_ERROR(
          fillRandom(tensor(w.value), source, offsets, w.seed, w.scale,
                     compute));
      continue;
    }
    if (w.init == StateInit::CastOf)
      continue; // Below, once its parameter is here.
    Tensor global = Tensor::borrow(t.dtype, w.globalType.shape,
                                   const_cast<uint8_t *>(w.data));
    Tensor local = global;
    if (!w.sharding.isReplicated()) {
      auto block = extractBlock(global, offsets, t.shape);
      if (!block)
        return block.status().withContext("weight '" + w.name + "'");
      local = std::move(*block);
    }
    PARACC_CUDA(cudaMemcpy(ptr[w.value], local.data(), local.byteSize(),
                           cudaMemcpyHostToDevice),
                "weight '" + w.name + "'");
  }
  PARACC_RETURN_IF_ERROR(castWeightCopies());
  for (const ConstantInfo &c : x.constants())
    PARACC_CUDA(cudaMemcpy(ptr[c.value], c.data, tensor(c.value).byteSize(),
                           cudaMemcpyHostToDevice),
                "a constant");
  for (const DecodedInstr &d : decoded) {
    if (d.kind != InstrKind::AxisIndex)
      continue;
    const int64_t index = d.axisIndex().index;
    PARACC_CUDA(cudaMemcpy(ptr[d.instr->outputs[0]], &index, sizeof(index),
                           cudaMemcpyHostToDevice),
                "axis_index");
  }
  PARACC_CUDA(cudaStreamSynchronize(compute), "uploading weights");
  return Status::ok();
}

namespace {
/// Set-up's pass over an instruction: the step kind that runs it here, and
/// the staging and workspace bytes and aliases it needs.
class StepPlanner final : public InstrBackend {
public:
  explicit StepPlanner(GpuRank::Impl &m) : m_(m) {}

  /// The last instruction's.
  Kind kind = Kind::Cpu;

  Status compute(const DecodedInstr &d) override;
  Status alias(const DecodedInstr &d) override {
    kind = Kind::Alias;
    m_.ptr[d.instr->outputs[0]] = m_.ptr[d.instr->inputs[0]];
    return Status::ok();
  }
  Status linear(const DecodedInstr &, const LinearInstr &) override {
    kind = Kind::Linear;
    return Status::ok();
  }
  Status gemm(const DecodedInstr &, const GemmInstr &) override {
    kind = Kind::Gemm;
    return Status::ok();
  }
  Status collective(const DecodedInstr &d, const CollectiveInstr &c) override {
    kind = Kind::Collective;
    if (usesStaging(c.opcode))
      m_.stagingBytes =
          std::max(m_.stagingBytes,
                   2 * std::max(m_.tensor(d.instr->inputs[0]).byteSize(),
                                m_.tensor(d.instr->outputs[0]).byteSize()));
    return Status::ok();
  }
  Status localShard(const DecodedInstr &, const LocalShardInstr &) override {
    kind = Kind::LocalShard;
    return Status::ok();
  }
  /// A constant per rank, written at set-up.
  Status axisIndex(const DecodedInstr &, const AxisIndexInstr &) override {
    kind = Kind::Nop;
    return Status::ok();
  }

private:
  GpuRank::Impl &m_;
};
} // namespace

Status StepPlanner::compute(const DecodedInstr &d) {
  const InstrInfo &in = *d.instr;
  switch (in.opcode) {
  case OpCode::MatMul:
    kind = GemmEngine::supportsMatMul(m_.tensor(in.inputs[0]),
                                      m_.tensor(in.inputs[1]),
                                      m_.tensor(in.outputs[0]))
               ? Kind::MatMul
               : Kind::Cpu;
    return Status::ok();
  case OpCode::AttentionGrad: {
    const std::vector<DeviceTensor> ins = m_.tensors(in.inputs);
    const bool gpuType = !ins.empty() && (ins[0].dtype == DType::F32 ||
                                          ins[0].dtype == DType::BF16 ||
                                          ins[0].dtype == DType::F16);
    kind = gpuType ? Kind::AttentionGrad : Kind::Cpu;
    if (gpuType)
      m_.workspaceBytes = std::max(
          m_.workspaceBytes,
          attentionGradWorkspaceBytes(std::get<AttentionAttrs>(d.attrs), ins));
    return Status::ok();
  }
  case OpCode::Conv:
  case OpCode::ConvTranspose:
  case OpCode::ConvWeightGrad: {
    const std::optional<size_t> bytes = convolutionWorkspaceBytes(
        in.opcode, d.attrs, m_.tensors(in.inputs), m_.tensors(in.outputs),
        KernelOptions{m_.options.allowTf32});
    kind = bytes ? Kind::Conv : Kind::Cpu;
    if (bytes)
      m_.workspaceBytes = std::max(m_.workspaceBytes, *bytes);
    return Status::ok();
  }
  case OpCode::FusedElementwise:
    kind = fusedKernelsAvailable() ? Kind::Fused : Kind::Cpu;
    return Status::ok();
  case OpCode::MoeExperts:
  case OpCode::MoeExpertsGrad: {
    const size_t bytes = moeWorkspaceBytes(in.opcode, m_.tensors(in.inputs));
    kind = bytes ? Kind::Moe : Kind::Cpu;
    m_.workspaceBytes = std::max(m_.workspaceBytes, bytes);
    return Status::ok();
  }
  default: {
    const std::vector<ValueType> &values = m_.exe->values();
    std::vector<DType> types;
    for (int32_t v : in.inputs)
      types.push_back(values[v].dtype);
    // A cast's kernel depends on the result type too: hasKernel takes it
    // as a second entry (every operand of a ForeachCast has one type, and
    // every result one).
    if ((in.opcode == OpCode::Cast || in.opcode == OpCode::ForeachCast) &&
        !in.inputs.empty() && !in.outputs.empty())
      types = {values[in.inputs[0]].dtype, values[in.outputs[0]].dtype};
    kind = hasKernel(in.opcode, types) ? Kind::Kernel : Kind::Cpu;
    return Status::ok();
  }
  }
}

/// Compiles the fused instructions' kernels at once; when NVRTC fails they
/// run on the CPU (said once on stderr).
Status GpuRank::Impl::compileFusedSteps() {
  std::vector<FusedRequest> requests;
  std::vector<size_t> at;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].kind != Kind::Fused)
      continue;
    const DecodedInstr &d = decoded[steps[i].instr];
    requests.push_back(
        {&d.attrs, tensors(d.instr->inputs), tensors(d.instr->outputs)});
    at.push_back(i);
  }
  if (requests.empty())
    return Status::ok();
  std::vector<FusedKernel> kernels;
  Status compiled = compileFusedKernels(requests, kernels);
  if (!compiled.isOk()) {
    std::fprintf(stderr,
                 "paracc: rank %lld: %s; fused instructions run on "
                 "the CPU\n",
                 (long long)rank, compiled.message().c_str());
    for (size_t i : at) {
      --counts[int(Kind::Fused)];
      ++counts[int(Kind::Cpu)];
      steps[i].kind = Kind::Cpu;
    }
    graphable = false;
    return Status::ok();
  }
  fused.assign(decoded.size(), FusedKernel());
  for (size_t k = 0; k < at.size(); ++k)
    fused[steps[at[k]].instr] = kernels[k];
  return Status::ok();
}

Status GpuRank::Impl::buildSteps() {
  StepPlanner planner(*this);
  for (size_t i = 0; i < decoded.size(); ++i) {
    PARACC_RETURN_IF_ERROR(dispatchInstr(decoded[i], planner));
    if (planner.kind == Kind::Cpu)
      graphable = false;
    ++counts[int(planner.kind)];
    steps.push_back({planner.kind, i});
  }
  PARACC_RETURN_IF_ERROR(compileFusedSteps());
  if (stagingBytes)
    PARACC_CUDA(cudaMalloc(&staging, stagingBytes), "collective staging");
  if (workspaceBytes)
    PARACC_CUDA(cudaMalloc(&workspace, workspaceBytes),
                "the attention backward's, experts' and convolutions' "
                "workspace");
  return Status::ok();
}

Status GpuRank::Impl::setup(const NcclId *id) {
  // Before anything is allocated or communicated: a malformed instruction
  // fails every rank alike here, before NCCL's communicators are made.
  auto instrs = decodeInstructions(exe->main(), exe->mesh(), rank);
  if (!instrs)
    return instrs.status();
  decoded = std::move(*instrs);
  for (const DecodedInstr &d : decoded)
    if (d.instr->opcode == OpCode::ExpertParallelMoe ||
        d.instr->opcode == OpCode::ExpertParallelMoeGrad)
      return errorf("expert parallelism (a mesh with an 'ep' axis) runs on "
                    "CPU ranks only for now; compile for --device cpu")
          .withContext(d.context);
  PARACC_CUDA(cudaSetDevice(device), "selecting the device");
  PARACC_CUDA(cudaFree(nullptr), "making the CUDA context");
  size_t free = 0, total = 0;
  PARACC_CUDA(cudaMemGetInfo(&free, &total), "reading the device's memory");
  deviceUsedAtStart = total - free;
  PARACC_CUDA(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking),
              "the compute stream");
  // Collectives get the highest priority: their blocks are scheduled as
  // soon as the compute kernels running beside them free a multiprocessor.
  int leastPriority = 0, greatestPriority = 0;
  PARACC_CUDA(cudaDeviceGetStreamPriorityRange(&leastPriority,
                                               &greatestPriority),
              "the stream priorities");
  PARACC_CUDA(cudaStreamCreateWithPriority(&comm, cudaStreamNonBlocking,
                                           greatestPriority),
              "the communication stream");
  PARACC_CUDA(cudaEventCreateWithFlags(&stepDone, cudaEventDisableTiming),
              "an event");
  auto engine = GemmEngine::create(size_t(64) << 20, options.allowTf32);
  if (!engine)
    return engine.status();
  gemm = std::move(*engine);
  // Matrix products of a program with collectives may leave multiprocessors
  // to the collectives running beside them (PARACC_GEMM_SM_MARGIN=N).
  if (const char *margin = std::getenv("PARACC_GEMM_SM_MARGIN");
      margin && exe->mesh().numRanks() > 1) {
    int sms = 0;
    PARACC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                       device),
                "the multiprocessor count");
    int keep = sms - std::atoi(margin);
    if (keep > 0 && keep < sms)
      gemm->setSmCountTarget(keep);
  }
  // Diagnosis only: time the step without its communication (results are
  // wrong; the check reports a mismatch).
  skipCollectives = std::getenv("PARACC_DEBUG_SKIP_COLLECTIVES") != nullptr;
  PARACC_RETURN_IF_ERROR(placeValues());
  PARACC_RETURN_IF_ERROR(allocateInputStaging());
  PARACC_RETURN_IF_ERROR(loadWeights());
  PARACC_RETURN_IF_ERROR(buildSteps());
  const Mesh &mesh = exe->mesh();
  if (mesh.numRanks() > 1) {
    if (!id)
      return errorf("a ", mesh.numRanks(), "-rank program needs an NCCL id");
    std::vector<std::vector<int>> groups;
    for (const DecodedInstr &d : decoded)
      if (d.kind == InstrKind::Collective)
        groups.push_back(d.collective().axes);
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    ncclUniqueId nid;
    std::memcpy(&nid, id->data(), sizeof(nid));
    auto comms = NcclComms::create(mesh, rank, nid, groups);
    if (!comms)
      return comms.status();
    nccl = std::move(*comms);
  }
  return Status::ok();
}

Status GpuRank::Impl::runCpu(const DecodedInstr &d) {
  const InstrInfo &in = *d.instr;
  PARACC_CUDA(cudaStreamSynchronize(compute), "before a CPU fallback");
  std::vector<Tensor> hostIn, hostOut;
  for (int32_t v : in.inputs) {
    const ValueType &t = exe->values()[v];
    auto h = Tensor::allocate(t.dtype, t.shape);
    if (!h)
      return h.status();
    PARACC_CUDA(cudaMemcpy(h->data(), ptr[v], h->byteSize(),
                           cudaMemcpyDeviceToHost),
                opCodeMnemonic(in.opcode));
    hostIn.push_back(std::move(*h));
  }
  for (int32_t v : in.outputs) {
    const ValueType &t = exe->values()[v];
    auto h = Tensor::allocate(t.dtype, t.shape);
    if (!h)
      return h.status();
    hostOut.push_back(std::move(*h));
  }
  std::vector<const Tensor *> inPtrs;
  std::vector<Tensor *> outPtrs;
  for (Tensor &t : hostIn)
    inPtrs.push_back(&t);
  for (Tensor &t : hostOut)
    outPtrs.push_back(&t);
  PARACC_RETURN_IF_ERROR(runCpuKernel(in.opcode, d.attrs, inPtrs, outPtrs));
  for (size_t i = 0; i < in.outputs.size(); ++i)
    PARACC_CUDA(cudaMemcpy(ptr[in.outputs[i]], hostOut[i].data(),
                           hostOut[i].byteSize(), cudaMemcpyHostToDevice),
                opCodeMnemonic(in.opcode));
  return Status::ok();
}

namespace {
/// A step on the GPU: enqueued on the compute stream, a collective on the
/// communication stream with its completion added to `pending` for later
/// steps to wait on.
class StepRunner final : public InstrBackend {
public:
  StepRunner(GpuRank::Impl &m, Kind kind, std::vector<Pending> &pending)
      : m_(m), kind_(kind), pending_(pending) {}

  Status compute(const DecodedInstr &d) override;
  /// Set up as an alias of the operand.
  Status alias(const DecodedInstr &) override { return Status::ok(); }
  Status linear(const DecodedInstr &d, const LinearInstr &l) override;
  Status gemm(const DecodedInstr &d, const GemmInstr &g) override;
  Status collective(const DecodedInstr &d, const CollectiveInstr &c) override;
  Status localShard(const DecodedInstr &d, const LocalShardInstr &s) override {
    const DeviceTensor x = m_.tensor(d.instr->inputs[0]);
    const DeviceTensor y = m_.tensor(d.instr->outputs[0]);
    return copyBlock(x, s.offsets, y, m_.compute);
  }
  /// Written at set-up.
  Status axisIndex(const DecodedInstr &, const AxisIndexInstr &) override {
    return Status::ok();
  }

private:
  Status enqueueCollective(const CollectiveInstr &c, const DeviceTensor &x,
                           const DeviceTensor &y);

  GpuRank::Impl &m_;
  Kind kind_;
  std::vector<Pending> &pending_;
};
} // namespace

Status StepRunner::compute(const DecodedInstr &d) {
  const InstrInfo &in = *d.instr;
  if (kind_ == Kind::Cpu)
    return m_.runCpu(d);
  if (kind_ == Kind::MatMul)
    return m_.gemm->matmul(m_.tensor(in.inputs[0]), m_.tensor(in.inputs[1]),
                           m_.tensor(in.outputs[0]), nullptr, Epilogue::None,
                           m_.compute);
  const std::vector<DeviceTensor> ins = m_.tensors(in.inputs),
                                  outs = m_.tensors(in.outputs);
  const KernelOptions options{m_.options.allowTf32};
  if (kind_ == Kind::AttentionGrad)
    return launchAttentionGrad(std::get<AttentionAttrs>(d.attrs), ins, outs,
                               m_.workspace, m_.workspaceBytes, m_.compute,
                               options);
  if (kind_ == Kind::Moe)
    return launchMoe(in.opcode, std::get<MoeExpertsAttrs>(d.attrs), ins, outs,
                     m_.workspace, m_.workspaceBytes, m_.compute);
  if (kind_ == Kind::Conv)
    return launchConvolution(in.opcode, d.attrs, ins, outs, m_.workspace,
                             m_.workspaceBytes, m_.compute, options);
  if (kind_ == Kind::Fused)
    return launchFusedKernel(m_.fused[size_t(&d - m_.decoded.data())], ins,
                             outs, m_.compute);
  return launchKernel(in.opcode, d.attrs, ins, outs, m_.compute, options);
}

Status StepRunner::linear(const DecodedInstr &d, const LinearInstr &l) {
  // The bias and residual may belong to another member of a group: the
  // decoded form has them on this rank only when it adds them.
  const InstrInfo &in = *d.instr;
  const int64_t act = l.form.activation;
  const bool hasBias = l.form.bias, hasResidual = l.form.residual;
  DeviceTensor bias, residual;
  if (hasBias)
    bias = m_.tensor(in.inputs[2]);
  if (hasResidual)
    residual = m_.tensor(in.inputs[2 + size_t(hasBias)]);
  Epilogue e = act == 1
                   ? (hasBias ? Epilogue::GeluTanhBias : Epilogue::GeluTanh)
                   : (hasBias ? Epilogue::Bias : Epilogue::None);
  DeviceTensor y = m_.tensor(in.outputs[0]);
  PARACC_RETURN_IF_ERROR(
      m_.gemm->matmul(m_.tensor(in.inputs[0]), m_.tensor(in.inputs[1]), y,
                      hasBias ? &bias : nullptr, e, m_.compute,
                      hasResidual ? &residual : nullptr));
  if (act == 2)
    return launchKernel(OpCode::Gelu, GeluAttrs{false}, {y}, {y}, m_.compute);
  if (act == 3)
    return launchKernel(OpCode::Relu, OpAttrs(), {y}, {y}, m_.compute);
  return Status::ok();
}

Status StepRunner::gemm(const DecodedInstr &d, const GemmInstr &g) {
  const InstrInfo &in = *d.instr;
  DeviceTensor c;
  if (g.hasC)
    c = m_.tensor(in.inputs[2]);
  return m_.gemm->gemm(m_.tensor(in.inputs[0]), m_.tensor(in.inputs[1]),
                       g.hasC ? &c : nullptr, m_.tensor(in.outputs[0]),
                       g.transA, g.transB, float(g.alpha), float(g.beta),
                       m_.compute);
}

Status StepRunner::collective(const DecodedInstr &d, const CollectiveInstr &c) {
  if (m_.skipCollectives)
    return Status::ok();
  if (!m_.nccl)
    return errorf("no communicators for a one-rank program");
  const InstrInfo &in = *d.instr;
  const int64_t rank = m_.rank;
  const char *op = opCodeMnemonic(c.opcode);
  // A send has no result and a recv no operand (checked at load).
  DeviceTensor x = in.inputs.empty() ? DeviceTensor() : m_.tensor(in.inputs[0]);
  DeviceTensor y =
      in.outputs.empty() ? DeviceTensor() : m_.tensor(in.outputs[0]);
  cudaEvent_t ready = m_.newEvent(), done = m_.newEvent();
  PARACC_CUDA(cudaEventRecord(ready, m_.compute), op);
  PARACC_CUDA(cudaStreamWaitEvent(m_.comm, ready, 0), op);
  PARACC_RETURN_IF_ERROR(enqueueCollective(c, x, y));
  PARACC_CUDA(cudaEventRecord(done, m_.comm), op);
  // Later steps wait for it before they read its result or overwrite its
  // operand, result or the staging buffer.
  std::vector<Range> buffers;
  for (int32_t v : in.inputs)
    buffers.push_back(m_.range(v));
  for (int32_t v : in.outputs)
    buffers.push_back(m_.range(v));
  const auto *stage = static_cast<const uint8_t *>(m_.staging);
  if (usesStaging(c.opcode))
    buffers.push_back({stage, stage + m_.stagingBytes});
  pending_.push_back({done, std::move(buffers), in.outputs});
  return Status::ok();
}

Status StepRunner::enqueueCollective(const CollectiveInstr &c,
                                     const DeviceTensor &x,
                                     const DeviceTensor &y) {
  NcclComms &nccl = *m_.nccl;
  const std::vector<int> &axes = c.axes;
  switch (c.opcode) {
  case OpCode::Broadcast:
    return nccl.broadcast(axes, c.root, x, y, m_.comm);
  case OpCode::Send:
    return nccl.send(axes, c.peerOffset, x, m_.comm);
  case OpCode::Recv:
    return nccl.recv(axes, c.peerOffset, y, m_.comm);
  case OpCode::RingShift:
    return nccl.ringShift(axes, c.peerOffset, x, y, m_.comm);
  case OpCode::AllReduce:
    return nccl.allReduce(axes, x, y, c.reduceMax, m_.comm);
  case OpCode::AllGather:
    return nccl.allGather(axes, c.dim, x, y, m_.staging, m_.comm);
  case OpCode::ReduceScatter:
    return nccl.reduceScatter(axes, c.dim, x, y, m_.staging, m_.comm);
  case OpCode::AllToAll:
    return nccl.allToAll(axes, c.splitDim, c.concatDim, x, y, m_.staging,
                         m_.comm);
  default:
    return errorf(opCodeMnemonic(c.opcode), ": not a collective");
  }
}

Status GpuRank::Impl::runStep(const Step &s, std::vector<Pending> &pending) {
  const DecodedInstr &d = decoded[s.instr];
  const InstrInfo &in = *d.instr;
  const char *op = opCodeMnemonic(in.opcode);
  // Wait for collectives whose results this step reads or whose buffers it
  // would overwrite.
  std::vector<Range> touched;
  for (int32_t v : in.outputs)
    touched.push_back(range(v));
  for (auto it = pending.begin(); it != pending.end();) {
    bool wait = s.kind == Kind::Cpu;
    for (int32_t v : in.inputs)
      wait |= std::find(it->outputs.begin(), it->outputs.end(), v) !=
              it->outputs.end();
    for (const Range &r : touched)
      for (const Range &b : it->buffers)
        wait |= r.overlaps(b);
    if (wait) {
      PARACC_CUDA(cudaStreamWaitEvent(compute, it->done, 0), op);
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
  StepRunner runner(*this, s.kind, pending);
  return dispatchInstr(d, runner);
}

Status GpuRank::Impl::enqueue() {
  events.clear();
  std::vector<Pending> pending;
  for (const Step &s : steps)
    PARACC_RETURN_IF_ERROR(runStep(s, pending));
  for (const Pending &p : pending)
    PARACC_CUDA(cudaStreamWaitEvent(compute, p.done, 0), "joining collectives");
  // The state writes take effect when the step ends: every read above saw
  // the value the step started with.
  for (size_t i = 0; i < exe->main().writes.size(); ++i) {
    const StateBinding &b = exe->main().writes[i];
    if (writtenInPlace[i])
      continue;
    PARACC_CUDA(cudaMemcpyAsync(statePtr[b.state], ptr[b.value],
                                tensor(b.value).byteSize(),
                                cudaMemcpyDeviceToDevice, compute),
                "writing state '" + exe->state()[b.state].name + "'");
  }
  return Status::ok();
}

Status GpuRank::Impl::waitForStep() {
  PARACC_CUDA(cudaEventRecord(stepDone, compute), "ending the step");
  auto start = std::chrono::steady_clock::now();
  while (true) {
    cudaError_t e = cudaEventQuery(stepDone);
    if (e == cudaSuccess)
      break;
    if (e != cudaErrorNotReady)
      return errorf("rank ", rank, ": the step failed on the GPU: ",
                    cudaGetErrorString(e));
    if (nccl)
      PARACC_RETURN_IF_ERROR(nccl->asyncError());
    double waited = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    if (waited > options.timeoutSeconds) {
      if (nccl)
        nccl->abortAll();
      return errorf("rank ", rank, ": the step did not finish within ",
                    options.timeoutSeconds,
                    " s (a peer may have failed); communicators aborted");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return Status::ok();
}

GpuRank::GpuRank(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GpuRank::~GpuRank() = default;

StatusOr<std::unique_ptr<GpuRank>>
GpuRank::create(std::shared_ptr<const Executable> exe, int64_t rank,
                int device, const NcclId *ncclId, const GpuOptions &options) {
  if (exe->pipelineAxis() >= 0)
    return errorf("pipelined executables (one function per stage) run on "
                  "CPU ranks only for now; run with --device cpu");
  auto impl = std::make_unique<Impl>();
  impl->exe = std::move(exe);
  impl->rank = rank;
  impl->device = device;
  impl->options = options;
  PARACC_RETURN_IF_ERROR(impl->setup(ncclId));
  return std::unique_ptr<GpuRank>(new GpuRank(std::move(impl)));
}

Status GpuRank::run(const std::vector<Tensor> &inputs,
                    std::vector<Tensor> &outputs) {
  Impl &m = *impl_;
  int64_t rank = m.rank;
  const Executable &x = *m.exe;
  // Ranks of one process run from their own threads.
  PARACC_CUDA(cudaSetDevice(m.device), "selecting the device");
  if (inputs.size() != x.inputs().size())
    return errorf("expected ", x.inputs().size(), " inputs, got ",
                  inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    DeviceTensor t = m.tensor(x.inputs()[i].value);
    if (inputs[i].dtype() != t.dtype || inputs[i].shape() != t.shape)
      return errorf("input '", x.inputs()[i].name, "': expected ",
                    dtypeName(t.dtype), shapeToString(t.shape), ", got ",
                    inputs[i].typeString());
    PARACC_RETURN_IF_ERROR(m.uploadInput(i, inputs[i]));
  }
  if (m.graph) {
    PARACC_CUDA(cudaGraphLaunch(m.graph, m.compute), "launching the graph");
  } else if (m.options.useGraph && m.graphable && m.stepsRun > 0) {
    // Capture once the first (eager) step has set up cuBLASLt's algorithms
    // and NCCL's connections.
    cudaGraph_t g = nullptr;
    PARACC_CUDA(
        cudaStreamBeginCapture(m.compute, cudaStreamCaptureModeThreadLocal),
        "capturing the step");
    Status st = m.enqueue();
    cudaError_t end = cudaStreamEndCapture(m.compute, &g);
    PARACC_RETURN_IF_ERROR(st);
    if (end != cudaSuccess)
      return errorf("rank ", rank, ": capturing the step failed: ",
                    cudaGetErrorString(end));
    PARACC_CUDA(cudaGraphInstantiate(&m.graph, g, 0), "instantiating");
    cudaGraphDestroy(g);
    PARACC_CUDA(cudaGraphLaunch(m.graph, m.compute), "launching the graph");
  } else {
    PARACC_RETURN_IF_ERROR(m.enqueue());
  }
  PARACC_RETURN_IF_ERROR(m.waitForStep());
  ++m.stepsRun;
  outputs.clear();
  for (const PortInfo &o : x.outputs()) {
    DeviceTensor t = m.tensor(o.value);
    auto h = Tensor::allocate(t.dtype, t.shape);
    if (!h)
      return h.status();
    PARACC_CUDA(cudaMemcpy(h->data(), t.data, t.byteSize(),
                           cudaMemcpyDeviceToHost),
                "output '" + o.name + "'");
    outputs.push_back(std::move(*h));
  }
  return Status::ok();
}

StatusOr<Profile> GpuRank::profile(int steps) {
  Impl &m = *impl_;
  int64_t rank = m.rank;
  const Executable &x = *m.exe;
  std::vector<cudaEvent_t> marks(m.steps.size() + 1);
  for (cudaEvent_t &e : marks)
    PARACC_CUDA(cudaEventCreate(&e), "profiling");
  Profile profile(rank, steps, "GPU", x.costRates());
  Status st = Status::ok();
  for (int step = 0; step < steps && st; ++step) {
    m.events.clear();
    std::vector<Pending> pending;
    st = withCuda(cudaEventRecord(marks[0], m.compute), rank, "profiling");
    for (size_t i = 0; i < m.steps.size() && st; ++i) {
      st = m.runStep(m.steps[i], pending);
      // Serialized: the next instruction starts after this one, collective
      // or not, so that each interval is one instruction's cost.
      for (const Pending &p : pending)
        if (st)
          st = withCuda(cudaStreamWaitEvent(m.compute, p.done, 0), rank,
                        "profiling");
      pending.clear();
      if (st)
        st = withCuda(cudaEventRecord(marks[i + 1], m.compute), rank,
                      "profiling");
    }
    if (st)
      st = m.waitForStep();
    for (size_t i = 0; i < m.steps.size() && st; ++i) {
      const Step &s = m.steps[i];
      if (s.kind == Kind::Alias || s.kind == Kind::Nop)
        continue;
      float ms = 0;
      st = withCuda(cudaEventElapsedTime(&ms, marks[i], marks[i + 1]), rank,
                    "profiling");
      profile.add(x.main(), x.instrs()[s.instr], ms);
    }
  }
  for (cudaEvent_t &e : marks)
    cudaEventDestroy(e);
  PARACC_RETURN_IF_ERROR(st);
  return profile;
}

StatusOr<double> GpuRank::benchmark(int warmup, int iterations) {
  Impl &m = *impl_;
  int64_t rank = m.rank;
  if (m.stepsRun == 0)
    return errorf("benchmark: run a step first");
  cudaEvent_t start, stop;
  PARACC_CUDA(cudaEventCreate(&start), "timing");
  PARACC_CUDA(cudaEventCreate(&stop), "timing");
  std::vector<double> times;
  for (int i = 0; i < warmup + iterations; ++i) {
    PARACC_CUDA(cudaEventRecord(start, m.compute), "timing");
    if (m.graph)
      PARACC_CUDA(cudaGraphLaunch(m.graph, m.compute), "launching the graph");
    else
      PARACC_RETURN_IF_ERROR(m.enqueue());
    PARACC_CUDA(cudaEventRecord(stop, m.compute), "timing");
    PARACC_RETURN_IF_ERROR(m.waitForStep());
    float ms = 0;
    PARACC_CUDA(cudaEventElapsedTime(&ms, start, stop), "timing");
    if (i >= warmup)
      times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times.empty() ? 0.0 : times[times.size() / 2];
}

Status GpuRank::gatherOutputs(const std::vector<Tensor> &local,
                              std::vector<Tensor> &global) {
  Impl &m = *impl_;
  const Executable &x = *m.exe;
  const Mesh &mesh = x.mesh();
  global.clear();
  if (mesh.numRanks() == 1) {
    global = local;
    return Status::ok();
  }
  // Every rank's shards reach rank 0 over the world communicator.
  int64_t n = mesh.numRanks();
  for (size_t i = 0; i < x.outputs().size(); ++i) {
    const PortInfo &o = x.outputs()[i];
    DeviceTensor t = m.tensor(o.value);
    void *recv = nullptr;
    int64_t rank = m.rank;
    if (rank == 0)
      PARACC_CUDA(cudaMalloc(&recv, t.byteSize() * size_t(n)),
                  "gathering outputs");
    Status st = m.nccl->gatherToRoot(t, recv, m.compute);
    if (st)
      st = m.waitForStep();
    if (st && rank == 0) {
      auto out = Tensor::allocate(o.globalType.dtype, o.globalType.shape);
      std::vector<uint8_t> host(t.byteSize() * size_t(n));
      cudaError_t e = cudaMemcpy(host.data(), recv, host.size(),
                                 cudaMemcpyDeviceToHost);
      if (!out)
        st = out.status();
      else if (e != cudaSuccess)
        st = errorf("rank 0: gathering outputs: ", cudaGetErrorString(e));
      for (int64_t r = 0; st && r < n; ++r) {
        Tensor shard =
            Tensor::borrow(t.dtype, t.shape, host.data() + r * t.byteSize());
        st = insertBlock(*out, shard,
                         shardOffsets(t.shape, o.sharding, mesh, r));
      }
      if (st)
        global.push_back(std::move(*out));
    }
    if (recv)
      cudaFree(recv);
    PARACC_RETURN_IF_ERROR(st);
  }
  return Status::ok();
}

std::string GpuRank::memory() const {
  const Impl &m = *impl_;
  const size_t allocated = m.arenaBytes + m.persistentBytes + m.stagingBytes +
                           m.workspaceBytes + (size_t(64) << 20);
  size_t free = 0, total = 0;
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << "rank " << m.rank
     << " allocates " << double(allocated) / double(1 << 30)
     << " GiB: arena " << double(m.arenaBytes) / double(1 << 30)
     << ", state and constants " << double(m.persistentBytes) / double(1 << 30)
     << ", workspaces and staging "
     << double(m.stagingBytes + m.workspaceBytes + (size_t(64) << 20)) /
            double(1 << 30);
  if (cudaSetDevice(m.device) == cudaSuccess &&
      cudaMemGetInfo(&free, &total) == cudaSuccess)
    os << "; the device has " << double(total - free) / double(1 << 30)
       << " GiB in use, "
       << (double(total - free) - double(m.deviceUsedAtStart)) /
              double(1 << 30)
       << " GiB more than when the rank began";
  else
    (void)cudaGetLastError();
  return os.str();
}

std::string GpuRank::summary() const {
  const Impl &m = *impl_;
  std::ostringstream os;
  os << "rank " << m.rank << " on GPU " << m.device << ": arena "
     << m.arenaBytes / (1 << 20) << " MiB, state and constants "
     << m.persistentBytes / (1 << 20) << " MiB, staging "
     << m.stagingBytes / (1 << 20) << " MiB (pinned for the inputs "
     << m.hostStagingBytes / (1 << 20) << " MiB); "
     << m.counts[int(Kind::Kernel)] + m.counts[int(Kind::AttentionGrad)] +
            m.counts[int(Kind::Moe)] + m.counts[int(Kind::Conv)] +
            m.counts[int(Kind::Fused)]
     << " kernels, "
     << m.counts[int(Kind::Linear)] + m.counts[int(Kind::MatMul)] +
            m.counts[int(Kind::Gemm)]
     << " cuBLASLt products, " << m.counts[int(Kind::Collective)]
     << " collectives, " << m.counts[int(Kind::Cpu)] << " CPU fallbacks";
  // Which instructions have no GPU kernel (each one syncs the step and
  // copies its operands through the host).
  std::vector<std::string> fallbacks;
  for (const auto &step : m.steps)
    if (step.kind == Kind::Cpu) {
      std::string name = opCodeMnemonic(m.decoded[step.instr].instr->opcode);
      if (std::find(fallbacks.begin(), fallbacks.end(), name) ==
          fallbacks.end())
        fallbacks.push_back(name);
    }
  for (size_t i = 0; i < fallbacks.size(); ++i)
    os << (i ? ", " : " (") << fallbacks[i]
       << (i + 1 == fallbacks.size() ? ")" : "");
  os << "; " << m.exe->main().writes.size() << " state writes ("
     << std::count(m.writtenInPlace.begin(), m.writtenInPlace.end(), true)
     << " in place); " << (m.graph ? "CUDA graph" : "eager");
  return os.str();
}

StatusOr<Tensor> GpuRank::readState(size_t index) const {
  const Impl &m = *impl_;
  int64_t rank = m.rank;
  if (index >= m.statePtr.size() || !m.statePtr[index])
    return errorf("rank ", rank, ": state buffer ", index,
                  " is not read by the function");
  const ValueType &t = m.stateType[index];
  auto host = Tensor::allocate(t.dtype, t.shape);
  if (!host)
    return host.status();
  PARACC_CUDA(cudaSetDevice(m.device), "selecting the device");
  PARACC_CUDA(cudaStreamSynchronize(m.compute), "reading state");
  PARACC_CUDA(cudaMemcpy(host->data(), m.statePtr[index], host->byteSize(),
                         cudaMemcpyDeviceToHost),
              "reading state '" + m.exe->state()[index].name + "'");
  return std::move(*host);
}

Status GpuRank::writeState(size_t index, const Tensor &shard) {
  Impl &m = *impl_;
  int64_t rank = m.rank;
  if (index >= m.statePtr.size() || !m.statePtr[index])
    return errorf("rank ", rank, ": state buffer ", index,
                  " is not read by the function");
  const ValueType &t = m.stateType[index];
  if (shard.dtype() != t.dtype || shard.shape() != t.shape)
    return errorf("rank ", rank, ": state '", m.exe->state()[index].name,
                  "' is ", dtypeName(t.dtype), shapeToString(t.shape),
                  " here, got ", shard.typeString());
  PARACC_CUDA(cudaSetDevice(m.device), "selecting the device");
  PARACC_CUDA(cudaStreamSynchronize(m.compute), "writing state");
  PARACC_CUDA(cudaMemcpy(m.statePtr[index], shard.data(), shard.byteSize(),
                         cudaMemcpyHostToDevice),
              "writing state '" + m.exe->state()[index].name + "'");
  return Status::ok();
}

namespace {
/// Every rank on its own GPU of this machine, each run from its own thread.
class GpuRankGroup : public RankGroup {
public:
  GpuRankGroup(std::shared_ptr<const Executable> exe)
      : RankGroup(std::move(exe), 0) {}

  Status create(const GpuOptions &options) {
    const int64_t n = exe_->mesh().numRanks();
    auto devices = cudaDeviceCount();
    if (!devices)
      return devices.status();
    if (n > *devices)
      return errorf("the program has ", n, " ranks but this machine has ",
                    *devices, " GPU(s): train on the CPU (--device cpu) or "
                    "on a mesh of at most ",
                    *devices, " rank(s)");
    NcclId id{};
    if (n > 1) {
      auto fresh = newNcclId();
      if (!fresh)
        return fresh.status();
      id = *fresh;
    }
    ranks_.resize(n);
    // NCCL's communicators are made by all ranks at once.
    PARACC_RETURN_IF_ERROR(forEachRank([&](int64_t r) -> Status {
      auto rank = GpuRank::create(exe_, r, int(r), n > 1 ? &id : nullptr,
                                  options);
      if (!rank)
        return rank.status();
      ranks_[r] = std::move(*rank);
      return Status::ok();
    }));
    return Status::ok();
  }

  std::string describe() const override {
    return std::to_string(ranks_.size()) + " GPU(s) (" + ranks_[0]->memory() +
           ")";
  }
  std::string memoryInUse() const override { return ranks_[0]->memory(); }
  std::string summary() const override { return ranks_[0]->summary(); }

protected:
  Status runRanks(const std::vector<std::vector<Tensor>> &inputs,
                  std::vector<std::vector<Tensor>> &outputs) override {
    outputs.assign(ranks_.size(), {});
    return forEachRank([&](int64_t r) {
      return ranks_[r]->run(inputs[r], outputs[r]);
    });
  }
  StatusOr<Tensor> stateShard(int64_t rank, size_t index) const override {
    return ranks_[rank]->readState(index);
  }
  Status setStateShard(int64_t rank, size_t index, Tensor shard) override {
    return ranks_[rank]->writeState(index, shard);
  }

private:
  /// Runs body(r) for every rank (threads when there are several); the
  /// first failure (by rank) is returned.
  Status forEachRank(const std::function<Status(int64_t)> &body) {
    const int64_t n = exe_->mesh().numRanks();
    if (n == 1)
      return body(0);
    std::vector<Status> statuses(n);
    std::vector<std::thread> threads;
    for (int64_t r = 0; r < n; ++r)
      threads.emplace_back([&, r] { statuses[r] = body(r); });
    for (std::thread &t : threads)
      t.join();
    for (const Status &st : statuses)
      PARACC_RETURN_IF_ERROR(st);
    return Status::ok();
  }

  std::vector<std::unique_ptr<GpuRank>> ranks_;
};
} // namespace

StatusOr<std::unique_ptr<RankGroup>>
paracc::rt::createGpuRankGroup(std::shared_ptr<const Executable> exe,
                               const GpuOptions &options) {
  auto group = std::make_unique<GpuRankGroup>(std::move(exe));
  PARACC_RETURN_IF_ERROR(group->create(options));
  return std::unique_ptr<RankGroup>(std::move(group));
}
