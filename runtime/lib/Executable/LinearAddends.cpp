//===- LinearAddends.cpp - A linear instruction as one rank runs it -------===//

#include "paracc/runtime/LinearAddends.h"

#include "paracc/runtime/Mesh.h"

namespace paracc::rt {

Status localLinear(const LinearAttrs &stored, size_t storedInputs,
                   const Mesh &mesh, int64_t rank, LinearAttrs &local,
                   size_t &numInputs) {
  local = stored;
  numInputs = storedInputs;
  const std::vector<int64_t> &group = stored.addendGroup;
  if (group.empty())
    return Status::ok();
  const int64_t n = group.front();
  if (n < 0 || int64_t(group.size()) != 1 + n)
    return errorf("linear: malformed addend group");
  std::vector<int> axes;
  for (auto it = group.begin() + 1; it != group.end(); ++it) {
    if (*it < 0 || *it >= int64_t(mesh.axisSizes.size()))
      return errorf("linear: mesh axis ", *it, " out of range");
    axes.push_back(int(*it));
  }
  local.addendGroup.clear();
  if (mesh.groupIndex(rank, axes) != 0) {
    local.operandFlags = 0;
    numInputs = 2;
  }
  return Status::ok();
}

Status decodeLinear(const LinearAttrs &attrs, size_t numInputs,
                    LinearForm &form) {
  const char *name = opCodeMnemonic(OpCode::Linear);
  if (!attrs.addendGroup.empty())
    return errorf(name, ": an addend group (", attrs.addendGroup.size(),
                  " integer attributes) is resolved by the runner");
  const int64_t flags =
      attrs.operandFlags >= 0 ? attrs.operandFlags : (numInputs == 3 ? 1 : 0);
  form.activation = attrs.activation;
  form.bias = flags & 1;
  form.residual = flags & 2;
  if (numInputs != 2 + size_t(form.bias) + size_t(form.residual))
    return errorf(name, ": operand flags ", flags, " need ",
                  2 + int(form.bias) + int(form.residual), " operands, got ",
                  numInputs);
  if (form.residual && form.activation != 0)
    return errorf(name, ": a residual goes with no activation");
  return Status::ok();
}

} // namespace paracc::rt
