//===- Plan.h - A model's parallel plan, chosen from its shapes -*- C++ -*-===//
//
// `paracc plan` and `--mesh auto`: import a model without reading its
// weights, compile copies of it cut to one and to two layers at each
// tensor-parallel degree, sequence parallelism and recompute policy (the
// difference of the two is what one layer costs, in paracc's own
// partitioned and lowered IR), and search the plans of a cluster with
// those costs (Planner/PlanSearch.h).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DRIVER_PLAN_H
#define PARACC_DRIVER_PLAN_H

#include "paracc/Driver/Compile.h"
#include "paracc/Planner/PlanSearch.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace mlir::paracc {

/// The model's profile on `cluster`'s device (its rates; a GPU's workspace):
/// `options` say how to import it (its input shapes: the micro-batch the
/// profiles are compiled at) and its precision; `options.training` makes it
/// a training step's. Their mesh is not read. Tensor
/// parallelism is profiled at 1 and every power of two up to the devices
/// of a node (or `maxTensorParallel` when set). Fails with the message in
/// `diagnostics` when the model cannot be imported or has no repeated
/// layers.
FailureOr<ModelProfile>
profileModel(MLIRContext &context, const ModelSource &source,
             const CompileOptions &options, const Cluster &cluster,
             int64_t maxTensorParallel, CompileDiagnostics &diagnostics);

/// The cluster `text` names (parseCluster), or for "local" this machine:
/// its GPUs when `device` may use them and there are any (the H200's table
/// standing for them: the kind is not probed), else its cores as CPU ranks.
std::optional<Cluster> resolveCluster(llvm::StringRef text, Device device,
                                      std::string &error);

/// `--mesh auto`: profiles the model of `source` as `options` compile it
/// (its input shapes give the global batch), searches `cluster`'s plans and
/// applies the fastest to `options`: the mesh, sp, micro-batches, the
/// pipeline schedule and its chunks, and when training the recompute
/// policy and the ZeRO stage. The choice and its prediction go to
/// `diagnostics.notes`; no plan fitting is an error naming the smallest
/// peak.
FailureOr<PlanCandidate> chooseAutoPlan(MLIRContext &context,
                                        const ModelSource &source,
                                        CompileOptions &options,
                                        const Cluster &cluster,
                                        CompileDiagnostics &diagnostics);

/// What `paracc plan` asks besides the compile options.
struct PlanOptions {
  /// The cluster (resolveCluster's text).
  std::string cluster = "local";
  /// Sequences per step (0: the model's batch).
  int64_t globalBatch = 0;
  /// Plans in the table.
  int64_t top = 10;
  /// Largest tensor-parallel degree (0: a node's devices); tp across nodes.
  int64_t maxTensorParallel = 0;
  bool tensorParallelAcrossNodes = false;
  /// Called about once a second while a search runs.
  std::function<void(int64_t evaluated, int64_t total, double best)> progress;

  /// Binds global-batch, top, max-tp and tp-across-nodes (the cluster is
  /// CompileOptions').
  void bindOptions(OptionsBinder &binder);
};

/// A plan's whole answer: what was searched and found, as text, JSON and
/// an HTML page.
struct PlanOutcome {
  ModelProfile model;
  PlanRequest request;
  PlanSearchResult result;
  std::string text, json, html;
};

/// `paracc plan`: profiles the model of `source` as `options` import and
/// compile it (the model's input shapes, precision; a training step with
/// `options.training`), and searches the plans of `plan.cluster`; with a
/// mesh in `options` (not "auto"), predicts only that plan, with its
/// micro-batches, schedule, chunks, sp, and when training recompute and
/// ZeRO from `options`. Fails with a message on bad input; no plan fitting
/// is not a failure (the outcome has no candidates and names the
/// smallest).
FailureOr<PlanOutcome> planModel(MLIRContext &context,
                                 const ModelSource &source,
                                 const CompileOptions &options,
                                 const PlanOptions &plan,
                                 CompileDiagnostics &diagnostics);

/// "no plan of CLUSTER fits in N bytes per device; the smallest peak is M
/// bytes (FLAGS)": why a search found nothing.
std::string noPlanFits(const PlanSearchResult &result, const Cluster &cluster,
                       bool training);

/// The search's result as text: the choice and why, the top-K table, the
/// flags that reproduce the choice.
void printPlanText(const ModelProfile &model, const PlanRequest &request,
                   const PlanSearchResult &result, llvm::raw_ostream &os);
/// The same as JSON (plan, predicted, candidates, search, cluster, model).
void printPlanJson(const ModelProfile &model, const PlanRequest &request,
                   const PlanSearchResult &result, llvm::raw_ostream &os);

/// The same as one HTML page with `text` (printPlanText's) on top: the
/// plans that fit by step time and peak memory with their Pareto front,
/// the top plans' memory by category, the chosen plan's simulated step as
/// a pipeline timeline.
void printPlanHtml(const ModelProfile &model, const PlanRequest &request,
                   const PlanSearchResult &result, llvm::StringRef text,
                   llvm::raw_ostream &os);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_PLAN_H
