//===- Executable.cpp - The C API's executables -----------------*- C++ -*-===//

#include "CAPIObjects.h"

#include "paracc/runtime/Checkpoint.h"

namespace prt = ::paracc::rt;
using namespace paracc::capi;

static paracc_status *wrap(prt::StatusOr<std::shared_ptr<prt::Executable>> exe,
                           paracc_executable **out) {
  if (!exe)
    return makeStatus(PARACC_ERROR, "paracc: error: " + exe.status().message());
  auto *result = new paracc_executable;
  result->exe = std::move(*exe);
  *out = result;
  return nullptr;
}

/// Port `index` of `ports` into the out-parameters.
static paracc_status *describePortAt(const char *fn,
                                     const std::vector<prt::PortInfo> &ports,
                                     size_t index, const char **name,
                                     paracc_dtype *dtype, int32_t *rank,
                                     const int64_t **shape) {
  if (paracc_status *bad = checkIndex(fn, index, ports.size()))
    return bad;
  describePort(ports[index], name, dtype, rank, shape);
  return nullptr;
}

extern "C" {

paracc_status *paracc_executable_load_file(const char *path,
                                           paracc_executable **out) {
  const char *fn = "paracc_executable_load_file";
  if (!path || !out)
    return invalidArgument(fn, "path and out must not be null");
  *out = nullptr;
  return guarded(fn, [&] { return wrap(prt::Executable::loadFile(path), out); });
}

paracc_status *paracc_executable_load_buffer(const void *bytes, size_t size,
                                             paracc_executable **out) {
  const char *fn = "paracc_executable_load_buffer";
  if (!bytes || !out)
    return invalidArgument(fn, "bytes and out must not be null");
  *out = nullptr;
  return guarded(fn, [&] {
    const auto *begin = static_cast<const uint8_t *>(bytes);
    return wrap(prt::Executable::loadBuffer(
                    std::vector<uint8_t>(begin, begin + size)),
                out);
  });
}

paracc_status *paracc_executable_save(const paracc_executable *exe,
                                      const char *path) {
  const char *fn = "paracc_executable_save";
  if (!exe || !path)
    return invalidArgument(fn, "exe and path must not be null");
  return guarded(fn, [&]() -> paracc_status * {
    // A failed save leaves what was there.
    if (prt::Status st = prt::writeFileAtomically(
            path, exe->exe->fileBytes(), exe->exe->fileSize());
        !st)
      return makeStatus(PARACC_ERROR, "paracc: error: " + st.message());
    return nullptr;
  });
}

void paracc_executable_bytes(const paracc_executable *exe, const void **bytes,
                             size_t *size) {
  if (bytes)
    *bytes = exe ? exe->exe->fileBytes() : nullptr;
  if (size)
    *size = exe ? exe->exe->fileSize() : 0;
}

const char *paracc_executable_explain_json(const paracc_executable *exe) {
  return exe ? exe->explainJson.c_str() : "";
}

const char *paracc_executable_explain_text(const paracc_executable *exe) {
  return exe ? exe->explainText.c_str() : "";
}

int64_t paracc_executable_num_ranks(const paracc_executable *exe) {
  return exe ? exe->exe->mesh().numRanks() : 0;
}

int paracc_executable_is_training(const paracc_executable *exe) {
  return exe && !exe->exe->training().empty();
}

size_t paracc_executable_num_inputs(const paracc_executable *exe) {
  return exe ? exe->exe->inputs().size() : 0;
}

size_t paracc_executable_num_outputs(const paracc_executable *exe) {
  return exe ? exe->exe->outputs().size() : 0;
}

paracc_status *paracc_executable_input(const paracc_executable *exe,
                                       size_t index, const char **name,
                                       paracc_dtype *dtype, int32_t *rank,
                                       const int64_t **shape) {
  const char *fn = "paracc_executable_input";
  if (!exe)
    return invalidArgument(fn, "exe is null");
  return describePortAt(fn, exe->exe->inputs(), index, name, dtype, rank,
                        shape);
}

paracc_status *paracc_executable_output(const paracc_executable *exe,
                                        size_t index, const char **name,
                                        paracc_dtype *dtype, int32_t *rank,
                                        const int64_t **shape) {
  const char *fn = "paracc_executable_output";
  if (!exe)
    return invalidArgument(fn, "exe is null");
  return describePortAt(fn, exe->exe->outputs(), index, name, dtype, rank,
                        shape);
}

size_t paracc_executable_num_state(const paracc_executable *exe) {
  return exe ? exe->exe->state().size() : 0;
}

paracc_status *paracc_executable_state(const paracc_executable *exe,
                                       size_t index, const char **name,
                                       paracc_dtype *dtype, int32_t *rank,
                                       const int64_t **shape) {
  const char *fn = "paracc_executable_state";
  if (!exe)
    return invalidArgument(fn, "exe is null");
  const auto &state = exe->exe->state();
  if (paracc_status *bad = checkIndex(fn, index, state.size()))
    return bad;
  describePort(state[index], name, dtype, rank, shape);
  return nullptr;
}

paracc_status *paracc_executable_state_block(const paracc_executable *exe,
                                             size_t index,
                                             paracc_state_kind *kind,
                                             int32_t *whole_rank,
                                             const int64_t **whole_shape,
                                             const int64_t **offsets) {
  const char *fn = "paracc_executable_state_block";
  if (!exe)
    return invalidArgument(fn, "exe is null");
  const auto &state = exe->exe->state();
  if (paracc_status *bad = checkIndex(fn, index, state.size()))
    return bad;
  const prt::StateInfo &s = state[index];
  if (kind)
    *kind = s.kind == prt::StateKind::Parameter    ? PARACC_STATE_PARAMETER
            : s.kind == prt::StateKind::WeightCopy ? PARACC_STATE_WEIGHT_COPY
                                                   : PARACC_STATE_OPTIMIZER;
  if (whole_rank)
    *whole_rank = int32_t(s.sourceShape.size());
  if (whole_shape)
    *whole_shape = s.sourceShape.data();
  if (offsets)
    *offsets = s.sourceOffsets.data();
  return nullptr;
}

void paracc_executable_free(paracc_executable *exe) { delete exe; }

} // extern "C"
