// `aws ec2 describe-instance-topology` JSON: one "topology" row per instance with its network
// nodes (top layer first; instances sharing a deeper node are closer). Stopped instances list
// no nodes and are kept with an empty list.
#include "calibrate/parse_util.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

class AwsTopologyImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    JsonNode root = JsonNode::from_json(
        parse_json(text, file, "", "expected describe-instance-topology JSON"), file);
    JsonNode inst = root.at("Instances");
    if (!inst.is_array()) inst.fail("expected an array of instances");
    Json out = parse::envelope("topology", "aws ec2 describe-instance-topology", file);
    for (size_t i = 0; i < inst.size(); ++i) {
      JsonNode in = inst.at(i);
      JsonNode nodes = in.at("NetworkNodes");
      if (!nodes.is_array()) nodes.fail("expected an array of network node ids");
      Json ids = Json::array();
      for (size_t k = 0; k < nodes.size(); ++k) ids.push_back(nodes.at(k).string());
      Json row = {{"instance_id", in.at("InstanceId").string()},
                  {"instance_type", in.at("InstanceType").string()},
                  {"network_nodes", ids}};
      if (in.has("GroupName")) row["group_name"] = in.at("GroupName").string();
      if (in.has("AvailabilityZone")) row["availability_zone"] = in.at("AvailabilityZone").string();
      if (in.has("ZoneId")) row["zone_id"] = in.at("ZoneId").string();
      out["results"].push_back(row);
    }
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "aws-topology",
               "aws ec2 describe-instance-topology JSON (network nodes per instance)",
               [] { return std::make_unique<AwsTopologyImporter>(); })

}  // namespace pdsim
