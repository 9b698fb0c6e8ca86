//===- ElementwiseChecks.cpp - Operand checks of elementwise ops ----------===//

#include "Kernels/ElementwiseChecks.h"

#include <cmath>

namespace paracc::rt {

Status checkUnary(const KernelArgs &args, OperandTypeCheck checkType,
                  TypeSet set, bool predicate) {
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, set, "operand"));
  PARACC_RETURN_IF_ERROR(
      args.checkDTypeIs(y, predicate ? DType::Bool : x.dtype(), "result"));
  return args.checkShape(y, x.shape(), "result");
}

Status checkBinary(const KernelArgs &args, OperandTypeCheck checkType,
                   TypeSet set, bool compare) {
  const Tensor &a = *args.in[0];
  const Tensor &b = *args.in[1];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, a, set, "operand 0"));
  if (b.dtype() != a.dtype())
    return args.fail("operands must have the same element type, got ",
                     a.typeString(), " and ", b.typeString());
  PARACC_RETURN_IF_ERROR(
      args.checkDTypeIs(y, compare ? DType::Bool : a.dtype(), "result"));
  Shape shape;
  if (!broadcastShapes(a.shape(), b.shape(), shape))
    return args.fail("operand shapes ", shapeToString(a.shape()), " and ",
                     shapeToString(b.shape()), " do not broadcast");
  return args.checkShape(y, shape, "result");
}

Status checkWhere(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 3, 1));
  const Tensor &c = *args.in[0];
  const Tensor &a = *args.in[1];
  const Tensor &b = *args.in[2];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(c, DType::Bool, "condition"));
  if (a.dtype() != b.dtype())
    return args.fail("value operands must have the same element type, got ",
                     a.typeString(), " and ", b.typeString());
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, a.dtype(), "result"));
  Shape ab, shape;
  if (!broadcastShapes(a.shape(), b.shape(), ab) ||
      !broadcastShapes(c.shape(), ab, shape))
    return args.fail("operand shapes ", shapeToString(c.shape()), ", ",
                     shapeToString(a.shape()), " and ",
                     shapeToString(b.shape()), " do not broadcast");
  return args.checkShape(y, shape, "result");
}

Status checkClip(const KernelArgs &args, OperandTypeCheck checkType) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &x = *args.in[0];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Numeric, "operand"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  const ClipAttrs &bounds = args.attrsAs<ClipAttrs>();
  if (std::isnan(bounds.min) || std::isnan(bounds.max))
    return args.fail("bounds must not be NaN");
  return Status::ok();
}

Status checkRotary(const KernelArgs &args, OperandTypeCheck checkType) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 3, 1));
  const Tensor &x = *args.in[0], &cos = *args.in[1], &sin = *args.in[2];
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(cos, x.dtype(), "cos"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(sin, x.dtype(), "sin"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(y, x.shape(), "result"));
  if (x.rank() < 1 || x.shape().back() % 2 != 0)
    return args.fail("x needs an even last dim, got ", x.typeString());
  for (const Tensor *t : {&cos, &sin})
    if (!broadcastsTo(t->shape(), x.shape()))
      return args.fail(t == &cos ? "cos " : "sin ", t->typeString(),
                       " does not broadcast to ", x.typeString());
  return Status::ok();
}

} // namespace paracc::rt
