#!/usr/bin/env bash
# `cmake --install` into a prefix gives a pdsim that runs the reference scenario by name from any
# folder: the installed binary finds its data in PREFIX/share/pdsim (sim/core/data_path.cpp)
# with PDSIM_DATA_DIR unset, and says so in `pdsim list`. Usage: install_test.sh BUILD_DIR
set -u
B=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
unset PDSIM_DATA_DIR
if ! cmake --install "$B" --prefix "$T/prefix" >"$T/install.log" 2>&1; then
  bad "cmake --install failed:"; tail -5 "$T/install.log"
  finish install; exit 1
fi
P=$T/prefix/bin/pdsim
cd "$T" || exit 1
expect installed-version 0 "pdsim 0.1.0" -- "$P" --version
expect installed-data-dir 0 "data directory: $T/prefix/share/pdsim (the names above" -- "$P" list
expect installed-run 0 "Results written to $T/out/" -- "$P" run glm51-2p2d-efa-quick --out "$T/out"
if [ -s "$T/out/summary.json" ]; then ok; else bad "no summary.json from the installed pdsim"; fi
# Its scenario's relative overlay path resolves inside the installed data, not the source tree.
if grep -q "calibrate/overlays/" "$T/out/scenario.resolved.json"; then ok
else bad "the installed reference scenario lost its profile overlay"; fi
expect installed-pdcal 0 "pdcal 0.1.0" -- "$T/prefix/bin/pdcal" --version
finish install
