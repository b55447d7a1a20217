#!/usr/bin/env bash
# Semantic limits of a scenario (issue 15): inputs that used to abort (bad_alloc, deadlock) or run
# silently with a meaning they cannot have now exit 2 naming the field and the bound.
# Usage: tests/cli/input_limits_test.sh PDSIM SOURCE_DIR
set -u
PDSIM=$1; SRC=$2
export PDSIM_DATA_DIR=$SRC
S=$SRC/scenarios/glm51-2p2d-efa-quick.json
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
EXPECT_TIMEOUT=60
source "$(dirname "$0")/expect.sh"
RUN=("$PDSIM" run "$S" --out "$T/o")
# Used to abort: a deadlock report at 1e-9, bad_alloc (per-second buckets) at 1e-12 and 1e-20.
for r in 1e-9 1e-12 1e-20; do
  expect "rate-$r" 2 "field 'workload.request_rate': expected at least num_prompts / 1e6 s" -- "${RUN[@]}" --set workload.request_rate=$r
done
expect prompts 2 "field 'workload.num_prompts': expected an integer in [1, 1000000]" -- "${RUN[@]}" --set workload.num_prompts=2000000
# Used to run silently: a global cap below dp (each rank still got 1), a prompt past max_context,
# a topology file that does not exist (analytic fidelity never read it), unbounded samples.
expect mrr-below-dp 2 "field 'decode.max_running_requests': expected at least decode.dp (16)" -- "${RUN[@]}" --set decode.max_running_requests=1
expect max-context 2 "at most the model's max_context 202752" -- "${RUN[@]}" --set workload.input_len=250000
expect topology 2 "field 'cluster.topology_file': an existing file" -- "${RUN[@]}" --set cluster.topology_file=nope.json
expect routing-samples 2 "field 'fabric.routing_samples': expected an integer in [1, 10000]" -- "${RUN[@]}" --set fabric.routing_samples=1000000000
# A GPU profile with a launch latency of 1e12 µs gave bad_alloc.
sed 's/"kernel_launch_us": [0-9][0-9.e+-]*/"kernel_launch_us": 1e12/' "$SRC/models/profiles/gpu/h200-measured.json" > "$T/g.json"
expect launch-us 2 "field 'kernel_launch_us': expected at most 1000 µs" -- "${RUN[@]}" --set gpu_profile="$T/g.json"
finish
