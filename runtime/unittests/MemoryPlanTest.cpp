//===- MemoryPlanTest.cpp - Arena planning from lifetimes -----------------===//

#include "paracc/runtime/MemoryPlan.h"

#include <gtest/gtest.h>

using namespace paracc::rt;

namespace {

/// Whether values `a` and `b` (sizes in bytes) overlap in the arena.
bool overlap(const MemoryPlanResult &plan, const std::vector<uint64_t> &bytes,
             int a, int b) {
  uint64_t a0 = plan.offsets[a], b0 = plan.offsets[b];
  return a0 < b0 + bytes[b] && b0 < a0 + bytes[a];
}

TEST(MemoryPlanTest, ReusesDeadValuesAndKeepsLiveOnesApart) {
  // x -> exp -> y -> exp -> z -> exp -> w: x and z may share; y and z not.
  std::vector<uint64_t> bytes = {1024, 1024, 1024, 1024};
  std::vector<bool> arena(4, true), toEnd = {false, false, false, true};
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {0}, {1}},
                                   {OpCode::Exp, {1}, {2}},
                                   {OpCode::Exp, {2}, {3}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_FALSE(overlap(plan, bytes, 1, 2));
  EXPECT_FALSE(overlap(plan, bytes, 2, 3));
  EXPECT_FALSE(overlap(plan, bytes, 0, 1));
  EXPECT_EQ(plan.arenaBytes, 2048u);
  for (uint64_t o : plan.offsets)
    EXPECT_EQ(o % kArenaAlignment, 0u);
}

TEST(MemoryPlanTest, ReshapeSharesItsOperand) {
  std::vector<uint64_t> bytes = {512, 512, 512};
  std::vector<bool> arena(3, true), toEnd = {false, false, true};
  std::vector<PlanInstr> instrs = {{OpCode::Reshape, {0}, {1}},
                                   {OpCode::Exp, {1}, {2}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_EQ(plan.offsets[0], plan.offsets[1]);
  EXPECT_FALSE(overlap(plan, bytes, 1, 2));
}

TEST(MemoryPlanTest, GatherGradWritesOverAnAccumulateThatDiesThere) {
  // 0: p = exp(x) (the tied head's gradient); 1: g = gather_grad(dy, ids,
  // p); 2: h = exp(g). g takes p's bytes: nothing reads p after 1.
  enum { X, DY, IDS, P, G, H, N };
  std::vector<uint64_t> bytes = {4096, 512, 64, 4096, 4096, 4096};
  std::vector<bool> arena(N, true), toEnd(N, false);
  toEnd[H] = true;
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {X}, {P}},
                                   {OpCode::GatherGrad, {DY, IDS, P}, {G}},
                                   {OpCode::Exp, {G}, {H}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_EQ(plan.offsets[P], plan.offsets[G]);
  EXPECT_FALSE(overlap(plan, bytes, G, H));
  EXPECT_FALSE(overlap(plan, bytes, G, DY));

  // Read again after the gather_grad (3: q = add(p, h)): apart.
  instrs.push_back({OpCode::Add, {P, H}, {X}});
  toEnd[H] = false;
  toEnd[X] = true;
  plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_FALSE(overlap(plan, bytes, P, G));

  // A program input is not written over, nor is anything without the
  // accumulate operand.
  std::vector<PlanInstr> fromInput = {{OpCode::GatherGrad, {DY, IDS, X}, {G}}};
  toEnd.assign(N, false);
  toEnd[G] = true;
  plan = planArena(bytes, arena, toEnd, fromInput);
  EXPECT_FALSE(overlap(plan, bytes, X, G));
  std::vector<PlanInstr> plain = {{OpCode::Exp, {X}, {P}},
                                  {OpCode::GatherGrad, {DY, IDS}, {G}},
                                  {OpCode::Add, {G, P}, {H}}};
  toEnd.assign(N, false);
  toEnd[H] = true;
  plan = planArena(bytes, arena, toEnd, plain);
  EXPECT_FALSE(overlap(plan, bytes, P, G));
}

TEST(MemoryPlanTest, CollectiveOperandLivesUntilItsResultIsRead) {
  // 0: a = exp(x); 1: r = all_reduce(a); 2: b = exp(y); 3: c = exp(b);
  // 4: d = add(r, c). Without the collective rule, b or c could take a's
  // bytes while the all-reduce may still be reading them.
  enum { X, Y, A, R, B, C, D, N };
  std::vector<uint64_t> bytes(N, 4096);
  std::vector<bool> arena(N, true), toEnd(N, false);
  toEnd[D] = true;
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {X}, {A}},
                                   {OpCode::AllReduce, {A}, {R}},
                                   {OpCode::Exp, {Y}, {B}},
                                   {OpCode::Exp, {B}, {C}},
                                   {OpCode::Add, {R, C}, {D}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_FALSE(overlap(plan, bytes, A, B));
  EXPECT_FALSE(overlap(plan, bytes, A, C));
  EXPECT_FALSE(overlap(plan, bytes, A, R));
  // Once the result is read, the operand's bytes are free again.
  EXPECT_TRUE(overlap(plan, bytes, A, D) || overlap(plan, bytes, X, D) ||
              overlap(plan, bytes, B, D) || overlap(plan, bytes, Y, D));
}

TEST(MemoryPlanTest, BroadcastOperandLivesUntilItsResultIsRead) {
  // As for the all-reduce above: 0: a = exp(x); 1: r = broadcast(a);
  // 2: b = exp(y); 3: c = exp(b); 4: d = add(r, c).
  enum { X, Y, A, R, B, C, D, N };
  std::vector<uint64_t> bytes(N, 4096);
  std::vector<bool> arena(N, true), toEnd(N, false);
  toEnd[D] = true;
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {X}, {A}},
                                   {OpCode::Broadcast, {A}, {R}},
                                   {OpCode::Exp, {Y}, {B}},
                                   {OpCode::Exp, {B}, {C}},
                                   {OpCode::Add, {R, C}, {D}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_FALSE(overlap(plan, bytes, A, B));
  EXPECT_FALSE(overlap(plan, bytes, A, C));
  EXPECT_FALSE(overlap(plan, bytes, A, R));
}

TEST(MemoryPlanTest, SendHasNoResultAndRecvNoOperand) {
  // 0: a = exp(x); 1: send(a); 2: r = recv(); 3: b = exp(y);
  // 4: d = add(r, b). The send's operand is free after it; the received
  // value lives from the recv to its use.
  enum { X, Y, A, R, B, D, N };
  std::vector<uint64_t> bytes(N, 1024);
  std::vector<bool> arena(N, true), toEnd(N, false);
  toEnd[D] = true;
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {X}, {A}},
                                   {OpCode::Send, {A}, {}},
                                   {OpCode::Recv, {}, {R}},
                                   {OpCode::Exp, {Y}, {B}},
                                   {OpCode::Add, {R, B}, {D}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_FALSE(overlap(plan, bytes, X, A));
  EXPECT_FALSE(overlap(plan, bytes, R, B));
  EXPECT_FALSE(overlap(plan, bytes, R, Y));
  EXPECT_FALSE(overlap(plan, bytes, R, D));
  EXPECT_FALSE(overlap(plan, bytes, B, D));
  // a is dead once sent: the recv may take its bytes.
  EXPECT_TRUE(overlap(plan, bytes, A, R) || overlap(plan, bytes, A, B) ||
              overlap(plan, bytes, A, D));
}

TEST(MemoryPlanTest, ValuesOutsideTheArenaAreNotPlaced) {
  std::vector<uint64_t> bytes = {256, 256};
  std::vector<bool> arena = {false, true}, toEnd = {false, true};
  std::vector<PlanInstr> instrs = {{OpCode::Exp, {0}, {1}}};
  MemoryPlanResult plan = planArena(bytes, arena, toEnd, instrs);
  EXPECT_EQ(plan.offsets[0], kNotInArena);
  EXPECT_EQ(plan.offsets[1], 0u);
  EXPECT_EQ(plan.arenaBytes, 256u);
}

} // namespace
