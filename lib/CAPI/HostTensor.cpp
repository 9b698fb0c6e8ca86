//===- HostTensor.cpp - The C API's paracc-owned tensors --------*- C++ -*-===//

#include "CAPIObjects.h"

#include "paracc/runtime/TensorProtoIO.h"

namespace prt = ::paracc::rt;
using namespace paracc::capi;

struct paracc_host_tensor {
  prt::NamedTensor value;
};

extern "C" {

paracc_status *paracc_host_tensor_load(const char *path,
                                       paracc_host_tensor **out) {
  const char *fn = "paracc_host_tensor_load";
  if (!path || !out)
    return invalidArgument(fn, "path and out must not be null");
  *out = nullptr;
  return guarded(fn, [&]() -> paracc_status * {
    auto tensor = prt::readTensorProtoFile(path);
    if (!tensor)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + tensor.status().message());
    *out = new paracc_host_tensor{std::move(*tensor)};
    return nullptr;
  });
}

void paracc_host_tensor_view(const paracc_host_tensor *tensor,
                             paracc_tensor *view) {
  if (!view)
    return;
  *view = paracc_tensor{};
  if (!tensor)
    return;
  const prt::Tensor &t = tensor->value.tensor;
  view->name = tensor->value.name.c_str();
  view->dtype = int32_t(t.dtype());
  view->rank = int32_t(t.rank());
  view->shape = t.shape().data();
  view->data = const_cast<void *>(t.data());
  view->size_bytes = t.byteSize();
}

void paracc_host_tensor_free(paracc_host_tensor *tensor) { delete tensor; }

} // extern "C"
