//===- AutoPlan.cpp - --mesh auto: the planner's choice, compiled --------===//

#include "paracc/Driver/Plan.h"

#include "paracc/runtime/GpuRunner.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <thread>

using namespace mlir;
using namespace mlir::paracc;

#ifdef PARACC_HAVE_CUDA
/// This machine's GPUs as a cluster spec: the kind whose table stands for
/// them (by name, else by compute capability), their memory, and PCIe
/// bandwidth between them when some pair has no peer access. `origin`
/// says what was found. Empty when there is no GPU.
static std::string probeLocalGpus(std::string &origin) {
  auto probe = ::paracc::rt::probeCudaDevices();
  if (!probe)
    return "";
  const ::paracc::rt::CudaDeviceSummary &gpu = *probe;
  std::string kind = deviceKindForName(gpu.name, gpu.memoryBytes).str();
  std::string table = kind + " table";
  if (kind.empty()) {
    kind = gpu.major >= 9 ? "h100" : "a100";
    table = "no table for it: " + kind + "'s";
  }
  double gib = double(gpu.memoryBytes) / double(int64_t(1) << 30);
  std::string spec =
      llvm::formatv("1x{0}:{1},memory={2:F6}", gpu.count, kind, gib).str();
  // Without peer access the devices reach each other through the host:
  // PCIe 4.0 x16's ~20 GB/s in practice.
  const bool pcie = gpu.count > 1 && !gpu.peerAccess;
  if (pcie)
    spec += ",intra=20";
  origin = llvm::formatv("local: {0} x {1} (sm_{2}{3}, {4:F1} GiB{5}), {6}",
                         gpu.count, gpu.name, gpu.major, gpu.minor, gib,
                         gpu.count > 1 ? (pcie ? ", no peer access: PCIe"
                                               : ", peer access")
                                       : "",
                         table)
               .str();
  return spec;
}
#endif

std::optional<Cluster> mlir::paracc::resolveCluster(StringRef text,
                                                    Device device,
                                                    std::string &error) {
  std::string spec = text.str(), origin;
  if (text == "local") {
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    spec = "1x" + std::to_string(cores) + ":cpu";
    origin = "local: " + std::to_string(cores) + " CPU core(s) as CPU ranks";
#ifdef PARACC_HAVE_CUDA
    if (device != Device::Cpu)
      if (std::string gpus = probeLocalGpus(origin); !gpus.empty())
        spec = gpus;
#endif
  }
  std::optional<Cluster> cluster = parseCluster(spec, error);
  if (cluster)
    cluster->origin = origin;
  return cluster;
}

FailureOr<PlanCandidate>
mlir::paracc::chooseAutoPlan(MLIRContext &context, const ModelSource &source,
                             CompileOptions &options, const Cluster &cluster,
                             CompileDiagnostics &diagnostics) {
  FailureOr<ModelProfile> model = profileModel(
      context, source, options, cluster, /*maxTensorParallel=*/0, diagnostics);
  if (failed(model))
    return failure();
  PlanRequest request;
  request.cluster = cluster;
  request.globalBatch = model->batch;
  request.top = 2;
  // The GPU runtime runs pipelined executables on CPU ranks only for now.
  request.allowPipeline = cluster.device.name == "cpu";
  // Nor has it expert parallelism's exchange.
  request.allowExpertParallel = cluster.device.name == "cpu";
  PlanSearchResult result = searchPlans(*model, request);
  const bool training = options.training.has_value();
  if (result.candidates.empty()) {
    diagnostics.errors << "paracc: error: --mesh auto: "
                       << noPlanFits(result, cluster, training) << "\n";
    return failure();
  }
  const PlanCandidate &best = result.candidates.front();
  const ParallelPlan &plan = best.plan;
  options.mesh = plan.mesh() == "one rank" ? "" : plan.mesh();
  options.sequenceParallel = plan.sequenceParallel;
  options.cpAttention = plan.cpAttention;
  options.microbatches = plan.microbatches;
  options.schedule = plan.schedule;
  options.virtualStages = plan.virtualStages;
  if (training) {
    options.training->recompute = plan.recompute;
    options.training->zero = plan.zero;
    options.training->zeroShardSize = plan.zeroShardSize;
  }
  diagnostics.notes << llvm::formatv(
      "paracc: --mesh auto on {0}: {1} (predicted step {2:F4} s, peak "
      "{3:F3} GiB per rank; {4} plans in {5:F2} s)\n",
      cluster.origin.empty() ? cluster.str()
                             : cluster.str() + " (" + cluster.origin + ")",
      plan.describe(training), best.predicted.stepSeconds,
      best.predicted.peakMemoryBytes / double(int64_t(1) << 30),
      result.enumerated, result.seconds);
  diagnostics.notes.flush();
  return best;
}
