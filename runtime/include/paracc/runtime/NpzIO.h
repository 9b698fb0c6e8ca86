//===- NpzIO.h - NumPy .npy and .npz files ----------------------*- C++ -*-===//
//
// Reads and writes numpy's array files: .npy (one array: a magic, a header
// dict with dtype, order and shape, the raw little-endian data) and .npz (a
// zip archive of NAME.npy members, read with libzip). Used for reference
// gradients (--check-gradients) and for saving gradients and state.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_NPZIO_H
#define PARACC_RUNTIME_NPZIO_H

#include "paracc/runtime/Status.h"
#include "paracc/runtime/TensorProtoIO.h"

#include <string>
#include <vector>

namespace paracc::rt {

/// Parses one .npy array (C order; dtypes of DType.h, little-endian).
/// Errors name `what`.
StatusOr<Tensor> parseNpy(const void *data, size_t size,
                          const std::string &what);
/// Serializes `tensor` as .npy (format 1.0).
std::string serializeNpy(const Tensor &tensor);

/// Every array of an .npz archive, named by its member without ".npy", in
/// archive order.
StatusOr<std::vector<NamedTensor>> readNpzFile(const std::string &path);
/// Writes an uncompressed .npz archive.
Status writeNpzFile(const std::string &path,
                    const std::vector<NamedTensor> &arrays);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_NPZIO_H
