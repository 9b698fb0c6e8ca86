//===- PipelinePlan.cpp - The plan as the dist.pipeline_plan attribute -*- C++
//-*-===//

#include "paracc/Planner/StagePartition.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::paracc;

static DictionaryAttr stageToAttr(const StageSummary &s, Builder &b) {
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("layers",
                     b.getDenseI64ArrayAttr({s.firstLayer, s.lastLayer})),
      b.getNamedAttr("prologue", b.getBoolAttr(s.prologue)),
      b.getNamedAttr("epilogue", b.getBoolAttr(s.epilogue)),
      b.getNamedAttr("params", b.getI64IntegerAttr(s.params)),
      b.getNamedAttr("param_bytes", b.getI64IntegerAttr(s.paramBytes)),
      b.getNamedAttr("flops", b.getI64IntegerAttr(s.flops)),
      b.getNamedAttr("predicted_ms", b.getF64FloatAttr(s.predictedMs)),
      b.getNamedAttr("memory_bytes", b.getI64IntegerAttr(s.memoryBytes)),
      b.getNamedAttr("sent_bytes", b.getI64IntegerAttr(s.sentBytes))};
  return b.getDictionaryAttr(fields);
}

static ArrayAttr stagesToAttr(ArrayRef<StageSummary> stages, Builder &b) {
  SmallVector<Attribute> attrs;
  for (const StageSummary &s : stages)
    attrs.push_back(stageToAttr(s, b));
  return b.getArrayAttr(attrs);
}

DictionaryAttr mlir::paracc::pipelinePlanToAttr(const PipelinePlan &plan,
                                                MLIRContext *ctx) {
  Builder b(ctx);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("stages", stagesToAttr(plan.stages, b)),
      b.getNamedAttr("uniform_stages", stagesToAttr(plan.uniformStages, b)),
      b.getNamedAttr("layers", b.getI64IntegerAttr(plan.layers)),
      b.getNamedAttr("schedule",
                     b.getStringAttr(stringifyOption(plan.schedule))),
      b.getNamedAttr("microbatches", b.getI64IntegerAttr(plan.microbatches)),
      b.getNamedAttr("virtual_stages", b.getI64IntegerAttr(plan.virtualStages)),
      b.getNamedAttr("training", b.getBoolAttr(plan.training)),
      b.getNamedAttr("rates", b.getStringAttr(plan.rates)),
      b.getNamedAttr("bubble_formula", b.getF64FloatAttr(plan.bubbleFormula)),
      b.getNamedAttr("bubble_predicted",
                     b.getF64FloatAttr(plan.bubblePredicted)),
      b.getNamedAttr("uniform_bubble_predicted",
                     b.getF64FloatAttr(plan.uniformBubblePredicted))};
  return b.getDictionaryAttr(fields);
}

namespace {
/// Reads typed fields of a dictionary, remembering whether any was missing.
struct Reader {
  DictionaryAttr dict;
  bool ok = true;

  int64_t integer(StringRef key) {
    if (auto a = dict.getAs<IntegerAttr>(key))
      return a.getInt();
    ok = false;
    return 0;
  }
  double real(StringRef key) {
    if (auto a = dict.getAs<FloatAttr>(key))
      return a.getValueAsDouble();
    ok = false;
    return 0;
  }
  bool boolean(StringRef key) {
    if (auto a = dict.getAs<BoolAttr>(key))
      return a.getValue();
    ok = false;
    return false;
  }
  std::string string(StringRef key) {
    if (auto a = dict.getAs<StringAttr>(key))
      return a.str();
    ok = false;
    return "";
  }
};
} // namespace

static bool stagesFromAttr(Attribute attr, std::vector<StageSummary> &out) {
  auto array = dyn_cast_or_null<ArrayAttr>(attr);
  if (!array)
    return false;
  for (Attribute a : array) {
    auto dict = dyn_cast<DictionaryAttr>(a);
    if (!dict)
      return false;
    Reader r{dict};
    StageSummary s;
    auto layers = dict.getAs<DenseI64ArrayAttr>("layers");
    if (!layers || layers.size() != 2)
      return false;
    s.firstLayer = layers[0];
    s.lastLayer = layers[1];
    s.prologue = r.boolean("prologue");
    s.epilogue = r.boolean("epilogue");
    s.params = r.integer("params");
    s.paramBytes = r.integer("param_bytes");
    s.flops = r.integer("flops");
    s.predictedMs = r.real("predicted_ms");
    s.memoryBytes = r.integer("memory_bytes");
    s.sentBytes = r.integer("sent_bytes");
    if (!r.ok)
      return false;
    out.push_back(s);
  }
  return true;
}

std::optional<PipelinePlan>
mlir::paracc::pipelinePlanFromAttr(DictionaryAttr attr) {
  if (!attr)
    return std::nullopt;
  PipelinePlan plan;
  Reader r{attr};
  plan.layers = r.integer("layers");
  std::optional<PipelineSchedule> schedule =
      parseOptionValue<PipelineSchedule>(r.string("schedule"));
  if (!schedule)
    return std::nullopt;
  plan.schedule = *schedule;
  plan.microbatches = r.integer("microbatches");
  if (auto v = attr.getAs<IntegerAttr>("virtual_stages"))
    plan.virtualStages = v.getInt();
  plan.training = r.boolean("training");
  plan.rates = r.string("rates");
  plan.bubbleFormula = r.real("bubble_formula");
  plan.bubblePredicted = r.real("bubble_predicted");
  plan.uniformBubblePredicted = r.real("uniform_bubble_predicted");
  if (!r.ok || !stagesFromAttr(attr.get("stages"), plan.stages) ||
      !stagesFromAttr(attr.get("uniform_stages"), plan.uniformStages))
    return std::nullopt;
  return plan;
}
