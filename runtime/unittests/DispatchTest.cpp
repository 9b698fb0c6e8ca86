//===- DispatchTest.cpp - Opcode table and runCpuKernel's shared checks ---===//

#include "TestUtil.h"

#include <random>
#include <set>

using namespace paracc::rt;
using namespace paracc::rt::test;

TEST(DispatchTest, MnemonicsRoundTrip) {
  const size_t n = static_cast<size_t>(OpCode::NumOpCodes);
  std::set<std::string> seen;
  for (size_t i = 0; i < n; ++i) {
    const OpCode op = static_cast<OpCode>(i);
    const std::string m = opCodeMnemonic(op);
    EXPECT_NE(m, "unknown");
    EXPECT_TRUE(seen.insert(m).second) << "duplicate mnemonic " << m;
    std::optional<OpCode> back = opCodeFromMnemonic(m);
    ASSERT_TRUE(back.has_value()) << m;
    EXPECT_EQ(*back, op);
  }
  EXPECT_STREQ(opCodeMnemonic(OpCode::MatMul), "matmul");
  EXPECT_STREQ(opCodeMnemonic(OpCode::SoftmaxCrossEntropy),
               "softmax_cross_entropy");
  EXPECT_STREQ(opCodeMnemonic(OpCode::NumOpCodes), "unknown");
  EXPECT_STREQ(opCodeMnemonic(static_cast<OpCode>(60000)), "unknown");
  EXPECT_FALSE(opCodeFromMnemonic("").has_value());
  EXPECT_FALSE(opCodeFromMnemonic("MatMul").has_value());
  EXPECT_FALSE(opCodeFromMnemonic("unknown").has_value());
  EXPECT_EQ(opCodeFromMnemonic("gather_nd"), OpCode::GatherND);
}

TEST(DispatchTest, Collectives) {
  for (OpCode op : {OpCode::AllReduce, OpCode::AllGather, OpCode::ReduceScatter,
                    OpCode::AllToAll, OpCode::Broadcast, OpCode::Send,
                    OpCode::Recv, OpCode::AxisIndex, OpCode::LocalShard})
    EXPECT_TRUE(isCollective(op)) << opCodeMnemonic(op);
  for (OpCode op : {OpCode::Add, OpCode::MatMul, OpCode::Trilu, OpCode::Neg})
    EXPECT_FALSE(isCollective(op)) << opCodeMnemonic(op);

  Tensor x = iota(DType::F32, {4});
  Tensor y = alloc(DType::F32, {4});
  Status st = run(OpCode::AllReduce, {{1, 0}, {}}, {&x}, {&y});
  ASSERT_FALSE(st.isOk());
  EXPECT_TRUE(startsWith(st.message(), "all_reduce:")) << st.message();
  st = run(OpCode::AxisIndex, {{1, 0}, {}}, {}, {&y});
  EXPECT_TRUE(startsWith(st.message(), "axis_index:")) << st.message();
}

TEST(DispatchTest, RejectsUnknownOpcodes) {
  Tensor y = alloc(DType::F32, {1});
  Status st = run(OpCode::NumOpCodes, {}, {}, {&y});
  ASSERT_FALSE(st.isOk());
  EXPECT_TRUE(startsWith(st.message(), "unknown:")) << st.message();
  st = run(static_cast<OpCode>(9999), {}, {}, {&y});
  EXPECT_FALSE(st.isOk());
}

TEST(DispatchTest, RejectsNullAndInvalidTensors) {
  Tensor x = iota(DType::F32, {4});
  Tensor y = alloc(DType::F32, {4});
  Status st = run(OpCode::Neg, {}, {nullptr}, {&y});
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "neg: operand 0 is null");
  st = run(OpCode::Neg, {}, {&x}, {nullptr});
  EXPECT_EQ(st.message(), "neg: result 0 is null");

  Tensor invalid;
  st = run(OpCode::Neg, {}, {&invalid}, {&y});
  EXPECT_TRUE(startsWith(st.message(), "neg: operand 0 has unsupported"))
      << st.message();

  float buf[4] = {};
  Tensor negShape = Tensor::borrow(DType::F32, {-4}, buf);
  st = run(OpCode::Neg, {}, {&negShape}, {&y});
  EXPECT_TRUE(startsWith(st.message(), "neg: operand 0 has an invalid shape"))
      << st.message();

  Tensor noData = Tensor::borrow(DType::F32, {4}, nullptr);
  st = run(OpCode::Neg, {}, {&noData}, {&y});
  EXPECT_TRUE(startsWith(st.message(), "neg:")) << st.message();
  EXPECT_NE(st.message().find("no buffer"), std::string::npos);

  Tensor badType = Tensor::borrow(static_cast<DType>(8), {4}, buf);
  st = run(OpCode::Neg, {}, {&x}, {&badType});
  EXPECT_TRUE(startsWith(st.message(), "neg: result 0 has unsupported"))
      << st.message();

  // A view too large to address.
  Tensor huge = Tensor::borrow(DType::F64, {int64_t(1) << 61}, buf);
  st = run(OpCode::Neg, {}, {&huge}, {&y});
  EXPECT_FALSE(st.isOk());
  // Empty, but its other dimensions multiply past int64: rejected so that
  // no kernel forms an overflowing stride.
  const int64_t big = int64_t(1) << 40;
  Tensor hugeEmpty = Tensor::borrow(DType::F32, {big, big, 0}, buf);
  Tensor hugeOut = Tensor::borrow(DType::F32, {0, big, big}, buf);
  st = run(OpCode::Transpose, {{2, 0, 1}, {}}, {&hugeEmpty}, {&hugeOut});
  EXPECT_EQ(st.message(),
            "transpose: operand 0 (f32[1099511627776,1099511627776,0]) is too "
            "large");
  Tensor wideEmpty = Tensor::borrow(DType::F32, {1 << 20, 0, 1 << 20}, buf);
  Tensor wideOut = Tensor::borrow(DType::F32, {0, 1 << 20, 1 << 20}, buf);
  EXPECT_TRUE(
      run(OpCode::Transpose, {{1, 0, 2}, {}}, {&wideEmpty}, {&wideOut}).isOk());
}

TEST(DispatchTest, InPlaceElementwise) {
  Tensor a = make(DType::F32, {4}, {1, 2, 3, 4});
  Tensor b = make(DType::F32, {4}, {10, 20, 30, 40});
  ASSERT_TRUE(run(OpCode::Add, {}, {&a, &b}, {&a}).isOk());
  EXPECT_EQ(values(a), (std::vector<double>{11, 22, 33, 44}));
  ASSERT_TRUE(run(OpCode::Neg, {}, {&a}, {&a}).isOk());
  EXPECT_EQ(values(a), (std::vector<double>{-11, -22, -33, -44}));
  // Broadcast operand aliased by the result of the same size.
  Tensor s = make(DType::F32, {1}, {1});
  ASSERT_TRUE(run(OpCode::Mul, {}, {&b, &s}, {&b}).isOk());
  EXPECT_EQ(values(b), (std::vector<double>{10, 20, 30, 40}));
}

TEST(DispatchTest, AliasedResultsUseScratch) {
  // Transposing a square matrix into its own buffer.
  Tensor m = iota(DType::I32, {3, 3});
  ASSERT_TRUE(run(OpCode::Transpose, {{1, 0}, {}}, {&m}, {&m}).isOk());
  EXPECT_EQ(values(m), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));

  // A result overlapping part of an operand.
  std::vector<float> buf = {1, 2, 3, 4, 5, 6};
  Tensor x = Tensor::borrow(DType::F32, {4}, buf.data());
  Tensor y = Tensor::borrow(DType::F32, {4}, buf.data() + 2);
  ASSERT_TRUE(run(OpCode::Neg, {}, {&x}, {&y}).isOk());
  EXPECT_EQ(buf, (std::vector<float>{1, 2, -1, -2, -3, -4}));

  // Cast into the same buffer with a different element size.
  std::vector<int32_t> ib = {1, 2, 3, 4};
  Tensor i32 = Tensor::borrow(DType::I32, {4}, ib.data());
  Tensor i16 = Tensor::borrow(DType::I16, {4}, ib.data());
  ASSERT_TRUE(run(OpCode::Cast, {}, {&i32}, {&i16}).isOk());
  EXPECT_EQ(values(i16), (std::vector<double>{1, 2, 3, 4}));
}

TEST(DispatchTest, RejectsOverlappingResults) {
  Tensor x = iota(DType::F32, {4});
  std::vector<float> buf(4);
  Tensor y0 = Tensor::borrow(DType::F32, {2}, buf.data());
  Tensor y1 = Tensor::borrow(DType::F32, {2}, buf.data() + 1);
  Status st = run(OpCode::Split, {{0}, {}}, {&x}, {&y0, &y1});
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "split: results 0 and 1 overlap");
}

TEST(DispatchTest, ArityErrors) {
  Tensor x = iota(DType::F32, {4});
  Tensor y = alloc(DType::F32, {4});
  Status st = run(OpCode::Add, {}, {&x}, {&y});
  EXPECT_EQ(st.message(), "add: expected 2 operands, got 1");
  st = run(OpCode::Neg, {}, {&x, &x}, {&y});
  EXPECT_EQ(st.message(), "neg: expected 1 operand, got 2");
  st = run(OpCode::Neg, {}, {&x}, {});
  EXPECT_EQ(st.message(), "neg: expected 1 result, got 0");
  st = run(OpCode::Neg, {}, {&x}, {&y, &y});
  EXPECT_FALSE(st.isOk());
  st = run(OpCode::Gemm, {{0, 0}, {1, 1}}, {&x}, {&y});
  EXPECT_EQ(st.message(), "gemm: expected 2 to 3 operands, got 1");
  st = run(OpCode::Concat, {{0}, {}}, {}, {&y});
  EXPECT_EQ(st.message(), "concat: expected at least 1 operands, got 0");
  st = run(OpCode::Neg, {{1}, {}}, {&x}, {&y});
  EXPECT_EQ(st.message(), "neg: expected 0 integer attributes, got 1");
  st = run(OpCode::Neg, {{}, {1.0}}, {&x}, {&y});
  EXPECT_EQ(st.message(), "neg: expected 0 floating attributes, got 1");
}

TEST(DispatchTest, RandomOperandsNeverCrash) {
  // Random operand counts, element types, shapes and attributes for every
  // compute op: each call either succeeds or fails with an error naming the
  // op (and, under the sanitizers, never touches memory it should not).
  std::mt19937 rng(42);
  const std::vector<DType> types = allTypes();
  const size_t numOps = static_cast<size_t>(OpCode::NumOpCodes);
  size_t succeeded = 0;
  for (size_t o = 0; o < numOps; ++o) {
    const OpCode op = static_cast<OpCode>(o);
    if (isCollective(op))
      continue;
    for (int trial = 0; trial < 1000; ++trial) {
      const auto pick = [&](int n) { return static_cast<int>(rng() % n); };
      // Share one shape among operands half of the time so that some calls
      // get past validation.
      Shape common(pick(4));
      for (int64_t &d : common)
        d = pick(4);
      const DType commonType = types[pick(types.size())];
      const auto makeTensor = [&]() {
        Shape s = common;
        if (pick(4) == 0) {
          s.resize(pick(4));
          for (int64_t &d : s)
            d = pick(4);
        }
        const DType dt = pick(3) ? commonType : types[pick(types.size())];
        Tensor t = alloc(dt, s);
        for (int64_t i = 0; i < t.numElements(); ++i)
          setElem(t, i, static_cast<double>(pick(7) - 3));
        return t;
      };
      std::vector<Tensor> ins(pick(2) ? 1 + pick(3) : pick(5));
      std::vector<Tensor> outs(pick(3) ? 1 : pick(3));
      for (Tensor &t : ins)
        t = makeTensor();
      for (Tensor &t : outs)
        t = makeTensor();
      InstrAttrs attrs;
      attrs.ints.resize(pick(2) ? 0 : pick(6));
      for (int64_t &v : attrs.ints)
        v = pick(7) - 2;
      attrs.floats.resize(pick(2) ? 0 : pick(3));
      for (double &v : attrs.floats)
        v = std::vector<double>{-1, 0, 0.5, 1e-5, NAN}[pick(5)];
      std::vector<const Tensor *> inPtrs;
      for (const Tensor &t : ins)
        inPtrs.push_back(&t);
      std::vector<Tensor *> outPtrs;
      for (Tensor &t : outs)
        outPtrs.push_back(&t);
      Status st = runCpuKernel(op, attrs, inPtrs, outPtrs);
      if (st.isOk())
        ++succeeded;
      else
        EXPECT_TRUE(
            startsWith(st.message(), std::string(opCodeMnemonic(op)) + ":"))
            << st.message();
    }
  }
  EXPECT_GT(succeeded, 300u) << "too few calls got past validation";
}
