// NVLink peer-to-peer among the GPUs present: (1) bulk one-way and both-ways bandwidth with an SM
// copy kernel writing into the peer's memory, (2) decode all-to-all dispatch / combine at the
// low-latency shapes (128 tokens per rank, top-8; 7408-byte FP8 dispatch copies, 14336-byte BF16
// combine copies), every copy written straight into its destination rank's receive slot, then
// checked byte for byte on the host.
#include <cstring>

#include "common.hpp"

namespace hw {
namespace {

constexpr int kTokens = 128, kTopK = 8;

__global__ void put_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n16) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n16; i += stride)
    dst[i] = src[i];
}

struct Peers {
  uint4* recv[8];  // receive buffer of each rank, addressable from every rank
};

// One warp per (token, k) copy: message of `words` 16-byte words from the token's row to the
// receive slot [src_rank][copy] of the destination rank.
__global__ void a2a_kernel(const uint4* __restrict__ tokens, const int* __restrict__ dest, Peers p,
                           int rank, int words) {
  const int copy = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (copy >= kTokens * kTopK) return;
  const int lane = threadIdx.x & 31, tok = copy / kTopK, dst = dest[copy];
  const uint4* from = tokens + static_cast<size_t>(tok) * words;
  uint4* to = p.recv[dst] + (static_cast<size_t>(rank) * kTokens * kTopK + copy) * words;
  for (int w = lane; w < words; w += 32) to[w] = from[w];
}

}  // namespace

std::string bench_nvlink(const Options& o) {
  int n = 0;
  HW_CHECK(cudaGetDeviceCount(&n));
  if (n < 2) return jobj({{"skipped", jstr("fewer than 2 GPUs visible")}, {"gpus", jnum(n)}});
  n = std::min(n, 8);
  int can = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      HW_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) return jobj({{"skipped", jstr("peer access not available")}, {"gpus", jnum(n)}});
      HW_CHECK(cudaSetDevice(a));
      cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) HW_CHECK(e);
      (void)cudaGetLastError();
    }
  std::vector<cudaStream_t> st(n);
  std::vector<cudaEvent_t> e0(n), e1(n);
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamCreateWithFlags(&st[r], cudaStreamNonBlocking));
    HW_CHECK(cudaEventCreate(&e0[r]));
    HW_CHECK(cudaEventCreate(&e1[r]));
  }
  const int reps = o.quick ? 20 : 200;
  cudaDeviceProp prop;
  HW_CHECK(cudaGetDeviceProperties(&prop, 0));
  // Runs fn(rank) on the given ranks concurrently, `reps` times; per rep the slowest rank's time.
  auto timed = [&](const std::vector<int>& ranks, auto&& fn) {
    std::vector<double> us;
    for (int it = 0; it < reps + 5; ++it) {
      for (int r : ranks) {
        HW_CHECK(cudaSetDevice(r));
        HW_CHECK(cudaEventRecord(e0[r], st[r]));
        fn(r);
        HW_CHECK_LAUNCH();
        HW_CHECK(cudaEventRecord(e1[r], st[r]));
      }
      double worst = 0;
      for (int r : ranks) {
        HW_CHECK(cudaSetDevice(r));
        HW_CHECK(cudaEventSynchronize(e1[r]));
        float ms = 0;
        HW_CHECK(cudaEventElapsedTime(&ms, e0[r], e1[r]));
        worst = std::max(worst, 1000.0 * ms);
      }
      if (it >= 5) us.push_back(worst);
    }
    return us;
  };

  // Bulk: 256 MiB from rank 0 into rank 1, then both at once.
  const size_t bulk = 256ull << 20;
  std::vector<uint4*> bsrc(n), bdst(n);
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaMalloc(&bsrc[r], bulk));
    HW_CHECK(cudaMalloc(&bdst[r], bulk));
    HW_CHECK(cudaMemset(bsrc[r], r + 1, bulk));
    HW_CHECK(cudaDeviceSynchronize());
  }
  auto put = [&](int r) {
    put_kernel<<<prop.multiProcessorCount * 4, 512, 0, st[r]>>>(bsrc[r], bdst[(r + 1) % n],
                                                                bulk / 16);
  };
  Stats one = stats_of(timed({0}, put));
  std::vector<int> all;
  for (int r = 0; r < n; ++r) all.push_back(r);
  Stats both = stats_of(timed(all, put));
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaFree(bsrc[r]));
    HW_CHECK(cudaFree(bdst[r]));
  }

  // Decode all-to-all: random top-8 destinations (ranks) per token, fixed seed.
  std::vector<std::string> phases;
  for (auto [name, bytes] : {std::pair{"dispatch_fp8", 7408}, std::pair{"combine_bf16", 14336}}) {
    const int words = bytes / 16;  // both sizes are multiples of 16
    Peers p{};
    std::vector<uint4*> tok(n);
    std::vector<int*> dest_d(n);
    std::vector<std::vector<int>> dest(n, std::vector<int>(kTokens * kTopK));
    std::vector<std::vector<unsigned char>> payload(n);
    Gen g(777);
    const size_t slot_bytes = static_cast<size_t>(bytes) * kTokens * kTopK;
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      payload[r].resize(static_cast<size_t>(kTokens) * bytes);
      for (auto& c : payload[r]) c = static_cast<unsigned char>(g.next() >> 56);
      for (int& d : dest[r]) d = static_cast<int>(g.next() % static_cast<unsigned long long>(n));
      HW_CHECK(cudaMalloc(&tok[r], payload[r].size()));
      HW_CHECK(cudaMalloc(&dest_d[r], sizeof(int) * dest[r].size()));
      HW_CHECK(cudaMalloc(&p.recv[r], slot_bytes * n));
      HW_CHECK(cudaMemset(p.recv[r], 0xAB, slot_bytes * n));
      HW_CHECK(cudaMemcpy(tok[r], payload[r].data(), payload[r].size(), cudaMemcpyHostToDevice));
      HW_CHECK(cudaMemcpy(dest_d[r], dest[r].data(), sizeof(int) * dest[r].size(),
                          cudaMemcpyHostToDevice));
      HW_CHECK(
          cudaDeviceSynchronize());  // the poison must land before the non-blocking stream runs
    }
    auto a2a = [&](int r) {
      a2a_kernel<<<kTokens * kTopK / 4, 128, 0, st[r]>>>(tok[r], dest_d[r], p, r, words);
    };
    Stats t = stats_of(timed(all, a2a));
    // Byte-exact: every copy landed in its slot with its token's payload.
    long long bad = 0, remote = 0;
    for (int d = 0; d < n; ++d) {
      std::vector<unsigned char> recv(slot_bytes * n);
      HW_CHECK(cudaSetDevice(d));
      HW_CHECK(cudaMemcpy(recv.data(), p.recv[d], recv.size(), cudaMemcpyDeviceToHost));
      for (int src = 0; src < n; ++src)
        for (int c = 0; c < kTokens * kTopK; ++c) {
          if (dest[src][c] != d) continue;
          if (src != d) ++remote;
          const unsigned char* want = payload[src].data() + static_cast<size_t>(c / kTopK) * bytes;
          const unsigned char* got =
              recv.data() + (static_cast<size_t>(src) * kTokens * kTopK + c) * bytes;
          if (std::memcmp(want, got, static_cast<size_t>(bytes)) != 0) ++bad;
        }
    }
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      HW_CHECK(cudaFree(tok[r]));
      HW_CHECK(cudaFree(dest_d[r]));
      HW_CHECK(cudaFree(p.recv[r]));
    }
    const double remote_per_rank = static_cast<double>(remote) / n;
    phases.push_back(
        jobj({{"phase", jstr(name)},
              {"message_bytes", jnum(bytes)},
              {"copies_per_rank", jnum(kTokens * kTopK)},
              {"remote_copies_per_rank_mean", jnum(remote_per_rank)},
              {"us_slowest_rank", jstats(t)},
              {"GBps_all_copies_median",
               jnum(static_cast<double>(kTokens) * kTopK * bytes / (t.median * 1e3))},
              {"GBps_remote_copies_median", jnum(remote_per_rank * bytes / (t.median * 1e3))},
              {"check",
               jstr(bad == 0 ? "byte-exact" : "MISMATCH in " + std::to_string(bad) + " copies")}}));
  }
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamDestroy(st[r]));
    HW_CHECK(cudaEventDestroy(e0[r]));
    HW_CHECK(cudaEventDestroy(e1[r]));
  }
  HW_CHECK(cudaSetDevice(o.device));
  const double b = static_cast<double>(bulk);
  return jobj(
      {{"gpus", jnum(n)},
       {"repetitions", jnum(reps)},
       {"bulk_bytes", jnum(b)},
       {"bulk_one_way", jobj({{"us", jstats(one)}, {"GBps_median", jnum(b / (one.median * 1e3))}})},
       {"bulk_all_ranks_at_once",
        jobj({{"us", jstats(both)}, {"GBps_per_rank_median", jnum(b / (both.median * 1e3))}})},
       {"bulk_what", jstr("SM copy kernel (16-byte stores) from local memory into the next rank's "
                          "memory over peer access")},
       {"decode_a2a", jarr(phases)},
       {"a2a_what", jstr("one warp per (token, top-k) copy writes the message into the destination "
                         "rank's slot (local copies included, as DeepEP counts them); all ranks "
                         "run at once; time of the slowest rank per repetition")}});
}

}  // namespace hw
