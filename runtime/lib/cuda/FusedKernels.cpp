//===- FusedKernels.cpp - Fused elementwise programs as CUDA kernels -----===//
//
// Writes each fused program as a kernel of one thread per element of the
// iteration space: the operands' elements are loaded by their strides over
// the merged dims (constants, so the index arithmetic divides by constants),
// each step is one expression on floats rounded to its element type as the
// instruction's own kernel would (the same device functions as
// Elementwise.cu), and the results are stored. NVRTC compiles with
// --fmad=false: a product and a sum of two steps stay two roundings.
//
//===----------------------------------------------------------------------===//

#include "cuda/FusedKernels.h"

#include "Kernels/FusedProgram.h"
#include "cuda/CudaKernelUtil.h"
#include "paracc/runtime/MappedFile.h"

#include <nvrtc.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <unordered_map>

#define PARACC_FUSED_CUDA(call, what)                                          \
  do {                                                                         \
    const cudaError_t _e = (call);                                             \
    if (_e != cudaSuccess)                                                     \
      return errorf("fused_elementwise: ", what, ": ",                         \
                    cudaGetErrorString(_e));                                   \
  } while (0)

namespace paracc::rt::cuda {

namespace {

//===----------------------------------------------------------------------===//
// NVRTC, opened at run time.
//===----------------------------------------------------------------------===//

struct Nvrtc {
  decltype(&nvrtcCreateProgram) createProgram = nullptr;
  decltype(&nvrtcCompileProgram) compileProgram = nullptr;
  decltype(&nvrtcGetCUBINSize) getCubinSize = nullptr;
  decltype(&nvrtcGetCUBIN) getCubin = nullptr;
  decltype(&nvrtcGetProgramLogSize) getLogSize = nullptr;
  decltype(&nvrtcGetProgramLog) getLog = nullptr;
  decltype(&nvrtcDestroyProgram) destroyProgram = nullptr;
  decltype(&nvrtcGetErrorString) errorString = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
  std::string error;
};

const Nvrtc &nvrtc() {
  static const Nvrtc lib = [] {
    Nvrtc n;
    const char *path = std::getenv("PARACC_NVRTC_LIBRARY");
    std::string name =
        path && *path ? std::string(path)
                      : "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000);
    void *h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      n.error = dlerror();
      return n;
    }
    auto sym = [&](auto &fn, const char *s) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, s));
      if (!fn && n.error.empty())
        n.error = std::string(name) + " lacks " + s;
    };
    sym(n.createProgram, "nvrtcCreateProgram");
    sym(n.compileProgram, "nvrtcCompileProgram");
    sym(n.getCubinSize, "nvrtcGetCUBINSize");
    sym(n.getCubin, "nvrtcGetCUBIN");
    sym(n.getLogSize, "nvrtcGetProgramLogSize");
    sym(n.getLog, "nvrtcGetProgramLog");
    sym(n.destroyProgram, "nvrtcDestroyProgram");
    sym(n.errorString, "nvrtcGetErrorString");
    sym(n.version, "nvrtcVersion");
    return n;
  }();
  return lib;
}

//===----------------------------------------------------------------------===//
// Code generation.
//===----------------------------------------------------------------------===//

/// What every generated program starts with: element conversions and the
/// device functions Elementwise.cu's functors use.
constexpr const char *kPreamble = R"(
typedef unsigned short u16;
__device__ __forceinline__ float ldBf16(u16 h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ __forceinline__ u16 stBf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u16)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (u16)(u >> 16);
}
__device__ __forceinline__ float rnBf16(float f) { return ldBf16(stBf16(f)); }
__device__ __forceinline__ float ldF16(u16 h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ u16 stF16(float f) { u16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ float rnF16(float f) { return ldF16(stF16(f)); }
__device__ __forceinline__ bool isNaN(float x) { return x != x; }
__device__ __forceinline__ bool isInf(float x) { return fabsf(x) == __int_as_float(0x7f800000); }
__device__ __forceinline__ float sigmoid(float x) {
  const float e = __expf(-fabsf(x));
  const float r = __frcp_rn(1.0f + e);
  return x >= 0 ? r : e * r;
}
__device__ __forceinline__ float powStep(float a, float b) {
  if (b == 2.0f) return a * a;
  if (b == 1.0f) return a;
  const double da = a;
  if (b == 3.0f) return __double2float_rn(da * da * da);
  return __double2float_rn(pow(da, double(b)));
}
__device__ __forceinline__ float maxStep(float a, float b) { return (a > b || isNaN(a)) ? a : b; }
__device__ __forceinline__ float minStep(float a, float b) { return (a < b || isNaN(a)) ? a : b; }
__device__ __forceinline__ float modStep(float a, float b, bool fmodMode) {
  float r = fmodf(a, b);
  if (!fmodMode && r != 0 && ((r < 0) != (b < 0))) r = r + b;
  return r;
}
__device__ __forceinline__ float signStep(float x) { return x > 0 ? 1.0f : (x < 0 ? -1.0f : x); }
__device__ __forceinline__ float flag(bool b) { return b ? 1.0f : 0.0f; }
)";

std::string floatLiteral(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  char buf[40];
  std::snprintf(buf, sizeof buf, "__uint_as_float(0x%08xu)", bits);
  return buf;
}

const char *storageType(DType d) {
  switch (d) {
  case DType::F32:
    return "float";
  case DType::Bool:
    return "unsigned char";
  default:
    return "u16";
  }
}

std::string loadExpr(DType d, const std::string &element) {
  switch (d) {
  case DType::F32:
    return element;
  case DType::BF16:
    return "ldBf16(" + element + ")";
  case DType::F16:
    return "ldF16(" + element + ")";
  default:
    return "flag(" + element + " != 0)";
  }
}

std::string storeExpr(DType d, const std::string &v) {
  switch (d) {
  case DType::F32:
    return v;
  case DType::BF16:
    return "stBf16(" + v + ")";
  case DType::F16:
    return "stF16(" + v + ")";
  default:
    return "(unsigned char)(" + v + " != 0.0f)";
  }
}

/// The expression of one step over registers `a`, `b`, `c`.
std::string stepExpr(const FusedStep &s, const std::string &a,
                     const std::string &b, const std::string &c) {
  auto call = [&](const char *f) { return std::string(f) + "(" + a + ")"; };
  auto dcall = [&](const char *f) {
    return std::string("__double2float_rn(") + f + "((double)" + a + "))";
  };
  switch (s.op) {
  case OpCode::Neg:
    return "-" + a;
  case OpCode::Abs:
    return call("fabsf");
  case OpCode::Sign:
    return call("signStep");
  case OpCode::Relu:
    return "(" + a + " < 0 ? 0.0f : " + a + ")";
  case OpCode::Not:
    return "flag(" + a + " == 0.0f)";
  case OpCode::IsNaN:
    return "flag(isNaN(" + a + "))";
  case OpCode::IsInf: {
    const auto &attrs = std::get<IsInfAttrs>(s.attrs);
    return "flag(isInf(" + a + ") && (" + a + " > 0 ? " +
           (attrs.detectPositive ? "true" : "false") + " : " +
           (attrs.detectNegative ? "true" : "false") + "))";
  }
  case OpCode::Gelu:
    if (std::get<GeluAttrs>(s.attrs).tanhApproximation)
      return "(0.5f * " + a + " * (1.0f + tanhf(0.7978845608028654f * (" + a +
             " + 0.044715f * " + a + " * " + a + " * " + a + "))))";
    return "(0.5f * " + a + " * (1.0f + erff(" + a +
           " * 0.7071067811865476f)))";
  case OpCode::Sqrt:
    return call("__fsqrt_rn");
  case OpCode::Rsqrt:
    return call("rsqrtf");
  case OpCode::Reciprocal:
    return call("__frcp_rn");
  case OpCode::Exp:
    return call("__expf");
  case OpCode::Log:
    return call("__logf");
  case OpCode::Tanh:
    return call("tanhf");
  case OpCode::Erf:
    return call("erff");
  case OpCode::Sigmoid:
    return call("sigmoid");
  case OpCode::Silu:
    return "(" + a + " * sigmoid(" + a + "))";
  case OpCode::Sin:
    return dcall("sin");
  case OpCode::Cos:
    return dcall("cos");
  case OpCode::Tan:
    return dcall("tan");
  case OpCode::Asin:
    return dcall("asin");
  case OpCode::Acos:
    return dcall("acos");
  case OpCode::Atan:
    return dcall("atan");
  case OpCode::Sinh:
    return dcall("sinh");
  case OpCode::Cosh:
    return dcall("cosh");
  case OpCode::Asinh:
    return dcall("asinh");
  case OpCode::Acosh:
    return dcall("acosh");
  case OpCode::Atanh:
    return dcall("atanh");
  case OpCode::Floor:
    return call("floorf");
  case OpCode::Ceil:
    return call("ceilf");
  case OpCode::Round:
    return call("rintf");
  case OpCode::Add:
    return "(" + a + " + " + b + ")";
  case OpCode::Sub:
    return "(" + a + " - " + b + ")";
  case OpCode::Mul:
    return "(" + a + " * " + b + ")";
  case OpCode::Div:
    return "__fdiv_rn(" + a + ", " + b + ")";
  case OpCode::Pow:
    return "powStep(" + a + ", " + b + ")";
  case OpCode::Max:
    return "maxStep(" + a + ", " + b + ")";
  case OpCode::Min:
    return "minStep(" + a + ", " + b + ")";
  case OpCode::Mod:
    return "modStep(" + a + ", " + b + ", " +
           (std::get<ModAttrs>(s.attrs).fmod ? "true" : "false") + ")";
  case OpCode::And:
    return "flag(" + a + " != 0.0f && " + b + " != 0.0f)";
  case OpCode::Or:
    return "flag(" + a + " != 0.0f || " + b + " != 0.0f)";
  case OpCode::Xor:
    return "flag((" + a + " != 0.0f) != (" + b + " != 0.0f))";
  case OpCode::Equal:
    return "flag(" + a + " == " + b + ")";
  case OpCode::Less:
    return "flag(" + a + " < " + b + ")";
  case OpCode::LessEqual:
    return "flag(" + a + " <= " + b + ")";
  case OpCode::Greater:
    return "flag(" + a + " > " + b + ")";
  case OpCode::GreaterEqual:
    return "flag(" + a + " >= " + b + ")";
  case OpCode::Where:
    return "(" + a + " != 0.0f ? " + b + " : " + c + ")";
  case OpCode::Cast:
    return a;
  case OpCode::Clip: {
    const auto &clip = std::get<ClipAttrs>(s.attrs);
    const std::string lo =
        floatLiteral(roundToFusedType(s.dtype, float(clip.min)));
    const std::string hi =
        floatLiteral(roundToFusedType(s.dtype, float(clip.max)));
    return "fminClip(" + a + ", " + lo + ", " + hi + ")";
  }
  default:
    return "0.0f";
  }
}

std::string roundingOf(DType d, const std::string &v) {
  switch (d) {
  case DType::BF16:
    return v + " = rnBf16(" + v + ");";
  case DType::F16:
    return v + " = rnF16(" + v + ");";
  case DType::Bool:
    return v + " = flag(" + v + " != 0.0f);";
  default:
    return "";
  }
}

/// Host views of device tensors, for the shared program checks.
struct Views {
  std::vector<Tensor> in, out;
  std::vector<const Tensor *> inPtr;
  std::vector<Tensor *> outPtr;
  explicit Views(const FusedRequest &r) {
    in.reserve(r.inputs.size());
    out.reserve(r.outputs.size());
    for (const DeviceTensor &t : r.inputs) {
      in.push_back(Tensor::borrow(t.dtype, t.shape, t.data));
      inPtr.push_back(&in.back());
    }
    for (const DeviceTensor &t : r.outputs) {
      out.push_back(Tensor::borrow(t.dtype, t.shape, t.data));
      outPtr.push_back(&out.back());
    }
  }
};

/// FNV-1a over every byte: kernel names and cache keys must tell apart any
/// two sources (fingerprintBytes samples past 1 MiB).
uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

//===----------------------------------------------------------------------===//
// The kernel cache: per process by name, on disk by program.
//===----------------------------------------------------------------------===//

std::mutex &cacheMutex() {
  static std::mutex m;
  return m;
}

/// A program's kernels: one element a thread, and four (null when the
/// program does not take vectors).
struct KernelPair {
  cudaKernel_t scalar = nullptr, x4 = nullptr;
};

std::unordered_map<std::string, KernelPair> &kernelCache() {
  static std::unordered_map<std::string, KernelPair> cache;
  return cache;
}

std::string diskCacheDir() {
  const char *env = std::getenv("PARACC_KERNEL_CACHE");
  if (env && std::strcmp(env, "off") == 0)
    return "";
  if (env && *env)
    return env;
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg)
    return std::string(xdg) + "/paracc/kernels";
  const char *home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.cache/paracc/kernels" : "";
}

void makeDirs(const std::string &path) {
  for (size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/')
      mkdir(path.substr(0, i).c_str(), 0755);
}

StatusOr<std::string> compileWithNvrtc(const std::string &source,
                                       const std::string &arch) {
  const Nvrtc &n = nvrtc();
  nvrtcProgram program = nullptr;
  nvrtcResult r = n.createProgram(&program, source.c_str(), "paracc_fused.cu",
                                  0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    return errorf("fused_elementwise: NVRTC: ", n.errorString(r));
  const std::string archOption = "--gpu-architecture=" + arch;
  const char *options[] = {archOption.c_str(), "--fmad=false", "--std=c++17"};
  r = n.compileProgram(program, 3, options);
  std::string result;
  if (r != NVRTC_SUCCESS) {
    size_t size = 0;
    n.getLogSize(program, &size);
    std::string log(size, '\0');
    if (size)
      n.getLog(program, log.data());
    n.destroyProgram(&program);
    return errorf("fused_elementwise: NVRTC could not compile the fused "
                  "kernels: ",
                  n.errorString(r), "\n", log);
  }
  size_t size = 0;
  n.getCubinSize(program, &size);
  result.resize(size);
  n.getCubin(program, result.data());
  n.destroyProgram(&program);
  return result;
}

} // namespace

namespace {

Status compileLoadedKernels(const std::vector<FusedRequest> &requests,
                            std::vector<FusedKernel> &kernels);

bool nvrtcLoaded() {
  const Nvrtc &n = nvrtc();
  return n.createProgram && n.error.empty();
}

/// Compiles and runs two small programs (one through the 4-wide kernel, one
/// through the scalar one) and compares them with the CPU's interpreter:
/// whether NVRTC, loading and launching work on this machine at all.
Status selfCheck() {
  const int64_t bf16 = int64_t(DType::BF16), f32 = int64_t(DType::F32);
  InstrAttrs raw;
  // y = relu(x * s + 0.5) in bf16, and y as f32.
  raw.ints = {5,
              int64_t(OpCode::Mul),
              bf16,
              2,
              0,
              1,
              0,
              0,
              -1,
              bf16,
              0,
              0,
              1,
              int64_t(OpCode::Add),
              bf16,
              2,
              2,
              3,
              0,
              0,
              int64_t(OpCode::Relu),
              bf16,
              1,
              4,
              0,
              0,
              int64_t(OpCode::Cast),
              f32,
              1,
              5,
              0,
              0,
              5,
              6};
  raw.floats = {0.5};
  OpAttrs attrs;
  PARACC_RETURN_IF_ERROR(decodeOpAttrs(OpCode::FusedElementwise, raw, attrs));
  for (const Shape &shape : {Shape{2, 3, 4, 8}, Shape{2, 3, 5}}) {
    const Shape channel =
        shape.size() == 4 ? Shape{1, 3, 1, 1} : Shape{1, 3, 1};
    std::vector<Tensor> host;
    for (const Shape &sh : {shape, channel}) {
      StatusOr<Tensor> t = Tensor::allocate(DType::BF16, sh);
      if (!t.isOk())
        return t.status();
      for (int64_t i = 0; i < t->numElements(); ++i)
        t->as<BFloat16>()[i] = BFloat16(float((i * 7) % 13) * 0.25f - 1.5f);
      host.push_back(std::move(*t));
    }
    std::vector<Tensor> expected;
    for (DType d : {DType::BF16, DType::F32}) {
      StatusOr<Tensor> t = Tensor::allocate(d, shape);
      if (!t.isOk())
        return t.status();
      expected.push_back(std::move(*t));
    }
    PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::FusedElementwise, attrs,
                                        {&host[0], &host[1]},
                                        {&expected[0], &expected[1]}));
    FusedRequest request{&attrs, {}, {}};
    std::vector<void *> buffers;
    auto release = [&] {
      for (void *b : buffers)
        cudaFree(b);
    };
    Status st = [&]() -> Status {
      for (const Tensor &t : host) {
        void *d = nullptr;
        PARACC_FUSED_CUDA(cudaMalloc(&d, t.byteSize()), "self-check buffers");
        buffers.push_back(d);
        PARACC_FUSED_CUDA(
            cudaMemcpy(d, t.data(), t.byteSize(), cudaMemcpyHostToDevice),
            "self-check upload");
        request.inputs.push_back({t.dtype(), t.shape(), d});
      }
      for (const Tensor &t : expected) {
        void *d = nullptr;
        PARACC_FUSED_CUDA(cudaMalloc(&d, t.byteSize()), "self-check buffers");
        buffers.push_back(d);
        request.outputs.push_back({t.dtype(), t.shape(), d});
      }
      std::vector<FusedKernel> kernels;
      // Not compileFusedKernels: it asks fusedKernelsAvailable(), whose
      // static initialization runs this check (a recursive initialization
      // that waits for itself forever).
      PARACC_RETURN_IF_ERROR(compileLoadedKernels({request}, kernels));
      PARACC_RETURN_IF_ERROR(launchFusedKernel(kernels[0], request.inputs,
                                               request.outputs, nullptr));
      PARACC_FUSED_CUDA(cudaDeviceSynchronize(), "self-check run");
      for (size_t r = 0; r < expected.size(); ++r) {
        std::vector<char> got(expected[r].byteSize());
        PARACC_FUSED_CUDA(cudaMemcpy(got.data(), request.outputs[r].data,
                                     got.size(), cudaMemcpyDeviceToHost),
                          "self-check download");
        if (std::memcmp(got.data(), expected[r].data(), got.size()) != 0)
          return errorf("fused_elementwise: the self-check's result ", r,
                        " over ", shapeToString(shape),
                        " differs from the CPU's");
      }
      return Status::ok();
    }();
    release();
    PARACC_RETURN_IF_ERROR(st);
  }
  return Status::ok();
}

} // namespace

bool fusedKernelsAvailable() {
  static const bool available = [] {
    if (!nvrtcLoaded()) {
      std::fprintf(stderr,
                   "paracc: NVRTC not found (%s): fused elementwise "
                   "instructions run on the CPU\n",
                   nvrtc().error.c_str());
      return false;
    }
    const Status check = selfCheck();
    if (!check.isOk()) {
      std::fprintf(stderr,
                   "paracc: fused elementwise kernels failed their "
                   "self-check (%s): they run on the CPU\n",
                   check.message().c_str());
      return false;
    }
    return true;
  }();
  return available;
}

namespace {

/// A vector of `width` elements of type `d` at element `offset` of
/// `pointer`, unpacked into lanes[0..width).
std::string vectorLoad(DType d, const std::string &pointer,
                       const std::string &offset, const std::string &lanes,
                       int width) {
  std::ostringstream os;
  if (width == 1) {
    os << "  " << lanes << "[0] = " << loadExpr(d, pointer + "[" + offset + "]")
       << ";\n";
    return os.str();
  }
  switch (d) {
  case DType::F32:
    os << "  { const float4 t = *reinterpret_cast<const float4 *>(" << pointer
       << " + " << offset << "); " << lanes << "[0] = t.x; " << lanes
       << "[1] = t.y; " << lanes << "[2] = t.z; " << lanes << "[3] = t.w; }\n";
    break;
  case DType::Bool:
    os << "  { const unsigned t = *reinterpret_cast<const unsigned *>("
       << pointer << " + " << offset << "); for (int v = 0; v < 4; ++v) "
       << lanes << "[v] = flag(((t >> (8 * v)) & 0xffu) != 0); }\n";
    break;
  default: {
    const char *ld = d == DType::BF16 ? "ldBf16" : "ldF16";
    os << "  { const uint2 t = *reinterpret_cast<const uint2 *>(" << pointer
       << " + " << offset << "); " << lanes << "[0] = " << ld
       << "((u16)(t.x & 0xffffu)); " << lanes << "[1] = " << ld
       << "((u16)(t.x >> 16)); " << lanes << "[2] = " << ld
       << "((u16)(t.y & 0xffffu)); " << lanes << "[3] = " << ld
       << "((u16)(t.y >> 16)); }\n";
    break;
  }
  }
  return os.str();
}

/// Stores lanes[0..width) (already rounded to `d`) at element `offset`.
std::string vectorStore(DType d, const std::string &pointer,
                        const std::string &offset, const std::string &lanes,
                        int width) {
  std::ostringstream os;
  if (width == 1) {
    os << "  " << pointer << "[" << offset
       << "] = " << storeExpr(d, lanes + "[0]") << ";\n";
    return os.str();
  }
  switch (d) {
  case DType::F32:
    os << "  *reinterpret_cast<float4 *>(" << pointer << " + " << offset
       << ") = make_float4(" << lanes << "[0], " << lanes << "[1], " << lanes
       << "[2], " << lanes << "[3]);\n";
    break;
  case DType::Bool:
    os << "  { unsigned t = 0; for (int v = 0; v < 4; ++v) t |= unsigned("
       << lanes << "[v] != 0.0f) << (8 * v); *reinterpret_cast<unsigned *>("
       << pointer << " + " << offset << ") = t; }\n";
    break;
  default: {
    const char *st = d == DType::BF16 ? "stBf16" : "stF16";
    os << "  *reinterpret_cast<uint2 *>(" << pointer << " + " << offset
       << ") = make_uint2(unsigned(" << st << "(" << lanes
       << "[0])) | (unsigned(" << st << "(" << lanes
       << "[1])) << 16), unsigned(" << st << "(" << lanes
       << "[2])) | (unsigned(" << st << "(" << lanes << "[3])) << 16));\n";
    break;
  }
  }
  return os.str();
}

/// Whether the program's kernel may take 4 elements a thread: the innermost
/// merged dim a multiple of 4, every operand contiguous or broadcast along
/// it, and a contiguous operand's other strides multiples of 4 (aligned
/// vectors).
bool takesVectors(const CoalescedSpace &space) {
  if (space.dims.empty() || space.dims.back() % 4 != 0)
    return false;
  for (const auto &st : space.strides) {
    if (st.back() != 0 && st.back() != 1)
      return false;
    if (st.back() == 1)
      for (size_t d = 0; d + 1 < st.size(); ++d)
        if (st[d] % 4 != 0)
          return false;
  }
  return true;
}

struct DecodedRequest {
  FusedProgram program;
  CoalescedSpace space;
};

StatusOr<DecodedRequest> decodeRequest(const FusedRequest &request) {
  Views views(request);
  const KernelArgs args{OpCode::FusedElementwise, *request.attrs, views.inPtr,
                        views.outPtr};
  DecodedRequest d;
  PARACC_RETURN_IF_ERROR(decodeFusedProgram(args, d.program));
  d.space = coalesceFusedSpace(d.program.shape,
                               fusedOperandStrides(d.program, views.inPtr));
  return d;
}

/// The kernel over `width` consecutive elements a thread.
std::string kernelText(const FusedRequest &request, const DecodedRequest &d,
                       const std::string &name, int width) {
  const FusedProgram &p = d.program;
  const CoalescedSpace &space = d.space;
  const int64_t n = shapeNumElements(p.shape);
  const bool wide = n >= (int64_t(1) << 31);
  const char *index = wide ? "unsigned long long" : "unsigned";
  std::ostringstream os;
  os << "extern \"C\" __global__ void __launch_bounds__(256) " << name << "(";
  for (int i = 0; i < p.inputCount; ++i)
    os << "const " << storageType(request.inputs[i].dtype)
       << " *__restrict__ in" << i << ", ";
  for (size_t i = 0; i < p.results.size(); ++i)
    os << storageType(request.outputs[i].dtype) << " *__restrict__ out" << i
       << ", ";
  os << index << " n) {\n";
  os << "  const " << index << " i = ((" << index
     << ")blockIdx.x * 256u + threadIdx.x) * " << width
     << "u;\n  if (i >= n) return;\n";
  // Coordinates over the merged dims, when an operand needs them.
  const size_t rank = space.dims.size();
  std::vector<int64_t> contiguous(rank, 1);
  for (size_t d = rank; d-- > 1;)
    contiguous[d - 1] = contiguous[d] * space.dims[d];
  // The dims a strided operand reads along; their coordinates only.
  std::vector<bool> needed(rank, false);
  for (const auto &st : space.strides)
    if (st != contiguous)
      for (size_t dim = 0; dim < rank; ++dim)
        needed[dim] = needed[dim] || st[dim] != 0;
  const auto lowest = std::find(needed.begin(), needed.end(), true);
  if (lowest != needed.end()) {
    const size_t first = size_t(lowest - needed.begin());
    os << "  " << index << " rest = i;\n";
    for (size_t dim = rank; dim-- > first;) {
      if (dim == 0) {
        os << "  const " << index << " c0 = rest;\n";
        break;
      }
      if (needed[dim])
        os << "  const " << index << " c" << dim << " = rest % "
           << space.dims[dim] << "u;\n";
      if (dim > first)
        os << "  rest /= " << space.dims[dim] << "u;\n";
    }
  }
  for (int i = 0; i < p.inputCount; ++i) {
    const auto &st = space.strides[size_t(i)];
    std::string offset;
    if (st == contiguous && rank > 0) {
      offset = "i";
    } else {
      for (size_t dim = 0; dim < rank; ++dim) {
        if (st[dim] == 0)
          continue;
        if (!offset.empty())
          offset += " + ";
        offset +=
            "c" + std::to_string(dim) + " * " + std::to_string(st[dim]) + "u";
      }
      if (offset.empty())
        offset = "0";
    }
    const std::string lanes = "a" + std::to_string(i);
    os << "  float " << lanes << "[" << width << "];\n";
    const bool alongRow = rank > 0 && st.back() == 1;
    if (alongRow || width == 1) {
      os << vectorLoad(request.inputs[i].dtype, "in" + std::to_string(i),
                       offset, lanes, alongRow ? width : 1);
    } else {
      os << vectorLoad(request.inputs[i].dtype, "in" + std::to_string(i),
                       offset, lanes, 1);
      os << "  for (int v = 1; v < " << width << "; ++v) " << lanes
         << "[v] = " << lanes << "[0];\n";
    }
  }
  for (size_t r = 0; r < p.results.size(); ++r)
    os << "  float y" << r << "[" << width << "];\n";
  os << "#pragma unroll\n  for (int v = 0; v < " << width << "; ++v) {\n";
  for (int i = 0; i < p.inputCount; ++i)
    os << "    const float r" << i << " = a" << i << "[v];\n";
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const FusedStep &step = p.steps[s];
    const std::string reg = "r" + std::to_string(p.inputCount + int(s));
    if (step.immediate) {
      os << "    const float " << reg << " = " << floatLiteral(step.value)
         << ";\n";
      continue;
    }
    auto arg = [&](int k) { return "r" + std::to_string(step.args[k]); };
    os << "    float " << reg << " = "
       << stepExpr(step, arg(0), step.argCount > 1 ? arg(1) : "",
                   step.argCount > 2 ? arg(2) : "")
       << ";";
    const std::string rounding = roundingOf(step.dtype, reg);
    if (!rounding.empty())
      os << " " << rounding;
    os << "\n";
  }
  for (size_t r = 0; r < p.results.size(); ++r)
    os << "    y" << r << "[v] = r" << p.results[r] << ";\n";
  os << "  }\n";
  for (size_t r = 0; r < p.results.size(); ++r)
    os << vectorStore(request.outputs[r].dtype, "out" + std::to_string(r), "i",
                      "y" + std::to_string(r), width);
  os << "}\n";
  return os.str();
}

} // namespace

StatusOr<std::string> fusedKernelSource(const FusedRequest &request,
                                        const std::string &name) {
  StatusOr<DecodedRequest> d = decodeRequest(request);
  if (!d.isOk())
    return d.status();
  std::string text = kernelText(request, *d, name, 1);
  if (takesVectors(d->space))
    text += kernelText(request, *d, name + "_x4", 4);
  return text;
}

Status compileFusedKernels(const std::vector<FusedRequest> &requests,
                           std::vector<FusedKernel> &kernels) {
  kernels.assign(requests.size(), FusedKernel());
  if (requests.empty())
    return Status::ok();
  if (!fusedKernelsAvailable())
    return errorf("fused_elementwise: NVRTC is not available: ", nvrtc().error);
  return compileLoadedKernels(requests, kernels);
}

namespace {

/// compileFusedKernels once NVRTC is loaded (the self-check's entry).
Status compileLoadedKernels(const std::vector<FusedRequest> &requests,
                            std::vector<FusedKernel> &kernels) {
  kernels.assign(requests.size(), FusedKernel());
  if (requests.empty())
    return Status::ok();
  // Each kernel's source, named by its hash.
  std::vector<std::string> names(requests.size());
  std::vector<std::string> sources(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    StatusOr<std::string> body = fusedKernelSource(requests[i], "KERNEL");
    if (!body.isOk())
      return body.status();
    names[i] = "paracc_fused_" + hex(fnv1a(*body));
    std::string text = *body;
    for (size_t at = text.find("KERNEL"); at != std::string::npos;
         at = text.find("KERNEL", at))
      text.replace(at, 6, names[i]);
    sources[i] = std::move(text);
    kernels[i].elements = shapeNumElements(requests[i].outputs[0].shape);
    kernels[i].wideIndex = kernels[i].elements >= (int64_t(1) << 31);
  }
  std::lock_guard<std::mutex> lock(cacheMutex());
  auto &cache = kernelCache();
  std::string program = kPreamble;
  program += "__device__ __forceinline__ float fminClip(float v, float lo, "
             "float hi) { v = v < lo ? lo : v; return hi < v ? hi : v; }\n";
  std::vector<std::string> missing;
  for (size_t i = 0; i < requests.size(); ++i)
    if (!cache.count(names[i]) &&
        std::find(missing.begin(), missing.end(), names[i]) == missing.end()) {
      missing.push_back(names[i]);
      program += sources[i];
    }
  const char *show = std::getenv("PARACC_FUSED_SOURCE");
  if (show && *show && std::strcmp(show, "0") != 0 && !missing.empty())
    std::fprintf(stderr, "%s\n", program.c_str());
  if (!missing.empty()) {
    int device = 0, major = 0, minor = 0;
    PARACC_FUSED_CUDA(cudaGetDevice(&device), "the device");
    PARACC_FUSED_CUDA(cudaDeviceGetAttribute(
                          &major, cudaDevAttrComputeCapabilityMajor, device),
                      "the compute capability");
    PARACC_FUSED_CUDA(cudaDeviceGetAttribute(
                          &minor, cudaDevAttrComputeCapabilityMinor, device),
                      "the compute capability");
    const std::string arch =
        "sm_" + std::to_string(major) + std::to_string(minor);
    int version[2] = {0, 0};
    nvrtc().version(&version[0], &version[1]);
    const std::string dir = diskCacheDir();
    const std::string file =
        dir.empty()
            ? ""
            : dir + "/" +
                  hex(fnv1a(program + arch + std::to_string(version[0]) + "." +
                            std::to_string(version[1]))) +
                  ".cubin";
    // A program compiled before (same source, architecture and NVRTC), or
    // NVRTC now; a cache that cannot be written is only slower.
    std::shared_ptr<MappedFile> cached;
    if (!file.empty())
      if (StatusOr<std::shared_ptr<MappedFile>> f = MappedFile::open(file);
          f.isOk() && (*f)->size() > 0)
        cached = *f;
    std::string cubin;
    if (!cached) {
      StatusOr<std::string> compiled = compileWithNvrtc(program, arch);
      if (!compiled.isOk())
        return compiled.status();
      cubin = std::move(*compiled);
      if (!file.empty()) {
        makeDirs(dir);
        (void)writeFileAtomically(file, cubin.data(), cubin.size());
      }
    }
    const void *image = cached ? static_cast<const void *>(cached->data())
                               : static_cast<const void *>(cubin.data());
    cudaLibrary_t library = nullptr;
    PARACC_FUSED_CUDA(cudaLibraryLoadData(&library, image, nullptr, nullptr, 0,
                                          nullptr, nullptr, 0),
                      "loading the compiled program");
    // The library stays loaded for the process: its kernels are cached.
    for (size_t i = 0; i < requests.size(); ++i) {
      if (cache.count(names[i]))
        continue;
      KernelPair pair;
      PARACC_FUSED_CUDA(
          cudaLibraryGetKernel(&pair.scalar, library, names[i].c_str()),
          "a compiled kernel");
      if (sources[i].find(names[i] + "_x4") != std::string::npos)
        PARACC_FUSED_CUDA(
            cudaLibraryGetKernel(&pair.x4, library, (names[i] + "_x4").c_str()),
            "a compiled kernel");
      cache[names[i]] = pair;
    }
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    kernels[i].kernel = cache.at(names[i]).scalar;
    kernels[i].kernel4 = cache.at(names[i]).x4;
  }
  return Status::ok();
}

} // namespace

Status launchFusedKernel(const FusedKernel &kernel,
                         const std::vector<DeviceTensor> &inputs,
                         const std::vector<DeviceTensor> &outputs,
                         cudaStream_t stream) {
  if (kernel.elements == 0)
    return Status::ok();
  std::vector<const void *> pointers;
  for (const DeviceTensor &t : inputs)
    pointers.push_back(t.data);
  for (const DeviceTensor &t : outputs)
    pointers.push_back(t.data);
  std::vector<void *> argv;
  for (const void *&p : pointers)
    argv.push_back(&p);
  unsigned n32 = unsigned(kernel.elements);
  unsigned long long n64 = (unsigned long long)kernel.elements;
  argv.push_back(kernel.wideIndex ? static_cast<void *>(&n64)
                                  : static_cast<void *>(&n32));
  // Four elements a thread when the program takes vectors and every buffer
  // is aligned for them.
  const bool x4 =
      kernel.kernel4 &&
      std::all_of(pointers.begin(), pointers.end(), [](const void *p) {
        return reinterpret_cast<uintptr_t>(p) % 16 == 0;
      });
  const int64_t threads = x4 ? kernel.elements / 4 : kernel.elements;
  const unsigned long long blocks = (unsigned long long)(threads + 255) / 256;
  const cudaError_t err = cudaLaunchKernel(
      reinterpret_cast<const void *>(x4 ? kernel.kernel4 : kernel.kernel),
      dim3(unsigned(blocks)), dim3(256), argv.data(), 0, stream);
  if (err != cudaSuccess)
    return errorf("fused_elementwise: CUDA kernel launch failed: ",
                  cudaGetErrorString(err));
  return Status::ok();
}

} // namespace paracc::rt::cuda
