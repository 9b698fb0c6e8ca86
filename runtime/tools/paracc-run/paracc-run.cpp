//===- paracc-run.cpp - Runs a compiled paracc executable ------*- C++ -*-===//
//
// paracc-run MODEL.pcx [--input NAME=FILE.pb]... [--test-data DIR]
//            [--save-outputs DIR] [--rtol R] [--atol A] [--seed N]
// paracc-run STEP.pcx --data tokens.u16 --steps N [--lr ...]   (training)
//
// Loads and validates the executable, runs every rank of it (GPUs or CPU)
// and reports as `paracc` does. A training executable (`paracc train -o`)
// with --data trains as `paracc train` does, the optimizer's settings
// being those compiled into it. Exit codes: 0 ok, 1 outputs mismatch (or
// a training run stopped on a non-finite loss), 2 error.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/GpuRunner.h"
#include "paracc/runtime/PrintableText.h"
#include "paracc/runtime/ProcessRanks.h"
#include "paracc/runtime/RunDriver.h"
#include "paracc/runtime/Training.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

using namespace paracc::rt;

static const char *kUsage =
    "usage: paracc-run MODEL.pcx [--input NAME=FILE.pb]... [--test-data DIR]\n"
    "                  [--save-outputs DIR] [--rtol R] [--atol A] [--seed N]\n"
    "                  [--ranks-as threads|processes] [--device auto|cpu|gpu]\n"
    "                  [--benchmark N] [--warmup N] [--profile N]\n"
    "                  [--profile-json FILE]\n"
    "                  [--no-cuda-graph] [--tf32] [--timeline FILE.json]\n"
    "       paracc-run STEP.pcx --data FILE|--data-dir DIR [--data-dtype u16|u32]\n"
    "                  [--data-seed N] [--steps N] [--lr LR]\n"
    "                  [--lr-schedule constant|cosine] [--warmup N] [--min-lr LR]\n"
    "                  [--log-json FILE] [--checkpoint-dir DIR]\n"
    "                  [--checkpoint-every N] [--resume] [--device ...]\n"
    "                  [--timeline FILE.json] [--ranks-as threads|processes]\n"
    "       paracc-run --devices   (this machine's GPUs, as `--cluster local`\n"
    "                               sees them)\n";

/// Parses a number option; false on a malformed value.
template <typename T> static bool parseNumber(const char *s, T &out) {
  char *end = nullptr;
  errno = 0;
  if constexpr (std::is_floating_point_v<T>)
    out = std::strtod(s, &end);
  else
    out = T(std::strtoull(s, &end, 10));
  return errno == 0 && end && *end == '\0' && end != s;
}

int main(int argc, char **argv) {
  // Messages quote names and paths read from the executable: keep them text.
  PrintableStreamScope printableOut(std::cout), printableErr(std::cerr);
  RunRequest request;
  request.workerBinary = siblingWorkerBinary();
  TrainingRequest training;
  std::string model, workerDir;
  int64_t workerRank = -1, serveRank = -1;
  size_t serveFunction = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        std::cerr << "error: " << name << " needs a value\n" << kUsage;
        std::exit(kExitError);
      }
      return argv[++i];
    };
    bool ok = true;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return kExitOk;
    } else if (arg == "--devices") {
#ifndef PARACC_HAVE_CUDA
      std::cout << "no GPU: this runtime was built without CUDA\n";
      return kExitOk;
#else
      auto gpus = probeCudaDevices();
      if (!gpus) {
        std::cout << "no GPU: " << gpus.status().message() << "\n";
        return kExitOk;
      }
      std::cout << gpus->count << " x " << gpus->name << " (sm_" << gpus->major
                << gpus->minor << ", " << gpus->memoryBytes << " bytes)"
                << (gpus->count > 1 ? (gpus->peerAccess ? ", peer access"
                                                        : ", no peer access")
                                    : "")
                << "\n";
      return kExitOk;
#endif
    } else if (arg == "--input") {
      std::string v = value("--input");
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "error: --input expects NAME=FILE, got '" << v << "'\n";
        return kExitError;
      }
      request.inputFiles.push_back({v.substr(0, eq), v.substr(eq + 1)});
    } else if (arg == "--test-data") {
      request.testDataDir = value("--test-data");
    } else if (arg == "--save-outputs") {
      request.saveOutputsDir = value("--save-outputs");
    } else if (arg == "--rtol") {
      ok = parseNumber(value("--rtol"), request.rtol);
    } else if (arg == "--atol") {
      ok = parseNumber(value("--atol"), request.atol);
    } else if (arg == "--seed") {
      ok = parseNumber(value("--seed"), request.seed);
    } else if (arg == "--ranks-as") {
      std::string v = value("--ranks-as");
      ok = v == "threads" || v == "processes";
      request.processes = v == "processes";
    } else if (arg == "--device") {
      request.device = value("--device");
      ok = request.device == "auto" || request.device == "cpu" ||
           request.device == "gpu";
    } else if (arg == "--benchmark") {
      ok = parseNumber(value("--benchmark"), request.benchmarkIterations);
    } else if (arg == "--profile") {
      ok = parseNumber(value("--profile"), request.profileSteps);
    } else if (arg == "--profile-json") {
      request.profileJsonPath = value("--profile-json");
    } else if (arg == "--warmup") {
      // Timed steps before the measured ones; when training, the learning
      // rate's linear warm-up.
      const char *v = value("--warmup");
      ok = parseNumber(v, request.benchmarkWarmup) &&
           parseNumber(v, training.schedule.warmup);
    } else if (arg == "--no-cuda-graph") {
      request.noGraph = true;
    } else if (arg == "--tf32") {
      request.allowTf32 = true;
    } else if (arg == "--data") {
      training.dataPath = value("--data");
    } else if (arg == "--data-dir") {
      training.dataDir = value("--data-dir");
    } else if (arg == "--data-dtype") {
      training.dataDtype = value("--data-dtype");
    } else if (arg == "--data-seed") {
      ok = parseNumber(value("--data-seed"), training.dataSeed);
    } else if (arg == "--steps") {
      ok = parseNumber(value("--steps"), training.steps);
    } else if (arg == "--lr") {
      ok = parseNumber(value("--lr"), training.schedule.lr);
    } else if (arg == "--lr-schedule" || arg == "--schedule") {
      // (--schedule: the flag's name before paracc train split it.)
      training.schedule.kind = value(arg.c_str());
    } else if (arg == "--min-lr") {
      ok = parseNumber(value("--min-lr"), training.schedule.minLr);
    } else if (arg == "--log-json") {
      training.logJsonPath = value("--log-json");
    } else if (arg == "--timeline") {
      training.timelinePath = request.timelinePath = value("--timeline");
    } else if (arg == "--checkpoint-dir") {
      training.checkpointDir = value("--checkpoint-dir");
    } else if (arg == "--checkpoint-every") {
      ok = parseNumber(value("--checkpoint-every"), training.checkpointEvery);
    } else if (arg == "--resume") {
      training.resume = true;
    } else if (arg == "--worker") {
      // Internal: one rank of a --ranks-as processes run.
      ok = parseNumber(value("--worker"), workerRank);
    } else if (arg == "--serve") {
      // Internal: one rank of a training run's --ranks-as processes, kept
      // alive and commanded through stdin/stdout (ProcessRanks.h).
      ok = parseNumber(value("--serve"), serveRank);
    } else if (arg == "--serve-function") {
      ok = parseNumber(value("--serve-function"), serveFunction);
    } else if (arg == "--worker-dir") {
      workerDir = value("--worker-dir");
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "error: unknown option '" << arg << "'\n" << kUsage;
      return kExitError;
    } else if (model.empty()) {
      model = arg;
    } else {
      std::cerr << "error: more than one executable given\n" << kUsage;
      return kExitError;
    }
    if (!ok) {
      std::cerr << "error: bad value for " << arg << "\n";
      return kExitError;
    }
  }
  if (model.empty()) {
    std::cerr << kUsage;
    return kExitError;
  }
  auto exe = Executable::loadFile(model);
  if (!exe) {
    std::cerr << "error: " << exe.status().message() << "\n";
    return kExitError;
  }
  if (workerRank >= 0)
    return runWorker(*exe, workerRank, workerDir, std::cerr);
  if (serveRank >= 0)
    return paracc::rt::serveRank(*exe, serveRank, serveFunction, workerDir,
                                 std::cin, std::cout);
  const bool isStep = (*exe)->findFunction("step") >= 0;
  // A step without --data is timed or profiled like any program (its
  // tokens seeded random, lr 1e-4, step 1).
  const bool timing = request.benchmarkIterations > 0 || request.profileSteps > 0;
  const bool hasData = !training.dataPath.empty() || !training.dataDir.empty();
  if (hasData || (isStep && !timing)) {
    if (!isStep) {
      std::cerr << "error: --data trains a training executable (paracc "
                   "train -o STEP.pcx); '"
                << model << "' has no step function\n";
      return kExitError;
    }
    if (!hasData) {
      std::cerr << "error: '" << model << "' is a training step: give it "
                << "--data FILE (token ids) or --data-dir DIR (input_N.pb "
                   "batches) to train\n";
      return kExitError;
    }
    training.schedule.steps = training.steps;
    if (Status st = training.schedule.validate(); !st) {
      std::cerr << "error: " << st.message() << "\n";
      return kExitError;
    }
    if ((training.resume || training.checkpointEvery > 0) &&
        training.checkpointDir.empty()) {
      std::cerr << "error: --resume and --checkpoint-every need "
                   "--checkpoint-dir DIR\n";
      return kExitError;
    }
    training.device = request.device;
    training.allowTf32 = request.allowTf32;
    training.noGraph = request.noGraph;
    training.processes = request.processes;
    training.workerBinary = request.workerBinary;
    training.identity.optimizer = (*exe)->training();
    training.identity.data =
        training.dataDir.empty() ? training.dataPath : training.dataDir;
    training.identity.dataSeed = training.dataSeed;
    return runTraining(*exe, training, std::cout, std::cerr);
  }
  return runAndReport(*exe, request, std::cout, std::cerr);
}
