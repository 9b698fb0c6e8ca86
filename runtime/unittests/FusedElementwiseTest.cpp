//===- FusedElementwiseTest.cpp - Fused elementwise programs --------------===//
//
// Each program is checked against its steps run one by one as the
// instructions they stand for (runCpuKernel on materialized tensors), and
// every malformed program against its error.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "paracc/runtime/InstructionSet.h"

#include <deque>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// Builds a FusedElementwise program and, step by step, the tensors its
/// instructions compute unfused (the reference).
class ProgramBuilder {
public:
  explicit ProgramBuilder(std::vector<Tensor> inputs)
      : inputs_(std::move(inputs)) {
    for (Tensor &t : inputs_)
      refs_.push_back(Tensor::borrow(t.dtype(), t.shape(), t.data()));
  }

  /// A step running `op` on registers `args`; returns its register.
  int step(OpCode op, DType dtype, std::vector<int> args,
           const InstrAttrs &attrs = {}) {
    steps_.push_back(int64_t(op));
    steps_.push_back(int64_t(dtype));
    steps_.push_back(int64_t(args.size()));
    for (int a : args)
      steps_.push_back(a);
    steps_.push_back(int64_t(attrs.ints.size()));
    steps_.insert(steps_.end(), attrs.ints.begin(), attrs.ints.end());
    steps_.push_back(int64_t(attrs.floats.size()));
    floats_.insert(floats_.end(), attrs.floats.begin(), attrs.floats.end());
    ++stepCount_;
    // The reference: the instruction on the registers' tensors.
    std::vector<const Tensor *> in;
    Shape shape;
    for (int a : args) {
      in.push_back(&reg(a));
      Shape next;
      EXPECT_TRUE(broadcastTo(shape, reg(a).shape(), next));
      shape = next;
    }
    Tensor out = alloc(dtype, shape);
    Status st = runCpuKernel(op, attrs, in, {&out});
    EXPECT_TRUE(st.isOk()) << st.message();
    owned_.push_back(std::move(out));
    refs_.push_back(Tensor::borrow(owned_.back().dtype(), owned_.back().shape(),
                                   owned_.back().data()));
    return int(refs_.size()) - 1;
  }

  /// An immediate of `dtype`.
  int immediate(DType dtype, double value) {
    steps_.insert(steps_.end(), {-1, int64_t(dtype), 0, 0, 1});
    floats_.push_back(value);
    ++stepCount_;
    owned_.push_back(make(dtype, {}, {value}));
    refs_.push_back(
        Tensor::borrow(owned_.back().dtype(), {}, owned_.back().data()));
    return int(refs_.size()) - 1;
  }

  InstrAttrs program(const std::vector<int> &results) const {
    InstrAttrs a;
    a.ints.push_back(stepCount_);
    a.ints.insert(a.ints.end(), steps_.begin(), steps_.end());
    for (int r : results)
      a.ints.push_back(r);
    a.floats = floats_;
    return a;
  }

  const Tensor &reg(int r) const { return refs_[size_t(r)]; }
  std::vector<const Tensor *> operands() const {
    std::vector<const Tensor *> v;
    for (const Tensor &t : inputs_)
      v.push_back(&t);
    return v;
  }

  /// Runs the program on `shape` and expects each result to equal its
  /// register's reference exactly.
  void expectMatches(const std::vector<int> &results, const Shape &shape) {
    std::vector<Tensor> outs;
    for (int r : results)
      outs.push_back(alloc(reg(r).dtype(), shape));
    std::vector<Tensor *> outPtrs;
    for (Tensor &t : outs)
      outPtrs.push_back(&t);
    Status st = runCpuKernel(OpCode::FusedElementwise, program(results),
                             operands(), outPtrs);
    ASSERT_TRUE(st.isOk()) << st.message();
    for (size_t i = 0; i < results.size(); ++i) {
      SCOPED_TRACE("result " + std::to_string(i));
      ASSERT_EQ(reg(results[i]).shape(), shape);
      expectNear(values(outs[i]), values(reg(results[i])), 0.0);
    }
  }

  std::string error(const std::vector<int> &results,
                    const std::vector<Tensor *> &outs) {
    Status st = runCpuKernel(OpCode::FusedElementwise, program(results),
                             operands(), outs);
    EXPECT_FALSE(st.isOk());
    return st.message();
  }

  /// Appends raw ints to the last step (to corrupt a program).
  std::vector<int64_t> &rawSteps() { return steps_; }

private:
  static bool broadcastTo(const Shape &a, const Shape &b, Shape &out) {
    const size_t r = std::max(a.size(), b.size());
    out.assign(r, 1);
    for (size_t i = 0; i < r; ++i) {
      const int64_t da = i + a.size() >= r ? a[i + a.size() - r] : 1;
      const int64_t db = i + b.size() >= r ? b[i + b.size() - r] : 1;
      if (da != db && da != 1 && db != 1)
        return false;
      out[i] = da == 1 ? db : da;
    }
    return true;
  }

  std::vector<Tensor> inputs_;
  std::deque<Tensor> owned_;
  std::vector<Tensor> refs_;
  std::vector<int64_t> steps_;
  std::vector<double> floats_;
  int64_t stepCount_ = 0;
};

Tensor randomTensor(DType dt, const Shape &shape, uint64_t seed, double lo = -2,
                    double hi = 2) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return make(dt, shape, randomValues(size_t(n), seed, lo, hi));
}

TEST(FusedElementwise, BatchNormForwardInBf16WithTwoResults) {
  const Shape x{2, 3, 4, 5};
  for (DType dt : {DType::F32, DType::BF16, DType::F16}) {
    SCOPED_TRACE(dtypeName(dt));
    ProgramBuilder b({randomTensor(dt, x, 1), randomTensor(dt, {1, 3, 1, 1}, 2),
                      randomTensor(dt, {3, 1, 1}, 3),
                      randomTensor(dt, {3, 1, 1}, 4), randomTensor(dt, x, 5)});
    const int centered = b.step(OpCode::Sub, dt, {0, 1});
    const int scaled = b.step(OpCode::Mul, dt, {centered, 2});
    const int shifted = b.step(OpCode::Add, dt, {scaled, 3});
    const int residual = b.step(OpCode::Add, dt, {shifted, 4});
    const int relu = b.step(OpCode::Relu, dt, {residual});
    b.expectMatches({relu, centered}, x);
  }
}

TEST(FusedElementwise, ReluGradientWithImmediatesAndBroadcastGradient) {
  const Shape x{4, 6, 3, 3};
  ProgramBuilder b({randomTensor(DType::F32, x, 7),
                    randomTensor(DType::F32, {4, 6, 1, 1}, 8)});
  const int zero = b.immediate(DType::F32, 0.0);
  const int positive = b.step(OpCode::Greater, DType::Bool, {0, zero});
  const int grad = b.step(OpCode::Where, DType::F32, {positive, 1, zero});
  const int scale = b.immediate(DType::F32, 0.125);
  const int scaled = b.step(OpCode::Mul, DType::F32, {grad, scale});
  b.expectMatches({scaled, positive}, x);
}

TEST(FusedElementwise, MasksCastsAndAttributes) {
  const Shape s{3, 17};
  ProgramBuilder b({randomTensor(DType::F32, s, 11, -4, 4),
                    randomTensor(DType::F32, {17}, 12, -4, 4),
                    make(DType::Bool, {3, 1}, {1, 0, 1})});
  const int half = b.step(OpCode::Cast, DType::BF16, {0});
  const int bias = b.step(OpCode::Cast, DType::BF16, {1});
  const int sum = b.step(OpCode::Add, DType::BF16, {half, bias});
  InstrAttrs gelu;
  gelu.ints = {1};
  const int g = b.step(OpCode::Gelu, DType::BF16, {sum}, gelu);
  InstrAttrs clip;
  clip.floats = {-0.75, 1.5};
  const int clipped = b.step(OpCode::Clip, DType::BF16, {g}, clip);
  const int less = b.step(OpCode::Less, DType::Bool, {half, bias});
  const int both = b.step(OpCode::And, DType::Bool, {less, 2});
  const int none = b.step(OpCode::Not, DType::Bool, {both});
  const int nan = b.step(OpCode::IsNaN, DType::Bool, {clipped});
  const int either = b.step(OpCode::Or, DType::Bool, {none, nan});
  const int chosen = b.step(OpCode::Where, DType::BF16, {either, clipped, sum});
  InstrAttrs mod;
  mod.ints = {0};
  const int m = b.step(OpCode::Mod, DType::BF16, {chosen, bias}, mod);
  const int back = b.step(OpCode::Cast, DType::F32, {m});
  const int asBool = b.step(OpCode::Cast, DType::Bool, {back});
  b.expectMatches({back, asBool, either}, s);
}

TEST(FusedElementwise, EveryFloatFunction) {
  const Shape s{5, 40};
  for (DType dt : {DType::F32, DType::BF16, DType::F16}) {
    SCOPED_TRACE(dtypeName(dt));
    ProgramBuilder b({randomTensor(dt, s, 21, 0.1, 0.9),
                      randomTensor(dt, {5, 1}, 22, 0.5, 2.0)});
    std::vector<int> results;
    for (OpCode op :
         {OpCode::Neg,   OpCode::Abs,        OpCode::Sign,    OpCode::Sqrt,
          OpCode::Rsqrt, OpCode::Reciprocal, OpCode::Exp,     OpCode::Log,
          OpCode::Tanh,  OpCode::Erf,        OpCode::Sigmoid, OpCode::Silu,
          OpCode::Sin,   OpCode::Cos,        OpCode::Tan,     OpCode::Asin,
          OpCode::Acos,  OpCode::Atan,       OpCode::Sinh,    OpCode::Cosh,
          OpCode::Asinh, OpCode::Atanh,      OpCode::Floor,   OpCode::Ceil,
          OpCode::Round})
      results.push_back(b.step(op, dt, {0}));
    const int bigger = b.step(OpCode::Add, dt, {0, 1});
    results.push_back(b.step(OpCode::Acosh, dt, {bigger}));
    for (OpCode op :
         {OpCode::Sub, OpCode::Div, OpCode::Pow, OpCode::Max, OpCode::Min})
      results.push_back(b.step(op, dt, {0, 1}));
    for (size_t i = 0; i < results.size(); i += 8) {
      std::vector<int> some(results.begin() + i,
                            results.begin() + std::min(results.size(), i + 8));
      b.expectMatches(some, s);
    }
  }
}

TEST(FusedElementwise, MalformedProgramsAreErrors) {
  Tensor y = alloc(DType::F32, {2, 3});
  Tensor flag = alloc(DType::Bool, {2, 3});
  {
    ProgramBuilder b({randomTensor(DType::F32, {2, 3}, 1)});
    b.rawSteps().insert(b.rawSteps().end(), {int64_t(OpCode::Exp),
                                             int64_t(DType::F32), 1, 5, 0, 0});
    InstrAttrs a = b.program({});
    a.ints[0] = 1;
    a.ints.push_back(1);
    Status st = runCpuKernel(OpCode::FusedElementwise, a, b.operands(), {&y});
    EXPECT_NE(st.message().find("reads a register not yet defined"),
              std::string::npos)
        << st.message();
  }
  {
    ProgramBuilder b({make(DType::Bool, {2, 3}, {1, 0, 1, 0, 1, 0})});
    b.rawSteps().insert(
        b.rawSteps().end(),
        {int64_t(OpCode::Add), int64_t(DType::Bool), 2, 0, 0, 0, 0});
    InstrAttrs a = b.program({});
    a.ints[0] = 1;
    a.ints.push_back(1);
    Status st =
        runCpuKernel(OpCode::FusedElementwise, a, b.operands(), {&flag});
    EXPECT_NE(st.message().find("(add) does not take its operands' types"),
              std::string::npos)
        << st.message();
  }
  {
    ProgramBuilder b({randomTensor(DType::F32, {4}, 1)});
    const int e = b.step(OpCode::Exp, DType::F32, {0});
    const std::string message = b.error({e}, {&y});
    EXPECT_NE(message.find("does not broadcast to"), std::string::npos)
        << message;
  }
  {
    ProgramBuilder b({randomTensor(DType::F32, {2, 3}, 1)});
    const int e = b.step(OpCode::Exp, DType::F32, {0});
    const std::string message = b.error({e}, {&flag});
    EXPECT_NE(message.find("is not of its register's type f32"),
              std::string::npos)
        << message;
  }
  {
    ProgramBuilder b({randomTensor(DType::F32, {2, 3}, 1)});
    const int e = b.step(OpCode::Exp, DType::F32, {0});
    InstrAttrs a = b.program({e});
    a.floats.push_back(1.0);
    Status st = runCpuKernel(OpCode::FusedElementwise, a, b.operands(), {&y});
    EXPECT_NE(st.message().find("leaves 1 floats unread"), std::string::npos)
        << st.message();
  }
  {
    ProgramBuilder b({randomTensor(DType::F32, {2, 3}, 1)});
    b.rawSteps().insert(
        b.rawSteps().end(),
        {int64_t(OpCode::MatMul), int64_t(DType::F32), 2, 0, 0, 0, 0});
    InstrAttrs a = b.program({});
    a.ints[0] = 1;
    a.ints.push_back(1);
    Status st = runCpuKernel(OpCode::FusedElementwise, a, b.operands(), {&y});
    EXPECT_NE(st.message().find("which a fused program cannot run"),
              std::string::npos)
        << st.message();
  }
}

} // namespace
