//===- WorkerProcesses.h - Starting and ending rank processes --*- C++ -*-===//
//
// The process side of `--ranks-as processes` and of local multi-GPU
// launches: starting a worker (paracc-run in a worker mode) with its output
// in a log file, waiting for a set of workers so that one failing never
// leaves the others hanging, and reading a worker's log for the message.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_WORKERPROCESSES_H
#define PARACC_RUNTIME_WORKERPROCESSES_H

#include "paracc/runtime/Executable.h"
#include "paracc/runtime/Status.h"

#include <cstddef>
#include <string>
#include <sys/types.h>
#include <vector>

namespace paracc::rt {

/// How a worker process ended.
struct WorkerEnd {
  /// Ended by waitForWorkers after another worker failed.
  bool stopped = false;
  /// The exit code, or kExitError when a signal ended it.
  int code = 0;
  std::string how; // "" or "killed by signal N"
  /// When it was seen to end, 0 for the first.
  size_t order = 0;
};

/// Where a worker's standard streams go.
struct WorkerStreams {
  /// Its stdout and stderr, or only its stderr when `stdoutFd` is given
  /// ("": this terminal).
  std::string logPath;
  /// Descriptors that become its stdin and stdout (-1: inherited). They
  /// should be close-on-exec in this process, as should every other
  /// descriptor a worker must not keep open.
  int stdinFd = -1, stdoutFd = -1;
};

/// Starts `args[0]` with `args` and `envp` (the caller's environment when
/// empty).
StatusOr<pid_t> spawnWorker(std::vector<std::string> args,
                            std::vector<std::string> envp,
                            const WorkerStreams &streams);

/// Waits for every worker. A failure on one rank usually makes its peers
/// fail or wait on it, so once one fails the others get a second to stop
/// by themselves and are then ended (no hang until the collective timeout).
std::vector<WorkerEnd> waitForWorkers(const std::vector<pid_t> &pids);

/// A new folder /tmp/PREFIX.XXXXXX for a run's workers, holding `exe` as
/// workerProgramPath(folder) for them to load; its path. Nothing is left
/// behind on failure.
StatusOr<std::string> makeWorkerFolder(const Executable &exe,
                                       const std::string &prefix);
std::string workerProgramPath(const std::string &folder);
/// Removes a run's folder and everything in it.
void removeWorkerFolder(const std::string &folder);

/// Where worker `rank` of the run in `dir` writes its log.
std::string workerLogPath(const std::string &dir, size_t rank);

/// A worker's log, without trailing blank space.
std::string workerLog(const std::string &dir, size_t rank);

} // namespace paracc::rt

#endif // PARACC_RUNTIME_WORKERPROCESSES_H
