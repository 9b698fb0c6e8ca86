//===- NodeContext.cpp - Helpers for the ONNX op rules ---------*- C++ -*-===//

#include "ImporterContext.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;

//===----------------------------------------------------------------------===//
// RuleTable
//===----------------------------------------------------------------------===//

void RuleTable::add(StringRef opType, int since, RuleFn fn) {
  auto &list = rules[opType];
  list.push_back({since, fn});
  llvm::sort(list, [](auto &a, auto &b) { return a.first < b.first; });
}

RuleFn RuleTable::lookup(StringRef opType, int64_t opset) const {
  auto it = rules.find(opType);
  if (it == rules.end())
    return nullptr;
  RuleFn found = nullptr;
  for (auto &[since, fn] : it->second)
    if (since <= opset)
      found = fn;
  return found;
}

const RuleTable &mlir::paracc::onnximport::getRuleTable() {
  static const RuleTable table = [] {
    RuleTable t;
    registerElementwiseRules(t);
    registerLinalgRules(t);
    registerNormalizationRules(t);
    registerConvolutionRules(t);
    registerAttentionRules(t);
    registerShapeRules(t);
    registerIndexingRules(t);
    registerResizeRules(t);
    registerReductionRules(t);
    registerSequenceRules(t);
    registerMiscRules(t);
    return t;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(OpBuilder &builder, const onnx::NodeProto &node,
                         int64_t opset, Location loc,
                         llvm::StringMap<OnnxValue> &values,
                         ImportStatus &status)
    : b(builder), node(node), opset(opset), loc(loc), values(values),
      status(status) {}

/// "op 'Add' (opset 17) at node 'add0'"; an unnamed node is placed by its
/// first output. GraphImporter::importNode names nodes the same way.
static std::string nodeDescription(const onnx::NodeProto &node,
                                   int64_t opset) {
  std::string s = "op '" + node.op_type() + "' (opset " +
                  std::to_string(opset) + ")";
  if (!node.name().empty())
    return s + " at node '" + node.name() + "'";
  for (const std::string &output : node.output())
    if (!output.empty())
      return s + " at the unnamed node with output '" + output + "'";
  return s + " at an unnamed node";
}

LogicalResult NodeContext::unsupported(const Twine &what) {
  status.unsupported = true;
  return emitError(loc) << "unsupported " << what << " of "
                        << nodeDescription(node, opset);
}

LogicalResult NodeContext::error(const Twine &what) {
  return emitError(loc) << nodeDescription(node, opset) << ": " << what;
}

FailureOr<Value> NodeContext::input(unsigned i) {
  if (!hasInput(i)) {
    (void)error("missing input " + Twine(i));
    return failure();
  }
  auto it = values.find(node.input(i));
  if (it == values.end()) {
    (void)error("input '" + node.input(i) + "' is not defined before use");
    return failure();
  }
  if (it->second.isSequence) {
    (void)error("input '" + node.input(i) + "' is a sequence, not a tensor");
    return failure();
  }
  return it->second.tensor;
}

bool NodeContext::isSequenceInput(unsigned i) const {
  if (!hasInput(i))
    return false;
  auto it = values.find(node.input(i));
  return it != values.end() && it->second.isSequence;
}

FailureOr<SmallVector<Value>> NodeContext::sequenceInput(unsigned i) {
  if (!hasInput(i)) {
    (void)error("missing input " + Twine(i));
    return failure();
  }
  auto it = values.find(node.input(i));
  if (it == values.end() || !it->second.isSequence) {
    (void)error("input '" + node.input(i) + "' is not a defined sequence");
    return failure();
  }
  return it->second.sequence;
}

RankedTensorType NodeContext::inputType(unsigned i) {
  auto it = values.find(node.input(i));
  assert(it != values.end() && !it->second.isSequence && "checked input");
  return cast<RankedTensorType>(it->second.tensor.getType());
}

DenseElementsAttr NodeContext::constantInput(unsigned i) {
  if (!hasInput(i))
    return nullptr;
  auto it = values.find(node.input(i));
  if (it == values.end() || it->second.isSequence)
    return nullptr;
  auto constant = it->second.tensor.getDefiningOp<graph::ConstantOp>();
  return constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
}

FailureOr<SmallVector<int64_t>> NodeContext::intsInput(unsigned i,
                                                       StringRef what) {
  if (failed(input(i)))
    return failure();
  DenseElementsAttr attr = constantInput(i);
  if (!attr) {
    (void)unsupported("non-constant '" + what + "' input");
    return failure();
  }
  if (!isa<IntegerType>(attr.getElementType()) ||
      attr.getElementType().isInteger(1)) {
    (void)error("'" + what + "' input must be an integer tensor");
    return failure();
  }
  SmallVector<int64_t> result;
  for (const APInt &v : attr.getValues<APInt>())
    result.push_back(v.getSExtValue());
  return result;
}

FailureOr<double> NodeContext::floatInput(unsigned i, StringRef what) {
  if (failed(input(i)))
    return failure();
  DenseElementsAttr attr = constantInput(i);
  if (!attr) {
    (void)unsupported("non-constant '" + what + "' input");
    return failure();
  }
  if (attr.getNumElements() != 1) {
    (void)error("'" + what + "' input must have one element");
    return failure();
  }
  Type t = attr.getElementType();
  if (isa<FloatType>(t))
    return (*attr.getValues<APFloat>().begin()).convertToDouble();
  APInt v = *attr.getValues<APInt>().begin();
  return t.isUnsignedInteger() ? double(v.getZExtValue())
                               : double(v.getSExtValue());
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(StringRef name, int64_t defaultValue) const {
  const auto *a = attr(name);
  return a ? a->i() : defaultValue;
}

double NodeContext::floatAttr(StringRef name, double defaultValue) const {
  const auto *a = attr(name);
  return a ? a->f() : defaultValue;
}

std::string NodeContext::stringAttr(StringRef name,
                                    StringRef defaultValue) const {
  const auto *a = attr(name);
  return a ? a->s() : defaultValue.str();
}

SmallVector<int64_t> NodeContext::intsAttr(StringRef name) const {
  const auto *a = attr(name);
  if (!a)
    return {};
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

void NodeContext::setOutput(unsigned i, Value v) {
  if (!hasOutput(i))
    return;
  OnnxValue value;
  value.tensor = v;
  values[node.output(i)] = std::move(value);
}

void NodeContext::setSequenceOutput(unsigned i, SmallVector<Value> seq) {
  if (!hasOutput(i))
    return;
  OnnxValue value;
  value.sequence = std::move(seq);
  value.isSequence = true;
  values[node.output(i)] = std::move(value);
}

Operation *NodeContext::finish(Operation *op) {
  if (succeeded(mlir::verify(op, /*verifyRecursively=*/false)))
    return op;
  op->erase();
  return nullptr;
}

Value NodeContext::constant(DenseElementsAttr value) {
  return graph::ConstantOp::create(b, loc, value);
}

Value NodeContext::scalar(Type elementType, double value) {
  auto type = RankedTensorType::get({}, elementType);
  if (isa<FloatType>(elementType))
    return constant(DenseElementsAttr::get(
        type, FloatAttr::get(elementType, value).getValue()));
  if (elementType.isInteger(1))
    return constant(DenseElementsAttr::get(type, value != 0));
  return constant(DenseElementsAttr::get(
      type, APInt(elementType.getIntOrFloatBitWidth(),
                  static_cast<uint64_t>(static_cast<int64_t>(value)),
                  /*isSigned=*/true)));
}

FailureOr<Value> NodeContext::castTo(Value v, Type elementType) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == elementType)
    return v;
  auto op = buildTyped<graph::CastOp>(type.clone(elementType), v);
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

FailureOr<Value> NodeContext::reshapeTo(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  auto op = buildTyped<graph::ReshapeOp>(type.clone(shape), v);
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

FailureOr<Value> NodeContext::expandTo(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  auto op = buildTyped<graph::ExpandOp>(type.clone(shape), v);
  if (failed(op))
    return failure();
  return (*op)->getResult(0);
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                              StringRef what) {
  if (axis < -rank || axis >= rank) {
    (void)error(what + " " + Twine(axis) + " is out of range for rank " +
                Twine(rank));
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}
