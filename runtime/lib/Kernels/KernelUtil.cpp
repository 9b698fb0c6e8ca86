//===- KernelUtil.cpp - Shared helpers of the CPU kernels -----------------===//
//
// Operand validation, broadcasting plans and strided copies.
//
//===----------------------------------------------------------------------===//

#include "Kernels/KernelUtil.h"

#include <algorithm>

namespace paracc::rt {

//===----------------------------------------------------------------------===//
// Element type sets.
//===----------------------------------------------------------------------===//

bool dtypeInSet(DType d, TypeSet set) {
  switch (set) {
  case TypeSet::Float:
    return isFloatDType(d);
  case TypeSet::Int:
    return isIntegerDType(d);
  case TypeSet::Signed:
    return isFloatDType(d) || d == DType::I8 || d == DType::I16 ||
           d == DType::I32 || d == DType::I64;
  case TypeSet::Numeric:
    return isFloatDType(d) || isIntegerDType(d);
  case TypeSet::All:
    return isFloatDType(d) || isIntegerDType(d) || d == DType::Bool;
  case TypeSet::Bool:
    return d == DType::Bool;
  case TypeSet::Index:
    return d == DType::I32 || d == DType::I64;
  }
  return false;
}

const char *typeSetName(TypeSet set) {
  switch (set) {
  case TypeSet::Float:
    return "a floating-point type";
  case TypeSet::Int:
    return "an integer type";
  case TypeSet::Signed:
    return "a floating-point or signed integer type";
  case TypeSet::Numeric:
    return "a numeric type";
  case TypeSet::All:
    return "a numeric or bool type";
  case TypeSet::Bool:
    return "bool";
  case TypeSet::Index:
    return "i32 or i64";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// KernelArgs.
//===----------------------------------------------------------------------===//

Status KernelArgs::checkArity(size_t minIn, size_t maxIn, size_t nOut) const {
  return checkArity(minIn, maxIn, nOut, nOut);
}

Status KernelArgs::checkArity(size_t minIn, size_t maxIn, size_t minOut,
                              size_t maxOut) const {
  if (in.size() < minIn || in.size() > maxIn) {
    if (minIn == maxIn)
      return fail("expected ", minIn, " operand", minIn == 1 ? "" : "s",
                  ", got ", in.size());
    if (maxIn == SIZE_MAX)
      return fail("expected at least ", minIn, " operands, got ", in.size());
    return fail("expected ", minIn, " to ", maxIn, " operands, got ",
                in.size());
  }
  if (out.size() < minOut || out.size() > maxOut) {
    if (minOut == maxOut)
      return fail("expected ", minOut, " result", minOut == 1 ? "" : "s",
                  ", got ", out.size());
    if (maxOut == SIZE_MAX)
      return fail("expected at least ", minOut, " results, got ", out.size());
    return fail("expected ", minOut, " to ", maxOut, " results, got ",
                out.size());
  }
  return Status::ok();
}

Status KernelArgs::checkIntCount(size_t expected, size_t got) const {
  if (got != expected)
    return fail("expected ", expected, " integer attribute",
                expected == 1 ? "" : "s", ", got ", got);
  return Status::ok();
}

Status KernelArgs::checkIntIn(int64_t v, int64_t lo, int64_t hi,
                              const char *what) const {
  if (v < lo || v > hi)
    return fail(what, " must be in [", lo, ", ", hi, "], got ", v);
  return Status::ok();
}

Status KernelArgs::checkDType(const Tensor &t, TypeSet set,
                              const char *what) const {
  if (!dtypeInSet(t.dtype(), set))
    return fail(what, " must have ", typeSetName(set), ", got ",
                t.typeString());
  return Status::ok();
}

Status KernelArgs::checkDTypeIs(const Tensor &t, DType d,
                                const char *what) const {
  if (t.dtype() != d)
    return fail(what, " must have element type ", dtypeName(d), ", got ",
                t.typeString());
  return Status::ok();
}

bool isLossDTypeOf(DType loss, DType scores, bool weighted) {
  const bool lowPrecision = scores == DType::BF16 || scores == DType::F16;
  return loss == scores || (loss == DType::F32 && lowPrecision && !weighted);
}

Status checkLossDType(const KernelArgs &args, const Tensor &loss,
                      const Tensor &scores, const Tensor *weight,
                      const char *what) {
  if (isLossDTypeOf(loss.dtype(), scores.dtype(), weight != nullptr))
    return Status::ok();
  return args.checkDTypeIs(loss, scores.dtype(), what);
}

Status KernelArgs::checkShape(const Tensor &t, const Shape &s,
                              const char *what) const {
  if (t.shape() != s)
    return fail(what, " must have shape ", shapeToString(s), ", got ",
                t.typeString());
  return Status::ok();
}

Status KernelArgs::normalizeAxis(int64_t axis, int64_t rank,
                                 int64_t &result) const {
  if (axis < -rank || axis >= rank)
    return fail("axis ", axis, " is out of range for rank ", rank);
  result = axis < 0 ? axis + rank : axis;
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Broadcasting.
//===----------------------------------------------------------------------===//

bool broadcastShapes(const Shape &a, const Shape &b, Shape &result) {
  const size_t rank = std::max(a.size(), b.size());
  Shape r(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1)
      r[i] = da;
    else if (da == 1)
      r[i] = db;
    else
      return false;
  }
  result = std::move(r);
  return true;
}

bool broadcastsTo(const Shape &from, const Shape &to) {
  if (from.size() > to.size())
    return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i])
      return false;
  }
  return true;
}

std::vector<int64_t> broadcastStrides(const Shape &from, const Shape &to) {
  std::vector<int64_t> strides(to.size(), 0);
  int64_t stride = 1;
  for (size_t i = from.size(); i-- > 0;) {
    const size_t d = i + to.size() - from.size();
    if (from[i] != 1)
      strides[d] = stride;
    stride *= from[i];
  }
  return strides;
}

std::vector<int64_t> contiguousStrides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

void simplifyPlan(StridedPlan &plan) {
  const size_t n = plan.strides.size();
  Shape dims;
  std::vector<std::vector<int64_t>> strides(n);
  bool empty = false;
  for (size_t d = 0; d < plan.dims.size(); ++d) {
    if (plan.dims[d] == 0)
      empty = true;
    if (plan.dims[d] == 1)
      continue;
    if (!dims.empty()) {
      // Merge with the previous dimension when every operand walks the two
      // as one: stride[prev] == stride[d] * dims[d].
      bool merge = true;
      for (size_t k = 0; k < n && merge; ++k)
        merge = strides[k].back() == plan.strides[k][d] * plan.dims[d];
      if (merge) {
        dims.back() *= plan.dims[d];
        for (size_t k = 0; k < n; ++k)
          strides[k].back() = plan.strides[k][d];
        continue;
      }
    }
    dims.push_back(plan.dims[d]);
    for (size_t k = 0; k < n; ++k)
      strides[k].push_back(plan.strides[k][d]);
  }
  if (empty) {
    dims.assign(1, 0);
    for (size_t k = 0; k < n; ++k)
      strides[k].assign(1, 0);
  } else if (dims.empty()) {
    dims.push_back(1);
    for (size_t k = 0; k < n; ++k)
      strides[k].push_back(0);
  }
  plan.dims = std::move(dims);
  plan.strides = std::move(strides);
}

StridedPlan makeBroadcastPlan(const Shape &outShape,
                              const std::vector<const Shape *> &operands) {
  StridedPlan plan;
  plan.dims = outShape;
  const size_t rank = outShape.size();
  for (const Shape *s : operands) {
    std::vector<int64_t> strides(rank, 0);
    const size_t lead = rank - s->size();
    int64_t stride = 1;
    for (size_t i = s->size(); i-- > 0;) {
      if ((*s)[i] != 1)
        strides[lead + i] = stride;
      stride *= (*s)[i];
    }
    plan.strides.push_back(std::move(strides));
  }
  simplifyPlan(plan);
  return plan;
}

StridedPlan makeViewPlan(const Shape &dims,
                         const std::vector<int64_t> &strides) {
  StridedPlan plan;
  plan.dims = dims;
  plan.strides.push_back(strides);
  simplifyPlan(plan);
  return plan;
}

bool rangesOverlap(const void *a, size_t aSize, const void *b, size_t bSize) {
  if (!a || !b || aSize == 0 || bSize == 0)
    return false;
  const uintptr_t pa = reinterpret_cast<uintptr_t>(a);
  const uintptr_t pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + bSize && pb < pa + aSize;
}

//===----------------------------------------------------------------------===//
// Strided copy.
//===----------------------------------------------------------------------===//

namespace {

template <typename E>
void copyRow(E *dst, const E *src, int64_t len, int64_t stride) {
  if (stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(len) * sizeof(E));
  } else if (stride == 0) {
    std::fill(dst, dst + len, *src);
  } else {
    for (int64_t j = 0; j < len; ++j)
      dst[j] = src[j * stride];
  }
}

/// dst[i][j] = src[i * s0 + j * s1] for an n0 x n1 block, in tiles so that
/// both sides stay in cache.
template <typename E>
void copyTiled(E *dst, const E *src, int64_t n0, int64_t n1, int64_t s0,
               int64_t s1) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < n0; i0 += kTile) {
    const int64_t i1 = std::min(n0, i0 + kTile);
    for (int64_t j0 = 0; j0 < n1; j0 += kTile) {
      const int64_t j1 = std::min(n1, j0 + kTile);
      for (int64_t i = i0; i < i1; ++i) {
        E *d = dst + i * n1;
        const E *s = src + i * s0;
        for (int64_t j = j0; j < j1; ++j)
          d[j] = s[j * s1];
      }
    }
  }
}

template <typename E>
void stridedCopyTyped(E *dst, const E *src, const StridedPlan &plan) {
  const int64_t rank = static_cast<int64_t>(plan.dims.size());
  const std::vector<int64_t> &st = plan.strides[0];
  // A transposition of the last two dimensions goes through tiles.
  const bool tiled = rank >= 2 && st[rank - 1] != 1 && st[rank - 1] != 0 &&
                     plan.dims[rank - 1] >= 8 && plan.dims[rank - 2] >= 8;
  const int64_t blockDims = tiled ? 2 : 1;
  const int64_t blockSize =
      tiled ? plan.dims[rank - 1] * plan.dims[rank - 2] : plan.dims[rank - 1];
  if (blockSize == 0)
    return;
  int64_t blocks = 1;
  for (int64_t d = 0; d < rank - blockDims; ++d)
    blocks *= plan.dims[d];
  if (blocks == 0)
    return;
  std::vector<int64_t> idx(rank, 0);
  int64_t off = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    E *d = dst + b * blockSize;
    if (tiled)
      copyTiled(d, src + off, plan.dims[rank - 2], plan.dims[rank - 1],
                st[rank - 2], st[rank - 1]);
    else
      copyRow(d, src + off, plan.dims[rank - 1], st[rank - 1]);
    for (int64_t k = rank - blockDims - 1; k >= 0; --k) {
      if (++idx[k] < plan.dims[k]) {
        off += st[k];
        break;
      }
      idx[k] = 0;
      off -= st[k] * (plan.dims[k] - 1);
    }
  }
}

} // namespace

void stridedCopy(void *dst, const void *src, size_t elemSize,
                 const StridedPlan &plan) {
  (void)visitElemSize(elemSize, [&](auto e) -> Status {
    using E = decltype(e);
    stridedCopyTyped(static_cast<E *>(dst), static_cast<const E *>(src), plan);
    return Status::ok();
  });
}

Status checkKernelCall(const KernelArgs &args, const char *backend) {
  if (isCollective(args.op))
    return args.fail("collective instructions run on a communicator, not as ",
                     backend, " kernels");
  for (size_t i = 0; i < args.in.size(); ++i)
    PARACC_RETURN_IF_ERROR(checkTensor(args, args.in[i], "operand", i));
  for (size_t i = 0; i < args.out.size(); ++i)
    PARACC_RETURN_IF_ERROR(checkTensor(args, args.out[i], "result", i));
  return Status::ok();
}

Status findUnsafeOverlap(const KernelArgs &args, UnsafeOverlap &overlap) {
  overlap = UnsafeOverlap();
  const std::vector<Tensor *> &results = args.out;
  for (size_t o = 0; o < results.size(); ++o) {
    const Tensor &r = *results[o];
    for (size_t k = o + 1; k < results.size(); ++k)
      if (rangesOverlap(r.data(), r.byteSize(), results[k]->data(),
                        results[k]->byteSize()))
        return args.fail("results ", o, " and ", k, " overlap");
    for (size_t i = 0; i < args.in.size() && !overlap.found; ++i) {
      const Tensor &x = *args.in[i];
      if (!rangesOverlap(r.data(), r.byteSize(), x.data(), x.byteSize()))
        continue;
      const bool exact =
          x.data() == r.data() && x.byteSize() == r.byteSize() &&
          x.numElements() == r.numElements() &&
          (allowsExactInPlace(args.op) ||
           (o == 0 &&
            int64_t(i) == overwritableOperand(args.op, args.in.size())));
      const int64_t tensor = inPlaceTensorOf(args, true, o);
      if (exact && tensor >= 0 && inPlaceTensorOf(args, false, i) == tensor)
        continue;
      overlap = {true, o, i, exact};
    }
  }
  return Status::ok();
}

} // namespace paracc::rt
