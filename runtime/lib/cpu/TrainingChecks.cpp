//===- TrainingChecks.cpp - Operand checks of the training ops -----------===//

#include "cpu/TrainingChecks.h"

#include <cmath>

namespace paracc::rt {

Status checkNormGrad(const KernelArgs &args, OperandTypeCheck checkType,
                     int64_t &normalized) {
  const bool isLayerNorm = args.op == OpCode::LayerNormGrad;
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 3, isLayerNorm ? 3 : 2));
  PARACC_RETURN_IF_ERROR(args.checkAttrCounts(1, 1));
  const Tensor &dy = *args.in[0], &x = *args.in[1], &scale = *args.in[2];
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, x.dtype(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(scale, x.dtype(), "scale"));
  PARACC_RETURN_IF_ERROR(args.checkShape(dy, x.shape(), "dy"));
  if (x.rank() < 1)
    return args.fail("x must have rank >= 1, got ", x.typeString());
  PARACC_RETURN_IF_ERROR(args.checkIntAttr(0, 0, x.rank() - 1, "axis"));
  const double eps = args.attrs.floats[0];
  if (!(eps >= 0.0) || std::isinf(eps))
    return args.fail("epsilon must be finite and non-negative, got ", eps);
  const Shape normShape(x.shape().begin() + args.attrs.ints[0],
                        x.shape().end());
  normalized = shapeNumElements(normShape);
  if (scale.numElements() != normalized)
    return args.fail("scale ", scale.typeString(), " must have the ",
                     normalized, " elements of the normalized shape ",
                     shapeToString(normShape));
  static const char *const kNames[] = {"dx", "dscale", "dbias"};
  for (size_t o = 0; o < args.out.size(); ++o) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[o], x.dtype(), kNames[o]));
    PARACC_RETURN_IF_ERROR(args.checkShape(
        *args.out[o], o == 0 ? x.shape() : scale.shape(), kNames[o]));
  }
  return Status::ok();
}

Status checkOptimizerOperands(const KernelArgs &args, size_t nTensors,
                              const char *const *names) {
  const Tensor &param = *args.in[0];
  for (size_t i = 0; i < args.in.size(); ++i) {
    const Tensor &t = *args.in[i];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(t, DType::F32, names[i]));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(t, i < nTensors ? param.shape() : Shape{}, names[i]));
  }
  for (size_t o = 0; o < args.out.size(); ++o) {
    const char *name = names[args.in.size() + o];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[o], DType::F32, name));
    PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[o], param.shape(), name));
  }
  return Status::ok();
}

Status checkFloatAttr(const KernelArgs &args, size_t i, double lo, double hi,
                      const char *what) {
  const double v = args.attrs.floats[i];
  if (std::isinf(lo)) {
    if (!std::isfinite(v))
      return args.fail(what, " must be finite, got ", v);
  } else if (std::isinf(hi)) {
    if (!(v >= lo) || std::isinf(v))
      return args.fail(what, " must be finite and >= ", lo, ", got ", v);
  } else if (!(v >= lo && v < hi)) {
    return args.fail(what, " must be in [", lo, ", ", hi, "), got ", v);
  }
  return Status::ok();
}

} // namespace paracc::rt
