//===- Session.cpp - The C API's running sessions ---------------*- C++ -*-===//

#include "CAPIObjects.h"
#include "ParsedOptions.h"

#include "paracc/runtime/Inputs.h"
#include "paracc/runtime/RankGroup.h"

#include <cstring>
#include <sstream>

namespace prt = ::paracc::rt;
using namespace paracc::capi;

/// The global type `t` describes, or an error naming `what`.
static paracc_status *checkTensor(const char *fn, const std::string &what,
                                  const paracc_tensor &t, prt::Shape &shape) {
  if (t.rank < 0 || t.rank > 32)
    return invalidArgument(fn, what + " has rank " + std::to_string(t.rank));
  if (t.rank > 0 && !t.shape)
    return invalidArgument(fn, what + " has rank " + std::to_string(t.rank) +
                                   " but no shape");
  shape.assign(t.shape, t.shape + t.rank);
  int64_t elements = prt::shapeNumElements(shape);
  if (elements < 0)
    return invalidArgument(fn, what + " has a negative dimension");
  if (!prt::isSupportedDType(t.dtype))
    return invalidArgument(fn, what + " has an unknown dtype " +
                                   std::to_string(int(t.dtype)));
  prt::DType dtype = prt::DType(t.dtype);
  size_t elementSize = prt::dtypeSize(dtype);
  if (t.size_bytes != size_t(elements) * elementSize)
    return invalidArgument(
        fn, what + " is " + prt::dtypeName(dtype) + prt::shapeToString(shape) +
                ", " + std::to_string(size_t(elements) * elementSize) +
                " bytes, but its buffer has " + std::to_string(t.size_bytes));
  if (!t.data && t.size_bytes > 0)
    return invalidArgument(fn, what + " has no data");
  return nullptr;
}

paracc_status *paracc::capi::readState(const char *fn,
                                       const prt::RankGroup &ranks,
                                       size_t index, paracc_tensor &out) {
  const auto &state = ranks.executable().state();
  if (paracc_status *bad = checkIndex(fn, index, state.size()))
    return bad;
  return guarded(fn, [&]() -> paracc_status * {
    const prt::StateInfo &s = state[index];
    prt::Shape shape;
    if (paracc_status *bad =
            checkTensor(fn, "state '" + s.name + "'", out, shape))
      return bad;
    if (prt::DType(out.dtype) != s.globalType.dtype ||
        shape != s.globalType.shape)
      return invalidArgument(fn, "state '" + s.name + "' is " +
                                     prt::dtypeName(s.globalType.dtype) +
                                     prt::shapeToString(s.globalType.shape));
    auto value = ranks.gatherState(index);
    if (!value)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + value.status().message());
    std::memcpy(out.data, value->data(), value->byteSize());
    return nullptr;
  });
}

static std::string tensorName(const char *kind, size_t index,
                              const std::string &name) {
  return std::string(kind) + " " + std::to_string(index) +
         (name.empty() ? "" : " ('" + name + "')");
}

extern "C" {

paracc_status *paracc_session_create(const paracc_executable *exe,
                                     const paracc_options *options,
                                     paracc_session **out) {
  const char *fn = "paracc_session_create";
  if (!exe || !out)
    return invalidArgument(fn, "exe and out must not be null");
  *out = nullptr;
  return guarded(fn, [&]() -> paracc_status * {
    ParsedOptions parsed;
    std::string error;
    if (!parseOptions(options, parsed, error))
      return makeStatus(PARACC_ERROR, error);
    prt::RankGroupOptions rankOptions;
    rankOptions.device = mlir::paracc::stringifyOption(parsed.compile.device);
    rankOptions.allowTf32 = parsed.run.allowTf32;
    rankOptions.noGraph = parsed.run.noCudaGraph;
    std::ostringstream notes;
    auto ranks = prt::createRankGroup(exe->exe, 0, rankOptions, notes);
    if (!ranks)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + ranks.status().message());
    auto *session = new paracc_session;
    session->exe = exe->exe;
    session->ranks = std::move(*ranks);
    session->device = session->ranks->describe();
    *out = session;
    return nullptr;
  });
}

const char *paracc_session_device(const paracc_session *session) {
  return session ? session->device.c_str() : "";
}

paracc_status *paracc_session_run(paracc_session *session,
                                  const paracc_tensor *inputs,
                                  size_t num_inputs, paracc_tensor *outputs,
                                  size_t num_outputs) {
  const char *fn = "paracc_session_run";
  if (!session)
    return invalidArgument(fn, "session is null");
  if (num_inputs > 0 && !inputs)
    return invalidArgument(fn, "inputs is null");
  const auto &ports = session->ranks->executable().signature(0).outputs;
  if (num_outputs != ports.size())
    return invalidArgument(fn, "the program has " +
                                   std::to_string(ports.size()) +
                                   " output(s), " +
                                   std::to_string(num_outputs) + " given");
  if (num_outputs > 0 && !outputs)
    return invalidArgument(fn, "outputs is null");
  return guarded(fn, [&]() -> paracc_status * {
    // Inputs are borrowed, not copied: the ranks read them during the run.
    std::vector<prt::NamedTensor> given;
    for (size_t i = 0; i < num_inputs; ++i) {
      const paracc_tensor &t = inputs[i];
      std::string name = t.name ? t.name : "";
      prt::Shape shape;
      if (paracc_status *bad =
              checkTensor(fn, tensorName("input", i, name), t, shape))
        return bad;
      given.push_back({name, prt::Tensor::borrow(prt::DType(t.dtype), shape,
                                                 t.data)});
    }
    for (size_t i = 0; i < num_outputs; ++i) {
      const prt::PortInfo &port = ports[i];
      prt::Shape shape;
      if (paracc_status *bad = checkTensor(
              fn, tensorName("output", i, port.name), outputs[i], shape))
        return bad;
      if (prt::DType(outputs[i].dtype) != port.globalType.dtype ||
          shape != port.globalType.shape)
        return invalidArgument(
            fn, tensorName("output", i, port.name) + " is " +
                    prt::dtypeName(port.globalType.dtype) +
                    prt::shapeToString(port.globalType.shape) +
                    ", its buffer is described as " +
                    prt::dtypeName(prt::DType(outputs[i].dtype)) +
                    prt::shapeToString(shape));
    }
    // A name must be one of the program's inputs, given once (unnamed
    // tensors go by position).
    const auto &inputPorts = session->ranks->executable().signature(0).inputs;
    for (size_t i = 0; i < given.size(); ++i) {
      const std::string &name = given[i].name;
      if (name.empty())
        continue;
      bool known = false;
      std::string names;
      for (const prt::PortInfo &port : inputPorts) {
        known |= port.name == name;
        names += (names.empty() ? "" : ", ") + port.name;
      }
      if (!known)
        return makeStatus(PARACC_ERROR, "paracc: error: the program has no "
                                        "input named '" +
                                            name + "' (its inputs: " + names +
                                            ")");
      for (size_t j = 0; j < i; ++j)
        if (given[j].name == name)
          return makeStatus(PARACC_ERROR, "paracc: error: input '" + name +
                                              "' is given twice");
    }
    // Checked against the program's inputs: types, shapes.
    auto bound = prt::bindInputs(session->ranks->executable(), given, 0);
    if (!bound)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + bound.status().message());
    auto results = session->ranks->run(*bound);
    if (!results)
      return makeStatus(PARACC_ERROR,
                        "paracc: error: " + results.status().message());
    for (size_t i = 0; i < num_outputs; ++i)
      std::memcpy(outputs[i].data, (*results)[i].data(),
                  (*results)[i].byteSize());
    return nullptr;
  });
}

paracc_status *paracc_session_read_state(const paracc_session *session,
                                         size_t index, paracc_tensor *out) {
  const char *fn = "paracc_session_read_state";
  if (!session || !out)
    return invalidArgument(fn, "session and out must not be null");
  return readState(fn, *session->ranks, index, *out);
}

void paracc_session_free(paracc_session *session) { delete session; }

} // extern "C"
