//===- Options.cpp - The spellings of the compiler's option values --------===//
//
// One table per option enum (Options.h). Where a value has two spellings
// the first is printed.
//
//===----------------------------------------------------------------------===//

#include "paracc/Compiler/Options.h"

#include "llvm/ADT/Twine.h"

using namespace mlir::paracc;

llvm::ArrayRef<OptionSpelling<PipelineSchedule>>
OptionTraits<PipelineSchedule>::spellings() {
  static const OptionSpelling<PipelineSchedule> table[] = {
      {PipelineSchedule::GPipe, "gpipe"},
      {PipelineSchedule::OneFOneB, "1f1b"},
      {PipelineSchedule::ZeroBubbleH1, "zb-h1"},
      {PipelineSchedule::Interleaved, "interleaved"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<LrSchedule>>
OptionTraits<LrSchedule>::spellings() {
  static const OptionSpelling<LrSchedule> table[] = {
      {LrSchedule::Constant, "constant"},
      {LrSchedule::Cosine, "cosine"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<RecomputePolicy>>
OptionTraits<RecomputePolicy>::spellings() {
  static const OptionSpelling<RecomputePolicy> table[] = {
      {RecomputePolicy::None, "none"},
      {RecomputePolicy::Full, "full"},
      {RecomputePolicy::Selective, "selective"},
      {RecomputePolicy::Auto, "auto"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<Precision>> OptionTraits<Precision>::spellings() {
  static const OptionSpelling<Precision> table[] = {
      {Precision::F32, "f32"},
      {Precision::BF16, "bf16"},
      {Precision::F16, "f16"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<CpLayout>> OptionTraits<CpLayout>::spellings() {
  static const OptionSpelling<CpLayout> table[] = {
      {CpLayout::Zigzag, "zigzag"},
      {CpLayout::Contiguous, "contiguous"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<CpAttention>>
OptionTraits<CpAttention>::spellings() {
  static const OptionSpelling<CpAttention> table[] = {
      {CpAttention::AllGather, "allgather"},
      {CpAttention::AllToAll, "alltoall"},
      {CpAttention::Ring, "ring"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<Device>> OptionTraits<Device>::spellings() {
  static const OptionSpelling<Device> table[] = {
      {Device::Auto, "auto"},
      {Device::Cpu, "cpu"},
      {Device::Gpu, "gpu"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<OptimizerKind>>
OptionTraits<OptimizerKind>::spellings() {
  static const OptionSpelling<OptimizerKind> table[] = {
      {OptimizerKind::AdamW, "adamw"},
      {OptimizerKind::Sgd, "sgd"},
  };
  return table;
}

llvm::ArrayRef<OptionSpelling<CompilePhase>>
OptionTraits<CompilePhase>::spellings() {
  static const OptionSpelling<CompilePhase> table[] = {
      {CompilePhase::Imported, "imported"},
      {CompilePhase::Cleaned, "cleaned"},
      {CompilePhase::Staged, "staged"},
      {CompilePhase::Annotated, "annotated"},
      {CompilePhase::Differentiated, "differentiated"},
      {CompilePhase::Optimized, "optimized"},
      {CompilePhase::Propagated, "propagated"},
      {CompilePhase::Recomputed, "recomputed"},
      {CompilePhase::Partitioned, "partitioned"},
      {CompilePhase::Pipelined, "pipelined"},
      {CompilePhase::Lowered, "lowered"},
  };
  return table;
}

int64_t MeshSpec::size(llvm::StringRef name) const {
  for (const Axis &a : axes)
    if (a.name == name)
      return a.size;
  return 0;
}

int64_t MeshSpec::ranks() const {
  int64_t n = 1;
  for (const Axis &a : axes)
    n *= a.size;
  return n;
}

std::optional<MeshSpec> mlir::paracc::parseMeshSpec(llvm::StringRef text,
                                                    llvm::StringRef optionName,
                                                    std::string &error,
                                                    int64_t maxRanks) {
  MeshSpec mesh;
  if (text.empty() || text == "1")
    return mesh;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  int64_t ranks = 1;
  for (llvm::StringRef part : parts) {
    size_t digits = part.find_first_of("0123456789");
    llvm::StringRef name = part.take_front(digits);
    int64_t size = 0;
    if (digits == llvm::StringRef::npos || name.empty() ||
        part.drop_front(digits).getAsInteger(10, size) || size < 1) {
      error = ("bad " + optionName + " axis '" + part +
               "'; expected NAME<size> such as dp2 or tp4")
                  .str();
      return std::nullopt;
    }
    if (name != "dp" && name != "tp" && name != "pp" && name != "cp" &&
        name != "ep") {
      error = ("mesh axis '" + name +
               "' is not supported yet (supported: dp, pp, cp, tp, ep)")
                  .str();
      return std::nullopt;
    }
    if (mesh.size(name) != 0) {
      error = ("mesh axis '" + name + "' given twice").str();
      return std::nullopt;
    }
    ranks *= size;
    if (ranks > maxRanks) {
      error = "the mesh has more than " + std::to_string(maxRanks) + " ranks";
      return std::nullopt;
    }
    mesh.axes.push_back({name.str(), size});
  }
  return mesh;
}
