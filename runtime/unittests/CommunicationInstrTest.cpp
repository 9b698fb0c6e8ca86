//===- CommunicationInstrTest.cpp - Load-time checks of communication -----===//

#include "paracc/runtime/CommunicationInstr.h"

#include <gtest/gtest.h>

using namespace paracc::rt;

namespace {

/// A dp2 x pp3 mesh and values: %0 f32[4,6], %1 f32[4,6], %2 f32[2,2],
/// %3 i64 scalar.
class CommunicationInstrTest : public ::testing::Test {
protected:
  CommunicationInstrTest() {
    mesh.axisNames = {"dp", "pp"};
    mesh.axisSizes = {2, 3};
    values = {{DType::F32, {4, 6}},
              {DType::F32, {4, 6}},
              {DType::F32, {2, 2}},
              {DType::I64, {}}};
  }

  /// The message of checking `op` with these operands and ints ("" if it
  /// passes).
  std::string check(OpCode op, std::vector<int32_t> inputs,
                    std::vector<int32_t> outputs, std::vector<int64_t> ints) {
    InstrInfo instr{op, std::move(inputs), std::move(outputs), {}, ""};
    instr.attrs.ints = std::move(ints);
    Status st = checkCommunicationInstr(instr, mesh, values);
    return st ? "" : st.message();
  }

  Mesh mesh;
  std::vector<ValueType> values;
};

TEST_F(CommunicationInstrTest, AcceptsWellFormedInstructions) {
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {1, 0, 0}), "");
  EXPECT_EQ(check(OpCode::AllGather, {0}, {1}, {1, 1, 1}), "");
  EXPECT_EQ(check(OpCode::AllToAll, {0}, {1}, {2, 0, 1, 0, 1}), "");
  EXPECT_EQ(check(OpCode::Broadcast, {0}, {1}, {2, 0, 1, 5}), "");
  EXPECT_EQ(check(OpCode::Send, {0}, {}, {1, 1, -2, 7}), "");
  EXPECT_EQ(check(OpCode::Recv, {}, {1}, {1, 1, 2, 0}), "");
  EXPECT_EQ(check(OpCode::RingShift, {0}, {1}, {1, 1, -2}), "");
  EXPECT_EQ(check(OpCode::AxisIndex, {}, {3}, {1, 1}), "");
  // local_shard f32[4,6] -> f32[2,2]: dim 0 over dp, dim 1 over pp.
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {0, 1, 0, 1, 1}), "");
}

TEST_F(CommunicationInstrTest, RejectsMalformedGroups) {
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {}),
            "all_reduce: malformed group");
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {3, 0, 1}),
            "all_reduce: malformed group");
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {-1, 0}),
            "all_reduce: malformed group");
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {1, 2, 0}),
            "all_reduce: mesh axis 2 out of range or twice");
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {2, 1, 1, 0}),
            "all_reduce: mesh axis 1 out of range or twice");
}

TEST_F(CommunicationInstrTest, RejectsWrongOperandCounts) {
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {}, {1, 0, 0}),
            "all_reduce: malformed instruction");
  EXPECT_EQ(check(OpCode::Send, {0}, {1}, {1, 1, 1, 0}),
            "send: malformed instruction");
  // The own ints after the group: counted by the instruction set's table.
  EXPECT_EQ(check(OpCode::Recv, {}, {1}, {1, 1, 1}),
            "recv: expected 2 integer attributes, got 1");
  EXPECT_EQ(check(OpCode::AxisIndex, {}, {3}, {1, 1, 0}),
            "axis_index: expected 0 integer attributes, got 1");
}

TEST_F(CommunicationInstrTest, RejectsBadOwnInts) {
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {1}, {1, 0, 2}),
            "all_reduce: reduction must be in [0, 1], got 2");
  EXPECT_EQ(check(OpCode::AllGather, {0}, {1}, {1, 0, 2}),
            "all_gather: dim 2 is out of range for rank 2");
  EXPECT_EQ(check(OpCode::AllToAll, {0}, {1}, {1, 0, 0, -1}),
            "all_to_all: dim -1 is out of range for rank 2");
  EXPECT_EQ(check(OpCode::Broadcast, {0}, {1}, {1, 1, 3}),
            "broadcast: root 3 is out of range for a group of 3");
  EXPECT_EQ(check(OpCode::Broadcast, {0}, {2}, {1, 1, 0}),
            "broadcast: operand and result shapes differ");
  EXPECT_EQ(check(OpCode::Send, {0}, {}, {1, 1, 3, 0}),
            "send: to = 3 is out of range for a group of 3 (need to != 0 "
            "and |to| < 3)");
  EXPECT_EQ(check(OpCode::Recv, {}, {1}, {1, 1, 0, 0}),
            "recv: from = 0 is out of range for a group of 3 (need from != "
            "0 and |from| < 3)");
  EXPECT_EQ(check(OpCode::RingShift, {0}, {1}, {1, 1, 3}),
            "ring_shift: shift = 3 is out of range for a group of 3 (need "
            "shift != 0 and |shift| < 3)");
  EXPECT_EQ(check(OpCode::RingShift, {0}, {2}, {1, 1, 1}),
            "ring_shift: operand and result shapes differ");
  EXPECT_EQ(check(OpCode::Recv, {}, {1}, {1, 1, 1, int64_t(1) << 32}),
            "recv: tag must be in [0, 4294967295], got 4294967296");
  EXPECT_EQ(check(OpCode::AxisIndex, {}, {1}, {1, 1}),
            "axis_index: expected an i64 scalar result");
  EXPECT_EQ(check(OpCode::AllReduce, {0}, {3}, {1, 0, 0}),
            "all_reduce: operand and result element types differ");
}

TEST_F(CommunicationInstrTest, RejectsBadLocalShards) {
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {1, 0, 1, 0, 1, 1}),
            "local_shard: expected an empty group");
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {0, 1, 0, 5, 1}),
            "local_shard: malformed sharding");
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {0, 1, 0, 1, 0}),
            "local_shard: mesh axis 0 out of range or twice");
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {0, 1, 1, 1, 0}),
            "local_shard: dim 0 of [4,6] does not split into [2,2]");
  EXPECT_EQ(check(OpCode::LocalShard, {0}, {2}, {0, 1, 0, 1, 1, 7}),
            "local_shard: malformed sharding");
}

TEST_F(CommunicationInstrTest, LocalShardOffsetsFollowTheRanksCoordinates) {
  InstrInfo instr{OpCode::LocalShard, {0}, {2}, {}, ""};
  instr.attrs.ints = {0, 1, 0, 1, 1};
  ASSERT_TRUE(checkCommunicationInstr(instr, mesh, values));
  OpAttrs attrs;
  ASSERT_TRUE(decodeOpAttrs(instr.opcode, instr.attrs, attrs));
  const auto &shard = std::get<LocalShardAttrs>(attrs);
  // Rank 5 = (dp 1, pp 2): rows 2.., columns 4...
  EXPECT_EQ(localShardOffsets(shard, mesh, 5, {2, 2}),
            (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(localShardOffsets(shard, mesh, 1, {2, 2}),
            (std::vector<int64_t>{0, 2}));
}

} // namespace
