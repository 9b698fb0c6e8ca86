//===- OpEncoding.cpp - Graph ops as runtime instructions ------*- C++ -*-===//
//
// Implements the op -> instruction mapping. Graph op mnemonics equal the
// runtime's instruction mnemonics, so only ops with attributes need code.
//
//===----------------------------------------------------------------------===//

#include "paracc/Encoding/OpEncoding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::paracc;
using rt::DType;

std::optional<DType> mlir::paracc::toDType(Type t) {
  if (t.isF32())
    return DType::F32;
  if (t.isF64())
    return DType::F64;
  if (t.isF16())
    return DType::F16;
  if (t.isBF16())
    return DType::BF16;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return std::nullopt;
  bool isUnsigned = i.isUnsigned();
  switch (i.getWidth()) {
  case 1:
    return i.isSignless() ? std::optional(DType::Bool) : std::nullopt;
  case 8:
    return isUnsigned ? DType::U8 : DType::I8;
  case 16:
    return isUnsigned ? DType::U16 : DType::I16;
  case 32:
    return isUnsigned ? DType::U32 : DType::I32;
  case 64:
    return isUnsigned ? DType::U64 : DType::I64;
  default:
    return std::nullopt;
  }
}

Type mlir::paracc::fromDType(MLIRContext *ctx, DType dtype) {
  Builder b(ctx);
  switch (dtype) {
  case DType::F32:
    return b.getF32Type();
  case DType::F64:
    return b.getF64Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::Bool:
    return b.getI1Type();
  case DType::I8:
    return b.getI8Type();
  case DType::I16:
    return b.getI16Type();
  case DType::I32:
    return b.getI32Type();
  case DType::I64:
    return b.getI64Type();
  case DType::U8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case DType::U16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case DType::U32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case DType::U64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case DType::Invalid:
    break;
  }
  return Type();
}

namespace {
/// Collects an instruction's attributes.
struct AttrList {
  rt::InstrAttrs attrs;
  AttrList &i(int64_t v) {
    attrs.ints.push_back(v);
    return *this;
  }
  AttrList &i(ArrayRef<int64_t> vs) {
    attrs.ints.insert(attrs.ints.end(), vs.begin(), vs.end());
    return *this;
  }
  AttrList &f(double v) {
    attrs.floats.push_back(v);
    return *this;
  }
};
} // namespace

static int64_t reductionCode(StringRef reduction) {
  return reduction == "none" ? 0 : reduction == "sum" ? 1 : 2;
}

/// The attributes of `op`'s instruction (empty for ops that have none).
static rt::InstrAttrs encodeAttrs(Operation *op) {
  using namespace mlir::paracc::graph;
  AttrList a;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](GeluOp g) { a.i(g.getApproximate() == "tanh"); })
      .Case([&](IsInfOp g) {
        a.i(g.getDetectPositive()).i(g.getDetectNegative());
      })
      .Case([&](ModOp g) { a.i(g.getFmod()); })
      .Case([&](ClipOp g) {
        a.f(g.getMin().convertToDouble()).f(g.getMax().convertToDouble());
      })
      .Case([&](GemmOp g) {
        a.i(g.getTransA()).i(g.getTransB());
        a.f(g.getAlpha().convertToDouble()).f(g.getBeta().convertToDouble());
      })
      .Case<LayerNormOp, RmsNormOp, LayerNormGradOp, RmsNormGradOp>(
          [&](auto g) { a.i(g.getAxis()).f(g.getEpsilon().convertToDouble()); })
      .Case([&](GeluGradOp g) { a.i(g.getApproximate() == "tanh"); })
      .Case([&](RotaryOp g) { a.i(g.getTransposed()); })
      .Case([&](CrossEntropyGradOp g) {
        a.i(g.getLogProb())
            .i(g.getIgnoreIndex().has_value())
            .i(g.getIgnoreIndex().value_or(0));
      })
      .Case([&](GatherGradOp g) { a.i(g.getAxis()); })
      .Case<ConvOp, ConvTransposeOp, ConvWeightGradOp>([&](auto g) {
        a.i(g.getGroup())
            .i(g.getStrides())
            .i(g.getPadsBegin())
            .i(g.getPadsEnd())
            .i(g.getDilations());
      })
      .Case<PoolOp, PoolGradOp>([&](auto g) {
        a.i(g.getKind() == "avg")
            .i(g.getCountIncludePad())
            .i(g.getKernel())
            .i(g.getStrides())
            .i(g.getPadsBegin())
            .i(g.getPadsEnd());
      })
      .Case<AdamWOp, ForeachAdamWOp>([&](auto g) {
        a.f(g.getBeta1().convertToDouble())
            .f(g.getBeta2().convertToDouble())
            .f(g.getEps().convertToDouble())
            .f(g.getWeightDecay().convertToDouble());
      })
      .Case([&](SgdOp g) {
        a.f(g.getMomentum().convertToDouble())
            .f(g.getDampening().convertToDouble())
            .f(g.getWeightDecay().convertToDouble())
            .f(g.getNesterov() ? 1.0 : 0.0);
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](auto g) { a.i(g.getAxis()); })
      .Case<GatherOp, GatherElementsOp>([&](auto g) { a.i(g.getAxis()); })
      .Case([&](GatherNDOp g) { a.i(g.getBatchDims()); })
      .Case([&](TransposeOp g) { a.i(g.getPerm()); })
      .Case([&](SliceOp g) { a.i(g.getStarts()).i(g.getSteps()); })
      .Case([&](ConcatOp g) { a.i(g.getAxis()); })
      .Case([&](SplitOp g) { a.i(g.getAxis()); })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceSumSquareOp>(
          [&](auto g) { a.i(g.getKeepdims()).i(g.getAxes()); })
      .Case<ArgMaxOp, ArgMinOp>([&](auto g) {
        a.i(g.getAxis()).i(g.getKeepdims()).i(g.getSelectLastIndex());
      })
      .Case<SoftmaxCrossEntropyOp, NllLossOp>([&](auto g) {
        a.i(reductionCode(g.getReduction()))
            .i(g.getIgnoreIndex().has_value())
            .i(g.getIgnoreIndex().value_or(0));
      })
      .Case([&](CumSumOp g) {
        a.i(g.getAxis()).i(g.getExclusive()).i(g.getReverse());
      })
      .Case([&](TriluOp g) { a.i(g.getUpper()).i(g.getK()); })
      .Case([&](DropoutOp g) {
        a.i(int64_t(g.getSeed())).i(int64_t(g.getStream()));
        a.f(g.getRatio().convertToDouble());
      })
      .Case([&](LinearOp g) {
        // activation, which optional operands there are (1: bias, 2:
        // residual), then the group whose first member alone adds them.
        StringRef act = g.getActivation();
        a.i(act == "gelu_tanh" ? 1 : act == "gelu" ? 2 : act == "relu" ? 3 : 0);
        a.i((g.getBias() ? 1 : 0) | (g.getResidual() ? 2 : 0));
      })
      .Case<AttentionOp, AttentionWithStatsOp, AttentionGradOp>([&](auto g) {
        a.i(g.getCausal()).i(g.getSequenceFirst()).i(g.getWindow());
        // Saved statistics: the forward's second result, the backward's
        // last two operands.
        if constexpr (std::is_same_v<decltype(g), AttentionOp>)
          a.i(0);
        else if constexpr (std::is_same_v<decltype(g), AttentionWithStatsOp>)
          a.i(1);
        else
          a.i(g.getStats() ? 1 : 0);
        a.f(g.getScale().convertToDouble());
      });
  return a.attrs;
}

/// Collective attributes: the group (count, mesh axis indices), then the
/// op's own integers.
static FailureOr<rt::InstrAttrs> encodeCollective(Operation *op) {
  using namespace mlir::paracc::dist;
  MeshAttr mesh = getMesh(op);
  if (!mesh)
    return op->emitOpError("has no mesh to resolve its axes");
  AttrList a;
  auto group = [&](ArrayRef<StringAttr> axes) {
    a.i(int64_t(axes.size()));
    for (StringAttr axis : axes)
      a.i(int64_t(*mesh.getAxisIndex(axis.getValue())));
  };
  auto groupOf = [&](ArrayAttr axes) {
    SmallVector<StringAttr> names;
    for (Attribute x : axes)
      names.push_back(cast<StringAttr>(x));
    group(names);
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllReduceOp c) {
        groupOf(c.getAxes());
        a.i(c.getKind() == "max" ? 1 : 0);
      })
      .Case([&](AllGatherOp c) {
        groupOf(c.getAxes());
        a.i(c.getDim());
      })
      .Case([&](ReduceScatterOp c) {
        groupOf(c.getAxes());
        a.i(c.getDim());
      })
      .Case([&](AllToAllOp c) {
        groupOf(c.getAxes());
        a.i(c.getSplitDim()).i(c.getConcatDim());
      })
      .Case([&](BroadcastOp c) {
        groupOf(c.getAxes());
        a.i(c.getRoot());
      })
      .Case([&](SendOp c) {
        groupOf(c.getAxes());
        a.i(c.getTo()).i(c.getTag());
      })
      .Case([&](RecvOp c) {
        groupOf(c.getAxes());
        a.i(c.getFrom()).i(c.getTag());
      })
      .Case([&](AxisIndexOp c) { groupOf(c.getAxes()); })
      .Case([&](LocalShardOp c) {
        group({});
        ShardingAttr s = c.getSharding();
        for (int64_t d = 0; d < s.getRank(); ++d)
          group(s.getDimAxes(d));
      });
  return a.attrs;
}

FailureOr<EncodedOp> mlir::paracc::encodeOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  auto [dialect, mnemonic] = name.split('.');
  std::optional<rt::OpCode> opcode;
  if (dialect == "graph" || dialect == "dist")
    opcode = rt::opCodeFromMnemonic(std::string_view(mnemonic.data(),
                                                     mnemonic.size()));
  // The forward that keeps its statistics is the Attention instruction with
  // a second result (ints[3]).
  if (isa<graph::AttentionWithStatsOp>(op))
    opcode = rt::OpCode::Attention;
  if (!opcode)
    return op->emitOpError("has no runtime instruction");
  if (dialect == "dist") {
    FailureOr<rt::InstrAttrs> attrs = encodeCollective(op);
    if (failed(attrs))
      return failure();
    return EncodedOp{*opcode, *attrs};
  }
  rt::InstrAttrs attrs = encodeAttrs(op);
  if (auto axes = op->getAttrOfType<ArrayAttr>(dist::kAddendsOnFirstAttrName)) {
    dist::MeshAttr mesh = dist::getMesh(op);
    if (!isa<graph::LinearOp>(op) || !mesh)
      return op->emitOpError("has ")
             << dist::kAddendsOnFirstAttrName
             << " but is not a graph.linear in a module with a mesh";
    attrs.ints.push_back(int64_t(axes.size()));
    for (Attribute x : axes) {
      auto name = dyn_cast<StringAttr>(x);
      std::optional<unsigned> index =
          name ? mesh.getAxisIndex(name.getValue()) : std::nullopt;
      if (!index)
        return op->emitOpError(dist::kAddendsOnFirstAttrName)
               << " names " << x << ", not an axis of the mesh";
      attrs.ints.push_back(int64_t(*index));
    }
  }
  return EncodedOp{*opcode, attrs};
}
