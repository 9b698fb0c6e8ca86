//===- CollectiveBench.cu - Bus bandwidth of the runtime's collectives ---===//
//
// Runs all-reduce, all-gather and reduce-scatter through NcclComms (the
// calls the executor makes) on every GPU of the machine, one thread per
// GPU, bf16, at 1, 16, 256 and 1024 MiB, and prints the bus bandwidth the
// way the peer (shared/peers/nccl_bw.py) computes it: the mean of 20
// back-to-back calls after 5 warm-ups; algbw = bytes / time with bytes the
// all-gather output or the other ops' input; busbw = algbw * 2(n-1)/n for
// all-reduce and algbw * (n-1)/n otherwise.
//
//===----------------------------------------------------------------------===//

#include "cuda/Nccl.h"

#include <cstdio>
#include <cuda_runtime.h>
#include <thread>
#include <vector>

using namespace paracc::rt;
using namespace paracc::rt::cuda;

namespace {

constexpr int kWarmup = 5, kTimed = 20;

enum class Op { AllReduce, AllGather, ReduceScatter };
const char *opName(Op op) {
  switch (op) {
  case Op::AllReduce:
    return "all_reduce";
  case Op::AllGather:
    return "all_gather";
  case Op::ReduceScatter:
    return "reduce_scatter";
  }
  return "";
}

struct Result {
  Op op;
  int mib;
  double us, busbw;
};

bool runRank(int rank, int n, const ncclUniqueId &id,
             std::vector<Result> &results) {
  if (cudaSetDevice(rank) != cudaSuccess)
    return false;
  Mesh mesh{{"tp"}, {n}};
  auto comms = NcclComms::create(mesh, rank, id, {{0}});
  if (!comms) {
    std::fprintf(stderr, "%s\n", comms.status().message().c_str());
    return false;
  }
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (Op op : {Op::AllReduce, Op::AllGather, Op::ReduceScatter}) {
    for (int mib : {1, 16, 256, 1024}) {
      int64_t numel = int64_t(mib) << 19; // bf16 elements in `mib` MiB
      int64_t outNumel = op == Op::AllGather       ? numel * n
                         : op == Op::ReduceScatter ? numel / n
                                                   : numel;
      void *in = nullptr, *out = nullptr;
      if (cudaMalloc(&in, size_t(numel) * 2) != cudaSuccess ||
          cudaMalloc(&out, size_t(outNumel) * 2) != cudaSuccess)
        return false;
      cudaMemset(in, 0x3c, size_t(numel) * 2); // bf16 ~0.0115, not zero
      DeviceTensor x{DType::BF16, {numel}, in};
      DeviceTensor y{DType::BF16, {outNumel}, out};
      auto once = [&]() -> Status {
        switch (op) {
        case Op::AllReduce:
          return (*comms)->allReduce({0}, x, x, false, stream);
        case Op::AllGather:
          return (*comms)->allGather({0}, 0, x, y, nullptr, stream);
        case Op::ReduceScatter:
          return (*comms)->reduceScatter({0}, 0, x, y, nullptr, stream);
        }
        return Status::ok();
      };
      for (int i = 0; i < kWarmup; ++i)
        if (Status st = once(); !st) {
          std::fprintf(stderr, "%s\n", st.message().c_str());
          return false;
        }
      cudaStreamSynchronize(stream);
      cudaEventRecord(start, stream);
      for (int i = 0; i < kTimed; ++i)
        if (!once())
          return false;
      cudaEventRecord(stop, stream);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      double seconds = ms / 1e3 / kTimed;
      double bytes = double(numel) * 2 * (op == Op::AllGather ? n : 1);
      double factor = op == Op::AllReduce ? 2.0 * (n - 1) / n
                                          : double(n - 1) / n;
      results.push_back({op, mib, seconds * 1e6, bytes / seconds * factor / 1e9});
      cudaFree(in);
      cudaFree(out);
    }
  }
  return true;
}

} // namespace

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
    std::printf("fewer than 2 CUDA devices: skipped\n");
    return 0;
  }
  auto id = newUniqueId();
  if (!id) {
    std::fprintf(stderr, "%s\n", id.status().message().c_str());
    return 2;
  }
  std::vector<std::vector<Result>> results(n);
  std::vector<char> ok(n, 0);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] { ok[r] = runRank(r, n, *id, results[r]); });
  for (auto &t : threads)
    t.join();
  for (int r = 0; r < n; ++r)
    if (!ok[r]) {
      std::fprintf(stderr, "rank %d failed\n", r);
      return 2;
    }
  std::printf("paracc collectives, %d GPUs, bf16\n", n);
  for (const Result &r : results[0])
    std::printf("PARACC {\"op\": \"%s\", \"MiB\": %d, \"us\": %.1f, "
                "\"busbw_GBs\": %.1f}\n",
                opName(r.op), r.mib, r.us, r.busbw);
  return 0;
}
