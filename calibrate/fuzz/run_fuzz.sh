#!/usr/bin/env bash
# Builds one libFuzzer target per importer into build-fuzz/ (clang-14, ASan+UBSan) and runs each
# for SECONDS, seeded with the samples in tests/data/formats/. Usage: run_fuzz.sh [SECONDS]
set -euo pipefail
SECONDS_PER_TARGET=${1:-10}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build-fuzz
CXX=${CXX_FUZZ:-clang++-14}
FLAGS=(-std=c++20 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I"$ROOT")
mkdir -p "$OUT/obj"
SRCS=("$ROOT"/calibrate/parse_*.cpp "$ROOT"/calibrate/measurement.cpp
      "$ROOT"/sim/core/error.cpp "$ROOT"/sim/core/json_reader.cpp)
OBJS=()
for src in "${SRCS[@]}"; do
  obj=$OUT/obj/$(basename "${src%.cpp}").o
  if [[ ! -f $obj || $src -nt $obj ]]; then "$CXX" "${FLAGS[@]}" -c "$src" -o "$obj"; fi
  OBJS+=("$obj")
done
# format name → seed-file prefix in tests/data/formats
declare -A SEEDS=([nccl-tests]=nccl [perftest]=perftest [fi_pingpong]=fi_pingpong
                  [fi_rdm_pingpong]=fi_rdm_pingpong [deepep]=deepep [pplx]=pplx
                  [bench_serving]=bench_serving [aws-topology]=aws_topology)
status=0
for fmt in "${!SEEDS[@]}"; do
  target=$OUT/fuzz_${fmt//-/_}
  "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer -DPDSIM_FUZZ_FORMAT="\"$fmt\"" \
    "$ROOT/calibrate/fuzz/fuzz_importer.cpp" "${OBJS[@]}" -o "$target"
  corpus=$OUT/corpus_${fmt//-/_}
  mkdir -p "$corpus"
  cp "$ROOT"/tests/data/formats/"${SEEDS[$fmt]}"* "$corpus"/ 2>/dev/null || true
  echo "== fuzzing $fmt for ${SECONDS_PER_TARGET}s"
  if ! "$target" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=5 \
       -artifact_prefix="$OUT/crash_${fmt//-/_}_" "$corpus" > "$OUT/fuzz_${fmt//-/_}.log" 2>&1; then
    echo "FAILED: $fmt (see $OUT/fuzz_${fmt//-/_}.log)"
    tail -30 "$OUT/fuzz_${fmt//-/_}.log"
    status=1
  else
    grep -E "^Done|#[0-9]+.*DONE" "$OUT/fuzz_${fmt//-/_}.log" | tail -1 || true
  fi
done
exit $status
