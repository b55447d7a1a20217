#include "calibrate/check_profile.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "calibrate/a2a_rows.hpp"
#include "calibrate/fit_profile.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/units.hpp"
#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fabric/transfers.hpp"

namespace pdsim {

std::vector<CheckRow> check_profile(const FabricProfile& p, const std::vector<std::string>& files,
                                    int samples, uint64_t seed) {
  std::set<std::string> used;
  if (p.provenance.contains("files_used"))
    for (const auto& f : p.provenance["files_used"]) used.insert(f.value("file", ""));
  std::vector<CheckRow> out;
  for (const auto& path : files) {
    const JsonNode doc = load_measurement(path);
    const bool in_fit = used.count(provenance_path(path)) > 0;
    for (const A2ARow& r : low_latency_rows(doc)) {
      // The kernel generation measured decides whether intra-node peers use NVLink.
      FabricProfile q = p;
      a2a_block(p, r.backend);  // InputError if absent or unsupported
      q.a2a[r.backend]["intranode_nvlink"] = r.intranode_nvlink;
      auto b = A2ABackendRegistry::instance().create(r.backend, p.file, "a2a", q);
      CheckRow c{path,
                 r.backend + " EP" + std::to_string(r.cfg.ep_ranks) +
                     (r.phase == A2APhase::dispatch ? " dispatch" : " combine"),
                 r.row,
                 r.latency_us,
                 simulate_a2a_row(*b, r, samples, seed),
                 "us",
                 in_fit};
      out.push_back(c);
    }
    const std::string probe = doc.at("probe").string();
    const JsonNode res = doc.at("results");
    for (size_t i = 0; i < res.size(); ++i) {
      const JsonNode r = res.at(i);
      if (probe == "pingpong" && r.str_or("path", "two_nodes") != "local_nic") {
        out.push_back({path, "pingpong " + std::to_string(r.at("bytes").integer()) + " B", i,
                       r.at("latency_us").number(), p.rdma_alpha_us, "us", in_fit});
      }
      if (probe == "kv_transfer" && r.at("op").string() == "write") {
        const int nics =
            static_cast<int>(r.has("nics") ? r.at("nics").positive_integer()
                                           : doc.at("parameters").at("nics").positive_integer());
        const double gbps = doc.at("parameters").at("nic_gbps").positive();
        const double rate = kv_transfer_rate(p, r.at("block_bytes").positive(), nics, gbps);
        out.push_back({path, "kv write " + std::to_string(r.at("block_bytes").integer()) + " B", i,
                       r.at("GBps").number(), rate / 1e9, "GB/s", in_fit});
      }
    }
  }
  return out;
}

std::string format_check(const std::vector<CheckRow>& rows) {
  std::string s;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-44s %4s  %-26s %10s %10s %8s  %s\n", "file", "row",
                "experiment", "measured", "predicted", "error", "in fit");
  s += buf;
  double held_sq = 0;
  int held = 0;
  for (const auto& r : rows) {
    std::snprintf(buf, sizeof buf, "%-44s %4zu  %-26s %10.2f %10.2f %7.1f%%  %s\n", r.file.c_str(),
                  r.row, r.what.c_str(), r.measured, r.predicted, r.error_pct(),
                  r.used_in_fit ? "yes" : "no (held out)");
    s += buf;
    if (!r.used_in_fit) {
      held_sq += r.error_pct() * r.error_pct();
      ++held;
    }
  }
  if (held > 0) {
    std::snprintf(buf, sizeof buf, "held-out rows: %d, rms error %.1f%%\n", held,
                  std::sqrt(held_sq / held));
    s += buf;
  }
  return s;
}

}  // namespace pdsim
