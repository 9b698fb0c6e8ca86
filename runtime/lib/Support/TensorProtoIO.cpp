//===- TensorProtoIO.cpp - ONNX TensorProto files -------------------------===//
//
// A protobuf wire-format reader and writer for the fields of onnx.TensorProto
// that the runtime needs. Every read is bounds-checked: malformed input is an
// error, never an out-of-bounds access.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/TensorProtoIO.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <vector>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "TensorProtoIO assumes a little-endian host (raw_data is little-endian)"
#endif

namespace paracc::rt {

namespace {

// onnx.TensorProto field numbers.
enum Field : uint32_t {
  kDims = 1,
  kDataType = 2,
  kSegment = 3,
  kFloatData = 4,
  kInt32Data = 5,
  kStringData = 6,
  kInt64Data = 7,
  kName = 8,
  kRawData = 9,
  kDoubleData = 10,
  kUint64Data = 11,
  kDocString = 12,
  kExternalData = 13,
  kDataLocation = 14,
};

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// A bounds-checked cursor over the message bytes.
class Reader {
public:
  Reader(const uint8_t *begin, const uint8_t *end, const std::string &what)
      : begin_(begin), pos_(begin), end_(end), what_(what) {}

  /// A reader of a payload of this message, reporting errors the same way.
  Reader sub(const uint8_t *data, size_t size) const {
    return Reader(data, data + size, what_);
  }

  bool atEnd() const { return pos_ == end_; }
  size_t offset() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }

  Status readVarint(uint64_t &v) {
    const size_t start = offset();
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ == end_)
        return fail("truncated varint at offset ", start);
      const uint8_t byte = *pos_++;
      if (shift == 63 && (byte & 0x7e))
        return fail("varint at offset ", start, " overflows 64 bits");
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return Status::ok();
    }
    return fail("varint at offset ", start, " is longer than 10 bytes");
  }

  Status readFixed(void *dst, size_t n) {
    if (remaining() < n)
      return fail("truncated fixed-width value at offset ", offset());
    std::memcpy(dst, pos_, n);
    pos_ += n;
    return Status::ok();
  }

  /// A length-delimited payload.
  Status readBytes(const uint8_t *&data, size_t &size) {
    const size_t start = offset();
    uint64_t len;
    PARACC_RETURN_IF_ERROR(readVarint(len));
    if (len > remaining())
      return fail("length ", len, " at offset ", start,
                  " runs past the end of the message (", remaining(),
                  " bytes left)");
    data = pos_;
    size = static_cast<size_t>(len);
    pos_ += size;
    return Status::ok();
  }

  Status skip(uint32_t wireType, uint32_t field) {
    switch (wireType) {
    case kVarint: {
      uint64_t v;
      return readVarint(v);
    }
    case kFixed64:
      if (remaining() < 8)
        return fail("truncated fixed64 of field ", field);
      pos_ += 8;
      return Status::ok();
    case kFixed32:
      if (remaining() < 4)
        return fail("truncated fixed32 of field ", field);
      pos_ += 4;
      return Status::ok();
    case kLengthDelimited: {
      const uint8_t *data;
      size_t size;
      return readBytes(data, size);
    }
    default:
      return fail("unsupported wire type ", wireType, " of field ", field);
    }
  }

  template <typename... Args> Status fail(const Args &...args) const {
    return errorf(what_, ": invalid TensorProto: ", args...);
  }

private:
  const uint8_t *begin_;
  const uint8_t *pos_;
  const uint8_t *end_;
  const std::string &what_;
};

/// The fields of one TensorProto as read from the wire.
struct RawProto {
  std::vector<int64_t> dims;
  int64_t dataType = 0;
  bool hasDataType = false;
  std::string name;
  const uint8_t *raw = nullptr;
  size_t rawSize = 0;
  bool hasRaw = false;
  std::vector<float> floats;
  std::vector<int64_t> int32s; // int32_data values, as decoded.
  std::vector<int64_t> int64s;
  std::vector<double> doubles;
  std::vector<uint64_t> uint64s;
};

/// Reads a repeated varint field, packed (wire type 2) or not (0).
template <typename T>
Status readVarints(Reader &r, uint32_t wireType, const char *field,
                   std::vector<T> &out) {
  if (wireType == kVarint) {
    uint64_t v;
    PARACC_RETURN_IF_ERROR(r.readVarint(v));
    out.push_back(static_cast<T>(v));
    return Status::ok();
  }
  if (wireType != kLengthDelimited)
    return r.fail("field ", field, " has wire type ", wireType,
                  ", expected varint or packed");
  const uint8_t *data;
  size_t size;
  PARACC_RETURN_IF_ERROR(r.readBytes(data, size));
  Reader sub = r.sub(data, size);
  while (!sub.atEnd()) {
    uint64_t v;
    if (!sub.readVarint(v).isOk())
      return r.fail("malformed varint in packed ", field);
    out.push_back(static_cast<T>(v));
  }
  return Status::ok();
}

/// Reads a repeated fixed-width field, packed (wire type 2) or not.
template <typename T>
Status readFixeds(Reader &r, uint32_t wireType, uint32_t singleWireType,
                  const char *field, std::vector<T> &out) {
  if (wireType == singleWireType) {
    T v;
    PARACC_RETURN_IF_ERROR(r.readFixed(&v, sizeof(T)));
    out.push_back(v);
    return Status::ok();
  }
  if (wireType != kLengthDelimited)
    return r.fail("field ", field, " has wire type ", wireType);
  const uint8_t *data;
  size_t size;
  PARACC_RETURN_IF_ERROR(r.readBytes(data, size));
  if (size % sizeof(T) != 0)
    return r.fail("packed ", field, " has ", size, " bytes, not a multiple of ",
                  sizeof(T));
  const size_t n = size / sizeof(T);
  const size_t old = out.size();
  out.resize(old + n);
  if (n)
    std::memcpy(out.data() + old, data, size);
  return Status::ok();
}

Status parseFields(Reader &r, RawProto &p) {
  while (!r.atEnd()) {
    const size_t keyOffset = r.offset();
    uint64_t key;
    PARACC_RETURN_IF_ERROR(r.readVarint(key));
    const uint64_t fieldNum = key >> 3;
    const uint32_t wireType = static_cast<uint32_t>(key & 7);
    if (fieldNum == 0 || fieldNum > 0x1fffffff)
      return r.fail("invalid field number ", fieldNum, " at offset ",
                    keyOffset);
    const uint32_t field = static_cast<uint32_t>(fieldNum);
    switch (field) {
    case kDims: {
      const size_t before = p.dims.size();
      PARACC_RETURN_IF_ERROR(readVarints(r, wireType, "dims", p.dims));
      for (size_t i = before; i < p.dims.size(); ++i) {
        if (p.dims[i] < 0)
          return r.fail("negative dimension ", p.dims[i]);
      }
      break;
    }
    case kDataType: {
      if (wireType != kVarint)
        return r.fail("data_type has wire type ", wireType);
      uint64_t v;
      PARACC_RETURN_IF_ERROR(r.readVarint(v));
      p.dataType = static_cast<int64_t>(v);
      p.hasDataType = true;
      break;
    }
    case kFloatData:
      PARACC_RETURN_IF_ERROR(
          readFixeds(r, wireType, kFixed32, "float_data", p.floats));
      break;
    case kInt32Data:
      PARACC_RETURN_IF_ERROR(readVarints(r, wireType, "int32_data", p.int32s));
      break;
    case kStringData:
      return r.fail("string tensors (string_data) are not supported");
    case kInt64Data:
      PARACC_RETURN_IF_ERROR(readVarints(r, wireType, "int64_data", p.int64s));
      break;
    case kName: {
      if (wireType != kLengthDelimited)
        return r.fail("name has wire type ", wireType);
      const uint8_t *data;
      size_t size;
      PARACC_RETURN_IF_ERROR(r.readBytes(data, size));
      p.name.assign(reinterpret_cast<const char *>(data), size);
      break;
    }
    case kRawData:
      if (wireType != kLengthDelimited)
        return r.fail("raw_data has wire type ", wireType);
      PARACC_RETURN_IF_ERROR(r.readBytes(p.raw, p.rawSize));
      p.hasRaw = true;
      break;
    case kDoubleData:
      PARACC_RETURN_IF_ERROR(
          readFixeds(r, wireType, kFixed64, "double_data", p.doubles));
      break;
    case kUint64Data:
      PARACC_RETURN_IF_ERROR(
          readVarints(r, wireType, "uint64_data", p.uint64s));
      break;
    case kExternalData:
      return r.fail("external data is not supported");
    case kDataLocation: {
      if (wireType != kVarint)
        return r.fail("data_location has wire type ", wireType);
      uint64_t v;
      PARACC_RETURN_IF_ERROR(r.readVarint(v));
      if (v != 0)
        return r.fail("external data (data_location = ", v,
                      ") is not supported");
      break;
    }
    case kSegment:
    case kDocString:
    default:
      PARACC_RETURN_IF_ERROR(r.skip(wireType, field));
      break;
    }
  }
  return Status::ok();
}

/// Narrows int32_data values into T, checking each against [lo, hi].
template <typename T>
Status fillFromInts(const Reader &r, const std::vector<int64_t> &values,
                    int64_t lo, int64_t hi, const char *dtype, void *dst) {
  T *out = static_cast<T *>(dst);
  for (size_t i = 0; i < values.size(); ++i) {
    // int32_data is int32 on the wire: negative values arrive sign-extended
    // to 64 bits, and larger ones are invalid.
    const int64_t v = values[i];
    if (v < lo || v > hi)
      return r.fail("int32_data value ", v, " at index ", i,
                    " is out of range for ", dtype);
    out[i] = static_cast<T>(v);
  }
  return Status::ok();
}

/// The typed field a dtype is stored in.
const char *typedFieldName(DType dt) {
  switch (dt) {
  case DType::F32:
    return "float_data";
  case DType::F64:
    return "double_data";
  case DType::I64:
    return "int64_data";
  case DType::U32:
  case DType::U64:
    return "uint64_data";
  default:
    return "int32_data";
  }
}

Status fillTyped(const Reader &r, const RawProto &p, DType dt, int64_t n,
                 void *dst) {
  // Every typed field present must be the one that this dtype uses.
  const char *expected = typedFieldName(dt);
  const std::pair<const char *, size_t> present[] = {
      {"float_data", p.floats.size()},   {"int32_data", p.int32s.size()},
      {"int64_data", p.int64s.size()},   {"double_data", p.doubles.size()},
      {"uint64_data", p.uint64s.size()},
  };
  size_t count = 0;
  for (const auto &[field, size] : present) {
    if (size == 0)
      continue;
    if (std::strcmp(field, expected) != 0)
      return r.fail(field, " cannot hold a ", dtypeName(dt), " tensor");
    count = size;
  }
  if (static_cast<uint64_t>(count) != static_cast<uint64_t>(n))
    return r.fail(expected, " has ", count, " values but the shape has ", n,
                  " elements");
  if (n == 0)
    return Status::ok();
  switch (dt) {
  case DType::F32:
    std::memcpy(dst, p.floats.data(), p.floats.size() * sizeof(float));
    return Status::ok();
  case DType::F64:
    std::memcpy(dst, p.doubles.data(), p.doubles.size() * sizeof(double));
    return Status::ok();
  case DType::I64:
    std::memcpy(dst, p.int64s.data(), p.int64s.size() * sizeof(int64_t));
    return Status::ok();
  case DType::U64:
    std::memcpy(dst, p.uint64s.data(), p.uint64s.size() * sizeof(uint64_t));
    return Status::ok();
  case DType::U32: {
    uint32_t *out = static_cast<uint32_t *>(dst);
    for (size_t i = 0; i < p.uint64s.size(); ++i) {
      if (p.uint64s[i] > std::numeric_limits<uint32_t>::max())
        return r.fail("uint64_data value ", p.uint64s[i], " at index ", i,
                      " is out of range for u32");
      out[i] = static_cast<uint32_t>(p.uint64s[i]);
    }
    return Status::ok();
  }
  case DType::I32:
    return fillFromInts<int32_t>(r, p.int32s, INT32_MIN, INT32_MAX, "i32", dst);
  case DType::I16:
    return fillFromInts<int16_t>(r, p.int32s, INT16_MIN, INT16_MAX, "i16", dst);
  case DType::I8:
    return fillFromInts<int8_t>(r, p.int32s, INT8_MIN, INT8_MAX, "i8", dst);
  case DType::U16:
    return fillFromInts<uint16_t>(r, p.int32s, 0, UINT16_MAX, "u16", dst);
  case DType::U8:
    return fillFromInts<uint8_t>(r, p.int32s, 0, UINT8_MAX, "u8", dst);
  case DType::Bool:
    return fillFromInts<uint8_t>(r, p.int32s, 0, 1, "bool", dst);
  case DType::F16:
  case DType::BF16:
    // The raw bits, zero-extended into int32.
    return fillFromInts<uint16_t>(r, p.int32s, 0, UINT16_MAX, dtypeName(dt),
                                  dst);
  default:
    return r.fail("unsupported data type ", static_cast<int>(dt));
  }
}

void appendVarint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void appendKey(std::string &out, uint32_t field, uint32_t wireType) {
  appendVarint(out, (static_cast<uint64_t>(field) << 3) | wireType);
}

} // namespace

namespace {

StatusOr<NamedTensor> parseImpl(const void *data, size_t size,
                                const std::string &what) {
  if (!data && size != 0)
    return errorf(what, ": invalid TensorProto: null buffer");
  const uint8_t *begin = static_cast<const uint8_t *>(data);
  Reader r(begin, begin + size, what);
  RawProto p;
  PARACC_RETURN_IF_ERROR(parseFields(r, p));

  if (!p.hasDataType)
    return r.fail("missing data_type");
  if (p.dataType < 0 || p.dataType > std::numeric_limits<int>::max() ||
      !isSupportedDType(static_cast<int>(p.dataType)))
    return r.fail("unsupported data_type ", p.dataType);
  const DType dt = static_cast<DType>(p.dataType);
  const size_t elemSize = dtypeSize(dt);

  const int64_t n = shapeNumElements(p.dims);
  int64_t bytes;
  if (n < 0 ||
      __builtin_mul_overflow(n, static_cast<int64_t>(elemSize), &bytes))
    return r.fail("element count of shape ", shapeToString(p.dims),
                  " overflows");

  const bool hasTyped = !p.floats.empty() || !p.int32s.empty() ||
                        !p.int64s.empty() || !p.doubles.empty() ||
                        !p.uint64s.empty();
  if (p.hasRaw && hasTyped)
    return r.fail("both raw_data and a typed data field are present");
  if (p.hasRaw) {
    if (static_cast<uint64_t>(bytes) != p.rawSize)
      return r.fail("raw_data has ", p.rawSize, " bytes but ", dtypeName(dt),
                    shapeToString(p.dims), " needs ", bytes);
  } else if (!hasTyped && n != 0) {
    return r.fail("no data for ", dtypeName(dt), shapeToString(p.dims));
  } else if (hasTyped) {
    // The payload bounds the element count: check before allocating.
    const size_t count = p.floats.size() + p.int32s.size() + p.int64s.size() +
                         p.doubles.size() + p.uint64s.size();
    if (static_cast<uint64_t>(count) != static_cast<uint64_t>(n))
      return r.fail(typedFieldName(dt), " has ", count,
                    " values but the shape ", shapeToString(p.dims), " has ", n,
                    " elements");
  }

  StatusOr<Tensor> t = Tensor::allocate(dt, p.dims);
  if (!t)
    return errorf(what, ": ", t.status().message());
  if (p.hasRaw) {
    if (p.rawSize)
      std::memcpy(t->data(), p.raw, p.rawSize);
    if (dt == DType::Bool) {
      uint8_t *b = t->as<uint8_t>();
      for (int64_t i = 0; i < n; ++i)
        b[i] = b[i] != 0;
    }
  } else if (hasTyped) {
    PARACC_RETURN_IF_ERROR(fillTyped(r, p, dt, n, t->data()));
  }
  NamedTensor result;
  result.name = std::move(p.name);
  result.tensor = std::move(*t);
  return result;
}

StatusOr<NamedTensor> readImpl(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return errorf(path, ": cannot open: ", std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  for (;;) {
    const size_t got = std::fread(buf, 1, sizeof(buf), f);
    bytes.insert(bytes.end(), buf, buf + got);
    if (got < sizeof(buf))
      break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed)
    return errorf(path, ": read error");
  return parseTensorProto(bytes.data(), bytes.size(), path);
}

} // namespace

StatusOr<NamedTensor> parseTensorProto(const void *data, size_t size,
                                       const std::string &what) {
  try {
    return parseImpl(data, size, what);
  } catch (const std::exception &e) {
    return errorf(what, ": ", e.what());
  }
}

StatusOr<NamedTensor> readTensorProtoFile(const std::string &path) {
  try {
    return readImpl(path);
  } catch (const std::exception &e) {
    return errorf(path, ": ", e.what());
  }
}

std::string serializeTensorProto(const Tensor &tensor,
                                 const std::string &name) {
  std::string out;
  for (int64_t d : tensor.shape()) {
    appendKey(out, kDims, kVarint);
    appendVarint(out, static_cast<uint64_t>(d));
  }
  appendKey(out, kDataType, kVarint);
  appendVarint(out, static_cast<uint64_t>(tensor.dtype()));
  appendKey(out, kName, kLengthDelimited);
  appendVarint(out, name.size());
  out += name;
  const size_t bytes = tensor.numElements() > 0 ? tensor.byteSize() : 0;
  appendKey(out, kRawData, kLengthDelimited);
  appendVarint(out, bytes);
  if (bytes)
    out.append(static_cast<const char *>(tensor.data()), bytes);
  return out;
}

Status writeTensorProtoFile(const std::string &path, const Tensor &tensor,
                            const std::string &name) {
  if (!tensor.isValid())
    return errorf(path, ": cannot write an invalid tensor");
  if (tensor.numElements() < 0)
    return errorf(path, ": cannot write ", tensor.typeString(),
                  ": invalid shape");
  if (tensor.numElements() > 0 && !tensor.data())
    return errorf(path, ": cannot write ", tensor.typeString(), ": no data");
  const std::string bytes = serializeTensorProto(tensor, name);
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return errorf(path, ": cannot open for writing: ", std::strerror(errno));
  const size_t wrote = std::fwrite(bytes.data(), 1, bytes.size(), f);
  const bool closeFailed = std::fclose(f) != 0;
  if (wrote != bytes.size() || closeFailed)
    return errorf(path, ": write error");
  return Status::ok();
}

} // namespace paracc::rt
