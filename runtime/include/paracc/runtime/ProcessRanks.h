//===- ProcessRanks.h - Ranks as worker processes, with state --*- C++ -*-===//
//
// A RankGroup whose ranks are paracc-run processes on this machine, each
// holding its own state shards for the whole run (training with
// `--ranks-as processes`). The workers talk to each other through Gloo
// (a file store in the run's folder) and to this process through a pipe
// each (a socket as its stdin and stdout): one command line in ("run N", "read S", "write S", "quit"), one
// reply line out ("ok" or "error BYTES" followed by the message). Tensors
// travel as TensorProto files in the worker's folder, so a reply is a few
// bytes whatever the tensors' size.
//
// A worker that fails or dies stops the group: its peers, which may be
// waiting for it inside a collective, get a second to end by themselves and
// are then killed, and every later call fails at once with the first
// failure's message.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_PROCESSRANKS_H
#define PARACC_RUNTIME_PROCESSRANKS_H

#include "paracc/runtime/RankGroup.h"

#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <sys/types.h>
#include <vector>

namespace paracc::rt {

class ProcessRanks : public RankGroup {
public:
  /// Starts one `workerBinary` (paracc-run) process per rank of `exe`,
  /// serving `function`, and waits until each has materialized its state.
  static StatusOr<std::unique_ptr<ProcessRanks>>
  create(std::shared_ptr<const Executable> exe, size_t function,
         const std::string &workerBinary);
  ~ProcessRanks() override;

  std::string describe() const override;

protected:
  Status runRanks(const std::vector<std::vector<Tensor>> &inputs,
                  std::vector<std::vector<Tensor>> &outputs) override;
  StatusOr<Tensor> stateShard(int64_t rank, size_t index) const override;
  Status setStateShard(int64_t rank, size_t index, Tensor shard) override;

private:
  ProcessRanks(std::shared_ptr<const Executable> exe, size_t function)
      : RankGroup(std::move(exe), function) {}
  struct Worker {
    pid_t pid = -1;
    /// Its end of the socket that is the worker's stdin and stdout.
    int fd = -1;
    /// Reply bytes received and not yet parsed.
    std::string pending;
  };
  /// Sends `command` to each of `ranks` and waits for their replies; on a
  /// failure, stops every worker (see the file comment).
  Status command(const std::vector<int64_t> &ranks,
                 const std::string &command) const;
  /// This worker's folder, where its tensors are exchanged.
  std::string rankDir(int64_t rank) const;
  void stopAll() const;

  std::string dir_;
  mutable std::vector<Worker> workers_;
  /// Ok until the first failure; then that failure, which every later call
  /// returns.
  mutable Status failure_;
};

/// The worker side: serves rank `rank` of `function` of `exe` for a
/// ProcessRanks in folder `dir`, reading commands from `commands` and
/// replying on `replies` until "quit" or the end of its input. Returns an
/// exit code.
int serveRank(std::shared_ptr<const Executable> exe, int64_t rank,
              size_t function, const std::string &dir, std::istream &commands,
              std::ostream &replies);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_PROCESSRANKS_H
