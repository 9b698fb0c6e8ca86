//===- DropoutTest.cpp - Dropout's counter-based mask ---------------------===//
//
// The mask's rate, its scale, that it is a function of global coordinates
// (a shard with its offsets draws its slice of the whole's mask), that the
// key changes it, and the operand checks.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {
InstrAttrs dropoutAttrs(int64_t seed, int64_t stream, double ratio) {
  InstrAttrs a;
  a.ints = {seed, stream};
  a.floats = {ratio};
  return a;
}

Tensor runDropout(const Tensor &x, double step, std::vector<double> offsets,
                  int64_t seed = 3, int64_t stream = 11, double ratio = 0.25) {
  Tensor s = make(DType::F32, {}, {step});
  Tensor o = make(DType::I64, {int64_t(offsets.size())}, offsets);
  return run1(OpCode::Dropout, dropoutAttrs(seed, stream, ratio), {&x, &s, &o},
              x.dtype(), x.shape());
}
} // namespace

TEST(DropoutTest, RateAndScale) {
  Tensor x = iota(DType::F32, {64, 1024}, 0.001, 1.0);
  for (double ratio : {0.1, 0.25, 0.5}) {
    Tensor y = runDropout(x, 1, {0, 0}, 3, 11, ratio);
    int64_t dropped = 0, n = x.numElements();
    for (int64_t i = 0; i < n; ++i) {
      double v = getElem(y, i);
      if (v == 0.0) {
        ++dropped;
        continue;
      }
      ASSERT_EQ(float(v), float(getElem(x, i)) * float(1.0 / (1.0 - ratio)))
          << i;
    }
    // Binomial: within 5 standard deviations of n * ratio.
    double sd = std::sqrt(double(n) * ratio * (1 - ratio));
    EXPECT_NEAR(double(dropped), double(n) * ratio, 5 * sd) << ratio;
  }
  // Ratio 0 keeps everything as it is.
  EXPECT_EQ(values(runDropout(x, 1, {0, 0}, 3, 11, 0.0)), values(x));
}

TEST(DropoutTest, ShardsDrawTheirSliceOfTheWholeMask) {
  Tensor whole = iota(DType::F32, {6, 10}, 1.0, 1.0);
  std::vector<double> all = values(runDropout(whole, 5, {0, 0}));
  // Rows 2..3 and columns 5..9 as a shard with offsets [2, 5].
  std::vector<double> block;
  for (int64_t r = 2; r < 4; ++r)
    for (int64_t c = 5; c < 10; ++c)
      block.push_back(double(r * 10 + c + 1));
  Tensor shard = make(DType::F32, {2, 5}, block);
  std::vector<double> got = values(runDropout(shard, 5, {2, 5}));
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 5; ++c)
      EXPECT_EQ(got[r * 5 + c], all[(r + 2) * 10 + c + 5]) << r << "," << c;
}

TEST(DropoutTest, KeyChangesTheMask) {
  Tensor x = iota(DType::F32, {4096}, 1.0, 1.0);
  std::vector<double> base = values(runDropout(x, 1, {0}));
  EXPECT_EQ(values(runDropout(x, 1, {0})), base); // deterministic
  EXPECT_NE(values(runDropout(x, 2, {0})), base); // step
  EXPECT_NE(values(runDropout(x, 1, {0}, 4)), base); // seed
  EXPECT_NE(values(runDropout(x, 1, {0}, 3, 12)), base); // stream
  // bf16 keeps the same elements as f32.
  Tensor xb = iota(DType::BF16, {4096}, 1.0, 1.0);
  std::vector<double> bf = values(runDropout(xb, 1, {0}));
  for (size_t i = 0; i < bf.size(); ++i)
    EXPECT_EQ(bf[i] == 0.0, base[i] == 0.0) << i;
}

TEST(DropoutTest, Errors) {
  Tensor x = make(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor s = make(DType::F32, {}, {0});
  Tensor o2 = make(DType::I64, {2}, {0, 0}), o1 = make(DType::I64, {1}, {0});
  EXPECT_EQ(runError(OpCode::Dropout, dropoutAttrs(0, 0, 1.0), {&x, &s, &o2},
                     DType::F32, {2, 3}),
            "dropout: ratio must be in [0, 1), got 1");
  EXPECT_EQ(runError(OpCode::Dropout, dropoutAttrs(0, 0, 0.5), {&x, &s, &o1},
                     DType::F32, {2, 3}),
            "dropout: offsets must hold one coordinate per dim of x (2), got "
            "i64[1]");
  Tensor si = make(DType::I64, {}, {0});
  EXPECT_TRUE(startsWith(runError(OpCode::Dropout, dropoutAttrs(0, 0, 0.5),
                                  {&x, &si, &o2}, DType::F32, {2, 3}),
                         "dropout: step"));
}
