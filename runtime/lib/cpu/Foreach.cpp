//===- Foreach.cpp - Multi-tensor sums of squares and casts ---------------===//
//
// ForeachSumSquare and ForeachCast on the CPU: the tensors one after the
// other, each as the single-tensor instruction would do it (ForeachAdamW is
// with the optimizers, in Optimizers.cpp).
//
//===----------------------------------------------------------------------===//

#include "Kernels/TrainingChecks.h"
#include "cpu/CpuKernels.h"

namespace paracc::rt {

Status runForeachSumSquareKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkForeachSumSquare(args));
  float *out = args.out[0]->as<float>();
  for (size_t j = 0; j < args.in.size(); ++j) {
    const Tensor &x = *args.in[j];
    double sum = 0.0;
    auto accumulate = [&](auto tag) -> Status {
      constexpr DType D = decltype(tag)::value;
      if constexpr (kIsFloat<D>) {
        const auto *p = static_cast<const StorageT<D> *>(x.data());
        for (int64_t i = 0, n = x.numElements(); i < n; ++i) {
          const double v = static_cast<double>(load<D>(p + i));
          sum += v * v;
        }
      }
      return Status::ok();
    };
    PARACC_RETURN_IF_ERROR(visitDType(x.dtype(), accumulate));
    out[j] = static_cast<float>(sum);
  }
  return Status::ok();
}

Status runForeachCastKernel(const KernelArgs &args) {
  PARACC_RETURN_IF_ERROR(checkForeachCast(args));
  const OpAttrs none;
  for (size_t j = 0; j < args.in.size(); ++j) {
    const std::vector<const Tensor *> in{args.in[j]};
    const std::vector<Tensor *> out{args.out[j]};
    PARACC_RETURN_IF_ERROR(
        runCastKernel(KernelArgs{OpCode::Cast, none, in, out}));
  }
  return Status::ok();
}

} // namespace paracc::rt
