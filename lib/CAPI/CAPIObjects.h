//===- CAPIObjects.h - What the C API's handles hold ------------*- C++ -*-===//
//
// The C++ objects behind paracc.h's opaque handles, and the helpers every
// entry point uses to turn errors into statuses (never aborts).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_CAPI_CAPIOBJECTS_H
#define PARACC_LIB_CAPI_CAPIOBJECTS_H

#include "paracc-c/paracc.h"
#include "paracc/runtime/Executable.h"
#include "paracc/runtime/RankGroup.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

struct paracc_status {
  paracc_code code = PARACC_ERROR;
  std::string message;
};

struct paracc_options {
  /// In the order set; repeatable keys (input-shape) keep every value.
  std::vector<std::pair<std::string, std::string>> entries;
};

struct paracc_executable {
  std::shared_ptr<paracc::rt::Executable> exe;
  std::string explainJson, explainText;
};

struct paracc_plan {
  std::string json, text, html;
};

struct paracc_session {
  std::shared_ptr<paracc::rt::Executable> exe;
  std::unique_ptr<paracc::rt::RankGroup> ranks;
  std::string device;
};

namespace paracc::capi {

/// A new status (never null) with `code` and `message`.
paracc_status *makeStatus(paracc_code code, std::string message);

/// An INVALID_ARGUMENT status naming the function and what is wrong.
paracc_status *invalidArgument(const char *function, const std::string &what);

/// An INVALID_ARGUMENT status unless `index` < `count`.
paracc_status *checkIndex(const char *function, size_t index, size_t count);

/// A port's (or state buffer's) name, element type and global shape into
/// the out-parameters (each may be null).
void describePort(const paracc::rt::PortInfo &port, const char **name,
                  paracc_dtype *dtype, int32_t *rank, const int64_t **shape);

/// Copies state buffer `index` of `ranks`, assembled from their shards,
/// into `out` (checked against its type).
paracc_status *readState(const char *function,
                         const paracc::rt::RankGroup &ranks, size_t index,
                         paracc_tensor &out);

/// Runs `body`, turning a C++ exception (out of memory, a bug) into an
/// ERROR status instead of letting it cross the C boundary.
template <typename Body>
paracc_status *guarded(const char *function, Body &&body) noexcept {
  try {
    return body();
  } catch (const std::exception &e) {
    return makeStatus(PARACC_ERROR,
                      std::string(function) + ": internal error: " + e.what());
  } catch (...) {
    return makeStatus(PARACC_ERROR,
                      std::string(function) + ": internal error");
  }
}

} // namespace paracc::capi

#endif // PARACC_LIB_CAPI_CAPIOBJECTS_H
