//===- Converter.h - The StableHLO-to-graph converter's state -*- C++ -*-===//
//
// Private to lib/Importer/StableHLO: the Converter class whose members are
// defined by StableHLOToGraph.cpp (elementwise ops, constants, products,
// reductions, gathers), ConvolutionConversion.cpp, ScatterConversion.cpp
// (scatters that add), PadConversion.cpp and ControlFlowConversion.cpp
// (stablehlo.while unrolled, dynamic slices, scalar integer folding), and the
// readers of unregistered ops' attributes they share.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_IMPORTER_STABLEHLO_CONVERTER_H
#define PARACC_LIB_IMPORTER_STABLEHLO_CONVERTER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Importer/StableHLO/StableHLOImporter.h"
#include "paracc/Support/WeightStore.h"
#include "llvm/ADT/DenseMap.h"

#include <numeric>
#include <optional>

namespace mlir::paracc::stablehlo {

/// An attribute of an unregistered op: among its properties (`<{...}>`) or
/// its attributes (`{...}`).
inline Attribute opAttr(Operation *op, StringRef name) {
  if (Attribute a = op->getAttr(name))
    return a;
  if (auto props =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    return props.get(name);
  return nullptr;
}

inline std::optional<SmallVector<int64_t>> i64Array(Operation *op,
                                                    StringRef name) {
  if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(opAttr(op, name)))
    return SmallVector<int64_t>(a.asArrayRef());
  return std::nullopt;
}

/// The text inside a dialect attribute the parser kept opaque:
/// `#stablehlo.dot<TEXT>` or `#stablehlo<comparison_direction TEXT>`.
inline std::string opaqueText(Attribute attr) {
  if (auto o = dyn_cast_or_null<OpaqueAttr>(attr))
    return o.getAttrData().str();
  return "";
}

/// `key = [1, 2]` inside an opaque attribute's text ([] when absent).
inline SmallVector<int64_t> listField(StringRef text, StringRef key) {
  SmallVector<int64_t> values;
  size_t at = text.find((key + " = [").str());
  if (at == StringRef::npos)
    return values;
  StringRef rest = text.substr(at + key.size() + 4);
  StringRef list = rest.take_until([](char c) { return c == ']'; });
  SmallVector<StringRef> parts;
  list.split(parts, ',', -1, false);
  for (StringRef p : parts) {
    int64_t v;
    if (!p.trim().getAsInteger(10, v))
      values.push_back(v);
  }
  return values;
}

/// `key = N` inside an opaque attribute's text.
inline std::optional<int64_t> intField(StringRef text, StringRef key) {
  size_t at = text.find((key + " = ").str());
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = text.substr(at + key.size() + 3);
  int64_t v;
  if (rest.take_while([](char c) { return isdigit(c) || c == '-'; })
          .getAsInteger(10, v))
    return std::nullopt;
  return v;
}

/// The value of a splat float graph.constant, if `v` is one.
inline std::optional<APFloat> splatFloat(Value v) {
  Operation *c = v.getDefiningOp();
  if (!c || c->getName().getStringRef() != "graph.constant")
    return std::nullopt;
  auto attr = dyn_cast<DenseElementsAttr>(c->getAttr("value"));
  if (!attr || !attr.isSplat() || !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  return attr.getSplatValue<APFloat>();
}

/// take_along_axis's pairing of dims (its gather, and the scatter that
/// transposes it): each operand dim but `axis` is a batching dim paired
/// with a dim of the indices (`indexBatching`, counted with the index
/// vector dim at `vectorDim`); `idxShape` is the indices' shape without
/// that dim. The result's perm[d] is the dim of those indices that goes
/// with operand dim d, the one left over holding the picks along `axis`;
/// nullopt when the dims do not pair so.
inline std::optional<SmallVector<int64_t>>
pairBatchingDims(ArrayRef<int64_t> batching, ArrayRef<int64_t> indexBatching,
                 int64_t vectorDim, int64_t indexRank,
                 ArrayRef<int64_t> idxShape, RankedTensorType operand,
                 int64_t axis) {
  const int64_t rank = operand.getRank();
  if (batching.size() != indexBatching.size() ||
      int64_t(batching.size()) != rank - 1 ||
      int64_t(idxShape.size()) != rank || axis < 0 || axis >= rank ||
      llvm::is_contained(batching, axis))
    return std::nullopt;
  SmallVector<int64_t> perm(rank, -1);
  SmallVector<bool> used(rank, false);
  for (auto [b, ib] : llvm::zip(batching, indexBatching)) {
    if (b < 0 || b >= rank || ib < 0 || ib >= indexRank || ib == vectorDim)
      return std::nullopt;
    int64_t p = ib > vectorDim ? ib - 1 : ib;
    if (perm[b] != -1 || used[p] || idxShape[p] != operand.getDimSize(b))
      return std::nullopt;
    perm[b] = p;
    used[p] = true;
  }
  for (int64_t p = 0; p < rank; ++p)
    if (!used[p])
      perm[axis] = p;
  return perm;
}

inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// A stablehlo.gather's dimension numbers, slice sizes and operands.
struct GatherForm {
  SmallVector<int64_t> offset, collapsed, startMap, batching, indexBatching;
  std::optional<int64_t> indexVectorDim;
  std::optional<SmallVector<int64_t>> sizes;
  Value data, indices;
  RankedTensorType dataType, indexType, result;
};

/// A stablehlo.scatter's dimension numbers and operands.
struct ScatterForm {
  SmallVector<int64_t> updateWindow, inserted, batching, indexBatching,
      toOperand;
  std::optional<int64_t> indexVectorDim;
  Value operand, indices, updates;
  RankedTensorType operandType, indexType, updateType;
};

class Converter {
public:
  Converter(MLIRContext *ctx, WeightStore &weights)
      : ctx(ctx), weights(weights), builder(ctx) {}

  OwningOpRef<ModuleOp> run(ModuleOp input, const StableHLOParameters &params,
                            bool &unsupported);

private:
  /// Converts `fn`'s body with its arguments bound to `args`; the returned
  /// values, or failure.
  FailureOr<SmallVector<Value>> convertBody(func::FuncOp fn, ValueRange args,
                                            int depth);
  /// Converts a function's or a region's block (ended by func.return or
  /// stablehlo.return) with its arguments bound to `args`; a region's block
  /// also sees the values of the enclosing block (`outer`).
  FailureOr<SmallVector<Value>> convertBlock(Block &block, ValueRange args,
                                             int depth,
                                             const IRMapping *outer = nullptr);
  LogicalResult convertOp(Operation *op, IRMapping &map);

  /// A graph op `name` with `resultType` (the conversion knows every type).
  Value build(Location loc, StringRef name, Type resultType,
              ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    OperationState state(loc, name);
    state.addOperands(operands);
    state.addTypes(resultType);
    state.addAttributes(attrs);
    return builder.create(state)->getResult(0);
  }
  NamedAttribute named(StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  Value reshape(Location loc, Value x, ArrayRef<int64_t> shape) {
    auto t = tensorType(x);
    if (t.getShape() == shape)
      return x;
    return build(loc, "graph.reshape",
                 RankedTensorType::get(shape, t.getElementType()), x);
  }
  Value transpose(Location loc, Value x, ArrayRef<int64_t> perm) {
    SmallVector<int64_t> identity(perm.size());
    std::iota(identity.begin(), identity.end(), 0);
    if (perm == ArrayRef<int64_t>(identity))
      return x;
    auto t = tensorType(x);
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(t.getDimSize(p));
    return build(loc, "graph.transpose",
                 RankedTensorType::get(shape, t.getElementType()), x,
                 {named("perm", builder.getDenseI64ArrayAttr(perm))});
  }
  Value expand(Location loc, Value x, ArrayRef<int64_t> shape) {
    auto t = tensorType(x);
    if (t.getShape() == shape)
      return x;
    return build(loc, "graph.expand",
                 RankedTensorType::get(shape, t.getElementType()), x);
  }
  Value scalarConstant(Location loc, Type elementType, double value) {
    auto type = RankedTensorType::get({}, elementType);
    Attribute v =
        isa<FloatType>(elementType)
            ? Attribute(FloatAttr::get(elementType, value))
            : Attribute(IntegerAttr::get(elementType, int64_t(value)));
    return build(loc, "graph.constant", type, {},
                 {named("value", DenseElementsAttr::get(type, v))});
  }

  LogicalResult unsupported(Operation *op, const Twine &what) {
    isUnsupported = true;
    return op->emitError() << what;
  }

  LogicalResult convertConstant(Operation *op, IRMapping &map);
  LogicalResult convertBroadcast(Operation *op, IRMapping &map);
  LogicalResult convertDotGeneral(Operation *op, IRMapping &map);
  LogicalResult convertReduce(Operation *op, IRMapping &map);
  LogicalResult convertArgReduce(Operation *op, IRMapping &map);
  LogicalResult convertShardingConstraint(Operation *op, IRMapping &map);
  LogicalResult convertLogicalReduce(Operation *op, IRMapping &map, bool isAnd);
  LogicalResult convertGather(Operation *op, IRMapping &map);
  LogicalResult convertBatchedGather(Operation *op, IRMapping &map,
                                     const GatherForm &g);
  /// stablehlo.pad (PadConversion.cpp).
  LogicalResult convertPad(Operation *op, IRMapping &map);
  // ScatterConversion.cpp: scatters that add, along one dim.
  LogicalResult convertScatter(Operation *op, IRMapping &map);
  Value scatterRows(Operation *op, const ScatterForm &s,
                    ArrayRef<int64_t> idxShape);
  Value scatterPicks(Operation *op, const ScatterForm &s,
                     ArrayRef<int64_t> idxShape);
  LogicalResult convertIota(Operation *op, IRMapping &map);
  LogicalResult convertCompare(Operation *op, IRMapping &map);
  LogicalResult convertTopK(Operation *op, IRMapping &map);
  LogicalResult convertConvolution(Operation *op, IRMapping &map);

  // ControlFlowConversion.cpp: loops with a static trip count are unrolled;
  // the scalar integers that decide them are folded as they are converted.
  LogicalResult convertWhile(Operation *op, IRMapping &map, int depth);
  /// stablehlo.case and stablehlo.if (ControlFlowConversion.cpp).
  LogicalResult convertBranches(Operation *op, IRMapping &map, int depth);
  LogicalResult convertDynamicSlice(Operation *op, IRMapping &map);
  LogicalResult convertDynamicUpdateSlice(Operation *op, IRMapping &map);
  /// The known start indices of a dynamic slice or update (operands from
  /// `first` on), clamped as StableHLO defines: into [0, dim - size]; an
  /// unsupported-input error when one is not known.
  FailureOr<SmallVector<int64_t>> knownStarts(Operation *op, IRMapping &map,
                                              unsigned first,
                                              ArrayRef<int64_t> dims,
                                              ArrayRef<int64_t> sizes);
  /// Maps a rank-0 integer or boolean op whose operands are all known to a
  /// graph.constant of its value; false when it does not fold.
  bool foldScalar(Operation *op, IRMapping &map);
  /// A rank-0 integer graph.constant whose value is recorded as known.
  Value knownConstant(Location loc, Type elementType, int64_t value);
  /// The value of a converted rank-0 integer or boolean, when known.
  std::optional<int64_t> known(Value graphValue) const {
    auto it = knownScalars.find(graphValue);
    if (it == knownScalars.end())
      return std::nullopt;
    return it->second;
  }
  /// Erases the unused graph ops built after `last` (null: the block's
  /// start), newest first.
  void eraseUnusedAfter(Block *block, Operation *last);

  MLIRContext *ctx;
  WeightStore &weights;
  OpBuilder builder;
  ModuleOp inputModule;
  bool isUnsupported = false;
  int constants = 0;
  /// Converted rank-0 integers and booleans whose values are known.
  llvm::DenseMap<Value, int64_t> knownScalars;
};

} // namespace mlir::paracc::stablehlo

#endif // PARACC_LIB_IMPORTER_STABLEHLO_CONVERTER_H
