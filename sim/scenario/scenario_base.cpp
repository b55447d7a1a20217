#include "sim/scenario/scenario_base.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

fs::path folder_of(const std::string& file) {
  const fs::path dir = fs::path(file).parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// One spelling per file for the cycle check and the messages: absolute, links resolved where
// they exist (a file named twice by different relative paths is the same link in a cycle).
std::string canonical_name(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  if (ec) c = fs::absolute(p, ec).lexically_normal();
  return ec ? p.string() : c.string();
}

std::string chain_text(const std::vector<std::string>& chain, const std::string& next) {
  std::string out;
  for (const auto& f : chain) out += f + " -> ";
  return out + next;
}

// The base file `b` names: beside the naming file first, then a name under the data directory.
// Not the working directory, so that the naming file means the same from any folder.
std::string resolve_base(const JsonNode& b) {
  if (!b.is_string())
    b.fail(
        "expected a string (a scenario file relative to this file's folder, or a name pdsim "
        "list prints), got " +
        std::string(b.raw().type_name()));
  const std::string ref = b.string();
  const fs::path dir = folder_of(b.file());
  const fs::path beside = fs::path(ref).is_absolute() ? fs::path(ref) : dir / ref;
  std::error_code ec;
  if (!ref.empty() && fs::is_regular_file(beside, ec)) return beside.string();
  if (auto named = named_file(ref, "scenarios")) return *named;
  b.fail("expected a scenario file relative to " + canonical_name(dir) +
         ", or a scenario name that pdsim list prints (" +
         (fs::path(data_root()) / "scenarios").string() + "/NAME.json); '" + excerpt(ref) +
         "' is neither");
}

// Follows `doc`'s base (if any) from the file `n` was read from; `chain` holds the canonical
// names of the files from the one loaded down to n's.
Json flatten(const JsonNode& n, std::vector<std::string>& chain) {
  if (!n.is_object() || !n.raw().contains("base")) return n.raw();
  const JsonNode b = n.at("base");
  const std::string base_file = resolve_base(b);
  const std::string name = canonical_name(base_file);
  if (std::find(chain.begin(), chain.end(), name) != chain.end())
    b.fail("expected a chain of bases without a cycle, got " + chain_text(chain, name));
  if (chain.size() > kMaxBaseDepth)
    b.fail("expected at most " + std::to_string(kMaxBaseDepth) + " bases in a chain, got " +
           chain_text(chain, name));
  chain.push_back(name);
  Json base = flatten(JsonNode::load_file(base_file), chain);
  chain.pop_back();
  // The base must be a scenario on its own: its errors name its file and the field in it.
  try {
    parse_scenario(JsonNode::from_json(base, base_file));
  } catch (const InputError& e) {
    if (e.file() != base_file) throw;
    throw InputError(e.file(), e.field(),
                     e.expected() + " (in the base of " + canonical_name(n.file()) + ")");
  }
  base = rebase_file_relative(std::move(base), folder_of(base_file).string());
  Json patch = n.raw();
  patch.erase("base");
  base.merge_patch(patch);
  return base;
}

// Splits "cluster.topology_file" into its keys.
std::vector<std::string> keys_of(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) out.push_back(k);
  return out;
}

void rebase_value(Json& v, const fs::path& folder) {
  if (v.is_array()) {
    for (Json& x : v) rebase_value(x, folder);
    return;
  }
  if (!v.is_string()) return;  // the reader names the ill-typed value
  const fs::path p(v.get<std::string>());
  if (p.empty() || p.is_absolute()) return;  // "" = none; an absolute path needs nothing
  std::error_code ec;
  const fs::path a = fs::absolute(folder / p, ec);
  v = (ec ? folder / p : a).lexically_normal().string();
}

}  // namespace

Json rebase_file_relative(Json doc, const std::string& folder) {
  for (const FieldInfo& f : scenario_fields()) {
    if (!f.spec.file_relative) continue;
    Json* at = &doc;
    for (const auto& k : keys_of(f.path)) {
      if (!at->is_object() || !at->contains(k)) {
        at = nullptr;
        break;
      }
      at = &(*at)[k];
    }
    if (at) rebase_value(*at, folder);
  }
  return doc;
}

JsonNode load_scenario_document(const std::string& path) {
  JsonNode n = JsonNode::load_file(path);
  if (!n.is_object() || !n.raw().contains("base")) return n;
  std::vector<std::string> chain{canonical_name(path)};
  return JsonNode::from_json(flatten(n, chain), path);
}

}  // namespace pdsim
