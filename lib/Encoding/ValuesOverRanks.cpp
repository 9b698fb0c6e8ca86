//===- ValuesOverRanks.cpp - A scalar's value on every rank -----*- C++ -*-===//

#include "ValuesOverRanks.h"

#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

namespace {

/// At most this many coordinate combinations are tried.
constexpr int64_t kMaxCombinations = 1 << 16;

/// The integer elements of a constant, or nullopt.
std::optional<SmallVector<int64_t>> constantInts(Value v) {
  auto constant = v.getDefiningOp<g::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !isa<IntegerType>(dense.getElementType()))
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const APInt &x : dense.getValues<APInt>())
    out.push_back(x.getSExtValue());
  return out;
}

/// Collects the axis_index ops `v` depends on; false when it depends on
/// anything the evaluator does not know.
bool collectAxisIndices(Value v, llvm::SetVector<Operation *> &indices) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<g::ConstantOp>(op))
    return bool(constantInts(v));
  if (auto index = dyn_cast<dist::AxisIndexOp>(op)) {
    indices.insert(index);
    return true;
  }
  if (isa<g::NegOp>(op))
    return collectAxisIndices(op->getOperand(0), indices);
  if (isa<g::AddOp, g::SubOp, g::MulOp>(op))
    return collectAxisIndices(op->getOperand(0), indices) &&
           collectAxisIndices(op->getOperand(1), indices);
  if (auto gather = dyn_cast<g::GatherOp>(op))
    return gather.getAxis() == 0 && constantInts(gather.getData()) &&
           collectAxisIndices(gather.getIndices(), indices);
  return false;
}

/// `v`'s value when each axis_index op has the value `at` gives it.
std::optional<int64_t>
evaluate(Value v, const llvm::DenseMap<Operation *, int64_t> &at) {
  Operation *op = v.getDefiningOp();
  if (auto it = at.find(op); it != at.end())
    return it->second;
  if (std::optional<SmallVector<int64_t>> c = constantInts(v))
    return c->size() == 1 ? std::optional<int64_t>((*c)[0]) : std::nullopt;
  if (auto gather = dyn_cast<g::GatherOp>(op)) {
    std::optional<SmallVector<int64_t>> table = constantInts(gather.getData());
    std::optional<int64_t> i = evaluate(gather.getIndices(), at);
    if (!table || !i)
      return std::nullopt;
    const int64_t n = table->size();
    const int64_t k = *i < 0 ? *i + n : *i;
    return k >= 0 && k < n ? std::optional<int64_t>((*table)[k]) : std::nullopt;
  }
  if (isa<g::NegOp>(op)) {
    std::optional<int64_t> a = evaluate(op->getOperand(0), at);
    return a ? std::optional<int64_t>(-*a) : std::nullopt;
  }
  std::optional<int64_t> a = evaluate(op->getOperand(0), at),
                         b = evaluate(op->getOperand(1), at);
  if (!a || !b)
    return std::nullopt;
  return TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](g::AddOp) { return *a + *b; })
      .Case([&](g::SubOp) { return *a - *b; })
      .Case([&](g::MulOp) { return *a * *b; })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

std::optional<SmallVector<int64_t>>
mlir::paracc::valuesOverRanks(Value scalar) {
  auto type = dyn_cast<RankedTensorType>(scalar.getType());
  if (!type || type.getRank() != 0 || !isa<IntegerType>(type.getElementType()))
    return std::nullopt;
  llvm::SetVector<Operation *> indices;
  if (!collectAxisIndices(scalar, indices))
    return std::nullopt;
  // Each axis_index's range: the product of its axes' sizes.
  SmallVector<int64_t> sizes;
  int64_t combinations = 1;
  for (Operation *op : indices) {
    dist::MeshAttr mesh = dist::getMesh(op);
    if (!mesh)
      return std::nullopt;
    int64_t size = 1;
    for (Attribute axis : cast<dist::AxisIndexOp>(op).getAxes())
      size *= mesh.getAxisSize(cast<StringAttr>(axis).getValue());
    sizes.push_back(size);
    combinations *= size;
    if (size <= 0 || combinations > kMaxCombinations)
      return std::nullopt;
  }
  SmallVector<int64_t> values;
  llvm::DenseMap<Operation *, int64_t> at;
  for (int64_t c = 0; c < combinations; ++c) {
    int64_t rest = c;
    for (auto [op, size] : llvm::zip(indices, sizes)) {
      at[op] = rest % size;
      rest /= size;
    }
    std::optional<int64_t> v = evaluate(scalar, at);
    if (!v)
      return std::nullopt;
    values.push_back(*v);
  }
  return values;
}
