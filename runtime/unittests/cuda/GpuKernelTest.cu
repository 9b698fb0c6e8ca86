//===- GpuKernelTest.cu - GPU kernels against the CPU reference -----------===//
//
// paracc_rt_gpu_tests: runs every GPU kernel (launchKernel, copyBlock,
// placeBlock, fillRandom) on random inputs and compares the result with the
// CPU kernel (runCpuKernel) on the same inputs. One line per check:
//
//   [PASS] add f32[7,1023] f32[1023]
//   [FAIL] softmax bf16[3,4097] axis 1: 2 of 12291 elements differ; first at
//          17: gpu 0.0012 cpu 0.0013 (tol 1e-2 + 2e-2 rel)
//
// A plain program (no GoogleTest, which the GPU machine may lack): the exit
// status is non-zero when any check fails. Without a CUDA device it prints
// "no CUDA device: skipped" and exits 77, which ctest reports as skipped.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaKernels.h"
#include "cuda/CudnnConvolution.h"
#include "cuda/FusedKernels.h"
#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/Tensor.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace paracc::rt;
using paracc::rt::cuda::DeviceTensor;

namespace {

//===----------------------------------------------------------------------===//
// Reporting.
//===----------------------------------------------------------------------===//

int gPassed = 0;
int gFailed = 0;

void report(bool ok, const std::string &name, const std::string &detail = "") {
  if (ok) {
    ++gPassed;
    std::printf("[PASS] %s\n", name.c_str());
  } else {
    ++gFailed;
    std::printf("[FAIL] %s: %s\n", name.c_str(), detail.c_str());
  }
  std::fflush(stdout);
}

/// After a kernel fault the CUDA context is unusable: every later check
/// would fail for that reason, so stop with the summary.
void stopIfContextBroken() {
  if (cudaDeviceSynchronize() == cudaSuccess)
    return;
  std::printf("CUDA context is broken after the failure above; stopping\n");
  std::printf("%d passed, %d failed\n", gPassed, gFailed);
  std::exit(1);
}

template <typename... Args> std::string cat(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

//===----------------------------------------------------------------------===//
// Host tensors.
//===----------------------------------------------------------------------===//

std::mt19937_64 gRng(0x5eed1234);

Tensor alloc(DType dt, const Shape &shape) {
  StatusOr<Tensor> t = Tensor::allocate(dt, shape);
  if (!t) {
    std::printf("[FAIL] allocation of %s%s: %s\n", dtypeName(dt),
                shapeToString(shape).c_str(), t.status().message().c_str());
    ++gFailed;
    return Tensor();
  }
  return std::move(*t);
}

bool isFloat(DType d) {
  return d == DType::F32 || d == DType::F64 || d == DType::F16 ||
         d == DType::BF16;
}

double getF(const Tensor &t, int64_t i) {
  const void *p = t.data();
  switch (t.dtype()) {
  case DType::F32:
    return static_cast<const float *>(p)[i];
  case DType::F64:
    return static_cast<const double *>(p)[i];
  case DType::F16:
    return static_cast<float>(static_cast<const Half *>(p)[i]);
  case DType::BF16:
    return static_cast<float>(static_cast<const BFloat16 *>(p)[i]);
  default:
    return 0;
  }
}

int64_t getI(const Tensor &t, int64_t i) {
  const void *p = t.data();
  switch (t.dtype()) {
  case DType::I8:
    return static_cast<const int8_t *>(p)[i];
  case DType::U8:
    return static_cast<const uint8_t *>(p)[i];
  case DType::I16:
    return static_cast<const int16_t *>(p)[i];
  case DType::U16:
    return static_cast<const uint16_t *>(p)[i];
  case DType::I32:
    return static_cast<const int32_t *>(p)[i];
  case DType::U32:
    return static_cast<const uint32_t *>(p)[i];
  case DType::I64:
    return static_cast<const int64_t *>(p)[i];
  case DType::U64:
    return static_cast<int64_t>(static_cast<const uint64_t *>(p)[i]);
  case DType::Bool:
    return static_cast<const uint8_t *>(p)[i] != 0;
  default:
    return 0;
  }
}

void set(Tensor &t, int64_t i, double v) {
  void *p = t.data();
  switch (t.dtype()) {
  case DType::F32:
    static_cast<float *>(p)[i] = static_cast<float>(v);
    break;
  case DType::F64:
    static_cast<double *>(p)[i] = v;
    break;
  case DType::F16:
    static_cast<Half *>(p)[i] = Half(static_cast<float>(v));
    break;
  case DType::BF16:
    static_cast<BFloat16 *>(p)[i] = BFloat16(static_cast<float>(v));
    break;
  case DType::I8:
    static_cast<int8_t *>(p)[i] = static_cast<int8_t>(v);
    break;
  case DType::U8:
    static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(v);
    break;
  case DType::I32:
    static_cast<int32_t *>(p)[i] = static_cast<int32_t>(v);
    break;
  case DType::I64:
    static_cast<int64_t *>(p)[i] = static_cast<int64_t>(v);
    break;
  case DType::Bool:
    static_cast<uint8_t *>(p)[i] = v != 0;
    break;
  default:
    break;
  }
}

/// Uniform values in [lo, hi] (integers for integer types, 0/1 for bool).
Tensor randomTensor(DType dt, const Shape &shape, double lo = -2.0,
                    double hi = 2.0) {
  Tensor t = alloc(dt, shape);
  if (!t.isValid())
    return t;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    if (dt == DType::Bool) {
      set(t, i, double(gRng() & 1));
    } else if (isFloat(dt)) {
      std::uniform_real_distribution<double> u{lo, hi};
      set(t, i, u(gRng));
    } else {
      std::uniform_int_distribution<int64_t> u{int64_t(lo), int64_t(hi)};
      set(t, i, double(u(gRng)));
    }
  }
  return t;
}

/// Integers with random bits over the whole range of the type.
Tensor randomBits(DType dt, const Shape &shape) {
  Tensor t = alloc(dt, shape);
  if (t.isValid() && t.byteSize()) {
    auto *b = static_cast<uint8_t *>(t.data());
    for (size_t i = 0; i < t.byteSize(); ++i)
      b[i] = uint8_t(gRng());
  }
  return t;
}

Tensor iota(DType dt, const Shape &shape, double scale = 1.0,
            double offset = 0.0) {
  Tensor t = alloc(dt, shape);
  for (int64_t i = 0; t.isValid() && i < t.numElements(); ++i)
    set(t, i, double(i) * scale + offset);
  return t;
}

Tensor scalar(DType dt, double v, const Shape &shape = {}) {
  Tensor t = alloc(dt, shape);
  if (t.isValid())
    set(t, 0, v);
  return t;
}

std::string typeStr(const Tensor &t) { return t.typeString(); }

//===----------------------------------------------------------------------===//
// Device buffers.
//===----------------------------------------------------------------------===//

/// A device allocation freed on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept : ptr_(o.ptr_) { o.ptr_ = nullptr; }
  ~DeviceBuffer() {
    if (ptr_)
      cudaFree(ptr_);
  }
  bool allocate(size_t bytes) {
    return cudaMalloc(&ptr_, std::max<size_t>(bytes, 1) + 64) == cudaSuccess;
  }
  char *get() const { return static_cast<char *>(ptr_); }

private:
  void *ptr_ = nullptr;
};

/// Copies a host tensor to a new device buffer, `shift` bytes past a
/// 256-byte aligned address (to exercise unaligned paths).
bool toDevice(const Tensor &t, std::vector<DeviceBuffer> &keep,
              DeviceTensor &out, size_t shift = 0) {
  keep.emplace_back();
  if (!keep.back().allocate(t.byteSize() + shift))
    return false;
  out.dtype = t.dtype();
  out.shape = t.shape();
  out.data = keep.back().get() + shift;
  if (t.byteSize() && cudaMemcpy(out.data, t.data(), t.byteSize(),
                                 cudaMemcpyHostToDevice) != cudaSuccess)
    return false;
  return true;
}

/// A device result buffer filled with 0xff bytes (NaN / -1), so that
/// elements a kernel forgets to write show up.
bool deviceResult(DType dt, const Shape &shape, std::vector<DeviceBuffer> &keep,
                  DeviceTensor &out, size_t shift = 0) {
  DeviceTensor t{dt, shape, nullptr};
  keep.emplace_back();
  if (!keep.back().allocate(t.byteSize() + shift))
    return false;
  t.data = keep.back().get() + shift;
  if (cudaMemset(t.data, 0xff, std::max<size_t>(t.byteSize(), 1)) !=
      cudaSuccess)
    return false;
  out = t;
  return true;
}

bool toHost(const DeviceTensor &d, Tensor &out) {
  out = alloc(d.dtype, d.shape);
  if (!out.isValid())
    return false;
  return out.byteSize() == 0 ||
         cudaMemcpy(out.data(), d.data, out.byteSize(),
                    cudaMemcpyDeviceToHost) == cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Comparison.
//===----------------------------------------------------------------------===//

struct Tol {
  double rtol = 0.0;
  double atol = 0.0;
};

Tol defaultTol(DType dt) {
  switch (dt) {
  case DType::F32:
    return {1e-5, 1e-6};
  case DType::F16:
    return {5e-3, 1e-3};
  case DType::BF16:
    return {2e-2, 1e-2};
  case DType::F64:
    return {1e-12, 1e-12};
  default:
    return {0.0, 0.0};
  }
}

/// Empty if `gpu` matches `cpu`, else a description of the mismatch.
std::string compare(const Tensor &gpu, const Tensor &cpu, Tol tol) {
  if (gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape())
    return cat("result types differ: gpu ", typeStr(gpu), ", cpu ",
               typeStr(cpu));
  const int64_t n = cpu.numElements();
  int64_t bad = 0, first = -1;
  double maxErr = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    if (isFloat(cpu.dtype())) {
      const double g = getF(gpu, i), c = getF(cpu, i);
      if (std::isnan(c) || std::isnan(g)) {
        ok = std::isnan(c) && std::isnan(g);
      } else if (std::isinf(c) || std::isinf(g)) {
        ok = g == c;
      } else {
        const double err = std::fabs(g - c);
        maxErr = std::max(maxErr, err);
        ok = err <= tol.atol + tol.rtol * std::fabs(c);
      }
    } else {
      ok = getI(gpu, i) == getI(cpu, i);
    }
    if (!ok) {
      if (first < 0)
        first = i;
      ++bad;
    }
  }
  if (!bad)
    return "";
  std::ostringstream os;
  os.precision(9);
  os << bad << " of " << n << " elements differ; first at " << first
     << ": gpu ";
  if (isFloat(cpu.dtype()))
    os << getF(gpu, first) << " cpu " << getF(cpu, first);
  else
    os << getI(gpu, first) << " cpu " << getI(cpu, first);
  os << " (tol " << tol.atol << " + " << tol.rtol << " rel; max abs err "
     << maxErr << ")";
  return os.str();
}

//===----------------------------------------------------------------------===//
// Running one case on both sides.
//===----------------------------------------------------------------------===//

struct CaseOpts {
  std::optional<Tol> tol;
  size_t shift = 0;      // Misalign every device buffer by this many bytes.
  bool inPlace = false;  // Result 0 is operand inPlaceOperand's buffer.
  size_t inPlaceOperand = 0;
  bool hasKernel = true; // Expected hasKernel answer.
  std::vector<Tol> resultTols; // Per result, overriding tol.
  bool cudnn = false; // Through cuDNN (a convolution), not launchKernel.
  bool fused = false; // A fused program: compiled by NVRTC, then launched.
};

std::string describe(OpCode op, const std::vector<Tensor> &ins,
                     const std::string &extra) {
  std::string s = opCodeMnemonic(op);
  for (const Tensor &t : ins)
    s += " " + typeStr(t);
  if (!extra.empty())
    s += " " + extra;
  return s;
}

/// Runs `op` on the CPU and the GPU and compares every result.
void runCase(OpCode op, const InstrAttrs &attrs, const std::vector<Tensor> &ins,
             const std::vector<std::pair<DType, Shape>> &outs,
             const std::string &extra = "", CaseOpts opts = {}) {
  std::string name = describe(op, ins, extra);
  if (opts.shift)
    name += cat(" (buffers +", opts.shift, " bytes)");
  if (opts.inPlace)
    name += " (in place)";
  for (const Tensor &t : ins) {
    if (!t.isValid())
      return report(false, name, "invalid input tensor");
  }
  // CPU reference.
  std::vector<Tensor> cpuOut;
  for (const auto &o : outs)
    cpuOut.push_back(alloc(o.first, o.second));
  std::vector<const Tensor *> inPtrs;
  for (const Tensor &t : ins)
    inPtrs.push_back(&t);
  std::vector<Tensor *> outPtrs;
  for (Tensor &t : cpuOut)
    outPtrs.push_back(&t);
  const Status cpu = runCpuKernel(op, attrs, inPtrs, outPtrs);
  if (!cpu.isOk())
    return report(false, name, "CPU reference failed: " + cpu.message());

  std::vector<DType> types;
  for (const Tensor &t : ins)
    types.push_back(t.dtype());
  if (!opts.cudnn && !opts.fused &&
      cuda::hasKernel(op, types) != opts.hasKernel)
    return report(
        false, name,
        cat("hasKernel says ", !opts.hasKernel, ", expected ", opts.hasKernel));

  std::vector<DeviceBuffer> keep;
  std::vector<DeviceTensor> dIn(ins.size()), dOut(outs.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    if (!toDevice(ins[i], keep, dIn[i], opts.shift))
      return report(false, name, "device upload failed");
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (opts.inPlace && i == 0) {
      dOut[0] = DeviceTensor{outs[0].first, outs[0].second,
                             dIn[opts.inPlaceOperand].data};
      continue;
    }
    if (!deviceResult(outs[i].first, outs[i].second, keep, dOut[i], opts.shift))
      return report(false, name, "device allocation failed");
  }
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  const Status gpu = [&]() -> Status {
    if (opts.fused) {
      OpAttrs typed;
      PARACC_RETURN_IF_ERROR(decodeOpAttrs(op, attrs, typed));
      std::vector<cuda::FusedKernel> kernels;
      PARACC_RETURN_IF_ERROR(
          cuda::compileFusedKernels({{&typed, dIn, dOut}}, kernels));
      return cuda::launchFusedKernel(kernels[0], dIn, dOut, stream);
    }
    if (!opts.cudnn)
      return cuda::launchKernel(op, attrs, dIn, dOut, stream);
    // The executor's path: a plan and its workspace, then the launch.
    OpAttrs typed;
    PARACC_RETURN_IF_ERROR(decodeOpAttrs(op, attrs, typed));
    const std::optional<size_t> bytes =
        cuda::convolutionWorkspaceBytes(op, typed, dIn, dOut, {});
    if (!bytes)
      return errorf("cuDNN has no plan for it");
    DeviceBuffer workspace;
    if (*bytes && !workspace.allocate(*bytes))
      return errorf("workspace allocation failed");
    return cuda::launchConvolution(op, typed, dIn, dOut, workspace.get(),
                                   *bytes, stream, {});
  }();
  const cudaError_t sync = cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  if (!gpu.isOk())
    return report(false, name, "launch failed: " + gpu.message());
  if (sync != cudaSuccess) {
    report(false, name, cat("kernel failed: ", cudaGetErrorString(sync)));
    stopIfContextBroken();
    return;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor host;
    if (!toHost(dOut[i], host))
      return report(false, name, "device download failed");
    const Tol tol = i < opts.resultTols.size() ? opts.resultTols[i]
                    : opts.tol                  ? *opts.tol
                                                : defaultTol(outs[i].first);
    const std::string diff = compare(host, cpuOut[i], tol);
    if (!diff.empty())
      return report(false, name,
                    outs.size() > 1 ? cat("result ", i, ": ", diff) : diff);
  }
  report(true, name);
}

/// Result of the same shape and type as operand 0.
void runSame(OpCode op, const InstrAttrs &attrs, const std::vector<Tensor> &ins,
             const std::string &extra = "", CaseOpts opts = {}) {
  runCase(op, attrs, ins, {{ins[0].dtype(), ins[0].shape()}}, extra, opts);
}

InstrAttrs ints(std::vector<int64_t> v) {
  InstrAttrs a;
  a.ints = std::move(v);
  return a;
}

InstrAttrs floats(std::vector<double> v) {
  InstrAttrs a;
  a.floats = std::move(v);
  return a;
}

const std::vector<Shape> kSizes = {{1}, {7}, {1023}, {4097}, {3, 5, 67}};
const std::vector<DType> kFloats = {DType::F32, DType::F16, DType::BF16};
const std::vector<DType> kInts = {DType::I32, DType::I64};

//===----------------------------------------------------------------------===//
// Elementwise.
//===----------------------------------------------------------------------===//

struct UnaryInfo {
  OpCode op;
  double lo, hi;
  bool ints; // Also on integer types.
};

void testUnary() {
  const std::vector<UnaryInfo> ops = {
      {OpCode::Neg, -4, 4, true},          {OpCode::Abs, -4, 4, true},
      {OpCode::Sign, -4, 4, true},         {OpCode::Relu, -4, 4, true},
      {OpCode::Sqrt, 0.01, 10, false},     {OpCode::Rsqrt, 0.01, 10, false},
      {OpCode::Reciprocal, 0.1, 5, false}, {OpCode::Exp, -5, 5, false},
      {OpCode::Log, 0.01, 10, false},      {OpCode::Tanh, -4, 4, false},
      {OpCode::Erf, -3, 3, false},         {OpCode::Sigmoid, -8, 8, false},
      {OpCode::Silu, -8, 8, false},        {OpCode::Sin, -3, 3, false},
      {OpCode::Cos, -3, 3, false},         {OpCode::Tan, -1.2, 1.2, false},
      {OpCode::Asin, -0.99, 0.99, false},  {OpCode::Acos, -0.99, 0.99, false},
      {OpCode::Atan, -4, 4, false},        {OpCode::Sinh, -4, 4, false},
      {OpCode::Cosh, -4, 4, false},        {OpCode::Asinh, -4, 4, false},
      {OpCode::Acosh, 1.01, 8, false},     {OpCode::Atanh, -0.95, 0.95, false},
      {OpCode::Floor, -4, 4, false},       {OpCode::Ceil, -4, 4, false},
      {OpCode::Round, -4, 4, false},
  };
  for (const UnaryInfo &u : ops) {
    for (DType dt : kFloats) {
      for (const Shape &s : kSizes)
        runSame(u.op, {}, {randomTensor(dt, s, u.lo, u.hi)});
    }
    if (u.ints) {
      for (DType dt : kInts) {
        runSame(u.op, {}, {randomTensor(dt, {1023}, -100, 100)});
        runSame(u.op, {}, {randomBits(dt, {4097})}, "random bits");
      }
    }
  }
  // Round: exact halves.
  for (DType dt : kFloats)
    runSame(OpCode::Round, {}, {iota(dt, {64}, 0.5, -16.0)}, "halves");
  // Gelu, both forms.
  for (int64_t form : {0, 1}) {
    for (DType dt : kFloats) {
      for (const Shape &s : kSizes)
        runSame(OpCode::Gelu, ints({form}), {randomTensor(dt, s, -6, 6)},
                cat("approximation ", form));
    }
  }
  // Predicates on special values.
  for (DType dt : kFloats) {
    Tensor x = randomTensor(dt, {1029}, -3, 3);
    const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e30};
    for (int64_t i = 0; i < x.numElements(); i += 7)
      set(x, i, specials[(i / 7) % 6]);
    runCase(OpCode::IsNaN, {}, {x}, {{DType::Bool, x.shape()}});
    for (int64_t pos : {0, 1})
      for (int64_t neg : {0, 1})
        runCase(OpCode::IsInf, ints({pos, neg}), {x},
                {{DType::Bool, x.shape()}}, cat("pos ", pos, " neg ", neg));
    runSame(OpCode::Abs, {}, {x}, "specials");
    runSame(OpCode::Sign, {}, {x}, "specials");
    runSame(OpCode::Exp, {}, {x}, "specials", {Tol{1e-5, 1e-6}});
  }
  for (const Shape &s : kSizes)
    runSame(OpCode::Not, {}, {randomTensor(DType::Bool, s)});
  // Unaligned buffers take the scalar path.
  for (DType dt : kFloats)
    runSame(OpCode::Silu, {}, {randomTensor(dt, {4097}, -4, 4)}, "",
            {std::nullopt, dtypeSize(dt)});
  runSame(OpCode::Tanh, {}, {randomTensor(DType::F32, {4096}, -4, 4)}, "",
          {std::nullopt, 0, true});
}

struct BinaryInfo {
  OpCode op;
  bool ints;    // Also on i32/i64.
  bool compare; // Result is bool.
  bool positiveB;
};

void testBinary() {
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{1}, {1}},
      {{7}, {7}},
      {{4097}, {4097}},
      {{7, 1024}, {1024}},       // Bias on the last dim.
      {{7, 1023}, {1023}},       // Odd last dim: scalar broadcast path.
      {{6, 1024}, {6, 1}},       // Per-row scalar.
      {{1}, {33, 8}},            // Scalar operand.
      {{2, 3, 1, 5}, {3, 4, 1}}, // Both sides broadcast.
      {{4, 1, 64}, {1, 8, 64}},
      {{2, 4, 16, 16}, {2, 1, 1, 16}}, // Attention-mask like.
  };
  const std::vector<BinaryInfo> ops = {
      {OpCode::Add, true, false, false},
      {OpCode::Sub, true, false, false},
      {OpCode::Mul, true, false, false},
      {OpCode::Div, false, false, true},
      {OpCode::Pow, false, false, false},
      {OpCode::Max, true, false, false},
      {OpCode::Min, true, false, false},
      {OpCode::Equal, true, true, false},
      {OpCode::Less, true, true, false},
      {OpCode::LessEqual, true, true, false},
      {OpCode::Greater, true, true, false},
      {OpCode::GreaterEqual, true, true, false},
  };
  for (const BinaryInfo &b : ops) {
    std::vector<DType> types = kFloats;
    if (b.ints)
      types.insert(types.end(), kInts.begin(), kInts.end());
    for (DType dt : types) {
      for (const auto &sh : shapes) {
        Shape out;
        {
          // numpy broadcast of the two shapes.
          const size_t r = std::max(sh.first.size(), sh.second.size());
          out.assign(r, 1);
          for (size_t i = 0; i < r; ++i) {
            const int64_t a = i < r - sh.first.size()
                                  ? 1
                                  : sh.first[i - (r - sh.first.size())];
            const int64_t c = i < r - sh.second.size()
                                  ? 1
                                  : sh.second[i - (r - sh.second.size())];
            out[i] = std::max(a, c);
          }
        }
        Tensor a, c;
        if (b.op == OpCode::Pow) {
          a = randomTensor(dt, sh.first, 0.1, 3);
          c = randomTensor(dt, sh.second, -2, 2);
        } else if (isFloat(dt)) {
          a = randomTensor(dt, sh.first, -4, 4);
          c = randomTensor(dt, sh.second, b.positiveB ? 0.5 : -4, 4);
        } else {
          a = randomTensor(dt, sh.first, -20, 20);
          c = randomTensor(dt, sh.second, -20, 20);
        }
        if (b.compare) // Some ties.
          for (int64_t i = 0; i < std::min(a.numElements(), c.numElements());
               i += 3)
            set(c, i, isFloat(dt) ? getF(a, i) : double(getI(a, i)));
        runCase(b.op, {}, {a, c}, {{b.compare ? DType::Bool : dt, out}});
      }
      if (!isFloat(dt) && !b.compare) {
        // Wrapping arithmetic.
        runCase(b.op, {}, {randomBits(dt, {1025}), randomBits(dt, {1025})},
                {{dt, {1025}}}, "random bits");
      }
    }
  }
  // Mod, both modes, with divisors of both signs.
  for (int64_t fmodMode : {0, 1}) {
    for (DType dt : kFloats) {
      Tensor a = randomTensor(dt, {7, 1024}, -10, 10);
      Tensor c = randomTensor(dt, {1024}, 0.5, 3);
      for (int64_t i = 0; i < c.numElements(); i += 2)
        set(c, i, -getF(c, i));
      runCase(OpCode::Mod, ints({fmodMode}), {a, c}, {{dt, {7, 1024}}},
              cat("fmod ", fmodMode));
    }
  }
  // Pow with negative bases and integral exponents (squares, cubes).
  for (DType dt : kFloats) {
    for (double e : {2.0, 3.0, 1.0, -1.0, 0.5}) {
      Tensor a = randomTensor(dt, {1023}, e == 0.5 ? 0.0 : -3.0, 3);
      runCase(OpCode::Pow, {}, {a, scalar(dt, e, {1})}, {{dt, {1023}}},
              cat("exponent ", e));
    }
  }
  // NaN propagation of Max/Min.
  for (DType dt : kFloats) {
    Tensor a = randomTensor(dt, {64}), c = randomTensor(dt, {64});
    set(a, 3, NAN);
    set(c, 5, NAN);
    runSame(OpCode::Max, {}, {a, c}, "NaN");
    runSame(OpCode::Min, {}, {a, c}, "NaN");
  }
  // Bool logic and comparisons.
  for (OpCode op : {OpCode::And, OpCode::Or, OpCode::Xor, OpCode::Equal,
                    OpCode::Less, OpCode::Greater}) {
    runCase(
        op, {},
        {randomTensor(DType::Bool, {4097}), randomTensor(DType::Bool, {4097})},
        {{DType::Bool, {4097}}});
    runCase(
        op, {},
        {randomTensor(DType::Bool, {5, 33}), randomTensor(DType::Bool, {33})},
        {{DType::Bool, {5, 33}}});
  }
  // Unaligned, in place.
  for (DType dt : kFloats) {
    runCase(OpCode::Add, {},
            {randomTensor(dt, {4099}), randomTensor(dt, {4099})},
            {{dt, {4099}}}, "", {std::nullopt, dtypeSize(dt)});
    runCase(OpCode::Mul, {},
            {randomTensor(dt, {9, 64}), randomTensor(dt, {64})},
            {{dt, {9, 64}}}, "", {std::nullopt, dtypeSize(dt)});
    runCase(OpCode::Add, {},
            {randomTensor(dt, {4096}), randomTensor(dt, {4096})},
            {{dt, {4096}}}, "", {std::nullopt, 0, true});
  }
}

void testWhere() {
  const std::vector<std::vector<Shape>> shapes = {
      {{4097}, {4097}, {4097}},
      {{1}, {1023}, {1}},
      {{1, 1, 16, 16}, {2, 4, 16, 16}, {1}},
      {{16, 1}, {16, 64}, {64}},
      {{3, 1, 7}, {1, 5, 7}, {3, 5, 1}},
  };
  for (DType dt : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64,
                   DType::Bool, DType::F64}) {
    for (const auto &s : shapes) {
      Tensor c = randomTensor(DType::Bool, s[0]);
      Tensor a = randomTensor(dt, s[1], -9, 9);
      Tensor b = randomTensor(dt, s[2], -9, 9);
      Shape out;
      const size_t r = std::max({s[0].size(), s[1].size(), s[2].size()});
      out.assign(r, 1);
      for (const Shape &x : s)
        for (size_t i = 0; i < x.size(); ++i)
          out[r - x.size() + i] = std::max(out[r - x.size() + i], x[i]);
      runCase(OpCode::Where, {}, {c, a, b}, {{dt, out}});
    }
  }
  // Non-canonical bool bytes in the values.
  Tensor v = randomBits(DType::U8, {256});
  Tensor vb = alloc(DType::Bool, {256});
  std::memcpy(vb.data(), v.data(), 256);
  runCase(
      OpCode::Where, {},
      {randomTensor(DType::Bool, {256}), vb, randomTensor(DType::Bool, {1})},
      {{DType::Bool, {256}}}, "non-canonical bools");
}

void testCast() {
  const std::vector<DType> types = {DType::F32, DType::F16, DType::BF16,
                                    DType::F64, DType::I32, DType::I64,
                                    DType::I8,  DType::U8,  DType::Bool};
  for (DType from : types) {
    Tensor x;
    if (isFloat(from)) {
      x = randomTensor(from, {4097}, -400, 400);
      const double specials[] = {NAN,   INFINITY, -INFINITY, 0.0,
                                 -0.0,  0.4,      -0.6,      1e10,
                                 -1e10, 65519.0,  70000.0};
      for (int64_t i = 0; i < x.numElements(); i += 5)
        set(x, i, specials[(i / 5) % 11]);
    } else if (from == DType::Bool) {
      x = randomBits(DType::U8, {4097});
      Tensor b = alloc(DType::Bool, {4097});
      std::memcpy(b.data(), x.data(), 4097);
      x = std::move(b);
    } else {
      x = randomBits(from, {4097});
    }
    for (DType to : types) {
      runCase(OpCode::Cast, {}, {x}, {{to, x.shape()}},
              cat("to ", dtypeName(to)), {Tol{0.0, 0.0}});
    }
  }
  runCase(OpCode::Cast, {}, {randomTensor(DType::F32, {1025})},
          {{DType::BF16, {1025}}}, "to bf16", {Tol{0.0, 0.0}, 4});
}

void testClip() {
  for (DType dt :
       {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64}) {
    for (const Shape &s : kSizes) {
      runSame(OpCode::Clip, floats({-1.5, 2.25}), {randomTensor(dt, s, -5, 5)},
              "[-1.5, 2.25]");
    }
    runSame(OpCode::Clip, floats({-1e40, 1e40}),
            {randomTensor(dt, {64}, -5, 5)}, "huge bounds");
  }
}

//===----------------------------------------------------------------------===//
// Normalization.
//===----------------------------------------------------------------------===//

void testNorms() {
  const std::vector<Shape> shapes = {
      {5, 7},    {9, 64},   {3, 768},   {4, 1023},  {2, 1024},
      {3, 4096}, {2, 8192}, {2, 16384}, {2, 40000}, {6, 16, 48}};
  const Tol f32Tol{1e-5, 1e-5};
  for (DType dt : kFloats) {
    const std::optional<Tol> tol =
        dt == DType::F32 ? std::optional<Tol>(f32Tol) : std::nullopt;
    for (const Shape &s : shapes) {
      const int64_t axis = int64_t(s.size()) - 1;
      const Shape norm(s.begin() + axis, s.end());
      Tensor x = randomTensor(dt, s, -3, 3);
      Tensor scale = randomTensor(dt, norm, 0.5, 1.5);
      Tensor bias = randomTensor(dt, norm, -1, 1);
      InstrAttrs a = ints({axis});
      a.floats = {1e-5};
      runSame(OpCode::LayerNorm, a, {x, scale, bias}, "", {tol});
      runSame(OpCode::LayerNorm, a, {x, scale}, "no bias", {tol});
      runSame(OpCode::RmsNorm, a, {x, scale}, "", {tol});
    }
    // Normalizing the last two dims, broadcast scale/bias.
    Tensor x = randomTensor(dt, {4, 6, 40}, -3, 3);
    InstrAttrs a = ints({1});
    a.floats = {1e-6};
    runSame(OpCode::LayerNorm, a,
            {x, randomTensor(dt, {6, 40}, 0.5, 1.5),
             randomTensor(dt, {6, 40}, -1, 1)},
            "axis 1", {tol});
    runSame(OpCode::LayerNorm, a,
            {x, randomTensor(dt, {40}, 0.5, 1.5), randomTensor(dt, {1}, -1, 1)},
            "axis 1, broadcast scale/bias", {tol});
    runSame(OpCode::RmsNorm, a, {x, randomTensor(dt, {6, 1}, 0.5, 1.5)},
            "axis 1, broadcast scale", {tol});
    // Unaligned rows.
    InstrAttrs last = ints({1});
    last.floats = {1e-5};
    runSame(OpCode::LayerNorm, last,
            {randomTensor(dt, {5, 256}, -3, 3), randomTensor(dt, {256}),
             randomTensor(dt, {256})},
            "", {tol, dtypeSize(dt)});
  }
}

void testSoftmax() {
  const std::vector<Shape> shapes = {{1, 1},    {5, 7},     {9, 33},
                                     {3, 1023}, {4, 1024},  {2, 4097},
                                     {2, 8192}, {2, 32768}, {2, 40000}};
  for (OpCode op : {OpCode::Softmax, OpCode::LogSoftmax}) {
    for (DType dt : kFloats) {
      for (const Shape &s : shapes)
        runSame(op, ints({1}), {randomTensor(dt, s, -8, 8)}, "axis 1");
      // Other axes.
      Tensor x = randomTensor(dt, {3, 37, 5, 9}, -8, 8);
      for (int64_t axis : {0, 1, 2, 3})
        runSame(op, ints({axis}), {x}, cat("axis ", axis));
      // Masked entries and a fully masked row.
      Tensor m = randomTensor(dt, {4, 300}, -8, 8);
      for (int64_t i = 0; i < 300; i += 3)
        set(m, i, -INFINITY);
      for (int64_t i = 300; i < 600; ++i)
        if (i % 2)
          set(m, i, -INFINITY);
      for (int64_t i = 900; i < 1200; ++i)
        set(m, i, -INFINITY);
      runSame(op, ints({1}), {m}, "masked");
      Tensor n = randomTensor(dt, {2, 100}, -8, 8);
      set(n, 17, NAN);
      runSame(op, ints({1}), {n}, "NaN");
      // Unaligned.
      runSame(op, ints({1}), {randomTensor(dt, {6, 512}, -8, 8)}, "",
              {std::nullopt, dtypeSize(dt)});
    }
  }
}

//===----------------------------------------------------------------------===//
// Data movement.
//===----------------------------------------------------------------------===//

void testShapeOps() {
  const std::vector<DType> types = {DType::F32,  DType::BF16, DType::I64,
                                    DType::Bool, DType::F64,  DType::I8};
  for (DType dt : types) {
    // Reshape.
    Tensor r = randomTensor(dt, {6, 35}, -9, 9);
    runCase(OpCode::Reshape, {}, {r}, {{dt, {5, 42}}});
    // Transpose: last two dims (tiled), keep the last dim (widened),
    // general.
    const std::vector<std::pair<Shape, std::vector<int64_t>>> perms = {
        {{64, 48}, {1, 0}},
        {{3, 65, 33}, {0, 2, 1}},
        {{2, 7, 5}, {0, 2, 1}},
        {{2, 16, 4, 32}, {0, 2, 1, 3}},
        {{2, 16, 4, 8}, {0, 2, 1, 3}},
        {{3, 4, 5, 6}, {3, 1, 2, 0}},
        {{2, 3, 4, 5, 6}, {4, 2, 0, 3, 1}},
        {{33, 1, 47}, {2, 1, 0}},
        {{128, 4, 64}, {1, 2, 0}},
        {{5}, {0}},
    };
    for (const auto &p : perms) {
      Tensor x = randomTensor(dt, p.first, -9, 9);
      Shape out;
      for (int64_t d : p.second)
        out.push_back(p.first[d]);
      runCase(OpCode::Transpose, ints(p.second), {x}, {{dt, out}},
              "perm " + shapeToString(p.second));
    }
    // Slice: starts, steps (negative too).
    {
      Tensor x = randomTensor(dt, {10, 64, 12}, -9, 9);
      runCase(OpCode::Slice, ints({2, 0, 3, 1, 1, 1}), {x}, {{dt, {5, 64, 8}}},
              "contiguous rows");
      runCase(OpCode::Slice, ints({9, 63, 0, -2, -3, 5}), {x},
              {{dt, {5, 21, 3}}}, "negative steps");
      runCase(OpCode::Slice, ints({0, 32, 0, 1, 1, 1}), {x},
              {{dt, {10, 32, 12}}}, "second half of dim 1");
    }
    // Concat and Split along each axis.
    {
      Tensor a = randomTensor(dt, {4, 6, 16}, -9, 9);
      Tensor b = randomTensor(dt, {4, 3, 16}, -9, 9);
      Tensor c = randomTensor(dt, {4, 1, 16}, -9, 9);
      runCase(OpCode::Concat, ints({1}), {a, b, c}, {{dt, {4, 10, 16}}},
              "axis 1");
      runCase(OpCode::Concat, ints({-1}), {a, a}, {{dt, {4, 6, 32}}},
              "axis -1");
      runCase(OpCode::Concat, ints({0}), {a, a}, {{dt, {8, 6, 16}}}, "axis 0");
      // Hundreds of small pieces (batched launches of 128) with large ones
      // between them (plain copies): a gradient norm's terms, a bucket.
      std::vector<Tensor> pieces;
      int64_t rows = 0;
      for (int i = 0; i < 300; ++i) {
        const int64_t n = i % 97 == 5 ? 3000 : 1 + i % 7;
        pieces.push_back(randomTensor(dt, {n}, -9, 9));
        rows += n;
      }
      runCase(OpCode::Concat, ints({0}), pieces, {{dt, {rows}}},
              "300 pieces, small and large");
      Tensor x = randomTensor(dt, {4, 10, 16}, -9, 9);
      runCase(OpCode::Split, ints({1}), {x},
              {{dt, {4, 6, 16}}, {dt, {4, 3, 16}}, {dt, {4, 1, 16}}}, "axis 1");
      runCase(OpCode::Split, ints({2}), {x},
              {{dt, {4, 10, 5}}, {dt, {4, 10, 11}}}, "axis 2");
    }
    // Expand.
    runCase(OpCode::Expand, {}, {randomTensor(dt, {1, 64}, -9, 9)},
            {{dt, {7, 64}}}, "rows");
    runCase(OpCode::Expand, {}, {randomTensor(dt, {5, 1}, -9, 9)},
            {{dt, {3, 5, 33}}}, "inner");
    runCase(OpCode::Expand, {}, {randomTensor(dt, {2, 1, 3, 1}, -9, 9)},
            {{dt, {2, 4, 3, 8}}}, "mixed");
    // Trilu.
    for (int64_t upper : {0, 1})
      for (int64_t k : {-2, 0, 3})
        runSame(OpCode::Trilu, ints({upper, k}),
                {randomTensor(dt, {3, 17, 23}, -9, 9)},
                cat("upper ", upper, " k ", k));
  }
  // Transposes of large tiles and an unaligned widened copy.
  runCase(OpCode::Transpose, ints({1, 0}),
          {randomTensor(DType::F32, {1000, 777})}, {{DType::F32, {777, 1000}}},
          "large");
  runCase(OpCode::Transpose, ints({0, 2, 1, 3}),
          {randomTensor(DType::BF16, {2, 64, 8, 64})},
          {{DType::BF16, {2, 8, 64, 64}}}, "heads", {std::nullopt, 2});
}

void testGathers() {
  for (DType dt : {DType::F32, DType::BF16, DType::I64, DType::Bool}) {
    for (DType it : {DType::I32, DType::I64}) {
      // Embedding lookup.
      Tensor table = randomTensor(dt, {50, 64}, -9, 9);
      Tensor idx = randomTensor(it, {3, 7}, -50, 49);
      runCase(OpCode::Gather, ints({0}), {table, idx}, {{dt, {3, 7, 64}}},
              "axis 0");
      Tensor odd = randomTensor(dt, {50, 5}, -9, 9);
      runCase(OpCode::Gather, ints({0}), {odd, idx}, {{dt, {3, 7, 5}}},
              "axis 0, odd rows");
      Tensor x = randomTensor(dt, {4, 9, 6}, -9, 9);
      Tensor i1 = randomTensor(it, {5}, -9, 8);
      runCase(OpCode::Gather, ints({1}), {x, i1}, {{dt, {4, 5, 6}}}, "axis 1");
      runCase(OpCode::Gather, ints({-1}), {x, randomTensor(it, {2, 2}, -6, 5)},
              {{dt, {4, 9, 2, 2}}}, "axis -1");
      runCase(OpCode::Gather, ints({0}), {x, scalar(it, 2)}, {{dt, {9, 6}}},
              "scalar index");
      // GatherElements.
      Tensor ge = randomTensor(it, {4, 5, 6}, -9, 8);
      runCase(OpCode::GatherElements, ints({1}), {x, ge}, {{dt, {4, 5, 6}}},
              "axis 1");
      runCase(OpCode::GatherElements, ints({2}),
              {x, randomTensor(it, {3, 9, 8}, -6, 5)}, {{dt, {3, 9, 8}}},
              "axis 2");
      // GatherND.
      Tensor gn = alloc(it, {4, 2, 2});
      for (int64_t i = 0; i < 8; ++i) {
        set(gn, 2 * i, double(std::uniform_int_distribution<int>(-4, 3)(gRng)));
        set(gn, 2 * i + 1,
            double(std::uniform_int_distribution<int>(-9, 8)(gRng)));
      }
      if (it == DType::I64) {
        runCase(OpCode::GatherND, ints({0}), {x, gn}, {{dt, {4, 2, 6}}},
                "batch 0");
        Tensor gb = randomTensor(it, {4, 3, 1}, -9, 8);
        runCase(OpCode::GatherND, ints({1}), {x, gb}, {{dt, {4, 3, 6}}},
                "batch 1");
      }
    }
  }
}

void testBlocks() {
  // copyBlock / placeBlock against a host reference.
  for (DType dt : {DType::F32, DType::BF16, DType::I8, DType::I64}) {
    const Shape whole = {6, 40, 24};
    const Shape block = {3, 16, 8};
    const std::vector<int64_t> offsets = {2, 8, 16};
    Tensor src = randomTensor(dt, whole, -9, 9);
    std::vector<DeviceBuffer> keep;
    DeviceTensor dSrc, dBlock;
    const std::string name = cat("copy_block ", dtypeName(dt));
    if (!toDevice(src, keep, dSrc) || !deviceResult(dt, block, keep, dBlock)) {
      report(false, name, "device setup failed");
      continue;
    }
    Status st = cuda::copyBlock(dSrc, offsets, dBlock, nullptr);
    Tensor got;
    if (!st.isOk() || cudaDeviceSynchronize() != cudaSuccess ||
        !toHost(dBlock, got)) {
      report(false, name, "failed: " + st.message());
      continue;
    }
    const size_t es = dtypeSize(dt);
    bool ok = true;
    for (int64_t i = 0; i < 3 && ok; ++i)
      for (int64_t j = 0; j < 16 && ok; ++j)
        ok = std::memcmp(static_cast<const char *>(got.data()) +
                             ((i * 16 + j) * 8) * es,
                         static_cast<const char *>(src.data()) +
                             (((i + 2) * 40 + j + 8) * 24 + 16) * es,
                         8 * es) == 0;
    report(ok, name, "block differs from the source region");

    // placeBlock writes it back into a zeroed whole.
    const std::string pname = cat("place_block ", dtypeName(dt));
    DeviceTensor dWhole;
    if (!deviceResult(dt, whole, keep, dWhole) ||
        cudaMemset(dWhole.data, 0, dWhole.byteSize()) != cudaSuccess) {
      report(false, pname, "device setup failed");
      continue;
    }
    const Status placed = cuda::placeBlock(dBlock, dWhole, offsets, nullptr);
    Tensor back;
    if (!placed.isOk() || cudaDeviceSynchronize() != cudaSuccess ||
        !toHost(dWhole, back)) {
      report(false, pname, "failed: " + placed.message());
      continue;
    }
    ok = true;
    for (int64_t i = 0; i < 6 && ok; ++i)
      for (int64_t j = 0; j < 40 && ok; ++j)
        for (int64_t k = 0; k < 24 && ok; ++k) {
          const int64_t at = (i * 40 + j) * 24 + k;
          const bool inside = i >= 2 && i < 5 && j >= 8 && j < 24 && k >= 16;
          const char *g = static_cast<const char *>(back.data()) + at * es;
          if (inside)
            ok = std::memcmp(g, static_cast<const char *>(src.data()) + at * es,
                             es) == 0;
          else
            for (size_t b = 0; b < es && ok; ++b)
              ok = g[b] == 0;
        }
    report(ok, pname, "whole differs from the expected placement");
  }
  // Errors.
  DeviceTensor a{DType::F32, {4, 4}, reinterpret_cast<void *>(256)};
  DeviceTensor b{DType::F32, {2, 3}, reinterpret_cast<void *>(512)};
  const Status st = cuda::copyBlock(a, {3, 0}, b, nullptr);
  report(!st.isOk() && st.message().rfind("copy_block:", 0) == 0,
         "copy_block out of bounds is an error", st.message());
  const Status st2 = cuda::placeBlock(b, a, {0}, nullptr);
  report(!st2.isOk() && st2.message().rfind("place_block:", 0) == 0,
         "place_block rank mismatch is an error", st2.message());
}

//===----------------------------------------------------------------------===//
// Reductions, CumSum, Range.
//===----------------------------------------------------------------------===//

void testReductions() {
  struct R {
    Shape shape;
    std::vector<int64_t> axes;
  };
  const std::vector<R> cases = {
      {{7, 1023}, {1}},
      {{5, 4096}, {1}},
      {{3, 40000}, {1}},
      {{2, 300000}, {1}},
      {{40000}, {0}},
      {{33, 64}, {0}},
      {{4, 37, 65}, {1}},
      {{4, 37, 65}, {0, 2}},
      {{3, 4, 5, 6}, {1, 3}},
      {{2, 3, 4}, {0, 1, 2}},
      {{6, 1, 8}, {1}},
      {{1, 9}, {0}},
      {{2, 0, 3}, {1}},
      {{64, 5}, {1}},
      // Column sums with 16-byte loads: chunked (bias gradients), a partial
      // column tile, an outer dimension.
      {{4096, 1024}, {0}},
      {{1000, 40}, {0}},
      {{2, 700, 264}, {1}},
      // Short reduced axes between wide kept ones, one thread per output
      // vector (GQA's repeated K/V gradient).
      {{2, 8, 4, 512, 64}, {2}},
      {{3, 16, 36000}, {1}},
      // Channels of [N, C, H, W] (BatchNorm's statistics, a convolution's
      // bias gradient): chunked over the images, 16-byte loads or not.
      {{16, 64, 28, 28}, {0, 2, 3}},
      {{32, 12, 7, 7}, {0, 2, 3}},
      {{8, 32, 56, 56}, {0, 2, 3}},
      {{64, 96, 14, 14}, {0, 2, 3}},
      {{6, 10, 5, 6}, {0, 2, 3}},
      {{3, 5, 1031}, {0, 2}},
  };
  const std::vector<OpCode> ops = {OpCode::ReduceSum, OpCode::ReduceMean,
                                   OpCode::ReduceMax, OpCode::ReduceMin,
                                   OpCode::ReduceProd,
                                   OpCode::ReduceSumSquare};
  for (OpCode op : ops) {
    std::vector<DType> types = {DType::F32, DType::F16, DType::BF16, DType::I32,
                                DType::I64};
    if (op == OpCode::ReduceMax || op == OpCode::ReduceMin)
      types.push_back(DType::Bool);
    for (DType dt : types) {
      if (op == OpCode::ReduceSumSquare && !isFloat(dt))
        continue; // Floating types only (an error on both sides).
      for (const R &r : cases) {
        for (int64_t keep : {0, 1}) {
          if (keep && r.shape.size() > 2)
            continue;
          int64_t count = 1;
          for (int64_t a : r.axes)
            count *= r.shape[a];
          if (op == OpCode::ReduceMean && !isFloat(dt) && count == 0)
            continue; // An error on both sides.
          Tensor x = op == OpCode::ReduceProd
                         ? (isFloat(dt) ? randomTensor(dt, r.shape, 0.9, 1.1)
                                        : randomTensor(dt, r.shape, -2, 2))
                         : randomTensor(dt, r.shape, -1, 1);
          if (!isFloat(dt) && op != OpCode::ReduceProd)
            x = randomTensor(dt, r.shape, -1000, 1000);
          if (dt == DType::Bool)
            x = randomTensor(dt, r.shape);
          Shape out;
          for (size_t d = 0; d < r.shape.size(); ++d) {
            const bool red = std::find(r.axes.begin(), r.axes.end(),
                                       int64_t(d)) != r.axes.end();
            if (!red)
              out.push_back(r.shape[d]);
            else if (keep)
              out.push_back(1);
          }
          std::vector<int64_t> attr = {keep};
          attr.insert(attr.end(), r.axes.begin(), r.axes.end());
          CaseOpts o;
          if (isFloat(dt) && (op == OpCode::ReduceSum ||
                              op == OpCode::ReduceSumSquare)) {
            Tol t = defaultTol(dt);
            t.atol += 1e-5 * std::sqrt(double(count));
            o.tol = t;
          }
          runCase(op, ints(attr), {x}, {{dt, out}},
                  "axes " + shapeToString(r.axes) + cat(" keepdims ", keep), o);
        }
      }
    }
  }
  // NaN propagation and no axes.
  for (DType dt : kFloats) {
    Tensor x = randomTensor(dt, {4, 100});
    set(x, 150, NAN);
    runCase(OpCode::ReduceMax, ints({0, 1}), {x}, {{dt, {4}}}, "NaN");
    runCase(OpCode::ReduceMin, ints({0, 0}), {x}, {{dt, {100}}}, "NaN, axis 0");
    runCase(OpCode::ReduceSum, ints({1}), {x}, {{dt, {4, 100}}}, "no axes");
  }
}

/// TopK: a router's shapes (tokens x experts, k of 1, 2 and 8) and a few
/// wide rows, with ties (rounded values) and NaN, both orders.
void testTopK() {
  const std::vector<std::tuple<Shape, int64_t, int64_t>> cases = {
      {{300, 8}, 1, 2},
      {{300, 64}, 1, 8},
      {{5, 1000}, 1, 1},
      {{4, 7, 3}, 1, 7},
      {{6, 5}, 0, 2}};
  for (DType dt : {DType::F32, DType::BF16, DType::I64}) {
    for (const auto &[shape, axis, k] : cases) {
      for (int64_t largest : {0, 1}) {
        Tensor x = randomTensor(dt, shape, -3, 3);
        if (isFloat(dt))
          for (int64_t i = 0; i < x.numElements(); ++i)
            set(x, i, std::round(getF(x, i) * 4));
        if (isFloat(dt) && x.numElements() > 40) {
          set(x, 10, NAN);
          set(x, 17, NAN);
        }
        Shape out = shape;
        out[axis] = k;
        runCase(OpCode::TopK, ints({axis, k, largest}), {x},
                {{dt, out}, {DType::I64, out}},
                cat("axis ", axis, " k ", k, " largest ", largest));
      }
    }
  }
}

/// ExpertLoad: routers' picks, some outside [0, E) (counted nowhere),
/// counted per expert: few experts (counted in shared memory first), more
/// than shared memory holds (straight to the result), more slots than the
/// blocks' threads, and none.
void testExpertLoad() {
  const std::vector<std::pair<Shape, int64_t>> cases = {{{300, 2}, 8},
                                                        {{4096, 8}, 64},
                                                        {{200000, 2}, 8},
                                                        {{3000, 2}, 20000},
                                                        {{0, 2}, 4}};
  for (const auto &[shape, experts] : cases)
    runCase(OpCode::ExpertLoad, {},
            {randomTensor(DType::I64, shape, -1, double(experts))},
            {{DType::F32, {experts}}}, cat(experts, " experts"));
}

void testArgReduce() {
  const std::vector<std::pair<Shape, int64_t>> cases = {
      {{7, 1023}, 1},   {{5, 40}, 1},    {{33, 64}, 0},
      {{4, 37, 65}, 1}, {{3, 4097}, -1}, {{1}, 0}};
  for (OpCode op : {OpCode::ArgMax, OpCode::ArgMin}) {
    for (DType dt : {DType::F32, DType::F16, DType::BF16, DType::I32,
                     DType::I64, DType::Bool}) {
      for (const auto &c : cases) {
        for (int64_t last : {0, 1}) {
          // Few distinct values: many ties.
          Tensor x = isFloat(dt) ? randomTensor(dt, c.first, -3, 3)
                                 : randomTensor(dt, c.first, -3, 3);
          if (isFloat(dt))
            for (int64_t i = 0; i < x.numElements(); ++i)
              set(x, i, std::round(getF(x, i)));
          const int64_t axis =
              c.second < 0 ? c.second + int64_t(c.first.size()) : c.second;
          Shape out = c.first;
          out.erase(out.begin() + axis);
          runCase(op, ints({c.second, 0, last}), {x}, {{DType::I64, out}},
                  cat("axis ", c.second, " last ", last));
        }
      }
    }
    for (DType dt : kFloats) {
      Tensor x = randomTensor(dt, {3, 200});
      set(x, 50, NAN);
      set(x, 70, NAN);
      set(x, 450, NAN);
      for (int64_t last : {0, 1})
        runCase(op, ints({1, 1, last}), {x}, {{DType::I64, {3, 1}}},
                cat("NaN, keepdims, last ", last));
    }
  }
}

void testCumSum() {
  const std::vector<std::pair<Shape, int64_t>> cases = {
      {{5, 40}, 1},  {{3, 1000}, 1},  {{2, 5000}, -1},
      {{33, 64}, 0}, {{4, 37, 6}, 1}, {{1}, 0}};
  for (DType dt :
       {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64}) {
    for (const auto &c : cases) {
      for (int64_t excl : {0, 1}) {
        for (int64_t rev : {0, 1}) {
          Tensor x = isFloat(dt) ? randomTensor(dt, c.first, -1, 1)
                                 : randomTensor(dt, c.first, -1000, 1000);
          CaseOpts o;
          if (isFloat(dt)) {
            Tol t = defaultTol(dt);
            t.atol += 1e-6 * std::sqrt(double(x.numElements()));
            o.tol = t;
          }
          runSame(OpCode::CumSum, ints({c.second, excl, rev}), {x},
                  cat("axis ", c.second, " exclusive ", excl, " reverse ", rev),
                  o);
        }
      }
    }
  }
  runSame(OpCode::CumSum, ints({0, 0, 0}), {randomBits(DType::I64, {3000})},
          "wrapping");
}

void testRange() {
  struct C {
    DType dt;
    double start, limit, delta;
  };
  const std::vector<C> cases = {
      {DType::F32, 0, 10, 1},    {DType::F32, -3.5, 7.25, 0.25},
      {DType::F32, 5, -5, -0.3}, {DType::I64, 0, 4097, 1},
      {DType::I64, 100, -7, -3}, {DType::I32, -5, 1000, 7},
      {DType::BF16, 0, 64, 1},   {DType::F16, 1, 100, 0.5},
  };
  for (const C &c : cases) {
    int64_t count;
    if (isFloat(c.dt)) {
      // As the CPU kernel: in the compute type (f32).
      const float s = float(getF(scalar(c.dt, c.start), 0));
      const float l = float(getF(scalar(c.dt, c.limit), 0));
      const float d = float(getF(scalar(c.dt, c.delta), 0));
      count = int64_t(std::max(0.0f, std::ceil((l - s) / d)));
    } else {
      const int64_t s = int64_t(c.start), l = int64_t(c.limit),
                    d = int64_t(c.delta);
      const int64_t diff = l - s;
      int64_t q = diff / d;
      if (diff % d != 0 && ((diff > 0) == (d > 0)))
        ++q;
      count = std::max<int64_t>(0, q);
    }
    runCase(
        OpCode::Range, {},
        {scalar(c.dt, c.start), scalar(c.dt, c.limit), scalar(c.dt, c.delta)},
        {{c.dt, {count}}}, cat("count ", count));
  }
}

//===----------------------------------------------------------------------===//
// Random weights.
//===----------------------------------------------------------------------===//

uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The reference: fillBlock of Interpreter.cpp.
template <typename T>
void referenceFill(T *out, const Shape &local, const Shape &global,
                   const std::vector<int64_t> &offsets, uint64_t seed,
                   float scale) {
  const size_t rank = local.size();
  std::vector<int64_t> index(rank, 0);
  const int64_t n = shapeNumElements(local);
  for (int64_t i = 0; i < n; ++i) {
    int64_t flat = 0;
    for (size_t d = 0; d < rank; ++d)
      flat = flat * global[d] + index[d] + offsets[d];
    const double u =
        double(splitMix64(seed * 0x2545f4914f6cdd1dull + flat) >> 40) /
        double(1 << 24);
    out[i] = T(float((2.0 * u - 1.0) * scale));
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      if (++index[d] < local[d])
        break;
      index[d] = 0;
    }
  }
}

void testFillRandom() {
  struct C {
    Shape local, global;
    std::vector<int64_t> offsets;
  };
  const std::vector<C> cases = {
      {{64, 48}, {64, 48}, {0, 0}},
      {{16, 24}, {64, 48}, {32, 24}},
      {{3, 5, 7}, {6, 10, 14}, {3, 0, 7}},
      {{1000}, {4000}, {3000}},
      {{}, {}, {}},
  };
  for (DType dt :
       {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I64}) {
    for (const C &c : cases) {
      const std::string name =
          cat("fill_random ", dtypeName(dt), shapeToString(c.local), " of ",
              shapeToString(c.global), " at ", shapeToString(c.offsets));
      Tensor want = alloc(dt, c.local);
      const uint64_t seed = 0x1234567ull + c.local.size();
      const float scale = 0.02f;
      switch (dt) {
      case DType::F32:
        referenceFill(want.as<float>(), c.local, c.global, c.offsets, seed,
                      scale);
        break;
      case DType::F64:
        referenceFill(want.as<double>(), c.local, c.global, c.offsets, seed,
                      scale);
        break;
      case DType::F16:
        referenceFill(want.as<Half>(), c.local, c.global, c.offsets, seed,
                      scale);
        break;
      case DType::BF16:
        referenceFill(want.as<BFloat16>(), c.local, c.global, c.offsets, seed,
                      scale);
        break;
      default:
        break; // Integers stay zero.
      }
      std::vector<DeviceBuffer> keep;
      DeviceTensor d;
      if (!deviceResult(dt, c.local, keep, d)) {
        report(false, name, "device allocation failed");
        continue;
      }
      const Status st =
          cuda::fillRandom(d, c.global, c.offsets, seed, scale, nullptr);
      Tensor got;
      if (!st.isOk() || cudaDeviceSynchronize() != cudaSuccess ||
          !toHost(d, got)) {
        report(false, name, "failed: " + st.message());
        continue;
      }
      const bool same =
          std::memcmp(got.data(), want.data(), want.byteSize()) == 0;
      report(same, name + " (bit-exact)",
             same ? "" : compare(got, want, Tol{0, 0}));
    }
  }
}

//===----------------------------------------------------------------------===//
// Training: gradients, losses and optimizer updates.
//===----------------------------------------------------------------------===//

/// Runs `op` on the GPU only (for operands the CPU rejects by value: bad
/// labels, bad steps) and downloads its results; reports a failure and
/// returns false on an error.
bool runGpuOnly(const std::string &name, OpCode op, const InstrAttrs &attrs,
                const std::vector<Tensor> &ins,
                const std::vector<std::pair<DType, Shape>> &outs,
                std::vector<Tensor> &results) {
  std::vector<DeviceBuffer> keep;
  std::vector<DeviceTensor> dIn(ins.size()), dOut(outs.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    if (!ins[i].isValid() || !toDevice(ins[i], keep, dIn[i])) {
      report(false, name, "device upload failed");
      return false;
    }
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!deviceResult(outs[i].first, outs[i].second, keep, dOut[i])) {
      report(false, name, "device allocation failed");
      return false;
    }
  }
  const Status st = cuda::launchKernel(op, attrs, dIn, dOut, nullptr);
  const cudaError_t sync = cudaDeviceSynchronize();
  if (!st.isOk()) {
    report(false, name, "launchKernel failed: " + st.message());
    return false;
  }
  if (sync != cudaSuccess) {
    report(false, name, cat("kernel failed: ", cudaGetErrorString(sync)));
    stopIfContextBroken();
    return false;
  }
  results.clear();
  for (const DeviceTensor &d : dOut) {
    Tensor h;
    if (!toHost(d, h)) {
      report(false, name, "device download failed");
      return false;
    }
    results.push_back(std::move(h));
  }
  return true;
}

/// Empty if elements [begin, end) of `t` are NaN exactly when `nan`.
std::string checkNaNs(const Tensor &t, int64_t begin, int64_t end, bool nan) {
  for (int64_t i = begin; i < end; ++i) {
    if (std::isnan(getF(t, i)) != nan)
      return cat("element ", i, " is ", getF(t, i), ", expected ",
                 nan ? "NaN" : "a number");
  }
  return "";
}

/// Labels in [0, c) with every `every`-th one (from `first`) set to
/// `ignore` (none when every == 0).
Tensor randomLabels(DType it, const Shape &shape, int64_t c, int64_t every = 0,
                    int64_t ignore = -100, int64_t first = 1) {
  Tensor t = randomTensor(it, shape, 0, double(c - 1));
  for (int64_t i = first; every && t.isValid() && i < t.numElements();
       i += every)
    set(t, i, double(ignore));
  return t;
}

/// scores [N, C, d...] without the class dim.
Shape labelShapeOf(const Shape &scores) {
  Shape s = scores;
  s.erase(s.begin() + 1);
  return s;
}

InstrAttrs intsFloats(std::vector<int64_t> i, std::vector<double> f) {
  InstrAttrs a;
  a.ints = std::move(i);
  a.floats = std::move(f);
  return a;
}

/// Dropout draws the CPU kernel's mask bit for bit (DropoutMask.h), from
/// any offsets and step, and scales the kept elements the same.
void testDropout() {
  const std::vector<Shape> shapes = {{1}, {4097}, {3, 5, 67}, {2, 3, 4, 33}};
  for (DType dt : kFloats) {
    for (const Shape &shape : shapes) {
      for (double ratio : {0.0, 0.1, 0.5, 0.9}) {
        Tensor x = randomTensor(dt, shape, -1, 1);
        Tensor step = alloc(DType::F32, {});
        set(step, 0, 7.0);
        Tensor offsets = alloc(DType::I64, {int64_t(shape.size())});
        for (size_t d = 0; d < shape.size(); ++d)
          set(offsets, int64_t(d), double(16 * d + 3));
        CaseOpts o;
        o.tol = Tol{0.0, 0.0};
        runSame(OpCode::Dropout, intsFloats({12345, 678}, {ratio}),
                {x, step, offsets}, cat("ratio ", ratio), o);
      }
    }
  }
}

void testNormGrads() {
  const std::vector<std::pair<Shape, int64_t>> cases = {
      {{37, 1000}, 1},   {{5, 64}, 1},   {{300, 128}, 1}, {{64, 768}, 1},
      {{3, 4, 48}, 1},   {{7, 2050}, 1}, {{3, 5000}, 1},  {{2, 20000}, 1},
      {{1, 1}, 1},       {{3, 7, 5}, 2}, {{0, 16}, 1},    {{9, 33}, 0},
      {{4100, 2048}, 1}, // Llama-3.2-1B's width, several rows per block
  };
  for (DType dt : {DType::F32, DType::BF16, DType::F16}) {
    const std::optional<Tol> tol =
        dt == DType::F32 ? std::optional<Tol>(Tol{1e-5, 1e-5}) : std::nullopt;
    for (const auto &c : cases) {
      if (dt == DType::F16 && c.first != Shape{37, 1000})
        continue;
      const Shape &s = c.first;
      const Shape norm(s.begin() + c.second, s.end());
      Tensor dy = randomTensor(dt, s, -1, 1);
      Tensor x = randomTensor(dt, s, -3, 3);
      Tensor scale = randomTensor(dt, norm, 0.5, 1.5);
      const InstrAttrs a = intsFloats({c.second}, {1e-5});
      const std::string axis = cat("axis ", c.second);
      // dscale and dbias sum over the rows in f32 (the CPU in double): over
      // thousands of rows the f32 sums drift by ~1e-4 relative.
      CaseOpts opts{tol};
      if (tol &&
          dy.numElements() / std::max<int64_t>(1, scale.numElements()) > 1000)
        opts.resultTols = {*tol, Tol{1e-4, 1e-4}, Tol{1e-4, 1e-4}};
      runCase(OpCode::LayerNormGrad, a, {dy, x, scale},
              {{dt, s}, {dt, norm}, {dt, norm}}, axis, opts);
      runCase(OpCode::RmsNormGrad, a, {dy, x, scale}, {{dt, s}, {dt, norm}},
              axis, opts);
      // Accumulated into another gradient of x (both kernels: short rows
      // in registers, long ones such as [2, 20000] in global memory).
      Tensor acc = randomTensor(dt, s, -1, 1);
      runCase(OpCode::LayerNormGrad, a, {dy, x, scale, acc},
              {{dt, s}, {dt, norm}, {dt, norm}}, axis + ", accumulate", opts);
      runCase(OpCode::RmsNormGrad, a, {dy, x, scale, acc},
              {{dt, s}, {dt, norm}}, axis + ", accumulate", opts);
    }
    // Unaligned rows (scalar loads).
    Tensor dy = randomTensor(dt, {37, 1000}, -1, 1);
    Tensor x = randomTensor(dt, {37, 1000}, -3, 3);
    Tensor scale = randomTensor(dt, {1000}, 0.5, 1.5);
    const InstrAttrs a = intsFloats({1}, {1e-5});
    runCase(OpCode::LayerNormGrad, a, {dy, x, scale},
            {{dt, {37, 1000}}, {dt, {1000}}, {dt, {1000}}}, "",
            {tol, dtypeSize(dt)});
    runCase(OpCode::RmsNormGrad, a, {dy, x, scale},
            {{dt, {37, 1000}}, {dt, {1000}}}, "", {tol, dtypeSize(dt)});
    runCase(OpCode::LayerNormGrad, a,
            {dy, x, scale, randomTensor(dt, {37, 1000}, -1, 1)},
            {{dt, {37, 1000}}, {dt, {1000}}, {dt, {1000}}}, "accumulate",
            {tol, dtypeSize(dt)});
  }
}

void testGeluGrad() {
  for (DType dt : kFloats) {
    for (const Shape &s : kSizes) {
      for (int64_t approx : {0, 1}) {
        runSame(OpCode::GeluGrad, ints({approx}),
                {randomTensor(dt, s, -1, 1), randomTensor(dt, s, -6, 6)},
                cat("approximation ", approx));
      }
    }
    for (int64_t approx : {0, 1}) {
      runSame(OpCode::GeluGrad, ints({approx}),
              {randomTensor(dt, {1023}, -1, 1), randomTensor(dt, {1023}, -6, 6)},
              cat("approximation ", approx), {std::nullopt, 0, true});
      runSame(OpCode::GeluGrad, ints({approx}),
              {randomTensor(dt, {1029}, -1, 1), randomTensor(dt, {1029}, -6, 6)},
              cat("approximation ", approx), {std::nullopt, dtypeSize(dt)});
    }
  }
  // Tails and special values.
  const std::vector<double> special = {0,     1e5,  -1e5,     30,       -30,
                                       1e-30, 3,    -3,       -0.7518,  NAN,
                                       20000, -9.5, INFINITY, -INFINITY};
  Tensor x = alloc(DType::F32, {int64_t(special.size())});
  for (size_t i = 0; i < special.size(); ++i)
    set(x, int64_t(i), special[i]);
  Tensor dy = randomTensor(DType::F32, x.shape(), 0.5, 1.5);
  for (int64_t approx : {0, 1})
    runSame(OpCode::GeluGrad, ints({approx}), {dy, x},
            cat("special values, approximation ", approx));
}

void testSiluMul() {
  for (DType dt : kFloats) {
    for (const Shape &s : kSizes) {
      runSame(OpCode::SiluMul, {},
              {randomTensor(dt, s, -8, 8), randomTensor(dt, s, -2, 2)});
      runCase(OpCode::SiluMulGrad, {},
              {randomTensor(dt, s, -1, 1), randomTensor(dt, s, -8, 8),
               randomTensor(dt, s, -2, 2)},
              {{dt, s}, {dt, s}});
    }
    // Misaligned (the scalar path).
    runSame(OpCode::SiluMul, {},
            {randomTensor(dt, {1029}, -8, 8), randomTensor(dt, {1029}, -2, 2)},
            "misaligned", {std::nullopt, dtypeSize(dt)});
  }
}

void testRotary() {
  // Tables [S, D], [1, S, 1, D] (sequence-first) and per-element.
  struct RotaryCase {
    Shape x, table;
  };
  const std::vector<RotaryCase> cases = {{{2, 4, 33, 64}, {33, 64}},
                                         {{2, 33, 4, 128}, {1, 33, 1, 128}},
                                         {{3, 5, 8}, {3, 5, 8}},
                                         {{7, 2}, {1, 2}}};
  for (DType dt : kFloats)
    for (const RotaryCase &c : cases)
      for (int64_t transposed : {0, 1})
        runSame(OpCode::Rotary, ints({transposed}),
                {randomTensor(dt, c.x, -2, 2), randomTensor(dt, c.table, -1, 1),
                 randomTensor(dt, c.table, -1, 1)},
                cat("transposed ", transposed));
}

/// Conv's output sizes for input sizes `in` and a window.
Shape convolved(const Shape &in, const Shape &kernel, const Shape &strides,
                const Shape &pads, const Shape &dilations) {
  Shape out;
  for (size_t i = 0; i < in.size(); ++i)
    out.push_back((in[i] + 2 * pads[i] - dilations[i] * (kernel[i] - 1) - 1) /
                      strides[i] +
                  1);
  return out;
}

void testConvolutions() {
  // Conv, its data gradient (ConvTranspose) and its weight gradient on
  // cuDNN, against the CPU kernels: 1-D (an audio front-end's), a ViT
  // patch embedding (stride = kernel), ResNet's 3x3 and strided 1x1,
  // dilation, groups and depthwise, 3-D; with and without a bias.
  struct ConvCase {
    Shape x; // [N, C, spatial...]
    int64_t features, groups;
    Shape kernel, strides, pads, dilations;
    bool bias;
  };
  const std::vector<ConvCase> cases = {
      {{2, 3, 17}, 8, 1, {3}, {2}, {1}, {1}, true},
      {{2, 3, 32, 32}, 16, 1, {8, 8}, {8, 8}, {0, 0}, {1, 1}, true},
      {{2, 16, 14, 14}, 32, 1, {3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
      {{2, 32, 14, 14}, 16, 1, {1, 1}, {2, 2}, {0, 0}, {1, 1}, false},
      {{1, 8, 13, 11}, 8, 2, {3, 3}, {1, 2}, {2, 1}, {2, 2}, true},
      {{2, 12, 9, 9}, 12, 12, {3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
      {{1, 4, 6, 7, 5}, 6, 2, {3, 3, 3}, {1, 2, 1}, {1, 1, 0}, {1, 1, 1}, true},
  };
  for (DType dt : kFloats)
    for (const ConvCase &c : cases) {
      const Shape spatial(c.x.begin() + 2, c.x.end());
      const Shape out =
          convolved(spatial, c.kernel, c.strides, c.pads, c.dilations);
      Shape w = {c.features, c.x[1] / c.groups}, y = {c.x[0], c.features};
      w.insert(w.end(), c.kernel.begin(), c.kernel.end());
      y.insert(y.end(), out.begin(), out.end());
      std::vector<int64_t> window = c.strides;
      for (const Shape *v : {&c.pads, &c.pads, &c.dilations})
        window.insert(window.end(), v->begin(), v->end());
      std::vector<int64_t> attrs = {c.groups};
      attrs.insert(attrs.end(), window.begin(), window.end());
      CaseOpts opts;
      opts.cudnn = true;
      // f32: sums of C K products in another order than the CPU's BLAS
      // (each result's error grows with the sum of its terms' sizes, not
      // its own); TF32 would be ~1e-3 off.
      if (dt == DType::F32)
        opts.tol = Tol{1e-5, 2e-5};
      const Tensor x = randomTensor(dt, c.x, -1, 1),
                   wt = randomTensor(dt, w, -1, 1),
                   dy = randomTensor(dt, y, -1, 1);
      std::vector<Tensor> convIns = {x, wt};
      std::vector<Tensor> transposeIns = {dy, wt};
      if (c.bias) {
        convIns.push_back(randomTensor(dt, {c.features}, -1, 1));
        transposeIns.push_back(randomTensor(dt, {c.x[1]}, -1, 1));
      }
      runCase(OpCode::Conv, ints(attrs), convIns, {{dt, y}}, "", opts);
      runCase(OpCode::ConvTranspose, ints(attrs), transposeIns, {{dt, c.x}}, "",
              opts);
      runCase(OpCode::ConvWeightGrad, ints(attrs), {x, dy}, {{dt, w}}, "",
              opts);
    }
}

void testPools() {
  // Max and average pooling and their gradients: ResNet's overlapping 3x3
  // stride-2 max, averages with and without the padding counted, 1-D and
  // 3-D windows.
  struct PoolCase {
    Shape x, kernel, strides, pads;
  };
  const std::vector<PoolCase> cases = {
      {{2, 4, 15, 15}, {3, 3}, {2, 2}, {1, 1}},
      {{2, 3, 8, 8}, {2, 2}, {2, 2}, {0, 0}},
      {{3, 2, 11}, {3}, {1}, {1}},
      {{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 1, 2}, {1, 1, 0}},
  };
  for (DType dt : kFloats)
    for (const PoolCase &c : cases)
      for (int64_t average : {0, 1})
        for (int64_t countPad : {0, 1}) {
          if (!average && countPad)
            continue;
          const Shape spatial(c.x.begin() + 2, c.x.end());
          const Shape ones(spatial.size(), 1);
          const Shape out =
              convolved(spatial, c.kernel, c.strides, c.pads, ones);
          Shape y = {c.x[0], c.x[1]};
          y.insert(y.end(), out.begin(), out.end());
          std::vector<int64_t> attrs = {average, countPad};
          for (const Shape *v : {&c.kernel, &c.strides, &c.pads, &c.pads})
            attrs.insert(attrs.end(), v->begin(), v->end());
          const Tensor x = randomTensor(dt, c.x, -2, 2);
          runCase(
              OpCode::Pool, ints(attrs), {x}, {{dt, y}},
              cat(average ? "average" : "max", countPad ? " count pad" : ""));
          runCase(
              OpCode::PoolGrad, ints(attrs), {x, randomTensor(dt, y, -1, 1)},
              {{dt, c.x}},
              cat(average ? "average" : "max", countPad ? " count pad" : ""));
        }
}

void testAttentionMerge() {
  // Ring attention's merge: statistics with -inf rows on one side or both,
  // both layouts of the statistics.
  struct MergeCase {
    Shape out;
    bool sequenceFirst;
  };
  const std::vector<MergeCase> cases = {
      {{2, 3, 17, 64}, false}, {{2, 17, 3, 64}, true}, {{5, 7}, false}};
  for (DType dt : kFloats)
    for (const MergeCase &c : cases) {
      Shape stats(c.out.begin(), c.out.end() - 1);
      const size_t r = c.out.size();
      if (c.sequenceFirst)
        std::swap(stats[r - 3], stats[r - 2]);
      Tensor sa = randomTensor(DType::F32, stats, -3, 3),
             sb = randomTensor(DType::F32, stats, -3, 3);
      for (int64_t i = 0; i < sa.numElements(); ++i) {
        if (i % 5 == 0)
          sa.as<float>()[i] = -INFINITY;
        if (i % 7 == 0)
          sb.as<float>()[i] = -INFINITY;
      }
      runCase(OpCode::AttentionMerge, ints({c.sequenceFirst ? 1 : 0}),
              {randomTensor(dt, c.out, -2, 2), sa,
               randomTensor(dt, c.out, -2, 2), sb},
              {{dt, c.out}, {DType::F32, stats}},
              c.sequenceFirst ? "sequence-first" : "");
    }
}

/// The CPU's softmax statistics of `scores` (SoftmaxCrossEntropy with
/// savedStats), the operand a CrossEntropyGrad with savedStats reads.
Tensor cpuSoftmaxStats(const Tensor &scores, const Tensor &labels,
                       bool hasIgnore, int64_t ignoreIndex) {
  Shape statsShape = labelShapeOf(scores.shape());
  statsShape.push_back(2);
  Tensor loss = alloc(DType::F32, {}), stats = alloc(DType::F32, statsShape);
  const Status st =
      runCpuKernel(OpCode::SoftmaxCrossEntropy,
                   ints({2, hasIgnore ? 1 : 0, hasIgnore ? ignoreIndex : 0, 1}),
                   {&scores, &labels}, {&loss, &stats});
  if (!st.isOk())
    std::fprintf(stderr, "softmax statistics: %s\n", st.message().c_str());
  return stats;
}

void testCrossEntropyGrad() {
  // {300, 50304}: rows of a GPT-2 vocabulary, several per block.
  const std::vector<Shape> shapes = {{37, 1000}, {6, 5000},    {3, 50304},
                                     {64, 50},   {9, 4097},    {4, 7, 3, 5},
                                     {5, 64},    {2, 3, 1000}, {300, 50304}};
  for (DType dt : {DType::F32, DType::BF16}) {
    for (DType it : kInts) {
      for (const Shape &s : shapes) {
        const int64_t c = s[1];
        const Shape ls = labelShapeOf(s);
        Tensor scores = randomTensor(dt, s, -4, 4);
        Tensor dloss = randomTensor(dt, ls, 0.5, 1.5);
        Tensor weight = randomTensor(dt, {c}, 0.5, 2);
        Tensor labels = randomLabels(it, ls, c);
        Tensor ignored = randomLabels(it, ls, c, 3, -100);
        Tensor ignored3 = randomLabels(it, ls, c, 2, 3);
        const std::vector<std::pair<DType, Shape>> out = {{dt, s}};
        runCase(OpCode::CrossEntropyGrad, ints({0, 0, 0}),
                {dloss, scores, labels}, out, "logits");
        runCase(OpCode::CrossEntropyGrad, ints({0, 0, 0}),
                {dloss, scores, labels, weight}, out, "logits, weight");
        runCase(OpCode::CrossEntropyGrad, ints({0, 1, -100}),
                {dloss, scores, ignored}, out, "logits, ignore_index -100");
        runCase(OpCode::CrossEntropyGrad, ints({0, 1, 3}),
                {dloss, scores, ignored3, weight}, out,
                "logits, weight, ignore_index 3");
        runCase(OpCode::CrossEntropyGrad, ints({1, 1, -100}),
                {dloss, randomTensor(dt, s, -6, 0), ignored, weight}, out,
                "log-probs, weight, ignore_index -100");
        // With the forward's softmax statistics: one pass over the scores.
        runCase(
            OpCode::CrossEntropyGrad, ints({0, 0, 0, 1}),
            {dloss, scores, labels, cpuSoftmaxStats(scores, labels, false, 0)},
            out, "logits, saved stats");
        runCase(OpCode::CrossEntropyGrad, ints({0, 1, 3, 1}),
                {dloss, scores, ignored3, weight,
                 cpuSoftmaxStats(scores, ignored3, true, 3)},
                out, "logits, weight, ignore_index 3, saved stats");
      }
    }
    // Mixed precision: an f32 per-element loss gradient, bf16 scores.
    if (dt == DType::BF16) {
      for (const Shape &s : {Shape{37, 1000}, Shape{3, 50304}, Shape{9, 4097}}) {
        const Shape ls = labelShapeOf(s);
        runCase(OpCode::CrossEntropyGrad, ints({0, 1, -100}),
                {randomTensor(DType::F32, ls, 0.5, 1.5),
                 randomTensor(dt, s, -4, 4),
                 randomLabels(DType::I64, ls, s[1], 3, -100)},
                {{dt, s}}, "f32 dloss, ignore_index -100");
      }
    }
    // Unaligned rows; -inf scores, a fully masked row and a NaN.
    Tensor scores = randomTensor(dt, {6, 1024}, -4, 4);
    for (int64_t i = 0; i < 1024; i += 5)
      set(scores, i, -INFINITY);
    for (int64_t i = 1024; i < 2048; ++i)
      set(scores, i, -INFINITY);
    set(scores, 3000, NAN);
    Tensor dloss = randomTensor(dt, {6}, 0.5, 1.5);
    Tensor labels = randomLabels(DType::I64, {6}, 1024);
    runCase(OpCode::CrossEntropyGrad, ints({0, 0, 0}), {dloss, scores, labels},
            {{dt, {6, 1024}}}, "masked, NaN");
    runCase(OpCode::CrossEntropyGrad, ints({0, 0, 0}), {dloss, scores, labels},
            {{dt, {6, 1024}}}, "masked, NaN", {std::nullopt, dtypeSize(dt)});
    runCase(OpCode::CrossEntropyGrad, ints({0, 0, 0, 1}),
            {dloss, scores, labels, cpuSoftmaxStats(scores, labels, false, 0)},
            {{dt, {6, 1024}}}, "masked, NaN, saved stats");
  }
  // A label out of range gives a NaN gradient row (the CPU: an error).
  for (const Shape &s : {Shape{3, 100}, Shape{3, 10}, Shape{3, 100, 2}}) {
    const std::string name = "cross_entropy_grad bad labels " + shapeToString(s);
    Tensor labels = alloc(DType::I64, labelShapeOf(s));
    const int64_t d = s.size() > 2 ? s[2] : 1;
    for (int64_t i = 0; i < labels.numElements(); ++i)
      set(labels, i, i / d == 0 ? 5.0 : (i / d == 1 ? 200.0 : -1.0));
    std::vector<Tensor> res;
    if (!runGpuOnly(name, OpCode::CrossEntropyGrad, ints({0, 0, 0}),
                    {randomTensor(DType::F32, labelShapeOf(s), 0.5, 1.5),
                     randomTensor(DType::F32, s), labels},
                    {{DType::F32, s}}, res))
      continue;
    const int64_t row = s[1] * d;
    std::string err = checkNaNs(res[0], 0, row, false);
    if (err.empty())
      err = checkNaNs(res[0], row, 3 * row, true);
    report(err.empty(), name, err);
  }
}

void testGatherGrad() {
  for (DType dt : {DType::F32, DType::BF16}) {
    const std::optional<Tol> tol =
        dt == DType::F32 ? std::optional<Tol>(Tol{1e-5, 1e-5}) : std::nullopt;
    for (DType it : kInts) {
      struct C {
        Shape data;
        int64_t axis;
        Tensor idx;
        std::string what;
      };
      Tensor same = alloc(it, {40});
      for (int64_t i = 0; i < 40; ++i)
        set(same, i, 7);
      const std::vector<C> cases = {
          {{50, 64}, 0, randomTensor(it, {3, 7}, -50, 49), "embedding"},
          {{50, 5}, 0, randomTensor(it, {3, 7}, -50, 49), "odd rows"},
          {{50, 64}, 0, same, "one repeated index"},
          {{4, 9, 6}, 1, randomTensor(it, {5}, -9, 8), "axis 1"},
          {{4, 9, 6}, -1, randomTensor(it, {2, 2}, -6, 5), "axis -1"},
          {{9, 6}, 0, scalar(it, 2), "scalar index"},
          {{5000, 32}, 0, randomTensor(it, {4, 512}, 0, 4999), "vocabulary"},
          {{20000, 256}, 0, randomTensor(it, {8, 1024}, -20000, 19999),
           "large table"},
          {{3, 2000, 8}, 1, randomTensor(it, {300}, -2000, 1999), "outer 3"},
          {{50, 64}, 0, alloc(it, {0}), "no indices"},
      };
      for (const C &c : cases) {
        const int64_t rank = int64_t(c.data.size());
        const int64_t axis = c.axis < 0 ? c.axis + rank : c.axis;
        Shape dyShape(c.data.begin(), c.data.begin() + axis);
        dyShape.insert(dyShape.end(), c.idx.shape().begin(),
                       c.idx.shape().end());
        dyShape.insert(dyShape.end(), c.data.begin() + axis + 1, c.data.end());
        runCase(OpCode::GatherGrad, ints({c.axis}),
                {randomTensor(dt, dyShape, -2, 2), c.idx}, {{dt, c.data}},
                c.what, {tol});
      }
      // 3000 indices into 2 rows: each row a sum of ~1500 values of +-2
      // in f32 (the CPU's in double), rounded once (about 45, whose bf16
      // ulp is 0.25).
      Tensor hot = randomTensor(it, {3000}, 0, 1);
      runCase(OpCode::GatherGrad, ints({0}),
              {randomTensor(dt, {3000, 64}, -2, 2), hot}, {{dt, {1000, 64}}},
              "3000 indices into 2 rows",
              {dt == DType::F32 ? Tol{1e-4, 1e-3} : Tol{2e-2, 0.5}});
      // Unaligned.
      runCase(OpCode::GatherGrad, ints({0}),
              {randomTensor(dt, {3, 7, 64}, -2, 2),
               randomTensor(it, {3, 7}, -50, 49)},
              {{dt, {50, 64}}}, "embedding", {tol, dtypeSize(dt)});
      // With accumulate (a tied output projection's gradient): copied, or
      // written over in place.
      for (bool inPlace : {false, true}) {
        CaseOpts opts{tol};
        opts.inPlace = inPlace;
        opts.inPlaceOperand = 2;
        runCase(OpCode::GatherGrad, ints({0}),
                {randomTensor(dt, {8, 1024, 256}, -2, 2),
                 randomTensor(it, {8, 1024}, -20000, 19999),
                 randomTensor(dt, {20000, 256}, -2, 2)},
                {{dt, {20000, 256}}}, "large table, accumulate", opts);
        runCase(OpCode::GatherGrad, ints({1}),
                {randomTensor(dt, {3, 300, 5}, -2, 2),
                 randomTensor(it, {300}, -2000, 1999),
                 randomTensor(dt, {3, 2000, 5}, -2, 2)},
                {{dt, {3, 2000, 5}}}, "outer 3, odd rows, accumulate", opts);
        runCase(OpCode::GatherGrad, ints({0}),
                {randomTensor(dt, {0, 64}, -2, 2), alloc(it, {0}),
                 randomTensor(dt, {50, 64}, -2, 2)},
                {{dt, {50, 64}}}, "no indices, accumulate", opts);
      }
    }
  }
}

void testOptimizers() {
  const std::vector<Shape> shapes = {{1}, {7}, {1000}, {4097}, {3, 5, 67}};
  // AdamW: exp_avg and exp_avg_sq bit for bit; the parameter too but for
  // the device's pow.
  CaseOpts adamOpts;
  adamOpts.resultTols = {Tol{1e-6, 0.0}, Tol{0.0, 0.0}, Tol{0.0, 0.0}};
  for (const Shape &s : shapes) {
    for (double step : {1.0, 5.0}) {
      for (double wd : {0.0, 0.01}) {
        for (double beta1 : {0.9, 0.3}) {
          const std::vector<Tensor> ins = {
              randomTensor(DType::F32, s, -1, 1),
              randomTensor(DType::F32, s, -1, 1),
              randomTensor(DType::F32, s, -0.1, 0.1),
              randomTensor(DType::F32, s, 0, 0.01),
              scalar(DType::F32, 1e-3),
              scalar(DType::F32, step),
              scalar(DType::F32, beta1 == 0.9 ? 1.0 : 0.37)};
          const std::vector<std::pair<DType, Shape>> outs(3, {DType::F32, s});
          const std::string what =
              cat("step ", step, " wd ", wd, " beta1 ", beta1);
          runCase(OpCode::AdamW, floats({beta1, 0.999, 1e-8, wd}), ins, outs,
                  what, adamOpts);
          if (s == Shape{4097}) {
            CaseOpts o = adamOpts;
            o.inPlace = true;
            runCase(OpCode::AdamW, floats({beta1, 0.999, 1e-8, wd}), ins,
                    outs, what, o);
            o = adamOpts;
            o.shift = 4;
            runCase(OpCode::AdamW, floats({beta1, 0.999, 1e-8, wd}), ins,
                    outs, what, o);
          }
        }
      }
    }
  }
  // Sgd: bit for bit.
  CaseOpts sgdOpts;
  sgdOpts.tol = Tol{0.0, 0.0};
  struct SgdCase {
    double momentum, dampening, wd, nesterov;
  };
  const std::vector<SgdCase> sgdCases = {
      {0.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 1e-4, 0.0}, {0.9, 0.0, 0.0, 0.0},
      {0.9, 0.1, 1e-4, 0.0}, {0.9, 0.0, 1e-4, 1.0}, {0.5, 0.0, 0.0, 1.0}};
  for (const Shape &s : shapes) {
    for (double step : {1.0, 5.0}) {
      for (const SgdCase &c : sgdCases) {
        const std::vector<Tensor> ins = {randomTensor(DType::F32, s, -1, 1),
                                         randomTensor(DType::F32, s, -1, 1),
                                         randomTensor(DType::F32, s, -1, 1),
                                         scalar(DType::F32, 0.01),
                                         scalar(DType::F32, step),
                                         scalar(DType::F32, 0.8)};
        const std::vector<std::pair<DType, Shape>> outs(2, {DType::F32, s});
        const InstrAttrs a =
            floats({c.momentum, c.dampening, c.wd, c.nesterov});
        const std::string what =
            cat("step ", step, " momentum ", c.momentum, " dampening ",
                c.dampening, " wd ", c.wd, " nesterov ", c.nesterov);
        runCase(OpCode::Sgd, a, ins, outs, what, sgdOpts);
        if (s == Shape{4097}) {
          CaseOpts o = sgdOpts;
          o.inPlace = true;
          runCase(OpCode::Sgd, a, ins, outs, what, o);
          o = sgdOpts;
          o.shift = 4;
          runCase(OpCode::Sgd, a, ins, outs, what, o);
        }
      }
    }
  }
  // An invalid step makes every result NaN (the CPU: an error).
  for (double step : {0.0, double(NAN), double(INFINITY)}) {
    const Shape s = {1000};
    std::vector<Tensor> res;
    const std::string an = cat("adamw step ", step, " gives NaN");
    if (runGpuOnly(an, OpCode::AdamW, floats({0.9, 0.999, 1e-8, 0.0}),
                   {randomTensor(DType::F32, s), randomTensor(DType::F32, s),
                    randomTensor(DType::F32, s), randomTensor(DType::F32, s, 0, 1),
                    scalar(DType::F32, 1e-3), scalar(DType::F32, step),
                    scalar(DType::F32, 1.0)},
                   {{DType::F32, s}, {DType::F32, s}, {DType::F32, s}}, res)) {
      std::string err;
      for (const Tensor &t : res)
        if (err.empty())
          err = checkNaNs(t, 0, t.numElements(), true);
      report(err.empty(), an, err);
    }
    const std::string sn = cat("sgd step ", step, " gives NaN");
    if (runGpuOnly(sn, OpCode::Sgd, floats({0.9, 0.0, 0.0, 0.0}),
                   {randomTensor(DType::F32, s), randomTensor(DType::F32, s),
                    randomTensor(DType::F32, s), scalar(DType::F32, 1e-3),
                    scalar(DType::F32, step), scalar(DType::F32, 1.0)},
                   {{DType::F32, s}, {DType::F32, s}}, res)) {
      std::string err;
      for (const Tensor &t : res)
        if (err.empty())
          err = checkNaNs(t, 0, t.numElements(), true);
      report(err.empty(), sn, err);
    }
  }
}

//===----------------------------------------------------------------------===//
// Multi-tensor (foreach) ops.
//===----------------------------------------------------------------------===//

/// How runGpu launches an op.
struct GpuRun {
  /// Per result, the operand whose buffer it is (in place), or -1.
  std::vector<int64_t> aliasOf;
  /// Captured into a CUDA graph, which is launched (twice unless in place).
  bool graph = false;
};

/// Runs `op` on the GPU as `how` says and downloads the results; false
/// (after reporting) on failure.
bool runGpu(const std::string &name, OpCode op, const InstrAttrs &attrs,
            const std::vector<Tensor> &ins,
            const std::vector<std::pair<DType, Shape>> &outs, const GpuRun &how,
            std::vector<Tensor> &results) {
  std::vector<DeviceBuffer> keep;
  std::vector<DeviceTensor> dIn(ins.size()), dOut(outs.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    if (!ins[i].isValid() || !toDevice(ins[i], keep, dIn[i])) {
      report(false, name, "device upload failed");
      return false;
    }
  }
  bool inPlace = false;
  for (size_t i = 0; i < outs.size(); ++i) {
    const int64_t a = i < how.aliasOf.size() ? how.aliasOf[i] : -1;
    if (a >= 0) {
      dOut[i] = DeviceTensor{outs[i].first, outs[i].second, dIn[a].data};
      inPlace = true;
    } else if (!deviceResult(outs[i].first, outs[i].second, keep, dOut[i])) {
      report(false, name, "device allocation failed");
      return false;
    }
  }
  cudaStream_t stream = nullptr;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaError_t err = cudaSuccess;
  // Eagerly, or captured in a graph that is then launched.
  auto launch = [&]() -> Status {
    if (!how.graph) {
      const Status st = cuda::launchKernel(op, attrs, dIn, dOut, stream);
      err = cudaStreamSynchronize(stream);
      return st;
    }
    err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess)
      return Status::ok();
    const Status st = cuda::launchKernel(op, attrs, dIn, dOut, stream);
    cudaGraph_t graph = nullptr;
    err = cudaStreamEndCapture(stream, &graph);
    cudaGraphExec_t exec = nullptr;
    if (st.isOk() && err == cudaSuccess)
      err = cudaGraphInstantiate(&exec, graph, 0);
    for (int i = 0; i < (inPlace ? 1 : 2) && st.isOk() && err == cudaSuccess;
         ++i)
      err = cudaGraphLaunch(exec, stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(stream);
    if (exec)
      cudaGraphExecDestroy(exec);
    if (graph)
      cudaGraphDestroy(graph);
    return st;
  };
  const Status st = launch();
  cudaStreamDestroy(stream);
  if (!st.isOk()) {
    report(false, name, "launchKernel failed: " + st.message());
    return false;
  }
  if (err != cudaSuccess) {
    report(false, name, cat("CUDA error: ", cudaGetErrorString(err)));
    stopIfContextBroken();
    return false;
  }
  results.clear();
  for (const DeviceTensor &d : dOut) {
    Tensor h;
    if (!toHost(d, h)) {
      report(false, name, "device download failed");
      return false;
    }
    results.push_back(std::move(h));
  }
  return true;
}

/// The CPU kernel's results; false (after reporting) on failure.
bool runCpu(const std::string &name, OpCode op, const InstrAttrs &attrs,
            const std::vector<Tensor> &ins,
            const std::vector<std::pair<DType, Shape>> &outs,
            std::vector<Tensor> &results) {
  results.clear();
  for (const auto &o : outs)
    results.push_back(alloc(o.first, o.second));
  std::vector<const Tensor *> inPtrs;
  for (const Tensor &t : ins)
    inPtrs.push_back(&t);
  std::vector<Tensor *> outPtrs;
  for (Tensor &t : results)
    outPtrs.push_back(&t);
  const Status st = runCpuKernel(op, attrs, inPtrs, outPtrs);
  if (!st.isOk())
    report(false, name, "CPU reference failed: " + st.message());
  return st.isOk();
}

/// Reports whether every result matches its reference (tols[i], or exact
/// when tols is short).
void reportMatch(const std::string &name, const std::vector<Tensor> &got,
                 const std::vector<Tensor> &want, const std::vector<Tol> &tols,
                 const std::string &against = "") {
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string diff =
        compare(got[i], want[i], i < tols.size() ? tols[i] : Tol{0.0, 0.0});
    if (!diff.empty())
      return report(false, name, cat("result ", i, against, ": ", diff));
  }
  report(true, name);
}

/// f32 copy of a floating tensor (exact for bf16 and f16).
Tensor widenToF32(const Tensor &t) {
  Tensor r = alloc(DType::F32, t.shape());
  for (int64_t i = 0; r.isValid() && i < t.numElements(); ++i)
    set(r, i, getF(t, i));
  return r;
}

/// The operands and result types of a ForeachAdamW over tensors of these
/// shapes and gradient types.
struct ForeachAdamWCase {
  size_t n = 0;
  std::vector<Tensor> ins;
  std::vector<std::pair<DType, Shape>> outs;
  /// The parameter within 1e-6 (the device's pow), the moments exactly.
  std::vector<Tol> tols;
  /// Results in place: param'_j, exp_avg'_j, exp_avg_sq'_j on param_j,
  /// exp_avg_j, exp_avg_sq_j.
  std::vector<int64_t> inPlace;
  std::string what;
};

ForeachAdamWCase foreachAdamWCase(const std::vector<Shape> &shapes,
                                  const std::vector<DType> &gradTypes,
                                  double step) {
  ForeachAdamWCase c;
  c.n = shapes.size();
  for (const Shape &s : shapes)
    c.ins.push_back(randomTensor(DType::F32, s, -1, 1));
  for (size_t j = 0; j < c.n; ++j)
    c.ins.push_back(randomTensor(gradTypes[j % gradTypes.size()], shapes[j],
                                 -1, 1));
  for (const Shape &s : shapes)
    c.ins.push_back(randomTensor(DType::F32, s, -0.1, 0.1));
  for (const Shape &s : shapes)
    c.ins.push_back(randomTensor(DType::F32, s, 0, 0.01));
  c.ins.push_back(scalar(DType::F32, 1e-3));
  c.ins.push_back(scalar(DType::F32, step));
  c.ins.push_back(scalar(DType::F32, 0.37));
  for (size_t k = 0; k < 3 * c.n; ++k) {
    c.outs.push_back({DType::F32, shapes[k % c.n]});
    c.tols.push_back(k < c.n ? Tol{1e-6, 0.0} : Tol{0.0, 0.0});
    const size_t role = k / c.n, j = k % c.n;
    c.inPlace.push_back(int64_t(role == 0 ? j : (role + 1) * c.n + j));
  }
  c.what = cat(c.n, " tensors, step ", step);
  return c;
}

/// Shapes of `count` tensors of 1 to `most` elements (every third a
/// multiple of 4).
std::vector<Shape> randomShapes(size_t count, int64_t most) {
  std::vector<Shape> shapes;
  for (size_t j = 0; j < count; ++j) {
    int64_t n = 1 + int64_t(gRng() % uint64_t(most));
    if (j % 3 == 0)
      n = (n + 3) / 4 * 4;
    shapes.push_back({n});
  }
  return shapes;
}

void testForeachAdamW() {
  const std::vector<Shape> shapes = {{1}, {7}, {1000}, {103, 997}, {3, 5, 67}};
  const std::vector<DType> grads = {DType::F32, DType::BF16, DType::F32,
                                    DType::BF16, DType::F16};
  for (double step : {1.0, 5.0}) {
    for (double wd : {0.0, 0.01}) {
      const InstrAttrs attrs = floats({0.9, 0.999, 1e-8, wd});
      ForeachAdamWCase c = foreachAdamWCase(shapes, grads, step);
      c.what += cat(" wd ", wd);
      CaseOpts o;
      o.resultTols = c.tols;
      runCase(OpCode::ForeachAdamW, attrs, c.ins, c.outs, c.what, o);
      o.shift = 4; // Unaligned: element by element.
      runCase(OpCode::ForeachAdamW, attrs, c.ins, c.outs, c.what, o);

      // Bit for bit against one AdamW launch per tensor (its gradient
      // widened to f32, which is exact).
      const std::string name =
          "foreach_adamw " + c.what + " against single-tensor adamw";
      std::vector<Tensor> all;
      if (!runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, c.outs, {}, all))
        continue;
      std::string err;
      for (size_t j = 0; j < c.n && err.empty(); ++j) {
        const Shape &s = shapes[j];
        std::vector<Tensor> one;
        if (!runGpu(name, OpCode::AdamW, attrs,
                    {c.ins[j], widenToF32(c.ins[c.n + j]), c.ins[2 * c.n + j],
                     c.ins[3 * c.n + j], c.ins[4 * c.n], c.ins[4 * c.n + 1],
                     c.ins[4 * c.n + 2]},
                    {{DType::F32, s}, {DType::F32, s}, {DType::F32, s}}, {},
                    one)) {
          err = "skip";
          break;
        }
        for (size_t r = 0; r < 3 && err.empty(); ++r) {
          const std::string diff =
              compare(all[r * c.n + j], one[r], Tol{0.0, 0.0});
          if (!diff.empty())
            err = cat("tensor ", j, " result ", r, ": ", diff);
        }
      }
      if (err != "skip")
        report(err.empty(), name, err);
    }
  }

  // With the new parameters' bf16 and f16 copies (persistent weight
  // copies): each copy is the cast of the update's own new value, bit for
  // bit, aligned and not.
  for (int shift : {0, 4}) {
    ForeachAdamWCase c = foreachAdamWCase(shapes, grads, 3.0);
    const InstrAttrs attrs = floats({0.9, 0.95, 1e-8, 0.1});
    std::vector<std::pair<DType, Shape>> outs = c.outs;
    for (size_t j = 0; j < c.n; ++j)
      outs.push_back({j % 2 ? DType::F16 : DType::BF16, shapes[j]});
    CaseOpts o;
    o.resultTols = c.tols; // (The copies: their type's tolerance.)
    o.shift = shift;
    const std::string what = cat(c.what, " with copies, shift ", shift);
    runCase(OpCode::ForeachAdamW, attrs, c.ins, outs, what, o);
    const std::string name = "foreach_adamw " + what + ": copies are casts";
    std::vector<Tensor> gpu;
    if (shift != 0 ||
        !runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, outs, {}, gpu))
      continue;
    std::string err;
    for (size_t j = 0; j < c.n && err.empty(); ++j) {
      auto cast = castOnCpu(gpu[j], outs[3 * c.n + j].first);
      err = cast ? compare(gpu[3 * c.n + j], *cast, Tol{0.0, 0.0})
                 : cast.status().message();
      if (!err.empty())
        err = cat("tensor ", j, ": ", err);
    }
    report(err.empty(), name, err);
    // The moments and parameters in place (the copies in buffers of their
    // own, as the executor places them), in a CUDA graph: the same bits.
    GpuRun inPlace;
    inPlace.aliasOf = c.inPlace;
    inPlace.aliasOf.resize(outs.size(), -1);
    inPlace.graph = true;
    const std::string placed = "foreach_adamw " + what + " (in place, graph)";
    std::vector<Tensor> again;
    if (runGpu(placed, OpCode::ForeachAdamW, attrs, c.ins, outs, inPlace,
               again))
      reportMatch(placed, again, gpu,
                  std::vector<Tol>(outs.size(), Tol{0.0, 0.0}));
  }

  // More tensors than one launch takes; in place; captured in a graph.
  const std::vector<Shape> many = randomShapes(75, 5000);
  ForeachAdamWCase c = foreachAdamWCase(
      many, {DType::F32, DType::BF16, DType::F16, DType::BF16}, 3.0);
  const InstrAttrs attrs = floats({0.9, 0.95, 1e-8, 0.1});
  CaseOpts o;
  o.resultTols = c.tols;
  runCase(OpCode::ForeachAdamW, attrs, c.ins, c.outs, c.what, o);
  std::vector<Tensor> cpu, gpu;
  if (runCpu("foreach_adamw " + c.what, OpCode::ForeachAdamW, attrs, c.ins,
             c.outs, cpu)) {
    GpuRun inPlace;
    inPlace.aliasOf = c.inPlace;
    std::string name = "foreach_adamw " + c.what + " (in place)";
    if (runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, c.outs, inPlace, gpu))
      reportMatch(name, gpu, cpu, c.tols);
    GpuRun graph;
    graph.graph = true;
    name = "foreach_adamw " + c.what + " (CUDA graph)";
    if (runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, c.outs, graph, gpu))
      reportMatch(name, gpu, cpu, c.tols);
    graph.aliasOf = c.inPlace;
    name = "foreach_adamw " + c.what + " (CUDA graph, in place)";
    if (runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, c.outs, graph, gpu))
      reportMatch(name, gpu, cpu, c.tols);
  }
  // Empty tensors among others.
  c = foreachAdamWCase({{0}, {5}, {2, 0}, {4096}}, {DType::BF16, DType::F32},
                       2.0);
  o.resultTols = c.tols;
  runCase(OpCode::ForeachAdamW, attrs, c.ins, c.outs, c.what + ", empty ones",
          o);

  // An invalid step makes every result NaN (the CPU: an error).
  for (double step : {0.0, double(NAN)}) {
    c = foreachAdamWCase({{1000}, {3}, {70}}, {DType::F32, DType::BF16}, step);
    const std::string name = cat("foreach_adamw step ", step, " gives NaN");
    if (!runGpu(name, OpCode::ForeachAdamW, attrs, c.ins, c.outs, {}, gpu))
      continue;
    std::string err;
    for (const Tensor &t : gpu)
      if (err.empty())
        err = checkNaNs(t, 0, t.numElements(), true);
    report(err.empty(), name, err);
  }
}

void testForeachSumSquare() {
  const std::vector<DType> types = {DType::F32, DType::BF16, DType::F16};
  const Tol tol{1e-6, 0.0};
  // Many tensors of mixed types, some empty, one larger than a block's
  // share and one larger than all blocks of a tensor take at once.
  std::vector<Shape> shapes = randomShapes(70, 20000);
  shapes[3] = {0};
  shapes[10] = {2, 0};
  shapes[11] = {1};
  shapes[40] = {103, 997};
  shapes[41] = {3000, 3001};
  std::vector<Tensor> ins;
  for (size_t j = 0; j < shapes.size(); ++j)
    ins.push_back(randomTensor(types[j % 3], shapes[j], -2, 2));
  const std::vector<std::pair<DType, Shape>> out = {
      {DType::F32, {int64_t(ins.size())}}};
  CaseOpts o;
  o.tol = tol;
  runCase(OpCode::ForeachSumSquare, {}, ins, out, "70 tensors, mixed", o);
  o.shift = 4;
  runCase(OpCode::ForeachSumSquare, {}, ins, out, "70 tensors, mixed", o);
  std::vector<Tensor> cpu, gpu;
  const std::string name = "foreach_sum_square 70 tensors (CUDA graph)";
  if (runCpu(name, OpCode::ForeachSumSquare, {}, ins, out, cpu)) {
    GpuRun graph;
    graph.graph = true;
    if (runGpu(name, OpCode::ForeachSumSquare, {}, ins, out, graph, gpu))
      reportMatch(name, gpu, cpu, {tol});
    // Deterministic: the same bits again.
    std::vector<Tensor> again;
    const std::string rerun = "foreach_sum_square 70 tensors twice";
    if (runGpu(rerun, OpCode::ForeachSumSquare, {}, ins, out, {}, again))
      reportMatch(rerun, again, gpu, {Tol{0.0, 0.0}});
  }
  // One block per tensor (no partial sums), one type.
  for (DType dt : types) {
    std::vector<Tensor> small;
    for (const Shape &s : randomShapes(40, 3000))
      small.push_back(randomTensor(dt, s, -2, 2));
    o.shift = 0;
    runCase(OpCode::ForeachSumSquare, {}, small, {{DType::F32, {40}}},
            "40 small tensors", o);
  }
  runCase(OpCode::ForeachSumSquare, {}, {alloc(DType::F32, {0})},
          {{DType::F32, {1}}}, "one empty tensor", {tol});
}

void testForeachCast() {
  const Tol exact{0.0, 0.0};
  std::vector<Shape> shapes = randomShapes(45, 5000);
  shapes[0] = {0};
  shapes[1] = {1};
  shapes[2] = {7};
  shapes[3] = {103, 997};
  shapes[4] = {3, 5, 67};
  const double specials[] = {NAN,     INFINITY,     -INFINITY,  0.0,
                             -0.0,    1.00390625,   1.01171875, 65519.0,
                             70000.0, 3.389e38,     1e-40,      -1e-45,
                             6e-8,    1.000732421875};
  for (DType from : {DType::F32, DType::BF16, DType::F16}) {
    std::vector<Tensor> ins;
    for (const Shape &s : shapes) {
      Tensor x = randomTensor(from, s, -400, 400);
      for (int64_t i = 0; i < x.numElements(); i += 7)
        set(x, i, specials[(i / 7) % 14]);
      ins.push_back(std::move(x));
    }
    for (DType to : {DType::F32, DType::BF16, DType::F16}) {
      std::vector<std::pair<DType, Shape>> outs;
      for (const Shape &s : shapes)
        outs.push_back({to, s});
      const std::string what = cat("45 tensors to ", dtypeName(to));
      runCase(OpCode::ForeachCast, {}, ins, outs, what, {exact});
      runCase(OpCode::ForeachCast, {}, ins, outs, what, {exact, 4});
    }
  }
  // Same-type copies of other types.
  for (DType dt : {DType::I64, DType::I8, DType::Bool}) {
    std::vector<Tensor> ins;
    std::vector<std::pair<DType, Shape>> outs;
    for (const Shape &s : shapes) {
      Tensor x = randomBits(dt == DType::Bool ? DType::U8 : dt, s);
      if (dt == DType::Bool) {
        Tensor b = alloc(DType::Bool, s);
        if (x.byteSize())
          std::memcpy(b.data(), x.data(), x.byteSize());
        x = std::move(b);
      }
      ins.push_back(std::move(x));
      outs.push_back({dt, s});
    }
    runCase(OpCode::ForeachCast, {}, ins, outs, "45 tensors, a copy", {exact});
  }
  // In place (bf16 -> f16 has one element size) and captured in a graph.
  std::vector<Tensor> ins, cpu, gpu;
  std::vector<std::pair<DType, Shape>> outs;
  for (size_t j = 0; j < 40; ++j) {
    ins.push_back(randomTensor(DType::BF16, shapes[j], -400, 400));
    outs.push_back({DType::F16, shapes[j]});
  }
  const std::string name = "foreach_cast 40 tensors bf16 to f16";
  if (runCpu(name, OpCode::ForeachCast, {}, ins, outs, cpu)) {
    GpuRun how;
    for (size_t j = 0; j < 40; ++j)
      how.aliasOf.push_back(int64_t(j));
    if (runGpu(name + " (in place)", OpCode::ForeachCast, {}, ins, outs, how,
               gpu))
      reportMatch(name + " (in place)", gpu, cpu, {});
    how.aliasOf.clear();
    how.graph = true;
    if (runGpu(name + " (CUDA graph)", OpCode::ForeachCast, {}, ins, outs, how,
               gpu))
      reportMatch(name + " (CUDA graph)", gpu, cpu, {});
  }
}

void testLosses() {
  const std::vector<Shape> shapes = {{37, 1000}, {64, 10},   {4, 7, 3, 5},
                                     {3, 50304}, {9, 4097},  {600, 100},
                                     {2, 0},     {5, 64, 1}, {0, 10}};
  for (OpCode op : {OpCode::SoftmaxCrossEntropy, OpCode::NllLoss}) {
    const bool sce = op == OpCode::SoftmaxCrossEntropy;
    for (DType dt : {DType::F32, DType::BF16}) {
      const std::optional<Tol> tol =
          dt == DType::F32 ? std::optional<Tol>(Tol{1e-5, 1e-5}) : std::nullopt;
      for (const Shape &s : shapes) {
        const int64_t c = s[1];
        const Shape ls = labelShapeOf(s);
        Tensor scores = sce ? randomTensor(dt, s, -4, 4)
                            : randomTensor(dt, s, -6, 0);
        Tensor weight = randomTensor(dt, {c}, 0.5, 2);
        // Without classes every label must be ignored.
        const int64_t every = c == 0 ? 1 : 3;
        Tensor labels = c == 0 ? randomLabels(DType::I64, ls, 1, 1, -100, 0)
                               : randomLabels(DType::I64, ls, c);
        Tensor ignored = randomLabels(DType::I32, ls, std::max<int64_t>(c, 1),
                                      every, -100, c == 0 ? 0 : 1);
        Tensor ignored3 = randomLabels(DType::I64, ls, std::max<int64_t>(c, 1),
                                       c == 0 ? 1 : 2, c == 0 ? -100 : 3,
                                       c == 0 ? 0 : 1);
        for (int64_t red : {0, 1, 2}) {
          const Shape lossShape = red == 0 ? ls : Shape{};
          std::vector<std::pair<DType, Shape>> outs = {{dt, lossShape}};
          if (sce)
            outs.push_back({dt, s});
          const std::string r = cat("reduction ", red);
          if (c > 0) {
            runCase(op, ints({red, 0, 0}), {scores, labels}, outs, r, {tol});
            runCase(op, ints({red, 0, 0}), {scores, labels, weight}, outs,
                    r + ", weight", {tol});
            if (sce) {
              runCase(op, ints({red, 0, 0}), {scores, labels},
                      {{dt, lossShape}}, r + ", no log_prob", {tol});
              // The softmax statistics for CrossEntropyGrad: an f32 sum of
              // exponentials against the CPU's double one.
              Shape statsShape = ls;
              statsShape.push_back(2);
              runCase(op, ints({red, 0, 0, 1}), {scores, labels},
                      {{DType::F32, lossShape}, {DType::F32, statsShape}},
                      r + ", saved stats", {Tol{1e-4, 1e-4}});
            }
          }
          if (sce && dt == DType::BF16)
            runCase(op, ints({red, 1, -100}), {scores, ignored},
                    {{DType::F32, lossShape}}, r + ", f32 loss", {tol});
          runCase(op, ints({red, 1, -100}), {scores, ignored}, outs,
                  r + ", ignore_index -100", {tol});
          runCase(op, ints({red, 1, c == 0 ? -100 : 3}),
                  {scores, ignored3, weight}, outs,
                  r + ", weight, ignore_index", {tol});
        }
      }
      // -inf scores, a fully masked row, a NaN; unaligned.
      Tensor scores = randomTensor(dt, {6, 1024}, -4, 4);
      for (int64_t i = 0; i < 1024; i += 5)
        set(scores, i, -INFINITY);
      for (int64_t i = 1024; i < 2048; ++i)
        set(scores, i, -INFINITY);
      set(scores, 3000, NAN);
      Tensor labels = randomLabels(DType::I64, {6}, 1024);
      set(labels, 0, 1); // Not a masked class.
      for (int64_t red : {0, 2}) {
        std::vector<std::pair<DType, Shape>> outs = {
            {dt, red == 0 ? Shape{6} : Shape{}}};
        if (sce)
          outs.push_back({dt, {6, 1024}});
        runCase(op, ints({red, 0, 0}), {scores, labels}, outs,
                cat("masked, NaN, reduction ", red), {tol});
        runCase(op, ints({red, 0, 0}), {scores, labels}, outs,
                cat("masked, NaN, reduction ", red), {tol, dtypeSize(dt)});
      }
    }
    // A label out of range makes its loss NaN (the CPU: an error).
    for (const Shape &s : {Shape{3, 100}, Shape{3, 10}}) {
      Tensor labels = alloc(DType::I64, {3});
      set(labels, 0, 5);
      set(labels, 1, 200);
      set(labels, 2, -1);
      for (int64_t red : {0, 1, 2}) {
        const std::string name = cat(opCodeMnemonic(op), " bad labels ",
                                     shapeToString(s), " reduction ", red);
        std::vector<Tensor> res;
        if (!runGpuOnly(name, op, ints({red, 0, 0}),
                        {randomTensor(DType::F32, s, -4, 0), labels},
                        {{DType::F32, red == 0 ? Shape{3} : Shape{}}}, res))
          continue;
        std::string err = red == 0 ? checkNaNs(res[0], 0, 1, false)
                                   : checkNaNs(res[0], 0, 1, true);
        if (err.empty() && red == 0)
          err = checkNaNs(res[0], 1, 3, true);
        report(err.empty(), name, err);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Errors and hasKernel.
//===----------------------------------------------------------------------===//

/// launchKernel must fail with a message starting with the mnemonic and,
/// when `sameAsCpu`, equal to the CPU's.
void expectError(const std::string &name, OpCode op, const InstrAttrs &attrs,
                 const std::vector<Tensor> &ins,
                 const std::vector<std::pair<DType, Shape>> &outs,
                 bool sameAsCpu) {
  std::vector<DeviceBuffer> keep;
  std::vector<DeviceTensor> dIn(ins.size()), dOut(outs.size());
  for (size_t i = 0; i < ins.size(); ++i)
    if (!toDevice(ins[i], keep, dIn[i]))
      return report(false, name, "device upload failed");
  for (size_t i = 0; i < outs.size(); ++i)
    if (!deviceResult(outs[i].first, outs[i].second, keep, dOut[i]))
      return report(false, name, "device allocation failed");
  const Status gpu = cuda::launchKernel(op, attrs, dIn, dOut, nullptr);
  const cudaError_t sync = cudaDeviceSynchronize();
  if (gpu.isOk())
    return report(false, name, "launchKernel succeeded");
  if (sync != cudaSuccess) {
    report(false, name, cat("CUDA error: ", cudaGetErrorString(sync)));
    stopIfContextBroken();
    return;
  }
  const std::string prefix = std::string(opCodeMnemonic(op)) + ": ";
  if (gpu.message().rfind(prefix, 0) != 0)
    return report(false, name, "message lacks the mnemonic: " + gpu.message());
  if (sameAsCpu) {
    std::vector<Tensor> cpuOut;
    for (const auto &o : outs)
      cpuOut.push_back(alloc(o.first, o.second));
    std::vector<const Tensor *> inPtrs;
    for (const Tensor &t : ins)
      inPtrs.push_back(&t);
    std::vector<Tensor *> outPtrs;
    for (Tensor &t : cpuOut)
      outPtrs.push_back(&t);
    const Status cpu = runCpuKernel(op, attrs, inPtrs, outPtrs);
    if (cpu.message() != gpu.message())
      return report(false, name,
                    "gpu '" + gpu.message() + "' vs cpu '" + cpu.message() +
                        "'");
  }
  report(true, name + " -> " + gpu.message());
}

void testErrors() {
  Tensor f = randomTensor(DType::F32, {4, 8});
  Tensor g = randomTensor(DType::F32, {8});
  expectError("add arity", OpCode::Add, {}, {f}, {{DType::F32, {4, 8}}}, true);
  expectError("add shapes", OpCode::Add, {}, {f, randomTensor(DType::F32, {3})},
              {{DType::F32, {4, 8}}}, true);
  expectError("add result shape", OpCode::Add, {}, {f, g},
              {{DType::F32, {4, 9}}}, true);
  expectError("add mixed types", OpCode::Add, {},
              {f, randomTensor(DType::F16, {8})}, {{DType::F32, {4, 8}}}, true);
  expectError("add f64", OpCode::Add, {},
              {randomTensor(DType::F64, {8}), randomTensor(DType::F64, {8})},
              {{DType::F64, {8}}}, false);
  expectError("div i32", OpCode::Div, {},
              {randomTensor(DType::I32, {8}, 1, 5),
               randomTensor(DType::I32, {8}, 1, 5)},
              {{DType::I32, {8}}}, false);
  expectError("gelu attrs", OpCode::Gelu, ints({2}), {f},
              {{DType::F32, {4, 8}}}, true);
  expectError("softmax axis", OpCode::Softmax, ints({5}), {f},
              {{DType::F32, {4, 8}}}, true);
  expectError(
      "layer_norm eps", OpCode::LayerNorm,
      [] {
        InstrAttrs a = ints({1});
        a.floats = {-1.0};
        return a;
      }(),
      {f, g}, {{DType::F32, {4, 8}}}, true);
  expectError("transpose perm", OpCode::Transpose, ints({0, 0}), {f},
              {{DType::F32, {4, 8}}}, true);
  expectError("slice range", OpCode::Slice, ints({3, 0, 1, 1}), {f},
              {{DType::F32, {2, 8}}}, true);
  expectError("gather indices type", OpCode::Gather, ints({0}),
              {f, randomTensor(DType::F32, {2})}, {{DType::F32, {2, 8}}}, true);
  expectError("reduce axes", OpCode::ReduceSum, ints({0, 1, 0}), {f},
              {{DType::F32, {4}}}, true);
  expectError("matmul", OpCode::MatMul, {},
              {f, randomTensor(DType::F32, {8, 2})}, {{DType::F32, {4, 2}}},
              false);
  expectError("nll_loss labels shape", OpCode::NllLoss, ints({0, 0, 0}),
              {f, randomTensor(DType::I64, {5}, 0, 7)}, {{DType::F32, {4}}},
              true);
  expectError("softmax_cross_entropy loss shape", OpCode::SoftmaxCrossEntropy,
              ints({1, 0, 0}), {f, randomTensor(DType::I64, {4}, 0, 7)},
              {{DType::F32, {4}}}, true);
  expectError("softmax_cross_entropy f64", OpCode::SoftmaxCrossEntropy,
              ints({0, 0, 0}),
              {randomTensor(DType::F64, {4, 8}),
               randomTensor(DType::I64, {4}, 0, 7)},
              {{DType::F64, {4}}}, false);
  expectError("layer_norm_grad scale", OpCode::LayerNormGrad,
              intsFloats({1}, {1e-5}), {f, f, randomTensor(DType::F32, {7})},
              {{DType::F32, {4, 8}}, {DType::F32, {7}}, {DType::F32, {7}}},
              true);
  expectError("rms_norm_grad arity", OpCode::RmsNormGrad,
              intsFloats({1}, {1e-5}), {f, f, g},
              {{DType::F32, {4, 8}}, {DType::F32, {8}}, {DType::F32, {8}}},
              true);
  expectError("gelu_grad shapes", OpCode::GeluGrad, ints({0}), {f, g},
              {{DType::F32, {4, 8}}}, true);
  expectError("cross_entropy_grad labels type", OpCode::CrossEntropyGrad,
              ints({0, 0, 0}),
              {randomTensor(DType::F32, {4}), f, randomTensor(DType::F32, {4})},
              {{DType::F32, {4, 8}}}, true);
  expectError("gather_grad dy shape", OpCode::GatherGrad, ints({0}),
              {f, randomTensor(DType::I64, {3}, 0, 3)}, {{DType::F32, {4, 8}}},
              true);
  expectError("adamw beta1", OpCode::AdamW, floats({1.0, 0.999, 1e-8, 0.0}),
              {g, g, g, g, scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("adamw bf16", OpCode::AdamW, floats({0.9, 0.999, 1e-8, 0.0}),
              {randomTensor(DType::BF16, {8}), g, g, g,
               scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("sgd nesterov", OpCode::Sgd, floats({0.0, 0.0, 0.0, 1.0}),
              {g, g, g, scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("foreach_adamw operand count", OpCode::ForeachAdamW,
              floats({0.9, 0.999, 1e-8, 0.0}),
              {g, g, g, g, g, scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("foreach_adamw result count", OpCode::ForeachAdamW,
              floats({0.9, 0.999, 1e-8, 0.0}),
              {g, g, g, g, scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("foreach_adamw grad f64", OpCode::ForeachAdamW,
              floats({0.9, 0.999, 1e-8, 0.0}),
              {g, randomTensor(DType::F64, {8}), g, g, scalar(DType::F32, 1e-3),
               scalar(DType::F32, 1), scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("foreach_adamw eps", OpCode::ForeachAdamW,
              floats({0.9, 0.999, -1.0, 0.0}),
              {g, g, g, g, scalar(DType::F32, 1e-3), scalar(DType::F32, 1),
               scalar(DType::F32, 1)},
              {{DType::F32, {8}}, {DType::F32, {8}}, {DType::F32, {8}}}, true);
  expectError("foreach_sum_square result shape", OpCode::ForeachSumSquare, {},
              {f, g}, {{DType::F32, {3}}}, true);
  expectError("foreach_sum_square no operands", OpCode::ForeachSumSquare, {},
              {}, {{DType::F32, {0}}}, true);
  expectError("foreach_sum_square f64", OpCode::ForeachSumSquare, {},
              {f, randomTensor(DType::F64, {8})}, {{DType::F32, {2}}}, false);
  expectError("foreach_cast result count", OpCode::ForeachCast, {}, {f, g},
              {{DType::BF16, {4, 8}}}, true);
  expectError("foreach_cast mixed operand types", OpCode::ForeachCast, {},
              {f, randomTensor(DType::BF16, {8})},
              {{DType::BF16, {4, 8}}, {DType::BF16, {8}}}, true);
  expectError("foreach_cast result shape", OpCode::ForeachCast, {}, {f, g},
              {{DType::BF16, {4, 8}}, {DType::BF16, {9}}}, true);
  expectError("foreach_cast f32 to i32", OpCode::ForeachCast, {}, {f, g},
              {{DType::I32, {4, 8}}, {DType::I32, {8}}}, false);

  // Overlap and null buffers.
  {
    std::vector<DeviceBuffer> keep;
    DeviceTensor x;
    if (toDevice(f, keep, x)) {
      DeviceTensor y{DType::F32, {8, 4}, x.data};
      const Status st = cuda::launchKernel(OpCode::Transpose, ints({1, 0}), {x},
                                           {y}, nullptr);
      report(!st.isOk() && st.message().rfind("transpose: ", 0) == 0,
             "transpose in place is an error", st.message());
      DeviceTensor n{DType::F32, {4, 8}, nullptr};
      const Status st2 =
          cuda::launchKernel(OpCode::Neg, OpAttrs(), {n}, {x}, nullptr);
      report(!st2.isOk() && st2.message() == "neg: operand 0 (f32[4,8]) has "
                                             "no buffer",
             "null operand is an error", st2.message());
    }
  }

  // A multi-tensor op works in place only tensor by tensor.
  {
    std::vector<DeviceBuffer> keep;
    DeviceTensor a, b;
    if (toDevice(g, keep, a) && toDevice(g, keep, b)) {
      DeviceTensor y0{DType::F32, {8}, b.data}, y1{DType::F32, {8}, a.data};
      const Status st = cuda::launchKernel(OpCode::ForeachCast, OpAttrs(),
                                           {a, b}, {y0, y1}, nullptr);
      report(!st.isOk() && st.message().rfind("foreach_cast: ", 0) == 0,
             "foreach_cast onto another tensor's operand is an error",
             st.message());
      DeviceTensor lr{DType::F32, {}, a.data}, one{DType::F32, {1}, a.data};
      DeviceTensor other;
      if (toDevice(g, keep, other)) {
        DeviceTensor m{DType::F32, {1}, other.data};
        // param'_0 written over lr (read by every tensor).
        const Status st2 = cuda::launchKernel(
            OpCode::ForeachAdamW, floats({0.9, 0.999, 1e-8, 0.0}),
            {one, m, m, m, lr, lr, lr},
            {one, DeviceTensor{DType::F32, {1}, b.data},
             DeviceTensor{DType::F32, {1}, static_cast<char *>(b.data) + 4}},
            nullptr);
        report(!st2.isOk() && st2.message().rfind("foreach_adamw: ", 0) == 0,
               "foreach_adamw result onto lr is an error", st2.message());
      }
    }
  }

  // hasKernel.
  struct H {
    OpCode op;
    std::vector<DType> types;
    bool want;
  };
  const std::vector<H> hs = {
      {OpCode::Add, {DType::F32, DType::F32}, true},
      {OpCode::Add, {DType::F64, DType::F64}, false},
      {OpCode::Div, {DType::I64, DType::I64}, false},
      {OpCode::Div, {DType::BF16, DType::BF16}, true},
      {OpCode::Not, {DType::Bool}, true},
      {OpCode::Exp, {DType::I32}, false},
      {OpCode::Cast, {DType::F32, DType::BF16}, true},
      {OpCode::Cast, {DType::F32, DType::U16}, false},
      {OpCode::LayerNorm, {DType::BF16, DType::BF16, DType::BF16}, true},
      {OpCode::Softmax, {DType::F64}, false},
      {OpCode::Transpose, {DType::F64}, true},
      {OpCode::Gather, {DType::F32, DType::I64}, true},
      {OpCode::Gather, {DType::F32, DType::F32}, false},
      {OpCode::MatMul, {DType::F32, DType::F32}, false},
      {OpCode::Gemm, {DType::F32, DType::F32}, false},
      {OpCode::AllReduce, {DType::F32}, false},
      {OpCode::AllGather, {DType::F32}, false},
      {OpCode::ReduceScatter, {DType::F32}, false},
      {OpCode::AllToAll, {DType::F32}, false},
      {OpCode::Broadcast, {DType::F32}, false},
      {OpCode::Send, {DType::F32}, false},
      {OpCode::Recv, {}, false},
      {OpCode::AxisIndex, {}, false},
      {OpCode::LocalShard, {DType::F32}, false},
      {OpCode::SoftmaxCrossEntropy, {DType::F32, DType::I64}, true},
      {OpCode::SoftmaxCrossEntropy, {DType::F64, DType::I64}, false},
      {OpCode::NllLoss, {DType::BF16, DType::I32, DType::BF16}, true},
      {OpCode::NllLoss, {DType::F32, DType::F32}, false},
      {OpCode::LayerNormGrad, {DType::BF16, DType::BF16, DType::BF16}, true},
      {OpCode::RmsNormGrad, {DType::F64, DType::F64, DType::F64}, false},
      {OpCode::GeluGrad, {DType::F16, DType::F16}, true},
      {OpCode::SiluMul, {DType::BF16, DType::BF16}, true},
      {OpCode::SiluMulGrad, {DType::F32, DType::F32, DType::F32}, true},
      {OpCode::SiluMul, {DType::BF16, DType::F32}, false},
      {OpCode::Rotary, {DType::BF16, DType::BF16, DType::BF16}, true},
      {OpCode::AttentionMerge,
       {DType::BF16, DType::F32, DType::BF16, DType::F32},
       true},
      {OpCode::AttentionMerge,
       {DType::BF16, DType::BF16, DType::BF16, DType::F32},
       false},
      {OpCode::CrossEntropyGrad, {DType::F32, DType::F32, DType::I64}, true},
      {OpCode::CrossEntropyGrad, {DType::F32, DType::F32, DType::F32}, false},
      {OpCode::CrossEntropyGrad, {DType::F32, DType::BF16, DType::I64}, true},
      {OpCode::CrossEntropyGrad,
       {DType::F32, DType::BF16, DType::I64, DType::BF16},
       false},
      {OpCode::CrossEntropyGrad, {DType::F32, DType::F64, DType::I64}, false},
      // The f32 softmax statistics after the labels (and the weight).
      {OpCode::CrossEntropyGrad,
       {DType::F32, DType::BF16, DType::I64, DType::F32},
       true},
      {OpCode::CrossEntropyGrad,
       {DType::BF16, DType::BF16, DType::I64, DType::BF16, DType::F32},
       true},
      {OpCode::CrossEntropyGrad,
       {DType::BF16, DType::BF16, DType::I64, DType::BF16, DType::BF16},
       false},
      {OpCode::LayerNormGrad, std::vector<DType>(4, DType::BF16), true},
      {OpCode::RmsNormGrad,
       {DType::F32, DType::F32, DType::F32, DType::BF16},
       false},
      {OpCode::GatherGrad, {DType::BF16, DType::I64}, true},
      {OpCode::GatherGrad, {DType::I64, DType::I64}, false},
      {OpCode::GatherGrad, {DType::BF16, DType::I64, DType::BF16}, true},
      {OpCode::GatherGrad, {DType::BF16, DType::I64, DType::F32}, false},
      {OpCode::AdamW, std::vector<DType>(7, DType::F32), true},
      {OpCode::AdamW,
       {DType::BF16, DType::BF16, DType::F32, DType::F32, DType::F32,
        DType::F32, DType::F32},
       false},
      {OpCode::Sgd, std::vector<DType>(6, DType::F32), true},
      {OpCode::Attention, {DType::BF16, DType::BF16, DType::BF16}, true},
      {OpCode::Attention, {DType::F16, DType::F16, DType::F16}, true},
      {OpCode::Attention, {DType::F32, DType::F32, DType::F32}, true},
      {OpCode::Attention, {DType::I32, DType::I32, DType::I32}, false},
      {OpCode::ReduceMax, {DType::Bool}, true},
      {OpCode::ReduceSum, {DType::Bool}, false},
      {OpCode::ForeachAdamW, std::vector<DType>(11, DType::F32), true},
      {OpCode::ForeachAdamW,
       {DType::F32, DType::F32, DType::BF16, DType::F16, DType::F32, DType::F32,
        DType::F32, DType::F32, DType::F32, DType::F32, DType::F32},
       true},
      {OpCode::ForeachAdamW,
       {DType::BF16, DType::F32, DType::F32, DType::F32, DType::F32, DType::F32,
        DType::F32},
       false},
      {OpCode::ForeachAdamW,
       {DType::F32, DType::F64, DType::F32, DType::F32, DType::F32, DType::F32,
        DType::F32},
       false},
      {OpCode::ForeachAdamW,
       {DType::F32, DType::BF16, DType::BF16, DType::F32, DType::F32,
        DType::F32, DType::F32},
       false},
      {OpCode::ForeachAdamW, std::vector<DType>(8, DType::F32), false},
      {OpCode::ForeachSumSquare, {DType::F32, DType::BF16, DType::F16}, true},
      {OpCode::ForeachSumSquare, {DType::F32, DType::F64}, false},
      {OpCode::ForeachSumSquare, {DType::I32}, false},
      {OpCode::ForeachSumSquare, {}, false},
      {OpCode::ForeachCast, {DType::F32, DType::BF16}, true},
      {OpCode::ForeachCast, {DType::BF16, DType::F32}, true},
      {OpCode::ForeachCast, {DType::F16, DType::BF16}, true},
      {OpCode::ForeachCast, {DType::I64, DType::I64}, true},
      {OpCode::ForeachCast, {DType::F32}, true},
      {OpCode::ForeachCast, {DType::F32, DType::I32}, false},
      {OpCode::ForeachCast, {DType::F64, DType::F32}, false},
      {OpCode::ForeachCast, {DType::U16, DType::U16}, false},
  };
  for (const H &h : hs) {
    std::string name = cat("hasKernel ", opCodeMnemonic(h.op));
    for (DType d : h.types)
      name += cat(" ", dtypeName(d));
    report(cuda::hasKernel(h.op, h.types) == h.want, name,
           cat("expected ", h.want));
  }
}

//===----------------------------------------------------------------------===//
// Fused elementwise programs (NVRTC) against the CPU's interpreter.
//===----------------------------------------------------------------------===//

/// A FusedElementwise program under construction (OpCodes.def's layout).
struct FusedProgramText {
  int inputs;
  int next;
  int64_t count = 0;
  std::vector<int64_t> steps;
  std::vector<double> floatList;
  explicit FusedProgramText(int n) : inputs(n), next(n) {}
  int step(OpCode op, DType dt, std::vector<int> args,
           std::vector<int64_t> attrInts = {},
           std::vector<double> attrFloats = {}) {
    steps.insert(steps.end(), {int64_t(op), int64_t(dt), int64_t(args.size())});
    steps.insert(steps.end(), args.begin(), args.end());
    steps.push_back(int64_t(attrInts.size()));
    steps.insert(steps.end(), attrInts.begin(), attrInts.end());
    steps.push_back(int64_t(attrFloats.size()));
    floatList.insert(floatList.end(), attrFloats.begin(), attrFloats.end());
    ++count;
    return next++;
  }
  int immediate(DType dt, double v) {
    steps.insert(steps.end(), {-1, int64_t(dt), 0, 0, 1});
    floatList.push_back(v);
    ++count;
    return next++;
  }
  InstrAttrs attrs(const std::vector<int> &results) const {
    InstrAttrs a;
    a.ints.push_back(count);
    a.ints.insert(a.ints.end(), steps.begin(), steps.end());
    a.ints.insert(a.ints.end(), results.begin(), results.end());
    a.floats = floatList;
    return a;
  }
};

void testFused() {
  if (!cuda::fusedKernelsAvailable())
    return report(false, "fused_elementwise", "NVRTC is not available");
  CaseOpts fused;
  fused.fused = true;
  // BatchNorm's normalization + residual + ReLU, with the centered value
  // as a second result, on a small and a ResNet-sized activation.
  for (DType dt : {DType::F32, DType::BF16, DType::F16})
    for (const Shape &x : {Shape{2, 3, 5, 7}, Shape{32, 256, 14, 14}}) {
      FusedProgramText p(5);
      const int c = p.step(OpCode::Sub, dt, {0, 1});
      const int m = p.step(OpCode::Mul, dt, {c, 2});
      const int a = p.step(OpCode::Add, dt, {m, 3});
      const int r = p.step(OpCode::Add, dt, {a, 4});
      const int y = p.step(OpCode::Relu, dt, {r});
      const Shape ch{1, x[1], 1, 1};
      runCase(OpCode::FusedElementwise, p.attrs({y, c}),
              {randomTensor(dt, x), randomTensor(dt, ch),
               randomTensor(dt, {x[1], 1, 1}), randomTensor(dt, ch),
               randomTensor(dt, x)},
              {{dt, x}, {dt, x}}, "batch norm", fused);
    }
  // The ReLU's gradient with immediates and a broadcast gradient.
  {
    FusedProgramText p(2);
    const int zero = p.immediate(DType::BF16, 0.0);
    const int pos = p.step(OpCode::Greater, DType::Bool, {0, zero});
    const int g = p.step(OpCode::Where, DType::BF16, {pos, 1, zero});
    const int third = p.immediate(DType::BF16, 1.0 / 3.0);
    const int y = p.step(OpCode::Mul, DType::BF16, {g, third});
    const Shape x{8, 64, 7, 7};
    runCase(OpCode::FusedElementwise, p.attrs({y, pos}),
            {randomTensor(DType::BF16, x),
             randomTensor(DType::BF16, {8, 64, 1, 1})},
            {{DType::BF16, x}, {DType::Bool, x}}, "relu gradient", fused);
  }
  // Masks, casts and attributes (gelu's form, clip's bounds, mod's sign).
  {
    FusedProgramText p(3);
    const int h = p.step(OpCode::Cast, DType::BF16, {0});
    const int b = p.step(OpCode::Cast, DType::BF16, {1});
    const int sum = p.step(OpCode::Add, DType::BF16, {h, b});
    const int g = p.step(OpCode::Gelu, DType::BF16, {sum}, {1});
    const int cl = p.step(OpCode::Clip, DType::BF16, {g}, {}, {-0.75, 1.5});
    const int less = p.step(OpCode::Less, DType::Bool, {h, b});
    const int both = p.step(OpCode::And, DType::Bool, {less, 2});
    const int none = p.step(OpCode::Not, DType::Bool, {both});
    const int nan = p.step(OpCode::IsNaN, DType::Bool, {cl});
    const int either = p.step(OpCode::Or, DType::Bool, {none, nan});
    const int pick = p.step(OpCode::Where, DType::BF16, {either, cl, sum});
    const int md = p.step(OpCode::Mod, DType::BF16, {pick, b}, {0});
    const int back = p.step(OpCode::Cast, DType::F32, {md});
    const int flag = p.step(OpCode::Cast, DType::Bool, {back});
    Tensor mask = alloc(DType::Bool, {3, 1});
    for (int64_t i = 0; i < 3; ++i)
      set(mask, i, i % 2 == 0);
    runCase(
        OpCode::FusedElementwise, p.attrs({back, flag, either}),
        {randomTensor(DType::F32, {3, 17}, -4, 4),
         randomTensor(DType::F32, {17}, -4, 4), mask},
        {{DType::F32, {3, 17}}, {DType::Bool, {3, 17}}, {DType::Bool, {3, 17}}},
        "masks and casts", fused);
  }
  // Every float function, on each float type, in programs of at most
  // kMaxFusedResults results. Each group: its functions, then whether they
  // take the second operand.
  const std::vector<std::pair<std::vector<OpCode>, bool>> functionGroups = {
      {{OpCode::Neg, OpCode::Abs, OpCode::Sign, OpCode::Sqrt, OpCode::Rsqrt,
        OpCode::Reciprocal, OpCode::Exp, OpCode::Log, OpCode::Tanh},
       false},
      {{OpCode::Erf, OpCode::Sigmoid, OpCode::Silu, OpCode::Sin, OpCode::Cos,
        OpCode::Floor, OpCode::Ceil, OpCode::Round},
       false},
      {{OpCode::Sub, OpCode::Div, OpCode::Pow, OpCode::Max, OpCode::Min},
       true}};
  for (DType dt : {DType::F32, DType::BF16, DType::F16})
    for (const auto &[functions, binary] : functionGroups) {
      FusedProgramText p(2);
      std::vector<int> results;
      for (OpCode op : functions)
        results.push_back(p.step(
            op, dt, binary ? std::vector<int>{0, 1} : std::vector<int>{0}));
      std::vector<std::pair<DType, Shape>> outs(results.size(), {dt, {5, 300}});
      runCase(OpCode::FusedElementwise, p.attrs(results),
              {randomTensor(dt, {5, 300}, 0.1, 4.0),
               randomTensor(dt, {5, 1}, 0.5, 2.0)},
              outs, "float functions", fused);
    }
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77; // ctest: skipped
  }
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    std::printf("device 0: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount);

  const std::vector<std::pair<const char *, std::function<void()>>> groups = {
      {"unary", testUnary},
      {"binary", testBinary},
      {"where", testWhere},
      {"cast", testCast},
      {"clip", testClip},
      {"norms", testNorms},
      {"softmax", testSoftmax},
      {"shape ops", testShapeOps},
      {"gathers", testGathers},
      {"blocks", testBlocks},
      {"reductions", testReductions},
      {"argmax/argmin", testArgReduce},
      {"topk", testTopK},
      {"expert_load", testExpertLoad},
      {"cumsum", testCumSum},
      {"range", testRange},
      {"fill_random", testFillRandom},
      {"norm grads", testNormGrads},
      {"gelu grad", testGeluGrad},
      {"silu_mul", testSiluMul},
      {"rotary", testRotary},
      {"attention merge", testAttentionMerge},
      {"convolutions (cuDNN)", testConvolutions},
      {"pools", testPools},
      {"dropout", testDropout},
      {"cross entropy grad", testCrossEntropyGrad},
      {"gather grad", testGatherGrad},
      {"optimizers", testOptimizers},
      {"foreach_adamw", testForeachAdamW},
      {"foreach_sum_square", testForeachSumSquare},
      {"foreach_cast", testForeachCast},
      {"losses", testLosses},
      {"fused elementwise (NVRTC)", testFused},
      {"errors", testErrors},
  };
  // Each line as it is printed (a run cut short by a timeout shows where),
  // and PARACC_GPU_TEST_GROUPS="name,..." runs only the groups whose names
  // contain one of them.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const char *only = std::getenv("PARACC_GPU_TEST_GROUPS");
  auto selected = [&](const char *name) {
    if (!only || !*only)
      return true;
    std::stringstream list(only);
    std::string part;
    while (std::getline(list, part, ','))
      if (!part.empty() && std::string(name).find(part) != std::string::npos)
        return true;
    return false;
  };
  for (const auto &g : groups) {
    if (!selected(g.first))
      continue;
    std::printf("=== %s\n", g.first);
    const int before = gFailed;
    const auto start = std::chrono::steady_clock::now();
    g.second();
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
      report(false, std::string(g.first) + " left a CUDA error",
             cudaGetErrorString(err));
    std::printf(
        "=== %s: %s (%.1f s)\n", g.first, gFailed == before ? "ok" : "FAILURES",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::printf("%d passed, %d failed\n", gPassed, gFailed);
  return gFailed == 0 ? 0 : 1;
}
