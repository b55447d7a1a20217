#pragma once
// The project's one stable 64-bit hash: seeds RNG streams from keys (memo keys, workload paths)
// and names sweep points in results files, so it must never change between builds or machines
// (no std::hash). FNV-1a's algorithm with the offset basis the project has always used,
// 1469598103934665603 (the standard 14695981039346656037 with its last digit dropped); changing
// it would rename every sweep point already in users' results files.
#include <cstdint>
#include <string>
#include <string_view>

namespace pdsim {

constexpr uint64_t fnv1a_64(std::string_view text) {
  uint64_t h = 1469598103934665603ULL;                                             // offset basis
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;  // prime
  return h;
}

// fnv1a_64 as 16 lower-case hex digits.
std::string stable_hash_hex(std::string_view text);

}  // namespace pdsim
