//===- ConvolutionConversion.cpp - stablehlo.convolution to graph.conv ----===//
//
// StableHLO names each operand's dims in `dimension_numbers`:
// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` is JAX's NHWC image with an
// HWIO kernel (Flax's nn.Conv), `[b, f, 0, 1]x[o, i, 0, 1]->...` the NCHW /
// OIHW layout that graph.conv uses. The operands are transposed into
// graph.conv's layout and the result back into the one asked for (the
// transposes of a layout that already matches are not built). Strides,
// padding, kernel (rhs) dilation and feature groups map one to one; input
// (lhs) dilation, which JAX writes for transposed convolutions, batch
// groups (weight gradients) and window reversal are refused.
//
//===----------------------------------------------------------------------===//

#include "Converter.h"

using namespace mlir;
using namespace mlir::paracc::stablehlo;

namespace {

/// One operand's layout `[b, 0, 1, f]` as graph.conv's order of its dims:
/// the position of `outer`, of `inner`, then of spatial dims 0, 1, ...
std::optional<SmallVector<int64_t>> readLayout(StringRef text, char outer,
                                               char inner) {
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return std::nullopt;
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  SmallVector<int64_t> order(parts.size(), -1);
  for (auto [position, part] : llvm::enumerate(parts)) {
    StringRef p = part.trim();
    int64_t slot;
    if (p.size() == 1 && p[0] == outer)
      slot = 0;
    else if (p.size() == 1 && p[0] == inner)
      slot = 1;
    else if (!p.getAsInteger(10, slot) && slot >= 0 &&
             slot + 2 < int64_t(parts.size()))
      slot += 2;
    else
      return std::nullopt;
    if (order[slot] != -1)
      return std::nullopt;
    order[slot] = int64_t(position);
  }
  return order;
}

/// An i64 array property, or `rank` copies of `fill` when absent.
SmallVector<int64_t> arrayOr(Operation *op, StringRef name, size_t rank,
                             int64_t fill) {
  if (auto values = i64Array(op, name))
    return *values;
  return SmallVector<int64_t>(rank, fill);
}

} // namespace

LogicalResult Converter::convertConvolution(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  auto fail = [&](const Twine &what) {
    return unsupported(op, "stablehlo.convolution " + what);
  };
  std::string numbersText = opaqueText(opAttr(op, "dimension_numbers"));
  StringRef numbers = numbersText;
  // The printed form is `conv<[...]x[...]->[...]>`'s body or that with
  // its `conv<`...`>` wrapper (the attribute's mnemonic kept in the data).
  if (numbers.consume_front("conv<"))
    numbers.consume_back(">");
  auto [lhsText, rest] = numbers.split("]x");
  auto [rhsText, outText] = rest.split("]->");
  auto lhs = readLayout((lhsText + "]").str(), 'b', 'f');
  auto rhs = readLayout((rhsText + "]").str(), 'o', 'i');
  auto out = readLayout(outText, 'b', 'f');
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = result.getRank();
  if (!lhs || !rhs || !out || int64_t(lhs->size()) != rank ||
      int64_t(rhs->size()) != rank || int64_t(out->size()) != rank ||
      rank < 3 || rank > 5)
    return fail("with dimension numbers '" + numbers +
                "' (paracc reads 1 to 3 spatial dims, each named once)");
  size_t spatial = size_t(rank - 2);
  SmallVector<int64_t> strides = arrayOr(op, "window_strides", spatial, 1);
  SmallVector<int64_t> lhsDilation = arrayOr(op, "lhs_dilation", spatial, 1);
  SmallVector<int64_t> rhsDilation = arrayOr(op, "rhs_dilation", spatial, 1);
  if (strides.size() != spatial || lhsDilation.size() != spatial ||
      rhsDilation.size() != spatial)
    return fail("whose window attributes do not have one value per spatial "
                "dim");
  if (llvm::any_of(lhsDilation, [](int64_t d) { return d != 1; }))
    return fail("with lhs_dilation (a transposed convolution) is not "
                "supported");
  if (auto reversal =
          dyn_cast_or_null<DenseBoolArrayAttr>(opAttr(op, "window_reversal")))
    if (llvm::is_contained(reversal.asArrayRef(), true))
      return fail("with window_reversal is not supported");
  auto groupAttr = [&](StringRef name) -> int64_t {
    auto a = dyn_cast_or_null<IntegerAttr>(opAttr(op, name));
    return a ? a.getInt() : 1;
  };
  if (groupAttr("batch_group_count") != 1)
    return fail("with batch_group_count > 1 is not supported");
  int64_t groups = groupAttr("feature_group_count");
  SmallVector<int64_t> padsBegin(spatial, 0), padsEnd(spatial, 0);
  if (Attribute padding = opAttr(op, "padding")) {
    auto pads = dyn_cast<DenseIntElementsAttr>(padding);
    if (!pads || pads.getNumElements() != int64_t(2 * spatial))
      return fail("whose padding is not [spatial dims x 2] integers");
    auto values = llvm::to_vector(pads.getValues<int64_t>());
    for (size_t i = 0; i < spatial; ++i) {
      padsBegin[i] = values[2 * i];
      padsEnd[i] = values[2 * i + 1];
    }
    if (llvm::any_of(values, [](int64_t p) { return p < 0; }))
      return fail("with negative padding is not supported");
  }
  Value x = transpose(loc, map.lookup(op->getOperand(0)), *lhs);
  Value w = transpose(loc, map.lookup(op->getOperand(1)), *rhs);
  SmallVector<int64_t> shape;
  for (int64_t d : *out)
    shape.push_back(result.getDimSize(d));
  // graph.conv's verifier checks channels, groups and sizes (a located
  // error for an inconsistent convolution).
  Value y =
      build(loc, "graph.conv",
            RankedTensorType::get(shape, result.getElementType()), {x, w},
            {named("strides", builder.getDenseI64ArrayAttr(strides)),
             named("pads_begin", builder.getDenseI64ArrayAttr(padsBegin)),
             named("pads_end", builder.getDenseI64ArrayAttr(padsEnd)),
             named("dilations", builder.getDenseI64ArrayAttr(rhsDilation)),
             named("group", builder.getI64IntegerAttr(groups))});
  // Back to the asked layout: result dim k is graph.conv's dim inverse[k].
  SmallVector<int64_t> inverse(rank);
  for (auto [slot, position] : llvm::enumerate(*out))
    inverse[position] = int64_t(slot);
  map.map(op->getResult(0), transpose(loc, y, inverse));
  return success();
}
