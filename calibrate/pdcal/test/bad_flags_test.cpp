// Every numeric flag of pdcal (or pdcal-gpu-proxy) at and past its bound, and the relations
// between flags: each bad command line must exit 2 (3 for what the host lacks) at once with one
// line naming the flag and what was expected, never start a probe, never wait for a peer. Usage:
//   pdcal_bad_flags_test pdcal|pdcal-gpu-proxy BINARY OUTDIR
// Exit 0 pass, 1 fail.
#include <algorithm>

#include "calibrate/pdcal/test/child_process.hpp"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::vector<std::string> args;
  std::string want;        // part of the one line on stderr
  bool add_listen = true;  // append --listen 127.0.0.1:0 (the case gives no peer flag)
  int rc = 2;              // 3: the host lacks what the flag names (no device, no provider)
};

const std::string kBytes1G = "expected a byte count in [1, 1073741824] (1 GiB; ";
const std::string kSeconds = "expected a finite number in (0, 86400], got ";

const std::vector<Case>& pdcal_cases() {
  static const std::vector<Case> all = {
      // Defect: -1 or >= 2^63 wrapped the buffer size to a few bytes (double free, SIGSEGV).
      {{"pingpong", "--max-bytes", "-1"}, "pdcal: --max-bytes: " + kBytes1G},
      {{"pingpong", "--max-bytes", "9223372036854775808"}, "got \"9223372036854775808\""},
      {{"pingpong", "--max-bytes", "2G"}, "pdcal: --max-bytes: " + kBytes1G},
      {{"pingpong", "--min-bytes", "0"}, "pdcal: --min-bytes: " + kBytes1G},
      {{"pingpong", "--budget-bytes", "-1"}, "pdcal: --budget-bytes: expected a byte count"},
      // Defect: nan, inf and 1e300 waited forever.
      {{"pingpong", "--bootstrap-timeout-s", "nan"},
       "pdcal: --bootstrap-timeout-s: " + kSeconds + "\"nan\""},
      {{"pingpong", "--bootstrap-timeout-s", "inf"}, kSeconds + "\"inf\""},
      {{"pingpong", "--bootstrap-timeout-s", "1e300"}, kSeconds + "\"1e300\""},
      {{"pingpong", "--bootstrap-timeout-s", "0"}, kSeconds + "\"0\""},
      {{"pingpong", "--timeout-s", "nan"}, "pdcal: --timeout-s: " + kSeconds + "\"nan\""},
      // Defect: accepted silently.
      {{"pingpong", "--min-bytes", "2M", "--max-bytes", "1M"},
       "field '--min-bytes': expected at most --max-bytes (1048576), got 2097152"},
      {{"pingpong", "--min-iters", "50", "--iters", "10"},
       "field '--min-iters': expected at most --iters (10), got 50"},
      {{"pingpong", "--iters", "0"}, "--iters: expected an integer in [1, 10000000], got \"0\""},
      {{"pingpong", "--iters", "2147483648"}, "--iters: expected an integer in [1, 10000000]"},
      {{"pingpong", "--warmup", "-1"}, "--warmup: expected an integer in [0, 10000000]"},
      {{"pingpong", "--factor", "nan"}, "--factor: expected a finite number in [1.01, 1e+06]"},
      {{"pingpong", "--ranks", "1"}, "--ranks: expected an integer in [2, 4096], got \"1\""},
      {{"pingpong", "--ranks", "99999999999"}, "--ranks: expected an integer in [2, 4096]"},
      {{"pingpong", "--endpoints", "0"}, "--endpoints: expected an integer in [1, 64]"},
      {{"pingpong", "--idle-sleep-us", "-1"},
       "--idle-sleep-us: expected an integer in [0, 100000]"},
      {{"pingpong", "--ib-port", "256"}, "--ib-port: expected an integer in [1, 255]"},
      {{"pingpong", "--gid-index", "-2"}, "--gid-index: expected an integer in [-1, 4095]"},
      {{"pingpong", "--provider", "tc\xffp"},
       "--provider: expected 1..255 printable ASCII characters, got \"tc\\xffp\""},
      {{"pingpong", "--device", ""}, "--device: expected 1..255 printable ASCII characters"},
      {{"bandwidth", "--window", "0"}, "--window: expected an integer in [1, 4096]"},
      {{"scatter", "-k", "0"}, "--msgs-per-peer: expected an integer in [1, 4096]"},
      {{"scatter", "--max-bytes", "1G", "-k", "4096", "--ranks", "4096"},
       "expected a registered buffer of at most 16 GiB per rank"},
      {{"a2a-loop", "--dispatch-bytes", "0"}, "--dispatch-bytes: " + kBytes1G},
      {{"a2a-loop", "--combine-bytes", "-1"}, "--combine-bytes: " + kBytes1G},
      {{"a2a-loop", "--layers", "100000", "--forwards", "1000"},
       "field '--layers': expected --layers × --forwards (samples per phase) at most 10000000"},
      {{"a2a-loop", "--warmup-forwards", "-1"}, "--warmup-forwards: expected an integer in [0, "},
      {{"pingpong"}, "give exactly one of --listen HOST:PORT or --connect HOST:PORT", false},
      {{"pingpong", "--listen", "127.0.0.1:99999"},
       "field '--listen': expected HOST:PORT with PORT 0..65535, got \"127.0.0.1:99999\"",
       false},
      {{"pingpong", "--connect", "127.0.0.1:0"},
       "field '--connect': expected HOST:PORT with PORT 1..65535",
       false},
      {{"pingpong", "--connect", "nocolon"}, "field '--connect': expected HOST:PORT", false},
      {{"pingpong", "--bogus"}, "pdcal: The following argument was not expected: --bogus"},
      // Defect: reported only when the bootstrap timed out waiting for peers.
      {{"pingpong", "--provider", "bogusprov"},
       "pdcal: libfabric: provider 'bogusprov' offers no RDM endpoint",
       true,
       3},
  };
  return all;
}

const std::vector<Case>& gpu_proxy_cases() {
  static const std::vector<Case> all = {
      {{"--bytes", "-1"}, "pdcal-gpu-proxy: --bytes: expected an integer in [1, 67108864]"},
      {{"--bytes", "4294967296"}, "--bytes: expected an integer in [1, 67108864]"},
      {{"--iters", "0"}, "--iters: expected an integer in [1, 10000000]"},
      {{"--warmup", "-1"}, "--warmup: expected an integer in [0, 10000000]"},
      {{"--calib-iters", "99999999999"}, "--calib-iters: expected an integer in [1, 10000000]"},
      {{"--gpu", "-1"}, "--gpu: expected an integer in [0, 255]"},
      {{"--timeout-s", "nan"}, "--timeout-s: " + kSeconds + "\"nan\""},
      {{"--peer-timeout-s", "inf"}, "--peer-timeout-s: " + kSeconds + "\"inf\""},
      {{"--provider", ""}, "--provider: expected 1..255 printable ASCII characters"},
      {{"--connect", "127.0.0.1:0"},
       "field '--connect': expected HOST:PORT with PORT 1..65535",
       false},
      {{}, "give exactly one of --listen HOST:PORT or --connect HOST:PORT", false},
  };
  return all;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: pdcal_bad_flags_test pdcal|pdcal-gpu-proxy BINARY OUTDIR\n";
    return 1;
  }
  const std::string tool = argv[1];
  const fs::path dir = argv[3];
  fs::remove_all(dir);
  fs::create_directories(dir);
  // All cases at once: each process spends its ~0.25 s start-up mostly asleep (libinfinipath's
  // clock calibration), so running them together keeps the test short.
  const auto& cases = tool == "pdcal" ? pdcal_cases() : gpu_proxy_cases();
  struct Run {
    std::vector<std::string> args;
    fs::path out, log;
    pid_t pid;
  };
  std::vector<Run> runs;
  for (const Case& c : cases) {
    Run r;
    r.args = {argv[2]};
    r.args.insert(r.args.end(), c.args.begin(), c.args.end());
    if (c.add_listen) r.args.insert(r.args.end(), {"--listen", "127.0.0.1:0"});
    // A build that accepted the flag would wait for a peer this long, then exit 3.
    if (tool == "pdcal" && !has(c.args, "--bootstrap-timeout-s"))
      r.args.insert(r.args.end(), {"--bootstrap-timeout-s", "2"});
    r.out = dir / ("case" + std::to_string(runs.size()) + ".json");
    r.log = dir / ("case" + std::to_string(runs.size()) + ".log");
    r.args.insert(r.args.end(), {"-o", r.out.string()});
    r.pid = pdcal_test::spawn(r.args, r.log.string());
    runs.push_back(std::move(r));
  }
  int failures = 0;
  const int n = static_cast<int>(runs.size());
  for (int i = 0; i < n; ++i) {
    const Case& c = cases[static_cast<size_t>(i)];
    const Run& r = runs[static_cast<size_t>(i)];
    const int rc = pdcal_test::wait_for(r.pid, 20);
    const std::string text = pdcal_test::slurp(r.log);
    std::string cmd;
    for (size_t k = 1; k < r.args.size(); ++k) cmd += " " + r.args[k];
    std::vector<std::string> why;
    if (rc != c.rc)
      why.push_back("exit code " + std::to_string(rc) + ", expected " + std::to_string(c.rc));
    if (text.find(c.want) == std::string::npos) why.push_back("message lacks: " + c.want);
    if (std::count(text.begin(), text.end(), '\n') != 1) why.push_back("not one line");
    if (fs::exists(r.out)) why.push_back("wrote an output file");
    std::cout << (why.empty() ? "PASS" : "FAIL") << cmd << "\n";
    for (const auto& w : why) std::cout << "  " << w << "\n";
    if (!why.empty()) std::cout << "  " << tool << " said: " << text << "\n";
    failures += why.empty() ? 0 : 1;
  }
  std::cout << failures << " of " << n << " case(s) failed\n";
  return failures == 0 ? 0 : 1;
}
