#pragma once
// Collective profile (models/profiles/collective/NAME.json, schema "pdsim.collective_profile/1"):
// the time of an NCCL collective (all-reduce, all-gather, reduce-scatter) against message size,
// fitted by `pdsim calibrate collective` (calibrate/fit_collective) to nccl-tests output. A
// profile belongs to one library stack on one fabric (NCCL × net plugin × versions, the NICs per
// node and their rate) and each curve to the shape it was measured at (ranks, nodes).
//
// Model. NCCL runs each call with one protocol (LL, LL128, Simple) and algorithm (ring, tree,
// NVLS) picked per size by its tuner (or a tuner plug-in such as aws-ofi-nccl's), and each has its
// own latency and bandwidth: NCCL's own cost model is time = latency + bytes / bandwidth per
// algorithm × protocol (src/graph/tuning.cc). A measured curve is therefore piecewise; a regime is
// a size range with
//     t(S) = alpha_us + S_bus / busbw_GBps,    S_bus = bus_factor(op, n) · S,
// bus_factor being nccl-tests' convention (all_reduce 2(n−1)/n; all_gather and reduce_scatter
// (n−1)/n with S the total buffer), so busbw is the bus bandwidth nccl-tests prints. The sizes
// measured only bracket where NCCL switches: the fit places each boundary at the geometric
// midpoint of the bracket and keeps the bracket.
//
// Leaving what was measured is said, never hidden: a size outside the measured range or a shape
// (ranks, nodes) without its own curve gives a prediction with `outside` reasons; busbw is then
// taken as shape-independent (what NCCL's bus-bandwidth convention is built for, for rings) and
// alpha as measured, an assumption the reasons name.
#include <limits>
#include <string>
#include <vector>

#include "sim/core/fields.hpp"

namespace pdsim {

constexpr const char* kCollectiveProfileSchema = "pdsim.collective_profile/1";

// nccl-tests' bus-bandwidth factor of `op` over `ranks` ranks; InputError for another op.
double collective_bus_factor(const std::string& op, int ranks);

struct CollectiveRegime {
  double up_to_bytes = 0;  // applies to sizes ≤ this; the last regime has none (inf)
  double alpha_us = 0;
  double busbw_GBps = 0;  // inf: no size term resolved within this regime
  // The bracket of the boundary: the largest measured size in this regime and the smallest of
  // the next (both 0 on the last regime).
  double bracket_low_bytes = 0, bracket_high_bytes = 0;
  double rms_rel_error = 0;  // the fit's RMS relative error of its rows' times
  int rows = 0;

  template <class V>
  static void declare(V& v) {
    using R = CollectiveRegime;
    v.field(&R::up_to_bytes, "up_to_bytes",
            {.help = "largest message this regime applies to (inf on the last)",
             .unit = "bytes",
             .min = 0,
             .above_min = true,
             .required = true,
             .inf_ok = true});
    v.field(&R::alpha_us, "alpha_us",
            {.help = "fixed time per call", .unit = "us", .min = 0, .required = true});
    v.field(&R::busbw_GBps, "busbw_GBps",
            {.help = "bus bandwidth (nccl-tests convention); inf when no size term was resolved",
             .unit = "GB/s",
             .min = 0,
             .above_min = true,
             .required = true,
             .inf_ok = true});
    v.field(&R::bracket_low_bytes, "bracket_low_bytes",
            {.help = "largest measured size in this regime (0 on the last)",
             .unit = "bytes",
             .min = 0});
    v.field(&R::bracket_high_bytes, "bracket_high_bytes",
            {.help = "smallest measured size of the next regime (0 on the last)",
             .unit = "bytes",
             .min = 0});
    v.field(&R::rms_rel_error, "rms_rel_error",
            {.help = "RMS relative error of the fitted times of this regime's rows", .min = 0});
    v.field(&R::rows, "rows", {.help = "measured rows in this regime", .min = 0});
  }
};

struct CollectiveCurve {
  std::string op;  // all_reduce | all_gather | reduce_scatter
  int ranks = 0, nodes = 0;
  double min_bytes = 0, max_bytes = 0;  // the measured range
  std::vector<CollectiveRegime> regimes;

  template <class V>
  static void declare(V& v) {
    using C = CollectiveCurve;
    v.field(&C::op, "op",
            {.help = "the collective",
             .choices = {"all_reduce", "all_gather", "reduce_scatter"},
             .required = true});
    v.field(&C::ranks, "ranks", {.help = "ranks it was measured over", .min = 2, .required = true});
    v.field(&C::nodes, "nodes",
            {.help = "nodes they were spread over", .min = 1, .required = true});
    v.field(&C::min_bytes, "min_bytes",
            {.help = "smallest measured size",
             .unit = "bytes",
             .min = 0,
             .above_min = true,
             .required = true});
    v.field(&C::max_bytes, "max_bytes",
            {.help = "largest measured size",
             .unit = "bytes",
             .min = 0,
             .above_min = true,
             .required = true});
    v.field(&C::regimes, "regimes", {.help = "size regimes, ascending", .required = true});
  }
  static void validate(CollectiveCurve& c, const JsonNode& n);
};

struct CollectiveProfile {
  std::string schema = kCollectiveProfileSchema;
  std::string name;
  std::string library;  // "NCCL 2.23.4 + aws-ofi-nccl 1.19.0"
  std::string fabric;   // "EFA, 3200 Gb/s per node"
  Json provenance;
  Json fit = Json::object();  // per-row residuals, standard errors, the regime choice
  std::vector<CollectiveCurve> curves;
  // How an op without its own curve is estimated from the all-reduce curve (estimate_collective).
  double estimated_alpha_fraction = 0.5;
  // What a cross-node call inside a served forward pays beyond nccl-tests' back-to-back loop
  // (CollectiveCost, `pdsim run`; never in predict_collective, which reproduces nccl-tests).
  double serving_call_us = 0;
  std::string file;  // where it was loaded from (messages); not serialised

  template <class V>
  static void declare(V& v) {
    using P = CollectiveProfile;
    v.field(&P::schema, "schema",
            {.help = "file format", .choices = {kCollectiveProfileSchema}, .required = true});
    v.field(&P::name, "name", {.help = "profile name", .required = true});
    v.field(&P::library, "library",
            {.help = "collective library, net plug-in and versions", .required = true});
    v.field(&P::fabric, "fabric", {.help = "fabric and NICs per node", .required = true});
    v.field(&P::provenance, "provenance", {.help = "measurement files, tool", .required = true});
    v.field(&P::fit, "fit", {.help = "residuals and uncertainty", .verbatim = true});
    v.field(&P::curves, "curves", {.help = "one per (op, ranks, nodes)", .required = true});
    v.field(&P::estimated_alpha_fraction, "estimated_alpha_fraction",
            {.help = "an all_gather or reduce_scatter without a curve of its own pays this "
                     "fraction of the all-reduce's alpha (and half its bus bytes): 0.5 halves "
                     "both, NCCL's cost model puts a 16-rank two-node ring near 0.6, 1 keeps the "
                     "whole latency; unmeasured, a fit to serving runs may set it",
             .min = 0.5,
             .max = 1});
    v.field(&P::serving_call_us, "serving_call_us",
            {.help = "time every cross-node call adds inside a served forward, beyond what "
                     "nccl-tests measured; 0 (off) unless a fit to serving runs sets it",
             .unit = "us",
             .min = 0});
  }
};

// What one call costs, and how far that leaves what was measured.
struct CollectivePrediction {
  double time_us = 0;
  double busbw_GBps = 0;
  int regime = 0;                    // index into the curve's regimes
  double alpha_us = 0;               // that regime's fixed time per call
  double rel_uncertainty = 0;        // the regime's RMS relative error; inside a boundary's bracket
                                     // at least the gap to the other side's regime
  std::vector<std::string> outside;  // empty when the query is inside what was measured
};

// `bytes` in nccl-tests' convention (per rank for all_reduce; the total buffer for all_gather
// and reduce_scatter). InputError naming the profile when it has no curve for `op`.
CollectivePrediction predict_collective(const CollectiveProfile& p, const std::string& op,
                                        double bytes, int ranks, int nodes);

// What `op` costs from the profile: its own curve where the profile has one; else, for an
// all_gather or reduce_scatter, the all-reduce of the same buffer with half its bus bytes (it
// moves half an all-reduce's) and `estimated_alpha_fraction` of its alpha (default 0.5, half an
// all-reduce; NCCL's own cost model puts a 16-rank two-node ring all-gather's latency at about
// 0.6 of the all-reduce's; no all_gather_perf was measured, so only a fit to serving runs moves
// it). `from_all_reduce` says which; the all-reduce curve's
// uncertainty is kept and the decomposition adds an unquantified one. The one rule `pdsim run`
// and `pdsim layout` use.
struct CollectiveEstimate {
  CollectivePrediction prediction;
  bool from_all_reduce = false;
};
CollectiveEstimate estimate_collective(const CollectiveProfile& p, const std::string& op,
                                       double bytes, int ranks, int nodes);

CollectiveProfile collective_profile_from_json(const Json& doc, const std::string& file);
CollectiveProfile load_collective_profile(const std::string& name_or_path,
                                          const std::string& from_file = "",
                                          const std::string& field = "collective profile");
Json collective_profile_to_json(const CollectiveProfile& p);

}  // namespace pdsim
