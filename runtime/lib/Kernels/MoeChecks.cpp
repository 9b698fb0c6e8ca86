//===- MoeChecks.cpp - Operand checks of the experts ops --------*- C++ -*-===//

#include "Kernels/MoeChecks.h"

namespace paracc::rt {

Status checkMoe(const KernelArgs &args, OperandTypeCheck checkType,
                MoeProblem &p) {
  const bool grad = args.op == OpCode::MoeExpertsGrad;
  PARACC_RETURN_IF_ERROR(
      args.checkArity(grad ? 6 : 5, grad ? 6 : 5, grad ? 4 : 1));
  const MoeExpertsAttrs &attrs = args.attrsAs<MoeExpertsAttrs>();
  p = MoeProblem();
  p.activation = attrs.activation;
  p.gated = attrs.gated;
  const size_t o = grad ? 1 : 0;
  p.dy = grad ? args.in[0] : nullptr;
  p.x = args.in[o];
  p.indices = args.in[o + 1];
  p.weights = args.in[o + 2];
  p.wIn = args.in[o + 3];
  p.wOut = args.in[o + 4];
  const Tensor &x = *p.x;
  PARACC_RETURN_IF_ERROR(checkType(args, x, TypeSet::Float, "x"));
  if (x.rank() != 2 || p.indices->rank() != 2 || p.wIn->rank() != 3 ||
      p.wOut->rank() != 3)
    return args.fail("needs x [T, H], indices and weights [T, k], w_in "
                     "[E, F, H] and w_out [E, H, I], got ",
                     x.typeString(), ", ", p.indices->typeString(), ", ",
                     p.wIn->typeString(), ", ", p.wOut->typeString());
  p.tokens = x.dim(0);
  p.hidden = x.dim(1);
  p.k = p.indices->dim(1);
  p.experts = p.wIn->dim(0);
  p.inner = p.wOut->dim(2);
  p.f = p.gated ? 2 * p.inner : p.inner;
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*p.indices, DType::I64, "indices"));
  PARACC_RETURN_IF_ERROR(
      args.checkShape(*p.indices, {p.tokens, p.k}, "indices"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*p.weights, x.dtype(), "weights"));
  PARACC_RETURN_IF_ERROR(
      args.checkShape(*p.weights, {p.tokens, p.k}, "weights"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*p.wIn, x.dtype(), "w_in"));
  PARACC_RETURN_IF_ERROR(
      args.checkShape(*p.wIn, {p.experts, p.f, p.hidden}, "w_in"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*p.wOut, x.dtype(), "w_out"));
  PARACC_RETURN_IF_ERROR(
      args.checkShape(*p.wOut, {p.experts, p.hidden, p.inner}, "w_out"));
  if (p.k < 1 || p.k > p.experts)
    return args.fail("picks k = ", p.k, " experts of ", p.experts,
                     " (need 1 <= k <= E)");
  if (!grad) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[0], x.dtype(), "result"));
    return args.checkShape(*args.out[0], x.shape(), "result");
  }
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*p.dy, x.dtype(), "dy"));
  PARACC_RETURN_IF_ERROR(args.checkShape(*p.dy, x.shape(), "dy"));
  const Tensor *like[] = {p.x, p.weights, p.wIn, p.wOut};
  const char *names[] = {"dx", "dweights", "dw_in", "dw_out"};
  for (int i = 0; i < 4; ++i) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[i], like[i]->dtype(), names[i]));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[i], like[i]->shape(), names[i]));
  }
  return Status::ok();
}

Status checkMoeIndices(const KernelArgs &args, const MoeProblem &p,
                       const int64_t *indices) {
  for (int64_t i = 0; i < p.tokens * p.k; ++i)
    if (indices[i] < 0 || indices[i] >= p.experts)
      return args.fail("token ", i / p.k, " picks expert ", indices[i],
                       ", outside [0, ", p.experts, ")");
  return Status::ok();
}

Status checkExpertLoad(const KernelArgs &args, int64_t &slots,
                       int64_t &experts) {
  PARACC_RETURN_IF_ERROR(args.checkArity(1, 1, 1));
  const Tensor &indices = *args.in[0], &counts = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(indices, DType::I64, "indices"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(counts, DType::F32, "counts"));
  if (indices.rank() != 2 || counts.rank() != 1 || counts.dim(0) < 1)
    return args.fail("needs indices [T, k] and counts [E], E >= 1, got ",
                     indices.typeString(), " and ", counts.typeString());
  slots = indices.dim(0) * indices.dim(1);
  experts = counts.dim(0);
  return Status::ok();
}

} // namespace paracc::rt
