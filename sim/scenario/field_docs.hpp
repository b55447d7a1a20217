#pragma once
// What people and editors read about the scenario fields, generated from their declarations:
// `pdsim explain FIELD`, the field tables of scenarios/README.md and docs/scenario.schema.json
// (both kept in the repository; `pdsim fields --check` fails when either is stale).
#include <string>
#include <vector>

#include "sim/core/fields.hpp"

namespace pdsim {

// The SGLang side of a field in words ("--tp-size (decode launch_server)"), "" when none.
std::string sglang_text(const FieldInfo& f);
// One field (or section: with its fields) for a terminal; InputError naming the path and the
// nearest declared paths when nothing is declared there.
std::string explain_field(const std::vector<FieldInfo>& fields, const std::string& path);
// One Markdown table per top-level section, in declaration order.
std::string fields_markdown(const std::vector<FieldInfo>& fields);
// A JSON Schema (draft 2020-12) of the scenario file.
Json fields_json_schema(const std::vector<FieldInfo>& fields);

// Replaces what lies between the lines "<!-- BEGIN generated: TAG -->" and "<!-- END generated:
// TAG -->" of `text` by `block`; InputError naming `file` when the markers are missing.
std::string replace_generated_block(const std::string& text, const std::string& tag,
                                    const std::string& block, const std::string& file);

}  // namespace pdsim
