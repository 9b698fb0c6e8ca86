//===- Options.cpp - The spellings of the compiler's option values --------===//
//
// One table per option enum (Options.h). Where a value has two spellings
// the first is printed.
//
//===----------------------------------------------------------------------===//

#include "paracc/Compiler/Options.h"

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

llvm::ArrayRef<OptionSpelling<Device>> OptionTraits<Device>::spellings() {
  static const OptionSpelling<Device> table[] = {
      {Device::Auto, "auto"},
      {Device::Cpu, "cpu"},
      {Device::Gpu, "gpu"},
  };
  return table;
}
