//===- Collectives.cpp - Shared collective checks and 1-rank groups -*- C++ -*-===//

#include "paracc/runtime/Collectives.h"

#include <cstring>

using namespace paracc::rt;

Communicator::~Communicator() = default;

static Status copyInto(const Tensor &in, Tensor &out) {
  if (in.byteSize() != out.byteSize())
    return errorf("collective: size mismatch");
  if (in.byteSize())
    std::memcpy(out.data(), in.data(), in.byteSize());
  return Status::ok();
}

Status SingleRankCommunicator::allReduce(const std::vector<int> &,
                                         const Tensor &in, Tensor &out, bool) {
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("all_reduce", in, out, 1, 0));
  return copyInto(in, out);
}

Status SingleRankCommunicator::allGather(const std::vector<int> &, int64_t dim,
                                         const Tensor &in, Tensor &out) {
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("all_gather", in, out, 1, dim));
  return copyInto(in, out);
}

Status SingleRankCommunicator::reduceScatter(const std::vector<int> &,
                                             int64_t dim, const Tensor &in,
                                             Tensor &out) {
  PARACC_RETURN_IF_ERROR(
      checkCollectiveShapes("reduce_scatter", in, out, 1, dim));
  return copyInto(in, out);
}

Status SingleRankCommunicator::allToAll(const std::vector<int> &,
                                        int64_t splitDim, int64_t concatDim,
                                        const Tensor &in, Tensor &out) {
  PARACC_RETURN_IF_ERROR(
      checkCollectiveShapes("all_to_all", in, out, 1, splitDim, concatDim));
  return copyInto(in, out);
}

Status SingleRankCommunicator::broadcast(const std::vector<int> &,
                                         int64_t root, const Tensor &in,
                                         Tensor &out) {
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("broadcast", in, out, 1, 0));
  PARACC_RETURN_IF_ERROR(checkBroadcastRoot(root, 1));
  return copyInto(in, out);
}

// A one-member group has no peer at any nonzero offset.
Status SingleRankCommunicator::send(const std::vector<int> &, int64_t to,
                                    uint32_t, const Tensor &) {
  return checkPeerOffset("send", to, 1);
}

Status SingleRankCommunicator::recv(const std::vector<int> &, int64_t from,
                                    uint32_t, Tensor &) {
  return checkPeerOffset("recv", from, 1);
}

Status SingleRankCommunicator::ringShift(const std::vector<int> &,
                                         int64_t shift, const Tensor &,
                                         Tensor &) {
  return checkPeerOffset("ring_shift", shift, 1);
}

Status
SingleRankCommunicator::allToAllBytes(const std::vector<int> &, const void *in,
                                      const std::vector<int64_t> &sendBytes,
                                      void *out,
                                      const std::vector<int64_t> &recvBytes) {
  PARACC_RETURN_IF_ERROR(checkExchangeCounts(sendBytes, recvBytes, 1));
  if (sendBytes[0] != recvBytes[0])
    return errorf("all_to_all_bytes: a one-member group sends ", sendBytes[0],
                  " bytes to itself but receives ", recvBytes[0]);
  if (sendBytes[0])
    std::memcpy(out, in, size_t(sendBytes[0]));
  return Status::ok();
}
