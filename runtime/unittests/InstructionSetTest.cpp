//===- InstructionSetTest.cpp - The typed attributes of OpCodes.def -------===//
//
// decodeOpAttrs against attributes written by hand as the compiler stores
// them (OpCodes.def's order), its count and range errors, encodeOpAttrs as
// its inverse, and the kernels' refusal of another opcode's struct.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

template <typename T> T decoded(OpCode op, const InstrAttrs &raw) {
  OpAttrs attrs;
  Status st = decodeOpAttrs(op, raw, attrs);
  EXPECT_TRUE(st.isOk()) << st.message();
  EXPECT_TRUE(std::holds_alternative<T>(attrs)) << opCodeMnemonic(op);
  return std::holds_alternative<T>(attrs) ? std::get<T>(attrs) : T();
}

std::string errorOf(OpCode op, const InstrAttrs &raw) {
  OpAttrs attrs;
  Status st = decodeOpAttrs(op, raw, attrs);
  EXPECT_FALSE(st.isOk()) << opCodeMnemonic(op);
  return st.message();
}

} // namespace

TEST(InstructionSetTest, FieldsInTheStoredOrder) {
  const AttentionAttrs a =
      decoded<AttentionAttrs>(OpCode::Attention, {{1, 1, 64, 1, 1}, {0.125}});
  EXPECT_TRUE(a.causal);
  EXPECT_TRUE(a.sequenceFirst);
  EXPECT_EQ(a.window, 64);
  EXPECT_TRUE(a.savedStats);
  EXPECT_EQ(a.scale, 0.125);
  EXPECT_TRUE(a.queryStart);
  // Trailing optional fields take their defaults.
  const AttentionAttrs b =
      decoded<AttentionAttrs>(OpCode::AttentionGrad, {{0}, {0.5}});
  EXPECT_FALSE(b.causal);
  EXPECT_FALSE(b.sequenceFirst);
  EXPECT_EQ(b.window, 0);
  EXPECT_FALSE(b.savedStats);
  EXPECT_FALSE(b.queryStart);

  const ReduceSumAttrs r =
      decoded<ReduceSumAttrs>(OpCode::ReduceMean, {{1, 0, 2}, {}});
  EXPECT_TRUE(r.keepDims);
  EXPECT_EQ(r.axes, (std::vector<int64_t>{0, 2}));
  EXPECT_TRUE(
      decoded<ReduceSumAttrs>(OpCode::ReduceMax, {{0}, {}}).axes.empty());

  const SgdAttrs s = decoded<SgdAttrs>(OpCode::Sgd, {{}, {0.9, 0.1, 0.01, 0}});
  EXPECT_EQ(s.momentum, 0.9);
  EXPECT_EQ(s.dampening, 0.1);
  EXPECT_EQ(s.weightDecay, 0.01);
  EXPECT_EQ(s.nesterov, 0.0);

  const LinearAttrs l = decoded<LinearAttrs>(OpCode::Linear, {{2}, {}});
  EXPECT_EQ(l.activation, 2);
  EXPECT_EQ(l.operandFlags, -1); // absent: from the operand count
  EXPECT_TRUE(l.addendGroup.empty());
  const LinearAttrs g =
      decoded<LinearAttrs>(OpCode::Linear, {{0, 3, 2, 0, 1}, {}});
  EXPECT_EQ(g.operandFlags, 3);
  EXPECT_EQ(g.addendGroup, (std::vector<int64_t>{2, 0, 1}));

  // Opcodes without attributes decode to monostate.
  OpAttrs none = GeluAttrs{true};
  ASSERT_TRUE(decodeOpAttrs(OpCode::MatMul, {}, none).isOk());
  EXPECT_TRUE(std::holds_alternative<std::monostate>(none));
}

TEST(InstructionSetTest, CountAndRangeErrorsNameTheField) {
  EXPECT_EQ(errorOf(OpCode::Gelu, {}), "gelu: expected 1 integer attribute, "
                                       "got 0");
  EXPECT_EQ(errorOf(OpCode::CumSum, {{0, 1, 0, 1}, {}}),
            "cumsum: expected 3 integer attributes, got 4");
  EXPECT_EQ(errorOf(OpCode::Clip, {{}, {1.0}}),
            "clip: expected 2 floating attributes, got 1");
  EXPECT_EQ(errorOf(OpCode::Attention, {{1, 0, 0, 0, 0, 0, 0, 0}, {1.0}}),
            "attention: expected 1 to 7 integer attributes [causal, "
            "sequenceFirst?, window?, savedStats?, queryStart?, keyBlock?, "
            "startWithinKeys?], got 8");
  EXPECT_EQ(errorOf(OpCode::Attention, {{1, 0, -3}, {1.0}}),
            "attention: window must be in [0, 9223372036854775807], got -3");
  EXPECT_EQ(errorOf(OpCode::ArgMin, {{0, 1, 5}, {}}),
            "argmin: selectLastIndex must be in [0, 1], got 5");
  EXPECT_EQ(errorOf(OpCode::SoftmaxCrossEntropy, {{3, 0, 0}, {}}),
            "softmax_cross_entropy: reduction must be in [0, 2], got 3");
  EXPECT_EQ(errorOf(OpCode::Conv, {}),
            "conv: expected at least 1 integer attribute [groups, window...], "
            "got 0");
  EXPECT_EQ(errorOf(OpCode::Where, {{}, {0.5}}),
            "where: expected 0 floating attributes, got 1");
  EXPECT_EQ(errorOf(static_cast<OpCode>(60000), {}),
            "unknown: opcode 60000 is out of range");
}

TEST(InstructionSetTest, EncodeIsTheDecodersInverse) {
  const std::vector<std::pair<OpCode, InstrAttrs>> stored = {
      {OpCode::Gelu, {{1}, {}}},
      {OpCode::Gemm, {{0, 1}, {0.5, 2.0}}},
      {OpCode::Slice, {{0, 1, 1, 2}, {}}},
      {OpCode::ArgMax, {{-1, 1, 0}, {}}},
      {OpCode::Attention, {{1, 1, 16, 1, 1, 1, 1}, {0.125}}},
      {OpCode::Linear, {{1, 1}, {}}},
      {OpCode::Linear, {{0, 3, 1, 1}, {}}},
      {OpCode::Pool, {{1, 0, 2, 2, 2, 2, 0, 0, 1, 1}, {}}},
      {OpCode::Dropout, {{7, 3}, {0.1}}},
      {OpCode::Sgd, {{}, {0.9, 0, 0, 1}}},
  };
  for (const auto &[op, raw] : stored) {
    OpAttrs attrs;
    ASSERT_TRUE(decodeOpAttrs(op, raw, attrs).isOk()) << opCodeMnemonic(op);
    const InstrAttrs back = encodeOpAttrs(attrs);
    EXPECT_EQ(back.ints, raw.ints) << opCodeMnemonic(op);
    EXPECT_EQ(back.floats, raw.floats) << opCodeMnemonic(op);
  }
  // Optional fields are written when set; an out-of-range default (a
  // linear's absent flags) is not.
  EXPECT_EQ(encodeOpAttrs(AttentionAttrs{}).ints,
            (std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0}));
  LinearAttrs l;
  l.activation = 3;
  EXPECT_EQ(encodeOpAttrs(l).ints, (std::vector<int64_t>{3}));
}

TEST(InstructionSetTest, KernelsRefuseAnotherOpcodesStruct) {
  EXPECT_TRUE(attrsFitOpCode(OpCode::GeluGrad, GeluAttrs{}));
  EXPECT_TRUE(attrsFitOpCode(OpCode::ReduceSumSquare, ReduceSumAttrs{}));
  EXPECT_TRUE(attrsFitOpCode(OpCode::Neg, OpAttrs()));
  EXPECT_FALSE(attrsFitOpCode(OpCode::Neg, GeluAttrs{}));
  EXPECT_FALSE(attrsFitOpCode(OpCode::Gelu, OpAttrs()));
  Tensor x = iota(DType::F32, {2, 3});
  Tensor y = alloc(DType::F32, {2, 3});
  Status st = runCpuKernel(OpCode::Gelu, ModAttrs{}, {&x}, {&y});
  EXPECT_EQ(st.message(), "gelu: the attributes are another opcode's");
  st = runCpuKernel(OpCode::Gelu, GeluAttrs{false}, {&x}, {&y});
  EXPECT_TRUE(st.isOk()) << st.message();
}
