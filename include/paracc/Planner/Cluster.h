//===- Cluster.h - Devices, links and collectives of a cluster --*- C++ -*-===//
//
// What the planner plans for: nodes of identical devices, the links between
// them in two classes (intra-node: NVLink or the host's memory; inter-node:
// each device's NIC), and the time of a collective over a group of ranks
// laid out on them (ring within a node, hierarchical across nodes, with
// alpha-beta latency terms).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_PLANNER_CLUSTER_H
#define PARACC_PLANNER_CLUSTER_H

#include "paracc/Planner/CostModel.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::paracc {

/// One class of links: the bandwidth each rank gets in a collective (bus
/// bandwidth, bytes/s) and the latency of one step of a ring.
struct LinkClass {
  double bytesPerSecond = 0;
  double latencySeconds = 0;
};

/// A device kind the planner knows: its rate table and its memory.
struct DeviceSpec {
  llvm::StringLiteral name;
  /// Bytes of device memory (the spec sheet's).
  int64_t memoryBytes;
  /// Dense tensor-core peak (bf16) and f32 peak, FLOP/s: MFU's denominator.
  double peakLowPrecision, peakF32;
  /// Default inter-node bandwidth per device (bytes/s).
  double interNodeBytesPerSecond;
  /// Whether the runtime overlaps a collective with the compute that does
  /// not need its result (the GPU's collectives run on their own stream;
  /// the CPU backend's block).
  bool overlapsCollectives;
};

/// Every device kind: h200, h100, a100, a100-40g, cpu.
llvm::ArrayRef<DeviceSpec> deviceSpecs();
/// The kind whose table stands for a GPU named `name` as CUDA and
/// nvidia-smi print it ("NVIDIA H100 80GB HBM3": h100; H800 and GH200 take
/// h100's, A800 a100's; an A100 of 40 GB, by its name or `memoryBytes`,
/// a100-40g); empty when none does.
llvm::StringRef deviceKindForName(llvm::StringRef name,
                                  int64_t memoryBytes = 0);
/// "h200, h100, a100, a100-40g, cpu".
std::string knownDeviceNames();

struct Cluster {
  int64_t nodes = 1, devicesPerNode = 1;
  DeviceSpec device = deviceSpecs().back();
  DeviceRates rates;
  LinkClass intra, inter;
  /// Memory the plan may not use per device: the runtime's context, the
  /// collectives' library and the allocator's slack.
  int64_t reserveBytes = 0;
  /// Where the cluster came from when it was probed (`local`), in words.
  std::string origin;

  int64_t ranks() const { return nodes * devicesPerNode; }
  /// Bytes a plan may use per device.
  int64_t usableBytes() const { return device.memoryBytes - reserveBytes; }
  /// "16x8:h200".
  std::string str() const;
};

/// Parses `NODESxDEVICES:KIND[,intra=GBPS][,inter=GBPS][,memory=GIB]
/// [,reserve=GIB]` (KIND a kind's name, or a GPU's as deviceKindForName
/// reads it), or a JSON file (a path ending in .json) with the fields
/// nodes, devices_per_node, device and optionally intra_gbps, inter_gbps,
/// memory_gib, reserve_gib. Bandwidths in GB/s (10^9 bytes). On failure
/// returns std::nullopt with `error` saying why.
std::optional<Cluster> parseCluster(llvm::StringRef text, std::string &error);

/// How a group of ranks (a mesh axis) lies on the cluster: `size` ranks,
/// `perNode` of them in each node they touch.
struct GroupPlacement {
  int64_t size = 1, perNode = 1;
  int64_t nodes() const { return size / perNode; }
  bool crossesNodes() const { return perNode < size; }
};

/// The placement of mesh axis `axis` of `sizes` (outermost first; the last
/// axis's ranks are consecutive) on nodes of `devicesPerNode`.
GroupPlacement placeAxis(llvm::ArrayRef<int64_t> sizes, size_t axis,
                         int64_t devicesPerNode);

/// Seconds of an all-reduce of `bytes` over `group`: a ring within a node;
/// across nodes the hierarchical form (reduce-scatter in the node,
/// all-reduce of the 1/perNode shard between nodes, all-gather in the node),
/// every device using its own NIC.
double allReduceSeconds(const Cluster &cluster, GroupPlacement group,
                        double bytes);
/// An all-gather whose result (or a reduce-scatter whose input) is `bytes`:
/// half an all-reduce's traffic.
double allGatherSeconds(const Cluster &cluster, GroupPlacement group,
                        double bytes);
/// A point-to-point transfer of `bytes` (pipeline stages), over the node's
/// links or its NIC.
double pointToPointSeconds(const Cluster &cluster, bool crossesNodes,
                           double bytes);

} // namespace mlir::paracc

#endif // PARACC_PLANNER_CLUSTER_H
