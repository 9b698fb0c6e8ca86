//===- Timeline.h - What every rank did, and when --------------*- C++ -*-===//
//
// A run's timeline: per rank, each pipeline action (a micro-batch's forward
// or backward on a stage), the once-per-step work, and each transfer, with
// start and end times on one clock. It is written as a Chrome trace (JSON
// that chrome://tracing and Perfetto open) and as an SVG Gantt chart, and it
// gives the measured pipeline bubble.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_TIMELINE_H
#define PARACC_RUNTIME_TIMELINE_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Status.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace paracc::rt {

enum class TimelineKind : uint8_t { Forward, Backward, Weight, Step, Send, Recv };

struct TimelineEvent {
  int64_t rank = 0;
  TimelineKind kind = TimelineKind::Step;
  int32_t microbatch = -1;
  /// Microseconds since the timeline's start.
  double startUs = 0, endUs = 0;
  /// Transfers: the bytes and the peer's offset along the pipeline axis.
  uint64_t bytes = 0;
  int64_t peer = 0;
  /// The rank's model chunk (interleaved schedule), -1 when it has one.
  int32_t chunk = -1;
};

/// One rank's events of one run: instructions of the same action merge
/// into one event; transfers are events of their own.
class TimelineRecorder {
public:
  TimelineRecorder(int64_t rank, std::chrono::steady_clock::time_point start)
      : rank_(rank), start_(start) {}
  /// Records instruction `instr` of `f`, which ran from `begin` to `end`.
  void record(const FunctionInfo &f, const InstrInfo &instr,
              std::chrono::steady_clock::time_point begin,
              std::chrono::steady_clock::time_point end, uint64_t bytes);
  const std::vector<TimelineEvent> &events() const { return events_; }

private:
  int64_t rank_;
  std::chrono::steady_clock::time_point start_;
  std::vector<TimelineEvent> events_;
};

/// The pipeline bubble of a run: the fraction of ranks x makespan in which
/// no rank computed (transfers and waiting count as idle).
struct BubbleMeasurement {
  double bubble = 0;
  double makespanUs = 0;
  /// Per rank, the microseconds spent in forward, backward and step work.
  std::vector<double> busyUs;
};
BubbleMeasurement measureBubble(const std::vector<TimelineEvent> &events,
                                int64_t ranks);

/// Writes the Chrome-trace JSON to `path` and the Gantt chart next to it
/// (`path` with .svg for .json, or + ".svg"); `stageOf(rank)` labels rows.
Status writeTimeline(const std::string &path,
                     const std::vector<TimelineEvent> &events,
                     const Executable &exe);

/// `text` with <, >, & and " written as XML's entities.
std::string escapeXml(const std::string &text);

/// The Gantt chart of `events` as an SVG document: one row per label (an
/// event's rank is its row), `title` before the makespan and bubble.
std::string renderTimelineSvg(const std::vector<TimelineEvent> &events,
                              const std::vector<std::string> &rowLabels,
                              const std::string &title);

/// The SVG file written next to a timeline at `path`.
std::string timelineSvgPath(const std::string &path);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_TIMELINE_H
