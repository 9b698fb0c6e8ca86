//===- RunDriver.cpp - Inputs, running and checking outputs ----*- C++ -*-===//

#include "paracc/runtime/RunDriver.h"

#include "paracc/runtime/GpuRunner.h"
#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/Rendezvous.h"
#include "paracc/runtime/WorkerProcesses.h"
#ifdef PARACC_HAVE_GLOO
#include "paracc/runtime/GlooCommunicator.h"
#endif

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace paracc::rt;

StatusOr<std::vector<NamedTensor>> paracc::rt::readInputFiles(
    const std::vector<std::pair<std::string, std::string>> &files) {
  std::vector<NamedTensor> tensors;
  for (const auto &[name, path] : files) {
    auto t = readTensorProtoFile(path);
    if (!t)
      return t.status();
    t->name = name;
    tensors.push_back(std::move(*t));
  }
  return tensors;
}

/// Element `i` of `t` as a double.
static double elementAsDouble(const Tensor &t, int64_t i) {
  switch (t.dtype()) {
  case DType::F32:
    return t.as<float>()[i];
  case DType::F64:
    return t.as<double>()[i];
  case DType::F16:
    return float(t.as<Half>()[i]);
  case DType::BF16:
    return float(t.as<BFloat16>()[i]);
  case DType::I8:
    return t.as<int8_t>()[i];
  case DType::I16:
    return t.as<int16_t>()[i];
  case DType::I32:
    return t.as<int32_t>()[i];
  case DType::I64:
    return double(t.as<int64_t>()[i]);
  case DType::U8:
  case DType::Bool:
    return t.as<uint8_t>()[i];
  case DType::U16:
    return t.as<uint16_t>()[i];
  case DType::U32:
    return t.as<uint32_t>()[i];
  case DType::U64:
    return double(t.as<uint64_t>()[i]);
  case DType::Invalid:
    break;
  }
  return 0;
}

Comparison paracc::rt::compareTensors(const Tensor &actual,
                                      const Tensor &expected, double rtol,
                                      double atol) {
  Comparison c;
  if (actual.shape() != expected.shape() ||
      actual.dtype() != expected.dtype()) {
    c.shapeMismatch = true;
    return c;
  }
  bool exact = !isFloatDType(expected.dtype());
  // 16-bit floats compare within two units in the last place at least.
  if (expected.dtype() == DType::BF16)
    rtol = std::max(rtol, 1.0 / 128);
  else if (expected.dtype() == DType::F16)
    rtol = std::max(rtol, 1.0 / 1024);
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    double a = elementAsDouble(actual, i), e = elementAsDouble(expected, i);
    if (std::isnan(a) || std::isnan(e)) {
      if (std::isnan(a) != std::isnan(e)) {
        ++c.mismatches;
        c.maxAbsError = INFINITY;
      }
      continue;
    }
    if (std::isinf(a) || std::isinf(e)) {
      if (a != e) {
        ++c.mismatches;
        c.maxAbsError = INFINITY;
      }
      continue;
    }
    double abs = std::fabs(a - e);
    double rel = abs / std::max(std::fabs(e), 1e-30);
    if (abs == 0)
      rel = 0;
    c.maxAbsError = std::max(c.maxAbsError, abs);
    c.maxRelError = std::max(c.maxRelError, rel);
    if (exact ? a != e : abs > atol + rtol * std::fabs(e))
      ++c.mismatches;
  }
  return c;
}

extern char **environ;

std::string paracc::rt::siblingWorkerBinary() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    return "paracc-run";
  std::string self(buf, size_t(n));
  return self.substr(0, self.rfind('/') + 1) + "paracc-run";
}

/// Local shards of the global inputs for `rank`.
static StatusOr<std::vector<Tensor>>
localInputs(const Executable &exe, const std::vector<Tensor> &global,
            int64_t rank) {
  std::vector<Tensor> local;
  // (The rank's own function: a pipeline's stages may come in any order.)
  const FunctionInfo &f = exe.functions()[exe.rankFunction(0, rank)];
  if (f.inputs.size() != global.size())
    return errorf("rank ", rank, " takes ", f.inputs.size(), " inputs, got ",
                  global.size());
  for (size_t i = 0; i < global.size(); ++i) {
    const PortInfo &in = f.inputs[i];
    const ValueType &t = f.values[in.value];
    auto block = extractBlock(
        global[i], shardOffsets(t.shape, in.sharding, exe.mesh(), rank),
        t.shape);
    if (!block)
      return block.status();
    local.push_back(std::move(*block));
  }
  return local;
}

int paracc::rt::runWorker(std::shared_ptr<const Executable> exe, int64_t rank,
                          const std::string &dir, std::ostream &err) {
#ifdef PARACC_HAVE_GLOO
  if (rank < 0 || rank >= exe->mesh().numRanks()) {
    err << "error: worker rank " << rank << " is outside the mesh\n";
    return kExitError;
  }
  std::vector<Tensor> global;
  for (size_t i = 0; i < exe->inputs().size(); ++i) {
    auto t = readTensorProtoFile(dir + "/input_" + std::to_string(i) + ".pb");
    if (!t) {
      err << "error: " << t.status().message() << "\n";
      return kExitError;
    }
    global.push_back(std::move(t->tensor));
  }
  Status st = checkGlobalInputs(exe->main(), global);
  auto local =
      st ? localInputs(*exe, global, rank) : StatusOr<std::vector<Tensor>>(st);
  if (!local) {
    err << "error: rank " << rank << ": " << local.status().message() << "\n";
    return kExitError;
  }
  ::mkdir((dir + "/store").c_str(), 0700);
  auto world = GlooWorld::withFileStore(exe->mesh(), dir + "/store");
  auto comm = world->communicator(rank);
  RankExecutor executor(exe, rank, *comm);
  std::vector<Tensor> outputs;
  st = executor.prepare();
  if (st)
    st = executor.run(*local, outputs);
  std::string outDir = dir + "/rank_" + std::to_string(rank);
  ::mkdir(outDir.c_str(), 0700);
  // Files are named by the output's index in the signature (a pipeline
  // stage has some of the outputs).
  size_t k = 0;
  for (size_t i = 0; st && i < exe->outputs().size(); ++i) {
    const PortInfo &o = exe->outputs()[i];
    if (o.stage >= 0 && o.stage != exe->stageOf(rank))
      continue;
    if (k >= outputs.size()) {
      st = errorf("rank ", rank, " returned ", outputs.size(), " outputs");
      break;
    }
    st = writeTensorProtoFile(outDir + "/output_" + std::to_string(i) + ".pb",
                              outputs[k++], o.name);
  }
  if (!st) {
    err << "error: " << st.message() << "\n";
    return kExitError;
  }
  return kExitOk;
#else
  err << "error: this runtime was built without Gloo\n";
  return kExitError;
#endif
}

/// Runs every rank as a paracc-run worker process and assembles the global
/// outputs from the shards they write.
static StatusOr<std::vector<Tensor>>
runInProcesses(const Executable &exe, const std::vector<Tensor> &inputs,
               const RunRequest &request) {
  auto folder = makeWorkerFolder(exe, "paracc-run");
  if (!folder)
    return folder.status();
  const std::string dir = *folder, program = workerProgramPath(dir);
  auto cleanup = [&] { removeWorkerFolder(dir); };
  for (size_t i = 0; i < inputs.size(); ++i) {
    Status st =
        writeTensorProtoFile(dir + "/input_" + std::to_string(i) + ".pb",
                             inputs[i], exe.inputs()[i].name);
    if (!st) {
      cleanup();
      return st;
    }
  }
  int64_t ranks = exe.mesh().numRanks();
  std::vector<pid_t> pids;
  for (int64_t r = 0; r < ranks; ++r) {
    auto pid = spawnWorker({request.workerBinary, program, "--worker",
                            std::to_string(r), "--worker-dir", dir},
                           {}, WorkerStreams{workerLogPath(dir, r)});
    if (!pid) {
      for (pid_t p : pids)
        ::kill(p, SIGKILL);
      cleanup();
      return pid.status();
    }
    pids.push_back(*pid);
  }
  // Every rank that failed by itself is reported, in the order they ended
  // (the first to end is most likely the cause).
  std::vector<std::string> failures;
  std::vector<WorkerEnd> ends = waitForWorkers(pids);
  std::vector<size_t> byEnd(ends.size());
  for (size_t r = 0; r < ends.size(); ++r)
    byEnd[ends[r].order] = r;
  for (size_t r : byEnd) {
    if (ends[r].code == kExitOk || ends[r].stopped)
      continue;
    std::string text = workerLog(dir, r);
    if (text.empty())
      text = ends[r].how.empty() ? "exited without a message" : ends[r].how;
    failures.push_back("worker rank " + std::to_string(r) + " failed: " + text);
  }
  Status status;
  if (failures.size() == 1) {
    status = errorf(failures[0]);
  } else if (!failures.empty()) {
    std::string text = std::to_string(failures.size()) + " worker ranks failed";
    for (const std::string &f : failures)
      text += "\n  " + f;
    status = errorf(text);
  }
  if (!status) {
    cleanup();
    return status;
  }
  std::vector<Tensor> global;
  for (const PortInfo &o : exe.outputs()) {
    auto t = Tensor::allocate(o.globalType.dtype, o.globalType.shape);
    if (!t) {
      cleanup();
      return t.status();
    }
    global.push_back(std::move(*t));
  }
  for (int64_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < global.size(); ++i) {
      if (int32_t stage = exe.outputs()[i].stage;
          stage >= 0 && stage != exe.stageOf(r))
        continue;
      auto local = readTensorProtoFile(dir + "/rank_" + std::to_string(r) +
                                       "/output_" + std::to_string(i) + ".pb");
      Status st = local ? insertBlock(global[i], local->tensor,
                                      shardOffsets(local->tensor.shape(),
                                                   exe.outputs()[i].sharding,
                                                   exe.mesh(), r))
                        : local.status();
      if (!st) {
        cleanup();
        return st;
      }
    }
  cleanup();
  return global;
}

std::vector<std::string>
paracc::rt::requestArguments(const RunRequest &request) {
  std::vector<std::string> args;
  for (const auto &[name, file] : request.inputFiles)
    args.insert(args.end(), {"--input", name + "=" + file});
  if (!request.testDataDir.empty())
    args.insert(args.end(), {"--test-data", request.testDataDir});
  if (!request.saveOutputsDir.empty())
    args.insert(args.end(), {"--save-outputs", request.saveOutputsDir});
  auto number = [](double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
  };
  args.insert(args.end(),
              {"--rtol", number(request.rtol), "--atol", number(request.atol),
               "--seed", std::to_string(request.seed), "--device", "gpu"});
  if (request.benchmarkIterations)
    args.insert(args.end(),
                {"--benchmark", std::to_string(request.benchmarkIterations),
                 "--warmup", std::to_string(request.benchmarkWarmup)});
  if (request.profileSteps)
    args.insert(args.end(),
                {"--profile", std::to_string(request.profileSteps)});
  if (!request.profileJsonPath.empty())
    args.insert(args.end(), {"--profile-json", request.profileJsonPath});
  if (request.noGraph)
    args.push_back("--no-cuda-graph");
  if (request.allowTf32)
    args.push_back("--tf32");
  return args;
}

/// Writes `profile` to --profile-json's file, when one was asked for.
static Status writeProfileOutput(const Profile &profile,
                                 const RunRequest &request, std::ostream &out) {
  if (request.profileJsonPath.empty())
    return Status::ok();
  PARACC_RETURN_IF_ERROR(writeProfileJson(request.profileJsonPath, profile));
  out << "wrote the profile to " << request.profileJsonPath << "\n";
  return Status::ok();
}

/// Compares/saves `outputs` as the request asks and prints the report.
static int report(const Executable &exe, const std::vector<Tensor> &outputs,
                  const std::vector<NamedTensor> &expected,
                  const RunRequest &request, std::ostream &out,
                  std::ostream &err) {
  int code = kExitOk;
  if (!request.testDataDir.empty()) {
    if (expected.size() != outputs.size()) {
      err << "error: the test data has " << expected.size()
          << " outputs, the program " << outputs.size() << "\n";
      return kExitMismatch;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::string &name = exe.outputs()[i].name;
      Tensor want =
          adoptSixteenBitFloat(expected[i].tensor, outputs[i].dtype());
      Comparison c =
          compareTensors(outputs[i], want, request.rtol, request.atol);
      out << "output " << i << " '" << name << "' " << outputs[i].typeString()
          << ": ";
      if (c.shapeMismatch) {
        out << "MISMATCH: expected " << expected[i].tensor.typeString() << "\n";
        code = kExitMismatch;
        continue;
      }
      out << std::setprecision(3) << std::scientific << "max abs error "
          << c.maxAbsError << ", max rel error " << c.maxRelError;
      out.unsetf(std::ios::scientific);
      if (c.mismatches) {
        out << ", " << c.mismatches << " element(s) beyond rtol "
            << request.rtol << " atol " << request.atol << ": MISMATCH\n";
        code = kExitMismatch;
      } else {
        out << ": OK\n";
      }
    }
  }
  if (!request.saveOutputsDir.empty()) {
    ::mkdir(request.saveOutputsDir.c_str(), 0755);
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string path =
          request.saveOutputsDir + "/output_" + std::to_string(i) + ".pb";
      Status st = writeTensorProtoFile(path, outputs[i], exe.outputs()[i].name);
      if (!st) {
        err << "error: " << st.message() << "\n";
        return kExitError;
      }
    }
    out << "saved " << outputs.size() << " output(s) to "
        << request.saveOutputsDir << "\n";
  }
  return code;
}

#ifdef PARACC_HAVE_CUDA
/// Global tokens per step: the elements of the first integer input (the
/// token ids), or 0.
static int64_t tokensPerStep(const std::vector<Tensor> &inputs) {
  for (const Tensor &t : inputs)
    if (!isFloatDType(t.dtype()))
      return t.numElements();
  return 0;
}

/// Runs on GPUs: one rank in this process (one GPU, or one rank that a
/// launcher started), or one process per rank started here.
static int runOnGpus(std::shared_ptr<const Executable> exe,
                     const std::vector<Tensor> &inputs,
                     const std::vector<NamedTensor> &expected,
                     const RunRequest &request, int deviceCount,
                     std::ostream &out, std::ostream &err) {
  int64_t ranks = exe->mesh().numRanks();
  LaunchEnvironment env = readLaunchEnvironment();
  if (!env.present && ranks > 1) {
    if (ranks > deviceCount) {
      err << "error: the program has " << ranks << " ranks but this machine "
          << "has " << deviceCount << " GPU(s); run it on the CPU with "
          << "--device cpu, or launch it over more GPUs with torchrun, "
          << "mpirun or srun\n";
      return kExitError;
    }
    // One process per rank, each on its GPU, with a launcher's environment.
    auto folder = makeWorkerFolder(*exe, "paracc-gpu");
    if (!folder) {
      err << "error: " << folder.status().message() << "\n";
      return kExitError;
    }
    const std::string dir = *folder, program = workerProgramPath(dir);
    int port = freeTcpPort();
    std::vector<pid_t> pids;
    for (int64_t r = 0; r < ranks; ++r) {
      std::vector<std::string> args = {request.workerBinary, program};
      for (std::string &a : requestArguments(request))
        args.push_back(a);
      std::vector<std::string> envStrings;
      for (char **e = environ; *e; ++e)
        envStrings.push_back(*e);
      for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{
               {"RANK", std::to_string(r)},
               {"WORLD_SIZE", std::to_string(ranks)},
               {"LOCAL_RANK", std::to_string(r)},
               {"MASTER_ADDR", "127.0.0.1"},
               {"MASTER_PORT", std::to_string(port)},
               {"NCCL_NVLS_ENABLE", "0"}})
        envStrings.push_back(k + "=" + v);
      auto pid =
          spawnWorker(std::move(args), std::move(envStrings),
                      WorkerStreams{r == 0 ? "" : workerLogPath(dir, r)});
      if (!pid) {
        for (pid_t p : pids)
          ::kill(p, SIGKILL);
        err << "error: " << pid.status().message() << "\n";
        return kExitError;
      }
      pids.push_back(*pid);
    }
    // Rank 0 writes to this terminal; the others' logs are shown when they
    // fail by themselves.
    std::vector<WorkerEnd> ends = waitForWorkers(pids);
    int code = ends[0].code;
    if (ends[0].stopped)
      err << "rank 0 was stopped after another rank failed\n";
    for (size_t r = 1; r < ends.size(); ++r) {
      if (ends[r].code == kExitOk || ends[r].stopped)
        continue;
      err << "rank " << r << " failed:\n" << workerLog(dir, r) << "\n";
      if (!ends[r].how.empty())
        err << "(" << ends[r].how << ")\n";
      if (code == kExitOk)
        code = kExitError;
    }
    removeWorkerFolder(dir);
    return code;
  }

  int64_t rank = env.present ? env.rank : 0;
  if (env.present && env.world != ranks) {
    err << "error: the launcher started " << env.world
        << " processes for a program of " << ranks << " ranks\n";
    return kExitError;
  }
  int64_t localRank = env.present ? env.localRank : 0;
  if (localRank >= deviceCount) {
    err << "error: local rank " << localRank << " needs GPU " << localRank
        << " but this machine has " << deviceCount << "\n";
    return kExitError;
  }
  NcclId id{};
  const NcclId *idPtr = nullptr;
  if (ranks > 1) {
    std::vector<uint8_t> bytes;
    if (rank == 0) {
      auto fresh = newNcclId();
      if (!fresh) {
        err << "error: " << fresh.status().message() << "\n";
        return kExitError;
      }
      bytes.assign(fresh->begin(), fresh->end());
    }
    Status st =
        shareBytes(rank, ranks, env.masterAddr, env.masterPort, bytes, 120);
    if (!st || bytes.size() != id.size()) {
      err << "error: " << (st ? "bad NCCL id" : st.message()) << "\n";
      return kExitError;
    }
    std::memcpy(id.data(), bytes.data(), id.size());
    idPtr = &id;
  }
  GpuOptions options;
  options.useGraph = !request.noGraph;
  options.allowTf32 = request.allowTf32;
  auto gpu = GpuRank::create(exe, rank, int(localRank), idPtr, options);
  if (!gpu) {
    err << "error: " << gpu.status().message() << "\n";
    return kExitError;
  }
  auto local = localInputs(*exe, inputs, rank);
  std::vector<Tensor> localOut, global;
  Status st = local ? (*gpu)->run(*local, localOut) : local.status();
  // A second step runs as the captured CUDA graph: what is checked is what
  // a benchmark times.
  if (st)
    st = (*gpu)->run(*local, localOut);
  if (st)
    st = (*gpu)->gatherOutputs(localOut, global);
  if (!st) {
    err << "error: " << st.message() << "\n";
    return kExitError;
  }
  if (rank == 0)
    out << "ran " << ranks << " rank(s) on " << ranks << " GPU(s)\n";
  int code =
      rank == 0 ? report(*exe, global, expected, request, out, err) : kExitOk;
  if (request.benchmarkIterations > 0) {
    auto ms =
        (*gpu)->benchmark(request.benchmarkWarmup, request.benchmarkIterations);
    if (!ms) {
      err << "error: " << ms.status().message() << "\n";
      return kExitError;
    }
    if (rank == 0) {
      int64_t tokens = tokensPerStep(inputs);
      out << std::fixed << std::setprecision(3) << "benchmark: " << *ms
          << " ms/step (median of " << request.benchmarkIterations << " after "
          << request.benchmarkWarmup << " warm-up)";
      if (tokens)
        out << ", " << std::setprecision(0) << tokens / (*ms / 1e3)
            << " tokens/s (" << tokens << " tokens/step)";
      out << "\n";
      out.unsetf(std::ios::fixed);
    }
  }
  if (request.profileSteps > 0) {
    auto profile = (*gpu)->profile(request.profileSteps);
    if (!profile) {
      err << "error: " << profile.status().message() << "\n";
      return kExitError;
    }
    if (rank == 0) {
      out << profile->format();
      if (Status st = writeProfileOutput(*profile, request, out); !st) {
        err << "error: " << st.message() << "\n";
        return kExitError;
      }
    }
  }
  if (rank == 0)
    out << (*gpu)->summary() << "\n";
  return code;
}

#endif // PARACC_HAVE_CUDA

StatusOr<std::vector<Tensor>>
paracc::rt::runOnCpuRanks(std::shared_ptr<const Executable> exe,
                          const std::vector<Tensor> &inputs,
                          const RunRequest &request) {
  if (request.processes && exe->mesh().numRanks() > 1) {
    if (!request.timelinePath.empty())
      return errorf("--timeline records CPU ranks run as threads; drop "
                    "--ranks-as processes");
    if (request.profileSteps > 0)
      return errorf("--profile times CPU ranks run as threads; drop "
                    "--ranks-as processes");
    return runInProcesses(*exe, inputs, request);
  }
  auto communicators = inProcessCommunicators(exe->mesh());
  if (!communicators)
    return communicators.status();
  const bool profiling = request.profileSteps > 0 && request.measuredProfile;
  if (request.timelinePath.empty() && !profiling)
    return runOnCpu(exe, inputs, *communicators);
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(exe->main(), inputs));
  auto ranks = CpuRanks::create(exe, 0, *communicators);
  if (!ranks)
    return ranks.status();
  PARACC_RETURN_IF_ERROR(
      (*ranks)->recordTimeline(!request.timelinePath.empty()));
  auto outputs = (*ranks)->run(inputs);
  if (!outputs)
    return outputs.status();
  if (profiling) {
    // After the checked run, on the same state: rank 0's instructions.
    *request.measuredProfile =
        Profile(0, request.profileSteps, "CPU", exe->costRates());
    // (The ranks end with this function; the profile outlives them.)
    (*ranks)->profileRank(0, request.measuredProfile);
    for (int i = 0; i < request.profileSteps; ++i)
      PARACC_RETURN_IF_ERROR((*ranks)->run(inputs).status());
  }
  if (request.timelinePath.empty())
    return outputs;
  std::vector<TimelineEvent> events = (*ranks)->timeline();
  PARACC_RETURN_IF_ERROR(writeTimeline(request.timelinePath, events, *exe));
  if (request.measuredBubble)
    *request.measuredBubble = measureBubble(events, exe->mesh().numRanks());
  return outputs;
}

int paracc::rt::runAndReport(std::shared_ptr<const Executable> exe,
                             const RunRequest &request, std::ostream &out,
                             std::ostream &err) {
  std::vector<NamedTensor> given, expected;
  if (!request.testDataDir.empty()) {
    auto inputs = readTestDataInputs(request.testDataDir);
    if (!inputs) {
      err << "error: " << inputs.status().message() << "\n";
      return kExitError;
    }
    given = std::move(*inputs);
    auto outputs = readTestDataOutputs(request.testDataDir);
    if (!outputs) {
      err << "error: " << outputs.status().message() << "\n";
      return kExitError;
    }
    expected = std::move(*outputs);
  }
  // Names given with --input must be program inputs, each at most once;
  // test-data tensors keep the looser positional fallback.
  for (size_t i = 0; i < request.inputFiles.size(); ++i) {
    const std::string &name = request.inputFiles[i].first;
    if (name.empty())
      continue;
    bool known = false;
    for (const auto &port : exe->inputs())
      known |= port.name == name;
    if (!known) {
      err << "error: the program has no input named '" << name << "'\n";
      return kExitError;
    }
    for (size_t j = 0; j < i; ++j)
      if (request.inputFiles[j].first == name) {
        err << "error: input '" << name << "' is given twice\n";
        return kExitError;
      }
  }
  auto files = readInputFiles(request.inputFiles);
  if (!files) {
    err << "error: " << files.status().message() << "\n";
    return kExitError;
  }
  for (auto &f : *files)
    given.push_back(std::move(f));
  auto inputs = bindInputs(*exe, given, request.seed);
  if (!inputs) {
    err << "error: " << inputs.status().message() << "\n";
    return kExitError;
  }
#ifndef PARACC_HAVE_CUDA
  if (request.device == "gpu") {
    err << "error: this runtime was built without the CUDA backend\n";
    return kExitError;
  }
#else
  if (request.device != "cpu") {
    auto count = cudaDeviceCount();
    if (count && !request.timelinePath.empty()) {
      err << "error: --timeline records CPU ranks; add --device cpu\n";
      return kExitError;
    }
    if (count)
      return runOnGpus(exe, *inputs, expected, request, *count, out, err);
    if (request.device == "gpu") {
      err << "error: " << count.status().message() << "\n";
      return kExitError;
    }
    err << "note: " << count.status().message() << "; running on the CPU\n";
  }
#endif
  if (request.benchmarkIterations > 0)
    err << "note: --benchmark times GPU steps; this run is on the CPU and "
           "only checks\n";
  auto start = std::chrono::steady_clock::now();
  BubbleMeasurement bubble;
  Profile profile;
  RunRequest timed = request;
  timed.measuredBubble = &bubble;
  timed.measuredProfile = &profile;
  auto outputs = runOnCpuRanks(exe, *inputs, timed);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!outputs) {
    err << "error: " << outputs.status().message() << "\n";
    return kExitError;
  }
  out << "ran " << exe->mesh().numRanks() << " rank(s) on the CPU ("
      << (request.processes && exe->mesh().numRanks() > 1 ? "processes"
                                                          : "threads")
      << ") in " << std::fixed << std::setprecision(3) << seconds * 1e3 << " ms"
      << (request.profileSteps > 0 ? " (with the profiled steps)" : "") << "\n";
  out.unsetf(std::ios::fixed);
  if (request.profileSteps > 0) {
    out << profile.format();
    if (Status st = writeProfileOutput(profile, request, out); !st) {
      err << "error: " << st.message() << "\n";
      return kExitError;
    }
  }
  if (!request.timelinePath.empty())
    out << "wrote the timeline to " << request.timelinePath << " and "
        << timelineSvgPath(request.timelinePath) << "; measured bubble "
        << std::fixed << std::setprecision(3) << bubble.bubble << " over "
        << exe->mesh().numRanks() << " rank(s)\n";
  out.unsetf(std::ios::fixed);
  return report(*exe, *outputs, expected, request, out, err);
}
