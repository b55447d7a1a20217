#pragma once
// Profile overlays (schema "pdsim.profile_overlay/1"): values that replace fields of the profiles
// a scenario uses, with their provenance. `pdsim calibrate serving` writes them; a scenario lists
// them under `profile_overlays` (and `--profile-overlay FILE` adds one).
//   {"schema": "pdsim.profile_overlay/1", "name": "...", "provenance": {...},
//    "profiles": {"<kind>": {"profile": "<the profile it was fitted on>", "set": {<fields>}}},
//    "fit": {...}}
// Kinds: fabric, gpu, serving, acceptance, collective. A section applies only to the profile it
// names, so what was learned on one fabric never moves silently to another: the RoCE scenario takes
// an EFA overlay's fabric-independent sections (serving stack, GPU, acceptance) and skips its
// fabric section, and says so. Every field a section sets must already be a number in the profile
// (or a list of numbers of the same length: a curve's points).
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

constexpr const char* kProfileOverlaySchema = "pdsim.profile_overlay/1";
constexpr const char* kOverlayKinds[] = {"fabric", "gpu", "serving", "acceptance", "collective"};

struct ProfileOverlay {
  std::string file;  // where it came from (messages); "" for one built in memory
  Json doc;
};

// InputError naming the file and field for a malformed overlay.
// `arg`: a file, or a name `pdsim list` prints (calibrate/overlays/NAME.json).
ProfileOverlay load_profile_overlay(const std::string& arg);
ProfileOverlay profile_overlay_from_json(Json doc, const std::string& file);

// Applies, in order, every overlay's section for `kind` whose profile is `profile_name` to the
// profile document `doc` (loaded from `profile_file`). Returns what was applied or skipped, per
// overlay, for the run's provenance.
Json apply_profile_overlays(const std::vector<ProfileOverlay>& overlays, const std::string& kind,
                            const std::string& profile_name, const std::string& profile_file,
                            Json& doc);

// One no-effect warning per overlay that `log` (apply_profile_overlays' records, all kinds)
// shows applied to none of the run's profiles, with each section's reason.
std::vector<std::string> overlays_applying_nowhere(const std::vector<ProfileOverlay>& overlays,
                                                   const Json& log);

}  // namespace pdsim
