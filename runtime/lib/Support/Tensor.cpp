//===- Tensor.cpp - Runtime tensors ---------------------------------------===//
//
// Shapes, aligned zero-filled allocation, views and copies.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/Tensor.h"

#include <atomic>
#include <cstdio>

#include <cstring>
#include <limits>
#include <new>
#include <sstream>

namespace paracc::rt {

namespace {
constexpr size_t kAlignment = 64;

} // namespace

int64_t shapeNumElements(const Shape &shape) {
  int64_t n = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0)
      return -1;
    empty |= d == 0;
  }
  if (empty) // The product is 0 however large the other dimensions are.
    return 0;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n))
      return -1;
  }
  return n;
}

std::string shapeToString(const Shape &shape) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      os << ',';
    os << shape[i];
  }
  os << ']';
  return os.str();
}

/// Bytes held by all tensors this process allocated, and the most at once.
static std::atomic<uint64_t> liveTensorBytes{0};
static std::atomic<uint64_t> peakTensorBytes{0};

uint64_t peakLiveTensorBytes() { return peakTensorBytes.load(); }

void resetPeakLiveTensorBytes() {
  peakTensorBytes.store(liveTensorBytes.load());
}

/// MemAvailable from /proc/meminfo in bytes (0 if unknown).
static uint64_t availableMemoryBytes() {
  std::FILE *f = std::fopen("/proc/meminfo", "r");
  if (!f)
    return 0;
  char line[256];
  uint64_t kb = 0;
  while (std::fgets(line, sizeof(line), f))
    if (std::sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
      break;
  std::fclose(f);
  return kb * 1024;
}

StatusOr<Tensor> Tensor::allocate(DType dtype, Shape shape) {
  const size_t elemSize = dtypeSize(dtype);
  if (elemSize == 0)
    return errorf("cannot allocate a tensor of unsupported element type ",
                  static_cast<int>(dtype));
  for (int64_t d : shape) {
    if (d < 0)
      return errorf("cannot allocate ", dtypeName(dtype), shapeToString(shape),
                    ": negative dimension");
  }
  const int64_t n = shapeNumElements(shape);
  int64_t bytes;
  if (n < 0 ||
      __builtin_mul_overflow(n, static_cast<int64_t>(elemSize), &bytes))
    return errorf("cannot allocate ", dtypeName(dtype), shapeToString(shape),
                  ": size overflows");
  // Round up to the alignment so that vector loads of the tail stay inside.
  const uint64_t rounded =
      (static_cast<uint64_t>(bytes) + kAlignment - 1) / kAlignment * kAlignment;
  const size_t allocBytes =
      rounded == 0 ? kAlignment : static_cast<size_t>(rounded);
  // All tensors together must fit in the memory the machine had available
  // when the process started: a corrupt or hostile shape must fail here,
  // not exhaust the machine (an overcommitted allocation succeeds and the
  // process dies when it is touched).
  static const uint64_t budget = availableMemoryBytes();
  uint64_t before = liveTensorBytes.fetch_add(allocBytes);
  if (budget && before + allocBytes > budget) {
    liveTensorBytes.fetch_sub(allocBytes);
    return errorf("cannot allocate ", dtypeName(dtype), shapeToString(shape),
                  ": ", bytes, " more bytes exceed the ", budget,
                  " bytes of memory available (", before, " in use)");
  }
  void *p =
      ::operator new(allocBytes, std::align_val_t(kAlignment), std::nothrow);
  if (!p) {
    liveTensorBytes.fetch_sub(allocBytes);
    return errorf("cannot allocate ", dtypeName(dtype), shapeToString(shape),
                  ": out of memory (", bytes, " bytes)");
  }
  std::memset(p, 0, allocBytes);
  for (uint64_t now = before + allocBytes, peak = peakTensorBytes.load();
       now > peak && !peakTensorBytes.compare_exchange_weak(peak, now);)
    ;
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numElements_ = n;
  t.storage_ = std::shared_ptr<void>(p, [allocBytes](void *q) {
    liveTensorBytes.fetch_sub(allocBytes);
    ::operator delete(q, std::align_val_t(kAlignment));
  });
  t.data_ = p;
  return t;
}

Tensor Tensor::borrow(DType dtype, Shape shape, void *data,
                      std::shared_ptr<void> keepAlive) {
  Tensor t;
  t.dtype_ = dtype;
  t.numElements_ = shapeNumElements(shape);
  t.shape_ = std::move(shape);
  t.storage_ = std::move(keepAlive);
  t.data_ = data;
  return t;
}

StatusOr<Tensor> Tensor::clone() const {
  if (!isValid())
    return Tensor();
  if (numElements_ < 0)
    return errorf("cannot clone ", typeString(), ": invalid shape");
  StatusOr<Tensor> copy = allocate(dtype_, shape_);
  if (!copy)
    return copy;
  if (numElements_ > 0)
    std::memcpy(copy->data(), data_, byteSize());
  return copy;
}

StatusOr<Tensor> Tensor::reshaped(Shape shape) const {
  const int64_t n = shapeNumElements(shape);
  if (n < 0)
    return errorf("cannot reshape ", typeString(), " to ", shapeToString(shape),
                  ": invalid shape");
  if (n != numElements_)
    return errorf("cannot reshape ", typeString(), " to ", shapeToString(shape),
                  ": element counts differ (", numElements_, " vs ", n, ")");
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

std::string Tensor::typeString() const {
  return std::string(dtypeName(dtype_)) + shapeToString(shape_);
}

} // namespace paracc::rt
