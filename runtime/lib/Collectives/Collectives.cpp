//===- Collectives.cpp - Shared collective checks and 1-rank groups -*- C++ -*-===//

#include "paracc/runtime/Collectives.h"

#include <cstring>

using namespace paracc::rt;

Communicator::~Communicator() = default;

Status paracc::rt::checkCollectiveShapes(const char *op, const Tensor &in,
                                         const Tensor &out, int64_t groupSize,
                                         int64_t dim, int64_t concatDim) {
  if (in.dtype() != out.dtype())
    return errorf(op, ": input and output element types differ");
  Shape expected = in.shape();
  auto checkDim = [&](int64_t d) -> Status {
    if (d < 0 || d >= int64_t(expected.size()))
      return errorf(op, ": dim ", d, " out of range for rank ",
                    expected.size());
    return Status::ok();
  };
  std::string what = op;
  if (what == "all_gather") {
    PARACC_RETURN_IF_ERROR(checkDim(dim));
    expected[dim] *= groupSize;
  } else if (what == "reduce_scatter") {
    PARACC_RETURN_IF_ERROR(checkDim(dim));
    if (expected[dim] % groupSize != 0)
      return errorf(op, ": dim ", dim, " of size ", expected[dim],
                    " does not divide over ", groupSize, " ranks");
    expected[dim] /= groupSize;
  } else if (what == "all_to_all") {
    PARACC_RETURN_IF_ERROR(checkDim(dim));
    PARACC_RETURN_IF_ERROR(checkDim(concatDim));
    if (expected[dim] % groupSize != 0)
      return errorf(op, ": dim ", dim, " of size ", expected[dim],
                    " does not divide over ", groupSize, " ranks");
    expected[dim] /= groupSize;
    expected[concatDim] *= groupSize;
  }
  if (out.shape() != expected)
    return errorf(op, ": expected an output of shape ",
                  shapeToString(expected), ", got ",
                  shapeToString(out.shape()));
  return Status::ok();
}

Status paracc::rt::checkBroadcastRoot(int64_t root, int64_t groupSize) {
  if (root < 0 || root >= groupSize)
    return errorf("broadcast: root ", root, " is out of range for a group of ",
                  groupSize);
  return Status::ok();
}

Status paracc::rt::checkPeerOffset(const char *op, int64_t offset,
                                   int64_t groupSize) {
  if (offset == 0 || offset <= -groupSize || offset >= groupSize) {
    const char *name = std::strcmp(op, "send") == 0         ? "to"
                       : std::strcmp(op, "ring_shift") == 0 ? "shift"
                                                            : "from";
    return errorf(op, ": ", name, " = ", offset,
                  " is out of range for a group of ", groupSize, " (need ",
                  name, " != 0 and |", name, "| < ", groupSize, ")");
  }
  return Status::ok();
}

int64_t paracc::rt::peerIndex(int64_t index, int64_t offset,
                              int64_t groupSize) {
  int64_t peer = index + offset;
  return peer >= 0 && peer < groupSize ? peer : -1;
}

int64_t paracc::rt::ringPeerIndex(int64_t index, int64_t offset,
                                  int64_t groupSize) {
  return ((index + offset) % groupSize + groupSize) % groupSize;
}

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
