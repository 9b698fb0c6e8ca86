//===- CAPITest.cpp - paracc's C API, end to end ----------------*- C++ -*-===//
//
// Compiles, saves, loads and runs models through include/paracc-c/paracc.h
// only. Outputs are checked against independent references (onnxruntime's
// output_0.pb for GPT-2; the one-rank program for a sharded one), and every
// misuse (null or mistyped buffers, wrong names, broken models) must come
// back as a status with a message, never a crash.
//
//===----------------------------------------------------------------------===//

#include "paracc-c/paracc.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kSource = PARACC_SOURCE_DIR;
const std::string kGpt2 = kSource + "/examples/gpt2";

/// Takes ownership of a status; its code and message.
struct Result {
  paracc_code code = PARACC_OK;
  std::string message;
  explicit Result(paracc_status *s)
      : code(paracc_status_code(s)), message(paracc_status_message(s)) {
    paracc_status_free(s);
  }
};

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

paracc_options *makeOptions(
    std::initializer_list<std::pair<const char *, const char *>> entries) {
  paracc_options *options = nullptr;
  EXPECT_EQ(Result(paracc_options_create(&options)).code, PARACC_OK);
  for (auto [key, value] : entries) {
    Result r(paracc_options_set(options, key, value));
    EXPECT_EQ(r.code, PARACC_OK) << r.message;
  }
  return options;
}

/// A loaded tensor file and its view.
struct HostTensor {
  paracc_host_tensor *tensor = nullptr;
  paracc_tensor view{};
  explicit HostTensor(const std::string &path) {
    Result r(paracc_host_tensor_load(path.c_str(), &tensor));
    EXPECT_EQ(r.code, PARACC_OK) << r.message;
    paracc_host_tensor_view(tensor, &view);
  }
  ~HostTensor() { paracc_host_tensor_free(tensor); }
};

/// Output `index`'s buffer and its description.
struct OutputBuffer {
  std::vector<float> data;
  paracc_tensor view{};
  OutputBuffer(const paracc_executable *exe, size_t index) {
    paracc_dtype dtype;
    int32_t rank;
    const int64_t *shape;
    Result r(paracc_executable_output(exe, index, nullptr, &dtype, &rank,
                                      &shape));
    EXPECT_EQ(r.code, PARACC_OK) << r.message;
    EXPECT_EQ(dtype, PARACC_DTYPE_F32);
    size_t count = 1;
    for (int i = 0; i < rank; ++i)
      count *= size_t(shape[i]);
    data.resize(count);
    view = paracc_tensor{nullptr, int32_t(dtype), rank,
                         shape,   data.data(), count * sizeof(float)};
  }
};

/// Compiles GPT-2 (examples/gpt2, input_ids 4x16) for `mesh`.
paracc_executable *compileGpt2(const char *mesh) {
  paracc_options *options =
      makeOptions({{"mesh", mesh}});
  paracc_executable *exe = nullptr;
  Result r(paracc_compile_file((kGpt2 + "/model.onnx").c_str(), options, &exe));
  paracc_options_free(options);
  EXPECT_EQ(r.code, PARACC_OK) << r.message;
  return exe;
}

double maxAbsDifference(const std::vector<float> &a, const float *b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs(double(a[i]) - double(b[i])));
  return worst;
}

TEST(CAPI, Version) {
  EXPECT_EQ(paracc_api_version(), PARACC_C_API_VERSION);
  EXPECT_NE(std::string(paracc_version()).find("paracc"), std::string::npos);
  EXPECT_EQ(paracc_status_code(nullptr), PARACC_OK);
  EXPECT_STREQ(paracc_status_message(nullptr), "");
}

TEST(CAPI, OptionsRejectUnknownKeysAndBadValues) {
  paracc_options *options = nullptr;
  ASSERT_EQ(Result(paracc_options_create(&options)).code, PARACC_OK);
  Result unknown(paracc_options_set(options, "meshes", "dp2"));
  EXPECT_EQ(unknown.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(unknown.message.find("unknown option 'meshes'"), std::string::npos)
      << unknown.message;
  EXPECT_NE(unknown.message.find("mesh"), std::string::npos);
  EXPECT_EQ(Result(paracc_options_set(options, "sp", "maybe")).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_options_set(options, "microbatches", "2x")).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_options_set(options, nullptr, "1")).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_options_set(nullptr, "sp", "1")).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_options_create(nullptr)).code,
            PARACC_INVALID_ARGUMENT);
  // A choice outside its set: the key and the compiler's values.
  Result precision(paracc_options_set(options, "precision", "f8"));
  EXPECT_EQ(precision.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(precision.message.find("option 'precision': 'f8' is not a "
                                   "precision (f32, bf16 or f16)"),
            std::string::npos)
      << precision.message;
  Result schedule(paracc_options_set(options, "pipeline-schedule", "2f2b"));
  EXPECT_NE(schedule.message.find("option 'pipeline-schedule': '2f2b' is not "
                                  "a pipeline schedule (gpipe, 1f1b, zb-h1 "
                                  "or interleaved)"),
            std::string::npos)
      << schedule.message;
  EXPECT_EQ(Result(paracc_options_set(options, "recompute", "auto")).code,
            PARACC_OK);
  paracc_options_free(options);
}

TEST(CAPI, OptionsDescribeEveryKey) {
  const std::string described = paracc_options_describe();
  EXPECT_EQ(described.front(), '[');
  for (const char *entry :
       {"\"key\":\"mesh\",\"kind\":\"text\",\"scope\":\"compile\"",
        "\"key\":\"microbatches\",\"kind\":\"integer\",\"scope\":"
        "\"compile\"",
        "\"key\":\"precision\",\"kind\":\"choice\",\"scope\":\"compile\","
        "\"values\":[\"f32\",\"bf16\",\"f16\"],\"what\":\"precision\"",
        "\"key\":\"memory-budget\",\"kind\":\"bytes\",\"scope\":"
        "\"training-compile\"",
        "\"key\":\"betas\",\"kind\":\"numbers\",\"scope\":"
        "\"training-compile\"",
        "\"key\":\"no-cuda-graph\",\"kind\":\"flag\",\"scope\":\"run\"",
        "\"key\":\"global-batch\",\"kind\":\"integer\",\"scope\":\"plan\"",
        "\"key\":\"lr-schedule\",\"kind\":\"choice\",\"scope\":"
        "\"trainer\",\"values\":[\"constant\",\"cosine\"]"})
    EXPECT_NE(described.find(entry), std::string::npos) << entry;
  // Each key has the help text the tools' --help prints.
  EXPECT_NE(described.find("\"help\":\"Sequence parallelism on the "
                           "tensor-parallel axis\",\"key\":\"sp\""),
            std::string::npos);
}

// The planner through the C API: GPT-2's plan for 4 CPU ranks, its JSON
// and text; a bad cluster and no plan fitting are errors with messages.
TEST(CAPI, PlanForACluster) {
  const std::string model = kGpt2 + "/model.onnx";
  paracc_options *options = makeOptions({{"cluster", "1x4:cpu"}, {"top", "3"}});
  paracc_plan *plan = nullptr;
  Result r(paracc_plan_file(model.c_str(), options, &plan));
  paracc_options_free(options);
  ASSERT_EQ(r.code, PARACC_OK) << r.message;
  const std::string json = paracc_plan_json(plan);
  for (const char *field : {"\"plan\"", "\"predicted\"", "\"candidates\"",
                            "\"step_seconds\"", "\"micro_batch_size\""})
    EXPECT_NE(json.find(field), std::string::npos) << field;
  EXPECT_NE(std::string(paracc_plan_text(plan)).find("chosen:"),
            std::string::npos);
  paracc_plan_free(plan);

  for (auto [cluster, message] :
       {std::pair{"4x8:tpu", "unknown device 'tpu'"},
        std::pair{"1x2:cpu,memory=0.00001", "no plan of 1x2:cpu fits"}}) {
    paracc_options *bad = makeOptions({{"cluster", cluster}});
    paracc_plan *none = nullptr;
    Result e(paracc_plan_file(model.c_str(), bad, &none));
    paracc_options_free(bad);
    EXPECT_EQ(e.code, PARACC_ERROR) << cluster;
    EXPECT_NE(e.message.find(message), std::string::npos) << e.message;
    EXPECT_EQ(none, nullptr);
  }
}

// GPT-2 on dp2,tp2 through the C API equals onnxruntime's logits, also
// after a save and a load.
TEST(CAPI, Gpt2MatchesOnnxruntimeOnAMesh) {
  paracc_executable *compiled = compileGpt2("dp2,tp2");
  ASSERT_NE(compiled, nullptr);
  EXPECT_EQ(paracc_executable_num_ranks(compiled), 4);
  EXPECT_EQ(paracc_executable_is_training(compiled), 0);
  std::string json = paracc_executable_explain_json(compiled);
  EXPECT_NE(json.find("\"axes\""), std::string::npos) << json.substr(0, 200);
  EXPECT_NE(std::string(paracc_executable_explain_text(compiled)).find("tp"),
            std::string::npos);
  ASSERT_EQ(paracc_executable_num_inputs(compiled), 1u);
  const char *name;
  paracc_dtype dtype;
  int32_t rank;
  const int64_t *shape;
  ASSERT_EQ(Result(paracc_executable_input(compiled, 0, &name, &dtype, &rank,
                                           &shape))
                .code,
            PARACC_OK);
  EXPECT_STREQ(name, "input_ids");
  EXPECT_EQ(dtype, PARACC_DTYPE_I64);
  ASSERT_EQ(rank, 2);
  EXPECT_EQ(shape[0], 4);
  EXPECT_EQ(shape[1], 16);
  EXPECT_EQ(Result(paracc_executable_input(compiled, 1, &name, nullptr,
                                           nullptr, nullptr))
                .code,
            PARACC_INVALID_ARGUMENT);

  std::string saved = ::testing::TempDir() + "/capi-gpt2.pcx";
  ASSERT_EQ(Result(paracc_executable_save(compiled, saved.c_str())).code,
            PARACC_OK);
  paracc_executable *exe = nullptr;
  ASSERT_EQ(Result(paracc_executable_load_file(saved.c_str(), &exe)).code,
            PARACC_OK);
  std::remove(saved.c_str());
  const void *a, *b;
  size_t sizeA, sizeB;
  paracc_executable_bytes(compiled, &a, &sizeA);
  paracc_executable_bytes(exe, &b, &sizeB);
  ASSERT_EQ(sizeA, sizeB);
  EXPECT_EQ(std::memcmp(a, b, sizeA), 0);

  HostTensor input(kGpt2 + "/test_data_set_0/input_0.pb");
  HostTensor expected(kGpt2 + "/test_data_set_0/output_0.pb");
  OutputBuffer out(exe, 0);
  ASSERT_EQ(expected.view.size_bytes, out.view.size_bytes);
  paracc_session *session = nullptr;
  paracc_options *cpu = makeOptions({{"device", "cpu"}});
  Result created(paracc_session_create(exe, cpu, &session));
  paracc_options_free(cpu);
  ASSERT_EQ(created.code, PARACC_OK) << created.message;
  EXPECT_NE(std::string(paracc_session_device(session)).find("4"),
            std::string::npos);
  Result ran(paracc_session_run(session, &input.view, 1, &out.view, 1));
  ASSERT_EQ(ran.code, PARACC_OK) << ran.message;
  EXPECT_LT(maxAbsDifference(out.data,
                             static_cast<const float *>(expected.view.data)),
            1e-4);
  paracc_session_free(session);
  paracc_executable_free(exe);
  paracc_executable_free(compiled);
}

// Graph-dialect MLIR from bytes, tensor parallel over 2 ranks, equals the
// one-rank program (seeded random weights, the same in both).
TEST(CAPI, MlirBufferShardedEqualsOneRank) {
  std::string mlir = readFile(kSource + "/examples/embedding/mlp.mlir");
  ASSERT_FALSE(mlir.empty());
  std::vector<float> x(2 * 16 * 64);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(std::sin(0.37 * double(i)));
  const int64_t shape[] = {2, 16, 64};
  paracc_tensor input{"", PARACC_DTYPE_F32, 3, shape, x.data(),
                      x.size() * sizeof(float)};
  std::vector<std::vector<float>> results;
  for (const char *mesh : {"1", "tp2"}) {
    paracc_options *options = makeOptions(
        {{"mesh", mesh}, {"seed", "7"}, {"random-weights", "1"}});
    paracc_executable *exe = nullptr;
    Result r(paracc_compile_buffer(mlir.data(), mlir.size(),
                                   PARACC_FORMAT_MLIR, "mlp.mlir", nullptr,
                                   options, &exe));
    paracc_options_free(options);
    ASSERT_EQ(r.code, PARACC_OK) << r.message;
    paracc_session *session = nullptr;
    ASSERT_EQ(Result(paracc_session_create(exe, nullptr, &session)).code,
              PARACC_OK);
    OutputBuffer out(exe, 0);
    Result ran(paracc_session_run(session, &input, 1, &out.view, 1));
    ASSERT_EQ(ran.code, PARACC_OK) << ran.message;
    results.push_back(out.data);
    paracc_session_free(session);
    paracc_executable_free(exe);
  }
  EXPECT_LT(maxAbsDifference(results[0], results[1].data()), 1e-5);
  double norm = 0;
  for (float v : results[0])
    norm += std::fabs(v);
  EXPECT_GT(norm, 1.0); // not all zeros
}

// StableHLO as JAX prints it, from bytes, under tp2: JAX's own output.
TEST(CAPI, StableHLOFromJAX) {
  const std::string jax = kSource + "/test/Importer/StableHLO/Inputs/jax";
  std::string text = readFile(jax + "/gpt.mlir");
  ASSERT_FALSE(text.empty());
  paracc_options *options = makeOptions({{"mesh", "tp2"}});
  paracc_executable *exe = nullptr;
  Result r(paracc_compile_buffer(text.data(), text.size(), PARACC_FORMAT_MLIR,
                                 "gpt.mlir", nullptr, options, &exe));
  paracc_options_free(options);
  ASSERT_EQ(r.code, PARACC_OK) << r.message;
  HostTensor input(jax + "/gpt/test_data_set_0/input_0.pb");
  HostTensor expected(jax + "/gpt/test_data_set_0/output_0.pb");
  OutputBuffer out(exe, 0);
  paracc_session *session = nullptr;
  ASSERT_EQ(Result(paracc_session_create(exe, nullptr, &session)).code,
            PARACC_OK);
  Result ran(paracc_session_run(session, &input.view, 1, &out.view, 1));
  ASSERT_EQ(ran.code, PARACC_OK) << ran.message;
  EXPECT_LT(maxAbsDifference(out.data,
                             static_cast<const float *>(expected.view.data)),
            1e-5);
  paracc_session_free(session);
  paracc_executable_free(exe);

  std::string unknown = "func.func public @main(%a: tensor<4xf32>) -> "
                        "tensor<4xf32> {\n  %0 = stablehlo.fft %a : "
                        "tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
  Result refused(paracc_compile_buffer(unknown.data(), unknown.size(),
                                       PARACC_FORMAT_MLIR, "fft.mlir", nullptr,
                                       nullptr, &exe));
  EXPECT_EQ(refused.code, PARACC_UNSUPPORTED);
  EXPECT_NE(refused.message.find("fft.mlir:2:"), std::string::npos)
      << refused.message;
  EXPECT_NE(refused.message.find("unsupported op 'stablehlo.fft'"),
            std::string::npos)
      << refused.message;
}

// An ONNX model from bytes reads its external data only from the folder
// it is given.
TEST(CAPI, OnnxBufferExternalData) {
  std::string model = readFile(kGpt2 + "/model.onnx");
  paracc_options *options = makeOptions({});
  paracc_executable *exe = nullptr;
  Result without(paracc_compile_buffer(model.data(), model.size(),
                                       PARACC_FORMAT_ONNX, "gpt2.onnx",
                                       nullptr, options, &exe));
  EXPECT_EQ(without.code, PARACC_ERROR);
  EXPECT_NE(without.message.find("external data"), std::string::npos)
      << without.message;
  EXPECT_EQ(exe, nullptr);
  Result with(paracc_compile_buffer(model.data(), model.size(),
                                    PARACC_FORMAT_ONNX, "gpt2.onnx",
                                    kGpt2.c_str(), options, &exe));
  EXPECT_EQ(with.code, PARACC_OK) << with.message;
  paracc_executable_free(exe);
  paracc_options_free(options);
}

TEST(CAPI, BrokenModelsComeBackAsLocatedErrors) {
  paracc_executable *exe = nullptr;
  std::string broken = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                       "  %0 = graph.frobnicate %x : tensor<2xf32>\n"
                       "  return %0 : tensor<2xf32>\n}\n";
  Result mlir(paracc_compile_buffer(broken.data(), broken.size(),
                                    PARACC_FORMAT_MLIR, "broken.mlir",
                                    nullptr, nullptr, &exe));
  EXPECT_EQ(mlir.code, PARACC_ERROR);
  EXPECT_NE(mlir.message.find("broken.mlir:2:"), std::string::npos)
      << mlir.message;
  EXPECT_NE(mlir.message.find("frobnicate"), std::string::npos);

  std::string onnx = "ir_version: 8\nopset_import { version: 17 }\n"
                     "graph {\n"
                     "  node { op_type: \"Frobnicate\" input: \"x\" output: "
                     "\"y\" name: \"frob0\" }\n"
                     "  input { name: \"x\" type { tensor_type { elem_type: 1 "
                     "shape { dim { dim_value: 2 } } } } }\n"
                     "  output { name: \"y\" }\n}\n";
  Result op(paracc_compile_buffer(onnx.data(), onnx.size(),
                                  PARACC_FORMAT_ONNX_TEXT, "frob.pbtxt",
                                  nullptr, nullptr, &exe));
  EXPECT_EQ(op.code, PARACC_UNSUPPORTED);
  EXPECT_NE(op.message.find("unsupported op 'Frobnicate' (opset 17) at node "
                            "'frob0'"),
            std::string::npos)
      << op.message;

  std::string garbage = "not a protobuf \xff\xff";
  EXPECT_EQ(Result(paracc_compile_buffer(garbage.data(), garbage.size(),
                                         PARACC_FORMAT_ONNX, nullptr, nullptr,
                                         nullptr, &exe))
                .code,
            PARACC_ERROR);
  Result missing(paracc_compile_file("/nonexistent/model.onnx", nullptr, &exe));
  EXPECT_EQ(missing.code, PARACC_ERROR);
  EXPECT_NE(missing.message.find("cannot read"), std::string::npos)
      << missing.message;
  paracc_options *options = makeOptions({{"mesh", "xp2"}});
  Result mesh(paracc_compile_file((kGpt2 + "/model.onnx").c_str(), options,
                                  &exe));
  paracc_options_free(options);
  EXPECT_EQ(mesh.code, PARACC_ERROR);
  EXPECT_NE(mesh.message.find("mesh axis 'xp'"), std::string::npos)
      << mesh.message;
  EXPECT_EQ(Result(paracc_compile_buffer(onnx.data(), onnx.size(),
                                         9, nullptr,
                                         nullptr, nullptr, &exe))
                .code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_compile_file(nullptr, nullptr, &exe)).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(exe, nullptr);
}

TEST(CAPI, BadExecutablesAndFiles) {
  paracc_executable *exe = nullptr;
  std::string garbage(256, 'x');
  Result bytes(
      paracc_executable_load_buffer(garbage.data(), garbage.size(), &exe));
  EXPECT_EQ(bytes.code, PARACC_ERROR);
  EXPECT_FALSE(bytes.message.empty());
  EXPECT_EQ(exe, nullptr);
  EXPECT_EQ(Result(paracc_executable_load_file("/nonexistent.pcx", &exe)).code,
            PARACC_ERROR);
  paracc_host_tensor *t = nullptr;
  EXPECT_EQ(Result(paracc_host_tensor_load("/nonexistent.pb", &t)).code,
            PARACC_ERROR);
  EXPECT_EQ(t, nullptr);
}

// Mistyped, missing or mis-sized buffers are statuses, not crashes.
TEST(CAPI, MisusedRunBuffers) {
  paracc_executable *exe = compileGpt2("1");
  ASSERT_NE(exe, nullptr);
  paracc_session *session = nullptr;
  ASSERT_EQ(Result(paracc_session_create(exe, nullptr, &session)).code,
            PARACC_OK);
  OutputBuffer out(exe, 0);
  std::vector<int64_t> ids(64, 1);
  const int64_t shape[] = {4, 16};
  paracc_tensor good{"input_ids", PARACC_DTYPE_I64, 2, shape, ids.data(),
                     ids.size() * sizeof(int64_t)};
  ASSERT_EQ(Result(paracc_session_run(session, &good, 1, &out.view, 1)).code,
            PARACC_OK);

  paracc_tensor noData = good;
  noData.data = nullptr;
  Result r1(paracc_session_run(session, &noData, 1, &out.view, 1));
  EXPECT_EQ(r1.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(r1.message.find("no data"), std::string::npos) << r1.message;

  paracc_tensor shortBuffer = good;
  shortBuffer.size_bytes -= 8;
  Result r2(paracc_session_run(session, &shortBuffer, 1, &out.view, 1));
  EXPECT_EQ(r2.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(r2.message.find("bytes"), std::string::npos) << r2.message;

  std::vector<int32_t> ids32(64, 1);
  paracc_tensor mistyped{"input_ids", PARACC_DTYPE_I32, 2, shape, ids32.data(),
                         ids32.size() * sizeof(int32_t)};
  Result r3(paracc_session_run(session, &mistyped, 1, &out.view, 1));
  EXPECT_EQ(r3.code, PARACC_ERROR);
  EXPECT_NE(r3.message.find("input_ids"), std::string::npos) << r3.message;

  paracc_tensor misnamed = good;
  misnamed.name = "tokens";
  Result r4(paracc_session_run(session, &misnamed, 1, &out.view, 1));
  EXPECT_EQ(r4.code, PARACC_ERROR);
  EXPECT_NE(r4.message.find("tokens"), std::string::npos) << r4.message;

  paracc_tensor badDtype = good;
  badDtype.dtype = 99;
  EXPECT_EQ(Result(paracc_session_run(session, &badDtype, 1, &out.view, 1))
                .code,
            PARACC_INVALID_ARGUMENT);

  EXPECT_EQ(Result(paracc_session_run(session, &good, 1, &out.view, 0)).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_session_run(session, &good, 1, nullptr, 1)).code,
            PARACC_INVALID_ARGUMENT);
  EXPECT_EQ(Result(paracc_session_run(session, nullptr, 1, &out.view, 1)).code,
            PARACC_INVALID_ARGUMENT);
  paracc_tensor wrongOut = out.view;
  const int64_t otherShape[] = {1, 1};
  wrongOut.rank = 2;
  wrongOut.shape = otherShape;
  wrongOut.size_bytes = sizeof(float);
  Result r5(paracc_session_run(session, &good, 1, &wrongOut, 1));
  EXPECT_EQ(r5.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(r5.message.find("output 0"), std::string::npos) << r5.message;
  EXPECT_EQ(Result(paracc_session_run(nullptr, &good, 1, &out.view, 1)).code,
            PARACC_INVALID_ARGUMENT);

  // State: out-of-range indices and mistyped buffers are refused.
  size_t states = paracc_executable_num_state(exe);
  EXPECT_EQ(Result(paracc_executable_state(exe, states, nullptr, nullptr,
                                        nullptr, nullptr))
                .code,
            PARACC_INVALID_ARGUMENT);
  for (size_t i = 0; i < states; ++i) {
    const char *stateName;
    paracc_dtype stateType;
    int32_t stateRank;
    const int64_t *stateShape;
    ASSERT_EQ(Result(paracc_executable_state(exe, i, &stateName, &stateType,
                                          &stateRank, &stateShape))
                  .code,
              PARACC_OK);
    size_t count = 1;
    for (int d = 0; d < stateRank; ++d)
      count *= size_t(stateShape[d]);
    if (stateType != PARACC_DTYPE_F32)
      continue;
    std::vector<float> value(count);
    paracc_tensor view{nullptr, int32_t(stateType), stateRank,
                       stateShape, value.data(), count * sizeof(float)};
    EXPECT_EQ(Result(paracc_session_read_state(session, i, &view)).code,
              PARACC_OK)
        << stateName;
    view.size_bytes /= 2;
    EXPECT_EQ(Result(paracc_session_read_state(session, i, &view)).code,
              PARACC_INVALID_ARGUMENT);
  }

  // The session still works after every refusal.
  EXPECT_EQ(Result(paracc_session_run(session, &good, 1, &out.view, 1)).code,
            PARACC_OK);
  paracc_session_free(session);
  paracc_executable_free(exe);
}

// A training step compiled and stepped through the C API follows
// PyTorch's run (../shared/models/gpt2_tiny/train/reference.json,
// adamw_clip_cosine) at dp2: loss within 1e-4 relative, gradient norm within
// 1e-3, the learning rate exactly the schedule's; the trained state is
// readable and has moved.
/// gpt2_tiny's clipped cosine PyTorch run (train/reference.json): lr 3e-3
/// warmed up over 5 steps, then cosine to 3e-4 at step 30; and the C API
/// calls that follow it.
struct ClippedCosineRun {
  const std::string shared = kSource + "/../shared/models/gpt2_tiny";
  nlohmann::json steps;

  /// False without ../shared/models.
  bool load() {
    std::ifstream file(shared + "/train/reference.json");
    if (!file)
      return false;
    steps = nlohmann::json::parse(file)["runs"]["adamw_clip_cosine"]["steps"];
    return true;
  }
  /// loss.onnx's training step on `mesh` (with `zero`) and the run's
  /// optimizer; null (a failed expectation) if it does not compile.
  paracc_executable *compile(const char *mesh, const char *zero) const {
    paracc_options *options = makeOptions(
        {{"train", "1"}, {"mesh", mesh}, {"zero", zero}, {"batch", "2"},
         {"seq", "64"}, {"betas", "0.9,0.95"}, {"eps", "1e-8"},
         {"weight-decay", "0.1"}, {"clip-grad-norm", "1.0"}});
    paracc_executable *exe = nullptr;
    Result compiled(paracc_compile_file((shared + "/loss.onnx").c_str(),
                                        options, &exe));
    paracc_options_free(options);
    EXPECT_EQ(compiled.code, PARACC_OK) << compiled.message;
    return compiled.code == PARACC_OK ? exe : nullptr;
  }
  /// A CPU trainer of the run's data and schedule; null if it fails.
  paracc_trainer *start(paracc_executable *exe) const {
    paracc_options *run = makeOptions(
        {{"data", (shared + "/train/tokens.u16").c_str()}, {"steps", "30"},
         {"lr", "3e-3"}, {"lr-schedule", "cosine"}, {"warmup", "5"},
         {"min-lr", "3e-4"}, {"device", "cpu"}});
    paracc_trainer *trainer = nullptr;
    Result created(paracc_trainer_create(exe, run, &trainer));
    paracc_options_free(run);
    EXPECT_EQ(created.code, PARACC_OK) << created.message;
    return created.code == PARACC_OK ? trainer : nullptr;
  }
  /// Runs step k and compares it with PyTorch's (loss 1e-4, grad norm
  /// 1e-3 relative, lr 1e-9).
  void stepAndCompare(paracc_trainer *trainer, int k) const {
    paracc_step_record record{};
    Result stepped(paracc_trainer_step(trainer, &record));
    ASSERT_EQ(stepped.code, PARACC_OK) << stepped.message;
    double loss = steps[k]["loss"], norm = steps[k]["grad_norm"],
           lr = steps[k]["lr"];
    EXPECT_EQ(record.step, k);
    EXPECT_NEAR(record.loss, loss, 1e-4 * std::fabs(loss)) << "step " << k;
    EXPECT_NEAR(record.grad_norm, norm, 1e-3 * std::fabs(norm))
        << "step " << k;
    EXPECT_NEAR(record.lr, lr, 1e-9) << "step " << k;
  }
};

/// ZeRO stage 1 through the C API ("zero" = 1): dp2 with the moments
/// sharded over dp follows PyTorch's clipped cosine run, and the report
/// says every update is sharded.
TEST(CAPI, ZeroOneFollowsPyTorch) {
  ClippedCosineRun reference;
  if (!reference.load())
    GTEST_SKIP() << "no ../shared/models (the PyTorch reference)";
  paracc_executable *exe = reference.compile("dp2", "1");
  ASSERT_NE(exe, nullptr);
  nlohmann::json explain =
      nlohmann::json::parse(paracc_executable_explain_json(exe));
  int64_t updates = explain["memory"]["optimizer_updates"];
  EXPECT_GT(updates, 0);
  EXPECT_EQ(explain["memory"]["optimizer_sharded_updates"], updates);
  paracc_trainer *trainer = reference.start(exe);
  ASSERT_NE(trainer, nullptr);
  for (int k = 0; k < 6; ++k)
    reference.stepAndCompare(trainer, k);
  EXPECT_EQ(Result(paracc_trainer_finish(trainer)).code, PARACC_OK);
  paracc_trainer_free(trainer);
  paracc_executable_free(exe);
}

TEST(CAPI, TrainingFollowsPyTorch) {
  ClippedCosineRun reference;
  if (!reference.load())
    GTEST_SKIP() << "no ../shared/models (the PyTorch reference)";
  const std::string &shared = reference.shared;
  const int count = 10;
  paracc_executable *exe = reference.compile("dp2", "0");
  ASSERT_NE(exe, nullptr);
  EXPECT_EQ(paracc_executable_is_training(exe), 1);
  EXPECT_NE(std::string(paracc_executable_explain_json(exe)).find("memory"),
            std::string::npos);
  paracc_trainer *trainer = reference.start(exe);
  ASSERT_NE(trainer, nullptr);
  std::vector<float> before(16), after(16);
  // The first parameter's first values, before and after training.
  const char *name;
  paracc_dtype dtype;
  int32_t rank;
  const int64_t *shape;
  ASSERT_GT(paracc_executable_num_state(exe), 0u);
  ASSERT_EQ(Result(paracc_executable_state(exe, 0, &name, &dtype, &rank,
                                           &shape))
                .code,
            PARACC_OK);
  size_t elements = 1;
  for (int d = 0; d < rank; ++d)
    elements *= size_t(shape[d]);
  std::vector<float> state(elements);
  paracc_tensor view{nullptr, int32_t(dtype), rank, shape, state.data(),
                     elements * sizeof(float)};
  ASSERT_EQ(Result(paracc_trainer_read_state(trainer, 0, &view)).code,
            PARACC_OK);
  before.assign(state.begin(), state.begin() + std::min<size_t>(16, elements));
  for (int k = 0; k < count; ++k) {
    EXPECT_EQ(paracc_trainer_next_step(trainer), k);
    reference.stepAndCompare(trainer, k);
  }
  EXPECT_FALSE(paracc_trainer_finished(trainer));
  ASSERT_EQ(Result(paracc_trainer_read_state(trainer, 0, &view)).code,
            PARACC_OK);
  after.assign(state.begin(), state.begin() + std::min<size_t>(16, elements));
  EXPECT_NE(before, after);
  EXPECT_EQ(Result(paracc_trainer_finish(trainer)).code, PARACC_OK);
  paracc_trainer_free(trainer);

  // Misuse: an inference executable, no data, both data sources.
  paracc_executable *inference = compileGpt2("1");
  paracc_options *data = makeOptions({{"data", "/nonexistent.u16"}});
  Result notTraining(paracc_trainer_create(inference, data, &trainer));
  EXPECT_EQ(notTraining.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(notTraining.message.find("train=1"), std::string::npos);
  Result missing(paracc_trainer_create(exe, data, &trainer));
  EXPECT_EQ(missing.code, PARACC_ERROR);
  EXPECT_NE(missing.message.find("/nonexistent.u16"), std::string::npos)
      << missing.message;
  EXPECT_EQ(Result(paracc_trainer_create(exe, nullptr, &trainer)).code,
            PARACC_ERROR);
  paracc_options_free(data);
  paracc_executable_free(inference);
  paracc_executable_free(exe);

  // tp2 splits GPT-2's fused q/k/v projection into three blocks: each says
  // where it lies in the parameter, and the moments say what they are.
  paracc_options *tp2 = makeOptions(
      {{"train", "1"}, {"mesh", "tp2"}, {"batch", "2"}, {"seq", "64"}});
  ASSERT_EQ(Result(paracc_compile_file((shared + "/loss.onnx").c_str(), tp2,
                                       &exe))
                .code,
            PARACC_OK);
  paracc_options_free(tp2);
  int blocks = 0, moments = 0;
  for (size_t i = 0; i < paracc_executable_num_state(exe); ++i) {
    const char *stateName;
    int32_t wholeRank;
    const int64_t *wholeShape, *offsets;
    paracc_state_kind kind;
    ASSERT_EQ(Result(paracc_executable_state(exe, i, &stateName, nullptr,
                                             nullptr, nullptr))
                  .code,
              PARACC_OK);
    ASSERT_EQ(Result(paracc_executable_state_block(exe, i, &kind, &wholeRank,
                                                   &wholeShape, &offsets))
                  .code,
              PARACC_OK);
    moments += kind == PARACC_STATE_OPTIMIZER;
    if (std::string(stateName) == "m.transformer.h.0.attn.c_attn.weight") {
      ASSERT_EQ(wholeRank, 2);
      EXPECT_EQ(wholeShape[1], 3 * 256);
      EXPECT_EQ(offsets[1], 256 * blocks);
      ++blocks;
    }
  }
  EXPECT_EQ(blocks, 3);
  EXPECT_EQ(moments * 1, int(paracc_executable_num_state(exe)) * 2 / 3);
  EXPECT_EQ(Result(paracc_executable_state_block(
                       exe, paracc_executable_num_state(exe), nullptr, nullptr,
                       nullptr, nullptr))
                .code,
            PARACC_INVALID_ARGUMENT);
  paracc_executable_free(exe);

  // A bad optimizer, or a value out of its range, is refused when it is
  // set, naming the key.
  paracc_options *bad = makeOptions({{"train", "1"}});
  Result refused(paracc_options_set(bad, "optimizer", "adam"));
  EXPECT_EQ(refused.code, PARACC_INVALID_ARGUMENT);
  EXPECT_NE(refused.message.find("option 'optimizer': 'adam' is not an "
                                 "optimizer (adamw or sgd)"),
            std::string::npos)
      << refused.message;
  Result zero(paracc_options_set(bad, "zero", "4"));
  EXPECT_NE(zero.message.find("option 'zero': must be in [0, 3], got 4"),
            std::string::npos)
      << zero.message;
  Result betas(paracc_options_set(bad, "betas", "0.9"));
  EXPECT_NE(betas.message.find("option 'betas': must be 2 numbers in [0, 1)"),
            std::string::npos)
      << betas.message;
  paracc_options_free(bad);
}

} // namespace
