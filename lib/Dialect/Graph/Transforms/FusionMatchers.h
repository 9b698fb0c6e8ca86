//===- FusionMatchers.h - Constants the fusion patterns check --*- C++ -*-===//
//
// Private to the graph transforms: the splat constants and operand lookups
// that the exporter-pattern fusions (GraphFusion.cpp, AttentionFusion.cpp)
// match on.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_FUSIONMATCHERS_H
#define PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_FUSIONMATCHERS_H

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include <cmath>
#include <optional>

namespace mlir::paracc::graph {

/// The value of a splat floating-point constant.
inline std::optional<APFloat> splatFloat(Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = dyn_cast<DenseFPElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>();
}

inline std::optional<double> splatValue(Value v) {
  if (std::optional<APFloat> value = splatFloat(v))
    return value->convertToDouble();
  return std::nullopt;
}

/// Whether `v` is a splat of `expected`: within `tolerance` (relative, and
/// absolute below 1), or exactly `expected` rounded to the constant's type,
/// which is all an f16 or bf16 constant can hold.
inline bool isSplat(Value v, double expected, double tolerance = 1e-6) {
  std::optional<APFloat> value = splatFloat(v);
  if (!value)
    return false;
  APFloat rounded(expected);
  bool losesInfo;
  (void)rounded.convert(value->getSemantics(), APFloat::rmNearestTiesToEven,
                        &losesInfo);
  if (value->compare(rounded) == APFloat::cmpEqual)
    return true;
  return std::abs(value->convertToDouble() - expected) <=
         tolerance * std::max(1.0, std::abs(expected));
}

/// For a commutative binary op, the operand that is not `known` (or null).
inline Value otherOperand(Operation *op, Value known) {
  if (op->getOperand(0) == known)
    return op->getOperand(1);
  if (op->getOperand(1) == known)
    return op->getOperand(0);
  return nullptr;
}

} // namespace mlir::paracc::graph

#endif // PARACC_LIB_DIALECT_GRAPH_TRANSFORMS_FUSIONMATCHERS_H
