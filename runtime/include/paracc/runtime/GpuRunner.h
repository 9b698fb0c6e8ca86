//===- GpuRunner.h - Running executables on NVIDIA GPUs --------*- C++ -*-===//
//
// One rank of an executable on one GPU: weights uploaded (or generated) once,
// every activation in one arena from the compiler's memory plan (the peak
// is printed before launch), matrix products through cuBLASLt with fused
// bias/GELU epilogues, the other instructions as CUDA kernels (or, for the
// few without one, the CPU kernel), collectives through NCCL on their own
// stream with events, and after the first step the whole step captured as
// a CUDA graph. Without the CUDA backend every entry point returns an
// error saying so.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_GPURUNNER_H
#define PARACC_RUNTIME_GPURUNNER_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Profile.h"
#include "paracc/runtime/RankGroup.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace paracc::rt {

struct GpuOptions {
  /// Capture the step as a CUDA graph after the first run.
  bool useGraph = true;
  /// f32 matrix products and attention on TF32 tensor cores.
  bool allowTf32 = false;
  /// Seconds a step may take before the NCCL communicators are aborted.
  double timeoutSeconds = 300;
  /// Print memory and fallback details.
  bool verbose = false;
};

/// The number of usable CUDA devices, or an error saying why there is none.
StatusOr<int> cudaDeviceCount();

/// This machine's GPUs as a planner sees them (`--cluster local`): their
/// number, the first one's name, memory and compute capability, and
/// whether every pair can reach each other's memory directly (peer access,
/// over NVLink or PCIe).
struct CudaDeviceSummary {
  int count = 0;
  std::string name;
  int64_t memoryBytes = 0;
  int major = 0, minor = 0;
  bool peerAccess = true;
};
StatusOr<CudaDeviceSummary> probeCudaDevices();

using NcclId = std::array<char, 128>;

class GpuRank {
public:
  /// Sets up `rank` of `exe` on `device`; `ncclId` is needed for programs of
  /// more than one rank (every rank passes the same).
  static StatusOr<std::unique_ptr<GpuRank>>
  create(std::shared_ptr<const Executable> exe, int64_t rank, int device,
         const NcclId *ncclId, const GpuOptions &options);
  ~GpuRank();

  /// One step on this rank's input shards; outputs copied back. The state
  /// writes of the step take effect at its end (inside its CUDA graph).
  Status run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  /// This rank's shard of state buffer `index`, copied to the host.
  StatusOr<Tensor> readState(size_t index) const;
  /// Replaces this rank's shard of state buffer `index` (same type).
  Status writeState(size_t index, const Tensor &shard);
  /// Times `iterations` steps (on the inputs of the last run) after
  /// `warmup`: the median milliseconds per step.
  StatusOr<double> benchmark(int warmup, int iterations);
  /// Runs `steps` eager steps with every instruction serialized (a
  /// collective completes before the next instruction starts) and an event
  /// pair around each: the milliseconds per step by instruction kind and
  /// shape, next to the cost model's prediction. Collective over all ranks.
  StatusOr<Profile> profile(int steps);
  /// Gathers every rank's output shards into global outputs on rank 0
  /// (others get an empty vector). Collective over all ranks.
  Status gatherOutputs(const std::vector<Tensor> &local,
                       std::vector<Tensor> &global);
  /// One line: arena and weight bytes, kernels/cuBLASLt/collective/CPU
  /// instruction counts, whether the step runs as a CUDA graph.
  std::string summary() const;
  /// What this rank allocates (arena, state, workspaces; cuBLASLt's 64 MiB
  /// included) and what the device reports in use: in all (CUDA context
  /// and libraries included) and since the rank began (what the rank and
  /// the libraries it calls added).
  std::string memory() const;

  struct Impl;

private:
  explicit GpuRank(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// A fresh NCCL unique id (rank 0 creates it).
StatusOr<NcclId> newNcclId();

/// Every rank of `exe` in this process, rank r on GPU r (the program's first
/// function; its state persists across runs): what `paracc train` steps on
/// GPUs. Fails when the machine has fewer GPUs than the program has ranks.
StatusOr<std::unique_ptr<RankGroup>>
createGpuRankGroup(std::shared_ptr<const Executable> exe,
                   const GpuOptions &options);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_GPURUNNER_H
