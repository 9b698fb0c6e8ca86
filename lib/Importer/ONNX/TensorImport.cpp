//===- TensorImport.cpp - ONNX tensors to constants and weights -*- C++ -*-===//
//
// Converts TensorProtos (initializers and Constant values) to dense
// constants or weight-store entries. External data is read safely: the
// location must be a relative path that stays inside the model's folder
// (after resolving symbolic links), offset and length must lie inside the
// file, and the byte count must match the element count.
//
//===----------------------------------------------------------------------===//

#include "ImporterContext.h"

#include "paracc/Encoding/OpEncoding.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;

std::string mlir::paracc::onnximport::shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "," : "") + std::to_string(d);
  return s + "]";
}

Type mlir::paracc::onnximport::elementTypeFromOnnx(MLIRContext *ctx,
                                                   int32_t dataType) {
  if (!rt::isSupportedDType(dataType))
    return Type();
  return fromDType(ctx, static_cast<rt::DType>(dataType));
}

namespace {
/// The element count and type of a TensorProto, validated.
struct TensorInfo {
  rt::DType dtype;
  Type elementType;
  SmallVector<int64_t> shape;
  uint64_t numElements;
  uint64_t byteSize;
};
} // namespace

static const char *dataTypeName(int32_t t) {
  switch (t) {
  case onnx::TensorProto::STRING:
    return "string";
  case onnx::TensorProto::COMPLEX64:
    return "complex64";
  case onnx::TensorProto::COMPLEX128:
    return "complex128";
  default:
    return nullptr;
  }
}

static FailureOr<TensorInfo> tensorInfo(const onnx::TensorProto &t,
                                        Location loc, ImportStatus &status) {
  TensorInfo info;
  info.elementType = elementTypeFromOnnx(loc.getContext(), t.data_type());
  if (!info.elementType) {
    status.unsupported = true;
    const char *name = dataTypeName(t.data_type());
    return emitError(loc) << "unsupported element type "
                          << (name ? name : std::to_string(t.data_type()))
                          << " of tensor '" << t.name() << "'";
  }
  info.dtype = static_cast<rt::DType>(t.data_type());
  uint64_t count = 1;
  for (int64_t d : t.dims()) {
    // Dims must be non-negative and their product must fit comfortably.
    if (d < 0 || (d != 0 && count > (uint64_t(1) << 50) / uint64_t(d)))
      return emitError(loc) << "tensor '" << t.name()
                            << "' has a negative or overflowing shape";
    count *= uint64_t(d);
    info.shape.push_back(d);
  }
  info.numElements = count;
  info.byteSize = count * rt::dtypeSize(info.dtype);
  return info;
}

/// Resolves an external-data location inside `modelDir`.
static FailureOr<std::string> resolveExternalPath(const std::string &location,
                                                  const std::string &modelDir,
                                                  const std::string &tensor,
                                                  Location loc) {
  if (location.empty())
    return emitError(loc) << "external data of tensor '" << tensor
                          << "' has no location";
  if (modelDir.empty())
    return emitError(loc) << "tensor '" << tensor << "' has external data ('"
                          << location
                          << "') but the model was given as bytes without "
                             "the folder of its data";
  if (llvm::sys::path::is_absolute(location))
    return emitError(loc) << "external data location '" << location
                          << "' of tensor '" << tensor
                          << "' is an absolute path; it must be relative to "
                             "the model's folder";
  for (auto it = llvm::sys::path::begin(location),
            end = llvm::sys::path::end(location);
       it != end; ++it)
    if (*it == "..")
      return emitError(loc) << "external data location '" << location
                            << "' of tensor '" << tensor
                            << "' escapes the model's folder";
  SmallString<256> path(modelDir);
  llvm::sys::path::append(path, location);
  SmallString<256> real, realDir;
  if (llvm::sys::fs::real_path(path, real) ||
      llvm::sys::fs::real_path(modelDir, realDir))
    return emitError(loc) << "external data file '" << location
                          << "' of tensor '" << tensor << "' not found";
  // A symbolic link may still point outside the folder.
  StringRef prefix(realDir);
  if (!StringRef(real).starts_with(prefix) ||
      (real.size() > prefix.size() &&
       !llvm::sys::path::is_separator(real[prefix.size()])))
    return emitError(loc) << "external data location '" << location
                          << "' of tensor '" << tensor
                          << "' resolves outside the model's folder";
  return std::string(real);
}

namespace {
/// Where a tensor's bytes are: a file range, or embedded.
struct ExternalRef {
  std::shared_ptr<MappedFile> file;
  uint64_t offset = 0;
};
} // namespace

/// Opens the external data of `t` (a file already mapped by this import is
/// reused) and checks the byte range.
static FailureOr<ExternalRef> openExternal(const onnx::TensorProto &t,
                                           const TensorInfo &info,
                                           const std::string &modelDir,
                                           Location loc,
                                           ImportStatus &status) {
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
  for (const auto &kv : t.external_data()) {
    auto parse = [&](uint64_t &out) -> LogicalResult {
      if (StringRef(kv.value()).getAsInteger(10, out))
        return emitError(loc) << "external data " << kv.key() << " '"
                              << kv.value() << "' of tensor '" << t.name()
                              << "' is not a non-negative integer";
      return success();
    };
    if (kv.key() == "location")
      location = kv.value();
    else if (kv.key() == "offset" && failed(parse(offset)))
      return failure();
    else if (kv.key() == "length") {
      if (failed(parse(length)))
        return failure();
      hasLength = true;
    }
  }
  FailureOr<std::string> path =
      resolveExternalPath(location, modelDir, t.name(), loc);
  if (failed(path))
    return failure();
  if (hasLength && length != info.byteSize)
    return emitError(loc) << "external data length " << length
                          << " of tensor '" << t.name() << "' does not match "
                          << info.numElements << " elements ("
                          << info.byteSize << " bytes)";
  std::shared_ptr<MappedFile> &file = status.externalFiles[*path];
  if (!file) {
    auto opened = MappedFile::open(*path);
    if (!opened) {
      status.externalFiles.erase(*path);
      return emitError(loc) << "tensor '" << t.name()
                            << "': " << opened.status().message();
    }
    file = std::move(*opened);
  }
  if (offset > file->size() || info.byteSize > file->size() - offset)
    return emitError(loc) << "external data of tensor '" << t.name()
                          << "' (offset " << offset << ", " << info.byteSize
                          << " bytes) lies outside '" << location << "' ("
                          << file->size() << " bytes)";
  return ExternalRef{file, offset};
}

/// Copies the typed repeated fields of `t` into `out` (little-endian element
/// layout). Fails if their count does not match.
static LogicalResult copyTypedFields(const onnx::TensorProto &t,
                                     const TensorInfo &info,
                                     std::vector<uint8_t> &out, Location loc) {
  auto mismatch = [&](size_t got) {
    return emitError(loc) << "tensor '" << t.name() << "' has " << got
                          << " values for " << info.numElements
                          << " elements";
  };
  auto store = [&](auto values, auto convert) -> LogicalResult {
    // Check the count before allocating: the dims alone may ask for
    // petabytes.
    if (static_cast<uint64_t>(values.size()) != info.numElements)
      return mismatch(values.size());
    out.assign(info.byteSize, 0);
    size_t size = rt::dtypeSize(info.dtype);
    for (int i = 0, e = values.size(); i < e; ++i) {
      auto v = convert(values.Get(i));
      std::memcpy(out.data() + i * size, &v, size);
    }
    return success();
  };
  using D = rt::DType;
  switch (info.dtype) {
  case D::F32:
    return store(t.float_data(), [](float v) { return v; });
  case D::F64:
    return store(t.double_data(), [](double v) { return v; });
  case D::I64:
    return store(t.int64_data(), [](int64_t v) { return v; });
  case D::U32:
    return store(t.uint64_data(), [](uint64_t v) { return uint32_t(v); });
  case D::U64:
    return store(t.uint64_data(), [](uint64_t v) { return v; });
  case D::I32:
    return store(t.int32_data(), [](int32_t v) { return v; });
  case D::I16:
    return store(t.int32_data(), [](int32_t v) { return int16_t(v); });
  case D::U16:
  case D::F16:
  case D::BF16:
    return store(t.int32_data(), [](int32_t v) { return uint16_t(v); });
  case D::I8:
    return store(t.int32_data(), [](int32_t v) { return int8_t(v); });
  case D::U8:
  case D::Bool:
    return store(t.int32_data(), [](int32_t v) { return uint8_t(v); });
  case D::Invalid:
    break;
  }
  return failure();
}

/// The bytes of `t` as a view (external or raw_data) or copied into
/// `scratch` (typed fields).
static FailureOr<ArrayRef<uint8_t>>
tensorBytes(const onnx::TensorProto &t, const TensorInfo &info,
            const std::string &modelDir, Location loc,
            std::vector<uint8_t> &scratch, ExternalRef &external,
            ImportStatus &status) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    FailureOr<ExternalRef> ref = openExternal(t, info, modelDir, loc, status);
    if (failed(ref))
      return failure();
    external = *ref;
    return ArrayRef<uint8_t>(external.file->data() + external.offset,
                             info.byteSize);
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != info.byteSize)
      return emitError(loc) << "tensor '" << t.name() << "' has "
                            << t.raw_data().size() << " bytes of raw data for "
                            << info.numElements << " elements ("
                            << info.byteSize << " bytes)";
    return ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(t.raw_data().data()),
        info.byteSize);
  }
  if (failed(copyTypedFields(t, info, scratch, loc)))
    return failure();
  return ArrayRef<uint8_t>(scratch);
}

FailureOr<DenseElementsAttr> mlir::paracc::onnximport::constantFromTensorProto(
    const onnx::TensorProto &t, const std::string &modelDir, Location loc,
    ImportStatus &status) {
  FailureOr<TensorInfo> info = tensorInfo(t, loc, status);
  if (failed(info))
    return failure();
  std::vector<uint8_t> scratch;
  ExternalRef external;
  FailureOr<ArrayRef<uint8_t>> bytes =
      tensorBytes(t, *info, modelDir, loc, scratch, external, status);
  if (failed(bytes))
    return failure();
  auto type = RankedTensorType::get(info->shape, info->elementType);
  if (info->elementType.isInteger(1)) {
    SmallVector<bool> values(bytes->begin(), bytes->end());
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(bytes->data()),
                           bytes->size()));
}

FailureOr<WeightEntry> mlir::paracc::onnximport::weightFromTensorProto(
    const onnx::TensorProto &t, const std::string &modelDir, Location loc,
    ImportStatus &status, bool allowMissingData, bool shapesOnly) {
  FailureOr<TensorInfo> info = tensorInfo(t, loc, status);
  if (failed(info))
    return failure();
  WeightEntry entry;
  entry.dtype = info->dtype;
  entry.shape.assign(info->shape.begin(), info->shape.end());
  entry.size = info->byteSize;
  bool noData = t.data_location() != onnx::TensorProto::EXTERNAL &&
                !t.has_raw_data() && t.float_data_size() == 0 &&
                t.int32_data_size() == 0 && t.int64_data_size() == 0 &&
                t.double_data_size() == 0 && t.uint64_data_size() == 0;
  if (shapesOnly || (allowMissingData && noData))
    return entry; // shape only: filled with random values later, or planned
  std::vector<uint8_t> scratch;
  ExternalRef external;
  FailureOr<ArrayRef<uint8_t>> bytes =
      tensorBytes(t, *info, modelDir, loc, scratch, external, status);
  if (failed(bytes))
    return failure();
  if (external.file) {
    entry.file = external.file;
    entry.offset = external.offset;
  } else {
    entry.owned.assign(bytes->begin(), bytes->end());
  }
  return entry;
}
