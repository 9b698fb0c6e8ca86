//===- UpdatePlacementTest.cpp - Optimizer updates written in place -------===//

#include "paracc/runtime/UpdatePlacement.h"

#include <gtest/gtest.h>

using namespace paracc::rt;

namespace {

// Values of one AdamW step: param, grad, exp_avg, exp_avg_sq, lr, step,
// grad_scale, then the three new values and a spare.
enum { P, G, M, V, LR, STEP, SCALE, P2, M2, V2, X, N };
const std::vector<StateValue> kReads = {{0, P}, {1, M}, {2, V}};
const std::vector<StateValue> kWrites = {{0, P2}, {1, M2}, {2, V2}};

PlanInstr adamw() {
  return {OpCode::AdamW, {P, G, M, V, LR, STEP, SCALE}, {P2, M2, V2}};
}

TEST(UpdatePlacementTest, AdamWUpdatesItsOwnBuffers) {
  EXPECT_EQ(updatesWrittenInPlace(N, 3, {adamw()}, kReads, kWrites, {}),
            (std::vector<bool>{true, true, true}));
}

TEST(UpdatePlacementTest, ReadsAfterTheUpdateKeepItOut) {
  // The old parameter read after the update (directly, then through a
  // reshape); the new exp_avg read by an instruction; the new exp_avg_sq an
  // output.
  std::vector<PlanInstr> instrs = {
      adamw(), {OpCode::Exp, {P}, {X}}, {OpCode::Exp, {M2}, {X}}};
  EXPECT_EQ(updatesWrittenInPlace(N, 3, instrs, kReads, kWrites, {V2}),
            (std::vector<bool>{false, false, false}));
  instrs = {{OpCode::Reshape, {P}, {X}}, adamw(), {OpCode::Exp, {X}, {G}}};
  EXPECT_EQ(updatesWrittenInPlace(N, 3, instrs, kReads, kWrites, {}),
            (std::vector<bool>{false, true, true}));
}

TEST(UpdatePlacementTest, AStateReadByTwoOperandsStaysApart) {
  // exp_avg's buffer is also the gradient: the update may read it after
  // writing exp_avg'.
  PlanInstr in = adamw();
  in.inputs[1] = M;
  EXPECT_EQ(updatesWrittenInPlace(N, 3, {in}, kReads, kWrites, {}),
            (std::vector<bool>{true, false, true}));
}

TEST(UpdatePlacementTest, WeightCopiesWhenEveryReadComesFirst) {
  // ForeachAdamW of one tensor with its bf16 copy C (state 3): results
  // param', exp_avg', exp_avg_sq', copy'.
  enum { C = N, C2, N2 };
  PlanInstr update = {
      OpCode::ForeachAdamW, {P, G, M, V, LR, STEP, SCALE}, {P2, M2, V2, C2}};
  std::vector<StateValue> reads = kReads, writes = kWrites;
  reads.push_back({3, C});
  writes.push_back({3, C2});
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {C}, {X}}, update};
  EXPECT_EQ(updatesWrittenInPlace(N2, 4, instrs, reads, writes, {}),
            (std::vector<bool>{true, true, true, true}));
  instrs = {update, {OpCode::Exp, {C}, {X}}};
  EXPECT_EQ(updatesWrittenInPlace(N2, 4, instrs, reads, writes, {}),
            (std::vector<bool>{true, true, true, false}));
}

TEST(UpdatePlacementTest, OtherProducersAndBadIdsAreNotPlaced) {
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {P}, {P2}}};
  EXPECT_EQ(updatesWrittenInPlace(N, 3, instrs, kReads,
                                  {{0, P2}, {7, M2}, {1, 99}}, {}),
            (std::vector<bool>{false, false, false}));
}

} // namespace
