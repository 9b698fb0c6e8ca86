//===- Dropout.cpp - Dropout in training mode -----------------------------===//
//
// The mask comes from DropoutMask.h: the key's hash state advanced by the
// element's global coordinates (its index plus the offsets operand), the
// leading coordinates once per row.
//
//===----------------------------------------------------------------------===//

#include "Kernels/DropoutCheck.h"
#include "cpu/CpuKernels.h"
#include "paracc/runtime/DropoutMask.h"

namespace paracc::rt {

Status checkDropout(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(args.checkArity(3, 3, 1));
  const Tensor &x = *args.in[0], &step = *args.in[1], &offsets = *args.in[2];
  PARACC_RETURN_IF_ERROR(args.checkDType(x, TypeSet::Float, "x"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(step, DType::F32, "step"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(offsets, DType::I64, "offsets"));
  PARACC_RETURN_IF_ERROR(args.checkDTypeIs(*args.out[0], x.dtype(), "result"));
  PARACC_RETURN_IF_ERROR(args.checkShape(*args.out[0], x.shape(), "result"));
  if (step.numElements() != 1)
    return args.fail("step must be a scalar, got ", step.typeString());
  if (offsets.rank() != 1 || offsets.dim(0) != x.rank())
    return args.fail("offsets must hold one coordinate per dim of x (",
                     x.rank(), "), got ", offsets.typeString());
  const double ratio = args.attrsAs<DropoutAttrs>().ratio;
  if (!(ratio >= 0.0 && ratio < 1.0))
    return args.fail("ratio must be in [0, 1), got ", ratio);
  return Status::ok();
}

Status runDropoutKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkDropout(args));
  const Tensor &x = *args.in[0];
  Tensor &y = *args.out[0];
  const int64_t n = x.numElements();
  if (n == 0)
    return Status::ok();
  const DropoutAttrs &attrs = args.attrsAs<DropoutAttrs>();
  const uint32_t threshold = dropoutThreshold(attrs.ratio);
  const uint64_t key = dropoutKey(uint64_t(attrs.seed), uint64_t(attrs.stream),
                                  uint64_t(int64_t(*args.in[1]->as<float>())));
  const int64_t *offsets = args.in[2]->as<int64_t>();
  const int64_t rank = x.rank();
  const int64_t cols = rank ? x.dim(rank - 1) : 1;
  const int64_t rows = n / cols;
  return visitDTypeIn<TypeSet::Float>(x.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    using C = ComputeT<D>;
    const C scale = C(1.0 / (1.0 - attrs.ratio));
    const S *in = x.as<S>();
    S *out = y.as<S>();
    std::vector<int64_t> index(std::max<int64_t>(rank - 1, 0), 0);
    for (int64_t r = 0; r < rows; ++r) {
      uint64_t state = key;
      for (int64_t d = 0; d + 1 < rank; ++d)
        state = dropoutAdvance(state, index[d] + offsets[d]);
      const int64_t last = rank ? offsets[rank - 1] : 0;
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t i = r * cols + c;
        const bool keep =
            dropoutKeeps(rank ? dropoutAdvance(state, c + last) : state,
                         threshold);
        store<D>(out + i, keep ? C(load<D>(in + i) * scale) : C(0));
      }
      // The next row's leading coordinates.
      for (int64_t d = rank - 2; d >= 0; --d) {
        if (++index[d] < x.dim(d))
          break;
        index[d] = 0;
      }
    }
    return Status::ok();
  });
}

} // namespace paracc::rt
