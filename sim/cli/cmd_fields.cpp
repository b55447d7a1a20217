// pdsim fields [--markdown | --schema] : every declared scenario field (one line each), its
// Markdown tables, or the scenario file's JSON Schema.
// pdsim fields --write | --check : regenerate, or check, the generated files kept in the
// repository — the tables in scenarios/README.md and docs/scenario.schema.json, the validation
// set's table in calibrate/README.md and docs/validation_set.schema.json (CI runs --check; a stale
// file is exit 2 naming it).
#include <iostream>
#include <memory>

#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/read_file.hpp"
#include "sim/core/text_align.hpp"
#include "sim/fit/validation_set_keys.hpp"
#include "sim/scenario/field_docs.hpp"
#include "sim/scenario/scenario.hpp"

namespace {

struct FieldsOptions {
  bool markdown = false, schema = false, write = false, check = false;
};

struct Generated {
  std::string path, content;
};

std::vector<Generated> generated(const std::vector<pdsim::FieldInfo>& fields) {
  const std::string root = pdsim::data_root();
  const std::string readme = root + "/scenarios/README.md";
  const std::string calibrate = root + "/calibrate/README.md";
  return {
      {readme, pdsim::replace_generated_block(pdsim::read_file(readme), "scenario fields",
                                              pdsim::fields_markdown(fields), readme)},
      {root + "/docs/scenario.schema.json", pdsim::fields_json_schema(fields).dump(2) + "\n"},
      {calibrate, pdsim::replace_generated_block(pdsim::read_file(calibrate), "validation set keys",
                                                 pdsim::validation_set_markdown(), calibrate)},
      {root + "/docs/validation_set.schema.json",
       pdsim::validation_set_json_schema().dump(2) + "\n"}};
}

int run(const FieldsOptions& o) {
  const auto fields = pdsim::scenario_fields();
  if (o.markdown) {
    std::cout << pdsim::fields_markdown(fields);
  } else if (o.schema) {
    std::cout << pdsim::fields_json_schema(fields).dump(2) << "\n";
  } else if (o.write || o.check) {
    for (const auto& g : generated(fields)) {
      if (o.write) {
        pdsim::write_file_atomic(g.path, g.content);
        std::cerr << "wrote " << g.path << "\n";
      } else if (pdsim::read_file(g.path) != g.content) {
        throw pdsim::InputError(g.path, "generated",
                                "the file generated from the field declarations; it is stale: "
                                "run `pdsim fields --write` and commit it");
      }
    }
    if (o.check) std::cout << "scenario field docs are current\n";
  } else {
    for (const auto& f : fields)
      if (f.type != "object")
        std::cout << pdsim::column(f.path, 52) << pdsim::column(f.type, 18) << f.spec.unit << "\n";
  }
  return 0;
}

}  // namespace

PDSIM_CLI_COMMAND(fields, "fields",
                  "every declared scenario field; its Markdown tables and JSON Schema "
                  "(--write/--check the generated files)",
                  [](CLI::App& app) -> std::function<int()> {
                    auto o = std::make_shared<FieldsOptions>();
                    auto* g = app.add_option_group("output");
                    g->add_flag("--markdown", o->markdown, "the field tables (Markdown)");
                    g->add_flag("--schema", o->schema, "the scenario JSON Schema");
                    g->add_flag("--write", o->write,
                                "rewrite scenarios/README.md's tables, "
                                "docs/scenario.schema.json, calibrate/README.md's validation "
                                "set table and docs/validation_set.schema.json");
                    g->add_flag("--check", o->check, "fail when those files are stale");
                    g->require_option(0, 1);
                    return [o] { return run(*o); };
                  })
