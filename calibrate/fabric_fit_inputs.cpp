#include "calibrate/fabric_fit_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "calibrate/fit_link.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

using Test = std::function<bool(const std::vector<JsonNode>&)>;

bool proxy_row(const std::vector<JsonNode>& docs, const std::string& probe,
               const std::string& backend) {
  for (const auto& d : docs) {
    if (d.at("probe").string() != probe) continue;
    if (probe == "proxy_path") return true;
    const JsonNode rows = d.at("results");
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows.at(i).has("backend") && rows.at(i).at("backend").string() == backend) return true;
  }
  return false;
}

// The published files, each read on its own (a file the reader rejects is no stand-in).
std::vector<std::pair<std::string, JsonNode>> published() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, JsonNode>> out;
  const fs::path dir = fs::path(data_root()) / "calibrate" / "published";
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    try {
      out.emplace_back("calibrate/published/" + f.filename().string(),
                       load_measurement(f.string()));
    } catch (const InputError&) {
    }
  }
  return out;
}

}  // namespace

std::vector<FitInputNeed> unmet_fit_inputs(const std::vector<JsonNode>& docs,
                                           const std::vector<std::string>& backends) {
  std::vector<std::pair<std::string, Test>> needs = {
      {"a \"pingpong\" measurement for rdma_alpha_us (fi_pingpong, perftest latency)",
       [](const auto& d) { return !fit_alpha_beta(d).report.is_null(); }},
      {"a \"kv_transfer\" or \"framing\" measurement for rdma_nic_efficiency",
       [](const auto& d) {
         return !fit_kv_curve(d).curve.x.empty() || fit_framing(d).efficiency > 0;
       }},
      {"a \"collective\" all_reduce row inside one node for nvlink_GBps",
       [](const auto& d) { return fit_nvlink(d).GBps > 0; }},
      {"intra-node normal-mode \"a2a_phase\" rows for nvlink_normal_a2a_GBps",
       [](const auto& d) { return fit_nvlink(d).normal_a2a_GBps > 0; }}};
  if (std::count(backends.begin(), backends.end(), "cpu-proxy"))
    needs.push_back(
        {"a \"proxy_path\" measurement (UCCL-EP's proxy threads and FIFO) for backend "
         "'cpu-proxy'",
         [](const auto& d) { return proxy_row(d, "proxy_path", "cpu-proxy"); }});
  if (std::count(backends.begin(), backends.end(), "nvshmem-proxy"))
    needs.push_back(
        {"a \"proxy_config\" row for backend 'nvshmem-proxy' (proxy_threads, "
         "proxy_ops_per_signal)",
         [](const auto& d) { return proxy_row(d, "proxy_config", "nvshmem-proxy"); }});
  std::vector<FitInputNeed> out;
  std::vector<std::pair<std::string, JsonNode>> pub;
  bool pub_read = false;
  for (const auto& [what, met] : needs) {
    if (met(docs)) continue;
    if (!pub_read) pub = published(), pub_read = true;
    FitInputNeed n{what, {}};
    for (const auto& [name, doc] : pub) {
      try {
        if (met({doc})) n.stand_ins.push_back(name);
      } catch (const InputError&) {  // a reader's refusal: no stand-in
      }
    }
    out.push_back(std::move(n));
  }
  return out;
}

void require_fit_inputs(const std::vector<JsonNode>& docs,
                        const std::vector<std::string>& backends) {
  const auto unmet = unmet_fit_inputs(docs, backends);
  if (unmet.empty()) return;
  std::string m = std::to_string(unmet.size()) +
                  " inputs the fit needs, from your own measurements or a published file "
                  "(pick the one for your fabric):";
  for (size_t i = 0; i < unmet.size(); ++i) {
    m += "\n  " + std::to_string(i + 1) + ". " + unmet[i].what + "; published: ";
    if (unmet[i].stand_ins.empty()) m += "none";
    for (size_t k = 0; k < unmet[i].stand_ins.size(); ++k)
      m += (k ? ", " : "") + unmet[i].stand_ins[k];
  }
  throw InputError("<measurement files>", "probe", m);
}

}  // namespace pdsim
