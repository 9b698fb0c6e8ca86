//===- OpEncoding.cpp - Graph ops as runtime instructions ------*- C++ -*-===//
//
// Implements the op -> instruction mapping. Graph op mnemonics equal the
// runtime's instruction mnemonics, so only ops with attributes need code.
//
//===----------------------------------------------------------------------===//

#include "paracc/Encoding/OpEncoding.h"
#include "FusedProgramEncoding.h"
#include "ValuesOverRanks.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/StringSwitch.h"
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

static int64_t reductionCode(StringRef reduction) {
  return reduction == "none" ? 0 : reduction == "sum" ? 1 : 2;
}

static double toDouble(const APFloat &v) { return v.convertToDouble(); }

/// A mixture of experts' activation as OpCodes.def numbers it.
static int64_t moeActivationCode(StringRef activation) {
  return llvm::StringSwitch<int64_t>(activation)
      .Case("gelu", 1)
      .Case("gelu_tanh", 2)
      .Case("relu", 3)
      .Default(0);
}

/// The typed attributes of `op`'s instruction (monostate for ops that have
/// none), in the fields OpCodes.def declares; rt::encodeOpAttrs stores them
/// in its order.
/// Whether an attention's start operand provably lies in [0, Sk - Sq] on
/// every rank (the all-gather algorithm's blocks of queries): cuDNN can run
/// those.
template <typename AttentionOpT> static bool startWithinKeys(AttentionOpT op) {
  std::optional<SmallVector<int64_t>> starts =
      valuesOverRanks(op.getQueryStart());
  if (!starts)
    return false;
  auto q = cast<RankedTensorType>(op.getQ().getType());
  auto k = cast<RankedTensorType>(op.getK().getType());
  const int64_t seq = q.getRank() - (op.getSequenceFirst() ? 3 : 2);
  const int64_t room = k.getDimSize(seq) - q.getDimSize(seq);
  return llvm::all_of(*starts, [&](int64_t s) { return s >= 0 && s <= room; });
}

static rt::OpAttrs typedAttrs(Operation *op) {
  using namespace mlir::paracc::graph;
  rt::OpAttrs out;
  llvm::TypeSwitch<Operation *>(op)
      .Case<GeluOp, GeluGradOp>([&](auto g) {
        rt::GeluAttrs a;
        a.tanhApproximation = g.getApproximate() == "tanh";
        out = a;
      })
      .Case([&](IsInfOp g) {
        rt::IsInfAttrs a;
        a.detectPositive = g.getDetectPositive();
        a.detectNegative = g.getDetectNegative();
        out = a;
      })
      .Case([&](ModOp g) {
        rt::ModAttrs a;
        a.fmod = g.getFmod();
        out = a;
      })
      .Case([&](ClipOp g) {
        rt::ClipAttrs a;
        a.min = toDouble(g.getMin());
        a.max = toDouble(g.getMax());
        out = a;
      })
      .Case([&](GemmOp g) {
        rt::GemmAttrs a;
        a.transA = g.getTransA();
        a.transB = g.getTransB();
        a.alpha = toDouble(g.getAlpha());
        a.beta = toDouble(g.getBeta());
        out = a;
      })
      .Case<LayerNormOp, RmsNormOp, LayerNormGradOp, RmsNormGradOp>(
          [&](auto g) {
            rt::LayerNormAttrs a;
            a.axis = g.getAxis();
            a.epsilon = toDouble(g.getEpsilon());
            out = a;
          })
      .Case([&](RotaryOp g) {
        rt::RotaryAttrs a;
        a.transposed = g.getTransposed();
        out = a;
      })
      .Case([&](CrossEntropyGradOp g) {
        rt::CrossEntropyGradAttrs a;
        a.logProbScores = g.getLogProb();
        a.hasIgnoreIndex = g.getIgnoreIndex().has_value();
        a.ignoreIndex = g.getIgnoreIndex().value_or(0);
        a.savedStats = bool(g.getStats());
        out = a;
      })
      .Case<ConvOp, ConvTransposeOp, ConvWeightGradOp>([&](auto g) {
        rt::ConvAttrs a;
        a.groups = g.getGroup();
        for (ArrayRef<int64_t> part : {g.getStrides(), g.getPadsBegin(),
                                       g.getPadsEnd(), g.getDilations()})
          a.window.insert(a.window.end(), part.begin(), part.end());
        out = a;
      })
      .Case<PoolOp, PoolGradOp>([&](auto g) {
        rt::PoolAttrs a;
        a.average = g.getKind() == "avg";
        a.countIncludePad = g.getCountIncludePad();
        for (ArrayRef<int64_t> part :
             {g.getKernel(), g.getStrides(), g.getPadsBegin(), g.getPadsEnd()})
          a.window.insert(a.window.end(), part.begin(), part.end());
        out = a;
      })
      .Case<AdamWOp, ForeachAdamWOp>([&](auto g) {
        rt::AdamWAttrs a;
        a.beta1 = toDouble(g.getBeta1());
        a.beta2 = toDouble(g.getBeta2());
        a.eps = toDouble(g.getEps());
        a.weightDecay = toDouble(g.getWeightDecay());
        out = a;
      })
      .Case([&](SgdOp g) {
        rt::SgdAttrs a;
        a.momentum = toDouble(g.getMomentum());
        a.dampening = toDouble(g.getDampening());
        a.weightDecay = toDouble(g.getWeightDecay());
        a.nesterov = g.getNesterov() ? 1.0 : 0.0;
        out = a;
      })
      .Case<SoftmaxOp, LogSoftmaxOp>([&](auto g) {
        rt::SoftmaxAttrs a;
        a.axis = g.getAxis();
        out = a;
      })
      .Case<GatherOp, GatherElementsOp, GatherGradOp>([&](auto g) {
        rt::GatherAttrs a;
        a.axis = g.getAxis();
        out = a;
      })
      .Case([&](GatherNDOp g) {
        rt::GatherNDAttrs a;
        a.batchDims = g.getBatchDims();
        out = a;
      })
      .Case([&](TransposeOp g) {
        rt::TransposeAttrs a;
        a.perm.assign(g.getPerm().begin(), g.getPerm().end());
        out = a;
      })
      .Case([&](SliceOp g) {
        rt::SliceAttrs a;
        a.startsThenSteps.assign(g.getStarts().begin(), g.getStarts().end());
        a.startsThenSteps.insert(a.startsThenSteps.end(), g.getSteps().begin(),
                                 g.getSteps().end());
        out = a;
      })
      .Case<ConcatOp, SplitOp>([&](auto g) {
        rt::ConcatAttrs a;
        a.axis = g.getAxis();
        out = a;
      })
      .Case<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
            ReduceSumSquareOp>([&](auto g) {
        rt::ReduceSumAttrs a;
        a.keepDims = g.getKeepdims();
        a.axes.assign(g.getAxes().begin(), g.getAxes().end());
        out = a;
      })
      .Case([&](TopKOp g) {
        rt::TopKAttrs a;
        a.axis = g.getAxis();
        a.k = g.getK();
        a.largest = g.getLargest();
        out = a;
      })
      .Case<MoeExpertsOp, MoeExpertsGradOp>([&](auto g) {
        rt::MoeExpertsAttrs a;
        a.activation = moeActivationCode(g.getActivation());
        a.gated = g.getGated();
        out = a;
      })
      .Case<ArgMaxOp, ArgMinOp>([&](auto g) {
        rt::ArgMaxAttrs a;
        a.axis = g.getAxis();
        a.keepDims = g.getKeepdims();
        a.selectLastIndex = g.getSelectLastIndex();
        out = a;
      })
      .Case<SoftmaxCrossEntropyOp, SoftmaxCrossEntropyWithStatsOp, NllLossOp>(
          [&](auto g) {
            rt::SoftmaxCrossEntropyAttrs a;
            a.reduction = reductionCode(g.getReduction());
            a.hasIgnoreIndex = g.getIgnoreIndex().has_value();
            a.ignoreIndex = g.getIgnoreIndex().value_or(0);
            a.savedStats =
                std::is_same_v<decltype(g), SoftmaxCrossEntropyWithStatsOp>;
            out = a;
          })
      .Case([&](CumSumOp g) {
        rt::CumSumAttrs a;
        a.axis = g.getAxis();
        a.exclusive = g.getExclusive();
        a.reverse = g.getReverse();
        out = a;
      })
      .Case([&](TriluOp g) {
        rt::TriluAttrs a;
        a.upper = g.getUpper();
        a.diagonal = g.getK();
        out = a;
      })
      .Case([&](DropoutOp g) {
        rt::DropoutAttrs a;
        a.seed = int64_t(g.getSeed());
        a.stream = int64_t(g.getStream());
        a.ratio = toDouble(g.getRatio());
        out = a;
      })
      .Case([&](LinearOp g) {
        // Which optional operands there are; the group whose first member
        // alone adds them is appended by encodeOp.
        rt::LinearAttrs a;
        StringRef act = g.getActivation();
        a.activation = act == "gelu_tanh" ? 1
                       : act == "gelu"    ? 2
                       : act == "relu"    ? 3
                                          : 0;
        a.operandFlags = (g.getBias() ? 1 : 0) | (g.getResidual() ? 2 : 0);
        out = a;
      })
      .Case([&](AttentionMergeOp g) {
        rt::AttentionMergeAttrs a;
        a.sequenceFirst = g.getSequenceFirst();
        out = a;
      })
      .Case<AttentionOp, AttentionWithStatsOp, AttentionGradOp>([&](auto g) {
        rt::AttentionAttrs a;
        a.causal = g.getCausal();
        a.sequenceFirst = g.getSequenceFirst();
        a.window = g.getWindow();
        // Saved statistics: the forward's second result, the backward's
        // last two operands.
        if constexpr (std::is_same_v<decltype(g), AttentionWithStatsOp>)
          a.savedStats = true;
        else if constexpr (std::is_same_v<decltype(g), AttentionGradOp>) {
          a.savedStats = bool(g.getStats());
          a.keyBlock = g.getKeyBlock();
        }
        a.scale = toDouble(g.getScale());
        a.queryStart = bool(g.getQueryStart());
        a.startWithinKeys = a.queryStart && startWithinKeys(g);
        out = a;
      });
  return out;
}

/// A communication op's typed attributes: its group's mesh axis indices,
/// then its own fields.
static FailureOr<rt::OpAttrs> collectiveAttrs(Operation *op) {
  using namespace mlir::paracc::dist;
  MeshAttr mesh = getMesh(op);
  if (!mesh)
    return op->emitOpError("has no mesh to resolve its axes");
  auto axesOf = [&](ArrayRef<Attribute> names) {
    std::vector<int> axes;
    for (Attribute x : names)
      axes.push_back(int(*mesh.getAxisIndex(cast<StringAttr>(x).getValue())));
    return axes;
  };
  rt::OpAttrs out;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllReduceOp c) {
        out = rt::AllReduceAttrs{axesOf(c.getAxes().getValue()),
                                 c.getKind() == "max" ? 1 : 0};
      })
      .Case<AllGatherOp, ReduceScatterOp>([&](auto c) {
        out = rt::AllGatherAttrs{axesOf(c.getAxes().getValue()),
                                 int64_t(c.getDim())};
      })
      .Case([&](AllToAllOp c) {
        out = rt::AllToAllAttrs{axesOf(c.getAxes().getValue()),
                                int64_t(c.getSplitDim()),
                                int64_t(c.getConcatDim())};
      })
      .Case([&](BroadcastOp c) {
        out = rt::BroadcastAttrs{axesOf(c.getAxes().getValue()),
                                 int64_t(c.getRoot())};
      })
      .Case([&](SendOp c) {
        out = rt::SendAttrs{axesOf(c.getAxes().getValue()), int64_t(c.getTo()),
                            int64_t(c.getTag())};
      })
      .Case([&](RecvOp c) {
        out = rt::SendAttrs{axesOf(c.getAxes().getValue()),
                            int64_t(c.getFrom()), int64_t(c.getTag())};
      })
      .Case([&](RingShiftOp c) {
        out = rt::RingShiftAttrs{axesOf(c.getAxes().getValue()),
                                 int64_t(c.getShift())};
      })
      .Case([&](AxisIndexOp c) {
        out = rt::AxisIndexAttrs{axesOf(c.getAxes().getValue())};
      })
      .Case<ExpertParallelMoeOp, ExpertParallelMoeGradOp>([&](auto c) {
        out = rt::ExpertParallelMoeAttrs{axesOf(c.getAxes().getValue()),
                                         moeActivationCode(c.getActivation()),
                                         c.getGated()};
      })
      .Case([&](LocalShardOp c) {
        rt::LocalShardAttrs a;
        ShardingAttr s = c.getSharding();
        for (int64_t d = 0; d < s.getRank(); ++d) {
          auto dimAxes = s.getDimAxes(d);
          a.sharding.push_back(int64_t(dimAxes.size()));
          for (StringAttr axis : dimAxes)
            a.sharding.push_back(int64_t(*mesh.getAxisIndex(axis.getValue())));
        }
        out = std::move(a);
      });
  return out;
}

FailureOr<EncodedOp> mlir::paracc::encodeOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  auto [dialect, mnemonic] = name.split('.');
  std::optional<rt::OpCode> opcode;
  if (dialect == "graph" || dialect == "dist")
    opcode = rt::opCodeFromMnemonic(std::string_view(mnemonic.data(),
                                                     mnemonic.size()));
  // The forwards that keep their statistics are the Attention and
  // SoftmaxCrossEntropy instructions with them as a result (savedStats).
  if (isa<graph::AttentionWithStatsOp>(op))
    opcode = rt::OpCode::Attention;
  if (isa<graph::SoftmaxCrossEntropyWithStatsOp>(op))
    opcode = rt::OpCode::SoftmaxCrossEntropy;
  if (!opcode)
    return op->emitOpError("has no runtime instruction");
  if (dialect == "dist") {
    FailureOr<rt::OpAttrs> attrs = collectiveAttrs(op);
    if (failed(attrs))
      return failure();
    return EncodedOp{*opcode, rt::encodeOpAttrs(*attrs)};
  }
  if (auto fused = dyn_cast<graph::FusedElementwiseOp>(op)) {
    FailureOr<rt::FusedElementwiseAttrs> program = encodeFusedProgram(fused);
    if (failed(program))
      return failure();
    return EncodedOp{*opcode, rt::encodeOpAttrs(rt::OpAttrs(*program))};
  }
  rt::OpAttrs typed = typedAttrs(op);
  if (auto axes = op->getAttrOfType<ArrayAttr>(dist::kAddendsOnFirstAttrName)) {
    dist::MeshAttr mesh = dist::getMesh(op);
    if (!isa<graph::LinearOp>(op) || !mesh)
      return op->emitOpError("has ")
             << dist::kAddendsOnFirstAttrName
             << " but is not a graph.linear in a module with a mesh";
    std::vector<int64_t> &group = std::get<rt::LinearAttrs>(typed).addendGroup;
    group.push_back(int64_t(axes.size()));
    for (Attribute x : axes) {
      auto name = dyn_cast<StringAttr>(x);
      std::optional<unsigned> index =
          name ? mesh.getAxisIndex(name.getValue()) : std::nullopt;
      if (!index)
        return op->emitOpError(dist::kAddendsOnFirstAttrName)
               << " names " << x << ", not an axis of the mesh";
      group.push_back(int64_t(*index));
    }
  }
  return EncodedOp{*opcode, rt::encodeOpAttrs(typed)};
}
