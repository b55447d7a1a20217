// sim/core/parsed_file_cache through JsonNode::load_file: one parse per distinct bytes of a file,
// a rewritten file parsed again, a bad document never kept, large files never kept.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/core/parsed_file_cache.hpp"

namespace pdsim {
namespace {

class ParsedFileCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pdsim_parsed_file_cache_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::trunc) << text;
    return p;
  }
  std::filesystem::path dir_;
};

TEST_F(ParsedFileCache, TheSameBytesAreParsedOnceAndShared) {
  const std::string p = write("a.json", R"({"x": 1})");
  const JsonNode a = JsonNode::load_file(p), b = JsonNode::load_file(p);
  EXPECT_EQ(&a.raw(), &b.raw());  // one document
  EXPECT_EQ(b.at("x").integer(), 1);
  EXPECT_EQ(b.file(), p);
  int parses = 0;
  auto count = [&](const std::string& bytes) {
    ++parses;
    return Json::parse(bytes);
  };
  const std::string q = (dir_ / "direct").string();
  const auto d1 = parsed_file(q, R"({"y": 2})", count);
  const auto d2 = parsed_file(q, R"({"y": 2})", count);
  EXPECT_EQ(parses, 1);
  EXPECT_EQ(d1.get(), d2.get());
  // other bytes under the same path: parsed again, and that parse kept
  EXPECT_EQ((*parsed_file(q, R"({"y": 3})", count))["y"], 3);
  EXPECT_EQ(parses, 2);
  parsed_file(q, R"({"y": 3})", count);
  EXPECT_EQ(parses, 2);
}

TEST_F(ParsedFileCache, ARewrittenFileIsParsedAgain) {
  const std::string p = write("b.json", R"({"x": 1})");
  EXPECT_EQ(JsonNode::load_file(p).at("x").integer(), 1);
  write("b.json", R"({"x": 22})");  // same path, same size class, other bytes
  EXPECT_EQ(JsonNode::load_file(p).at("x").integer(), 22);
}

TEST_F(ParsedFileCache, ABadDocumentIsNotKept) {
  const std::string p = write("c.json", R"({"x": )");
  EXPECT_THROW(JsonNode::load_file(p), InputError);
  EXPECT_THROW(JsonNode::load_file(p), InputError);  // still an error, not a cached document
  write("c.json", R"({"x": 5})");
  EXPECT_EQ(JsonNode::load_file(p).at("x").integer(), 5);
}

TEST_F(ParsedFileCache, AFileAboveTheBoundIsParsedEveryTime) {
  int parses = 0;
  auto count = [&](const std::string&) {
    ++parses;
    return Json::object();
  };
  const std::string big(kMaxCachedFileBytes + 1, ' ');
  const auto d1 = parsed_file("big", big, count);
  const auto d2 = parsed_file("big", big, count);
  EXPECT_EQ(parses, 2);
  EXPECT_NE(d1.get(), d2.get());
}

}  // namespace
}  // namespace pdsim
