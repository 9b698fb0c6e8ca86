//===- PadConversion.cpp - stablehlo.pad to graph concatenations ----------===//
//
// stablehlo.pad (JAX writes it for the transpose of a slice: the gradient
// of `x[..., :k]` and of RoPE's halves) dim by dim: interior padding puts
// `interior` copies of the padding value after each element but the last
// (a new dim of 1 + interior, concatenated and flattened into the dim),
// then the edges: a positive `low` / `high` concatenates that many values
// before / after, a negative one slices them off. The padding value is the
// op's rank-0 operand, broadcast to each piece.
//
//===----------------------------------------------------------------------===//

#include "Converter.h"

using namespace mlir;
using namespace mlir::paracc::stablehlo;

LogicalResult Converter::convertPad(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  Value x = map.lookup(op->getOperand(0));
  Value padding = map.lookup(op->getOperand(1));
  auto low = i64Array(op, "edge_padding_low");
  auto high = i64Array(op, "edge_padding_high");
  auto interior = i64Array(op, "interior_padding");
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  const int64_t rank = tensorType(x).getRank();
  if (!low || !high || !interior || int64_t(low->size()) != rank ||
      int64_t(high->size()) != rank || int64_t(interior->size()) != rank)
    return unsupported(op, "stablehlo.pad without low, high and interior "
                           "padding for each of the operand's " +
                               std::to_string(rank) + " dims");
  Type element = result.getElementType();
  // `count` padding values along `dim` of a tensor shaped like `like`.
  auto fill = [&](ArrayRef<int64_t> like, int64_t dim, int64_t count) {
    SmallVector<int64_t> shape(like);
    shape[dim] = count;
    SmallVector<int64_t> ones(shape.size(), 1);
    return expand(loc, reshape(loc, padding, ones), shape);
  };
  auto slice = [&](Value y, int64_t dim, int64_t from, int64_t to) {
    auto t = tensorType(y);
    SmallVector<int64_t> starts(t.getRank(), 0), limits(t.getShape()),
        steps(t.getRank(), 1), shape(t.getShape());
    starts[dim] = from;
    limits[dim] = to;
    shape[dim] = to - from;
    return build(loc, "graph.slice", RankedTensorType::get(shape, element), y,
                 {named("starts", builder.getDenseI64ArrayAttr(starts)),
                  named("limits", builder.getDenseI64ArrayAttr(limits)),
                  named("steps", builder.getDenseI64ArrayAttr(steps))});
  };
  auto concat = [&](ArrayRef<Value> parts, int64_t dim) {
    SmallVector<int64_t> shape(tensorType(parts[0]).getShape());
    shape[dim] = 0;
    for (Value p : parts)
      shape[dim] += tensorType(p).getDimSize(dim);
    return build(loc, "graph.concat", RankedTensorType::get(shape, element),
                 parts, {named("axis", builder.getI64IntegerAttr(dim))});
  };
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t inner = (*interior)[d];
    int64_t n = tensorType(x).getDimSize(d);
    if (inner < 0)
      return unsupported(op, "stablehlo.pad with negative interior padding");
    if (inner > 0 && n > 1) {
      SmallVector<int64_t> spread(tensorType(x).getShape());
      spread.insert(spread.begin() + d + 1, 1);
      Value y = reshape(loc, x, spread);
      y = concat({y, fill(spread, d + 1, inner)}, d + 1);
      SmallVector<int64_t> flat(tensorType(x).getShape());
      flat[d] = n * (1 + inner);
      x = slice(reshape(loc, y, flat), d, 0, n + (n - 1) * inner);
      n = n + (n - 1) * inner;
    }
    int64_t before = (*low)[d], after = (*high)[d];
    if (before < 0 || after < 0) {
      int64_t from = std::max<int64_t>(0, -before);
      int64_t to = n - std::max<int64_t>(0, -after);
      if (from > to)
        return unsupported(op, "stablehlo.pad removing more than dim " +
                                   std::to_string(d) + " holds");
      x = slice(x, d, from, to);
      before = std::max<int64_t>(before, 0);
      after = std::max<int64_t>(after, 0);
    }
    if (before == 0 && after == 0)
      continue;
    SmallVector<Value> parts;
    ArrayRef<int64_t> shape = tensorType(x).getShape();
    if (before > 0)
      parts.push_back(fill(shape, d, before));
    parts.push_back(x);
    if (after > 0)
      parts.push_back(fill(shape, d, after));
    x = concat(parts, d);
  }
  if (tensorType(x).getShape() != result.getShape())
    return op->emitError() << "stablehlo.pad's result type does not match "
                              "its padding";
  map.map(op->getResult(0), x);
  return success();
}
