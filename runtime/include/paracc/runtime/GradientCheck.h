//===- GradientCheck.h - Comparing gradients with a reference --*- C++ -*-===//
//
// `paracc train --check-gradients REF.npz`: one forward and backward of a
// gradient executable (outputs: the loss, then one gradient per parameter,
// named after it) on given inputs, compared with a reference loss and the
// reference gradients of an .npz archive keyed by parameter name.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_GRADIENTCHECK_H
#define PARACC_RUNTIME_GRADIENTCHECK_H

#include "paracc/runtime/RunDriver.h"

#include <optional>

namespace paracc::rt {

/// Runs `exe` (the loss, then gradients) on the CPU per `request` with
/// `inputs` and compares: the loss with `expectedLoss` when given, every
/// array of `referencePath` with the gradient of the parameter it names
/// (allclose with the request's rtol/atol). Prints each parameter's error
/// and the worst. Returns kExitOk, kExitMismatch (a value differs) or
/// kExitError (an unreadable archive, a key that names no parameter: the
/// message lists the closest names).
int checkGradients(std::shared_ptr<const Executable> exe,
                   const std::vector<Tensor> &inputs,
                   const std::optional<Tensor> &expectedLoss,
                   const std::string &referencePath, const RunRequest &request,
                   std::ostream &out, std::ostream &err);

/// Runs `exe` like checkGradients and writes the loss ("loss") and every
/// gradient (named after its parameter) to the .npz `path`.
int saveGradients(std::shared_ptr<const Executable> exe,
                  const std::vector<Tensor> &inputs, const std::string &path,
                  const RunRequest &request, std::ostream &out,
                  std::ostream &err);

/// The `count` names of `candidates` closest to `name` (edit distance).
std::vector<std::string>
closestNames(const std::string &name,
             const std::vector<std::string> &candidates, size_t count);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_GRADIENTCHECK_H
