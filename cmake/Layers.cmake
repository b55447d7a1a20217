# The layer graph, the one place it is written: one static library per directory, linked along
# these edges only. A layer may include and call itself and the layers below it (its DEPS,
# transitively), never one above. Two checks keep the graph true:
#   - the build links one probe executable per layer (build/layer_probes/) against that layer's
#     library and its dependencies alone: a call into a higher layer is an undefined reference;
#   - the ctest `layers_includes` (cmake/CheckLayers.cmake) fails on an #include of a directory
#     that is not the layer's own or a dependency's, which also catches header-only uses.
# Executables (sim/cli, calibrate/pdcal, tests) sit above every layer they link.
set(PDSIM_LAYERS core models fabric packet calibrate serve import sweep fit reports)
set(PDSIM_LAYER_core_DIR sim/core)
set(PDSIM_LAYER_core_DEPS)
set(PDSIM_LAYER_models_DIR models)
set(PDSIM_LAYER_models_DEPS core)
set(PDSIM_LAYER_fabric_DIR sim/fabric)
set(PDSIM_LAYER_fabric_DEPS models)
set(PDSIM_LAYER_packet_DIR sim/packet)
set(PDSIM_LAYER_packet_DEPS fabric)
set(PDSIM_LAYER_calibrate_DIR calibrate)
set(PDSIM_LAYER_calibrate_DEPS fabric)
set(PDSIM_LAYER_serve_DIR sim/serve)
set(PDSIM_LAYER_serve_DEPS packet)
set(PDSIM_LAYER_import_DIR sim/import)
set(PDSIM_LAYER_import_DEPS serve calibrate)
set(PDSIM_LAYER_sweep_DIR sim/sweep)
set(PDSIM_LAYER_sweep_DEPS serve calibrate)
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
