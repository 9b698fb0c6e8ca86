//===- WeightStore.cpp - Parameter data outside the IR ---------*- C++ -*-===//

#include "paracc/Support/WeightStore.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir::paracc;

std::shared_ptr<MappedFile> MappedFile::open(const std::string &path,
                                             std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "'" + path + "' is not a regular file";
    ::close(fd);
    return nullptr;
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->size_ = static_cast<size_t>(st.st_size);
  if (file->size_ > 0) {
    void *p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      error = "cannot map '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return nullptr;
    }
    file->data_ = static_cast<const uint8_t *>(p);
  }
  ::close(fd);
  return file;
}

MappedFile::~MappedFile() {
  if (data_)
    ::munmap(const_cast<uint8_t *>(data_), size_);
}
