//===- ImporterContext.h - State shared by the ONNX op rules ---*- C++ -*-===//
//
// The import of one ONNX node: its inputs, attributes and outputs, and the
// helpers its op rule uses to build graph ops. Every builder here infers the
// result type and verifies the new op, so that a model with inconsistent
// shapes yields a diagnostic instead of an invalid module.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_LIB_IMPORTER_ONNX_IMPORTERCONTEXT_H
#define PARACC_LIB_IMPORTER_ONNX_IMPORTERCONTEXT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "paracc/Importer/ONNX/ONNXImporter.h"
#include "llvm/ADT/StringMap.h"

#include "paracc/Importer/ONNX/onnx.pb.h"

#include <climits>
#include <map>
#include <memory>
#include <string>

namespace mlir::paracc::onnximport {

/// A value of the ONNX graph: a tensor or a sequence of tensors.
struct OnnxValue {
  Value tensor;
  SmallVector<Value> sequence;
  bool isSequence = false;
};

class NodeContext;
/// Imports one node; returns failure after emitting a diagnostic.
using RuleFn = LogicalResult (*)(NodeContext &);

/// The op rules by op type, each valid from an opset version on.
class RuleTable {
public:
  /// Registers `fn` for `opType` from opset `since` (until the next
  /// registration of the same op type).
  void add(StringRef opType, int since, RuleFn fn);
  /// The rule for `opType` at `opset`, or null.
  RuleFn lookup(StringRef opType, int64_t opset) const;
  bool contains(StringRef opType) const { return rules.count(opType); }

private:
  llvm::StringMap<SmallVector<std::pair<int, RuleFn>, 2>> rules;
};

/// The table with every supported op.
const RuleTable &getRuleTable();

// Per-family registration, one per OpRules*.cpp.
void registerElementwiseRules(RuleTable &table);
void registerLinalgRules(RuleTable &table);
void registerNormalizationRules(RuleTable &table);
void registerConvolutionRules(RuleTable &table);
void registerAttentionRules(RuleTable &table);
void registerShapeRules(RuleTable &table);
void registerIndexingRules(RuleTable &table);
void registerResizeRules(RuleTable &table);
void registerReductionRules(RuleTable &table);
void registerSequenceRules(RuleTable &table);
void registerMiscRules(RuleTable &table);

/// Marks failures as unsupported-feature failures.
struct ImportStatus {
  bool unsupported = false;
  /// The external-data files mapped so far, by resolved path: every
  /// initializer in one file shares one mapping (a 7B model's few hundred
  /// tensors in one file map it once, not once per tensor).
  std::map<std::string, std::shared_ptr<MappedFile>> externalFiles;
};

/// A static shape for messages: "[2,16,64]".
std::string shapeStr(ArrayRef<int64_t> shape);

/// Converts an ONNX TensorProto data type to an MLIR element type (null if
/// unsupported).
Type elementTypeFromOnnx(MLIRContext *ctx, int32_t dataType);

/// Converts a TensorProto with its data (embedded or external under
/// `modelDir`) to a dense constant; diagnostics at `loc`.
FailureOr<DenseElementsAttr> constantFromTensorProto(const onnx::TensorProto &t,
                                                     const std::string &modelDir,
                                                     Location loc,
                                                     ImportStatus &status);

/// Describes an initializer's data for the weight store without copying
/// external data.
FailureOr<WeightEntry> weightFromTensorProto(const onnx::TensorProto &t,
                                             const std::string &modelDir,
                                             Location loc, ImportStatus &status,
                                             bool allowMissingData = false,
                                             bool shapesOnly = false);

/// One node being imported.
class NodeContext {
public:
  NodeContext(OpBuilder &builder, const onnx::NodeProto &node, int64_t opset,
              Location loc, llvm::StringMap<OnnxValue> &values,
              ImportStatus &status);

  OpBuilder &b;
  const onnx::NodeProto &node;
  const int64_t opset;
  const Location loc;

  MLIRContext *getContext() { return b.getContext(); }

  //===--- Diagnostics -----------------------------------------------------===//

  /// Reports that the node uses something paracc does not support.
  LogicalResult unsupported(const Twine &what);
  /// Reports an invalid node.
  LogicalResult error(const Twine &what);

  //===--- Inputs ----------------------------------------------------------===//

  /// Number of inputs, including trailing empty (omitted) ones.
  unsigned numInputs() const { return node.input_size(); }
  /// Whether input `i` is given (not omitted).
  bool hasInput(unsigned i) const {
    return i < numInputs() && !node.input(i).empty();
  }
  /// The tensor of input `i`; fails if it is omitted or a sequence.
  FailureOr<Value> input(unsigned i);
  /// Whether input `i` is a defined sequence.
  bool isSequenceInput(unsigned i) const;
  /// The tensors of a sequence input.
  FailureOr<SmallVector<Value>> sequenceInput(unsigned i);
  /// Input `i`'s type (input must exist).
  RankedTensorType inputType(unsigned i);
  /// The constant value of input `i`, or null if it is not a constant.
  DenseElementsAttr constantInput(unsigned i);
  /// The integers of constant input `i`; `what` names it in errors.
  FailureOr<SmallVector<int64_t>> intsInput(unsigned i, StringRef what);
  /// The value of a constant scalar (or one-element) float input.
  FailureOr<double> floatInput(unsigned i, StringRef what);

  //===--- Attributes ------------------------------------------------------===//

  const onnx::AttributeProto *attr(StringRef name) const;
  bool hasAttr(StringRef name) const { return attr(name) != nullptr; }
  int64_t intAttr(StringRef name, int64_t defaultValue) const;
  double floatAttr(StringRef name, double defaultValue) const;
  std::string stringAttr(StringRef name, StringRef defaultValue) const;
  SmallVector<int64_t> intsAttr(StringRef name) const;

  //===--- Outputs ---------------------------------------------------------===//

  unsigned numOutputs() const { return node.output_size(); }
  bool hasOutput(unsigned i) const {
    return i < numOutputs() && !node.output(i).empty();
  }
  void setOutput(unsigned i, Value v);
  void setSequenceOutput(unsigned i, SmallVector<Value> values);

  //===--- Builders --------------------------------------------------------===//

  /// Builds an op whose result types are inferred; fails with the
  /// inference diagnostic when the operands do not fit.
  template <typename OpTy, typename... Args>
  FailureOr<Value> build(Args &&...args) {
    OperationState state(loc, OpTy::getOperationName());
    OpTy::build(b, state, Type(), std::forward<Args>(args)...);
    state.types.clear();
    SmallVector<Type> types;
    if (failed(OpTy::inferReturnTypes(
            getContext(), loc, state.operands,
            state.attributes.getDictionary(getContext()),
            state.getRawProperties(), state.regions, types)))
      return failure();
    state.addTypes(types);
    Operation *op = finish(b.create(state));
    if (!op)
      return failure();
    return op->getResult(0);
  }

  /// Builds an op with explicit result type(s) and verifies it.
  template <typename OpTy, typename... Args>
  FailureOr<Operation *> buildTyped(Args &&...args) {
    OperationState state(loc, OpTy::getOperationName());
    OpTy::build(b, state, std::forward<Args>(args)...);
    Operation *op = finish(b.create(state));
    if (!op)
      return failure();
    return op;
  }

  /// A graph.constant.
  Value constant(DenseElementsAttr value);
  /// A 0-d constant of `elementType` holding `value`.
  Value scalar(Type elementType, double value);
  /// Converts to `elementType` (no-op if already of that type).
  FailureOr<Value> castTo(Value v, Type elementType);
  /// Reshapes to `shape` (no-op if already of that shape).
  FailureOr<Value> reshapeTo(Value v, ArrayRef<int64_t> shape);
  /// Broadcasts to `shape`.
  FailureOr<Value> expandTo(Value v, ArrayRef<int64_t> shape);
  /// Normalizes a possibly negative axis for a tensor of rank `rank`.
  FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                   StringRef what = "axis");

private:
  /// Verifies `op`; erases it and returns null on failure.
  Operation *finish(Operation *op);

  llvm::StringMap<OnnxValue> &values;
  ImportStatus &status;
};

} // namespace mlir::paracc::onnximport

#endif // PARACC_LIB_IMPORTER_ONNX_IMPORTERCONTEXT_H
