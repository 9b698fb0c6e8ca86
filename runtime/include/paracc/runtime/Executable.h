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
#include "paracc/runtime/MappedFile.h"
#include "paracc/runtime/Mesh.h"
#include "paracc/runtime/Status.h"
#include "paracc/runtime/Tensor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace paracc::fb {
struct ExternalData;
} // namespace paracc::fb

namespace paracc::rt {

/// The magic at the start of a .pcx file.
inline constexpr char kExecutableMagic[8] = {'P', 'A', 'R', 'A',
                                             'C', 'C', 'X', '1'};
/// The format version this runtime reads (program model v2: functions over
/// a state table).
inline constexpr uint32_t kExecutableFormatVersion = 2;

/// A program value's type.
struct ValueType {
  DType dtype = DType::Invalid;
  Shape shape;
};

/// A function input or output and the sharding of its global tensor.
struct PortInfo {
  int32_t value = -1;
  std::string name;
  ValueType globalType;
  TensorSharding sharding;
  /// In a pipelined function's signature: the stage whose function has the
  /// port (`value` is that function's); -1 otherwise.
  int32_t stage = -1;
};

/// CastOf: the parameter `source` (same shape, sharding and block) cast to
/// the buffer's type, whenever the parameters are loaded or restored.
enum class StateInit : uint8_t { Data, Random, Zeros, CastOf };
/// WeightCopy: a narrower copy of a parameter that the step keeps equal to
/// its cast (init CastOf); checkpoints leave it out.
enum class StateKind : uint8_t { Parameter, OptimizerState, WeightCopy };

/// A persistent buffer of the state table (`value` is unused: functions bind
/// it to their values).
struct StateInfo : PortInfo {
  StateKind kind = StateKind::Parameter;
  StateInit init = StateInit::Data;
  uint64_t seed = 0;
  float scale = 0.02f;
  /// CastOf: the parameter's index in the state table.
  int32_t source = -1;
  /// For blocks of a larger parameter: its shape and the block's offsets
  /// (empty: the buffer is the whole parameter).
  Shape sourceShape;
  std::vector<int64_t> sourceOffsets;
  const uint8_t *data = nullptr; // Data: the full global tensor
  /// The file `data` points into when the executable references it (ONNX
  /// external data) instead of carrying the bytes; empty otherwise.
  std::string externalPath;

  /// A random buffer's generator view: the parameter it is a block of, and
  /// (added to `offsets`, this rank's shard offsets in the buffer) where
  /// this rank's values sit in it.
  Shape randomSource(std::vector<int64_t> &offsets) const {
    if (sourceShape.empty())
      return globalType.shape;
    for (size_t d = 0; d < offsets.size(); ++d)
      offsets[d] += sourceOffsets[d];
    return sourceShape;
  }
};

/// A state buffer read by a function, as the executors see it: the buffer's
/// description, `value` the function value it is read into.
struct WeightInfo : StateInfo {
  int32_t state = -1;
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
  /// The pipeline action it belongs to (an index into the function's
  /// `actions`), or -1.
  int32_t action = -1;
  /// The compiler's cost model: FLOPs and bytes counted, and the predicted
  /// seconds at the rates `Executable::costRates()` names (0: not modelled).
  int64_t flops = 0, bytes = 0;
  double predictedSeconds = 0;
};

/// A pipeline stage's work for one micro-batch's forward, backward or
/// (zb-h1) weight gradients.
enum class ActionPhase : uint8_t { Forward = 0, Backward = 1, Weight = 2 };
struct ActionInfo {
  int32_t microbatch = 0;
  ActionPhase phase = ActionPhase::Forward;
  /// The rank's model chunk (interleaved schedule; 0 otherwise).
  int32_t chunk = 0;
};

/// A state buffer and a function value.
struct StateBinding {
  int32_t state = -1;
  int32_t value = -1;
};

/// One function of a program.
struct FunctionInfo {
  std::string name;
  /// The pipeline stage whose ranks run it (-1: every rank).
  int32_t stage = -1;
  std::vector<ValueType> values;
  std::vector<ConstantInfo> constants;
  /// The state it reads (one entry per read, with the buffer's description).
  std::vector<WeightInfo> weights;
  /// The buffers it gives new values, and the values.
  std::vector<StateBinding> writes;
  std::vector<PortInfo> inputs, outputs;
  std::vector<InstrInfo> instrs;
  std::vector<ActionInfo> actions;
  /// Whether its actions name model chunks (the interleaved schedule).
  bool interleaved = false;
  uint64_t arenaBytes = 0;
  std::vector<uint64_t> arenaOffsets;
};

/// What a caller passes to and gets from a function: for a pipelined
/// function, the inputs of its stages (the same for all) and the outputs of
/// every stage, in stage order.
struct FunctionSignature {
  std::vector<PortInfo> inputs, outputs;
};

/// A validated program, decoded from the FlatBuffer into plain structs.
class Executable {
public:
  static StatusOr<std::shared_ptr<Executable>>
  loadFile(const std::string &path);
  static StatusOr<std::shared_ptr<Executable>>
  loadBuffer(std::vector<uint8_t> bytes);

  const Mesh &mesh() const { return mesh_; }
  const std::string &producer() const { return producer_; }
  /// A training executable's optimizer and settings (empty: inference).
  const std::string &training() const { return training_; }
  /// The parameter of each element of a training step's `grad_sq` output.
  const std::vector<std::string> &gradientNormParts() const {
    return gradientNormParts_;
  }
  const std::vector<StateInfo> &state() const { return state_; }
  const std::vector<FunctionInfo> &functions() const { return functions_; }
  /// The index of the function called `name` (of a pipelined one, its
  /// first stage's), or -1.
  int findFunction(const std::string &name) const;

  /// The mesh axis that selects a pipelined function's stage (-1: none).
  int pipelineAxis() const { return pipelineAxis_; }
  /// The cost model's rate table behind the instructions' predicted times
  /// ("cpu", "h200"; empty when the compiler recorded none).
  const std::string &costRates() const { return costRates_; }
  /// The pipeline stage of `rank` (0 without a pipeline).
  int64_t stageOf(int64_t rank) const;
  /// The function `rank` runs for the function at `index` (any stage of a
  /// pipelined one): its own stage's, or `index` itself.
  size_t rankFunction(size_t index, int64_t rank) const;
  /// The global ports of the function at `index` (any stage of it).
  const FunctionSignature &signature(size_t index) const;
  /// Whether `rank` keeps a shard of state buffer `index`: every rank does
  /// without a pipeline, else the ranks of the stages that use it.
  bool holdsState(int64_t rank, size_t index) const;

  /// The first function's tables: an inference executable's only function
  /// (`main`), which the executors run by default.
  const FunctionInfo &main() const { return functions_.front(); }
  const std::vector<ValueType> &values() const { return main().values; }
  const std::vector<ConstantInfo> &constants() const {
    return main().constants;
  }
  const std::vector<WeightInfo> &weights() const { return main().weights; }
  /// The first function's global ports (`signature(0)`).
  const std::vector<PortInfo> &inputs() const { return signature(0).inputs; }
  const std::vector<PortInfo> &outputs() const {
    return signature(0).outputs;
  }
  const std::vector<InstrInfo> &instrs() const { return main().instrs; }
  /// The compiler's arena plan (empty offsets when the file has none).
  uint64_t arenaBytes() const { return main().arenaBytes; }
  const std::vector<uint64_t> &arenaOffsets() const {
    return main().arenaOffsets;
  }
  /// Bytes of the whole file.
  size_t fileSize() const { return size_; }
  /// The whole file's bytes (to hand the program to another process).
  const uint8_t *fileBytes() const { return base_; }

  ~Executable();

private:
  Executable() = default;
  Status decode(const std::string &what);
  /// Maps (once per file) the external data `ref` names and checks its
  /// range and fingerprint.
  Status mapExternal(const fb::ExternalData *ref, uint64_t expectedSize,
                     const uint8_t *&out, std::string &path,
                     const std::string &context);
  /// The mapping of the file recorded as `recorded`: that path, else (the
  /// executable moved with it) its name next to the executable.
  StatusOr<std::shared_ptr<MappedFile>>
  externalFile(const std::string &recorded);
  Status linkPipeline(const std::string &what);

  Mesh mesh_;
  std::string producer_;
  std::string training_;
  std::vector<std::string> gradientNormParts_;
  std::vector<StateInfo> state_;
  std::vector<FunctionInfo> functions_;
  int pipelineAxis_ = -1;
  std::string costRates_;
  /// Per function: its signature's index in `signatures_`, and its stages'
  /// function indices (one entry, itself, when it is not pipelined).
  std::vector<size_t> signatureOf_;
  std::vector<std::vector<size_t>> stagesOf_;
  std::vector<FunctionSignature> signatures_;
  /// Per stage, the state buffers its functions read or write.
  std::vector<std::vector<bool>> stageState_;

  /// The folder of the executable's file (empty: loaded from memory), where
  /// a referenced file that moved with it is looked for.
  std::string directory_;
  /// The files of referenced external data, each mapped once, by the path
  /// the executable records.
  std::map<std::string, std::shared_ptr<MappedFile>> externalFiles_;

  // Storage: a mapping of the file, or an owned buffer.
  std::shared_ptr<MappedFile> file_;
  std::vector<uint8_t> owned_;
  const uint8_t *base_ = nullptr;
  size_t size_ = 0;
};

/// Serializes the container around a finished FlatBuffer and data segment.
std::vector<uint8_t> packExecutable(const uint8_t *flatbuffer, size_t fbSize,
                                    const std::vector<uint8_t> &data);

/// Byte offset of the data segment for a FlatBuffer of `fbSize` bytes.
uint64_t executableDataOffset(size_t fbSize);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_EXECUTABLE_H
