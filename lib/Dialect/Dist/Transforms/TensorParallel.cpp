//===- TensorParallel.cpp - Megatron-style weight sharding -----*- C++ -*-===//
//
// Decides, for every weight matmul, whether it is column-parallel,
// row-parallel or replicated over the tensor-parallel axis, and annotates
// the weights accordingly (see Passes.td). Three steps:
//
//  1. fused projections whose output is split (q/k/v in one matrix) become
//     one projection per piece, each reading its block of the weight;
//  2. roles, in program order: a matmul whose input is reached from a
//     column-parallel output without crossing a normalization, an embedding
//     or another row-parallel output is row-parallel; others are column-
//     parallel, unless splitting their output would cut a head or a
//     dimension does not divide (replicated);
//  3. annotations: weights, their biases, the embedding table along the
//     vocabulary; every other weight replicated.
// Convolutions (group 1) take roles by the same rule over channels: a
// convolution whose input is reached from a column-parallel output is
// row-parallel (its weight split along input channels, partial sums
// all-reduced), others column-parallel (split along output channels), so a
// ResNet block's convolutions pair like Megatron's projections; grouped
// convolutions and channels that do not divide stay whole.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "paracc/Dialect/Dist/Transforms/Annotation.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_TENSORPARALLELPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::paracc::dist

using namespace mlir;
using namespace mlir::paracc;
using namespace mlir::paracc::dist;
namespace g = mlir::paracc::graph;

static RankedTensorType typeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

namespace {

/// A matmul (or gemm) whose right operand is a weight, maybe transposed.
struct WeightMatmul {
  Operation *op = nullptr;
  mutable g::WeightOp weight;
  /// The weight dims that are the matmul's K and N.
  int64_t kDim = 0, nDim = 1;
  /// The bias added to the output (gemm's C, or a following add of a
  /// weight broadcast on the last dim), and its dim along N.
  mutable g::WeightOp bias;
};

/// Finds the weight behind the right operand of a matmul, through a
/// transpose of its two dims.
std::optional<WeightMatmul> matchWeightMatmul(Operation *op) {
  Value rhs;
  bool transB = false;
  if (auto mm = dyn_cast<g::MatMulOp>(op)) {
    if (typeOf(mm.getRhs()).getRank() != 2)
      return std::nullopt;
    rhs = mm.getRhs();
  } else if (auto gemm = dyn_cast<g::GemmOp>(op)) {
    rhs = gemm.getB();
    transB = gemm.getTransB();
  } else {
    return std::nullopt;
  }
  if (auto t = rhs.getDefiningOp<g::TransposeOp>()) {
    rhs = t.getX();
    transB = !transB;
  }
  auto weight = rhs.getDefiningOp<g::WeightOp>();
  if (!weight || weight.getType().getRank() != 2)
    return std::nullopt;
  WeightMatmul m;
  m.op = op;
  m.weight = weight;
  m.kDim = transB ? 1 : 0;
  m.nDim = transB ? 0 : 1;
  if (auto gemm = dyn_cast<g::GemmOp>(op))
    if (gemm.getC())
      m.bias = gemm.getC().getDefiningOp<g::WeightOp>();
  if (!m.bias && op->hasOneUse())
    if (auto add = dyn_cast<g::AddOp>(*op->user_begin()))
      for (Value v : add->getOperands())
        if (auto w = v.getDefiningOp<g::WeightOp>();
            w && w.getType().getRank() == 1)
          m.bias = w;
  return m;
}

/// The value a matmul's output becomes after its bias add (if any).
Value afterBias(const WeightMatmul &m) {
  Value out = m.op->getResult(0);
  if (m.bias && !isa<g::GemmOp>(m.op))
    out = (*m.op->user_begin())->getResult(0);
  return out;
}

class TensorParallel {
public:
  TensorParallel(ModuleOp module, StringAttr axis, int64_t size)
      : module(module), axis(axis), size(size), b(module.getContext()) {}
  LogicalResult run(func::FuncOp func);

private:
  bool splitFusedProjection(g::SplitOp split);
  void classify(func::FuncOp func);
  bool reachesColumn(Value v, DenseMap<Value, bool> &memo);
  void classifyConv(g::ConvOp conv);
  std::optional<std::string> whyNotColumn(const WeightMatmul &m);
  void setRole(Operation *op, TensorParallelRole role, StringRef reason);
  void annotateWeights(func::FuncOp func);

  ModuleOp module;
  StringAttr axis;
  int64_t size;
  OpBuilder b;
  /// Role of each weight matmul op.
  DenseMap<Operation *, TensorParallelRole> roles;
  SmallVector<WeightMatmul> matmuls;
  /// The kernel and bias (null when none) of each convolution that may be
  /// split.
  DenseMap<Operation *, std::pair<g::WeightOp, g::WeightOp>> convWeights;
};

} // namespace

void TensorParallel::setRole(Operation *op, TensorParallelRole role,
                             StringRef reason) {
  roles[op] = role;
  setTensorParallelDecision(op, role, reason);
}

/// Rewrites split(f(matmul(x, W))) -- f a bias add and/or reshapes that keep
/// the last dim -- into one projection per piece, each with its block of W
/// (and of the bias). Returns whether it rewrote.
bool TensorParallel::splitFusedProjection(g::SplitOp split) {
  int64_t axisDim = split.getAxis();
  if (axisDim != typeOf(split.getX()).getRank() - 1)
    return false;
  // Walk back from the split to the matmul, remembering the chain.
  SmallVector<Operation *> chain;
  Value v = split.getX();
  std::optional<WeightMatmul> m;
  while (Operation *def = v.getDefiningOp()) {
    if ((m = matchWeightMatmul(def)))
      break;
    if (auto r = dyn_cast<g::ReshapeOp>(def)) {
      if (typeOf(r.getX()).getShape().back() != typeOf(r).getShape().back())
        return false;
      chain.push_back(def);
      v = r.getX();
      continue;
    }
    if (auto add = dyn_cast<g::AddOp>(def)) {
      auto w = add.getRhs().getDefiningOp<g::WeightOp>();
      if (!w || w.getType().getRank() != 1 ||
          typeOf(add).getShape() != typeOf(add.getLhs()).getShape())
        return false;
      chain.push_back(def);
      v = add.getLhs();
      continue;
    }
    return false;
  }
  if (!m || !m->op->hasOneUse() || m->weight.getOffsets())
    return false;
  for (Operation *op : chain)
    if (!op->hasOneUse())
      return false;
  // The weight must be the operand itself (not through a transpose), and a
  // Gemm's bias a vector weight.
  if (m->op->getOperand(1) != m->weight.getResult())
    return false;
  if (auto gemm = dyn_cast<g::GemmOp>(m->op))
    if (gemm.getC() && !(gemm.getC().getDefiningOp<g::WeightOp>() &&
                         typeOf(gemm.getC()).getRank() == 1))
      return false;

  b.setInsertionPoint(split);
  int64_t offset = 0;
  SmallVector<Value> pieces;
  auto sliceWeight = [&](g::WeightOp w, int64_t dim, int64_t off,
                         int64_t n) -> Value {
    SmallVector<int64_t> shape(w.getType().getShape());
    SmallVector<int64_t> offsets(shape.size(), 0);
    shape[dim] = n;
    offsets[dim] = off;
    auto slice = g::WeightOp::create(b, w.getLoc(), w.getType().clone(shape),
                                     w.getName());
    slice.setOffsetsAttr(b.getDenseI64ArrayAttr(offsets));
    slice.setSourceShapeAttr(
        b.getDenseI64ArrayAttr(w.getType().getShape()));
    return slice;
  };
  for (Value piece : split.getResults()) {
    int64_t n = typeOf(piece).getShape().back();
    Value w = sliceWeight(m->weight, m->nDim, offset, n);
    // The matmul with the sliced weight.
    Value x = m->op->getOperand(0);
    Value out;
    if (auto gemm = dyn_cast<g::GemmOp>(m->op)) {
      Value c;
      if (gemm.getC())
        c = sliceWeight(gemm.getC().getDefiningOp<g::WeightOp>(), 0, offset,
                        n);
      out = g::GemmOp::create(b, gemm.getLoc(), x, w, c,
                              gemm.getTransAAttr(), gemm.getTransBAttr(),
                              gemm.getAlphaAttr(), gemm.getBetaAttr());
    } else {
      out = g::MatMulOp::create(b, m->op->getLoc(), x, w);
    }
    // Replay the chain from the matmul to the split.
    for (Operation *op : llvm::reverse(chain)) {
      if (auto r = dyn_cast<g::ReshapeOp>(op)) {
        SmallVector<int64_t> shape(typeOf(r).getShape());
        shape.back() = n;
        out = g::ReshapeOp::create(b, r.getLoc(), typeOf(r).clone(shape), out);
      } else {
        auto add = cast<g::AddOp>(op);
        auto bw = add.getRhs().getDefiningOp<g::WeightOp>();
        out = g::AddOp::create(b, add.getLoc(), out,
                               sliceWeight(bw, 0, offset, n));
      }
    }
    pieces.push_back(out);
    offset += n;
  }
  for (auto [r, p] : llvm::zip(split.getResults(), pieces))
    r.replaceAllUsesWith(p);
  split.erase();
  for (Operation *op : chain)
    if (op->use_empty())
      op->erase();
  if (m->op->use_empty())
    m->op->erase();
  return true;
}

/// Whether `v` is computed from a column-parallel output without crossing a
/// normalization, an embedding lookup or a row-parallel output.
bool TensorParallel::reachesColumn(Value v, DenseMap<Value, bool> &memo) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  memo[v] = false;
  Operation *def = v.getDefiningOp();
  if (!def || isa<g::WeightOp, g::ConstantOp, g::LayerNormOp, g::RmsNormOp,
                  g::GatherOp>(def))
    return false;
  if (auto role = roles.find(def); role != roles.end())
    return memo[v] = role->second == TensorParallelRole::Column;
  for (Value operand : def->getOperands())
    if (reachesColumn(operand, memo))
      return memo[v] = true;
  return false;
}

/// A convolution's role: row-parallel after a column-parallel output,
/// else column-parallel; whole when grouped, when its weight is not a
/// weight, or when the channels do not divide.
void TensorParallel::classifyConv(g::ConvOp conv) {
  auto weight = conv.getW().getDefiningOp<g::WeightOp>();
  auto bias = conv.getBias() ? conv.getBias().getDefiningOp<g::WeightOp>()
                             : g::WeightOp();
  auto whole = [&](const std::string &why) {
    setRole(conv, TensorParallelRole::Replicated,
            "a convolution: " + why + ", so every rank computes it whole");
  };
  if (conv.getGroup() != 1)
    return whole("grouped (" + std::to_string(conv.getGroup()) +
                 " groups): its channels are not split over '" + axis.str() +
                 "'");
  if (!weight || weight.getOffsets() || (conv.getBias() && !bias))
    return whole("its kernel or bias is not a whole weight");
  convWeights[conv] = {weight, bias};
  DenseMap<Value, bool> memo;
  const int64_t features = weight.getType().getDimSize(0),
                channels = weight.getType().getDimSize(1);
  if (reachesColumn(conv.getX(), memo)) {
    if (channels % size)
      return whole("input channels " + std::to_string(channels) +
                   " do not divide over '" + axis.str() + "'");
    setRole(conv, TensorParallelRole::Row,
            "a convolution whose input comes from a column-parallel one: "
            "input channels split, partial sums all-reduced");
    return;
  }
  if (features % size)
    return whole("output channels " + std::to_string(features) +
                 " do not divide over '" + axis.str() + "'");
  setRole(conv, TensorParallelRole::Column,
          "a convolution whose input is whole: output channels split, no "
          "communication");
}

/// Why the output features of `m` cannot be split (none: they can).
std::optional<std::string>
TensorParallel::whyNotColumn(const WeightMatmul &m) {
  int64_t n = m.weight.getType().getDimSize(m.nDim);
  if (n % size)
    return "output dim " + std::to_string(n) + " does not divide over '" +
           axis.str() + "' (" + std::to_string(size) + ")";
  // A reshape that splits the features into heads: the heads must divide.
  Value out = afterBias(m);
  for (Operation *user : out.getUsers()) {
    auto r = dyn_cast<g::ReshapeOp>(user);
    if (!r)
      continue;
    auto in = typeOf(r.getX()).getShape();
    auto res = typeOf(r).getShape();
    if (res.size() == in.size() + 1 && res.drop_back(2) == in.drop_back() &&
        res[res.size() - 2] * res.back() == in.back()) {
      int64_t heads = res[res.size() - 2];
      if (heads % size)
        return std::to_string(heads) + " heads do not divide over '" +
               axis.str() + "' (" + std::to_string(size) +
               "): the projection is replicated";
    }
  }
  return std::nullopt;
}

void TensorParallel::classify(func::FuncOp func) {
  func.walk([&](Operation *op) {
    if (auto m = matchWeightMatmul(op))
      matmuls.push_back(*m);
  });
  // Convolutions and matmuls in program order: a role depends on the roles
  // before it.
  DenseMap<Operation *, const WeightMatmul *> byOp;
  for (const WeightMatmul &m : matmuls)
    byOp[m.op] = &m;
  SmallVector<Operation *> ordered;
  func.walk([&](Operation *op) {
    if (isa<g::ConvOp>(op) || byOp.count(op))
      ordered.push_back(op);
  });
  for (Operation *op : ordered) {
    if (auto conv = dyn_cast<g::ConvOp>(op)) {
      classifyConv(conv);
      continue;
    }
    auto it = byOp.find(op);
    if (it == byOp.end())
      continue;
    const WeightMatmul &m = *it->second;
    DenseMap<Value, bool> memo;
    int64_t k = m.weight.getType().getDimSize(m.kDim);
    if (reachesColumn(m.op->getOperand(0), memo)) {
      if (k % size)
        setRole(m.op, TensorParallelRole::Replicated,
                "input dim " + std::to_string(k) + " does not divide over '" +
                    axis.str() + "'");
      else
        setRole(m.op, TensorParallelRole::Row,
                "its input comes from a column-parallel matmul: input "
                "features split, partial sums all-reduced");
      continue;
    }
    if (std::optional<std::string> why = whyNotColumn(m))
      setRole(m.op, TensorParallelRole::Replicated, *why);
    else
      setRole(m.op, TensorParallelRole::Column,
              "its input is whole (after a norm or an embedding): output "
              "features split, no communication");
  }
}

void TensorParallel::annotateWeights(func::FuncOp func) {
  DenseSet<Operation *> annotated;
  auto mark = [&](g::WeightOp w, int64_t dim) {
    SmallVector<SmallVector<StringAttr>> dims(w.getType().getRank());
    if (dim >= 0)
      dims[dim] = {axis};
    annotate(w, dims);
    annotated.insert(w);
  };
  for (const WeightMatmul &m : matmuls) {
    auto role = roles.find(m.op);
    if (role != roles.end() && role->second == TensorParallelRole::Column) {
      mark(m.weight, m.nDim);
      if (m.bias)
        mark(m.bias, 0);
    } else if (role != roles.end() &&
               role->second == TensorParallelRole::Row) {
      mark(m.weight, m.kDim);
      if (m.bias)
        mark(m.bias, -1);
    } else {
      mark(m.weight, -1);
      if (m.bias)
        mark(m.bias, -1);
    }
  }
  for (auto &[op, weights] : convWeights) {
    auto [kernel, bias] = weights;
    TensorParallelRole role = roles.lookup(op);
    if (role == TensorParallelRole::Column) {
      mark(kernel, 0);
      if (bias)
        mark(bias, 0);
    } else if (role == TensorParallelRole::Row) {
      mark(kernel, 1);
      if (bias)
        mark(bias, -1);
    }
  }
  // Embedding tables: split along the vocabulary (masked lookup).
  func.walk([&](g::GatherOp gather) {
    auto table = gather.getData().getDefiningOp<g::WeightOp>();
    if (!table || gather.getAxis() != 0 || table.getType().getDimSize(0) % size)
      return;
    // Token tables are indexed by the input; position tables by constant
    // positions stay whole.
    if (gather.getIndices().getDefiningOp<g::ConstantOp>())
      return;
    if (annotated.contains(table)) {
      // A table tied to an LM head keeps the head's annotation; the lookup
      // is vocabulary-parallel when the head split the vocabulary.
      ShardingAttr s = getSharding(table);
      if (!s || s.getDimAxes(0) != SmallVector<StringAttr>{axis})
        return;
    } else {
      mark(table, 0);
    }
    setTensorParallelDecision(gather, TensorParallelRole::VocabParallel,
                              "embedding table split along the vocabulary: "
                              "masked local lookup, partial sums "
                              "all-reduced");
  });
  // Everything else stays whole.
  func.walk([&](g::WeightOp w) {
    if (!annotated.contains(w))
      mark(w, -1);
  });
}

LogicalResult TensorParallel::run(func::FuncOp func) {
  SmallVector<g::SplitOp> splits;
  func.walk([&](g::SplitOp s) { splits.push_back(s); });
  for (g::SplitOp s : splits)
    splitFusedProjection(s);
  classify(func);
  annotateWeights(func);
  return success();
}

namespace {
struct TensorParallelPass
    : public dist::impl::TensorParallelPassBase<TensorParallelPass> {
  using TensorParallelPassBase::TensorParallelPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || mesh.getAxisSize(axis) <= 1)
      return;
    TensorParallel tp(module, StringAttr::get(&getContext(), axis),
                      mesh.getAxisSize(axis));
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(tp.run(func)))
        return signalPassFailure();
  }
};
} // namespace
