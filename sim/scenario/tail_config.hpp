#pragma once
// Scenario section `tail`: the ITL-tail mechanisms of the decode simulation, each a switch
// (scenarios/README.md documents them). Mechanisms that the serving simulation models from its
// own inputs default on; those whose parameters have no published or measured source default
// off (their parameters then carry a `provenance` when a user turns them on).
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct TailConfig {
  bool dp_imbalance = true;         // slowest DP rank sets the pace (off: the mean rank does)
  bool cuda_graph_miss = true;      // eager launch when the batch exceeds the captured sizes
  bool batch_jumps = true;          // all requests whose KV arrived join at once (off: one per
                                    // rank per iteration)
  bool acceptance_variance = true;  // accepted tokens drawn per request and step (off: each
                                    // chunk carries the expected count, fractions carried)
  bool fabric_background = true;    // packet fidelity: KV / PP flows in flight slow the a2a
  struct ExpertSkew {
    bool enabled = false;  // no published per-expert load figure for GLM-5.1 decode: off
    double zipf_s = 0;     // expert popularity ∝ 1 / rank^s (random ranking per run)
    bool eplb = true;      // EPLB places experts so that rank loads are balanced
    Json provenance;
  } expert_skew;
  struct Hiccups {
    bool enabled = false;    // no published measurement of SGLang scheduler stalls: off
    double probability = 0;  // per decode iteration
    double delay_us = 0;
    Json provenance;
  } scheduler_hiccups;
  // Parameters of the mechanisms below come inline (with a provenance) or from a named file of
  // models/profiles/tail (`profile`), which records its source. to_json writes a profile's
  // values under `from_profile` (information only, ignored when read back), so that --set on a
  // resolved scenario can change the profile without keeping its old values.
  struct LinkErrors {
    bool inline_params = false;  // parameters given in the scenario (else the profile's)
    bool enabled = true;         // a published bound exists (cable BER): on
    std::string profile = "link-ber-nvidia-cable";
    double ber = 0;           // post-FEC bit error rate on the NIC–switch links
    std::string a2a_library;  // models/catalog/qp_library; "" = by backend and transport
    Json provenance;
  } link_errors;
  struct PathFlaps {
    bool inline_params = false;  // parameters given in the scenario (else the profile's)
    bool enabled = false;        // no published flap duration: off
    std::string profile;
    double per_link_per_hour = 0;  // flaps of one NIC–switch link
    double down_ms = 0;            // how long the path stays down
    Json provenance;
  } path_flaps;
  struct GcPauses {
    bool inline_params = false;  // parameters given in the scenario (else the profile's)
    bool enabled = false;        // published only at live sets far above the reference runs': off
    std::string profile;
    double interval_s = 0;   // between gen-2 collections of one scheduler
    double at_requests = 0;  // live requests the interval was seen at (0: not scaled)
    double pause_min_ms = 0, pause_max_ms = 0;
    Json provenance;
  } gc_pauses;
  struct AdmissionWork {
    bool enabled = false;  // no measured cost of admitting a transferred request: off
    double us_per_request = 0;
    Json provenance;
  } admission_work;

  Json to_json() const;
};

TailConfig parse_tail(const JsonNode& n);

}  // namespace pdsim
