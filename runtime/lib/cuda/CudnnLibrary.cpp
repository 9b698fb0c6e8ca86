//===- CudnnLibrary.cpp - libcudnn.so.9, opened once ----------------------===//
//
// See CudnnLibrary.h.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudnnLibrary.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

// The frontend's dynamic loading calls cuDNN through this handle.
namespace cudnn_frontend {
void *cudnn_dlhandle = nullptr;
} // namespace cudnn_frontend

namespace paracc::rt::cuda {

namespace fe = cudnn_frontend;

bool cudnnLogDecisions() {
  static const bool on = [] {
    const char *v = std::getenv("PARACC_CUDNN_LOG");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

bool cudnnLoaded() {
  static const bool loaded = [] {
    const char *path = std::getenv("PARACC_CUDNN_LIBRARY");
    const char *name = path && *path ? path : "libcudnn.so.9";
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      if (cudnnLogDecisions())
        std::fprintf(stderr, "paracc: cuDNN not used: %s\n", dlerror());
      return false;
    }
    fe::cudnn_dlhandle = handle;
    size_t version = 0;
    try {
      version = fe::detail::get_backend_version();
    } catch (const std::exception &e) {
      if (cudnnLogDecisions())
        std::fprintf(stderr, "paracc: cuDNN not used: %s\n", e.what());
      return false;
    }
    if (version < 90000) {
      if (cudnnLogDecisions())
        std::fprintf(stderr, "paracc: cuDNN %zu is older than 9.0: not used\n",
                     version);
      return false;
    }
    if (cudnnLogDecisions())
      std::fprintf(stderr, "paracc: cuDNN %zu loaded from %s\n", version, name);
    return true;
  }();
  return loaded;
}

cudnnHandle_t cudnnHandleFor(int device) {
  static std::mutex mutex;
  static std::map<int, cudnnHandle_t> handles;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = handles.find(device);
  if (it != handles.end())
    return it->second;
  cudnnHandle_t handle = nullptr;
  try {
    if (fe::detail::create_handle(&handle) != CUDNN_STATUS_SUCCESS)
      handle = nullptr;
  } catch (const std::exception &) {
    handle = nullptr;
  }
  handles[device] = handle;
  return handle;
}

std::string buildCudnnPlans(fe::graph::Graph &graph, cudnnHandle_t handle,
                            int64_t &workspace,
                            const std::vector<fe::NumericalNote_t> &avoid) {
  std::string failure;
  auto ok = [&](fe::error_t e, const char *step) {
    if (e.is_good())
      return true;
    failure = std::string(step) + ": " + e.get_message();
    return false;
  };
  // The filter bars engines of the plans' list: after it exists, before
  // the support check.
  auto filter = [&] {
    if (!avoid.empty())
      graph.deselect_numeric_notes(avoid);
    return fe::error_t();
  };
  if (ok(graph.validate(), "validate") &&
      ok(graph.build_operation_graph(handle), "operation graph") &&
      ok(graph.create_execution_plans(
             {fe::HeurMode_t::A, fe::HeurMode_t::FALLBACK}),
         "execution plans") &&
      ok(filter(), "filter") && ok(graph.check_support(handle), "support") &&
      ok(graph.build_plans(handle), "build"))
    ok(graph.get_workspace_size(workspace), "workspace");
  return failure;
}

bool streamIsCapturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &status) != cudaSuccess ||
         status != cudaStreamCaptureStatusNone;
}

bool aligned16(std::initializer_list<const void *> pointers) {
  for (const void *p : pointers)
    if (reinterpret_cast<uintptr_t>(p) % 16 != 0)
      return false;
  return true;
}

} // namespace paracc::rt::cuda
