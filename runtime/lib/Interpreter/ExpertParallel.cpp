//===- ExpertParallel.cpp - Expert parallelism on CPU ranks -----*- C++ -*-===//
//
// ExpertParallelMoe and its gradient (OpCodes.def). Each member packs its
// (token, pick) slots into records grouped by the member that owns the
// slot's expert (members in group order, a member's slots in slot order):
// the token's row (and dy's, for the gradient), the expert's index among
// the owner's, the routing weight. The members exchange their record
// counts (an all_to_all), then the records (a variable-size exchange); each
// owner runs the one-rank kernel (MoeExperts or MoeExpertsGrad, each record
// a token with one pick) on what it received, in the order it came, and
// sends each record's result back the same way: the forward's weighted
// output row; the gradient's dx row and routing weight's gradient. Each
// member then sums its slots' results per token in pick order (in float,
// as the one-rank kernel sums the k shares). The owner's weight gradients
// are the kernel's: the sums over every record it received.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/ExpertParallel.h"

#include "Kernels/KernelUtil.h"
#include "paracc/runtime/Kernels.h"

#include <cstring>

namespace paracc::rt {
namespace {

/// Where this member's slots go.
struct Dispatch {
  /// Per member of the group: the records this member sends it and
  /// receives from it.
  std::vector<int64_t> sendCounts, recvCounts;
  /// Per slot: its record's place in the packed order, and its expert's
  /// index among its owner's.
  std::vector<int64_t> position, localExpert;
  int64_t received = 0;
};

/// Routes the slots of `indices` ([T, k], experts in [0, n E')) to their
/// owners and exchanges the counts.
StatusOr<Dispatch> dispatchSlots(Communicator &comm,
                                 const std::vector<int> &axes, int64_t n,
                                 const Tensor &indices, int64_t localExperts) {
  Dispatch d;
  const int64_t slots = indices.numElements(), experts = n * localExperts;
  const int64_t k = indices.rank() == 2 ? indices.dim(1) : 1;
  const auto *index = indices.as<int64_t>();
  d.sendCounts.assign(size_t(n), 0);
  d.localExpert.resize(size_t(slots));
  d.position.resize(size_t(slots));
  for (int64_t s = 0; s < slots; ++s) {
    if (index[s] < 0 || index[s] >= experts)
      return errorf("token ", s / k, " picks expert ", index[s],
                    ", outside [0, ", experts, ")");
    ++d.sendCounts[size_t(index[s] / localExperts)];
    d.localExpert[size_t(s)] = index[s] % localExperts;
  }
  std::vector<int64_t> next(size_t(n), 0);
  for (int64_t j = 1; j < n; ++j)
    next[size_t(j)] = next[size_t(j - 1)] + d.sendCounts[size_t(j - 1)];
  for (int64_t s = 0; s < slots; ++s)
    d.position[size_t(s)] = next[size_t(index[s] / localExperts)]++;

  auto sent = Tensor::allocate(DType::I64, {n});
  auto got = Tensor::allocate(DType::I64, {n});
  if (!sent)
    return sent.status();
  if (!got)
    return got.status();
  std::memcpy(sent->data(), d.sendCounts.data(), size_t(n) * sizeof(int64_t));
  PARACC_RETURN_IF_ERROR(comm.allToAll(axes, 0, 0, *sent, *got));
  d.recvCounts.assign(got->as<int64_t>(), got->as<int64_t>() + n);
  for (int64_t c : d.recvCounts) {
    if (c < 0)
      return errorf("a member announced ", c, " records");
    d.received += c;
  }
  return d;
}

/// Exchanges records of `recordBytes`: `counts[j]` of `out` to member j,
/// `from[j]` from member j into `in` (resized).
Status exchangeRecords(Communicator &comm, const std::vector<int> &axes,
                       const std::vector<uint8_t> &out,
                       const std::vector<int64_t> &counts,
                       std::vector<uint8_t> &in,
                       const std::vector<int64_t> &from, size_t recordBytes) {
  std::vector<int64_t> sendBytes, recvBytes;
  int64_t total = 0;
  for (size_t j = 0; j < counts.size(); ++j) {
    sendBytes.push_back(counts[j] * int64_t(recordBytes));
    recvBytes.push_back(from[j] * int64_t(recordBytes));
    total += from[j];
  }
  in.assign(size_t(total) * recordBytes, 0);
  return comm.allToAllBytes(axes, out.data(), sendBytes, in.data(), recvBytes);
}

/// A record's fields, copied in and out at byte offsets.
class Record {
public:
  explicit Record(std::vector<size_t> fieldBytes)
      : sizes(std::move(fieldBytes)) {
    for (size_t b : sizes) {
      offsets.push_back(bytes);
      bytes += b;
    }
  }
  size_t size() const { return bytes; }
  /// Copies field `f` of record `r` in `buffer` to or from `p`.
  void put(std::vector<uint8_t> &buffer, int64_t r, size_t f,
           const void *p) const {
    std::memcpy(buffer.data() + size_t(r) * bytes + offsets[f], p, sizes[f]);
  }
  void get(const std::vector<uint8_t> &buffer, int64_t r, size_t f,
           void *p) const {
    std::memcpy(p, at(buffer, r, f), sizes[f]);
  }
  /// Where field `f` of record `r` in `buffer` starts.
  const uint8_t *at(const std::vector<uint8_t> &buffer, int64_t r,
                    size_t f) const {
    return buffer.data() + size_t(r) * bytes + offsets[f];
  }

private:
  std::vector<size_t> sizes, offsets;
  size_t bytes = 0;
};

const uint8_t *row(const Tensor &t, int64_t i, size_t rowBytes) {
  return static_cast<const uint8_t *>(t.data()) + size_t(i) * rowBytes;
}
uint8_t *row(Tensor &t, int64_t i, size_t rowBytes) {
  return static_cast<uint8_t *>(t.data()) + size_t(i) * rowBytes;
}

/// out[t] = sum over j of field 0 (a row of `hidden` elements of out's type)
/// of the records at positions[t k + j] (in pick order, in float).
Status sumPicks(const Record &record, const std::vector<uint8_t> &records,
                const std::vector<int64_t> &positions, int64_t tokens,
                int64_t k, int64_t hidden, Tensor &out) {
  return visitDTypeIn<TypeSet::Float>(out.dtype(), [&](auto tag) -> Status {
    constexpr DType D = decltype(tag)::value;
    using S = StorageT<D>;
    S *y = out.as<S>();
    std::vector<double> sum(static_cast<size_t>(hidden));
    for (int64_t t = 0; t < tokens; ++t) {
      std::fill(sum.begin(), sum.end(), 0.0);
      for (int64_t j = 0; j < k; ++j) {
        // (Records hold whole elements: the row first, sizes of them.)
        const auto *r = reinterpret_cast<const S *>(
            record.at(records, positions[size_t(t * k + j)], 0));
        for (int64_t h = 0; h < hidden; ++h)
          sum[size_t(h)] += double(load<D>(r + h));
      }
      for (int64_t h = 0; h < hidden; ++h)
        store<D>(y + t * hidden + h, ComputeT<D>(sum[size_t(h)]));
    }
    return Status::ok();
  });
}

} // namespace

Status runExpertParallelMoe(Communicator &comm,
                            const ExpertParallelMoeAttrs &attrs, bool grad,
                            const std::vector<const Tensor *> &in,
                            const std::vector<Tensor *> &out,
                            int64_t groupSize) {
  const size_t o = grad ? 1 : 0;
  if (in.size() != o + 5 || out.size() != (grad ? 4u : 1u))
    return errorf("malformed instruction");
  const Tensor &x = *in[o], &indices = *in[o + 1], &weights = *in[o + 2];
  const Tensor &wIn = *in[o + 3], &wOut = *in[o + 4];
  if (x.rank() != 2 || indices.rank() != 2 || weights.rank() != 2 ||
      wIn.rank() != 3 || wOut.rank() != 3 || indices.dtype() != DType::I64 ||
      indices.dim(0) != x.dim(0) || weights.shape() != indices.shape())
    return errorf("needs x [T, H], i64 indices and weights [T, k], w_in "
                  "[E', F, H] and w_out [E', H, I], got ",
                  x.typeString(), ", ", indices.typeString(), ", ",
                  weights.typeString(), ", ", wIn.typeString(), ", ",
                  wOut.typeString());
  if (grad && in[0]->shape() != x.shape())
    return errorf("needs dy shaped like x, got ", in[0]->typeString());
  const int64_t tokens = x.dim(0), hidden = x.dim(1), k = indices.dim(1);
  const int64_t slots = tokens * k;
  const size_t rowBytes = size_t(hidden) * dtypeSize(x.dtype());
  const size_t weightBytes = dtypeSize(weights.dtype());

  auto dispatched =
      dispatchSlots(comm, attrs.axes, groupSize, indices, wIn.dim(0));
  if (!dispatched)
    return dispatched.status();
  const Dispatch &d = *dispatched;

  // Out: [x row][dy row, gradient only][local expert (i64)][weight].
  std::vector<size_t> fields = {rowBytes};
  if (grad)
    fields.push_back(rowBytes);
  fields.push_back(sizeof(int64_t));
  fields.push_back(weightBytes);
  const Record outgoing(fields);
  const size_t expertField = grad ? 2 : 1, weightField = expertField + 1;
  std::vector<uint8_t> sent(size_t(slots) * outgoing.size()), received;
  for (int64_t s = 0; s < slots; ++s) {
    const int64_t r = d.position[size_t(s)], t = s / k;
    outgoing.put(sent, r, 0, row(x, t, rowBytes));
    if (grad)
      outgoing.put(sent, r, 1, row(*in[0], t, rowBytes));
    outgoing.put(sent, r, expertField, &d.localExpert[size_t(s)]);
    outgoing.put(sent, r, weightField, row(weights, s, weightBytes));
  }
  PARACC_RETURN_IF_ERROR(exchangeRecords(comm, attrs.axes, sent, d.sendCounts,
                                         received, d.recvCounts,
                                         outgoing.size()));

  // The owner's kernel: each received record a token with one pick.
  // (dy and the weights' gradients: the gradient's only.)
  const int64_t n = d.received, nGrad = grad ? n : 0;
  StatusOr<Tensor> xs = Tensor::allocate(x.dtype(), {n, hidden});
  StatusOr<Tensor> dys = Tensor::allocate(x.dtype(), {nGrad, hidden});
  StatusOr<Tensor> experts = Tensor::allocate(DType::I64, {n, 1});
  StatusOr<Tensor> picks = Tensor::allocate(weights.dtype(), {n, 1});
  StatusOr<Tensor> ys = Tensor::allocate(x.dtype(), {n, hidden});
  StatusOr<Tensor> dPicks = Tensor::allocate(weights.dtype(), {nGrad, 1});
  for (StatusOr<Tensor> *t : {&xs, &dys, &experts, &picks, &ys, &dPicks})
    if (!*t)
      return t->status();
  for (int64_t r = 0; r < n; ++r) {
    outgoing.get(received, r, 0, row(*xs, r, rowBytes));
    if (grad)
      outgoing.get(received, r, 1, row(*dys, r, rowBytes));
    outgoing.get(received, r, expertField, row(*experts, r, sizeof(int64_t)));
    outgoing.get(received, r, weightField, row(*picks, r, weightBytes));
  }
  MoeExpertsAttrs kernelAttrs;
  kernelAttrs.activation = attrs.activation;
  kernelAttrs.gated = attrs.gated;
  if (grad)
    PARACC_RETURN_IF_ERROR(
        runCpuKernel(OpCode::MoeExpertsGrad, kernelAttrs,
                     {&*dys, &*xs, &*experts, &*picks, &wIn, &wOut},
                     {&*ys, &*dPicks, out[2], out[3]}));
  else
    PARACC_RETURN_IF_ERROR(runCpuKernel(OpCode::MoeExperts, kernelAttrs,
                                        {&*xs, &*experts, &*picks, &wIn, &wOut},
                                        {&*ys}));

  // Back: [output row (y's share, or dx's)][the weight's gradient].
  std::vector<size_t> backFields = {rowBytes};
  if (grad)
    backFields.push_back(weightBytes);
  const Record returning(backFields);
  std::vector<uint8_t> results(size_t(n) * returning.size()), returned;
  for (int64_t r = 0; r < n; ++r) {
    returning.put(results, r, 0, row(*ys, r, rowBytes));
    if (grad)
      returning.put(results, r, 1, row(*dPicks, r, weightBytes));
  }
  PARACC_RETURN_IF_ERROR(exchangeRecords(comm, attrs.axes, results,
                                         d.recvCounts, returned, d.sendCounts,
                                         returning.size()));

  // Each token's k results, in pick order.
  PARACC_RETURN_IF_ERROR(
      sumPicks(returning, returned, d.position, tokens, k, hidden, *out[0]));
  if (grad)
    for (int64_t s = 0; s < slots; ++s)
      returning.get(returned, d.position[size_t(s)], 1,
                    row(*out[1], s, weightBytes));
  return Status::ok();
}

} // namespace paracc::rt
