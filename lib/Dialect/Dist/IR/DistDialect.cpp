//===- DistDialect.cpp - Meshes, shardings and collectives -----*- C++ -*-===//
//
// The dist dialect's attributes (assembly and verification), its ops'
// verifiers, and the helpers that read and write shardings on values. Each
// check names its constraint; test/Dialect/Dist/invalid.mlir has a negative
// test for each.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc::dist;

#include "paracc/Dialect/Dist/IR/DistDialect.cpp.inc"
#include "paracc/Dialect/Dist/IR/DistInterfaces.cpp.inc"
#include "paracc/Dialect/Dist/IR/DistEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "paracc/Dialect/Dist/IR/DistAttrs.cpp.inc"

void DistDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "paracc/Dialect/Dist/IR/DistAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "paracc/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Axis-name lists
//===----------------------------------------------------------------------===//

/// Parses an axis name: an identifier or a string.
static ParseResult parseAxisName(AsmParser &parser, StringAttr &name) {
  std::string s;
  if (failed(parser.parseKeywordOrString(&s)))
    return failure();
  name = StringAttr::get(parser.getContext(), s);
  return success();
}

/// Parses `[a, b, ...]` or `{a, b, ...}` (delimiter given).
static ParseResult parseAxisList(AsmParser &parser,
                                 AsmParser::Delimiter delimiter,
                                 SmallVectorImpl<StringAttr> &axes) {
  return parser.parseCommaSeparatedList(delimiter, [&]() -> ParseResult {
    StringAttr name;
    if (parseAxisName(parser, name))
      return failure();
    axes.push_back(name);
    return success();
  });
}

static void printAxisList(AsmPrinter &printer, ArrayRef<StringAttr> axes) {
  llvm::interleaveComma(axes, printer,
                        [&](StringAttr a) { printer.printKeywordOrString(a); });
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            StringAttr name;
            int64_t size;
            if (parseAxisName(parser, name) || parser.parseEqual() ||
                parser.parseInteger(size))
              return failure();
            names.push_back(name);
            sizes.push_back(size);
            return success();
          }) ||
      parser.parseGreater())
    return {};
  return MeshAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), names, sizes);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getAxisNames(), getAxisSizes()), printer,
                        [&](auto pair) {
                          printer.printKeywordOrString(std::get<0>(pair));
                          printer << " = " << std::get<1>(pair);
                        });
  printer << "]>";
}

LogicalResult
PipelineActionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t microbatch, PipelinePhase phase,
                           int64_t chunk) {
  // pipeline_action_nonnegative
  if (microbatch < 0 || chunk < 0)
    return emitError() << "pipeline action has micro-batch " << microbatch
                       << " and chunk " << chunk
                       << "; both must be non-negative";
  // pipeline_action_once_first
  if (phase == PipelinePhase::Once && microbatch != 0)
    return emitError() << "the once-per-step pipeline action has micro-batch "
                       << microbatch << "; it must be 0";
  return success();
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> names,
                               ArrayRef<int64_t> sizes) {
  // mesh_names_sizes_match
  if (names.size() != sizes.size())
    return emitError() << "mesh has " << names.size() << " axis names but "
                       << sizes.size() << " sizes";
  llvm::SmallSet<StringRef, 4> seen;
  for (auto [name, size] : llvm::zip(names, sizes)) {
    // mesh_axis_nonempty
    if (name.getValue().empty())
      return emitError() << "mesh axis names must be non-empty";
    // mesh_axis_unique
    if (!seen.insert(name.getValue()).second)
      return emitError() << "mesh axis names must be unique, got '"
                         << name.getValue() << "' twice";
    // mesh_axis_positive
    if (size < 1)
      return emitError() << "mesh axis '" << name.getValue()
                         << "' must have a positive size, got " << size;
  }
  return success();
}

int64_t MeshAttr::getNumRanks() const {
  int64_t n = 1;
  for (int64_t s : getAxisSizes())
    n *= s;
  return n;
}

std::optional<unsigned> MeshAttr::getAxisIndex(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(getAxisNames()))
    if (n.getValue() == name)
      return i;
  return std::nullopt;
}

int64_t MeshAttr::getAxisSize(StringRef name) const {
  std::optional<unsigned> i = getAxisIndex(name);
  return i ? getAxisSizes()[*i] : 1;
}

int64_t MeshAttr::getGroupSize(ArrayRef<StringAttr> axes) const {
  int64_t n = 1;
  for (StringAttr a : axes)
    n *= getAxisSize(a.getValue());
  return n;
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

static ArrayAttr axesToArray(MLIRContext *ctx, ArrayRef<StringAttr> axes) {
  return ArrayAttr::get(ctx, SmallVector<Attribute>(axes.begin(), axes.end()));
}

ShardingAttr ShardingAttr::get(MLIRContext *ctx,
                               ArrayRef<SmallVector<StringAttr>> dims,
                               ArrayRef<StringAttr> partial) {
  SmallVector<Attribute> dimAttrs;
  for (const auto &d : dims)
    dimAttrs.push_back(axesToArray(ctx, d));
  return Base::get(ctx, ArrayAttr::get(ctx, dimAttrs),
                   axesToArray(ctx, partial));
}

ShardingAttr ShardingAttr::getReplicated(MLIRContext *ctx, int64_t rank) {
  return get(ctx, SmallVector<SmallVector<StringAttr>>(rank), {});
}

/// The marker of an open dimension.
static constexpr StringLiteral kOpenDim = "?";

bool ShardingAttr::isDimOpen(int64_t d) const {
  auto list = cast<ArrayAttr>(getDims()[d]);
  return list.size() == 1 && cast<StringAttr>(list[0]).getValue() == kOpenDim;
}

SmallVector<StringAttr> ShardingAttr::getDimAxes(int64_t d) const {
  SmallVector<StringAttr> axes;
  if (isDimOpen(d))
    return axes;
  for (Attribute a : cast<ArrayAttr>(getDims()[d]))
    axes.push_back(cast<StringAttr>(a));
  return axes;
}

SmallVector<StringAttr> ShardingAttr::getPartialAxes() const {
  SmallVector<StringAttr> axes;
  for (Attribute a : getPartial())
    axes.push_back(cast<StringAttr>(a));
  return axes;
}

bool ShardingAttr::isReplicated() const {
  if (!getPartial().empty())
    return false;
  for (Attribute d : getDims())
    if (!cast<ArrayAttr>(d).empty())
      return false;
  return true;
}

SmallVector<StringAttr> ShardingAttr::getUsedAxes() const {
  SmallVector<StringAttr> axes;
  for (int64_t d = 0; d < getRank(); ++d)
    llvm::append_range(axes, getDimAxes(d));
  return axes;
}

FailureOr<SmallVector<int64_t>>
ShardingAttr::getLocalShape(MeshAttr mesh, ArrayRef<int64_t> global) const {
  if (int64_t(global.size()) != getRank())
    return failure();
  SmallVector<int64_t> local(global);
  for (int64_t d = 0; d < getRank(); ++d) {
    int64_t parts = mesh.getGroupSize(getDimAxes(d));
    if (global[d] % parts != 0)
      return failure();
    local[d] = global[d] / parts;
  }
  return local;
}

ShardingAttr ShardingAttr::withoutPartial() const {
  return Base::get(getContext(), getDims(), ArrayAttr::get(getContext(), {}));
}

/// Parses one dimension: `{}`, `{?}` or `{a, b}`.
static ParseResult parseDim(AsmParser &parser,
                            SmallVectorImpl<StringAttr> &axes) {
  if (parser.parseLBrace())
    return failure();
  if (succeeded(parser.parseOptionalQuestion())) {
    axes.push_back(StringAttr::get(parser.getContext(), kOpenDim));
    return parser.parseRBrace();
  }
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  do {
    StringAttr name;
    if (parseAxisName(parser, name))
      return failure();
    axes.push_back(name);
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRBrace();
}

// #dist.sharding<{dp}, {}, {tp}, partial = [tp]>
Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<StringAttr>> dims;
  SmallVector<StringAttr> partial;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    do {
      if (succeeded(parser.parseOptionalKeyword("partial"))) {
        if (parser.parseEqual() ||
            parseAxisList(parser, AsmParser::Delimiter::Square, partial))
          return {};
        break;
      }
      dims.emplace_back();
      if (parseDim(parser, dims.back()))
        return {};
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return {};
  }
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> dimAttrs;
  for (const auto &d : dims)
    dimAttrs.push_back(axesToArray(ctx, d));
  return ShardingAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); }, ctx,
      ArrayAttr::get(ctx, dimAttrs), axesToArray(ctx, partial));
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(llvm::seq<int64_t>(0, getRank()), printer,
                        [&](int64_t d) {
                          printer << "{";
                          if (isDimOpen(d))
                            printer << "?";
                          else
                            printAxisList(printer, getDimAxes(d));
                          printer << "}";
                        });
  if (!getPartial().empty()) {
    if (getRank())
      printer << ", ";
    printer << "partial = [";
    printAxisList(printer, getPartialAxes());
    printer << "]";
  }
  printer << ">";
}

LogicalResult
ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayAttr dims, ArrayAttr partial) {
  llvm::SmallSet<StringRef, 4> seen;
  auto check = [&](Attribute a) -> LogicalResult {
    auto s = dyn_cast<StringAttr>(a);
    // sharding_axis_unique
    if (!s || !seen.insert(s.getValue()).second)
      return emitError() << "sharding uses mesh axis '"
                         << (s ? s.getValue() : "?") << "' more than once";
    return success();
  };
  for (Attribute d : dims) {
    auto list = dyn_cast<ArrayAttr>(d);
    if (!list)
      return emitError() << "sharding dims must be axis lists";
    if (list.size() == 1 && isa<StringAttr>(list[0]) &&
        cast<StringAttr>(list[0]).getValue() == kOpenDim)
      continue;
    for (Attribute a : list)
      if (failed(check(a)))
        return failure();
  }
  for (Attribute a : partial)
    if (failed(check(a)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

MeshAttr mlir::paracc::dist::getMesh(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto mesh = p->getAttrOfType<MeshAttr>(kMeshAttrName))
      return mesh;
  return nullptr;
}

MeshAttr mlir::paracc::dist::requireMesh(ModuleOp module) {
  MeshAttr mesh = getMesh(module);
  if (!mesh)
    module.emitError("requires a '") << kMeshAttrName << "' attribute";
  return mesh;
}

ShardingAttr mlir::paracc::dist::getSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func)
      return nullptr;
    return func.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                               kArgShardingAttrName);
  }
  auto result = cast<OpResult>(value);
  auto all = result.getOwner()->getAttrOfType<ArrayAttr>(kShardingsAttrName);
  if (!all || all.size() <= result.getResultNumber())
    return nullptr;
  return dyn_cast<ShardingAttr>(all[result.getResultNumber()]);
}

void mlir::paracc::dist::setSharding(Value value, ShardingAttr sharding) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    func.setArgAttr(arg.getArgNumber(), kArgShardingAttrName, sharding);
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  SmallVector<Attribute> all(op->getNumResults(), UnitAttr::get(op->getContext()));
  if (auto existing = op->getAttrOfType<ArrayAttr>(kShardingsAttrName))
    for (auto [i, a] : llvm::enumerate(existing))
      if (i < all.size())
        all[i] = a;
  all[result.getResultNumber()] = sharding;
  op->setAttr(kShardingsAttrName, ArrayAttr::get(op->getContext(), all));
}

void mlir::paracc::dist::setTensorParallelDecision(Operation *op,
                                                   TensorParallelRole role,
                                                   StringRef reason) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(DistDialect::TpRoleAttrHelper::getNameStr(),
              TensorParallelRoleAttr::get(ctx, role));
  op->setAttr(DistDialect::TpReasonAttrHelper::getNameStr(),
              StringAttr::get(ctx, reason));
}

void mlir::paracc::dist::copyTensorParallelDecision(Operation *from,
                                                    Operation *to) {
  for (StringRef name : {DistDialect::TpRoleAttrHelper::getNameStr(),
                         DistDialect::TpReasonAttrHelper::getNameStr()})
    if (Attribute a = from->getAttr(name))
      to->setAttr(name, a);
}

std::optional<TensorParallelRole>
mlir::paracc::dist::getTensorParallelRole(Operation *op) {
  if (auto role = op->getAttrOfType<TensorParallelRoleAttr>(
          DistDialect::TpRoleAttrHelper::getNameStr()))
    return role.getValue();
  return std::nullopt;
}

std::string mlir::paracc::dist::tensorParallelRoleLabel(TensorParallelRole role) {
  std::string label = stringifyTensorParallelRole(role).str();
  std::replace(label.begin(), label.end(), '_', '-');
  return label;
}

LogicalResult mlir::paracc::dist::verifyGroupAxes(Operation *op,
                                                  ArrayAttr axes) {
  MeshAttr mesh = getMesh(op);
  // collective_needs_mesh
  if (!mesh)
    return op->emitOpError("requires a '")
           << kMeshAttrName << "' attribute on an enclosing op";
  llvm::SmallSet<StringRef, 4> seen;
  for (Attribute a : axes) {
    StringRef name = cast<StringAttr>(a).getValue();
    // group_axis_exists
    if (!mesh.getAxisIndex(name))
      return op->emitOpError("names mesh axis '")
             << name << "' that the mesh does not have";
    // group_axis_unique
    if (!seen.insert(name).second)
      return op->emitOpError("names mesh axis '") << name << "' twice";
  }
  return success();
}

/// Group size of a collective, after verifyGroupAxes.
static int64_t groupSize(Operation *op, ArrayAttr axes) {
  MeshAttr mesh = getMesh(op);
  int64_t n = 1;
  for (Attribute a : axes)
    n *= mesh.getAxisSize(cast<StringAttr>(a).getValue());
  return n;
}

/// Checks `dim` against the rank of `type`.
static LogicalResult verifyDim(Operation *op, int64_t dim,
                               RankedTensorType type, StringRef what) {
  // collective_dim_in_range
  if (dim < 0 || dim >= type.getRank())
    return op->emitOpError("requires ")
           << what << " in [0, " << type.getRank() << "), got " << dim;
  return success();
}

/// Checks that `result` is `operand` with dim `dim` scaled by `num/den`.
static LogicalResult verifyScaledDim(Operation *op, RankedTensorType operand,
                                     RankedTensorType result, int64_t dim,
                                     int64_t num, int64_t den) {
  SmallVector<int64_t> expected(operand.getShape());
  // collective_dim_divisible
  if ((expected[dim] * num) % den != 0)
    return op->emitOpError("requires dim ")
           << dim << " of size " << expected[dim] << " to divide over "
           << den << " ranks";
  expected[dim] = expected[dim] * num / den;
  // collective_result_shape
  if (result.getShape() != ArrayRef(expected) ||
      result.getElementType() != operand.getElementType())
    return op->emitOpError("expected result type ")
           << RankedTensorType::get(expected, operand.getElementType())
           << ", got " << result;
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())))
    return failure();
  // all_reduce_kind
  if (getKind() != "sum" && getKind() != "max")
    return emitOpError("requires kind \"sum\" or \"max\", got \"")
           << getKind() << "\"";
  return success();
}

LogicalResult AllGatherOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())) ||
      failed(verifyDim(*this, getDim(), getX().getType(), "dim")))
    return failure();
  return verifyScaledDim(*this, getX().getType(), getResult().getType(),
                         getDim(), groupSize(*this, getAxes()), 1);
}

LogicalResult ReduceScatterOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())) ||
      failed(verifyDim(*this, getDim(), getX().getType(), "dim")))
    return failure();
  return verifyScaledDim(*this, getX().getType(), getResult().getType(),
                         getDim(), 1, groupSize(*this, getAxes()));
}

LogicalResult AllToAllOp::verify() {
  auto in = getX().getType();
  if (failed(verifyGroupAxes(*this, getAxes())) ||
      failed(verifyDim(*this, getSplitDim(), in, "split_dim")) ||
      failed(verifyDim(*this, getConcatDim(), in, "concat_dim")))
    return failure();
  int64_t n = groupSize(*this, getAxes());
  SmallVector<int64_t> expected(in.getShape());
  // collective_dim_divisible
  if (expected[getSplitDim()] % n != 0)
    return emitOpError("requires dim ")
           << getSplitDim() << " of size " << expected[getSplitDim()]
           << " to divide over " << n << " ranks";
  expected[getSplitDim()] /= n;
  expected[getConcatDim()] *= n;
  // collective_result_shape
  if (getResult().getType().getShape() != ArrayRef(expected) ||
      getResult().getType().getElementType() != in.getElementType())
    return emitOpError("expected result type ")
           << RankedTensorType::get(expected, in.getElementType()) << ", got "
           << getResult().getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())))
    return failure();
  int64_t n = groupSize(*this, getAxes());
  // broadcast_root_in_group (I64Attr reads back unsigned)
  auto root = static_cast<int64_t>(getRoot());
  if (root < 0 || root >= n)
    return emitOpError("requires root in [0, ")
           << n << ") (the group size), got " << root;
  return success();
}

/// Checks the peer offset and tag of a send or recv.
static LogicalResult verifyPointToPoint(Operation *op, ArrayAttr axes,
                                        int64_t offset, StringRef what,
                                        int64_t tag) {
  if (failed(verifyGroupAxes(op, axes)))
    return failure();
  int64_t n = groupSize(op, axes);
  // p2p_offset_nonzero
  if (offset == 0)
    return op->emitOpError("requires a nonzero '")
           << what << "': a member cannot send to itself";
  // p2p_offset_in_group
  if (offset <= -n || offset >= n)
    return op->emitOpError("requires |")
           << what << "| < " << n << " (the group size), got " << offset;
  // p2p_tag_range
  if (tag < 0 || tag > int64_t(UINT32_MAX))
    return op->emitOpError("requires tag in [0, 2^32), got ") << tag;
  return success();
}

LogicalResult RingShiftOp::verify() {
  if (failed(verifyGroupAxes(*this, getAxes())))
    return failure();
  int64_t n = groupSize(*this, getAxes());
  // ring_shift_nonzero_in_group (I64Attr reads back unsigned)
  auto shift = static_cast<int64_t>(getShift());
  if (shift == 0 || shift <= -n || shift >= n)
    return emitOpError("requires a shift with 0 < |shift| < ")
           << n << " (the group size), got " << shift;
  return success();
}

LogicalResult SendOp::verify() {
  return verifyPointToPoint(*this, getAxes(), getTo(), "to", getTag());
}

LogicalResult RecvOp::verify() {
  return verifyPointToPoint(*this, getAxes(), getFrom(), "from", getTag());
}

LogicalResult LocalShardOp::verify() {
  ShardingAttr sharding = getSharding();
  auto in = getX().getType();
  // local_shard_rank
  if (sharding.getRank() != in.getRank())
    return emitOpError("requires a sharding of rank ")
           << in.getRank() << ", got " << sharding.getRank();
  // local_shard_no_partial
  if (!sharding.getPartial().empty())
    return emitOpError("requires a sharding without partial axes");
  // local_shard_closed
  for (int64_t d = 0; d < sharding.getRank(); ++d)
    if (sharding.isDimOpen(d))
      return emitOpError("requires a sharding without open dims, got an "
                         "open dim ")
             << d;
  SmallVector<Attribute> axes;
  for (StringAttr a : sharding.getUsedAxes())
    axes.push_back(a);
  if (failed(verifyGroupAxes(*this, ArrayAttr::get(getContext(), axes))))
    return failure();
  FailureOr<SmallVector<int64_t>> local =
      sharding.getLocalShape(getMesh(*this), in.getShape());
  // local_shard_divisible
  if (failed(local))
    return emitOpError("requires every split dim to divide over its axes");
  // collective_result_shape
  if (getResult().getType().getShape() != ArrayRef(*local) ||
      getResult().getType().getElementType() != in.getElementType())
    return emitOpError("expected result type ")
           << RankedTensorType::get(*local, in.getElementType()) << ", got "
           << getResult().getType();
  return success();
}

LogicalResult AxisIndexOp::verify() {
  return verifyGroupAxes(*this, getAxes());
}

#define GET_OP_CLASSES
#include "paracc/Dialect/Dist/IR/DistOps.cpp.inc"
