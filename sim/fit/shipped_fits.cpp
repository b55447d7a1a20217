#include "sim/fit/shipped_fits.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/core/data_path.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

std::vector<ShippedFit> shipped_fits(const std::string& path, const std::string& profile) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(fs::path(data_root()) / "calibrate/overlays", ec))
    if (f.is_regular_file(ec) && f.path().extension() == ".json") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  std::vector<ShippedFit> out;
  for (const auto& file : files) {
    // The shared parse (sim/core/parsed_file_cache): read, never copied, on every run that holds
    // a parameter. Only the fit's recorded parameters are read; nothing is applied.
    const JsonNode node = JsonNode::load_file(file);
    const Json& doc = node.raw();
    if (!doc.is_object() || !doc.contains("fit")) continue;
    const Json& fit = doc["fit"];
    if (!fit.is_object() || !fit.contains("parameters") || !fit["parameters"].is_object() ||
        !fit["parameters"].contains(path))
      continue;
    const Json& p = fit["parameters"][path];
    if (p.value("profile", "") != profile || !p.contains("value") || !p["value"].is_number())
      continue;
    ShippedFit s{doc.value("name", fs::path(file).stem().string()), p["value"].get<double>(), {}};
    if (p.contains("std_error") && p["std_error"].is_number())
      s.std_error = p["std_error"].get<double>();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace pdsim
