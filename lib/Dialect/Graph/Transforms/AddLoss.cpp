//===- AddLoss.cpp - A logits model as a loss model ------------*- C++ -*-===//
//
// Implements `--paracc-add-loss` (Passes.td): `paracc train --loss
// next-token-ce` and `--loss ce` train models that return logits.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::paracc::graph {
#define GEN_PASS_DEF_ADDLOSSPASS
#include "paracc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::paracc::graph

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::graph;

namespace {

struct AddLossPass : public graph::impl::AddLossPassBase<AddLossPass> {
  using AddLossPassBase::AddLossPassBase;

  void runOnOperation() override {
    if (failed(run(getOperation())))
      signalPassFailure();
  }

  /// `x` sliced along `dim` to [start, limit).
  static Value slice(OpBuilder &b, Location loc, Value x, int64_t dim,
                     int64_t start, int64_t limit) {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
        steps(type.getRank(), 1);
    starts[dim] = start;
    limits[dim] = limit;
    return SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(starts),
                           b.getDenseI64ArrayAttr(limits),
                           b.getDenseI64ArrayAttr(steps));
  }

  static Value reshape(OpBuilder &b, Location loc, Value x,
                       ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(x.getType());
    return ReshapeOp::create(b, loc, type.clone(shape), x);
  }

  LogicalResult run(func::FuncOp func) {
    if (kind != "next-token-ce" && kind != "ce")
      return func.emitOpError("loss kind must be next-token-ce or ce, got '")
             << kind << "'";
    Block &body = func.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    auto logitsType =
        ret.getNumOperands() == 1
            ? dyn_cast<RankedTensorType>(ret.getOperand(0).getType())
            : RankedTensorType();
    if (!logitsType || logitsType.getRank() != 3 ||
        !isa<FloatType>(logitsType.getElementType()))
      return func.emitOpError("needs one float logits result [batch, seq, "
                              "vocabulary] to add a loss to");
    int64_t batch = logitsType.getDimSize(0), seq = logitsType.getDimSize(1),
            vocab = logitsType.getDimSize(2);
    Value logits = ret.getOperand(0);
    Location loc = ret.getLoc();
    OpBuilder b(ret);
    Value scores, labels;
    if (kind == "next-token-ce") {
      BlockArgument ids;
      for (BlockArgument arg : body.getArguments()) {
        auto t = cast<RankedTensorType>(arg.getType());
        if (isa<IntegerType>(t.getElementType()) && t.getRank() == 2) {
          ids = arg;
          break;
        }
      }
      if (!ids || cast<RankedTensorType>(ids.getType()).getShape() !=
                      ArrayRef<int64_t>{batch, seq})
        return func.emitOpError("has no token input [")
               << batch << ", " << seq
               << "] matching its logits to shift into labels";
      if (seq < 2)
        return func.emitOpError("needs sequences of at least 2 tokens for a "
                                "next-token loss");
      scores = reshape(b, loc, slice(b, loc, logits, 1, 0, seq - 1),
                       {batch * (seq - 1), vocab});
      labels =
          reshape(b, loc, slice(b, loc, ids, 1, 1, seq), {batch * (seq - 1)});
    } else {
      unsigned n = func.getNumArguments();
      auto type = RankedTensorType::get({batch, seq}, b.getI64Type());
      if (failed(func.insertArgument(
              n, type,
              b.getDictionaryAttr(
                  {b.getNamedAttr(graph::kNameAttrName, b.getStringAttr("labels"))}),
              loc)))
        return func.emitOpError("cannot add the labels input");
      scores = reshape(b, loc, logits, {batch * seq, vocab});
      labels = reshape(b, loc, body.getArgument(n), {batch * seq});
    }
    auto lossType = RankedTensorType::get({}, logitsType.getElementType());
    auto loss = SoftmaxCrossEntropyOp::create(
        b, loc, TypeRange{lossType}, scores, labels, Value(),
        b.getStringAttr("mean"), IntegerAttr());
    func::ReturnOp::create(b, loc, ValueRange{loss->getResult(0)});
    ret.erase();
    SmallVector<Type> args(body.getArgumentTypes());
    func.setType(FunctionType::get(&getContext(), args, {lossType}));
    SmallVector<DictionaryAttr> resultAttrs{b.getDictionaryAttr(
        {b.getNamedAttr(graph::kNameAttrName, b.getStringAttr("loss"))})};
    func.setAllResultAttrs(resultAttrs);
    return success();
  }
};

} // namespace
