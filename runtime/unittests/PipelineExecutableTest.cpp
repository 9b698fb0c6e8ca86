//===- PipelineExecutableTest.cpp - Loading pipelined executables ---------===//
//
// Executables written here with the schema's generated builders: a valid
// two-stage program, and one mutation of it per load-time check of
// pipelined functions (Executable::linkPipeline) and of pipeline actions
// (Function.actions, Instr.action). Each malformed program must be rejected
// at load with the message of its check. Then a two-stage program with a
// send/recv run on CPU ranks (outputs, per-stage state, timeline), and the
// timeline recorder and bubble measurement on events written here.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/RunDriver.h"
#include "paracc/runtime/Timeline.h"
#include "paracc/runtime/executable_generated.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace paracc::rt;
namespace fb = ::paracc::fb;

namespace {

struct ValueSpec {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
};

struct PortSpec {
  int32_t value = 0;
  std::string name;
  ValueSpec global;
  /// Per dimension, the mesh axes it is split over (empty: replicated).
  std::vector<std::vector<int32_t>> dims;
};

struct InstrSpec {
  OpCode opcode;
  std::vector<int32_t> inputs, outputs;
  int32_t action = -1;
  std::vector<int64_t> ints;
};

struct ActionSpec {
  int32_t microbatch = 0;
  uint8_t phase = 0; // fb::ActionPhase, unchecked so that it can be bad
};

struct FunctionSpec {
  std::string name = "main";
  int32_t stage = -1;
  std::vector<ValueSpec> values;
  /// (state buffer, value) pairs.
  std::vector<std::pair<int32_t, int32_t>> reads, writes;
  std::vector<PortSpec> inputs, outputs;
  std::vector<InstrSpec> instrs;
  std::vector<ActionSpec> actions;
};

struct ProgramSpec {
  std::vector<std::string> axisNames;
  std::vector<int32_t> axisSizes;
  /// Zero-initialized replicated f32 buffers: (name, shape).
  std::vector<std::pair<std::string, std::vector<int64_t>>> state;
  std::vector<FunctionSpec> functions;
  int32_t pipelineAxis = -1;
};

flatbuffers::Offset<fb::TensorType> type(flatbuffers::FlatBufferBuilder &b,
                                         const ValueSpec &v) {
  return fb::CreateTensorTypeDirect(b, uint8_t(v.dtype), &v.shape);
}

flatbuffers::Offset<fb::Port> port(flatbuffers::FlatBufferBuilder &b,
                                   const PortSpec &p) {
  std::vector<flatbuffers::Offset<fb::DimSharding>> dims;
  for (const auto &axes : p.dims)
    dims.push_back(fb::CreateDimShardingDirect(b, &axes));
  auto sharding = fb::CreateShardingDirect(b, &dims);
  return fb::CreatePortDirect(b, p.value, p.name.c_str(), type(b, p.global),
                              sharding);
}

/// The .pcx bytes of `p` (format version 2, no data segment).
std::vector<uint8_t> serialize(const ProgramSpec &p) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<flatbuffers::String>> names;
  for (const std::string &n : p.axisNames)
    names.push_back(b.CreateString(n));
  auto mesh = fb::CreateMeshDirect(b, &names, &p.axisSizes);
  std::vector<flatbuffers::Offset<fb::StateBuffer>> state;
  for (const auto &[name, shape] : p.state)
    state.push_back(fb::CreateStateBufferDirect(
        b, name.c_str(), fb::StateKind::Parameter, type(b, {DType::F32, shape}),
        fb::CreateShardingDirect(b), fb::StateInit::Zeros));
  std::vector<flatbuffers::Offset<fb::Function>> functions;
  for (const FunctionSpec &f : p.functions) {
    std::vector<flatbuffers::Offset<fb::TensorType>> values;
    for (const ValueSpec &v : f.values)
      values.push_back(type(b, v));
    std::vector<flatbuffers::Offset<fb::StateBinding>> reads, writes;
    for (auto [s, v] : f.reads)
      reads.push_back(fb::CreateStateBinding(b, s, v));
    for (auto [s, v] : f.writes)
      writes.push_back(fb::CreateStateBinding(b, s, v));
    std::vector<flatbuffers::Offset<fb::Port>> inputs, outputs;
    for (const PortSpec &q : f.inputs)
      inputs.push_back(port(b, q));
    for (const PortSpec &q : f.outputs)
      outputs.push_back(port(b, q));
    std::vector<flatbuffers::Offset<fb::Instr>> instrs;
    for (const InstrSpec &in : f.instrs)
      instrs.push_back(fb::CreateInstrDirect(b, uint16_t(in.opcode), &in.inputs,
                                             &in.outputs, &in.ints, nullptr,
                                             nullptr, in.action));
    std::vector<fb::Action> actions;
    for (const ActionSpec &a : f.actions)
      actions.emplace_back(a.microbatch, fb::ActionPhase(a.phase));
    functions.push_back(fb::CreateFunctionDirect(
        b, f.name.c_str(), f.stage, &values, nullptr, &reads, &writes, &inputs,
        &outputs, &instrs, 0, &actions));
  }
  auto program = fb::CreateProgramDirect(b, kExecutableFormatVersion,
                                         "unittest", mesh, &state, &functions,
                                         nullptr, nullptr, p.pipelineAxis);
  fb::FinishProgramBuffer(b, program);
  return packExecutable(b.GetBufferPointer(), b.GetSize(), {});
}

const ValueSpec kVec4{DType::F32, {4}};

/// A valid pipelined program on a dp2 x pp2 mesh (pipeline axis 1): `main`
/// in two stages with the same input "x" (stage 0's value 0, stage 1's
/// value 1). Stage 0 returns "y0" = exp(x); stage 1 reads state buffer "w"
/// (only it does) and returns "y1" = w + x. Each stage has one forward
/// action, micro-batch 0.
ProgramSpec twoStages() {
  ProgramSpec p;
  p.axisNames = {"dp", "pp"};
  p.axisSizes = {2, 2};
  p.pipelineAxis = 1;
  p.state = {{"w", {4}}};
  FunctionSpec s0;
  s0.stage = 0;
  s0.values = {kVec4, kVec4};
  s0.inputs = {{0, "x", kVec4, {}}};
  s0.instrs = {{OpCode::Exp, {0}, {1}, 0}};
  s0.actions = {{0, 0}};
  s0.outputs = {{1, "y0", kVec4, {}}};
  FunctionSpec s1;
  s1.stage = 1;
  s1.values = {kVec4, kVec4, kVec4};
  s1.reads = {{0, 0}};
  s1.inputs = {{1, "x", kVec4, {}}};
  s1.instrs = {{OpCode::Add, {0, 1}, {2}, 0}};
  s1.actions = {{0, 0}};
  s1.outputs = {{2, "y1", kVec4, {}}};
  p.functions = {s0, s1};
  return p;
}

/// The message of loading `p` ("" when it loads).
std::string loadError(const ProgramSpec &p) {
  auto exe = Executable::loadBuffer(serialize(p));
  return exe ? "" : exe.status().message();
}

// --- the valid program

TEST(PipelineExecutableTest, TwoStagesLoadAsOneFunction) {
  auto loaded = Executable::loadBuffer(serialize(twoStages()));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  const Executable &exe = **loaded;
  EXPECT_EQ(exe.pipelineAxis(), 1);
  ASSERT_EQ(exe.functions().size(), 2u);
  EXPECT_EQ(exe.functions()[0].stage, 0);
  EXPECT_EQ(exe.functions()[1].stage, 1);
  EXPECT_EQ(exe.findFunction("main"), 0);

  // The signature: stage 0's inputs, every stage's outputs in stage order.
  for (size_t index : {size_t(0), size_t(1)}) {
    const FunctionSignature &sig = exe.signature(index);
    ASSERT_EQ(sig.inputs.size(), 1u);
    EXPECT_EQ(sig.inputs[0].name, "x");
    EXPECT_EQ(sig.inputs[0].value, 0) << "stage 0's value of x";
    EXPECT_EQ(sig.inputs[0].globalType.shape, Shape({4}));
    ASSERT_EQ(sig.outputs.size(), 2u);
    EXPECT_EQ(sig.outputs[0].name, "y0");
    EXPECT_EQ(sig.outputs[0].stage, 0);
    EXPECT_EQ(sig.outputs[0].value, 1);
    EXPECT_EQ(sig.outputs[1].name, "y1");
    EXPECT_EQ(sig.outputs[1].stage, 1);
    EXPECT_EQ(sig.outputs[1].value, 2);
  }
  EXPECT_EQ(&exe.signature(0), &exe.signature(1));
  EXPECT_EQ(exe.inputs().size(), 1u);
  EXPECT_EQ(exe.outputs().size(), 2u);

  // Ranks (dp, pp) = (r / 2, r % 2): stage r % 2, and its function.
  for (int64_t rank = 0; rank < 4; ++rank) {
    int64_t stage = rank % 2;
    EXPECT_EQ(exe.stageOf(rank), stage) << "rank " << rank;
    EXPECT_EQ(exe.rankFunction(0, rank), size_t(stage)) << "rank " << rank;
    EXPECT_EQ(exe.rankFunction(1, rank), size_t(stage)) << "rank " << rank;
    // "w" is read by stage 1 only.
    EXPECT_EQ(exe.holdsState(rank, 0), stage == 1) << "rank " << rank;
  }
}

TEST(PipelineExecutableTest, StagesAreOrderedByStageNotByFileOrder) {
  ProgramSpec p = twoStages();
  std::swap(p.functions[0], p.functions[1]);
  auto loaded = Executable::loadBuffer(serialize(p));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  const Executable &exe = **loaded;
  ASSERT_EQ(exe.functions()[0].stage, 1);
  const FunctionSignature &sig = exe.signature(0);
  ASSERT_EQ(sig.inputs.size(), 1u);
  EXPECT_EQ(sig.inputs[0].value, 0) << "stage 0's value of x, not stage 1's";
  ASSERT_EQ(sig.outputs.size(), 2u);
  EXPECT_EQ(sig.outputs[0].name, "y0");
  EXPECT_EQ(sig.outputs[0].stage, 0);
  EXPECT_EQ(sig.outputs[1].name, "y1");
  EXPECT_EQ(sig.outputs[1].stage, 1);
  for (int64_t rank = 0; rank < 4; ++rank) {
    size_t function = rank % 2 == 0 ? 1 : 0;
    EXPECT_EQ(exe.rankFunction(0, rank), function) << "rank " << rank;
    EXPECT_EQ(exe.rankFunction(1, rank), function) << "rank " << rank;
    EXPECT_EQ(exe.holdsState(rank, 0), rank % 2 == 1) << "rank " << rank;
  }
}

TEST(PipelineExecutableTest, UnpipelinedProgramRunsOneFunctionEverywhere) {
  // Stage 1's function alone, on every rank: no pipeline, every rank keeps
  // every buffer and no port has a stage.
  ProgramSpec p = twoStages();
  p.pipelineAxis = -1;
  p.functions = {p.functions[1]};
  p.functions[0].stage = -1;
  auto loaded = Executable::loadBuffer(serialize(p));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  const Executable &exe = **loaded;
  EXPECT_EQ(exe.pipelineAxis(), -1);
  ASSERT_EQ(exe.outputs().size(), 1u);
  EXPECT_EQ(exe.outputs()[0].stage, -1);
  for (int64_t rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(exe.stageOf(rank), 0);
    EXPECT_EQ(exe.rankFunction(0, rank), 0u);
    EXPECT_TRUE(exe.holdsState(rank, 0));
  }
}

// --- the program's pipeline axis

TEST(PipelineExecutableTest, StagesNeedAPipelineAxis) {
  ProgramSpec p = twoStages();
  p.pipelineAxis = -1;
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has pipeline stages, "
                          "but the program has no pipeline axis");
}

TEST(PipelineExecutableTest, PipelineAxisInTheMesh) {
  ProgramSpec p = twoStages();
  p.pipelineAxis = 2;
  EXPECT_EQ(loadError(p),
            "'<memory>' has pipeline axis 2, but its mesh has 2 axes");
  p.pipelineAxis = -2;
  EXPECT_EQ(loadError(p),
            "'<memory>' has pipeline axis -2, but its mesh has 2 axes");
}

// --- the stages of a pipelined function

TEST(PipelineExecutableTest, OneFunctionPerStage) {
  ProgramSpec p = twoStages();
  p.functions.pop_back();
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has 1 stages; the "
                          "pipeline axis has 2");
  // Three functions for two stages.
  p = twoStages();
  p.functions.push_back(p.functions[1]);
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has 3 stages; the "
                          "pipeline axis has 2");
}

TEST(PipelineExecutableTest, EachStageOnce) {
  ProgramSpec p = twoStages();
  p.functions[1] = p.functions[0]; // two stage 0s, no stage 1
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has stage 0 twice or "
                          "out of range");
  p = twoStages();
  p.functions[1].stage = 2;
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has stage 2 twice or "
                          "out of range");
}

TEST(PipelineExecutableTest, AStageFunctionAndAnUnstagedOneShareNoName) {
  ProgramSpec p = twoStages();
  p.functions[1].stage = -1;
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' has stage -1 twice or "
                          "out of range");
  std::swap(p.functions[0], p.functions[1]);
  EXPECT_EQ(loadError(p), "'<memory>': function 'main' is defined twice");
}

TEST(PipelineExecutableTest, StagesHaveTheSameInputs) {
  const std::string prefix = "'<memory>': function 'main': ";
  // Another number of inputs.
  ProgramSpec p = twoStages();
  p.functions[1].values.push_back(kVec4);
  p.functions[1].inputs.push_back({3, "z", kVec4, {}});
  EXPECT_EQ(loadError(p), prefix + "stage 1 has 2 inputs, stage 0 has 1");
  // Another name.
  p = twoStages();
  p.functions[1].inputs[0].name = "x1";
  EXPECT_EQ(loadError(p), prefix + "input 0 of stage 1 differs from stage 0's");
  // Another global shape.
  p = twoStages();
  p.functions[1].values[1] = {DType::F32, {8}};
  p.functions[1].values[2] = {DType::F32, {8}};
  p.functions[1].values[0] = {DType::F32, {8}};
  p.state[0].second = {8};
  p.functions[1].inputs[0].global = {DType::F32, {8}};
  p.functions[1].outputs[0].global = {DType::F32, {8}};
  EXPECT_EQ(loadError(p), prefix + "input 0 of stage 1 differs from stage 0's");
  // Another element type.
  p = twoStages();
  p.functions[1].values[1] = {DType::I32, {4}};
  p.functions[1].inputs[0].global = {DType::I32, {4}};
  EXPECT_EQ(loadError(p), prefix + "input 0 of stage 1 differs from stage 0's");
  // Another sharding (split over dp on stage 1): same global type.
  p = twoStages();
  p.functions[1].values[1] = {DType::F32, {2}};
  p.functions[1].inputs[0].dims = {{0}};
  EXPECT_EQ(loadError(p), prefix + "input 0 of stage 1 differs from stage 0's");
}

TEST(PipelineExecutableTest, EachOutputFromOneStage) {
  ProgramSpec p = twoStages();
  p.functions[1].outputs[0].name = "y0";
  EXPECT_EQ(loadError(p),
            "'<memory>': function 'main': output 'y0' comes from two stages");
}

// --- pipeline actions

TEST(PipelineExecutableTest, InstructionActionInRange) {
  const std::string prefix =
      "<memory>: function 'main' stage 1: instruction 0: ";
  ProgramSpec p = twoStages();
  p.functions[1].instrs[0].action = 1; // one action: index 0
  EXPECT_EQ(loadError(p), prefix + "action 1 out of range");
  p.functions[1].instrs[0].action = -2;
  EXPECT_EQ(loadError(p), prefix + "action -2 out of range");
  p.functions[1].instrs[0].action = 0;
  p.functions[1].actions.clear();
  EXPECT_EQ(loadError(p), prefix + "action 0 out of range");
  // -1 (no action) is always fine.
  p.functions[1].instrs[0].action = -1;
  EXPECT_EQ(loadError(p), "");
}

TEST(PipelineExecutableTest, MalformedAction) {
  const std::string message =
      "<memory>: function 'main' stage 0: malformed pipeline action";
  ProgramSpec p = twoStages();
  p.functions[0].actions[0].microbatch = -1;
  EXPECT_EQ(loadError(p), message);
  // Past the last phase (Forward = 0, Backward = 1, Weight = 2).
  for (uint8_t phase : {3, 255}) {
    p = twoStages();
    p.functions[0].actions[0].phase = phase;
    EXPECT_EQ(loadError(p), message) << "phase " << int(phase);
  }
  // A backward action is fine: its instructions show as micro-batch 3's
  // backward.
  p = twoStages();
  p.functions[0].actions[0].phase = 1;
  p.functions[0].actions[0].microbatch = 3;
  auto loaded = Executable::loadBuffer(serialize(p));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  const FunctionInfo &f = (*loaded)->functions()[0];
  ASSERT_EQ(f.actions.size(), 1u);
  EXPECT_EQ(f.actions[0].microbatch, 3);
  ASSERT_EQ(f.instrs[0].action, 0);
  auto t0 = std::chrono::steady_clock::now();
  TimelineRecorder rec(0, t0);
  rec.record(f, f.instrs[0], t0, t0 + std::chrono::microseconds(5), 0);
  ASSERT_EQ(rec.events().size(), 1u);
  EXPECT_EQ(rec.events()[0].kind, TimelineKind::Backward);
  EXPECT_EQ(rec.events()[0].microbatch, 3);
}

// --- running the stages

/// A pipelined program whose stages talk: stage 0 computes h = exp(x) (its
/// action 0, forward of micro-batch 0) and sends it to stage 1 over pp
/// (peer offset 1, tag 0); stage 1 receives it and returns "y" = w + h
/// (its action 0), reading state "w", which only it keeps.
ProgramSpec sendRecv() {
  ProgramSpec p = twoStages();
  FunctionSpec &s0 = p.functions[0];
  s0.instrs = {{OpCode::Exp, {0}, {1}, 0},
               {OpCode::Send, {1}, {}, -1, {1, 1, 1, 0}}};
  s0.outputs.clear();
  FunctionSpec &s1 = p.functions[1];
  s1.values = {kVec4, kVec4, kVec4, kVec4};
  s1.instrs = {{OpCode::Recv, {}, {2}, -1, {1, 1, -1, 0}},
               {OpCode::Add, {0, 2}, {3}, 0}};
  s1.outputs = {{3, "y", kVec4, {}}};
  return p;
}

TEST(PipelineExecutableTest, StagesRunOnTheirRanksWithTheirState) {
  auto loaded = Executable::loadBuffer(serialize(sendRecv()));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  std::shared_ptr<const Executable> exe = *loaded;
  auto communicators = inProcessCommunicators(exe->mesh());
  ASSERT_TRUE(communicators.isOk()) << communicators.status().message();
  auto ranks = CpuRanks::create(exe, 0, *communicators);
  ASSERT_TRUE(ranks.isOk()) << ranks.status().message();
  // "w" goes to the ranks of stage 1 (the only ones that keep it).
  const std::vector<double> w = {0.5, 1, 1.5, 2};
  ASSERT_TRUE((*ranks)->scatterState(0, test::make(DType::F32, {4}, w)).isOk());
  auto gathered = (*ranks)->gatherState(0);
  ASSERT_TRUE(gathered.isOk()) << gathered.status().message();
  EXPECT_EQ(test::values(*gathered), w);

  ASSERT_TRUE((*ranks)->recordTimeline(true).isOk());
  const std::vector<double> x = {0, 1, -1, 2};
  auto outputs = (*ranks)->run({test::make(DType::F32, {4}, x)});
  ASSERT_TRUE(outputs.isOk()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 1u);
  std::vector<double> expected;
  for (size_t i = 0; i < x.size(); ++i)
    expected.push_back(w[i] + std::exp(x[i]));
  test::expectNear(test::values((*outputs)[0]), expected, 1e-6);

  // The timeline: per rank its forward and its transfer, in order, on one
  // clock (stage 1's forward starts after stage 0's ends: it needs h).
  std::vector<std::vector<TimelineEvent>> byRank(4);
  for (const TimelineEvent &e : (*ranks)->timeline()) {
    ASSERT_GE(e.rank, 0);
    ASSERT_LT(e.rank, 4);
    EXPECT_LE(e.startUs, e.endUs);
    byRank[e.rank].push_back(e);
  }
  for (int64_t r = 0; r < 4; ++r) {
    ASSERT_EQ(byRank[r].size(), 2u) << "rank " << r;
    const TimelineEvent &compute = byRank[r][r % 2 == 0 ? 0 : 1];
    const TimelineEvent &transfer = byRank[r][r % 2 == 0 ? 1 : 0];
    EXPECT_EQ(compute.kind, TimelineKind::Forward) << "rank " << r;
    EXPECT_EQ(compute.microbatch, 0) << "rank " << r;
    EXPECT_EQ(transfer.kind,
              r % 2 == 0 ? TimelineKind::Send : TimelineKind::Recv)
        << "rank " << r;
    EXPECT_EQ(transfer.bytes, 16u) << "rank " << r;
    EXPECT_EQ(transfer.peer, r % 2 == 0 ? 1 : -1) << "rank " << r;
    EXPECT_LE(byRank[r][0].endUs, byRank[r][1].startUs) << "rank " << r;
  }
  EXPECT_GE(byRank[1][1].startUs, byRank[0][0].endUs);
  EXPECT_GE(byRank[3][1].startUs, byRank[2][0].endUs);
  BubbleMeasurement m = measureBubble((*ranks)->timeline(), 4);
  EXPECT_GT(m.bubble, 0.0);
  EXPECT_LT(m.bubble, 1.0);
}

/// Stage 0's input x at value 5 of 7, stage 1's at value 0 of 2: the
/// stages' value tables differ. Both return exp(x) ("y0", "y1").
ProgramSpec differentValueTables() {
  ProgramSpec p = twoStages();
  FunctionSpec &s0 = p.functions[0];
  s0.values.assign(7, kVec4);
  s0.inputs = {{5, "x", kVec4, {}}};
  s0.instrs = {{OpCode::Exp, {5}, {6}, 0}};
  s0.outputs = {{6, "y0", kVec4, {}}};
  FunctionSpec &s1 = p.functions[1];
  s1.values.assign(2, kVec4);
  s1.reads.clear();
  s1.inputs = {{0, "x", kVec4, {}}};
  s1.instrs = {{OpCode::Exp, {0}, {1}, 0}};
  s1.outputs = {{1, "y1", kVec4, {}}};
  return p;
}

/// Runs `p` with its ranks as worker processes (this build's paracc-run)
/// and checks that both outputs are exp(x).
void expectRunsAsProcesses(const ProgramSpec &p) {
  auto loaded = Executable::loadBuffer(serialize(p));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  RunRequest request;
  request.processes = true;
  request.workerBinary = PARACC_RUN_BINARY;
  if (::access(request.workerBinary.c_str(), X_OK) != 0)
    GTEST_SKIP() << "no " << request.workerBinary;
  const std::vector<double> x = {0, 1, -1, 2};
  auto outputs =
      runOnCpuRanks(*loaded, {test::make(DType::F32, {4}, x)}, request);
  ASSERT_TRUE(outputs.isOk()) << outputs.status().message();
  ASSERT_EQ(outputs->size(), 2u);
  std::vector<double> expected;
  for (double v : x)
    expected.push_back(std::exp(v));
  test::expectNear(test::values((*outputs)[0]), expected, 1e-6);
  test::expectNear(test::values((*outputs)[1]), expected, 1e-6);
}

TEST(PipelineExecutableTest, StagesInAnyFileOrderRunAsThreads) {
  for (bool reversed : {false, true}) {
    ProgramSpec p = differentValueTables();
    if (reversed)
      std::swap(p.functions[0], p.functions[1]);
    auto loaded = Executable::loadBuffer(serialize(p));
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    auto communicators = inProcessCommunicators((*loaded)->mesh());
    ASSERT_TRUE(communicators.isOk()) << communicators.status().message();
    const std::vector<double> x = {0, 1, -1, 2};
    auto outputs =
        runOnCpu(*loaded, {test::make(DType::F32, {4}, x)}, *communicators);
    ASSERT_TRUE(outputs.isOk()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 2u);
    std::vector<double> expected;
    for (double v : x)
      expected.push_back(std::exp(v));
    test::expectNear(test::values((*outputs)[0]), expected, 1e-6);
    test::expectNear(test::values((*outputs)[1]), expected, 1e-6);
  }
}

TEST(PipelineExecutableTest, StagesRunAsProcesses) {
  expectRunsAsProcesses(differentValueTables());
}

// The loader accepts a pipelined function's stages in any file order; the
// worker of a --ranks-as processes run slices its inputs with its own
// stage function's value table (stage 1 listed first used to abort every
// worker with std::length_error).
TEST(PipelineExecutableTest, StagesInAnyFileOrderRunAsProcesses) {
  ProgramSpec p = differentValueTables();
  std::swap(p.functions[0], p.functions[1]);
  expectRunsAsProcesses(p);
}

// --- timelines

TEST(PipelineExecutableTest, TimelineMergesAnActionsInstructions) {
  // Stage 0's function with actions F0 (0), B0 (1), F1 (2), as loaded.
  ProgramSpec p = twoStages();
  p.functions[0].actions = {{0, 0}, {0, 1}, {1, 0}};
  auto loaded = Executable::loadBuffer(serialize(p));
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  const FunctionInfo &f = (*loaded)->functions()[0];
  ASSERT_EQ(f.actions.size(), 3u);
  auto instr = [](OpCode op, int32_t action, std::vector<int64_t> ints = {}) {
    InstrInfo in{op, {}, {}, {}, "", action};
    in.attrs.ints = std::move(ints);
    return in;
  };
  auto t0 = std::chrono::steady_clock::now();
  auto at = [&](int us) { return t0 + std::chrono::microseconds(us); };
  TimelineRecorder rec(3, t0);
  rec.record(f, instr(OpCode::Exp, 0), at(0), at(10), 0);
  rec.record(f, instr(OpCode::Exp, 0), at(10), at(20), 0);
  rec.record(f, instr(OpCode::Send, 0, {1, 1, 1, 7}), at(20), at(25), 64);
  rec.record(f, instr(OpCode::Exp, 2), at(25), at(30), 0);
  rec.record(f, instr(OpCode::Recv, -1, {1, 1, -1, 8}), at(30), at(40), 64);
  rec.record(f, instr(OpCode::Exp, 1), at(40), at(50), 0);
  rec.record(f, instr(OpCode::Exp, -1), at(50), at(55), 0);
  rec.record(f, instr(OpCode::Add, -1), at(55), at(60), 0);
  const std::vector<TimelineEvent> &ev = rec.events();
  ASSERT_EQ(ev.size(), 6u);
  struct Expected {
    TimelineKind kind;
    int32_t microbatch;
    double start, end;
  };
  const std::vector<Expected> expected = {
      {TimelineKind::Forward, 0, 0, 20},   {TimelineKind::Send, -1, 20, 25},
      {TimelineKind::Forward, 1, 25, 30},  {TimelineKind::Recv, -1, 30, 40},
      {TimelineKind::Backward, 0, 40, 50}, {TimelineKind::Step, -1, 50, 60}};
  for (size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].rank, 3) << i;
    EXPECT_EQ(ev[i].kind, expected[i].kind) << i;
    EXPECT_EQ(ev[i].microbatch, expected[i].microbatch) << i;
    EXPECT_NEAR(ev[i].startUs, expected[i].start, 1e-6) << i;
    EXPECT_NEAR(ev[i].endUs, expected[i].end, 1e-6) << i;
  }
  EXPECT_EQ(ev[1].bytes, 64u);
  EXPECT_EQ(ev[1].peer, 1);
  EXPECT_EQ(ev[3].peer, -1);
}

TEST(PipelineExecutableTest, BubbleCountsTransfersAndWaitingAsIdle) {
  // Two ranks: rank 0 computes 0-10 us and sends 10-12; rank 1 waits in a
  // receive 0-12, computes 12-22 and runs the step 22-24. The makespan is
  // 24 us; the busy time 10 and 12 us (the transfers and the wait are idle).
  std::vector<TimelineEvent> ev(5);
  ev[0] = {0, TimelineKind::Forward, 0, 0, 10};
  ev[1] = {0, TimelineKind::Send, -1, 10, 12, 16, 1};
  ev[2] = {1, TimelineKind::Recv, -1, 0, 12, 16, -1};
  ev[3] = {1, TimelineKind::Forward, 0, 12, 22};
  ev[4] = {1, TimelineKind::Step, -1, 22, 24};
  BubbleMeasurement m = measureBubble(ev, 2);
  EXPECT_DOUBLE_EQ(m.makespanUs, 24);
  ASSERT_EQ(m.busyUs.size(), 2u);
  EXPECT_DOUBLE_EQ(m.busyUs[0], 10);
  EXPECT_DOUBLE_EQ(m.busyUs[1], 12);
  EXPECT_DOUBLE_EQ(m.bubble, 1.0 - 22.0 / (2 * 24.0));
  // The makespan starts at the first event, not at 0.
  for (TimelineEvent &e : ev) {
    e.startUs += 100;
    e.endUs += 100;
  }
  EXPECT_DOUBLE_EQ(measureBubble(ev, 2).bubble, 1.0 - 22.0 / (2 * 24.0));
  EXPECT_DOUBLE_EQ(measureBubble({}, 2).bubble, 0.0);
}

TEST(PipelineExecutableTest, TimelineSvgPath) {
  EXPECT_EQ(timelineSvgPath("out/t.json"), "out/t.svg");
  EXPECT_EQ(timelineSvgPath("t.trace"), "t.trace.svg");
  EXPECT_EQ(timelineSvgPath("t"), "t.svg");
}

} // namespace
