// The HTML form of a ReportDoc: one file, no network access needed. Chart.js is inlined; the
// charts' configurations travel as one JSON block that the page's script hands to Chart.js.
#include "reports/html_doc.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"

namespace pdsim {
namespace {

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

// Text inside <script> must not contain "</" (it could close the element): JSON and JS both
// read "<\/" as "</".
std::string script_safe(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    o += s[i];
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/') o += '\\';
  }
  return o;
}

const char* kStyle =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1180px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}p.sub{color:#555;margin:0 0 16px}
p.note{color:#666;font-size:13px;margin:0 0 6px}.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(540px,1fr));gap:18px}
.chart{position:relative;height:340px;border:1px solid #e3e6ec;border-radius:6px;padding:8px}
table{border-collapse:collapse;font-size:13px;margin:6px 0 12px;max-width:100%}th,td{border:1px solid #dde1e8;padding:3px 8px}td{overflow-wrap:break-word;min-width:2.5em}
th{background:#f3f5f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.tw{overflow-x:auto;max-width:100%}footer{color:#888;font-size:12px;margin-top:28px})";

// Hands each configuration to Chart.js; a tick callback shortens long axis numbers.
const char* kScript = R"(
(function(){
  var data = JSON.parse(document.getElementById('pdsim-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.font.size = 12;
  var drawn = 0;
  data.charts.forEach(function(c){
    var el = document.getElementById(c.id);
    if (!el) return;
    var cfg = c.config;
    cfg.options = cfg.options || {};
    cfg.options.responsive = true;
    cfg.options.maintainAspectRatio = false;
    // Datasets marked pdsimNoLegend (e.g. the p99 twin of a mean line) stay out of the legend.
    var legend = ((cfg.options.plugins = cfg.options.plugins || {}).legend = cfg.options.plugins.legend || {});
    legend.labels = legend.labels || {};
    legend.labels.filter = function(item, d){ return !d.datasets[item.datasetIndex].pdsimNoLegend; };
    new Chart(el, cfg);
    drawn++;
  });
  document.body.setAttribute('data-charts-rendered', String(drawn));
})();
)";

}  // namespace

std::string vendored_chart_js() {
  return read_file(data_root() + "/third_party/chartjs/chart.umd.min.js");
}

std::string render_html(const ReportDoc& doc, const std::string& chart_js) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                  html_escape(doc.title) + "</title>\n<style>" + kStyle + "</style>\n<script>\n" +
                  script_safe(chart_js) + "\n</script>\n</head>\n<body>\n<h1>" +
                  html_escape(doc.title) + "</h1>\n";
  if (!doc.subtitle.empty()) o += "<p class=\"sub\">" + html_escape(doc.subtitle) + "</p>\n";
  Json charts = Json::array();
  if (!doc.charts.empty()) o += "<div class=\"grid\">\n";
  for (const auto& c : doc.charts) {
    o += "<section><h2>" + html_escape(c.title) + "</h2>\n";
    if (!c.note.empty()) o += "<p class=\"note\">" + html_escape(c.note) + "</p>\n";
    o += "<div class=\"chart\"" +
         (c.height_px > 0 ? " style=\"height:" + std::to_string(c.height_px) + "px\""
                          : std::string()) +
         "><canvas id=\"" + html_escape(c.id) + "\"></canvas></div></section>\n";
    charts.push_back({{"id", c.id}, {"config", c.config}});
  }
  if (!doc.charts.empty()) o += "</div>\n";
  for (const auto& t : doc.tables) {
    o += "<h2>" + html_escape(t.title) + "</h2>\n<div class=\"tw\"><table id=\"t-" +
         html_escape(t.id) + "\"><tr>";
    for (const auto& col : t.columns) o += "<th>" + html_escape(col) + "</th>";
    o += "</tr>\n";
    for (const auto& row : t.rows) {
      o += "<tr>";
      for (size_t c = 0; c < row.size(); ++c) {
        const int dec = c < t.decimals.size() ? t.decimals[c] : -1;
        o += std::string(row[c].is_number() ? "<td class=\"n\">" : "<td>") +
             html_escape(cell_text(row[c], dec)) + "</td>";
      }
      o += "</tr>\n";
    }
    o += "</table></div>\n";
  }
  o += "<footer>pdsim report. Charts drawn with Chart.js (MIT), inlined.</footer>\n";
  o += "<script type=\"application/json\" id=\"pdsim-data\">" +
       script_safe(Json{{"charts", charts}}.dump()) + "</script>\n<script>" + kScript +
       "</script>\n</body></html>\n";
  return o;
}

}  // namespace pdsim
