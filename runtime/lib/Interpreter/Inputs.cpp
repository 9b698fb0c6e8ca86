//===- Inputs.cpp - An executable's inputs from files or a seed -----------===//

#include "paracc/runtime/Inputs.h"

#include "paracc/runtime/Interpreter.h"

#include <cmath>
#include <cstring>
#include <sys/stat.h>

using namespace paracc::rt;

static bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

static StatusOr<std::vector<NamedTensor>>
readNumbered(const std::string &dir, const std::string &prefix) {
  std::vector<NamedTensor> tensors;
  for (int i = 0;; ++i) {
    std::string path = dir + "/" + prefix + std::to_string(i) + ".pb";
    if (!fileExists(path))
      break;
    auto t = readTensorProtoFile(path);
    if (!t)
      return t.status();
    tensors.push_back(std::move(*t));
  }
  return tensors;
}

StatusOr<std::vector<NamedTensor>>
paracc::rt::readTestDataInputs(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return errorf("test data folder '", dir, "' does not exist");
  return readNumbered(dir, "input_");
}

StatusOr<std::vector<NamedTensor>>
paracc::rt::readTestDataOutputs(const std::string &dir) {
  return readNumbered(dir, "output_");
}

/// Seeded inputs: floats uniform in [-1, 1), integers in [0, 8) (valid
/// token ids for any vocabulary), bools alternating.
static StatusOr<Tensor> randomInput(const ValueType &type, uint64_t seed) {
  auto t = Tensor::allocate(type.dtype, type.shape);
  if (!t)
    return t.status();
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int64_t n = t->numElements();
  for (int64_t i = 0; i < n; ++i) {
    double u = double(next() >> 11) / double(uint64_t(1) << 53) * 2 - 1;
    int64_t k = int64_t(next() % 8);
    switch (type.dtype) {
    case DType::F32:
      t->as<float>()[i] = float(u);
      break;
    case DType::F64:
      t->as<double>()[i] = u;
      break;
    case DType::F16:
      t->as<Half>()[i] = Half(float(u));
      break;
    case DType::BF16:
      t->as<BFloat16>()[i] = BFloat16(float(u));
      break;
    case DType::I64:
      t->as<int64_t>()[i] = k;
      break;
    case DType::I32:
      t->as<int32_t>()[i] = int32_t(k);
      break;
    case DType::Bool:
      t->as<uint8_t>()[i] = uint8_t(k & 1);
      break;
    default:
      // Other integer types: small values in their first byte.
      static_cast<uint8_t *>(t->data())[i * dtypeSize(type.dtype)] = uint8_t(k);
      break;
    }
  }
  return t;
}

Tensor paracc::rt::adoptSixteenBitFloat(const Tensor &t, DType want) {
  if (t.dtype() != DType::U16 || (want != DType::BF16 && want != DType::F16))
    return t;
  auto out = Tensor::allocate(want, t.shape());
  if (!out)
    return t;
  if (t.byteSize())
    std::memcpy(out->data(), t.data(), t.byteSize());
  return std::move(*out);
}

StatusOr<std::vector<Tensor>>
paracc::rt::bindInputs(const Executable &exe,
                       const std::vector<NamedTensor> &given, uint64_t seed) {
  const auto &ports = exe.inputs();
  std::vector<Tensor> bound(ports.size());
  std::vector<bool> used(given.size(), false);
  // By name first.
  for (size_t i = 0; i < ports.size(); ++i)
    for (size_t j = 0; j < given.size(); ++j)
      if (!used[j] && !given[j].name.empty() &&
          given[j].name == ports[i].name) {
        bound[i] = given[j].tensor;
        used[j] = true;
      }
  // Unnamed (or unmatched) tensors by position.
  for (size_t j = 0; j < given.size(); ++j) {
    if (used[j])
      continue;
    bool named = !given[j].name.empty();
    if (named) {
      bool known = false;
      for (const auto &p : ports)
        known |= p.name == given[j].name;
      if (!known && j >= ports.size())
        return errorf("the program has no input named '", given[j].name, "'");
    }
    if (j < ports.size() && !bound[j].isValid()) {
      bound[j] = given[j].tensor;
      used[j] = true;
    } else if (!named) {
      return errorf("input ", j, " has no matching program input");
    }
  }
  for (size_t i = 0; i < ports.size(); ++i) {
    if (bound[i].isValid()) {
      bound[i] = adoptSixteenBitFloat(bound[i], ports[i].globalType.dtype);
      continue;
    }
    // A training step's schedule inputs, when not given: its first step
    // at a small learning rate (what a timed or profiled step needs).
    const PortInfo &port = ports[i];
    const bool scheduleInput = exe.findFunction("step") == 0 &&
                               port.globalType.shape.empty() &&
                               port.globalType.dtype == DType::F32 &&
                               (port.name == "lr" || port.name == "step");
    if (scheduleInput) {
      bound[i] = *Tensor::allocate(DType::F32, {});
      bound[i].as<float>()[0] = port.name == "lr" ? 1e-4f : 1.0f;
      continue;
    }
    auto t = randomInput(port.globalType, seed + i);
    if (!t)
      return t.status();
    bound[i] = std::move(*t);
  }
  PARACC_RETURN_IF_ERROR(checkGlobalInputs(exe.main(), bound));
  return bound;
}
