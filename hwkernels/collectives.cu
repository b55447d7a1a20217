// Intra-node collectives over NVLink peer stores among the N visible GPUs, at the sizes that
// context-parallel prefill moves, plus the small-message one-way latency:
//  - all-gather (direct push): every rank stores its shard of B bytes into every rank's output
//    (its own included), then flags; done when every shard has arrived. Bus bandwidth
//    (n-1) B / t, NCCL's convention, which is the rate of a ring's (n-1) steps.
//  - reduce-scatter (push, then local reduce): rank r stores its BF16 shard j into rank j's
//    staging slot [r], flags, and each rank sums the n shards of its own slot (FP32
//    accumulation). Bus bandwidth (n-1) B / t with B the output shard's bytes.
//  - one-way latency: rank 0 and rank 1 ping-pong a flag (one thread each, release stores and
//    acquire loads across NVLink); one-way = round trip / 2.
// CP sizes: B = tokens per GPU x KV bytes per token per layer; GLM-5.1 with a BF16 cache stores
// (kv_lora 512 + rope 64) x 2 B of MLA latent and 128 + 4 B of indexer key per token per layer =
// 1284 B (models/kv_layout.cpp); a 16K-token chunk at CP8 is 2048 tokens per GPU.
#include <cuda_bf16.h>

#include <cstring>

#include "peers.hpp"

namespace hw {
namespace {

constexpr int kThreads = 512;
constexpr double kKvBytesPerTokenLayer = (512 + 64) * 2 + 128 + 4;

struct CollArgs {
  int n, me;
  size_t bytes;                      // shard bytes (multiple of 16)
  const uint4* in;                   // AG: [B]; RS: [n][B]
  PeerPtrs<uint4> out;               // AG: [n][B] on every rank; RS: staging [n][B]
  uint4* rs_out;                     // RS: [B] result
  PeerPtrs<unsigned long long> sig;  // [n] per rank
  unsigned* gbar;
  unsigned epoch;
  int* err;
};

__device__ void signal_and_wait(const CollArgs& a) {
  __threadfence_system();
  grid_barrier(a.gbar, 1);
  if (blockIdx.x == 0) {
    const unsigned long long tag = static_cast<unsigned long long>(a.epoch) << 32;
    for (int d = threadIdx.x; d < a.n; d += blockDim.x) st_release_sys(a.sig.p[d] + a.me, tag);
    for (int s = threadIdx.x; s < a.n; s += blockDim.x)
      wait_epoch(a.sig.p[a.me] + s, a.epoch, a.err);
  }
}

__global__ void __launch_bounds__(kThreads, 1) allgather_kernel(CollArgs a) {
  const size_t words = a.bytes / 16, stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t off = static_cast<size_t>(a.me) * words;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words;
       i += stride) {
    const uint4 v = a.in[i];
    for (int k = 0; k < a.n; ++k) a.out.p[(a.me + k) % a.n][off + i] = v;  // staggered targets
  }
  signal_and_wait(a);
}

__global__ void __launch_bounds__(kThreads, 1) reduce_scatter_kernel(CollArgs a) {
  const size_t words = a.bytes / 16, stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t tid = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (int k = 1; k < a.n; ++k) {
    const int j = (a.me + k) % a.n;
    for (size_t i = tid; i < words; i += stride)
      a.out.p[j][static_cast<size_t>(a.me) * words + i] = a.in[static_cast<size_t>(j) * words + i];
  }
  signal_and_wait(a);
  grid_barrier(a.gbar, 2);
  const uint4* stage = a.out.p[a.me];
  for (size_t i = tid; i < words; i += stride) {
    float acc[8];
    const uint4 mine = a.in[static_cast<size_t>(a.me) * words + i];
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&mine);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 f = __bfloat1622float2(h[e]);
      acc[2 * e] = f.x;
      acc[2 * e + 1] = f.y;
    }
    for (int s = 0; s < a.n; ++s) {
      if (s == a.me) continue;
      const uint4 v = __ldcg(stage + static_cast<size_t>(s) * words + i);
      const __nv_bfloat162* hv = reinterpret_cast<const __nv_bfloat162*>(&v);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float2 f = __bfloat1622float2(hv[e]);
        acc[2 * e] += f.x;
        acc[2 * e + 1] += f.y;
      }
    }
    uint4 o;
    __nv_bfloat162* ho = reinterpret_cast<__nv_bfloat162*>(&o);
#pragma unroll
    for (int e = 0; e < 4; ++e) ho[e] = __floats2bfloat162_rn(acc[2 * e], acc[2 * e + 1]);
    a.rs_out[i] = o;
  }
}

__global__ void fill_bf16(__nv_bfloat16* x, size_t count, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    x[i] = __float2bfloat16_rn(hval(i, seed));
}

// Ping-pong between two GPUs: `ping` runs on rank 0, `pong` on rank 1. Round trip i: rank 0
// stores i into rank 1's flag, rank 1 sees it and stores i into rank 0's flag. Rank 0 records
// the SM cycles of each round trip and the globaltimer span of the timed ones.
__global__ void ping_kernel(unsigned long long* remote, const unsigned long long* local, int warm,
                            int iters, long long* cycles, unsigned long long* span_ns, int* err) {
  unsigned long long t0 = 0;
  long long c_start = 0;
  for (int i = 1; i <= warm + iters; ++i) {
    if (i == warm + 1) {
      t0 = dev_global_ns();
      c_start = clock64();
    }
    const long long c0 = clock64();
    st_release_sys(remote, static_cast<unsigned long long>(i) << 32);
    wait_epoch(local, static_cast<unsigned>(i), err);
    if (i > warm) cycles[i - warm - 1] = clock64() - c0;
  }
  span_ns[0] = dev_global_ns() - t0;
  span_ns[1] = static_cast<unsigned long long>(clock64() - c_start);
}
__global__ void pong_kernel(unsigned long long* remote, const unsigned long long* local, int total,
                            int* err) {
  for (int i = 1; i <= total; ++i) {
    wait_epoch(local, static_cast<unsigned>(i), err);
    st_release_sys(remote, static_cast<unsigned long long>(i) << 32);
  }
}

std::string latency(Peers& p, const Options& o) {
  const int warm = 1000, iters = o.quick ? 2000 : 20000;
  unsigned long long *f0, *f1, *span;
  long long* cyc;
  HW_CHECK(cudaSetDevice(1));
  HW_CHECK(cudaMalloc(&f1, 8));
  HW_CHECK(cudaMemset(f1, 0, 8));
  HW_CHECK(cudaDeviceSynchronize());
  HW_CHECK(cudaSetDevice(0));
  HW_CHECK(cudaMalloc(&f0, 8));
  HW_CHECK(cudaMemset(f0, 0, 8));
  HW_CHECK(cudaMalloc(&cyc, sizeof(long long) * iters));
  HW_CHECK(cudaMalloc(&span, 16));
  HW_CHECK(cudaDeviceSynchronize());
  HW_CHECK(cudaSetDevice(1));
  pong_kernel<<<1, 1, 0, p.st[1]>>>(f0, f1, warm + iters, p.err[1]);
  HW_CHECK_LAUNCH();
  HW_CHECK(cudaSetDevice(0));
  ping_kernel<<<1, 1, 0, p.st[0]>>>(f1, f0, warm, iters, cyc, span, p.err[0]);
  HW_CHECK_LAUNCH();
  p.check_errors("ping-pong");
  std::vector<long long> c(iters);
  unsigned long long sp[2];
  HW_CHECK(cudaMemcpy(c.data(), cyc, sizeof(long long) * iters, cudaMemcpyDeviceToHost));
  HW_CHECK(cudaMemcpy(sp, span, 16, cudaMemcpyDeviceToHost));
  // SM clock from the same span: cycles per ns.
  const double cyc_per_ns = static_cast<double>(sp[1]) / static_cast<double>(sp[0]);
  std::vector<double> one_way_us;
  for (long long x : c) one_way_us.push_back(static_cast<double>(x) / cyc_per_ns / 2e3);
  HW_CHECK(cudaFree(cyc));
  HW_CHECK(cudaFree(span));
  HW_CHECK(cudaFree(f0));
  HW_CHECK(cudaSetDevice(1));
  HW_CHECK(cudaFree(f1));
  HW_CHECK(cudaSetDevice(0));
  return jobj({{"pair", jstr("rank 0 <-> rank 1")},
               {"round_trips", jnum(iters)},
               {"one_way_us", jstats(stats_of(one_way_us))},
               {"one_way_us_mean_globaltimer", jnum(static_cast<double>(sp[0]) / iters / 2e3)},
               {"sm_clock_GHz_during", jnum(cyc_per_ns)},
               {"what", jstr("one thread per GPU; release store of a flag into the peer's memory, "
                             "acquire-load spin on the reply; per-round-trip SM cycles converted "
                             "with the SM clock measured over the same span")}});
}

std::string collective(Peers& p, const Options& o, bool gather) {
  const int n = p.n;
  std::vector<std::string> rows;
  const std::vector<int> tokens = o.quick
                                      ? std::vector<int>{128, 2048}
                                      : std::vector<int>{64, 128, 256, 512, 1024, 2048, 4096, 8192};
  for (int tok : tokens) {
    const size_t bytes =
        static_cast<size_t>(tok * kKvBytesPerTokenLayer);  // multiple of 16: 1284 * 64k
    const size_t words = bytes / 16;
    std::vector<uint4*> in(n), out(n), rs(n);
    std::vector<unsigned long long*> sig(n);
    std::vector<unsigned*> gbar(n);
    const size_t in_bytes = gather ? bytes : bytes * n;
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      HW_CHECK(cudaMalloc(&in[r], in_bytes));
      HW_CHECK(cudaMalloc(&out[r], bytes * n));
      HW_CHECK(cudaMalloc(&rs[r], bytes));
      HW_CHECK(cudaMalloc(&sig[r], 8 * kMaxRanks));
      HW_CHECK(cudaMalloc(&gbar[r], sizeof(unsigned)));
      HW_CHECK(cudaMemset(sig[r], 0, 8 * kMaxRanks));
      HW_CHECK(cudaMemset(out[r], 0xFF, bytes * n));
      HW_CHECK(cudaMemset(rs[r], 0xFF, bytes));
      fill_bf16<<<p.sms * 2, 256>>>(reinterpret_cast<__nv_bfloat16*>(in[r]), in_bytes / 2, 500 + r);
      HW_CHECK_LAUNCH();
      HW_CHECK(cudaDeviceSynchronize());
    }
    auto args = [&](int r, unsigned ep) {
      CollArgs a{};
      a.n = n;
      a.me = r;
      a.bytes = bytes;
      a.in = in[r];
      a.rs_out = rs[r];
      a.gbar = gbar[r];
      a.epoch = ep;
      a.err = p.err[r];
      for (int d = 0; d < n; ++d) {
        a.out.p[d] = out[d];
        a.sig.p[d] = sig[d];
      }
      return a;
    };
    auto reset = [&](int r) { HW_CHECK(cudaMemsetAsync(gbar[r], 0, sizeof(unsigned), p.st[r])); };
    // Small shards need few blocks (two 16-byte words per thread at least); more only add
    // grid-barrier cost.
    const int blocks =
        static_cast<int>(std::min<size_t>(p.sms, std::max<size_t>(1, words / (kThreads * 2))));
    auto run = [&](int r, unsigned ep) {
      if (gather)
        launch_coop(blocks, kThreads, p.st[r], allgather_kernel, args(r, ep));
      else
        launch_coop(blocks, kThreads, p.st[r], reduce_scatter_kernel, args(r, ep));
    };
    p.timed(0, 1, reset, run);
    // Check: AG byte-exact shards; RS against a double sum of the BF16 inputs (every 97th value).
    long long bad = 0;
    double num = 0, den = 0;
    std::vector<std::vector<unsigned short>> host_in(n);
    for (int r = 0; r < n; ++r) {
      host_in[r].resize(in_bytes / 2);
      HW_CHECK(cudaSetDevice(r));
      HW_CHECK(cudaMemcpy(host_in[r].data(), in[r], in_bytes, cudaMemcpyDeviceToHost));
    }
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      if (gather) {
        std::vector<unsigned short> h(bytes * n / 2);
        HW_CHECK(cudaMemcpy(h.data(), out[r], bytes * n, cudaMemcpyDeviceToHost));
        for (int s = 0; s < n; ++s)
          if (std::memcmp(h.data() + static_cast<size_t>(s) * bytes / 2, host_in[s].data(),
                          bytes) != 0)
            ++bad;
      } else {
        std::vector<unsigned short> h(bytes / 2);
        HW_CHECK(cudaMemcpy(h.data(), rs[r], bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < bytes / 2; i += 97) {
          double ref = 0;
          for (int s = 0; s < n; ++s) {
            unsigned u = static_cast<unsigned>(host_in[s][static_cast<size_t>(r) * bytes / 2 + i])
                         << 16;
            float f;
            std::memcpy(&f, &u, 4);
            ref += f;
          }
          unsigned u = static_cast<unsigned>(h[i]) << 16;
          float got;
          std::memcpy(&got, &u, 4);
          if (!std::isfinite(got)) ++bad;
          num += (got - ref) * (got - ref);
          den += ref * ref;
        }
      }
    }
    const double rel = std::sqrt(num / std::max(den, 1e-30));
    std::string check =
        gather ? (bad == 0 ? "byte-exact" : "MISMATCH in " + std::to_string(bad) + " shards")
               : (bad == 0 && rel < 1e-2
                      ? "pass: rel err " + jnum(rel)
                      : "FAIL: rel err " + jnum(rel) + ", non-finite " + std::to_string(bad));
    const int reps = o.quick ? 20 : 200;
    const Stats s = stats_of(p.timed(10, reps, reset, run));
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      HW_CHECK(cudaFree(in[r]));
      HW_CHECK(cudaFree(out[r]));
      HW_CHECK(cudaFree(rs[r]));
      HW_CHECK(cudaFree(sig[r]));
      HW_CHECK(cudaFree(gbar[r]));
    }
    rows.push_back(
        jobj({{"tokens_per_gpu", jnum(tok)},
              {"bytes_per_rank", jnum(static_cast<double>(bytes))},
              {"blocks", jnum(blocks)},
              {"us_slowest_rank", jstats(s)},
              {"busbw_GBps_median", jnum((n - 1) * static_cast<double>(bytes) / (s.median * 1e3))},
              {"busbw_GBps_p99", jnum((n - 1) * static_cast<double>(bytes) / (s.p99 * 1e3))},
              {"check", jstr(check)}}));
  }
  return jarr(rows);
}

}  // namespace

std::string bench_collectives(const Options& o) {
  Peers p;
  if (!p.skipped.empty()) return jobj({{"skipped", jstr(p.skipped)}});
  std::printf("[collectives] latency\n");
  std::fflush(stdout);
  const std::string lat = latency(p, o);
  std::printf("[collectives] all-gather\n");
  std::fflush(stdout);
  const std::string ag = collective(p, o, true);
  std::printf("[collectives] reduce-scatter\n");
  std::fflush(stdout);
  const std::string rs = collective(p, o, false);
  return jobj(
      {{"ranks", jnum(p.n)},
       {"kv_bytes_per_token_layer", jnum(kKvBytesPerTokenLayer)},
       {"sizes_from", jstr("GLM-5.1 BF16 KV cache: MLA latent (512 + 64) x 2 B + indexer key "
                           "128 + 4 B per token per layer (models/kv_layout.cpp) x tokens "
                           "per GPU of a chunk (16K-token chunk at CP8 = 2048)")},
       {"p2p_latency", lat},
       {"allgather", ag},
       {"reduce_scatter", rs},
       {"what", jstr("direct-push collectives over NVLink peer stores (hwkernels/"
                     "collectives.cu), cooperative grid of up to one 512-thread block per "
                     "SM, slowest rank from a cross-GPU start barrier to the last flag; "
                     "busbw = (n-1) x bytes per rank / time")}});
}

}  // namespace hw
