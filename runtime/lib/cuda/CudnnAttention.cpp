//===- CudnnAttention.cpp - cuDNN's fused attention, when present ---------===//
//
// See CudnnAttention.h. One cuDNN frontend graph per (device, element type,
// shape, k's and v's heads (a divisor of q's under grouped-query attention),
// causality, scale, direction), built on first use and kept for the
// process (CUDA graphs captured from it stay valid); libcudnn.so.9 is opened
// with dlopen through the frontend's dynamic loading, so the runtime never
// links cuDNN.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudnnAttention.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef PARACC_HAVE_CUDNN_FRONTEND
#include "cuda/CudnnLibrary.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>
#endif

namespace paracc::rt::cuda {

#ifndef PARACC_HAVE_CUDNN_FRONTEND

Status runCudnnAttention(const CudnnAttentionOperands &, const void *,
                         const void *, const void *, void *, float *,
                         cudaStream_t, CudnnOutcome &outcome) {
  outcome = CudnnOutcome::NotAvailable;
  return Status::ok();
}

size_t cudnnAttentionGradWorkspaceBytes(const CudnnAttentionOperands &) {
  return 0;
}

Status runCudnnAttentionGrad(const CudnnAttentionOperands &, const void *,
                             const void *, const void *, const void *,
                             SavedAttention, void *, void *, void *, void *,
                             size_t, cudaStream_t, CudnnOutcome &outcome) {
  outcome = CudnnOutcome::NotAvailable;
  return Status::ok();
}

#else

namespace {

namespace fe = cudnn_frontend;

bool selectedByEnvironment(bool backward) {
  if (const char *k = std::getenv("PARACC_ATTENTION_KERNEL");
      k && *k && std::strcmp(k, "cudnn") != 0)
    return false;
  if (backward)
    if (const char *b = std::getenv("PARACC_ATTENTION_BWD");
        b && std::strcmp(b, "recompute") == 0)
      return false;
  return true;
}

/// Whether cuDNN may run an attention with a start operand within its keys
/// (its padding mask with the causal diagonal at the bottom right): yes
/// unless PARACC_CUDNN_PADDED_START=0 (checked against the CPU by
/// runtime/unittests/cuda/AttentionTest.cu's `within` cases on an H100,
/// bench/results/2026-12-06-h100-context-parallel-cudnn-padded).
bool paddedStartEnabled() {
  static const bool on = [] {
    const char *v = std::getenv("PARACC_CUDNN_PADDED_START");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return on;
}

/// The B and H of cuDNN's [B, H, S, D] views: q's heads and k's and v's
/// (fewer under grouped-query attention, which cuDNN takes natively).
/// Sequence-first operands have H after the sequence dim. In the default
/// layout each attention is a batch of its own (B = batch, H = 1) unless k
/// and v have fewer heads: then H is q's last leading dim (and k's is H /
/// kvGroup), as cuDNN pairs query and key heads within a batch.
struct Heads {
  int64_t outer = 0, q = 1, kv = 1;
};

Heads headsOf(const AttentionGeometry &g) {
  if (g.sequenceFirst)
    return {g.batch / g.heads, g.heads, g.heads / g.kvGroup};
  if (g.kvGroup == 1)
    return {g.batch, 1, 1};
  // checkAttention found the kv group on q's last leading dim: the scores
  // are [lead..., H, Sq, Sk].
  const int64_t h = g.scoreShape[g.scoreShape.size() - 3];
  return {g.batch / h, h, h / g.kvGroup};
}

/// A [B, H, S, D] view of an attention operand with `heads` heads of `rows`
/// rows of `cols` (q's heads: AttentionGeometry::base and rowStride as
/// strides; k's and v's: kvBase and kvRowStride).
struct View {
  std::vector<int64_t> dims, strides;
};

View viewOf(const AttentionGeometry &g, int64_t heads, int64_t rows,
            int64_t cols) {
  const int64_t outer = headsOf(g).outer;
  if (g.sequenceFirst || g.kvGroup == 1) // [B, S, H, D] (H = 1: [B, S, D]).
    return {{outer, heads, rows, cols},
            {rows * heads * cols, cols, heads * cols, 1}};
  return {{outer, heads, rows, cols}, // [B, H, S, D].
          {heads * rows * cols, rows * cols, cols, 1}};
}

/// The softmax statistics, [B, H, Sq, 1] f32, packed.
View statsView(const AttentionGeometry &g) {
  const Heads h = headsOf(g);
  return {{h.outer, h.q, g.sq, 1}, {h.q * g.sq, g.sq, 1, 1}};
}

enum Uid : int64_t {
  kQ = 1,
  kK,
  kV,
  kO,
  kStats,
  kDO,
  kDQ,
  kDK,
  kDV,
  kSeqQ,
  kSeqKV
};

/// A start operand within [0, Sk - Sq] (padded): cuDNN sees Sk' = start +
/// Sq keys through its padding mask, the causal diagonal at the bottom
/// right, so query i sees keys j <= i + start.
bool padded(const AttentionGeometry &g) {
  return g.queryStartOperand && g.startWithinKeys;
}

struct PlanKey {
  int device;
  int dtype;
  /// The views' B, q's H and k's and v's H (headsOf), and their layout.
  int64_t batch, heads, kvHeads;
  bool sequenceFirst;
  int64_t sq, sk, d;
  bool causal, padded;
  double scale;
  int direction; ///< 0: forward, 1: forward with statistics, 2: backward.
  bool operator<(const PlanKey &o) const {
    return std::tie(device, dtype, batch, heads, kvHeads, sequenceFirst, sq, sk,
                    d, causal, padded, scale, direction) <
           std::tie(o.device, o.dtype, o.batch, o.heads, o.kvHeads,
                    o.sequenceFirst, o.sq, o.sk, o.d, o.causal, o.padded,
                    o.scale, o.direction);
  }
};

struct Plan {
  std::shared_ptr<fe::graph::Graph> graph; ///< Null: cuDNN does not run it.
  int64_t workspaceBytes = 0;
  /// The forward's own workspace (the Attention instruction has none),
  /// allocated with the plan and kept with it (the backward's rerun of a
  /// forward with statistics uses the rank's workspace instead).
  void *ownWorkspace = nullptr;
  /// Padded: the sequence lengths, [2, batch] int32 (queries, then keys),
  /// written before each launch from its start operand.
  int32_t *seqLens = nullptr;
};

/// Whether these operands are a shape the fused attention takes.
bool shapeSupported(const CudnnAttentionOperands &ops, const char *&why) {
  const AttentionGeometry &g = *ops.geometry;
  if (ops.dtype != DType::BF16 && ops.dtype != DType::F16)
    return why = "element type not bf16/f16", false;
  if (ops.hasMask)
    return why = "an additive mask", false;
  if (g.d != g.dv || g.d % 8 != 0 || g.d > 128)
    return why = "head dims not equal multiples of 8 up to 128", false;
  if (g.queryStartOperand && !g.startWithinKeys)
    return why = "a start that may lie outside [0, Sk - Sq]", false;
  if (g.queryStartOperand && !paddedStartEnabled())
    return why = "a start operand (PARACC_CUDNN_PADDED_START=0)", false;
  if (g.causal && g.sq != g.sk && !g.startWithinKeys)
    return why = "causal with Sq != Sk", false;
  if (g.window > 0)
    return why = "a sliding window", false;
  if (!(g.scale > 0))
    return why = "a scale that is not positive", false;
  if (g.batch == 0 || g.sq == 0 || g.sk == 0 || g.heads <= 0 ||
      g.batch % g.heads != 0)
    return why = "empty operands", false;
  // Grouped-query attention: cuDNN's heads must divide q's (checkAttention
  // made sure).
  const Heads h = headsOf(g);
  if (h.q <= 0 || h.kv <= 0 || h.q % h.kv != 0 || h.outer * h.q != g.batch)
    return why = "k and v heads that do not divide q's", false;
  return true;
}

fe::DataType_t feType(DType t) {
  return t == DType::BF16 ? fe::DataType_t::BFLOAT16 : fe::DataType_t::HALF;
}

using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

TensorPtr addTensor(fe::graph::Graph &graph, const char *name, int64_t uid,
                    const View &v) {
  return graph.tensor(fe::graph::Tensor_attributes()
                          .set_name(name)
                          .set_uid(uid)
                          .set_dim(v.dims)
                          .set_stride(v.strides));
}

/// A padded attention's sequence lengths, [batch, 1, 1, 1] int32.
TensorPtr seqLenTensor(fe::graph::Graph &graph, const AttentionGeometry &g,
                       const char *name, int64_t uid) {
  const int64_t outer = headsOf(g).outer;
  return graph.tensor(fe::graph::Tensor_attributes()
                          .set_name(name)
                          .set_uid(uid)
                          .set_dim({outer, 1, 1, 1})
                          .set_stride({1, 1, 1, 1})
                          .set_data_type(fe::DataType_t::INT32));
}

/// The causal mask of either direction's attributes: at the top left, or
/// for a padded attention at the bottom right of its Sk' = start + Sq keys.
template <typename Attributes>
void setMasks(Attributes &options, fe::graph::Graph &graph,
              const AttentionGeometry &g) {
  if (padded(g))
    options.set_padding_mask(true)
        .set_seq_len_q(seqLenTensor(graph, g, "seq_q", kSeqQ))
        .set_seq_len_kv(seqLenTensor(graph, g, "seq_kv", kSeqKV))
        .set_causal_mask_bottom_right(g.causal);
  else if (g.causal)
    options.set_causal_mask(true);
}

/// Builds the graph of one direction; a null graph (and the reason, when
/// logging) if cuDNN refuses it.
Plan buildPlan(const CudnnAttentionOperands &ops, int direction,
               cudnnHandle_t handle) {
  const AttentionGeometry &g = *ops.geometry;
  auto graph = std::make_shared<fe::graph::Graph>();
  graph->set_io_data_type(feType(ops.dtype))
      .set_intermediate_data_type(fe::DataType_t::FLOAT)
      .set_compute_data_type(fe::DataType_t::FLOAT);
  // k and v (and dk and dv) with their own heads: cuDNN runs grouped-query
  // attention when they divide q's.
  const Heads h = headsOf(g);
  const View qView = viewOf(g, h.q, g.sq, g.d),
             kView = viewOf(g, h.kv, g.sk, g.d),
             vView = viewOf(g, h.kv, g.sk, g.dv),
             oView = viewOf(g, h.q, g.sq, g.dv);
  TensorPtr q = addTensor(*graph, "q", kQ, qView);
  TensorPtr k = addTensor(*graph, "k", kK, kView);
  TensorPtr v = addTensor(*graph, "v", kV, vView);
  const float scale = static_cast<float>(g.scale);
  if (direction < 2) {
    auto options = fe::graph::SDPA_attributes()
                       .set_name("attention")
                       .set_generate_stats(direction == 1)
                       .set_attn_scale(scale);
    setMasks(options, *graph, g);
    auto [o, stats] = graph->sdpa(q, k, v, options);
    o->set_output(true).set_uid(kO).set_dim(oView.dims).set_stride(
        oView.strides);
    if (direction == 1) {
      const View s = statsView(g);
      stats->set_output(true)
          .set_uid(kStats)
          .set_data_type(fe::DataType_t::FLOAT)
          .set_dim(s.dims)
          .set_stride(s.strides);
    }
  } else {
    TensorPtr o = addTensor(*graph, "o", kO, oView);
    TensorPtr dO = addTensor(*graph, "do", kDO, oView);
    TensorPtr stats = addTensor(*graph, "stats", kStats, statsView(g));
    stats->set_data_type(fe::DataType_t::FLOAT);
    auto options = fe::graph::SDPA_backward_attributes()
                       .set_name("attention_grad")
                       .set_attn_scale(scale);
    setMasks(options, *graph, g);
    auto [dq, dk, dv] = graph->sdpa_backward(q, k, v, o, dO, stats, options);
    dq->set_output(true).set_uid(kDQ).set_dim(qView.dims).set_stride(
        qView.strides);
    dk->set_output(true).set_uid(kDK).set_dim(kView.dims).set_stride(
        kView.strides);
    dv->set_output(true).set_uid(kDV).set_dim(vView.dims).set_stride(
        vView.strides);
  }
  // The graph outlives every CUDA graph captured from it (the cache is
  // never cleared), so captured graphs need no references of their own.
  graph->set_cuda_graph_retention(fe::CudaGraphRetention_t::NONE);

  Plan plan;
  int64_t workspace = 0;
  const std::string failure = buildCudnnPlans(*graph, handle, workspace);
  if (failure.empty()) {
    plan.graph = graph;
    plan.workspaceBytes = workspace;
  }
  if (cudnnLogDecisions())
    std::fprintf(stderr,
                 "paracc: cuDNN attention %s B=%lld H=%lld Hkv=%lld Sq=%lld "
                 "Sk=%lld D=%lld%s: %s\n",
                 direction == 2 ? "backward" : "forward", (long long)h.outer,
                 (long long)h.q, (long long)h.kv, (long long)g.sq,
                 (long long)g.sk, (long long)g.d, g.causal ? " causal" : "",
                 plan.graph ? "used" : failure.c_str());
  return plan;
}

/// The cached plan of one direction, built on first use; null graph when
/// cuDNN does not take these operands. `mayBuild` false (under stream
/// capture) only looks.
const Plan *planFor(const CudnnAttentionOperands &ops, int direction,
                    bool mayBuild, cudnnHandle_t &handle) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
    return nullptr;
  const AttentionGeometry &g = *ops.geometry;
  const Heads h = headsOf(g);
  const PlanKey key{device,          int(ops.dtype), h.outer,  h.q, h.kv,
                    g.sequenceFirst, g.sq,           g.sk,     g.d, g.causal,
                    padded(g),       g.scale,        direction};
  static std::mutex mutex;
  static std::map<PlanKey, Plan> plans;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = plans.find(key);
  if (it == plans.end()) {
    if (!mayBuild)
      return nullptr;
    handle = cudnnHandleFor(device);
    if (!handle)
      return nullptr;
    Plan plan;
    try {
      plan = buildPlan(ops, direction, handle);
    } catch (const std::exception &e) {
      if (cudnnLogDecisions())
        std::fprintf(stderr, "paracc: cuDNN attention not used: %s\n",
                     e.what());
      plan = Plan();
    }
    if (plan.graph && direction <= 1 && plan.workspaceBytes > 0 &&
        cudaMalloc(&plan.ownWorkspace, size_t(plan.workspaceBytes)) !=
            cudaSuccess)
      plan = Plan(); // No room: paracc's kernel needs none.
    if (plan.graph && padded(g) &&
        cudaMalloc(reinterpret_cast<void **>(&plan.seqLens),
                   size_t(2 * h.outer) * sizeof(int32_t)) != cudaSuccess)
      plan = Plan();
    it = plans.emplace(key, std::move(plan)).first;
  } else {
    handle = cudnnHandleFor(device);
  }
  return it->second.graph ? &it->second : nullptr;
}

/// Whether cuDNN may run these operands at all (environment, library,
/// shape), before looking for a plan.
bool eligible(const CudnnAttentionOperands &ops, bool backward) {
  const char *why = nullptr;
  return ops.geometry && selectedByEnvironment(backward) &&
         shapeSupported(ops, why) && cudnnLoaded();
}

Status execute(const Plan &plan, const CudnnAttentionOperands &ops,
               cudnnHandle_t handle, std::unordered_map<int64_t, void *> &pack,
               void *workspace, cudaStream_t stream, const char *what) {
  if (plan.seqLens) {
    const AttentionGeometry &g = *ops.geometry;
    const int64_t outer = headsOf(g).outer;
    if (!ops.queryStart)
      return errorf(what, ": a padded attention without its start pointer");
    PARACC_RETURN_IF_ERROR(
        launchPaddedSeqLens(ops.queryStart, plan.seqLens, outer, g.sq, stream));
    pack[kSeqQ] = plan.seqLens;
    pack[kSeqKV] = plan.seqLens + outer;
  }
  try {
    if (fe::detail::set_stream(handle, stream) != CUDNN_STATUS_SUCCESS)
      return errorf(what, ": cudnnSetStream failed");
    fe::error_t e = plan.graph->execute(handle, pack, workspace);
    if (e.is_bad())
      return errorf(what, ": cuDNN failed: ", e.get_message());
  } catch (const std::exception &e) {
    return errorf(what, ": cuDNN failed: ", e.what());
  }
  return Status::ok();
}

constexpr size_t kAlign = 256;
size_t alignUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

/// The backward's workspace: the recomputed output and the statistics
/// (none when saved), then the larger of the cuDNN workspaces it runs.
struct GradWorkspace {
  size_t outputBytes = 0, statsBytes = 0, cudnnBytes = 0;
  size_t total() const { return outputBytes + statsBytes + cudnnBytes; }
};

/// `forward` is null when the statistics are saved (no rerun).
GradWorkspace gradWorkspace(const CudnnAttentionOperands &ops,
                            const Plan *forward, const Plan &backward) {
  const AttentionGeometry &g = *ops.geometry;
  GradWorkspace w;
  if (forward) {
    w.outputBytes =
        alignUp(size_t(g.batch * g.sq * g.dv) * dtypeSize(ops.dtype));
    w.statsBytes = alignUp(size_t(g.batch * g.sq) * sizeof(float));
  }
  w.cudnnBytes =
      alignUp(size_t(std::max(forward ? forward->workspaceBytes : int64_t(0),
                              backward.workspaceBytes)));
  return w;
}

/// The plans the backward runs: the forward with statistics (unless they
/// are saved) and the backward; false when cuDNN does not take them.
bool gradPlans(const CudnnAttentionOperands &ops, bool mayBuild,
               cudnnHandle_t &handle, const Plan *&forward,
               const Plan *&backward) {
  forward = nullptr;
  if (!ops.geometry->savedStats) {
    forward = planFor(ops, 1, mayBuild, handle);
    if (!forward)
      return false;
  }
  backward = planFor(ops, 2, mayBuild, handle);
  return backward != nullptr;
}

} // namespace

Status runCudnnAttention(const CudnnAttentionOperands &ops, const void *q,
                         const void *k, const void *v, void *y, float *stats,
                         cudaStream_t stream, CudnnOutcome &outcome) {
  outcome = CudnnOutcome::NotAvailable;
  if (!eligible(ops, /*backward=*/false) || !aligned16({q, k, v, y}))
    return Status::ok();
  cudnnHandle_t handle = nullptr;
  const Plan *plan =
      planFor(ops, stats ? 1 : 0, !streamIsCapturing(stream), handle);
  if (!plan)
    return Status::ok();
  std::unordered_map<int64_t, void *> pack = {
      {kQ, const_cast<void *>(q)},
      {kK, const_cast<void *>(k)},
      {kV, const_cast<void *>(v)},
      {kO, y}};
  if (stats)
    pack[kStats] = stats;
  PARACC_RETURN_IF_ERROR(execute(*plan, ops, handle, pack,
                                 plan->ownWorkspace, stream, "attention"));
  outcome = CudnnOutcome::Ran;
  return Status::ok();
}

size_t cudnnAttentionGradWorkspaceBytes(const CudnnAttentionOperands &ops) {
  if (!eligible(ops, /*backward=*/true))
    return 0;
  cudnnHandle_t handle = nullptr;
  const Plan *forward = nullptr, *backward = nullptr;
  if (!gradPlans(ops, /*mayBuild=*/true, handle, forward, backward))
    return 0;
  // At least one byte: 0 means that cuDNN will not run these operands.
  return std::max<size_t>(gradWorkspace(ops, forward, *backward).total(), 1);
}

Status runCudnnAttentionGrad(const CudnnAttentionOperands &ops, const void *dy,
                             const void *q, const void *k, const void *v,
                             SavedAttention saved, void *dq, void *dk, void *dv,
                             void *workspace, size_t workspaceBytes,
                             cudaStream_t stream, CudnnOutcome &outcome) {
  outcome = CudnnOutcome::NotAvailable;
  const bool useSaved = ops.geometry && ops.geometry->savedStats;
  if (useSaved != (saved.out && saved.stats))
    return errorf("attention_grad: the saved result and statistics do not "
                  "match the instruction's saved flag");
  if (!eligible(ops, /*backward=*/true) ||
      !aligned16({dy, q, k, v, dq, dk, dv}) ||
      (useSaved && !aligned16({saved.out, saved.stats})))
    return Status::ok();
  const bool mayBuild = !streamIsCapturing(stream);
  cudnnHandle_t handle = nullptr;
  const Plan *forward = nullptr, *backward = nullptr;
  if (!gradPlans(ops, mayBuild, handle, forward, backward))
    return Status::ok();
  const GradWorkspace w = gradWorkspace(ops, forward, *backward);
  if (w.total() > 0 &&
      (workspaceBytes < w.total() || !workspace || !aligned16({workspace})))
    return errorf("attention_grad: the workspace has ", workspaceBytes,
                  " bytes; cuDNN's attention needs ", w.total(),
                  " (attentionGradWorkspaceBytes)");
  char *base = static_cast<char *>(workspace);
  void *output = const_cast<void *>(saved.out);
  void *stats = const_cast<float *>(saved.stats);
  void *scratch = w.cudnnBytes ? base + w.outputBytes + w.statsBytes : nullptr;
  if (forward) {
    output = base;
    stats = base + w.outputBytes;
    std::unordered_map<int64_t, void *> forwardPack = {
        {kQ, const_cast<void *>(q)},
        {kK, const_cast<void *>(k)},
        {kV, const_cast<void *>(v)},
        {kO, output},
        {kStats, stats}};
    PARACC_RETURN_IF_ERROR(execute(*forward, ops, handle, forwardPack,
                                   scratch, stream,
                                   "attention_grad (forward)"));
  }
  std::unordered_map<int64_t, void *> backwardPack = {
      {kQ, const_cast<void *>(q)},
      {kK, const_cast<void *>(k)},
      {kV, const_cast<void *>(v)},
      {kO, output},
      {kDO, const_cast<void *>(dy)},
      {kStats, stats},
      {kDQ, dq},
      {kDK, dk},
      {kDV, dv}};
  // Padded: cuDNN leaves the gradients of the keys past Sk' unwritten;
  // they are zero. (dk and dv have k's and v's heads.)
  if (padded(*ops.geometry)) {
    const AttentionGeometry &g = *ops.geometry;
    const size_t es = dtypeSize(ops.dtype);
    const int64_t kvBatch = g.batch / g.kvGroup;
    if (cudaMemsetAsync(dk, 0, size_t(kvBatch * g.sk * g.d) * es, stream) !=
            cudaSuccess ||
        cudaMemsetAsync(dv, 0, size_t(kvBatch * g.sk * g.dv) * es, stream) !=
            cudaSuccess)
      return errorf("attention_grad: clearing dk and dv failed");
  }
  PARACC_RETURN_IF_ERROR(execute(*backward, ops, handle, backwardPack,
                                 scratch, stream, "attention_grad"));
  outcome = CudnnOutcome::Ran;
  return Status::ok();
}

#endif // PARACC_HAVE_CUDNN_FRONTEND

} // namespace paracc::rt::cuda
