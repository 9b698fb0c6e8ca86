//===- NpzIO.cpp - NumPy .npy and .npz files --------------------*- C++ -*-===//
//
// The .npy format (numpy/lib/format.py): "\x93NUMPY", major and minor
// version bytes, a little-endian header length (u16 for 1.0, u32 for 2.0 and
// 3.0), then a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with
// spaces to a 64-byte boundary, then the data.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/NpzIO.h"

#include <cstring>
#include <memory>

#ifdef PARACC_HAVE_LIBZIP
#include <zip.h>
#endif

using namespace paracc::rt;

namespace {

struct DescrEntry {
  const char *descr;
  DType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"<f4", DType::F32}, {"<f8", DType::F64}, {"<f2", DType::F16},
    {"|i1", DType::I8},  {"<i2", DType::I16}, {"<i4", DType::I32},
    {"<i8", DType::I64}, {"|u1", DType::U8},  {"<u2", DType::U16},
    {"<u4", DType::U32}, {"<u8", DType::U64}, {"|b1", DType::Bool},
};

/// The value of `key` in the header dict (up to the next ',' at depth 0 or
/// the closing '}'), without surrounding spaces and quotes.
bool headerValue(const std::string &header, const std::string &key,
                 std::string &value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  size_t colon = header.find(':', at);
  if (colon == std::string::npos)
    return false;
  size_t i = colon + 1;
  int depth = 0;
  std::string out;
  for (; i < header.size(); ++i) {
    char c = header[i];
    if (c == '(')
      ++depth;
    if (c == ')')
      --depth;
    if (depth == 0 && (c == ',' || c == '}'))
      break;
    out += c;
  }
  size_t b = out.find_first_not_of(" '\"");
  size_t e = out.find_last_not_of(" '\"");
  value = b == std::string::npos ? "" : out.substr(b, e - b + 1);
  return true;
}

} // namespace

StatusOr<Tensor> paracc::rt::parseNpy(const void *data, size_t size,
                                      const std::string &what) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  if (size < 10 || std::memcmp(bytes, "\x93NUMPY", 6) != 0)
    return errorf(what, ": not a .npy array (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = size_t(bytes[8]) | size_t(bytes[9]) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return errorf(what, ": truncated .npy header");
    headerLen = size_t(bytes[8]) | size_t(bytes[9]) << 8 |
                size_t(bytes[10]) << 16 | size_t(bytes[11]) << 24;
    offset = 12;
  } else {
    return errorf(what, ": .npy format version ", int(major),
                  " is not supported");
  }
  if (headerLen > size - offset)
    return errorf(what, ": truncated .npy header");
  std::string header(reinterpret_cast<const char *>(bytes + offset), headerLen);
  std::string descr, order, shapeText;
  if (!headerValue(header, "descr", descr) ||
      !headerValue(header, "fortran_order", order) ||
      !headerValue(header, "shape", shapeText))
    return errorf(what, ": malformed .npy header '", header, "'");
  DType dtype = DType::Invalid;
  for (const DescrEntry &e : kDescrs)
    if (descr == e.descr)
      dtype = e.dtype;
  if (dtype == DType::Invalid)
    return errorf(what, ": .npy dtype '", descr, "' is not supported");
  if (order != "False")
    return errorf(what, ": Fortran-order .npy arrays are not supported");
  Shape shape;
  std::string number;
  for (char c : shapeText + ",") {
    if (c >= '0' && c <= '9') {
      number += c;
    } else if (c == ',' || c == ')') {
      if (!number.empty()) {
        if (number.size() > 15)
          return errorf(what, ": .npy dim ", number, " is too large");
        shape.push_back(std::stoll(number));
      }
      number.clear();
    } else if (c != '(' && c != ' ') {
      return errorf(what, ": malformed .npy shape '", shapeText, "'");
    }
  }
  auto tensor = Tensor::allocate(dtype, shape);
  if (!tensor)
    return tensor.status().withContext(what);
  size_t payload = size - offset - headerLen;
  if (payload != tensor->byteSize())
    return errorf(what, ": .npy data has ", payload, " bytes, its header (",
                  dtypeName(dtype), shapeToString(shape), ") says ",
                  tensor->byteSize());
  if (payload)
    std::memcpy(tensor->data(), bytes + offset + headerLen, payload);
  return std::move(*tensor);
}

std::string paracc::rt::serializeNpy(const Tensor &tensor) {
  const char *descr = "<f4";
  for (const DescrEntry &e : kDescrs)
    if (e.dtype == tensor.dtype())
      descr = e.descr;
  std::string shape = "(";
  for (int64_t d : tensor.shape())
    shape += std::to_string(d) + ", ";
  if (tensor.shape().size() > 1)
    shape.resize(shape.size() - 2);
  else if (tensor.shape().size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(static_cast<const char *>(tensor.data()), tensor.byteSize());
  return out;
}

#ifdef PARACC_HAVE_LIBZIP

StatusOr<std::vector<NamedTensor>>
paracc::rt::readNpzFile(const std::string &path) {
  int error = 0;
  std::unique_ptr<zip_t, int (*)(zip_t *)> archive(
      zip_open(path.c_str(), ZIP_RDONLY, &error), zip_close);
  if (!archive) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, error);
    std::string message = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return errorf(path, ": cannot read the .npz archive: ", message);
  }
  std::vector<NamedTensor> arrays;
  zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    if (zip_stat_index(archive.get(), i, 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_NAME))
      return errorf(path, ": cannot read member ", i);
    std::string name = st.name;
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".npy") != 0)
      return errorf(path, ": member '", name, "' is not a .npy array");
    if (st.size > (uint64_t(1) << 40))
      return errorf(path, ": member '", name, "' is too large");
    std::unique_ptr<zip_file_t, int (*)(zip_file_t *)> file(
        zip_fopen_index(archive.get(), i, 0), zip_fclose);
    if (!file)
      return errorf(path, ": cannot open member '", name, "'");
    std::vector<uint8_t> bytes(st.size);
    if (zip_fread(file.get(), bytes.data(), st.size) != zip_int64_t(st.size))
      return errorf(path, ": truncated member '", name, "'");
    auto tensor = parseNpy(bytes.data(), bytes.size(), path + ":" + name);
    if (!tensor)
      return tensor.status();
    arrays.push_back({name.substr(0, name.size() - 4), std::move(*tensor)});
  }
  return arrays;
}

Status paracc::rt::writeNpzFile(const std::string &path,
                                const std::vector<NamedTensor> &arrays) {
  int error = 0;
  zip_t *archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (!archive)
    return errorf(path, ": cannot create the .npz archive");
  // The sources must outlive zip_close, which writes the archive.
  std::vector<std::string> payloads;
  payloads.reserve(arrays.size());
  for (const NamedTensor &a : arrays) {
    payloads.push_back(serializeNpy(a.tensor));
    zip_source_t *source = zip_source_buffer(archive, payloads.back().data(),
                                             payloads.back().size(), 0);
    if (!source || zip_file_add(archive, (a.name + ".npy").c_str(), source,
                                ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) < 0) {
      if (source)
        zip_source_free(source);
      zip_discard(archive);
      return errorf(path, ": cannot add '", a.name, "'");
    }
    zip_set_file_compression(archive, zip_get_num_entries(archive, 0) - 1,
                             ZIP_CM_STORE, 0);
  }
  if (zip_close(archive) != 0) {
    std::string message = zip_strerror(archive);
    zip_discard(archive);
    return errorf(path, ": cannot write the .npz archive: ", message);
  }
  return Status::ok();
}

#else

StatusOr<std::vector<NamedTensor>>
paracc::rt::readNpzFile(const std::string &path) {
  return errorf(path, ": this runtime was built without libzip (.npz files)");
}

Status paracc::rt::writeNpzFile(const std::string &path,
                                const std::vector<NamedTensor> &) {
  return errorf(path, ": this runtime was built without libzip (.npz files)");
}

#endif
