// "csv-requests": one row per request. Latencies in ms (bench_serving's unit), timestamps in
// simulated seconds; a timestamp the request never reached (-1 in the record) is left empty,
// as is tpot_ms for output_len ≤ 1 (bench_serving skips those).
#include "reports/report_writer.hpp"
#include "reports/text_format.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

std::string stamp(double t_s) {
  return t_s < 0 ? std::string() : lossless(t_s);
}

class CsvRequestsReport : public ReportWriter {
 public:
  std::string render(const SimResults& r, const Json&) const override {
    std::string o =
        "id,arrival_s,input_len,output_len,completed,ttft_ms,e2e_ms,tpot_ms,chunks,"
        "prefill_instance,decode_instance,decode_rank,prefill_start_s,prefill_end_s,kv_start_s,"
        "kv_end_s,decode_reserved_s,finish_s\n";
    for (const auto& q : r.requests) {
      const bool done = q.completed;
      const double ttft_s = q.ttft_s(), e2e_s = q.e2e_s();
      o += std::to_string(q.id) + "," + lossless(q.arrival_s) + "," + std::to_string(q.input_len) +
           "," + std::to_string(q.output_len) + "," + (done ? "1" : "0") + ",";
      o += (done && !q.chunk_times_s.empty() ? lossless(s_to_ms(ttft_s)) : "") + ",";
      o += (done ? lossless(s_to_ms(e2e_s)) : "") + ",";
      o += (done && q.output_len > 1 ? lossless(s_to_ms((e2e_s - ttft_s) / (q.output_len - 1)))
                                     : "") +
           ",";
      o += std::to_string(q.chunk_times_s.size()) + "," + std::to_string(q.prefill_instance) + "," +
           std::to_string(q.decode_instance) + "," + std::to_string(q.decode_rank) + ",";
      o += stamp(q.prefill_start_s) + "," + stamp(q.prefill_end_s) + "," + stamp(q.kv_start_s) +
           "," + stamp(q.kv_end_s) + "," + stamp(q.decode_reserved_s) + "," + stamp(q.finish_s) +
           "\n";
    }
    return o;
  }
  std::string file_name() const override { return "requests.csv"; }
};

}  // namespace

PDSIM_REGISTER(ReportWriterRegistry, "csv-requests",
               "requests.csv: per-request latencies, timestamps, instance and rank",
               [] { return std::make_unique<CsvRequestsReport>(); })

}  // namespace pdsim
