//===- PlanHtmlReport.cpp - The planner's choice as an HTML page ----------===//
//
// `paracc plan --report F.html`: one self-contained page (inline SVG, no
// scripts) with the text report, the plans that fit by step time and peak
// memory with their Pareto front, the top plans' memory by category, and
// the chosen plan's simulated step as a pipeline timeline (the runtime's
// Gantt chart, the one `--timeline` draws for a measured run).
//
//===----------------------------------------------------------------------===//

#include "paracc/Driver/Plan.h"
#include "paracc/Planner/StagePartition.h"
#include "paracc/runtime/Timeline.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::paracc;

namespace {
/// A plot's unit: GiB or MiB for memory, s or ms for time, whichever keeps
/// the largest value at 1 or more.
struct Unit {
  double divisor;
  const char *name;
  static Unit memory(double largestBytes) {
    return largestBytes >= double(int64_t(1) << 30)
               ? Unit{double(int64_t(1) << 30), "GiB"}
               : Unit{double(1 << 20), "MiB"};
  }
  static Unit time(double largestSeconds) {
    return largestSeconds >= 1 ? Unit{1, "s"} : Unit{1e-3, "ms"};
  }
  double operator()(double v) const { return v / divisor; }
};
} // namespace

/// `v` to 6 digits, or every digit (the data attributes tests read back).
static std::string number(double v, bool exact = false) {
  char buf[32];
  std::snprintf(buf, sizeof buf, exact ? "%.17g" : "%g", v);
  return buf;
}

static std::string escape(llvm::StringRef text) {
  return ::paracc::rt::escapeXml(text.str());
}

namespace {
/// A linear map from data to a plot's pixels.
struct Axis {
  double low, high, from, to;
  double operator()(double v) const {
    return from + (v - low) / (high - low) * (to - from);
  }
};
} // namespace

/// Ticks at 1, 2 or 5 x 10^k across [0, high].
static std::vector<double> ticks(double high) {
  double step = std::pow(10.0, std::floor(std::log10(high / 5)));
  for (double k : {1.0, 2.0, 5.0, 10.0})
    if (high / (step * k) <= 6) {
      step *= k;
      break;
    }
  std::vector<double> out;
  for (double v = 0; v <= high * (1 + 1e-9); v += step)
    out.push_back(v);
  return out;
}

/// Points drawn at most; beyond it every n-th is (the front and the top
/// plans always are). The tests count points on plots under it.
static constexpr size_t kMaxPoints = 20000;

static void paretoPlot(const PlanRequest &request,
                       const PlanSearchResult &result, bool training,
                       llvm::raw_ostream &os) {
  const double width = 900, height = 450, left = 70, right = 20, top = 44,
               bottom = 50;
  // The step axis ends above the front and the top plans (1.5x the
  // slowest of them): much slower plans are counted, not drawn.
  double frontTime = 0;
  for (const PlanCandidate &c : result.pareto)
    frontTime = std::max(frontTime, c.predicted.stepSeconds);
  for (const PlanCandidate &c : result.candidates)
    frontTime = std::max(frontTime, c.predicted.stepSeconds);
  double maxBytes = 0, maxTime = 0;
  size_t bounded = 0, beyond = 0;
  for (const PlanPoint &p : result.points) {
    maxBytes = std::max(maxBytes, p.peakMemoryBytes);
    if (p.stepSeconds > 1.5 * frontTime) {
      ++beyond;
      continue;
    }
    maxTime = std::max(maxTime, p.stepSeconds);
    bounded += p.lowerBoundOnly;
  }
  // The usable memory is drawn when it is near the plans' (memory bound
  // searches), else named in the axis title.
  const double usableBytes = double(request.cluster.usableBytes());
  const bool drawUsable = usableBytes <= 1.5 * maxBytes;
  if (drawUsable)
    maxBytes = std::max(maxBytes, usableBytes);
  const Unit mem = Unit::memory(maxBytes), sec = Unit::time(maxTime);
  double memHigh = std::max(mem(maxBytes), 1e-3) * 1.05,
         timeHigh = std::max(sec(maxTime), 1e-3) * 1.05;
  Axis x{0, memHigh, left, width - right};
  Axis y{0, timeHigh, height - bottom, top};
  os << llvm::formatv("<svg class=\"pareto\" data-beyond=\"{2}\" "
                      "xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" font-family=\"sans-serif\" "
                      "font-size=\"11\">\n",
                      width, height, beyond);
  os << llvm::formatv(
      "<text x=\"{0}\" y=\"14\">{1} plan(s) that fit: {2} simulated (grey), "
      "{3} set aside at a lower bound of their step (light), {4} slower "
      "beyond the plot</text><text x=\"{0}\" y=\"30\">the Pareto front "
      "blue, the other top plans orange, the choice red</text>\n",
      left, result.points.size(), result.points.size() - bounded - beyond,
      bounded, beyond);
  for (double t : ticks(memHigh))
    os << llvm::formatv("<line x1=\"{0:F1}\" x2=\"{0:F1}\" y1=\"{1}\" "
                        "y2=\"{2}\" stroke=\"#eee\"/><text x=\"{0:F1}\" "
                        "y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                        x(t), top, height - bottom, height - bottom + 15,
                        number(t));
  for (double t : ticks(timeHigh))
    os << llvm::formatv("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:F1}\" "
                        "y2=\"{2:F1}\" stroke=\"#eee\"/><text x=\"{3}\" "
                        "y=\"{4:F1}\" text-anchor=\"end\">{5}</text>\n",
                        left, width - right, y(t), left - 4, y(t) + 4,
                        number(t));
  std::string usableText =
      llvm::formatv("{0:F2} {1}", mem(usableBytes), mem.name).str();
  os << llvm::formatv(
      "<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">peak memory per "
      "device ({2}{3})</text><text x=\"14\" y=\"{4}\" "
      "transform=\"rotate(-90 14 {4})\" text-anchor=\"middle\">step "
      "({5})</text>\n",
      (left + width - right) / 2, height - 12, mem.name,
      drawUsable ? "" : "; usable " + usableText + ", off the plot",
      (top + height - bottom) / 2, sec.name);
  if (drawUsable)
    os << llvm::formatv("<line class=\"usable\" x1=\"{0:F1}\" x2=\"{0:F1}\" "
                        "y1=\"{1}\" y2=\"{2}\" stroke=\"#c00\" "
                        "stroke-dasharray=\"4 3\"><title>usable memory "
                        "{3}</title></line>\n",
                        x(mem(usableBytes)), top, height - bottom, usableText);
  const size_t stride = std::max<size_t>(1, result.points.size() / kMaxPoints);
  for (size_t i = 0; i < result.points.size(); i += stride) {
    const PlanPoint &p = result.points[i];
    if (p.stepSeconds > 1.5 * frontTime)
      continue;
    os << llvm::formatv("<circle class=\"{0}\" cx=\"{1:F1}\" cy=\"{2:F1}\" "
                        "r=\"2\" fill=\"{3}\"/>\n",
                        p.lowerBoundOnly ? "bound" : "point",
                        x(mem(p.peakMemoryBytes)), y(sec(p.stepSeconds)),
                        p.lowerBoundOnly ? "#ddd" : "#999");
  }
  auto mark = [&](const PlanCandidate &c, llvm::StringRef cls,
                  llvm::StringRef color, double r) {
    os << llvm::formatv(
        "<circle class=\"{0}\" cx=\"{1:F1}\" cy=\"{2:F1}\" r=\"{3}\" "
        "fill=\"{4}\" data-step-seconds=\"{5}\" data-peak-bytes=\"{6}\">"
        "<title>{7}: {8} {9}, {10} {11}</title></circle>\n",
        cls, x(mem(c.predicted.peakMemoryBytes)),
        y(sec(c.predicted.stepSeconds)), r, color,
        number(c.predicted.stepSeconds, true),
        number(c.predicted.peakMemoryBytes, true),
        escape(c.plan.describe(training)), number(sec(c.predicted.stepSeconds)),
        sec.name, number(mem(c.predicted.peakMemoryBytes)), mem.name);
  };
  if (!result.pareto.empty()) {
    os << "<polyline fill=\"none\" stroke=\"#4C78A8\" points=\"";
    for (const PlanCandidate &c : result.pareto)
      os << llvm::formatv("{0:F1},{1:F1} ", x(mem(c.predicted.peakMemoryBytes)),
                          y(sec(c.predicted.stepSeconds)));
    os << "\"/>\n";
  }
  for (const PlanCandidate &c : result.pareto)
    mark(c, "front", "#4C78A8", 3.5);
  if (!result.candidates.empty()) {
    for (const PlanCandidate &c : llvm::drop_begin(result.candidates))
      mark(c, "top", "#F28E2B", 4);
    mark(result.candidates.front(), "chosen", "#D62728", 6);
  }
  os << "</svg>\n";
}

namespace {
struct MemoryPart {
  const char *name, *color;
  double PlanPrediction::*bytes;
};
} // namespace

static constexpr MemoryPart kMemoryParts[] = {
    {"parameters", "#4C78A8", &PlanPrediction::parameterBytes},
    {"gradients", "#59A14F", &PlanPrediction::gradientBytes},
    {"optimizer state", "#B07AA1", &PlanPrediction::optimizerStateBytes},
    {"activations", "#F28E2B", &PlanPrediction::activationBytes},
    {"buffers", "#9D9D9D", &PlanPrediction::bufferBytes},
};

static void memoryBars(const PlanRequest &request,
                       const PlanSearchResult &result, bool training,
                       llvm::raw_ostream &os) {
  const double left = 300, width = 560, rowHeight = 24, top = 30;
  const double usableBytes = double(request.cluster.usableBytes());
  double maxBytes = 0;
  for (const PlanCandidate &c : result.candidates)
    maxBytes = std::max(maxBytes, c.predicted.peakMemoryBytes);
  const bool drawUsable = usableBytes <= 1.5 * maxBytes;
  if (drawUsable)
    maxBytes = std::max(maxBytes, usableBytes);
  const Unit mem = Unit::memory(maxBytes);
  Axis x{0, std::max(mem(maxBytes), 1e-3) * 1.05, left, left + width};
  const double height = top + rowHeight * result.candidates.size() + 30;
  os << llvm::formatv("<svg class=\"memory\" "
                      "xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" font-family=\"sans-serif\" "
                      "font-size=\"11\">\n<text x=\"{2}\" y=\"18\">",
                      left + width + 80, height, left);
  for (const MemoryPart &part : kMemoryParts)
    os << llvm::formatv("<tspan fill=\"{0}\">&#9632;</tspan> {1} ", part.color,
                        part.name);
  os << "(" << mem.name << ", the largest rank's)</text>\n";
  for (auto [i, c] : llvm::enumerate(result.candidates)) {
    double yPos = top + rowHeight * i;
    os << llvm::formatv("<text x=\"4\" y=\"{0:F1}\">{1}. {2}</text>\n",
                        yPos + 15, i + 1, escape(c.plan.describe(training)));
    double at = 0;
    for (const MemoryPart &part : kMemoryParts) {
      double bytes = c.predicted.*part.bytes;
      os << llvm::formatv(
          "<rect class=\"part\" data-plan=\"{0}\" data-bytes=\"{1}\" "
          "x=\"{2:F2}\" y=\"{3:F1}\" width=\"{4:F2}\" height=\"18\" "
          "fill=\"{5}\"><title>{6}: {7} {8}</title></rect>\n",
          i + 1, number(bytes, true), x(at), yPos + 2,
          x(at + mem(bytes)) - x(at), part.color, part.name, number(mem(bytes)),
          mem.name);
      at += mem(bytes);
    }
    os << llvm::formatv("<text x=\"{0:F1}\" y=\"{1:F1}\">{2}</text>\n",
                        x(at) + 4, yPos + 15, number(at));
  }
  if (drawUsable)
    os << llvm::formatv("<line x1=\"{0:F1}\" x2=\"{0:F1}\" y1=\"{1}\" "
                        "y2=\"{2}\" stroke=\"#c00\" stroke-dasharray=\"4 "
                        "3\"/><text x=\"{0:F1}\" y=\"{3}\" "
                        "text-anchor=\"middle\">usable {4}</text>\n",
                        x(mem(usableBytes)), top, height - 25, height - 10,
                        number(mem(usableBytes)));
  os << "</svg>\n";
}

static void stepTimeline(const ModelProfile &model, const PlanRequest &request,
                         const ParallelPlan &plan, llvm::raw_ostream &os) {
  using ::paracc::rt::TimelineEvent;
  using ::paracc::rt::TimelineKind;
  std::vector<TimelineEvent> events;
  for (const SimulatedAction &a : simulatePlanStep(model, request, plan)) {
    TimelineEvent e;
    e.rank = a.rank;
    switch (a.phase) {
    case PipelinePhase::Forward:
      e.kind = TimelineKind::Forward;
      break;
    case PipelinePhase::Backward:
      e.kind = TimelineKind::Backward;
      break;
    case PipelinePhase::Weight:
      e.kind = TimelineKind::Weight;
      break;
    case PipelinePhase::Once:
      e.kind = TimelineKind::Step;
      break;
    }
    e.microbatch = a.microbatch;
    e.chunk = plan.virtualStages > 1 ? a.chunk : -1;
    e.startUs = a.start * 1e6;
    e.endUs = a.end * 1e6;
    events.push_back(e);
  }
  std::vector<std::string> labels;
  for (int64_t s = 0; s < plan.size("pp"); ++s)
    labels.push_back("pipeline rank " + std::to_string(s));
  os << ::paracc::rt::renderTimelineSvg(
      events, labels,
      "simulated step of " + plan.mesh() +
          " (its bubble counts the once-per-step part as work): ");
}

void mlir::paracc::printPlanHtml(const ModelProfile &model,
                                 const PlanRequest &request,
                                 const PlanSearchResult &result,
                                 llvm::StringRef text, llvm::raw_ostream &os) {
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>paracc "
        "plan: "
     << escape(model.name) << " on " << request.cluster.str()
     << "</title><style>body{font-family:sans-serif;margin:2em}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto}</style>"
        "</head><body>\n<h1>paracc plan: "
     << escape(model.name) << " on " << request.cluster.str() << "</h1>\n";
  os << "<pre class=\"report\">" << escape(text) << "</pre>\n";
  os << "<h2>Step time and peak memory of the plans that fit</h2>\n";
  paretoPlot(request, result, model.training, os);
  if (!result.candidates.empty()) {
    os << "<h2>Memory by category (top plans)</h2>\n";
    memoryBars(request, result, model.training, os);
    os << "<h2>The chosen plan's step, simulated</h2>\n";
    stepTimeline(model, request, result.candidates.front().plan, os);
  }
  os << "</body></html>\n";
}
