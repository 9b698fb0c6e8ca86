//===- ProfileTest.cpp - Per-instruction times and the cost model ---------===//
//
// Profile on a function built here: labels by mnemonic and the shapes that
// decide the cost, rows summed over steps and reported per step, the
// predicted time carried from the instructions, and the table and JSON
// showing measured next to predicted.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/Profile.h"

#include <gtest/gtest.h>

#include <string>

using namespace paracc::rt;

namespace {

class ProfileTest : public ::testing::Test {
protected:
  ProfileTest() {
    // %0 bf16[8,64] x, %1 bf16[64,32] w, %2 bf16[8,32], %3 f32[8,32].
    f.values = {{DType::BF16, {8, 64}},
                {DType::BF16, {64, 32}},
                {DType::BF16, {8, 32}},
                {DType::F32, {8, 32}}};
    InstrInfo product{OpCode::MatMul, {0, 1}, {2}, {}, "proj"};
    product.flops = 2 * 8 * 64 * 32;
    product.bytes = 2 * (8 * 64 + 64 * 32 + 8 * 32);
    product.predictedSeconds = 2e-6;
    InstrInfo cast{OpCode::Cast, {2}, {3}, {}, ""};
    cast.predictedSeconds = 1e-6;
    f.instrs = {product, cast};
  }
  FunctionInfo f;
};

TEST_F(ProfileTest, LabelsByMnemonicAndShapes) {
  EXPECT_EQ(profileLabel(f, f.instrs[0]), "matmul bf16[8,64] bf16[64,32]");
  EXPECT_EQ(profileLabel(f, f.instrs[1]), "cast bf16[8,32]");
  // A value out of range is left out instead of read.
  InstrInfo broken{OpCode::MatMul, {0, 9}, {2}, {}, ""};
  EXPECT_EQ(profileLabel(f, broken), "matmul bf16[8,64]");
}

TEST_F(ProfileTest, RowsArePerStepWithThePrediction) {
  Profile profile(0, 2, "CPU", "cpu");
  for (int step = 0; step < 2; ++step) {
    profile.add(f, f.instrs[0], 0.5);
    profile.add(f, f.instrs[0], 0.25); // the same label twice per step
    profile.add(f, f.instrs[1], 0.125);
  }
  auto rows = profile.rowsPerStep();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "matmul bf16[8,64] bf16[64,32]");
  EXPECT_DOUBLE_EQ(rows[0].measuredMs, 0.75);
  EXPECT_DOUBLE_EQ(rows[0].predictedMs, 2 * 2e-3);
  EXPECT_EQ(rows[0].count, 2);
  EXPECT_EQ(rows[0].flops, 2 * f.instrs[0].flops);
  EXPECT_EQ(rows[0].bytes, 2 * f.instrs[0].bytes);
  EXPECT_DOUBLE_EQ(rows[1].measuredMs, 0.125);
  EXPECT_DOUBLE_EQ(rows[1].predictedMs, 1e-3);
}

TEST_F(ProfileTest, TableAndJsonShowMeasuredNextToPredicted) {
  Profile profile(0, 1, "CPU", "cpu");
  profile.add(f, f.instrs[0], 0.5);
  profile.add(f, f.instrs[1], 0.25);
  std::string table = profile.format();
  EXPECT_NE(table.find("0.750 ms/step; the cost model (cpu rates) predicts "
                       "0.003 ms/step"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("measured/pred"), std::string::npos) << table;
  // 0.5 ms measured against 0.002 predicted.
  EXPECT_NE(table.find("250.00"), std::string::npos) << table;
  std::string json = profile.json();
  EXPECT_NE(json.find("\"cost_rates\": \"cpu\""), std::string::npos) << json;
  EXPECT_NE(json.find("{\"label\": \"matmul bf16[8,64] bf16[64,32]\", "
                      "\"count\": 1, \"measured_ms\": 0.5, \"predicted_ms\": "
                      "0.002, \"flops\": 32768, \"bytes\": 5632}"),
            std::string::npos)
      << json;
}

TEST_F(ProfileTest, WithoutACostModelTheTableHasNoPrediction) {
  Profile profile(0, 1, "GPU", "");
  profile.add(f, f.instrs[1], 0.25);
  std::string table = profile.format();
  EXPECT_EQ(table.find("predict"), std::string::npos) << table;
  EXPECT_NE(table.find("cast bf16[8,32]"), std::string::npos) << table;
}

} // namespace
