//===- RuleUtils.h - Helpers for writing ONNX op rules ---------*- C++ -*-===//

#ifndef PARACC_LIB_IMPORTER_ONNX_RULEUTILS_H
#define PARACC_LIB_IMPORTER_ONNX_RULEUTILS_H

#include "ImporterContext.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#define PARACC_CONCAT_IMPL(a, b) a##b
#define PARACC_CONCAT(a, b) PARACC_CONCAT_IMPL(a, b)
#define PARACC_ASSIGN_OR_FAIL_IMPL(tmp, decl, expr)                            \
  auto tmp = (expr);                                                           \
  if (::mlir::failed(tmp))                                                     \
    return ::mlir::failure();                                                  \
  decl = std::move(*tmp)
/// `ASSIGN_OR_FAIL(Value x, c.input(0));` declares x from a FailureOr or
/// returns failure from the enclosing function.
#define ASSIGN_OR_FAIL(decl, expr)                                             \
  PARACC_ASSIGN_OR_FAIL_IMPL(PARACC_CONCAT(assignOrFail, __LINE__), decl, expr)

namespace mlir::paracc::onnximport {

inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}
inline Type elementType(Value v) { return tensorType(v).getElementType(); }

/// A 0-d constant with `v`'s element type.
inline Value scalarLike(NodeContext &c, Value v, double value) {
  return c.scalar(elementType(v), value);
}

/// Builds a broadcasting binary op.
template <typename OpTy>
FailureOr<Value> binary(NodeContext &c, Value lhs, Value rhs) {
  return c.build<OpTy>(lhs, rhs);
}

/// Builds a same-type unary op.
template <typename OpTy> FailureOr<Value> unary(NodeContext &c, Value x) {
  auto op = c.buildTyped<OpTy>(x.getType(), x);
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

/// The mean of `x` over `axes` (kept), `x` centered on it, and the biased
/// variance: what every normalization's statistics start from
/// (NormalizationRules.cpp; BatchNormalization's training mode).
struct Moments {
  Value mean, centered, var;
};
FailureOr<Moments> momentsOver(NodeContext &c, Value x, ArrayRef<int64_t> axes);

/// The axes of a reduction-like op: from the `axes` input (when the opset
/// passes them as an input) or attribute, normalized and sorted. Empty when
/// none are given.
FailureOr<SmallVector<int64_t>> readAxes(NodeContext &c, int64_t rank,
                                         bool axesAsInput, unsigned inputIndex);

} // namespace mlir::paracc::onnximport

#endif // PARACC_LIB_IMPORTER_ONNX_RULEUTILS_H
