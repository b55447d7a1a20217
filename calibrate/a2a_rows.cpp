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

// `backend` and `ep`: the row's, else the document's parameters, else its context (importers of
// DeepEP/UCCL-EP/pplx output cannot know them; the user adds them once per file).
JsonNode run_field(const JsonNode& row, const JsonNode& params, const JsonNode& ctx,
                   std::string_view key) {
  if (row.has(key)) return row.at(key);
  if (params.has(key)) return params.at(key);
  if (ctx.has(key)) return ctx.at(key);
  row.fail("missing \"" + std::string(key) +
           "\": expected it in the row, in the measurement's \"parameters\" or in its "
           "\"context\"");
}

std::string note_row(size_t i, const std::string& why) {
  return "results[" + std::to_string(i) + "]: skipped, " + why;
}

}  // namespace

std::vector<A2ARow> low_latency_rows(const JsonNode& doc, std::vector<std::string>* notes) {
  std::vector<A2ARow> out;
  if (doc.at("probe").string() != "a2a_phase") return out;
  const JsonNode empty = JsonNode::from_json(Json::object(), doc.file());
  const JsonNode params = doc.has("parameters") ? doc.at("parameters") : empty;
  const JsonNode ctx = doc.has("context") ? doc.at("context") : empty;
  auto skip = [&](size_t i, const std::string& why) {
    if (notes) notes->push_back(note_row(i, why));
  };
  const JsonNode results = doc.at("results");
  for (size_t i = 0; i < results.size(); ++i) {
    const JsonNode r = results.at(i);
    const std::string mode =
        has_field(r, params, "mode") ? field(r, params, "mode").string() : "low_latency";
    if (mode != "low_latency" || r.has("variant")) continue;
    // Imported rows also carry combined phases ("dispatch+combine") and the send/recv halves of
    // a phase: neither is one full phase of the model.
    const std::string ph = r.at("phase").string();
    if (ph != "dispatch" && ph != "combine") {
      skip(i, "phase \"" + ph + "\" is not \"dispatch\" or \"combine\"");
      continue;
    }
    if (r.has("part") && r.at("part").string() != "both") {
      skip(i, "part \"" + r.at("part").string() + "\" is only a part of the phase");
      continue;
    }
    A2ARow a;
    a.file = doc.file();
    a.row = i;
    a.backend = run_field(r, params, ctx, "backend").string();
    a.cfg.ep_ranks = static_cast<int>(run_field(r, params, ctx, "ep").positive_integer());
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
    a.phase = ph == "dispatch" ? A2APhase::dispatch : A2APhase::combine;
    a.latency_us = r.at("latency_us").positive();
    if (a.cfg.num_experts % a.cfg.ep_ranks != 0)
      run_field(r, params, ctx, "ep")
          .fail("expected an EP size that divides num_experts (" +
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
  for (const Routing& r : sample_row_routings(row, samples, seed)) {
    // A microbenchmark runs no serving system: the in-serving fixed cost (a profile's prior
    // value, linear_a2a_backend.hpp) is not part of what it measures.
    const A2APhaseTime t = b.phase(row.cfg, r, row.phase);
    const auto serving = t.terms_us.find("fixed_us");
    sum += t.total_us - (serving == t.terms_us.end() ? 0.0 : serving->second);
  }
  return sum / samples;
}

}  // namespace pdsim
