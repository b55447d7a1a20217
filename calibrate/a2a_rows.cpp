#include "calibrate/a2a_rows.hpp"

namespace pdsim {
namespace {

// A row member if present, else the document parameter.
JsonNode field(const JsonNode& row, const JsonNode& params, std::string_view key) {
  return row.has(key) ? row.at(key) : params.at(key);
}
bool has_field(const JsonNode& row, const JsonNode& params, std::string_view key) {
  return row.has(key) || params.has(key);
}

}  // namespace

std::vector<A2ARow> low_latency_rows(const JsonNode& doc) {
  std::vector<A2ARow> out;
  if (doc.at("probe").string() != "a2a_phase") return out;
  const JsonNode params = doc.has("parameters") ? doc.at("parameters")
                                                : JsonNode::from_json(Json::object(), doc.file());
  const JsonNode results = doc.at("results");
  for (size_t i = 0; i < results.size(); ++i) {
    const JsonNode r = results.at(i);
    const std::string mode =
        has_field(r, params, "mode") ? field(r, params, "mode").string() : "low_latency";
    if (mode != "low_latency" || r.has("variant")) continue;
    A2ARow a;
    a.file = doc.file();
    a.row = i;
    a.backend = r.at("backend").string();
    a.cfg.ep_ranks = static_cast<int>(r.at("ep").positive_integer());
    a.cfg.gpus_per_node = static_cast<int>(field(r, params, "gpus_per_node").positive_integer());
    a.cfg.num_experts = static_cast<int>(field(r, params, "num_experts").positive_integer());
    a.cfg.top_k = static_cast<int>(field(r, params, "top_k").positive_integer());
    a.cfg.hidden = static_cast<int>(field(r, params, "hidden").positive_integer());
    a.cfg.nics_per_gpu = field(r, params, "nics_per_gpu").positive();
    a.cfg.nic_gbps = field(r, params, "nic_gbps").positive();
    a.tokens_per_rank = static_cast<int>(field(r, params, "tokens_per_rank").positive_integer());
    a.intranode_nvlink = has_field(r, params, "intranode_nvlink")
                             ? field(r, params, "intranode_nvlink").boolean()
                             : true;
    const std::string ph = r.at("phase").string();
    if (ph != "dispatch" && ph != "combine")
      r.at("phase").fail("expected \"dispatch\" or \"combine\"");
    a.phase = ph == "dispatch" ? A2APhase::dispatch : A2APhase::combine;
    a.latency_us = r.at("latency_us").positive();
    if (a.cfg.num_experts % a.cfg.ep_ranks != 0)
      r.at("ep").fail("expected an EP size that divides num_experts (" +
                      std::to_string(a.cfg.num_experts) + ")");
    out.push_back(a);
  }
  return out;
}

std::vector<Routing> sample_row_routings(const A2ARow& row, int samples, uint64_t seed) {
  const Rng base(seed);
  std::vector<int> tokens(static_cast<size_t>(row.cfg.ep_ranks), row.tokens_per_rank);
  std::vector<Routing> out;
  for (int s = 0; s < samples; ++s) {
    Rng rng = base.fork(static_cast<uint64_t>(s));
    out.push_back(sample_routing(row.cfg, tokens, rng));
  }
  return out;
}

double simulate_a2a_row(const A2ABackend& b, const A2ARow& row, int samples, uint64_t seed) {
  double sum = 0;
  for (const Routing& r : sample_row_routings(row, samples, seed))
    sum += b.phase(row.cfg, r, row.phase).total_us;
  return sum / samples;
}

}  // namespace pdsim
