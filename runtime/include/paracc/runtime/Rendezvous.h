//===- Rendezvous.h - Launchers and start-up exchange ----------*- C++ -*-===//
//
// Multi-process runs: the environment that torchrun, mpirun and Slurm give
// each process (rank, world size, local rank, rank 0's address), and the
// TCP exchange through which rank 0 hands every rank the NCCL unique id.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_RENDEZVOUS_H
#define PARACC_RUNTIME_RENDEZVOUS_H

#include "paracc/runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace paracc::rt {

struct LaunchEnvironment {
  /// Whether a launcher started this process as one rank of many.
  bool present = false;
  int64_t rank = 0, world = 1, localRank = 0;
  std::string masterAddr = "127.0.0.1";
  int masterPort = 29500;
};

/// RANK/WORLD_SIZE/LOCAL_RANK/MASTER_ADDR/MASTER_PORT (torchrun), or
/// OMPI_COMM_WORLD_* (mpirun), or SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID.
LaunchEnvironment readLaunchEnvironment();

/// Rank 0's `bytes` reach every rank through a TCP connection to
/// host:port; fails (never hangs) after `timeoutSeconds`.
Status shareBytes(int64_t rank, int64_t world, const std::string &host,
                  int port, std::vector<uint8_t> &bytes,
                  double timeoutSeconds);

/// A TCP port that was free a moment ago (for a local launch).
int freeTcpPort();

} // namespace paracc::rt

#endif // PARACC_RUNTIME_RENDEZVOUS_H
