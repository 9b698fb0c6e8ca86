//===- DropoutMask.h - Dropout's counter-based mask ------------*- C++ -*-===//
//
// Whether dropout keeps an element, as a pure function of the op's key
// (seed, stream, step) and the element's global coordinates, shared by the
// CPU and CUDA kernels so that both draw the same mask bit for bit (graph
// dialect's `graph.dropout` documents the function).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_DROPOUTMASK_H
#define PARACC_RUNTIME_DROPOUTMASK_H

#include <cmath>
#include <cstdint>

#ifdef __CUDACC__
#define PARACC_HOST_DEVICE __host__ __device__
#else
#define PARACC_HOST_DEVICE
#endif

namespace paracc::rt {

PARACC_HOST_DEVICE inline uint64_t dropoutMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The hash state before the coordinates: m(seed ^ m(stream ^ m(step))).
PARACC_HOST_DEVICE inline uint64_t dropoutKey(uint64_t seed, uint64_t stream,
                                              uint64_t step) {
  return dropoutMix(seed ^ dropoutMix(stream ^ dropoutMix(step)));
}

/// The state after one more coordinate.
PARACC_HOST_DEVICE inline uint64_t dropoutAdvance(uint64_t state,
                                                  int64_t coordinate) {
  return dropoutMix(state ^ uint64_t(coordinate));
}

/// The 24-bit threshold of `ratio`: an element is kept when the top 24 bits
/// of its final state, u = bits / 2^24, are >= ratio, i.e. bits >=
/// ceil(ratio * 2^24).
inline uint32_t dropoutThreshold(double ratio) {
  return uint32_t(std::ceil(ratio * 16777216.0));
}

PARACC_HOST_DEVICE inline bool dropoutKeeps(uint64_t state,
                                            uint32_t threshold) {
  return uint32_t(state >> 40) >= threshold;
}

} // namespace paracc::rt

#endif // PARACC_RUNTIME_DROPOUTMASK_H
