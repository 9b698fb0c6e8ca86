//===- ShapeRules.cpp - ONNX shape and data-movement ops -------*- C++ -*-===//
//
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Slice, Concat, Split,
// Expand, Tile, and the shape queries (Shape, Size) and generators
// (ConstantOfShape, Range) that fold to constants.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

/// Elements of a shape, or -1 on overflow.
static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > (int64_t(1) << 50) / d))
      return -1;
    n *= d;
  }
  return n;
}

/// Checks a target shape a rule computed from constant inputs.
static LogicalResult checkShape(NodeContext &c, ArrayRef<int64_t> shape) {
  if (numElements(shape) < 0)
    return c.error("shape " + shapeStr(shape) +
                   " has a negative dim or too many elements");
  return success();
}

static LogicalResult importReshape(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(SmallVector<int64_t> shape, c.intsInput(1, "shape"));
  auto in = tensorType(x).getShape();
  bool allowZero = c.intAttr("allowzero", 0);
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return c.error("shape dim " + Twine(i) + " copies a dim the input " +
                       shapeStr(in) + " does not have");
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return c.error("shape " + shapeStr(shape) + " has more than one -1");
      inferred = i;
      continue;
    }
    if (d < 0)
      return c.error("shape " + shapeStr(shape) + " has a negative dim");
    known *= d;
  }
  int64_t total = tensorType(x).getNumElements();
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return c.error("cannot reshape " + shapeStr(in) + " to " +
                     shapeStr(shape));
    shape[inferred] = total / known;
  }
  if (failed(checkShape(c, shape)) || numElements(shape) != total)
    return c.error("cannot reshape " + shapeStr(in) + " (" + Twine(total) +
                   " elements) to " + shapeStr(shape));
  ASSIGN_OR_FAIL(Value y, c.reshapeTo(x, shape));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importFlatten(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto shape = tensorType(x).getShape();
  int64_t rank = shape.size();
  // Flatten's axis ranges over [-rank, rank].
  int64_t axis = c.intAttr("axis", 1);
  if (axis < -rank || axis > rank)
    return c.error("axis " + Twine(axis) + " is out of range for rank " +
                   Twine(rank));
  if (axis < 0)
    axis += rank;
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? rows : cols) *= shape[d];
  ASSIGN_OR_FAIL(Value y, c.reshapeTo(x, {rows, cols}));
  c.setOutput(0, y);
  return success();
}

FailureOr<SmallVector<int64_t>>
mlir::paracc::onnximport::readAxes(NodeContext &c, int64_t rank,
                                   bool axesAsInput, unsigned inputIndex) {
  SmallVector<int64_t> axes;
  if (axesAsInput) {
    if (c.hasInput(inputIndex)) {
      ASSIGN_OR_FAIL(axes, c.intsInput(inputIndex, "axes"));
    }
  } else {
    axes = c.intsAttr("axes");
  }
  for (int64_t &a : axes) {
    ASSIGN_OR_FAIL(a, c.normalizeAxis(a, rank));
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) {
    (void)c.error("axes repeat a dimension");
    return failure();
  }
  return axes;
}

static LogicalResult importSqueeze(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto shape = tensorType(x).getShape();
  ASSIGN_OR_FAIL(SmallVector<int64_t> axes,
                 readAxes(c, shape.size(), c.opset >= 13, 1));
  SmallVector<int64_t> out;
  for (auto [d, size] : llvm::enumerate(shape)) {
    bool listed = llvm::is_contained(axes, int64_t(d));
    if (listed && size != 1)
      return c.error("cannot squeeze dim " + Twine(d) + " of size " +
                     Twine(size));
    if (!(listed || (axes.empty() && size == 1)))
      out.push_back(size);
  }
  ASSIGN_OR_FAIL(Value y, c.reshapeTo(x, out));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importUnsqueeze(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto shape = tensorType(x).getShape();
  SmallVector<int64_t> raw;
  if (c.opset >= 13) {
    ASSIGN_OR_FAIL(raw, c.intsInput(1, "axes"));
  } else {
    raw = c.intsAttr("axes");
  }
  int64_t outRank = shape.size() + raw.size();
  SmallVector<int64_t> axes;
  for (int64_t a : raw) {
    ASSIGN_OR_FAIL(int64_t n, c.normalizeAxis(a, outRank));
    axes.push_back(n);
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return c.error("axes repeat a dimension");
  SmallVector<int64_t> out;
  auto it = shape.begin();
  for (int64_t d = 0; d < outRank; ++d)
    out.push_back(llvm::is_contained(axes, d) ? 1 : *it++);
  ASSIGN_OR_FAIL(Value y, c.reshapeTo(x, out));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importTranspose(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  int64_t rank = tensorType(x).getRank();
  SmallVector<int64_t> perm = c.intsAttr("perm");
  if (!c.hasAttr("perm"))
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  ASSIGN_OR_FAIL(Value y, c.build<g::TransposeOp>(x, perm));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importSlice(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto shape = tensorType(x).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.intsAttr("starts");
    ends = c.intsAttr("ends");
    axes = c.intsAttr("axes");
  } else {
    ASSIGN_OR_FAIL(starts, c.intsInput(1, "starts"));
    ASSIGN_OR_FAIL(ends, c.intsInput(2, "ends"));
    if (c.hasInput(3)) {
      ASSIGN_OR_FAIL(axes, c.intsInput(3, "axes"));
    }
    if (c.hasInput(4)) {
      ASSIGN_OR_FAIL(steps, c.intsInput(4, "steps"));
    }
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return c.error("starts, ends, axes and steps differ in length");

  SmallVector<int64_t> outStarts(rank, 0), outLimits(shape), outSteps(rank, 1);
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(axes[i], rank));
    if (seen[axis])
      return c.error("axes repeat dimension " + Twine(axis));
    seen[axis] = true;
    int64_t dim = shape[axis], step = steps[i];
    if (step == 0)
      return c.error("steps must be non-zero");
    // A step longer than the dim takes one element either way; clamping it
    // keeps the arithmetic below from overflowing (steps like INT64_MAX).
    step = std::clamp(step, -std::max<int64_t>(dim, 1),
                      std::max<int64_t>(dim, 1));
    // ONNX semantics: negative indices count from the end, then clamp.
    auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v = v < -dim ? lo : v + dim;
      return std::clamp(v, lo, hi);
    };
    int64_t start, limit;
    if (step > 0) {
      start = clampIndex(starts[i], 0, dim);
      limit = clampIndex(ends[i], 0, dim);
    } else {
      start = clampIndex(starts[i], 0, dim - 1);
      limit = ends[i] < -dim ? -1 : clampIndex(ends[i], -1, dim - 1);
    }
    int64_t count = step > 0 ? (limit - start + step - 1) / step
                             : (start - limit - step - 1) / -step;
    if (count <= 0) {
      // An empty slice: a canonical form the verifier accepts.
      start = 0;
      limit = 0;
      step = 1;
    }
    outStarts[axis] = start;
    outLimits[axis] = limit;
    outSteps[axis] = step;
  }
  ASSIGN_OR_FAIL(Value y,
                 c.build<g::SliceOp>(x, outStarts, outLimits, outSteps));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importConcat(NodeContext &c) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < c.numInputs(); ++i) {
    ASSIGN_OR_FAIL(Value v, c.input(i));
    inputs.push_back(v);
  }
  if (inputs.empty())
    return c.error("requires at least one input");
  int64_t rank = tensorType(inputs.front()).getRank();
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 0), rank));
  ASSIGN_OR_FAIL(Value y, c.build<g::ConcatOp>(inputs, axis));
  c.setOutput(0, y);
  return success();
}

/// Splits `x` along `axis` into pieces of `sizes`.
static FailureOr<SmallVector<Value>> splitBySizes(NodeContext &c, Value x,
                                                  int64_t axis,
                                                  ArrayRef<int64_t> sizes) {
  auto type = tensorType(x);
  SmallVector<Type> types;
  for (int64_t s : sizes) {
    if (s < 0) {
      (void)c.error("split sizes must be non-negative");
      return failure();
    }
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = s;
    types.push_back(type.clone(shape));
  }
  auto op = c.buildTyped<g::SplitOp>(types, x, axis);
  if (failed(op))
    return failure();
  return SmallVector<Value>((*op)->getResults());
}

/// Equal pieces (the last one smaller when the dim does not divide).
static SmallVector<int64_t> evenSizes(int64_t dim, int64_t pieces) {
  int64_t chunk = (dim + pieces - 1) / pieces;
  SmallVector<int64_t> sizes;
  for (int64_t i = 0, left = dim; i < pieces; ++i, left -= chunk)
    sizes.push_back(std::max<int64_t>(std::min(chunk, left), 0));
  return sizes;
}

static LogicalResult importSplit(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  ASSIGN_OR_FAIL(int64_t axis,
                 c.normalizeAxis(c.intAttr("axis", 0), type.getRank()));
  int64_t dim = type.getDimSize(axis);
  SmallVector<int64_t> sizes;
  if (c.opset >= 13) {
    if (c.hasInput(1)) {
      ASSIGN_OR_FAIL(sizes, c.intsInput(1, "split"));
    }
  } else {
    sizes = c.intsAttr("split");
  }
  if (sizes.empty()) {
    int64_t pieces = c.opset >= 18 && c.hasAttr("num_outputs")
                         ? c.intAttr("num_outputs", 1)
                         : c.numOutputs();
    if (pieces <= 0)
      return c.error("requires a positive number of outputs");
    if (c.opset < 18 && dim % pieces != 0)
      return c.error("dim " + Twine(axis) + " of size " + Twine(dim) +
                     " does not split evenly into " + Twine(pieces));
    sizes = evenSizes(dim, pieces);
  }
  if (sizes.size() != c.numOutputs())
    return c.error("has " + Twine(c.numOutputs()) + " outputs but " +
                   Twine(sizes.size()) + " split sizes");
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  if (total != dim)
    return c.error("split sizes add up to " + Twine(total) + ", not " +
                   Twine(dim));
  ASSIGN_OR_FAIL(SmallVector<Value> pieces, splitBySizes(c, x, axis, sizes));
  for (auto [i, v] : llvm::enumerate(pieces))
    c.setOutput(i, v);
  return success();
}

static LogicalResult importExpand(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(SmallVector<int64_t> target, c.intsInput(1, "shape"));
  if (failed(checkShape(c, target)))
    return failure();
  // Expand broadcasts both ways: the result is broadcast(x, shape).
  auto shape = g::broadcastShapes(c.loc, tensorType(x).getShape(), target);
  if (failed(shape))
    return failure();
  ASSIGN_OR_FAIL(Value y, c.expandTo(x, *shape));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importTile(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(SmallVector<int64_t> repeats, c.intsInput(1, "repeats"));
  auto shape = tensorType(x).getShape();
  if (repeats.size() != shape.size())
    return c.error("requires one repeat per dim");
  // reshape [d0, d1] -> [1, d0, 1, d1], expand to [r0, d0, r1, d1], merge.
  SmallVector<int64_t> interleaved, expanded, out;
  for (auto [d, r] : llvm::zip(shape, repeats)) {
    if (r < 0)
      return c.error("repeats must be non-negative");
    interleaved.append({1, d});
    expanded.append({r, d});
    out.push_back(r * d);
  }
  if (failed(checkShape(c, expanded)))
    return failure();
  ASSIGN_OR_FAIL(Value a, c.reshapeTo(x, interleaved));
  ASSIGN_OR_FAIL(Value b, c.expandTo(a, expanded));
  ASSIGN_OR_FAIL(Value y, c.reshapeTo(b, out));
  c.setOutput(0, y);
  return success();
}

static LogicalResult importShape(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto shape = tensorType(x).getShape();
  int64_t rank = shape.size();
  int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
  auto clampIndex = [&](int64_t v) {
    return std::clamp(v < 0 ? v + rank : v, int64_t(0), rank);
  };
  start = clampIndex(start);
  end = std::max(clampIndex(end), start);
  SmallVector<int64_t> dims(shape.begin() + start, shape.begin() + end);
  auto type = RankedTensorType::get({int64_t(dims.size())},
                                    c.b.getI64Type());
  c.setOutput(0, c.constant(DenseElementsAttr::get(type, ArrayRef(dims))));
  return success();
}

static LogicalResult importSize(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  c.setOutput(0, c.scalar(c.b.getI64Type(),
                          double(tensorType(x).getNumElements())));
  return success();
}

/// The folder of the model file, which external data of attribute tensors
/// is relative to: the importer places every node in that file.
static std::string modelDirOf(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>()) {
    StringRef dir = llvm::sys::path::parent_path(file.getFilename());
    if (!dir.empty())
      return dir.str();
  }
  return ".";
}

static LogicalResult importConstantOfShape(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<int64_t> shape, c.intsInput(0, "shape"));
  if (failed(checkShape(c, shape)))
    return failure();
  DenseElementsAttr value;
  if (const auto *a = c.attr("value")) {
    ImportStatus status;
    auto attr = constantFromTensorProto(a->t(), modelDirOf(c.loc), c.loc, status);
    if (failed(attr))
      return status.unsupported ? c.unsupported("value type") : failure();
    if (attr->getNumElements() != 1)
      return c.error("value must have one element");
    value = *attr;
  } else {
    value = DenseElementsAttr::get(
        RankedTensorType::get({1}, c.b.getF32Type()), 0.0f);
  }
  auto type = RankedTensorType::get(shape, value.getElementType());
  c.setOutput(0, c.constant(value.resizeSplat(type)));
  return success();
}

static LogicalResult importRange(NodeContext &c) {
  ASSIGN_OR_FAIL(Value start, c.input(0));
  ASSIGN_OR_FAIL(Value limit, c.input(1));
  ASSIGN_OR_FAIL(Value delta, c.input(2));
  ASSIGN_OR_FAIL(double s, c.floatInput(0, "start"));
  ASSIGN_OR_FAIL(double l, c.floatInput(1, "limit"));
  ASSIGN_OR_FAIL(double d, c.floatInput(2, "delta"));
  if (d == 0)
    return c.error("delta must be non-zero");
  double count = std::ceil((l - s) / d);
  if (!(count < double(int64_t(1) << 40)))
    return c.error("range is too long");
  int64_t n = std::max<int64_t>(int64_t(count), 0);
  auto type = RankedTensorType::get({n}, elementType(start));
  auto op = c.buildTyped<g::RangeOp>(type, start, limit, delta);
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

/// Pad in constant or edge mode: per axis, the negative pads sliced off,
/// the positive ones concatenated (a splat of the constant, or the border
/// element expanded). transformers' built-in loss pads the labels so.
static LogicalResult importPad(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  int64_t rank = type.getRank();
  std::string mode = c.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "edge")
    return c.unsupported("mode '" + mode + "' (constant and edge are)");
  SmallVector<int64_t> pads;
  double value = 0;
  SmallVector<int64_t> axes;
  if (c.opset < 11) {
    pads = c.intsAttr("pads");
    value = c.floatAttr("value", 0.0);
  } else {
    ASSIGN_OR_FAIL(pads, c.intsInput(1, "pads"));
    if (c.hasInput(2)) {
      ASSIGN_OR_FAIL(value, c.floatInput(2, "constant_value"));
    }
    if (c.hasInput(3)) {
      ASSIGN_OR_FAIL(SmallVector<int64_t> given, c.intsInput(3, "axes"));
      for (int64_t a : given) {
        ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(a, rank, "axes"));
        axes.push_back(axis);
      }
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  if (int64_t(pads.size()) != 2 * int64_t(axes.size()))
    return c.error("requires " + Twine(2 * axes.size()) +
                   " pads (begin and end per axis), got " + Twine(pads.size()));
  // y[..., from:to, ...] along `axis`.
  auto sliceAxis = [&](Value y, int64_t axis, int64_t from, int64_t to) {
    auto t = tensorType(y);
    SmallVector<int64_t> starts(t.getRank(), 0), limits(t.getShape()),
        steps(t.getRank(), 1);
    starts[axis] = from;
    limits[axis] = to;
    return c.build<g::SliceOp>(y, starts, limits, steps);
  };
  Value y = x;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    int64_t begin = pads[i], end = pads[i + axes.size()];
    auto t = tensorType(y);
    int64_t size = t.getDimSize(axis);
    if (begin < 0 || end < 0) {
      int64_t from = std::max<int64_t>(0, -begin);
      int64_t to = size - std::max<int64_t>(0, -end);
      if (from > to)
        return c.error("pads remove more than axis " + Twine(axis) + " holds");
      ASSIGN_OR_FAIL(y, sliceAxis(y, axis, from, to));
      begin = std::max<int64_t>(begin, 0);
      end = std::max<int64_t>(end, 0);
      t = tensorType(y);
      size = t.getDimSize(axis);
    }
    if (begin == 0 && end == 0)
      continue;
    if (mode == "edge" && size == 0)
      return c.error("edge padding of an empty axis " + Twine(axis));
    auto piece = [&](int64_t count, bool atEnd) -> FailureOr<Value> {
      SmallVector<int64_t> shape(t.getShape());
      shape[axis] = count;
      if (mode == "constant") {
        Type elem = t.getElementType();
        Attribute fill;
        if (isa<FloatType>(elem))
          fill = FloatAttr::get(elem, value);
        else if (elem.isInteger(1))
          fill = IntegerAttr::get(elem, value != 0);
        else
          fill = IntegerAttr::get(elem, int64_t(value));
        return c.constant(
            DenseElementsAttr::get(RankedTensorType::get(shape, elem), fill));
      }
      const int64_t at = atEnd ? size - 1 : 0;
      ASSIGN_OR_FAIL(Value border, sliceAxis(y, axis, at, at + 1));
      return c.expandTo(border, shape);
    };
    SmallVector<Value> parts;
    if (begin > 0) {
      ASSIGN_OR_FAIL(Value p, piece(begin, false));
      parts.push_back(p);
    }
    parts.push_back(y);
    if (end > 0) {
      ASSIGN_OR_FAIL(Value p, piece(end, true));
      parts.push_back(p);
    }
    ASSIGN_OR_FAIL(y, c.build<g::ConcatOp>(parts, axis));
  }
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerShapeRules(RuleTable &t) {
  t.add("Pad", 2, importPad);
  t.add("Reshape", 5, importReshape);
  t.add("Flatten", 1, importFlatten);
  t.add("Squeeze", 1, importSqueeze);
  t.add("Unsqueeze", 1, importUnsqueeze);
  t.add("Transpose", 1, importTranspose);
  t.add("Slice", 1, importSlice);
  t.add("Concat", 4, importConcat);
  t.add("Split", 2, importSplit);
  t.add("Expand", 8, importExpand);
  t.add("Tile", 6, importTile);
  t.add("Shape", 1, importShape);
  t.add("Size", 1, importSize);
  t.add("ConstantOfShape", 9, importConstantOfShape);
  t.add("Range", 11, importRange);
}
