//===- CollectiveChecks.cpp - Argument checks shared by communicators -*- C++
//-*-===//
//
// The shape and peer checks every Communicator (SingleRank, Gloo, NCCL) runs
// before it moves data. They live in paracc_rt_core, beside the tensors they
// check, so that the CUDA backend (which links only the core) has them too.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/Collectives.h"

#include <cstring>

using namespace paracc::rt;

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
    return errorf(op, ": expected an output of shape ", shapeToString(expected),
                  ", got ", shapeToString(out.shape()));
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

Status paracc::rt::checkExchangeCounts(const std::vector<int64_t> &sendBytes,
                                       const std::vector<int64_t> &recvBytes,
                                       int64_t groupSize) {
  if (int64_t(sendBytes.size()) != groupSize ||
      int64_t(recvBytes.size()) != groupSize)
    return errorf("all_to_all_bytes: expected a count per member of a group "
                  "of ",
                  groupSize, ", got ", sendBytes.size(), " and ",
                  recvBytes.size());
  for (size_t j = 0; j < sendBytes.size(); ++j)
    if (sendBytes[j] < 0 || recvBytes[j] < 0)
      return errorf("all_to_all_bytes: negative count for member ", j);
  return Status::ok();
}
