#include "reports/connection_report.hpp"

#include <cmath>
#include <cstdio>

#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

std::string num(double v) {
  char buf[64];
  if (std::fabs(v - std::round(v)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string bytes_text(double b) {
  char buf[64];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024));
  return buf;
}

std::string time_text(double us) {
  char buf[64];
  if (us >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
  else if (us >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f ms", us / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f us", us);
  return buf;
}

// "    label      text", the text wrapped under itself.
std::string labelled(const std::string& label, const std::string& text) {
  const std::string indent(15, ' ');
  std::string block = wrap(text, 104, indent);
  return block.replace(0, indent.size(), "    " + column(label, 11));
}

std::string objects_text(const ConnCounts& c, bool per_nic) {
  std::string s;
  for (const auto& o : c.objects)
    s += (s.empty() ? "" : ", ") + num(per_nic ? o.per_nic : o.per_host) + " " + o.kind;
  return s;
}

std::string memory_text(const ConnectionRow& r) {
  const ConnCounts& c = r.counts;
  std::string s;
  if (c.host_bytes_per_host > 0) s += bytes_text(c.host_bytes_per_host) + " host";
  if (c.gpu_bytes_per_host > 0)
    s += std::string(s.empty() ? "" : ", ") + bytes_text(c.gpu_bytes_per_host) + " GPU";
  if (s.empty()) return "not counted: the provider sizes these objects";
  if (c.memory_estimated)
    s += " (mlx5-rule estimate from the library's queue depths)";
  else
    s += " (sizes fixed in the library's source)";
  if (c.memory_uncounted) s += "; other kinds not counted";
  return s;
}

std::string unknown_text(const ConnSetupTimes& t) {
  std::string s = "no published per-object time for ";
  for (size_t i = 0; i < t.unknown_kinds.size(); ++i) s += (i ? ", " : "") + t.unknown_kinds[i];
  return s;
}

// A time that is exact when every kind has a figure, else a lower bound naming what is missing.
std::string bounded_time(double us, bool known, const ConnSetupTimes& t) {
  if (known) return time_text(us);
  if (us <= 0) return "unknown (" + unknown_text(t) + ")";
  return "at least " + time_text(us) + " (" + unknown_text(t) + ")";
}

std::string cold_text(const ConnectionRow& r) {
  const ConnSetupTimes& t = r.setup;
  if (r.lib->established == "lazy")
    return "nothing at init; one rank's first transfer to a new peer rank: " +
           bounded_time(t.peer_connect_us, t.peer_known, t);
  return "per host (each rank creates its own, ranks in parallel) " +
         bounded_time(t.cold_start_us, t.cold_known, t);
}

std::string join_text(const ConnectionRow& r) {
  if (!r.join_applies) return "not affected: a new instance brings its own pipeline";
  const ConnSetupTimes& t = r.setup;
  std::string s =
      num(t.join_objects_per_host) + " objects on each host already there; " + t.join_what;
  if (r.lib->join == "global_reinit")
    s += ": " + bounded_time(t.join_us, t.join_known, t);
  else if (r.lib->join == "incremental")
    s += ": " + bounded_time(t.join_us, t.join_known, t) + " per rank, over its first transfers";
  return s;
}

// QPs per NIC summed over the libraries of one side: the NIC's context cache holds them all (an
// upper bound where libraries use different NICs, e.g. rails split between KV and all-to-all).
std::string nic_footer(const std::vector<ConnectionRow>& rows) {
  const ConnectionSetup* nic = nullptr;
  std::string s;
  for (const std::string side : {"decode", "prefill"}) {
    double qps = 0;
    std::string parts;
    for (const auto& r : rows) {
      if (!r.lib || r.side != side) continue;
      nic = &*r.nic;
      const double q = r.counts.queue_pairs_per_host() / r.group.nics_per_host;
      if (q <= 0) continue;
      qps += q;
      parts += (parts.empty() ? "" : ", ") + r.library + " " + num(q);
    }
    if (!parts.empty()) s += labelled(side, num(qps) + " QPs per NIC (" + parts + ")");
  }
  if (nic == nullptr) return "";
  s += labelled("QP cap", nic->qp_limit_per_nic > 0 ? std::to_string(nic->qp_limit_per_nic) +
                                                          " per NIC: " + nic->qp_limit_source
                                                    : "none published");
  s += labelled("NIC cache", nic->context_cache + " (not applied to timings)");
  return s;
}

}  // namespace

std::string connection_text(const std::vector<ConnectionRow>& rows, const std::string& title) {
  std::string s = title + "\n";
  for (const auto& r : rows) {
    s += "  " + r.purpose + " · " + r.side + " hosts" +
         (r.hosts > 0 ? " (" + std::to_string(r.hosts) + ")" : "") + " · " + r.library;
    if (!r.lib) {
      s += "\n" + wrap(r.missing, 100, "      ");
      continue;
    }
    s += " (" + std::string(r.lib->transport == "rc" ? "RC" : "SRD") + ", " + r.lib->established +
         "; " + std::to_string(r.counts.peers_per_rank) +
         (r.counts.peers_per_rank == 1 ? " peer" : " peers") + " per rank";
    if (r.counts.num_qps_per_rank > 0)
      s += ", " + std::to_string(r.counts.num_qps_per_rank) + " QPs per peer";
    if (r.counts.channels_per_peer > 0)
      s += ", " + std::to_string(r.counts.channels_per_peer) + " channels per peer";
    s += ")\n";
    s += labelled("per host", objects_text(r.counts, false));
    s += labelled("per NIC", objects_text(r.counts, true));
    s += labelled("memory", memory_text(r));
    s += labelled("cold start", cold_text(r));
    s += labelled("node join", join_text(r));
  }
  const std::string footer = nic_footer(rows);
  if (!footer.empty()) s += "  NICs of one host, all libraries above\n" + footer;
  return s;
}

std::string connection_brief(const std::vector<ConnectionRow>& rows, const std::string& name) {
  std::string s = name + "\n";
  for (const auto& r : rows) {
    std::string line = column(r.purpose + " (" + r.side + ")", 28) + column(r.library, 18);
    if (!r.lib) {
      s += "  " + line + "not counted\n";
      continue;
    }
    line += objects_text(r.counts, false) + " per host; ";
    line += r.lib->established == "lazy"
                ? "new peer " + bounded_time(r.setup.peer_connect_us, r.setup.peer_known, r.setup)
                : "cold start " + bounded_time(r.setup.cold_start_us, r.setup.cold_known, r.setup);
    s += "  " + line + "\n";
  }
  return s;
}

Json connection_json(const std::vector<ConnectionRow>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) {
    Json j = {{"purpose", r.purpose}, {"side", r.side}, {"library", r.library}, {"hosts", r.hosts}};
    if (!r.lib) {
      j["missing"] = r.missing;
      out.push_back(j);
      continue;
    }
    j["transport"] = r.lib->transport;
    j["established"] = r.lib->established;
    j["join"] = r.lib->join;
    j["peers_per_rank"] = r.counts.peers_per_rank;
    Json objs = Json::array();
    for (const auto& o : r.counts.objects)
      objs.push_back({{"kind", o.kind},
                      {"per_rank", o.per_rank},
                      {"per_host", o.per_host},
                      {"per_nic", o.per_nic}});
    j["objects"] = objs;
    j["host_bytes_per_host"] = r.counts.host_bytes_per_host;
    j["gpu_bytes_per_host"] = r.counts.gpu_bytes_per_host;
    j["memory_estimated"] = r.counts.memory_estimated;
    j["cold_start_us"] = r.setup.cold_start_us;
    j["cold_start_complete"] = r.setup.cold_known;  // false: a lower bound
    j["peer_connect_us"] = r.setup.peer_connect_us;
    j["peer_connect_complete"] = r.setup.peer_known;
    j["unknown_kinds"] = r.setup.unknown_kinds;
    j["join_applies"] = r.join_applies;
    j["join_objects_per_host"] = r.setup.join_objects_per_host;
    j["join_us"] = r.setup.join_us;
    j["join_complete"] = r.setup.join_known;
    j["qps_per_nic"] = r.counts.queue_pairs_per_host() / r.group.nics_per_host;
    j["join_what"] = r.setup.join_what;
    j["catalog_provenance"] = r.lib->provenance;
    out.push_back(j);
  }
  return out;
}

}  // namespace pdsim
