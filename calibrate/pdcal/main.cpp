// pdcal: measures a live fabric with the same experiments pdsim simulates (ping-pong, write
// bandwidth, scatter, the all-to-all loop) and writes measurement JSON for `pdsim calibrate fit`.
// Exit codes (exit_status.hpp): 0 done, 2 bad arguments or a malformed peer message, 3 probe
// failed (peer died, timeout, fabric error, no usable device; the rows measured so far are
// still written, except without a device), 4 I/O error, 1 a bug.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "calibrate/pdcal/bootstrap.hpp"
#include "calibrate/pdcal/cli_checks.hpp"
#include "calibrate/pdcal/exit_status.hpp"
#include "calibrate/pdcal/fabric_transport.hpp"
#include "calibrate/pdcal/measurement_doc.hpp"
#include "calibrate/pdcal/peer_text.hpp"
#include "calibrate/pdcal/probes.hpp"
#include "calibrate/pdcal/verbs_transport.hpp"
#include "calibrate/pdcal/wire.hpp"
#include "sim/core/error.hpp"

namespace pdcal = pdsim::pdcal;

namespace {

struct Args {
  std::string api = "fabric", listen, connect, port_file, output;
  int ranks = 2, idle_sleep_us = 0;
  bool mpi = false;
  double bootstrap_timeout_s = 60;
  pdcal::FabricOptions fabric;
  pdcal::VerbsOptions verbs;
  pdcal::SweepOptions sweep;
  int window = 64, msgs_per_peer = 8;
  pdcal::A2aLoopOptions loop;
};

void add_common(CLI::App& app, Args& a) {
  app.add_option("--api", a.api, "fabric (libfabric) or verbs (libibverbs)")
      ->check(CLI::IsMember({"fabric", "verbs"}));
  app.add_option("--provider", a.fabric.provider, "libfabric provider: efa, verbs, tcp, shm, ...")
      ->check(pdcal::name_text());
  app.add_option("--src-addr", a.fabric.src_addr, "local address the provider binds (FI_SOURCE)")
      ->check(pdcal::name_text());
  app.add_option("--endpoints", a.fabric.endpoints, "endpoints (QPs) to stripe writes over")
      ->check(pdcal::int_in(1, 64));
  app.add_flag("--stripe-domains", a.fabric.stripe_domains,
               "endpoint i on the i-th domain (NIC) the provider reports");
  app.add_option("--device", a.verbs.device, "verbs: device name (default: first)")
      ->check(pdcal::name_text());
  // ibverbs port numbers are 8-bit; GID tables are far shorter than 4096 entries.
  app.add_option("--ib-port", a.verbs.port, "verbs: port number")->check(pdcal::int_in(1, 255));
  app.add_option("--gid-index", a.verbs.gid_index, "verbs: GID index for RoCE (-1: LID, IB)")
      ->check(pdcal::int_in(-1, 4095));
  app.add_option("--qp", a.verbs.qp, "verbs: rc or srd (EFA)")->check(CLI::IsMember({"rc", "srd"}));
  auto* l = app.add_option("--listen", a.listen, "HOST:PORT: be rank 0 and wait for peers");
  auto* c = app.add_option("--connect", a.connect, "HOST:PORT of rank 0");
  l->excludes(c);
  auto* m = app.add_flag("--mpi", a.mpi,
                         "bootstrap through MPI (mpirun -n N pdcal ...); the default when started "
                         "by mpirun without --listen/--connect. Rank 0 writes -o");
  m->excludes(l);
  m->excludes(c);
  app.add_option("--ranks", a.ranks, "ranks in total (listener only)")
      ->check(pdcal::int_in(2, pdcal::kMaxRanks));
  app.add_option("--port-file", a.port_file, "listener: write the bound port here (use port 0)");
  app.add_option("--timeout-s", a.sweep.timeout_s, "give up when a peer is silent this long")
      ->check(pdcal::seconds());
  app.add_option("--idle-sleep-us", a.idle_sleep_us,
                 "sleep this long between polls when idle (oversubscribed hosts; 0: spin)")
      ->check(pdcal::int_in(0, 100000));
  app.add_option("--bootstrap-timeout-s", a.bootstrap_timeout_s, "wait this long for peers")
      ->check(pdcal::seconds());
  app.add_option("-o,--output", a.output, "measurement JSON to write (atomically)")->required();
  app.add_flag("--keep-samples", a.sweep.keep_samples, "write every sample, not only quantiles");
}

void add_sweep(CLI::App& app, Args& a) {
  const auto message = pdcal::byte_count(1, pdcal::kMaxMessageBytes);
  app.add_option("--min-bytes", a.sweep.min_bytes, "smallest message (k/M/G suffixes: 1024)")
      ->transform(message);
  app.add_option("--max-bytes", a.sweep.max_bytes, "largest message (at most 1G)")
      ->transform(message);
  app.add_option("--factor", a.sweep.factor, "size step (log sweep)")
      ->check(pdcal::real_in(1.01, 1e6));
  const auto iterations = pdcal::int_in(1, pdcal::kMaxIterations);
  app.add_option("--iters", a.sweep.iters, "most timed iterations per size")->check(iterations);
  app.add_option("--min-iters", a.sweep.min_iters, "fewest timed iterations per size")
      ->check(iterations);
  app.add_option("--budget-bytes", a.sweep.budget_bytes, "bytes per size: iterations ≈ budget/size")
      ->transform(pdcal::byte_count(1, pdcal::kMaxBudgetBytes));
  app.add_option("--warmup", a.sweep.warmup, "untimed iterations per size")
      ->check(pdcal::int_in(0, pdcal::kMaxIterations));
}

// The registered buffer `probe` needs at `n` ranks; InputError above kMaxBufferBytes.
size_t buffer_bytes(const std::string& probe, const Args& a, int n) {
  size_t bytes =
      probe == "pingpong"    ? pdcal::pingpong_buffer_bytes(a.sweep, n)
      : probe == "bandwidth" ? pdcal::bandwidth_buffer_bytes(a.sweep, n)
      : probe == "scatter"
          ? pdcal::scatter_buffer_bytes(a.sweep.max_bytes, a.msgs_per_peer, n)
          : pdcal::scatter_buffer_bytes(std::max(a.loop.dispatch_bytes, a.loop.combine_bytes),
                                        a.loop.msgs_per_peer, n);
  pdcal::check_buffer_bytes(bytes, n,
                            probe == "scatter"    ? "--max-bytes × --msgs-per-peer × ranks"
                            : probe == "a2a_loop" ? "--dispatch-bytes × --msgs-per-peer × ranks"
                                                  : "--max-bytes");
  return bytes;
}

nlohmann::json sweep_json(const pdcal::SweepOptions& s) {
  return {{"min_bytes", s.min_bytes}, {"max_bytes", s.max_bytes}, {"factor", s.factor},
          {"iters", s.iters},         {"min_iters", s.min_iters}, {"budget_bytes", s.budget_bytes},
          {"warmup", s.warmup},       {"timeout_s", s.timeout_s}};
}

int run_probe(const std::string& probe, Args& a) {
  pdcal::MeasurementDoc doc;
  doc.probe = probe;
  // Parameters every rank must share (checked after bootstrap).
  doc.parameters = {{"api", a.api}, {"ranks", a.ranks}};
  if (a.api == "fabric") {
    doc.parameters["provider"] = a.fabric.provider;
    doc.parameters["endpoints"] = a.fabric.endpoints;
  } else {
    doc.parameters["qp"] = a.verbs.qp;
    doc.parameters["endpoints"] = a.fabric.endpoints;
  }
  if (probe == "a2a_loop") {
    a.loop.timeout_s = a.sweep.timeout_s;
    a.loop.keep_samples = a.sweep.keep_samples;
    doc.parameters.update({{"dispatch_bytes", a.loop.dispatch_bytes},
                           {"combine_bytes", a.loop.combine_bytes},
                           {"msgs_per_peer", a.loop.msgs_per_peer},
                           {"layers", a.loop.layers},
                           {"forwards", a.loop.forwards},
                           {"warmup_forwards", a.loop.warmup_forwards}});
  } else {
    doc.parameters.update(sweep_json(a.sweep));
    if (probe == "bandwidth") doc.parameters["window"] = a.window;
    if (probe == "scatter") doc.parameters["msgs_per_peer"] = a.msgs_per_peer;
  }
  if (probe == "a2a_loop")
    pdcal::check_loop(a.loop);
  else
    pdcal::check_sweep(a.sweep);
  std::string error;
  int code = 0;
  const bool use_mpi =
      a.mpi || (a.listen.empty() && a.connect.empty() && pdcal::Bootstrap::launched_by_mpi());
  if (use_mpi && !pdcal::Bootstrap::built_with_mpi())
    throw pdsim::InputError("<command line>", "--mpi",
                            "a pdcal built with MPI (this one was not; use --listen/--connect)");
  // Under MPI only rank 0 writes the output (decided once the rank is known).
  bool writer = !use_mpi;
  if (!use_mpi && a.listen.empty() == a.connect.empty())
    throw pdsim::InputError(
        "<command line>", "--listen/--connect",
        "give exactly one of --listen HOST:PORT or --connect HOST:PORT (or run under mpirun)");
  // Listener: the rank count is known, so an oversized buffer fails before anyone connects.
  if (!use_mpi && !a.listen.empty()) buffer_bytes(probe, a, a.ranks);
  const auto listen_at =
      a.listen.empty() ? pdcal::Endpoint{} : pdcal::parse_host_port(a.listen, "--listen", 0);
  const auto connect_to =
      a.connect.empty() ? pdcal::Endpoint{} : pdcal::parse_host_port(a.connect, "--connect", 1);
  try {
    if (a.api == "verbs") {
      a.verbs.endpoints = a.fabric.endpoints;
      pdcal::verbs_check_device(a.verbs);
    } else {
      pdcal::fabric_check_provider(a.fabric);
    }
    auto boot = use_mpi            ? pdcal::Bootstrap::mpi()
                : a.listen.empty() ? pdcal::Bootstrap::connect(connect_to, a.bootstrap_timeout_s)
                                   : pdcal::Bootstrap::listen(listen_at, a.ranks,
                                                              a.bootstrap_timeout_s, a.port_file);
    writer = !use_mpi || boot.rank() == 0;
    doc.parameters["ranks"] = boot.nranks();
    auto all = boot.allgather(
        doc.parameters.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
        a.bootstrap_timeout_s, [](std::string_view blob, const std::string& who) {
          pdcal::check_parameters(blob, who);  // on rank 0 before it relays the blob
        });
    for (size_t r = 0; r < all.size(); ++r) {
      if (all[r] != all[0])
        throw pdcal::ProbeError("rank " + std::to_string(r) + " was started with parameters " +
                                pdcal::escaped_excerpt(all[r], 1024) + " but rank 0 with " +
                                pdcal::escaped_excerpt(all[0], 1024));
    }
    int n = boot.nranks();
    size_t bytes = buffer_bytes(probe, a, n);
    std::unique_ptr<pdcal::Transport> t;
    if (a.api == "fabric") {
      a.fabric.buffer_bytes = bytes;
      a.fabric.timeout_s = a.sweep.timeout_s;
      t = pdcal::make_fabric_transport(a.fabric, boot);
    } else {
      a.verbs.buffer_bytes = bytes;
      a.verbs.timeout_s = a.sweep.timeout_s;
      t = pdcal::make_verbs_transport(a.verbs, boot);
    }
    t->set_idle_sleep_us(a.idle_sleep_us);
    doc.context = t->describe();
    doc.context["idle_sleep_us"] = a.idle_sleep_us;
    doc.context["rank"] = t->rank();
    doc.context["bootstrap"] = use_mpi ? "mpi" : "tcp";
    doc.context["ranks"] = n;
    if (probe == "bandwidth") doc.context["role"] = t->rank() == 0 ? "writer" : "target";
    doc.context["memcpy_GBps"] =
        pdcal::measure_memcpy_GBps(std::min<size_t>(bytes, size_t{64} << 20));
    boot.barrier(a.bootstrap_timeout_s);
    // Checkpoint after every row: even a rank that is killed leaves what it measured.
    auto on_row = [&] {
      if (writer) doc.write(a.output, "in progress (or killed): the probe had not finished");
    };
    if (probe == "pingpong") pdcal::run_pingpong(*t, a.sweep, doc.results, on_row);
    if (probe == "bandwidth") pdcal::run_bandwidth(*t, a.sweep, a.window, doc.results, on_row);
    if (probe == "scatter") pdcal::run_scatter(*t, a.sweep, a.msgs_per_peer, doc.results, on_row);
    if (probe == "a2a_loop") pdcal::run_a2a_loop(*t, a.loop, doc.results, on_row);
    // Nobody tears down its endpoints while a peer may still be completing operations.
    boot.barrier(a.sweep.timeout_s);
  } catch (const pdcal::NoDeviceError&) {
    throw;  // nothing was measured: no output file
  } catch (const pdcal::PeerMessageError& e) {
    error = e.what();
    code = pdsim::kExitBadInput;
  } catch (const pdcal::ProbeError& e) {
    error = e.what();
    code = pdsim::kExitInfeasible;
  }
  if (writer) doc.write(a.output, error);
  if (code != 0)
    std::cerr << "pdcal: " << error << "\npdcal: "
              << (writer ? "wrote the " + std::to_string(doc.results.size()) +
                               " result row(s) measured so far to " + a.output
                         : std::string("rank 0 writes the output under MPI"))
              << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pdcal: fabric probes for calibrating pdsim (measurement JSON output)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("pdcal ") + PDSIM_VERSION);
  Args a;
  auto* pp = app.add_subcommand("pingpong", "one-way latency by message size (ranks 0 and 1)");
  auto* bw = app.add_subcommand("bandwidth", "one-sided write bandwidth and message rate, 0 -> 1");
  auto* sc =
      app.add_subcommand("scatter", "every rank writes k messages to every peer, waits for all");
  auto* lp = app.add_subcommand("a2a-loop", "dispatch/combine exchanges, `layers` per forward");
  for (auto* s : {pp, bw, sc, lp}) add_common(*s, a);
  for (auto* s : {pp, bw, sc}) add_sweep(*s, a);
  const auto per_peer = pdcal::int_in(1, 4096);
  bw->add_option("--window", a.window, "writes in flight")->check(per_peer);
  sc->add_option("-k,--msgs-per-peer", a.msgs_per_peer, "messages to each peer per exchange")
      ->check(per_peer);
  const auto message = pdcal::byte_count(1, pdcal::kMaxMessageBytes);
  lp->add_option("--dispatch-bytes", a.loop.dispatch_bytes, "bytes per dispatch message")
      ->transform(message);
  lp->add_option("--combine-bytes", a.loop.combine_bytes, "bytes per combine message")
      ->transform(message);
  lp->add_option("-k,--msgs-per-peer", a.loop.msgs_per_peer, "messages to each peer per phase")
      ->check(per_peer);
  // Each bound alone keeps the loop counters in int; check_loop bounds layers × forwards.
  lp->add_option("--layers", a.loop.layers, "dispatch+combine pairs per forward")
      ->check(pdcal::int_in(1, pdcal::kMaxIterations));
  lp->add_option("--forwards", a.loop.forwards, "timed forwards")
      ->check(pdcal::int_in(1, pdcal::kMaxIterations));
  lp->add_option("--warmup-forwards", a.loop.warmup_forwards, "untimed forwards")
      ->check(pdcal::int_in(0, pdcal::kMaxIterations));
  return pdcal::guarded_main("pdcal", app, argc, argv, [&] {
    if (pp->parsed()) return run_probe("pingpong", a);
    if (bw->parsed()) return run_probe("bandwidth", a);
    if (sc->parsed()) return run_probe("scatter", a);
    return run_probe("a2a_loop", a);
  });
}
