//===- MappedFile.h - Read-only file mappings and fingerprints --*- C++ -*-===//
//
// A whole file mapped read-only, shared by the compiler's weight store (ONNX
// external data) and the runtime (executables, and the external data that
// an executable references instead of copying), and the fingerprint that
// tells the runtime whether a referenced file still holds the bytes the
// compiler saw; and the atomic write of a whole file (checkpoints,
// executables, profiles, compiled kernels).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_MAPPEDFILE_H
#define PARACC_RUNTIME_MAPPEDFILE_H

#include "paracc/runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace paracc::rt {

/// A read-only memory mapping of a whole regular file.
class MappedFile {
public:
  static StatusOr<std::shared_ptr<MappedFile>> open(const std::string &path);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  const uint8_t *data() const { return data_; }
  size_t size() const { return size_; }
  /// The path it was opened with.
  const std::string &path() const { return path_; }
  /// Tells the kernel that reads will be sparse (no read-ahead), so that
  /// fingerprinting a range pages in only its samples.
  void adviseSparseReads() const;

private:
  MappedFile() = default;
  const uint8_t *data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

/// A 64-bit fingerprint of `size` bytes at `data`: FNV-1a over the size and
/// every byte of ranges up to 1 MiB; of larger ones, 64 evenly spaced
/// 4 KiB samples (the first and the last included). Cheap for a 14 GB
/// model (at most 1 MiB read per tensor), and different for another model's
/// file, a re-export, or an edit that touches a sample.
uint64_t fingerprintBytes(const uint8_t *data, uint64_t size);

/// Writes `size` bytes to `path` under a temporary name, then renames it:
/// a failed write leaves what was at `path` (checkpoints, executables).
Status writeFileAtomically(const std::string &path, const void *data,
                           size_t size);

/// An absolute, symlink-free spelling of `path` (itself when it cannot be
/// resolved).
std::string absolutePath(const std::string &path);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_MAPPEDFILE_H
