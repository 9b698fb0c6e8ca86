//===- AttentionGeometry.cpp - Shapes of an attention instruction -*- C++ -*-=//

#include "Kernels/AttentionGeometry.h"

namespace paracc::rt {

Status checkAttention(const KernelArgs &args, AttentionGeometry &g) {
  const AttentionAttrs &attrs = args.attrsAs<AttentionAttrs>();
  const bool saved = args.op == OpCode::Attention && attrs.savedStats;
  const size_t start = attrs.queryStart ? 1 : 0;
  PARACC_RETURN_IF_ERROR(args.checkArity(3 + start, 4 + start, saved ? 2 : 1));
  if (attrs.window > 0 && !attrs.causal)
    return args.fail("a sliding window (", attrs.window,
                     ") needs causal masking");
  if (attrs.keyBlock && args.op == OpCode::Attention)
    return args.fail("keyBlock is an attention_grad flag");
  if (attrs.startWithinKeys && !attrs.queryStart)
    return args.fail("startWithinKeys needs the start operand");
  const Tensor &q = *args.in[0], &k = *args.in[1], &v = *args.in[2];
  const Tensor *mask = args.in.size() > 3 + start ? args.in[3] : nullptr;
  const Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(q, TypeSet::Float, "q"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(k, q.dtype(), "k"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(v, q.dtype(), "v"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, q.dtype(), "result"));
  g = AttentionGeometry();
  g.causal = attrs.causal;
  g.sequenceFirst = attrs.sequenceFirst;
  g.window = attrs.window;
  g.savedStats = saved;
  g.hasMask = mask != nullptr;
  g.scale = attrs.scale;
  const int64_t r = q.rank();
  // The rows are dim s, the features the last dim; h the head dim, if any.
  const int64_t s = g.sequenceFirst ? r - 3 : r - 2;
  if (r < (g.sequenceFirst ? 3 : 2) || k.rank() != r || v.rank() != r)
    return args.fail("q, k and v must have one rank >= ",
                     g.sequenceFirst ? "3 (sequence-first)" : "2");
  // The head dim: after the sequence dim, or the last leading dim (-1 for
  // rank 2). k and v may have a divisor of q's heads there.
  const int64_t h = g.sequenceFirst ? r - 2 : r - 3;
  if (h >= 0 && k.dim(h) != q.dim(h) && k.dim(h) == v.dim(h) && k.dim(h) > 0 &&
      q.dim(h) % k.dim(h) == 0)
    g.kvGroup = q.dim(h) / k.dim(h);
  for (int64_t i = 0; i < r - 1; ++i)
    if (i != s && !(i == h && g.kvGroup > 1) &&
        (k.dim(i) != q.dim(i) || v.dim(i) != q.dim(i)))
      return args.fail("leading dims differ: ", q.typeString(), ", ",
                       k.typeString(), ", ", v.typeString(),
                       " (k and v may have a divisor of q's heads)");
  g.sq = q.dim(s);
  g.d = q.dim(r - 1);
  g.sk = k.dim(s);
  g.dv = v.dim(r - 1);
  if (k.dim(r - 1) != g.d || v.dim(s) != g.sk)
    return args.fail("q/k head dims or k/v key counts differ");
  g.queryStart = g.sk - g.sq;
  if (start) {
    g.queryStartOperand = args.in.back();
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*g.queryStartOperand, DType::I64, "start"));
    PARACC_RETURN_IF_ERROR(args.checkShape(*g.queryStartOperand, {}, "start"));
    g.startWithinKeys = attrs.startWithinKeys;
  }
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
  if (saved) {
    PARACC_RETURN_IF_ERROR(
        args.checkDTypeIs(*args.out[1], DType::F32, "stats"));
    PARACC_RETURN_IF_ERROR(
        args.checkShape(*args.out[1], g.statsShape(), "stats"));
  }
  return Status::ok();
}

Status readQueryStart(const KernelArgs &args, AttentionGeometry &g) {
  if (!g.queryStartOperand)
    return Status::ok();
  // Any start: rows placed before the first key see none, rows past the
  // last see them all (ring attention's blocks of keys).
  g.queryStart = g.queryStartOperand->as<int64_t>()[0];
  if (g.startWithinKeys && (g.queryStart < 0 || g.queryStart > g.sk - g.sq))
    return args.fail("start ", g.queryStart, " is outside [0, Sk - Sq] = [0, ",
                     g.sk - g.sq, "], which startWithinKeys promised");
  return Status::ok();
}

Status checkAttentionGradOperands(const KernelArgs &args,
                                  AttentionGeometry &g) {
  const AttentionAttrs &attrs = args.attrsAs<AttentionAttrs>();
  const bool saved = attrs.savedStats;
  if (attrs.keyBlock && !saved)
    return args.fail("keyBlock needs the saved result and statistics");
  const size_t extra = saved ? 2 : 0;
  const size_t least = 4 + (attrs.queryStart ? 1 : 0) + extra;
  if (args.in.size() < least || args.in.size() > least + 1)
    return args.fail("expected ", least, " to ", least + 1, " operands, got ",
                     args.in.size());
  const Tensor &dy = *args.in[0], &q = *args.in[1], &v = *args.in[3];
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(dy, q.dtype(), "dy"));
  if (q.rank() >= 1 && v.rank() >= 1) {
    Shape dyShape = q.shape();
    dyShape.back() = v.shape().back();
    PARACC_RETURN_IF_ERROR(args.checkShape(dy, dyShape, "dy"));
  }
  // The forward's operands, checked by checkAttention with dy as its result
  // (dy has been checked to match, so none of its messages about "result"
  // can fire).
  const std::vector<const Tensor *> fwdIn(args.in.begin() + 1,
                                          args.in.end() - extra);
  const std::vector<Tensor *> fwdOut = {const_cast<Tensor *>(&dy)};
  const KernelArgs fwd{args.op, args.attrs, fwdIn, fwdOut};
  PARACC_RETURN_IF_ERROR(checkAttention(fwd, g));
  g.savedStats = saved;
  if (saved) {
    const Tensor &out = *args.in[args.in.size() - 2];
    const Tensor &stats = *args.in[args.in.size() - 1];
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(out, dy.dtype(), "out"));
    PARACC_RETURN_IF_ERROR(args.checkShape(out, dy.shape(), "out"));
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(stats, DType::F32, "stats"));
    PARACC_RETURN_IF_ERROR(args.checkShape(stats, g.statsShape(), "stats"));
  }
  return Status::ok();
}

Status checkAttentionMerge(const KernelArgs &args, AttentionMergeGeometry &g) {
  PARACC_RETURN_IF_ERROR(args.checkArity(4, 4, 2));
  const Tensor &out = *args.in[0], &stats = *args.in[1];
  g = AttentionMergeGeometry();
  g.sequenceFirst = args.attrsAs<AttentionMergeAttrs>().sequenceFirst;
  const int64_t r = out.rank();
  if (r < (g.sequenceFirst ? 3 : 2))
    return args.fail("out must have rank >= ", g.sequenceFirst ? 3 : 2,
                     ", got ", out.typeString());
  PARACC_RETURN_IF_ERROR(args.checkDType(out, TypeSet::Float, "out"));
  Shape statsShape(out.shape().begin(), out.shape().end() - 1);
  if (g.sequenceFirst) {
    g.heads = out.dim(r - 2);
    g.sq = out.dim(r - 3);
    std::swap(statsShape[r - 3], statsShape[r - 2]);
  }
  g.dv = out.dim(r - 1);
  g.rows = g.dv ? out.numElements() / g.dv : 0;
  static const char *const kOut[] = {"partial", "result"};
  const Tensor *outs[] = {args.in[2], args.out[0]};
  for (int i = 0; i < 2; ++i) {
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*outs[i], out.dtype(), kOut[i]));
    PARACC_RETURN_IF_ERROR(args.checkShape(*outs[i], out.shape(), kOut[i]));
  }
  static const char *const kStats[] = {"stats", "partial stats",
                                       "result stats"};
  const Tensor *all[] = {&stats, args.in[3], args.out[1]};
  for (int i = 0; i < 3; ++i) {
    PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*all[i], DType::F32, kStats[i]));
    PARACC_RETURN_IF_ERROR(args.checkShape(*all[i], statsShape, kStats[i]));
  }
  return Status::ok();
}

} // namespace paracc::rt
