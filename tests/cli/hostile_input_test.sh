#!/usr/bin/env bash
# Hostile and wrong inputs meet one clear error (exit 2) naming the file, the field path and
# what was expected — never a crash, a hang, memory exhaustion, a silent default or a
# multi-megabyte message. Usage: tests/cli/hostile_input_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
S=$SRC/scenarios/glm51-2p2d-efa-quick.json
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# Copies of S in $T: its overlay path is relative to the scenario's directory.
scenario_copy() { sed "s|\"\\.\\./calibrate/|\"$SRC/calibrate/|" "$S"; }
# A hang fails too; the output must be one short message.
EXPECT_TIMEOUT=20 EXPECT_MAX_OUTPUT=2000
source "$(dirname "$0")/expect.sh"
# A regression must not take the machine's memory with it: /dev/zero runs under an address-space
# cap (not under ASan, whose shadow memory needs terabytes of address space).
if grep -qa __asan_init "$PDSIM"; then CAP=unlimited; else CAP=4000000; fi
CAPPED=(bash -c 'ulimit -v "$0"; exec "$@"' "$CAP")
# A depth bomb: N nested arrays, well-formed (the old reader parsed it, then overflowed the stack
# copying or dumping it).
bomb() { head -c "$1" /dev/zero | tr '\0' '['; head -c "$1" /dev/zero | tr '\0' ']'; }

# 1. Depth bombs (10^6 levels) in free-form fields: scenario, catalog, profile, bench_serving.
{ scenario_copy | sed '$d'; printf ', "tail": {"expert_skew": {"provenance": {"deep": '; bomb 1000000; printf '}}}}\n'; } > "$T/deep-scenario.json"
expect depth-scenario 2 "deep-scenario.json: field 'tail.expert_skew.provenance.deep[0][0]" -- "$PDSIM" run "$T/deep-scenario.json"
expect depth-scenario-limit 2 "expected JSON nested at most 128 levels deep" -- "$PDSIM" run "$T/deep-scenario.json"
# FILE with a member "deep": <bomb> first in its provenance object.
deep_provenance() {
  local n; n=$(grep -n '"provenance": {$' "$1" | head -1 | cut -d: -f1)
  head -n "$n" "$1"; printf '"deep": '; bomb 1000000; printf ',\n'; tail -n +"$((n + 1))" "$1"
}
deep_provenance "$SRC/models/profiles/gpu/h200-measured.json" > "$T/deep-gpu.json"
deep_provenance "$SRC/models/catalog/llm/glm-5.1-fp8.json" > "$T/deep-model.json"
expect depth-catalog 2 "deep-model.json: field 'provenance.deep[0][0]" -- "$PDSIM" run "$S" --set model="$T/deep-model.json"
expect depth-profile 2 "deep-gpu.json: field 'provenance.deep[0][0]" -- "$PDSIM" run "$S" --set gpu_profile="$T/deep-gpu.json"
{ printf '{"completed": 8, "duration": 1.0, "server_info": '; bomb 1000000; printf '}\n'; } > "$T/deep.jsonl"
expect depth-bench-serving 2 "deep.jsonl: field 'line 1: server_info[0][0]" -- "$PDSIM" calibrate import --format bench_serving "$T/deep.jsonl"
# 2. Only regular files of bounded size; errno text when a file cannot be opened.
expect dev-zero-scenario 2 "/dev/zero: expected a regular file, got a device, FIFO or socket" -- "${CAPPED[@]}" "$PDSIM" run /dev/zero
expect dev-zero-model 2 "field 'model': expected '/dev/zero' to be a JSON document (expected a regular file, got a device, FIFO or socket)" -- "${CAPPED[@]}" "$PDSIM" run "$S" --set model=/dev/zero
mkfifo "$T/fifo"
expect fifo 2 "fifo: expected a regular file, got a device, FIFO or socket" -- "$PDSIM" run "$T/fifo"
mkdir "$T/dir"
expect directory 2 "dir: expected a regular file, got a directory" -- "$PDSIM" run "$T/dir"
expect missing-errno 2 "nope.json: cannot open file for reading: No such file or directory" -- "$PDSIM" run "$T/nope.json"
# 3. null is not "use the default".
scenario_copy | sed 's/"request_rate": 1.0/"request_rate": null/' > "$T/null-rate.json"
expect null-rate 2 "null-rate.json: field 'workload.request_rate': null is not allowed; omit the field to use its default" -- "$PDSIM" run "$T/null-rate.json"
expect null-speculative 2 "field 'decode.speculative': null is not allowed; omit the field to use its default" -- "$PDSIM" run "$S" --set decode.speculative=null
# 4. Duplicate keys.
scenario_copy | sed 's/"seed": 1/"seed": 1, "seed": 7/' > "$T/dup.json"
expect duplicate-key 2 "dup.json: field 'seed': duplicate key" -- "$PDSIM" run "$T/dup.json"
# 5. --seed like "seed": a non-negative integer.
expect seed-negative 2 "--seed: expected a non-negative integer, got '-1'" -- "$PDSIM" run "$S" --seed -1
expect seed-huge 2 "--seed: expected an integer below 2^63, got '99999999999999999999'" -- "$PDSIM" run "$S" --seed 99999999999999999999
expect seed-2-63 2 "--seed: expected an integer below 2^63, got '9223372036854775808'" -- "$PDSIM" run "$S" --seed 9223372036854775808
# A bad input found inside the simulation process is still an input error (was exit 1).
expect qp-library-unknown 2 "field 'tail.link_errors.a2a_library': unknown name 'bogus'" -- "$PDSIM" run "$S" --set tail.link_errors.a2a_library=bogus --out "$T/qp"
# A mistyped metric in a validation set's exclude would exclude nothing, silently (issue 31).
sed -e 's#"p99_itl_ms": "#"p99_itl_msx": "#' \
    -e "s#\"glm51-2p2d-p5en-20260430/#\"$SRC/calibrate/validation/glm51-2p2d-p5en-20260430/#g; s#\"../../scenarios/#\"$SRC/scenarios/#g" \
    "$SRC/calibrate/validation/glm51-2p2d-p5en-20260430.json" > "$T/vs-typo.json"
expect exclude-typo 2 "exclude.p99_itl_msx': expected a bench_serving metric name" -- "$PDSIM" validate "$T/vs-typo.json" --out "$T/vt"
# An overlay section fitted on a profile name that does not exist would apply nowhere (issue 31).
OV=$SRC/calibrate/overlays/glm51-2p2d-p5en-20260430.json  # the one with a serving section
sed 's#"profile": "sglang-0.5-pd"#"profile": "sglang-0.5-pdd"#' "$OV" > "$T/ov-typo.json"
expect overlay-profile-typo 2 "field 'profiles.serving.profile': unknown name 'sglang-0.5-pdd'" -- "$PDSIM" run "$S" --profile-overlay "$T/ov-typo.json" --out "$T/ov"
# calibrate serving -o: never onto an input, and a bad target is found before the fit (issue 31).
sed -e "s#\"glm51-2p2d-p5en-20260430/#\"$SRC/calibrate/validation/glm51-2p2d-p5en-20260430/#g; s#\"../../scenarios/#\"$SRC/scenarios/#g" \
    "$SRC/calibrate/validation/glm51-2p2d-p5en-20260430.json" > "$T/vs-ok.json"
cp "$T/vs-ok.json" "$T/vs-ok.orig"
expect fit-out-onto-set 2 "-o: a file other than this command's inputs" -- "$PDSIM" calibrate serving "$T/vs-ok.json" --fit serving.decode.host_us_per_iteration=0:100 -o "$T/vs-ok.json"
if cmp -s "$T/vs-ok.json" "$T/vs-ok.orig"; then ok; else bad "fit-out-onto-set: the set changed"; fi
echo x > "$T/afile"
expect fit-out-under-file 2 "is not a directory" -- "$PDSIM" calibrate serving "$T/vs-ok.json" --fit serving.decode.host_us_per_iteration=0:100 -o "$T/afile/o.json"
# Counts of whole runs are bounded (issue 31: these were exit 1, "out of memory").
expect seeds-huge 2 "--seeds" -- "$PDSIM" run "$S" --seeds 2147483647
expect param-samples-huge 2 "--param-samples" -- "$PDSIM" run "$S" --param-samples 1000000
# 6. Physically impossible measured values.
printf '# nccl-tests\n     1048576        262144     float     sum      -1   -42.10   24.91   43.59      0    41.80   25.09   43.90      0\n' > "$T/neg.txt"
expect import-negative-time 2 "neg.txt: field 'line 2': expected a finite non-negative time (us)" -- "$PDSIM" calibrate import --format nccl-tests "$T/neg.txt"
sed 's/"mean_tpot_ms": 27.5/"mean_tpot_ms": -12.6/' "$SRC/tests/data/bench_serving/pd_run.jsonl" | head -1 > "$T/neg.jsonl"
expect validate-negative-tpot 2 "neg.jsonl: field 'line 1: mean_tpot_ms': expected a finite non-negative number" -- "$PDSIM" validate "$S" --measured "$T/neg.jsonl"
# 7. Provenance members documented as text must be strings.
sed 's/"provenance": {/"provenance": {"note": 5, /' "$SRC/models/profiles/gpu/h200-measured.json" > "$T/prov-gpu.json"
expect provenance-type 2 "prov-gpu.json: field 'provenance.note': expected a string, got number" -- "$PDSIM" run "$S" --set gpu_profile="$T/prov-gpu.json"
# 8. Offending tokens are cut short and escaped (expect() fails on outputs above 2000 bytes).
{ printf '{"model": "'; head -c 8000000 /dev/zero | tr '\0' a; printf '\001"}'; } > "$T/long-token.json"
expect long-token 2 "last read: '\"aaaaaaaaaa" -- "$PDSIM" run "$T/long-token.json"
{ printf '{"'; head -c 8000000 /dev/zero | tr '\0' k; printf '": 1}'; } > "$T/long-key.json"
expect long-key 2 "(8000000 bytes)': unknown field" -- "$PDSIM" run "$T/long-key.json"
# A launch command line is stored in JSON (scenario, provenance): non-UTF-8 bytes are bad input.
expect import-non-utf8 2 "--prefill: expected UTF-8 text; byte 50 is not UTF-8" -- "$PDSIM" import sglang --prefill $'--disaggregation-mode prefill --tp 8 --model-path \xff\xfe' --decode "--disaggregation-mode decode"
# The capture list must be what the run uses: strictly increasing (the import sorts and
# de-duplicates it as SGLang's get_batch_sizes_to_capture does).
expect graph-bs-unsorted 2 "field 'decode.cuda_graph_bs[1]': expected a value above the previous element 8 (the list strictly increases), got 4" -- "$PDSIM" run "$S" --set 'decode.cuda_graph_bs=[8,4]' --out "$T/gbs"
expect graph-bs-duplicated 2 "field 'decode.cuda_graph_bs[2]': expected a value above the previous element 4" -- "$PDSIM" run "$S" --set 'decode.cuda_graph_bs=[1,4,4]' --out "$T/gbs"
expect graph-bs-import 0 "" -- "$PDSIM" import sglang --prefill "--disaggregation-mode prefill" --decode "--disaggregation-mode decode --cuda-graph-bs 8 4 4 1" -o "$T/gbs.json"
gbs=$(tr -d ' \n' < "$T/gbs.json" | grep -o '"cuda_graph_bs":\[[0-9,]*\]')
if [ "$gbs" = '"cuda_graph_bs":[1,4,8]' ]; then ok; else bad "graph-bs-import-sorted: $gbs"; fi
# Time-valued numbers are bounded (sim/core/time_bound.hpp): they ran to 1e195-second results.
sed 's#"host_us_per_iteration": [0-9.e+-]*#"host_us_per_iteration": 1e200#' "$OV" > "$T/ov-huge.json"
expect overlay-huge-time 2 "ov-huge.json: field 'profiles.serving.set.decode.host_us_per_iteration': expected a time of at most 1e+12 us (1e+06 s), got 1e+200 us" -- "$PDSIM" run "$S" --profile-overlay "$T/ov-huge.json" --out "$T/ov"
sed 's#"host_us_per_iteration": [0-9.e+-]*#"host_us_per_iteration": 4e8#' "$OV" > "$T/ov-step.json"
expect overlay-step-time 2 "field 'decode.host_us_per_iteration': expected a number in [0, 300000000], got 400000000" -- "$PDSIM" run "$S" --profile-overlay "$T/ov-step.json" --out "$T/ov"
expect tail-huge-time 2 "field 'tail.path_flaps.down_ms': expected a time of at most 1e+09 ms (1e+06 s), got 1e+300 ms" -- "$PDSIM" run "$S" --set tail.path_flaps.down_ms=1e300 --out "$T/ov"
expect fit-huge-range 2 "--fit: field 'serving.prefill.host_us_per_chunk=1e200:1e300': expected LO and HI each a time of at most 1e+12 us" -- "$PDSIM" calibrate serving "$T/vs-ok.json" --fit serving.prefill.host_us_per_chunk=1e200:1e300 -o "$T/fit.json"
expect fit-fabric-huge 2 "expected LO and HI each a time of at most 1e+12 us" -- "$PDSIM" calibrate serving "$T/vs-ok.json" --fit fabric.a2a.cpu-proxy.fixed_us=0:1e300 -o "$T/fit.json"
sed "s|\"../glm51|\"$SRC/scenarios/glm51|; s|\[0.1, 3.2\]|[1e-300, 3.2]|" "$SRC/scenarios/sweeps/glm51-efa-capacity.json" > "$T/sw-rate.json"
expect slo-bracket-tiny 2 "field 'slo.rate_bracket[0]': expected a request rate in [1e-06, 1e9] req/s" -- "$PDSIM" sweep "$T/sw-rate.json" --results "$T/sw.jsonl"
sed "s|\"../glm51|\"$SRC/scenarios/glm51|; s|\"p99_itl_ms\": 60|\"p99_itl_ms\": 1e300|" "$SRC/scenarios/sweeps/glm51-efa-capacity.json" > "$T/sw-slo.json"
expect slo-huge-time 2 "field 'slo.p99_itl_ms': expected a time of at most 1e+09 ms (1e+06 s), got 1e+300 ms" -- "$PDSIM" sweep "$T/sw-slo.json" --results "$T/sw.jsonl"
# Issue 31: a one-run fit of a parameter the start hides (host work under GPU time) was refused as
# "moves the metrics < 0.1 % over its whole range"; it moves median ITL by 31 % end to end.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runs"]=d["runs"][1:2]; json.dump(d,open(sys.argv[2],"w"))' "$T/vs-ok.json" "$T/vs-one.json"
expect fit-plateau 0 "warning: serving.decode.host_us_per_iteration stayed at its start value, where the metrics do not depend on it (they do across its range)" -- "$PDSIM" calibrate serving "$T/vs-one.json" --fit serving.decode.host_us_per_iteration=0:30000 -o "$T/fit-one.json"
# A 1e6-point grid took 1.3 GB and minutes before its first line (issue 31): at most 1e5 points.
V=$(seq -s, 1 100)
printf '{"base": "%s", "grid": {"workload.num_prompts": [%s], "decode.max_running_requests": [%s], "workload.input_len": [%s]}}' "$S" "$V" "$V" "$V" > "$T/sw-big.json"
expect sweep-grid-cap 2 "field 'grid': expected at most 100000 points (list x grid) per sweep file" -- "$PDSIM" sweep "$T/sw-big.json" --results "$T/sw-big.jsonl"
# From tests/bench/hostile_matrix.sh: a 5000-byte catalog name exited 4 ("File name too long");
# a KV block of 1e300 bytes ran.
expect name-too-long 2 "field 'cluster.instance_type': unknown name 'xxxx" -- "$PDSIM" run "$S" --set cluster.instance_type="$(head -c 5000 /dev/zero | tr '\0' x)" --out "$T/nl"
expect kv-block-huge 2 "field 'prefill.kv_block_bytes': expected a number in [0, 2147483648], got 1e+300" -- "$PDSIM" run "$S" --set prefill.kv_block_bytes=1e300 --out "$T/nl"
# The matrix's last round: half a byte ran; two cross-field messages named only the section.
expect kv-block-fraction 2 "field 'prefill.kv_block_bytes': expected a whole number of bytes" -- "$PDSIM" run "$S" --set prefill.kv_block_bytes=0.5 --out "$T/nl"
expect gc-pause-order 2 "field 'tail.gc_pauses.pause_min_ms': expected pause_min_ms <= pause_max_ms" -- "$PDSIM" run "$S" --set tail.gc_pauses.pause_min_ms=0.5 --set tail.gc_pauses.pause_max_ms=0.25 --out "$T/nl"
expect tail-profile-cleared 2 "field 'tail.link_errors': expected a 'provenance' (published figure or measurement) for the parameters of an enabled mechanism, or a 'profile' (models/profiles/tail) that carries one" -- "$PDSIM" run "$S" --set tail.link_errors.enabled=true --set tail.link_errors.profile='""' --out "$T/nl"
# A catalog name that is a path to a file that is no JSON: the message names the field too.
printf 'not json\n' > "$T/not.json"
expect catalog-not-json 2 "field 'model': expected '$T/not.json' to be a JSON document (expected valid JSON" -- "$PDSIM" run "$S" --set model="$T/not.json" --out "$T/nl"
expect topology-not-json 2 "field 'cluster.topology_file': expected '$T/not.json' to be a JSON document" -- "$PDSIM" run "$S" --set cluster.topology_file="$T/not.json" --out "$T/nl"
# mem_fraction_static = 0 was accepted as input, then called an infeasible deployment (exit 3).
expect mem-fraction-zero 2 "field 'decode.mem_fraction_static': expected a number in (0, 1], got 0" -- "$PDSIM" run "$S" --set decode.mem_fraction_static=0 --out "$T/nl"

# The calibration corpus (pdsim run/compare --corpus): a name that is none, a value of the wrong
# kind; nothing is simulated or written.
expect corpus-missing 2 "--corpus: a calibration corpus file, or a name pdsim list prints" -- "$PDSIM" run "$S" --corpus nosuch --out "$T/corpus-out"
sed '0,/"concurrency": 2.0,/s//"concurrency": "two",/' "$SRC/calibrate/corpus/sglang-pd.json" > "$T/corpus.json"
expect corpus-field 2 "corpus.json: field 'runs[0].coordinates.concurrency': expected a number" -- "$PDSIM" compare "$S" "$S" --corpus "$T/corpus.json" --out "$T/corpus-out"
[ -e "$T/corpus-out" ] && bad "corpus: an output directory was written"
finish hostile_input_test
