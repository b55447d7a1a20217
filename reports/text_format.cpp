#include "reports/text_format.hpp"

#include <array>
#include <cmath>
#include <iomanip>
#include <locale>
#include <sstream>

#include "sim/core/text_align.hpp"

namespace pdsim {

std::string fmt_fixed(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream out;  // same digits as printf("%.*f"); classic locale: no separators
  out.imbue(std::locale::classic());
  out << std::fixed << std::setprecision(decimals) << v;
  return out.str();
}

std::string py_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return Json(v).dump();  // nlohmann writes the shortest round-trip form and keeps ".0"
}

std::string bench_line(const std::string& label, const std::string& value) {
  return pad(label, 40, true) + ' ' + pad(value, 10, true);
}

std::string centered(const std::string& s, char fill, int width) {
  const int pad = width - static_cast<int>(s.size());
  if (pad <= 0) return s;
  const int left = pad / 2;
  return std::string(static_cast<size_t>(left), fill) + s +
         std::string(static_cast<size_t>(pad - left), fill);
}

std::string summary_fixed(const Json& summary, const std::string& key, int decimals) {
  if (!summary.is_object() || !summary.contains(key) || !summary.at(key).is_number()) return "n/a";
  return fmt_fixed(summary.at(key).get<double>(), decimals);
}

std::string lossless(double v) {
  std::string out;
  append_lossless(out, v);
  return out;
}

void append_lossless(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "nan";
  } else if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
  } else {
    // What Json(v).dump() writes for a finite double (nlohmann's serializer calls the same
    // Grisu2 to_chars into a 64-byte buffer), without building a Json and a string per number.
    std::array<char, 64> buf{};
    char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), static_cast<size_t>(end - buf.data()));
  }
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace pdsim
