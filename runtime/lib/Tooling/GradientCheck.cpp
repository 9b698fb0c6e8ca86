//===- GradientCheck.cpp - Comparing gradients with a reference -*- C++ -*-===//

#include "paracc/runtime/GradientCheck.h"
#include "paracc/runtime/NpzIO.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>

using namespace paracc::rt;

static size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string>
paracc::rt::closestNames(const std::string &name,
                         const std::vector<std::string> &candidates,
                         size_t count) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string &c : candidates)
    scored.push_back({editDistance(name, c), c});
  std::stable_sort(scored.begin(), scored.end(),
                   [](auto &l, auto &r) { return l.first < r.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < count; ++i)
    out.push_back(scored[i].second);
  return out;
}

int paracc::rt::checkGradients(std::shared_ptr<const Executable> exe,
                               const std::vector<Tensor> &inputs,
                               const std::optional<Tensor> &expectedLoss,
                               const std::string &referencePath,
                               const RunRequest &request, std::ostream &out,
                               std::ostream &err) {
  auto reference = readNpzFile(referencePath);
  if (!reference) {
    err << "error: " << reference.status().message() << "\n";
    return kExitError;
  }
  // Outputs: the loss, then a gradient per parameter named after it.
  std::map<std::string, size_t> gradientIndex;
  std::vector<std::string> parameters;
  for (size_t i = 1; i < exe->outputs().size(); ++i) {
    gradientIndex[exe->outputs()[i].name] = i;
    parameters.push_back(exe->outputs()[i].name);
  }
  // A "loss" array (as --save-gradients writes it) is the reference loss.
  std::optional<Tensor> referenceLoss = expectedLoss;
  for (const NamedTensor &r : *reference)
    if (r.name == "loss" && !gradientIndex.count(r.name))
      referenceLoss = r.tensor;
  for (const NamedTensor &r : *reference)
    if (r.name != "loss" && !gradientIndex.count(r.name)) {
      err << "error: " << referencePath << ": '" << r.name
          << "' names no trained parameter of the model; closest:";
      for (const std::string &c : closestNames(r.name, parameters, 3))
        err << " '" << c << "'";
      err << "\n";
      return kExitError;
    }

  auto outputs = runOnCpuRanks(exe, inputs, request);
  if (!outputs) {
    err << "error: " << outputs.status().message() << "\n";
    return kExitError;
  }
  int code = kExitOk;
  auto line = [&](const std::string &what, const Tensor &actual,
                  const Tensor &want) {
    Comparison c = compareTensors(actual, want, request.rtol, request.atol);
    out << what << " " << actual.typeString() << ": ";
    if (c.shapeMismatch) {
      out << "MISMATCH: the reference is " << want.typeString() << "\n";
      code = kExitMismatch;
      return c;
    }
    out << std::setprecision(3) << std::scientific << "max abs error "
        << c.maxAbsError << ", max rel error " << c.maxRelError;
    out.unsetf(std::ios::scientific);
    if (c.mismatches) {
      out << ", " << c.mismatches << " element(s) beyond rtol " << request.rtol
          << " atol " << request.atol << ": MISMATCH\n";
      code = kExitMismatch;
    } else {
      out << ": OK\n";
    }
    return c;
  };
  if (referenceLoss)
    line("loss", (*outputs)[0], *referenceLoss);
  else
    out << "loss " << (*outputs)[0].typeString() << " (no reference)\n";
  std::string worst;
  double worstAbs = -1;
  size_t checked = 0;
  for (const NamedTensor &r : *reference) {
    if (r.name == "loss" && !gradientIndex.count(r.name))
      continue;
    ++checked;
    Comparison c = line("gradient '" + r.name + "'",
                        (*outputs)[gradientIndex[r.name]], r.tensor);
    if (!c.shapeMismatch && c.maxAbsError > worstAbs) {
      worstAbs = c.maxAbsError;
      worst = r.name;
    }
  }
  out << "checked " << checked << " of " << parameters.size()
      << " parameter gradient(s)";
  if (!worst.empty())
    out << "; worst: '" << worst << "' (max abs error " << std::scientific
        << std::setprecision(3) << worstAbs << ")";
  out.unsetf(std::ios::scientific);
  out << (code == kExitOk ? ": OK\n" : ": MISMATCH\n");
  return code;
}

int paracc::rt::saveGradients(std::shared_ptr<const Executable> exe,
                              const std::vector<Tensor> &inputs,
                              const std::string &path,
                              const RunRequest &request, std::ostream &out,
                              std::ostream &err) {
  auto outputs = runOnCpuRanks(exe, inputs, request);
  if (!outputs) {
    err << "error: " << outputs.status().message() << "\n";
    return kExitError;
  }
  std::vector<NamedTensor> arrays{{"loss", (*outputs)[0]}};
  for (size_t i = 1; i < outputs->size(); ++i)
    arrays.push_back({exe->outputs()[i].name, (*outputs)[i]});
  Status st = writeNpzFile(path, arrays);
  if (!st) {
    err << "error: " << st.message() << "\n";
    return kExitError;
  }
  out << "saved the loss and " << outputs->size() - 1 << " gradient(s) to "
      << path << "\n";
  return kExitOk;
}
