//===- AttentionMerge.cu - Ring attention's merge on the GPU ----*- C++ -*-===//
//
// The AttentionMerge instruction (OpCodes.def), with the semantics of the
// CPU kernel (cpu/Attention.cpp), in f32: one thread per element of the
// result, each reading its row's two log-sum-exps (the row's threads read
// the same two floats, from cache); the first thread of a row writes the
// merged statistic.
//
//===----------------------------------------------------------------------===//

#include "Kernels/AttentionGeometry.h"
#include "cuda/CudaKernelUtil.h"
#include "cuda/DeviceUtil.cuh"

#include <algorithm>

namespace paracc::rt::cuda {

namespace {

struct MergeParams {
  const void *out = nullptr, *partial = nullptr;
  const float *stats = nullptr, *partialStats = nullptr;
  void *y = nullptr;
  float *yStats = nullptr;
  int64_t rows = 0, dv = 0, heads = 1, sq = 1;
  bool sequenceFirst = false;
};

template <DType D>
__global__ void __launch_bounds__(256) attentionMergeKernel(MergeParams p) {
  using S = DevS<D>;
  const int64_t n = p.rows * p.dv;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = e / p.dv;
    int64_t s = r;
    if (p.sequenceFirst) {
      const int64_t h = r % p.heads, i = (r / p.heads) % p.sq,
                    l = r / (p.heads * p.sq);
      s = (l * p.heads + h) * p.sq + i;
    }
    const float a = p.stats[s], b = p.partialStats[s];
    const float top = fmaxf(a, b);
    float wa = 0.f, wb = 0.f, lse = -INFINITY;
    if (top != -INFINITY) {
      const float ea = expf(a - top), eb = expf(b - top);
      lse = top + logf(ea + eb);
      wa = ea / (ea + eb);
      wb = eb / (ea + eb);
    }
    if (e % p.dv == 0)
      p.yStats[s] = lse;
    const float v = wa * float(ldc<D>(static_cast<const S *>(p.out)[e])) +
                    wb * float(ldc<D>(static_cast<const S *>(p.partial)[e]));
    static_cast<S *>(p.y)[e] = stc<D>(DevC<D>(v));
  }
}

} // namespace

Status launchAttentionMerge(const KernelArgs &args, cudaStream_t stream) {
  AttentionMergeGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttentionMerge(args, g));
  MergeParams p;
  p.out = args.in[0]->data();
  p.stats = args.in[1]->as<float>();
  p.partial = args.in[2]->data();
  p.partialStats = args.in[3]->as<float>();
  p.y = args.out[0]->data();
  p.yStats = args.out[1]->as<float>();
  p.rows = g.rows;
  p.dv = g.dv;
  p.heads = g.heads;
  p.sq = g.sq;
  p.sequenceFirst = g.sequenceFirst;
  const int64_t n = g.rows * g.dv;
  if (n == 0)
    return Status::ok();
  const unsigned grid = unsigned(std::min<int64_t>(
      int64_t(1) << 20, std::max<int64_t>(1, (n + 255) / 256)));
  return visitGpuDType<TypeSet::Float>(
      args, args.in[0]->dtype(), [&](auto tag) -> Status {
        attentionMergeKernel<decltype(tag)::value><<<grid, 256, 0, stream>>>(p);
        return checkLaunch(args);
      });
}

} // namespace paracc::rt::cuda
