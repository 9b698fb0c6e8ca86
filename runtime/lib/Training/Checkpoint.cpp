//===- Checkpoint.cpp - Saving and restoring training state ----*- C++ -*-===//

#include "paracc/runtime/Checkpoint.h"
#include "paracc/runtime/NpzIO.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PARACC_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

using namespace paracc::rt;

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

Status removeTree(const std::string &dir) {
  for (const char *f : {"state.npz", "manifest.json"})
    std::remove((dir + "/" + f).c_str());
  ::rmdir(dir.c_str());
  return Status::ok();
}
} // namespace

StatusOr<std::map<std::string, Tensor>>
paracc::rt::gatherWholeState(const Executable &exe, const RankGroup &ranks) {
  std::map<std::string, Tensor> whole;
  for (size_t i = 0; i < exe.state().size(); ++i) {
    const StateInfo &s = exe.state()[i];
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

#ifdef PARACC_HAVE_JSON

static nlohmann::json stateDescription(const Executable &exe) {
  nlohmann::json d = nlohmann::json::object();
  for (const StateInfo &s : exe.state())
    d[s.name] = {{"shape", wholeShape(s)},
                 {"dtype", dtypeName(s.globalType.dtype)},
                 {"kind", s.kind == StateKind::Parameter ? "parameter"
                                                         : "optimizer_state"}};
  return d;
}

Status paracc::rt::saveCheckpoint(const std::string &dir, const Executable &exe,
                                  const RankGroup &ranks, int64_t nextStep,
                                  const CheckpointIdentity &identity) {
  PARACC_RETURN_IF_ERROR(makeDir(dir));
  auto whole = gatherWholeState(exe, ranks);
  if (!whole)
    return whole.status();
  std::string name = stepFolder(nextStep);
  std::string tmp = dir + "/." + name + ".tmp-" + std::to_string(::getpid());
  // A leftover of a killed run of this process id, if any.
  (void)removeTree(tmp);
  PARACC_RETURN_IF_ERROR(makeDir(tmp));
  std::vector<NamedTensor> arrays;
  for (auto &[n, t] : *whole)
    arrays.push_back({n, t});
  PARACC_RETURN_IF_ERROR(writeNpzFile(tmp + "/state.npz", arrays));
  std::string mesh;
  for (size_t a = 0; a < exe.mesh().axisNames.size(); ++a)
    mesh += (a ? "," : "") + exe.mesh().axisNames[a] +
            std::to_string(exe.mesh().axisSizes[a]);
  nlohmann::json manifest = {
      {"format", "paracc-checkpoint-1"},
      {"step", nextStep},
      {"optimizer", identity.optimizer},
      {"data", {{"path", identity.data}, {"seed", identity.dataSeed}}},
      {"saved_on_mesh", mesh.empty() ? "1" : mesh},
      {"state", stateDescription(exe)}};
  PARACC_RETURN_IF_ERROR(
      writeAtomically(tmp + "/manifest.json", manifest.dump(2) + "\n"));
  std::string final = dir + "/" + name;
  // The folder of a step saved before (a rerun) is replaced.
  PARACC_RETURN_IF_ERROR(removeTree(final));
  if (std::rename(tmp.c_str(), final.c_str()) != 0)
    return errorf("cannot rename '", tmp, "' to '", final,
                  "': ", std::strerror(errno));
  return writeAtomically(dir + "/latest", name + "\n");
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
      manifest.value("format", "") != "paracc-checkpoint-1" ||
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
  auto arrays = readNpzFile(folder + "/state.npz");
  if (!arrays)
    return arrays.status();
  std::map<std::string, Tensor> whole;
  for (NamedTensor &a : *arrays)
    whole[a.name] = std::move(a.tensor);
  for (size_t i = 0; i < exe.state().size(); ++i) {
    const StateInfo &s = exe.state()[i];
    auto it = whole.find(s.name);
    if (it == whole.end() || it->second.shape() != wholeShape(s) ||
        it->second.dtype() != s.globalType.dtype)
      return errorf(what, ": state.npz does not hold '", s.name, "' as ",
                    dtypeName(s.globalType.dtype),
                    shapeToString(wholeShape(s)));
    auto block = extractBlock(it->second, blockOffsets(s), s.globalType.shape);
    if (!block)
      return block.status();
    PARACC_RETURN_IF_ERROR(ranks.scatterState(i, *block));
  }
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
