//===- MappedFile.cpp - Read-only file mappings and fingerprints ---------===//

#include "paracc/runtime/MappedFile.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace paracc::rt;

StatusOr<std::shared_ptr<MappedFile>>
MappedFile::open(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errorf("cannot open '", path, "': ", std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return errorf("'", path, "' is not a regular file");
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = path;
  file->size_ = static_cast<size_t>(st.st_size);
  if (file->size_ > 0) {
    void *p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return errorf("cannot map '", path, "': ", std::strerror(err));
    }
    file->data_ = static_cast<const uint8_t *>(p);
  }
  ::close(fd);
  return file;
}

void MappedFile::adviseSparseReads() const {
  if (data_)
    ::madvise(const_cast<uint8_t *>(data_), size_, MADV_RANDOM);
}

MappedFile::~MappedFile() {
  if (data_)
    ::munmap(const_cast<uint8_t *>(data_), size_);
}

namespace {
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;
constexpr uint64_t kWholeLimit = uint64_t(1) << 20;
constexpr uint64_t kSampleBytes = 4096;
constexpr uint64_t kSamples = 64;

void mix(uint64_t &h, const uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * kFnvPrime;
}
} // namespace

uint64_t paracc::rt::fingerprintBytes(const uint8_t *data, uint64_t size) {
  uint64_t h = kFnvOffset;
  uint8_t sizeBytes[8];
  for (int i = 0; i < 8; ++i)
    sizeBytes[i] = uint8_t(size >> (8 * i));
  mix(h, sizeBytes, 8);
  if (size <= kWholeLimit) {
    mix(h, data, size);
    return h;
  }
  uint64_t last = size - kSampleBytes;
  for (uint64_t s = 0; s < kSamples; ++s)
    mix(h, data + last / (kSamples - 1) * s, kSampleBytes);
  mix(h, data + last, kSampleBytes);
  return h;
}

std::string paracc::rt::absolutePath(const std::string &path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved))
    return resolved;
  return path;
}

Status paracc::rt::writeFileAtomically(const std::string &path,
                                       const void *data, size_t size) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out.write(static_cast<const char *>(data), std::streamsize(size));
    out.flush();
    if (!out) {
      Status st = errorf("cannot write '", tmp, "': ", std::strerror(errno));
      std::remove(tmp.c_str());
      return st;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    Status st = errorf("cannot rename '", tmp, "' to '", path,
                       "': ", std::strerror(errno));
    std::remove(tmp.c_str());
    return st;
  }
  return Status::ok();
}
