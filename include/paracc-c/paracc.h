/*===- paracc.h - paracc's C API -----------------------------------*- C -*-===*
 *
 * Compile a model (ONNX file or bytes, paracc's graph-dialect MLIR) for a
 * device mesh into an executable, read its --explain report, save or load
 * executables, and run them: inference, or training steps whose state
 * (parameters, optimizer moments) stays in the session between runs.
 *
 * Conventions:
 *  - Every call that can fail returns a paracc_status*: NULL on success,
 *    else an object with a code and the same located message the paracc
 *    tool prints ("model.onnx:3:0: error: ..."), which the caller frees
 *    with paracc_status_free. No call aborts the process on bad input.
 *  - Objects are opaque and owned by the caller (paracc_*_free). An object
 *    may be used from one thread at a time.
 *  - Tensors are caller-owned dense row-major buffers described by
 *    paracc_tensor; paracc reads inputs in place during the call (nothing
 *    is kept after it returns) and writes outputs into the caller's
 *    buffers.
 *  - No C++ types cross this header; the ABI is versioned by
 *    PARACC_C_API_VERSION (paracc_api_version() at run time).
 *
 *===----------------------------------------------------------------------===*/

#ifndef PARACC_C_PARACC_H
#define PARACC_C_PARACC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PARACC_C_EXPORT __attribute__((visibility("default")))
#else
#define PARACC_C_EXPORT
#endif

#define PARACC_C_API_VERSION 1

/* What went wrong; the values are the paracc tools' exit codes. */
typedef enum paracc_code {
  PARACC_OK = 0,
  PARACC_MISMATCH = 1,         /* a check failed (outputs, gradients) */
  PARACC_ERROR = 2,            /* bad model, options, data, or a run error */
  PARACC_UNSUPPORTED = 3,      /* the model uses something not supported */
  PARACC_INVALID_ARGUMENT = 4, /* a call's own arguments are wrong */
} paracc_code;

/* Element types: ONNX's TensorProto.DataType numbers. */
typedef enum paracc_dtype {
  PARACC_DTYPE_INVALID = 0,
  PARACC_DTYPE_F32 = 1,
  PARACC_DTYPE_U8 = 2,
  PARACC_DTYPE_I8 = 3,
  PARACC_DTYPE_U16 = 4,
  PARACC_DTYPE_I16 = 5,
  PARACC_DTYPE_I32 = 6,
  PARACC_DTYPE_I64 = 7,
  PARACC_DTYPE_BOOL = 9,
  PARACC_DTYPE_F16 = 10,
  PARACC_DTYPE_F64 = 11,
  PARACC_DTYPE_U32 = 12,
  PARACC_DTYPE_U64 = 13,
  PARACC_DTYPE_BF16 = 16,
} paracc_dtype;

/* What a state buffer holds. */
typedef enum paracc_state_kind {
  PARACC_STATE_PARAMETER = 0,
  PARACC_STATE_OPTIMIZER = 1, /* a moment of the optimizer */
  /* A parameter's bf16/f16 copy that mixed-precision training keeps (its
     value is the parameter's cast; checkpoints leave it out). */
  PARACC_STATE_WEIGHT_COPY = 2,
} paracc_state_kind;

/* The format of a model given as bytes. */
typedef enum paracc_model_format {
  PARACC_FORMAT_ONNX = 0,      /* binary ModelProto */
  PARACC_FORMAT_ONNX_TEXT = 1, /* protobuf text format */
  PARACC_FORMAT_MLIR = 2,      /* paracc's graph dialect (MLIR text) */
} paracc_model_format;

typedef struct paracc_status paracc_status;
typedef struct paracc_options paracc_options;
typedef struct paracc_executable paracc_executable;
typedef struct paracc_session paracc_session;
typedef struct paracc_host_tensor paracc_host_tensor;
typedef struct paracc_trainer paracc_trainer;
typedef struct paracc_plan paracc_plan;

/* A dense row-major tensor in caller-owned memory. */
typedef struct paracc_tensor {
  /* An input's name (NULL or "": by position); ignored for outputs. */
  const char *name;
  /* A paracc_dtype (an int, so that any value a caller stores is defined
   * behaviour to read and can be refused). */
  int32_t dtype;
  int32_t rank;
  /* `rank` dimensions (may be NULL for rank 0). */
  const int64_t *shape;
  /* The elements; `size_bytes` must be their exact size. */
  void *data;
  size_t size_bytes;
} paracc_tensor;

/* --- versions and statuses ----------------------------------------------- */

PARACC_C_EXPORT int paracc_api_version(void);
/* paracc's version, e.g. "paracc 0.1 (executable format 2)". */
PARACC_C_EXPORT const char *paracc_version(void);

PARACC_C_EXPORT paracc_code paracc_status_code(const paracc_status *status);
/* The message ("" for NULL); valid until the status is freed. */
PARACC_C_EXPORT const char *
paracc_status_message(const paracc_status *status);
PARACC_C_EXPORT void paracc_status_free(paracc_status *status);

/* --- options ------------------------------------------------------------- */

/* Compile and run options as key/value texts, the paracc tool's flags
 * without their dashes:
 *   compiling: mesh ("dp2,tp2"; "auto": the planner chooses for cluster),
 *     cluster ("16x8:h100", a .json file, or local), sp ("1"), microbatches,
 *     stages,
 *     pipeline-schedule (gpipe|1f1b|zb-h1|interleaved; "schedule" is its
 *     old name), precision (f32|bf16|f16), input-shape ("NAME=2x64";
 * repeatable), random-weights ("1"), seed, params (StableHLO: the entry
 * function's leading parameter arguments, a count or an .npz of their values);
 *   compiling a training step: train ("1"), loss (next-token-ce|ce: a
 *     logits model gets the loss added), batch and seq (a token model's
 *     [batch, seq] inputs), freeze and train-only (regular expressions),
 *     no-auto-freeze ("1": train the buffers exporters write), optimizer
 *     (adamw|sgd), betas ("0.9,0.95"), eps, weight-decay, momentum,
 *     clip-grad-norm, recompute (none|full|selective|auto), memory-budget
 *     ("40GiB"), bucket-mb, dropout-seed;
 *   planning (paracc_plan_file): global-batch, top (and cluster);
 *   running (paracc_session_create, paracc_trainer_create): device
 *     (auto|cpu|gpu), tf32 ("1"), no-cuda-graph ("1");
 *   training (paracc_trainer_create): data (a token file) or data-dir
 *     (input_N.pb batch folders), data-dtype (u16|u32), data-seed, steps,
 *     lr, lr-schedule (constant|cosine), warmup, min-lr, log-json (a JSON
 *     line per step), checkpoint-dir, checkpoint-every, resume ("1"),
 *     progress ("1": a progress line per step on standard output).
 * An unknown key is an error that names the known ones, a value outside a
 * choice's set an error that names the key and the values. */
PARACC_C_EXPORT paracc_status *paracc_options_create(paracc_options **out);
PARACC_C_EXPORT paracc_status *paracc_options_set(paracc_options *options,
                                                  const char *key,
                                                  const char *value);
PARACC_C_EXPORT void paracc_options_free(paracc_options *options);
/* Every key paracc_options_set takes, as a JSON array of {"key", "scope",
 * "kind"}. The scope says which call reads it: "compile"
 * (paracc_compile_*), "training-compile" (paracc_compile_* with train=1),
 * "run" (where a session or trainer runs; device also picks the compile's
 * cost model), "trainer" (paracc_trainer_create) or "plan"
 * (paracc_plan_file). The kind: text, flag,
 * integer, number, repeated (given once per value), choice, bytes ("40GiB",
 * "512MiB", "4096B") or numbers (comma-separated); a choice also has
 * "values" (what it takes) and "what" (its name in messages). What a front
 * end builds its own options and messages from. The string is static. */
PARACC_C_EXPORT const char *paracc_options_describe(void);

/* --- compiling ----------------------------------------------------------- */

/* Compiles a model file (.onnx, .pbtxt, .mlir) for the options' mesh.
 * `options` may be NULL (one rank, f32). */
PARACC_C_EXPORT paracc_status *
paracc_compile_file(const char *path, const paracc_options *options,
                    paracc_executable **out);
/* Compiles a model held in memory. `name` stands for it in messages (NULL:
 * "<buffer>"); an ONNX model's external data is read from `data_dir` (NULL:
 * it may have none). */
PARACC_C_EXPORT paracc_status *
paracc_compile_buffer(const void *bytes, size_t size,
                      int32_t format /* a paracc_model_format */,
                      const char *name,
                      const char *data_dir, const paracc_options *options,
                      paracc_executable **out);

/* --- planning ------------------------------------------------------------ */

/* The parallel plan of a model file for a cluster, chosen from its shapes
 * (no weight is read): `paracc plan`. The options: cluster
 * ("16x8:h100", a .json file, or local), global-batch (sequences per step;
 * default the model's batch), top (plans kept, default 10), precision,
 * input-shape, params, train ("1") with the training compile's keys; with
 * a mesh (and its microbatches, pipeline-schedule, virtual-stages, sp,
 * recompute, zero) only that plan is predicted. No plan fitting is an
 * error naming the smallest peak. */
PARACC_C_EXPORT paracc_status *paracc_plan_file(const char *path,
                                                const paracc_options *options,
                                                paracc_plan **out);
/* The result as JSON (`paracc plan --json`: plan, predicted, candidates,
 * search, cluster, model), as text and as an HTML page (`--report`: the
 * plans by step and memory with their Pareto front, memory by category,
 * the chosen step's simulated timeline); valid while `plan` lives. */
PARACC_C_EXPORT const char *paracc_plan_json(const paracc_plan *plan);
PARACC_C_EXPORT const char *paracc_plan_text(const paracc_plan *plan);
PARACC_C_EXPORT const char *paracc_plan_html(const paracc_plan *plan);
PARACC_C_EXPORT void paracc_plan_free(paracc_plan *plan);

/* --- executables --------------------------------------------------------- */

PARACC_C_EXPORT paracc_status *
paracc_executable_load_file(const char *path, paracc_executable **out);
PARACC_C_EXPORT paracc_status *
paracc_executable_load_buffer(const void *bytes, size_t size,
                              paracc_executable **out);
/* Writes the executable (.pcx) to `path` (a temporary name, then renamed). */
PARACC_C_EXPORT paracc_status *
paracc_executable_save(const paracc_executable *exe, const char *path);
/* The executable's bytes; valid while `exe` lives. */
PARACC_C_EXPORT void paracc_executable_bytes(const paracc_executable *exe,
                                             const void **bytes,
                                             size_t *size);
/* The --explain report of the compile, as JSON and as text ("" for a loaded
 * executable); valid while `exe` lives. */
PARACC_C_EXPORT const char *
paracc_executable_explain_json(const paracc_executable *exe);
PARACC_C_EXPORT const char *
paracc_executable_explain_text(const paracc_executable *exe);
/* The number of ranks (the mesh's size). */
PARACC_C_EXPORT int64_t
paracc_executable_num_ranks(const paracc_executable *exe);
/* 1 for a training step (its state is trained), 0 for inference. */
PARACC_C_EXPORT int paracc_executable_is_training(const paracc_executable *exe);
PARACC_C_EXPORT size_t
paracc_executable_num_inputs(const paracc_executable *exe);
PARACC_C_EXPORT size_t
paracc_executable_num_outputs(const paracc_executable *exe);
/* Input or output `index`: its name, element type and global shape (valid
 * while `exe` lives; any pointer may be NULL). */
PARACC_C_EXPORT paracc_status *
paracc_executable_input(const paracc_executable *exe, size_t index,
                        const char **name, paracc_dtype *dtype,
                        int32_t *rank, const int64_t **shape);
PARACC_C_EXPORT paracc_status *
paracc_executable_output(const paracc_executable *exe, size_t index,
                         const char **name, paracc_dtype *dtype,
                         int32_t *rank, const int64_t **shape);
/* The state table (parameters; a training step's optimizer moments too):
 * its size, and buffer `index`'s name, element type and global shape. */
PARACC_C_EXPORT size_t
paracc_executable_num_state(const paracc_executable *exe);
PARACC_C_EXPORT paracc_status *
paracc_executable_state(const paracc_executable *exe, size_t index,
                        const char **name, paracc_dtype *dtype,
                        int32_t *rank, const int64_t **shape);
/* Buffer `index`'s kind and place: tensor parallelism splits a fused
 * parameter (GPT-2's q/k/v projection) into blocks, each a buffer of the
 * parameter's name; `whole_rank`/`whole_shape` are then the parameter's and
 * `offsets` (whole_rank values) where the block starts in it. A buffer that
 * is a whole parameter has whole_rank 0. */
PARACC_C_EXPORT paracc_status *
paracc_executable_state_block(const paracc_executable *exe, size_t index,
                              paracc_state_kind *kind, int32_t *whole_rank,
                              const int64_t **whole_shape,
                              const int64_t **offsets);
PARACC_C_EXPORT void paracc_executable_free(paracc_executable *exe);

/* --- training ------------------------------------------------------------ */

/* One training step's figures. */
typedef struct paracc_step_record {
  int64_t step; /* the global step, from 0 (continuing after a resume) */
  double loss;  /* before the update */
  double grad_norm; /* the global L2 norm, before clipping */
  double lr;
  double tokens_per_s;
  double ms;
} paracc_step_record;

/* Starts a training run of a step executable (compiled with train=1):
 * its data, learning-rate schedule, ranks (CPU threads or GPUs) and
 * checkpoints, resumed from the latest checkpoint with resume=1. */
PARACC_C_EXPORT paracc_status *
paracc_trainer_create(const paracc_executable *exe,
                      const paracc_options *options, paracc_trainer **out);
/* The global step the next paracc_trainer_step runs, and whether the
 * run's steps are done. */
PARACC_C_EXPORT int64_t paracc_trainer_next_step(const paracc_trainer *t);
PARACC_C_EXPORT int paracc_trainer_finished(const paracc_trainer *t);
/* Runs one step. A loss or gradient norm that is not finite stops the run:
 * PARACC_MISMATCH, naming the step and the first parameter whose gradient
 * is not finite (the last checkpoint stays intact). */
PARACC_C_EXPORT paracc_status *paracc_trainer_step(paracc_trainer *t,
                                                   paracc_step_record *out);
/* After the last step: writes the final checkpoint (with checkpoint-dir). */
PARACC_C_EXPORT paracc_status *paracc_trainer_finish(paracc_trainer *t);
/* The trained state (parameters, optimizer moments) by index, described
 * by paracc_executable_state. */
PARACC_C_EXPORT paracc_status *
paracc_trainer_read_state(const paracc_trainer *t, size_t index,
                          paracc_tensor *out);
PARACC_C_EXPORT void paracc_trainer_free(paracc_trainer *t);

/* --- tensors owned by paracc ------------------------------------------------ */

/* Reads an ONNX TensorProto file (the input_N.pb / output_N.pb of ONNX
 * test-data folders). */
PARACC_C_EXPORT paracc_status *
paracc_host_tensor_load(const char *path, paracc_host_tensor **out);
/* Describes the tensor (its name, type, shape and data) in `view`; the
 * pointers are valid while `tensor` lives. */
PARACC_C_EXPORT void paracc_host_tensor_view(const paracc_host_tensor *tensor,
                                             paracc_tensor *view);
PARACC_C_EXPORT void paracc_host_tensor_free(paracc_host_tensor *tensor);

/* --- sessions: running ------------------------------------------------------ */

/* Starts every rank of `exe` (CPU ranks as threads, or one GPU per rank)
 * with its state; `options` (may be NULL) takes the running keys. */
PARACC_C_EXPORT paracc_status *
paracc_session_create(const paracc_executable *exe,
                      const paracc_options *options, paracc_session **out);
/* Where the ranks run ("4 CPU rank(s)", "1 GPU"); valid while it lives. */
PARACC_C_EXPORT const char *paracc_session_device(const paracc_session *s);
/* Runs the function once. `inputs` name the executable's inputs (or follow
 * their order); inputs not given are generated from seed 0. `outputs` must
 * hold one tensor per output, of its type and shape, in order; their
 * buffers receive the results. A training step's state is updated. */
PARACC_C_EXPORT paracc_status *
paracc_session_run(paracc_session *session, const paracc_tensor *inputs,
                   size_t num_inputs, paracc_tensor *outputs,
                   size_t num_outputs);
/* State buffer `index`'s whole (global) value, assembled from the ranks'
 * shards (described by paracc_executable_state). */
PARACC_C_EXPORT paracc_status *
paracc_session_read_state(const paracc_session *s, size_t index,
                          paracc_tensor *out);
PARACC_C_EXPORT void paracc_session_free(paracc_session *session);

#ifdef __cplusplus
}
#endif

#endif /* PARACC_C_PARACC_H */
