//===- MatMul.cpp - MatMul and Gemm kernels -------------------------------===//
//
// f32/f64 go to BLAS; f16/bf16 are widened to f32, multiplied by sgemm and
// rounded back; integer types use plain wrapping loops. A runtime built
// without BLAS (PARACC_CPU_BLAS=OFF, e.g. a GPU machine without
// libopenblas-dev) multiplies floats with plain loops too.
//
//===----------------------------------------------------------------------===//

#include "cpu/BlasGemm.h"
#include "cpu/CpuKernels.h"

#include <algorithm>
#include <climits>

namespace paracc::rt {

namespace {

constexpr int64_t kBlasMaxDim = INT_MAX;

/// Widens a f16/bf16 tensor to float.
template <DType D> std::vector<float> widen(const Tensor &t) {
  std::vector<float> out(static_cast<size_t>(t.numElements()));
  const auto *p = static_cast<const StorageT<D> *>(t.data());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = load<D>(p + i);
  return out;
}

template <DType D> void narrow(const std::vector<float> &v, Tensor &t) {
  auto *p = static_cast<StorageT<D> *>(t.data());
  for (size_t i = 0; i < v.size(); ++i)
    store<D>(p + i, v[i]);
}

/// The batch loop of MatMul over buffers of compute type T.
struct MatMulPlan {
  int64_t m, n, k;
  Shape batch, batchA, batchB;
};

template <typename T>
void batchedMatMul(const MatMulPlan &p, const T *a, const T *b, T *y) {
  const int64_t numBatch = shapeNumElements(p.batch);
  const int64_t numA = shapeNumElements(p.batchA);
  const int64_t numB = shapeNumElements(p.batchB);
  const int64_t sizeA = p.m * p.k, sizeB = p.k * p.n, sizeY = p.m * p.n;
  // b shared by every batch and a not broadcast: one taller product.
  if (numB == 1 && numA == numBatch &&
      (std::is_integral_v<T> || numBatch * p.m <= kBlasMaxDim)) {
    gemm2d<T>(false, false, numBatch * p.m, p.n, p.k, 1.0, a, p.k, b, p.n, 0.0,
              y, p.n);
    return;
  }
  const StridedPlan plan = makeBroadcastPlan(p.batch, {&p.batchA, &p.batchB});
  forEachRow<2>(
      plan, [&](int64_t o, const int64_t *off, int64_t len, const int64_t *st) {
        for (int64_t j = 0; j < len; ++j) {
          gemm2d<T>(false, false, p.m, p.n, p.k, 1.0,
                    a + (off[0] + j * st[0]) * sizeA, p.k,
                    b + (off[1] + j * st[1]) * sizeB, p.n, 0.0,
                    y + (o + j) * sizeY, p.n);
        }
      });
}

} // namespace

Status runMatMulKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 2, 1));
  const Tensor &a = *args.in[0];
  const Tensor &b = *args.in[1];
  Tensor &y = *args.out[0];
  PARACC_RETURN_IF_ERROR(args.checkDType(a, TypeSet::Numeric, "operand 0"));
  if (b.dtype() != a.dtype())
    return args.fail("operands must have the same element type, got ",
                     a.typeString(), " and ", b.typeString());
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, a.dtype(), "result"));
  if (a.rank() < 1 || b.rank() < 1)
    return args.fail("operands must have rank >= 1, got ", a.typeString(),
                     " and ", b.typeString());
  const bool aVec = a.rank() == 1, bVec = b.rank() == 1;
  MatMulPlan p;
  p.m = aVec ? 1 : a.dim(a.rank() - 2);
  p.k = a.dim(a.rank() - 1);
  const int64_t kb = bVec ? b.dim(0) : b.dim(b.rank() - 2);
  p.n = bVec ? 1 : b.dim(b.rank() - 1);
  if (p.k != kb)
    return args.fail("expected inner dimensions to match, got ", p.k, " and ",
                     kb);
  p.batchA.assign(a.shape().begin(), a.shape().end() - (aVec ? 1 : 2));
  p.batchB.assign(b.shape().begin(), b.shape().end() - (bVec ? 1 : 2));
  if (!broadcastShapes(p.batchA, p.batchB, p.batch))
    return args.fail("batch dimensions ", shapeToString(p.batchA), " and ",
                     shapeToString(p.batchB), " do not broadcast");
  Shape shape = p.batch;
  if (!aVec)
    shape.push_back(p.m);
  if (!bVec)
    shape.push_back(p.n);
  PARACC_RETURN_IF_ERROR(args.checkShape(y, shape, "result"));
  if (y.numElements() == 0)
    return Status::ok();
  if (p.m > kBlasMaxDim || p.n > kBlasMaxDim || p.k > kBlasMaxDim)
    return args.fail("matrix dimensions ", p.m, "x", p.k, "x", p.n,
                     " exceed the BLAS limit");

  return visitDTypeIn<TypeSet::Numeric>(a.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    if constexpr (D == DType::F16 || D == DType::BF16) {
      const std::vector<float> wa = widen<D>(a), wb = widen<D>(b);
      std::vector<float> wy(static_cast<size_t>(y.numElements()));
      batchedMatMul<float>(p, wa.data(), wb.data(), wy.data());
      narrow<D>(wy, y);
    } else {
      using S = StorageT<D>;
      batchedMatMul<S>(p, static_cast<const S *>(a.data()),
                       static_cast<const S *>(b.data()),
                       static_cast<S *>(y.data()));
    }
    return Status::ok();
  });
}

namespace {

/// Fills y[M,N] with c broadcast to it.
template <typename T, typename Load>
void broadcastInto(T *y, const Shape &yShape, const Tensor &c, Load load) {
  const StridedPlan plan = makeBroadcastPlan(yShape, {&c.shape()});
  forEachRow<1>(
      plan, [&](int64_t o, const int64_t *off, int64_t len, const int64_t *st) {
        for (int64_t j = 0; j < len; ++j)
          y[o + j] = load(off[0] + j * st[0]);
      });
}

} // namespace

Status runGemmKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(2, 3, 1));
  const Tensor &a = *args.in[0];
  const Tensor &b = *args.in[1];
  const Tensor *c = args.in.size() > 2 ? args.in[2] : nullptr;
  Tensor &y = *args.out[0];
  const GemmAttrs &attrs = args.attrsAs<GemmAttrs>();
  const bool transA = attrs.transA, transB = attrs.transB;
  const double alpha = attrs.alpha, beta = attrs.beta;
  PARACC_RETURN_IF_ERROR(args.checkDType(a, TypeSet::Numeric, "operand 0"));
  if (b.dtype() != a.dtype() || (c && c->dtype() != a.dtype()))
    return args.fail("operands must have the same element type");
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(y, a.dtype(), "result"));
  if (a.rank() != 2 || b.rank() != 2)
    return args.fail("operands must be 2-D, got ", a.typeString(), " and ",
                     b.typeString());
  const int64_t m = transA ? a.dim(1) : a.dim(0);
  const int64_t k = transA ? a.dim(0) : a.dim(1);
  const int64_t kb = transB ? b.dim(1) : b.dim(0);
  const int64_t n = transB ? b.dim(0) : b.dim(1);
  if (k != kb)
    return args.fail("expected inner dimensions to match, got ", k, " and ",
                     kb);
  const Shape shape = {m, n};
  PARACC_RETURN_IF_ERROR(args.checkShape(y, shape, "result"));
  if (c && !broadcastsTo(c->shape(), shape))
    return args.fail("operand 2 ", c->typeString(), " does not broadcast to ",
                     shapeToString(shape));
  if (y.numElements() == 0)
    return Status::ok();
  if (m > kBlasMaxDim || n > kBlasMaxDim || k > kBlasMaxDim)
    return args.fail("matrix dimensions ", m, "x", k, "x", n,
                     " exceed the BLAS limit");
  const int64_t lda = std::max<int64_t>(1, a.dim(1));
  const int64_t ldb = std::max<int64_t>(1, b.dim(1));
  const double effBeta = c ? beta : 0.0;

  return visitDTypeIn<TypeSet::Numeric>(a.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    if constexpr (kIsFloat<D>) {
      using T = std::conditional_t<D == DType::F64, double, float>;
      std::vector<T> wa, wb, wy;
      const T *pa, *pb;
      T *py;
      if constexpr (D == DType::F16 || D == DType::BF16) {
        wa = widen<D>(a);
        wb = widen<D>(b);
        wy.resize(static_cast<size_t>(y.numElements()));
        pa = wa.data();
        pb = wb.data();
        py = wy.data();
      } else {
        pa = static_cast<const T *>(a.data());
        pb = static_cast<const T *>(b.data());
        py = static_cast<T *>(y.data());
      }
      if (c && effBeta != 0.0) {
        const S *pc = static_cast<const S *>(c->data());
        broadcastInto(py, shape, *c, [&](int64_t i) {
          return static_cast<T>(load<D>(pc + i));
        });
      }
      gemm2d<T>(transA, transB, m, n, k, alpha, pa, lda, pb, ldb,
                c && effBeta != 0.0 ? effBeta : 0.0, py, n);
      if constexpr (D == DType::F16 || D == DType::BF16)
        narrow<D>(wy, y);
    } else {
      S *py = static_cast<S *>(y.data());
      gemm2d<S>(transA, transB, m, n, k, 1.0, static_cast<const S *>(a.data()),
                lda, static_cast<const S *>(b.data()), ldb, 0.0, py, n);
      std::vector<S> cb;
      if (c) {
        cb.resize(static_cast<size_t>(y.numElements()));
        const S *pc = static_cast<const S *>(c->data());
        broadcastInto(cb.data(), shape, *c, [&](int64_t i) { return pc[i]; });
      }
      const bool exact = alpha == 1.0 && (!c || beta == 1.0 || beta == 0.0);
      for (int64_t i = 0; i < y.numElements(); ++i) {
        if (exact) {
          if (c && beta == 1.0)
            py[i] = wrapAdd(py[i], cb[i]);
        } else {
          const double v = alpha * static_cast<double>(py[i]) +
                           (c ? beta * static_cast<double>(cb[i]) : 0.0);
          py[i] = saturatingCast<S>(v);
        }
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt
