//===- StableHLOToGraph.cpp - StableHLO ops to the graph dialect -*- C++ -*-===//

#include "StableHLOToGraph.h"

#include "Converter.h"

#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::stablehlo;

namespace {

/// The runtime's element type of a float parameter.
std::optional<::paracc::rt::DType> floatDType(Type element) {
  if (element.isF32())
    return ::paracc::rt::DType::F32;
  if (element.isF16())
    return ::paracc::rt::DType::F16;
  if (element.isBF16())
    return ::paracc::rt::DType::BF16;
  if (element.isF64())
    return ::paracc::rt::DType::F64;
  return std::nullopt;
}

/// Shardy's `sharding<@mesh, [{"dp"}, {}, {?}]>` as a #dist.sharding with
/// the same axis names ("?": open), or null when it says more than that.
dist::ShardingAttr shardyToSharding(StringRef text, MLIRContext *ctx) {
  size_t open = text.find('[');
  size_t close = text.rfind(']');
  if (open == StringRef::npos || close == StringRef::npos || close < open)
    return nullptr;
  StringRef list = text.slice(open + 1, close);
  SmallVector<SmallVector<StringAttr>> dims;
  while (!(list = list.ltrim(" ,")).empty()) {
    if (!list.consume_front("{"))
      return nullptr;
    size_t end = list.find('}');
    if (end == StringRef::npos)
      return nullptr;
    SmallVector<StringAttr> axes;
    SmallVector<StringRef> names;
    list.take_front(end).split(names, ',', -1, false);
    for (StringRef n : names) {
      n = n.trim();
      if (n == "?") {
        axes = {StringAttr::get(ctx, "?")};
        break;
      }
      if (!n.consume_front("\"") || !n.consume_back("\"") || n.empty())
        return nullptr; // sub-axes and other forms
      axes.push_back(StringAttr::get(ctx, n));
    }
    dims.push_back(axes);
    list = list.drop_front(end + 1);
  }
  return dist::ShardingAttr::get(ctx, dims);
}

/// Elementwise ops that map one to one.
StringRef elementwiseGraphOp(StringRef name, Type element) {
  return llvm::StringSwitch<StringRef>(name)
      .Case("stablehlo.add", "graph.add")
      .Case("stablehlo.subtract", "graph.sub")
      .Case("stablehlo.multiply", "graph.mul")
      .Case("stablehlo.divide", "graph.div")
      .Case("stablehlo.maximum", "graph.max")
      .Case("stablehlo.minimum", "graph.min")
      .Case("stablehlo.power", "graph.pow")
      .Case("stablehlo.and", "graph.and")
      .Case("stablehlo.or", "graph.or")
      .Case("stablehlo.xor", "graph.xor")
      .Case("stablehlo.negate", "graph.neg")
      .Case("stablehlo.abs", "graph.abs")
      .Case("stablehlo.sign", "graph.sign")
      .Case("stablehlo.sqrt", "graph.sqrt")
      .Case("stablehlo.rsqrt", "graph.rsqrt")
      .Case("stablehlo.exponential", "graph.exp")
      .Case("stablehlo.log", "graph.log")
      .Case("stablehlo.tanh", "graph.tanh")
      .Case("stablehlo.logistic", "graph.sigmoid")
      .Case("stablehlo.floor", "graph.floor")
      .Case("stablehlo.ceil", "graph.ceil")
      .Case("stablehlo.round_nearest_even", "graph.round")
      .Case("stablehlo.not", "graph.not")
      .Case("stablehlo.sine", "graph.sin")
      .Case("stablehlo.cosine", "graph.cos")
      .Case("stablehlo.tan", "graph.tan")
      .Case("chlo.tan", "graph.tan")
      .Case("chlo.erf", "graph.erf")
      .Case("chlo.sinh", "graph.sinh")
      .Case("chlo.cosh", "graph.cosh")
      .Case("chlo.asin", "graph.asin")
      .Case("chlo.acos", "graph.acos")
      .Case("chlo.atan", "graph.atan")
      .Case("stablehlo.select", "graph.where")
      .Case("stablehlo.convert", "graph.cast")
      .Case("stablehlo.reshape", "graph.reshape")
      .Default("");
}

} // namespace

LogicalResult Converter::convertOp(Operation *op, IRMapping &map) {
  StringRef name = op->getName().getStringRef();
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(map.lookup(v));
  if (name == "chlo.top_k")
    return convertTopK(op, map);
  if (name == "sdy.sharding_constraint")
    return convertShardingConstraint(op, map);
  if (name == "stablehlo.reduce" && op->getNumResults() == 2)
    return convertReduce(op, map);
  if (op->getNumResults() != 1)
    return unsupported(op, "unsupported op '" + name + "' with " +
                               Twine(op->getNumResults()) +
                               " results (paracc reads single-result "
                               "StableHLO ops)");
  Type resultType = op->getResult(0).getType();
  auto result = dyn_cast<RankedTensorType>(resultType);
  if (!result || !result.hasStaticShape()) {
    isUnsupported = true;
    return op->emitError() << "op '" << name << "' has a result of type "
                           << resultType
                           << "; paracc reads static shapes only";
  }
  if (StringRef graphOp = elementwiseGraphOp(name, result.getElementType());
      !graphOp.empty()) {
    map.map(op->getResult(0), build(loc, graphOp, resultType, operands));
    return success();
  }
  if (name == "stablehlo.remainder") {
    // The sign of the dividend, for integers as for floats (C's % and
    // fmod); jnp's % corrects it to the divisor's sign itself.
    map.map(op->getResult(0),
            build(loc, "graph.mod", resultType, operands,
                  {named("fmod", builder.getBoolAttr(true))}));
    return success();
  }
  if (name == "chlo.erfc") {
    // 1 - erf(x): for large x erfc's tiny values round to 0 (JAX's exact
    // GELU multiplies them by x / 2, so the absolute error stays tiny).
    Value one = scalarConstant(loc, result.getElementType(), 1.0);
    map.map(op->getResult(0),
            build(loc, "graph.sub", resultType,
                  {one, build(loc, "graph.erf", resultType, operands[0])}));
    return success();
  }
  if (name == "stablehlo.convolution")
    return convertConvolution(op, map);
  if (name == "stablehlo.dynamic_slice")
    return convertDynamicSlice(op, map);
  if (name == "stablehlo.dynamic_update_slice")
    return convertDynamicUpdateSlice(op, map);
  if (name == "chlo.square") {
    map.map(op->getResult(0),
            build(loc, "graph.mul", resultType, {operands[0], operands[0]}));
    return success();
  }
  if (name == "stablehlo.exponential_minus_one" ||
      name == "stablehlo.log_plus_one") {
    Value one = scalarConstant(loc, result.getElementType(), 1.0);
    Value y =
        name == "stablehlo.log_plus_one"
            ? build(loc, "graph.log", resultType,
                    build(loc, "graph.add", resultType, {operands[0], one}))
            : build(loc, "graph.sub", resultType,
                    {build(loc, "graph.exp", resultType, operands[0]), one});
    map.map(op->getResult(0), y);
    return success();
  }
  if (name == "stablehlo.clamp") {
    // clamp(lo, x, hi) = min(max(x, lo), hi); lo and hi may be scalars.
    Value low = build(loc, "graph.max", resultType, {operands[1], operands[0]});
    map.map(op->getResult(0),
            build(loc, "graph.min", resultType, {low, operands[2]}));
    return success();
  }
  if (name == "stablehlo.constant")
    return convertConstant(op, map);
  if (name == "stablehlo.broadcast_in_dim")
    return convertBroadcast(op, map);
  if (name == "stablehlo.dot_general")
    return convertDotGeneral(op, map);
  if (name == "stablehlo.reduce")
    return convertReduce(op, map);
  if (name == "stablehlo.gather")
    return convertGather(op, map);
  if (name == "stablehlo.scatter")
    return convertScatter(op, map);
  if (name == "stablehlo.pad")
    return convertPad(op, map);
  if (name == "stablehlo.iota")
    return convertIota(op, map);
  if (name == "stablehlo.compare")
    return convertCompare(op, map);
  if (name == "stablehlo.transpose") {
    auto perm = i64Array(op, "permutation");
    if (!perm)
      return op->emitError() << "stablehlo.transpose without a permutation";
    map.map(op->getResult(0), transpose(loc, operands[0], *perm));
    return success();
  }
  if (name == "stablehlo.slice") {
    auto starts = i64Array(op, "start_indices");
    auto limits = i64Array(op, "limit_indices");
    auto strides = i64Array(op, "strides");
    if (!starts || !limits || !strides)
      return op->emitError() << "stablehlo.slice without its indices";
    map.map(op->getResult(0),
            build(loc, "graph.slice", resultType, operands,
                  {named("starts", builder.getDenseI64ArrayAttr(*starts)),
                   named("limits", builder.getDenseI64ArrayAttr(*limits)),
                   named("steps", builder.getDenseI64ArrayAttr(*strides))}));
    return success();
  }
  if (name == "stablehlo.concatenate") {
    auto dim = dyn_cast_or_null<IntegerAttr>(opAttr(op, "dimension"));
    if (!dim)
      return op->emitError() << "stablehlo.concatenate without a dimension";
    map.map(op->getResult(0),
            build(loc, "graph.concat", resultType, operands,
                  {named("axis", builder.getI64IntegerAttr(dim.getInt()))}));
    return success();
  }
  return unsupported(op, "unsupported op '" + name + "'");
}

LogicalResult Converter::convertConstant(Operation *op, IRMapping &map) {
  auto value = dyn_cast_or_null<DenseElementsAttr>(opAttr(op, "value"));
  if (!value)
    return unsupported(op, "stablehlo.constant whose value is not a dense "
                           "literal (elided or a resource)");
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  // Closed-over parameters: float matrices, vectors and tables.
  std::optional<::paracc::rt::DType> dtype = floatDType(element);
  bool isWeight =
      dtype && type.getRank() >= 1 && type.getRank() <= 2 &&
      type.getNumElements() >= 2;
  if (!isWeight) {
    Value c = build(op->getLoc(), "graph.constant", type, {},
                    {named("value", value)});
    // Rank-0 integers and booleans are known: loop counters and slice
    // starts fold from them.
    if (auto integer = dyn_cast<IntegerType>(element);
        integer && type.getRank() == 0) {
      APInt v = value.getSplatValue<APInt>();
      knownScalars[c] = integer.getWidth() == 1 ? int64_t(v.getZExtValue())
                                                : v.getSExtValue();
    }
    map.map(op->getResult(0), c);
    return success();
  }
  std::string name = "const_" + std::to_string(constants++);
  if (auto given = dyn_cast_or_null<StringAttr>(op->getAttr("paracc.name")))
    name = given.getValue().str();
  WeightEntry entry;
  entry.dtype = *dtype;
  entry.shape.assign(type.getShape().begin(), type.getShape().end());
  size_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  entry.size = size_t(type.getNumElements()) * elementBytes;
  ArrayRef<char> raw = value.getRawData();
  if (value.isSplat()) {
    entry.owned.resize(entry.size);
    for (size_t i = 0; i < entry.size; i += elementBytes)
      std::memcpy(entry.owned.data() + i, raw.data(), elementBytes);
  } else {
    entry.owned.assign(raw.begin(), raw.end());
  }
  weights.add(name, std::move(entry));
  map.map(op->getResult(0),
          build(op->getLoc(), "graph.weight", type, {},
                {named("name", builder.getStringAttr(name))}));
  return success();
}

/// broadcast_in_dim: operand dim i goes to result dim dims[i]: a transpose
/// when dims are not increasing, a reshape inserting the new dims as 1,
/// then an expand to the result's sizes.
LogicalResult Converter::convertBroadcast(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  Value x = map.lookup(op->getOperand(0));
  auto dims = i64Array(op, "broadcast_dimensions");
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!dims)
    return op->emitError() << "stablehlo.broadcast_in_dim without dimensions";
  SmallVector<int64_t> order(dims->size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) { return (*dims)[a] < (*dims)[b]; });
  x = transpose(loc, x, order);
  auto xt = tensorType(x);
  SmallVector<int64_t> shape(result.getRank(), 1);
  for (auto [i, o] : llvm::enumerate(order))
    shape[(*dims)[o]] = xt.getDimSize(i);
  x = reshape(loc, x, shape);
  map.map(op->getResult(0), expand(loc, x, result.getShape()));
  return success();
}

/// dot_general: lhs to (batch, free, contracting), rhs to (batch,
/// contracting, free), each flattened to a matrix per batch when it has
/// several free or contracting dims, one graph.matmul, then the result's
/// (batch, lhs free, rhs free) shape. Without batch dims the lhs keeps its
/// free dims (x[B, S, H] @ w[H, N]), which tensor parallelism recognizes.
LogicalResult Converter::convertDotGeneral(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  Value lhs = map.lookup(op->getOperand(0));
  Value rhs = map.lookup(op->getOperand(1));
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  std::string text = opaqueText(opAttr(op, "dot_dimension_numbers"));
  SmallVector<int64_t> lb = listField(text, "lhs_batching_dimensions"),
                       rb = listField(text, "rhs_batching_dimensions"),
                       lc = listField(text, "lhs_contracting_dimensions"),
                       rc = listField(text, "rhs_contracting_dimensions");
  auto lt = tensorType(lhs), rt = tensorType(rhs);
  auto freeDims = [](int64_t rank, ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    SmallVector<int64_t> free;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
        free.push_back(d);
    return free;
  };
  SmallVector<int64_t> lf = freeDims(lt.getRank(), lb, lc),
                       rf = freeDims(rt.getRank(), rb, rc);
  auto product = [](RankedTensorType t, ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= t.getDimSize(d);
    return n;
  };
  // lhs: (batch, free, contracting); rhs: (batch, contracting, free).
  SmallVector<int64_t> lperm(lb), rperm(rb);
  lperm.append(lf);
  lperm.append(lc);
  rperm.append(rc);
  rperm.append(rf);
  lhs = transpose(loc, lhs, lperm);
  rhs = transpose(loc, rhs, rperm);
  SmallVector<int64_t> batch;
  for (int64_t d : lb)
    batch.push_back(lt.getDimSize(d));
  int64_t k = product(lt, lc), n = product(rt, rf);
  // The lhs keeps its free dims unless there are batch dims (then one M).
  SmallVector<int64_t> lshape(batch);
  if (lb.empty()) {
    for (int64_t d : lf)
      lshape.push_back(lt.getDimSize(d));
  } else {
    lshape.push_back(product(lt, lf));
  }
  lshape.push_back(k);
  SmallVector<int64_t> rshape(batch);
  rshape.push_back(k);
  rshape.push_back(n);
  lhs = reshape(loc, lhs, lshape);
  rhs = reshape(loc, rhs, rshape);
  SmallVector<int64_t> out(lshape.begin(), lshape.end() - 1);
  out.push_back(n);
  Value y = build(loc, "graph.matmul",
                  RankedTensorType::get(out, result.getElementType()),
                  {lhs, rhs});
  map.map(op->getResult(0), reshape(loc, y, result.getShape()));
  return success();
}

/// reduce with a one-op body: the matching graph reduction over the
/// dimensions, combined with the init value unless it is the op's identity.
/// sdy.sharding_constraint (jax.lax.with_sharding_constraint): the value
/// itself, its sharding kept as a user sharding on the op that computes it
/// (or on the argument it is), which paracc-user-shardings follows like an
/// argument's.
LogicalResult Converter::convertShardingConstraint(Operation *op,
                                                   IRMapping &map) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return op->emitError() << "sdy.sharding_constraint with one operand";
  Value v = map.lookup(op->getOperand(0));
  map.map(op->getResult(0), v);
  // The pretty form's text, or the generic form's `sharding` attribute.
  std::string text;
  if (auto kept = dyn_cast_or_null<StringAttr>(op->getAttr("paracc.text")))
    text = kept.getValue().str();
  else if (Attribute sharding = opAttr(op, "sharding"))
    text = opaqueText(sharding);
  dist::ShardingAttr user =
      text.empty() ? nullptr : shardyToSharding(text, ctx);
  if (!user) {
    emitWarning(op->getLoc())
        << "this sdy.sharding_constraint is not read: paracc plans the "
           "value's sharding itself";
    return success();
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      fn.setArgAttr(arg.getArgNumber(), dist::kUserShardingAttrName, user);
    return success();
  }
  Operation *producer = v.getDefiningOp();
  if (producer->getNumResults() != 1) {
    emitWarning(op->getLoc())
        << "this sdy.sharding_constraint is not read (its value is one of "
           "several results): paracc plans the value's sharding itself";
    return success();
  }
  producer->setAttr(dist::kUserShardingAttrName, user);
  return success();
}

/// jnp.argmax / jnp.argmin: a reduce of (values, an iota along the reduced
/// dim) from (-inf or +inf, 0) whose body compares the values GT or LT and
/// selects value and index. The values' result is a reduce_max/min, the
/// indices' a graph.argmax/argmin (ties: the first index, as JAX's body
/// picks; NaN is not given JAX's priority).
LogicalResult Converter::convertArgReduce(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  Block &body = op->getRegion(0).front();
  auto dims = i64Array(op, "dimensions");
  auto notArg = [&] {
    return unsupported(op, "stablehlo.reduce of two operands other than "
                           "jnp.argmax/argmin's (values and an iota along "
                           "the one reduced dim, from -inf/+inf and 0)");
  };
  if (!dims || dims->size() != 1 || body.getNumArguments() != 4)
    return notArg();
  const int64_t dim = dims->front();
  Operation *iota = op->getOperand(1).getDefiningOp();
  auto iotaDim =
      iota ? dyn_cast_or_null<IntegerAttr>(opAttr(iota, "iota_dimension"))
           : nullptr;
  if (!iota || iota->getName().getStringRef() != "stablehlo.iota" || !iotaDim ||
      iotaDim.getInt() != dim)
    return notArg();
  std::string direction;
  for (Operation &inner : body)
    if (inner.getName().getStringRef() == "stablehlo.compare" &&
        inner.getOperand(0) == body.getArgument(0) &&
        inner.getOperand(1) == body.getArgument(2)) {
      direction = StringRef(opaqueText(opAttr(&inner, "comparison_direction")))
                      .split(' ')
                      .second.trim()
                      .str();
      break;
    }
  const bool isMax = direction == "GT" || direction == "GE";
  if (!isMax && direction != "LT" && direction != "LE")
    return notArg();
  std::optional<APFloat> from = splatFloat(map.lookup(op->getOperand(2)));
  std::optional<int64_t> firstIndex = known(map.lookup(op->getOperand(3)));
  if (!from || !from->isInfinity() || from->isNegative() != isMax ||
      firstIndex != 0)
    return notArg();
  Value x = map.lookup(op->getOperand(0));
  auto values = cast<RankedTensorType>(op->getResult(0).getType());
  auto indices = cast<RankedTensorType>(op->getResult(1).getType());
  map.map(op->getResult(0),
          build(loc, isMax ? "graph.reduce_max" : "graph.reduce_min", values, x,
                {named("axes", builder.getDenseI64ArrayAttr({dim})),
                 named("keepdims", builder.getBoolAttr(false))}));
  Value arg =
      build(loc, isMax ? "graph.argmax" : "graph.argmin",
            RankedTensorType::get(indices.getShape(), builder.getI64Type()), x,
            {named("axis", builder.getI64IntegerAttr(dim)),
             named("keepdims", builder.getBoolAttr(false))});
  if (indices.getElementType() != builder.getI64Type())
    arg = build(loc, "graph.cast", indices, arg);
  map.map(op->getResult(1), arg);
  return success();
}

LogicalResult Converter::convertReduce(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  if (op->getNumOperands() == 4 && op->getNumResults() == 2 &&
      op->getNumRegions() == 1 && !op->getRegion(0).empty())
    return convertArgReduce(op, map);
  if (op->getNumOperands() != 2 || op->getNumRegions() != 1 ||
      op->getRegion(0).empty())
    return unsupported(op, "stablehlo.reduce of several operands or without "
                           "a body");
  Block &body = op->getRegion(0).front();
  Operation *combiner = &body.front();
  if (body.getOperations().size() != 2 || combiner->getNumOperands() != 2 ||
      combiner->getOperand(0) != body.getArgument(0) ||
      combiner->getOperand(1) != body.getArgument(1))
    return unsupported(op, "stablehlo.reduce whose body is not one binary "
                           "op of its arguments");
  StringRef kind = combiner->getName().getStringRef();
  if (kind == "stablehlo.and" || kind == "stablehlo.or")
    return convertLogicalReduce(op, map, kind == "stablehlo.and");
  StringRef graphOp = llvm::StringSwitch<StringRef>(kind)
                          .Case("stablehlo.add", "graph.reduce_sum")
                          .Case("stablehlo.maximum", "graph.reduce_max")
                          .Case("stablehlo.minimum", "graph.reduce_min")
                          .Case("stablehlo.multiply", "graph.reduce_prod")
                          .Default("");
  if (graphOp.empty())
    return unsupported(op, "stablehlo.reduce applying '" + kind + "'");
  auto dims = i64Array(op, "dimensions");
  if (!dims)
    return op->emitError() << "stablehlo.reduce without dimensions";
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  Value y = build(loc, graphOp, result, map.lookup(op->getOperand(0)),
                  {named("axes", builder.getDenseI64ArrayAttr(*dims)),
                   named("keepdims", builder.getBoolAttr(false))});
  // The init joins the reduction unless it is the identity (JAX's 0, -inf,
  // +inf, 1).
  Value init = map.lookup(op->getOperand(1));
  bool identity = false;
  if (auto c = init.getDefiningOp();
      c && c->getName().getStringRef() == "graph.constant")
    if (auto v = dyn_cast<DenseElementsAttr>(c->getAttr("value"));
        v && v.isSplat() && isa<FloatType>(v.getElementType())) {
      APFloat f = v.getSplatValue<APFloat>();
      identity = (kind == "stablehlo.add" && f.isZero()) ||
                 (kind == "stablehlo.multiply" && f.isExactlyValue(1.0)) ||
                 (kind == "stablehlo.maximum" && f.isInfinity() &&
                  f.isNegative()) ||
                 (kind == "stablehlo.minimum" && f.isInfinity() &&
                  !f.isNegative());
    }
  if (!identity) {
    StringRef binary = llvm::StringSwitch<StringRef>(kind)
                           .Case("stablehlo.add", "graph.add")
                           .Case("stablehlo.maximum", "graph.max")
                           .Case("stablehlo.minimum", "graph.min")
                           .Default("graph.mul");
    y = build(loc, binary, result, {y, init});
  }
  map.map(op->getResult(0), y);
  return success();
}

/// reduce applying `and` or `or` to bools (jnp.all and jnp.any, and the
/// bounds check of JAX's gathers with mode="fill"): the graph dialect
/// reduces numbers, so the bools become 0/1 in i32, reduce_min (and) or
/// reduce_max (or) reduces them over the dimensions and a cast (`!= 0`)
/// makes bools again; the init joins unless it is the identity (true for
/// and, false for or).
LogicalResult Converter::convertLogicalReduce(Operation *op, IRMapping &map,
                                              bool isAnd) {
  Location loc = op->getLoc();
  StringRef kind = isAnd ? "stablehlo.and" : "stablehlo.or";
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!result.getElementType().isInteger(1)) {
    isUnsupported = true;
    return op->emitError() << "stablehlo.reduce applying '" << kind << "' to "
                           << result.getElementType()
                           << " (and/or reductions are read over i1 only)";
  }
  auto dims = i64Array(op, "dimensions");
  if (!dims)
    return op->emitError() << "stablehlo.reduce without dimensions";
  llvm::sort(*dims);
  Value y = map.lookup(op->getOperand(0));
  if (!dims->empty()) {
    Type i32 = builder.getI32Type();
    Value n = build(loc, "graph.cast",
                    RankedTensorType::get(tensorType(y).getShape(), i32), y);
    n = build(loc, isAnd ? "graph.reduce_min" : "graph.reduce_max",
              RankedTensorType::get(result.getShape(), i32), n,
              {named("axes", builder.getDenseI64ArrayAttr(*dims)),
               named("keepdims", builder.getBoolAttr(false))});
    y = build(loc, "graph.cast", result, n);
  }
  Value init = map.lookup(op->getOperand(1));
  bool identity = false;
  if (auto c = init.getDefiningOp();
      c && c->getName().getStringRef() == "graph.constant")
    if (auto v = dyn_cast<DenseElementsAttr>(c->getAttr("value"));
        v && v.isSplat() && v.getElementType().isInteger(1))
      identity = v.getSplatValue<bool>() == isAnd;
  if (!identity)
    y = build(loc, isAnd ? "graph.and" : "graph.or", result, {y, init});
  map.map(op->getResult(0), y);
  return success();
}

/// gather as `table[indices]` along one dim (what `x[ids]` and `jnp.take`
/// lower to): graph.gather on the indices without their index vector dim.
/// Gathers with batching dims go to convertBatchedGather.
LogicalResult Converter::convertGather(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  std::string text = opaqueText(opAttr(op, "dimension_numbers"));
  GatherForm g;
  g.offset = listField(text, "offset_dims");
  g.collapsed = listField(text, "collapsed_slice_dims");
  g.startMap = listField(text, "start_index_map");
  g.batching = listField(text, "operand_batching_dims");
  g.indexBatching = listField(text, "start_indices_batching_dims");
  g.indexVectorDim = intField(text, "index_vector_dim");
  g.sizes = i64Array(op, "slice_sizes");
  g.data = map.lookup(op->getOperand(0));
  g.indices = map.lookup(op->getOperand(1));
  g.dataType = tensorType(g.data);
  g.indexType = tensorType(g.indices);
  g.result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!g.batching.empty() || !g.indexBatching.empty())
    return convertBatchedGather(op, map, g);
  const SmallVector<int64_t> &offset = g.offset, &collapsed = g.collapsed,
                             &startMap = g.startMap, &batching = g.batching;
  const std::optional<int64_t> &indexVectorDim = g.indexVectorDim;
  const auto &sizes = g.sizes;
  Value data = g.data, indices = g.indices;
  RankedTensorType dt = g.dataType, it = g.indexType, result = g.result;
  bool take = sizes && indexVectorDim && batching.empty() &&
              startMap.size() == 1 && collapsed == startMap;
  int64_t axis = take ? startMap[0] : 0;
  if (take)
    for (int64_t d = 0; d < dt.getRank(); ++d)
      take &= (*sizes)[d] == (d == axis ? 1 : dt.getDimSize(d));
  // Indices [..., 1] with the vector dim last, or without one.
  SmallVector<int64_t> idxShape(it.getShape());
  if (take && *indexVectorDim == it.getRank() - 1 && idxShape.back() == 1)
    idxShape.pop_back();
  else
    take &= *indexVectorDim == it.getRank();
  // graph.gather's result: data[:axis] + indices + data[axis+1:]; the
  // offset dims must be where that puts them.
  int64_t nb = int64_t(idxShape.size());
  if (take) {
    SmallVector<int64_t> expected;
    for (int64_t d = 0; d < dt.getRank() - 1; ++d)
      expected.push_back(d < axis ? d : d + nb);
    take &= offset == expected;
  }
  if (!take)
    return unsupported(op, "stablehlo.gather other than a lookup along one "
                           "dimension (x[ids], jnp.take) is not supported");
  indices = reshape(loc, indices, idxShape);
  map.map(op->getResult(0),
          build(loc, "graph.gather", result, {data, indices},
                {named("axis", builder.getI64IntegerAttr(axis))}));
  return success();
}

/// gather with batching dims as `jnp.take_along_axis` lowers it: one index
/// per position along one operand dim (start_index_map and
/// collapsed_slice_dims [axis], every slice size 1, no offset dims), each
/// other operand dim a batching dim paired with a dim of the indices. That
/// is graph.gather_elements along the axis on the indices without their
/// index vector dim, put in the operand's dim order (and the result back
/// in the indices' order when that differs). StableHLO clamps a start
/// index into the operand where graph.gather_elements would fail on it:
/// the indices are clipped to [0, dim - 1] first (JAX's mode="fill" masks
/// those results itself, by its bounds check and a select).
LogicalResult Converter::convertBatchedGather(Operation *op, IRMapping &map,
                                              const GatherForm &g) {
  Location loc = op->getLoc();
  const SmallVector<int64_t> &offset = g.offset, &collapsed = g.collapsed,
                             &startMap = g.startMap, &batching = g.batching,
                             &indexBatching = g.indexBatching;
  const std::optional<int64_t> &indexVectorDim = g.indexVectorDim;
  const auto &sizes = g.sizes;
  Value data = g.data, indices = g.indices;
  RankedTensorType dt = g.dataType, it = g.indexType, result = g.result;
  int64_t rank = dt.getRank();
  auto notTakeAlongAxis = [&] {
    return unsupported(op, "stablehlo.gather with batching dims other than "
                           "jnp.take_along_axis's (one index per position "
                           "along one dimension, every other dimension a "
                           "batching dimension) is not supported");
  };
  if (!sizes || !indexVectorDim || !offset.empty() || startMap.size() != 1 ||
      collapsed != startMap || int64_t(sizes->size()) != rank ||
      !llvm::all_of(*sizes, [](int64_t s) { return s == 1; }))
    return notTakeAlongAxis();
  int64_t axis = startMap[0];
  // The indices without their index vector dim (of size 1 when present).
  int64_t vectorDim = *indexVectorDim;
  SmallVector<int64_t> idxShape(it.getShape());
  if (vectorDim < it.getRank()) {
    if (vectorDim < 0 || idxShape[vectorDim] != 1)
      return notTakeAlongAxis();
    idxShape.erase(idxShape.begin() + vectorDim);
  } else if (vectorDim != it.getRank()) {
    return notTakeAlongAxis();
  }
  if (result.getShape() != ArrayRef<int64_t>(idxShape))
    return notTakeAlongAxis();
  std::optional<SmallVector<int64_t>> paired =
      pairBatchingDims(batching, indexBatching, vectorDim, it.getRank(),
                       idxShape, dt, axis);
  if (!paired)
    return notTakeAlongAxis();
  const SmallVector<int64_t> &perm = *paired;
  indices = reshape(loc, indices, idxShape);
  indices = build(
      loc, "graph.clip", tensorType(indices), indices,
      {named("min", builder.getF64FloatAttr(0.0)),
       named("max", builder.getF64FloatAttr(double(dt.getDimSize(axis) - 1)))});
  indices = transpose(loc, indices, perm);
  Value y =
      build(loc, "graph.gather_elements",
            RankedTensorType::get(tensorType(indices).getShape(),
                                  result.getElementType()),
            {data, indices}, {named("axis", builder.getI64IntegerAttr(axis))});
  SmallVector<int64_t> inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
  map.map(op->getResult(0), transpose(loc, y, inverse));
  return success();
}

/// iota: a range along its dimension, broadcast to the result.
LogicalResult Converter::convertIota(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  auto dim = dyn_cast_or_null<IntegerAttr>(opAttr(op, "iota_dimension"));
  if (!dim)
    return op->emitError() << "stablehlo.iota without a dimension";
  int64_t d = dim.getInt(), n = result.getDimSize(d);
  Type element = result.getElementType();
  Value range = build(loc, "graph.range", RankedTensorType::get({n}, element),
                      {scalarConstant(loc, element, 0),
                       scalarConstant(loc, element, double(n)),
                       scalarConstant(loc, element, 1)});
  SmallVector<int64_t> shape(result.getRank(), 1);
  shape[d] = n;
  map.map(op->getResult(0),
          expand(loc, reshape(loc, range, shape), result.getShape()));
  return success();
}

LogicalResult Converter::convertCompare(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  std::string direction =
      StringRef(opaqueText(opAttr(op, "comparison_direction")))
          .split(' ')
          .second.trim()
          .str();
  Value a = map.lookup(op->getOperand(0)), b = map.lookup(op->getOperand(1));
  Type result = op->getResult(0).getType();
  StringRef graphOp = llvm::StringSwitch<StringRef>(direction)
                          .Case("EQ", "graph.equal")
                          .Case("NE", "graph.equal")
                          .Case("LT", "graph.less")
                          .Case("LE", "graph.less_equal")
                          .Case("GT", "graph.greater")
                          .Case("GE", "graph.greater_equal")
                          .Default("");
  if (graphOp.empty())
    return op->emitError() << "stablehlo.compare with direction '"
                           << direction << "'";
  Value y = build(loc, graphOp, result, {a, b});
  if (direction == "NE")
    y = build(loc, "graph.not", result, y);
  map.map(op->getResult(0), y);
  return success();
}

/// chlo.top_k: the k largest along the last dim, largest first (graph.topk
/// with its i64 indices cast to JAX's i32).
LogicalResult Converter::convertTopK(Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  auto k = dyn_cast_or_null<IntegerAttr>(opAttr(op, "k"));
  if (!k || op->getNumResults() != 2 || op->getNumOperands() != 1)
    return op->emitError() << "chlo.top_k with one operand, two results and k";
  Value x = map.lookup(op->getOperand(0));
  auto values = cast<RankedTensorType>(op->getResult(0).getType());
  auto indices = cast<RankedTensorType>(op->getResult(1).getType());
  OperationState state(loc, "graph.topk");
  state.addOperands(x);
  state.addTypes(
      {values, RankedTensorType::get(values.getShape(), builder.getI64Type())});
  state.addAttribute("axis", builder.getI64IntegerAttr(values.getRank() - 1));
  state.addAttribute("k", builder.getI64IntegerAttr(k.getInt()));
  Operation *topk = builder.create(state);
  map.map(op->getResult(0), topk->getResult(0));
  Value i = topk->getResult(1);
  if (indices.getElementType() != builder.getI64Type())
    i = build(loc, "graph.cast", indices, i);
  map.map(op->getResult(1), i);
  return success();
}

FailureOr<SmallVector<Value>> Converter::convertBody(func::FuncOp fn,
                                                     ValueRange args,
                                                     int depth) {
  if (depth > 32)
    return fn.emitError() << "@" << fn.getSymName()
                          << ": calls and loops nested more than 32 deep";
  return convertBlock(fn.front(), args, depth);
}

FailureOr<SmallVector<Value>> Converter::convertBlock(Block &block,
                                                      ValueRange args,
                                                      int depth,
                                                      const IRMapping *outer) {
  IRMapping map = outer ? *outer : IRMapping();
  for (auto [from, to] : llvm::zip(block.getArguments(), args))
    map.map(from, to);
  for (Operation &op : block) {
    if (isa<func::ReturnOp>(op) ||
        op.getName().getStringRef() == "stablehlo.return") {
      SmallVector<Value> results;
      for (Value v : op.getOperands())
        results.push_back(map.lookup(v));
      return results;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = inputModule.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return call.emitError() << "a call of '@" << call.getCallee()
                                << "', which has no body in the module";
      SmallVector<Value> operands;
      for (Value v : call.getOperands())
        operands.push_back(map.lookup(v));
      auto results = convertBody(callee, operands, depth + 1);
      if (failed(results))
        return failure();
      for (auto [from, to] : llvm::zip(call.getResults(), *results))
        map.map(from, to);
      continue;
    }
    if (op.getName().getStringRef() == "stablehlo.while") {
      if (depth > 32)
        return op.emitError() << "calls and loops nested more than 32 deep";
      if (failed(convertWhile(&op, map, depth + 1)))
        return failure();
      continue;
    }
    if (op.getName().getStringRef() == "stablehlo.case" ||
        op.getName().getStringRef() == "stablehlo.if") {
      if (depth > 32)
        return op.emitError() << "calls, loops and branches nested more "
                                 "than 32 deep";
      if (failed(convertBranches(&op, map, depth + 1)))
        return failure();
      continue;
    }
    if (!foldScalar(&op, map) && failed(convertOp(&op, map)))
      return failure();
    // The graph ops must have StableHLO's result types (a conversion bug
    // otherwise, caught here with its location).
    for (Value result : op.getResults()) {
      Type want = result.getType(), got = map.lookup(result).getType();
      if (want != got)
        return op.emitError()
               << "internal: converted to " << got << ", expected " << want;
    }
  }
  return emitError(block.getParentOp()->getLoc()) << "a block without a return";
}

OwningOpRef<ModuleOp> Converter::run(ModuleOp input,
                                     const StableHLOParameters &params,
                                     bool &unsupported) {
  inputModule = input;
  func::FuncOp entry = input.lookupSymbol<func::FuncOp>("main");
  if (!entry)
    for (auto f : input.getOps<func::FuncOp>())
      if (!entry && f.isPublic())
        entry = f;
  if (!entry || entry.isExternal()) {
    emitError(input.getLoc()) << "the module has no public function with a "
                                 "body (JAX names it @main)";
    return nullptr;
  }
  // JAX's Shardy annotations are kept as user shardings (followed by
  // paracc-user-shardings when the mesh has their axes); GSPMD's device
  // tilings name no axes and are not followed.
  SmallVector<dist::ShardingAttr> userShardings;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    userShardings.push_back(nullptr);
    if (Attribute sdy = entry.getArgAttr(i, "sdy.sharding")) {
      userShardings.back() = shardyToSharding(opaqueText(sdy), ctx);
      if (!userShardings.back())
        emitWarning(entry.getLoc())
            << "argument " << i << "'s sdy.sharding " << sdy
            << " is not read: paracc plans its sharding itself";
    } else if (entry.getArgAttr(i, "mhlo.sharding")) {
      emitWarning(entry.getLoc())
          << "argument " << i << "'s mhlo.sharding (a device tiling without "
          << "axis names) is not followed: paracc plans its sharding itself";
    }
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(input.getLoc());
  builder.setInsertionPointToEnd(module->getBody());
  FunctionType type = entry.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    if (auto r = dyn_cast<RankedTensorType>(t); !r || !r.hasStaticShape()) {
      isUnsupported = true;
      unsupported = true;
      entry.emitError() << "the entry function @" << entry.getSymName()
                        << " has an argument or result of type " << t
                        << "; paracc reads static shapes only";
      return nullptr;
    }
  // The leading parameter arguments become weights; the others are the
  // program's inputs.
  if (params.count > int64_t(type.getNumInputs())) {
    entry.emitError() << "--params names " << params.count
                      << " parameter arguments but @" << entry.getSymName()
                      << " has " << type.getNumInputs();
    return nullptr;
  }
  auto inputs = type.getInputs().drop_front(params.count);
  auto fn = func::FuncOp::create(
      builder, entry.getLoc(), "main",
      builder.getFunctionType(inputs, type.getResults()));
  Block *block = fn.addEntryBlock();
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    fn.setArgAttr(i, graph::kNameAttrName,
                  builder.getStringAttr("input_" + std::to_string(i)));
    if (auto user = userShardings[params.count + i])
      fn.setArgAttr(i, dist::kUserShardingAttrName, user);
  }
  builder.setInsertionPointToEnd(block);
  SmallVector<Value> args;
  for (int64_t i = 0; i < params.count; ++i) {
    auto t = cast<RankedTensorType>(type.getInput(i));
    std::string name = "param_" + std::to_string(i);
    std::optional<::paracc::rt::DType> dtype = floatDType(t.getElementType());
    if (!dtype) {
      isUnsupported = unsupported = true;
      entry.emitError() << "parameter argument " << i << " is " << t
                        << "; parameters are float tensors";
      return nullptr;
    }
    if (i < int64_t(params.data.size())) {
      const auto &[given, entry_] = params.data[i];
      name = given;
      if (ArrayRef<int64_t>(entry_.shape) != t.getShape() ||
          entry_.dtype != *dtype) {
        entry.emitError() << "parameter argument " << i << " is " << t
                          << " but '" << given << "' of --params has shape ["
                          << llvm::make_range(entry_.shape.begin(),
                                              entry_.shape.end())
                          << "] and element type "
                          << ::paracc::rt::dtypeName(entry_.dtype);
        return nullptr;
      }
      weights.add(name, entry_);
    } else {
      if (!weights.randomFill) {
        entry.emitError() << "parameter argument " << i
                          << " has no data: give --params an .npz of the "
                             "parameters, or --random-weights";
        return nullptr;
      }
      // Shape only: the runtime fills it with seeded random values.
      WeightEntry shapeOnly;
      shapeOnly.dtype = *dtype;
      shapeOnly.shape.assign(t.getShape().begin(), t.getShape().end());
      shapeOnly.size = size_t(t.getNumElements()) *
                       (t.getElementType().getIntOrFloatBitWidth() / 8);
      weights.add(name, std::move(shapeOnly));
    }
    SmallVector<NamedAttribute> attrs = {
        named("name", builder.getStringAttr(name))};
    if (auto user = userShardings[i])
      attrs.push_back(named(dist::kUserShardingAttrName, user));
    args.push_back(build(entry.getLoc(), "graph.weight", t, {}, attrs));
  }
  for (Value a : block->getArguments())
    args.push_back(a);
  auto results = convertBody(entry, args, 0);
  unsupported = isUnsupported;
  if (failed(results))
    return nullptr;
  func::ReturnOp::create(builder, entry.getLoc(), *results);
  for (unsigned i = 0; i < fn.getNumResults(); ++i)
    fn.setResultAttr(i, graph::kNameAttrName,
                     builder.getStringAttr("output_" + std::to_string(i)));
  return module;
}

OwningOpRef<ModuleOp>
mlir::paracc::stablehlo::convertToGraph(ModuleOp input, WeightStore &weights,
                                        const StableHLOParameters &params,
                                        bool &unsupported) {
  Converter converter(input.getContext(), weights);
  return converter.run(input, params, unsupported);
}
