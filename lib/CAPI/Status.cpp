//===- Status.cpp - The C API's statuses and versions -----------*- C++ -*-===//

#include "CAPIObjects.h"

using namespace paracc::capi;

paracc_status *paracc::capi::makeStatus(paracc_code code,
                                        std::string message) {
  // Messages end without the tools' trailing newline.
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  auto *status = new paracc_status;
  status->code = code;
  status->message = std::move(message);
  return status;
}

paracc_status *paracc::capi::invalidArgument(const char *function,
                                             const std::string &what) {
  return makeStatus(PARACC_INVALID_ARGUMENT,
                    std::string(function) + ": " + what);
}

paracc_status *paracc::capi::checkIndex(const char *function, size_t index,
                                        size_t count) {
  if (index < count)
    return nullptr;
  return invalidArgument(function, "index " + std::to_string(index) +
                                       " is out of range (there are " +
                                       std::to_string(count) + ")");
}

void paracc::capi::describePort(const paracc::rt::PortInfo &port,
                                const char **name, paracc_dtype *dtype,
                                int32_t *rank, const int64_t **shape) {
  if (name)
    *name = port.name.c_str();
  if (dtype)
    *dtype = paracc_dtype(port.globalType.dtype);
  if (rank)
    *rank = int32_t(port.globalType.shape.size());
  if (shape)
    *shape = port.globalType.shape.data();
}

extern "C" {

int paracc_api_version(void) { return PARACC_C_API_VERSION; }

const char *paracc_version(void) {
  static const std::string version =
      std::string("paracc ") + PARACC_VERSION + " (executable format " +
      std::to_string(paracc::rt::kExecutableFormatVersion) + ", C API " +
      std::to_string(PARACC_C_API_VERSION) + ")";
  return version.c_str();
}

paracc_code paracc_status_code(const paracc_status *status) {
  return status ? status->code : PARACC_OK;
}

const char *paracc_status_message(const paracc_status *status) {
  return status ? status->message.c_str() : "";
}

void paracc_status_free(paracc_status *status) { delete status; }

} // extern "C"
