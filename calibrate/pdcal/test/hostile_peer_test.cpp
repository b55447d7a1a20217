// pdcal against a hostile or broken bootstrap peer, on loopback: this driver plays the peer
// (a fake --listen that pdcal connects to, or a fake connector to a pdcal --listen) and sends
// one malformed message per scenario; pdcal must exit with the documented code and one clear
// message within a few seconds, never crash, never print a raw peer byte, and (where the
// bootstrap had started) still write valid JSON that says why it stopped. Usage:
//   pdcal_hostile_peer_test PDCAL OUTDIR
// Exit 0 pass, 1 fail.
#include <functional>
#include <nlohmann/json.hpp>

#include "calibrate/pdcal/test/child_process.hpp"
#include "calibrate/pdcal/test/fake_peer.hpp"

namespace fs = std::filesystem;
using pdcal_test::frame;
using pdcal_test::hello;
using pdcal_test::Peer;
using pdcal_test::slurp;
using pdcal_test::u64;

namespace {

const std::string kNonUtf8 = "{\"api\":\"fab\xff\xferic\"}";

struct Scenario {
  const char* name;
  bool fake_listener;  // true: pdcal --connect's to us; false: pdcal --listen's and we connect
  std::function<void(Peer&)> act;
  int want_rc;
  std::vector<std::string> want_log;
  bool want_output;  // the bootstrap had started: a JSON file with context.error
};

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = {
      // Defect: a count of 2^31-1 made the connector allocate until bad_alloc.
      {"hello_huge_count",
       true,
       [](Peer& p) { p.send(hello(1, 2147483647)); },
       2,
       {"peer message 'hello'", "field 'nranks'", "expected 2..4096, got 2147483647"},
       true},
      // Defect: a negative count threw std::length_error out of main.
      {"hello_negative_count",
       true,
       [](Peer& p) { p.send(hello(1, -1)); },
       2,
       {"field 'nranks'", "got -1"},
       true},
      // Defect: (rank 0, 1 rank) crashed inside libfabric.
      {"hello_rank0_of_1",
       true,
       [](Peer& p) { p.send(hello(0, 1)); },
       2,
       {"field 'nranks'", "got 1"},
       true},
      {"hello_rank_out_of_range",
       true,
       [](Peer& p) { p.send(hello(2, 2)); },
       2,
       {"field 'rank'", "expected 1..1", "got 2"},
       true},
      {"hello_truncated",
       true,
       [](Peer& p) {
         p.send(hello(1, 2).substr(0, 4));
         p.close_now();
       },
       3,
       {"receiving rank", "peer closed the connection after 4 of 8 bytes"},
       true},
      {"frame_oversized_to_connector",
       true,
       [](Peer& p) {
         p.send(hello(1, 2));
         p.recv_frame();
         p.send(u64(uint64_t{1} << 62));
       },
       2,
       {"peer message 'frame'", "expected at most 4194304 bytes, got 4611686018427387904"},
       true},
      {"params_non_utf8_to_connector",
       true,
       [](Peer& p) {
         p.send(hello(1, 2));
         std::string mine = p.recv_frame();
         p.send(frame(kNonUtf8) + frame(mine));
       },
       2,
       {"peer message 'parameters' from rank 0", "\\xff\\xfe"},
       true},
      {"closed_mid_frame",
       true,
       [](Peer& p) {
         p.send(hello(1, 2));
         p.recv_frame();
         p.send(u64(100) + std::string(10, 'x'));
         p.close_now();
       },
       3,
       {"peer closed the connection after 10 of 100 bytes"},
       true},
      // The parameters match (echoed), so pdcal opens its fabric endpoint and sends its address;
      // rank 0's address comes back cut short.
      {"address_truncated",
       true,
       [](Peer& p) {
         p.send(hello(1, 2));
         std::string mine = p.recv_frame();
         p.send(frame(mine) + frame(mine));
         std::string addr = p.recv_frame();
         p.send(frame(addr.substr(0, 5)) + frame(addr));
       },
       2,
       {"peer message 'fabric address' from rank 0", "truncated"},
       true},
      // Defect: a frame length up to 1 GiB was allocated before a byte of it arrived.
      {"frame_oversized_to_listener",
       false,
       [](Peer& p) {
         p.recv(8);
         p.send(u64(uint64_t{1} << 30));
       },
       2,
       {"peer message 'frame' from rank 1", "expected at most 4194304 bytes, got 1073741824"},
       true},
      // Defect: the listener aborted with no output (the JSON writer threw on these bytes).
      {"params_non_utf8_to_listener",
       false,
       [](Peer& p) {
         p.recv(8);
         p.send(frame(kNonUtf8));
       },
       2,
       {"peer message 'parameters' from rank 1", "invalid byte at offset 11", "\\xff\\xfe"},
       true},
      // Defect: rank 0 relayed any frame up to 4 MB to every rank before checking it.
      {"params_oversized_not_relayed",
       false,
       [](Peer& p) {
         p.recv(8);
         p.send(frame(std::string(size_t{1} << 20, 'x')));
         p.recv(8);     // a relayed frame's header would arrive here
         p.ok = !p.ok;  // pass only when the connection closed instead
       },
       2,
       {"peer message 'parameters' from rank 1", "expected at most 16384 bytes, got 1048576"},
       true},
      {"closed_mid_header",
       false,
       [](Peer& p) {
         p.recv(8);
         p.send("abc");
         p.close_now();
       },
       3,
       {"peer closed the connection after 3 of 8 bytes"},
       true},
  };
  return all;
}

int read_port(const fs::path& file, pid_t pid) {
  for (int i = 0; i < 800; ++i) {
    std::string s = fs::exists(file) ? slurp(file) : "";
    if (!s.empty() && s.back() == '\n') return std::stoi(s);
    int st = 0;
    if (waitpid(pid, &st, WNOHANG) == pid) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// Runs one scenario; returns the failures it found (printed).
int run(const std::string& pdcal, const Scenario& s, const fs::path& dir) {
  std::vector<std::string> why;
  const fs::path out = dir / (std::string(s.name) + ".json"),
                 log = dir / (std::string(s.name) + ".log");
  // The bootstrap timeout is far above what a correct reaction takes (< 1 s, 8 s allowed).
  std::vector<std::string> args = {pdcal,         "pingpong",    "--provider",
                                   "tcp",         "--src-addr",  "127.0.0.1",
                                   "--timeout-s", "5",           "--bootstrap-timeout-s",
                                   "20",          "--max-bytes", "1k",
                                   "-o",          out.string()};
  const auto t0 = std::chrono::steady_clock::now();
  Peer peer;
  pid_t pid = 0;
  if (s.fake_listener) {
    int port = 0;
    int lfd = pdcal_test::listen_socket(port);
    args.insert(args.end(), {"--connect", "127.0.0.1:" + std::to_string(port)});
    pid = pdcal_test::spawn(args, log.string());
    peer.fd = pdcal_test::accept_within(lfd);
    ::close(lfd);
  } else {
    const fs::path port_file = dir / (std::string(s.name) + ".port");
    args.insert(args.end(),
                {"--listen", "127.0.0.1:0", "--port-file", port_file.string(), "--ranks", "2"});
    pid = pdcal_test::spawn(args, log.string());
    int port = read_port(port_file, pid);
    peer.fd = port > 0 ? pdcal_test::connect_to(port) : -1;
  }
  if (peer.fd < 0) {
    why.push_back("no connection with pdcal");
  } else {
    s.act(peer);
    if (!peer.ok) why.push_back("pdcal did not play its part of the bootstrap");
  }
  const int rc = pdcal_test::wait_for(pid, 12);
  peer.close_now();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string text = slurp(log);
  if (rc != s.want_rc)
    why.push_back("exit code " + std::to_string(rc) + ", expected " + std::to_string(s.want_rc));
  for (const auto& w : s.want_log)
    if (text.find(w) == std::string::npos) why.push_back("message lacks '" + w + "'");
  for (unsigned char c : text)
    if (c >= 0x80) {
      why.push_back("a raw non-ASCII byte reached the terminal");
      break;
    }
  if (secs > 8) why.push_back("took " + std::to_string(secs) + " s (waited for the timeout?)");
  if (s.want_output) {
    try {
      auto d = nlohmann::json::parse(slurp(out));
      if (d["context"].value("complete", true) || d["context"].value("error", "").empty())
        why.push_back("output does not say the run failed (context.complete/error)");
    } catch (const std::exception& e) {
      why.push_back(std::string("no valid JSON output: ") + e.what());
    }
  }
  std::cout << (why.empty() ? "PASS " : "FAIL ") << s.name << " (exit " << rc << ", "
            << static_cast<int>(secs * 1000) << " ms)\n";
  for (const auto& w : why) std::cout << "  " << w << "\n";
  if (!why.empty()) std::cout << "  pdcal said: " << text << "\n";
  return static_cast<int>(why.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: pdcal_hostile_peer_test PDCAL OUTDIR\n";
    return 1;
  }
  const fs::path dir = argv[2];
  fs::remove_all(dir);
  fs::create_directories(dir);
  int failures = 0;
  for (const auto& s : scenarios()) failures += run(argv[1], s, dir);
  return failures == 0 ? 0 : 1;
}
