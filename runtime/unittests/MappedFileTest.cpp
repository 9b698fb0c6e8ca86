//===- MappedFileTest.cpp - File mappings and their fingerprints ----------===//

#include "paracc/runtime/MappedFile.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

using namespace paracc::rt;

namespace {

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out(n);
  for (uint8_t &b : out)
    b = uint8_t(rng());
  return out;
}

/// FNV-1a 64 of every byte after the eight little-endian size bytes,
/// written out here from its definition.
uint64_t referenceFnv(const std::vector<uint8_t> &bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](uint8_t b) { h = (h ^ b) * 0x100000001b3ull; };
  for (int i = 0; i < 8; ++i)
    mix(uint8_t(uint64_t(bytes.size()) >> (8 * i)));
  for (uint8_t b : bytes)
    mix(b);
  return h;
}

TEST(FingerprintTest, SmallRangesHashEveryByte) {
  std::vector<uint8_t> bytes = randomBytes(1000, 1);
  EXPECT_EQ(fingerprintBytes(bytes.data(), bytes.size()),
            referenceFnv(bytes));
  uint64_t before = fingerprintBytes(bytes.data(), bytes.size());
  bytes[517] ^= 0x10;
  EXPECT_NE(fingerprintBytes(bytes.data(), bytes.size()), before);
}

TEST(FingerprintTest, LargeRangesSeeTheirEndsAndTheirSize) {
  std::vector<uint8_t> bytes = randomBytes(5 << 20, 2);
  uint64_t base = fingerprintBytes(bytes.data(), bytes.size());
  // The same bytes give the same fingerprint.
  EXPECT_EQ(fingerprintBytes(bytes.data(), bytes.size()), base);
  // One shorter: the size is hashed.
  EXPECT_NE(fingerprintBytes(bytes.data(), bytes.size() - 1), base);
  // The first and the last bytes are in samples.
  bytes.front() ^= 1;
  EXPECT_NE(fingerprintBytes(bytes.data(), bytes.size()), base);
  bytes.front() ^= 1;
  bytes.back() ^= 1;
  EXPECT_NE(fingerprintBytes(bytes.data(), bytes.size()), base);
  bytes.back() ^= 1;
  // Another file of the same size (another model, a re-export).
  std::vector<uint8_t> other = randomBytes(bytes.size(), 3);
  EXPECT_NE(fingerprintBytes(other.data(), other.size()), base);
}

TEST(MappedFileTest, MapsAWholeFileAndReportsMissingOnes) {
  std::string path = ::testing::TempDir() + "mapped_file_test.bin";
  std::vector<uint8_t> bytes = randomBytes(12345, 4);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()),
            std::streamsize(bytes.size()));
  }
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file) << file.status().message();
  ASSERT_EQ((*file)->size(), bytes.size());
  EXPECT_EQ(std::vector<uint8_t>((*file)->data(),
                                 (*file)->data() + (*file)->size()),
            bytes);
  EXPECT_EQ((*file)->path(), path);
  (*file)->adviseSparseReads();
  EXPECT_EQ(fingerprintBytes((*file)->data(), (*file)->size()),
            referenceFnv(bytes));
  std::remove(path.c_str());
  auto missing = MappedFile::open(path);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.status().message().find("cannot open '" + path + "'"),
            std::string::npos)
      << missing.status().message();
}

} // namespace
