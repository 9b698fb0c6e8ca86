//===- Inputs.h - An executable's inputs from files or a seed ---*- C++ -*-===//
//
// The inputs of a run: ONNX backend-test folders (DIR/input_N.pb, and the
// expected DIR/output_N.pb), and binding given tensors to an executable's
// inputs, with seeded values for the missing ones.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_INPUTS_H
#define PARACC_RUNTIME_INPUTS_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/TensorProtoIO.h"

#include <cstdint>
#include <string>
#include <vector>

namespace paracc::rt {

/// Reads DIR/input_0.pb, input_1.pb, ... (stops at the first missing one).
StatusOr<std::vector<NamedTensor>> readTestDataInputs(const std::string &dir);
/// Reads DIR/output_N.pb likewise.
StatusOr<std::vector<NamedTensor>> readTestDataOutputs(const std::string &dir);

/// The ONNX backend tests store bfloat16/float16 data as uint16 bits; such
/// a tensor is taken as the 16-bit float type `want` (others unchanged).
Tensor adoptSixteenBitFloat(const Tensor &t, DType want);

/// Orders `given` tensors by the executable's inputs: by name when named,
/// else by position; missing inputs are generated from `seed` (uniform
/// floats, small non-negative integers); extra or mistyped ones are errors.
StatusOr<std::vector<Tensor>> bindInputs(const Executable &exe,
                                         const std::vector<NamedTensor> &given,
                                         uint64_t seed);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_INPUTS_H
