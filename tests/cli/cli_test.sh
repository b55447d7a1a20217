#!/usr/bin/env bash
# End-to-end checks of the pdsim binary as a user meets it: exit codes and one-line errors that
# name the file, the field path and the expectation; outputs written where promised.
# Usage: tests/cli/cli_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
S=$SRC/scenarios/glm51-2p2d-efa-quick.json
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/expect.sh"
expect version 0 "pdsim 0.1.0" -- "$PDSIM" --version
# -j/--jobs: one declaration (sim/cli/jobs_option.hpp), the same range on every command.
expect jobs-zero 2 "Value 0 not in range 1 to 1024" -- "$PDSIM" run "$S" --seeds 2 --jobs 0 --out "$T/a"
expect jobs-huge 2 "Value 5000 not in range 1 to 1024" -- "$PDSIM" sensitivity "$S" --jobs 5000
expect jobs-short 2 "Value 0 not in range 1 to 1024" -- "$PDSIM" sweep "$SRC/scenarios/sweeps/glm51-efa-family-1000.json" -j 0
# --progress: one declaration (sim/cli/progress_option.hpp); `lines` for logs writes the count of
# finished simulations (the 2 runs, then each scenario's second seed) and its closing line; stdout does not depend on it.
expect progress-bad 2 "--progress: loud not in {auto,bar,lines,off}" -- "$PDSIM" validate "$S" --progress loud
expect progress-lines 0 "simulations: 4/4 (100 %), done in 0m" -- "$PDSIM" compare "$S" "$S" --seeds 2 --progress lines --out "$T/pl"
"$PDSIM" compare "$S" "$S" --seeds 2 --progress lines --out "$T/pl1" 2>/dev/null | sed "s|$T/pl1|X|" > "$T/pl1.txt"
"$PDSIM" compare "$S" "$S" --seeds 2 --progress off --out "$T/pl2" 2>/dev/null | sed "s|$T/pl2|X|" > "$T/pl2.txt"
if cmp -s "$T/pl1.txt" "$T/pl2.txt"; then ok; else bad "progress-stdout: stdout differs with --progress"; fi
# bench_serving's own workload flags on run/compare, derived from the workload declarations and
# applied after --set (the flag wins); a bad value is reported against the field it sets.
expect workload-flags 0 "Successful requests:                     4" -- "$PDSIM" run "$S" --set workload.num_prompts=9 --num-prompts 4 --request-rate inf --random-output-len 50 --out "$T/wf"
expect workload-flags-resolved 0 '"output_len": 50' -- cat "$T/wf/scenario.resolved.json"
expect workload-flag-bad 2 "field 'workload.num_prompts': expected a positive integer, got -3" -- "$PDSIM" compare "$S" "$S" --num-prompts -3 --out "$T/wfc"
expect unknown-set-path 2 "field 'decode.bogus': unknown scenario path" -- "$PDSIM" run "$S" --set decode.bogus=1 --out "$T/a"
expect negative-rate 2 "field 'workload.request_rate': expected a positive number" -- "$PDSIM" run "$S" --set workload.request_rate=-0.4 --out "$T/a"
expect wrong-type 2 "field 'decode.dp': expected an integer, got string" -- "$PDSIM" run "$S" --set decode.dp=abc --out "$T/a"
# An input that changes nothing: a warning on stderr and in the summary's provenance, rc 0.
expect no-effect-stderr 0 "warning: tail.scheduler_hiccups.delay_us = 500.0 has no effect: tail.scheduler_hiccups is switched off (enabled: false)" -- "$PDSIM" run "$S" --set tail.scheduler_hiccups.delay_us=500 --out "$T/ne"
if grep -q '"input_warnings": \[' "$T/ne/summary.json" && grep -q 'delay_us = 500.0 has no effect' "$T/ne/scenario.resolved.json"; then ok; else bad "no-effect-provenance"; fi
expect unknown-model 2 "unknown name 'glm-9'" -- "$PDSIM" run "$S" --set model=glm-9 --out "$T/a"
expect unreadable 2 "$T/nope.json: cannot open file for reading" -- "$PDSIM" run "$T/nope.json"
expect ep-not-dividing 3 "field 'decode.ep': a divisor of the 256 routed experts" -- "$PDSIM" run "$S" --set decode.nodes_per_instance=3 --set decode.tp=24 --set decode.dp=24 --set decode.ep=24 --out "$T/a"
expect memory 3 "infeasible deployment" -- "$PDSIM" run "$S" --set decode.mem_fraction_static=0.3 --out "$T/a"
echo '{"model": 5}' > "$T/bad.json"
expect missing-field 2 "$T/bad.json: field 'model': expected a string, got number" -- "$PDSIM" run "$T/bad.json"
expect bad-flag 2 "seed" -- "$PDSIM" run "$S" --seed notanumber
[ -e "$T/a" ] && { echo "FAIL: a failed run left $T/a behind"; fail=$((fail+1)); }
# A good run writes its outputs; the same seed gives byte-identical summaries.
"$PDSIM" run "$S" --out "$T/r1" >/dev/null && "$PDSIM" run "$S" --out "$T/r2" >/dev/null
for f in summary.json requests.csv itl.csv scenario.resolved.json; do
  if cmp -s "$T/r1/$f" "$T/r2/$f"; then pass=$((pass+1)); else echo "FAIL determinism: $f differs"; fail=$((fail+1)); fi
done
expect validate 0 "TTFT" -- "$PDSIM" validate "$S" --measured "$SRC/tests/data/bench_serving/pd_run.jsonl"
expect validate-bad-line 2 "malformed.jsonl: field 'line 3'" -- "$PDSIM" validate "$S" --measured "$SRC/tests/data/bench_serving/malformed.jsonl" --line 3
# Validation sets and the serving fit (calibrate/README.md).
VS=$SRC/calibrate/validation/glm51-2p2d-p5en-20260430.json
# The workload comes from the record (FILE:LINE picks one of an appended file); --scenario-workload
# keeps the scenario's, and the difference is then a warning.
expect validate-record-workload 0 "pd_run.jsonl line 1: dataset=\"random\" input_len=1024 output_len=128 range_ratio=0.0 num_prompts=8 request_rate=\"inf\" max_concurrency=4" -- "$PDSIM" validate "$S" --measured "$SRC/tests/data/bench_serving/pd_run.jsonl:1"
expect validate-line-twice 2 "no --line with --measured FILE:LINE" -- "$PDSIM" validate "$S" --measured "$SRC/tests/data/bench_serving/pd_run.jsonl:1" --line 1
expect validate-scenario-workload 0 "warning: workload differs, request_rate" -- "$PDSIM" validate "$S" --measured "$SRC/tests/data/bench_serving/pd_run.jsonl:1" --scenario-workload
# calibrate serving --init: one run per record (FILE-LINE for a line), the scenario and records
# relative to the set's folder, so the set runs from another working directory.
R=$SRC/tests/data/bench_serving/pd_run.jsonl
expect init-lines 0 "wrote $T/sets/s.json: 2 runs, fit list of 1 parameter" -- "$PDSIM" calibrate serving --init "$T/sets/s.json" --scenario "$S" "$R:1" "$R:3" --fit serving.decode.host_us_per_iteration=0:30000 --run-set pd_run-3:workload.num_prompts=4
expect init-names 0 '"name": "pd_run-3"' -- cat "$T/sets/s.json"
expect init-relative 0 '"measured": "../' -- cat "$T/sets/s.json"
expect init-from-elsewhere 0 "pd_run-3" -- bash -c "cd / && '$PDSIM' validate '$T/sets/s.json'"
expect init-no-scenario 2 "--scenario SCENARIO" -- "$PDSIM" calibrate serving --init "$T/sets/t.json" "$R:1"
expect init-no-o 2 "no -o with --init" -- "$PDSIM" calibrate serving --init "$T/sets/t.json" --scenario "$S" "$R:1" -o "$T/o.json"
expect fit-two-sets 2 "a validation set (pdsim.validation_set/1) for a joint fit; bench_serving records go with --init SET" -- "$PDSIM" calibrate serving "$T/sets/s.json" "$R:1" -o "$T/o.json"
expect fit-no-out 2 "-o OVERLAY.json" -- "$PDSIM" calibrate serving "$T/sets/s.json"
expect fit-cli-over-set 2 "field 'fabric.a2a.cpu-proxy.fixed_us=5:1': expected LO < HI" -- "$PDSIM" calibrate serving "$T/sets/s.json" --fit fabric.a2a.cpu-proxy.fixed_us=5:1 -o "$T/o.json"
sed 's/"serving.decode.host_us_per_iteration=0:30000"/"serving.decode.host_us_per_iteration=3"/' "$T/sets/s.json" > "$T/sets/bad-fit.json"
expect set-bad-fit 2 "bad-fit.json: field 'fit[0]': expected PATH=LO:HI" -- "$PDSIM" calibrate serving "$T/sets/bad-fit.json" -o "$T/o.json"
expect fit-bad-loss 2 "--loss: field 'l1': one of l2, huber, cauchy" -- "$PDSIM" calibrate serving "$T/sets/s.json" --loss l1 -o "$T/o.json"
# A converged fit that cannot be used says so (issue 28: it once printed SUCCESS at -59 %): the
# header counts the warnings, each is a line, and the overlay keeps them (fit.warnings).
# One fit (28 s under ASan), its output checked twice.
"$PDSIM" calibrate serving "$VS" --fit serving.decode.host_us_per_iteration=0:30000 --no-loo -o "$T/fq.json" > "$T/fq.txt" 2>&1
echo "exit status $?" >> "$T/fq.txt"
expect fit-quality 0 "warning (at_bound): serving.decode.host_us_per_iteration = 30000.0000 is on the end of its range" -- cat "$T/fq.txt"
expect fit-quality-header 0 "warnings on its quality (below)" -- cat "$T/fq.txt"
expect fit-quality-status 0 "exit status 0" -- cat "$T/fq.txt"
# A fabric fit from a user's own DeepEP output alone names everything else it needs at once,
# with the published files that can stand in (issue 28: one missing input per attempt before).
"$PDSIM" calibrate import "$SRC/tests/data/formats/deepep_low_latency.txt" --format deepep --instance-type p5en.48xlarge --param backend=cpu-proxy --param ep=16 --param num_experts=256 -o "$T/ll.json" >/dev/null
expect fabric-fit-missing 2 "5 inputs the fit needs, from your own measurements or a published file" -- "$PDSIM" calibrate fit "$T/ll.json" --transport srd -o "$T/prof.json"
expect fabric-fit-stand-in 2 "5. a \"proxy_path\" measurement (UCCL-EP's proxy threads and FIFO) for backend 'cpu-proxy'; published: calibrate/published/uccl-blog-proxy-path.json" -- "$PDSIM" calibrate fit "$T/ll.json" --transport srd -o "$T/prof.json"
expect validate-set 0 "reasoning-parser artefact" -- "$PDSIM" validate "$VS"
cp "$VS" "$T/set.json"
expect set-missing-file 2 "field 'runs[0].scenario': an existing file" -- "$PDSIM" validate "$T/set.json"
expect fit-unknown-path 2 "not a field of fabric profile 'efa-p5en'" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.nope=0:1 -o "$T/o.json"
expect fit-leave-out-by 2 "field 'moe': one of: run, deployment, model" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=0:500 --leave-out-by moe -o "$T/o.json"
expect fit-leave-out-one-group 2 "at least two groups" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=0:500 --leave-out-by model -o "$T/o.json"
expect fit-leave-out-no-loo 2 "no --leave-out-by with --no-loo" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=0:500 --leave-out-by deployment --no-loo -o "$T/o.json"
expect fit-joint-no-fit 2 "the parameters of a joint fit over several sets" -- "$PDSIM" calibrate serving "$VS" "$SRC/calibrate/validation/dsr1-2p2d-p5en-20260624.json" -o "$T/o.json"
expect fit-joint-same-set 2 "not already used by set" -- "$PDSIM" calibrate serving "$VS" "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=0:500 -o "$T/o.json"
expect fit-lo-hi 2 "expected LO < HI" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=5:1 -o "$T/o.json"
expect fit-unidentifiable 2 "cannot separate them" -- "$PDSIM" calibrate serving "$VS" --fit serving.decode.host_us_per_iteration=0:30000 --fit serving.decode.host_us_per_graph_replay=0:10000 -o "$T/o.json"
expect fit-not-converged 3 "did not converge: no overlay written" -- "$PDSIM" calibrate serving "$VS" --fit fabric.a2a.cpu-proxy.fixed_us=0:500 --fit serving.prefill.host_us_per_chunk=0:1000000 --max-evaluations 3 --no-loo -o "$T/o.json"
[ -e "$T/o.json" ] && { echo "FAIL: a fit that did not converge wrote $T/o.json"; fail=$((fail+1)); }
expect param-samples 0 "Parameter uncertainty" -- "$PDSIM" run "$S" --set workload.num_prompts=8 --param-samples 3 --out "$T/u"
[ -s "$T/u/uncertainty.json" ] && pass=$((pass+1)) || { echo "FAIL: no uncertainty.json"; fail=$((fail+1)); }
expect import 0 '"probe": "collective"' -- "$PDSIM" calibrate import --format nccl-tests "$SRC/tests/data/formats/nccl_all_reduce.txt"
expect list 0 "cpu-proxy" -- "$PDSIM" list
# A user's own nccl-tests output → a collective profile → what a call costs (calibrate/fit_collective).
"$PDSIM" calibrate import --format nccl-tests "$SRC/tests/data/formats/nccl_all_reduce.txt" -o "$T/nccl0.json" >/dev/null
expect collective-no-shape 2 "import its output with --param ranks=N --param nodes=M" -- "$PDSIM" calibrate collective "$T/nccl0.json" --library NCCL --fabric NVLink -o "$T/coll.json"
"$PDSIM" calibrate import --format nccl-tests "$SRC/tests/data/formats/nccl_all_reduce.txt" --param ranks=8 --param nodes=1 -o "$T/nccl.json" >/dev/null
expect collective-fit 0 "all_reduce, 8 ranks on 1 node: 1 regime(s); max |busbw error| 0.4 %" -- "$PDSIM" calibrate collective "$T/nccl.json" --library NCCL --fabric NVLink -o "$T/coll.json"
expect collective-own 0 "67108864             0       365.6      321.22      0.3%" -- "$PDSIM" collective "$T/coll.json" --ranks 8 --nodes 1 --bytes 64M
expect collective-outside 0 "* outside what was measured: all_reduce measured over 16 ranks on 2 nodes, asked for 32 on 4" -- "$PDSIM" collective nccl-2.23-ofi-1.19-efa --ranks 32 --nodes 4 --bytes 1M
expect layout-tp16 0 "prepare_mlp  moe    all_reduce     tp           16       458752     58        91.2" -- "$PDSIM" layout --flags "--tp-size 16 --nnodes 2" --model deepseek-v3 --tokens 32 --collective nccl-2.23-ofi-1.19-efa
# --cuda-graph-bs 128 with --max-running-requests 256 at dp 16: SGLang captures [16] (the pool),
# so 2 tokens per group replay as 16 and the gathers carry 16 x 16 x 7168 x 2 B = 3670016 B.
expect layout-graph-pool 0 "CUDA graph: captures [16] (request pool 16 per DP rank); the replay pads every group to 16" -- "$PDSIM" layout --flags "--tp-size 16 --dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1 --ep-size 16 --cuda-graph-bs 128 --max-running-requests 256 --nnodes 2" --model deepseek-v3 --tokens 2
expect layout-graph-gather 0 "prepare_mlp  moe    all_gather     tp           16      3670016     58" -- "$PDSIM" layout --flags "--tp-size 16 --dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1 --ep-size 16 --cuda-graph-bs 128 --max-running-requests 256 --nnodes 2" --model deepseek-v3 --tokens 2
# With no all_gather curve the gathers are costed as pdsim run costs them (half an all-reduce of
# the buffer: 0.5 x (86.5 + 2 x 15/16 x 3670016 / 181.05 kB/us) = 62.2 us), marked "~".
expect layout-graph-estimate 0 "prepare_mlp  moe    all_gather     tp           16      3670016     58       62.2~" -- "$PDSIM" layout --flags "--tp-size 16 --dp-size 16 --enable-dp-attention --enable-dp-lm-head --moe-dense-tp-size 1 --ep-size 16 --cuda-graph-bs 128 --max-running-requests 256 --nnodes 2" --model deepseek-v3 --tokens 2 --collective nccl-2.23-ofi-1.19-efa
expect layout-sglang-rule 2 "field 'launch_server --dp-size': a divisor of --tp-size with --enable-dp-attention (server_args.py _handle_data_parallelism" -- "$PDSIM" layout --flags "--tp-size 16 --dp-size 6 --enable-dp-attention --nnodes 2" --model deepseek-v3
expect collective-bad-size 2 "field '--bytes': a size such as 8192, 8K, 1M or 8G, got '1X'" -- "$PDSIM" collective nccl-2.23-ofi-1.19-efa --bytes 1M --bytes 1X
# Run facts DeepEP output lacks, added at import (calibrate/import_parameters.hpp).
expect import-instance 0 '"nics_per_gpu": 2.0' -- "$PDSIM" calibrate import --format deepep "$SRC/tests/data/formats/deepep_low_latency.txt" --instance-type p5en.48xlarge --param backend=cpu-proxy --param ep=16
expect import-param-bad 2 "field '--param': KEY=VALUE, got 'ep16'" -- "$PDSIM" calibrate import --format deepep "$SRC/tests/data/formats/deepep_low_latency.txt" --param ep16
expect list-commands 0 "  sweep             run a grid" -- "$PDSIM" list
expect list-workloads 0 "  moe_a2a           MoE dispatch/combine phases over EP ranks" -- "$PDSIM" list
# Import (docs/import.md) and --report (docs/reports.md).
expect import-sglang 0 '"chunked_prefill_size": 8192' -- "$PDSIM" import sglang --prefill "--tp-size 8 --chunked-prefill-size=8192 --disaggregation-mode prefill" --decode "--tp-size 16 --dp-size 16 --enable-dp-attention --disaggregation-mode decode --frob 1"
expect import-sglang-ignored 0 "ignored (decode): --frob 1" -- "$PDSIM" import sglang --prefill "--disaggregation-mode prefill" --decode "--disaggregation-mode decode --frob 1"
expect import-sglang-bad 2 "--prefill: field '--tp-size': expected an integer >= 1, got \"eight\"" -- "$PDSIM" import sglang --prefill "--tp-size=eight --disaggregation-mode prefill" --decode "--disaggregation-mode decode"
expect import-topology 0 '"shared_layers"' -- "$PDSIM" import topology "$SRC/tests/data/formats/aws_topology.json"
expect report-ext 2 "field '--report': a file ending in .html, .md or .csv" -- "$PDSIM" run "$S" --report "$T/r.pdf" --out "$T/a"
# Outside the corpus, DeepSeek-R1's DP decode behind a prefill without DP (both layouts measured,
# never together) takes its TPOT interval from the collective overlay's left-out deployments
# (sim/fit/fold_spread.hpp); a platform no left-out run had keeps the corpus's spread, and says why.
D=$SRC/scenarios/dsr1
expect fold-spread 0 "(per-token time; left out of dsr1-2p2d-p5en-20260624's fit; 39 runs, 6 deployment(s))" -- "$PDSIM" run "$D/dsr1-2p2d-p5en-tp-dp.json" --set prefill.dp=1 --set prefill.dp_attention=false --set prefill.enable_dp_lm_head=false --out "$T/fs"
expect fold-spread-json 0 '"basis": "spread of the fit'"'"'s left-out deployments"' -- cat "$T/fs/summary.json"
expect fold-spread-not 0 "Not from the left-out deployments of dsr1-2p2d-p5en-20260624's fit: no run its folds predicted had platform p5.48xlarge" -- "$PDSIM" run "$D/dsr1-2p2d-p5-deepep.json" --out "$T/fs2"
# The DeepSeek-R1 sweep's scenarios are import.sh's output from the published launch lines.
mkdir -p "$T/dsr1" && sh "$SRC/scenarios/dsr1/import.sh" "$PDSIM" "$T/dsr1"
# import rebases the base's overlay path onto the folder it writes to: put it back as the
# scenarios' own folder has it before comparing.
rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
  "$SRC/calibrate/overlays" "$T/dsr1")
sed -i "s#\"$rel/#\"../../calibrate/overlays/#" "$T"/dsr1/*.json
# Every scenario of the folder is import.sh's output, and import.sh writes no other.
for f in "$SRC"/scenarios/dsr1/*.json "$T"/dsr1/*.json; do
  n=$(basename "$f")
  if cmp -s "$T/dsr1/$n" "$SRC/scenarios/dsr1/$n"; then pass=$((pass+1))
  else echo "FAIL: scenarios/dsr1/$n is not import.sh's output (run it)"; fail=$((fail+1)); fi
done
"$PDSIM" run "$S" --out "$T/r3" --report "$T/r3.html" --report "$T/r3.md" >/dev/null
if grep -q 'id="itl-cdf"' "$T/r3.html" && grep -q '## ITL distribution' "$T/r3.md"; then pass=$((pass+1)); else echo "FAIL: --report files"; fail=$((fail+1)); fi
# A scenario with a base (scenarios/README.md): three lines in a folder of their own, run from
# another folder, are the shipped scenario with the same --set: outputs byte-identical, and the
# resolved scenario flat (no base) with the base's overlay path made absolute.
in_dir() { (cd "$1" && shift && "$@"); }
mkdir -p "$T/mine" "$T/elsewhere"
printf '{\n  "base": "glm51-2p2d-efa-quick", "workload": {"num_prompts": 6}\n}\n' > "$T/mine/six.json"
expect base-run 0 "Successful requests:                     6" -- in_dir "$T/elsewhere" "$PDSIM" run ../mine/six.json --out "$T/b1"
expect base-resolved 0 '"num_prompts": 6' -- cat "$T/b1/scenario.resolved.json"
if grep -q '"base"' "$T/b1/scenario.resolved.json"; then bad "base-flat: the resolved scenario has a base"; else ok; fi
"$PDSIM" run "$S" --set workload.num_prompts=6 --out "$T/b2" >/dev/null
if [ "$(ls "$T/b1")" = "$(ls "$T/b2")" ]; then ok; else bad "base-outputs: different files"; fi
for f in $(ls "$T/b2"); do
  [ "$f" = scenario.resolved.json ] && continue
  if cmp -s "$T/b1/$f" "$T/b2/$f"; then ok; else bad "base-outputs: $f differs from the shipped scenario's"; fi
done
if sed "s|^\( *\)\"$SRC/calibrate/|\1\"../calibrate/|" "$T/b1/scenario.resolved.json" | cmp -s - "$T/b2/scenario.resolved.json"; then ok
else bad "base-resolved-same: the resolved scenarios differ beyond the overlay path"; fi
# pdsim list names a variant that leaves its schema to its base.
mkdir -p "$T/data/scenarios" && ln -s "$SRC/models" "$T/data/models" && cp "$S" "$T/data/scenarios/q.json"
echo '{"base": "q.json", "seed": 3}' > "$T/data/scenarios/quick-variant.json"
expect base-list 0 "  quick-variant" -- env PDSIM_DATA_DIR="$T/data" "$PDSIM" list
echo '{"base": "nope"}' > "$T/mine/nobase.json"
expect base-missing 2 "$T/mine/nobase.json: field 'base': expected a scenario file relative to" -- "$PDSIM" run "$T/mine/nobase.json" --out "$T/a"
# pdsim connections: the connection table of the libraries in play, per host (issue 29); compare
# writes both deployments' tables to connections.json and names them on stdout.
expect connections-roce 0 "per host   1920 rc_qp, 24 dc_qp" -- "$PDSIM" connections glm51-2p2d-roce
expect connections-efa 0 "per host   96 srd_qp, 256 address_handle, 32 cq" -- "$PDSIM" connections glm51-2p2d-efa --json "$T/conn.json"
expect connections-json 0 '"library": "mooncake-efa"' -- cat "$T/conn.json"
expect connections-bad 2 "field 'decode.bogus': unknown scenario path" -- "$PDSIM" connections glm51-2p2d-efa --set decode.bogus=1
expect connections-compare 0 '"library": "uccl-ep-efa"' -- cat "$T/pl/connections.json"
# pdsim a2a: one dispatch and combine from a fabric profile's backend parameters.
expect a2a-table 0 "    16" -- "$PDSIM" a2a --profile roce-cx7 --backend ibgda --instance onprem-h200-cx7 --ep 8 --ep 16
expect a2a-bad-ep 2 "field '--ep': an EP size that divides the 256 routed experts, got 24" -- "$PDSIM" a2a --profile roce-cx7 --backend ibgda --ep 24
expect a2a-no-block 2 "has no parameters for all-to-all backend 'cpu-proxy'" -- "$PDSIM" a2a --profile roce-cx7 --backend cpu-proxy
finish
