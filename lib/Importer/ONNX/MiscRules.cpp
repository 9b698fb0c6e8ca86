//===- MiscRules.cpp - ONNX constants, identity and scans ------*- C++ -*-===//
//
// Constant, Identity, Dropout, CumSum, Trilu and EyeLike.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

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

static LogicalResult importConstant(NodeContext &c) {
  if (c.node.attribute_size() != 1)
    return c.error("requires exactly one value attribute");
  const onnx::AttributeProto &a = c.node.attribute(0);
  Builder b(c.getContext());
  DenseElementsAttr value;
  if (a.name() == "value") {
    ImportStatus status;
    auto attr = constantFromTensorProto(a.t(), modelDirOf(c.loc), c.loc, status);
    if (failed(attr))
      return status.unsupported ? c.unsupported("value type") : failure();
    value = *attr;
  } else if (a.name() == "value_float") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   a.f());
  } else if (a.name() == "value_floats") {
    SmallVector<float> v(a.floats().begin(), a.floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(v.size())}, b.getF32Type()),
        ArrayRef(v));
  } else if (a.name() == "value_int") {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   int64_t(a.i()));
  } else if (a.name() == "value_ints") {
    SmallVector<int64_t> v(a.ints().begin(), a.ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({int64_t(v.size())}, b.getI64Type()),
        ArrayRef(v));
  } else {
    return c.unsupported("attribute '" + a.name() + "'");
  }
  c.setOutput(0, c.constant(value));
  return success();
}

static LogicalResult importIdentity(NodeContext &c) {
  if (c.isSequenceInput(0)) {
    ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
    c.setSequenceOutput(0, seq);
    return success();
  }
  ASSIGN_OR_FAIL(Value x, c.input(0));
  c.setOutput(0, x);
  return success();
}

/// Dropout: the identity in inference mode (the default) and for a ratio of
/// 0; in training mode
/// (a constant true training_mode, as exporters write training graphs)
/// graph.dropout, its stream the hash of the node's output name (unique in
/// the graph, so every dropout draws its own mask), its seed 0 (paracc
/// train --dropout-seed sets it) and its step 0 until the optimizer wires
/// the training step.
static LogicalResult importDropout(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  bool training = false;
  if (c.opset >= 12 && c.hasInput(2)) {
    DenseElementsAttr mode = c.constantInput(2);
    if (!mode)
      return c.unsupported("non-constant training_mode");
    if (!mode.getElementType().isInteger(1) || mode.getNumElements() != 1)
      return c.error("training_mode must be a bool scalar");
    training = *mode.getValues<bool>().begin();
  }
  double ratio = 0.5;
  if (training && c.hasInput(1)) {
    DenseElementsAttr r = c.constantInput(1);
    if (!r || r.getNumElements() != 1 ||
        !isa<FloatType>(r.getElementType()))
      return c.unsupported("a ratio that is not a constant float scalar");
    ratio = (*r.getValues<APFloat>().begin()).convertToDouble();
  }
  if (training && !(ratio >= 0.0 && ratio < 1.0))
    return c.error("ratio must be in [0, 1), got " + std::to_string(ratio));
  // Inference mode, or a ratio of 0 (a model trained without dropout, as
  // the legacy exporter writes it in training mode): every element kept.
  if (!training || ratio == 0.0) {
    c.setOutput(0, x);
    if (c.hasOutput(1)) {
      auto type =
          RankedTensorType::get(tensorType(x).getShape(), c.b.getI1Type());
      c.setOutput(1, c.constant(DenseElementsAttr::get(type, true)));
    }
    return success();
  }
  if (c.hasOutput(1))
    return c.unsupported("the mask output of a Dropout in training mode "
                         "with a ratio above 0");
  if (!isa<FloatType>(tensorType(x).getElementType()))
    return c.unsupported("dropout of a non-float tensor");
  Builder b(c.getContext());
  int64_t rank = tensorType(x).getRank();
  Value step = c.constant(DenseElementsAttr::get(
      RankedTensorType::get({}, b.getF32Type()), 0.0f));
  Value offsets = c.constant(DenseElementsAttr::get(
      RankedTensorType::get({rank}, b.getI64Type()),
      ArrayRef<int64_t>(SmallVector<int64_t>(rank, 0))));
  uint64_t stream = llvm::xxh3_64bits(c.node.output(0));
  auto op = c.buildTyped<g::DropoutOp>(
      x.getType(), x, step, offsets, b.getF64FloatAttr(ratio),
      b.getI64IntegerAttr(0), b.getI64IntegerAttr(int64_t(stream >> 1)));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

static LogicalResult importCumSum(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  ASSIGN_OR_FAIL(SmallVector<int64_t> axis, c.intsInput(1, "axis"));
  if (axis.size() != 1)
    return c.error("axis must be a scalar");
  ASSIGN_OR_FAIL(int64_t a, c.normalizeAxis(axis.front(),
                                            tensorType(x).getRank()));
  Builder b(c.getContext());
  auto op = c.buildTyped<g::CumSumOp>(
      x.getType(), x, b.getI64IntegerAttr(a),
      b.getBoolAttr(c.intAttr("exclusive", 0)),
      b.getBoolAttr(c.intAttr("reverse", 0)));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

static LogicalResult importTrilu(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  int64_t k = 0;
  if (c.hasInput(1)) {
    ASSIGN_OR_FAIL(SmallVector<int64_t> kv, c.intsInput(1, "k"));
    if (kv.size() != 1)
      return c.error("k must be a scalar");
    k = kv.front();
  }
  Builder b(c.getContext());
  auto op = c.buildTyped<g::TriluOp>(x.getType(), x,
                                     b.getBoolAttr(c.intAttr("upper", 1)),
                                     b.getI64IntegerAttr(k));
  if (failed(op))
    return failure();
  c.setOutput(0, (*op)->getResult(0));
  return success();
}

static LogicalResult importEyeLike(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  if (type.getRank() != 2)
    return c.error("requires a 2-D input");
  Type elem = type.getElementType();
  if (c.hasAttr("dtype")) {
    elem = elementTypeFromOnnx(c.getContext(), c.intAttr("dtype", 1));
    if (!elem)
      return c.unsupported("dtype");
  }
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t k = c.intAttr("k", 0);
  SmallVector<Attribute> values;
  Builder b(c.getContext());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      bool one = j - i == k;
      if (isa<FloatType>(elem))
        values.push_back(b.getFloatAttr(elem, one));
      else
        values.push_back(b.getIntegerAttr(elem, one));
    }
  c.setOutput(0, c.constant(DenseElementsAttr::get(
                     RankedTensorType::get({rows, cols}, elem), values)));
  return success();
}

void mlir::paracc::onnximport::registerMiscRules(RuleTable &t) {
  t.add("Constant", 1, importConstant);
  t.add("Identity", 1, importIdentity);
  t.add("Dropout", 1, importDropout);
  t.add("CumSum", 11, importCumSum);
  t.add("Trilu", 14, importTrilu);
  t.add("EyeLike", 9, importEyeLike);
}
