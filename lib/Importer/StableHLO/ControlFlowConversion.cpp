//===- ControlFlowConversion.cpp - Loops, branches, dynamic slices --------===//
//
// JAX writes loops over layers (`jax.lax.scan`, `fori_loop`) as a
// stablehlo.while whose counter starts at a constant, grows by a constant
// and is compared with a constant; the body reads layer i of stacked
// parameters by stablehlo.dynamic_slice at the counter, and a scan's
// stacked outputs are written by stablehlo.dynamic_update_slice. paracc's
// graph has no loops: the loop is unrolled here. The rank-0 integers and
// booleans that decide it (the counter, the condition, the slice starts)
// are folded while they are converted, so every iteration's condition and
// slice positions are known constants; a loop whose condition is not known
// is refused with its location.
//
// Branches (`jax.lax.cond` and `switch` write stablehlo.case, other
// front ends stablehlo.if): with an index known at compile time only the
// branch taken is converted; otherwise every branch is (StableHLO's regions
// have no side effects) and each result is selected by the index with
// graph.where, an out-of-range index taking the last branch as StableHLO
// defines. As with jnp.where, a gradient reaches only the branch selected,
// but an untaken branch's non-finite local derivative (log at 0) can still
// turn its zero gradient into NaN.
//
//===----------------------------------------------------------------------===//

#include "Converter.h"

#include <algorithm>
#include <functional>

using namespace mlir;
using namespace mlir::paracc::stablehlo;

namespace {

/// More iterations than any layer loop has: a loop that runs longer is
/// refused rather than unrolled into a graph nobody wants.
constexpr int64_t kMaxUnrolledIterations = 4096;

/// `#stablehlo<comparison_direction LT>`'s direction.
StringRef comparisonDirection(Attribute attr) {
  auto o = dyn_cast_or_null<OpaqueAttr>(attr);
  if (!o)
    return "";
  return o.getAttrData().split(' ').second.trim();
}

} // namespace

Value Converter::knownConstant(Location loc, Type elementType, int64_t value) {
  auto type = RankedTensorType::get({}, elementType);
  unsigned width = elementType.getIntOrFloatBitWidth();
  APInt bits(width, width == 1 ? uint64_t(value != 0) : uint64_t(value),
             /*isSigned=*/width != 1, /*implicitTrunc=*/true);
  Value c = build(loc, "graph.constant", type, {},
                  {named("value", DenseElementsAttr::get(type, bits))});
  knownScalars[c] = width == 1 ? int64_t(value != 0) : bits.getSExtValue();
  return c;
}

bool Converter::foldScalar(Operation *op, IRMapping &map) {
  if (op->getNumResults() != 1 || op->getNumOperands() == 0)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() != 0 || !isa<IntegerType>(type.getElementType()))
    return false;
  SmallVector<int64_t> v;
  for (Value operand : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(operand.getType());
    std::optional<int64_t> k = known(map.lookup(operand));
    if (!t || !isa<IntegerType>(t.getElementType()) || !k)
      return false;
    v.push_back(*k);
  }
  StringRef name = op->getName().getStringRef();
  std::optional<int64_t> result;
  if (v.size() == 2) {
    int64_t a = v[0], b = v[1];
    if (name == "stablehlo.add")
      result = a + b;
    else if (name == "stablehlo.subtract")
      result = a - b;
    else if (name == "stablehlo.multiply")
      result = a * b;
    else if (name == "stablehlo.maximum")
      result = std::max(a, b);
    else if (name == "stablehlo.minimum")
      result = std::min(a, b);
    else if (name == "stablehlo.and")
      result = a & b;
    else if (name == "stablehlo.or")
      result = a | b;
    else if (name == "stablehlo.remainder" && b != 0)
      result = a % b; // (C's: the sign of the dividend)
    else if (name == "stablehlo.compare") {
      StringRef d = comparisonDirection(opAttr(op, "comparison_direction"));
      if (d == "EQ")
        result = a == b;
      else if (d == "NE")
        result = a != b;
      else if (d == "LT")
        result = a < b;
      else if (d == "LE")
        result = a <= b;
      else if (d == "GT")
        result = a > b;
      else if (d == "GE")
        result = a >= b;
    }
  } else if (v.size() == 1) {
    if (name == "stablehlo.convert")
      result = v[0];
    else if (name == "stablehlo.negate")
      result = -v[0];
    else if (name == "stablehlo.not")
      result = type.getElementType().isInteger(1) ? int64_t(!v[0]) : ~v[0];
  } else if (v.size() == 3 && name == "stablehlo.select") {
    result = v[0] ? v[1] : v[2];
  } else if (v.size() == 3 && name == "stablehlo.clamp") {
    result = std::min(std::max(v[1], v[0]), v[2]);
  }
  if (!result)
    return false;
  map.map(op->getResult(0),
          knownConstant(op->getLoc(), type.getElementType(), *result));
  return true;
}

void Converter::eraseUnusedAfter(Block *block, Operation *last) {
  while (!block->empty() && &block->back() != last) {
    Operation *op = &block->back();
    if (!op->use_empty())
      return;
    for (Value r : op->getResults())
      knownScalars.erase(r);
    op->erase();
  }
}

LogicalResult Converter::convertWhile(Operation *op, IRMapping &map,
                                      int depth) {
  if (op->getNumRegions() != 2 || op->getRegion(0).empty() ||
      op->getRegion(1).empty())
    return op->emitError() << "stablehlo.while without its cond and body";
  SmallVector<Value> carried;
  for (Value v : op->getOperands())
    carried.push_back(map.lookup(v));
  Block *out = builder.getInsertionBlock();
  for (int64_t iteration = 0;; ++iteration) {
    Operation *last = out->empty() ? nullptr : &out->back();
    auto cond = convertBlock(op->getRegion(0).front(), carried, depth, &map);
    if (failed(cond))
      return failure();
    std::optional<int64_t> go =
        cond->size() == 1 ? known(cond->front()) : std::nullopt;
    // The condition's ops are dead once it is known.
    eraseUnusedAfter(out, last);
    if (!go)
      return unsupported(
          op, "stablehlo.while whose condition is not known at compile time: "
              "paracc unrolls loops with a static trip count (jax.lax.scan, "
              "fori_loop with constant bounds)");
    if (!*go)
      break;
    if (iteration == kMaxUnrolledIterations)
      return unsupported(op, "stablehlo.while runs more than " +
                                 Twine(kMaxUnrolledIterations) +
                                 " iterations; paracc unrolls loops and "
                                 "refuses longer ones");
    auto body = convertBlock(op->getRegion(1).front(), carried, depth, &map);
    if (failed(body))
      return failure();
    if (body->size() != carried.size())
      return op->emitError()
             << "stablehlo.while's body returns " << body->size()
             << " values for " << carried.size() << " carried";
    carried = std::move(*body);
  }
  for (auto [result, value] : llvm::zip(op->getResults(), carried))
    map.map(result, value);
  return success();
}

LogicalResult Converter::convertBranches(Operation *op, IRMapping &map,
                                         int depth) {
  StringRef name = op->getName().getStringRef();
  const bool isIf = name == "stablehlo.if";
  const unsigned n = op->getNumRegions();
  if (op->getNumOperands() != 1 || n == 0 || (isIf && n != 2) ||
      llvm::any_of(op->getRegions(), [](Region &r) { return r.empty(); }))
    return op->emitError() << name << " needs one operand and "
                           << (isIf ? "two branches" : "its branches");
  Value index = map.lookup(op->getOperand(0));
  // stablehlo.if's predicate picks region 0 when true: as an index, 0 for
  // true and 1 for false.
  auto branchOf = [&](int64_t k) -> unsigned {
    if (isIf)
      return k ? 0 : 1;
    return k < 0 || k >= int64_t(n) ? n - 1 : unsigned(k);
  };
  // A branch's results, one per the op's.
  auto convertBranch = [&](Region &region) -> FailureOr<SmallVector<Value>> {
    auto results = convertBlock(region.front(), {}, depth, &map);
    if (failed(results))
      return failure();
    if (results->size() != op->getNumResults())
      return op->emitError()
             << name << "'s branch returns " << results->size()
             << " values for " << op->getNumResults() << " results";
    return results;
  };
  if (std::optional<int64_t> k = known(index)) {
    auto results = convertBranch(op->getRegion(branchOf(*k)));
    if (failed(results))
      return failure();
    for (auto [result, value] : llvm::zip(op->getResults(), *results))
      map.map(result, value);
    return success();
  }
  SmallVector<SmallVector<Value>> branches;
  for (Region &region : op->getRegions()) {
    auto results = convertBranch(region);
    if (failed(results))
      return failure();
    branches.push_back(std::move(*results));
  }
  Location loc = op->getLoc();
  auto indexType = tensorType(index);
  auto boolType = RankedTensorType::get({}, builder.getI1Type());
  for (unsigned r = 0; r < op->getNumResults(); ++r) {
    Type type = op->getResult(r).getType();
    Value selected;
    if (isIf) {
      selected = build(loc, "graph.where", type,
                       {index, branches[0][r], branches[1][r]});
    } else {
      // The last branch unless the index names an earlier one.
      selected = branches[n - 1][r];
      for (int k = int(n) - 2; k >= 0; --k) {
        Value isK =
            build(loc, "graph.equal", boolType,
                  {index, knownConstant(loc, indexType.getElementType(), k)});
        selected =
            build(loc, "graph.where", type, {isK, branches[k][r], selected});
      }
    }
    map.map(op->getResult(r), selected);
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
Converter::knownStarts(Operation *op, IRMapping &map, unsigned first,
                       ArrayRef<int64_t> dims, ArrayRef<int64_t> sizes) {
  if (op->getNumOperands() != first + dims.size())
    return unsupported(op, op->getName().getStringRef() + " with " +
                               Twine(dims.size()) + " start indices expected");
  SmallVector<int64_t> starts;
  for (auto [i, operand] :
       llvm::enumerate(op->getOperands().drop_front(first))) {
    std::optional<int64_t> s = known(map.lookup(operand));
    if (!s)
      return unsupported(
          op, op->getName().getStringRef() + " whose start index " + Twine(i) +
                  " is not known at compile time (paracc reads dynamic "
                  "slices at constants and at the counters of unrolled "
                  "loops)");
    starts.push_back(std::clamp<int64_t>(*s, 0, dims[i] - sizes[i]));
  }
  return starts;
}

LogicalResult Converter::convertDynamicSlice(Operation *op, IRMapping &map) {
  Value x = map.lookup(op->getOperand(0));
  auto type = tensorType(x);
  auto sizes = i64Array(op, "slice_sizes");
  if (!sizes || int64_t(sizes->size()) != type.getRank())
    return op->emitError() << "stablehlo.dynamic_slice without slice_sizes "
                              "for each dim";
  auto starts = knownStarts(op, map, 1, type.getShape(), *sizes);
  if (failed(starts))
    return failure();
  SmallVector<int64_t> limits, steps(type.getRank(), 1);
  for (auto [s, n] : llvm::zip(*starts, *sizes))
    limits.push_back(s + n);
  map.map(op->getResult(0),
          build(op->getLoc(), "graph.slice", op->getResult(0).getType(), x,
                {named("starts", builder.getDenseI64ArrayAttr(*starts)),
                 named("limits", builder.getDenseI64ArrayAttr(limits)),
                 named("steps", builder.getDenseI64ArrayAttr(steps))}));
  return success();
}

LogicalResult Converter::convertDynamicUpdateSlice(Operation *op,
                                                   IRMapping &map) {
  Location loc = op->getLoc();
  Value x = map.lookup(op->getOperand(0));
  Value update = map.lookup(op->getOperand(1));
  auto type = tensorType(x);
  ArrayRef<int64_t> sizes = tensorType(update).getShape();
  auto starts = knownStarts(op, map, 2, type.getShape(), sizes);
  if (failed(starts))
    return failure();
  // Dim by dim: x's part before the window, the window (updated in the
  // later dims), x's part after it, concatenated.
  std::function<Value(Value, int64_t)> place = [&](Value part,
                                                   int64_t dim) -> Value {
    auto t = tensorType(part);
    int64_t begin = (*starts)[dim], end = begin + sizes[dim],
            extent = t.getDimSize(dim);
    auto sliceOf = [&](int64_t from, int64_t to) {
      SmallVector<int64_t> lo(t.getRank(), 0), hi(t.getShape()),
          steps(t.getRank(), 1), shape(t.getShape());
      lo[dim] = from;
      hi[dim] = to;
      shape[dim] = to - from;
      return build(loc, "graph.slice",
                   RankedTensorType::get(shape, t.getElementType()), part,
                   {named("starts", builder.getDenseI64ArrayAttr(lo)),
                    named("limits", builder.getDenseI64ArrayAttr(hi)),
                    named("steps", builder.getDenseI64ArrayAttr(steps))});
    };
    // The window's old values are read only where later dims keep some.
    Value window =
        dim + 1 == type.getRank()
            ? update
            : place(begin == 0 && end == extent ? part : sliceOf(begin, end),
                    dim + 1);
    SmallVector<Value> pieces;
    if (begin > 0)
      pieces.push_back(sliceOf(0, begin));
    pieces.push_back(window);
    if (end < extent)
      pieces.push_back(sliceOf(end, extent));
    if (pieces.size() == 1)
      return window;
    return build(loc, "graph.concat", t, pieces,
                 {named("axis", builder.getI64IntegerAttr(dim))});
  };
  map.map(op->getResult(0), place(x, 0));
  return success();
}
