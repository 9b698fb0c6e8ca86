//===- Training.cpp - The training loop over a step executable -*- C++ -*-===//

#include "paracc/runtime/Training.h"
#include "paracc/runtime/GpuRunner.h"
#include "paracc/runtime/Inputs.h"
#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/RankGroup.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <future>
#include <iomanip>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>

#include <dirent.h>
#include <sys/stat.h>

using namespace paracc::rt;

double LrSchedule::at(int64_t step) const {
  if (kind == "constant")
    return lr;
  if (step < warmup)
    return lr * double(step + 1) / double(warmup);
  int64_t decay = steps - warmup;
  if (decay <= 0)
    return lr;
  double progress = double(step - warmup) / double(decay);
  return minLr + (lr - minLr) * 0.5 * (1.0 + std::cos(M_PI * progress));
}

Status LrSchedule::validate() const {
  if (kind != "constant" && kind != "cosine")
    return errorf("--lr-schedule must be constant or cosine, got '", kind, "'");
  if (!std::isfinite(lr) || !(lr > 0))
    return errorf("--lr must be a finite number > 0, got ", lr);
  if (!std::isfinite(minLr) || !(minLr >= 0))
    return errorf("--min-lr must be a finite number >= 0, got ", minLr);
  if (steps < 1 || warmup < 0 || warmup > steps)
    return errorf("--steps must be >= 1 and --warmup in [0, --steps]");
  return Status::ok();
}

StatusOr<TokenData> TokenData::load(const std::string &path,
                                    const std::string &dtype, int64_t batch,
                                    int64_t seq) {
  if (dtype != "u16" && dtype != "u32")
    return errorf("--data-dtype must be u16 or u32, got '", dtype, "'");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return errorf("cannot read the token file '", path, "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  size_t width = dtype == "u16" ? 2 : 4;
  if (bytes.size() % width != 0)
    return errorf(path, ": ", bytes.size(), " bytes is not a whole number of ",
                  dtype, " tokens");
  TokenData data;
  data.batch_ = batch;
  data.seq_ = seq;
  data.tokens_.resize(bytes.size() / width);
  for (size_t i = 0; i < data.tokens_.size(); ++i) {
    uint64_t v = 0;
    for (size_t b = 0; b < width; ++b)
      v |= uint64_t(bytes[i * width + b]) << (8 * b);
    data.tokens_[i] = int64_t(v);
  }
  int64_t window = batch * seq;
  data.windows_ = window > 0 ? int64_t(data.tokens_.size()) / window : 0;
  if (data.windows_ == 0)
    return errorf(path, ": ", data.tokens_.size(),
                  " tokens are fewer than "
                  "one batch (",
                  batch, " x ", seq, " = ", window, ")");
  return data;
}

int64_t EpochOrder::window(int64_t step, int64_t windows, uint64_t seed) const {
  int64_t window = step % windows;
  if (seed == 0)
    return window;
  // A reproducible shuffle per epoch, made once per epoch.
  int64_t epoch = step / windows;
  if (epoch != epoch_ || int64_t(order_.size()) != windows) {
    order_.resize(windows);
    std::iota(order_.begin(), order_.end(), 0);
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + uint64_t(epoch));
    for (int64_t i = windows - 1; i > 0; --i)
      std::swap(order_[i], order_[rng() % uint64_t(i + 1)]);
    epoch_ = epoch;
  }
  return order_[window];
}

StatusOr<BatchFolders> BatchFolders::open(const std::string &dir) {
  auto isBatch = [](const std::string &d) {
    struct stat st;
    return ::stat((d + "/input_0.pb").c_str(), &st) == 0 && S_ISREG(st.st_mode);
  };
  BatchFolders b;
  if (isBatch(dir)) {
    b.folders_.push_back(dir);
    return b;
  }
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return errorf("cannot read the batch folder '", dir, "'");
  while (const dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != ".." && isBatch(dir + "/" + name))
      b.folders_.push_back(dir + "/" + name);
  }
  ::closedir(d);
  std::sort(b.folders_.begin(), b.folders_.end());
  if (b.folders_.empty())
    return errorf("'", dir,
                  "' has no batches: it needs input_0.pb, or "
                  "subfolders with input_0.pb, input_1.pb, ... (one per "
                  "data input, in graph input order)");
  return b;
}

Tensor TokenData::batch(int64_t step, uint64_t seed) const {
  const int64_t window = order_.window(step, windows_, seed);
  Tensor t = *Tensor::allocate(DType::I64, {batch_, seq_});
  const int64_t *from = tokens_.data() + window * batch_ * seq_;
  std::copy(from, from + batch_ * seq_, t.as<int64_t>());
  return t;
}

namespace {
double scalarValue(const Tensor &t) {
  switch (t.dtype()) {
  case DType::F32:
    return t.as<float>()[0];
  case DType::F64:
    return t.as<double>()[0];
  default:
    return NAN;
  }
}

Tensor f32Scalar(double v) {
  Tensor t = *Tensor::allocate(DType::F32, {});
  t.as<float>()[0] = float(v);
  return t;
}

/// JSON has no NaN or infinity: those become null.
std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  std::ostringstream os;
  os << std::setprecision(9) << v;
  return os.str();
}

/// A batch folder's input_N.pb, checked against the step's data inputs
/// (every input but lr and step, in order).
StatusOr<std::vector<Tensor>> folderInputs(const FunctionSignature &f,
                                           const std::string &folder) {
  auto given = readTestDataInputs(folder);
  if (!given)
    return given.status();
  std::vector<Tensor> inputs;
  size_t i = 0;
  for (const PortInfo &in : f.inputs) {
    if (in.name == "lr" || in.name == "step")
      continue;
    if (i >= given->size())
      return errorf(folder, " has ", given->size(),
                    " input_N.pb; the step takes data input '", in.name,
                    "' as input_", i, ".pb");
    Tensor &t = (*given)[i].tensor;
    if (t.dtype() != in.globalType.dtype || t.shape() != in.globalType.shape)
      return errorf(folder, "/input_", i, ".pb is ", t.typeString(),
                    "; the step's input '", in.name, "' is ",
                    dtypeName(in.globalType.dtype),
                    shapeToString(in.globalType.shape));
    inputs.push_back(std::move(t));
    ++i;
  }
  if (i != given->size())
    return errorf(folder, " has ", given->size(),
                  " input_N.pb; the step takes ", i, " data input(s)");
  return inputs;
}

/// The step's expert_tokens table [L, E]: counts per layer and expert, and
/// each layer's largest over its mean.
RoutingStats routingStats(const Tensor &table) {
  RoutingStats r;
  const int64_t layers = table.dim(0), experts = table.dim(1);
  const float *counts = table.as<float>();
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<int64_t> row(counts + l * experts, counts + (l + 1) * experts);
    const int64_t total = std::accumulate(row.begin(), row.end(), int64_t(0));
    const int64_t most =
        experts ? *std::max_element(row.begin(), row.end()) : 0;
    r.maxOverMean.push_back(
        total ? double(most) * double(experts) / double(total) : 0.0);
    r.tokens.push_back(std::move(row));
  }
  return r;
}

/// The step's expert_dropped [L]: the slots each layer's capacity dropped.
void addDroppedSlots(RoutingStats &r, const Tensor &perLayer) {
  const float *dropped = perLayer.as<float>();
  for (int64_t l = 0; l < perLayer.dim(0); ++l)
    r.dropped.push_back(int64_t(dropped[l]));
}

/// ", "expert_tokens": [[...], ...], "expert_max_over_mean": [...]"
/// [, "expert_dropped": [...]].
void writeRoutingStats(std::ostream &log, const RoutingStats &r) {
  log << ", \"expert_tokens\": [";
  for (size_t l = 0; l < r.tokens.size(); ++l) {
    log << (l ? ", [" : "[");
    for (size_t e = 0; e < r.tokens[l].size(); ++e)
      log << (e ? ", " : "") << r.tokens[l][e];
    log << "]";
  }
  log << "], \"expert_max_over_mean\": [";
  for (size_t l = 0; l < r.maxOverMean.size(); ++l)
    log << (l ? ", " : "") << jsonNumber(r.maxOverMean[l]);
  log << "]";
  if (r.dropped.empty())
    return;
  log << ", \"expert_dropped\": [";
  for (size_t l = 0; l < r.dropped.size(); ++l)
    log << (l ? ", " : "") << r.dropped[l];
  log << "]";
}

std::string duration(double seconds) {
  int64_t s = int64_t(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", (long long)(s / 3600),
                (long long)(s / 60 % 60), (long long)(s % 60));
  return text;
}
} // namespace

double RoutingStats::droppedShare() const {
  int64_t slots = 0;
  for (const std::vector<int64_t> &row : tokens)
    slots = std::accumulate(row.begin(), row.end(), slots);
  const int64_t lost =
      std::accumulate(dropped.begin(), dropped.end(), int64_t(0));
  return slots ? double(lost) / double(slots) : 0.0;
}

struct Trainer::Data {
  std::optional<TokenData> tokens;
  std::optional<BatchFolders> folders;
  /// The batch folder of step `prefetchedStep`, read while the step before
  /// it runs.
  std::future<StatusOr<std::vector<Tensor>>> prefetched;
  int64_t prefetchedStep = -1;
};

Trainer::Trainer() = default;
Trainer::~Trainer() = default;

StatusOr<std::unique_ptr<Trainer>>
Trainer::create(std::shared_ptr<const Executable> exe,
                const TrainingRequest &request, std::ostream &out,
                std::ostream &err) {
  int function = exe->findFunction("step");
  if (function < 0)
    return errorf("the executable has no 'step' function (compile it with "
                  "paracc train)");
  std::unique_ptr<Trainer> t(new Trainer);
  t->exe_ = exe;
  t->request_ = request;
  t->out_ = &out;
  t->function_ = size_t(function);
  // (A pipelined step's ports: its stages' inputs and all their outputs.)
  const FunctionSignature &f = exe->signature(function);
  // Inputs: lr and step from the schedule; the others from the data: every
  // integer input takes the token batch, or a batch folder gives them all.
  const bool folders = !request.dataDir.empty();
  int64_t batch = 0, seq = 0;
  for (const PortInfo &in : f.inputs) {
    if (in.name == "lr" || in.name == "step")
      continue;
    if (folders) {
      // Tokens for the tok/s figure: the first integer input's elements.
      if (t->tokensPerStep_ == 0 && !isFloatDType(in.globalType.dtype))
        t->tokensPerStep_ = shapeNumElements(in.globalType.shape);
      continue;
    }
    const Shape &s = in.globalType.shape;
    if ((in.globalType.dtype != DType::I64 &&
         in.globalType.dtype != DType::I32) ||
        s.size() != 2)
      return errorf("--data feeds token models: input '", in.name, "' is ",
                    dtypeName(in.globalType.dtype), shapeToString(s),
                    ", not [batch, seq] token ids (train other models from "
                    "batch folders with --data-dir)");
    batch = s[0];
    seq = s[1];
    t->tokensPerStep_ = batch * seq;
  }
  // loss, grad_norm[, grad_sq: each parameter's sum of squared gradients]
  // [, expert_tokens: [L, E] slots per expert of each MoE layer]
  const std::vector<std::string> &parts = exe->gradientNormParts();
  size_t next = 2;
  t->hasParts_ =
      f.outputs.size() > next && f.outputs[next].name == "grad_sq" &&
      f.outputs[next].globalType.dtype == DType::F32 &&
      f.outputs[next].globalType.shape == Shape{int64_t(parts.size())};
  next += t->hasParts_ ? 1 : 0;
  if (f.outputs.size() > next && f.outputs[next].name == "expert_tokens" &&
      f.outputs[next].globalType.dtype == DType::F32 &&
      f.outputs[next].globalType.shape.size() == 2)
    t->expertTokensOutput_ = next++;
  if (t->expertTokensOutput_ && f.outputs.size() > next &&
      f.outputs[next].name == "expert_dropped" &&
      f.outputs[next].globalType.dtype == DType::F32 &&
      f.outputs[next].globalType.shape ==
          Shape{f.outputs[*t->expertTokensOutput_].globalType.shape[0]})
    t->expertDroppedOutput_ = next++;
  if (f.outputs.size() < 2 || f.outputs.size() != next)
    return errorf("the step function must return the loss and grad_norm "
                  "(then grad_sq, one sum of squares per parameter, "
                  "expert_tokens, [layers, experts] f32, and expert_dropped, "
                  "[layers] f32, if any)");
  t->data_ = std::make_unique<Data>();
  if (folders) {
    auto b = BatchFolders::open(request.dataDir);
    if (!b)
      return b.status();
    t->data_->folders = std::move(*b);
  } else {
    auto data =
        TokenData::load(request.dataPath, request.dataDtype, batch, seq);
    if (!data)
      return data.status();
    t->data_->tokens = std::move(*data);
  }
  const int64_t windows =
      folders ? t->data_->folders->windows() : t->data_->tokens->windows();
  RankGroupOptions rankOptions;
  rankOptions.device = request.device;
  rankOptions.allowTf32 = request.allowTf32;
  rankOptions.noGraph = request.noGraph;
  rankOptions.processes = request.processes;
  rankOptions.workerBinary = request.workerBinary;
  auto ranks = createRankGroup(exe, t->function_, rankOptions, err);
  if (!ranks)
    return ranks.status();
  t->ranks_ = std::move(*ranks);
  if (!request.logJsonPath.empty()) {
    t->log_ =
        std::make_unique<std::ofstream>(request.logJsonPath, std::ios::trunc);
    if (!*t->log_)
      return errorf("cannot write '", request.logJsonPath, "'");
  }
  out << "training " << request.steps << " step(s) of ";
  if (folders)
    out << "the batches in " << request.dataDir;
  else
    out << batch << "x" << seq << " tokens";
  out << " on " << t->ranks_->describe() << "; " << windows
      << " batch(es) per epoch\n";
  if (request.resume) {
    auto step = loadCheckpoint(request.checkpointDir, *exe, *t->ranks_,
                               request.identity);
    if (!step)
      return step.status();
    t->first_ = t->next_ = *step;
    out << "resumed from " << request.checkpointDir << " at step " << t->first_
        << "\n";
  }
  // (A group that cannot record says so before the first step.)
  if (!request.timelinePath.empty()) {
    PARACC_RETURN_IF_ERROR(t->ranks_->recordTimeline(true));
    (void)t->ranks_->recordTimeline(false);
  }
  t->start_ = std::chrono::steady_clock::now();
  return t;
}

Status Trainer::saveCheckpointAt(int64_t nextStep) {
  return saveCheckpoint(request_.checkpointDir, *exe_, *ranks_, nextStep,
                        request_.identity);
}

StatusOr<StepRecord> Trainer::step() {
  if (finished())
    return errorf("the run's ", request_.steps, " step(s) are done");
  const int64_t k = next_;
  std::ostream &out = *out_;
  const FunctionSignature &f = exe_->signature(function_);
  const bool folders = data_->folders.has_value();
  double lr = request_.schedule.at(k);
  StatusOr<std::vector<Tensor>> dataInputs = std::vector<Tensor>();
  if (folders) {
    if (data_->prefetchedStep == k) {
      dataInputs = data_->prefetched.get();
      data_->prefetchedStep = -1;
    } else {
      dataInputs =
          folderInputs(f, data_->folders->folderFor(k, request_.dataSeed));
    }
    // The next step's batch is read from disk while this step runs.
    if (dataInputs && k + 1 < request_.steps) {
      std::string next = data_->folders->folderFor(k + 1, request_.dataSeed);
      data_->prefetched = std::async(
          std::launch::async, [&f, next] { return folderInputs(f, next); });
      data_->prefetchedStep = k + 1;
    }
  }
  if (!dataInputs)
    return dataInputs.status().withContext("step " + std::to_string(k));
  Tensor tokens;
  if (!folders)
    tokens = data_->tokens->batch(k, request_.dataSeed);
  std::vector<Tensor> inputs;
  size_t nextData = 0;
  for (const PortInfo &in : f.inputs) {
    if (in.name == "lr")
      inputs.push_back(f32Scalar(lr));
    else if (in.name == "step")
      inputs.push_back(f32Scalar(double(k + 1)));
    else if (folders)
      inputs.push_back(std::move((*dataInputs)[nextData++]));
    else if (in.globalType.dtype == DType::I32) {
      Tensor t = *Tensor::allocate(DType::I32, tokens.shape());
      for (int64_t i = 0; i < tokens.numElements(); ++i)
        t.as<int32_t>()[i] = int32_t(tokens.as<int64_t>()[i]);
      inputs.push_back(std::move(t));
    } else
      inputs.push_back(tokens);
  }
  // The timeline shows the last step (the first ones warm up).
  const bool recordThisStep =
      !request_.timelinePath.empty() && k + 1 == request_.steps;
  if (recordThisStep)
    PARACC_RETURN_IF_ERROR(ranks_->recordTimeline(true));
  auto stepStart = std::chrono::steady_clock::now();
  auto outputs = ranks_->run(inputs);
  auto now = std::chrono::steady_clock::now();
  if (!outputs)
    return outputs.status().withContext("step " + std::to_string(k));
  if (recordThisStep) {
    std::vector<TimelineEvent> events = ranks_->timeline();
    PARACC_RETURN_IF_ERROR(writeTimeline(request_.timelinePath, events, *exe_));
    BubbleMeasurement b = measureBubble(events, exe_->mesh().numRanks());
    char bubble[32];
    std::snprintf(bubble, sizeof bubble, "%.3f", b.bubble);
    out << "wrote step " << (k + 1) << "'s timeline to "
        << request_.timelinePath << " and "
        << timelineSvgPath(request_.timelinePath) << "; measured bubble "
        << bubble << " over " << exe_->mesh().numRanks() << " rank(s)\n";
    (void)ranks_->recordTimeline(false);
  }
  StepRecord record;
  record.step = k;
  record.lr = lr;
  record.loss = scalarValue((*outputs)[0]);
  record.gradNorm = scalarValue((*outputs)[1]);
  if (expertTokensOutput_)
    record.experts = routingStats((*outputs)[*expertTokensOutput_]);
  if (expertDroppedOutput_)
    addDroppedSlots(record.experts, (*outputs)[*expertDroppedOutput_]);
  record.ms =
      std::chrono::duration<double, std::milli>(now - stepStart).count();
  record.tokensPerSecond = double(tokensPerStep_) / (record.ms / 1e3);
  double elapsed = std::chrono::duration<double>(now - start_).count();
  double eta =
      elapsed / double(k + 1 - first_) * double(request_.steps - k - 1);
  out << "step " << k + 1 << "/" << request_.steps << "  loss " << std::fixed
      << std::setprecision(4) << record.loss << "  lr " << std::scientific
      << std::setprecision(3) << lr << "  grad_norm " << std::fixed
      << std::setprecision(3) << record.gradNorm << "  ";
  if (!record.experts.maxOverMean.empty())
    out << "experts max/mean " << std::setprecision(2)
        << *std::max_element(record.experts.maxOverMean.begin(),
                             record.experts.maxOverMean.end())
        << "  ";
  if (!record.experts.dropped.empty())
    out << "dropped " << std::setprecision(1)
        << 100.0 * record.experts.droppedShare() << "%  ";
  out << std::setprecision(0) << record.tokensPerSecond << " tok/s  ETA "
      << duration(eta) << "\n";
  out.unsetf(std::ios::floatfield);
  if (log_) {
    *log_ << "{\"step\": " << k << ", \"loss\": " << jsonNumber(record.loss)
          << ", \"grad_norm\": " << jsonNumber(record.gradNorm)
          << ", \"lr\": " << jsonNumber(lr)
          << ", \"tokens_per_s\": " << jsonNumber(record.tokensPerSecond)
          << ", \"ms\": " << jsonNumber(record.ms);
    if (expertTokensOutput_)
      writeRoutingStats(*log_, record.experts);
    *log_ << "}\n" << std::flush;
  }
  const std::vector<std::string> &parts = exe_->gradientNormParts();
  if (!std::isfinite(record.loss) || !std::isfinite(record.gradNorm)) {
    diverged_ = true;
    std::ostringstream msg;
    msg << "step " << k << ": the "
        << (std::isfinite(record.loss) ? "gradient norm" : "loss") << " is "
        << (std::isfinite(record.loss) ? record.gradNorm : record.loss);
    if (hasParts_) {
      const Tensor &sq = (*outputs)[2];
      for (size_t i = 0; i < parts.size(); ++i)
        if (!std::isfinite(sq.as<float>()[i])) {
          msg << "; the first parameter whose gradient is not finite is '"
              << parts[i] << "'";
          break;
        }
    }
    msg << "; training stopped";
    if (!request_.checkpointDir.empty())
      msg << " (the last checkpoint in " << request_.checkpointDir
          << " is intact)";
    msg << " (lower --lr or clip gradients with --clip-grad-norm)";
    return Status::error(msg.str());
  }
  if (hasParts_) {
    // The parts are the norm's terms: a disagreement is a compiler bug
    // (a missing or doubled reduction), not a property of the model.
    const Tensor &sq = (*outputs)[2];
    double sum = 0;
    for (size_t i = 0; i < parts.size(); ++i)
      sum += sq.as<float>()[i];
    if (std::abs(std::sqrt(sum) - record.gradNorm) >
        1e-3 * std::max(1.0, record.gradNorm))
      return errorf("step ", k,
                    ": internal: the per-parameter gradient "
                    "norms give ",
                    std::sqrt(sum), ", the step's norm is ", record.gradNorm);
  }
  ++next_;
  if (!request_.checkpointDir.empty() && request_.checkpointEvery > 0 &&
      next_ % request_.checkpointEvery == 0 && next_ < request_.steps)
    PARACC_RETURN_IF_ERROR(saveCheckpointAt(next_));
  return record;
}

Status Trainer::finish() {
  if (!request_.checkpointDir.empty())
    PARACC_RETURN_IF_ERROR(saveCheckpointAt(next_));
  if (std::string memory = ranks_->memoryInUse(); !memory.empty())
    *out_ << "memory after the last step: " << memory << "\n";
  if (std::string summary = ranks_->summary(); !summary.empty())
    *out_ << "step program: " << summary << "\n";
  if (request_.finalState) {
    auto state = gatherWholeState(*exe_, *ranks_);
    if (!state)
      return state.status();
    *request_.finalState = std::move(*state);
  }
  return Status::ok();
}

int paracc::rt::runTraining(std::shared_ptr<const Executable> exe,
                            const TrainingRequest &request, std::ostream &out,
                            std::ostream &err) {
  auto trainer = Trainer::create(exe, request, out, err);
  if (!trainer) {
    err << "error: " << trainer.status().message() << "\n";
    return 2;
  }
  resetPeakLiveTensorBytes();
  while (!(*trainer)->finished()) {
    auto record = (*trainer)->step();
    if (!record) {
      err << "error: " << record.status().message() << "\n";
      return (*trainer)->diverged() ? 1 : 2;
    }
  }
  if (Status st = (*trainer)->finish(); !st) {
    err << "error: " << st.message() << "\n";
    return 2;
  }
  if (request.reportMemory) {
    const uint64_t peak = peakLiveTensorBytes();
    const int64_t ranks = exe->mesh().numRanks();
    out << "memory: the tensors of this process held at most " << peak
        << " bytes at once during the steps (" << ranks
        << " rank(s) as threads on the CPU: " << peak / uint64_t(ranks)
        << " per rank)\n";
  }
  return 0;
}
