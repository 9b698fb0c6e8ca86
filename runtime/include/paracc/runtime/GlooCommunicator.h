//===- GlooCommunicator.h - CPU collectives through Gloo -------*- C++ -*-===//
//
// Collectives of the CPU backend through Gloo (TCP on the loopback device):
// one Gloo context per mesh-axis group, created when the group first
// communicates. Ranks rendezvous through a store: an in-process one when
// ranks are threads, a folder of files when they are processes.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_GLOOCOMMUNICATOR_H
#define PARACC_RUNTIME_GLOOCOMMUNICATOR_H

#include "paracc/runtime/Collectives.h"

#include <chrono>
#include <memory>
#include <string>

namespace paracc::rt {

/// The shared rendezvous of one run: every rank's communicator comes from
/// the same world.
class GlooWorld {
public:
  /// A world whose ranks are threads of this process.
  static std::shared_ptr<GlooWorld> inProcess(const Mesh &mesh);
  /// A world whose ranks are processes sharing the folder `storeDir`.
  static std::shared_ptr<GlooWorld> withFileStore(const Mesh &mesh,
                                                  const std::string &storeDir);
  ~GlooWorld();

  /// The communicator of `rank`. Collectives fail (never hang forever)
  /// after `timeout`.
  std::unique_ptr<Communicator>
  communicator(int64_t rank,
               std::chrono::milliseconds timeout = defaultTimeout());

  /// PARACC_COLLECTIVE_TIMEOUT_S, or 300 s.
  static std::chrono::milliseconds defaultTimeout();

  struct Impl;

private:
  explicit GlooWorld(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_GLOOCOMMUNICATOR_H
