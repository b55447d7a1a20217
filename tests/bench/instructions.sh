#!/usr/bin/env bash
# Instructions executed by one `pdsim run` (not part of CI), per process, counted by valgrind's
# callgrind: unlike wall time on a shared 2-core VM (±30 % between runs) the count is the same on
# every run, so it shows what a change to the simulator costs or saves. The run forks one
# simulating child (SimGrid allows one engine per process): "parent" is loading, building the
# deployment, reading the child's results and writing the outputs; "child" is the simulation and
# its results' encoding. Usage: tests/bench/instructions.sh [PDSIM] [SCENARIO] [--set ...]
# Prints the machine context, then "parent N, child N, total N" (instructions).
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${1:-build/pdsim}
S=${2:-scenarios/glm51-2p2d-efa.json}
shift $(($# < 2 ? $# : 2))
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (./setup.sh installs it)" >&2; exit 2; }
export PDSIM_DATA_DIR=$PWD
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "context: $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)" \
  "| $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))" \
  "| valgrind $(valgrind --version) | $S $*"
valgrind --tool=callgrind --callgrind-out-file="$T/cg.%p" "$P" run "$S" "$@" --out "$T/out" \
  >/dev/null 2>"$T/log"
# The first process started is the parent: the lower pid (pids are not reused within the run).
mapfile -t counts < <(sed -n 's/^==\([0-9]*\)== Collected : \([0-9]*\)$/\1 \2/p' "$T/log" | sort -n)
[ "${#counts[@]}" -eq 2 ] || { echo "instructions.sh: expected 2 processes, got ${#counts[@]}" >&2; cat "$T/log" >&2; exit 1; }
parent=${counts[0]#* }
child=${counts[1]#* }
echo "parent $parent, child $child, total $((parent + child)) (instructions)"
