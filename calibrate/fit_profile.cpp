#include "calibrate/fit_profile.hpp"

#include <cmath>
#include <filesystem>
#include <iterator>
#include <set>

#include "calibrate/fabric_fit_inputs.hpp"
#include "calibrate/fit_link.hpp"
#include "calibrate/measurement.hpp"
#include "calibrate/normal_rdma_rows.hpp"
#include "calibrate/serving_prior.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

std::vector<JsonNode> load_all(const std::vector<std::string>& files) {
  std::vector<JsonNode> docs;
  for (const auto& f : files) docs.push_back(load_measurement(f));
  return docs;
}

// Backend inputs that are published configuration rather than fitted values: UCCL-EP's proxy
// path ("proxy_path") for cpu-proxy; a library's configuration read from its source
// ("proxy_config", one row per backend: every number but "backend" is a setting).
Json backend_settings(const std::string& backend, const std::vector<JsonNode>& docs) {
  Json s = Json::object();
  for (const auto& d : docs) {
    const std::string probe = d.at("probe").string();
    if (probe == "proxy_config") {
      const JsonNode rows = d.at("results");
      for (size_t i = 0; i < rows.size(); ++i) {
        const JsonNode r = rows.at(i);
        if (r.at("backend").string() != backend) continue;
        for (const auto& k : r.keys())
          if (k != "backend") s[k] = r.at(k).non_negative();
      }
    }
    if (backend != "cpu-proxy" || probe != "proxy_path") continue;
    const JsonNode r = d.at("results").at(0);
    s["proxy_threads"] = r.at("proxy_threads").positive_integer();
    s["fifo_latency_us"] = r.at("fifo_latency_us").non_negative();
    // Throughput is quoted as a lower bound, so 1/rate bounds the per-command cost from above.
    s["fifo_us_per_msg"] = 1e6 / r.at("fifo_ops_per_s").positive();
  }
  if (backend == "cpu-proxy" && !s.contains("proxy_threads"))
    throw InputError("<measurement files>", "probe",
                     "a \"proxy_path\" measurement (proxy_threads, fifo_latency_us, "
                     "fifo_ops_per_s) to fit backend 'cpu-proxy'");
  if (backend == "nvshmem-proxy" && !s.contains("proxy_threads"))
    throw InputError("<measurement files>", "probe",
                     "a \"proxy_config\" row for backend 'nvshmem-proxy' (proxy_threads, "
                     "proxy_ops_per_signal) to fit it");
  return s;
}

std::map<std::string, std::vector<A2ARow>> rows_by_backend(const std::vector<JsonNode>& docs,
                                                           Json* notes = nullptr) {
  std::map<std::string, std::vector<A2ARow>> out;
  for (const auto& d : docs) {
    std::vector<std::string> skipped;
    for (auto& r : low_latency_rows(d, &skipped)) out[r.backend].push_back(r);
    if (notes)
      for (const auto& s : skipped) notes->push_back(provenance_path(d.file()) + " " + s);
  }
  return out;
}

Json files_json(const std::vector<JsonNode>& docs) {
  Json a = Json::array();
  for (const auto& d : docs)
    a.push_back({{"file", provenance_path(d.file())},
                 {"source", d.at("provenance").str_or("source", "")},
                 {"kind", d.at("provenance").str_or("kind", "")}});
  return a;
}

void relativise_files(Json& j) {
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) {
      if (k == "file" && v.is_string())
        v = provenance_path(v.get<std::string>());
      else
        relativise_files(v);
    }
  } else if (j.is_array()) {
    for (auto& v : j) relativise_files(v);
  }
}

}  // namespace

std::string fmt_g4(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string provenance_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path root = fs::weakly_canonical(data_root(), ec);
  fs::path p = fs::weakly_canonical(path, ec);
  fs::path rel = p.lexically_relative(root);
  if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  return path;
}

FabricProfile fit_fabric_profile(const ProfileFitOptions& opt) {
  if (opt.transport != "srd" && opt.transport != "rc")
    throw InputError("<command line>", "--transport", "\"srd\" or \"rc\"");
  const std::vector<JsonNode> docs = load_all(opt.files), alts = load_all(opt.alternates);
  // Everything missing at once, with the published files that can stand in for it.
  std::vector<std::string> backends;
  for (const auto& [b, rows] : rows_by_backend(docs)) backends.push_back(b);
  require_fit_inputs(docs, backends);
  FabricProfile p;
  p.file = "<fit of " + opt.name + ">";
  p.name = opt.name;
  p.transport = opt.transport;
  Json fit = Json::object(), notes = Json::array();

  // RDMA latency.
  AlphaBetaFit ab = fit_alpha_beta(docs);
  if (ab.report.is_null())
    throw InputError("<measurement files>", "probe",
                     "a \"pingpong\" measurement for rdma_alpha_us");
  p.rdma_alpha_us = ab.alpha_us;
  fit["rdma_alpha"] = ab.report;

  // NIC efficiency and the KV curve.
  KvCurveFit kv = fit_kv_curve(docs);
  FramingFit fr = fit_framing(docs);
  if (!kv.curve.x.empty()) {
    p.rdma_nic_efficiency = std::min(1.0, kv.peak_efficiency);
    p.kv_block_GBps = kv.curve;
    p.kv_reference_nics = kv.reference_nics;
    fit["kv_block_GBps"] = kv.report;
    fit["rdma_nic_efficiency"] = {{"value", p.rdma_nic_efficiency},
                                  {"method", "peak KV write rate / line rate of the NICs used"}};
  } else if (fr.efficiency > 0) {
    p.rdma_nic_efficiency = fr.efficiency;
    const double per_nic_GBps = fr.nic_gbps / 8.0 * fr.efficiency;
    p.kv_block_GBps.x = {65536};
    p.kv_block_GBps.eff = {per_nic_GBps};
    p.kv_reference_nics = 1;
    fit["rdma_nic_efficiency"] = fr.report;
    fit["kv_block_GBps"] = {
        {"method",
         "no published KV-transfer curve for this fabric: one NIC's line rate x framing "
         "efficiency, flat in block size (an optimistic bound for small blocks)"},
        {"value_GBps_per_nic", per_nic_GBps}};
    notes.push_back(
        "kv_block_GBps derived from physics (line rate x framing efficiency); "
        "small-block overheads not represented");
  } else {
    throw InputError("<measurement files>", "probe",
                     "a \"kv_transfer\" or \"framing\" measurement for rdma_nic_efficiency");
  }
  if (kv.has_first_submit) {
    p.kv_first_submit_ms = kv.first_submit_ms;
  } else {
    notes.push_back("kv_first_submit_ms: no published figure for this fabric; 0 (not modelled)");
  }
  if (fr.efficiency > 0 && !kv.curve.x.empty()) fit["framing_cross_check"] = fr.report;

  // NVLink.
  NvlinkFit nv = fit_nvlink(docs);
  if (nv.GBps <= 0 || nv.normal_a2a_GBps <= 0)
    throw InputError(
        "<measurement files>", "probe",
        "a \"collective\" all_reduce row and intra-node normal-mode \"a2a_phase\" rows "
        "for the NVLink figures");
  p.nvlink_GBps = nv.GBps;
  p.nvlink_normal_a2a_GBps = nv.normal_a2a_GBps;
  p.nvlink_alpha_us = 0;
  fit["nvlink"] = nv.report;
  notes.push_back(
      "nvlink_alpha_us = 0: no published NVLink small-message latency; the hwkernels "
      "NVLink probe should measure it");

  // NCCL point-to-point (PP activations): no published figure; the RDMA path's values.
  p.p2p_alpha_us = p.rdma_alpha_us;
  p.p2p_efficiency = p.rdma_nic_efficiency;
  notes.push_back(
      "p2p_alpha_us / p2p_efficiency: no published NCCL send/recv figure; taken equal "
      "to the RDMA path's alpha and NIC efficiency");

  // All-to-all backends.
  p.a2a = Json::object();
  Json a2a_fit = Json::object();
  std::map<std::string, A2AFitResult> primary;
  for (auto& [backend, rows] : rows_by_backend(docs, &notes)) {
    A2AFitOptions o = opt.a2a;
    if (auto f = opt.fixed.find(backend); f != opt.fixed.end()) o.fixed = f->second;
    A2AFitResult r = fit_a2a_backend(backend, p, backend_settings(backend, docs), rows, o);
    p.a2a[backend] = r.block;
    a2a_fit[backend] = r.report;
    Json normal_report;
    const Json normal = normal_rdma_settings(backend, docs, &normal_report);
    for (auto& [k, v] : normal.items()) p.a2a[backend][k] = v;
    if (!normal_report.is_null()) a2a_fit[backend]["normal_rdma"] = normal_report;
    // The in-serving fixed cost, which no microbenchmark row identifies: a prior from published
    // serving figures where the files hold them (serving_prior.hpp), unless --fix holds it.
    const ServingPrior sp = serving_fixed_prior(backend, docs);
    if (sp.found && !o.fixed.count("fixed_us")) {
      p.a2a[backend]["fixed_us"] = sp.value_us;
      p.a2a[backend]["priors"] = {
          {"fixed_us", {{"lower", sp.lower_us}, {"upper", sp.upper_us}, {"basis", sp.basis}}}};
      a2a_fit[backend]["parameters"]["fixed_us"]["value"] = sp.value_us;
      a2a_fit[backend]["parameters"]["fixed_us"]["prior"] = sp.report;
    }
    primary[backend] = r;
  }
  for (const auto& b : serving_prior_backends(docs))
    if (!primary.count(b))
      notes.push_back("a2a_serving_excess rows for backend '" + b +
                      "' unused: no all-to-all rows fit that backend in this profile");
  if (opt.transport == "srd" && !p.a2a.contains("ibgda")) {
    std::string fitted;  // the proxy backends this profile has
    for (const auto& [b, block] : p.a2a.items()) fitted += (fitted.empty() ? "" : " or ") + b;
    p.a2a["ibgda"] = {{"unsupported",
                       "EFA does not let the GPU ring the NIC doorbell (no IBGDA); "
                       "use " +
                           fitted}};
  }
  fit["a2a"] = a2a_fit;

  // Alternates: each file on its own, compared with the primary fit of the same backend.
  Json alt_fit = Json::object(), disagreements = Json::array();
  for (const auto& d : alts) {
    const std::string f = provenance_path(d.file());
    for (auto& [backend, rows] : rows_by_backend({d})) {
      A2AFitOptions o = opt.a2a;
      o.refuse_underdetermined = false;  // a cross-check; its report says what it identified
      if (auto fx = opt.fixed.find(backend); fx != opt.fixed.end()) o.fixed = fx->second;
      A2AFitResult r = fit_a2a_backend(backend, p, backend_settings(backend, docs), rows, o);
      alt_fit[f][backend] = {{"block", r.block}, {"report", r.report}};
      auto it = primary.find(backend);
      if (it == primary.end()) continue;
      std::string msg = f + " (" + backend + ") vs primary fit:";
      for (auto& [k, v] : it->second.block.items()) {
        if (!v.is_number() || !r.block.contains(k)) continue;
        const double a = v.get<double>(), b = r.block[k].get<double>();
        if (std::abs(a - b) > 0.1 * std::max(std::abs(a), std::abs(b)))
          msg += " " + k + " " + fmt_g4(a) + " vs " + fmt_g4(b) + ";";
      }
      disagreements.push_back(msg);
    }
    AlphaBetaFit aab = fit_alpha_beta({d});
    if (!aab.report.is_null()) {
      alt_fit[f]["rdma_alpha"] = aab.report;
      disagreements.push_back(f + ": rdma_alpha_us " + fmt_g4(aab.alpha_us) + " vs primary " +
                              fmt_g4(p.rdma_alpha_us));
    }
    NvlinkFit anv = fit_nvlink({d});
    if (anv.normal_a2a_GBps > 0) {
      alt_fit[f]["nvlink_normal_a2a_GBps"] = anv.normal_a2a_GBps;
      disagreements.push_back(f + ": nvlink_normal_a2a_GBps " + fmt_g4(anv.normal_a2a_GBps) +
                              " vs primary " + fmt_g4(p.nvlink_normal_a2a_GBps));
    }
  }
  // Backends fitted on the same fabric imply their own fixed latency and achieved wire rate.
  for (auto i = primary.begin(); i != primary.end(); ++i)
    for (auto j = std::next(i); j != primary.end(); ++j) {
      std::string msg = i->first + " vs " + j->first + " (same fabric, different libraries):";
      for (const char* k : {"latency_us", "wire_time_factor"})
        if (i->second.block.contains(k) && j->second.block.contains(k))
          msg += std::string(" ") + k + " " + fmt_g4(i->second.block[k].get<double>()) + " vs " +
                 fmt_g4(j->second.block[k].get<double>()) + ";";
      disagreements.push_back(msg);
    }
  if (!alt_fit.empty()) fit["alternates"] = alt_fit;
  fit["disagreements"] = disagreements;
  relativise_files(fit);
  p.fit = fit;

  p.provenance = {{"tool", "pdsim calibrate fit"},
                  {"schema_of_inputs", kMeasurementSchema},
                  {"instance", opt.instance},
                  {"files_used", files_json(docs)},
                  {"alternates", files_json(alts)},
                  {"routing_samples", opt.a2a.samples},
                  {"seed", opt.a2a.seed},
                  {"notes", notes},
                  {"date", "omitted so that regeneration is byte-identical; see git history"}};
  return p;
}

std::vector<std::string> unidentified_parameters(const FabricProfile& p) {
  std::vector<std::string> out;
  if (!p.fit.is_object() || !p.fit.contains("a2a")) return out;
  for (const auto& [backend, rep] : p.fit["a2a"].items()) {
    if (!rep.is_object() || !rep.contains("parameters")) continue;
    for (const auto& [name, v] : rep["parameters"].items())
      if (v.is_object() && v.value("identified", true) == false)
        out.push_back("a2a." + backend + "." + name + " = " + fmt_g4(v.value("value", 0.0)) +
                      " is not identified by the rows (no row's time depends on it at the fit, so "
                      "it stays at its start, the lower bound); add rows that exercise it, or hold "
                      "it with --fix " +
                      backend + "." + name + "=VALUE");
  }
  return out;
}

}  // namespace pdsim
