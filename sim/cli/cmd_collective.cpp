// `pdsim collective PROFILE --op OP --ranks N --nodes M --bytes SIZE...`: what an NCCL collective
// of each size costs by a collective profile, with the regime, its RMS error and where the query
// leaves what was measured; and `pdsim calibrate collective` (the fit, calibrate/fit_collective)
// that writes such a profile and prints each measured row against its fitted value.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "calibrate/fit_collective.hpp"
#include "sim/cli/calibrate_collective.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace {

// "8192", "8K", "1M", "8G" (binary multiples, as nccl-tests' -b/-e take them).
double parse_size(const std::string& s) {
  const auto bad = [&] {
    return pdsim::InputError("<command line>", "--bytes",
                             "a size such as 8192, 8K, 1M or 8G, got '" + pdsim::excerpt(s) + "'");
  };
  if (s.empty()) throw bad();
  double mult = 1;
  std::string digits = s;
  switch (s.back()) {
    case 'K':
    case 'k':
      mult = 1024.0;
      break;
    case 'M':
    case 'm':
      mult = 1024.0 * 1024;
      break;
    case 'G':
    case 'g':
      mult = 1024.0 * 1024 * 1024;
      break;
    default:
      break;
  }
  if (mult != 1) digits.pop_back();
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) throw bad();
  const double v = std::stod(digits) * mult;
  if (!(v > 0) || v > 1e15) throw bad();
  return v;
}

std::string fixed(double v, int prec) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

struct PredictArgs {
  std::string profile, op = "all_reduce";
  int ranks = 16, nodes = 2;
  std::vector<std::string> bytes;
};

}  // namespace

namespace pdsim::cli {

std::function<int()> setup_calibrate_collective(CLI::App* sub) {
  auto opt = std::make_shared<CollectiveFitOptions>();
  auto out = std::make_shared<std::string>();
  sub->add_option("measurements", opt->files, "measurement files of probe \"collective\"")
      ->required();
  sub->add_option("-o,--output", *out, "collective profile to write")->required();
  sub->add_option("--name", opt->name, "profile name (default: the output file's stem)");
  sub->add_option("--library", opt->library,
                  "library stack and versions, e.g. \"NCCL 2.23.4 + aws-ofi-nccl 1.19.0\"")
      ->required();
  sub->add_option("--fabric", opt->fabric, "fabric and NICs per node")->required();
  sub->add_option("--max-regimes", opt->max_regimes, "size regimes per curve (default 3)")
      ->check(CLI::Range(1, 6));
  return [opt, out] {
    if (opt->name.empty()) opt->name = std::filesystem::path(*out).stem().string();
    const CollectiveProfile p = fit_collective_profile(*opt);
    for (const auto& c : p.fit.at("curves")) {
      std::cout << c.at("op").get<std::string>() << ", " << c.at("ranks").get<int>() << " ranks on "
                << c.at("nodes").get<int>()
                << (c.at("nodes").get<int>() == 1 ? " node: " : " nodes: ")
                << c.at("regimes").size() << " regime(s); max |busbw error| "
                << fixed(c.at("max_abs_busbw_error_pct").get<double>(), 1) << " %, "
                << c.at("rows_beyond_10pct").get<int>()
                << " row(s) beyond 10 %; unexplained spread "
                << "(tau) " << fixed(100 * c.at("tau_rel").get<double>(), 1) << " %\n";
      std::cout << "  " << std::left << std::setw(14) << "bytes" << std::setw(16) << "instance"
                << std::setw(14) << "placement" << std::right << std::setw(10) << "measured"
                << std::setw(11) << "predicted" << std::setw(9) << "error" << std::setw(9)
                << "noise"
                << "\n";
      for (const auto& r : c.at("rows"))
        std::cout << "  " << std::left << std::setw(14) << fixed(r.at("bytes").get<double>(), 0)
                  << std::setw(16) << r.at("instance").get<std::string>() << std::setw(14)
                  << r.at("placement").get<std::string>() << std::right << std::setw(10)
                  << fixed(r.at("busbw_GBps_measured").get<double>(), 2) << std::setw(11)
                  << fixed(r.at("busbw_GBps_predicted").get<double>(), 2) << std::setw(8)
                  << fixed(r.at("busbw_error_pct").get<double>(), 1) << "%" << std::setw(8)
                  << fixed(100 * r.at("noise_rel").get<double>(), 1) << "%\n";
      std::cout << "  noise: the row's own measurement noise (print resolution, and the spread of "
                   "rows of its instance and size); rows are weighted by 1 / (noise² + tau²)\n";
    }
    write_file_atomic(*out, collective_profile_to_json(p).dump(2) + "\n");
    std::cout << "busbw in GB/s (nccl-tests convention); wrote " << *out << "\n";
    return 0;
  };
}

}  // namespace pdsim::cli

PDSIM_CLI_COMMAND(
    collective, "collective",
    "Cost of an NCCL collective by message size from a collective profile",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<PredictArgs>();
      app.add_option("profile", a->profile, "collective profile (name or file)")->required();
      app.add_option("--op", a->op, "all_reduce, all_gather or reduce_scatter");
      app.add_option("--ranks", a->ranks, "ranks (default 16)")->check(CLI::Range(2, 1 << 20));
      app.add_option("--nodes", a->nodes, "nodes (default 2)")->check(CLI::Range(1, 1 << 20));
      app.add_option("--bytes", a->bytes,
                     "message sizes, nccl-tests convention (repeatable; 8192, 8K, 1M, 8G)")
          ->required();
      return [a]() -> int {
        using namespace pdsim;
        const CollectiveProfile p =
            load_collective_profile(a->profile, "<command line>", "profile");
        // Every size parsed and predicted before anything is printed: a bad one is the only
        // output.
        std::vector<std::pair<double, CollectivePrediction>> rows;
        for (const auto& s : a->bytes) {
          const double bytes = parse_size(s);
          rows.emplace_back(bytes, predict_collective(p, a->op, bytes, a->ranks, a->nodes));
        }
        std::cout << p.name << " (" << p.library << "; " << p.fabric << "): " << a->op << " over "
                  << a->ranks << " ranks on " << a->nodes
                  << (a->nodes == 1 ? " node\n" : " nodes\n");
        std::cout << std::left << std::setw(14) << "bytes" << std::right << std::setw(8) << "regime"
                  << std::setw(12) << "time_us" << std::setw(12) << "busbw_GBps" << std::setw(10)
                  << "+/-"
                  << "\n";
        std::vector<std::string> notes;
        for (const auto& [bytes, r] : rows) {
          std::cout << std::left << std::setw(14) << fixed(bytes, 0) << std::right << std::setw(8)
                    << r.regime << std::setw(12) << fixed(r.time_us, 1) << std::setw(12)
                    << fixed(r.busbw_GBps, 2) << std::setw(9) << fixed(100 * r.rel_uncertainty, 1)
                    << "%" << (r.outside.empty() ? "" : "  *") << "\n";
          for (const auto& o : r.outside)
            if (std::find(notes.begin(), notes.end(), o) == notes.end()) notes.push_back(o);
        }
        std::cout << "+/-: the regime's RMS fit error; between the measured sizes of two regimes, "
                     "at least the gap to the other regime's time\n";
        for (const auto& n : notes) std::cout << "* outside what was measured: " << n << "\n";
        return 0;
      };
    })
