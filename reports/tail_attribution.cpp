#include "reports/tail_attribution.hpp"

#include <algorithm>
#include <sstream>

#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

const Json& tail_of(const Json& summary) {
  static const Json empty = Json::object();
  if (!summary.contains("pdsim") || !summary["pdsim"].contains("tail")) return empty;
  return summary["pdsim"]["tail"];
}

double get(const Json& j, std::initializer_list<const char*> path) {
  const Json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return 0;
    p = &(*p)[k];
  }
  return p->is_number() ? p->get<double>() : 0;
}

std::string ms(double us, bool sign = false) {
  const std::string v = fmt_fixed(us / 1000.0, 3);
  return sign && us >= 0 ? "+" + v : v;
}
std::string pct(double f) {
  return fmt_fixed(100.0 * f, 1) + "%";
}

std::vector<std::string> keys(const Json& obj) {
  std::vector<std::string> out;
  if (obj.is_object())
    for (auto it = obj.begin(); it != obj.end(); ++it) out.push_back(it.key());
  return out;
}

}  // namespace

Json tail_attribution_json(const Json& summary) {
  const Json& t = tail_of(summary);
  Json out = Json::object();
  if (!t.contains("top1pct")) return out;
  // null when the run is a predicted failure (no latencies).
  for (const char* m : {"p99_itl_ms", "max_itl_ms"})
    out[m] = summary.contains(m) ? summary[m] : Json(0.0);
  for (const auto& k : keys(t["top1pct"]["terms_us"])) {
    const double med = get(t, {"median", "terms_us", k.c_str()}),
                 top = get(t, {"top1pct", "terms_us", k.c_str()});
    out["terms_us"][k] = {{"median", med},
                          {"top1pct", top},
                          {"max", get(t, {"max", "terms_us", k.c_str()})},
                          {"top1pct_minus_median", top - med}};
  }
  for (const auto& k : keys(t["top1pct"]["mechanisms_us"]))
    out["mechanisms_us"][k] = {{"fired_all", get(t, {"all", k.c_str(), "fired_fraction"})},
                               {"median", get(t, {"median", "mechanisms_us", k.c_str()})},
                               {"top1pct", get(t, {"top1pct", "mechanisms_us", k.c_str()})},
                               {"fired_top1pct", get(t, {"top1pct", "fired_fraction", k.c_str()})},
                               {"max", get(t, {"max", "mechanisms_us", k.c_str()})}};
  out["requests_in_iteration"] = {{"median", get(t, {"median", "requests"})},
                                  {"top1pct", get(t, {"top1pct", "mean_requests"})},
                                  {"max", get(t, {"max", "requests"})}};
  if (t.contains("kv_overlap")) out["kv_overlap"] = t["kv_overlap"];
  return out;
}

std::string tail_attribution_text(const Json& summary) {
  const Json& t = tail_of(summary);
  if (!t.contains("top1pct")) return "";
  const Json a = tail_attribution_json(summary);
  std::ostringstream o;
  o << centered(" ITL tail attribution ", '-', 50) << "\n";
  o << "ITL samples " << fmt_fixed(get(t, {"itl_samples"}), 0)
    << "; worst 1%: " << fmt_fixed(get(t, {"top1pct", "samples"}), 0) << " samples in "
    << fmt_fixed(get(t, {"top1pct", "iterations"}), 0)
    << " iterations, ITL >= " << ms(get(t, {"top1pct", "threshold_us"})) << " ms; max "
    << ms(get(t, {"max", "itl_us"})) << " ms\n";
  o << column("term (ms per iteration)", 24) << column("median", 10) << column("top-1%", 10)
    << column("max", 10) << "top1%-median\n";
  double sums[3] = {0, 0, 0};
  for (const auto& k : keys(a["terms_us"])) {
    const Json& r = a["terms_us"][k];
    o << column("  " + k, 24) << column(ms(r["median"]), 10) << column(ms(r["top1pct"]), 10)
      << column(ms(r["max"]), 10) << ms(r["top1pct_minus_median"], true) << "\n";
    sums[0] += r["median"].get<double>();
    sums[1] += r["top1pct"].get<double>();
    sums[2] += r["max"].get<double>();
  }
  o << column("  total", 24) << column(ms(sums[0]), 10) << column(ms(sums[1]), 10)
    << column(ms(sums[2]), 10) << ms(sums[1] - sums[0], true) << "\n";
  const Json& rq = a["requests_in_iteration"];
  o << column("  requests served", 24) << column(fmt_fixed(rq["median"], 1), 10)
    << column(fmt_fixed(rq["top1pct"], 1), 10) << fmt_fixed(rq["max"], 1) << "\n";
  o << column("mechanism (ms added)", 24) << column("median", 10) << column("top-1%", 10)
    << column("max", 10) << column("fired", 8) << "fired@1%\n";
  for (const auto& k : keys(a["mechanisms_us"])) {
    const Json& r = a["mechanisms_us"][k];
    o << column("  " + k, 24) << column(ms(r["median"]), 10) << column(ms(r["top1pct"]), 10)
      << column(ms(r["max"]), 10) << column(pct(r["fired_all"]), 8) << pct(r["fired_top1pct"])
      << "\n";
  }
  if (a.contains("kv_overlap")) {
    const Json& k = a["kv_overlap"];
    o << "KV/PP flows on the decode nodes during the all-to-all: " << pct(k["iterations_share"])
      << " of iterations (" << pct(k["samples_share"]) << " of samples); stall mean "
      << fmt_fixed(k["stall_mean_us"].get<double>(), 1) << " us, p99 "
      << fmt_fixed(k["stall_p99_us"].get<double>(), 1) << " us, max "
      << fmt_fixed(k["stall_max_us"].get<double>(), 1) << " us\n";
  }
  return o.str();
}

Json tail_compare_json(const Json& sa, const Json& sb, const std::array<std::string, 2>& names) {
  const Json a = tail_attribution_json(sa), b = tail_attribution_json(sb);
  Json out = {{"a", names[0]}, {"b", names[1]}};
  for (const char* m : {"p99_itl_ms", "max_itl_ms"}) {
    const Json va = sa.contains(m) ? sa[m] : Json(0.0), vb = sb.contains(m) ? sb[m] : Json(0.0);
    out[m] = {{"a", va},
              {"b", vb},
              {"delta", va.is_number() && vb.is_number() ? Json(vb.get<double>() - va.get<double>())
                                                         : Json(nullptr)}};
  }
  for (const char* group : {"terms_us", "mechanisms_us"}) {
    std::vector<std::string> ks = keys(a.value(group, Json::object()));
    for (const auto& k : keys(b.value(group, Json::object())))
      if (std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
    for (const auto& k : ks)
      for (const char* col_name : {"top1pct", "max"}) {
        const double va = get(a, {group, k.c_str(), col_name}),
                     vb = get(b, {group, k.c_str(), col_name});
        out[group][k][col_name] = {{"a", va}, {"b", vb}, {"delta", vb - va}};
      }
  }
  return out;
}

std::string tail_compare_text(const Json& sa, const Json& sb,
                              const std::array<std::string, 2>& names) {
  const Json c = tail_compare_json(sa, sb, names);
  if (!c.contains("terms_us")) return "";
  std::ostringstream o;
  o << centered(" ITL tail: B - A and its causes ", '-', 50) << "\n";
  o << "A = " << names[0] << ", B = " << names[1] << "\n";
  o << column("", 24) << column("A", 10) << column("B", 10) << "B-A\n";
  for (const char* m : {"p99_itl_ms", "max_itl_ms"}) {
    auto f = [](const Json& v) { return v.is_number() ? fmt_fixed(v.get<double>(), 3) : "n/a"; };
    const Json& dl = c[m]["delta"];
    o << column(m, 24) << column(f(c[m]["a"]), 10) << column(f(c[m]["b"]), 10)
      << (dl.is_number() && dl.get<double>() >= 0 ? "+" : "") << f(dl) << "\n";
  }
  for (const char* view : {"top1pct", "max"}) {
    o << (std::string(view) == "top1pct" ? "worst 1% of ITL samples, mean ms:\n"
                                         : "maximum ITL sample, ms:\n");
    for (const char* group : {"terms_us", "mechanisms_us"})
      for (const auto& k : keys(c[group])) {
        const Json& r = c[group][k][view];
        if (r["a"].get<double>() == 0 && r["b"].get<double>() == 0) continue;
        o << column(std::string(group) == "terms_us" ? "  " + k : "  +" + k, 24)
          << column(ms(r["a"]), 10) << column(ms(r["b"]), 10) << ms(r["delta"], true) << "\n";
      }
  }
  o << "(terms sum to the ITL; +mechanisms are the parts of those terms each mechanism added)\n";
  return o.str();
}

}  // namespace pdsim
