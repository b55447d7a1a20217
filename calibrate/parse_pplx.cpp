// pplx-garden benchmarks/bench_all_to_all.py --output JSON: for dispatch and combine, the
// statistics (µs) of "both", "send" and "recv" → "a2a_phase" rows with the median as latency_us.
#include "calibrate/parse_util.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

class PplxImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    JsonNode root = JsonNode::from_json(
        parse_json(text, file, "", "expected pplx bench_all_to_all JSON"), file);
    Json out = parse::envelope("a2a_phase", "pplx-garden bench_all_to_all", file);
    for (const char* phase : {"dispatch", "combine"}) {
      JsonNode p = root.at(phase);
      for (const char* part : {"both", "send", "recv"}) {
        if (!p.has(part)) {
          if (std::string(part) == "both") p.at(part);  // "both" is required: raises the error
          continue;
        }
        JsonNode st = p.at(part);
        Json row = {{"phase", phase},
                    {"part", part},
                    {"stat", "median"},
                    {"latency_us", st.at("p50").non_negative()}};
        for (const char* k :
             {"mean", "stddev", "min", "p01", "p25", "p50", "p75", "p95", "p99", "max"})
          if (st.has(k))
            row[std::string(k == std::string("stddev") ? "std" : k) + "_us"] =
                st.at(k).non_negative();
        out["results"].push_back(row);
      }
    }
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "pplx",
               "pplx-garden bench_all_to_all.py --output JSON (dispatch/combine statistics, us)",
               [] { return std::make_unique<PplxImporter>(); })

}  // namespace pdsim
