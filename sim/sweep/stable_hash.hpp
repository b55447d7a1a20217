#pragma once
// A stable 64-bit FNV-1a hash as 16 hex digits: names sweep points and sweeps in results files,
// so it must never change between builds or machines (no std::hash).
#include <string>
#include <string_view>

namespace pdsim {

std::string stable_hash_hex(std::string_view text);

}  // namespace pdsim
