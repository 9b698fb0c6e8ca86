//===- LinearAddends.cpp - A linear instruction as one rank runs it -------===//

#include "paracc/runtime/LinearAddends.h"

#include "Kernels/KernelUtil.h"

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

Status decodeLinear(const InstrAttrs &attrs, size_t numInputs,
                    LinearForm &form) {
  const std::vector<const Tensor *> in;
  const std::vector<Tensor *> out;
  const KernelArgs args{OpCode::Linear, attrs, in, out};
  const auto &ints = attrs.ints;
  if (ints.size() != 1 && ints.size() != 2)
    return args.fail("expected 1 or 2 integer attributes, got ", ints.size(),
                     " (an addend group is resolved by the runner)");
  if (!attrs.floats.empty())
    return args.fail("expected no floating attributes");
  PARACC_RETURN_IF_ERROR(args.checkIntAttr(0, 0, 3, "activation"));
  if (ints.size() == 2)
    PARACC_RETURN_IF_ERROR(args.checkIntAttr(1, 0, 3, "operand flags"));
  const int64_t flags = ints.size() == 2 ? ints[1] : (numInputs == 3 ? 1 : 0);
  form.activation = ints[0];
  form.bias = flags & 1;
  form.residual = flags & 2;
  if (numInputs != 2 + size_t(form.bias) + size_t(form.residual))
    return args.fail("operand flags ", flags, " need ",
                     2 + int(form.bias) + int(form.residual),
                     " operands, got ", numInputs);
  if (form.residual && form.activation != 0)
    return args.fail("a residual goes with no activation");
  return Status::ok();
}

} // namespace paracc::rt
