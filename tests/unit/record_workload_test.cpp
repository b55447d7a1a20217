// The workload a bench_serving record was run with (sim/scenario/record_workload) and FILE:LINE
// record references (calibrate/bench_serving_jsonl).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calibrate/bench_serving_jsonl.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/scenario/record_workload.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace record_workload_test {

JsonNode node(const std::string& text) {
  return JsonNode::from_json(parse_json(text, "r.jsonl line 3"), "r.jsonl line 3");
}

TEST(RecordWorkload, EveryDeclaredBenchServingFlagInDeclarationOrder) {
  // The keys bench_serving writes (formats.md); Python's inf reads as "inf"; completed is the
  // prompt count; keys that are no workload field (duration, backend) are not read.
  const auto sets = workload_from_record(
      node(R"({"backend": "sglang-oai", "dataset_name": "random", "request_rate": "inf",
               "max_concurrency": null, "random_input_len": 60000, "random_output_len": 1024,
               "random_range_ratio": 0.5, "completed": 16, "duration": 295.1})"));
  EXPECT_EQ(sets,
            (std::vector<std::string>{"workload.dataset=\"random\"", "workload.input_len=60000",
                                      "workload.output_len=1024", "workload.range_ratio=0.5",
                                      "workload.num_prompts=16", "workload.request_rate=\"inf\"",
                                      "workload.max_concurrency=null"}));
}

TEST(RecordWorkload, AbsentKeysStayWithTheScenario) {
  EXPECT_EQ(workload_from_record(node(R"({"completed": 4, "request_rate": 2})")),
            (std::vector<std::string>{"workload.num_prompts=4", "workload.request_rate=2.0"}));
}

TEST(RecordWorkload, AValueOutsideTheFieldNamesTheRecordKey) {
  std::string m = testing::input_error_of(
      [] { workload_from_record(node(R"({"dataset_name": "sharegpt"})")); });
  EXPECT_NE(m.find("r.jsonl line 3: field 'dataset_name'"), std::string::npos) << m;
  m = testing::input_error_of([] { workload_from_record(node(R"({"random_input_len": -5})")); });
  EXPECT_NE(m.find("field 'random_input_len'"), std::string::npos) << m;
}

TEST(RecordWorkload, RecordKeysOfFlags) {
  EXPECT_EQ(record_key_of_flag("--random-input-len"), "random_input_len");
  EXPECT_EQ(record_key_of_flag("--num-prompts"), "completed");
}

TEST(RecordRef, LineSuffixOnlyWhenTheWholeIsNoFile) {
  const auto dir = std::filesystem::temp_directory_path() / "pdsim_record_ref";
  std::filesystem::create_directories(dir);
  const std::string plain = (dir / "runs.jsonl").string(), odd = (dir / "a:7").string();
  std::ofstream(plain) << "{}\n";
  std::ofstream(odd) << "{}\n";
  EXPECT_EQ(split_record_ref(plain).path, plain);
  EXPECT_FALSE(split_record_ref(plain).line);
  EXPECT_EQ(split_record_ref(plain + ":2").path, plain);
  EXPECT_EQ(split_record_ref(plain + ":2").line, 2);
  EXPECT_FALSE(split_record_ref(odd).line);  // a file named a:7 is that file
  EXPECT_FALSE(split_record_ref(plain + ":x").line);
  EXPECT_FALSE(split_record_ref(plain + ":1234567890").line);  // ten digits: not a line number
  std::filesystem::remove_all(dir);
}

}  // namespace record_workload_test
}  // namespace pdsim
