//===- Nccl.cpp - NCCL communicators per mesh-axis group -------*- C++ -*-===//
//
// broadcast, send and recv move bytes (ncclUint8), whatever the element
// type. NCCL's all-gather and reduce-scatter concatenate along the outermost
// dimension. For another dimension d the data is viewed as
// [outer, n, piece] and [n, outer, piece] and moved with one transpose
// kernel into or out of a staging buffer.
//
//===----------------------------------------------------------------------===//

#include "cuda/Nccl.h"

#include "paracc/runtime/Collectives.h"

#include <cuda_runtime.h>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

#define PARACC_NCCL(call)                                                      \
  do {                                                                         \
    ncclResult_t _r = (call);                                                  \
    if (_r != ncclSuccess)                                                     \
      return errorf("rank ", rank_, ": " #call " failed: ",                   \
                    ncclGetErrorString(_r));                                   \
  } while (0)

StatusOr<ncclUniqueId> paracc::rt::cuda::newUniqueId() {
  ncclUniqueId id;
  ncclResult_t r = ncclGetUniqueId(&id);
  if (r != ncclSuccess)
    return errorf("ncclGetUniqueId failed: ", ncclGetErrorString(r));
  return id;
}

static std::optional<ncclDataType_t> ncclTypeOf(DType t) {
  switch (t) {
  case DType::F32:
    return ncclFloat32;
  case DType::BF16:
    return ncclBfloat16;
  case DType::F16:
    return ncclFloat16;
  case DType::F64:
    return ncclFloat64;
  case DType::I64:
    return ncclInt64;
  case DType::I32:
    return ncclInt32;
  case DType::U8:
  case DType::Bool:
    return ncclUint8;
  case DType::I8:
    return ncclInt8;
  case DType::U32:
    return ncclUint32;
  case DType::U64:
    return ncclUint64;
  default:
    return std::nullopt;
  }
}

StatusOr<std::unique_ptr<NcclComms>>
NcclComms::create(const Mesh &mesh, int64_t rank, const ncclUniqueId &id,
                  const std::vector<std::vector<int>> &groups) {
  std::unique_ptr<NcclComms> c(new NcclComms());
  c->mesh_ = mesh;
  c->rank_ = rank;
  int64_t n = mesh.numRanks();
  ncclResult_t r = ncclCommInitRank(&c->world_, int(n), id, int(rank));
  if (r != ncclSuccess)
    return errorf("rank ", rank, ": ncclCommInitRank(", n,
                  " ranks) failed: ", ncclGetErrorString(r));
  for (const std::vector<int> &axes : groups) {
    if (c->groups_.count(axes))
      continue;
    // color: the coordinates on the other axes; key: index in the group.
    std::vector<int64_t> coords = mesh.coordinates(rank);
    int64_t color = 0;
    for (size_t a = 0; a < mesh.axisSizes.size(); ++a) {
      bool inGroup = false;
      for (int g : axes)
        inGroup |= g == int(a);
      color = color * mesh.axisSizes[a] + (inGroup ? 0 : coords[a]);
    }
    ncclComm_t comm = nullptr;
    r = ncclCommSplit(c->world_, int(color), int(mesh.groupIndex(rank, axes)),
                      &comm, nullptr);
    if (r != ncclSuccess)
      return errorf("rank ", rank, ": ncclCommSplit failed: ",
                    ncclGetErrorString(r));
    c->groups_[axes] = comm;
  }
  return c;
}

NcclComms::~NcclComms() {
  for (auto &[axes, comm] : groups_)
    if (comm)
      ncclCommDestroy(comm);
  if (world_)
    ncclCommDestroy(world_);
}

void NcclComms::abortAll() {
  for (auto &[axes, comm] : groups_)
    if (comm) {
      ncclCommAbort(comm);
      comm = nullptr;
    }
  if (world_) {
    ncclCommAbort(world_);
    world_ = nullptr;
  }
}

Status NcclComms::asyncError() {
  auto check = [&](ncclComm_t comm) -> Status {
    if (!comm)
      return Status::ok();
    ncclResult_t state = ncclSuccess;
    ncclResult_t r = ncclCommGetAsyncError(comm, &state);
    if (r != ncclSuccess)
      return errorf("rank ", rank_, ": ncclCommGetAsyncError failed: ",
                    ncclGetErrorString(r));
    if (state != ncclSuccess && state != ncclInProgress)
      return errorf("rank ", rank_, ": NCCL reported ",
                    ncclGetErrorString(state));
    return Status::ok();
  };
  PARACC_RETURN_IF_ERROR(check(world_));
  for (auto &[axes, comm] : groups_)
    PARACC_RETURN_IF_ERROR(check(comm));
  return Status::ok();
}

StatusOr<ncclComm_t> NcclComms::group(const std::vector<int> &axes,
                                      int64_t &size) {
  size = mesh_.groupSize(axes);
  auto it = groups_.find(axes);
  if (it == groups_.end() || !it->second)
    return errorf("rank ", rank_, ": no communicator for the group over ",
                  axes.size(), " axes (was it announced at start-up?)");
  return it->second;
}

/// Product of the dims before `dim` and of those after it.
static void splitAround(const Shape &s, int64_t dim, int64_t &outer,
                        int64_t &inner) {
  outer = inner = 1;
  for (int64_t i = 0; i < int64_t(s.size()); ++i) {
    if (i < dim)
      outer *= s[i];
    else if (i > dim)
      inner *= s[i];
  }
}

/// dst[b, a, c] = src[a, b, c] (a transpose of the first two of three dims).
static Status swapOuter(const DeviceTensor &src, void *dst, int64_t a,
                        int64_t b, int64_t c, cudaStream_t stream) {
  DeviceTensor from{src.dtype, {a, b, c}, src.data};
  DeviceTensor to{src.dtype, {b, a, c}, dst};
  return launchKernel(OpCode::Transpose, TransposeAttrs{{1, 0, 2}}, {from},
                      {to}, stream);
}

Status NcclComms::allReduce(const std::vector<int> &axes,
                            const DeviceTensor &in, const DeviceTensor &out,
                            bool max, cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  std::optional<ncclDataType_t> type = ncclTypeOf(in.dtype);
  if (!type || in.byteSize() != out.byteSize())
    return errorf("all_reduce: unsupported element type or sizes");
  PARACC_NCCL(ncclAllReduce(in.data, out.data, size_t(in.numElements()),
                            *type, max ? ncclMax : ncclSum, *comm, stream));
  return Status::ok();
}

Status NcclComms::allGather(const std::vector<int> &axes, int64_t dim,
                            const DeviceTensor &in, const DeviceTensor &out,
                            void *staging, cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  std::optional<ncclDataType_t> type = ncclTypeOf(in.dtype);
  if (!type || out.byteSize() != in.byteSize() * size_t(n))
    return errorf("all_gather: unsupported element type or sizes");
  int64_t outer, inner;
  splitAround(in.shape, dim, outer, inner);
  size_t count = size_t(in.numElements());
  if (outer == 1) {
    PARACC_NCCL(ncclAllGather(in.data, out.data, count, *type, *comm, stream));
    return Status::ok();
  }
  // staging [n, outer, piece] -> out [outer, n, piece].
  PARACC_NCCL(ncclAllGather(in.data, staging, count, *type, *comm, stream));
  DeviceTensor stage{in.dtype, {}, staging};
  return swapOuter(stage, out.data, n, outer, in.shape[dim] * inner, stream);
}

Status NcclComms::reduceScatter(const std::vector<int> &axes, int64_t dim,
                                const DeviceTensor &in,
                                const DeviceTensor &out, void *staging,
                                cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  std::optional<ncclDataType_t> type = ncclTypeOf(in.dtype);
  if (!type || in.byteSize() != out.byteSize() * size_t(n))
    return errorf("reduce_scatter: unsupported element type or sizes");
  int64_t outer, inner;
  splitAround(out.shape, dim, outer, inner);
  size_t count = size_t(out.numElements());
  if (outer == 1) {
    PARACC_NCCL(
        ncclReduceScatter(in.data, out.data, count, *type, ncclSum, *comm,
                          stream));
    return Status::ok();
  }
  // in [outer, n, piece] -> staging [n, outer, piece], then scatter.
  PARACC_RETURN_IF_ERROR(
      swapOuter(in, staging, outer, n, out.shape[dim] * inner, stream));
  PARACC_NCCL(ncclReduceScatter(staging, out.data, count, *type, ncclSum,
                                *comm, stream));
  return Status::ok();
}

Status NcclComms::allToAll(const std::vector<int> &axes, int64_t splitDim,
                           int64_t concatDim, const DeviceTensor &in,
                           const DeviceTensor &out, void *staging,
                           cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  std::optional<ncclDataType_t> type = ncclTypeOf(in.dtype);
  if (!type || in.byteSize() != out.byteSize())
    return errorf("all_to_all: unsupported element type or sizes");
  // Pack: in [outer, n, piece] -> send [n, outer, piece].
  Shape pieceShape = in.shape;
  pieceShape[splitDim] /= n;
  int64_t outer, inner;
  splitAround(in.shape, splitDim, outer, inner);
  auto *send = static_cast<uint8_t *>(staging);
  auto *recv = send + in.byteSize();
  PARACC_RETURN_IF_ERROR(
      swapOuter(in, send, outer, n, pieceShape[splitDim] * inner, stream));
  size_t pieceCount = size_t(in.numElements() / n);
  size_t pieceBytes = in.byteSize() / size_t(n);
  PARACC_NCCL(ncclGroupStart());
  for (int64_t peer = 0; peer < n; ++peer) {
    PARACC_NCCL(ncclSend(send + peer * pieceBytes, pieceCount, *type,
                         int(peer), *comm, stream));
    PARACC_NCCL(ncclRecv(recv + peer * pieceBytes, pieceCount, *type,
                         int(peer), *comm, stream));
  }
  PARACC_NCCL(ncclGroupEnd());
  // Unpack: recv [n, outerC, cpiece] -> out [outerC, n, cpiece].
  int64_t outerC, innerC;
  splitAround(pieceShape, concatDim, outerC, innerC);
  DeviceTensor received{in.dtype, {}, recv};
  return swapOuter(received, out.data, n, outerC,
                   pieceShape[concatDim] * innerC, stream);
}

Status NcclComms::broadcast(const std::vector<int> &axes, int64_t root,
                            const DeviceTensor &in, const DeviceTensor &out,
                            cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  if (root < 0 || root >= n)
    return errorf("broadcast: root ", root, " is out of range for a group of ",
                  n);
  if (in.byteSize() != out.byteSize())
    return errorf("broadcast: input and output sizes differ");
  // Bytes: every element type moves the same way.
  PARACC_NCCL(ncclBroadcast(in.data, out.data, in.byteSize(), ncclUint8,
                            int(root), *comm, stream));
  return Status::ok();
}

Status NcclComms::send(const std::vector<int> &axes, int64_t to,
                       const DeviceTensor &in, cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  if (to == 0 || to <= -n || to >= n)
    return errorf("send: to = ", to, " is out of range for a group of ", n);
  int64_t peer = peerIndex(mesh_.groupIndex(rank_, axes), to, n);
  if (peer < 0)
    return Status::ok();
  PARACC_NCCL(ncclSend(in.data, in.byteSize(), ncclUint8, int(peer), *comm,
                       stream));
  return Status::ok();
}

Status NcclComms::recv(const std::vector<int> &axes, int64_t from,
                       const DeviceTensor &out, cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  if (from == 0 || from <= -n || from >= n)
    return errorf("recv: from = ", from, " is out of range for a group of ",
                  n);
  int64_t peer = peerIndex(mesh_.groupIndex(rank_, axes), from, n);
  if (peer < 0) {
    cudaError_t e = cudaMemsetAsync(out.data, 0, out.byteSize(), stream);
    if (e != cudaSuccess)
      return errorf("rank ", rank_, ": recv: zeroing the result failed: ",
                    cudaGetErrorString(e));
    return Status::ok();
  }
  PARACC_NCCL(ncclRecv(out.data, out.byteSize(), ncclUint8, int(peer), *comm,
                       stream));
  return Status::ok();
}

Status NcclComms::ringShift(const std::vector<int> &axes, int64_t shift,
                            const DeviceTensor &in, const DeviceTensor &out,
                            cudaStream_t stream) {
  int64_t n;
  auto comm = group(axes, n);
  if (!comm)
    return comm.status();
  PARACC_RETURN_IF_ERROR(checkPeerOffset("ring_shift", shift, n));
  if (in.byteSize() != out.byteSize())
    return errorf("ring_shift: operand and result sizes differ");
  const int64_t index = mesh_.groupIndex(rank_, axes);
  const int to = int(ringPeerIndex(index, shift, n)),
            from = int(ringPeerIndex(index, -shift, n));
  PARACC_NCCL(ncclGroupStart());
  PARACC_NCCL(ncclSend(in.data, in.byteSize(), ncclUint8, to, *comm, stream));
  PARACC_NCCL(
      ncclRecv(out.data, out.byteSize(), ncclUint8, from, *comm, stream));
  PARACC_NCCL(ncclGroupEnd());
  return Status::ok();
}

Status NcclComms::gatherToRoot(const DeviceTensor &local, void *recv,
                               cudaStream_t stream) {
  if (!world_)
    return errorf("rank ", rank_, ": the world communicator was aborted");
  size_t bytes = local.byteSize();
  int64_t n = mesh_.numRanks();
  PARACC_NCCL(ncclGroupStart());
  PARACC_NCCL(ncclSend(local.data, bytes, ncclUint8, 0, world_, stream));
  if (rank_ == 0)
    for (int64_t r = 0; r < n; ++r)
      PARACC_NCCL(ncclRecv(static_cast<uint8_t *>(recv) + r * bytes, bytes,
                           ncclUint8, int(r), world_, stream));
  PARACC_NCCL(ncclGroupEnd());
  return Status::ok();
}
