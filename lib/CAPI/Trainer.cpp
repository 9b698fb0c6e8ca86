//===- Trainer.cpp - The C API's training runs ------------------*- C++ -*-===//

#include "CAPIObjects.h"
#include "ParsedOptions.h"

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

/// The run's request from `options`: data, schedule, log, checkpoints,
/// where it runs.
static paracc_status *trainingRequest(const ParsedOptions &parsed,
                                      const prt::Executable &exe,
                                      prt::TrainingRequest &request) {
  const mlir::paracc::TrainerOptions &trainer = parsed.trainer;
  request.dataPath = trainer.data;
  request.dataDir = trainer.dataDir;
  if (request.dataPath.empty() && request.dataDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: a training run needs "
                                    "data (a token file) or data-dir "
                                    "(input_N.pb batch folders)");
  if (!request.dataPath.empty() && !request.dataDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: give data or data-dir, "
                                    "not both");
  request.dataDtype = trainer.dataDtype;
  request.dataSeed = trainer.dataSeed;
  request.steps = trainer.steps;
  request.schedule.kind = mlir::paracc::stringifyOption(trainer.lrSchedule);
  request.schedule.lr = trainer.lr;
  request.schedule.minLr = trainer.minLr;
  request.schedule.warmup = trainer.warmup;
  request.schedule.steps = request.steps;
  if (prt::Status st = request.schedule.validate(); !st)
    return makeStatus(PARACC_ERROR, "paracc: error: " + st.message());
  request.logJsonPath = trainer.logJson;
  request.checkpointDir = trainer.checkpointDir;
  request.checkpointEvery = trainer.checkpointEvery;
  request.resume = trainer.resume;
  if ((request.resume || request.checkpointEvery > 0) &&
      request.checkpointDir.empty())
    return makeStatus(PARACC_ERROR, "paracc: error: resume and "
                                    "checkpoint-every need checkpoint-dir");
  request.device = mlir::paracc::stringifyOption(parsed.compile.device);
  request.allowTf32 = parsed.run.allowTf32;
  request.noGraph = parsed.run.noCudaGraph;
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
    ParsedOptions parsed;
    std::string error;
    if (!parseOptions(options, parsed, error))
      return makeStatus(PARACC_ERROR, error);
    prt::TrainingRequest request;
    if (paracc_status *bad = trainingRequest(parsed, *exe->exe, request))
      return bad;
    auto t = std::make_unique<paracc_trainer>();
    t->exe = exe->exe;
    std::ostream &progress = parsed.progress ? std::cout : t->silent;
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
