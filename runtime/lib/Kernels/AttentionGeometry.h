//===- AttentionGeometry.h - Shapes of an attention instruction -*- C++ -*-===//
//
// The operand checks and index arithmetic that the CPU and GPU attention
// kernels share. An attention instruction has AttentionAttrs: causal,
// sequenceFirst, window, savedStats and scale. With savedStats the
// Attention instruction has a second result, each query row's log-sum-exp
// of its scaled, masked scores (f32 [lead..., (H,) Sq], -inf for a row with
// no visible key), and AttentionGrad two more operands after the mask: the
// forward's result and those statistics.
// With causal, query i sees keys j <= i + start; with a window w > 0 too,
// only the last w of those. start is Sk - Sq unless the instruction has
// queryStart: then an i64 scalar operand after the mask gives it (a rank's
// block of queries in context parallelism; kernels read it with
// readQueryStart). In the default layout q is
// [lead..., Sq, D], k [lead..., Sk, D], v [lead..., Sk, Dv] and the result
// [lead..., Sq, Dv]; sequence-first operands put a head dim after the
// sequence dim ([lead..., Sq, H, D], ...), as the linear layers produce
// them, and the attention runs over (lead..., H). Either way the optional
// mask broadcasts to the scores [lead..., (H,) Sq, Sk]. k and v may have
// fewer heads than q (a divisor of q's: grouped-query attention): kvGroup
// query heads share each key head (kvBase, kvRowStride).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_KERNELS_ATTENTIONGEOMETRY_H
#define PARACC_RUNTIME_KERNELS_ATTENTIONGEOMETRY_H

#include "Kernels/KernelUtil.h"

#include <algorithm>
#include <utility>

namespace paracc::rt {

struct AttentionGeometry {
  bool causal = false;
  bool sequenceFirst = false;
  /// With causal, a sliding window of this many keys (0: none).
  int64_t window = 0;
  /// The softmax statistics are a result (Attention) or operands
  /// (AttentionGrad, with the forward's result).
  bool savedStats = false;
  bool hasMask = false;
  /// The queryStart operand, when the instruction has one.
  const Tensor *queryStartOperand = nullptr;
  /// The key position of query row 0 (causal and window).
  int64_t queryStart = 0;
  /// The start operand is known to lie in [0, sk - sq] (AttentionAttrs).
  bool startWithinKeys = false;
  double scale = 0;
  /// Independent attentions: the product of the leading dims (and H).
  int64_t batch = 0;
  /// H for sequence-first operands, else 1.
  int64_t heads = 1;
  /// Grouped-query attention: k and v have 1 / kvGroup of q's heads (the
  /// head dim is the last leading dim, or the dim after the sequence dim
  /// when sequence-first), and attention b reads k and v at index b /
  /// kvGroup of their own batch. 1 when the heads are equal.
  int64_t kvGroup = 1;
  int64_t sq = 0, sk = 0, d = 0, dv = 0;
  /// [lead..., (H,) Sq, Sk]: what the mask broadcasts to.
  Shape scoreShape;

  /// Element offset of attention b's first row in a tensor of `rows` rows
  /// of `cols` per attention.
  int64_t base(int64_t b, int64_t rows, int64_t cols) const {
    return (b / heads) * rows * heads * cols + (b % heads) * cols;
  }
  /// The statistics' shape: the scores' without the key dim.
  Shape statsShape() const {
    return Shape(scoreShape.begin(), scoreShape.end() - 1);
  }
  /// Elements between consecutive rows of one attention.
  int64_t rowStride(int64_t cols) const { return heads * cols; }
  /// k's and v's heads in a sequence-first row (1 otherwise: the default
  /// layout's heads are among the leading dims).
  int64_t kvHeads() const { return sequenceFirst ? heads / kvGroup : 1; }
  /// Element offset, in k or v ([kv attention, rows, cols]), of the first
  /// row that query attention b reads.
  int64_t kvBase(int64_t b, int64_t rows, int64_t cols) const {
    const int64_t kb = b / kvGroup, h = kvHeads();
    return (kb / h) * rows * h * cols + (kb % h) * cols;
  }
  /// Elements between consecutive rows of k or v.
  int64_t kvRowStride(int64_t cols) const { return kvHeads() * cols; }
  /// The keys query row i sees before the mask: [first, last) (first ==
  /// last when none). Both bounds never decrease with i.
  std::pair<int64_t, int64_t> visibleKeys(int64_t i) const {
    if (!causal)
      return {0, sk};
    // One past the row's own position, which may lie outside the keys.
    const int64_t end = i + queryStart + 1;
    const int64_t last = std::clamp<int64_t>(end, 0, sk);
    const int64_t first =
        window > 0 ? std::clamp<int64_t>(end - window, 0, last) : 0;
    return {first, last};
  }
};

/// How the additive mask is read without expanding it: element (i, j) of
/// attention b's scores is mask[offset(b) + i * row + j * col] (strides 0
/// along the dims the mask broadcasts).
struct AttentionMaskStrides {
  int64_t row = 0, col = 0;
  /// The scores' leading dims (lead..., H) and the mask's strides along them.
  Shape leadShape;
  std::vector<int64_t> leadStrides;
  int64_t offset(int64_t b) const;
};

/// The strides of a mask of `maskShape` broadcast to `scoreShape` (checked
/// by checkAttention to broadcast).
AttentionMaskStrides attentionMaskStrides(const Shape &maskShape,
                                          const Shape &scoreShape);

/// Checks arity, attributes, element types (floating, one type) and shapes
/// of an attention instruction and fills `g`.
Status checkAttention(const KernelArgs &args, AttentionGeometry &g);

/// The rows of an AttentionMerge instruction: `rows` rows of `dv` values
/// (out's elements in order), row r's statistic at statsIndex(r).
struct AttentionMergeGeometry {
  int64_t rows = 0, dv = 0;
  /// Sequence-first: H and Sq (the statistics put H before Sq).
  int64_t heads = 1, sq = 1;
  bool sequenceFirst = false;
  int64_t statsIndex(int64_t r) const {
    if (!sequenceFirst)
      return r;
    const int64_t h = r % heads, i = (r / heads) % sq, l = r / (heads * sq);
    return (l * heads + h) * sq + i;
  }
};

/// Checks an AttentionMerge instruction (in(out, stats, partial,
/// partialStats) out(y, yStats)) and fills `g`.
Status checkAttentionMerge(const KernelArgs &args, AttentionMergeGeometry &g);

/// Reads the queryStart operand (host memory) into `g.queryStart`.
Status readQueryStart(const KernelArgs &args, AttentionGeometry &g);

/// Checks an AttentionGrad instruction's operands: dy, the forward's
/// operands (as checkAttention does) and, when saved, the forward's result
/// and statistics; fills `g`. The results are the caller's to check.
Status checkAttentionGradOperands(const KernelArgs &args, AttentionGeometry &g);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_KERNELS_ATTENTIONGEOMETRY_H
