//===- TrainingMemory.cpp - A training step's memory by category ---------===//
//
// Reads a partitioned step function: parameters (graph.weight) and optimizer
// state (graph.state) by their local types, each buffer once (so ZeRO's
// shards count as shards); gradients as the operands the updates
// (graph.adamw, graph.sgd) read, and how many of those updates are of
// sharded state; saved activations
// as the forward values the backward reads, the forward being every op the
// loss (the first result) depends on; the GPU executor's buffers by the
// rules it allocates them with (GpuRank.cpp): 64 MiB of cuBLASLt workspace,
// two f32 statistics per attention row for the attention backward, and
// collective staging of twice the largest message.
//
//===----------------------------------------------------------------------===//

#include "paracc/Planner/Explain.h"

#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc;
namespace g = mlir::paracc::graph;

static int64_t tensorBytes(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  if (!type || !type.hasStaticShape())
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

/// A state buffer's identity: its name and block offsets.
static std::string bufferKey(StringRef name,
                             std::optional<ArrayRef<int64_t>> offsets) {
  std::string key = name.str();
  if (offsets)
    for (int64_t o : *offsets)
      key += "@" + std::to_string(o);
  return key;
}

llvm::DenseSet<Operation *> mlir::paracc::stepForward(func::FuncOp step) {
  llvm::DenseSet<Operation *> forward;
  if (step.isExternal())
    return forward;
  auto ret = cast<func::ReturnOp>(step.getBody().front().getTerminator());
  SmallVector<Operation *> work;
  if (ret.getNumOperands() > 0)
    if (Operation *def = ret.getOperand(0).getDefiningOp())
      work.push_back(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (isa<g::WeightOp, g::StateOp, g::ConstantOp>(op) ||
        !forward.insert(op).second)
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        work.push_back(def);
  }
  return forward;
}

StepMemory mlir::paracc::analyzeStepMemory(func::FuncOp step) {
  StepMemory m;
  if (step.isExternal())
    return m;
  Block &body = step.getBody().front();

  llvm::StringSet<> buffers;
  int64_t attentionRows = 0, largestMessage = 0, groupedGradBytes = 0;
  for (Operation &op : body) {
    if (auto w = dyn_cast<g::WeightOp>(op)) {
      std::optional<ArrayRef<int64_t>> offsets = w.getOffsets();
      if (buffers.insert(bufferKey(w.getName(), offsets)).second)
        m.parameters += tensorBytes(w.getType());
    } else if (auto s = dyn_cast<g::StateOp>(op)) {
      std::optional<ArrayRef<int64_t>> offsets = s.getOffsets();
      // (A weight's low-precision copy is kept with the parameters.)
      if (buffers.insert(bufferKey(s.getName(), offsets)).second)
        (s.getCopyOf() ? m.parameters : m.optimizerState) +=
            tensorBytes(s.getType());
    } else if (isa<g::AdamWOp, g::SgdOp>(op)) {
      // (Operand 1 is the gradient.)
      m.gradients += tensorBytes(op.getOperand(1).getType());
      ++m.updates;
      if (op.hasAttr(dist::DistDialect::ShardedUpdateAttrHelper::getNameStr()))
        ++m.shardedUpdates;
    } else if (auto group = dyn_cast<g::ForeachAdamWOp>(op)) {
      // The gradients as the update reads them (bf16 ones where it widens).
      for (Value grad : group.getGrads())
        m.gradients += tensorBytes(grad.getType());
      m.updates += group.getParams().size();
      if (op.hasAttr(dist::DistDialect::ShardedUpdateAttrHelper::getNameStr()))
        m.shardedUpdates += group.getParams().size();
    } else if (auto ag = dyn_cast<g::AttentionGradOp>(op)) {
      auto q = cast<RankedTensorType>(ag.getQ().getType());
      if (q.hasStaticShape() && q.getRank() >= 1 && q.getShape().back() > 0)
        attentionRows =
            std::max(attentionRows, q.getNumElements() / q.getShape().back());
      // Grouped-query attention: the GPU reserves dk and dv per query head
      // (paracc's kernels write them there and sum each group).
      const int64_t group = g::attentionKeyValueGroup(
          q.getShape(), cast<RankedTensorType>(ag.getK().getType()).getShape(),
          ag.getSequenceFirst());
      if (group > 1)
        groupedGradBytes = std::max(groupedGradBytes,
                                    group * (tensorBytes(ag.getK().getType()) +
                                             tensorBytes(ag.getV().getType())));
    } else if (op.getDialect() && op.getDialect()->getNamespace() == "dist" &&
               op.getNumOperands() == 1 && op.getNumResults() == 1) {
      largestMessage =
          std::max({largestMessage, tensorBytes(op.getOperand(0).getType()),
                    tensorBytes(op.getResult(0).getType())});
    }
  }
  m.workspace = kGpuGemmWorkspaceBytes + attentionRows * 2 * int64_t(4) +
                groupedGradBytes;
  m.communication = 2 * largestMessage;

  llvm::DenseSet<Operation *> forward = stepForward(step);
  for (Operation &op : body) {
    if (!forward.contains(&op) ||
        isa<g::WeightOp, g::StateOp, g::ConstantOp>(op))
      continue;
    for (Value v : op.getResults())
      if (llvm::any_of(v.getUsers(), [&](Operation *user) {
            return !forward.contains(user) && !isa<func::ReturnOp>(user);
          }))
        m.activationsSaved += tensorBytes(v.getType());
  }
  return m;
}
