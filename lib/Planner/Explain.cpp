//===- Explain.cpp - Reports on partitioned programs -----------*- C++ -*-===//

#include "paracc/Planner/Explain.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Planner/CostModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

static int64_t bytesOf(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  if (!type)
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

g::WeightOp mlir::paracc::weightBehind(Value v) {
  Operation *def = v.getDefiningOp();
  while (def && isa<g::TransposeOp, g::ReshapeOp, g::CastOp, dist::AllGatherOp,
                    dist::LocalShardOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return dyn_cast_or_null<g::WeightOp>(def);
}

/// "transformer.h.3" from "transformer.h.3.mlp.c_fc.weight"; "model" when
/// the name has no layer number.
static std::string layerOf(StringRef weightName) {
  llvm::Regex layer("^(.*[._]([0-9]+))[._]");
  SmallVector<StringRef> m;
  if (layer.match(weightName, &m))
    return m[1].str();
  return "model";
}

/// A weight's name, with its block when it is one (a split q/k/v).
static std::string weightLabel(g::WeightOp w) {
  if (!w)
    return "";
  std::string s = w.getName().str();
  if (auto offsets = w.getOffsets()) {
    s += " (block at ";
    for (auto [i, o] : llvm::enumerate(*offsets))
      s += (i ? "," : "") + std::to_string(o);
    s += ")";
  }
  return s;
}

/// The weight a matmul-like op reads (its second operand, else its first).
static g::WeightOp weightOf(Operation *op) {
  g::WeightOp w = op->getNumOperands() > 1 ? weightBehind(op->getOperand(1))
                                           : g::WeightOp();
  if (!w && op->getNumOperands() > 0)
    w = weightBehind(op->getOperand(0));
  return w;
}

/// The layer and a description of the nearest op with a recorded split
/// decision that `v` is computed from.
static std::pair<std::string, std::string> sourceOf(Value v) {
  SmallVector<std::pair<Value, int>> work = {{v, 0}};
  for (size_t i = 0; i < work.size(); ++i) {
    auto [value, depth] = work[i];
    Operation *def = value.getDefiningOp();
    if (!def || depth > 6)
      continue;
    if (auto role = dist::getTensorParallelRole(def)) {
      g::WeightOp w = weightOf(def);
      std::string name = weightLabel(w);
      return {layerOf(w ? w.getName() : ""),
              dist::tensorParallelRoleLabel(*role) + " " +
                  def->getName().stripDialect().str() +
                  (name.empty() ? "" : " " + name)};
    }
    for (Value operand : def->getOperands())
      work.push_back({operand, depth + 1});
  }
  return {"model", v.getDefiningOp()
                       ? v.getDefiningOp()->getName().getStringRef().str()
                       : "input"};
}

/// "+1", "-2": a send's or recv's peer offset.
static std::string offsetString(int64_t offset) {
  return (offset > 0 ? "+" : "") + std::to_string(offset);
}

std::optional<RecomputeSummary>
mlir::paracc::readRecomputePlan(ModuleOp module) {
  auto attr = module->getAttrOfType<dist::RecomputePlanAttr>(
      dist::DistDialect::RecomputePlanAttrHelper::getNameStr());
  if (!attr)
    return std::nullopt;
  RecomputeSummary s;
  s.policy = attr.getPolicy();
  s.rates = attr.getRates().str();
  s.savedBytes = attr.getSavedBytes();
  s.keptBytes = attr.getKeptBytes();
  s.budgetBytes = attr.getBudgetBytes();
  s.activationPeakBytes = attr.getActivationPeakBytes();
  s.recomputedOps = attr.getRecomputedOps();
  s.recomputedFlops = attr.getRecomputedFlops().convertToDouble();
  s.stepFlops = attr.getStepFlops().convertToDouble();
  s.recomputedMs = attr.getRecomputedMs().convertToDouble();
  return s;
}

std::optional<ZeroSummary> mlir::paracc::readZeroPlan(ModuleOp module) {
  auto attr = module->getAttrOfType<dist::ZeroPlanAttr>(
      dist::DistDialect::ZeroPlanAttrHelper::getNameStr());
  if (!attr)
    return std::nullopt;
  ZeroSummary z;
  z.stage = attr.getStage();
  z.axis = attr.getAxis().str();
  z.prefetch = attr.getPrefetch();
  z.layers = attr.getLayers();
  z.shardedParameters = attr.getShardedParameters();
  z.gatherPeakBytes = attr.getGatherPeakBytes();
  auto gathers = [](ArrayRef<int64_t> units, ArrayRef<int64_t> issued,
                    ArrayRef<int64_t> bytes) {
    std::vector<ZeroSummary::Gather> out;
    for (size_t i = 0;
         i < units.size() && i < issued.size() && i < bytes.size(); ++i)
      out.push_back({units[i], issued[i], bytes[i]});
    return out;
  };
  z.forward = gathers(attr.getForwardUnits(), attr.getForwardIssued(),
                      attr.getForwardBytes());
  z.backward = gathers(attr.getBackwardUnits(), attr.getBackwardIssued(),
                       attr.getBackwardBytes());
  return z;
}

/// "prologue", "layer 3", "epilogue": a unit of the layer structure.
static std::string unitName(int64_t unit, int64_t layers) {
  if (unit == 0)
    return "prologue";
  if (unit > layers)
    return "epilogue";
  return "layer " + std::to_string(unit - 1);
}

ExplainReport mlir::paracc::analyzePlan(ModuleOp module) {
  ExplainReport r;
  r.recompute = readRecomputePlan(module);
  r.zero = readZeroPlan(module);
  if (auto plan = module->getAttrOfType<dist::PipelinePlanAttr>(
          dist::DistDialect::PipelinePlanAttrHelper::getNameStr()))
    r.pipeline = pipelinePlanFromAttr(plan);
  if (auto n = module->getAttrOfType<IntegerAttr>(dist::kMicrobatchesAttrName))
    r.microbatches = n.getInt();
  dist::MeshAttr mesh = dist::getMesh(module);
  if (mesh) {
    r.numRanks = mesh.getNumRanks();
    ArrayRef<int64_t> sizes = mesh.getAxisSizes();
    for (auto [i, name] : llvm::enumerate(mesh.getAxisNames())) {
      ExplainReport::Axis axis{name.str(), sizes[i], {}};
      llvm::DenseSet<int64_t> seen;
      for (int64_t rank = 0; rank < r.numRanks; ++rank) {
        if (seen.contains(rank))
          continue;
        // Ranks are row-major: varying axis i steps by the product of the
        // sizes of the axes after it.
        int64_t stride = 1;
        for (size_t j = i + 1; j < sizes.size(); ++j)
          stride *= sizes[j];
        std::vector<int64_t> group;
        int64_t base = rank - (rank / stride % sizes[i]) * stride;
        for (int64_t k = 0; k < sizes[i]; ++k) {
          group.push_back(base + k * stride);
          seen.insert(base + k * stride);
        }
        axis.groups.push_back(group);
      }
      r.axes.push_back(axis);
    }
  }

  auto *distDialect =
      module.getContext()->getOrLoadDialect<dist::DistDialect>();
  llvm::StringSet<> weightsSeen;
  for (auto func : module.getOps<func::FuncOp>()) {
    DenseMap<Value, size_t> lastUse;
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return;
      ops.push_back(op);
      for (Value v : op->getOperands())
        lastUse[v] = ops.size() - 1;
    });
    int64_t live = 0;
    DenseMap<Value, int64_t> liveBytes;
    for (auto [i, op] : llvm::enumerate(ops)) {
      if (auto w = dyn_cast<g::WeightOp>(op)) {
        std::string key = w.getName().str();
        if (auto offsets = w.getOffsets())
          for (int64_t o : *offsets)
            key += "@" + std::to_string(o);
        if (weightsSeen.insert(key).second)
          r.parameterBytes += bytesOf(w.getType());
        continue;
      }
      auto role = dist::getTensorParallelRole(op);
      if (role && !distDialect->getMicrobatchAttrHelper().isAttrPresent(op)) {
        g::WeightOp w = weightOf(op);
        std::string name = weightLabel(w);
        auto reason = distDialect->getTpReasonAttrHelper().getAttr(op);
        r.decisions.push_back({layerOf(w ? w.getName() : ""), name,
                               op->getName().stripDialect().str(),
                               dist::tensorParallelRoleLabel(*role),
                               reason ? reason.str() : ""});
      }
      if (auto collective = dyn_cast<dist::CollectiveOpInterface>(op)) {
        ExplainReport::Collective c;
        ArrayAttr axes = collective.getGroupAxes();
        std::vector<StringAttr> names;
        for (Attribute a : axes) {
          c.axes.push_back(cast<StringAttr>(a).str());
          names.push_back(cast<StringAttr>(a));
        }
        c.groupSize = mesh ? mesh.getGroupSize(names) : 1;
        c.kind = op->getName().stripDialect().str();
        if (auto recv = dyn_cast<dist::RecvOp>(op)) {
          // A recv reads nothing here: it is placed by its peer.
          c.layer = "model";
          c.source = "from group member i" + offsetString(recv.getFrom());
        } else {
          auto [layer, source] = sourceOf(op->getOperand(0));
          c.layer = layer;
          c.source = "after " + source;
          if (auto send = dyn_cast<dist::SendOp>(op))
            c.source += ", to group member i" + offsetString(send.getTo());
        }
        // A gather belongs to the op that needs the whole value.
        if (isa<dist::AllGatherOp>(op))
          for (Operation *user : op->getResult(0).getUsers())
            if (auto role = dist::getTensorParallelRole(user)) {
              g::WeightOp w = weightOf(user);
              std::string name = weightLabel(w);
              c.layer = layerOf(w ? w.getName() : "");
              c.source = "before " + dist::tensorParallelRoleLabel(*role) + " " +
                         user->getName().stripDialect().str() +
                         (name.empty() ? "" : " " + name);
              break;
            }
        std::optional<CollectiveCost> cost =
            estimateCollectiveCost(op, c.groupSize);
        if (cost) {
          c.messageBytes = cost->messageBytes;
          c.trafficBytes = cost->trafficBytes;
          c.formula = cost->formula;
        }
        // The routing the plan assumes, when not even.
        auto loadOf = [](Operation *op) -> std::optional<double> {
          if (auto moe = dyn_cast<dist::ExpertParallelMoeOp>(op))
            return moe.getLoadImbalance().convertToDouble();
          if (auto grad = dyn_cast<dist::ExpertParallelMoeGradOp>(op))
            return grad.getLoadImbalance().convertToDouble();
          return std::nullopt;
        };
        if (std::optional<double> load = loadOf(op); load && *load > 1.0)
          c.formula += ", r = " + llvm::formatv("{0:F2}", *load).str() +
                       " assumed (--moe-imbalance)";
        c.shape = typeString(isa<dist::AllGatherOp, dist::RecvOp>(op)
                                 ? op->getResult(0).getType()
                                 : op->getOperand(0).getType());
        r.collectives.push_back(c);
      }
      // Activations: results of compute ops, live until their last use.
      if (!isa<g::ConstantOp, func::ReturnOp>(op))
        for (Value v : op->getResults()) {
          int64_t b = bytesOf(v.getType());
          r.totalActivationBytes += b;
          liveBytes[v] = b;
          live += b;
        }
      r.peakActivationBytes = std::max(r.peakActivationBytes, live);
      for (Value v : op->getOperands())
        if (lastUse.lookup(v) == i && liveBytes.count(v) &&
            !isa<func::ReturnOp>(op))
          live -= liveBytes[v];
    }
    if (llvm::any_of(ops, [](Operation *op) { return isa<g::AssignOp>(op); }))
      r.step = analyzeStepMemory(func);
    for (Operation *op : ops)
      if (auto skip = distDialect->getSpSkippedAttrHelper().getAttr(op))
        r.notes.push_back("sequence parallelism skipped a norm: " + skip.str());
  }
  return r;
}

std::string mlir::paracc::formatBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(u ? "%.2f %s" : "%.0f %s", bytes, units[u]);
  return s;
}

/// Sums of collective bytes by kind.
static std::map<std::string, std::pair<int64_t, double>>
totalsByKind(const ExplainReport &r) {
  std::map<std::string, std::pair<int64_t, double>> totals;
  for (const auto &c : r.collectives) {
    totals[c.kind].first += c.messageBytes;
    totals[c.kind].second += c.trafficBytes;
  }
  return totals;
}

/// "12.35M" for a count of parameters.
static std::string humanCount(double n) {
  const char *units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  while (n >= 1000 && u < 4) {
    n /= 1000;
    ++u;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(u ? "%.2f%s" : "%.0f%s", n, units[u]);
  return s;
}

/// "embedding, 0-11", "12-23", "head": what a pipeline stage holds.
static std::string stageLayers(const StageSummary &s) {
  SmallVector<std::string> parts;
  if (s.prologue)
    parts.push_back("embedding");
  if (s.firstLayer >= 0)
    parts.push_back(s.firstLayer == s.lastLayer
                        ? std::to_string(s.firstLayer)
                        : std::to_string(s.firstLayer) + "-" +
                              std::to_string(s.lastLayer));
  if (s.epilogue)
    parts.push_back("head");
  return parts.empty() ? "-" : llvm::join(parts, ", ");
}

/// Slowest over fastest predicted stage time (stages with no op skipped);
/// 0 when there is no such stage.
static double imbalance(ArrayRef<StageSummary> stages) {
  double lo = 0, hi = 0;
  for (const StageSummary &s : stages) {
    if (s.predictedMs <= 0)
      continue;
    lo = lo == 0 ? s.predictedMs : std::min(lo, s.predictedMs);
    hi = std::max(hi, s.predictedMs);
  }
  return lo > 0 ? hi / lo : 0;
}

static void printPipelineText(const PipelinePlan &p, llvm::raw_ostream &os) {
  const int64_t v = p.virtualStages;
  const int64_t ranks = int64_t(p.stages.size()) / std::max<int64_t>(v, 1);
  os << "\n== Pipeline: " << p.stages.size() << " stage(s)";
  if (v > 1)
    os << " (" << ranks << " rank(s) x " << v
       << " virtual stages: stage k runs on rank k mod " << ranks << ")";
  os << " over " << p.layers << " layer(s), " << p.schedule << ", "
     << p.microbatches << " micro-batch(es), "
     << (p.training ? "training" : "forward") << " step, " << p.rates
     << " rates\n";
  os << "  " << llvm::left_justify("stage", 6);
  if (v > 1)
    os << llvm::left_justify("rank", 5);
  os << llvm::left_justify("layers", 20) << llvm::right_justify("params", 10)
     << llvm::right_justify("GFLOPs", 11) << llvm::right_justify("pred. ms", 12)
     << llvm::right_justify("memory", 13) << llvm::right_justify("sends", 13)
     << "\n";
  for (auto [i, s] : llvm::enumerate(p.stages)) {
    std::string row;
    llvm::raw_string_ostream line(row);
    line << llvm::format("%-6zu", i);
    if (v > 1)
      line << llvm::format("%-5lld", (long long)(int64_t(i) % ranks));
    line << llvm::left_justify(stageLayers(s), 20)
         << llvm::right_justify(humanCount(double(s.params)), 10)
         << llvm::format("%11.3f", double(s.flops) / 1e9)
         << llvm::format("%12.3f", s.predictedMs)
         << llvm::right_justify(formatBytes(double(s.memoryBytes)), 13)
         << llvm::right_justify(formatBytes(double(s.sentBytes)), 13);
    os << "  " << row << "\n";
  }
  os << "  memory: parameters"
     << (p.training ? " x4 (gradients, AdamW moments)" : "")
     << (v > 1 ? ", a rank holding its stages' sum" : "")
     << "; sends: activation bytes to the next stage per step\n";
  if (!p.stages.empty() && p.stages.front().arenaBytes >= 0) {
    os << "  activations (the executable's memory plan, per rank):";
    for (int64_t r = 0; r < ranks; ++r) {
      os << (r ? "," : "") << " " << (v > 1 ? "rank " : "stage ") << r << " ";
      for (int64_t chunk = 0; chunk < v; ++chunk)
        os << (chunk ? "+" : "") << p.stages[chunk * ranks + r].inFlight;
      os << " micro-batch(es)" << (v > 1 ? " of its stages" : "")
         << " in flight, arena "
         << formatBytes(double(p.stages[r].arenaBytes));
    }
    os << "\n";
  }
  SmallVector<std::string> uniform;
  for (const StageSummary &s : p.uniformStages)
    uniform.push_back(stageLayers(s));
  os << "  equal-layer cut (Megatron): " << llvm::join(uniform, " | ") << "\n";
  auto ratio = [](double x) {
    std::string s;
    llvm::raw_string_ostream o(s);
    if (x > 0)
      o << llvm::format("%.2fx", x);
    else
      o << "n/a";
    return s;
  };
  os << "  imbalance (slowest / fastest predicted stage): "
     << ratio(imbalance(p.stages))
     << " (equal-layer cut: " << ratio(imbalance(p.uniformStages)) << ")\n";
  os << llvm::format("  bubble: %s = %.3f, predicted %.3f "
                     "(equal-layer cut: %.3f)\n",
                     v > 1 ? "(p-1)/(v*m+p-1)" : "(p-1)/(m+p-1)",
                     p.bubbleFormula, p.bubblePredicted,
                     p.uniformBubblePredicted);
}

void mlir::paracc::printExplainText(const ExplainReport &r,
                                    llvm::raw_ostream &os,
                                    const ExplainReport *baseline) {
  os << "== Mesh: " << r.numRanks << " rank(s)";
  for (const auto &a : r.axes)
    os << ", " << a.name << "=" << a.size;
  os << " (row-major: the last axis varies fastest)\n";
  if (r.microbatches > 1 && r.pipeline)
    os << "  micro-batches: " << r.microbatches
       << " per step, through the pipeline (decisions below are listed "
          "once)\n";
  else if (r.microbatches > 1)
    os << "  micro-batches: " << r.microbatches
       << " per rank, interleaved: one's collectives overlap the next one's "
          "compute (decisions below are listed once)\n";
  for (const auto &a : r.axes) {
    os << "  " << a.name << " groups:";
    for (const auto &g : a.groups) {
      os << " {";
      llvm::interleaveComma(g, os);
      os << "}";
    }
    os << "\n";
  }
  if (!r.axes.empty()) {
    os << "  rank -> coordinates:";
    for (int64_t rank = 0; rank < r.numRanks; ++rank) {
      os << " " << rank << "=(";
      int64_t rest = rank;
      SmallVector<int64_t> coords(r.axes.size());
      for (int64_t i = int64_t(r.axes.size()) - 1; i >= 0; --i) {
        coords[i] = rest % r.axes[i].size;
        rest /= r.axes[i].size;
      }
      llvm::interleaveComma(coords, os);
      os << ")";
    }
    os << "\n";
  }

  os << "\n== Tensor-parallel decisions (" << r.decisions.size() << ")\n";
  std::string lastLayer;
  for (const auto &d : r.decisions) {
    if (d.layer != lastLayer)
      os << "  [" << d.layer << "]\n";
    lastLayer = d.layer;
    os << "    " << llvm::left_justify(d.role, 14) << " "
       << llvm::left_justify(d.weight.empty() ? d.op : d.weight, 52) << " "
       << d.reason << "\n";
  }

  os << "\n== Collectives per " << (r.step ? "training" : "forward")
     << " step (" << r.collectives.size() << "), n = group size\n";
  lastLayer.clear();
  for (const auto &c : r.collectives) {
    if (c.layer != lastLayer)
      os << "  [" << c.layer << "]\n";
    lastLayer = c.layer;
    os << "    " << llvm::left_justify(c.kind, 15) << " over "
       << llvm::join(c.axes, ",") << " (n=" << c.groupSize << ")  " << c.shape
       << "  message " << formatBytes(c.messageBytes) << ", sent/rank "
       << formatBytes(c.trafficBytes) << " = " << c.formula << "  " << c.source
       << "\n";
  }
  os << "  totals:";
  int64_t message = 0;
  double traffic = 0;
  for (const auto &[kind, t] : totalsByKind(r)) {
    os << " " << kind << " " << formatBytes(t.first) << ";";
    message += t.first;
    traffic += t.second;
  }
  os << " all " << formatBytes(message) << " of messages, "
     << formatBytes(traffic) << " sent per rank\n";

  if (r.step) {
    const StepMemory &m = *r.step;
    auto known = [](int64_t b) {
      return b < 0 ? std::string("?") : formatBytes(b);
    };
    os << "\n== Memory per rank (training step, before launch)\n";
    const int64_t zeroStage = r.zero ? r.zero->stage : 1;
    if (r.zero && r.zero->stage == 3)
      os << "  parameters            " << formatBytes(m.parameters)
         << " (ZeRO-3: " << r.zero->shardedParameters
         << " parameter blocks split over " << r.zero->axis << ")\n";
    else
      os << "  parameters            " << formatBytes(m.parameters) << "\n";
    os << "  gradients             " << formatBytes(m.gradients)
       << " (what the optimizer updates from";
    if (m.shardedUpdates > 0)
      os << (zeroStage >= 2 ? "; shards, reduce-scattered per micro-batch"
                            : "; shards, reduce-scattered once per step");
    os << ")\n";
    os << "  optimizer state       " << formatBytes(m.optimizerState);
    if (m.shardedUpdates > 0)
      os << " (ZeRO-" << zeroStage << ": split over dp for " << m.shardedUpdates
         << " of " << m.updates << " parameter blocks)";
    os << "\n";
    if (r.zero && r.zero->stage == 3)
      os << "  parameter gathers     " << formatBytes(r.zero->gatherPeakBytes)
         << " (ZeRO-3: the most gathered parameters live at once, in the "
            "arena)\n";
    os << "  activations saved     " << formatBytes(m.activationsSaved)
       << " (forward values the backward reads)\n";
    os << "  workspace             " << formatBytes(m.workspace)
       << " (GPU: cuBLASLt, attention backward statistics)\n";
    os << "  communication         " << formatBytes(m.communication)
       << " (GPU: collective staging)\n";
    os << "  arena                 " << known(m.arena)
       << " (the memory plan: gradients, saved and transient activations)\n";
    os << "  peak                  " << known(m.peak)
       << " (arena + state + constants + workspace + communication)\n";
  }
  if (!r.frozenParameters.empty()) {
    os << "\n== Frozen parameters (" << r.frozenParameters.size()
       << ", not trained)\n";
    for (const auto &[name, reason] : r.frozenParameters)
      os << "  " << name << ": " << reason << "\n";
  }
  if (r.zero && r.zero->stage == 3) {
    const ZeroSummary &z = *r.zero;
    os << "\n== ZeRO-3 parameter gathers (over " << z.axis << ", prefetch "
       << z.prefetch << (z.prefetch == 1 ? " layer" : " layers") << ")\n";
    int64_t total = 0;
    for (auto [name, gathers] : {std::make_pair("forward ", &z.forward),
                                 std::make_pair("backward", &z.backward)})
      for (const ZeroSummary::Gather &g : *gathers) {
        os << "  " << name << "  " << unitName(g.unit, z.layers) << ": "
           << formatBytes(g.bytes) << ", issued before "
           << unitName(g.issuedAt, z.layers) << "'s reads\n";
        total += g.bytes;
      }
    os << "  gathered per step     " << formatBytes(total) << "; at most "
       << formatBytes(z.gatherPeakBytes) << " at once\n";
    if (r.pipeline)
      os << "  under pp each micro-batch's forward and backward gather their "
            "own copies where their actions first read them (not "
            "prefetched): "
         << r.pipeline->microbatches << " x the above per step\n";
  }
  if (r.recompute) {
    const RecomputeSummary &c = *r.recompute;
    double saved =
        c.savedBytes > 0
            ? 100.0 * double(c.savedBytes - c.keptBytes) / double(c.savedBytes)
            : 0.0;
    double extra =
        c.stepFlops > 0 ? 100.0 * c.recomputedFlops / c.stepFlops : 0.0;
    os << "\n== Activation recompute (--recompute " << c.policy << ")\n";
    os << "  saved activations     " << formatBytes(double(c.keptBytes))
       << " kept of " << formatBytes(double(c.savedBytes))
       << llvm::format(" (%.1f %% less)\n", saved);
    os << "  live activations      "
       << formatBytes(double(c.activationPeakBytes))
       << " at most (the step's liveness as recompute leaves it";
    if (c.budgetBytes >= 0)
      os << "; auto's budget " << formatBytes(double(c.budgetBytes));
    os << ")\n";
    os << "  recomputed            " << c.recomputedOps << " ops, "
       << humanCount(c.recomputedFlops) << "FLOP"
       << llvm::format(" = %.1f %% of the step's modelled FLOPs", extra)
       << llvm::format(", predicted %.2f ms per step (%s rates)\n",
                       c.recomputedMs, c.rates.c_str());
  }
  os << "\n== Memory per rank\n";
  os << "  parameters            " << formatBytes(r.parameterBytes) << "\n";
  os << "  activations, peak live " << formatBytes(r.peakActivationBytes)
     << " (forward, all intermediate values freed after last use)\n";
  os << "  activations, total    " << formatBytes(r.totalActivationBytes)
     << " (every intermediate value)\n";
  for (const std::string &n : r.notes)
    os << "  note: " << n << "\n";

  if (r.predicted) {
    os << "\n== Predicted step time (cost model, " << r.predicted->rates
       << " rates; one rank, every instruction one after the other)\n";
    for (const FunctionPrediction &f : r.predicted->functions) {
      double compute = f.computeSeconds * 1e3,
             collectives = f.collectiveSeconds * 1e3;
      os << "  " << f.name;
      if (f.stage >= 0)
        os << ", stage " << f.stage;
      os << llvm::format(": compute %.3f ms + %lld collective(s) %.3f ms = "
                         "%.3f ms serialized",
                         compute, (long long)f.collectives, collectives,
                         compute + collectives);
      if (f.collectives > 0)
        os << llvm::format(", %.3f ms if they all overlapped compute",
                           std::max(compute, collectives));
      os << "\n";
      // What the compute is made of.
      for (size_t k = 0; k < f.byKind.size(); ++k) {
        const ComputeKindTotals &t = f.byKind[k];
        if (t.ops == 0)
          continue;
        os << "    " << llvm::left_justify(computeKindName(ComputeKind(k)), 19)
           << llvm::right_justify(std::to_string(t.ops), 6) << " op(s) "
           << llvm::right_justify(humanCount(double(t.flops)), 8) << "FLOP"
           << llvm::format(" %10.3f ms\n", t.seconds * 1e3);
      }
    }
  }

  if (r.pipeline)
    printPipelineText(*r.pipeline, os);

  if (baseline) {
    int64_t m0 = 0, m1 = 0;
    double t0 = 0, t1 = 0;
    for (const auto &c : baseline->collectives) {
      m0 += c.messageBytes;
      t0 += c.trafficBytes;
    }
    for (const auto &c : r.collectives) {
      m1 += c.messageBytes;
      t1 += c.trafficBytes;
    }
    os << "\n== What sequence parallelism changed (same mesh without SP -> "
          "with SP)\n";
    auto countKind = [](const ExplainReport &x, StringRef k) {
      return llvm::count_if(x.collectives,
                            [&](const auto &c) { return c.kind == k; });
    };
    os << "  all_reduce " << countKind(*baseline, "all_reduce") << " -> "
       << countKind(r, "all_reduce") << ", reduce_scatter "
       << countKind(*baseline, "reduce_scatter") << " -> "
       << countKind(r, "reduce_scatter") << ", all_gather "
       << countKind(*baseline, "all_gather") << " -> "
       << countKind(r, "all_gather") << "\n";
    os << "  bytes sent per rank   " << formatBytes(t0) << " -> "
       << formatBytes(t1)
       << " (a ring all-reduce is a reduce-scatter plus an all-gather)\n";
    os << "  message bytes         " << formatBytes(m0) << " -> "
       << formatBytes(m1) << "\n";
    os << "  activations peak live "
       << formatBytes(baseline->peakActivationBytes) << " -> "
       << formatBytes(r.peakActivationBytes) << "\n";
    os << "  activations total     "
       << formatBytes(baseline->totalActivationBytes) << " -> "
       << formatBytes(r.totalActivationBytes) << "\n";
  }
}

static llvm::json::Array stagesToJson(ArrayRef<StageSummary> stages,
                                      int64_t ranks) {
  llvm::json::Array array;
  for (auto [k, s] : llvm::enumerate(stages)) {
    array.push_back(llvm::json::Object{
        {"rank", int64_t(k) % std::max<int64_t>(ranks, 1)},
        {"layers", llvm::json::Array{s.firstLayer, s.lastLayer}},
        {"prologue", s.prologue},
        {"epilogue", s.epilogue},
        {"params", s.params},
        {"param_bytes", s.paramBytes},
        {"flops", s.flops},
        {"predicted_ms", s.predictedMs},
        {"memory_bytes", s.memoryBytes},
        {"sent_bytes", s.sentBytes}});
    if (s.arenaBytes >= 0) {
      llvm::json::Object &o = *array.back().getAsObject();
      o["in_flight"] = s.inFlight;
      o["arena_bytes"] = s.arenaBytes;
    }
  }
  return array;
}

static llvm::json::Object pipelineToJson(const PipelinePlan &p) {
  const int64_t ranks =
      int64_t(p.stages.size()) / std::max<int64_t>(p.virtualStages, 1);
  return llvm::json::Object{
      {"schedule", stringifyOption(p.schedule)},
      {"microbatches", p.microbatches},
      {"virtual_stages", p.virtualStages},
      {"training", p.training},
      {"rates", p.rates},
      {"layers", p.layers},
      {"stages", stagesToJson(p.stages, ranks)},
      {"uniform_stages", stagesToJson(p.uniformStages, ranks)},
      {"imbalance", imbalance(p.stages)},
      {"uniform_imbalance", imbalance(p.uniformStages)},
      {"bubble_formula", p.bubbleFormula},
      {"bubble_predicted", p.bubblePredicted},
      {"uniform_bubble_predicted", p.uniformBubblePredicted}};
}

static llvm::json::Object toJson(const ExplainReport &r) {
  llvm::json::Array axes, decisions, collectives;
  for (const auto &a : r.axes) {
    llvm::json::Array groups;
    for (const auto &g : a.groups)
      groups.push_back(llvm::json::Array(g));
    axes.push_back(llvm::json::Object{
        {"name", a.name}, {"size", a.size}, {"groups", std::move(groups)}});
  }
  for (const auto &d : r.decisions)
    decisions.push_back(llvm::json::Object{{"layer", d.layer},
                                           {"weight", d.weight},
                                           {"op", d.op},
                                           {"role", d.role},
                                           {"reason", d.reason}});
  for (const auto &c : r.collectives)
    collectives.push_back(
        llvm::json::Object{{"layer", c.layer},
                           {"kind", c.kind},
                           {"axes", llvm::json::Array(c.axes)},
                           {"group_size", c.groupSize},
                           {"shape", c.shape},
                           {"message_bytes", c.messageBytes},
                           {"sent_bytes_per_rank", c.trafficBytes},
                           {"formula", c.formula},
                           {"count_per_step", 1},
                           {"where", c.source}});
  llvm::json::Object root{
      {"num_ranks", r.numRanks},
      {"microbatches", r.microbatches},
      {"axes", std::move(axes)},
      {"decisions", std::move(decisions)},
      {"collectives", std::move(collectives)},
      {"parameter_bytes_per_rank", r.parameterBytes},
      {"activation_peak_bytes_per_rank", r.peakActivationBytes},
      {"activation_total_bytes_per_rank", r.totalActivationBytes},
      {"notes", llvm::json::Array(r.notes)}};
  if (r.step) {
    const StepMemory &m = *r.step;
    auto known = [](int64_t b) -> llvm::json::Value {
      if (b < 0)
        return nullptr;
      return b;
    };
    root["memory"] =
        llvm::json::Object{{"parameters", m.parameters},
                           {"gradients", m.gradients},
                           {"optimizer_state", m.optimizerState},
                           {"optimizer_updates", m.updates},
                           {"optimizer_sharded_updates", m.shardedUpdates},
                           {"activations_saved", m.activationsSaved},
                           {"workspace", m.workspace},
                           {"communication", m.communication},
                           {"arena", known(m.arena)},
                           {"peak", known(m.peak)}};
  }
  if (r.pipeline)
    root["pipeline"] = pipelineToJson(*r.pipeline);
  if (r.predicted) {
    llvm::json::Array functions;
    for (const FunctionPrediction &f : r.predicted->functions) {
      llvm::json::Object kinds;
      for (size_t k = 0; k < f.byKind.size(); ++k)
        if (f.byKind[k].ops > 0)
          kinds[computeKindName(ComputeKind(k))] =
              llvm::json::Object{{"ops", f.byKind[k].ops},
                                 {"flops", f.byKind[k].flops},
                                 {"ms", f.byKind[k].seconds * 1e3}};
      functions.push_back(llvm::json::Object{
          {"name", f.name},
          {"stage", f.stage},
          {"compute_ms", f.computeSeconds * 1e3},
          {"collective_ms", f.collectiveSeconds * 1e3},
          {"collectives", f.collectives},
          {"serialized_ms", (f.computeSeconds + f.collectiveSeconds) * 1e3},
          {"by_kind", std::move(kinds)}});
    }
    root["predicted_step"] = llvm::json::Object{
        {"rates", r.predicted->rates}, {"functions", std::move(functions)}};
  }
  if (!r.frozenParameters.empty()) {
    llvm::json::Array frozen;
    for (const auto &[name, reason] : r.frozenParameters)
      frozen.push_back(llvm::json::Object{{"name", name}, {"reason", reason}});
    root["frozen_parameters"] = std::move(frozen);
  }
  if (r.zero) {
    const ZeroSummary &z = *r.zero;
    auto gathers = [](const std::vector<ZeroSummary::Gather> &list) {
      llvm::json::Array out;
      for (const ZeroSummary::Gather &g : list)
        out.push_back(llvm::json::Object{
            {"unit", g.unit}, {"issued_at", g.issuedAt}, {"bytes", g.bytes}});
      return out;
    };
    root["zero"] =
        llvm::json::Object{{"stage", z.stage},
                           {"axis", z.axis},
                           {"prefetch", z.prefetch},
                           {"layers", z.layers},
                           {"sharded_parameters", z.shardedParameters},
                           {"gather_peak_bytes", z.gatherPeakBytes},
                           {"forward_gathers", gathers(z.forward)},
                           {"backward_gathers", gathers(z.backward)}};
  }
  if (r.recompute) {
    const RecomputeSummary &c = *r.recompute;
    root["recompute"] =
        llvm::json::Object{{"policy", stringifyOption(c.policy)},
                           {"saved_bytes", c.savedBytes},
                           {"kept_bytes", c.keptBytes},
                           {"budget_bytes", c.budgetBytes},
                           {"activation_peak_bytes", c.activationPeakBytes},
                           {"recomputed_ops", c.recomputedOps},
                           {"recomputed_flops", c.recomputedFlops},
                           {"step_flops", c.stepFlops},
                           {"recomputed_ms", c.recomputedMs},
                           {"rates", c.rates}};
  }
  return root;
}

void mlir::paracc::printExplainJson(const ExplainReport &r,
                                    llvm::raw_ostream &os,
                                    const ExplainReport *baseline) {
  llvm::json::Object root = toJson(r);
  if (baseline)
    root["without_sequence_parallelism"] = toJson(*baseline);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
