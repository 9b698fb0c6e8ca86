//===- CreateRankGroup.cpp - The ranks a run steps --------------*- C++ -*-===//

#include "paracc/runtime/GpuRunner.h"
#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/ProcessRanks.h"
#ifdef PARACC_HAVE_GLOO
#include "paracc/runtime/GlooCommunicator.h"
#endif
#include "paracc/runtime/RankGroup.h"

#include <ostream>

using namespace paracc::rt;

StatusOr<std::unique_ptr<RankGroup>>
paracc::rt::createRankGroup(std::shared_ptr<const Executable> exe,
                            size_t function, const RankGroupOptions &options,
                            std::ostream &notes) {
  if (options.device != "auto" && options.device != "cpu" &&
      options.device != "gpu")
    return errorf("--device must be auto, cpu or gpu, got '", options.device,
                  "'");
  const bool processes = options.processes && exe->mesh().numRanks() > 1;
  if (processes && options.device == "gpu")
    return errorf("--ranks-as processes runs CPU ranks (--device cpu); on "
                  "GPUs a training run's ranks are threads, one per GPU");
#ifdef PARACC_HAVE_CUDA
  if (options.device != "cpu" && !processes) {
    auto count = cudaDeviceCount();
    const int64_t ranks = exe->mesh().numRanks();
    if (count && (*count >= ranks || options.device == "gpu")) {
      if (function != 0)
        return errorf("the GPU runs an executable's first function; the one "
                      "asked for is function ",
                      function);
      GpuOptions gpu;
      gpu.allowTf32 = options.allowTf32;
      gpu.useGraph = !options.noGraph;
      return createGpuRankGroup(exe, gpu);
    }
    if (options.device == "gpu")
      return count.status();
    if (count)
      notes << "note: the mesh has " << ranks << " ranks and this machine "
            << *count << " GPU(s); running on the CPU\n";
  }
#else
  if (options.device == "gpu")
    return errorf("this runtime was built without the CUDA backend");
#endif
  if (processes) {
    auto group = ProcessRanks::create(exe, function, options.workerBinary);
    if (!group)
      return group.status();
    return std::unique_ptr<RankGroup>(std::move(*group));
  }
  auto communicators = inProcessCommunicators(exe->mesh());
  if (!communicators)
    return communicators.status();
  auto cpu = CpuRanks::create(exe, function, *communicators);
  if (!cpu)
    return cpu.status();
  return std::unique_ptr<RankGroup>(std::move(*cpu));
}

StatusOr<CommunicatorFactory>
paracc::rt::inProcessCommunicators(const Mesh &mesh) {
  if (mesh.numRanks() == 1)
    return CommunicatorFactory();
#ifdef PARACC_HAVE_GLOO
  auto world = GlooWorld::inProcess(mesh);
  return CommunicatorFactory(
      [world](int64_t rank) { return world->communicator(rank); });
#else
  return errorf("this runtime was built without Gloo and cannot run a ",
                mesh.numRanks(), "-rank program on the CPU");
#endif
}
