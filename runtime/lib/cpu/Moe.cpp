//===- Moe.cpp - Mixture-of-experts kernels on the CPU ----------*- C++ -*-===//
//
// MoeExperts and MoeExpertsGrad: the (token, pick) slots grouped by expert,
// then per expert two products over its rows (BLAS), in f32 whatever the
// storage type. Each slot's weighted output is kept and the k of a token
// summed in pick order, so that the result does not depend on how the
// slots were grouped. ExpertLoad: the slots counted per expert.
//
//===----------------------------------------------------------------------===//

#include "Kernels/MoeChecks.h"
#include "cpu/BlasGemm.h"
#include "cpu/CpuKernels.h"

#include <cmath>
#include <vector>

namespace paracc::rt {

namespace {

float activate(int64_t kind, float x) {
  switch (kind) {
  case 1:
    return 0.5f * x * (1.f + std::erf(x * 0.70710678f));
  case 2: {
    const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.f + std::tanh(u));
  }
  case 3:
    return x > 0.f ? x : 0.f;
  default:
    return x / (1.f + std::exp(-x));
  }
}

float activateGrad(int64_t kind, float x) {
  switch (kind) {
  case 1:
    return 0.5f * (1.f + std::erf(x * 0.70710678f)) +
           x * std::exp(-0.5f * x * x) * 0.39894228f;
  case 2: {
    const float c = 0.7978845608f;
    const float t = std::tanh(c * (x + 0.044715f * x * x * x));
    return 0.5f * (1.f + t) +
           0.5f * x * (1.f - t * t) * c * (1.f + 3.f * 0.044715f * x * x);
  }
  case 3:
    return x > 0.f ? 1.f : 0.f;
  default: {
    const float s = 1.f / (1.f + std::exp(-x));
    return s * (1.f + x * (1.f - s));
  }
  }
}

/// An operand in f32.
template <DType D> std::vector<float> toFloat(const Tensor &t) {
  const auto *p = static_cast<const StorageT<D> *>(t.data());
  std::vector<float> out(t.numElements());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = float(load<D>(p + i));
  return out;
}

template <DType D> void fromFloat(const std::vector<float> &v, Tensor &t) {
  auto *p = static_cast<StorageT<D> *>(t.data());
  for (size_t i = 0; i < v.size(); ++i)
    store<D>(p + i, ComputeT<D>(v[i]));
}

/// One expert's rows: the slots (t k + j) routed to it, its input rows,
/// the first projection and the activation's result.
struct ExpertRows {
  std::vector<int64_t> slots;
  std::vector<float> x, h, a;
};

/// Groups the slots by expert and runs each expert's first projection and
/// activation.
void forwardRows(const MoeProblem &p, const int64_t *indices,
                 const std::vector<float> &x, const std::vector<float> &wIn,
                 std::vector<ExpertRows> &rows) {
  rows.assign(p.experts, ExpertRows());
  for (int64_t s = 0; s < p.tokens * p.k; ++s)
    rows[indices[s]].slots.push_back(s);
  const int64_t H = p.hidden, F = p.f, I = p.inner;
  for (int64_t e = 0; e < p.experts; ++e) {
    ExpertRows &r = rows[e];
    const int64_t n = r.slots.size();
    if (n == 0)
      continue;
    r.x.resize(n * H);
    for (int64_t i = 0; i < n; ++i)
      std::copy_n(x.data() + (r.slots[i] / p.k) * H, H, r.x.data() + i * H);
    r.h.resize(n * F);
    gemm2d<float>(false, true, n, F, H, 1.0, r.x.data(), H,
                  wIn.data() + e * F * H, H, 0.0, r.h.data(), F);
    r.a.resize(n * I);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < I; ++c) {
        const float g = r.h[i * F + c];
        r.a[i * I + c] = p.gated
                             ? activate(p.activation, g) * r.h[i * F + I + c]
                             : activate(p.activation, g);
      }
  }
}

/// One expert's second projection: o [n, H] = a [n, I] w_out[e]^T.
void expertOutput(const ExpertRows &r, const std::vector<float> &wOut,
                  int64_t e, int64_t H, int64_t I, std::vector<float> &o) {
  const int64_t n = r.slots.size();
  o.assign(n * H, 0.f);
  gemm2d<float>(false, true, n, H, I, 1.0, r.a.data(), I,
                wOut.data() + e * H * I, I, 0.0, o.data(), H);
}

/// Each token's k slot rows ([T k, H]) summed in pick order.
std::vector<float> sumPicks(const std::vector<float> &slotRows,
                            const MoeProblem &p) {
  const int64_t H = p.hidden;
  std::vector<float> y(p.tokens * H, 0.f);
  for (int64_t t = 0; t < p.tokens; ++t)
    for (int64_t j = 0; j < p.k; ++j)
      for (int64_t c = 0; c < H; ++c)
        y[t * H + c] += slotRows[(t * p.k + j) * H + c];
  return y;
}

/// What both directions start from: the indices checked, the operands in
/// f32, and each expert's rows through its first projection.
struct ExpertInputs {
  std::vector<float> x, w, wIn, wOut;
  std::vector<ExpertRows> rows;
};

template <DType D>
Status loadExperts(const KernelArgs &args, const MoeProblem &p,
                   ExpertInputs &in) {
  const auto *indices = static_cast<const int64_t *>(p.indices->data());
  PARACC_RETURN_IF_ERROR(checkMoeIndices(args, p, indices));
  in.x = toFloat<D>(*p.x);
  in.w = toFloat<D>(*p.weights);
  in.wIn = toFloat<D>(*p.wIn);
  in.wOut = toFloat<D>(*p.wOut);
  forwardRows(p, indices, in.x, in.wIn, in.rows);
  return Status::ok();
}

template <DType D>
Status moeForward(const KernelArgs &args, const MoeProblem &p) {
  ExpertInputs in;
  PARACC_RETURN_IF_ERROR(loadExperts<D>(args, p, in));
  const std::vector<float> &w = in.w, &wOut = in.wOut;
  const std::vector<ExpertRows> &rows = in.rows;
  const int64_t H = p.hidden, I = p.inner;
  std::vector<float> slotOut(p.tokens * p.k * H, 0.f), o;
  for (int64_t e = 0; e < p.experts; ++e) {
    const ExpertRows &r = rows[e];
    const int64_t n = r.slots.size();
    if (n == 0)
      continue;
    expertOutput(r, wOut, e, H, I, o);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < H; ++c)
        slotOut[r.slots[i] * H + c] = w[r.slots[i]] * o[i * H + c];
  }
  fromFloat<D>(sumPicks(slotOut, p), *args.out[0]);
  return Status::ok();
}

template <DType D>
Status moeBackward(const KernelArgs &args, const MoeProblem &p) {
  ExpertInputs in;
  PARACC_RETURN_IF_ERROR(loadExperts<D>(args, p, in));
  const std::vector<float> dy = toFloat<D>(*p.dy);
  const std::vector<float> &w = in.w, &wIn = in.wIn, &wOut = in.wOut;
  const std::vector<ExpertRows> &rows = in.rows;
  const int64_t H = p.hidden, F = p.f, I = p.inner;
  std::vector<float> slotDx(p.tokens * p.k * H, 0.f), dw(p.tokens * p.k, 0.f),
      dwIn(p.experts * F * H, 0.f), dwOut(p.experts * H * I, 0.f);
  std::vector<float> o, dO, dA, dH, dX;
  for (int64_t e = 0; e < p.experts; ++e) {
    const ExpertRows &r = rows[e];
    const int64_t n = r.slots.size();
    if (n == 0)
      continue;
    expertOutput(r, wOut, e, H, I, o);
    dO.assign(n * H, 0.f);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t s = r.slots[i], t = s / p.k;
      float dot = 0.f;
      for (int64_t c = 0; c < H; ++c) {
        dot += dy[t * H + c] * o[i * H + c];
        dO[i * H + c] = w[s] * dy[t * H + c];
      }
      dw[s] = dot;
    }
    // dW_out[e] = dO^T A; dA = dO W_out[e].
    gemm2d<float>(true, false, H, I, n, 1.0, dO.data(), H, r.a.data(), I, 0.0,
                  dwOut.data() + e * H * I, I);
    dA.assign(n * I, 0.f);
    gemm2d<float>(false, false, n, I, H, 1.0, dO.data(), H,
                  wOut.data() + e * H * I, I, 0.0, dA.data(), I);
    dH.assign(n * F, 0.f);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < I; ++c) {
        const float g = r.h[i * F + c], da = dA[i * I + c];
        if (p.gated) {
          const float u = r.h[i * F + I + c];
          dH[i * F + c] = da * u * activateGrad(p.activation, g);
          dH[i * F + I + c] = da * activate(p.activation, g);
        } else {
          dH[i * F + c] = da * activateGrad(p.activation, g);
        }
      }
    // dW_in[e] = dH^T X; the rows' dx = dH W_in[e].
    gemm2d<float>(true, false, F, H, n, 1.0, dH.data(), F, r.x.data(), H, 0.0,
                  dwIn.data() + e * F * H, H);
    dX.assign(n * H, 0.f);
    gemm2d<float>(false, false, n, H, F, 1.0, dH.data(), F,
                  wIn.data() + e * F * H, H, 0.0, dX.data(), H);
    for (int64_t i = 0; i < n; ++i)
      std::copy_n(dX.data() + i * H, H, slotDx.data() + r.slots[i] * H);
  }
  fromFloat<D>(sumPicks(slotDx, p), *args.out[0]);
  fromFloat<D>(dw, *args.out[1]);
  fromFloat<D>(dwIn, *args.out[2]);
  fromFloat<D>(dwOut, *args.out[3]);
  return Status::ok();
}

} // namespace

Status runMoeExpertsKernel(const KernelArgs &args) {
  MoeProblem p;
  PARACC_RETURN_IF_ERROR(checkMoe(args, checkCpuDType, p));
  return visitDTypeIn<TypeSet::Float>(p.x->dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    return args.op == OpCode::MoeExpertsGrad ? moeBackward<D>(args, p)
                                             : moeForward<D>(args, p);
  });
}

Status runExpertLoadKernel(const KernelArgs &args) {
  int64_t slots = 0, experts = 0;
  PARACC_RETURN_IF_ERROR(checkExpertLoad(args, slots, experts));
  const auto *indices = static_cast<const int64_t *>(args.in[0]->data());
  std::vector<int64_t> counts(size_t(experts), 0);
  for (int64_t s = 0; s < slots; ++s)
    if (indices[s] >= 0 && indices[s] < experts)
      ++counts[size_t(indices[s])];
  auto *out = static_cast<float *>(args.out[0]->data());
  for (int64_t e = 0; e < experts; ++e)
    out[e] = float(counts[size_t(e)]);
  return Status::ok();
}

} // namespace paracc::rt
