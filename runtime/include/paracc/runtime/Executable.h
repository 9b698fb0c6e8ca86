//===- Executable.h - Loading and validating .pcx files --------*- C++ -*-===//
//
// A .pcx file holds the FlatBuffer program (schema/executable.fbs) and a
// data segment with constants and weights. Loading verifies the FlatBuffer
// and then every semantic invariant the interpreter relies on (value ids,
// data ranges, shapes, shardings), so that a corrupt or hostile file gives
// an error, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_EXECUTABLE_H
#define PARACC_RUNTIME_EXECUTABLE_H

#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Mesh.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <memory>
#include <string>
#include <vector>

namespace paracc::rt {

/// The magic at the start of a .pcx file.
inline constexpr char kExecutableMagic[8] = {'P', 'A', 'R', 'A',
                                             'C', 'C', 'X', '1'};
/// The format version this runtime reads.
inline constexpr uint32_t kExecutableFormatVersion = 1;

/// A program value's type.
struct ValueType {
  DType dtype = DType::Invalid;
  Shape shape;
};

/// A weight, input or output and the sharding of its global tensor.
struct PortInfo {
  int32_t value = -1;
  std::string name;
  ValueType globalType;
  TensorSharding sharding;
};

struct WeightInfo : PortInfo {
  bool random = false;
  uint64_t seed = 0;
  float scale = 0.02f;
  /// For random blocks of a larger parameter: its shape and the block's
  /// offsets (empty: the weight is the whole parameter).
  Shape sourceShape;
  std::vector<int64_t> sourceOffsets;
  const uint8_t *data = nullptr; // the full global tensor, if not random

  /// A random weight's generator view: the parameter it is a block of, and
  /// (added to `offsets`, this rank's shard offsets in the weight) where
  /// this rank's values sit in it.
  Shape randomSource(std::vector<int64_t> &offsets) const {
    if (sourceShape.empty())
      return globalType.shape;
    for (size_t d = 0; d < offsets.size(); ++d)
      offsets[d] += sourceOffsets[d];
    return sourceShape;
  }
};

struct ConstantInfo {
  int32_t value = -1;
  const uint8_t *data = nullptr; // the local value
};

struct InstrInfo {
  OpCode opcode;
  std::vector<int32_t> inputs, outputs;
  InstrAttrs attrs;
  std::string name;
};

/// A validated program, decoded from the FlatBuffer into plain structs.
class Executable {
public:
  static StatusOr<std::shared_ptr<Executable>>
  loadFile(const std::string &path);
  static StatusOr<std::shared_ptr<Executable>>
  loadBuffer(std::vector<uint8_t> bytes);

  const Mesh &mesh() const { return mesh_; }
  const std::vector<ValueType> &values() const { return values_; }
  const std::vector<ConstantInfo> &constants() const { return constants_; }
  const std::vector<WeightInfo> &weights() const { return weights_; }
  const std::vector<PortInfo> &inputs() const { return inputs_; }
  const std::vector<PortInfo> &outputs() const { return outputs_; }
  const std::vector<InstrInfo> &instrs() const { return instrs_; }
  const std::string &producer() const { return producer_; }
  /// The compiler's arena plan (empty offsets when the file has none).
  uint64_t arenaBytes() const { return arenaBytes_; }
  const std::vector<uint64_t> &arenaOffsets() const { return arenaOffsets_; }
  /// Bytes of the whole file.
  size_t fileSize() const { return size_; }
  /// The whole file's bytes (to hand the program to another process).
  const uint8_t *fileBytes() const { return base_; }

  ~Executable();

private:
  Executable() = default;
  Status decode(const std::string &what);

  Mesh mesh_;
  std::vector<ValueType> values_;
  std::vector<ConstantInfo> constants_;
  std::vector<WeightInfo> weights_;
  std::vector<PortInfo> inputs_, outputs_;
  std::vector<InstrInfo> instrs_;
  std::string producer_;
  uint64_t arenaBytes_ = 0;
  std::vector<uint64_t> arenaOffsets_;

  // Storage: a mapping of the file, or an owned buffer.
  std::vector<uint8_t> owned_;
  const uint8_t *base_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

/// Serializes the container around a finished FlatBuffer and data segment.
std::vector<uint8_t> packExecutable(const uint8_t *flatbuffer, size_t fbSize,
                                    const std::vector<uint8_t> &data);

/// Byte offset of the data segment for a FlatBuffer of `fbSize` bytes.
uint64_t executableDataOffset(size_t fbSize);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_EXECUTABLE_H
