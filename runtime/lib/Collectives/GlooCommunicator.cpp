//===- GlooCommunicator.cpp - CPU collectives through Gloo -----*- C++ -*-===//
//
// all_reduce is Gloo's allreduce; all_gather gathers into a staging buffer
// (members' blocks one after another) and places the blocks along the
// gathered dim; reduce_scatter packs the pieces contiguously, exchanges them
// with alltoall and sums what it received (each member moves one tensor's
// worth of data, like a ring reduce-scatter); all_to_all packs, exchanges
// and unpacks the same way; broadcast is Gloo's broadcast. send and recv
// use the group context's unbound buffers on a slot of their own per tag
// and wait for the transfer, so a send returns once its peer has received
// it; ring_shift posts its send and its recv (on a slot of their own)
// before waiting for either, so the whole ring moves at once. Gloo reports
// failures (a peer that died, a timeout) with exceptions; they become errors
// naming the collective.
//
//===----------------------------------------------------------------------===//

#include "paracc/runtime/GlooCommunicator.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/hash_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace paracc::rt;

namespace {
/// A store whose waits give up as soon as a rank of the run has failed
/// (`aborted`), so that its peers do not wait for it until the timeout when
/// it never reaches a group's rendezvous.
class AbortableStore final : public gloo::rendezvous::Store {
public:
  AbortableStore(std::unique_ptr<gloo::rendezvous::Store> inner,
                 const std::atomic<bool> &aborted)
      : inner(std::move(inner)), aborted(aborted) {}

  void set(const std::string &key, const std::vector<char> &data) override {
    inner->set(key, data);
  }
  std::vector<char> get(const std::string &key) override {
    return inner->get(key);
  }
  void wait(const std::vector<std::string> &keys) override {
    wait(keys, kDefaultTimeout);
  }
  void wait(const std::vector<std::string> &keys,
            const std::chrono::milliseconds &timeout) override {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + timeout;
    const auto slice = std::chrono::milliseconds(50);
    while (true) {
      if (aborted)
        throw std::runtime_error("stopped: another rank of the run failed");
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - Clock::now());
      if (left <= slice) {
        inner->wait(keys, std::max(left, std::chrono::milliseconds(1)));
        return;
      }
      try {
        inner->wait(keys, slice);
        return;
      } catch (const gloo::IoException &) {
        // Not there yet: look at the flag again.
      }
    }
  }

private:
  std::unique_ptr<gloo::rendezvous::Store> inner;
  const std::atomic<bool> &aborted;
};
} // namespace

struct GlooWorld::Impl {
  Mesh mesh;
  std::atomic<bool> aborted{false};
  std::shared_ptr<gloo::rendezvous::Store> store;
};

GlooWorld::GlooWorld(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GlooWorld::~GlooWorld() = default;

std::shared_ptr<GlooWorld> GlooWorld::inProcess(const Mesh &mesh) {
  auto impl = std::make_unique<Impl>();
  impl->mesh = mesh;
  impl->store = std::make_shared<AbortableStore>(
      std::make_unique<gloo::rendezvous::HashStore>(), impl->aborted);
  return std::shared_ptr<GlooWorld>(new GlooWorld(std::move(impl)));
}

std::shared_ptr<GlooWorld> GlooWorld::withFileStore(const Mesh &mesh,
                                                    const std::string &dir) {
  auto impl = std::make_unique<Impl>();
  impl->mesh = mesh;
  impl->store = std::make_shared<AbortableStore>(
      std::make_unique<gloo::rendezvous::FileStore>(dir), impl->aborted);
  return std::shared_ptr<GlooWorld>(new GlooWorld(std::move(impl)));
}

std::chrono::milliseconds GlooWorld::defaultTimeout() {
  if (const char *s = std::getenv("PARACC_COLLECTIVE_TIMEOUT_S"))
    if (double v = std::atof(s); v > 0)
      return std::chrono::milliseconds(int64_t(v * 1000));
  return std::chrono::seconds(300);
}

namespace {

/// Elementwise sum or max of `n` elements of T: c = a (op) b.
template <typename T, bool Max>
void reduceElements(void *c, const void *a, const void *b, size_t n) {
  auto *out = static_cast<T *>(c);
  const auto *x = static_cast<const T *>(a);
  const auto *y = static_cast<const T *>(b);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      float fx = float(x[i]), fy = float(y[i]);
      out[i] = T(Max ? std::max(fx, fy) : fx + fy);
    } else {
      out[i] = Max ? std::max(x[i], y[i]) : T(x[i] + y[i]);
    }
  }
}

using ReduceFn = void (*)(void *, const void *, const void *, size_t);

template <bool Max> ReduceFn reduceFor(DType t) {
  switch (t) {
  case DType::F32:
    return reduceElements<float, Max>;
  case DType::F64:
    return reduceElements<double, Max>;
  case DType::F16:
    return reduceElements<Half, Max>;
  case DType::BF16:
    return reduceElements<BFloat16, Max>;
  case DType::I8:
    return reduceElements<int8_t, Max>;
  case DType::I16:
    return reduceElements<int16_t, Max>;
  case DType::I32:
    return reduceElements<int32_t, Max>;
  case DType::I64:
    return reduceElements<int64_t, Max>;
  case DType::U8:
  case DType::Bool:
    return reduceElements<uint8_t, Max>;
  case DType::U16:
    return reduceElements<uint16_t, Max>;
  case DType::U32:
    return reduceElements<uint32_t, Max>;
  case DType::U64:
    return reduceElements<uint64_t, Max>;
  case DType::Invalid:
    break;
  }
  return nullptr;
}

class GlooCommunicator final : public Communicator {
public:
  GlooCommunicator(GlooWorld::Impl &world, int64_t rank,
                   std::chrono::milliseconds timeout)
      : world(world), rank(rank), timeout(timeout) {}

  Status allReduce(const std::vector<int> &axes, const Tensor &in, Tensor &out,
                   bool max) override;
  Status allGather(const std::vector<int> &axes, int64_t dim,
                   const Tensor &in, Tensor &out) override;
  Status reduceScatter(const std::vector<int> &axes, int64_t dim,
                       const Tensor &in, Tensor &out) override;
  Status allToAll(const std::vector<int> &axes, int64_t splitDim,
                  int64_t concatDim, const Tensor &in, Tensor &out) override;
  Status broadcast(const std::vector<int> &axes, int64_t root,
                   const Tensor &in, Tensor &out) override;
  Status send(const std::vector<int> &axes, int64_t to, uint32_t tag,
              const Tensor &in) override;
  Status recv(const std::vector<int> &axes, int64_t from, uint32_t tag,
              Tensor &out) override;
  Status ringShift(const std::vector<int> &axes, int64_t shift,
                   const Tensor &in, Tensor &out) override;
  Status allToAllBytes(const std::vector<int> &axes, const void *in,
                       const std::vector<int64_t> &sendBytes, void *out,
                       const std::vector<int64_t> &recvBytes) override;
  void abandon() override;

private:
  /// The Gloo context of this rank's group over `axes` (created on first
  /// use; every member reaches its first use at the same collective).
  std::shared_ptr<gloo::Context> group(const std::vector<int> &axes);
  /// Runs `body`, turning Gloo's exceptions into an error naming `what`.
  template <typename F> Status guarded(const char *what, F &&body);
  /// Exchanges `pieces` (member j's piece j, packed) with every member.
  Status exchange(const std::vector<int> &axes, const char *what,
                  const Tensor &packed, Tensor &received);

  GlooWorld::Impl &world;
  int64_t rank;
  std::chrono::milliseconds timeout;
  std::shared_ptr<gloo::transport::Device> device;
  std::map<std::vector<int>, std::shared_ptr<gloo::Context>> groups;
};

} // namespace

std::unique_ptr<Communicator>
GlooWorld::communicator(int64_t rank, std::chrono::milliseconds timeout) {
  return std::make_unique<GlooCommunicator>(*impl_, rank, timeout);
}

void GlooCommunicator::abandon() {
  // Peers waiting at a rendezvous give up; closing this rank's connections
  // ends the transfers they have in flight with it.
  world.aborted = true;
  groups.clear();
}

template <typename F> Status GlooCommunicator::guarded(const char *what,
                                                       F &&body) {
  try {
    return body();
  } catch (const std::exception &e) {
    return errorf(what, " failed on rank ", rank, ": ", e.what());
  }
}

std::shared_ptr<gloo::Context>
GlooCommunicator::group(const std::vector<int> &axes) {
  auto it = groups.find(axes);
  if (it != groups.end())
    return it->second;
  const Mesh &mesh = world.mesh;
  std::vector<int64_t> members = mesh.groupRanks(rank, axes);
  // A group is named by its axes and its first member.
  std::string key = "group";
  for (int a : axes)
    key += "-" + std::to_string(a);
  key += "@" + std::to_string(members.front());
  if (!device) {
    gloo::transport::tcp::attr attr;
    attr.hostname = "127.0.0.1";
    device = gloo::transport::tcp::CreateDevice(attr);
  }
  auto context = std::make_shared<gloo::rendezvous::Context>(
      int(mesh.groupIndex(rank, axes)), int(members.size()));
  context->setTimeout(timeout);
  gloo::rendezvous::PrefixStore store(key, *world.store);
  context->connectFullMesh(store, device);
  groups[axes] = context;
  return context;
}

Status GlooCommunicator::allReduce(const std::vector<int> &axes,
                                   const Tensor &in, Tensor &out, bool max) {
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("all_reduce", in, out, 1, 0));
  std::memcpy(out.data(), in.data(), in.byteSize());
  if (world.mesh.groupSize(axes) == 1 || out.numElements() == 0)
    return Status::ok();
  ReduceFn fn =
      max ? reduceFor<true>(in.dtype()) : reduceFor<false>(in.dtype());
  return guarded("all_reduce", [&] {
    gloo::AllreduceOptions opts(group(axes));
    // Gloo segments the buffer by elements, so it must see the real
    // element size; the typed reduction does the arithmetic.
    auto run = [&](auto *ptr) {
      using T = std::remove_pointer_t<decltype(ptr)>;
      opts.setOutput(ptr, size_t(out.numElements()));
      opts.setReduceFunction(
          [fn](void *c, const void *a, const void *b, size_t n) {
            fn(c, a, b, n);
          });
      (void)sizeof(T);
    };
    switch (dtypeSize(in.dtype())) {
    case 1:
      run(static_cast<uint8_t *>(out.data()));
      break;
    case 2:
      run(static_cast<uint16_t *>(out.data()));
      break;
    case 4:
      run(static_cast<uint32_t *>(out.data()));
      break;
    default:
      run(static_cast<uint64_t *>(out.data()));
      break;
    }
    opts.setTimeout(timeout);
    gloo::allreduce(opts);
    return Status::ok();
  });
}

Status GlooCommunicator::allGather(const std::vector<int> &axes, int64_t dim,
                                   const Tensor &in, Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("all_gather", in, out, n, dim));
  auto staging = Tensor::allocate(DType::U8, {int64_t(in.byteSize()) * n});
  if (!staging)
    return staging.status();
  Status st = guarded("all_gather", [&] {
    if (n == 1) {
      std::memcpy(staging->data(), in.data(), in.byteSize());
      return Status::ok();
    }
    gloo::AllgatherOptions opts(group(axes));
    opts.setInput(static_cast<uint8_t *>(const_cast<void *>(in.data())),
                  in.byteSize());
    opts.setOutput(static_cast<uint8_t *>(staging->data()),
                   in.byteSize() * n);
    opts.setTimeout(timeout);
    gloo::allgather(opts);
    return Status::ok();
  });
  PARACC_RETURN_IF_ERROR(st);
  // Member j's block goes to offset j * in.dim(dim) along `dim`.
  for (int64_t j = 0; j < n; ++j) {
    Tensor block = Tensor::borrow(
        in.dtype(), in.shape(),
        static_cast<uint8_t *>(staging->data()) + j * in.byteSize());
    std::vector<int64_t> offsets(in.rank(), 0);
    offsets[dim] = j * in.dim(dim);
    PARACC_RETURN_IF_ERROR(insertBlock(out, block, offsets));
  }
  return Status::ok();
}

Status GlooCommunicator::exchange(const std::vector<int> &axes,
                                  const char *what, const Tensor &packed,
                                  Tensor &received) {
  return guarded(what, [&] {
    gloo::AlltoallOptions opts(group(axes));
    opts.setInput(static_cast<uint8_t *>(const_cast<void *>(packed.data())),
                  packed.byteSize());
    opts.setOutput(static_cast<uint8_t *>(received.data()),
                   received.byteSize());
    opts.setTimeout(timeout);
    gloo::alltoall(opts);
    return Status::ok();
  });
}

/// Packs the `n` pieces of `in` along `dim` one after another.
static StatusOr<Tensor> packPieces(const Tensor &in, int64_t dim, int64_t n) {
  Shape piece = in.shape();
  piece[dim] /= n;
  auto packed = Tensor::allocate(DType::U8, {int64_t(in.byteSize())});
  if (!packed)
    return packed;
  size_t pieceBytes = in.byteSize() / n;
  for (int64_t j = 0; j < n; ++j) {
    std::vector<int64_t> offsets(in.rank(), 0);
    offsets[dim] = j * piece[dim];
    auto block = extractBlock(in, offsets, piece);
    if (!block)
      return block.status();
    std::memcpy(static_cast<uint8_t *>(packed->data()) + j * pieceBytes,
                block->data(), pieceBytes);
  }
  return packed;
}

Status GlooCommunicator::reduceScatter(const std::vector<int> &axes,
                                       int64_t dim, const Tensor &in,
                                       Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(
      checkCollectiveShapes("reduce_scatter", in, out, n, dim));
  if (n == 1) {
    std::memcpy(out.data(), in.data(), in.byteSize());
    return Status::ok();
  }
  auto packed = packPieces(in, dim, n);
  if (!packed)
    return packed.status();
  auto received = Tensor::allocate(DType::U8, {int64_t(in.byteSize())});
  if (!received)
    return received.status();
  PARACC_RETURN_IF_ERROR(exchange(axes, "reduce_scatter", *packed, *received));
  // received holds every member's piece for this rank: sum them.
  ReduceFn fn = reduceFor<false>(in.dtype());
  size_t pieceBytes = out.byteSize();
  const auto *r = static_cast<const uint8_t *>(received->data());
  std::memcpy(out.data(), r, pieceBytes);
  for (int64_t j = 1; j < n; ++j)
    fn(out.data(), out.data(), r + j * pieceBytes, out.numElements());
  return Status::ok();
}

Status GlooCommunicator::allToAll(const std::vector<int> &axes,
                                  int64_t splitDim, int64_t concatDim,
                                  const Tensor &in, Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(
      checkCollectiveShapes("all_to_all", in, out, n, splitDim, concatDim));
  auto packed = packPieces(in, splitDim, n);
  if (!packed)
    return packed.status();
  auto received = Tensor::allocate(DType::U8, {int64_t(in.byteSize())});
  if (!received)
    return received.status();
  if (n == 1)
    std::memcpy(received->data(), packed->data(), in.byteSize());
  else
    PARACC_RETURN_IF_ERROR(exchange(axes, "all_to_all", *packed, *received));
  Shape piece = in.shape();
  piece[splitDim] /= n;
  size_t pieceBytes = in.byteSize() / n;
  for (int64_t j = 0; j < n; ++j) {
    Tensor block = Tensor::borrow(
        in.dtype(), piece,
        static_cast<uint8_t *>(received->data()) + j * pieceBytes);
    std::vector<int64_t> offsets(in.rank(), 0);
    offsets[concatDim] = j * piece[concatDim];
    PARACC_RETURN_IF_ERROR(insertBlock(out, block, offsets));
  }
  return Status::ok();
}

Status GlooCommunicator::broadcast(const std::vector<int> &axes, int64_t root,
                                   const Tensor &in, Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkCollectiveShapes("broadcast", in, out, n, 0));
  PARACC_RETURN_IF_ERROR(checkBroadcastRoot(root, n));
  // The root sends its out; the others receive into theirs.
  std::memcpy(out.data(), in.data(), in.byteSize());
  if (n == 1 || out.byteSize() == 0)
    return Status::ok();
  return guarded("broadcast", [&] {
    gloo::BroadcastOptions opts(group(axes));
    opts.setOutput(static_cast<uint8_t *>(out.data()), out.byteSize());
    opts.setRoot(int(root));
    opts.setTimeout(timeout);
    gloo::broadcast(opts);
    return Status::ok();
  });
}

/// The slot of point-to-point transfers with `tag`: a prefix that no Gloo
/// collective uses (theirs are 0x01-0x08), then the tag, as Gloo lays out
/// its own slots (gloo/types.h).
static uint64_t pointToPointSlot(uint32_t tag) {
  constexpr uint64_t kPointToPointSlotPrefix = 0x50;
  return (kPointToPointSlotPrefix << 56) | (uint64_t(tag) << 24);
}

/// The slot of ring shifts, apart from the point-to-point ones.
static constexpr uint64_t kRingShiftSlot = uint64_t(0x51) << 56;

Status GlooCommunicator::ringShift(const std::vector<int> &axes, int64_t shift,
                                   const Tensor &in, Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkPeerOffset("ring_shift", shift, n));
  if (in.byteSize() != out.byteSize())
    return errorf("ring_shift: operand and result sizes differ");
  int64_t index = world.mesh.groupIndex(rank, axes);
  int64_t to = ringPeerIndex(index, shift, n),
          from = ringPeerIndex(index, -shift, n);
  return guarded("ring_shift", [&] {
    std::shared_ptr<gloo::Context> context = group(axes);
    if (in.byteSize() == 0)
      return Status::ok();
    auto sent = context->createUnboundBuffer(const_cast<void *>(in.data()),
                                             in.byteSize());
    auto received = context->createUnboundBuffer(out.data(), out.byteSize());
    received->recv(int(from), kRingShiftSlot);
    sent->send(int(to), kRingShiftSlot);
    if (!received->waitRecv(timeout) || !sent->waitSend(timeout))
      return errorf("ring_shift over a group of ", n, " failed on rank ", rank,
                    ": aborted");
    return Status::ok();
  });
}

/// The slot of variable-size exchanges, apart from the others.
static constexpr uint64_t kExchangeSlot = uint64_t(0x52) << 56;

Status GlooCommunicator::allToAllBytes(const std::vector<int> &axes,
                                       const void *in,
                                       const std::vector<int64_t> &sendBytes,
                                       void *out,
                                       const std::vector<int64_t> &recvBytes) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkExchangeCounts(sendBytes, recvBytes, n));
  int64_t me = world.mesh.groupIndex(rank, axes);
  if (sendBytes[me] != recvBytes[me])
    return errorf("all_to_all_bytes: member ", me, " sends ", sendBytes[me],
                  " bytes to itself but receives ", recvBytes[me]);
  std::vector<int64_t> sendAt(n, 0), recvAt(n, 0);
  for (int64_t j = 1; j < n; ++j) {
    sendAt[j] = sendAt[j - 1] + sendBytes[j - 1];
    recvAt[j] = recvAt[j - 1] + recvBytes[j - 1];
  }
  auto *source = static_cast<uint8_t *>(const_cast<void *>(in));
  auto *target = static_cast<uint8_t *>(out);
  if (sendBytes[me])
    std::memcpy(target + recvAt[me], source + sendAt[me],
                size_t(sendBytes[me]));
  return guarded("all_to_all_bytes", [&] {
    std::shared_ptr<gloo::Context> context = group(axes);
    // Every receive is posted before any send, so no member waits on
    // another's turn; empty parts are not sent.
    std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> received, sent;
    for (int64_t j = 0; j < n; ++j)
      if (j != me && recvBytes[j] > 0) {
        received.push_back(context->createUnboundBuffer(target + recvAt[j],
                                                        size_t(recvBytes[j])));
        received.back()->recv(int(j), kExchangeSlot);
      }
    for (int64_t j = 0; j < n; ++j)
      if (j != me && sendBytes[j] > 0) {
        sent.push_back(context->createUnboundBuffer(source + sendAt[j],
                                                    size_t(sendBytes[j])));
        sent.back()->send(int(j), kExchangeSlot);
      }
    for (auto &buffer : received)
      if (!buffer->waitRecv(timeout))
        return errorf("all_to_all_bytes over a group of ", n,
                      " failed on rank ", rank, ": aborted");
    for (auto &buffer : sent)
      if (!buffer->waitSend(timeout))
        return errorf("all_to_all_bytes over a group of ", n,
                      " failed on rank ", rank, ": aborted");
    return Status::ok();
  });
}

Status GlooCommunicator::send(const std::vector<int> &axes, int64_t to,
                              uint32_t tag, const Tensor &in) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkPeerOffset("send", to, n));
  int64_t peer = peerIndex(world.mesh.groupIndex(rank, axes), to, n);
  return guarded("send", [&] {
    // Every member joins the group's context at the same op, peer or not.
    std::shared_ptr<gloo::Context> context = group(axes);
    if (peer < 0 || in.byteSize() == 0)
      return Status::ok();
    auto buffer = context->createUnboundBuffer(const_cast<void *>(in.data()),
                                               in.byteSize());
    buffer->send(int(peer), pointToPointSlot(tag));
    if (!buffer->waitSend(timeout))
      return errorf("send to group member ", peer, " failed on rank ", rank,
                    ": aborted");
    return Status::ok();
  });
}

Status GlooCommunicator::recv(const std::vector<int> &axes, int64_t from,
                              uint32_t tag, Tensor &out) {
  int64_t n = world.mesh.groupSize(axes);
  PARACC_RETURN_IF_ERROR(checkPeerOffset("recv", from, n));
  int64_t peer = peerIndex(world.mesh.groupIndex(rank, axes), from, n);
  return guarded("recv", [&] {
    std::shared_ptr<gloo::Context> context = group(axes);
    if (peer < 0) {
      if (out.byteSize())
        std::memset(out.data(), 0, out.byteSize());
      return Status::ok();
    }
    if (out.byteSize() == 0)
      return Status::ok();
    auto buffer = context->createUnboundBuffer(out.data(), out.byteSize());
    buffer->recv(int(peer), pointToPointSlot(tag));
    if (!buffer->waitRecv(timeout))
      return errorf("recv from group member ", peer, " failed on rank ", rank,
                    ": aborted");
    return Status::ok();
  });
}
