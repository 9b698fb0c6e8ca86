//===- GraphOps.h - Graph dialect operations --------------------*- C++ -*-===//
//
// Declares the operations of the graph dialect.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHOPS_H
#define PARACC_DIALECT_GRAPH_IR_GRAPHOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "paracc/Dialect/Graph/IR/GraphDialect.h"

namespace mlir::paracc::graph {

/// The numpy broadcast of two shapes, or failure (with a diagnostic at `loc`
/// when given).
FailureOr<SmallVector<int64_t>> broadcastShapes(std::optional<Location> loc,
                                                ArrayRef<int64_t> lhs,
                                                ArrayRef<int64_t> rhs);

/// Result type of a broadcasting binary op: the broadcast shape with
/// `resultElementType` (the operands' element type when null).
LogicalResult inferBroadcastBinary(MLIRContext *context,
                                   std::optional<Location> loc, Type lhs,
                                   Type rhs, Type resultElementType,
                                   SmallVectorImpl<Type> &types);

/// An i1 tensor of the shape of `like`.
LogicalResult inferBoolLike(MLIRContext *context, Type like,
                            SmallVectorImpl<Type> &types);

/// Result type of a reduction over sorted, unique `axes` of `x`, with
/// `elementType` (x's when null).
LogicalResult inferReduce(std::optional<Location> loc, Type x,
                          ArrayRef<int64_t> axes, bool keepdims,
                          Type elementType, SmallVectorImpl<Type> &types);

/// Result type of argmax/argmin along `axis`.
/// TopK's values (x's type, k at axis) and i64 indices.
LogicalResult inferTopK(MLIRContext *context, std::optional<Location> loc,
                        Type x, int64_t axis, int64_t k,
                        SmallVectorImpl<Type> &types);
LogicalResult inferArgReduce(MLIRContext *context, std::optional<Location> loc,
                             Type x, int64_t axis, bool keepdims,
                             SmallVectorImpl<Type> &types);

/// The attribute naming a function argument or result (GraphDialect.td).
inline constexpr llvm::StringLiteral kNameAttrName =
    GraphDialect::NameAttrHelper::getNameStr();

/// Converts a possibly negative `axis` of a rank-`rank` tensor to [0, rank),
/// or fails.
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Whether `op` is an elementwise op a graph.fused_elementwise body may hold
/// (unary and binary elementwise ops, where, cast, clip) on f16, bf16, f32
/// or i1 tensors.
bool isFusibleElementwiseOp(Operation *op);

/// Whether `op` is a one-operand graph.reshape, graph.transpose or
/// graph.cast: it rearranges or converts the elements of one value and does
/// nothing else (the views ZeRO's gathers and gradient buckets look
/// through).
bool isReshapeTransposeOrCast(Operation *op);

/// The softmax statistics' shape of an attention whose q has shape `q`:
/// the scores' shape without the key dim, [lead..., Sq] ([lead..., H, Sq]
/// for sequence-first operands [lead..., Sq, H, D]).
SmallVector<int64_t> attentionStatsShape(ArrayRef<int64_t> q,
                                         bool sequenceFirst);

/// The head dim of an attention's operands of rank `rank`: the dim after
/// the sequence dim (sequence-first) or the last leading dim; -1 when there
/// is none.
int64_t attentionHeadDim(int64_t rank, bool sequenceFirst);

/// The query heads that share each key head of an attention with q and k
/// of shapes `q` and `k`: 1 unless k has fewer heads (grouped-query
/// attention).
int64_t attentionKeyValueGroup(ArrayRef<int64_t> q, ArrayRef<int64_t> k,
                               bool sequenceFirst);

/// One spatial dim of a window op (graph.conv, graph.pool): the window's
/// span, dilation (kernel - 1) + 1, the padded input's size and, when the
/// window fits (span <= padded), the output's size (padded - span) /
/// stride + 1.
struct WindowExtent {
  int64_t span = 0, padded = 0, out = 0;
  bool fits() const { return span <= padded; }
};
WindowExtent windowExtent(int64_t in, int64_t kernel, int64_t stride,
                          int64_t padsBegin, int64_t padsEnd, int64_t dilation);

} // namespace mlir::paracc::graph

#define GET_OP_CLASSES
#include "paracc/Dialect/Graph/IR/GraphOps.h.inc"

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHOPS_H
