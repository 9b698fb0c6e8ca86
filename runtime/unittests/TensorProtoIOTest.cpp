//===- TensorProtoIOTest.cpp - ONNX TensorProto reading and writing -------===//

#include "paracc/runtime/TensorProtoIO.h"

#include "TestUtil.h"

#include <cstdio>
#include <random>

using namespace paracc::rt;
using namespace paracc::rt::test;

namespace {

/// A protobuf message built field by field, independently of the library's
/// writer.
class Msg {
public:
  Msg &varint(uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
    return *this;
  }
  Msg &key(uint32_t field, uint32_t wire) {
    return varint((uint64_t(field) << 3) | wire);
  }
  Msg &varintField(uint32_t field, uint64_t v) {
    return key(field, 0).varint(v);
  }
  Msg &bytesField(uint32_t field, const std::string &payload) {
    key(field, 2).varint(payload.size());
    bytes_ += payload;
    return *this;
  }
  Msg &fixed32Field(uint32_t field, uint32_t v) {
    key(field, 5);
    bytes_.append(reinterpret_cast<const char *>(&v), 4);
    return *this;
  }
  Msg &fixed64Field(uint32_t field, uint64_t v) {
    key(field, 1);
    bytes_.append(reinterpret_cast<const char *>(&v), 8);
    return *this;
  }
  Msg &raw(const std::string &s) {
    bytes_ += s;
    return *this;
  }
  Msg &dims(const std::vector<int64_t> &d) {
    for (int64_t v : d)
      varintField(1, static_cast<uint64_t>(v));
    return *this;
  }
  Msg &packedDims(const std::vector<int64_t> &d) {
    Msg inner;
    for (int64_t v : d)
      inner.varint(static_cast<uint64_t>(v));
    return bytesField(1, inner.str());
  }
  Msg &dataType(int t) { return varintField(2, static_cast<uint64_t>(t)); }
  const std::string &str() const { return bytes_; }

private:
  std::string bytes_;
};

std::string packedVarints(const std::vector<int64_t> &vals) {
  Msg m;
  for (int64_t v : vals)
    m.varint(static_cast<uint64_t>(v));
  return m.str();
}

template <typename T> std::string packedFixed(const std::vector<T> &vals) {
  return std::string(reinterpret_cast<const char *>(vals.data()),
                     vals.size() * sizeof(T));
}

StatusOr<NamedTensor> parse(const std::string &s,
                            const std::string &what = "test.pb") {
  return parseTensorProto(s.data(), s.size(), what);
}

/// Parses and expects an error that names the file.
std::string parseError(const std::string &s) {
  StatusOr<NamedTensor> r = parse(s, "bad.pb");
  EXPECT_FALSE(r.isOk());
  if (r.isOk())
    return "";
  EXPECT_NE(r.status().message().find("bad.pb"), std::string::npos)
      << r.status().message();
  return r.status().message();
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST(TensorProtoIOTest, RoundTripEveryDType) {
  for (DType dt : allTypes()) {
    Tensor t = alloc(dt, {2, 3});
    for (int64_t i = 0; i < 6; ++i)
      setElem(t, i, dt == DType::Bool ? (i % 2) : static_cast<double>(i + 1));
    const std::string bytes = serializeTensorProto(t, "x_0");
    StatusOr<NamedTensor> back = parse(bytes);
    ASSERT_TRUE(back.isOk())
        << dtypeName(dt) << ": " << back.status().message();
    EXPECT_EQ(back->name, "x_0");
    EXPECT_EQ(back->tensor.dtype(), dt);
    EXPECT_EQ(back->tensor.shape(), (Shape{2, 3}));
    EXPECT_EQ(std::memcmp(back->tensor.data(), t.data(), t.byteSize()), 0)
        << dtypeName(dt);
  }
}

TEST(TensorProtoIOTest, RoundTripScalarEmptyAndUnnamed) {
  Tensor s = make(DType::F64, {}, {3.25});
  StatusOr<NamedTensor> back = parse(serializeTensorProto(s, ""));
  ASSERT_TRUE(back.isOk()) << back.status().message();
  EXPECT_EQ(back->name, "");
  EXPECT_EQ(back->tensor.rank(), 0);
  EXPECT_EQ(values(back->tensor), std::vector<double>{3.25});

  Tensor e = alloc(DType::I32, {0, 5});
  back = parse(serializeTensorProto(e, "empty"));
  ASSERT_TRUE(back.isOk()) << back.status().message();
  EXPECT_EQ(back->tensor.shape(), (Shape{0, 5}));
  EXPECT_EQ(back->tensor.numElements(), 0);
}

TEST(TensorProtoIOTest, WriterEmitsTheExpectedWireFormat) {
  Tensor t = makeRaw<int32_t>(DType::I32, {2}, {1, -1});
  std::string raw(8, '\0');
  std::memcpy(&raw[0], t.data(), 8);
  const std::string expected =
      Msg().dims({2}).dataType(6).bytesField(8, "n").bytesField(9, raw).str();
  EXPECT_EQ(serializeTensorProto(t, "n"), expected);
}

TEST(TensorProtoIOTest, FileRoundTrip) {
  const std::string path = ::testing::TempDir() + "/paracc_tp_roundtrip.pb";
  Tensor t = iota(DType::BF16, {4, 2}, 0.5);
  ASSERT_TRUE(writeTensorProtoFile(path, t, "weights").isOk());
  StatusOr<NamedTensor> back = readTensorProtoFile(path);
  ASSERT_TRUE(back.isOk()) << back.status().message();
  EXPECT_EQ(back->name, "weights");
  EXPECT_EQ(values(back->tensor), values(t));
  std::remove(path.c_str());

  StatusOr<NamedTensor> missing =
      readTensorProtoFile(::testing::TempDir() + "/no/such/file.pb");
  ASSERT_FALSE(missing.isOk());
  EXPECT_TRUE(contains(missing.status().message(), "no/such/file.pb"));
  Status st =
      writeTensorProtoFile(::testing::TempDir() + "/no/such/dir/x.pb", t, "x");
  EXPECT_FALSE(st.isOk());
  EXPECT_FALSE(writeTensorProtoFile(path, Tensor(), "x").isOk());
}

TEST(TensorProtoIOTest, PackedAndUnpackedDims) {
  const std::string raw = packedFixed<float>({1, 2, 3, 4, 5, 6});
  for (bool packed : {false, true}) {
    Msg m;
    if (packed)
      m.packedDims({2, 3});
    else
      m.dims({2, 3});
    m.dataType(1).bytesField(9, raw);
    StatusOr<NamedTensor> r = parse(m.str());
    ASSERT_TRUE(r.isOk()) << r.status().message();
    EXPECT_EQ(r->tensor.shape(), (Shape{2, 3}));
    EXPECT_EQ(values(r->tensor), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  }
  // Packed and unpacked occurrences concatenate.
  Msg mixed;
  mixed.dims({2}).packedDims({1, 3}).dataType(1).bytesField(9, raw);
  StatusOr<NamedTensor> r = parse(mixed.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->tensor.shape(), (Shape{2, 1, 3}));
}

TEST(TensorProtoIOTest, FieldOrderDoesNotMatter) {
  Msg m;
  m.bytesField(9, packedFixed<int64_t>({5, -6}))
      .bytesField(8, "late")
      .dataType(7)
      .dims({2});
  StatusOr<NamedTensor> r = parse(m.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->name, "late");
  EXPECT_EQ(rawValues<int64_t>(r->tensor), (std::vector<int64_t>{5, -6}));
}

TEST(TensorProtoIOTest, FloatData) {
  // Packed.
  Msg p;
  p.dims({3}).dataType(1).bytesField(4, packedFixed<float>({1.5f, -2, 3}));
  StatusOr<NamedTensor> r = parse(p.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{1.5, -2, 3}));
  // Unpacked (fixed32 per element).
  Msg u;
  u.dims({2}).dataType(1);
  float a = 0.25f, b = -8.0f;
  uint32_t ua, ub;
  std::memcpy(&ua, &a, 4);
  std::memcpy(&ub, &b, 4);
  u.fixed32Field(4, ua).fixed32Field(4, ub);
  r = parse(u.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{0.25, -8}));
}

TEST(TensorProtoIOTest, DoubleData) {
  Msg p;
  p.dims({2}).dataType(11).bytesField(10, packedFixed<double>({1e300, -0.5}));
  StatusOr<NamedTensor> r = parse(p.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{1e300, -0.5}));
  Msg u;
  double d = 2.5;
  uint64_t ud;
  std::memcpy(&ud, &d, 8);
  u.dims({1}).dataType(11).fixed64Field(10, ud);
  r = parse(u.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{2.5}));
}

TEST(TensorProtoIOTest, Int32DataForNarrowTypes) {
  struct Case {
    DType dt;
    std::vector<int64_t> wire;
    std::vector<double> expected;
  } cases[] = {
      {DType::I32,
       {-2147483648LL, 2147483647, 0},
       {-2147483648.0, 2147483647, 0}},
      {DType::I16, {-32768, 32767, -1}, {-32768, 32767, -1}},
      {DType::I8, {-128, 127, 5}, {-128, 127, 5}},
      {DType::U16, {0, 65535, 7}, {0, 65535, 7}},
      {DType::U8, {0, 255, 9}, {0, 255, 9}},
      {DType::Bool, {1, 0, 1}, {1, 0, 1}},
  };
  for (const Case &c : cases) {
    for (bool packed : {true, false}) {
      Msg m;
      m.dims({3}).dataType(static_cast<int>(c.dt));
      if (packed) {
        m.bytesField(5, packedVarints(c.wire));
      } else {
        for (int64_t v : c.wire)
          m.varintField(5, static_cast<uint64_t>(v)); // Negative: 10 bytes.
      }
      StatusOr<NamedTensor> r = parse(m.str());
      ASSERT_TRUE(r.isOk()) << dtypeName(c.dt) << ": " << r.status().message();
      EXPECT_EQ(values(r->tensor), c.expected) << dtypeName(c.dt);
    }
  }
}

TEST(TensorProtoIOTest, Int32DataHoldsHalfBits) {
  Msg h;
  h.dims({2}).dataType(10).bytesField(5, packedVarints({0x3c00, 0xc000}));
  StatusOr<NamedTensor> r = parse(h.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{1.0, -2.0}));
  Msg b;
  b.dims({2}).dataType(16).bytesField(5, packedVarints({0x3f80, 0x4049}));
  r = parse(b.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{1.0, 3.140625}));
}

TEST(TensorProtoIOTest, Int64AndUint64Data) {
  Msg i;
  i.dims({3}).dataType(7).bytesField(7,
                                     packedVarints({INT64_MIN, INT64_MAX, -1}));
  StatusOr<NamedTensor> r = parse(i.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(rawValues<int64_t>(r->tensor),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX, -1}));
  Msg iu;
  iu.dims({1}).dataType(7).varintField(7, static_cast<uint64_t>(-42));
  r = parse(iu.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(rawValues<int64_t>(r->tensor), (std::vector<int64_t>{-42}));

  Msg u;
  u.dims({2}).dataType(13).varintField(11, UINT64_MAX).varintField(11, 3);
  r = parse(u.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(rawValues<uint64_t>(r->tensor),
            (std::vector<uint64_t>{UINT64_MAX, 3}));
  Msg u32;
  u32.dims({2}).dataType(12).bytesField(11, packedVarints({0xffffffffLL, 1}));
  r = parse(u32.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(rawValues<uint32_t>(r->tensor),
            (std::vector<uint32_t>{0xffffffffu, 1}));
}

TEST(TensorProtoIOTest, SkipsUnknownAndIgnoredFields) {
  Msg m;
  m.bytesField(3, Msg().varintField(1, 0).varintField(2, 4).str()) // segment
      .bytesField(12, "documentation")                             // doc_string
      .varintField(100, 12345)
      .fixed32Field(101, 7)
      .fixed64Field(102, 9)
      .bytesField(103, "opaque")
      .varintField(14, 0) // data_location = DEFAULT
      .dims({2})
      .dataType(6)
      .bytesField(9, packedFixed<int32_t>({4, 5}));
  StatusOr<NamedTensor> r = parse(m.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(values(r->tensor), (std::vector<double>{4, 5}));
}

TEST(TensorProtoIOTest, NormalizesBoolRawData) {
  Msg m;
  m.dims({3}).dataType(9).bytesField(9, std::string("\x00\x01\x07", 3));
  StatusOr<NamedTensor> r = parse(m.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(rawValues<uint8_t>(r->tensor), (std::vector<uint8_t>{0, 1, 1}));
}

TEST(TensorProtoIOTest, ZeroElementsWithoutData) {
  Msg m;
  m.dims({0, 3}).dataType(1);
  StatusOr<NamedTensor> r = parse(m.str());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->tensor.shape(), (Shape{0, 3}));
  EXPECT_EQ(r->tensor.dtype(), DType::F32);
}

TEST(TensorProtoIOTest, RejectsTruncationAtEveryByte) {
  const std::string full = Msg()
                               .dims({2, 2})
                               .dataType(1)
                               .bytesField(8, "input_0")
                               .bytesField(9, packedFixed<float>({1, 2, 3, 4}))
                               .str();
  ASSERT_TRUE(parse(full).isOk());
  for (size_t n = 0; n < full.size(); ++n)
    parseError(full.substr(0, n));
  // The same with typed data last.
  const std::string typed = Msg()
                                .dims({3})
                                .dataType(7)
                                .bytesField(7, packedVarints({1, -300, 7}))
                                .str();
  ASSERT_TRUE(parse(typed).isOk());
  for (size_t n = 0; n < typed.size(); ++n)
    parseError(typed.substr(0, n));
}

TEST(TensorProtoIOTest, RejectsMalformedWireData) {
  // A varint longer than 10 bytes.
  EXPECT_TRUE(contains(parseError(std::string(12, '\xff')), "varint"));
  // A 10-byte varint with bits beyond 64.
  EXPECT_TRUE(contains(parseError(std::string(9, '\xff') + "\x7f"), "64"));
  // Field number 0.
  parseError(Msg().varint(0).varint(1).str());
  // Wire types 3, 4 (groups), 6 and 7.
  for (uint32_t wire : {3u, 4u, 6u, 7u})
    EXPECT_TRUE(
        contains(parseError(Msg().key(50, wire).varint(0).str()), "wire type"))
        << wire;
  // Known fields with the wrong wire type.
  parseError(Msg().key(2, 2).varint(1).raw("x").str());
  parseError(Msg().dims({1}).dataType(1).key(9, 0).varint(4).str());
  parseError(
      Msg().dims({1}).dataType(1).key(4, 1).raw(std::string(8, 0)).str());
  parseError(Msg().key(8, 5).raw("abcd").dataType(1).str());
  // A length past the end.
  parseError(Msg().dataType(1).key(9, 2).varint(1000).raw("abc").str());
  parseError(Msg().dataType(1).key(9, 2).varint(UINT64_MAX).str());
  // Packed payloads that do not divide into elements.
  parseError(Msg().dims({1}).dataType(1).bytesField(4, "abc").str());
  parseError(Msg().dims({1}).dataType(11).bytesField(10, "abcdefg").str());
  // A packed varint cut inside its payload.
  parseError(Msg().dims({1}).dataType(7).bytesField(7, "\x80").str());
  parseError(Msg().packedDims({}).raw("").bytesField(1, "\xff").str());
}

TEST(TensorProtoIOTest, RejectsGarbage) {
  for (const char *g : {"\xff", "\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                        "hello world", "\x08\x01\x08", "\x12\x01"})
    parseError(g);
  // Random bytes must never crash; they almost always fail.
  std::mt19937 rng(1234);
  int failures = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s(rng() % 64, '\0');
    for (char &c : s)
      c = static_cast<char>(rng());
    StatusOr<NamedTensor> r = parse(s);
    if (!r.isOk()) {
      ++failures;
      EXPECT_TRUE(contains(r.status().message(), "test.pb"));
    } else {
      EXPECT_GE(r->tensor.numElements(), 0);
    }
  }
  EXPECT_GT(failures, 2900);
  // Mutations of a valid message: flip each byte to every value.
  const std::string valid = Msg()
                                .dims({2})
                                .dataType(7)
                                .bytesField(8, "v")
                                .bytesField(7, packedVarints({1, 2}))
                                .str();
  for (size_t i = 0; i < valid.size(); ++i) {
    for (int b = 0; b < 256; ++b) {
      std::string m = valid;
      m[i] = static_cast<char>(b);
      StatusOr<NamedTensor> r = parse(m);
      if (r.isOk()) {
        EXPECT_EQ(r->tensor.numElements() *
                      int64_t(dtypeSize(r->tensor.dtype())),
                  int64_t(r->tensor.byteSize()));
      }
    }
  }
}

TEST(TensorProtoIOTest, RejectsBadDims) {
  // Negative (encoded as a 10-byte varint).
  EXPECT_TRUE(
      contains(parseError(Msg().dims({-1}).dataType(1).str()), "negative"));
  EXPECT_TRUE(contains(parseError(Msg().packedDims({3, -5}).dataType(1).str()),
                       "negative"));
  // Overflowing element count / byte size: rejected before allocating.
  EXPECT_TRUE(contains(parseError(Msg().dims({INT64_MAX, 2}).dataType(1).str()),
                       "overflow"));
  EXPECT_TRUE(contains(
      parseError(
          Msg().dims({int64_t(1) << 62}).dataType(1).bytesField(9, "").str()),
      "overflow"));
  // Huge but representable: the payload does not match, nothing allocated.
  parseError(Msg().dims({int64_t(1) << 40}).dataType(1).str());
  parseError(Msg()
                 .dims({int64_t(1) << 31, int64_t(1) << 31})
                 .dataType(1)
                 .bytesField(9, "abcd")
                 .str());
  parseError(Msg()
                 .dims({int64_t(1) << 40})
                 .dataType(1)
                 .bytesField(4, packedFixed<float>({1}))
                 .str());
}

TEST(TensorProtoIOTest, RejectsCountPayloadMismatch) {
  EXPECT_TRUE(contains(
      parseError(Msg().dims({2}).dataType(1).bytesField(9, "1234567").str()),
      "raw_data"));
  parseError(
      Msg().dims({2}).dataType(1).bytesField(9, std::string(12, 0)).str());
  parseError(Msg()
                 .dims({2})
                 .dataType(1)
                 .bytesField(4, packedFixed<float>({1, 2, 3}))
                 .str());
  parseError(
      Msg().dims({4}).dataType(7).bytesField(7, packedVarints({1})).str());
  // No data at all for a non-empty tensor.
  EXPECT_TRUE(
      contains(parseError(Msg().dims({2}).dataType(1).str()), "no data"));
  // Scalar with no data.
  parseError(Msg().dataType(6).str());
  // Both raw and typed data.
  parseError(Msg()
                 .dims({1})
                 .dataType(1)
                 .bytesField(9, packedFixed<float>({1}))
                 .bytesField(4, packedFixed<float>({1}))
                 .str());
}

TEST(TensorProtoIOTest, RejectsWrongTypedField) {
  EXPECT_TRUE(contains(parseError(Msg()
                                      .dims({1})
                                      .dataType(7)
                                      .bytesField(4, packedFixed<float>({1}))
                                      .str()),
                       "float_data"));
  parseError(
      Msg().dims({1}).dataType(1).bytesField(5, packedVarints({1})).str());
  parseError(Msg().dims({1}).dataType(6).varintField(7, 1).str());
  parseError(Msg().dims({1}).dataType(13).varintField(5, 1).str());
  parseError(Msg()
                 .dims({1})
                 .dataType(11)
                 .bytesField(4, packedFixed<float>({1}))
                 .str());
}

TEST(TensorProtoIOTest, RejectsOutOfRangeTypedValues) {
  EXPECT_TRUE(contains(
      parseError(Msg().dims({1}).dataType(3).varintField(5, 300).str()),
      "out of range"));
  parseError(Msg()
                 .dims({1})
                 .dataType(3)
                 .varintField(5, static_cast<uint64_t>(-129))
                 .str());
  parseError(Msg().dims({1}).dataType(2).varintField(5, 256).str());
  parseError(Msg()
                 .dims({1})
                 .dataType(2)
                 .varintField(5, static_cast<uint64_t>(-1))
                 .str());
  parseError(Msg().dims({1}).dataType(9).varintField(5, 2).str());
  parseError(Msg().dims({1}).dataType(10).varintField(5, 0x10000).str());
  parseError(Msg().dims({1}).dataType(6).varintField(5, 0x80000000ULL).str());
  parseError(
      Msg().dims({1}).dataType(12).varintField(11, 0x100000000ULL).str());
}

TEST(TensorProtoIOTest, RejectsUnsupportedData) {
  EXPECT_TRUE(contains(
      parseError(Msg()
                     .dims({1})
                     .dataType(1)
                     .bytesField(13, Msg().bytesField(1, "location").str())
                     .str()),
      "external"));
  EXPECT_TRUE(
      contains(parseError(Msg().dims({1}).dataType(1).varintField(14, 1).str()),
               "external"));
  EXPECT_TRUE(contains(
      parseError(Msg().dims({1}).dataType(8).bytesField(6, "str").str()),
      "string"));
  EXPECT_TRUE(
      contains(parseError(Msg().dims({1}).dataType(8).str()), "data_type"));
  parseError(
      Msg().dims({1}).dataType(14).bytesField(9, std::string(8, 0)).str());
  parseError(Msg().dims({1}).dataType(0).bytesField(9, "").str());
  parseError(Msg().dims({1}).dataType(17).bytesField(9, "x").str());
  parseError(Msg().dims({1}).varintField(2, uint64_t(1) << 40).str());
  EXPECT_TRUE(contains(parseError(Msg().dims({1}).bytesField(9, "abcd").str()),
                       "data_type"));
  EXPECT_FALSE(parseTensorProto(nullptr, 4, "null.pb").isOk());
  EXPECT_FALSE(parseTensorProto(nullptr, 0, "null.pb").isOk());
}
