// Runs real pdcal ranks on this host (libfabric tcp or shm over loopback) and checks what they
// wrote: valid measurement JSON with physically possible values. Usage:
//   pdcal_loopback_test PDCAL PROVIDER SCENARIO OUTDIR
//   pdcal_loopback_test PDCAL PROVIDER mpi OUTDIR MPIRUN   (3 ranks under mpirun)
// SCENARIO: pingpong | bandwidth | scatter | a2a-loop | scatter3 (3 ranks) | stripe (bandwidth
// over 2 endpoints) | kill | nodevice | nodevice-srd (--api verbs --qp srd).
// Exit 0 pass, 1 fail, 77 skipped (nodevice on a host that has an RDMA device).
// The checks on what the ranks wrote live in measurement_checks.cpp; this file starts the ranks.
#include <cmath>
#include <nlohmann/json.hpp>

#include "calibrate/pdcal/test/child_process.hpp"
#include "calibrate/pdcal/test/measurement_checks.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using pdcal_test::check_envelope;
using pdcal_test::check_quantiles;
using pdcal_test::expect;
using pdcal_test::failures;
using pdcal_test::load;
using pdcal_test::slurp;
using pdcal_test::spawn;
using pdcal_test::wait_for;

namespace {

int read_port(const fs::path& file, pid_t listener) {
  for (int i = 0; i < 1000; ++i) {  // up to 20 s on a loaded machine
    if (fs::exists(file)) return std::stoi(slurp(file));
    int st = 0;
    if (waitpid(listener, &st, WNOHANG) == listener) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::cerr << "FAIL: the listener never wrote its port\n";
  std::exit(1);
}

}  // namespace

// Three ranks started by mpirun exchange their addresses through MPI; rank 0 alone writes -o.
int mpi_scenario(const std::string& pdcal, const std::string& provider, const fs::path& dir,
                 const std::string& mpirun) {
  const fs::path out = dir / "loop.json";
  std::vector<std::string> args = {mpirun,
                                   "--allow-run-as-root",
                                   "--oversubscribe",
                                   "-n",
                                   "3",
                                   pdcal,
                                   "a2a-loop",
                                   "--provider",
                                   provider,
                                   "--timeout-s",
                                   "10",
                                   "--idle-sleep-us",
                                   "20",
                                   "--dispatch-bytes",
                                   "4k",
                                   "--combine-bytes",
                                   "8k",
                                   "-k",
                                   "2",
                                   "--layers",
                                   "10",
                                   "--forwards",
                                   "3",
                                   "--warmup-forwards",
                                   "1",
                                   "-o",
                                   out.string()};
  if (provider == "tcp") args.insert(args.end() - 2, {"--src-addr", "127.0.0.1"});
  const int rc = wait_for(spawn(args, (dir / "mpirun.log").string()), 50);
  expect(rc == 0, "mpirun exits 0, got " + std::to_string(rc) + ": " + slurp(dir / "mpirun.log"));
  if (failures()) return 1;
  json d = load(out);
  check_envelope(d, "a2a_loop", true);
  expect(d["context"].value("bootstrap", "") == "mpi", "context.bootstrap is mpi");
  expect(d["context"].value("ranks", 0) == 3 && d["context"].value("rank", -1) == 0,
         "3 ranks, written by rank 0");
  expect(d["parameters"].value("ranks", 0) == 3, "parameters.ranks");
  const json& rows = d["results"];
  expect(rows.size() == 3, "dispatch, combine, forward rows");
  if (rows.size() == 3) {
    for (const auto& row : rows) check_quantiles(row, row["phase"].dump());
    // 3 forwards × 10 layers = 30 samples per phase; each forward is the sum of its 10 pairs.
    expect(rows[0]["iterations"] == 30 && rows[2]["iterations"] == 3, "sample counts");
    double want = 10 * (rows[0]["mean_us"].get<double>() + rows[1]["mean_us"].get<double>());
    expect(std::abs(rows[2]["mean_us"].get<double>() - want) <= 1e-9 * want, "forward mean");
  }
  return failures() ? 1 : 0;
}

int main(int argc, char** argv) {
  if (argc == 6 && std::string(argv[3]) == "mpi") {
    fs::remove_all(argv[4]);
    fs::create_directories(argv[4]);
    return mpi_scenario(argv[1], argv[2], argv[4], argv[5]);
  }
  if (argc != 5) {
    std::cerr << "usage: pdcal_loopback_test PDCAL PROVIDER SCENARIO OUTDIR [MPIRUN]\n";
    return 1;
  }
  const std::string pdcal = argv[1], provider = argv[2], scenario = argv[3];
  const fs::path dir = argv[4];
  fs::remove_all(dir);
  fs::create_directories(dir);

  if (scenario == "nodevice" || scenario == "nodevice-srd") {
    if (fs::exists("/sys/class/infiniband") && !fs::is_empty("/sys/class/infiniband")) {
      std::cout << "skipped: this host has an RDMA device\n";
      return 77;
    }
    std::vector<std::string> args = {pdcal,      "pingpong",    "--api", "verbs",
                                     "--listen", "127.0.0.1:0", "-o",    (dir / "v.json").string()};
    if (scenario == "nodevice-srd") args.insert(args.end(), {"--qp", "srd"});
    pid_t p = spawn(args, (dir / "v.log").string());
    int rc = wait_for(p, 20);
    std::string log = slurp(dir / "v.log");
    expect(rc == 3, "verbs with no device exits 3, got " + std::to_string(rc));
    expect(log.find("no RDMA device") != std::string::npos, "message names the cause: " + log);
    if (scenario == "nodevice-srd")
      expect(log.find("EFA") != std::string::npos, "message says SRD needs EFA: " + log);
    expect(!fs::exists(dir / "v.json"), "no output file without a device");
    return failures() ? 1 : 0;
  }

  std::string probe = scenario == "scatter3" ? "scatter"
                      : scenario == "kill"   ? "a2a-loop"
                      : scenario == "stripe" ? "bandwidth"
                                             : scenario;
  int ranks = scenario == "scatter3" ? 3 : 2;
  std::vector<std::string> common = {"--provider", provider,          "--timeout-s",
                                     "10",         "--idle-sleep-us", "20"};
  if (provider == "tcp") common.insert(common.end(), {"--src-addr", "127.0.0.1"});
  if (probe == "pingpong")
    common.insert(common.end(), {"--max-bytes", "1M", "--iters", "40", "--budget-bytes", "8M",
                                 "--min-iters", "5", "--warmup", "2"});
  if (probe == "bandwidth")
    common.insert(common.end(), {"--max-bytes", "4M", "--factor", "4", "--iters", "200",
                                 "--budget-bytes", "16M", "--min-iters", "4", "--window", "16"});
  if (probe == "scatter")
    common.insert(common.end(), {"--max-bytes", "256k", "--factor", "8", "--iters", "30",
                                 "--budget-bytes", "8M", "-k", "4", "--warmup", "2"});
  if (scenario == "a2a-loop")
    common.insert(common.end(), {"--dispatch-bytes", "4k", "--combine-bytes", "8k", "-k", "2",
                                 "--layers", "150", "--forwards", "2", "--warmup-forwards", "0"});
  if (scenario == "stripe") common.insert(common.end(), {"--endpoints", "2"});
  if (scenario == "kill") {
    common.insert(common.end(),
                  {"--dispatch-bytes", "1k", "--combine-bytes", "1k", "-k", "2", "--layers", "10",
                   "--forwards", "1000000", "--warmup-forwards", "0"});
    common[3] = "2";  // --timeout-s 2: the survivor must notice the dead peer quickly
  }

  std::vector<pid_t> pids;
  std::vector<fs::path> outs;
  for (int r = 0; r < ranks; ++r) {
    outs.push_back(dir / ("rank" + std::to_string(r) + ".json"));
    std::vector<std::string> args = {pdcal, probe};
    args.insert(args.end(), common.begin(), common.end());
    if (r == 0) {
      args.insert(args.end(), {"--listen", "127.0.0.1:0", "--port-file", (dir / "port").string(),
                               "--ranks", std::to_string(ranks)});
    } else {
      int port = read_port(dir / "port", pids[0]);
      args.insert(args.end(), {"--connect", "127.0.0.1:" + std::to_string(port)});
    }
    args.insert(args.end(), {"-o", outs.back().string()});
    pids.push_back(spawn(args, (dir / ("rank" + std::to_string(r) + ".log")).string()));
  }

  if (scenario == "kill") {
    // Kill rank 1 once rank 0 has checkpointed its first forward (its output file appears).
    for (int i = 0; i < 1500 && !fs::exists(outs[0]); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    expect(fs::exists(outs[0]), "rank 0 checkpointed a forward within 30 s");
    kill(pids[1], SIGKILL);
    wait_for(pids[1], 5);
    int rc = wait_for(pids[0], 30);
    std::string log = slurp(dir / "rank0.log");
    expect(rc == 3, "the survivor exits 3 (probe failed), got " + std::to_string(rc));
    expect(log.find("pdcal:") != std::string::npos, "the survivor says why: " + log);
    json d = load(outs[0]);
    check_envelope(d, "a2a_loop", false);
    expect(!d["context"].value("error", "").empty(), "context.error says what happened");
    // At least one forward finished before the kill, so the partial file holds the three rows.
    expect(d["results"].size() == 3, "partial results kept");
    return failures() ? 1 : 0;
  }

  for (int r = 0; r < ranks; ++r) {
    int rc = wait_for(pids[static_cast<size_t>(r)], 50);
    expect(rc == 0, "rank " + std::to_string(r) + " exits 0, got " + std::to_string(rc) + ": " +
                        slurp(dir / ("rank" + std::to_string(r) + ".log")));
  }
  if (failures()) return 1;

  for (int r = 0; r < ranks; ++r) {
    json d = load(outs[static_cast<size_t>(r)]);
    const std::string who = "rank " + std::to_string(r);
    check_envelope(d, probe == "a2a-loop" ? "a2a_loop" : probe, true);
    expect(d["context"].value("provider", "").find(provider) != std::string::npos,
           who + ": context.provider names " + provider);
    const double memcpy_GBps = d["context"]["memcpy_GBps"];
    expect(memcpy_GBps > 0, who + ": memcpy bound measured");
    const json& rows = d["results"];
    if (probe == "pingpong") pdcal_test::check_pingpong_rows(rows, who, memcpy_GBps);
    if (probe == "bandwidth")
      pdcal_test::check_bandwidth_rows(rows, who, memcpy_GBps, scenario == "stripe" ? 2 : 1);
    // Every rank has ranks-1 peers.
    if (probe == "scatter") pdcal_test::check_scatter_rows(rows, who, memcpy_GBps, ranks - 1);
    // --layers 150 --forwards 2, as asked above.
    if (probe == "a2a-loop") pdcal_test::check_a2a_loop_rows(rows, who, 150, 2);
  }
  return failures() ? 1 : 0;
}
