//===- GroupedGemm.cu - Grouped products, sizes on the device --*- C++ -*-===//
//
// Three CUTLASS sm90 grouped GEMMs (ptr-array, TMA loads, cooperative
// warp-specialized wgmma, 128x256x64 tiles, clusters of 2 CTAs), one per
// operand layout, and a set-up kernel that writes each group's size,
// pointers and strides from the row offsets on the device. CUTLASS reads
// the sizes on the device (no host copy), so the launch can be captured in
// a CUDA graph. A weight gradient of a group without rows is computed as a
// product of one zero row (CUTLASS's main loop wants k >= 1).
//
// Compiled for sm_90a only (wgmma and TMA); built without CUTLASS's headers
// it reports the products unavailable and the MoE kernels fall back.
//
//===----------------------------------------------------------------------===//

#include "cuda/GroupedGemm.h"

#include "paracc/runtime/Status.h"

#include <mutex>

#ifdef PARACC_HAVE_CUTLASS
#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"
#endif

namespace paracc::rt::cuda {

#ifdef PARACC_HAVE_CUTLASS

namespace {

constexpr size_t kScratchAlign = 256;
size_t alignUp(size_t n) {
  return (n + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}

using Element = cutlass::bfloat16_t;
using ProblemShape =
    cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;
using Shape3 = ProblemShape::UnderlyingProblemShape;
using TileShape = cute::Shape<cute::_128, cute::_256, cute::_64>;
using ClusterShape = cute::Shape<cute::_2, cute::_1, cute::_1>;
using RowMajor = cutlass::layout::RowMajor;
using ColumnMajor = cutlass::layout::ColumnMajor;
constexpr int kAlignment = 8; // elements: 16-byte rows for TMA

// (At namespace scope: GCC 12 rejects these builders inside a template.)
using Epilogue = cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape,
    ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    Element, RowMajor *, kAlignment, Element, RowMajor *, kAlignment,
    cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative,
    cutlass::epilogue::fusion::LinearCombination<Element, float>>::CollectiveOp;

template <typename LayoutA, typename LayoutB>
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, LayoutA *,
    kAlignment, Element, LayoutB *, kAlignment, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
        sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>::CollectiveOp;

template <typename LayoutA, typename LayoutB>
using GemmOf = cutlass::gemm::device::GemmUniversalAdapter<
    cutlass::gemm::kernel::GemmUniversal<ProblemShape,
                                         Mainloop<LayoutA, LayoutB>, Epilogue>>;

// B's layout in CUTLASS's terms: ColumnMajor is K-major ([n, k] rows, a
// weight stored [out, in]), RowMajor N-major ([k, n] rows).
using GemmRowsTimesWeightT = GemmOf<RowMajor, ColumnMajor>;
using GemmRowsTimesWeight = GemmOf<RowMajor, RowMajor>;
using GemmRowsTransposedTimesRows = GemmOf<ColumnMajor, RowMajor>;

/// The argument arrays of one product in its scratch, then the zero row and
/// CUTLASS's workspace.
template <typename Gemm> struct Arrays {
  using StrideA = typename Gemm::GemmKernel::InternalStrideA;
  using StrideB = typename Gemm::GemmKernel::InternalStrideB;
  using StrideD = typename Gemm::GemmKernel::InternalStrideD;
  Shape3 *shapes;
  const Element **a, **b;
  Element **d;
  StrideA *strideA;
  StrideB *strideB;
  StrideD *strideD;
  Element *zeros;
  void *workspace;

  /// The layout for `groups` groups from `base` (null: sizes only);
  /// returns the bytes before the workspace.
  static size_t carve(int groups, int64_t maxRow, char *base, Arrays *out) {
    size_t offset = 0;
    auto take = [&](size_t bytes) {
      char *p = base ? base + offset : nullptr;
      offset += alignUp(bytes);
      return p;
    };
    const size_t g = size_t(groups);
    Arrays a;
    a.shapes = reinterpret_cast<Shape3 *>(take(g * sizeof(Shape3)));
    a.a = reinterpret_cast<const Element **>(take(g * sizeof(void *)));
    a.b = reinterpret_cast<const Element **>(take(g * sizeof(void *)));
    a.d = reinterpret_cast<Element **>(take(g * sizeof(void *)));
    a.strideA = reinterpret_cast<StrideA *>(take(g * sizeof(StrideA)));
    a.strideB = reinterpret_cast<StrideB *>(take(g * sizeof(StrideB)));
    a.strideD = reinterpret_cast<StrideD *>(take(g * sizeof(StrideD)));
    a.zeros = reinterpret_cast<Element *>(
        take(size_t(std::max<int64_t>(maxRow, 8)) * sizeof(Element)));
    a.workspace = base ? base + offset : nullptr;
    if (out)
      *out = a;
    return offset;
  }
};

template <typename Gemm>
__global__ void
setupGroupsKernel(GroupedProduct product, int groups, int64_t m, int64_t n,
                  int64_t k, const Element *a, const Element *b, Element *d,
                  const int32_t *rowOffsets, Arrays<Gemm> arrays) {
  using A = Arrays<Gemm>;
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups)
    return;
  const int64_t row = rowOffsets[g], rows = rowOffsets[g + 1] - row;
  int M = 0, N = int(n), K = 0;
  switch (product) {
  case GroupedProduct::RowsTimesWeightT:
  case GroupedProduct::RowsTimesWeight:
    M = int(rows);
    K = int(k);
    arrays.a[g] = a + row * k;
    arrays.b[g] = b + int64_t(g) * n * k;
    arrays.d[g] = d + row * n;
    break;
  case GroupedProduct::RowsTransposedTimesRows:
    M = int(m);
    K = int(rows);
    arrays.a[g] = a + row * m;
    arrays.b[g] = b + row * n;
    arrays.d[g] = d + int64_t(g) * m * n;
    if (rows == 0) {
      K = 1;
      arrays.a[g] = arrays.zeros;
      arrays.b[g] = arrays.zeros;
    }
    break;
  }
  arrays.shapes[g] = Shape3{M, N, K};
  arrays.strideA[g] =
      cutlass::make_cute_packed_stride(typename A::StrideA{}, {M, K, 1});
  arrays.strideB[g] =
      cutlass::make_cute_packed_stride(typename A::StrideB{}, {N, K, 1});
  arrays.strideD[g] =
      cutlass::make_cute_packed_stride(typename A::StrideD{}, {M, N, 1});
}

cutlass::KernelHardwareInfo hardwareInfo() {
  static std::mutex mutex;
  static int cachedDevice = -1, cachedCount = 0;
  std::lock_guard<std::mutex> lock(mutex);
  int device = 0;
  cudaGetDevice(&device);
  if (device != cachedDevice) {
    cachedCount =
        cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
    cachedDevice = device;
  }
  cutlass::KernelHardwareInfo info;
  info.device_id = device;
  info.sm_count = cachedCount;
  return info;
}

template <typename Gemm>
typename Gemm::Arguments argumentsFor(int groups, const Arrays<Gemm> &a) {
  typename Gemm::Arguments args;
  args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;
  args.problem_shape = {groups, a.shapes, nullptr};
  args.mainloop = {a.a, a.strideA, a.b, a.strideB};
  // beta = 0: C is never read (its pointers are D's).
  auto &fusion = args.epilogue.thread;
  fusion.alpha = 1.f;
  fusion.beta = 0.f;
  fusion.alpha_ptr = nullptr;
  fusion.beta_ptr = nullptr;
  args.epilogue.ptr_C = const_cast<const Element **>(a.d);
  args.epilogue.dC = a.strideD;
  args.epilogue.ptr_D = a.d;
  args.epilogue.dD = a.strideD;
  args.hw_info = hardwareInfo();
  return args;
}

template <typename Gemm> size_t scratchBytesOf(int groups, int64_t maxRow) {
  Arrays<Gemm> none;
  const size_t arrays = Arrays<Gemm>::carve(groups, maxRow, nullptr, &none);
  return alignUp(arrays + Gemm::get_workspace_size(argumentsFor(groups, none)));
}

const char *productName(GroupedProduct p) {
  switch (p) {
  case GroupedProduct::RowsTimesWeightT:
    return "rows x weight^T";
  case GroupedProduct::RowsTimesWeight:
    return "rows x weight";
  case GroupedProduct::RowsTransposedTimesRows:
    return "rows^T x rows";
  }
  return "?";
}

template <typename Gemm>
Status runAs(const GroupedProblem &p, void *scratch, cudaStream_t stream) {
  const int64_t maxRow = std::max(p.m, p.n);
  Arrays<Gemm> arrays;
  Arrays<Gemm>::carve(p.groups, maxRow, static_cast<char *>(scratch), &arrays);
  if (p.product == GroupedProduct::RowsTransposedTimesRows &&
      cudaMemsetAsync(arrays.zeros, 0,
                      size_t(std::max<int64_t>(maxRow, 8)) * sizeof(Element),
                      stream) != cudaSuccess)
    return errorf("grouped product: clearing its zero row failed");
  constexpr int kThreads = 128;
  setupGroupsKernel<Gemm>
      <<<(p.groups + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
          p.product, p.groups, p.m, p.n, p.k, static_cast<const Element *>(p.a),
          static_cast<const Element *>(p.b), static_cast<Element *>(p.d),
          p.rowOffsets, arrays);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf("grouped product: set-up launch failed: ",
                  cudaGetErrorString(err));
  typename Gemm::Arguments args = argumentsFor(p.groups, arrays);
  Gemm gemm;
  cutlass::Status st = gemm.can_implement(args);
  if (st == cutlass::Status::kSuccess)
    st = gemm.initialize(args, arrays.workspace, stream);
  if (st == cutlass::Status::kSuccess)
    st = gemm.run(stream);
  if (st != cutlass::Status::kSuccess)
    return errorf("grouped product (", productName(p.product),
                  "): CUTLASS: ", cutlassGetStatusString(st));
  err = cudaGetLastError();
  if (err != cudaSuccess)
    return errorf("grouped product (", productName(p.product),
                  "): launch failed: ", cudaGetErrorString(err));
  return Status::ok();
}

/// Compute capability 9.0 on the current device.
bool deviceIsSm90() {
  int device = 0, major = 0, minor = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                device) == cudaSuccess &&
         cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                device) == cudaSuccess &&
         major == 9 && minor == 0;
}

} // namespace

bool groupedGemmAvailable() {
  static const bool available = deviceIsSm90();
  return available;
}

size_t groupedGemmScratchBytes(int groups, int64_t maxRow) {
  return std::max(
      {scratchBytesOf<GemmRowsTimesWeightT>(groups, maxRow),
       scratchBytesOf<GemmRowsTimesWeight>(groups, maxRow),
       scratchBytesOf<GemmRowsTransposedTimesRows>(groups, maxRow)});
}

Status runGroupedGemm(const GroupedProblem &p, void *scratch,
                      cudaStream_t stream) {
  if (p.groups <= 0)
    return Status::ok();
  if (p.n % kAlignment != 0 ||
      (p.product == GroupedProduct::RowsTransposedTimesRows
           ? p.m % kAlignment != 0
           : p.k % kAlignment != 0))
    return errorf("grouped product: rows must be multiples of ", kAlignment,
                  " elements (m ", p.m, ", n ", p.n, ", k ", p.k, ")");
  switch (p.product) {
  case GroupedProduct::RowsTimesWeightT:
    return runAs<GemmRowsTimesWeightT>(p, scratch, stream);
  case GroupedProduct::RowsTimesWeight:
    return runAs<GemmRowsTimesWeight>(p, scratch, stream);
  case GroupedProduct::RowsTransposedTimesRows:
    return runAs<GemmRowsTransposedTimesRows>(p, scratch, stream);
  }
  return errorf("grouped product: unknown form");
}

#else // !PARACC_HAVE_CUTLASS

bool groupedGemmAvailable() { return false; }

size_t groupedGemmScratchBytes(int, int64_t) { return 0; }

Status runGroupedGemm(const GroupedProblem &, void *, cudaStream_t) {
  return errorf("grouped products: built without CUTLASS's headers");
}

#endif

} // namespace paracc::rt::cuda
