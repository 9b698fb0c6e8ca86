//===- WeightStore.h - Parameter data outside the IR -----------*- C++ -*-===//
//
// The data of the `graph.weight` ops of a module: for each parameter name,
// its element type, shape and bytes, which live in a memory-mapped file
// (ONNX external data), in memory (embedded initializers), or nowhere at all
// (shape-only models, filled with seeded random values at load time).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_SUPPORT_WEIGHTSTORE_H
#define PARACC_SUPPORT_WEIGHTSTORE_H

#include "paracc/Support/RuntimeAlias.h"
#include "paracc/runtime/DType.h"
#include "paracc/runtime/MappedFile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::paracc {

/// Files are mapped by the runtime's class (the executable references
/// them too).
using ::paracc::rt::MappedFile;

struct WeightEntry {
  rt::DType dtype = rt::DType::Invalid;
  std::vector<int64_t> shape;
  /// Where the bytes are: a range of `file`, or `owned`. Neither: no data
  /// (the executable asks the runtime for random values).
  std::shared_ptr<MappedFile> file;
  size_t offset = 0;
  size_t size = 0;
  std::vector<uint8_t> owned;

  bool hasData() const { return file || !owned.empty() || size == 0; }
  const uint8_t *data() const {
    return file ? file->data() + offset : owned.data();
  }
};

class WeightStore {
public:
  void add(const std::string &name, WeightEntry entry) {
    entries_[name] = std::move(entry);
  }
  const WeightEntry *lookup(const std::string &name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, WeightEntry> &entries() const { return entries_; }
  /// Whether weights without data are filled with seeded random values.
  bool randomFill = false;
  uint64_t randomSeed = 0;

private:
  std::map<std::string, WeightEntry> entries_;
};

} // namespace mlir::paracc

#endif // PARACC_SUPPORT_WEIGHTSTORE_H
