//===- ScatterConversion.cpp - stablehlo.scatter that adds to graph ops ---===//
//
// The scatters JAX writes are the transposes of its gathers: the gradient
// of a lookup `x[ids]` / `jnp.take` (and `x.at[i].add(v)`) scatters rows
// of the updates into the table along one dim, and the gradient of
// `jnp.take_along_axis` (a cross-entropy's label pick) adds one element per
// position along one dim, every other dim a batching dim. Both add (the
// combiner region is one stablehlo.add of its arguments):
//
//  - the lookup form becomes graph.gather_grad along the dim (repeated
//    indices accumulate), plus the operand unless it is zeros;
//  - the batched form becomes a comparison of each index with the
//    positions along the dim, the updates masked by it and summed over the
//    picks, plus the operand: the shape of scatterPicksAlongAxis in the
//    graph dialect's gradients, which partitioning splits like any
//    elementwise op.
//
// StableHLO skips an update whose index is out of bounds; the lookup form
// masks such updates to zero (and their indices to 0), the batched form's
// comparison matches no position for them. Scatters that replace
// (`x.at[i].set(v)`), combine otherwise, scatter several dims at once or
// have update window dims elsewhere are refused with their location.
//
//===----------------------------------------------------------------------===//

#include "Converter.h"

using namespace mlir;
using namespace mlir::paracc::stablehlo;

namespace {

/// Whether `v` is zeros: a splat zero graph.constant, possibly reshaped or
/// expanded (a broadcast_in_dim of a scalar zero).
bool isZeros(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    StringRef name = def->getName().getStringRef();
    if (name != "graph.expand" && name != "graph.reshape")
      break;
    v = def->getOperand(0);
  }
  std::optional<APFloat> splat = splatFloat(v);
  return splat && splat->isZero();
}

/// The combiner of a scatter's region: "add" when it is one stablehlo.add
/// of its two arguments, "replace" when it returns the update, else the
/// combining op's name (or "" for a body of several ops).
std::string combinerOf(Operation *op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return "";
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 || body.empty())
    return "";
  Operation &last = body.back();
  if (body.getOperations().size() == 1)
    return last.getNumOperands() == 1 &&
                   last.getOperand(0) == body.getArgument(1)
               ? "replace"
               : "";
  if (body.getOperations().size() != 2)
    return "";
  Operation &combine = body.front();
  StringRef name = combine.getName().getStringRef();
  bool ofArguments =
      combine.getNumOperands() == 2 &&
      llvm::is_contained(combine.getOperands(), body.getArgument(0)) &&
      llvm::is_contained(combine.getOperands(), body.getArgument(1));
  if (!ofArguments || last.getNumOperands() != 1 ||
      last.getOperand(0) != combine.getResult(0))
    return "";
  return name == "stablehlo.add" ? "add" : name.str();
}

} // namespace

LogicalResult Converter::convertScatter(Operation *op, IRMapping &map) {
  if (op->getNumOperands() != 3 || op->getNumResults() != 1)
    return unsupported(op, "stablehlo.scatter of several operands is not "
                           "supported");
  std::string combiner = combinerOf(op);
  if (combiner == "replace")
    return unsupported(op, "stablehlo.scatter that replaces elements "
                           "(x.at[i].set(v)) is not supported; scatters that "
                           "add (gradients of gathers, x.at[i].add(v)) are");
  if (combiner != "add")
    return unsupported(op, "stablehlo.scatter combining by " +
                               (combiner.empty() ? std::string("a body other "
                                                               "than one op")
                                                 : "'" + combiner + "'") +
                               " is not supported; scatters that add are");
  ScatterForm s;
  std::string text = opaqueText(opAttr(op, "scatter_dimension_numbers"));
  s.updateWindow = listField(text, "update_window_dims");
  s.inserted = listField(text, "inserted_window_dims");
  s.batching = listField(text, "input_batching_dims");
  s.indexBatching = listField(text, "scatter_indices_batching_dims");
  s.toOperand = listField(text, "scatter_dims_to_operand_dims");
  s.indexVectorDim = intField(text, "index_vector_dim");
  s.operand = map.lookup(op->getOperand(0));
  s.indices = map.lookup(op->getOperand(1));
  s.updates = map.lookup(op->getOperand(2));
  s.operandType = tensorType(s.operand);
  s.indexType = tensorType(s.indices);
  s.updateType = tensorType(s.updates);
  if (!isa<FloatType>(s.operandType.getElementType()))
    return unsupported(op, "stablehlo.scatter into a tensor that is not of "
                           "floats is not supported");
  if (s.toOperand.size() != 1 || s.inserted != s.toOperand || !s.indexVectorDim)
    return unsupported(op, "stablehlo.scatter other than along one "
                           "dimension (the transpose of x[ids], jnp.take or "
                           "jnp.take_along_axis) is not supported");
  // The indices without their index vector dim (of size 1 when present).
  SmallVector<int64_t> idxShape(s.indexType.getShape());
  int64_t vectorDim = *s.indexVectorDim;
  if (vectorDim < s.indexType.getRank()) {
    if (vectorDim < 0 || idxShape[vectorDim] != 1)
      return unsupported(op, "stablehlo.scatter whose index vector is not "
                             "one index");
    idxShape.erase(idxShape.begin() + vectorDim);
  } else if (vectorDim != s.indexType.getRank()) {
    return unsupported(op, "stablehlo.scatter with index_vector_dim " +
                               std::to_string(vectorDim) +
                               " past the indices' rank");
  }
  Value y = s.batching.empty() && s.indexBatching.empty()
                ? scatterRows(op, s, idxShape)
                : scatterPicks(op, s, idxShape);
  if (!y)
    return failure();
  if (!isZeros(s.operand))
    y = build(op->getLoc(), "graph.add", s.operandType, {s.operand, y});
  map.map(op->getResult(0), y);
  return success();
}

/// The lookup form: updates shaped like graph.gather's result of the
/// operand along `axis` (operand[:axis] + indices + operand[axis+1:]), one
/// row of the operand per index: graph.gather_grad, out-of-bounds updates
/// masked to zero first.
Value Converter::scatterRows(Operation *op, const ScatterForm &s,
                             ArrayRef<int64_t> idxShape) {
  Location loc = op->getLoc();
  const int64_t axis = s.toOperand[0], rank = s.operandType.getRank();
  const int64_t nb = int64_t(idxShape.size());
  auto notLikeGather = [&] {
    (void)unsupported(op, "stablehlo.scatter whose updates are not shaped "
                          "like the gather it transposes (operand dims "
                          "before the scattered one, the indices, the "
                          "operand dims after it) is not supported");
    return Value();
  };
  if (axis < 0 || axis >= rank)
    return notLikeGather();
  SmallVector<int64_t> expectedWindow, expectedUpdates;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      expectedWindow.push_back(d < axis ? d : d + nb - 1);
  llvm::append_range(expectedUpdates,
                     s.operandType.getShape().take_front(axis));
  llvm::append_range(expectedUpdates, idxShape);
  llvm::append_range(expectedUpdates,
                     s.operandType.getShape().drop_front(axis + 1));
  if (s.updateWindow != expectedWindow ||
      s.updateType.getShape() != ArrayRef<int64_t>(expectedUpdates))
    return notLikeGather();
  Type indexElement = s.indexType.getElementType();
  auto idxType = RankedTensorType::get(idxShape, indexElement);
  auto boolType = RankedTensorType::get(idxShape, builder.getI1Type());
  Value indices = reshape(loc, s.indices, idxShape);
  Value zero = scalarConstant(loc, indexElement, 0);
  Value limit =
      scalarConstant(loc, indexElement, double(s.operandType.getDimSize(axis)));
  Value inBounds =
      build(loc, "graph.and", boolType,
            {build(loc, "graph.greater_equal", boolType, {indices, zero}),
             build(loc, "graph.less", boolType, {indices, limit})});
  indices = build(loc, "graph.where", idxType, {inBounds, indices, zero});
  SmallVector<int64_t> maskShape(rank + nb - 1, 1);
  std::copy(idxShape.begin(), idxShape.end(), maskShape.begin() + axis);
  Value mask = reshape(loc, inBounds, maskShape);
  Value updates =
      build(loc, "graph.where", s.updateType,
            {mask, s.updates,
             scalarConstant(loc, s.updateType.getElementType(), 0.0)});
  return build(loc, "graph.gather_grad", s.operandType, {updates, indices},
               {named("axis", builder.getI64IntegerAttr(axis))});
}

/// The batched form (jnp.take_along_axis's transpose): one update per
/// index, every operand dim but `axis` a batching dim paired with a dim of
/// the indices. The indices and updates are put in the operand's dim order
/// (the picks along `axis`), compared with the positions along it one dim
/// further, and the masked updates summed over the picks.
Value Converter::scatterPicks(Operation *op, const ScatterForm &s,
                              ArrayRef<int64_t> idxShape) {
  Location loc = op->getLoc();
  const int64_t axis = s.toOperand[0], rank = s.operandType.getRank();
  auto notTakeAlongAxis = [&] {
    (void)unsupported(op, "stablehlo.scatter with batching dims other than "
                          "jnp.take_along_axis's transpose (one update per "
                          "index along one dimension, every other dimension "
                          "a batching dimension) is not supported");
    return Value();
  };
  std::optional<SmallVector<int64_t>> perm =
      s.updateWindow.empty() && s.updateType.getShape() == idxShape
          ? pairBatchingDims(s.batching, s.indexBatching, *s.indexVectorDim,
                             s.indexType.getRank(), idxShape, s.operandType,
                             axis)
          : std::nullopt;
  if (!perm)
    return notTakeAlongAxis();
  Value indices = transpose(loc, reshape(loc, s.indices, idxShape), *perm);
  Value updates = transpose(loc, s.updates, *perm);
  // [..., picks, 1, ...] against [1, ..., 1, positions, 1, ...].
  SmallVector<int64_t> picks(tensorType(indices).getShape());
  picks.insert(picks.begin() + axis + 1, 1);
  const int64_t positions = s.operandType.getDimSize(axis);
  Type indexElement = s.indexType.getElementType();
  Value along = build(loc, "graph.range",
                      RankedTensorType::get({positions}, indexElement),
                      {scalarConstant(loc, indexElement, 0),
                       scalarConstant(loc, indexElement, double(positions)),
                       scalarConstant(loc, indexElement, 1)});
  SmallVector<int64_t> alongShape(rank + 1, 1);
  alongShape[axis + 1] = positions;
  SmallVector<int64_t> spread(picks);
  spread[axis + 1] = positions;
  Value hit = build(
      loc, "graph.equal", RankedTensorType::get(spread, builder.getI1Type()),
      {reshape(loc, indices, picks), reshape(loc, along, alongShape)});
  Type element = s.operandType.getElementType();
  Value masked = build(
      loc, "graph.where", RankedTensorType::get(spread, element),
      {hit, reshape(loc, updates, picks), scalarConstant(loc, element, 0.0)});
  return build(loc, "graph.reduce_sum", s.operandType, masked,
               {named("axes", builder.getDenseI64ArrayAttr({axis})),
                named("keepdims", builder.getBoolAttr(false))});
}
