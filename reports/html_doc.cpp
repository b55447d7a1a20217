#include "reports/html_doc.hpp"

#include "reports/text_format.hpp"

namespace pdsim {

std::string cell_text(const Json& cell, int decimals) {
  if (cell.is_null()) return "n/a";
  if (cell.is_string()) return cell.get<std::string>();
  if (cell.is_boolean()) return cell.get<bool>() ? "yes" : "no";
  if (cell.is_number_integer()) return std::to_string(cell.get<long long>());
  if (cell.is_number())
    return decimals < 0 ? lossless(cell.get<double>()) : fmt_fixed(cell.get<double>(), decimals);
  return cell.dump();
}

namespace {

int decimals_of(const ReportTable& t, size_t col) {
  return col < t.decimals.size() ? t.decimals[col] : -1;
}

std::string md_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|')
      o += "\\|";
    else if (c == '\n')
      o += ' ';
    else
      o += c;
  }
  return o;
}

std::string csv_cell(const Json& cell) {
  if (cell.is_null()) return "";
  if (cell.is_string()) return csv_escape(cell.get<std::string>());
  if (cell.is_boolean()) return cell.get<bool>() ? "true" : "false";
  if (cell.is_number_integer()) return std::to_string(cell.get<long long>());
  if (cell.is_number()) return lossless(cell.get<double>());
  return csv_escape(cell.dump());
}

}  // namespace

std::string render_markdown(const ReportDoc& doc) {
  std::string o = "# " + md_escape(doc.title) + "\n\n";
  if (!doc.subtitle.empty()) o += md_escape(doc.subtitle) + "\n\n";
  for (const auto& t : doc.tables) {
    o += "## " + md_escape(t.title) + "\n\n|";
    std::string rule = "|";
    for (size_t c = 0; c < t.columns.size(); ++c) {
      o += " " + md_escape(t.columns[c]) + " |";
      rule += decimals_of(t, c) >= 0 ? "---:|" : "---|";
    }
    o += "\n" + rule + "\n";
    for (const auto& row : t.rows) {
      o += "|";
      for (size_t c = 0; c < row.size(); ++c)
        o += " " + md_escape(cell_text(row[c], decimals_of(t, c))) + " |";
      o += "\n";
    }
    if (t.rows.empty()) o += "| (none) |\n";
    o += "\n";
  }
  return o;
}

std::string render_csv(const ReportDoc& doc) {
  std::string o = "table,row,column,value\n";
  for (const auto& t : doc.tables)
    for (size_t r = 0; r < t.rows.size(); ++r)
      for (size_t c = 0; c < t.rows[r].size() && c < t.columns.size(); ++c)
        o += csv_escape(t.id) + "," + std::to_string(r) + "," + csv_escape(t.columns[c]) + "," +
             csv_cell(t.rows[r][c]) + "\n";
  return o;
}

}  // namespace pdsim
