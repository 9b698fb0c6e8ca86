//===- LinearAddends.cpp - A linear instruction as one rank runs it -------===//

#include "paracc/runtime/LinearAddends.h"

namespace paracc::rt {

Status localLinear(const InstrInfo &instr, const Mesh &mesh, int64_t rank,
                   InstrAttrs &attrs, size_t &numInputs) {
  attrs = instr.attrs;
  numInputs = instr.inputs.size();
  const auto &ints = instr.attrs.ints;
  if (ints.size() <= 2)
    return Status::ok();
  const int64_t n = ints[2];
  if (n < 0 || int64_t(ints.size()) != 3 + n)
    return errorf("linear: malformed addend group");
  std::vector<int> axes;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t axis = ints[3 + i];
    if (axis < 0 || axis >= int64_t(mesh.axisSizes.size()))
      return errorf("linear: mesh axis ", axis, " out of range");
    axes.push_back(int(axis));
  }
  attrs.ints.resize(2);
  if (mesh.groupIndex(rank, axes) != 0) {
    attrs.ints[1] = 0;
    numInputs = 2;
  }
  return Status::ok();
}

} // namespace paracc::rt
