// read_file: bounded, regular files only, errno text for open failures.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/core/output_target.hpp"
#include "sim/core/read_file.hpp"

namespace pdsim {
namespace {

std::string error_of(const std::string& path, uint64_t max_bytes = kMaxInputBytes) {
  try {
    read_file(path, max_bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class ReadFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("pdsim_read_file_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(ReadFile, ReadsARegularFile) {
  std::ofstream(path("a.json")) << "{\"x\": 1}";
  EXPECT_EQ(read_file(path("a.json")), "{\"x\": 1}");
  EXPECT_EQ(JsonNode::load_file(path("a.json")).at("x").integer(), 1);
}

TEST_F(ReadFile, MissingFileGivesTheErrnoText) {
  EXPECT_EQ(error_of(path("nope.json")),
            path("nope.json") + ": cannot open file for reading: No such file or directory");
}

TEST_F(ReadFile, DirectoryIsNotAFile) {
  // Before: "expected valid JSON: ... unexpected end of input".
  EXPECT_EQ(error_of(dir_.string()), dir_.string() + ": expected a regular file, got a directory");
}

TEST_F(ReadFile, FifoFailsAtOnceInsteadOfBlocking) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(error_of(path("fifo")),
            path("fifo") + ": expected a regular file, got a device, FIFO or socket");
}

TEST_F(ReadFile, DevZeroIsRefusedInsteadOfReadUntilMemoryRunsOut) {
  EXPECT_EQ(error_of("/dev/zero"),
            "/dev/zero: expected a regular file, got a device, FIFO or socket");
  try {
    JsonNode::load_file("/dev/zero");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/dev/zero: expected a regular file, got a device, FIFO or socket");
  }
}

TEST_F(ReadFile, FilesAboveTheBoundAreRefused) {
  EXPECT_EQ(kMaxInputBytes, uint64_t{1} << 30);
  std::ofstream(path("big")) << std::string(100, 'x');
  EXPECT_EQ(read_file(path("big"), 100).size(), 100u);
  EXPECT_EQ(error_of(path("big"), 99),
            path("big") + ": expected a file of at most 99 bytes, got 100 bytes");
}

// /proc files report size 0: everything comes from the reads after the sized one (a small probe,
// then the 64 KiB buffer when there is more than the probe holds).
TEST_F(ReadFile, AFileThatReportsSizeZeroIsReadWhole) {
  const std::string status = read_file("/proc/self/status");
  EXPECT_EQ(status.rfind("Name:", 0), 0u);
  EXPECT_GT(status.size(), 256u);
  EXPECT_EQ(status.back(), '\n');
  // beyond the bound while growing: refused
  try {
    read_file("/proc/self/status", 100);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("got more (it grew while being read)"), std::string::npos);
  }
}

}  // namespace
}  // namespace pdsim

namespace pdsim {
namespace atomic_file_test {

// -o onto something that is not a regular file is refused, the thing left as it was (issue 31).
TEST(WriteFileAtomic, NeverReplacesALinkAFifoOrADirectory) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pdsim_atomic_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string file = (dir / "real.json").string(), link = (dir / "link.json").string(),
                    fifo = (dir / "fifo").string(), sub = (dir / "sub").string();
  write_file_atomic(file, "old");
  fs::create_symlink(file, link);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_directories(sub);
  auto refused = [](const std::string& p) {
    try {
      write_file_atomic(p, "new");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused(link).find("exists as a symbolic link"), std::string::npos);
  EXPECT_NE(refused(fifo).find("exists as a FIFO"), std::string::npos);
  EXPECT_NE(refused(sub).find("exists as a directory"), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(read_file(file), "old");
  write_file_atomic(file, "new");  // a regular file is replaced
  EXPECT_EQ(read_file(file), "new");
  fs::remove_all(dir);
}

}  // namespace atomic_file_test
}  // namespace pdsim

namespace pdsim {
namespace output_target_test {

TEST(OutputTarget, SameFileAndChecksBeforeTheWork) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pdsim_target_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  const std::string in = (dir / "in.json").string();
  write_file_atomic(in, "{}");
  EXPECT_TRUE(same_file(in, (dir / "sub" / ".." / "in.json").string()));
  EXPECT_FALSE(same_file(in, (dir / "out.json").string()));
  auto error = [&](const std::string& path) {
    try {
      check_output_file("-o", path, {in});
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error(in).find("a file other than this command's inputs"), std::string::npos);
  EXPECT_NE(error((dir / "sub").string()).find("a regular file or a new name"), std::string::npos);
  EXPECT_NE(error(in + "/x.json").find("is not a directory"), std::string::npos);
  EXPECT_EQ(error((dir / "new" / "deeper" / "o.json").string()), "");  // created when written
  fs::remove_all(dir);
}

}  // namespace output_target_test
}  // namespace pdsim
