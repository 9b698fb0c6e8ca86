//===- CompileOptionBindings.cpp - The driver's options, declared once ----===//
//
// What CompileOptions and ModelSource add to ParallelOptions' options: the
// tools' flags, the C API's keys and Python's keywords all come from here.
//
//===----------------------------------------------------------------------===//

#include "paracc/Driver/Compile.h"
#include "paracc/Driver/DriverOptions.h"
#include "paracc/Driver/Plan.h"

using namespace mlir;
using namespace mlir::paracc;

void ModelSource::bindOptions(OptionsBinder &binder) {
  binder.bind({"params", OptionScope::Compile,
               "StableHLO: the entry function's leading arguments that are "
               "parameters (weights): a count, or an .npz of their values in "
               "order (np.savez(f, *jax.tree_util.tree_leaves(params)))",
               "N|FILE.npz"},
              OptionValue::text(parameters));
}

void CompileOptions::bindOptions(OptionsBinder &binder) {
  ParallelOptions::bindOptions(binder);
  constexpr OptionScope scope = OptionScope::Compile;
  binder.bind({"cluster", scope,
               "The cluster to plan for (paracc plan, --mesh auto): "
               "NODESxDEVICES:KIND[,intra=GB/s]"
               "[,inter=GB/s][,memory=GiB][,reserve=GiB] (kinds: h200, h100, "
               "a100, a100-40g, cpu), a .json file, or local (this machine's "
               "GPUs, else its cores as CPU ranks)"},
              OptionValue::text(cluster));
  binder.bind({"input-shape", scope,
               "Shape of an input with symbolic dims (NAME=2x64, "
               "NAME=scalar)",
               "NAME=DIMS"},
              OptionValue::repeated(inputShapes));
  binder.bind({"random-weights", scope,
               "Fill weights that have no data with seeded random values "
               "(benchmarks of shape-only models)"},
              OptionValue::flag(import.allowMissingWeightData));
  binder.bind({"embed-weights", scope,
               "Copy the weights into the executable (by default it "
               "references the model's external-data file and the runtime "
               "maps it)"},
              OptionValue::flag(embedWeights));
  binder.bind({"seed", scope, "Seed of --random-weights"},
              OptionValue::unsignedInteger(seed));
  binder.bind({"device", OptionScope::Run,
               "Where it runs: auto (a GPU per rank if there are enough), "
               "cpu or gpu; the compile's cost model takes its rates"},
              OptionValue::choice(device));
}

void PlanOptions::bindOptions(OptionsBinder &binder) {
  constexpr OptionScope scope = OptionScope::Plan;
  binder.bind({"global-batch", scope,
               "Sequences per step (all data-parallel ranks together; "
               "default: the model's batch)"},
              OptionValue::integer(globalBatch, 0));
  binder.bind({"top", scope, "Plans in the table"},
              OptionValue::integer(top, 1));
  binder.bind({"max-tp", scope,
               "Largest tensor-parallel degree (default: a node's devices)"},
              OptionValue::integer(maxTensorParallel, 0));
  binder.bind({"tp-across-nodes", scope, "Let tensor parallelism span nodes"},
              OptionValue::flag(tensorParallelAcrossNodes));
}

LogicalResult CompileOptions::applyInputShapes(llvm::raw_ostream &err) {
  for (const std::string &shape : inputShapes)
    if (failed(parseShapeOption(shape, import, err)))
      return failure();
  return success();
}
