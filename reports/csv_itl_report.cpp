// "csv-itl": every ITL sample bench_serving would pool — one row per streamed chunk after a
// request's first — with the chunk's time and token count (speculative chunks carry several).
#include "reports/report_writer.hpp"
#include "reports/text_format.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

class CsvItlReport : public ReportWriter {
 public:
  std::string render(const SimResults& r, const Json&) const override {
    std::string o = "request_id,chunk,time_s,itl_ms,tokens\n";
    size_t rows = 0;
    for (const auto& q : r.requests) rows += q.chunk_times_s.size();
    o.reserve(o.size() + rows * 48);  // ~45 bytes a row
    for (const auto& q : r.requests) {
      if (!q.completed) continue;
      const std::string id = std::to_string(q.id) + ",";
      const auto& t = q.chunk_times_s;
      for (size_t i = 1; i < t.size(); ++i) {
        o += id;
        o += std::to_string(i);
        o += ',';
        append_lossless(o, t[i]);
        o += ',';
        append_lossless(o, s_to_ms(t[i] - t[i - 1]));
        o += ',';
        if (i < q.chunk_tokens.size()) o += std::to_string(q.chunk_tokens[i]);
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
