//===- Profile.h - Per-instruction times next to the cost model -*- C++ -*-===//
//
// `--profile N` runs N steps with every instruction timed on its own and
// groups the times by what decides an instruction's cost (its mnemonic and
// operand shapes). Each group's measured time is printed next to the time
// the compiler's cost model predicted for it (recorded in the executable,
// Instr.predicted_seconds), so a profile is also the cost model's
// calibration check. Both backends use it: the GPU times with CUDA events,
// the CPU with a steady clock.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_PROFILE_H
#define PARACC_RUNTIME_PROFILE_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Status.h"

#include <cstdint>
#include <map>
#include <string>

namespace paracc::rt {

/// What a profile groups an instruction of `f` under: its mnemonic, and for
/// products and collectives the shapes that decide their cost.
std::string profileLabel(const FunctionInfo &f, const InstrInfo &instr);

/// The instructions that share a label, summed over the profiled steps.
struct ProfileRow {
  std::string label;
  double measuredMs = 0, predictedMs = 0;
  int64_t count = 0;
  /// The cost model's counts (0 when it did not model them).
  int64_t flops = 0, bytes = 0;
};

/// Measured and predicted times of one rank's profiled steps.
class Profile {
public:
  Profile() = default;
  Profile(int64_t rank, int steps, std::string device, std::string costRates)
      : rank_(rank), steps_(steps), device_(std::move(device)),
        costRates_(std::move(costRates)) {}

  /// Adds one execution of `instr` of `f`, which took `ms`.
  void add(const FunctionInfo &f, const InstrInfo &instr, double ms);

  /// The rows, slowest first; times and counts are per step.
  std::vector<ProfileRow> rowsPerStep() const;

  /// The table `paracc-run --profile` prints.
  std::string format(size_t maxRows = 40) const;
  /// The same as JSON: rank, steps, device, cost_rates, measured_ms and
  /// predicted_ms per step, and `rows` (label, count, measured_ms,
  /// predicted_ms, flops, bytes per step).
  std::string json() const;

private:
  int64_t rank_ = 0;
  int steps_ = 0;
  std::string device_, costRates_;
  std::map<std::string, ProfileRow> rows_;
};

/// Writes `profile.json()` to `path`.
Status writeProfileJson(const std::string &path, const Profile &profile);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_PROFILE_H
