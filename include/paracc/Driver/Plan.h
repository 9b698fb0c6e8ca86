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

namespace mlir::paracc {

/// The model's profile on `cluster`'s device: `options` say how to import
/// it (its input shapes: the micro-batch the profiles are compiled at) and
/// its precision; `options.training` makes it a training step's. Tensor
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

/// The search's result as text: the choice and why, the top-K table, the
/// flags that reproduce the choice.
void printPlanText(const ModelProfile &model, const PlanRequest &request,
                   const PlanSearchResult &result, llvm::raw_ostream &os);
/// The same as JSON (plan, predicted, candidates, search, cluster, model).
void printPlanJson(const ModelProfile &model, const PlanRequest &request,
                   const PlanSearchResult &result, llvm::raw_ostream &os);

} // namespace mlir::paracc

#endif // PARACC_DRIVER_PLAN_H
