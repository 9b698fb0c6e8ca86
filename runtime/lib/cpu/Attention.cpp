//===- Attention.cpp - Scaled dot-product attention ------------*- C++ -*-===//
//
// The CPU attention kernel, flash style: per attention (batch index and
// head) and block of kRowBlock query rows, blocks of kKeyBlock keys stream
// through; the block's scores S = scale Q Kᵀ and O += P V are BLAS products
// and the softmax is online (a running max and sum per row), so no more
// than one block of scores exists at a time. Key blocks that no row of the
// query block sees (causal, sliding window) are never touched, and the
// additive mask is read through its broadcast strides, never expanded.
// f32, f16 and bf16 compute in f32 (operands widened once per attention),
// f64 in f64. Operands in either layout of AttentionGeometry.h.
//
//===----------------------------------------------------------------------===//

#include "cpu/AttentionGeometry.h"
#include "cpu/BlasGemm.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace paracc::rt {

namespace {

constexpr int64_t kRowBlock = 256;
constexpr int64_t kKeyBlock = 256;

template <DType D>
using ComputeOf = std::conditional_t<D == DType::F64, double, float>;

/// e^x for x <= 0 (the shifted scores, -inf included) in f32, as a
/// polynomial the compiler vectorizes: x = n ln 2 + r with |r| <= ln 2 / 2,
/// e^r by its Taylor series to r^7 (relative error below 2e-7, about one
/// f32 ulp), times 2^n built in the exponent bits; 0 below -87 (e^-87 is
/// the smallest normal f32). std::exp, one call per score, took most of a
/// row block's time.
inline float expOf(float x) {
  const float y = std::max(x, -87.0f);
  // Round to nearest by adding 1.5 * 2^23 (plain SSE2, unlike nearbyint).
  const float n = (y * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  const float r = (y - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  float p = 1.98412698e-4f;
  p = p * r + 1.38888889e-3f;
  p = p * r + 8.33333333e-3f;
  p = p * r + 4.16666667e-2f;
  p = p * r + 1.66666667e-1f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return x < -87.0f ? 0.0f : p * scale;
}
inline double expOf(double x) { return std::exp(x); }

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
  const int64_t sq = g.sq, sk = g.sk, d = g.d, dv = g.dv;
  const AttentionMaskStrides maskStrides =
      mask ? attentionMaskStrides(mask->shape(), g.scoreShape)
           : AttentionMaskStrides();
  const S *maskData = mask ? mask->as<S>() : nullptr;
  constexpr C kNegInf = -std::numeric_limits<C>::infinity();

  std::vector<C> qb, kb, vb;
  std::vector<C> scores(static_cast<size_t>(kRowBlock * kKeyBlock));
  std::vector<C> out(static_cast<size_t>(kRowBlock * dv));
  std::vector<C> rowMax(kRowBlock), rowSum(kRowBlock);
  for (int64_t b = 0; b < g.batch; ++b) {
    widenRows<D>(qd + g.base(b, sq, d), sq, d, g.rowStride(d), qb);
    widenRows<D>(kd + g.base(b, sk, d), sk, d, g.rowStride(d), kb);
    widenRows<D>(vd + g.base(b, sk, dv), sk, dv, g.rowStride(dv), vb);
    const S *maskB = maskData ? maskData + maskStrides.offset(b) : nullptr;
    S *yb = yd + g.base(b, sq, dv);
    for (int64_t i0 = 0; i0 < sq; i0 += kRowBlock) {
      const int64_t rows = std::min(kRowBlock, sq - i0);
      // The keys any row of the block sees: the bounds grow with the row.
      const int64_t keyBegin = g.visibleKeys(i0).first;
      const int64_t keyEnd = g.visibleKeys(i0 + rows - 1).second;
      std::fill(out.begin(), out.begin() + rows * dv, C(0));
      std::fill(rowMax.begin(), rowMax.end(), kNegInf);
      std::fill(rowSum.begin(), rowSum.end(), C(0));
      for (int64_t j0 = keyBegin; j0 < keyEnd; j0 += kKeyBlock) {
        const int64_t cols = std::min(kKeyBlock, keyEnd - j0);
        gemm2d<C>(false, true, rows, cols, d, g.scale, qb.data() + i0 * d, d,
                  kb.data() + j0 * d, d, 0.0, scores.data(), kKeyBlock);
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t i = i0 + r;
          // The block's columns this row sees: [lo, hi).
          const auto [first, last] = g.visibleKeys(i);
          const int64_t lo = std::clamp<int64_t>(first - j0, 0, cols);
          const int64_t hi = std::clamp<int64_t>(last - j0, lo, cols);
          C *s = scores.data() + r * kKeyBlock;
          if (maskB) {
            const S *m = maskB + i * maskStrides.row + j0 * maskStrides.col;
            for (int64_t c = lo; c < hi; ++c)
              s[c] += static_cast<C>(load<D>(m + c * maskStrides.col));
          }
          C mx = kNegInf;
          for (int64_t c = lo; c < hi; ++c)
            mx = std::max(mx, s[c]);
          const C newMax = std::max(rowMax[r], mx);
          std::fill(s, s + lo, C(0));
          std::fill(s + hi, s + cols, C(0));
          if (newMax == kNegInf) {
            // Nothing visible so far: no weight from this block either.
            std::fill(s + lo, s + hi, C(0));
            continue;
          }
          const C alpha = expOf(rowMax[r] - newMax);
          C sum = 0;
          for (int64_t c = lo; c < hi; ++c) {
            s[c] = expOf(s[c] - newMax);
            sum += s[c];
          }
          rowSum[r] = rowSum[r] * alpha + sum;
          rowMax[r] = newMax;
          if (alpha != C(1))
            for (int64_t t = 0; t < dv; ++t)
              out[r * dv + t] *= alpha;
        }
        gemm2d<C>(false, false, rows, dv, cols, 1.0, scores.data(), kKeyBlock,
                  vb.data() + j0 * dv, dv, 1.0, out.data(), dv);
      }
      // A row with no visible key (every score -inf) yields zeros.
      for (int64_t r = 0; r < rows; ++r) {
        const C inv = rowSum[r] > 0 ? C(1) / rowSum[r] : C(0);
        S *y = yb + (i0 + r) * g.rowStride(dv);
        for (int64_t t = 0; t < dv; ++t)
          store<D>(y + t, ComputeT<D>(out[r * dv + t] * inv));
      }
    }
  }
}

} // namespace

AttentionMaskStrides attentionMaskStrides(const Shape &maskShape,
                                          const Shape &scoreShape) {
  // Right-aligned numpy broadcast: a dim of 1 (or a missing one) reads
  // element 0 along that dim of the scores.
  const int64_t r = static_cast<int64_t>(scoreShape.size());
  const int64_t mr = static_cast<int64_t>(maskShape.size());
  std::vector<int64_t> strides(static_cast<size_t>(r), 0);
  int64_t stride = 1;
  for (int64_t i = mr - 1; i >= 0; --i) {
    const int64_t dim = i + r - mr;
    if (maskShape[i] != 1)
      strides[dim] = stride;
    stride *= maskShape[i];
  }
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
  if (args.out[0]->numElements() == 0)
    return Status::ok();
  return visitDTypeIn<TypeSet::Float>(args.in[0]->dtype(), [&](auto tag) {
    attentionTyped<decltype(tag)::value>(args, g);
    return Status::ok();
  });
}

} // namespace paracc::rt
