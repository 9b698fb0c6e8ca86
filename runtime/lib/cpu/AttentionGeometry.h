//===- AttentionGeometry.h - Shapes of an attention instruction -*- C++ -*-===//
//
// The operand checks and index arithmetic that the CPU and GPU attention
// kernels share. An attention instruction has ints [causal] or [causal,
// sequence_first] and floats [scale]. In the default layout q is
// [lead..., Sq, D], k [lead..., Sk, D], v [lead..., Sk, Dv] and the result
// [lead..., Sq, Dv]; sequence-first operands put a head dim after the
// sequence dim ([lead..., Sq, H, D], ...), as the linear layers produce
// them, and the attention runs over (lead..., H). Either way the optional
// mask broadcasts to the scores [lead..., (H,) Sq, Sk].
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CPU_ATTENTIONGEOMETRY_H
#define PARACC_RUNTIME_CPU_ATTENTIONGEOMETRY_H

#include "cpu/KernelUtil.h"

namespace paracc::rt {

struct AttentionGeometry {
  bool causal = false;
  bool sequenceFirst = false;
  double scale = 0;
  /// Independent attentions: the product of the leading dims (and H).
  int64_t batch = 0;
  /// H for sequence-first operands, else 1.
  int64_t heads = 1;
  int64_t sq = 0, sk = 0, d = 0, dv = 0;
  /// [lead..., (H,) Sq, Sk]: what the mask broadcasts to.
  Shape scoreShape;

  /// Element offset of attention b's first row in a tensor of `rows` rows
  /// of `cols` per attention.
  int64_t base(int64_t b, int64_t rows, int64_t cols) const {
    return (b / heads) * rows * heads * cols + (b % heads) * cols;
  }
  /// Elements between consecutive rows of one attention.
  int64_t rowStride(int64_t cols) const { return heads * cols; }
};

/// Checks arity, attributes, element types (floating, one type) and shapes
/// of an attention instruction and fills `g`.
Status checkAttention(const KernelArgs &args, AttentionGeometry &g);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CPU_ATTENTIONGEOMETRY_H
