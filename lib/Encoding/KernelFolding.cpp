//===- KernelFolding.cpp - Constant folding with runtime kernels *- C++ -*-===//
//
// Folds ops on constants by running the runtime's CPU kernels.
//
//===----------------------------------------------------------------------===//

#include "paracc/Encoding/KernelFolding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Encoding/OpEncoding.h"
#include "paracc/runtime/Kernels.h"

#include <cstring>

using namespace mlir;
using namespace mlir::paracc;

FailureOr<rt::Tensor> mlir::paracc::tensorFromAttr(DenseElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  std::optional<rt::DType> dtype = toDType(type.getElementType());
  if (!dtype)
    return failure();
  auto tensor = rt::Tensor::allocate(
      *dtype, rt::Shape(type.getShape().begin(), type.getShape().end()));
  if (!tensor)
    return failure();
  if (type.getElementType().isInteger(1)) {
    auto *out = tensor->as<uint8_t>();
    for (bool v : attr.getValues<bool>())
      *out++ = v;
    return std::move(*tensor);
  }
  ArrayRef<char> raw = attr.getRawData();
  size_t elementSize = rt::dtypeSize(*dtype);
  auto *out = tensor->as<char>();
  if (attr.isSplat()) {
    for (int64_t i = 0; i < tensor->numElements(); ++i)
      std::memcpy(out + i * elementSize, raw.data(), elementSize);
  } else {
    if (raw.size() != tensor->byteSize())
      return failure();
    if (!raw.empty()) // an empty tensor's data may be null
      std::memcpy(out, raw.data(), raw.size());
  }
  return std::move(*tensor);
}

DenseElementsAttr mlir::paracc::attrFromTensor(RankedTensorType type,
                                               const rt::Tensor &tensor) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> values;
    values.reserve(tensor.numElements());
    const auto *in = tensor.as<uint8_t>();
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      values.push_back(in[i] != 0);
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(tensor.as<char>(), tensor.byteSize()));
}

FailureOr<std::vector<rt::Tensor>>
mlir::paracc::evaluateOnTensors(Operation *op,
                                ArrayRef<const rt::Tensor *> operands,
                                int64_t maxResultElements,
                                std::optional<rt::DType> resultDType) {
  std::optional<rt::OpCode> opcode;
  {
    // Only graph ops with a kernel fold; anything else stays.
    StringRef name = op->getName().getStringRef();
    if (!name.consume_front("graph."))
      return failure();
    opcode = rt::opCodeFromMnemonic(std::string_view(name.data(), name.size()));
    if (!opcode || rt::isCollective(*opcode))
      return failure();
  }
  std::vector<rt::Tensor> outputs;
  for (Type t : op->getResultTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked || !ranked.hasStaticShape() ||
        ranked.getNumElements() > maxResultElements ||
        !toDType(ranked.getElementType()))
      return failure();
    auto out = rt::Tensor::allocate(
        resultDType ? *resultDType : *toDType(ranked.getElementType()),
        rt::Shape(ranked.getShape().begin(), ranked.getShape().end()));
    if (!out)
      return failure();
    outputs.push_back(std::move(*out));
  }
  FailureOr<EncodedOp> encoded = encodeOp(op);
  if (failed(encoded))
    return failure();
  std::vector<const rt::Tensor *> inputPtrs(operands.begin(), operands.end());
  std::vector<rt::Tensor *> outputPtrs;
  for (rt::Tensor &t : outputs)
    outputPtrs.push_back(&t);
  rt::Status status =
      rt::runCpuKernel(encoded->opcode, encoded->attrs, inputPtrs, outputPtrs);
  if (!status) {
    // With other element types than the op's (resultDType) a kernel may
    // refuse what the op itself would run: that is a plain failure.
    if (!resultDType)
      op->emitError("cannot evaluate on constants: ") << status.message();
    return failure();
  }
  return outputs;
}

FailureOr<SmallVector<DenseElementsAttr>>
mlir::paracc::evaluateWithKernels(Operation *op,
                                  ArrayRef<DenseElementsAttr> operands,
                                  int64_t maxResultElements) {
  std::vector<rt::Tensor> inputs;
  for (DenseElementsAttr attr : operands) {
    FailureOr<rt::Tensor> t = tensorFromAttr(attr);
    if (failed(t))
      return failure();
    inputs.push_back(std::move(*t));
  }
  SmallVector<const rt::Tensor *> inputPtrs;
  for (rt::Tensor &t : inputs)
    inputPtrs.push_back(&t);
  FailureOr<std::vector<rt::Tensor>> outputs =
      evaluateOnTensors(op, inputPtrs, maxResultElements);
  if (failed(outputs))
    return failure();
  SmallVector<DenseElementsAttr> results;
  for (auto [type, tensor] : llvm::zip(op->getResultTypes(), *outputs))
    results.push_back(attrFromTensor(cast<RankedTensorType>(type), tensor));
  return results;
}

int64_t mlir::paracc::foldConstantOps(
    Block::iterator begin, Block::iterator end, int64_t maxResultElements,
    function_ref<void(Value, Value)> onReplace) {
  int64_t folded = 0;
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(begin, end))) {
    if (op.getNumOperands() == 0 || op.getNumResults() == 0)
      continue;
    SmallVector<DenseElementsAttr> operands;
    for (Value v : op.getOperands()) {
      auto constant = v.getDefiningOp<graph::ConstantOp>();
      auto dense =
          constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
      if (!dense)
        break;
      operands.push_back(dense);
    }
    if (operands.size() != op.getNumOperands())
      continue;
    auto results = evaluateWithKernels(&op, operands, maxResultElements);
    if (failed(results))
      continue;
    OpBuilder builder(&op);
    for (auto [result, value] : llvm::zip(op.getResults(), *results)) {
      Value replacement = graph::ConstantOp::create(builder, op.getLoc(), value);
      result.replaceAllUsesWith(replacement);
      if (onReplace)
        onReplace(result, replacement);
    }
    op.erase();
    ++folded;
  }
  return folded;
}
