//===- Cluster.cpp - Devices, links and collectives of a cluster ---------===//

#include "paracc/Planner/Cluster.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::paracc;

// Memory and peaks: NVIDIA's datasheets (H200 SXM 141 GB, H100 SXM 80 GB,
// A100 SXM 80 and 40 GB; dense bf16 and f32 FLOP/s). Inter-node bandwidth
// per device: one 400 Gb/s NIC per H100/H200 (ConnectX-7, as in DGX H100)
// and one 200 Gb/s NIC per A100 (DGX A100), less protocol overhead. A CPU
// rank: 16 GiB and a 10 GbE link; its "peak" is the rate table's products.
static const DeviceSpec kDevices[] = {
    {"h200", 141'000'000'000, 989e12, 67e12, 45e9, true},
    {"h100", 80'000'000'000, 989e12, 67e12, 45e9, true},
    {"a100", 80'000'000'000, 312e12, 19.5e12, 22e9, true},
    {"a100-40g", 40'000'000'000, 312e12, 19.5e12, 22e9, true},
    {"cpu", int64_t(16) << 30, 22e9, 22e9, 1.1e9, false},
};

ArrayRef<DeviceSpec> mlir::paracc::deviceSpecs() { return kDevices; }

std::string mlir::paracc::knownDeviceNames() {
  std::string names;
  for (const DeviceSpec &d : kDevices)
    names += (names.empty() ? "" : ", ") + d.name.str();
  return names;
}

std::string Cluster::str() const {
  return std::to_string(nodes) + "x" + std::to_string(devicesPerNode) + ":" +
         device.name.str();
}

StringRef mlir::paracc::deviceKindForName(StringRef name,
                                          int64_t memoryBytes) {
  std::string lower = name.lower();
  StringRef n(lower);
  if (n.contains("h200"))
    return "h200";
  if (n.contains("h100") || n.contains("h800") || n.contains("gh200"))
    return "h100";
  if (n.contains("a100") || n.contains("a800")) {
    bool small = n.contains("40gb") ||
                 (memoryBytes > 0 && memoryBytes < 60'000'000'000);
    return small ? "a100-40g" : "a100";
  }
  return "";
}

/// The cluster of `nodes` x `perNode` devices named `kind`, with the
/// defaults of its kind.
static std::optional<Cluster> makeCluster(int64_t nodes, int64_t perNode,
                                          StringRef kind, std::string &error) {
  if (nodes < 1 || perNode < 1) {
    error = "expected at least one node of at least one device";
    return std::nullopt;
  }
  auto specNamed = [](StringRef name) -> const DeviceSpec * {
    for (const DeviceSpec &d : kDevices)
      if (d.name == name)
        return &d;
    return nullptr;
  };
  // A GPU named as nvidia-smi prints it takes its kind's table.
  if (!specNamed(kind) && !deviceKindForName(kind).empty())
    kind = deviceKindForName(kind);
  const DeviceSpec *spec = specNamed(kind);
  std::optional<DeviceRates> rates = ratesByName(kind);
  if (!spec || !rates) {
    error = "unknown device '" + kind.str() +
            "' (known: " + knownDeviceNames() + ")";
    return std::nullopt;
  }
  Cluster c;
  c.nodes = nodes;
  c.devicesPerNode = perNode;
  c.device = *spec;
  c.rates = *rates;
  c.intra = {rates->collectiveBytesPerSecond, rates->launchSeconds};
  c.inter = {spec->interNodeBytesPerSecond, 10e-6};
  // The CUDA context, NCCL's buffers and the caching allocator's slack.
  c.reserveBytes = kind == "cpu" ? 0 : int64_t(2) << 30;
  return c;
}

/// Applies one `key=value` setting; false with `error` on a bad one.
static bool applySetting(Cluster &c, StringRef key, double value,
                         std::string &error) {
  if (!(value > 0) || !std::isfinite(value)) {
    error = "'" + key.str() + "' must be a positive number";
    return false;
  }
  if (key == "intra" || key == "intra_gbps")
    c.intra.bytesPerSecond = value * 1e9;
  else if (key == "inter" || key == "inter_gbps")
    c.inter.bytesPerSecond = value * 1e9;
  else if (key == "memory" || key == "memory_gib")
    c.device.memoryBytes = int64_t(value * double(int64_t(1) << 30));
  else if (key == "reserve" || key == "reserve_gib")
    c.reserveBytes = int64_t(value * double(int64_t(1) << 30));
  else {
    error = "unknown setting '" + key.str() +
            "' (known: intra, inter, memory, reserve)";
    return false;
  }
  return true;
}

static std::optional<Cluster> parseClusterFile(StringRef path,
                                               std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = path.str() + ": " + llvm::toString(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *o = json->getAsObject();
  if (!o) {
    error = path.str() + ": expected a JSON object";
    return std::nullopt;
  }
  std::optional<int64_t> nodes = o->getInteger("nodes");
  std::optional<int64_t> perNode = o->getInteger("devices_per_node");
  std::optional<StringRef> kind = o->getString("device");
  for (auto [present, field] :
       {std::pair{nodes.has_value(), "nodes"},
        std::pair{perNode.has_value(), "devices_per_node"},
        std::pair{kind.has_value(), "device"}})
    if (!present) {
      error = path.str() + ": missing field '" + field +
              "' (needs nodes, devices_per_node and device)";
      return std::nullopt;
    }
  std::optional<Cluster> c = makeCluster(*nodes, *perNode, *kind, error);
  if (!c) {
    error = path.str() + ": " + error;
    return std::nullopt;
  }
  for (StringRef key :
       {"intra_gbps", "inter_gbps", "memory_gib", "reserve_gib"})
    if (const llvm::json::Value *v = o->get(key)) {
      std::optional<double> number = v->getAsNumber();
      if (!number || !applySetting(*c, key, *number, error)) {
        error = path.str() + ": field '" + key.str() +
                "' must be a positive "
                "number";
        return std::nullopt;
      }
    }
  return c;
}

std::optional<Cluster> mlir::paracc::parseCluster(StringRef text,
                                                  std::string &error) {
  if (text.ends_with(".json"))
    return parseClusterFile(text, error);
  auto [shape, rest] = text.split(':');
  auto [kind, settings] = rest.split(',');
  auto [nodesText, perNodeText] = shape.split('x');
  int64_t nodes = 0, perNode = 0;
  if (rest.empty() || nodesText.getAsInteger(10, nodes) ||
      perNodeText.getAsInteger(10, perNode)) {
    error = "expected NODESxDEVICES:KIND[,intra=GB/s][,inter=GB/s]"
            "[,memory=GiB][,reserve=GiB] (for example 16x8:h100), or a "
            ".json file, got '" +
            text.str() + "'";
    return std::nullopt;
  }
  std::optional<Cluster> c = makeCluster(nodes, perNode, kind, error);
  if (!c)
    return std::nullopt;
  while (!settings.empty()) {
    auto [setting, next] = settings.split(',');
    settings = next;
    auto [key, valueText] = setting.split('=');
    double value = 0;
    if (valueText.getAsDouble(value)) {
      error = "expected KEY=NUMBER in '" + setting.str() + "'";
      return std::nullopt;
    }
    if (!applySetting(*c, key, value, error))
      return std::nullopt;
  }
  if (c->usableBytes() <= 0) {
    error = "the reserve leaves no memory on the device";
    return std::nullopt;
  }
  return c;
}

GroupPlacement mlir::paracc::placeAxis(ArrayRef<int64_t> sizes, size_t axis,
                                       int64_t devicesPerNode) {
  int64_t stride = 1;
  for (size_t i = axis + 1; i < sizes.size(); ++i)
    stride *= sizes[i];
  GroupPlacement g;
  g.size = sizes[axis];
  // Members are `stride` ranks apart: those within one node's span.
  int64_t inNode = std::max<int64_t>(devicesPerNode / stride, 1);
  g.perNode = std::clamp<int64_t>(inNode, 1, g.size);
  // A group that does not divide evenly into nodes is treated as crossing
  // them with one member per node (the slower bound).
  if (g.size % g.perNode != 0)
    g.perNode = 1;
  return g;
}

/// A collective that moves `passes` x (n - 1) / n of `bytes` per rank
/// around a ring (an all-reduce 2: reduce-scatter and all-gather; an
/// all-gather or a reduce-scatter 1): a ring in one node; across nodes the
/// hierarchical form, in the node and then the 1/perNode shard between
/// nodes, every device over its own NIC.
static double ringCollectiveSeconds(const Cluster &c, GroupPlacement g,
                                    double bytes, double passes) {
  if (g.size <= 1 || bytes <= 0)
    return 0;
  auto ring = [&](const LinkClass &link, int64_t n, double b) {
    if (n <= 1)
      return 0.0;
    return passes * (double(n - 1) / n * b / link.bytesPerSecond +
                     double(n - 1) * link.latencySeconds);
  };
  return ring(c.intra, g.perNode, bytes) +
         ring(c.inter, g.nodes(), bytes / g.perNode);
}

double mlir::paracc::allReduceSeconds(const Cluster &c, GroupPlacement g,
                                      double bytes) {
  return ringCollectiveSeconds(c, g, bytes, 2);
}

double mlir::paracc::allGatherSeconds(const Cluster &c, GroupPlacement g,
                                      double bytes) {
  return ringCollectiveSeconds(c, g, bytes, 1);
}

double mlir::paracc::pointToPointSeconds(const Cluster &c, bool crossesNodes,
                                         double bytes) {
  if (bytes <= 0)
    return 0;
  if (crossesNodes)
    return bytes / c.inter.bytesPerSecond + c.inter.latencySeconds;
  // Within a node: the rate table's point-to-point (NVLink) rate.
  return bytes / c.rates.linkBytesPerSecond + c.intra.latencySeconds;
}
