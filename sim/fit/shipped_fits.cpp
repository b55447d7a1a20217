#include "sim/fit/shipped_fits.hpp"

#include <algorithm>
#include <filesystem>

#include "sim/core/data_path.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

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
    const Json doc = load_profile_overlay(file).doc;
    const Json params = doc.value("fit", Json::object()).value("parameters", Json::object());
    if (!params.is_object() || !params.contains(path)) continue;
    const Json& p = params[path];
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
