//===- Profile.cpp - Per-instruction times next to the cost model --------===//

#include "paracc/runtime/Profile.h"
#include "paracc/runtime/PrintableText.h"

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/Kernels.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

using namespace paracc::rt;

std::string paracc::rt::profileLabel(const FunctionInfo &f,
                                     const InstrInfo &in) {
  std::ostringstream os;
  os << opCodeMnemonic(in.opcode);
  auto valid = [&](int32_t v) { return v >= 0 && size_t(v) < f.values.size(); };
  auto shape = [&](int32_t v) {
    if (!valid(v))
      return;
    os << " " << dtypeName(f.values[v].dtype)
       << shapeToString(f.values[v].shape);
  };
  switch (in.opcode) {
  case OpCode::Linear:
  case OpCode::MatMul:
  case OpCode::Gemm:
    if (in.inputs.size() >= 2) {
      shape(in.inputs[0]);
      shape(in.inputs[1]);
    }
    if (OpAttrs attrs; in.opcode == OpCode::Linear &&
                       decodeOpAttrs(in.opcode, in.attrs, attrs).isOk() &&
                       std::get<LinearAttrs>(attrs).activation != 0)
      os << " +activation";
    break;
  case OpCode::ForeachAdamW:
  case OpCode::ForeachSumSquare:
  case OpCode::ForeachCast: {
    // Many tensors: their count, their elements and the types that decide
    // the cost (the gradients', the cast's).
    const size_t n = in.opcode == OpCode::ForeachAdamW
                         ? foreachAdamWTensors(in.inputs.size())
                         : in.inputs.size();
    int64_t elements = 0;
    for (size_t j = 0; j < n && j < in.inputs.size(); ++j)
      if (valid(in.inputs[j]))
        elements += shapeNumElements(f.values[in.inputs[j]].shape);
    os << " " << n << " tensors, " << elements << " elements";
    if (in.opcode == OpCode::ForeachAdamW && n > 0 &&
        2 * n <= in.inputs.size() && valid(in.inputs[n]))
      os << ", grads " << dtypeName(f.values[in.inputs[n]].dtype)
         << (in.outputs.size() == 4 * n ? ", with copies" : "");
    else if (in.opcode == OpCode::ForeachCast && n > 0 &&
             !in.outputs.empty() && valid(in.inputs[0]) &&
             valid(in.outputs[0]))
      os << ", " << dtypeName(f.values[in.inputs[0]].dtype) << " to "
         << dtypeName(f.values[in.outputs[0]].dtype);
    break;
  }
  default:
    if (!in.inputs.empty())
      shape(in.inputs[0]);
    else if (!in.outputs.empty())
      shape(in.outputs[0]);
  }
  return os.str();
}

void Profile::add(const FunctionInfo &f, const InstrInfo &instr, double ms) {
  std::string label = profileLabel(f, instr);
  ProfileRow &row = rows_[label];
  row.label = std::move(label);
  row.measuredMs += ms;
  row.predictedMs += instr.predictedSeconds * 1e3;
  row.flops += instr.flops;
  row.bytes += instr.bytes;
  ++row.count;
}

std::vector<ProfileRow> Profile::rowsPerStep() const {
  std::vector<ProfileRow> rows;
  const double steps = std::max(steps_, 1);
  for (const auto &[label, r] : rows_) {
    ProfileRow row = r;
    row.measuredMs /= steps;
    row.predictedMs /= steps;
    row.count = int64_t(row.count / steps);
    row.flops = int64_t(double(row.flops) / steps);
    row.bytes = int64_t(double(row.bytes) / steps);
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    return a.measuredMs > b.measuredMs;
  });
  return rows;
}

/// The measured and predicted milliseconds of all `rows`.
static std::pair<double, double> totalsOf(const std::vector<ProfileRow> &rows) {
  double measured = 0, predicted = 0;
  for (const ProfileRow &r : rows) {
    measured += r.measuredMs;
    predicted += r.predictedMs;
  }
  return {measured, predicted};
}

std::string Profile::format(size_t maxRows) const {
  std::vector<ProfileRow> rows = rowsPerStep();
  const auto [measured, predicted] = totalsOf(rows);
  const bool modelled = !costRates_.empty();
  std::ostringstream os;
  os << std::fixed << std::setprecision(3) << "profile (rank " << rank_
     << ", " << steps_ << " step(s) on the " << device_
     << ", every instruction timed on its own): " << measured << " ms/step";
  if (modelled)
    os << "; the cost model (" << costRates_ << " rates) predicts "
       << predicted << " ms/step";
  os << "\n      ms/step       %" << (modelled ? "    predicted  measured/pred" : "")
     << "   count/step  instruction\n";
  double restMeasured = 0, restPredicted = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow &r = rows[i];
    if (i >= maxRows) {
      restMeasured += r.measuredMs;
      restPredicted += r.predictedMs;
      continue;
    }
    os << std::setw(13) << r.measuredMs << std::setw(8)
       << std::setprecision(1) << 100 * r.measuredMs / std::max(measured, 1e-9)
       << std::setprecision(3);
    if (modelled) {
      os << std::setw(13) << r.predictedMs;
      if (r.predictedMs > 0)
        os << std::setw(15) << std::setprecision(2)
           << r.measuredMs / r.predictedMs << std::setprecision(3);
      else
        os << std::setw(15) << "-";
    }
    os << std::setw(13) << r.count << "  " << r.label << "\n";
  }
  if (rows.size() > maxRows) {
    os << std::setw(13) << restMeasured << std::setw(8) << "";
    if (modelled)
      os << std::setw(13) << restPredicted << std::setw(15) << "";
    os << "  (" << rows.size() - maxRows << " more)\n";
  }
  return os.str();
}

static std::string jsonString(const std::string &s) {
  std::string out = "\"";
  // JSON is UTF-8: labels quoting a damaged executable's names are escaped.
  for (char c : printableText(s)) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Profile::json() const {
  std::vector<ProfileRow> rows = rowsPerStep();
  const auto [measured, predicted] = totalsOf(rows);
  std::ostringstream os;
  os << std::setprecision(9) << "{\"rank\": " << rank_
     << ", \"steps\": " << steps_ << ", \"device\": " << jsonString(device_)
     << ", \"cost_rates\": " << jsonString(costRates_)
     << ", \"measured_ms\": " << measured << ", \"predicted_ms\": " << predicted
     << ",\n \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow &r = rows[i];
    os << (i ? ",\n  " : "\n  ") << "{\"label\": " << jsonString(r.label)
       << ", \"count\": " << r.count << ", \"measured_ms\": " << r.measuredMs
       << ", \"predicted_ms\": " << r.predictedMs << ", \"flops\": " << r.flops
       << ", \"bytes\": " << r.bytes << "}";
  }
  os << "]}\n";
  return os.str();
}

Status paracc::rt::writeProfileJson(const std::string &path,
                                    const Profile &profile) {
  const std::string text = profile.json();
  return writeFileAtomically(path, text.data(), text.size());
}
