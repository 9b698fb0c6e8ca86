//===- RunOptionBindings.cpp - Run and trainer options, declared once -----===//

#include "paracc/Driver/RunOptions.h"

using namespace mlir::paracc;

void RunOptions::bindOptions(OptionsBinder &binder) {
  binder.bind({"tf32", OptionScope::Run,
               "f32 matrix products and attention on TF32 tensor cores (GPU)"},
              OptionValue::flag(allowTf32));
  binder.bind({"no-cuda-graph", OptionScope::Run,
               "Run each GPU step eagerly instead of as a CUDA graph"},
              OptionValue::flag(noCudaGraph));
}

void TokenBatchOptions::bindOptions(OptionsBinder &binder) {
  binder.bind({"batch", OptionScope::TrainingCompile,
               "Global batch (sequences) of a token model's [batch, seq] "
               "inputs (default 8)"},
              OptionValue::integer(batch, 1));
  binder.bind({"seq", OptionScope::TrainingCompile,
               "Sequence length (tokens) of a token model's [batch, seq] "
               "inputs (default 1024)"},
              OptionValue::integer(seq, 1));
}

void TrainerOptions::bindOptions(OptionsBinder &binder) {
  constexpr OptionScope scope = OptionScope::Trainer;
  binder.bind({"data", scope,
               "Flat token file (uint16 .u16 / nanoGPT .bin, or --data-dtype "
               "u32)",
               "FILE"},
              OptionValue::text(data));
  binder.bind({"data-dir", scope,
               "Batches for models whose inputs are not token ids: "
               "subfolders with input_N.pb (graph input order), one per "
               "step",
               "DIR"},
              OptionValue::text(dataDir));
  binder.bind({"data-dtype", scope, "Token width: u16 (default) or u32"},
              OptionValue::text(dataDtype));
  binder.bind({"data-seed", scope,
               "Shuffle the batches with this seed (0: in file order)"},
              OptionValue::unsignedInteger(dataSeed));
  binder.bind({"steps", scope, "Training steps"},
              OptionValue::integer(steps, 1));
  binder.bind({"lr", scope, "Peak learning rate"},
              OptionValue::number(lr, NumberRange::positive()));
  binder.bind({"lr-schedule", scope,
               "The learning-rate schedule: constant (default) or cosine "
               "(with --warmup, --min-lr)"},
              OptionValue::choice(lrSchedule));
  binder.bind({"warmup", scope, "Linear warm-up steps"},
              OptionValue::integer(warmup, 0));
  binder.bind({"min-lr", scope, "The cosine's final lr"},
              OptionValue::number(minLr, NumberRange::nonNegative()));
  binder.bind(
      {"log-json", scope, "Write one JSON object per step here", "FILE"},
      OptionValue::text(logJson));
  binder.bind({"checkpoint-dir", scope,
               "Write checkpoints here (and --resume from here)", "DIR"},
              OptionValue::text(checkpointDir));
  binder.bind({"checkpoint-every", scope,
               "Steps between checkpoints (0: at the end only)"},
              OptionValue::integer(checkpointEvery, 0));
  binder.bind({"resume", scope,
               "Continue from --checkpoint-dir's latest checkpoint (on any "
               "mesh)"},
              OptionValue::flag(resume));
}
