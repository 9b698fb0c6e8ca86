//===- InstrWalkTest.cpp - Decoding and dispatching instructions ----------===//
//
// decodeInstructions on functions built here (a dp2 x tp2 mesh): each kind's
// typed fields for a rank, malformed attributes rejected at decode time
// naming the instruction, and dispatchInstr calling the backend method of
// the kind and naming the instruction in a failure.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/InstrWalk.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace paracc::rt;

namespace {

/// Values: %0 f32[2,4] x, %1 f32[4,3] w, %2 f32[3] bias, %3 f32[2,3],
/// %4 f32[2,3], %5 f32[4,6], %6 f32[2,3], %7 i64 scalar. Ranks 0-3 have
/// (dp, tp) coordinates (0,0), (0,1), (1,0), (1,1).
class InstrWalkTest : public ::testing::Test {
protected:
  InstrWalkTest() {
    mesh.axisNames = {"dp", "tp"};
    mesh.axisSizes = {2, 2};
    f.values = {{DType::F32, {2, 4}}, {DType::F32, {4, 3}},
                {DType::F32, {3}},    {DType::F32, {2, 3}},
                {DType::F32, {2, 3}}, {DType::F32, {4, 6}},
                {DType::F32, {2, 3}}, {DType::I64, {}}};
  }

  /// Adds an instruction to the function.
  void add(OpCode op, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
           std::vector<int64_t> ints, std::vector<double> floats = {},
           std::string name = "") {
    InstrInfo instr{
        op, std::move(inputs), std::move(outputs), {}, std::move(name)};
    instr.attrs.ints = std::move(ints);
    instr.attrs.floats = std::move(floats);
    f.instrs.push_back(std::move(instr));
  }

  /// The function's only instruction decoded for `rank`.
  DecodedInstr decodeOne(int64_t rank) {
    auto decoded = decodeInstructions(f, mesh, rank);
    EXPECT_TRUE(decoded.isOk()) << decoded.status().message();
    EXPECT_EQ(decoded->size(), 1u);
    return decoded->front();
  }

  /// The message of decoding for `rank` ("" if it succeeds).
  std::string decodeError(int64_t rank) {
    auto decoded = decodeInstructions(f, mesh, rank);
    return decoded ? "" : decoded.status().message();
  }

  Mesh mesh;
  FunctionInfo f;
};

TEST_F(InstrWalkTest, ClassifiesAndNamesInstructions) {
  add(OpCode::Add, {3, 4}, {6}, {}, {}, "sum");
  add(OpCode::Reshape, {6}, {4}, {});
  add(OpCode::AllReduce, {3}, {4}, {1, 1, 0});
  auto decoded = decodeInstructions(f, mesh, 3);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  ASSERT_EQ(decoded->size(), 3u);
  EXPECT_EQ((*decoded)[0].kind, InstrKind::Compute);
  EXPECT_EQ((*decoded)[0].instr, &f.instrs[0]);
  EXPECT_EQ((*decoded)[0].context, "rank 3, add 'sum'");
  EXPECT_EQ((*decoded)[1].kind, InstrKind::Alias);
  EXPECT_EQ((*decoded)[1].context, "rank 3, reshape");
  EXPECT_EQ((*decoded)[2].kind, InstrKind::Collective);
}

TEST_F(InstrWalkTest, DecodesLinearAddendsPerRank) {
  // Activation 0, flags 1 (bias), the bias added by the first member of
  // the tp group only.
  add(OpCode::Linear, {0, 1, 2}, {3}, {0, 1, 1, 1});
  DecodedInstr first = decodeOne(2); // tp index 0
  ASSERT_EQ(first.kind, InstrKind::Linear);
  EXPECT_EQ(first.linear().attrs.activation, 0);
  EXPECT_EQ(first.linear().attrs.operandFlags, 1);
  EXPECT_TRUE(first.linear().attrs.addendGroup.empty());
  EXPECT_EQ(first.linear().numInputs, 3u);
  EXPECT_TRUE(first.linear().form.bias);
  EXPECT_FALSE(first.linear().form.residual);

  DecodedInstr other = decodeOne(1); // tp index 1
  EXPECT_EQ(other.linear().attrs.operandFlags, 0);
  EXPECT_TRUE(other.linear().attrs.addendGroup.empty());
  EXPECT_EQ(other.linear().numInputs, 2u);
  EXPECT_FALSE(other.linear().form.bias);
  EXPECT_EQ(other.linear().form.activation, 0);
}

TEST_F(InstrWalkTest, RejectsMalformedLinearOnEveryRank) {
  // A residual with an activation: only the group's first member adds the
  // residual, but every member rejects it, so that none runs on alone.
  add(OpCode::Linear, {0, 1, 3}, {4}, {1, 2, 1, 1}, {}, "fc");
  for (int64_t rank = 0; rank < 4; ++rank)
    EXPECT_EQ(decodeError(rank),
              "rank " + std::to_string(rank) +
                  ", linear 'fc': linear: a residual goes with no activation");
}

TEST_F(InstrWalkTest, DecodesGemm) {
  add(OpCode::Gemm, {0, 1, 4}, {3}, {1, 0}, {0.5, 2.0});
  DecodedInstr d = decodeOne(0);
  ASSERT_EQ(d.kind, InstrKind::Gemm);
  EXPECT_TRUE(d.gemm().transA);
  EXPECT_FALSE(d.gemm().transB);
  EXPECT_EQ(d.gemm().alpha, 0.5);
  EXPECT_EQ(d.gemm().beta, 2.0);
  EXPECT_TRUE(d.gemm().hasC);
}

TEST_F(InstrWalkTest, RejectsMalformedGemmAtDecode) {
  add(OpCode::Gemm, {0, 1}, {3}, {0}, {1.0, 0.0}, "proj");
  EXPECT_EQ(decodeError(1),
            "rank 1, gemm 'proj': gemm: expected 2 integer attributes, got 1");
  f.instrs[0].attrs.ints = {0, 0};
  f.instrs[0].attrs.floats = {1.0};
  EXPECT_EQ(decodeError(1), "rank 1, gemm 'proj': gemm: expected 2 floating "
                            "attributes, got 1");
  f.instrs[0].attrs.floats = {1.0, 0.0};
  f.instrs[0].attrs.ints = {0, 2};
  EXPECT_EQ(decodeError(1),
            "rank 1, gemm 'proj': gemm: transB must be in [0, 1], got 2");
  f.instrs[0].attrs.ints = {0, 0};
  f.instrs[0].inputs = {0};
  EXPECT_EQ(decodeError(1),
            "rank 1, gemm 'proj': gemm: expected 2 to 3 operands, got 1");
}

TEST_F(InstrWalkTest, DecodesCollectiveOwnInts) {
  add(OpCode::AllReduce, {3}, {4}, {1, 1, 1});
  add(OpCode::AllGather, {3}, {5}, {1, 0, 1});
  add(OpCode::ReduceScatter, {5}, {3}, {1, 0, 0});
  add(OpCode::AllToAll, {5}, {5}, {2, 0, 1, 1, 0});
  add(OpCode::Broadcast, {3}, {4}, {1, 1, 1});
  add(OpCode::Send, {3}, {}, {1, 0, 1, 7});
  add(OpCode::Recv, {}, {4}, {1, 0, -1, 7});
  auto decoded = decodeInstructions(f, mesh, 2);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  std::vector<CollectiveInstr> c;
  for (const DecodedInstr &d : *decoded) {
    ASSERT_EQ(d.kind, InstrKind::Collective);
    c.push_back(d.collective());
  }
  EXPECT_EQ(c[0].opcode, OpCode::AllReduce);
  EXPECT_EQ(c[0].axes, (std::vector<int>{1}));
  EXPECT_TRUE(c[0].reduceMax);
  EXPECT_EQ(c[1].axes, (std::vector<int>{0}));
  EXPECT_EQ(c[1].dim, 1);
  EXPECT_EQ(c[2].dim, 0);
  EXPECT_EQ(c[3].axes, (std::vector<int>{0, 1}));
  EXPECT_EQ(c[3].splitDim, 1);
  EXPECT_EQ(c[3].concatDim, 0);
  EXPECT_EQ(c[4].root, 1);
  EXPECT_EQ(c[5].opcode, OpCode::Send);
  EXPECT_EQ(c[5].peerOffset, 1);
  EXPECT_EQ(c[5].tag, 7u);
  EXPECT_EQ(c[6].peerOffset, -1);
  EXPECT_EQ(c[6].tag, 7u);
}

TEST_F(InstrWalkTest, RejectsMalformedCollectiveAtDecode) {
  add(OpCode::AllReduce, {3}, {4}, {1, 1, 2});
  EXPECT_EQ(decodeError(0), "rank 0, all_reduce: all_reduce: reduction must "
                            "be in [0, 1], got 2");
}

TEST_F(InstrWalkTest, PrecomputesLocalShardAndAxisIndex) {
  // f32[4,6] -> f32[2,3]: dim 0 over dp, dim 1 over tp.
  add(OpCode::LocalShard, {5}, {6}, {0, 1, 0, 1, 1});
  add(OpCode::AxisIndex, {}, {7}, {2, 1, 0});
  const std::vector<std::vector<int64_t>> offsets = {
      {0, 0}, {0, 3}, {2, 0}, {2, 3}};
  // Over (tp, dp): tp major.
  const std::vector<int64_t> index = {0, 2, 1, 3};
  for (int64_t rank = 0; rank < 4; ++rank) {
    auto decoded = decodeInstructions(f, mesh, rank);
    ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
    ASSERT_EQ((*decoded)[0].kind, InstrKind::LocalShard);
    EXPECT_EQ((*decoded)[0].localShard().offsets, offsets[rank]);
    ASSERT_EQ((*decoded)[1].kind, InstrKind::AxisIndex);
    EXPECT_EQ((*decoded)[1].axisIndex().index, index[rank]);
  }
}

/// Records which method ran, and fails with `failure` when it is set.
class RecordingBackend final : public InstrBackend {
public:
  std::string called;
  std::string failure;

  Status compute(const DecodedInstr &) override { return record("compute"); }
  Status alias(const DecodedInstr &) override { return record("alias"); }
  Status linear(const DecodedInstr &, const LinearInstr &) override {
    return record("linear");
  }
  Status gemm(const DecodedInstr &, const GemmInstr &) override {
    return record("gemm");
  }
  Status collective(const DecodedInstr &, const CollectiveInstr &) override {
    return record("collective");
  }
  Status localShard(const DecodedInstr &, const LocalShardInstr &) override {
    return record("localShard");
  }
  Status axisIndex(const DecodedInstr &, const AxisIndexInstr &) override {
    return record("axisIndex");
  }

private:
  Status record(const char *method) {
    called = method;
    return failure.empty() ? Status::ok() : errorf(failure);
  }
};

TEST_F(InstrWalkTest, DispatchCallsTheKindsMethod) {
  add(OpCode::Add, {3, 4}, {6}, {});
  add(OpCode::Reshape, {6}, {4}, {});
  add(OpCode::Linear, {0, 1}, {3}, {0});
  add(OpCode::Gemm, {0, 1}, {3}, {0, 0}, {1.0, 0.0});
  add(OpCode::AllGather, {3}, {5}, {1, 0, 1});
  add(OpCode::LocalShard, {5}, {6}, {0, 1, 0, 1, 1});
  add(OpCode::AxisIndex, {}, {7}, {1, 1});
  auto decoded = decodeInstructions(f, mesh, 0);
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  const std::vector<std::string> expected = {
      "compute",    "alias",      "linear",   "gemm",
      "collective", "localShard", "axisIndex"};
  ASSERT_EQ(decoded->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    RecordingBackend backend;
    Status st = dispatchInstr((*decoded)[i], backend);
    EXPECT_TRUE(st.isOk()) << st.message();
    EXPECT_EQ(backend.called, expected[i]);
  }
}

TEST_F(InstrWalkTest, DispatchNamesTheInstructionInAFailure) {
  add(OpCode::Gemm, {0, 1}, {3}, {0, 0}, {1.0, 0.0}, "proj");
  DecodedInstr d = decodeOne(1);
  RecordingBackend backend;
  backend.failure = "gemm: no algorithm";
  Status st = dispatchInstr(d, backend);
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "rank 1, gemm 'proj': gemm: no algorithm");
}

} // namespace
