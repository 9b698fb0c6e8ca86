//===- CollectiveTraffic.cpp - What each collective moves -------*- C++ -*-===//
//
// CollectiveOpInterface (DistInterfaces.td) for the dist ops that
// communicate: the message and the bytes each member sends, with the
// algorithms NCCL and Gloo use (rings; a pipelined broadcast; one peer for
// a transfer). The group's axes are every op's `axes` (the interface's
// default); only send and recv are point-to-point.
//
//===----------------------------------------------------------------------===//

#include "paracc/Dialect/Dist/IR/DistOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::paracc::dist;

int64_t mlir::paracc::dist::staticTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  Type element = tensor.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return tensor.getNumElements() * std::max<int64_t>((bits + 7) / 8, 1);
}

/// (n - 1) / n of `bytes` for a group of n: what each member sends in a
/// ring all-gather or reduce-scatter.
static double ringShare(int64_t groupSize, int64_t bytes) {
  const double n = double(std::max<int64_t>(groupSize, 1));
  return (n - 1) / n * double(bytes);
}

// all_reduce: a reduce-scatter and an all-gather of the input.
int64_t AllReduceOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double AllReduceOp::getTrafficBytes(int64_t groupSize) {
  return 2 * ringShare(groupSize, getMessageBytes());
}
StringRef AllReduceOp::getTrafficFormula() {
  return "2 (n-1)/n x input bytes (ring)";
}

int64_t AllGatherOp::getMessageBytes() {
  return staticTensorBytes(getResult().getType());
}
double AllGatherOp::getTrafficBytes(int64_t groupSize) {
  return ringShare(groupSize, getMessageBytes());
}
StringRef AllGatherOp::getTrafficFormula() { return "(n-1)/n x output bytes"; }

int64_t ReduceScatterOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double ReduceScatterOp::getTrafficBytes(int64_t groupSize) {
  return ringShare(groupSize, getMessageBytes());
}
StringRef ReduceScatterOp::getTrafficFormula() {
  return "(n-1)/n x input bytes";
}

int64_t AllToAllOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double AllToAllOp::getTrafficBytes(int64_t groupSize) {
  return ringShare(groupSize, getMessageBytes());
}
StringRef AllToAllOp::getTrafficFormula() { return "(n-1)/n x input bytes"; }

// broadcast: pipelined (NCCL's ring), every member but the last forwards
// the whole message once.
int64_t BroadcastOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double BroadcastOp::getTrafficBytes(int64_t groupSize) {
  return groupSize > 1 ? double(getMessageBytes()) : 0;
}
StringRef BroadcastOp::getTrafficFormula() {
  return "input bytes (pipelined ring)";
}

int64_t RingShiftOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double RingShiftOp::getTrafficBytes(int64_t groupSize) {
  return groupSize > 1 ? double(getMessageBytes()) : 0;
}
StringRef RingShiftOp::getTrafficFormula() {
  return "input bytes (to the next member of the ring)";
}

int64_t SendOp::getMessageBytes() {
  return staticTensorBytes(getX().getType());
}
double SendOp::getTrafficBytes(int64_t) { return double(getMessageBytes()); }
StringRef SendOp::getTrafficFormula() {
  return "input bytes (to one peer, none at the group's end)";
}
bool SendOp::isPointToPoint() { return true; }

int64_t RecvOp::getMessageBytes() {
  return staticTensorBytes(getResult().getType());
}
double RecvOp::getTrafficBytes(int64_t) { return 0; }
StringRef RecvOp::getTrafficFormula() {
  return "0 (received; the send counts them)";
}
bool RecvOp::isPointToPoint() { return true; }

// Expert parallelism: the message is the rows of the member's (token,
// pick) slots, T k H elements of x; with routing spread evenly (n-1)/n of
// them leave the member. The forward sends them and takes the results
// back; the backward sends x and dy and takes dx back (the routing
// weights and their gradients, a k-th of a row each, are left out). The
// group waits for its busiest member, which moves r = load_imbalance times
// an even share (1 unless the plan assumes uneven routing).
static int64_t slotRowBytes(Value x, Value indices) {
  auto routing = cast<RankedTensorType>(indices.getType());
  return staticTensorBytes(x.getType()) * routing.getDimSize(1);
}

int64_t ExpertParallelMoeOp::getMessageBytes() {
  return slotRowBytes(getX(), getIndices());
}
double ExpertParallelMoeOp::getTrafficBytes(int64_t groupSize) {
  return 2 * ringShare(groupSize, getMessageBytes()) *
         getLoadImbalance().convertToDouble();
}
StringRef ExpertParallelMoeOp::getTrafficFormula() {
  return getLoadImbalance().convertToDouble() > 1.0
             ? "2 (n-1)/n x k x input bytes x r (tokens out, results back; "
               "r: the busiest member's load over an even share)"
             : "2 (n-1)/n x k x input bytes (tokens out, results back)";
}

int64_t ExpertParallelMoeGradOp::getMessageBytes() {
  return slotRowBytes(getX(), getIndices());
}
double ExpertParallelMoeGradOp::getTrafficBytes(int64_t groupSize) {
  return 3 * ringShare(groupSize, getMessageBytes()) *
         getLoadImbalance().convertToDouble();
}
StringRef ExpertParallelMoeGradOp::getTrafficFormula() {
  return getLoadImbalance().convertToDouble() > 1.0
             ? "3 (n-1)/n x k x input bytes x r (x and dy out, dx back; r: "
               "the busiest member's load over an even share)"
             : "3 (n-1)/n x k x input bytes (x and dy out, dx back)";
}
