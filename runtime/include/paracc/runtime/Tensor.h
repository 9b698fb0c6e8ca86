//===- Tensor.h - Runtime tensors -----------------------------*- C++ -*-===//
//
// A dense row-major tensor: element type, shape and a reference-counted
// (or borrowed) buffer.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_TENSOR_H
#define PARACC_RUNTIME_TENSOR_H

#include "paracc/runtime/DType.h"
#include "paracc/runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace paracc::rt {

using Shape = std::vector<int64_t>;

/// Number of elements of `shape`, or -1 if a dimension is negative or the
/// product overflows int64.
int64_t shapeNumElements(const Shape &shape);
/// "[2,64,1024]".
std::string shapeToString(const Shape &shape);

/// The most bytes the tensors this process allocated held at once (each
/// rounded up to the 64-byte alignment) since the last reset: with CPU ranks
/// as threads, every rank's tensors together.
uint64_t peakLiveTensorBytes();
/// Restarts peakLiveTensorBytes from the bytes held now.
void resetPeakLiveTensorBytes();

class Tensor {
public:
  Tensor() = default;

  /// A new 64-byte-aligned buffer, zero-filled. Fails on negative dims or
  /// sizes that overflow.
  static StatusOr<Tensor> allocate(DType dtype, Shape shape);
  /// A view of memory owned elsewhere; `keepAlive` (may be null) is held for
  /// the lifetime of the view.
  static Tensor borrow(DType dtype, Shape shape, void *data,
                       std::shared_ptr<void> keepAlive = nullptr);

  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i]; }
  int64_t numElements() const { return numElements_; }
  size_t byteSize() const {
    return static_cast<size_t>(numElements_) * dtypeSize(dtype_);
  }
  bool isValid() const { return dtype_ != DType::Invalid; }

  void *data() { return data_; }
  const void *data() const { return data_; }
  template <typename T> T *as() { return static_cast<T *>(data_); }
  template <typename T> const T *as() const {
    return static_cast<const T *>(data_);
  }

  /// A deep copy into a new buffer.
  StatusOr<Tensor> clone() const;
  /// The same buffer seen with another shape of equal element count.
  StatusOr<Tensor> reshaped(Shape shape) const;
  /// "f32[2,3]".
  std::string typeString() const;

private:
  DType dtype_ = DType::Invalid;
  Shape shape_;
  int64_t numElements_ = 0;
  std::shared_ptr<void> storage_;
  void *data_ = nullptr;
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_TENSOR_H
