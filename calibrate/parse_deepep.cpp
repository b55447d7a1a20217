// DeepEP / UCCL-EP test output (test_low_latency.py, test_internode.py): "a2a_phase" rows from
// the bandwidth/time lines (no "backend": the output does not say; add it to the file's
// parameters or context); "[tuning] Best ..." lines come from the normal-mode tests and are
// marked "mode": "normal"; the "[config] k=v, ..." line fills parameters (num_tokens →
// tokens_per_rank, hidden, num_topk → top_k, num_experts, num_ranks → ep);
// every other line of the test's chatter is ignored. A line that starts like a known result but
// does not finish like one is an error (truncated or changed format), not silently dropped.
#include <cmath>

#include "calibrate/parse_util.hpp"

namespace pdsim {
namespace {

using parse::Scanner;

struct Ctx {
  const std::string& file;
  size_t line_no;
  Json& results;
  [[noreturn]] void bad(const std::string& want) const { parse::fail_line(file, line_no, want); }
  // Every number of these lines is a bandwidth, a time, an SM count or a chunk size.
  double num(Scanner& s, const std::string& want) const {
    auto v = s.number();
    if (!v) bad(want);
    return parse::measured(v, "value (GB/s, us or a count)", file, line_no);
  }
  void need(bool ok, const std::string& want) const {
    if (!ok) bad(want);
  }
};

// "[rank R] Dispatch + combine bandwidth: X GB/s, avg_t=A us, min_t=B us, max_t=C us"
void both_line(Scanner& s, double rank, const Ctx& c) {
  const std::string want =
      "expected '[rank R] Dispatch + combine bandwidth: X GB/s, avg_t=A us, min_t=B us, max_t=C "
      "us'";
  double gbps = c.num(s, want);
  c.need(s.lit("GB/s,") && s.lit("avg_t="), want);
  double avg = c.num(s, want);
  c.need(s.lit("us,") && s.lit("min_t="), want);
  double mn = c.num(s, want);
  c.need(s.lit("us,") && s.lit("max_t="), want);
  double mx = c.num(s, want);
  c.need(s.lit("us"), want);
  c.results.push_back({{"phase", "dispatch+combine"},
                       {"rank", rank},
                       {"GBps", gbps},
                       {"latency_us", avg},
                       {"stat", "mean"},
                       {"min_us", mn},
                       {"max_us", mx}});
}

// "[rank R] Dispatch bandwidth: X GB/s, avg_t=A us | Combine bandwidth: Y GB/s, avg_t=B us"
void split_line(Scanner& s, double rank, const Ctx& c) {
  const std::string want =
      "expected '[rank R] Dispatch bandwidth: X GB/s, avg_t=A us | Combine bandwidth: Y GB/s, "
      "avg_t=B us'";
  for (const char* phase : {"dispatch", "combine"}) {
    if (std::string(phase) == "combine") c.need(s.lit("|") && s.lit("Combine bandwidth:"), want);
    double gbps = c.num(s, want);
    c.need(s.lit("GB/s,") && s.lit("avg_t="), want);
    double avg = c.num(s, want);
    c.need(s.lit("us"), want);
    c.results.push_back(
        {{"phase", phase}, {"rank", rank}, {"GBps", gbps}, {"latency_us", avg}, {"stat", "mean"}});
  }
}

// "[rank R] Dispatch send/recv time: S + R us | Combine send/recv time: S2 + R2 us"
void send_recv_line(Scanner& s, double rank, const Ctx& c) {
  const std::string want =
      "expected '[rank R] Dispatch send/recv time: S + R us | Combine send/recv time: S + R us'";
  for (const char* phase : {"dispatch", "combine"}) {
    if (std::string(phase) == "combine")
      c.need(s.lit("|") && s.lit("Combine send/recv time:"), want);
    double send = c.num(s, want);
    c.need(s.lit("+"), want);
    double recv = c.num(s, want);
    c.need(s.lit("us"), want);
    for (auto [part, v] : {std::pair{"send", send}, std::pair{"recv", recv}})
      c.results.push_back(
          {{"phase", phase}, {"part", part}, {"rank", rank}, {"latency_us", v}, {"stat", "mean"}});
  }
}

// "[tuning] Best dispatch (FP8): SMs 24, NVL chunk 8, RDMA chunk 16: N + T us, X GB/s (RDMA),
//  Y GB/s (NVL)" (DeepEP) or "...: transmit: T us, notify: N us, BW: X GB/s (RDMA), Y GB/s (NVL)"
// (UCCL-EP).
void tuning_line(Scanner& s, const Ctx& c) {
  const std::string want =
      "expected '[tuning] Best <phase> [(precision)]: SMs S, NVL chunk C, RDMA chunk R: "
      "<notify> + <t> us, X GB/s (RDMA), Y GB/s (NVL)' or the UCCL-EP 'transmit: T us, notify: N "
      "us, BW: X GB/s (RDMA), Y GB/s (NVL)' form";
  auto phase = s.word();
  c.need(phase.has_value(), want);
  Json row = {{"phase", parse::text_token(*phase, c.file, c.line_no)},
              {"stat", "best"},
              {"mode", "normal"}};
  if (s.lit("(")) {
    auto prec = s.word();
    c.need(prec && s.lit(")"), want);
    row["precision"] = parse::text_token(*prec, c.file, c.line_no);
  }
  c.need(s.lit(":") && s.lit("SMs"), want);
  row["sms"] = c.num(s, want);
  c.need(s.lit(",") && s.lit("NVL chunk"), want);
  row["nvl_chunk"] = c.num(s, want);
  c.need(s.lit(","), want);
  if (s.lit("RDMA chunk")) {
    row["rdma_chunk"] = c.num(s, want);
  }
  c.need(s.lit(":"), want);
  if (s.lit("transmit:")) {
    row["variant"] = "uccl-ep";
    row["latency_us"] = c.num(s, want);
    c.need(s.lit("us,") && s.lit("notify:"), want);
    row["notify_us"] = c.num(s, want);
    c.need(s.lit("us,") && s.lit("BW:"), want);
  } else {
    row["notify_us"] = c.num(s, want);
    c.need(s.lit("+"), want);
    row["latency_us"] = c.num(s, want);
    c.need(s.lit("us,"), want);
  }
  row["rdma_GBps"] = c.num(s, want);
  c.need(s.lit("GB/s") && s.lit("(RDMA),"), want);
  row["nvl_GBps"] = c.num(s, want);
  c.need(s.lit("GB/s") && s.lit("(NVL)"), want);
  c.results.push_back(row);
}

// "[config] num_tokens=128, hidden=7168, num_topk=8[, num_experts=256, num_ranks=16, ...]"
// (separators and the set of keys differ between DeepEP, UCCL-EP and forks; unknown keys and
// non-numeric values are ignored).
void config_line(std::string_view rest, Json& params) {
  static const std::pair<const char*, const char*> keys[] = {{"num_tokens", "tokens_per_rank"},
                                                             {"hidden", "hidden"},
                                                             {"num_topk", "top_k"},
                                                             {"num_experts", "num_experts"},
                                                             {"num_ranks", "ep"}};
  for (std::string_view tok : parse::tokens_of(rest)) {
    while (!tok.empty() && tok.back() == ',') tok.remove_suffix(1);
    const size_t eq = tok.find('=');
    if (eq == std::string_view::npos) continue;
    const auto v = parse::to_number(tok.substr(eq + 1));
    // Range first: casting a double beyond int64 is undefined (the fuzzer finds such lines).
    if (!v || !(*v > 0 && *v < 1e15) || *v != std::floor(*v)) continue;
    for (const auto& [from, to] : keys)
      if (tok.substr(0, eq) == from) params[to] = static_cast<int64_t>(*v);
  }
}

class DeepepImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    Json out = parse::envelope("a2a_phase", "deepep", file);
    const auto lines = parse::lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      Ctx c{file, i + 1, out["results"]};
      Scanner s(lines[i]);
      if (parse::starts_with(parse::trim(lines[i]), "[config]")) {
        config_line(parse::trim(lines[i]).substr(8), out["parameters"]);
        continue;
      }
      if (s.lit("[tuning]")) {
        if (s.lit("Best")) tuning_line(s, c);
        continue;
      }
      if (!s.lit("[rank")) continue;
      auto rank = s.number();
      if (!rank || !s.lit("]")) continue;
      if (s.lit("Dispatch + combine bandwidth:"))
        both_line(s, *rank, c);
      else if (s.lit("Dispatch bandwidth:"))
        split_line(s, *rank, c);
      else if (s.lit("Dispatch send/recv time:"))
        send_recv_line(s, *rank, c);
    }
    if (out["results"].empty())
      throw InputError(
          file, "",
          "expected DeepEP/UCCL-EP result lines ('[rank R] Dispatch ...' or '[tuning] Best ...')");
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "deepep",
               "DeepEP / UCCL-EP test_low_latency.py and test_internode.py output",
               [] { return std::make_unique<DeepepImporter>(); })

}  // namespace pdsim
