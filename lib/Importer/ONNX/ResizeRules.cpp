//===- ResizeRules.cpp - ONNX Resize --------------------------------------===//
//
// Resize on static shapes, as ONNX defines it (opset 11 on): every resized
// axis is a fixed map from output positions to input positions, so it is
// imported as gathers at constant indices, weighted by constant per-position
// weights and summed (nearest: one tap; linear: two; cubic: four). The
// positions and weights are computed here in single precision with
// onnxruntime's formulas (coordinate transformation, rounding, clamping), so
// ties round as it rounds. Autodiff (gather_grad), data and tensor
// parallelism and both backends then treat Resize as the gathers it is.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

namespace {

/// How output positions map to input coordinates, and how coordinates
/// become taps.
struct ResizeMode {
  std::string mode, transform, nearest;
  float cubicA = -0.75f;
  bool excludeOutside = false;
};

/// Input positions and their weights for each output position along one
/// axis: taps[k][x] and weights[k][x].
struct AxisTaps {
  SmallVector<SmallVector<int64_t>> index;
  SmallVector<SmallVector<float>> weight;
};

/// The input coordinate of output position `x` (onnxruntime's
/// GetOriginalCoordinateFromResizedCoordinate, in float).
float inputCoordinate(const ResizeMode &m, int64_t x, int64_t in, int64_t out,
                      float scale) {
  const float xf = float(x);
  if (m.transform == "asymmetric")
    return xf / scale;
  if (m.transform == "tf_half_pixel_for_nn") // (opsets 11 and 12)
    return (xf + 0.5f) / scale;
  if (m.transform == "align_corners")
    return out == 1 ? 0.0f : xf * float(in - 1) / float(out - 1);
  if (m.transform == "pytorch_half_pixel")
    return out > 1 ? (xf + 0.5f) / scale - 0.5f : 0.0f;
  if (m.transform == "half_pixel_symmetric") {
    const float adjustment = float(out) / (scale * float(in));
    const float offset = float(in) / 2.0f * (1.0f - adjustment);
    return offset + (xf + 0.5f) / scale - 0.5f;
  }
  return (xf + 0.5f) / scale - 0.5f; // half_pixel
}

std::string shortFloat(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(v));
  return text;
}

int64_t clampIndex(int64_t i, int64_t in) {
  return std::min<int64_t>(std::max<int64_t>(i, 0), in - 1);
}

/// onnxruntime's nearest_mode rounding.
int64_t nearestIndex(const std::string &rounding, float xo) {
  const bool tie = xo == float(int64_t(xo)) + 0.5f;
  if (rounding == "floor")
    return int64_t(std::floor(xo));
  if (rounding == "ceil")
    return int64_t(std::ceil(xo));
  if (rounding == "round_prefer_ceil")
    return tie ? int64_t(std::ceil(xo)) : int64_t(std::round(xo));
  return tie ? int64_t(std::floor(xo)) : int64_t(std::round(xo));
}

/// Keys' cubic convolution kernel at distance `d` (|d| < 2), with A.
float cubicWeight(float d, float a) {
  d = std::fabs(d);
  if (d <= 1.0f)
    return ((a + 2.0f) * d - (a + 3.0f)) * d * d + 1.0f;
  return ((a * d - 5.0f * a) * d + 8.0f * a) * d - 4.0f * a;
}

AxisTaps tapsAlong(const ResizeMode &m, int64_t in, int64_t out, float scale) {
  AxisTaps t;
  const unsigned k = m.mode == "nearest" ? 1 : m.mode == "linear" ? 2 : 4;
  t.index.assign(k, SmallVector<int64_t>(out, 0));
  t.weight.assign(k, SmallVector<float>(out, 0.0f));
  for (int64_t x = 0; x < out; ++x) {
    float xo = inputCoordinate(m, x, in, out, scale);
    if (m.mode == "nearest") {
      t.index[0][x] = clampIndex(nearestIndex(m.nearest, xo), in);
      t.weight[0][x] = 1.0f;
    } else if (m.mode == "linear") {
      xo = std::max(0.0f, std::min(xo, float(in - 1)));
      const int64_t lo = std::min<int64_t>(int64_t(xo), in - 1);
      const int64_t hi = std::min<int64_t>(lo + 1, in - 1);
      const float frac = lo == hi ? 0.0f : xo - float(lo);
      t.index[0][x] = lo;
      t.weight[0][x] = 1.0f - frac;
      t.index[1][x] = hi;
      t.weight[1][x] = frac;
    } else {
      const int64_t base = int64_t(std::floor(xo));
      const float s = xo - float(base);
      float total = 0.0f;
      for (unsigned j = 0; j < 4; ++j) {
        const int64_t at = base - 1 + int64_t(j);
        float w = cubicWeight(s - float(j) + 1.0f, m.cubicA);
        if (m.excludeOutside && (at < 0 || at >= in))
          w = 0.0f;
        t.index[j][x] = clampIndex(at, in);
        t.weight[j][x] = w;
        total += w;
      }
      if (m.excludeOutside && total != 0.0f)
        for (unsigned j = 0; j < 4; ++j)
          t.weight[j][x] /= total;
    }
  }
  return t;
}

/// Whether the taps leave the axis as it is.
bool isIdentity(const AxisTaps &t, int64_t in) {
  const int64_t out = int64_t(t.index[0].size());
  if (out != in)
    return false;
  for (int64_t x = 0; x < out; ++x)
    for (size_t k = 0; k < t.index.size(); ++k) {
      const float expected = t.index[k][x] == x ? 1.0f : 0.0f;
      // (Taps of weight 0 may point anywhere; several at x sum to 1.)
      if (t.weight[k][x] != 0.0f && t.weight[k][x] != expected)
        return false;
    }
  return true;
}

/// `y` resized along `axis` by the taps.
FailureOr<Value> applyTaps(NodeContext &c, Value y, int64_t axis,
                           const AxisTaps &t, Type elementType) {
  const int64_t out = int64_t(t.index[0].size());
  auto indexType = RankedTensorType::get({out}, c.b.getI64Type());
  SmallVector<int64_t> weightShape(tensorType(y).getRank(), 1);
  weightShape[axis] = out;
  auto weightType = RankedTensorType::get(weightShape, c.b.getF32Type());
  Value sum;
  for (size_t k = 0; k < t.index.size(); ++k) {
    if (llvm::all_of(t.weight[k], [](float w) { return w == 0.0f; }))
      continue;
    Value indices =
        c.constant(DenseElementsAttr::get(indexType, ArrayRef(t.index[k])));
    ASSIGN_OR_FAIL(Value tap, c.build<g::GatherOp>(y, indices, axis));
    if (!llvm::all_of(t.weight[k], [](float w) { return w == 1.0f; })) {
      Value weights =
          c.constant(DenseElementsAttr::get(weightType, ArrayRef(t.weight[k])));
      ASSIGN_OR_FAIL(weights, c.castTo(weights, elementType));
      ASSIGN_OR_FAIL(tap, binary<g::MulOp>(c, tap, weights));
    }
    if (!sum) {
      sum = tap;
      continue;
    }
    ASSIGN_OR_FAIL(sum, binary<g::AddOp>(c, sum, tap));
  }
  return sum;
}

/// The float values of constant input `i`.
FailureOr<SmallVector<float>> floatsInput(NodeContext &c, unsigned i,
                                          StringRef what) {
  DenseElementsAttr attr = c.constantInput(i);
  if (!attr) {
    (void)c.unsupported("non-constant '" + what + "' input");
    return failure();
  }
  if (!isa<FloatType>(attr.getElementType())) {
    (void)c.error("'" + what + "' must be floats");
    return failure();
  }
  SmallVector<float> values;
  for (const APFloat &v : attr.getValues<APFloat>())
    values.push_back(float(v.convertToDouble()));
  return values;
}

FailureOr<ResizeMode> readMode(NodeContext &c) {
  ResizeMode m;
  m.mode = c.stringAttr("mode", "nearest");
  if (m.mode != "nearest" && m.mode != "linear" && m.mode != "cubic")
    return c.error("mode '" + m.mode +
                   "' is not one of nearest, linear, cubic");
  m.transform = c.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (m.transform == "tf_crop_and_resize")
    return c.unsupported("coordinate_transformation_mode 'tf_crop_and_resize'");
  if (m.transform != "half_pixel" && m.transform != "half_pixel_symmetric" &&
      m.transform != "pytorch_half_pixel" && m.transform != "align_corners" &&
      m.transform != "asymmetric" && m.transform != "tf_half_pixel_for_nn")
    return c.error("coordinate_transformation_mode '" + m.transform +
                   "' is not one ONNX defines");
  m.nearest = c.stringAttr("nearest_mode", "round_prefer_floor");
  if (m.nearest != "round_prefer_floor" && m.nearest != "round_prefer_ceil" &&
      m.nearest != "floor" && m.nearest != "ceil")
    return c.error("nearest_mode '" + m.nearest +
                   "' is not one of round_prefer_floor, round_prefer_ceil, "
                   "floor, ceil");
  m.cubicA = float(c.floatAttr("cubic_coeff_a", -0.75));
  m.excludeOutside = c.intAttr("exclude_outside", 0) != 0;
  return m;
}

LogicalResult importResize(NodeContext &c) {
  if (c.opset < 11)
    return c.unsupported("Resize before opset 11 (re-export at opset 11 or "
                         "later)");
  ASSIGN_OR_FAIL(ResizeMode m, readMode(c));
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto xt = tensorType(x);
  const int64_t rank = xt.getRank();
  if (!isa<FloatType>(xt.getElementType()))
    return c.unsupported("Resize of integer tensors");
  // The resized axes: the `axes` attribute (opset 18), else all.
  SmallVector<int64_t> axes;
  if (c.hasAttr("axes")) {
    for (int64_t a : c.intsAttr("axes")) {
      ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(a, rank, "axes"));
      if (llvm::is_contained(axes, axis))
        return c.error("axes names axis " + Twine(axis) + " twice");
      axes.push_back(axis);
    }
  } else {
    for (int64_t a = 0; a < rank; ++a)
      axes.push_back(a);
  }
  std::string policy = c.stringAttr("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch")
    return c.unsupported("keep_aspect_ratio_policy '" + policy + "'");
  // Scales or sizes, one per resized axis (an empty tensor is absent).
  auto given = [&](unsigned i) {
    return c.hasInput(i) && c.inputType(i).getNumElements() != 0;
  };
  const bool byScales = given(2), bySizes = given(3);
  if (byScales == bySizes)
    return c.error("give exactly one of 'scales' and 'sizes'");
  SmallVector<float> scales(axes.size(), 1.0f);
  SmallVector<int64_t> sizes(axes.size(), 0);
  if (byScales) {
    ASSIGN_OR_FAIL(scales, floatsInput(c, 2, "scales"));
  } else {
    ASSIGN_OR_FAIL(sizes, c.intsInput(3, "sizes"));
  }
  const size_t count = byScales ? scales.size() : sizes.size();
  if (count != axes.size())
    return c.error(Twine(byScales ? "scales" : "sizes") + " has " +
                   Twine(count) + " values for " + Twine(axes.size()) +
                   " axes");
  const bool antialias = c.intAttr("antialias", 0) != 0;
  Value y = x;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t axis = axes[i], in = xt.getDimSize(axis);
    float scale = scales[i];
    int64_t out = sizes[i];
    if (byScales) {
      if (!(scale > 0.0f))
        return c.error("scales must be positive, got " +
                       Twine(shortFloat(scale)) + " for axis " + Twine(axis));
      out = int64_t(float(in) * scale);
    } else {
      if (out < 1)
        return c.error("sizes must be positive, got " + Twine(out) +
                       " for axis " + Twine(axis));
      scale = float(out) / float(in);
    }
    if (out < 1)
      return c.error("axis " + Twine(axis) + " of size " + Twine(in) +
                     " scaled by " + Twine(shortFloat(scale)) +
                     " has no positions");
    if (antialias && m.mode != "nearest" && scale < 1.0f)
      return c.unsupported("antialiased downsampling (antialias = 1 with a "
                           "scale below 1)");
    AxisTaps taps = tapsAlong(m, in, out, scale);
    if (isIdentity(taps, in))
      continue;
    ASSIGN_OR_FAIL(y, applyTaps(c, y, axis, taps, xt.getElementType()));
  }
  c.setOutput(0, y);
  return success();
}

} // namespace

void mlir::paracc::onnximport::registerResizeRules(RuleTable &t) {
  t.add("Resize", 10, importResize);
}
