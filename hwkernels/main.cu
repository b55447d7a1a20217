// pdsim-hwbench: runs the H200 microbenchmarks and writes one raw-results JSON per benchmark
// (raw-<name>.json) plus the machine context (raw-context.json) into --out.
// Usage: pdsim-hwbench --out DIR [--only
// proxy,launch,hbm,gemm,attention,prefill,nvlink,ep,collectives,nccl]
//        [--quick]
#include <cublasLt.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>

#include "common.hpp"

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text << "\n";
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(2);
  }
}

std::string context(const hw::Options& o) {
  cudaDeviceProp p;
  HW_CHECK(cudaGetDeviceProperties(&p, o.device));
  int drv = 0, rt = 0, clk = 0, mclk = 0, bus = 0, ndev = 0;
  HW_CHECK(cudaDriverGetVersion(&drv));
  HW_CHECK(cudaRuntimeGetVersion(&rt));
  HW_CHECK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, o.device));
  HW_CHECK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, o.device));
  HW_CHECK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, o.device));
  HW_CHECK(cudaGetDeviceCount(&ndev));
  std::time_t now = std::time(nullptr);
  char iso[32];
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return hw::jobj(
      {{"gpu", hw::jstr(p.name)},
       {"compute_capability", hw::jstr(std::to_string(p.major) + "." + std::to_string(p.minor))},
       {"sm_count", hw::jnum(p.multiProcessorCount)},
       {"l2_bytes", hw::jnum(p.l2CacheSize)},
       {"global_mem_bytes", hw::jnum(static_cast<double>(p.totalGlobalMem))},
       {"sm_clock_max_khz", hw::jnum(clk)},
       {"mem_clock_max_khz", hw::jnum(mclk)},
       {"mem_bus_bits", hw::jnum(bus)},
       {"gpus_visible", hw::jnum(ndev)},
       {"cuda_driver_api", hw::jnum(drv)},
       {"cuda_runtime", hw::jnum(rt)},
       {"cublasLt", hw::jnum(static_cast<double>(cublasLtGetVersion()))},
       {"started_at", hw::jstr(iso)},
       {"quick", hw::jstr(o.quick ? "yes" : "no")}});
}

}  // namespace

int main(int argc, char** argv) {
  hw::Options o;
  std::string out, only = "proxy,launch,hbm,gemm,attention,prefill,nvlink,ep,collectives,nccl";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--version") {
      std::printf("pdsim-hwbench %s\n", PDSIM_VERSION);
      return 0;
    }
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s --out DIR [--only a,b,...] [--quick] | --version\n", argv[0]);
      return 2;
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "--out DIR is required\n");
    return 2;
  }
  HW_CHECK(cudaSetDevice(o.device));
  write_file(out + "/raw-context.json", context(o));
  const std::map<std::string, std::function<std::string(const hw::Options&)>> benches = {
      {"proxy", hw::bench_proxy},
      {"launch", hw::bench_launch},
      {"hbm", hw::bench_hbm},
      {"gemm", hw::bench_gemm},
      {"attention", hw::bench_attention},
      {"prefill", hw::bench_prefill},
      {"nvlink", hw::bench_nvlink},
      {"ep", hw::bench_ep},
      {"collectives", hw::bench_collectives},
      {"nccl", hw::bench_nccl}};
  size_t pos = 0;
  while (pos <= only.size()) {
    size_t comma = only.find(',', pos);
    std::string name =
        only.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? only.size() + 1 : comma + 1;
    auto it = benches.find(name);
    if (it == benches.end()) {
      std::fprintf(stderr, "unknown benchmark '%s'\n", name.c_str());
      return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    std::printf("[hwbench] %s ...\n", name.c_str());
    std::fflush(stdout);
    std::string json = it->second(o);
    HW_CHECK(cudaDeviceSynchronize());
    write_file(out + "/raw-" + name + ".json", json);
    std::printf("[hwbench] %s done in %.1f s\n", name.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
  }
  return 0;
}
