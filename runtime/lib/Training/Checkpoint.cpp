//===- Checkpoint.cpp - Saving and restoring training state ----*- C++ -*-===//

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/Kernels.h"
#include "paracc/runtime/NpzIO.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PARACC_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

using namespace paracc::rt;

namespace {
/// The shape of the whole tensor a buffer is (a block of), and where the
/// buffer sits in it.
Shape wholeShape(const StateInfo &s) {
  return s.sourceShape.empty() ? s.globalType.shape : s.sourceShape;
}
std::vector<int64_t> blockOffsets(const StateInfo &s) {
  return s.sourceOffsets.empty()
             ? std::vector<int64_t>(s.globalType.shape.size(), 0)
             : s.sourceOffsets;
}

std::string stepFolder(int64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "step-%08lld", (long long)step);
  return name;
}

Status makeDir(const std::string &path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    return errorf("cannot create '", path, "': ", std::strerror(errno));
  return Status::ok();
}

/// Writes `text` to `path` through a temporary file and a rename.
Status writeAtomically(const std::string &path, const std::string &text) {
  return writeFileAtomically(path, text.data(), text.size());
}

/// Removes a checkpoint folder: its files, then itself.
Status removeTree(const std::string &dir) {
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..")
        std::remove((dir + "/" + name).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
  return Status::ok();
}

std::string rankFile(int64_t rank) {
  char name[32];
  std::snprintf(name, sizeof name, "rank-%05lld.npz", (long long)rank);
  return name;
}

/// Where rank `rank`'s shard of buffer `s` sits in the whole tensor, and its
/// shape.
StatusOr<std::pair<std::vector<int64_t>, Shape>>
shardPlace(const StateInfo &s, const Mesh &mesh, int64_t rank) {
  auto local = localShape(s.globalType.shape, s.sharding, mesh);
  if (!local)
    return local.status().withContext("state '" + s.name + "'");
  std::vector<int64_t> offsets = shardOffsets(*local, s.sharding, mesh, rank);
  std::vector<int64_t> base = blockOffsets(s);
  for (size_t d = 0; d < offsets.size(); ++d)
    offsets[d] += base[d];
  return std::make_pair(offsets, *local);
}

std::string blockKey(const std::string &name,
                     const std::vector<int64_t> &offsets) {
  std::string key = name + "@";
  for (size_t d = 0; d < offsets.size(); ++d)
    key += (d ? "," : "") + std::to_string(offsets[d]);
  return key;
}

/// A saved block of a whole state tensor.
struct SavedBlock {
  std::vector<int64_t> offsets;
  Tensor tensor;
};

/// Copies the part of `from` (at `fromOffsets` in the whole tensor) that
/// overlaps `to` (at `toOffsets`) into `to`; returns the elements copied.
StatusOr<int64_t> copyOverlap(const Tensor &from,
                              const std::vector<int64_t> &fromOffsets,
                              Tensor &to,
                              const std::vector<int64_t> &toOffsets) {
  size_t rank = to.shape().size();
  std::vector<int64_t> inFrom(rank), inTo(rank);
  Shape size(rank);
  int64_t elements = 1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = std::max(fromOffsets[d], toOffsets[d]);
    int64_t hi = std::min(fromOffsets[d] + from.shape()[d],
                          toOffsets[d] + to.shape()[d]);
    if (hi <= lo)
      return int64_t(0);
    size[d] = hi - lo;
    inFrom[d] = lo - fromOffsets[d];
    inTo[d] = lo - toOffsets[d];
    elements *= size[d];
  }
  auto part = extractBlock(from, inFrom, size);
  if (!part)
    return part.status();
  PARACC_RETURN_IF_ERROR(insertBlock(to, *part, inTo));
  return elements;
}
} // namespace

StatusOr<std::map<std::string, Tensor>>
paracc::rt::gatherWholeState(const Executable &exe, const RankGroup &ranks) {
  std::map<std::string, Tensor> whole;
  for (size_t i = 0; i < exe.state().size(); ++i) {
    const StateInfo &s = exe.state()[i];
    if (s.kind == StateKind::WeightCopy)
      continue;
    auto it = whole.find(s.name);
    if (it == whole.end()) {
      auto t = Tensor::allocate(s.globalType.dtype, wholeShape(s));
      if (!t)
        return t.status();
      it = whole.emplace(s.name, std::move(*t)).first;
    }
    auto block = ranks.gatherState(i);
    if (!block)
      return block.status();
    PARACC_RETURN_IF_ERROR(insertBlock(it->second, *block, blockOffsets(s)));
  }
  return whole;
}

Status paracc::rt::castWeightCopies(const Executable &exe, RankGroup &ranks) {
  for (size_t i = 0; i < exe.state().size(); ++i) {
    const StateInfo &s = exe.state()[i];
    if (s.init != StateInit::CastOf)
      continue;
    for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
      if (!exe.holdsState(r, i))
        continue;
      // (Decoding checked that the parameter has the copy's sharding.)
      auto source = ranks.readStateShard(r, size_t(s.source));
      if (!source)
        return source.status();
      auto copy = castOnCpu(*source, s.globalType.dtype);
      if (!copy)
        return copy.status().withContext("state '" + s.name + "'");
      PARACC_RETURN_IF_ERROR(ranks.writeStateShard(r, i, std::move(*copy)));
    }
  }
  return Status::ok();
}

#ifdef PARACC_HAVE_JSON

static nlohmann::json stateDescription(const Executable &exe) {
  nlohmann::json d = nlohmann::json::object();
  for (const StateInfo &s : exe.state())
    if (s.kind != StateKind::WeightCopy)
      d[s.name] = {{"shape", wholeShape(s)},
                   {"dtype", dtypeName(s.globalType.dtype)},
                   {"kind", s.kind == StateKind::Parameter
                                ? "parameter"
                                : "optimizer_state"}};
  return d;
}

Status paracc::rt::saveCheckpoint(const std::string &dir, const Executable &exe,
                                  const RankGroup &ranks, int64_t nextStep,
                                  const CheckpointIdentity &identity) {
  PARACC_RETURN_IF_ERROR(makeDir(dir));
  std::string name = stepFolder(nextStep);
  std::string tmp = dir + "/." + name + ".tmp-" + std::to_string(::getpid());
  // A leftover of a killed run of this process id, if any.
  (void)removeTree(tmp);
  PARACC_RETURN_IF_ERROR(makeDir(tmp));
  // Each rank's shards that no lower rank holds, one file per rank: no
  // whole copy of the state is made.
  nlohmann::json blocks = nlohmann::json::object();
  std::set<std::string> saved;
  for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
    std::vector<NamedTensor> arrays;
    for (size_t i = 0; i < exe.state().size(); ++i) {
      const StateInfo &s = exe.state()[i];
      if (!exe.holdsState(r, i) || s.kind == StateKind::WeightCopy)
        continue;
      auto place = shardPlace(s, exe.mesh(), r);
      if (!place)
        return place.status();
      std::string key = blockKey(s.name, place->first);
      if (!saved.insert(key).second)
        continue; // a replica of a saved block
      auto shard = ranks.readStateShard(r, i);
      if (!shard)
        return shard.status();
      arrays.push_back({key, std::move(*shard)});
      blocks[s.name].push_back({{"file", rankFile(r)},
                                {"array", key},
                                {"offsets", place->first},
                                {"shape", place->second}});
    }
    if (!arrays.empty())
      PARACC_RETURN_IF_ERROR(writeNpzFile(tmp + "/" + rankFile(r), arrays));
  }
  std::string mesh;
  for (size_t a = 0; a < exe.mesh().axisNames.size(); ++a)
    mesh += (a ? "," : "") + exe.mesh().axisNames[a] +
            std::to_string(exe.mesh().axisSizes[a]);
  nlohmann::json manifest = {
      {"format", "paracc-checkpoint-2"},
      {"step", nextStep},
      {"optimizer", identity.optimizer},
      {"data", {{"path", identity.data}, {"seed", identity.dataSeed}}},
      {"saved_on_mesh", mesh.empty() ? "1" : mesh},
      {"state", stateDescription(exe)},
      {"blocks", blocks}};
  std::string manifestText;
  try {
    manifestText = manifest.dump(2) + "\n";
  } catch (const nlohmann::json::type_error &e) {
    // A name that is not UTF-8 (a damaged executable) cannot be JSON.
    return errorf("cannot write the checkpoint's manifest: ", e.what());
  }
  PARACC_RETURN_IF_ERROR(
      writeAtomically(tmp + "/manifest.json", manifestText));
  std::string final = dir + "/" + name;
  // The folder of a step saved before (a rerun) is replaced.
  PARACC_RETURN_IF_ERROR(removeTree(final));
  if (std::rename(tmp.c_str(), final.c_str()) != 0)
    return errorf("cannot rename '", tmp, "' to '", final,
                  "': ", std::strerror(errno));
  return writeAtomically(dir + "/latest", name + "\n");
}

/// The saved blocks of every state tensor, by name: the rank files' blocks
/// the manifest lists, or (the first format) each whole tensor of
/// state.npz as one block.
static StatusOr<std::map<std::string, std::vector<SavedBlock>>>
readSavedBlocks(const std::string &folder, const nlohmann::json &manifest,
                const std::string &what) {
  std::map<std::string, std::vector<SavedBlock>> out;
  if (manifest.value("format", "") == "paracc-checkpoint-1") {
    auto arrays = readNpzFile(folder + "/state.npz");
    if (!arrays)
      return arrays.status();
    for (NamedTensor &a : *arrays) {
      std::vector<int64_t> zeros(a.tensor.shape().size(), 0);
      out[a.name].push_back({zeros, std::move(a.tensor)});
    }
    return out;
  }
  const nlohmann::json &listed = manifest.value("blocks", nlohmann::json());
  if (!listed.is_object())
    return errorf(what, ": the manifest lists no blocks");
  // Each rank file once, its arrays by name.
  std::map<std::string, std::map<std::string, Tensor>> files;
  for (auto &[name, entries] : listed.items()) {
    if (!entries.is_array())
      return errorf(what, ": the blocks of '", name, "' are not a list");
    for (const nlohmann::json &e : entries) {
      if (!e.is_object() || !e.contains("file") || !e["file"].is_string() ||
          !e.contains("array") || !e["array"].is_string() ||
          !e.contains("offsets") || !e["offsets"].is_array())
        return errorf(what, ": a block of '", name, "' is malformed");
      std::string file = e["file"];
      if (file.find('/') != std::string::npos)
        return errorf(what, ": block file '", file, "' is not in the folder");
      auto it = files.find(file);
      if (it == files.end()) {
        auto arrays = readNpzFile(folder + "/" + file);
        if (!arrays)
          return arrays.status();
        std::map<std::string, Tensor> byName;
        for (NamedTensor &a : *arrays)
          byName[a.name] = std::move(a.tensor);
        it = files.emplace(file, std::move(byName)).first;
      }
      auto array = it->second.find(e["array"].get<std::string>());
      if (array == it->second.end())
        return errorf(what, ": ", file, " has no array '",
                      e["array"].get<std::string>(), "'");
      std::vector<int64_t> offsets;
      for (const nlohmann::json &o : e["offsets"]) {
        if (!o.is_number_integer() || o.get<int64_t>() < 0)
          return errorf(what, ": a block of '", name, "' has a bad offset");
        offsets.push_back(o.get<int64_t>());
      }
      if (offsets.size() != array->second.shape().size())
        return errorf(what, ": a block of '", name, "' has ", offsets.size(),
                      " offsets for a rank-", array->second.shape().size(),
                      " array");
      out[name].push_back({std::move(offsets), std::move(array->second)});
    }
  }
  return out;
}

StatusOr<int64_t>
paracc::rt::loadCheckpoint(const std::string &dir, const Executable &exe,
                           RankGroup &ranks,
                           const CheckpointIdentity &identity) {
  std::ifstream latestFile(dir + "/latest");
  std::string name;
  if (!(latestFile >> name))
    return errorf("no checkpoint in '", dir, "' (", dir, "/latest is missing)");
  std::string folder = dir + "/" + name;
  std::ifstream manifestFile(folder + "/manifest.json");
  if (!manifestFile)
    return errorf("cannot read '", folder, "/manifest.json'");
  nlohmann::json manifest =
      nlohmann::json::parse(manifestFile, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded() || !manifest.is_object() ||
      (manifest.value("format", "") != "paracc-checkpoint-1" &&
       manifest.value("format", "") != "paracc-checkpoint-2") ||
      !manifest.contains("step") || !manifest["step"].is_number_integer() ||
      !manifest.contains("state") || !manifest["state"].is_object())
    return errorf(folder, "/manifest.json is not a paracc checkpoint manifest");
  std::string what = "the checkpoint " + folder;
  // What must agree.
  std::string optimizer = manifest.value("optimizer", "");
  if (optimizer != identity.optimizer)
    return errorf(what, " was made with another optimizer: '", optimizer,
                  "', this run uses '", identity.optimizer, "'");
  nlohmann::json here = stateDescription(exe);
  const nlohmann::json &there = manifest["state"];
  for (auto &[key, value] : here.items()) {
    if (!there.contains(key))
      return errorf(what, " is of another model: it has no '", key, "'");
    if (there[key] != value)
      return errorf(what, " is of another model: '", key, "' is ",
                    there[key].dump(), " there and ", value.dump(), " here");
  }
  for (auto &[key, value] : there.items())
    if (!here.contains(key))
      return errorf(what, " is of another model: this one has no '", key, "'");
  auto blocks = readSavedBlocks(folder, manifest, what);
  if (!blocks)
    return blocks.status();
  // Each rank's shard on this mesh, from the saved blocks it overlaps.
  for (size_t i = 0; i < exe.state().size(); ++i) {
    const StateInfo &s = exe.state()[i];
    if (s.kind == StateKind::WeightCopy)
      continue; // Cast from the restored parameter below.
    const std::vector<SavedBlock> &pieces = (*blocks)[s.name];
    for (int64_t r = 0; r < exe.mesh().numRanks(); ++r) {
      if (!exe.holdsState(r, i))
        continue;
      auto place = shardPlace(s, exe.mesh(), r);
      if (!place)
        return place.status();
      auto shard = Tensor::allocate(s.globalType.dtype, place->second);
      if (!shard)
        return shard.status();
      int64_t covered = 0;
      for (const SavedBlock &b : pieces) {
        if (b.tensor.dtype() != s.globalType.dtype ||
            b.tensor.shape().size() != place->second.size())
          return errorf(what, ": a block of '", s.name, "' is ",
                        b.tensor.typeString(), ", not ",
                        dtypeName(s.globalType.dtype), " of rank ",
                        place->second.size());
        auto copied = copyOverlap(b.tensor, b.offsets, *shard, place->first);
        if (!copied)
          return copied.status();
        covered += *copied;
      }
      if (covered != shard->numElements())
        return errorf(what, ": its blocks of '", s.name, "' cover ", covered,
                      " of the ", shard->numElements(),
                      " elements of rank ", r, "'s shard");
      PARACC_RETURN_IF_ERROR(ranks.writeStateShard(r, i, std::move(*shard)));
    }
  }
  PARACC_RETURN_IF_ERROR(castWeightCopies(exe, ranks));
  return int64_t(manifest["step"]);
}

#else

Status paracc::rt::saveCheckpoint(const std::string &dir, const Executable &,
                                  const RankGroup &, int64_t,
                                  const CheckpointIdentity &) {
  return errorf("this runtime was built without nlohmann-json: no "
                "checkpoints (",
                dir, ")");
}

StatusOr<int64_t> paracc::rt::loadCheckpoint(const std::string &dir,
                                             const Executable &, RankGroup &,
                                             const CheckpointIdentity &) {
  return errorf("this runtime was built without nlohmann-json: no "
                "checkpoints (",
                dir, ")");
}

#endif
