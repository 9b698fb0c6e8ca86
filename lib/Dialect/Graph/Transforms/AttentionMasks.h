//===- AttentionMasks.h - What an attention's mask condition is -*- C++ -*-===//
//
// Private to the graph transforms (AttentionFusion.cpp). Exporters build an
// attention's mask as a boolean "key j is visible to query i" condition:
// folded into a constant for short sequences, computed at run time from
// Range-derived indices (LessOrEqual, And, Equal) for long ones, banded for a
// sliding window, and combined with a padding mask read from an
// `attention_mask` input. MaskAnalysis says what such a condition is in
// graph.attention's terms: a causal band (with its window), a padding mask
// per key, or a constant it cannot name more simply.
//
// Factors that depend only on constants are evaluated with the runtime's CPU
// kernels (the same definition of every op as execution) and the band is
// then checked element by element, so a condition is only called causal if
// it is. A factor that reads a function argument is a padding mask when the
// graph only moves the argument's elements around (reshape, expand,
// transpose, slice, gathers at constant indices) and casts them to bool:
// the element each position reads is found by running those ops on the
// argument's element indices, and must be (batch b, key j) for every query
// and head.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONMASKS_H
#define PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONMASKS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "paracc/Support/RuntimeAlias.h"
#include "paracc/runtime/Tensor.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>

namespace mlir::paracc::graph {

/// A boolean mask condition broadcasting to attention scores
/// [lead..., Sq, Sk], in graph.attention's terms: the conjunction of a
/// constant part and an optional padding mask.
struct MaskCondition {
  /// Whether there is a constant part that hides some key.
  bool hasConstant = false;
  /// The constant part is a causal band: query i sees keys
  /// j <= i + Sk - Sq and, with window > 0, also j > i + Sk - Sq - window.
  bool isBand = false;
  bool causal = false;
  int64_t window = 0;
  /// The constant part (i1, broadcasting to the scores) when it is small
  /// enough to be an operand (null otherwise, or when there is none).
  DenseElementsAttr constant;
  /// Whether some query row sees no key of the constant part.
  bool constantHasEmptyRows = false;
  /// A padding mask: key j of batch b is visible where
  /// `paddingSource[b, j] != 0`; the source is a function argument of
  /// B x Sk elements (scores [B, H, Sq, Sk]). Null when there is none.
  Value paddingSource;

  /// Whether a query row can see no key at all.
  bool mayHaveEmptyRows() const {
    return constantHasEmptyRows || paddingSource;
  }
};

/// Analyses boolean mask conditions; results are kept per value, so the
/// layers that share one mask have it analysed once. Valid while the values
/// it has seen are alive (one walk over a function).
class MaskAnalysis {
public:
  /// What `condition` (i1, true where the key is visible) is for scores of
  /// `scoreShape`, or nullopt when it is not a conjunction of constants and
  /// at most one padding mask.
  std::optional<MaskCondition> analyze(Value condition,
                                       ArrayRef<int64_t> scoreShape);

  /// What a constant condition (i1 values, broadcasting to the scores) is.
  MaskCondition classify(const rt::Tensor &condition,
                         ArrayRef<int64_t> scoreShape, MLIRContext *context);

  /// The value of `v` if it depends on constants only and every op on the
  /// way has a CPU kernel; null otherwise. Intermediate values are not kept.
  std::shared_ptr<rt::Tensor> evaluate(Value v);

private:
  struct Analysed {
    SmallVector<int64_t> scoreShape;
    std::optional<MaskCondition> condition;
  };
  llvm::DenseMap<Value, Analysed> conditions;
  llvm::DenseMap<Value, std::shared_ptr<rt::Tensor>> evaluated;
};

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_ATTENTIONMASKS_H
