//===- TensorTest.cpp - Shapes, allocation, views and copies --------------===//

#include "paracc/runtime/Tensor.h"

#include "gtest/gtest.h"

#include <cstring>
#include <limits>

using namespace paracc::rt;

TEST(TensorTest, ShapeNumElements) {
  EXPECT_EQ(shapeNumElements({}), 1);
  EXPECT_EQ(shapeNumElements({2, 3, 4}), 24);
  EXPECT_EQ(shapeNumElements({5, 0, 7}), 0);
  EXPECT_EQ(shapeNumElements({-1}), -1);
  EXPECT_EQ(shapeNumElements({0, -1}), -1);
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(shapeNumElements({big}), big);
  EXPECT_EQ(shapeNumElements({big, 2}), -1);
  EXPECT_EQ(shapeNumElements({int64_t(1) << 32, int64_t(1) << 32}), -1);
  EXPECT_EQ(shapeNumElements({int64_t(1) << 31, int64_t(1) << 31}), int64_t(1)
                                                                        << 62);
  // A zero anywhere makes the product 0 even when the rest overflows.
  EXPECT_EQ(shapeNumElements({big, big, 0}), 0);
}

TEST(TensorTest, ShapeToString) {
  EXPECT_EQ(shapeToString({}), "[]");
  EXPECT_EQ(shapeToString({7}), "[7]");
  EXPECT_EQ(shapeToString({2, 64, 1024}), "[2,64,1024]");
}

TEST(TensorTest, AllocateIsAlignedAndZeroed) {
  for (DType dt : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,
                   DType::I16, DType::I32, DType::I64, DType::U8, DType::U16,
                   DType::U32, DType::U64, DType::Bool}) {
    StatusOr<Tensor> t = Tensor::allocate(dt, {3, 5, 7});
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_EQ(t->dtype(), dt);
    EXPECT_EQ(t->numElements(), 105);
    EXPECT_EQ(t->rank(), 3);
    EXPECT_EQ(t->dim(1), 5);
    EXPECT_EQ(t->byteSize(), 105 * dtypeSize(dt));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t->data()) % 64, 0u);
    const unsigned char *p = static_cast<const unsigned char *>(t->data());
    for (size_t i = 0; i < t->byteSize(); ++i)
      ASSERT_EQ(p[i], 0) << i;
    EXPECT_TRUE(t->isValid());
  }
}

TEST(TensorTest, AllocateEmptyAndScalar) {
  StatusOr<Tensor> e = Tensor::allocate(DType::F32, {0, 4});
  ASSERT_TRUE(e.isOk());
  EXPECT_EQ(e->numElements(), 0);
  EXPECT_EQ(e->byteSize(), 0u);
  StatusOr<Tensor> s = Tensor::allocate(DType::I64, {});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->numElements(), 1);
  EXPECT_EQ(*s->as<int64_t>(), 0);
}

TEST(TensorTest, AllocateRejectsBadShapes) {
  StatusOr<Tensor> neg = Tensor::allocate(DType::F32, {2, -3});
  ASSERT_FALSE(neg.isOk());
  EXPECT_NE(neg.status().message().find("negative"), std::string::npos)
      << neg.status().message();
  EXPECT_NE(neg.status().message().find("[2,-3]"), std::string::npos);

  const int64_t big = std::numeric_limits<int64_t>::max();
  StatusOr<Tensor> ovf = Tensor::allocate(DType::F32, {big, 2});
  ASSERT_FALSE(ovf.isOk());
  EXPECT_NE(ovf.status().message().find("overflow"), std::string::npos)
      << ovf.status().message();
  // The element count fits but the byte size does not.
  StatusOr<Tensor> bytes = Tensor::allocate(DType::F64, {int64_t(1) << 61});
  ASSERT_FALSE(bytes.isOk());
  EXPECT_NE(bytes.status().message().find("overflow"), std::string::npos);

  StatusOr<Tensor> bad = Tensor::allocate(DType::Invalid, {2});
  EXPECT_FALSE(bad.isOk());
  StatusOr<Tensor> bad2 = Tensor::allocate(static_cast<DType>(8), {2});
  EXPECT_FALSE(bad2.isOk());
}

TEST(TensorTest, BorrowKeepsOwnerAlive) {
  auto owner = std::make_shared<std::vector<float>>(6, 1.5f);
  std::weak_ptr<std::vector<float>> weak = owner;
  Tensor view;
  {
    view = Tensor::borrow(DType::F32, {2, 3}, owner->data(), owner);
    owner.reset();
  }
  ASSERT_FALSE(weak.expired());
  EXPECT_EQ(view.numElements(), 6);
  EXPECT_EQ(view.as<float>()[5], 1.5f);
  view = Tensor();
  EXPECT_TRUE(weak.expired());

  float local[2] = {1, 2};
  Tensor raw = Tensor::borrow(DType::F32, {2}, local);
  EXPECT_EQ(raw.data(), local);
  EXPECT_EQ(raw.typeString(), "f32[2]");
}

TEST(TensorTest, CloneIsDeep) {
  StatusOr<Tensor> t = Tensor::allocate(DType::I32, {2, 2});
  ASSERT_TRUE(t.isOk());
  for (int i = 0; i < 4; ++i)
    t->as<int32_t>()[i] = i + 1;
  StatusOr<Tensor> c = t->clone();
  ASSERT_TRUE(c.isOk());
  EXPECT_NE(c->data(), t->data());
  EXPECT_EQ(c->shape(), t->shape());
  EXPECT_EQ(c->dtype(), DType::I32);
  EXPECT_EQ(std::memcmp(c->data(), t->data(), 16), 0);
  t->as<int32_t>()[0] = 99;
  EXPECT_EQ(c->as<int32_t>()[0], 1);

  StatusOr<Tensor> invalid = Tensor().clone();
  ASSERT_TRUE(invalid.isOk());
  EXPECT_FALSE(invalid->isValid());
}

TEST(TensorTest, ReshapedSharesTheBuffer) {
  StatusOr<Tensor> t = Tensor::allocate(DType::F32, {2, 6});
  ASSERT_TRUE(t.isOk());
  StatusOr<Tensor> r = t->reshaped({3, 4});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->data(), t->data());
  EXPECT_EQ(r->shape(), (Shape{3, 4}));
  EXPECT_EQ(t->shape(), (Shape{2, 6}));
  r->as<float>()[11] = 7.0f;
  EXPECT_EQ(t->as<float>()[11], 7.0f);

  StatusOr<Tensor> bad = t->reshaped({5});
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("[5]"), std::string::npos);
  EXPECT_FALSE(t->reshaped({-2, -6}).isOk());
}

TEST(TensorTest, TypeString) {
  StatusOr<Tensor> t = Tensor::allocate(DType::BF16, {2, 64, 1024});
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->typeString(), "bf16[2,64,1024]");
  StatusOr<Tensor> s = Tensor::allocate(DType::Bool, {});
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->typeString(), "bool[]");
  EXPECT_EQ(Tensor().typeString(), "invalid[]");
}
