// "csv-itl": every ITL sample bench_serving would pool — one row per streamed chunk after a
// request's first — with the chunk's time and token count (speculative chunks carry several).
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <string_view>

#include "reports/lossless_memo.hpp"
#include "reports/report_writer.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

// std::to_string's text, written at p; returns the end.
char* put_int(char* p, long long v) {
  return std::to_chars(p, p + 24, v).ptr;
}

char* put_text(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
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
      const auto& t = q.chunk_times_s;
      // Each row is built in a buffer and appended once: at most 11 + 20 + 24 + 24 + 11 characters
      // and 5 separators.
      std::array<char, 128> row;
      char* const after_id = put_int(row.data(), q.id);
      *after_id = ',';
      for (size_t i = 1; i < t.size(); ++i) {
        char* p = put_int(after_id + 1, static_cast<long long>(i));
        *p++ = ',';
        p = put_text(p, times.text(t[i]));
        *p++ = ',';
        p = put_text(p, gaps.text(s_to_ms(t[i] - t[i - 1])));
        *p++ = ',';
        if (i < q.chunk_tokens.size()) p = put_int(p, q.chunk_tokens[i]);
        *p++ = '\n';
        o.append(row.data(), static_cast<size_t>(p - row.data()));
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
