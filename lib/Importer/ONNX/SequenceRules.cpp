//===- SequenceRules.cpp - ONNX tensor sequences ---------------*- C++ -*-===//
//
// Sequences exist only while importing: a sequence value is a list of
// tensors, and positions must be constants. SplitToSequence + SequenceAt, as
// PyTorch's exporter emits for chunk/split, become one graph.split.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::onnximport;
namespace g = mlir::paracc::graph;

/// A constant position into a sequence of `size` elements.
static FailureOr<int64_t> position(NodeContext &c, unsigned input,
                                   int64_t size, bool allowEnd) {
  ASSIGN_OR_FAIL(SmallVector<int64_t> v, c.intsInput(input, "position"));
  if (v.size() != 1) {
    (void)c.error("position must be a scalar");
    return failure();
  }
  int64_t p = v.front() < 0 ? v.front() + size : v.front();
  if (p < 0 || p > size || (p == size && !allowEnd)) {
    (void)c.error("position " + Twine(v.front()) +
                  " is out of range for a sequence of " + Twine(size));
    return failure();
  }
  return p;
}

static LogicalResult importSplitToSequence(NodeContext &c) {
  ASSIGN_OR_FAIL(Value x, c.input(0));
  auto type = tensorType(x);
  ASSIGN_OR_FAIL(int64_t axis,
                 c.normalizeAxis(c.intAttr("axis", 0), type.getRank()));
  int64_t dim = type.getDimSize(axis);
  SmallVector<int64_t> sizes;
  bool keepdims = true;
  if (!c.hasInput(1)) {
    // One piece per element along the axis.
    sizes.assign(dim, 1);
    keepdims = c.intAttr("keepdims", 1);
  } else {
    DenseElementsAttr split = c.constantInput(1);
    ASSIGN_OR_FAIL(sizes, c.intsInput(1, "split"));
    if (split.getType().getRank() == 0) {
      int64_t chunk = sizes.front();
      if (chunk <= 0)
        return c.error("split must be positive");
      sizes.clear();
      for (int64_t left = dim; left > 0; left -= chunk)
        sizes.push_back(std::min(chunk, left));
    }
  }
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  if (total != dim)
    return c.error("split sizes add up to " + Twine(total) + ", not " +
                   Twine(dim));
  SmallVector<Value> pieces;
  if (sizes.size() == 1) {
    pieces.push_back(x);
  } else {
    SmallVector<Type> types;
    for (int64_t s : sizes) {
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] = s;
      types.push_back(type.clone(shape));
    }
    auto op = c.buildTyped<g::SplitOp>(types, x, axis);
    if (failed(op))
      return failure();
    pieces.assign((*op)->result_begin(), (*op)->result_end());
  }
  if (!keepdims) {
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    for (Value &p : pieces) {
      ASSIGN_OR_FAIL(p, c.reshapeTo(p, shape));
    }
  }
  c.setSequenceOutput(0, pieces);
  return success();
}

static LogicalResult importSequenceAt(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
  ASSIGN_OR_FAIL(int64_t p, position(c, 1, seq.size(), false));
  c.setOutput(0, seq[p]);
  return success();
}

static LogicalResult importSequenceConstruct(NodeContext &c) {
  SmallVector<Value> seq;
  for (unsigned i = 0; i < c.numInputs(); ++i) {
    ASSIGN_OR_FAIL(Value v, c.input(i));
    seq.push_back(v);
  }
  c.setSequenceOutput(0, seq);
  return success();
}

static LogicalResult importSequenceLength(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
  c.setOutput(0, c.scalar(c.b.getI64Type(), double(seq.size())));
  return success();
}

static LogicalResult importSequenceInsert(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
  ASSIGN_OR_FAIL(Value v, c.input(1));
  int64_t p = seq.size();
  if (c.hasInput(2)) {
    ASSIGN_OR_FAIL(p, position(c, 2, seq.size(), true));
  }
  seq.insert(seq.begin() + p, v);
  c.setSequenceOutput(0, seq);
  return success();
}

static LogicalResult importSequenceErase(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
  if (seq.empty())
    return c.error("cannot erase from an empty sequence");
  int64_t p = seq.size() - 1;
  if (c.hasInput(1)) {
    ASSIGN_OR_FAIL(p, position(c, 1, seq.size(), false));
  }
  seq.erase(seq.begin() + p);
  c.setSequenceOutput(0, seq);
  return success();
}

static LogicalResult importConcatFromSequence(NodeContext &c) {
  ASSIGN_OR_FAIL(SmallVector<Value> seq, c.sequenceInput(0));
  if (seq.empty())
    return c.error("cannot concatenate an empty sequence");
  bool newAxis = c.intAttr("new_axis", 0);
  int64_t rank = tensorType(seq.front()).getRank() + (newAxis ? 1 : 0);
  ASSIGN_OR_FAIL(int64_t axis, c.normalizeAxis(c.intAttr("axis", 0), rank));
  if (newAxis) {
    for (Value &v : seq) {
      SmallVector<int64_t> shape(tensorType(v).getShape());
      shape.insert(shape.begin() + axis, 1);
      ASSIGN_OR_FAIL(v, c.reshapeTo(v, shape));
    }
  }
  ASSIGN_OR_FAIL(Value y, c.build<g::ConcatOp>(seq, axis));
  c.setOutput(0, y);
  return success();
}

void mlir::paracc::onnximport::registerSequenceRules(RuleTable &t) {
  t.add("SplitToSequence", 11, importSplitToSequence);
  t.add("SequenceAt", 11, importSequenceAt);
  t.add("SequenceConstruct", 11, importSequenceConstruct);
  t.add("SequenceLength", 11, importSequenceLength);
  t.add("SequenceInsert", 11, importSequenceInsert);
  t.add("SequenceErase", 11, importSequenceErase);
  t.add("ConcatFromSequence", 11, importConcatFromSequence);
}
