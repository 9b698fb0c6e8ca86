//===- Nccl.h - NCCL communicators per mesh-axis group ---------*- C++ -*-===//
//
// One world communicator per run and one communicator per mesh-axis group
// the program uses, split from the world (ncclCommSplit: color = the
// group's other coordinates, key = the rank's index in the group). The
// collectives of the dist dialect on device tensors, on a given stream.
// Failures name the call and the rank; a watchdog aborts the communicators
// when a step does not finish in time, so a dead peer cannot hang the rest.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CUDA_NCCL_H
#define PARACC_RUNTIME_CUDA_NCCL_H

#include "cuda/CudaKernels.h"
#include "paracc/runtime/Mesh.h"

#include <map>
#include <memory>
#include <nccl.h>
#include <vector>

namespace paracc::rt::cuda {

class NcclComms {
public:
  /// Creates the world communicator (`id` from rank 0) and the group
  /// communicators for every axis set in `groups`; collective over all
  /// ranks (each must pass the same `groups` in the same order).
  static StatusOr<std::unique_ptr<NcclComms>>
  create(const Mesh &mesh, int64_t rank, const ncclUniqueId &id,
         const std::vector<std::vector<int>> &groups);
  ~NcclComms();

  Status allReduce(const std::vector<int> &axes, const DeviceTensor &in,
                   const DeviceTensor &out, bool max, cudaStream_t stream);
  /// Concatenation along `dim` (a staging buffer of out's size is needed
  /// when dim is not the outermost non-trivial dim).
  Status allGather(const std::vector<int> &axes, int64_t dim,
                   const DeviceTensor &in, const DeviceTensor &out,
                   void *staging, cudaStream_t stream);
  Status reduceScatter(const std::vector<int> &axes, int64_t dim,
                       const DeviceTensor &in, const DeviceTensor &out,
                       void *staging, cudaStream_t stream);
  Status allToAll(const std::vector<int> &axes, int64_t splitDim,
                  int64_t concatDim, const DeviceTensor &in,
                  const DeviceTensor &out, void *staging,
                  cudaStream_t stream);

  /// Every member's `out` becomes member `root`'s `in` (ncclBroadcast).
  Status broadcast(const std::vector<int> &axes, int64_t root,
                   const DeviceTensor &in, const DeviceTensor &out,
                   cudaStream_t stream);
  /// Sends `in` to the member at this rank's group index plus `to`; nothing
  /// when there is none. NCCL pairs sends and recvs in order (no tags).
  Status send(const std::vector<int> &axes, int64_t to, const DeviceTensor &in,
              cudaStream_t stream);
  /// Receives into `out` from the member at this rank's group index plus
  /// `from`; zeros when there is none.
  Status recv(const std::vector<int> &axes, int64_t from,
              const DeviceTensor &out, cudaStream_t stream);
  /// Sends `in` to the member at (this rank's group index + `shift`) mod n
  /// and receives into `out` from (index - `shift`) mod n, both in one NCCL
  /// group so that the ring cannot deadlock.
  Status ringShift(const std::vector<int> &axes, int64_t shift,
                   const DeviceTensor &in, const DeviceTensor &out,
                   cudaStream_t stream);

  /// Sends `local` (the same size on every rank) to rank 0, which receives
  /// rank r's bytes at `recv + r * bytes` (`recv` is only used on rank 0).
  Status gatherToRoot(const DeviceTensor &local, void *recv,
                      cudaStream_t stream);

  /// Aborts every communicator (after a timeout): blocked peers return.
  void abortAll();
  /// The first asynchronous NCCL error, if any.
  Status asyncError();

  int64_t rank() const { return rank_; }

private:
  NcclComms() = default;
  StatusOr<ncclComm_t> group(const std::vector<int> &axes, int64_t &size);

  Mesh mesh_;
  int64_t rank_ = 0;
  ncclComm_t world_ = nullptr;
  std::map<std::vector<int>, ncclComm_t> groups_;
};

/// A fresh unique id (rank 0 calls this and hands it to the others).
StatusOr<ncclUniqueId> newUniqueId();

} // namespace paracc::rt::cuda

#endif // PARACC_RUNTIME_CUDA_NCCL_H
