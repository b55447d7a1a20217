#include "calibrate/normal_rdma_rows.hpp"

#include "calibrate/fit_profile.hpp"
#include "sim/core/provenance.hpp"
#include "sim/fabric/normal_rdma_a2a.hpp"

namespace pdsim {
namespace {

std::string ref(const JsonNode& doc, size_t i) {
  return provenance_path(doc.file()) + " results[" + std::to_string(i) + "]";
}

// A row member if present, else the document parameter.
JsonNode field(const JsonNode& row, const JsonNode& params, const std::string& key) {
  return row.has(key) ? row.at(key) : params.at(key);
}

}  // namespace

Json normal_rdma_settings(const std::string& backend, const std::vector<JsonNode>& docs,
                          Json* report) {
  Json s = Json::object(), used = Json::array();
  for (const auto& d : docs) {
    const std::string probe = d.at("probe").string();
    const JsonNode rows = d.at("results");
    for (size_t i = 0; i < rows.size(); ++i) {
      const JsonNode r = rows.at(i);
      if (!r.has("backend") || r.at("backend").string() != backend) continue;
      if (probe == "a2a_normal_rdma") {
        for (const char* k : {"normal_ranks", "normal_tokens_per_rank", "normal_dispatch_rdma_GBps",
                              "normal_combine_rdma_GBps"})
          s[k] = r.at(k).positive();
        used.push_back({{"row", ref(d, i)}, {"method", "published RDMA bandwidth"}});
        continue;
      }
      if (probe != "a2a_phase" || r.str_or("mode", "") != "normal") continue;
      const JsonNode params = d.at("parameters");
      A2AConfig c;
      c.ep_ranks = static_cast<int>(r.at("ep").positive_integer());
      c.gpus_per_node = static_cast<int>(field(r, params, "gpus_per_node").positive_integer());
      if (c.ep_ranks <= c.gpus_per_node) continue;  // inside one node: an NVLink figure
      c.num_experts = static_cast<int>(field(r, params, "num_experts").positive_integer());
      c.top_k = static_cast<int>(field(r, params, "top_k").positive_integer());
      c.hidden = static_cast<int>(field(r, params, "hidden").positive_integer());
      const double tokens = field(r, params, "tokens_per_rank").positive();
      const std::string ph = r.at("phase").string();
      if (ph != "dispatch" && ph != "combine") r.at("phase").fail("\"dispatch\" or \"combine\"");
      const A2APhase phase = ph == "dispatch" ? A2APhase::dispatch : A2APhase::combine;
      double bytes = normal_rdma_bytes_per_rank(c, tokens, phase);
      const bool bf16_dispatch = phase == A2APhase::dispatch && params.has("dispatch_dtype") &&
                                 params.at("dispatch_dtype").string() == "bf16";
      if (bf16_dispatch) bytes *= 2 / (1 + 4.0 / 128);  // BF16 tokens, not FP8 + scales
      const double GBps = bytes / r.at("latency_us").positive() / 1e3;
      s["normal_ranks"] = c.ep_ranks;
      s["normal_tokens_per_rank"] = tokens;
      s[phase == A2APhase::dispatch ? "normal_dispatch_rdma_GBps" : "normal_combine_rdma_GBps"] =
          GBps;
      used.push_back(
          {{"row", ref(d, i)},
           {"method", std::string("RDMA bytes per rank at the row's shape") +
                          (bf16_dispatch ? " (BF16 dispatch; applied to FP8 bytes per byte)" : "") +
                          " / latency_us"},
           {"rdma_bytes_per_rank", bytes},
           {"GBps", GBps}});
    }
  }
  if (report && !used.empty()) *report = used;
  return s;
}

}  // namespace pdsim
