#include "reports/report_colours.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace pdsim {
namespace {

constexpr const char* kEfa = "#D55E00";   // vermillion
constexpr const char* kRoce = "#0072B2";  // blue

// Decode-forward terms (sim/serve/cost/forward_terms.hpp) and tail mechanisms
// (sim/serve/mechanisms): named here so a page never recolours them by order of appearance.
constexpr std::array<std::pair<const char*, const char*>, 20> kTerms = {{
    {"dispatch", "#0072B2"},
    {"combine", "#D55E00"},
    {"moe_compute", "#009E73"},
    {"attention", "#CC79A7"},
    {"host", "#E69F00"},
    {"draft", "#56B4E9"},
    {"other", "#F0E442"},
    {"launch", "#000000"},
    {"collective", "#8C564B"},
    {"scheduler", "#7F7F7F"},
    {"batch_jump", "#1B9E77"},
    {"expert_imbalance", "#7570B3"},
    {"gc_pause", "#E7298A"},
    {"scheduler_hiccup", "#66A61E"},
    {"admission_work", "#A6761D"},
    {"fabric_background", "#E6AB02"},
    {"link_errors", "#666666"},
    {"path_flap", "#B2182B"},
    {"cuda_graph_miss", "#2166AC"},
    {"dp_imbalance", "#8073AC"},
}};

}  // namespace

const std::vector<std::string>& report_palette() {
  static const std::vector<std::string> p = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                             "#56B4E9", "#F0E442", "#000000", "#8C564B", "#7F7F7F"};
  return p;
}

std::string term_colour(const std::string& term) {
  std::string key = term;
  if (!key.empty() && key.front() == '+') key.erase(0, 1);  // "+batch_jump" in tail tables
  for (const auto& [name, colour] : kTerms)
    if (key == name) return colour;
  uint32_t h = 2166136261u;  // FNV-1a: the same name gets the same colour on every page
  for (unsigned char c : key) h = (h ^ c) * 16777619u;
  return report_palette()[h % report_palette().size()];
}

std::string fabric_family(const std::string& fabric_profile) {
  auto starts = [&](const char* p) { return fabric_profile.rfind(p, 0) == 0; };
  if (starts("efa")) return "efa";
  if (starts("roce") || starts("ib") || starts("cx")) return "roce";
  return "";
}

std::vector<std::string> run_colours(const std::vector<std::string>& fabric_profiles) {
  std::vector<std::string> out;
  auto taken = [&](const std::string& c) {
    return std::find(out.begin(), out.end(), c) != out.end();
  };
  for (const auto& f : fabric_profiles) {
    const std::string fam = fabric_family(f);
    const std::string own = fam == "efa" ? kEfa : fam == "roce" ? kRoce : "";
    if (!own.empty() && !taken(own)) {
      out.push_back(own);
      continue;
    }
    std::string pick = report_palette()[out.size() % report_palette().size()];
    for (const auto& c : report_palette())
      if (!taken(c) && c != kEfa && c != kRoce) {
        pick = c;
        break;
      }
    out.push_back(pick);
  }
  return out;
}

}  // namespace pdsim
