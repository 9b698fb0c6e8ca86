//===- Checkpoint.h - Saving and restoring training state ------*- C++ -*-===//
//
// A checkpoint is a folder DIR/step-NNNNNNNN with one rank-RRRRR.npz per
// rank that holds a shard no lower rank holds (each rank its own shards;
// a replica is saved once), and manifest.json: the step to run next, the
// model's state (whole shapes, dtypes, kinds), for each state tensor the
// blocks that make it up (file, array, offsets in the whole tensor, shape),
// the optimizer and its settings, the data, the mesh it was saved on.
// Loading assembles each rank's shard on the current mesh from the blocks
// it overlaps, so a checkpoint loads on any mesh without a whole copy of
// the state. The folder is written under a temporary name and renamed,
// then DIR/latest (the folder's name) is replaced the same way: a run
// killed at any point leaves the last complete checkpoint in place.
// Checkpoints of the first format (one state.npz of whole tensors) load.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_CHECKPOINT_H
#define PARACC_RUNTIME_CHECKPOINT_H

#include "paracc/runtime/MappedFile.h"
#include "paracc/runtime/RankGroup.h"

#include <map>
#include <string>

namespace paracc::rt {

/// A run's identity in its checkpoints: the optimizer and its settings (a
/// text such as "adamw beta1=0.9 ..."), which must agree for a checkpoint to
/// continue a run, and the data, which the manifest records.
struct CheckpointIdentity {
  std::string optimizer;
  std::string data;
  uint64_t dataSeed = 0;
};

/// Every state buffer of `exe` as a whole tensor (blocks assembled), by
/// name.
StatusOr<std::map<std::string, Tensor>> gatherWholeState(const Executable &exe,
                                                         const RankGroup &ranks);

/// Casts every weight copy (StateKind::WeightCopy) of `ranks` from its
/// parameter again: what a load of the parameters must be followed by.
Status castWeightCopies(const Executable &exe, RankGroup &ranks);

/// Writes DIR/step-NNNNNNNN (atomically) and points DIR/latest at it.
/// `nextStep` is the step a resumed run starts at.
Status saveCheckpoint(const std::string &dir, const Executable &exe,
                      const RankGroup &ranks, int64_t nextStep,
                      const CheckpointIdentity &identity);

/// Loads DIR/latest into `ranks` (resharded to `exe`'s mesh) and returns the
/// step to continue at. A checkpoint of another model (state names or
/// shapes) or optimizer is refused with a message saying what differs.
StatusOr<int64_t> loadCheckpoint(const std::string &dir, const Executable &exe,
                                 RankGroup &ranks,
                                 const CheckpointIdentity &identity);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_CHECKPOINT_H
