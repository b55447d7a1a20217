// pdsim explain FIELD: a scenario field's type, unit, default, range, help and SGLang flag, or a
// section's help and its fields — from the field's declaration (sim/scenario/scenario.hpp and the
// tail mechanisms' own files).
#include <iostream>
#include <memory>

#include "sim/cli/command.hpp"
#include "sim/scenario/field_docs.hpp"
#include "sim/scenario/scenario.hpp"

PDSIM_CLI_COMMAND(explain, "explain",
                  "a scenario field's type, unit, default, range, help and SGLang flag",
                  [](CLI::App& app) -> std::function<int()> {
                    auto path = std::make_shared<std::string>();
                    app.add_option("field", *path,
                                   "dotted path, e.g. decode.speculative.num_steps or tail")
                        ->required();
                    return [path] {
                      std::cout << pdsim::explain_field(pdsim::scenario_fields(), *path);
                      return 0;
                    };
                  })
