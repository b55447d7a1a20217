#!/usr/bin/env bash
# `-DPDSIM_BUILD_TESTS=OFF` (issue 28: tests optional at configure time): the project configures
# without asking for GoogleTest, defines the tools (pdsim, pdcal when libfabric is there) and no
# test executable. Configure only (a few seconds); the default build compiles the same tools.
# Usage: tests/build/no_tests_configure.sh SOURCE_DIR
set -euo pipefail
SRC=$1
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DPDSIM_BUILD_TESTS=OFF -DPDSIM_BUILD_CUDA=OFF \
  >"$B/configure.log" 2>&1 || { cat "$B/configure.log"; exit 1; }
targets=$(cmake --build "$B" --target help)
grep -qx '\.\.\. pdsim' <<<"$targets" || { echo "no pdsim target"; exit 1; }
if grep -E '\.\.\. (pdsim_unit_tests|pdsim_scenario_tests|pdcal_.*_test)$' <<<"$targets"; then
  echo "test executables defined with PDSIM_BUILD_TESTS=OFF"; exit 1
fi
[ ! -f "$B/CTestTestfile.cmake" ] || { echo "tests registered with PDSIM_BUILD_TESTS=OFF"; exit 1; }
echo "configured without tests: pdsim and the tools, no test executable"
