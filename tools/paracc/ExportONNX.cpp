//===- ExportONNX.cpp - The trained model back to ONNX ---------*- C++ -*-===//
//
// `paracc train ... --export-onnx OUT.onnx`: the input model with every
// initializer stored as external data in OUT.onnx.data, the trained
// parameters' values replacing the originals. The graph itself is the input
// model's, unchanged, so any ONNX runtime loads the result.
//
//===----------------------------------------------------------------------===//

#include "ExportONNX.h"

#include "paracc/Importer/ONNX/onnx.pb.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/io/coded_stream.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace mlir;
using namespace mlir::paracc;

LogicalResult mlir::paracc::exportTrainedONNX(
    StringRef modelPath, StringRef outPath, const WeightStore &weights,
    const std::map<std::string, ::paracc::rt::Tensor> &trained) {
  auto fail = [&](const Twine &message) {
    llvm::errs() << "paracc: error: --export-onnx " << outPath << ": "
                 << message << "\n";
    return failure();
  };
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("cannot read '" + modelPath + "'");
  StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() > size_t(INT_MAX))
    return fail("the model is larger than protobuf's 2 GiB limit");
  onnx::ModelProto model;
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
  if (!model.ParseFromCodedStream(&stream))
    return fail("cannot parse '" + modelPath + "'");

  std::string dataName = llvm::sys::path::filename(outPath).str() + ".data";
  SmallString<256> dataPath(llvm::sys::path::parent_path(outPath));
  llvm::sys::path::append(dataPath, dataName);
  // Both files are written under temporary names and renamed at the end: a
  // failed export leaves what was there, and a file something still maps
  // (the model's own data, when exporting over it) is replaced, never
  // rewritten in place.
  std::string dataTemp = dataPath.str().str() + ".partial";
  std::string outTemp = outPath.str() + ".partial";
  auto failAndClean = [&](const Twine &message) {
    std::remove(dataTemp.c_str());
    std::remove(outTemp.c_str());
    return fail(message);
  };
  std::ofstream data(dataTemp, std::ios::binary | std::ios::trunc);
  if (!data)
    return fail("cannot write '" + dataTemp + "'");
  uint64_t offset = 0;
  for (onnx::TensorProto &t : *model.mutable_graph()->mutable_initializer()) {
    const uint8_t *from = nullptr;
    size_t size = 0;
    if (auto it = trained.find(t.name()); it != trained.end()) {
      if (t.data_type() != onnx::TensorProto::FLOAT ||
          it->second.dtype() != ::paracc::rt::DType::F32)
        return failAndClean("trained parameter '" + t.name() + "' is not f32");
      from = static_cast<const uint8_t *>(it->second.data());
      size = it->second.byteSize();
    } else if (const WeightEntry *w = weights.lookup(t.name());
               w && w->hasData()) {
      from = w->data();
      size = w->size ? w->size : w->owned.size();
    } else if (t.data_location() != onnx::TensorProto::EXTERNAL) {
      continue; // inline data the importer kept as a constant: as it is
    } else {
      return failAndClean("initializer '" + t.name() + "' has no data to export");
    }
    // 64-byte aligned, as the exporters write it.
    uint64_t start = (offset + 63) / 64 * 64;
    for (; offset < start; ++offset)
      data.put('\0');
    data.write(reinterpret_cast<const char *>(from), std::streamsize(size));
    t.clear_raw_data();
    t.clear_float_data();
    t.clear_double_data();
    t.clear_int32_data();
    t.clear_int64_data();
    t.clear_uint64_data();
    t.clear_external_data();
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    auto entry = [&](const char *key, const std::string &value) {
      onnx::StringStringEntryProto *e = t.add_external_data();
      e->set_key(key);
      e->set_value(value);
    };
    entry("location", dataName);
    entry("offset", std::to_string(start));
    entry("length", std::to_string(size));
    offset = start + size;
  }
  data.close();
  if (!data)
    return failAndClean("cannot write '" + dataTemp + "'");
  {
    std::ofstream out(outTemp, std::ios::binary | std::ios::trunc);
    if (!out || !model.SerializeToOstream(&out) || !out.flush())
      return failAndClean("cannot write '" + outTemp + "'");
  }
  if (std::rename(dataTemp.c_str(), dataPath.c_str()) != 0 ||
      std::rename(outTemp.c_str(), outPath.str().c_str()) != 0)
    return failAndClean("cannot rename the written files into place: " +
                        Twine(std::strerror(errno)));
  return success();
}
