# Warnings are errors for our own targets (third-party headers are included as SYSTEM).
function(pdsim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wconversion -Wno-sign-conversion -Werror)
endfunction()
