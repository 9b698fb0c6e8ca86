//===- Pipeline.cpp - One function per pipeline stage -----------*- C++ -*-===//
//
// The program was partitioned over dp/tp and a virtual last micro-batch
// axis, and every op carries the pipeline stage it runs on (`dist.stage`,
// from paracc-pipeline-stages; ops the later passes made get the latest
// stage among their operands'). This pass writes one function per stage:
//
//  * per-micro-batch ops (those that depend on a micro-batch's inputs) are
//    cloned once per micro-batch on their stage, in the order of the
//    schedule's actions (an action: one stage's ops for one micro-batch);
//  * a value that one stage computes and another uses crosses with a
//    dist.send / dist.recv pair over the pipeline axis;
//  * ops that depend on no micro-batch: weights, constants and what is
//    computed only from them are replicated on every stage that uses them;
//    the rest (reductions over the micro-batches, what follows them) run
//    once, after the micro-batches, on the stage holding their largest
//    operand;
//  * results are returned by the last stage;
//  * a tied parameter's gradient terms (two stages') are summed over the
//    micro-batches on their own stages and meet once.
//
// Under the interleaved schedule `dist.stage` names a virtual stage k of
// p x v: rank k mod p runs it, so a rank's function holds v model chunks,
// and values cross only between virtual stages on different ranks.
//
// Transfers are ordered so that no two stages wait on each other: the
// schedule is simulated (each action takes its number of ops), every action
// and transfer is an event at a simulated time, and every stage runs its
// events sorted by time. Each stage's sends and receives are then a
// subsequence of one global order, which is deadlock-free even when a send
// waits for its receiver.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "paracc/Dialect/Dist/IR/DistDialect.h"
#include "paracc/Dialect/Dist/IR/DistOps.h"
#include "paracc/Dialect/Dist/Transforms/MicrobatchAxis.h"
#include "paracc/Dialect/Graph/IR/GraphOps.h"
#include "paracc/Planner/StagePartition.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace mlir::paracc::dist {
#define GEN_PASS_DEF_PIPELINEPASS
#include "paracc/Dialect/Dist/Transforms/Passes.h.inc"

namespace g = graph;
namespace {

/// Where a value of the partitioned program lives.
enum class Placement {
  /// The same on every stage, made where used (weights, constants, what is
  /// computed from them alone, inputs).
  Replicated,
  /// Per micro-batch, from its inputs and constants alone (an input's
  /// micro-batch slice, a mask of its labels): made where used.
  ReplicatedPerMicrobatch,
  /// Per micro-batch, on one stage.
  PerMicrobatch,
  /// Once, on one stage (after the micro-batches).
  Once,
};

/// A training step's per-micro-batch ops are its forward (what the loss
/// is computed from) or its backward; under zb-h1 the backward splits into
/// the input gradients (what earlier stages wait for) and the weight
/// gradients.
using Phase = PipelinePhase;

struct OpInfo {
  Placement placement = Placement::Replicated;
  int64_t stage = 0;
  Phase phase = Phase::Forward;
};

/// One (virtual) stage's ops of one phase for one micro-batch.
struct ActionKey {
  int64_t stage, microbatch;
  Phase phase;
  bool operator<(const ActionKey &o) const {
    return std::tie(stage, microbatch, phase) <
           std::tie(o.stage, o.microbatch, o.phase);
  }
};

struct Action {
  double start = 0, end = 0;
  bool done = false;
};

class PipelineBuilder {
public:
  PipelineBuilder(ModuleOp module, func::FuncOp func, StringAttr axis,
                  int64_t stages, int64_t chunks, StringAttr mbAxis,
                  int32_t mbIndex, int64_t count, PipelineSchedule schedule)
      : module(module), func(func), ctx(func.getContext()), axis(axis),
        stages(stages), chunks(chunks), virtualStages(stages * chunks),
        mbAxis(mbAxis), mbIndex(mbIndex), count(count), schedule(schedule),
        b(func.getContext()) {}

  LogicalResult run();

private:
  /// A micro-batch sum of a per-micro-batch `a + b` whose terms come from
  /// two stages (a tied parameter's gradient) becomes the sum of each
  /// term's micro-batch sums: the terms meet once per step, not once per
  /// micro-batch.
  void splitCrossStageSums();
  LogicalResult classify();
  LogicalResult createStageFunctions();
  LogicalResult emitMicrobatches();
  LogicalResult emitOnce();
  LogicalResult emitAssignsAndReturns();
  /// Under zb-h1: the backward ops that only compute weight gradients
  /// become the Weight phase.
  void splitWeightGradients();
  /// Per rank, the order of its actions under the schedule: (virtual
  /// stage, micro-batch, phase).
  std::vector<std::vector<ActionKey>> actionOrder() const;
  /// The per-micro-batch ops the loss (result 0) is computed from, when the
  /// function is a training step (it updates state or returns gradients).
  void findForward();

  /// `v` on stage (rank) `s` for micro-batch `c` (-1: the once-per-step
  /// part), made there first when it is replicated.
  FailureOr<Value> get(Value v, int64_t s, int64_t c);
  LogicalResult emitClone(Operation *op, int64_t s, int64_t c);
  /// An all-reduce over the micro-batch axis on stage `s`: the sum (or max)
  /// of the micro-batches' values there, then the other axes'.
  LogicalResult emitJoin(AllReduceOp reduce, int64_t s);
  /// Gives `op`, made on stage `s`, its stage and the action being emitted
  /// (for timelines).
  void mark(Operation *op, int64_t s);
  /// Sends `v` (micro-batch `c`, or -1) from rank `from` to rank `to`.
  LogicalResult transfer(Value v, int64_t from, int64_t to, int64_t c);
  /// The rank (position on the pipeline axis) that runs virtual stage `k`.
  int64_t rankOf(int64_t k) const { return k % stages; }
  OpBuilder &at(int64_t s) {
    b.setInsertionPointToEnd(&bodies[s]->front());
    return b;
  }
  IRMapping &map(int64_t s, int64_t c) {
    return c < 0 ? onceMaps[s] : maps[s][c];
  }
  bool isDependent(Value v) const { return dependent.contains(v); }
  /// The (virtual) stage of an op of the program.
  int64_t stageOfOp(Operation *op) const {
    return info.lookup(op).stage;
  }

  ModuleOp module;
  func::FuncOp func;
  MLIRContext *ctx;
  StringAttr axis;
  /// Ranks on the pipeline axis, model chunks per rank (v, interleaved),
  /// and their product.
  int64_t stages, chunks, virtualStages;
  StringAttr mbAxis;
  int32_t mbIndex;
  int64_t count;
  PipelineSchedule schedule;
  OpBuilder b;

  DenseSet<Value> dependent;
  llvm::DenseMap<Operation *, OpInfo> info;
  bool training = false;
  DenseSet<Operation *> forward;
  /// Values computed from the inputs and constants alone.
  DenseSet<Value> inputOnly;
  SmallVector<func::FuncOp> stageFuncs;
  SmallVector<Region *> bodies;
  /// maps[s][c]: micro-batch c's values on stage s; onceMaps[s]: values
  /// made once on stage s (replicated ones included).
  std::vector<std::vector<IRMapping>> maps;
  std::vector<IRMapping> onceMaps;
  /// Stages on which each state read was made (their copies must be
  /// updated).
  llvm::DenseMap<Operation *, llvm::SmallSetVector<int64_t, 4>> readStages;
  uint32_t nextTag = 0;
  /// The action being emitted (its ops are marked for timelines).
  std::optional<ActionKey> currentAction;
};

void PipelineBuilder::findForward() {
  Block &body = func.getBody().front();
  auto *graphDialect = ctx->getLoadedDialect<g::GraphDialect>();
  training = llvm::any_of(body, [](Operation &op) {
    return isa<g::AssignOp>(op);
  });
  for (unsigned r = 0; r < func.getNumResults(); ++r)
    training |= graphDialect &&
                func.getResultAttr(
                    r, graphDialect->getGradientOfAttrHelper().getName());
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  if (!training || ret.getNumOperands() == 0)
    return;
  SmallVector<Value> work{ret.getOperand(0)};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !forward.insert(def).second)
      continue;
    for (Value v : def->getOperands())
      work.push_back(v);
  }
}

LogicalResult PipelineBuilder::classify() {
  findForward();
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 kShardDimsAttrName);
    if (microbatchDim(dims, mbIndex) >= 0)
      dependent.insert(arg);
    inputOnly.insert(arg);
  }
  auto *dist = ctx->getLoadedDialect<DistDialect>();
  for (Operation &op : body.without_terminator()) {
    OpInfo i;
    bool dep = llvm::any_of(op.getOperands(),
                            [&](Value v) { return isDependent(v); });
    if (auto index = dyn_cast<AxisIndexOp>(op))
      dep |= hasMeshAxis(index.getAxes(), mbAxis.getValue());
    if (auto shard = dyn_cast<LocalShardOp>(op))
      dep |= llvm::is_contained(shard.getSharding().getUsedAxes(), mbAxis);
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    if (collective && collective.isPointToPoint())
      return op.emitOpError("is in the program before pipelining; the "
                            "pipeline makes its own transfers");
    if (collective && hasMeshAxis(collective.getGroupAxes(), axis.getValue()))
      return op.emitOpError("is a collective over the pipeline axis '")
             << axis.getValue() << "'";
    // Where the operands are, for the stage of ops without one: the
    // forward's latest, the backward's earliest.
    int64_t latest = -1, earliest = virtualStages;
    bool located = false;
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp()) {
        OpInfo d = info.lookup(def);
        if (d.placement == Placement::PerMicrobatch ||
            d.placement == Placement::Once) {
          located = true;
          latest = std::max(latest, d.stage);
          earliest = std::min(earliest, d.stage);
        }
      }
    IntegerAttr stageAttr = dist->getStageAttrHelper().getAttr(&op);
    // ZeRO-3's gathered parameters (and views of them) are made where used
    // for each micro-batch: each micro-batch's forward and backward gather
    // their own copy, freed after its phase, as the pipeline's schedule
    // runs them.
    bool regathered =
        dist->getParameterGatherAttrHelper().isAttrPresent(&op) ||
        (g::isReshapeTransposeOrCast(&op) && op.getOperand(0).getDefiningOp() &&
         info.lookup(op.getOperand(0).getDefiningOp()).placement ==
             Placement::ReplicatedPerMicrobatch &&
         !inputOnly.contains(op.getOperand(0)));
    if (regathered) {
      i.placement = Placement::ReplicatedPerMicrobatch;
      dependent.insert(op.getResults().begin(), op.getResults().end());
      info[&op] = i;
      continue;
    }
    // (An axis index over it is a micro-batch's own number: per
    // micro-batch, not a meeting of them.)
    bool collectiveOverMb =
        collective && hasMeshAxis(collective.getGroupAxes(), mbAxis.getValue());
    if (collectiveOverMb) {
      // The micro-batches meet: a sum (or max) of their values, once; on
      // every stage that uses it when the values are made where used (a
      // loss's count of labels).
      if (!isa<AllReduceOp>(op))
        return op.emitOpError("over the micro-batch axis is not supported");
      i.placement = located ? Placement::Once : Placement::Replicated;
      i.stage = std::max<int64_t>(latest, 0);
    } else if (dep) {
      dependent.insert(op.getResults().begin(), op.getResults().end());
      // What is computed from a micro-batch's inputs and constants alone
      // is made where used (the labels' mask a loss counts on the last
      // stage, position ids on every stage).
      bool fromInputs = !isa<g::WeightOp, g::StateOp>(op) &&
                        llvm::all_of(op.getOperands(), [&](Value v) {
                          return inputOnly.contains(v);
                        });
      if (fromInputs)
        inputOnly.insert(op.getResults().begin(), op.getResults().end());
      if (fromInputs && op.getNumRegions() == 0) {
        i.placement = Placement::ReplicatedPerMicrobatch;
      } else if (training && !forward.contains(&op)) {
        i.placement = Placement::PerMicrobatch;
        i.phase = Phase::Backward;
        i.stage = stageAttr ? stageAttr.getInt()
                            : (located ? earliest : int64_t(0));
      } else {
        i.placement = Placement::PerMicrobatch;
        i.stage = stageAttr ? stageAttr.getInt() : std::max<int64_t>(latest, 0);
        if (latest > i.stage)
          i.stage = latest; // what the later passes added
      }
      for (Value v : op.getOperands())
        if (Operation *def = v.getDefiningOp();
            def && info.lookup(def).placement == Placement::Once)
          return op.emitOpError("uses a value reduced over the micro-batches "
                                "in a per-micro-batch op, which a pipeline "
                                "cannot order");
    } else if (located || isa<g::AssignOp>(op)) {
      i.placement = Placement::Once;
      // On the stage holding its largest located operand.
      int64_t bestBytes = -1;
      i.stage = std::max<int64_t>(latest, 0);
      for (Value v : op.getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || info.lookup(def).placement != Placement::Once)
          continue;
        auto t = cast<RankedTensorType>(v.getType());
        int64_t bytes = t.getNumElements() *
                        std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
        if (bytes > bestBytes) {
          bestBytes = bytes;
          i.stage = info.lookup(def).stage;
        }
      }
    } else {
      i.placement = Placement::Replicated;
      if (!isa<g::WeightOp, g::StateOp>(op) &&
          llvm::all_of(op.getOperands(),
                       [&](Value v) { return inputOnly.contains(v); }))
        inputOnly.insert(op.getResults().begin(), op.getResults().end());
    }
    if (i.stage < 0 || i.stage >= virtualStages)
      return op.emitOpError("is on pipeline stage ")
             << i.stage << ", but the pipeline has " << virtualStages
             << (chunks > 1 ? " virtual stages" : "");
    info[&op] = i;
  }
  return success();
}

LogicalResult PipelineBuilder::createStageFunctions() {
  auto *dist = ctx->getLoadedDialect<DistDialect>();
  Block &body = func.getBody().front();
  SmallVector<Type> argTypes;
  for (BlockArgument arg : body.getArguments()) {
    auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 kShardDimsAttrName);
    argTypes.push_back(wholeMicrobatchType(
        arg.getType(), microbatchDim(dims, mbIndex), count));
  }
  OpBuilder mb(module.getBodyRegion());
  mb.setInsertionPoint(func);
  if (llvm::any_of(body.getArguments(), [&](BlockArgument arg) {
        return !func.getArgAttr(arg.getArgNumber(), kShardDimsAttrName);
      }))
    return func.emitOpError("is not partitioned (an argument has no '")
           << kShardDimsAttrName << "')";
  for (int64_t s = 0; s < stages; ++s) {
    SmallVector<Type> results;
    if (s == stages - 1)
      for (Type t : func.getResultTypes())
        results.push_back(t); // fixed below
    auto f = func::FuncOp::create(
        mb, func.getLoc(),
        (func.getSymName() + "_stage" + std::to_string(s)).str(),
        FunctionType::get(ctx, argTypes, {}));
    for (unsigned a = 0; a < func.getNumArguments(); ++a)
      if (DictionaryAttr attrs = func.getArgAttrDict(a))
        f.setArgAttrs(a, withoutMeshAxisInAttrs(attrs, mbIndex));
    dist->getPipelineFunctionAttrHelper().setAttr(f, func.getSymNameAttr());
    dist->getPipelineStageAttrHelper().setAttr(
        f, IntegerAttr::get(IntegerType::get(ctx, 64), s));
    dist->getPipelineAxisAttrHelper().setAttr(f, axis);
    Block *block = f.addEntryBlock();
    (void)block;
    stageFuncs.push_back(f);
    bodies.push_back(&f.getBody());
  }
  maps.assign(stages, std::vector<IRMapping>(count));
  onceMaps.assign(stages, IRMapping());
  return success();
}

FailureOr<Value> PipelineBuilder::get(Value v, int64_t s, int64_t c) {
  if (isDependent(v)) {
    if (c < 0)
      return emitError(v.getLoc(), "a per-micro-batch value is used once per "
                                   "step");
    if (Value found = maps[s][c].lookupOrNull(v))
      return found;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                   kShardDimsAttrName);
      Value whole = bodies[s]->getArgument(arg.getArgNumber());
      Value piece = sliceMicrobatch(at(s), arg.getLoc(), whole,
                                    microbatchDim(dims, mbIndex), c, count);
      if (Operation *def = piece.getDefiningOp())
        mark(def, s);
      maps[s][c].map(v, piece);
      return piece;
    }
    Operation *def = v.getDefiningOp();
    if (info.lookup(def).placement != Placement::ReplicatedPerMicrobatch)
      return def->emitOpError("on stage ")
             << stageOfOp(def) << " is used on stage " << s
             << " without a transfer (internal error)";
    if (failed(emitClone(def, s, c)))
      return failure();
    return maps[s][c].lookup(v);
  }
  if (Value found = onceMaps[s].lookupOrNull(v))
    return found;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Value whole = bodies[s]->getArgument(arg.getArgNumber());
    onceMaps[s].map(v, whole);
    return whole;
  }
  Operation *def = v.getDefiningOp();
  if (info.lookup(def).placement != Placement::Replicated)
    return def->emitOpError("on stage ")
           << stageOfOp(def) << " is used on stage " << s
           << " without a transfer (internal error)";
  if (failed(emitClone(def, s, -1)))
    return failure();
  return onceMaps[s].lookup(v);
}

LogicalResult PipelineBuilder::emitClone(Operation *op, int64_t s, int64_t c) {
  // Operands first (replicated ones are made here on first use).
  if (auto reduce = dyn_cast<AllReduceOp>(op);
      reduce && hasMeshAxis(reduce.getAxes(), mbAxis.getValue()))
    return emitJoin(reduce, s);
  for (Value v : op->getOperands())
    if (failed(get(v, s, isDependent(v) ? c : -1)))
      return failure();
  IRMapping operands;
  for (Value v : op->getOperands())
    operands.map(v, map(s, isDependent(v) ? c : -1).lookup(v));
  FailureOr<Operation *> clone = cloneForMicrobatch(
      at(s), op, operands, map(s, c), mbAxis, std::max<int64_t>(c, 0), count);
  if (failed(clone))
    return failure();
  if (!*clone)
    return success();
  mark(*clone, s);
  if (isa<g::WeightOp, g::StateOp>(op))
    readStages[op].insert(s);
  return success();
}

void PipelineBuilder::mark(Operation *op, int64_t s) {
  auto *dist = ctx->getLoadedDialect<DistDialect>();
  // (Inside an action, its virtual stage.)
  dist->getStageAttrHelper().setAttr(
      op, IntegerAttr::get(IntegerType::get(ctx, 64),
                           currentAction ? currentAction->stage : s));
  // Outside every action: the once-per-step part; interleaved, the rank's
  // chunk.
  PipelineActionAttr action =
      currentAction ? PipelineActionAttr::get(ctx, currentAction->microbatch,
                                              currentAction->phase,
                                              currentAction->stage / stages)
                    : PipelineActionAttr::get(ctx, 0, Phase::Once, 0);
  dist->getPipelineActionAttrHelper().setAttr(op, action);
}

LogicalResult PipelineBuilder::transfer(Value v, int64_t from, int64_t to,
                                        int64_t c) {
  FailureOr<Value> x = get(v, from, c);
  if (failed(x))
    return failure();
  auto axes = ArrayAttr::get(ctx, {axis});
  uint32_t tag = nextTag++;
  SendOp::create(at(from), v.getLoc(), *x, axes, to - from, tag);
  Value received = RecvOp::create(at(to), v.getLoc(), x->getType(), axes,
                                  from - to, tag)
                       .getResult();
  map(to, c).map(v, received);
  return success();
}

std::vector<std::vector<ActionKey>> PipelineBuilder::actionOrder() const {
  std::vector<std::vector<ActionKey>> order(stages);
  for (int64_t s = 0; s < stages; ++s)
    for (ScheduledAction a : scheduleOrder(s, stages, count, schedule,
                                           /*withBackward=*/training, chunks))
      order[s].push_back({a.chunk * stages + s, a.microbatch, a.phase});
  return order;
}

void PipelineBuilder::splitWeightGradients() {
  // The input gradients: what another stage uses, and everything of the
  // stage's backward that it depends on; the rest computes weight
  // gradients, which nothing waits for until the step's end.
  Block &body = func.getBody().front();
  SmallVector<Operation *> backward;
  for (Operation &op : body.without_terminator())
    if (info.lookup(&op).placement == Placement::PerMicrobatch &&
        info.lookup(&op).phase == Phase::Backward)
      backward.push_back(&op);
  DenseSet<Operation *> input;
  for (Operation *op : llvm::reverse(backward)) {
    int64_t s = info.lookup(op).stage;
    bool needed = false;
    for (Operation *user : op->getUsers()) {
      OpInfo u = info.lookup(user);
      if (u.placement == Placement::PerMicrobatch &&
          (u.stage != s || input.contains(user)))
        needed = true;
    }
    if (needed)
      input.insert(op);
    else
      info[op].phase = Phase::Weight;
  }
}

LogicalResult PipelineBuilder::emitMicrobatches() {
  Block &body = func.getBody().front();
  // Each (virtual stage, phase)'s per-micro-batch ops, and the values it
  // takes from other (virtual) stages.
  auto slot = [](int64_t s, Phase p) { return 3 * s + int64_t(p); };
  std::vector<SmallVector<Operation *>> ops(3 * virtualStages);
  std::vector<llvm::SmallSetVector<Value, 8>> received(3 * virtualStages);
  for (Operation &op : body.without_terminator()) {
    OpInfo i = info.lookup(&op);
    if (i.placement != Placement::PerMicrobatch)
      continue;
    ops[slot(i.stage, i.phase)].push_back(&op);
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp()) {
        OpInfo d = info.lookup(def);
        if (d.placement == Placement::PerMicrobatch && d.stage != i.stage)
          received[slot(i.stage, i.phase)].insert(v);
      }
  }
  // Simulate the schedule: an action starts when its stage is free and its
  // inputs have arrived; it lasts as many time units as it has ops.
  // Actions without ops (a forward program's backward) are left out.
  std::vector<std::vector<ActionKey>> order = actionOrder();
  for (int64_t s = 0; s < stages; ++s)
    llvm::erase_if(order[s], [&](const ActionKey &a) {
      return ops[slot(a.stage, a.phase)].empty();
    });
  std::map<ActionKey, Action> actions;
  for (int64_t s = 0; s < stages; ++s)
    for (const ActionKey &a : order[s])
      actions[a] = Action{};
  auto producer = [&](Value v, int64_t c) -> Action & {
    Operation *def = v.getDefiningOp();
    OpInfo d = info.lookup(def);
    return actions[{d.stage, c, d.phase}];
  };
  std::vector<size_t> next(stages, 0);
  std::vector<double> free(stages, 0);
  for (size_t done = 0, total = actions.size(); done < total;) {
    bool progressed = false;
    for (int64_t s = 0; s < stages; ++s) {
      if (next[s] >= order[s].size())
        continue;
      const ActionKey key = order[s][next[s]];
      const int64_t c = key.microbatch;
      const Phase phase = key.phase;
      double ready = free[s];
      bool blocked = false;
      for (Value v : received[slot(key.stage, phase)]) {
        const Action &p = producer(v, c);
        if (!p.done) {
          blocked = true;
          break;
        }
        ready = std::max(ready, p.end);
      }
      if (blocked)
        continue;
      Action &a = actions[key];
      a.start = ready;
      a.end = ready + double(ops[slot(key.stage, phase)].size());
      a.done = true;
      free[s] = a.end;
      ++next[s];
      ++done;
      progressed = true;
    }
    if (!progressed)
      return func.emitOpError("has pipeline stages that wait on each other "
                              "under the '")
             << stringifyOption(schedule)
             << "' schedule (a value is used by an action that "
             << "runs before the one that computes it)";
  }
  // Events: actions at their start, transfers when their value is made;
  // transfers first at equal times, then by creation order.
  struct Event {
    double time;
    int kind; // 0 transfer, 1 action
    int64_t order;
    int64_t stage, microbatch;
    Phase phase;
    Value value;
    int64_t to;
  };
  std::vector<Event> events;
  int64_t serial = 0;
  for (auto &[key, a] : actions)
    events.push_back(
        {a.start, 1, serial++, key.stage, key.microbatch, key.phase, {}, -1});
  for (int64_t s = 0; s < virtualStages; ++s)
    for (Phase phase : {Phase::Forward, Phase::Backward, Phase::Weight})
      for (Value v : received[slot(s, phase)]) {
        int64_t from = stageOfOp(v.getDefiningOp());
        // (A rank's own chunks share their values.)
        if (rankOf(from) == rankOf(s))
          continue;
        for (int64_t c = 0; c < count; ++c)
          events.push_back(
              {producer(v, c).end, 0, serial++, from, c, phase, v, s});
      }
  std::sort(events.begin(), events.end(), [](const Event &x, const Event &y) {
    return std::tie(x.time, x.kind, x.order) <
           std::tie(y.time, y.kind, y.order);
  });
  DenseSet<std::tuple<Value, int64_t, int64_t>> sent; // value, to rank, mb
  for (const Event &e : events) {
    if (e.kind == 0) {
      // (A value two phases or chunks of one rank receive crosses once.)
      if (sent.insert({e.value, rankOf(e.to), e.microbatch}).second &&
          failed(transfer(e.value, rankOf(e.stage), rankOf(e.to),
                          e.microbatch)))
        return failure();
      continue;
    }
    currentAction = ActionKey{e.stage, e.microbatch, e.phase};
    for (Operation *op : ops[slot(e.stage, e.phase)])
      if (failed(emitClone(op, rankOf(e.stage), e.microbatch)))
        return failure();
    currentAction.reset();
  }
  return success();
}

LogicalResult PipelineBuilder::emitJoin(AllReduceOp reduce, int64_t s) {
  // The micro-batches' values summed in order, then the other axes.
  bool max = reduce.getKind() == "max";
  if (!max && reduce.getKind() != "sum")
    return reduce.emitOpError("of kind '")
           << reduce.getKind() << "' over the micro-batch axis";
  Value x = reduce.getX();
  SmallVector<Value> pieces;
  for (int64_t c = 0; c < count; ++c) {
    FailureOr<Value> piece = get(x, s, c);
    if (failed(piece))
      return failure();
    pieces.push_back(*piece);
  }
  OpBuilder &ob = at(s);
  Location loc = reduce.getLoc();
  Value acc = pieces[0];
  for (int64_t c = 1; c < count; ++c) {
    acc = max ? g::MaxOp::create(ob, loc, acc, pieces[c]).getResult()
              : g::AddOp::create(ob, loc, acc, pieces[c]).getResult();
    mark(acc.getDefiningOp(), s);
  }
  SmallVector<Attribute> rest;
  for (Attribute a : reduce.getAxes())
    if (cast<StringAttr>(a) != mbAxis)
      rest.push_back(a);
  if (!rest.empty()) {
    acc = AllReduceOp::create(ob, loc, acc.getType(), acc,
                              ArrayAttr::get(ctx, rest), reduce.getKindAttr())
              .getResult();
    mark(acc.getDefiningOp(), s);
  }
  onceMaps[s].map(reduce.getResult(), acc);
  return success();
}

LogicalResult PipelineBuilder::emitOnce() {
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator()) {
    OpInfo i = info.lookup(&op);
    if (i.placement != Placement::Once || isa<g::AssignOp>(op))
      continue;
    int64_t s = rankOf(i.stage);
    if (auto reduce = dyn_cast<AllReduceOp>(op);
        reduce && hasMeshAxis(reduce.getAxes(), mbAxis.getValue())) {
      if (failed(emitJoin(reduce, s)))
        return failure();
      continue;
    }
    // Operands made once on other stages come over.
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp()) {
        OpInfo d = info.lookup(def);
        if (d.placement == Placement::Once && rankOf(d.stage) != s &&
            !onceMaps[s].contains(v) &&
            failed(transfer(v, rankOf(d.stage), s, -1)))
          return failure();
      }
    if (failed(emitClone(&op, s, -1)))
      return failure();
  }
  return success();
}

LogicalResult PipelineBuilder::emitAssignsAndReturns() {
  Block &body = func.getBody().front();
  // The last stage returns every result.
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  int64_t last = stages - 1;
  SmallVector<Value> outs;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Operation *def = v.getDefiningOp();
    OpInfo d = def ? info.lookup(def) : OpInfo{};
    Value out;
    if (isDependent(v)) {
      auto dims = func.getResultAttrOfType<ArrayAttr>(i, kShardDimsAttrName);
      int64_t dim = microbatchDim(dims, mbIndex);
      if (dim < 0)
        return ret.emitOpError("returns result ")
               << i << ", which differs between micro-batches but is not "
               << "split over them";
      int64_t s =
          d.placement == Placement::PerMicrobatch ? rankOf(d.stage) : last;
      SmallVector<Value> pieces;
      for (int64_t c = 0; c < count; ++c) {
        FailureOr<Value> piece = get(v, s, c);
        if (failed(piece))
          return failure();
        pieces.push_back(*piece);
      }
      out = count == 1 ? pieces[0]
                       : g::ConcatOp::create(at(s), ret.getLoc(), pieces, dim)
                             .getResult();
      if (count > 1)
        mark(out.getDefiningOp(), s);
      if (s != last) {
        onceMaps[s].map(v, out);
        // (A once-made value crosses like any other.)
        auto axes = ArrayAttr::get(ctx, {axis});
        uint32_t tag = nextTag++;
        SendOp::create(at(s), v.getLoc(), out, axes, last - s, tag);
        out = RecvOp::create(at(last), v.getLoc(), out.getType(), axes,
                             s - last, tag)
                  .getResult();
      }
    } else {
      if (d.placement == Placement::Once && rankOf(d.stage) != last &&
          !onceMaps[last].contains(v) &&
          failed(transfer(v, rankOf(d.stage), last, -1)))
        return failure();
      FailureOr<Value> got = get(v, last, -1);
      if (failed(got))
        return failure();
      out = *got;
    }
    outs.push_back(out);
  }
  // A state update reaches every stage that holds a copy of the buffer
  // (known once the results are made: a returned state is read there too).
  for (Operation &op : body.without_terminator()) {
    auto assign = dyn_cast<g::AssignOp>(op);
    if (!assign)
      continue;
    Value value = assign.getValue();
    Operation *def = value.getDefiningOp();
    int64_t home = rankOf(info.lookup(&op).stage);
    llvm::SmallSetVector<int64_t, 4> targets;
    for (auto &[read, where] : readStages)
      if (auto w = dyn_cast<g::WeightOp>(read);
          w && w.getName() == assign.getName() &&
          w.getOffsets() == assign.getOffsets())
        targets.insert(where.begin(), where.end());
      else if (auto st = dyn_cast<g::StateOp>(read);
               st && st.getName() == assign.getName() &&
               st.getOffsets() == assign.getOffsets())
        targets.insert(where.begin(), where.end());
    if (targets.empty())
      targets.insert(home);
    for (int64_t t : targets) {
      if (def && info.lookup(def).placement == Placement::Once &&
          rankOf(info.lookup(def).stage) != t && !onceMaps[t].contains(value) &&
          failed(transfer(value, rankOf(info.lookup(def).stage), t, -1)))
        return failure();
      if (failed(emitClone(&op, t, -1)))
        return failure();
    }
  }
  for (int64_t s = 0; s < stages; ++s) {
    SmallVector<Value> results = s == last ? outs : SmallVector<Value>();
    func::ReturnOp::create(at(s), ret.getLoc(), results);
    func::FuncOp f = stageFuncs[s];
    SmallVector<Type> types;
    for (Value r : results)
      types.push_back(r.getType());
    f.setType(FunctionType::get(ctx, f.getArgumentTypes(), types));
    if (s == last)
      for (unsigned r = 0; r < func.getNumResults(); ++r)
        if (DictionaryAttr attrs = func.getResultAttrDict(r))
          f.setResultAttrs(r, withoutMeshAxisInAttrs(attrs, mbIndex));
  }
  return success();
}

void PipelineBuilder::splitCrossStageSums() {
  auto *dist = ctx->getLoadedDialect<DistDialect>();
  auto stageOf = [&](Value v) -> int64_t {
    Operation *def = v.getDefiningOp();
    IntegerAttr a = def ? dist->getStageAttrHelper().getAttr(def) : nullptr;
    return a ? a.getInt() : -1;
  };
  SmallVector<AllReduceOp> work;
  func.walk([&](AllReduceOp r) {
    if (hasMeshAxis(r.getAxes(), mbAxis.getValue()))
      work.push_back(r);
  });
  while (!work.empty()) {
    AllReduceOp r = work.pop_back_val();
    auto add = r.getX().getDefiningOp<g::AddOp>();
    if (!add || !add->hasOneUse() || r.getKind() != "sum" ||
        add.getLhs().getType() != r.getType() ||
        add.getRhs().getType() != r.getType())
      continue;
    int64_t a = stageOf(add.getLhs()), c = stageOf(add.getRhs());
    if (a < 0 || c < 0 || a == c)
      continue;
    // Each stage's part reduced on its stage; the two meet once per step.
    OpBuilder ob(r);
    auto reduce = [&](Value x) {
      return AllReduceOp::create(ob, r.getLoc(), r.getType(), x, r.getAxes(),
                                 r.getKindAttr());
    };
    AllReduceOp lhs = reduce(add.getLhs()), rhs = reduce(add.getRhs());
    Value sum = g::AddOp::create(ob, add.getLoc(), lhs.getResult(),
                                 rhs.getResult())
                    .getResult();
    r.getResult().replaceAllUsesWith(sum);
    r.erase();
    add.erase();
    work.push_back(lhs);
    work.push_back(rhs);
  }
}

LogicalResult PipelineBuilder::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("must have one block");
  splitCrossStageSums();
  if (failed(classify()))
    return failure();
  if (schedule == PipelineSchedule::ZeroBubbleH1)
    splitWeightGradients();
  if (failed(createStageFunctions()) ||
      failed(emitMicrobatches()) || failed(emitOnce()) ||
      failed(emitAssignsAndReturns()))
    return failure();
  func.erase();
  return success();
}

struct PipelinePass : public dist::impl::PipelinePassBase<PipelinePass> {
  using PipelinePassBase::PipelinePassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshAttr mesh = getMesh(module);
    if (!mesh || !mesh.getAxisIndex(axis))
      return;
    std::optional<unsigned> mbIndex = mesh.getAxisIndex(microbatchAxis);
    ArrayRef<StringAttr> names = mesh.getAxisNames();
    if (!mbIndex || *mbIndex + 1 != names.size()) {
      module.emitError("a pipeline needs the micro-batch axis '")
          << microbatchAxis << "' as the last mesh axis";
      return signalPassFailure();
    }
    int64_t stages = mesh.getAxisSize(axis);
    int64_t count = mesh.getAxisSize(microbatchAxis);
    if (std::string why =
            checkScheduleShape(schedule, stages, virtualStages, count);
        !why.empty()) {
      module.emitError(why);
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration())
        funcs.push_back(func);
    for (func::FuncOp func : funcs) {
      PipelineBuilder builder(module, func, StringAttr::get(&getContext(), axis),
                              stages, virtualStages,
                              StringAttr::get(&getContext(), microbatchAxis),
                              int32_t(*mbIndex), count, schedule);
      if (failed(builder.run()))
        return signalPassFailure();
    }
    dropMicrobatchAxis(module, mesh, count);
  }
};

} // namespace
} // namespace mlir::paracc::dist
