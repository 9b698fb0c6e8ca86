//===- AttentionGeometry.cpp - Shapes of an attention instruction -*- C++ -*-=//

#include "Kernels/AttentionGeometry.h"

namespace paracc::rt {

Status checkAttention(const KernelArgs &args, AttentionGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 4, 1));
  const InstrAttrs &attrs = args.attrs;
  if (attrs.ints.empty() || attrs.ints.size() > 3)
    return args.fail("expected 1 to 3 integer attributes, got ",
                     attrs.ints.size());
  if (attrs.floats.size() != 1)
    return args.fail("expected 1 floating attribute, got ",
                     attrs.floats.size());
  PARACC_RETURN_IF_ERROR(args.checkIntAttr(0, 0, 1, "causal"));
  if (attrs.ints.size() >= 2)
    PARACC_RETURN_IF_ERROR(args.checkIntAttr(1, 0, 1, "sequence_first"));
  if (attrs.ints.size() == 3) {
    PARACC_RETURN_IF_ERROR(args.checkIntAttr(2, 0, int64_t(1) << 40, "window"));
    if (attrs.ints[2] > 0 && attrs.ints[0] == 0)
      return args.fail("a sliding window (", attrs.ints[2],
                       ") needs causal masking");
  }
  const Tensor &q = *args.in[0], &k = *args.in[1], &v = *args.in[2];
  const Tensor *mask = args.in.size() > 3 ? args.in[3] : nullptr;
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(q, TypeSet::Float, "q"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(k, q.dtype(), "k"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(v, q.dtype(), "v"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, q.dtype(), "result"));
  g = AttentionGeometry();
  g.causal = attrs.ints[0] != 0;
  g.sequenceFirst = attrs.ints.size() >= 2 && attrs.ints[1] != 0;
  g.window = attrs.ints.size() == 3 ? attrs.ints[2] : 0;
  g.scale = attrs.floats[0];
  const int64_t r = q.rank();
  // The rows are dim s, the features the last dim; h the head dim, if any.
  const int64_t s = g.sequenceFirst ? r - 3 : r - 2;
  if (r < (g.sequenceFirst ? 3 : 2) || k.rank() != r || v.rank() != r)
    return args.fail("q, k and v must have one rank >= ",
                     g.sequenceFirst ? "3 (sequence-first)" : "2");
  for (int64_t i = 0; i < r - 1; ++i)
    if (i != s && (k.dim(i) != q.dim(i) || v.dim(i) != q.dim(i)))
      return args.fail("leading dims differ: ", q.typeString(), ", ",
                       k.typeString(), ", ", v.typeString());
  g.sq = q.dim(s);
  g.d = q.dim(r - 1);
  g.sk = k.dim(s);
  g.dv = v.dim(r - 1);
  if (k.dim(r - 1) != g.d || v.dim(s) != g.sk)
    return args.fail("q/k head dims or k/v key counts differ");
  Shape outShape = q.shape();
  outShape.back() = g.dv;
  PARACC_RETURN_IF_ERROR(args.checkShape(y, outShape, "result"));
  g.heads = g.sequenceFirst ? q.dim(r - 2) : 1;
  g.scoreShape.assign(q.shape().begin(), q.shape().begin() + s);
  if (g.sequenceFirst)
    g.scoreShape.push_back(g.heads);
  g.scoreShape.push_back(g.sq);
  g.scoreShape.push_back(g.sk);
  g.batch = 1;
  for (size_t i = 0; i + 2 < g.scoreShape.size(); ++i)
    g.batch *= g.scoreShape[i];
  if (mask) {
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*mask, q.dtype(), "mask"));
    if (!broadcastsTo(mask->shape(), g.scoreShape))
      return args.fail("mask ", mask->typeString(), " does not broadcast to ",
                       shapeToString(g.scoreShape));
  }
  return Status::ok();
}

} // namespace paracc::rt
