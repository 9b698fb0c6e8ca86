//===- Timeline.cpp - What every rank did, and when -----------------------===//

#include "paracc/runtime/Timeline.h"

#include "paracc/runtime/CommunicationInstr.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace paracc::rt;

static double microseconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

void TimelineRecorder::record(const FunctionInfo &f, const InstrInfo &instr,
                              std::chrono::steady_clock::time_point begin,
                              std::chrono::steady_clock::time_point end,
                              uint64_t bytes) {
  TimelineEvent e;
  e.rank = rank_;
  e.startUs = microseconds(begin - start_);
  e.endUs = microseconds(end - start_);
  if (instr.opcode == OpCode::Send || instr.opcode == OpCode::Recv) {
    e.kind = instr.opcode == OpCode::Send ? TimelineKind::Send
                                          : TimelineKind::Recv;
    e.bytes = bytes;
    OpAttrs attrs;
    if (decodeOpAttrs(instr.opcode, instr.attrs, attrs))
      if (const auto *send = std::get_if<SendAttrs>(&attrs))
        e.peer = send->peerOffset;
    events_.push_back(e);
    return;
  }
  if (instr.action >= 0) {
    const ActionInfo &a = f.actions[instr.action];
    e.kind = a.phase == ActionPhase::Backward ? TimelineKind::Backward
             : a.phase == ActionPhase::Weight ? TimelineKind::Weight
                                              : TimelineKind::Forward;
    e.microbatch = a.microbatch;
    if (f.interleaved)
      e.chunk = a.chunk;
  }
  // Consecutive instructions of one action (or of the step) are one event.
  if (!events_.empty()) {
    TimelineEvent &last = events_.back();
    if (last.kind == e.kind && last.microbatch == e.microbatch &&
        last.chunk == e.chunk) {
      last.endUs = e.endUs;
      return;
    }
  }
  events_.push_back(e);
}

static bool isCompute(TimelineKind k) {
  return k == TimelineKind::Forward || k == TimelineKind::Backward ||
         k == TimelineKind::Weight || k == TimelineKind::Step;
}

BubbleMeasurement
paracc::rt::measureBubble(const std::vector<TimelineEvent> &events,
                          int64_t ranks) {
  BubbleMeasurement m;
  m.busyUs.assign(ranks, 0);
  double first = 0, last = 0;
  bool any = false;
  for (const TimelineEvent &e : events) {
    if (!any || e.startUs < first)
      first = e.startUs;
    if (!any || e.endUs > last)
      last = e.endUs;
    any = true;
    if (isCompute(e.kind) && e.rank >= 0 && e.rank < ranks)
      m.busyUs[e.rank] += e.endUs - e.startUs;
  }
  m.makespanUs = any ? last - first : 0;
  double busy = 0;
  for (double b : m.busyUs)
    busy += b;
  m.bubble = m.makespanUs > 0 && ranks > 0
                 ? 1.0 - busy / (double(ranks) * m.makespanUs)
                 : 0.0;
  return m;
}

namespace {
/// How each kind of event is named and drawn.
struct KindStyle {
  const char *category, *color, *prefix; // prefix: "F3", "B3", "W3"
};
// (Interleaved: "F3c1", micro-batch 3 of the rank's chunk 1.)
} // namespace

static const KindStyle &styleOf(TimelineKind k) {
  static const KindStyle styles[] = {
      {"forward", "#4C78A8", "F"}, {"backward", "#59A14F", "B"},
      {"weight", "#B07AA1", "W"},  {"step", "#9D9D9D", nullptr},
      {"send", "#F28E2B", nullptr}, {"recv", "#F28E2B", nullptr}};
  return styles[size_t(k)];
}

static std::string eventName(const TimelineEvent &e) {
  const KindStyle &style = styleOf(e.kind);
  if (!style.prefix)
    return style.category;
  std::string name = style.prefix + std::to_string(e.microbatch);
  if (e.chunk >= 0)
    name += "c" + std::to_string(e.chunk);
  return name;
}

static const char *eventCategory(TimelineKind k) {
  return styleOf(k).category;
}

static const char *eventColor(TimelineKind k) { return styleOf(k).color; }

static std::string rankLabel(const Executable &exe, int64_t rank) {
  std::string label = "rank " + std::to_string(rank);
  if (exe.pipelineAxis() >= 0)
    label += " (stage " + std::to_string(exe.stageOf(rank)) + ")";
  return label;
}

std::string paracc::rt::timelineSvgPath(const std::string &path) {
  const std::string json = ".json";
  if (path.size() > json.size() &&
      path.compare(path.size() - json.size(), json.size(), json) == 0)
    return path.substr(0, path.size() - json.size()) + ".svg";
  return path + ".svg";
}

static Status writeChromeTrace(const std::string &path,
                               const std::vector<TimelineEvent> &events,
                               const Executable &exe) {
  std::ofstream out(path);
  if (!out)
    return errorf("cannot write '", path, "'");
  char buf[64];
  out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  bool first = true;
  auto sep = [&] {
    if (!first)
      out << ",\n";
    first = false;
  };
  for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
    sep();
    out << "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": "
        << r << ", \"args\": {\"name\": \"" << rankLabel(exe, r) << "\"}}";
  }
  for (const TimelineEvent &e : events) {
    sep();
    std::snprintf(buf, sizeof buf, "%.3f", e.startUs);
    out << "{\"name\": \"" << eventName(e) << "\", \"cat\": \""
        << eventCategory(e.kind) << "\", \"ph\": \"X\", \"pid\": 0, \"tid\": "
        << e.rank << ", \"ts\": " << buf;
    std::snprintf(buf, sizeof buf, "%.3f", e.endUs - e.startUs);
    out << ", \"dur\": " << buf << ", \"args\": {";
    if (e.kind == TimelineKind::Send || e.kind == TimelineKind::Recv)
      out << "\"bytes\": " << e.bytes << ", \"peer_offset\": " << e.peer;
    else if (e.microbatch >= 0)
      out << "\"microbatch\": " << e.microbatch;
    if (e.chunk >= 0)
      out << ", \"chunk\": " << e.chunk;
    out << "}}";
  }
  out << "\n]}\n";
  if (!out)
    return errorf("cannot write '", path, "'");
  return Status::ok();
}

std::string paracc::rt::escapeXml(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string
paracc::rt::renderTimelineSvg(const std::vector<TimelineEvent> &events,
                              const std::vector<std::string> &rowLabels,
                              const std::string &title) {
  const int64_t ranks = rowLabels.size();
  const double width = 1000, left = 130, rowHeight = 26, top = 30;
  double end = 0;
  for (const TimelineEvent &e : events)
    end = std::max(end, e.endUs);
  if (end <= 0)
    end = 1;
  const double scale = width / end;
  const double height = top + rowHeight * double(ranks) + 40;
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
                left + width + 20, height);
  out += buf;
  BubbleMeasurement bubble = measureBubble(events, ranks);
  out += "<text x=\"" + std::to_string(int(left)) + "\" y=\"18\">" +
         escapeXml(title);
  std::snprintf(buf, sizeof buf,
                "%lld rank(s), %.3f ms; bubble %.1f%% (forward blue, backward "
                "green, weight gradients purple, step grey, transfers "
                "orange)</text>\n",
                (long long)ranks, bubble.makespanUs / 1000.0,
                100.0 * bubble.bubble);
  out += buf;
  for (int64_t r = 0; r < ranks; ++r) {
    double y = top + rowHeight * double(r);
    std::snprintf(buf, sizeof buf, "<text x=\"4\" y=\"%.1f\">", y + 16);
    out += buf + escapeXml(rowLabels[r]) + "</text>\n";
  }
  for (const TimelineEvent &e : events) {
    bool transfer =
        e.kind == TimelineKind::Send || e.kind == TimelineKind::Recv;
    double y = top + rowHeight * double(e.rank) + (transfer ? 18 : 2);
    double h = transfer ? 5 : 16;
    double x = left + e.startUs * scale;
    double w = std::max(0.5, (e.endUs - e.startUs) * scale);
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                  "fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"white\" "
                  "stroke-width=\"0.5\"><title>",
                  x, y, w, h, eventColor(e.kind),
                  e.chunk > 0 && e.chunk % 2 == 1 ? 0.6 : 1.0);
    out += buf + escapeXml(eventName(e));
    std::snprintf(buf, sizeof buf, " %.1f-%.1f us", e.startUs, e.endUs);
    out += std::string(buf) + "</title></rect>\n";
    if (!transfer && w > 18) {
      std::snprintf(buf, sizeof buf,
                    "<text x=\"%.2f\" y=\"%.1f\" fill=\"white\">", x + 2,
                    y + 12);
      out += buf + escapeXml(eventName(e)) + "</text>\n";
    }
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.0f\" y=\"%.0f\">0</text><text x=\"%.0f\" "
                "y=\"%.0f\" text-anchor=\"end\">%.3f ms</text>\n",
                left, height - 12, left + width, height - 12, end / 1000.0);
  out += std::string(buf) + "</svg>\n";
  return out;
}

static Status writeSvg(const std::string &path,
                       const std::vector<TimelineEvent> &events,
                       const Executable &exe) {
  std::vector<std::string> labels;
  for (int64_t r = 0; r < exe.mesh().numRanks(); ++r)
    labels.push_back(rankLabel(exe, r));
  std::ofstream out(path);
  if (!out)
    return errorf("cannot write '", path, "'");
  out << renderTimelineSvg(events, labels, "");
  if (!out)
    return errorf("cannot write '", path, "'");
  return Status::ok();
}

Status paracc::rt::writeTimeline(const std::string &path,
                                 const std::vector<TimelineEvent> &events,
                                 const Executable &exe) {
  PARACC_RETURN_IF_ERROR(writeChromeTrace(path, events, exe));
  return writeSvg(timelineSvgPath(path), events, exe);
}
