# The layer graph, the one place it is written: one static library per directory, linked along
# these edges only. A layer may include and call itself and the layers below it (its DEPS,
# transitively), never one above. Two checks keep the graph true:
#   - the build links one probe executable per layer (build/layer_probes/) against that layer's
#     library and its dependencies alone: a call into a higher layer is an undefined reference;
#   - the ctest `layers_includes` (cmake/CheckLayers.cmake) fails on an #include of a directory
#     that is not the layer's own or a dependency's, which also catches header-only uses.
# Executables (sim/cli, calibrate/pdcal, tests) sit above every layer they link.
set(PDSIM_LAYERS core models scenario fabric packet calibrate serve_entities serve_cost
    serve_mechanisms serve_policies serve import sweep fit reports)
set(PDSIM_LAYER_core_DIR sim/core)
set(PDSIM_LAYER_core_DEPS)
set(PDSIM_LAYER_models_DIR models)
set(PDSIM_LAYER_models_DEPS core)
set(PDSIM_LAYER_scenario_DIR sim/scenario)
set(PDSIM_LAYER_scenario_DEPS models)
set(PDSIM_LAYER_fabric_DIR sim/fabric)
set(PDSIM_LAYER_fabric_DEPS models)
set(PDSIM_LAYER_packet_DIR sim/packet)
set(PDSIM_LAYER_packet_DEPS fabric)
set(PDSIM_LAYER_calibrate_DIR calibrate)
set(PDSIM_LAYER_calibrate_DEPS fabric)
# The serving simulation, floor by floor: entities (requests, results, rank state, the workload
# generator, bench_serving metrics), cost (the deployment and what one step costs), the tail
# mechanisms, the router and admission policies, and on top the SimGrid actors that run it all.
set(PDSIM_LAYER_serve_entities_DIR sim/serve/entities)
set(PDSIM_LAYER_serve_entities_DEPS scenario)
set(PDSIM_LAYER_serve_cost_DIR sim/serve/cost)
set(PDSIM_LAYER_serve_cost_DEPS serve_entities packet)
set(PDSIM_LAYER_serve_mechanisms_DIR sim/serve/mechanisms)
set(PDSIM_LAYER_serve_mechanisms_DEPS serve_cost)
set(PDSIM_LAYER_serve_policies_DIR sim/serve/policies)
set(PDSIM_LAYER_serve_policies_DEPS serve_entities)
set(PDSIM_LAYER_serve_DIR sim/serve/actors)
set(PDSIM_LAYER_serve_DEPS serve_mechanisms serve_policies)
set(PDSIM_LAYER_import_DIR sim/import)
set(PDSIM_LAYER_import_DEPS serve calibrate)
set(PDSIM_LAYER_sweep_DIR sim/sweep)
set(PDSIM_LAYER_sweep_DEPS serve calibrate fit)
set(PDSIM_LAYER_fit_DIR sim/fit)
set(PDSIM_LAYER_fit_DEPS serve calibrate)
set(PDSIM_LAYER_reports_DIR reports)
set(PDSIM_LAYER_reports_DEPS sweep fit)
# Directories of executables, checked for includes like the layers (they link what they list).
set(PDSIM_LAYER_pdcal_DIR calibrate/pdcal)
set(PDSIM_LAYER_pdcal_DEPS calibrate)
set(PDSIM_LAYER_cli_DIR sim/cli)
set(PDSIM_LAYER_cli_DEPS reports import)

# pdsim_layer_closure(LAYER OUT_VAR): LAYER and every layer below it.
function(pdsim_layer_closure layer out)
  set(seen ${layer})
  set(todo ${layer})
  while(todo)
    list(POP_FRONT todo l)
    foreach(d ${PDSIM_LAYER_${l}_DEPS})
      if(NOT d IN_LIST seen)
        list(APPEND seen ${d})
        list(APPEND todo ${d})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
