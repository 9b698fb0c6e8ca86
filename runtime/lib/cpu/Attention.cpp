//===- Attention.cpp - Scaled dot-product attention ------------*- C++ -*-===//
//
// The CPU attention kernel, flash style: per attention (batch index and
// head) and block of kRowBlock query rows, blocks of kKeyBlock keys stream
// through; the block's scores S = scale Q Kᵀ and O += P V are BLAS products
// and the softmax is online (a running max and sum per row), so no more
// than one block of scores exists at a time. Key blocks that no row of the
// query block sees (causal, sliding window) are never touched, and the
// additive mask is read through its broadcast strides, never expanded.
// Blocks of 256 queries by up to 4096 keys keep the products large enough
// for BLAS (at seq 2048 a block's keys are its whole causal prefix); the
// exponentials, most of the rest of the time, run eight at a time.
// f32, f16 and bf16 compute in f32 (operands widened once per attention),
// f64 in f64. Operands in either layout of AttentionGeometry.h. When the
// instruction saves its statistics, each row's log-sum-exp (running max
// plus the log of the running sum) is written as well.
//
//===----------------------------------------------------------------------===//

#include "Kernels/AttentionGeometry.h"
#include "cpu/BlasGemm.h"
#include "cpu/CpuKernels.h"
#include "cpu/VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace paracc::rt {

namespace {

constexpr int64_t kRowBlock = 256;
constexpr int64_t kKeyBlock = 4096;

template <DType D>
using ComputeOf = std::conditional_t<D == DType::F64, double, float>;

/// Reductions in kLanes independent lanes, so that the loops vectorize
/// without reassociating a float sum (the lanes add up at the end, in a
/// fixed order: the result does not depend on the data's alignment).
constexpr int64_t kLanes = 16;

template <typename C> C rowMaxOf(const C *s, int64_t n) {
  C lanes[kLanes];
  std::fill(lanes, lanes + kLanes, -std::numeric_limits<C>::infinity());
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes)
    for (int64_t l = 0; l < kLanes; ++l)
      lanes[l] = std::max(lanes[l], s[c + l]);
  for (; c < n; ++c)
    lanes[0] = std::max(lanes[0], s[c]);
  C mx = lanes[0];
  for (int64_t l = 1; l < kLanes; ++l)
    mx = std::max(mx, lanes[l]);
  return mx;
}

/// Copies rows [0, rows) of an attention's operand (`cols` features, rows
/// `stride` apart) into a contiguous [rows, cols] buffer of type C.
template <DType D, typename C>
void widenRows(const StorageT<D> *src, int64_t rows, int64_t cols,
               int64_t stride, std::vector<C> &dst) {
  dst.resize(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      dst[r * cols + c] = static_cast<C>(load<D>(src + r * stride + c));
}

template <DType D> void attentionTyped(const KernelArgs &args,
                                       const AttentionGeometry &g) {
  using S = StorageT<D>;
  using C = ComputeOf<D>;
  const Tensor &q = *args.in[0], &k = *args.in[1], &v = *args.in[2];
  const Tensor *mask = args.in.size() > 3 ? args.in[3] : nullptr;
  const S *qd = q.as<S>(), *kd = k.as<S>(), *vd = v.as<S>();
  S *yd = args.out[0]->as<S>();
  // Row i of attention b's log-sum-exp at statsd[b * sq + i], when saved.
  float *statsd = g.savedStats ? args.out[1]->as<float>() : nullptr;
  const int64_t sq = g.sq, d = g.d, dv = g.dv;
  const AttentionMaskStrides maskStrides =
      mask ? attentionMaskStrides(mask->shape(), g.scoreShape)
           : AttentionMaskStrides();
  const S *maskData = mask ? mask->as<S>() : nullptr;
  constexpr C kNegInf = -std::numeric_limits<C>::infinity();
  const int64_t rowBlocks = (sq + kRowBlock - 1) / kRowBlock;
  const int64_t tasks = g.batch * rowBlocks;

  // Task t: attention b = t / rowBlocks, query rows from i0 = (t % rowBlocks)
  // * kRowBlock; its operands widened into the thread's own buffers.
  auto runTasks = [&](int64_t first, int64_t step) {
    std::vector<C> qb, kb, vb;
    std::vector<C> scores(static_cast<size_t>(kRowBlock * kKeyBlock));
    std::vector<C> out(static_cast<size_t>(kRowBlock * dv));
    std::vector<C> rowMax(kRowBlock), rowSum(kRowBlock);
    for (int64_t t = first; t < tasks; t += step) {
      const int64_t b = t / rowBlocks, i0 = (t % rowBlocks) * kRowBlock;
      const int64_t rows = std::min(kRowBlock, sq - i0);
      // The keys any row of the block sees: the bounds grow with the row.
      const int64_t keyBegin = g.visibleKeys(i0).first;
      const int64_t keyEnd = g.visibleKeys(i0 + rows - 1).second;
      widenRows<D>(qd + g.base(b, sq, d) + i0 * g.rowStride(d), rows, d,
                   g.rowStride(d), qb);
      widenRows<D>(kd + g.kvBase(b, g.sk, d) + keyBegin * g.kvRowStride(d),
                   keyEnd - keyBegin, d, g.kvRowStride(d), kb);
      widenRows<D>(vd + g.kvBase(b, g.sk, dv) + keyBegin * g.kvRowStride(dv),
                   keyEnd - keyBegin, dv, g.kvRowStride(dv), vb);
      const S *maskB = maskData ? maskData + maskStrides.offset(b) : nullptr;
      std::fill(out.begin(), out.begin() + rows * dv, C(0));
      std::fill(rowMax.begin(), rowMax.end(), kNegInf);
      std::fill(rowSum.begin(), rowSum.end(), C(0));
      for (int64_t j0 = keyBegin; j0 < keyEnd; j0 += kKeyBlock) {
        const int64_t cols = std::min(kKeyBlock, keyEnd - j0);
        gemm2d<C>(false, true, rows, cols, d, g.scale, qb.data(), d,
                  kb.data() + (j0 - keyBegin) * d, d, 0.0, scores.data(),
                  kKeyBlock);
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t i = i0 + r;
          // The block's columns this row sees: [lo, hi).
          const auto [firstKey, lastKey] = g.visibleKeys(i);
          const int64_t lo = std::clamp<int64_t>(firstKey - j0, 0, cols);
          const int64_t hi = std::clamp<int64_t>(lastKey - j0, lo, cols);
          C *s = scores.data() + r * kKeyBlock;
          if (maskB) {
            const S *m = maskB + i * maskStrides.row + j0 * maskStrides.col;
            for (int64_t c = lo; c < hi; ++c)
              s[c] += static_cast<C>(load<D>(m + c * maskStrides.col));
          }
          const C newMax = std::max(rowMax[r], rowMaxOf(s + lo, hi - lo));
          std::fill(s, s + lo, C(0));
          std::fill(s + hi, s + cols, C(0));
          if (newMax == kNegInf) {
            // Nothing visible so far: no weight from this block either.
            std::fill(s + lo, s + hi, C(0));
            continue;
          }
          const C alpha = expNonPositive(rowMax[r] - newMax);
          const C sum = expAndSum(s + lo, hi - lo, newMax);
          rowSum[r] = rowSum[r] * alpha + sum;
          rowMax[r] = newMax;
          if (alpha != C(1))
            for (int64_t c = 0; c < dv; ++c)
              out[r * dv + c] *= alpha;
        }
        gemm2d<C>(false, false, rows, dv, cols, 1.0, scores.data(), kKeyBlock,
                  vb.data() + (j0 - keyBegin) * dv, dv, 1.0, out.data(), dv);
      }
      // A row with no visible key (every score -inf) yields zeros.
      S *yb = yd + g.base(b, sq, dv);
      for (int64_t r = 0; r < rows; ++r) {
        const C inv = rowSum[r] > 0 ? C(1) / rowSum[r] : C(0);
        S *y = yb + (i0 + r) * g.rowStride(dv);
        for (int64_t c = 0; c < dv; ++c)
          store<D>(y + c, ComputeT<D>(out[r * dv + c] * inv));
        if (statsd)
          statsd[b * sq + i0 + r] =
              rowSum[r] > 0 ? float(rowMax[r] + std::log(rowSum[r]))
                            : -std::numeric_limits<float>::infinity();
      }
    }
  };
  // The tasks over the cores (each task computed the same way whichever
  // thread runs it); inside a parallel region already, on this thread.
  const int64_t threads =
      detail::inParallelRegion
          ? 1
          : std::min<int64_t>(tasks, detail::productThreads());
  if (threads <= 1) {
    runTasks(0, 1);
    return;
  }
  detail::runInParallel(threads, [&](int64_t p) { runTasks(p, threads); });
}

} // namespace

AttentionMaskStrides attentionMaskStrides(const Shape &maskShape,
                                          const Shape &scoreShape) {
  // A dim of 1 (or a missing one) reads element 0 along that dim.
  const std::vector<int64_t> strides = broadcastStrides(maskShape, scoreShape);
  const int64_t r = static_cast<int64_t>(scoreShape.size());
  AttentionMaskStrides m;
  m.row = strides[r - 2];
  m.col = strides[r - 1];
  m.leadShape.assign(scoreShape.begin(), scoreShape.end() - 2);
  m.leadStrides.assign(strides.begin(), strides.end() - 2);
  return m;
}

int64_t AttentionMaskStrides::offset(int64_t b) const {
  int64_t off = 0;
  for (int64_t i = static_cast<int64_t>(leadShape.size()) - 1; i >= 0; --i) {
    off += (b % leadShape[i]) * leadStrides[i];
    b /= leadShape[i];
  }
  return off;
}

Status runAttentionKernel(const KernelArgs &args) {
  AttentionGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttention(args, g));
  PARACC_RETURN_IF_ERROR(readQueryStart(args, g));
  // (Without keys every row gets zeros and, when saved, -inf.)
  if (args.out[0]->numElements() == 0 && !g.savedStats)
    return Status::ok();
  return visitDTypeIn<TypeSet::Float>(args.in[0]->dtype(), [&](auto tag) {
    attentionTyped<decltype(tag)::value>(args, g);
    return Status::ok();
  });
}

Status runAttentionMergeKernel(const KernelArgs &args) {
  AttentionMergeGeometry g;
  PARACC_RETURN_IF_ERROR(checkAttentionMerge(args, g));
  const float *stats = args.in[1]->as<float>(),
              *partialStats = args.in[3]->as<float>();
  float *yStats = args.out[1]->as<float>();
  return visitDTypeIn<TypeSet::Float>(args.in[0]->dtype(), [&](auto tag) {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    const S *out = args.in[0]->as<S>(), *partial = args.in[2]->as<S>();
    S *y = args.out[0]->as<S>();
    for (int64_t r = 0; r < g.rows; ++r) {
      const int64_t s = g.statsIndex(r);
      const double a = stats[s], b = partialStats[s];
      const double top = std::max(a, b);
      double wa = 0, wb = 0, lse = -std::numeric_limits<double>::infinity();
      if (!std::isinf(top) || top > 0) {
        const double ea = std::exp(a - top), eb = std::exp(b - top);
        lse = top + std::log(ea + eb);
        wa = ea / (ea + eb);
        wb = eb / (ea + eb);
      }
      yStats[s] = float(lse);
      for (int64_t c = 0; c < g.dv; ++c) {
        const int64_t e = r * g.dv + c;
        store<D>(y + e, ComputeT<D>(wa * double(load<D>(out + e)) +
                                    wb * double(load<D>(partial + e))));
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt
