//===- Trainer.cpp - The C API's training runs ------------------*- C++ -*-===//

#include "CAPIObjects.h"

#include "paracc/runtime/Training.h"

#include <iostream>
#include <sstream>
#include <streambuf>

namespace prt = ::paracc::rt;
using namespace paracc::capi;

namespace {
/// Drops what is written (the progress lines nobody asked for).
class NullBuffer : public std::streambuf {
protected:
  int overflow(int c) override { return c; }
};
} // namespace

struct paracc_trainer {
  std::shared_ptr<prt::Executable> exe;
  NullBuffer discard;
  std::ostream silent{&discard};
  /// Notes from starting the ranks (why a GPU machine trains on the CPU).
  std::ostringstream notes;
  std::unique_ptr<prt::Trainer> trainer;
  bool finished = false;
};

static bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// The run's request from `options`: data, schedule, log, checkpoints,
/// where it runs.
static paracc_status *trainingRequest(const char *fn,
                                      const paracc_options *options,
                                      const prt::Executable &exe,
                                      prt::TrainingRequest &request) {
  request.dataPath = optionValue(options, "data", "");
  request.dataDir = optionValue(options, "data-dir", "");
  if (request.dataPath.empty() && request.dataDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: a training run needs "
                                    "data (a token file) or data-dir "
                                    "(input_N.pb batch folders)");
  if (!request.dataPath.empty() && !request.dataDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: give data or data-dir, "
                                    "not both");
  request.dataDtype = optionValue(options, "data-dtype", "u16");
  request.dataSeed = uint64_t(optionInteger(options, "data-seed", 0));
  request.steps = optionInteger(options, "steps", 1);
  request.schedule.kind = optionValue(options, "lr-schedule", "constant");
  request.schedule.lr = optionNumber(options, "lr", 3e-4);
  request.schedule.minLr = optionNumber(options, "min-lr", 0.0);
  request.schedule.warmup = optionInteger(options, "warmup", 0);
  request.schedule.steps = request.steps;
  if (prt::Status st = request.schedule.validate(); !st) {
    // (The runtime names the tools' flag; here it is the key.)
    std::string message = st.message();
    if (startsWith(message, "--lr-schedule"))
      message = message.substr(2);
    return makeStatus(PARACC_ERROR, "paracc: error: " + message);
  }
  request.logJsonPath = optionValue(options, "log-json", "");
  request.checkpointDir = optionValue(options, "checkpoint-dir", "");
  request.checkpointEvery = optionInteger(options, "checkpoint-every", 0);
  request.resume = optionFlag(options, "resume");
  if ((request.resume || request.checkpointEvery > 0) &&
      request.checkpointDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: resume and "
                                    "checkpoint-every need checkpoint-dir");
  if (request.checkpointEvery < 0)
    return makeStatus(PARACC_ERROR,
                      "paracc: error: checkpoint-every must be >= 0");
  request.device = optionValue(options, "device", "auto");
  request.allowTf32 = optionFlag(options, "tf32");
  request.noGraph = optionFlag(options, "no-cuda-graph");
  request.identity.optimizer = exe.training();
  request.identity.data =
      request.dataDir.empty() ? request.dataPath : request.dataDir;
  request.identity.dataSeed = request.dataSeed;
  return nullptr;
}

extern "C" {

paracc_status *paracc_trainer_create(const paracc_executable *exe,
                                     const paracc_options *options,
                                     paracc_trainer **out) {
  const char *fn = "paracc_trainer_create";
  if (!exe || !out)
    return invalidArgument(fn, "exe and out must not be null");
  *out = nullptr;
  if (exe->exe->training().empty())
    return invalidArgument(fn, "the executable is not a training step "
                               "(compile it with train=1)");
  return guarded(fn, [&]() -> paracc_status * {
    prt::TrainingRequest request;
    if (paracc_status *bad = trainingRequest(fn, options, *exe->exe, request))
      return bad;
    auto t = std::make_unique<paracc_trainer>();
    t->exe = exe->exe;
    std::ostream &progress =
        optionFlag(options, "progress") ? std::cout : t->silent;
    auto trainer = prt::Trainer::create(t->exe, request, progress, t->notes);
    if (!trainer)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + trainer.status().message());
    t->trainer = std::move(*trainer);
    *out = t.release();
    return nullptr;
  });
}

int64_t paracc_trainer_next_step(const paracc_trainer *t) {
  return t ? t->trainer->nextStep() : 0;
}

int paracc_trainer_finished(const paracc_trainer *t) {
  return !t || t->trainer->finished();
}

paracc_status *paracc_trainer_step(paracc_trainer *t,
                                   paracc_step_record *out) {
  const char *fn = "paracc_trainer_step";
  if (!t)
    return invalidArgument(fn, "trainer is null");
  return guarded(fn, [&]() -> paracc_status * {
    auto record = t->trainer->step();
    if (!record)
      return makeStatus(t->trainer->diverged() ? PARACC_MISMATCH
                                               : PARACC_ERROR,
                        "paracc: error: " + record.status().message());
    if (out)
      *out = paracc_step_record{record->step,  record->loss,
                                record->gradNorm, record->lr,
                                record->tokensPerSecond, record->ms};
    return nullptr;
  });
}

paracc_status *paracc_trainer_finish(paracc_trainer *t) {
  const char *fn = "paracc_trainer_finish";
  if (!t)
    return invalidArgument(fn, "trainer is null");
  if (t->finished)
    return nullptr;
  return guarded(fn, [&]() -> paracc_status * {
    if (prt::Status st = t->trainer->finish(); !st)
      return makeStatus(PARACC_ERROR, "paracc: error: " + st.message());
    t->finished = true;
    return nullptr;
  });
}

paracc_status *paracc_trainer_read_state(const paracc_trainer *t,
                                         size_t index, paracc_tensor *out) {
  const char *fn = "paracc_trainer_read_state";
  if (!t || !out)
    return invalidArgument(fn, "trainer and out must not be null");
  return readState(fn, t->trainer->ranks(), index, *out);
}

void paracc_trainer_free(paracc_trainer *t) { delete t; }

} // extern "C"
