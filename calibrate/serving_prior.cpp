#include "calibrate/serving_prior.hpp"

#include <algorithm>

#include "calibrate/fit_profile.hpp"

namespace pdsim {
namespace {

constexpr const char* kProbe = "a2a_serving_excess";

}  // namespace

std::vector<std::string> serving_prior_backends(const std::vector<JsonNode>& docs) {
  std::vector<std::string> out;
  for (const auto& d : docs) {
    if (d.at("probe").string() != kProbe) continue;
    const JsonNode rows = d.at("results");
    for (size_t i = 0; i < rows.size(); ++i) out.push_back(rows.at(i).at("backend").string());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ServingPrior serving_fixed_prior(const std::string& backend, const std::vector<JsonNode>& docs) {
  ServingPrior p;
  Json rows_json = Json::array();
  std::string figures;
  for (const auto& d : docs) {
    if (d.at("probe").string() != kProbe) continue;
    const JsonNode rows = d.at("results");
    for (size_t i = 0; i < rows.size(); ++i) {
      const JsonNode r = rows.at(i);
      r.expect_only({"backend", "phase", "serving_us", "unit_test_us"});
      if (r.at("backend").string() != backend) continue;
      const std::string phase = r.at("phase").string();
      if (phase != "dispatch" && phase != "combine")
        r.at("phase").fail("expected \"dispatch\" or \"combine\"");
      const double serving = r.at("serving_us").non_negative();
      const double unit = r.at("unit_test_us").non_negative();
      if (serving < unit)
        r.at("serving_us")
            .fail("expected the serving time >= unit_test_us (" + fmt_g4(unit) +
                  "): a serving system does not run a phase faster than the "
                  "library's own test");
      const double excess = serving - unit;
      p.upper_us = std::max(p.upper_us, excess);  // excess >= 0, upper starts at 0
      p.found = true;
      rows_json.push_back({{"file", provenance_path(d.file())},
                           {"row", i},
                           {"phase", phase},
                           {"serving_us", serving},
                           {"unit_test_us", unit},
                           {"excess_us", excess}});
      figures += (figures.empty() ? "" : "; ") + phase + " " + fmt_g4(serving) +
                 " us in serving vs " + fmt_g4(unit) + " us in the unit test (" +
                 d.at("provenance").str_or("source", provenance_path(d.file())) + ")";
    }
  }
  if (!p.found) return p;
  p.lower_us = 0;
  p.value_us = 0.5 * (p.lower_us + p.upper_us);
  p.basis = "uniform on [0, " + fmt_g4(p.upper_us) + "] us per phase, value its mean: " + figures +
            ". The excess bounds the term from above (it also holds the wait for the slowest "
            "rank, which the routing samples model in part); the figure of one phase is taken "
            "for both";
  p.report = {{"rows", rows_json},
              {"rule",
               "prior uniform on [0, max(serving_us - unit_test_us)], value = its mean; one "
               "phase's figure bounds both phases (fixed_us is one parameter)"},
              {"lower_us", p.lower_us},
              {"upper_us", p.upper_us},
              {"value_us", p.value_us}};
  return p;
}

}  // namespace pdsim
