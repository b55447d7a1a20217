// pdcal-gpu-proxy: the CPU-proxy path of an EFA all-to-all (UCCL-EP style) measured leg by leg.
// Rank 0 owns a GPU: a GPU thread writes a 16-byte command into a FIFO in host-mapped memory
// and spins on a completion flag; this process's main thread is the proxy: it polls the FIFO,
// posts the write to rank 1 through libfabric (fi_write, any provider), polls the completion and
// sets the flag the GPU polls. Rank 1 only keeps its endpoint progressing.
//
// Legs of each round trip (µs):
//   gpu_to_proxy  GPU writes the command (%globaltimer g0) → proxy sees it (host clock h_seen)
//   post          h_seen → fi_write returned (h_posted)                          host clock
//   completion    h_posted → the write's completion polled (h_done)              host clock
//   proxy_to_gpu  h_done (flag written right after) → GPU sees the flag (g1)
//   round_trip    g1 − g0                                                        GPU clock
// The first and fourth legs span both clocks. Cross-clock method (NTP-style): before and after
// the measurement the same kernel runs `--calib-iters` bare flag round trips that the proxy
// answers at once; each gives offset = h − (g0 + g1)/2, exact if the two directions take equally
// long; the round trip with the smallest g1 − g0 is used, so the error is below half that RTT
// (written as context.offset_uncertainty_us). The offset is interpolated linearly in host time
// between the two calibrations (the clocks drift by ppm). Per sample the four legs add up to the
// GPU-clock round trip exactly; only the split between legs 1 and 4 carries the uncertainty.
// Payload in registered host memory (no GPUDirect RDMA / FI_HMEM).
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <limits>

#include "calibrate/pdcal/bootstrap.hpp"
#include "calibrate/pdcal/cli_checks.hpp"
#include "calibrate/pdcal/exit_status.hpp"
#include "calibrate/pdcal/fabric_transport.hpp"
#include "calibrate/pdcal/gpu_proxy_kernel.hpp"
#include "calibrate/pdcal/measurement_doc.hpp"
#include "calibrate/pdcal/wire.hpp"
#include "sim/core/error.hpp"
#include "sim/core/stats.hpp"

namespace pdcal = pdsim::pdcal;

namespace {

struct Args {
  std::string listen, connect, port_file, output;
  pdcal::FabricOptions fabric;
  uint32_t bytes = 7168;
  int iters = 2000, warmup = 200, calib_iters = 2000, gpu = 0;
  unsigned slots = 256;
  double bootstrap_timeout_s = 60, peer_timeout_s = 600;
};

uint64_t host_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The proxy's wait for command `seq`; sets the kernel's abort flag and throws on a timeout.
uint64_t await_command(pdcal::gpu::ProxyGpu& g, uint32_t seq, double timeout_s) {
  volatile pdcal::gpu::Command& c = g.ring()[seq % g.slots()];
  const uint64_t deadline = host_ns() + static_cast<uint64_t>(timeout_s * 1e9);
  for (uint64_t spins = 0;; ++spins) {
    if (c.seq == seq && c.seq2 == seq) return host_ns();
    if ((spins & 1023) == 0 && host_ns() > deadline) {
      *g.abort_flag() = 1;
      throw pdcal::ProbeError("timeout: the GPU did not issue command " + std::to_string(seq));
    }
  }
}

void set_flag(pdcal::gpu::ProxyGpu& g, uint32_t seq) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *g.ack() = seq;
}

// Integer ns throughout: %globaltimer counts from the Unix epoch (~1.8e18 ns), where a double
// resolves only 256 ns.
struct Calibration {
  int64_t host_ns = 0, offset_ns = 0;  // host time of the fastest round trip; host − GPU clock
  double rtt_min_ns = 0;
};

// Bare round trips: offset host − GPU at the fastest one.
Calibration calibrate(pdcal::gpu::ProxyGpu& g, int n, uint32_t& seq, double timeout_s) {
  std::vector<uint64_t> h(static_cast<size_t>(n)), g0, g1;
  const uint32_t first = seq;
  g.launch(n, first, 0);
  for (int i = 0; i < n; ++i) {
    h[static_cast<size_t>(i)] = await_command(g, first + static_cast<uint32_t>(i), timeout_s);
    set_flag(g, first + static_cast<uint32_t>(i));
  }
  g.finish(g0, g1);
  seq += static_cast<uint32_t>(n);
  Calibration c;
  c.rtt_min_ns = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < h.size(); ++i) {
    const auto rtt = static_cast<int64_t>(g1[i] - g0[i]);
    if (static_cast<double>(rtt) < c.rtt_min_ns) {
      c.rtt_min_ns = static_cast<double>(rtt);
      c.host_ns = static_cast<int64_t>(h[i]);
      c.offset_ns = static_cast<int64_t>(h[i]) - (static_cast<int64_t>(g0[i]) + rtt / 2);
    }
  }
  return c;
}

nlohmann::json leg_row(const std::string& leg, const std::string& clock,
                       const std::vector<double>& us) {
  const pdsim::Distribution d = pdsim::describe(us);
  return {{"leg", leg},       {"clock", clock},     {"latency_us", d.median},
          {"stat", "median"}, {"mean_us", d.mean},  {"std_us", d.std},
          {"min_us", d.min},  {"p50_us", d.median}, {"p90_us", d.p90},
          {"p99_us", d.p99},  {"max_us", d.max},    {"iterations", d.count}};
}

void run_proxy(pdcal::Transport& t, const Args& a, pdcal::MeasurementDoc& doc) {
  pdcal::gpu::ProxyGpu g(a.gpu, a.slots);
  doc.context["gpu"] = g.device_name();
  doc.context["gpu_index"] = a.gpu;
  uint32_t seq = 1;
  const double to = a.fabric.timeout_s;
  const Calibration before = calibrate(g, a.calib_iters, seq, to);

  const int n = a.warmup + a.iters;
  std::vector<uint64_t> seen(static_cast<size_t>(n)), posted(seen), done(seen), g0, g1;
  const uint32_t first = seq;
  g.launch(n, first, a.bytes);
  for (int i = 0; i < n; ++i) {
    const uint32_t s = first + static_cast<uint32_t>(i);
    const auto k = static_cast<size_t>(i);
    seen[k] = await_command(g, s, to);
    pdcal::Op op;
    t.post_write(1, 0, 0, 0, g.ring()[s % g.slots()].bytes, op);
    posted[k] = host_ns();
    t.wait(op, to, "waiting for the write's completion");
    done[k] = host_ns();
    set_flag(g, s);
  }
  g.finish(g0, g1);
  seq += static_cast<uint32_t>(n);
  const Calibration after = calibrate(g, a.calib_iters, seq, to);

  // Offset at host time h, linear between the two calibrations (the drift is small: a double
  // holds it exactly enough).
  const int64_t span = after.host_ns - before.host_ns;
  const double drift = static_cast<double>(after.offset_ns - before.offset_ns);
  auto offset = [&](uint64_t h) -> int64_t {
    if (span <= 0) return before.offset_ns;
    const double frac =
        static_cast<double>(static_cast<int64_t>(h) - before.host_ns) / static_cast<double>(span);
    return before.offset_ns + std::llround(drift * frac);
  };
  auto us = [](int64_t ns) { return static_cast<double>(ns) / 1e3; };
  std::vector<double> l1, l2, l3, l4, rt;
  for (int i = a.warmup; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    const int64_t off = offset(seen[k]);
    const int64_t g0h = static_cast<int64_t>(g0[k]) + off, g1h = static_cast<int64_t>(g1[k]) + off;
    l1.push_back(us(static_cast<int64_t>(seen[k]) - g0h));
    l2.push_back(us(static_cast<int64_t>(posted[k] - seen[k])));
    l3.push_back(us(static_cast<int64_t>(done[k] - posted[k])));
    l4.push_back(us(g1h - static_cast<int64_t>(done[k])));
    rt.push_back(us(static_cast<int64_t>(g1[k] - g0[k])));
  }
  doc.results = nlohmann::json::array(
      {leg_row("gpu_to_proxy", "cross", l1), leg_row("post", "host", l2),
       leg_row("completion", "host", l3), leg_row("proxy_to_gpu", "cross", l4),
       leg_row("round_trip", "gpu", rt)});
  doc.context["clocks"] = {
      {"gpu", "%globaltimer (ns)"},
      {"host", "CLOCK_MONOTONIC_RAW"},
      {"method",
       "offset = h - (g0 + g1)/2 at the fastest of calib_iters bare flag round trips, before and "
       "after the measurement, interpolated linearly in host time"},
      {"offset_before_ns", before.offset_ns},
      {"offset_after_ns", after.offset_ns},
      {"rtt_min_before_us", before.rtt_min_ns / 1e3},
      {"rtt_min_after_us", after.rtt_min_ns / 1e3},
      {"offset_uncertainty_us", std::max(before.rtt_min_ns, after.rtt_min_ns) / 2e3}};
}

// Everything after parsing; exit codes as pdcal's (exit_status.hpp).
int run(Args& a) {
  pdcal::MeasurementDoc doc;
  doc.probe = "gpu_proxy_path";
  doc.parameters = {{"provider", a.fabric.provider},
                    {"bytes", a.bytes},
                    {"iters", a.iters},
                    {"warmup", a.warmup},
                    {"calib_iters", a.calib_iters},
                    {"fifo_slots", a.slots},
                    {"proxy_threads", 1},
                    {"payload_memory", "host"}};
  if (a.listen.empty() == a.connect.empty())
    throw pdsim::InputError("<command line>", "--listen/--connect",
                            "give exactly one of --listen HOST:PORT or --connect HOST:PORT");
  const bool listener = !a.listen.empty();
  const auto at = listener ? pdcal::parse_host_port(a.listen, "--listen", 0)
                           : pdcal::parse_host_port(a.connect, "--connect", 1);
  const bool writer = listener && !a.output.empty();
  std::string error;
  int code = pdsim::kExitOk;
  try {
    if (listener && pdcal::gpu::device_count() <= a.gpu)
      throw pdcal::NoDeviceError("no CUDA device " + std::to_string(a.gpu) +
                                 " on this host (rank 0, --listen, drives the GPU)");
    auto boot = listener ? pdcal::Bootstrap::listen(at, 2, a.bootstrap_timeout_s, a.port_file)
                         : pdcal::Bootstrap::connect(at, a.bootstrap_timeout_s);
    const auto all = boot.allgather(
        doc.parameters.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
        a.bootstrap_timeout_s, [](std::string_view blob, const std::string& who) {
          pdcal::check_parameters(blob, who);  // on rank 0 before it relays the blob
        });
    if (all[0] != all[1]) throw pdcal::ProbeError("ranks were given different parameters");
    a.fabric.buffer_bytes = a.bytes + 4096;
    auto t = pdcal::make_fabric_transport(a.fabric, boot);
    doc.context = t->describe();
    doc.context["proxy"] = "one CPU thread (this process's main thread), spinning";
    boot.barrier(a.bootstrap_timeout_s);
    constexpr uint32_t kDone = 5u << 28;
    pdcal::Op fin;
    if (t->rank() == 0) {
      try {
        run_proxy(*t, a, doc);
      } catch (const std::exception& e) {  // the target still has to be released
        error = e.what();
        code = pdsim::kExitInfeasible;
      }
      t->post_send(1, kDone, a.bytes, 8, fin);
      t->wait(fin, a.fabric.timeout_s, "telling the target to finish");
    } else {
      t->post_recv(0, kDone, a.bytes, 8, fin);
      t->wait(fin, a.peer_timeout_s, "waiting for rank 0 to finish");
    }
    boot.barrier(a.fabric.timeout_s);
  } catch (const pdcal::NoDeviceError&) {
    throw;  // nothing was measured: no output file
  } catch (const pdcal::PeerMessageError& e) {
    error = e.what();
    code = pdsim::kExitBadInput;
  } catch (const pdsim::InputError&) {
    throw;
  } catch (const pdsim::IoError&) {
    throw;
  } catch (const std::runtime_error& e) {  // ProbeError, CUDA errors
    error = e.what();
    code = pdsim::kExitInfeasible;
  }
  if (writer) doc.write(a.output, error);
  if (code != pdsim::kExitOk) std::cerr << "pdcal-gpu-proxy: " << error << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pdcal-gpu-proxy: GPU -> CPU proxy -> libfabric write -> GPU flag, leg by leg"};
  app.set_version_flag("--version", std::string("pdcal-gpu-proxy ") + PDSIM_VERSION);
  Args a;
  app.add_option("--provider", a.fabric.provider, "libfabric provider: efa, verbs, tcp, shm")
      ->check(pdcal::name_text());
  app.add_option("--src-addr", a.fabric.src_addr, "local address the provider binds")
      ->check(pdcal::name_text());
  auto* l = app.add_option("--listen", a.listen, "HOST:PORT: rank 0 (the GPU side)");
  auto* c = app.add_option("--connect", a.connect, "HOST:PORT of rank 0 (the write target)");
  l->excludes(c);
  app.add_option("--port-file", a.port_file, "listener: write the bound port here (use port 0)");
  app.add_option("--bytes", a.bytes, "bytes per write (default 7168: one FP8 token copy)")
      ->check(pdcal::int_in(1, 1 << 26));
  app.add_option("--iters", a.iters, "timed round trips")
      ->check(pdcal::int_in(1, pdcal::kMaxIterations));
  app.add_option("--warmup", a.warmup, "untimed round trips")
      ->check(pdcal::int_in(0, pdcal::kMaxIterations));
  app.add_option("--calib-iters", a.calib_iters, "clock calibration round trips, each side")
      ->check(pdcal::int_in(1, pdcal::kMaxIterations));
  app.add_option("--gpu", a.gpu, "CUDA device index")->check(pdcal::int_in(0, 255));
  app.add_option("--timeout-s", a.fabric.timeout_s, "give up when a step takes this long")
      ->check(pdcal::seconds());
  app.add_option("--peer-timeout-s", a.peer_timeout_s, "target: wait this long for the end")
      ->check(pdcal::seconds());
  app.add_option("-o,--output", a.output, "measurement JSON (rank 0)");
  return pdcal::guarded_main("pdcal-gpu-proxy", app, argc, argv, [&] { return run(a); });
}
