//===- FusedProgramEncoding.cpp - A fused body as a program ----*- C++ -*-===//
//
// Encodes a graph.fused_elementwise body as the FusedElementwise
// instruction's program (OpCodes.def): one step per body op, through the
// same op -> instruction mapping as any op, and one immediate per constant.
//
//===----------------------------------------------------------------------===//

#include "FusedProgramEncoding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Encoding/OpEncoding.h"

using namespace mlir;
using namespace mlir::paracc;

static std::optional<int64_t> dtypeCode(Value v) {
  std::optional<rt::DType> d =
      toDType(cast<RankedTensorType>(v.getType()).getElementType());
  if (!d)
    return std::nullopt;
  return int64_t(*d);
}

FailureOr<rt::FusedElementwiseAttrs>
mlir::paracc::encodeFusedProgram(graph::FusedElementwiseOp op) {
  rt::FusedElementwiseAttrs out;
  DenseMap<Value, int64_t> reg;
  Block &body = op.getBodyBlock();
  for (BlockArgument arg : body.getArguments())
    reg[arg] = int64_t(reg.size());
  std::vector<int64_t> steps;
  int64_t stepCount = 0;
  for (Operation &inner : body.without_terminator()) {
    std::optional<int64_t> dtype = dtypeCode(inner.getResult(0));
    if (!dtype)
      return inner.emitOpError("has an element type a fused program lacks");
    if (auto constant = dyn_cast<graph::ConstantOp>(inner)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat())
        return inner.emitOpError("in a fused body must be a splat");
      double value = dense.getElementType().isInteger(1)
                         ? double(dense.getSplatValue<bool>())
                         : dense.getSplatValue<APFloat>().convertToDouble();
      steps.insert(steps.end(), {-1, *dtype, 0, 0, 1});
      out.floats.push_back(value);
    } else {
      FailureOr<EncodedOp> encoded = encodeOp(&inner);
      if (failed(encoded))
        return failure();
      steps.push_back(int64_t(encoded->opcode));
      steps.push_back(*dtype);
      steps.push_back(int64_t(inner.getNumOperands()));
      for (Value v : inner.getOperands())
        steps.push_back(reg.lookup(v));
      steps.push_back(int64_t(encoded->attrs.ints.size()));
      steps.insert(steps.end(), encoded->attrs.ints.begin(),
                   encoded->attrs.ints.end());
      steps.push_back(int64_t(encoded->attrs.floats.size()));
      out.floats.insert(out.floats.end(), encoded->attrs.floats.begin(),
                        encoded->attrs.floats.end());
    }
    reg[inner.getResult(0)] = int64_t(reg.size());
    ++stepCount;
  }
  out.program.push_back(stepCount);
  out.program.insert(out.program.end(), steps.begin(), steps.end());
  for (Value v : body.getTerminator()->getOperands())
    out.program.push_back(reg.lookup(v));
  return out;
}
