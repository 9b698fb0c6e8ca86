/* run_gpt2 MODEL.onnx TEST_DATA_DIR MESH
 *
 * Compiles MODEL for MESH ("1", "dp2,tp2", ...) through paracc's C API,
 * saves and reloads the executable, runs it on TEST_DATA_DIR/input_0.pb and
 * compares its first output with TEST_DATA_DIR/output_0.pb (onnxruntime's).
 * Exit 0 when they agree (|a - e| <= 1e-5 + 1e-4 |e|), 1 when not, 2 on an
 * error. */

#include <paracc-c/paracc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed(paracc_status *status, const char *what) {
  if (!status)
    return 0;
  fprintf(stderr, "run_gpt2: %s failed (code %d):\n%s\n", what,
          (int)paracc_status_code(status), paracc_status_message(status));
  paracc_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: run_gpt2 MODEL.onnx TEST_DATA_DIR MESH\n");
    return 2;
  }
  printf("%s\n", paracc_version());
  if (paracc_api_version() != PARACC_C_API_VERSION) {
    fprintf(stderr, "run_gpt2: built for C API %d, library is %d\n",
            PARACC_C_API_VERSION, paracc_api_version());
    return 2;
  }
  char input_path[4096], expected_path[4096], saved_path[4096];
  snprintf(input_path, sizeof input_path, "%s/input_0.pb", argv[2]);
  snprintf(expected_path, sizeof expected_path, "%s/output_0.pb", argv[2]);
  snprintf(saved_path, sizeof saved_path, "run_gpt2-%s.pcx", argv[3]);

  int code = 2;
  paracc_options *options = NULL;
  paracc_executable *compiled = NULL, *exe = NULL;
  paracc_session *session = NULL;
  paracc_host_tensor *input = NULL, *expected = NULL;
  float *logits = NULL;

  if (failed(paracc_options_create(&options), "options") ||
      failed(paracc_options_set(options, "mesh", argv[3]), "mesh") ||
      failed(paracc_host_tensor_load(input_path, &input), input_path) ||
      failed(paracc_host_tensor_load(expected_path, &expected),
             expected_path))
    goto done;
  /* The input's shape fixes the model's symbolic dims. */
  paracc_tensor in, want;
  paracc_host_tensor_view(input, &in);
  paracc_host_tensor_view(expected, &want);
  char shape[256] = "input_ids=";
  for (int i = 0; i < in.rank; ++i)
    snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%lld",
             i ? "x" : "", (long long)in.shape[i]);
  if (failed(paracc_options_set(options, "input-shape", shape), "shape") ||
      failed(paracc_compile_file(argv[1], options, &compiled), "compile"))
    goto done;
  printf("compiled for %lld rank(s); explain report: %zu bytes of JSON\n",
         (long long)paracc_executable_num_ranks(compiled),
         strlen(paracc_executable_explain_json(compiled)));
  /* What paracc-run would load. */
  if (failed(paracc_executable_save(compiled, saved_path), "save") ||
      failed(paracc_executable_load_file(saved_path, &exe), "load"))
    goto done;
  remove(saved_path);

  const char *out_name;
  paracc_dtype out_dtype;
  int32_t out_rank;
  const int64_t *out_shape;
  if (failed(paracc_executable_output(exe, 0, &out_name, &out_dtype,
                                      &out_rank, &out_shape),
             "output"))
    goto done;
  size_t count = 1;
  for (int i = 0; i < out_rank; ++i)
    count *= (size_t)out_shape[i];
  if (out_dtype != PARACC_DTYPE_F32 || want.dtype != PARACC_DTYPE_F32 ||
      want.size_bytes != count * sizeof(float)) {
    fprintf(stderr, "run_gpt2: output '%s' and the expected one differ in "
                    "type or size\n", out_name);
    goto done;
  }
  logits = malloc(count * sizeof(float));
  paracc_tensor out = {NULL, (int32_t)out_dtype, out_rank, out_shape, logits,
                       count * sizeof(float)};
  if (failed(paracc_session_create(exe, NULL, &session), "session") ||
      failed(paracc_session_run(session, &in, 1, &out, 1), "run"))
    goto done;
  printf("ran on %s\n", paracc_session_device(session));

  const float *e = want.data;
  double max_abs = 0;
  size_t mismatches = 0;
  for (size_t i = 0; i < count; ++i) {
    double d = fabs((double)logits[i] - (double)e[i]);
    if (d > max_abs)
      max_abs = d;
    if (!(d <= 1e-5 + 1e-4 * fabs((double)e[i])))
      ++mismatches;
  }
  printf("output '%s': %zu values, max abs error %.3g, %zu mismatches\n",
         out_name, count, max_abs, mismatches);
  code = mismatches == 0 ? 0 : 1;

done:
  free(logits);
  paracc_session_free(session);
  paracc_executable_free(exe);
  paracc_executable_free(compiled);
  paracc_host_tensor_free(input);
  paracc_host_tensor_free(expected);
  paracc_options_free(options);
  return code;
}
