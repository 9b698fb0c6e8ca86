//===- GraphTrainingOps.cpp - Backward, optimizer and state ops -*- C++ -*-===//
//
// Verifiers of the ops in GraphTrainingOps.td. Each check carries the name
// of its constraint; the negative lit tests are in
// test/Dialect/Graph/training-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::paracc::graph;

static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::interleave(
      shape, [&](int64_t d) { s += std::to_string(d); }, [&] { s += ","; });
  return s + "]";
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// The norms' backward: axis in range, a finite epsilon, and a scale with
/// as many elements as the normalized dims.
static LogicalResult verifyNormGrad(Operation *op, Value x, Value scale,
                                    int64_t axis, double epsilon) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  // axis_in_range
  if (axis < 0 || axis >= rank)
    return op->emitOpError("requires axis in [0, ")
           << rank << "), got " << axis;
  // epsilon_non_negative
  if (!std::isfinite(epsilon) || epsilon < 0)
    return op->emitOpError("requires a finite, non-negative epsilon, got ")
           << epsilon;
  // norm_grad_scale_covers_normalized_dims
  ArrayRef<int64_t> normalized = shapeOf(x).drop_front(axis);
  int64_t count = 1;
  for (int64_t d : normalized)
    count *= d;
  if (cast<RankedTensorType>(scale.getType()).getNumElements() != count)
    return op->emitOpError("requires a scale with the normalized shape ")
           << shapeText(normalized) << ", got " << shapeText(shapeOf(scale));
  return success();
}

LogicalResult LayerNormGradOp::verify() {
  return verifyNormGrad(*this, getX(), getScale(), getAxis(),
                        getEpsilon().convertToDouble());
}

LogicalResult RmsNormGradOp::verify() {
  return verifyNormGrad(*this, getX(), getScale(), getAxis(),
                        getEpsilon().convertToDouble());
}

LogicalResult DropoutOp::verify() {
  // dropout_ratio_range
  double ratio = getRatio().convertToDouble();
  if (!(ratio >= 0.0 && ratio < 1.0))
    return emitOpError("requires a ratio in [0, 1), got ") << ratio;
  // dropout_offsets_per_dim
  auto offsets = cast<RankedTensorType>(getOffsets().getType());
  if (offsets.getRank() != 1 ||
      offsets.getDimSize(0) != getX().getType().getRank())
    return emitOpError("requires one offset per dim of x (")
           << getX().getType().getRank() << "), got " << offsets;
  return success();
}

LogicalResult GeluGradOp::verify() {
  // gelu_approximation_known
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("requires approximate \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult AttentionGradOp::verify() {
  // attention_grad_dy_shape: dy has the forward result's shape.
  SmallVector<int64_t> expected(shapeOf(getQ()));
  if (expected.empty())
    return emitOpError("requires q of rank >= 2");
  expected.back() = shapeOf(getV()).back();
  if (ArrayRef<int64_t>(expected) != shapeOf(getDy()))
    return emitOpError("requires dy of the attention result's shape ")
           << shapeText(expected) << ", got " << shapeText(shapeOf(getDy()));
  // attention_grad_ranks
  int64_t rank = expected.size();
  if (rank < (getSequenceFirst() ? 3 : 2) ||
      shapeOf(getK()).size() != size_t(rank) ||
      shapeOf(getV()).size() != size_t(rank))
    return emitOpError("requires q, k and v of the same rank >= ")
           << (getSequenceFirst() ? 3 : 2);
  // attention_grad_window
  int64_t window = static_cast<int64_t>(getWindow()); // I64Attr: unsigned
  if (window < 0 || (window > 0 && !getCausal()))
    return emitOpError("requires window >= 0, and causal with a window > 0, "
                       "got window ")
           << window << (getCausal() ? "" : " without causal");
  // attention_grad_saved_pair
  if (!getOut() != !getStats())
    return emitOpError("requires the saved result and statistics together");
  // attention_grad_key_block_saved
  if (getKeyBlock() && !getOut())
    return emitOpError("requires the saved result and statistics with "
                       "key_block (they are the whole attention's)");
  if (getOut()) {
    // attention_grad_saved_result
    if (getOut().getType() != getDy().getType())
      return emitOpError("requires the saved result of dy's type ")
             << getDy().getType() << ", got " << getOut().getType();
    // attention_grad_saved_stats
    SmallVector<int64_t> stats =
        attentionStatsShape(shapeOf(getQ()), getSequenceFirst());
    if (shapeOf(getStats()) != ArrayRef<int64_t>(stats))
      return emitOpError("requires statistics of shape ")
             << shapeText(stats) << ", got " << shapeText(shapeOf(getStats()));
  }
  return success();
}

LogicalResult CrossEntropyGradOp::verify() {
  ArrayRef<int64_t> scores = shapeOf(getScores());
  // cross_entropy_grad_scores_rank
  if (scores.size() < 2)
    return emitOpError("requires scores of rank >= 2 ([N, C, d...]), got ")
           << shapeText(scores);
  SmallVector<int64_t> elements(scores);
  elements.erase(elements.begin() + 1);
  // cross_entropy_grad_element_shapes
  if (shapeOf(getLabels()) != ArrayRef<int64_t>(elements) ||
      shapeOf(getDloss()) != ArrayRef<int64_t>(elements))
    return emitOpError("requires labels and dloss of shape ")
           << shapeText(elements) << " (scores without the class dim)";
  // cross_entropy_grad_weight_shape
  if (getWeight() && shapeOf(getWeight()) != ArrayRef<int64_t>{scores[1]})
    return emitOpError("requires a weight of shape [") << scores[1] << "]";
  if (Value stats = getStats()) {
    // cross_entropy_grad_stats_of_logits
    if (getLogProb())
      return emitOpError("takes softmax statistics only for logits "
                         "(log_prob = false)");
    // cross_entropy_grad_stats_shape
    elements.push_back(2);
    if (shapeOf(stats) != ArrayRef<int64_t>(elements))
      return emitOpError("requires statistics of shape ")
             << shapeText(elements) << ", got " << shapeText(shapeOf(stats));
  }
  return success();
}

LogicalResult GatherGradOp::verify() {
  auto data = cast<RankedTensorType>(getType());
  int64_t axis = getAxis();
  // axis_in_range
  if (axis < 0 || axis >= data.getRank())
    return emitOpError("requires axis in [0, ")
           << data.getRank() << "), got " << axis;
  // gather_grad_dy_shape: dy has the shape graph.gather would give.
  SmallVector<int64_t> expected(data.getShape().take_front(axis));
  llvm::append_range(expected, shapeOf(getIndices()));
  llvm::append_range(expected, data.getShape().drop_front(axis + 1));
  if (shapeOf(getDy()) != ArrayRef<int64_t>(expected))
    return emitOpError("requires dy of the gathered shape ")
           << shapeText(expected) << ", got " << shapeText(shapeOf(getDy()));
  // same_element_type
  if (cast<RankedTensorType>(getDy().getType()).getElementType() !=
      data.getElementType())
    return emitOpError("requires dy and the result of one element type");
  return success();
}

/// A coefficient in [0, 1) (betas, momentum, dampening may be 1 too when
/// `closed`).
static LogicalResult verifyCoefficient(Operation *op, StringRef name,
                                       double value, bool closed) {
  // optimizer_coefficient_in_range
  if (!std::isfinite(value) || value < 0 || value > 1 ||
      (!closed && value == 1))
    return op->emitOpError("requires ")
           << name << " in [0, 1" << (closed ? "]" : ")") << ", got " << value;
  return success();
}

/// AdamW's coefficients, shared by graph.adamw and graph.foreach_adamw.
template <typename AdamOp> static LogicalResult verifyAdamWAttrs(AdamOp op) {
  if (failed(verifyCoefficient(op, "beta1", op.getBeta1().convertToDouble(),
                               false)) ||
      failed(verifyCoefficient(op, "beta2", op.getBeta2().convertToDouble(),
                               false)))
    return failure();
  // adamw_eps_positive
  double eps = op.getEps().convertToDouble();
  if (!std::isfinite(eps) || eps <= 0)
    return op.emitOpError("requires a finite eps > 0, got ") << eps;
  // weight_decay_non_negative
  double wd = op.getWeightDecay().convertToDouble();
  if (!std::isfinite(wd) || wd < 0)
    return op.emitOpError("requires a finite weight_decay >= 0, got ") << wd;
  return success();
}

LogicalResult AdamWOp::verify() { return verifyAdamWAttrs(*this); }

LogicalResult ForeachAdamWOp::verify() {
  // foreach_adamw_not_empty
  if (getParams().empty())
    return emitOpError("requires at least one parameter");
  for (auto [j, param] : llvm::enumerate(getParams())) {
    Type type = param.getType();
    // foreach_adamw_f32_state
    if (!getElementTypeOrSelf(type).isF32())
      return emitOpError("requires f32 parameters, got ")
             << type << " for parameter " << j;
    // foreach_adamw_group_types
    Value group[] = {getExpAvgs()[j], getExpAvgSqs()[j], getNewParams()[j],
                     getNewExpAvgs()[j], getNewExpAvgSqs()[j]};
    for (Value v : group)
      if (v.getType() != type)
        return emitOpError("requires the moments and results of parameter ")
               << j << " to have its type " << type << ", got " << v.getType();
    // foreach_adamw_grad_type
    auto grad = cast<RankedTensorType>(getGrads()[j].getType());
    if (grad.getShape() != shapeOf(param) ||
        grad.getElementType().getIntOrFloatBitWidth() > 32)
      return emitOpError("requires gradient ")
             << j << " to have the shape of " << type
             << " and a floating type of at most 32 bits, got " << grad;
  }
  // foreach_adamw_copies
  if (!getNewParamCopies().empty() &&
      getNewParamCopies().size() != getParams().size())
    return emitOpError("requires no parameter copies or one per parameter, "
                       "got ")
           << getNewParamCopies().size() << " for " << getParams().size()
           << " parameters";
  for (auto [j, copy] : llvm::enumerate(getNewParamCopies())) {
    auto type = cast<RankedTensorType>(copy.getType());
    // foreach_adamw_copy_type
    if (type.getShape() != shapeOf(getParams()[j]) ||
        !isa<BFloat16Type, Float16Type>(type.getElementType()))
      return emitOpError("requires copy ")
             << j << " to have the shape of parameter " << j
             << " and a bf16 or f16 element type, got " << type;
  }
  return verifyAdamWAttrs(*this);
}

// `%lr, %step, %scale {attrs} [%p, %g, %m, %v : tensor<..>, tensor<..>], ...`
// with `-> T` before each `]` when the op returns the parameters' copies.
ParseResult ForeachAdamWOp::parse(OpAsmParser &parser, OperationState &state) {
  OpAsmParser::UnresolvedOperand lr, step, scale;
  if (parser.parseOperand(lr) || parser.parseComma() ||
      parser.parseOperand(step) || parser.parseComma() ||
      parser.parseOperand(scale) ||
      parser.parseOptionalAttrDict(state.attributes))
    return failure();
  SmallVector<OpAsmParser::UnresolvedOperand> groups[4];
  SmallVector<Type> paramTypes, gradTypes, copyTypes;
  auto parseGroup = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand v[4];
    Type paramType, gradType;
    if (parser.parseLSquare() || parser.parseOperand(v[0]) ||
        parser.parseComma() || parser.parseOperand(v[1]) ||
        parser.parseComma() || parser.parseOperand(v[2]) ||
        parser.parseComma() || parser.parseOperand(v[3]) ||
        parser.parseColon() || parser.parseType(paramType) ||
        parser.parseComma() || parser.parseType(gradType))
      return failure();
    if (succeeded(parser.parseOptionalArrow())) {
      Type element;
      auto param = dyn_cast<RankedTensorType>(paramType);
      if (parser.parseType(element))
        return failure();
      if (!param)
        return parser.emitError(parser.getCurrentLocation(),
                                "expected a ranked tensor parameter type");
      if (copyTypes.size() != paramTypes.size())
        return parser.emitError(parser.getCurrentLocation(),
                                "expected '-> T' in every group or none");
      copyTypes.push_back(param.clone(element));
    } else if (!copyTypes.empty()) {
      return parser.emitError(parser.getCurrentLocation(),
                              "expected '-> T' in every group or none");
    }
    if (parser.parseRSquare())
      return failure();
    for (int k = 0; k < 4; ++k)
      groups[k].push_back(v[k]);
    paramTypes.push_back(paramType);
    gradTypes.push_back(gradType);
    return success();
  };
  if (parser.parseCommaSeparatedList(parseGroup))
    return failure();
  Type scalar = RankedTensorType::get({}, parser.getBuilder().getF32Type());
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.resolveOperands(groups[0], paramTypes, loc, state.operands) ||
      parser.resolveOperands(groups[1], gradTypes, loc, state.operands) ||
      parser.resolveOperands(groups[2], paramTypes, loc, state.operands) ||
      parser.resolveOperands(groups[3], paramTypes, loc, state.operands) ||
      parser.resolveOperand(lr, scalar, state.operands) ||
      parser.resolveOperand(step, scalar, state.operands) ||
      parser.resolveOperand(scale, scalar, state.operands))
    return failure();
  for (int k = 0; k < 3; ++k)
    state.addTypes(paramTypes);
  state.addTypes(copyTypes);
  const int32_t n = int32_t(paramTypes.size());
  state.getOrAddProperties<Properties>().resultSegmentSizes = {
      n, n, n, int32_t(copyTypes.size())};
  return success();
}

void ForeachAdamWOp::print(OpAsmPrinter &p) {
  p << ' ' << getLr() << ", " << getStep() << ", " << getGradScale();
  p.printOptionalAttrDict((*this)->getAttrs(), {getResultSegmentSizeAttr()});
  p << ' ';
  llvm::interleaveComma(
      llvm::seq<size_t>(0, getParams().size()), p, [&](size_t j) {
        p << '[' << getParams()[j] << ", " << getGrads()[j] << ", "
          << getExpAvgs()[j] << ", " << getExpAvgSqs()[j] << " : "
          << getParams()[j].getType() << ", " << getGrads()[j].getType();
        if (!getNewParamCopies().empty())
          p << " -> " << getElementTypeOrSelf(getNewParamCopies()[j]);
        p << ']';
      });
}

LogicalResult ForeachSumSquareOp::verify() {
  auto result = cast<RankedTensorType>(getResult().getType());
  // foreach_sum_square_result
  if (getXs().empty() || !result.getElementType().isF32() ||
      result.getShape() != ArrayRef<int64_t>{int64_t(getXs().size())})
    return emitOpError("requires at least one operand and an f32 result of "
                       "one element per operand, got ")
           << getXs().size() << " operands and " << result;
  return success();
}

LogicalResult ForeachCastOp::verify() {
  // foreach_cast_pairs
  if (getXs().empty() || getXs().size() != getResults().size())
    return emitOpError("requires as many results as operands (at least "
                       "one), got ")
           << getXs().size() << " operands and " << getResults().size()
           << " results";
  Type from = getElementTypeOrSelf(getXs()[0].getType());
  Type to = getElementTypeOrSelf(getResults()[0].getType());
  for (auto [j, x, y] : llvm::enumerate(getXs(), getResults())) {
    // foreach_cast_types
    if (getElementTypeOrSelf(x.getType()) != from ||
        getElementTypeOrSelf(y.getType()) != to)
      return emitOpError("requires one operand and one result element type, "
                         "got ")
             << x.getType() << " -> " << y.getType() << " at " << j;
    // foreach_cast_shapes
    if (shapeOf(x) != shapeOf(y))
      return emitOpError("requires result ")
             << j << " to have the shape of its operand, got " << x.getType()
             << " -> " << y.getType();
  }
  return success();
}

LogicalResult SgdOp::verify() {
  if (failed(verifyCoefficient(*this, "momentum",
                               getMomentum().convertToDouble(), true)) ||
      failed(verifyCoefficient(*this, "dampening",
                               getDampening().convertToDouble(), true)))
    return failure();
  // weight_decay_non_negative
  double wd = getWeightDecay().convertToDouble();
  if (!std::isfinite(wd) || wd < 0)
    return emitOpError("requires a finite weight_decay >= 0, got ") << wd;
  return success();
}
