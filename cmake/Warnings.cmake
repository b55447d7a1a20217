# Warnings are errors for our own targets (third-party headers are included as SYSTEM).
# -Wno-restrict: GCC 12 reports false positives inside std::string concatenation at -O2
# (GCC bug 105329); the check stays on for other compilers.
function(pdsim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wconversion -Wno-sign-conversion -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
