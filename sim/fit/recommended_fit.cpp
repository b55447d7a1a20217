#include "sim/fit/recommended_fit.hpp"

#include <sstream>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

std::vector<std::string> fit_specs_of_command(const std::string& command) {
  std::vector<std::string> out;
  std::istringstream in(command);
  for (std::string word; in >> word;)
    if (word == "--fit" && in >> word) out.push_back(word);
  return out;
}

std::vector<std::string> recommended_serving_fit() {
  const std::string file = data_root() + "/" + kRecommendedFitOverlay;
  const JsonNode cmd = JsonNode::load_file(file).at("provenance").at("command");
  std::vector<std::string> out = fit_specs_of_command(cmd.string());
  if (out.empty()) cmd.fail("a calibrate serving command with at least one --fit");
  return out;
}

}  // namespace pdsim
