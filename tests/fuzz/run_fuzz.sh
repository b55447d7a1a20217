#!/usr/bin/env bash
# Builds the libFuzzer targets into build-fuzz/ (clang-14, ASan+UBSan), then runs each for SECONDS,
# FUZZ_JOBS (default: the CPU count) at a time:
# one per importer, seeded with the samples in tests/data/formats/, the scenario reader
# (fuzz_scenario.cpp: parse → parse_scenario → build_deployment), seeded with scenarios/, and
# pdcal's bootstrap messages, and the readers of sweep specs, profile overlays, packet experiments
# and validation sets (fuzz_reader.cpp). Every target serializes what it parsed. Inputs are capped at 4 KiB
# for the line-oriented text formats and 64 KiB for JSON (room for depth bombs, duplicate keys far
# apart, long tokens). Then, while the executions in total are below MIN_TOTAL, it tops up with a
# counted run (-runs) of the target that ran fastest, so the floor holds however loaded the
# machine is (a timed pass alone gave 1.06 M on a quiet machine and 0.81 M under load). Prints
# the executions per target and in total. Usage: run_fuzz.sh [SECONDS] [MIN_TOTAL]
set -euo pipefail
SECONDS_PER_TARGET=${1:-10}
MIN_TOTAL=${2:-0}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build-fuzz
CXX=${CXX_FUZZ:-clang++-14}
JOBS=${FUZZ_JOBS:-$(nproc)}
FLAGS=(-std=c++20 -O1 -g1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I"$ROOT" -DPDSIM_SOURCE_DIR="\"$ROOT\""
       -DPDSIM_DATA_FROM_BIN="\"../share/pdsim\"")  # CMakeLists.txt's; fuzzers read the source tree
mkdir -p "$OUT/obj"

# objects SRC...: compiles (JOBS at a time) the sources whose object is missing or older than the
# source or a header it includes (-MMD), and sets OBJS. Object names keep the directory:
# sim/serve/workload.cpp and sim/packet/workload.cpp are different files.
objects() {
  local src obj dep running=0 failed=0
  local -a todo=() todo_obj=()
  OBJS=()
  for src in "$@"; do
    obj=${src#"$ROOT"/}; obj=$OUT/obj/${obj//\//_}; obj=${obj%.cpp}.o
    OBJS+=("$obj")
    local stale=0
    if [[ ! -f $obj || ! -f ${obj%.o}.d ]]; then stale=1; else
      for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "${obj%.o}.d"); do
        [[ $dep -nt $obj ]] && { stale=1; break; }
      done
    fi
    if ((stale)); then todo+=("$src"); todo_obj+=("$obj"); fi
  done
  for i in "${!todo[@]}"; do
    if ((running >= JOBS)); then wait -n || failed=1; running=$((running - 1)); fi
    "$CXX" "${FLAGS[@]}" -MMD -c "${todo[i]}" -o "${todo_obj[i]}" &
    running=$((running + 1))
  done
  while ((running > 0)); do wait -n || failed=1; running=$((running - 1)); done
  if ((failed)); then echo "run_fuzz.sh: compilation failed" >&2; exit 1; fi
}

status=0
total=0
best_rate=0   # executions per second of the fastest target so far, and how to run it again
best_run=()
# run_target NAME TARGET MAX_LEN LIMIT: one libFuzzer run on build-fuzz/corpus_NAME; LIMIT is
# -max_total_time=S or -runs=N. Prints FAILED and the log's tail when the target fails.
run_target() {
  local name=$1 target=$2 max_len=$3 limit=$4 log=$OUT/fuzz_$1.log
  if ! "$target" "$limit" -max_len="$max_len" -timeout=5 -artifact_prefix="$OUT/crash_${name}_" \
       "$OUT/corpus_$name" > "$log" 2>&1; then
    echo "FAILED: $name (see $log)"
    tail -30 "$log"
  fi
}
# count_runs NAME TARGET MAX_LEN: adds the executions of NAME's last run (its log) to total, sets
# RUNS, and remembers the fastest target for the top-up.
count_runs() {
  local name=$1 log=$OUT/fuzz_$1.log done_line secs
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
  RUNS=$(echo "$done_line" | awk '{print $2}')
  RUNS=${RUNS:-0}
  secs=$(echo "$done_line" | awk '{print $5}')
  total=$((total + RUNS))
  if ((RUNS > 0 && RUNS / (${secs:-0} + 1) > best_rate)); then
    best_rate=$((RUNS / (${secs:-0} + 1)))
    best_run=("$@")
  fi
}
# fuzz NAME TARGET MAX_LEN SEED_FILE...: seeds the corpus of one target and queues it for a timed
# run of SECONDS_PER_TARGET (run_queue, after every target is built).
QUEUE=()
fuzz() {
  local name=$1 target=$2 max_len=$3; shift 3
  mkdir -p "$OUT/corpus_$name"
  cp "$@" "$OUT/corpus_$name"/ 2>/dev/null || true
  QUEUE+=("$name $target $max_len")
}
# run_queue: the queued targets' timed runs, JOBS at a time (each fuzzer is one process on one
# core, so two cores give each target its SECONDS_PER_TARGET in half the wall time); then each
# log is read in queue order, so the totals and the top-up target do not depend on scheduling.
run_queue() {
  local entry name target max_len running=0
  for entry in "${QUEUE[@]}"; do
    read -r name target max_len <<<"$entry"
    if ((running >= JOBS)); then wait -n || true; running=$((running - 1)); fi
    echo "== fuzzing $name for ${SECONDS_PER_TARGET}s (inputs up to $max_len bytes)"
    ( run_target "$name" "$target" "$max_len" -max_total_time="$SECONDS_PER_TARGET" \
        > "$OUT/status_$name" ) &
    running=$((running + 1))
  done
  while ((running > 0)); do wait -n || true; running=$((running - 1)); done
  for entry in "${QUEUE[@]}"; do
    read -r name target max_len <<<"$entry"
    cat "$OUT/status_$name"
    grep -q '^FAILED' "$OUT/status_$name" && status=1
    count_runs "$name" "$target" "$max_len"
    echo "executions: $name $RUNS"
  done
}

# The importers (calibrate/parse_*.cpp) and what they use of sim/core.
objects "$ROOT"/calibrate/parse_*.cpp "$ROOT"/calibrate/measurement.cpp \
        "$ROOT"/calibrate/bench_serving_record.cpp "$ROOT"/sim/core/*.cpp
IMPORTER_OBJS=("${OBJS[@]}")
# format name → seed-file prefix in tests/data/formats, and its input cap
declare -A SEEDS=([nccl-tests]=nccl [perftest]=perftest [fi_pingpong]=fi_pingpong
                  [fi_rdm_pingpong]=fi_rdm_pingpong [deepep]=deepep [pplx]=pplx
                  [bench_serving]=bench_serving [aws-topology]=aws_topology)
declare -A MAX_LEN=([pplx]=65536 [bench_serving]=65536 [aws-topology]=65536)
for fmt in $(printf '%s\n' "${!SEEDS[@]}" | sort); do
  target=$OUT/fuzz_${fmt//-/_}
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer -DPDSIM_FUZZ_FORMAT="\"$fmt\"" \
    "$ROOT/tests/fuzz/fuzz_importer.cpp" "${IMPORTER_OBJS[@]}" -o "$target"
  fuzz "${fmt//-/_}" "$target" "${MAX_LEN[$fmt]:-4096}" "$ROOT"/tests/data/formats/"${SEEDS[$fmt]}"*
done

# The scenario reader: the serving cost and mechanism layers and the layers below them
# (cmake/Layers.cmake; no SimGrid: the actors are not linked).
objects "$ROOT"/sim/core/*.cpp "$ROOT"/models/*.cpp "$ROOT"/sim/scenario/*.cpp \
        "$ROOT"/sim/fabric/*.cpp "$ROOT"/sim/packet/*.cpp "$ROOT"/sim/serve/entities/*.cpp \
        "$ROOT"/sim/serve/cost/*.cpp "$ROOT"/sim/serve/mechanisms/*.cpp
"$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$ROOT/tests/fuzz/fuzz_scenario.cpp" "${OBJS[@]}" \
  -o "$OUT/fuzz_scenario"
fuzz scenario "$OUT/fuzz_scenario" 65536 "$ROOT"/scenarios/*.json "$ROOT"/scenarios/whatif/*.json
SCENARIO_OBJS=("${OBJS[@]}")

# The readers of the newer surfaces (tests/fuzz/fuzz_reader.cpp), each seeded with the
# project's own files of its kind: sweep specs and profile overlays and packet experiments on
# the scenario objects above, validation sets too (a run's workload comes from its record through
# the scenario's field declarations) with bench_serving's record checks from calibrate.
objects "$ROOT"/sim/sweep/sweep_spec.cpp "$ROOT"/sim/fit/validation_set.cpp \
        "$ROOT"/sim/fit/validation_set_keys.cpp "$ROOT"/sim/fit/fit_parameter.cpp \
        "$ROOT"/calibrate/bench_serving_artefacts.cpp "$ROOT"/calibrate/bench_serving_jsonl.cpp \
        "$ROOT"/calibrate/bench_serving_record.cpp
SWEEP_OBJ=${OBJS[0]} VSET_OBJS=("${OBJS[@]:1}")
reader() {  # reader NAME MACRO OBJS... -- SEEDS...
  local name=$1 macro=$2; shift 2
  local -a objs=()
  while [[ $1 != -- ]]; do objs+=("$1"); shift; done
  shift
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer -D"$macro" "$ROOT/tests/fuzz/fuzz_reader.cpp" \
    "${objs[@]}" -o "$OUT/fuzz_$name"
  fuzz "$name" "$OUT/fuzz_$name" 65536 "$@"
}
reader sweep_spec PDSIM_FUZZ_SWEEP_SPEC "$SWEEP_OBJ" "${SCENARIO_OBJS[@]}" -- \
  "$ROOT"/tests/data/fuzz_seeds/sweep_*.json
reader overlay PDSIM_FUZZ_OVERLAY "${SCENARIO_OBJS[@]}" -- "$ROOT"/calibrate/overlays/*.json
reader experiment PDSIM_FUZZ_EXPERIMENT "${SCENARIO_OBJS[@]}" -- "$ROOT"/scenarios/fabric/*.json
reader validation_set PDSIM_FUZZ_VALIDATION_SET "${VSET_OBJS[@]}" "${SCENARIO_OBJS[@]}" -- \
  "$ROOT"/calibrate/validation/*.json

# ---- pdcal bootstrap messages (tests/fuzz/fuzz_bootstrap.cpp) -------------------------
# What a pdcal connector reads from a hostile rank 0 (a hello, then frames: parameters, fabric
# address, barrier), decoded by calibrate/pdcal/{wire,fabric_address,peer_text}.cpp in process,
# no network. Seeded with one well-formed exchange (2 ranks, 1 endpoint).
"$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$ROOT/tests/fuzz/fuzz_bootstrap.cpp" \
  "$ROOT"/calibrate/pdcal/{wire,fabric_address,peer_text}.cpp -o "$OUT/fuzz_bootstrap"
BOOT_CORPUS=$OUT/corpus_bootstrap
mkdir -p "$BOOT_CORPUS"
le64() { local i; for i in 0 1 2 3 4 5 6 7; do printf "\\x$(printf %02x $((($1 >> (8 * i)) & 255)))"; done; }
boot_params='{"api":"fabric","endpoints":1,"provider":"tcp","ranks":2}'
{
  printf '\x01\x00\x00\x00\x02\x00\x00\x00'
  le64 ${#boot_params}; printf '%s' "$boot_params"
  le64 40; le64 16; printf '\x02\x00\x9c\x40\x7f\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00'
  le64 1; le64 140737488355328
  le64 0
} > "$BOOT_CORPUS/seed_exchange"
fuzz bootstrap "$OUT/fuzz_bootstrap" 4096
# ---- end of the pdcal bootstrap block ------------------------------------------------------

echo "run_fuzz: ${#QUEUE[@]} targets built in $SECONDS s"
run_queue
while ((status == 0 && total < MIN_TOTAL && best_rate > 0)); do
  deficit=$((MIN_TOTAL - total))
  echo "== topping up: ${best_run[0]} for $deficit more executions (floor $MIN_TOTAL)"
  out=$(run_target "${best_run[@]}" -runs="$deficit")
  if [[ -n $out ]]; then echo "$out"; status=1; fi
  count_runs "${best_run[@]}"
  echo "executions: ${best_run[0]} (top-up) $RUNS"
  ((RUNS > 0)) || break
done
echo "executions: total $total (fuzzing and building took $SECONDS s)"
if ((status == 0 && total < MIN_TOTAL)); then
  echo "FAILED: $total executions in total, below the floor of $MIN_TOTAL"
  status=1
fi
exit $status
