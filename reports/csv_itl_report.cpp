// "csv-itl": every ITL sample bench_serving would pool — one row per streamed chunk after a
// request's first — with the chunk's time and token count (speculative chunks carry several).
#include <algorithm>
#include <bit>
#include <charconv>

#include "reports/lossless_memo.hpp"
#include "reports/report_writer.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

// std::to_string's text without its temporary string.
void append_int(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

class CsvItlReport : public ReportWriter {
 public:
  std::string render(const SimResults& r, const Json&) const override {
    std::string o = "request_id,chunk,time_s,itl_ms,tokens\n";
    size_t rows = 0;
    for (const auto& q : r.requests) rows += q.chunk_times_s.size();
    o.reserve(o.size() + rows * 48);  // ~45 bytes a row
    // Slots for about as many distinct times as rows (2^17 at most: 4 MiB); gaps repeat more.
    const int bits = std::clamp(static_cast<int>(std::bit_width(rows)), 8, 17);
    LosslessMemo times(bits), gaps(std::min(bits, 12));
    for (const auto& q : r.requests) {
      if (!q.completed) continue;
      std::string id;
      append_int(id, q.id);
      id += ',';
      const auto& t = q.chunk_times_s;
      for (size_t i = 1; i < t.size(); ++i) {
        o += id;
        append_int(o, static_cast<long long>(i));
        o += ',';
        times.append(o, t[i]);
        o += ',';
        gaps.append(o, s_to_ms(t[i] - t[i - 1]));
        o += ',';
        if (i < q.chunk_tokens.size()) append_int(o, q.chunk_tokens[i]);
        o += '\n';
      }
    }
    return o;
  }
  std::string file_name() const override { return "itl.csv"; }
};

}  // namespace

PDSIM_REGISTER(ReportWriterRegistry, "csv-itl",
               "itl.csv: every inter-chunk gap (the pooled ITL samples) with chunk time and tokens",
               [] { return std::make_unique<CsvItlReport>(); })

}  // namespace pdsim
