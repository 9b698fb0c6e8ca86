//===- GroupedGemm.h - Grouped products, sizes on the device ----*- C++ -*-===//
//
// The products of a mixture of experts: rows sorted by group (expert) at
// run time, `rowOffsets[g]..rowOffsets[g + 1]` on the device, each group
// multiplied by its own weight. One launch per product covers every group
// (CUTLASS's sm90 ptr-array grouped GEMM, TMA and warp-specialized wgmma),
// and its sizes never reach the host, so a step that contains it stays one
// CUDA graph. bf16 operands and results, f32 accumulation; every row
// length a multiple of 8 elements (16-byte rows for TMA).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_GROUPEDGEMM_H
#define PARACC_RUNTIME_CUDA_GROUPEDGEMM_H

#include "paracc/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace paracc::rt::cuda {

enum class GroupedProduct {
  /// D[rows_g] = A[rows_g] B_g^T: A [rows, k], B [groups, n, k] (weights
  /// stored [out, in]), D [rows, n].
  RowsTimesWeightT,
  /// D[rows_g] = A[rows_g] B_g: A [rows, k], B [groups, k, n], D [rows, n].
  RowsTimesWeight,
  /// D_g = A[rows_g]^T B[rows_g]: A [rows, m], B [rows, n], D [groups, m,
  /// n] (a weight's gradient; zero for a group without rows).
  RowsTransposedTimesRows,
};

struct GroupedProblem {
  GroupedProduct product = GroupedProduct::RowsTimesWeightT;
  int groups = 0;
  /// The fixed sizes: n and k for the row products, m and n for the
  /// transposed one (its k is each group's row count).
  int64_t m = 0, n = 0, k = 0;
  const void *a = nullptr, *b = nullptr;
  void *d = nullptr;
  /// [groups + 1] int32 on the device, non-decreasing from 0.
  const int32_t *rowOffsets = nullptr;
};

/// Whether this build has the grouped products (sm_90a) and the current
/// device runs them (compute capability 9.0).
bool groupedGemmAvailable();

/// Bytes of device scratch one grouped product of `groups` groups needs
/// (its argument arrays, a zero row of `maxRow` elements and CUTLASS's
/// workspace), a multiple of 256.
size_t groupedGemmScratchBytes(int groups, int64_t maxRow);

/// Enqueues the product on `stream` (argument set-up on the device, then
/// one grouped GEMM). `scratch` holds groupedGemmScratchBytes(groups,
/// max(m, n)) bytes, 256-byte aligned, not shared with a product in flight.
Status runGroupedGemm(const GroupedProblem &p, void *scratch,
                      cudaStream_t stream);

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_GROUPEDGEMM_H
