//===- TensorProtoIO.h - ONNX TensorProto files ---------------*- C++ -*-===//
//
// Reads and writes ONNX TensorProto messages (the input_N.pb / output_N.pb
// files of the ONNX backend tests) without a protobuf dependency: the
// runtime parses the few wire-format fields it needs itself.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_TENSORPROTOIO_H
#define PARACC_RUNTIME_TENSORPROTOIO_H

#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <string>

namespace paracc::rt {

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

/// Parses a serialized TensorProto. Supports raw_data and the typed
/// repeated fields (float_data, int32_data, int64_data, double_data,
/// uint64_data) for the dtypes in DType.h. Rejects truncated or malformed
/// input, external data, element counts that overflow or disagree with the
/// payload, with a message that names `what` (usually the file path).
StatusOr<NamedTensor> parseTensorProto(const void *data, size_t size,
                                       const std::string &what);
StatusOr<NamedTensor> readTensorProtoFile(const std::string &path);

/// Serializes with dims, data_type, name and raw_data.
std::string serializeTensorProto(const Tensor &tensor,
                                 const std::string &name);
Status writeTensorProtoFile(const std::string &path, const Tensor &tensor,
                            const std::string &name);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_TENSORPROTOIO_H
