#pragma once
// Fixed colours for report charts, so that one study's pages agree: a forward term or tail
// mechanism has one colour wherever it appears (its place in a fixed list, else a hash of its
// name: never its position on the page), and a run is coloured by its fabric family (EFA
// vermillion, RoCE / InfiniBand blue) when it is the first run of that family on the page.
#include <string>
#include <vector>

namespace pdsim {

// Okabe–Ito colour-blind-safe hues, then extra distinct ones.
const std::vector<std::string>& report_palette();

// The colour of a breakdown term or tail mechanism ("dispatch", "batch_jump", ...).
std::string term_colour(const std::string& term);

// "efa", "roce" or "" (unknown) from a fabric profile name ("efa-p5en", "roce-cx7", "ib-...").
std::string fabric_family(const std::string& fabric_profile);
// One colour per run: its fabric family's colour if no earlier run took it, else the first
// palette colour no earlier run took (so two runs of one fabric still differ).
std::vector<std::string> run_colours(const std::vector<std::string>& fabric_profiles);

}  // namespace pdsim
