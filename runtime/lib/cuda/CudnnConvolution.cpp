//===- CudnnConvolution.cpp - Convolutions on cuDNN -----------------------===//
//
// See CudnnConvolution.h. One cuDNN frontend graph per (device, direction,
// element type, geometry, TF32 allowed), built when the step is planned and
// kept for the process (CUDA graphs captured from it stay valid). The
// instructions' operands are checked by the CPU kernels' checks
// (ConvolutionGeometry.h) first, so both backends reject the same ones.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudnnConvolution.h"

#include "Kernels/ConvolutionGeometry.h"
#include "cuda/CudaKernelUtil.h"

#ifdef PARACC_HAVE_CUDNN_FRONTEND
#include "cuda/CudnnLibrary.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#endif

namespace paracc::rt::cuda {

#ifndef PARACC_HAVE_CUDNN_FRONTEND

std::optional<size_t> convolutionWorkspaceBytes(
    OpCode, const OpAttrs &, const std::vector<DeviceTensor> &,
    const std::vector<DeviceTensor> &, const KernelOptions &) {
  return std::nullopt;
}

Status launchConvolution(OpCode op, const OpAttrs &,
                         const std::vector<DeviceTensor> &,
                         const std::vector<DeviceTensor> &, void *, size_t,
                         cudaStream_t, const KernelOptions &) {
  return errorf(opCodeMnemonic(op),
                ": built without cuDNN: convolutions run on the CPU");
}

#else

namespace {

/// The instruction's checked geometry (the CPU kernel's checks) and its
/// operands in the convolution's roles: `x` the convolution's input, `w`
/// its weight, `y` its result (for ConvTranspose, x is the result and y
/// the operand; for ConvWeightGrad, w is the result and y the operand dy).
struct ConvOperands {
  ConvGeometry g;
  DType dtype = DType::Invalid;
  const void *x = nullptr, *w = nullptr, *y = nullptr, *bias = nullptr;
  void *result = nullptr;
};

Status readOperands(OpCode op, const OpAttrs &attrs,
                    const std::vector<DeviceTensor> &inputs,
                    const std::vector<DeviceTensor> &outputs, ConvOperands &c) {
  const HostViews views(inputs, outputs);
  const KernelArgs args{op, attrs, views.in, views.out};
  switch (op) {
  case OpCode::Conv:
    PARACC_RETURN_IF_ERROR(checkConv(args, checkGpuDType, c.g));
    c.x = inputs[0].data;
    c.w = inputs[1].data;
    c.result = outputs[0].data;
    break;
  case OpCode::ConvTranspose:
    PARACC_RETURN_IF_ERROR(checkConvTranspose(args, checkGpuDType, c.g));
    c.y = inputs[0].data;
    c.w = inputs[1].data;
    c.result = outputs[0].data;
    break;
  case OpCode::ConvWeightGrad:
    PARACC_RETURN_IF_ERROR(checkConvWeightGrad(args, checkGpuDType, c.g));
    c.x = inputs[0].data;
    c.y = inputs[1].data;
    c.result = outputs[0].data;
    break;
  default:
    return errorf(opCodeMnemonic(op), ": not a convolution");
  }
  c.dtype = inputs[0].dtype;
  if (op != OpCode::ConvWeightGrad && inputs.size() > 2)
    c.bias = inputs[2].data;
  return Status::ok();
}

/// The bias's channels and the spatial elements per channel of the result
/// it is added to.
void biasFrame(OpCode op, const ConvGeometry &g, int64_t &channels,
               int64_t &inner) {
  if (op == OpCode::Conv) {
    channels = g.features;
    inner = g.outSize;
  } else {
    channels = g.channels;
    inner = g.inSize;
  }
}

} // namespace

namespace {

namespace fe = cudnn_frontend;

enum Uid : int64_t { kX = 1, kW, kY };

/// What makes two convolutions one plan.
struct PlanKey {
  int device;
  int op;
  int dtype;
  bool tf32;
  int64_t rank, batch, channels, features, groups;
  std::array<int64_t, ConvGeometry::kMaxRank> in, kernel, strides, padsBegin,
      padsEnd, dilations;
  bool operator<(const PlanKey &o) const {
    return std::tie(device, op, dtype, tf32, rank, batch, channels, features,
                    groups, in, kernel, strides, padsBegin, padsEnd,
                    dilations) <
           std::tie(o.device, o.op, o.dtype, o.tf32, o.rank, o.batch,
                    o.channels, o.features, o.groups, o.in, o.kernel, o.strides,
                    o.padsBegin, o.padsEnd, o.dilations);
  }
};

struct Plan {
  std::shared_ptr<fe::graph::Graph> graph; ///< Null: cuDNN does not run it.
  int64_t workspaceBytes = 0;
};

fe::DataType_t feType(DType t) {
  switch (t) {
  case DType::BF16:
    return fe::DataType_t::BFLOAT16;
  case DType::F16:
    return fe::DataType_t::HALF;
  default:
    return fe::DataType_t::FLOAT;
  }
}

/// Packed NC<spatial> dims and strides; one spatial dim becomes two (the
/// second of size 1: cuDNN wants at least 4-D tensors).
struct View {
  std::vector<int64_t> dims, strides;
};

View packed(int64_t n, int64_t c, const ConvGeometry &g,
            const std::array<int64_t, ConvGeometry::kMaxRank> &spatial) {
  View v;
  v.dims = {n, c};
  for (int64_t i = 0; i < g.rank; ++i)
    v.dims.push_back(spatial[i]);
  if (g.rank == 1)
    v.dims.push_back(1);
  v.strides.assign(v.dims.size(), 1);
  for (size_t i = v.dims.size() - 1; i > 0; --i)
    v.strides[i - 1] = v.strides[i] * v.dims[i];
  return v;
}

/// The window's per-dim values, a trailing `fill` for a 1-D convolution.
std::vector<int64_t>
window(const ConvGeometry &g,
       const std::array<int64_t, ConvGeometry::kMaxRank> &values,
       int64_t fill) {
  std::vector<int64_t> v(values.begin(), values.begin() + g.rank);
  if (g.rank == 1)
    v.push_back(fill);
  return v;
}

template <typename Attributes>
void setWindow(Attributes &a, const ConvGeometry &g) {
  a.set_pre_padding(window(g, g.padsBegin, 0))
      .set_post_padding(window(g, g.padsEnd, 0))
      .set_stride(window(g, g.strides, 1))
      .set_dilation(window(g, g.dilations, 1));
}

const char *directionName(OpCode op) {
  return op == OpCode::Conv            ? "forward"
         : op == OpCode::ConvTranspose ? "data gradient"
                                       : "weight gradient";
}

Plan buildPlan(OpCode op, const ConvOperands &c, bool tf32,
               cudnnHandle_t handle) {
  const ConvGeometry &g = c.g;
  auto graph = std::make_shared<fe::graph::Graph>();
  graph->set_io_data_type(feType(c.dtype))
      .set_intermediate_data_type(fe::DataType_t::FLOAT)
      .set_compute_data_type(fe::DataType_t::FLOAT);
  const View xView = packed(g.batch, g.channels, g, g.in);
  const View yView = packed(g.batch, g.features, g, g.out);
  const View wView = packed(g.features, g.channels / g.groups, g, g.kernel);
  auto tensor = [&](const char *name, int64_t uid, const View &v) {
    return graph->tensor(fe::graph::Tensor_attributes()
                             .set_name(name)
                             .set_uid(uid)
                             .set_dim(v.dims)
                             .set_stride(v.strides));
  };
  std::shared_ptr<fe::graph::Tensor_attributes> result;
  const View *resultView = nullptr;
  if (op == OpCode::Conv) {
    auto attrs = fe::graph::Conv_fprop_attributes().set_name("conv");
    setWindow(attrs, g);
    result = graph->conv_fprop(tensor("x", kX, xView), tensor("w", kW, wView),
                               attrs);
    result->set_uid(kY);
    resultView = &yView;
  } else if (op == OpCode::ConvTranspose) {
    auto attrs = fe::graph::Conv_dgrad_attributes().set_name("conv_dgrad");
    setWindow(attrs, g);
    result = graph->conv_dgrad(tensor("dy", kY, yView), tensor("w", kW, wView),
                               attrs);
    result->set_uid(kX);
    resultView = &xView;
  } else {
    auto attrs = fe::graph::Conv_wgrad_attributes().set_name("conv_wgrad");
    setWindow(attrs, g);
    result = graph->conv_wgrad(tensor("dy", kY, yView), tensor("x", kX, xView),
                               attrs);
    result->set_uid(kW);
    resultView = &wView;
  }
  result->set_output(true)
      .set_dim(resultView->dims)
      .set_stride(resultView->strides);
  graph->set_cuda_graph_retention(fe::CudaGraphRetention_t::NONE);
  // Results that do not depend on the engine's order of additions, and for
  // f32 without --tf32 no tensor-core engine (TF32 rounds the operands) nor
  // FFT or Winograd (less exact).
  std::vector<fe::NumericalNote_t> avoid = {
      fe::NumericalNote_t::NONDETERMINISTIC};
  if (c.dtype == DType::F32 && !tf32)
    avoid.insert(avoid.end(),
                 {fe::NumericalNote_t::TENSOR_CORE,
                  fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                  fe::NumericalNote_t::FFT, fe::NumericalNote_t::WINOGRAD});

  Plan plan;
  int64_t workspace = 0;
  const std::string failure = buildCudnnPlans(*graph, handle, workspace, avoid);
  if (failure.empty()) {
    plan.graph = graph;
    plan.workspaceBytes = workspace;
  }
  if (cudnnLogDecisions())
    std::fprintf(stderr,
                 "paracc: cuDNN convolution %s %s N=%lld C=%lld M=%lld "
                 "groups=%lld: %s\n",
                 directionName(op), dtypeName(c.dtype), (long long)g.batch,
                 (long long)g.channels, (long long)g.features,
                 (long long)g.groups, plan.graph ? "used" : failure.c_str());
  return plan;
}

/// The cached plan, built on first use when `mayBuild`; null when cuDNN
/// does not run these operands.
const Plan *planFor(OpCode op, const ConvOperands &c, bool tf32, bool mayBuild,
                    cudnnHandle_t &handle) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess)
    return nullptr;
  const ConvGeometry &g = c.g;
  const PlanKey key{device,   int(op),    int(c.dtype), tf32,      g.rank,
                    g.batch,  g.channels, g.features,   g.groups,  g.in,
                    g.kernel, g.strides,  g.padsBegin,  g.padsEnd, g.dilations};
  static std::mutex mutex;
  static std::map<PlanKey, Plan> plans;
  std::lock_guard<std::mutex> lock(mutex);
  handle = cudnnHandleFor(device);
  auto it = plans.find(key);
  if (it == plans.end()) {
    if (!mayBuild || !handle)
      return nullptr;
    Plan plan;
    try {
      plan = buildPlan(op, c, tf32, handle);
    } catch (const std::exception &e) {
      if (cudnnLogDecisions())
        std::fprintf(stderr, "paracc: cuDNN convolution not used: %s\n",
                     e.what());
      plan = Plan();
    }
    it = plans.emplace(key, std::move(plan)).first;
  }
  return it->second.graph ? &it->second : nullptr;
}

/// Whether cuDNN may take these operands at all, before a plan: the
/// library, a type its engines compute, no empty tensor.
bool eligible(const ConvOperands &c) {
  const ConvGeometry &g = c.g;
  if (c.dtype != DType::F32 && c.dtype != DType::BF16 && c.dtype != DType::F16)
    return false;
  if (g.batch == 0 || g.channels == 0 || g.features == 0 || g.outSize == 0 ||
      g.inSize == 0)
    return false;
  if (const char *k = std::getenv("PARACC_CONV_KERNEL");
      k && *k && std::strcmp(k, "cudnn") != 0)
    return false;
  return cudnnLoaded();
}

} // namespace

std::optional<size_t> convolutionWorkspaceBytes(
    OpCode op, const OpAttrs &attrs, const std::vector<DeviceTensor> &inputs,
    const std::vector<DeviceTensor> &outputs, const KernelOptions &options) {
  ConvOperands c;
  // A malformed instruction: the CPU kernel reports it, with the same
  // message.
  if (!readOperands(op, attrs, inputs, outputs, c).isOk() || !eligible(c))
    return std::nullopt;
  cudnnHandle_t handle = nullptr;
  const Plan *plan = planFor(op, c, options.allowTf32, true, handle);
  if (!plan)
    return std::nullopt;
  return size_t(plan->workspaceBytes);
}

Status launchConvolution(OpCode op, const OpAttrs &attrs,
                         const std::vector<DeviceTensor> &inputs,
                         const std::vector<DeviceTensor> &outputs,
                         void *workspace, size_t workspaceBytes,
                         cudaStream_t stream, const KernelOptions &options) {
  ConvOperands c;
  PARACC_RETURN_IF_ERROR(readOperands(op, attrs, inputs, outputs, c));
  const char *name = opCodeMnemonic(op);
  cudnnHandle_t handle = nullptr;
  const Plan *plan = eligible(c) ? planFor(op, c, options.allowTf32,
                                           !streamIsCapturing(stream), handle)
                                 : nullptr;
  if (!plan)
    return errorf(name, ": cuDNN has no plan for these operands "
                        "(convolutionWorkspaceBytes decides before launch)");
  if (size_t(plan->workspaceBytes) > workspaceBytes ||
      (plan->workspaceBytes > 0 && !workspace))
    return errorf(name, ": the workspace has ", workspaceBytes,
                  " bytes; cuDNN's convolution needs ", plan->workspaceBytes);
  std::unordered_map<int64_t, void *> pack;
  if (c.x)
    pack[kX] = const_cast<void *>(c.x);
  if (c.w)
    pack[kW] = const_cast<void *>(c.w);
  if (c.y)
    pack[kY] = const_cast<void *>(c.y);
  pack[op == OpCode::Conv            ? kY
       : op == OpCode::ConvTranspose ? kX
                                     : kW] = c.result;
  try {
    if (fe::detail::set_stream(handle, stream) != CUDNN_STATUS_SUCCESS)
      return errorf(name, ": cudnnSetStream failed");
    fe::error_t e = plan->graph->execute(handle, pack, workspace);
    if (e.is_bad())
      return errorf(name, ": cuDNN failed: ", e.get_message());
  } catch (const std::exception &e) {
    return errorf(name, ": cuDNN failed: ", e.what());
  }
  if (!c.bias)
    return Status::ok();
  int64_t channels = 0, inner = 0;
  biasFrame(op, c.g, channels, inner);
  return launchChannelBias(c.dtype, c.result, c.bias, c.g.batch, channels,
                           inner, stream);
}

#endif // PARACC_HAVE_CUDNN_FRONTEND

} // namespace paracc::rt::cuda
