//===- RunDriver.cpp - Inputs, running and checking outputs ----*- C++ -*-===//

#include "paracc/runtime/RunDriver.h"

#include "paracc/runtime/Interpreter.h"
#ifdef PARACC_HAVE_GLOO
#include "paracc/runtime/GlooCommunicator.h"
#endif

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <fcntl.h>
#include <sys/stat.h>

using namespace paracc::rt;

static bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

static StatusOr<std::vector<NamedTensor>>
readNumbered(const std::string &dir, const std::string &prefix) {
  std::vector<NamedTensor> tensors;
  for (int i = 0;; ++i) {
    std::string path = dir + "/" + prefix + std::to_string(i) + ".pb";
    if (!fileExists(path))
      break;
    auto t = readTensorProtoFile(path);
    if (!t)
      return t.status();
    tensors.push_back(std::move(*t));
  }
  return tensors;
}

StatusOr<std::vector<NamedTensor>>
paracc::rt::readTestDataInputs(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return errorf("test data folder '", dir, "' does not exist");
  return readNumbered(dir, "input_");
}

StatusOr<std::vector<NamedTensor>>
paracc::rt::readTestDataOutputs(const std::string &dir) {
  return readNumbered(dir, "output_");
}

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

/// Seeded inputs: floats uniform in [-1, 1), integers in [0, 8) (valid
/// token ids for any vocabulary), bools alternating.
static StatusOr<Tensor> randomInput(const ValueType &type, uint64_t seed) {
  auto t = Tensor::allocate(type.dtype, type.shape);
  if (!t)
    return t.status();
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int64_t n = t->numElements();
  for (int64_t i = 0; i < n; ++i) {
    double u = double(next() >> 11) / double(uint64_t(1) << 53) * 2 - 1;
    int64_t k = int64_t(next() % 8);
    switch (type.dtype) {
    case DType::F32:
      t->as<float>()[i] = float(u);
      break;
    case DType::F64:
      t->as<double>()[i] = u;
      break;
    case DType::F16:
      t->as<Half>()[i] = Half(float(u));
      break;
    case DType::BF16:
      t->as<BFloat16>()[i] = BFloat16(float(u));
      break;
    case DType::I64:
      t->as<int64_t>()[i] = k;
      break;
    case DType::I32:
      t->as<int32_t>()[i] = int32_t(k);
      break;
    case DType::Bool:
      t->as<uint8_t>()[i] = uint8_t(k & 1);
      break;
    default:
      // Other integer types: small values in their first byte.
      static_cast<uint8_t *>(t->data())[i * dtypeSize(type.dtype)] =
          uint8_t(k);
      break;
    }
  }
  return t;
}

/// The ONNX backend tests store bfloat16/float16 data as uint16 bits; such
/// a tensor is taken as the 16-bit float type `want`.
static Tensor adoptSixteenBitFloat(const Tensor &t, DType want) {
  if (t.dtype() != DType::U16 || (want != DType::BF16 && want != DType::F16))
    return t;
  auto out = Tensor::allocate(want, t.shape());
  if (!out)
    return t;
  if (t.byteSize())
    std::memcpy(out->data(), t.data(), t.byteSize());
  return std::move(*out);
}

StatusOr<std::vector<Tensor>>
paracc::rt::bindInputs(const Executable &exe,
                       const std::vector<NamedTensor> &given, uint64_t seed) {
  const auto &ports = exe.inputs();
  std::vector<Tensor> bound(ports.size());
  std::vector<bool> used(given.size(), false);
  // By name first.
  for (size_t i = 0; i < ports.size(); ++i)
    for (size_t j = 0; j < given.size(); ++j)
      if (!used[j] && !given[j].name.empty() &&
          given[j].name == ports[i].name) {
        bound[i] = given[j].tensor;
        used[j] = true;
      }
  // Unnamed (or unmatched) tensors by position.
  for (size_t j = 0; j < given.size(); ++j) {
    if (used[j])
      continue;
    bool named = !given[j].name.empty();
    if (named) {
      bool known = false;
      for (const auto &p : ports)
        known |= p.name == given[j].name;
      if (!known && j >= ports.size())
        return errorf("the program has no input named '", given[j].name,
                      "'");
    }
    if (j < ports.size() && !bound[j].isValid()) {
      bound[j] = given[j].tensor;
      used[j] = true;
    } else if (!named) {
      return errorf("input ", j, " has no matching program input");
    }
  }
  for (size_t i = 0; i < ports.size(); ++i) {
    if (bound[i].isValid()) {
      bound[i] = adoptSixteenBitFloat(bound[i], ports[i].globalType.dtype);
      continue;
    }
    auto t = randomInput(ports[i].globalType, seed + i);
    if (!t)
      return t.status();
    bound[i] = std::move(*t);
  }
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(exe, bound));
  return bound;
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
  for (size_t i = 0; i < global.size(); ++i) {
    const PortInfo &in = exe.inputs()[i];
    const ValueType &t = exe.values()[in.value];
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
  Status st = checkGlobalInputs(*exe, global);
  auto local = st ? localInputs(*exe, global, rank)
                  : StatusOr<std::vector<Tensor>>(st);
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
  for (size_t i = 0; st && i < outputs.size(); ++i)
    st = writeTensorProtoFile(outDir + "/output_" + std::to_string(i) + ".pb",
                              outputs[i], exe->outputs()[i].name);
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
  char pattern[] = "/tmp/paracc-run.XXXXXX";
  if (!::mkdtemp(pattern))
    return errorf("cannot create a temporary folder");
  std::string dir = pattern;
  auto cleanup = [&] { std::system(("rm -rf '" + dir + "'").c_str()); };
  std::string program = dir + "/program.pcx";
  {
    std::ofstream f(program, std::ios::binary);
    f.write(reinterpret_cast<const char *>(exe.fileBytes()),
            std::streamsize(exe.fileSize()));
    if (!f) {
      cleanup();
      return errorf("cannot write ", program);
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    Status st = writeTensorProtoFile(dir + "/input_" + std::to_string(i) +
                                         ".pb",
                                     inputs[i], exe.inputs()[i].name);
    if (!st) {
      cleanup();
      return st;
    }
  }
  int64_t ranks = exe.mesh().numRanks();
  std::vector<pid_t> pids;
  for (int64_t r = 0; r < ranks; ++r) {
    std::string rankArg = std::to_string(r);
    std::string log = dir + "/rank_" + rankArg + ".log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> args = {request.workerBinary, program,
                                     "--worker", rankArg, "--worker-dir", dir};
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawn(&pid, request.workerBinary.c_str(), &actions,
                         nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      for (pid_t p : pids)
        ::kill(p, SIGKILL);
      cleanup();
      return errorf("cannot start worker '", request.workerBinary,
                    "': ", std::strerror(rc));
    }
    pids.push_back(pid);
  }
  // Wait for all; one failing worker ends the others (no hang).
  Status status;
  size_t running = pids.size();
  std::vector<bool> done(pids.size(), false);
  while (running) {
    for (size_t r = 0; r < pids.size(); ++r) {
      if (done[r])
        continue;
      int wstatus = 0;
      pid_t got = ::waitpid(pids[r], &wstatus, WNOHANG);
      if (got == 0)
        continue;
      done[r] = true;
      --running;
      bool ok = got == pids[r] && WIFEXITED(wstatus) &&
                WEXITSTATUS(wstatus) == 0;
      if (!ok && status) {
        std::ifstream log(dir + "/rank_" + std::to_string(r) + ".log");
        std::string text((std::istreambuf_iterator<char>(log)),
                         std::istreambuf_iterator<char>());
        status = errorf("worker rank ", r, " failed: ", text);
        for (size_t k = 0; k < pids.size(); ++k)
          if (!done[k])
            ::kill(pids[k], SIGKILL);
      }
    }
    if (running)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
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
  std::function<std::unique_ptr<Communicator>(int64_t)> communicators;
  if (exe->mesh().numRanks() > 1 && !request.processes) {
#ifdef PARACC_HAVE_GLOO
    auto world = GlooWorld::inProcess(exe->mesh());
    communicators = [world](int64_t rank) { return world->communicator(rank); };
#else
    err << "error: this runtime was built without Gloo and cannot run a "
        << exe->mesh().numRanks() << "-rank program on the CPU\n";
    return kExitError;
#endif
  }
  auto start = std::chrono::steady_clock::now();
  auto outputs = request.processes && exe->mesh().numRanks() > 1
                     ? runInProcesses(*exe, *inputs, request)
                     : runOnCpu(exe, *inputs, communicators);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (!outputs) {
    err << "error: " << outputs.status().message() << "\n";
    return kExitError;
  }
  out << "ran " << exe->mesh().numRanks() << " rank(s) on the CPU ("
      << (request.processes && exe->mesh().numRanks() > 1 ? "processes"
                                                          : "threads")
      << ") in "
      << std::fixed << std::setprecision(3) << seconds * 1e3 << " ms\n";
  out.unsetf(std::ios::fixed);
  int code = kExitOk;
  if (!request.testDataDir.empty()) {
    if (expected.size() != outputs->size()) {
      err << "error: the test data has " << expected.size()
          << " outputs, the program " << outputs->size() << "\n";
      return kExitMismatch;
    }
    for (size_t i = 0; i < outputs->size(); ++i) {
      const std::string &name = exe->outputs()[i].name;
      Tensor want = adoptSixteenBitFloat(expected[i].tensor,
                                         (*outputs)[i].dtype());
      Comparison c =
          compareTensors((*outputs)[i], want, request.rtol, request.atol);
      out << "output " << i << " '" << name << "' "
          << (*outputs)[i].typeString() << ": ";
      if (c.shapeMismatch) {
        out << "MISMATCH: expected " << expected[i].tensor.typeString()
            << "\n";
        code = kExitMismatch;
        continue;
      }
      out << std::setprecision(3) << std::scientific
          << "max abs error " << c.maxAbsError << ", max rel error "
          << c.maxRelError;
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
    for (size_t i = 0; i < outputs->size(); ++i) {
      std::string path =
          request.saveOutputsDir + "/output_" + std::to_string(i) + ".pb";
      Status st = writeTensorProtoFile(path, (*outputs)[i],
                                       exe->outputs()[i].name);
      if (!st) {
        err << "error: " << st.message() << "\n";
        return kExitError;
      }
    }
    out << "saved " << outputs->size() << " output(s) to "
        << request.saveOutputsDir << "\n";
  }
  return code;
}
