//===- AttentionMasks.cpp - What an attention's mask condition is -*- C++ -*-=//

#include "AttentionMasks.h"

#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Encoding/KernelFolding.h"
#include "paracc/Encoding/OpEncoding.h"
#include "paracc/runtime/Kernels.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

/// The most elements one evaluated mask tensor may have ([B, 1, S, S] at
/// B 8, S 4096 is 2^27).
constexpr int64_t kMaxMaskElements = int64_t(1) << 28;
/// The most elements of a condition kept as a constant operand (it is
/// materialized in the executable).
constexpr int64_t kMaxConstantCondition = int64_t(1) << 22;

/// Whether a cast from `from` to `to` keeps "is zero": true stays non-zero.
bool keepsZeroness(Type from, Type to) {
  if (to.isInteger(1) || from.isInteger(1))
    return true;
  if (auto f = dyn_cast<IntegerType>(from)) {
    if (auto t = dyn_cast<IntegerType>(to))
      return t.getWidth() >= f.getWidth();
    return isa<FloatType>(to);
  }
  if (auto f = dyn_cast<FloatType>(from))
    if (auto t = dyn_cast<FloatType>(to))
      return t.getWidth() >= f.getWidth();
  return false;
}

/// Broadcast a AND b of two i1 tensors (numpy rules).
std::shared_ptr<rt::Tensor> andTensors(const rt::Tensor &a,
                                       const rt::Tensor &b) {
  const rt::Shape &x = a.shape(), &y = b.shape();
  size_t r = std::max(x.size(), y.size());
  rt::Shape out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t dx = i + x.size() >= r ? x[i + x.size() - r] : 1;
    int64_t dy = i + y.size() >= r ? y[i + y.size() - r] : 1;
    if (dx != dy && dx != 1 && dy != 1)
      return nullptr;
    out[i] = dx == 1 ? dy : dx;
  }
  if (rt::shapeNumElements(out) > kMaxMaskElements)
    return nullptr;
  auto result = rt::Tensor::allocate(rt::DType::Bool, out);
  if (!result)
    return nullptr;
  rt::InstrAttrs attrs;
  if (!rt::runCpuKernel(rt::OpCode::And, attrs, {&a, &b}, {&*result}))
    return nullptr;
  return std::make_shared<rt::Tensor>(std::move(*result));
}

/// A function argument whose elements a value reads, and for each element
/// of the value the flat index of the argument's element it reads.
struct IndexedArgument {
  BlockArgument argument;
  std::shared_ptr<rt::Tensor> source;
};

/// If `v` (i1) is `x != 0` for a function argument `x` whose elements the
/// graph only moves (reshape, expand, transpose, slice, gather and gather_nd
/// at constant indices) and casts without changing which are zero.
std::optional<IndexedArgument> indexedArgument(Value v, MaskAnalysis &masks) {
  SmallVector<Operation *> chain;
  Value cur = v;
  while (!isa<BlockArgument>(cur)) {
    Operation *op = cur.getDefiningOp();
    if (!isa<ReshapeOp, ExpandOp, TransposeOp, SliceOp, GatherOp, GatherNDOp,
             CastOp>(op))
      return std::nullopt;
    if (auto c = dyn_cast<CastOp>(op);
        c && !keepsZeroness(cast<RankedTensorType>(c.getX().getType())
                                .getElementType(),
                            c.getType().getElementType()))
      return std::nullopt;
    // The other operands (gather indices) must be constants.
    for (Value operand : op->getOperands().drop_front())
      if (!masks.evaluate(operand))
        return std::nullopt;
    chain.push_back(op);
    cur = op->getOperand(0);
  }
  auto argument = cast<BlockArgument>(cur);
  auto argType = cast<RankedTensorType>(argument.getType());
  if (!argType.hasStaticShape() ||
      argType.getNumElements() > kMaxMaskElements)
    return std::nullopt;
  // The indices, moved as the argument's elements are.
  auto iota = rt::Tensor::allocate(
      rt::DType::I64, rt::Shape(argType.getShape().begin(),
                                argType.getShape().end()));
  if (!iota)
    return std::nullopt;
  for (int64_t i = 0; i < iota->numElements(); ++i)
    iota->as<int64_t>()[i] = i;
  auto indices = std::make_shared<rt::Tensor>(std::move(*iota));
  for (Operation *op : llvm::reverse(chain)) {
    if (isa<CastOp>(op))
      continue;
    SmallVector<const rt::Tensor *> operands = {indices.get()};
    SmallVector<std::shared_ptr<rt::Tensor>> keep;
    for (Value operand : op->getOperands().drop_front()) {
      keep.push_back(masks.evaluate(operand));
      operands.push_back(keep.back().get());
    }
    FailureOr<std::vector<rt::Tensor>> moved =
        evaluateOnTensors(op, operands, kMaxMaskElements, rt::DType::I64);
    if (failed(moved))
      return std::nullopt;
    indices = std::make_shared<rt::Tensor>(std::move(moved->front()));
  }
  return IndexedArgument{argument, indices};
}

/// Whether a padding factor `p` of shape `ps` (broadcasting to scores
/// [B, H, Sq, Sk]) reads element b * Sk + j of its argument at every (b, j).
bool readsKeysOfBatch(const rt::Tensor &source, ArrayRef<int64_t> scores) {
  const rt::Shape &ps = source.shape();
  if (scores.size() != 4 || ps.size() > 4)
    return false;
  int64_t b = scores[0], sk = scores[3];
  rt::Shape p(4 - ps.size(), 1);
  p.insert(p.end(), ps.begin(), ps.end());
  // Per key, per batch: a broadcast key or batch dim reads one element for
  // several (b, j), which cannot all be b * Sk + j.
  if (p[3] != sk || (p[0] != b && b != 1))
    return false;
  const int64_t *src = source.as<int64_t>();
  int64_t n = 0;
  for (int64_t bi = 0; bi < p[0]; ++bi)
    for (int64_t x = 0; x < p[1] * p[2]; ++x)
      for (int64_t j = 0; j < sk; ++j, ++n)
        if (src[n] != bi * sk + j)
          return false;
  return true;
}

/// Whether a constant condition is a causal band; sets its window.
bool classifyBand(const rt::Tensor &c, ArrayRef<int64_t> scores,
                  MaskCondition &m) {
  const rt::Shape &cs = c.shape();
  int64_t r = scores.size();
  int64_t sq = scores[r - 2], sk = scores[r - 1], off = sk - sq;
  if (cs.size() < 2 || cs[cs.size() - 2] != sq || cs.back() != sk ||
      sq == 0 || sk == 0)
    return false;
  const uint8_t *v = c.as<uint8_t>();
  int64_t slices = c.numElements() / (sq * sk);
  // The window from the last row, whose band ends at the last key.
  const uint8_t *last = v + (sq - 1) * sk;
  int64_t first = 0;
  while (first < sk && !last[first])
    ++first;
  if (first == sk)
    return false;
  int64_t window = first > 0 ? sk - first : 0;
  for (int64_t s = 0; s < slices; ++s)
    for (int64_t i = 0; i < sq; ++i) {
      int64_t end = std::clamp<int64_t>(i + off + 1, 0, sk);
      int64_t begin = window > 0 ? std::max<int64_t>(0, end - window) : 0;
      const uint8_t *row = v + (s * sq + i) * sk;
      for (int64_t j = 0; j < sk; ++j)
        if (bool(row[j]) != (j >= begin && j < end))
          return false;
    }
  m.causal = true;
  m.window = window;
  return true;
}

/// The i1 attribute of a condition tensor (`shape` of it, i1).
DenseElementsAttr boolAttr(MLIRContext *context, const rt::Tensor &t) {
  auto type = RankedTensorType::get(
      SmallVector<int64_t>(t.shape().begin(), t.shape().end()),
      IntegerType::get(context, 1));
  return attrFromTensor(type, t);
}

/// Whether a row (along the last dim) of a constant condition sees no key.
bool hasEmptyRows(const rt::Tensor &c) {
  int64_t row = c.shape().empty() ? 1 : c.shape().back();
  const uint8_t *v = c.as<uint8_t>();
  for (int64_t i = 0; i < c.numElements(); i += row) {
    bool visible = false;
    for (int64_t j = 0; j < row && !visible; ++j)
      visible = v[i + j] != 0;
    if (!visible)
      return true;
  }
  return row == 0;
}

} // namespace

std::shared_ptr<rt::Tensor> MaskAnalysis::evaluate(Value root) {
  if (auto it = evaluated.find(root); it != evaluated.end())
    return it->second;
  llvm::DenseMap<Value, std::shared_ptr<rt::Tensor>> local;
  SmallVector<std::pair<Value, bool>> stack = {{root, false}};
  std::shared_ptr<rt::Tensor> result;
  while (!stack.empty()) {
    auto [v, operandsDone] = stack.pop_back_val();
    if (local.count(v))
      continue;
    if (auto it = evaluated.find(v); it != evaluated.end()) {
      local[v] = it->second;
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (!op || !isa<GraphDialect>(op->getDialect()) ||
        isa<WeightOp, StateOp>(op) || op->getNumRegions()) {
      evaluated[root] = nullptr;
      return nullptr;
    }
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense || dense.getNumElements() > kMaxMaskElements) {
        evaluated[root] = nullptr;
        return nullptr;
      }
      FailureOr<rt::Tensor> t = tensorFromAttr(dense);
      if (failed(t)) {
        evaluated[root] = nullptr;
        return nullptr;
      }
      local[v] = std::make_shared<rt::Tensor>(std::move(*t));
      continue;
    }
    if (!operandsDone) {
      stack.push_back({v, true});
      for (Value operand : op->getOperands())
        if (!local.count(operand))
          stack.push_back({operand, false});
      continue;
    }
    SmallVector<const rt::Tensor *> operands;
    for (Value operand : op->getOperands())
      operands.push_back(local[operand].get());
    FailureOr<std::vector<rt::Tensor>> results =
        evaluateOnTensors(op, operands, kMaxMaskElements);
    if (failed(results)) {
      evaluated[root] = nullptr;
      return nullptr;
    }
    for (auto [r, t] : llvm::zip(op->getResults(), *results))
      local[r] = std::make_shared<rt::Tensor>(std::move(t));
  }
  result = local[root];
  evaluated[root] = result;
  return result;
}

std::optional<MaskCondition>
MaskAnalysis::analyze(Value condition, ArrayRef<int64_t> scoreShape) {
  if (auto it = conditions.find(condition);
      it != conditions.end() && ArrayRef(it->second.scoreShape) == scoreShape)
    return it->second.condition;
  Analysed &entry = conditions[condition];
  entry.scoreShape.assign(scoreShape.begin(), scoreShape.end());
  std::optional<MaskCondition> &result = entry.condition;
  // The conjunction's factors: constants (evaluated), or a padding mask.
  std::shared_ptr<rt::Tensor> constant;
  std::optional<IndexedArgument> padding;
  SmallVector<Value> pending = {condition};
  while (!pending.empty()) {
    Value factor = pending.pop_back_val();
    if (std::shared_ptr<rt::Tensor> t = evaluate(factor)) {
      constant = constant ? andTensors(*constant, *t) : t;
      if (!constant)
        return result = std::nullopt;
      continue;
    }
    if (auto conj = factor.getDefiningOp<AndOp>()) {
      pending.push_back(conj.getLhs());
      pending.push_back(conj.getRhs());
      continue;
    }
    std::optional<IndexedArgument> p = indexedArgument(factor, *this);
    if (!p || padding || !readsKeysOfBatch(*p->source, scoreShape))
      return result = std::nullopt;
    padding = p;
  }
  MaskCondition m;
  if (constant)
    m = classify(*constant, scoreShape, condition.getContext());
  if (padding)
    m.paddingSource = padding->argument;
  return result = m;
}

MaskCondition MaskAnalysis::classify(const rt::Tensor &condition,
                                     ArrayRef<int64_t> scoreShape,
                                     MLIRContext *context) {
  MaskCondition m;
  const uint8_t *v = condition.as<uint8_t>();
  bool allVisible = true;
  for (int64_t i = 0; i < condition.numElements() && allVisible; ++i)
    allVisible = v[i] != 0;
  if (allVisible)
    return m;
  m.hasConstant = true;
  m.isBand = classifyBand(condition, scoreShape, m);
  m.constantHasEmptyRows = hasEmptyRows(condition);
  if (condition.numElements() <= kMaxConstantCondition)
    m.constant = boolAttr(context, condition);
  return m;
}
