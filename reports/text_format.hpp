#pragma once
// Formatting that reproduces Python's str.format as bench_serving uses it ("{:<40} {:<10.2f}",
// "{s:{c}^{n}}", repr of floats), plus lossless number text for CSV files.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string fmt_fixed(double v, int decimals);  // "%.*f"
std::string py_float_repr(double v);            // 0.4 → "0.4", 2 → "2.0", inf → "inf"
// "{:<40} {:<10}".format(label, value)
std::string bench_line(const std::string& label, const std::string& value);
// "{s:{c}^{n}}": the extra fill character goes to the right, as Python does.
std::string centered(const std::string& s, char fill, int width);
// A summary value as "{:.2f}" when it is a number, "n/a" when null or missing.
std::string summary_fixed(const Json& summary, const std::string& key, int decimals = 2);
std::string lossless(double v);  // shortest text that reads back to the same double
// lossless(v) appended to `out` without a temporary (the 10^6-row itl.csv).
void append_lossless(std::string& out, double v);
std::string csv_escape(const std::string& s);

}  // namespace pdsim
