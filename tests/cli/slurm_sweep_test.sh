#!/usr/bin/env bash
# The sharded sweep on a real Slurm: a throwaway single-node cluster (munged, slurmctld, slurmd,
# all in a temporary folder, on free ports) runs scenarios/sweeps/quick-smoke.json as a job array
# of 2 shards (the form of docs/sweep/slurm-array.sh), then a merge job that depends on the array
# (afterok); the merged file must equal one local `pdsim sweep --jobs 1` run byte for byte.
# Every daemon started here is stopped on exit. Needs root (SlurmUser=root) and the packages of
# setup.sh (slurmctld, slurmd, slurm-client, munge).
# Usage: tests/cli/slurm_sweep_test.sh PDSIM SOURCE_DIR
set -u
# The whole test is bounded: rerun under timeout (its SIGTERM runs the cleanup below).
[ -n "${PDSIM_UNDER_TIMEOUT:-}" ] || PDSIM_UNDER_TIMEOUT=1 exec timeout 150 "$0" "$@"
PDSIM=$(readlink -f "$1"); SRC=$(readlink -f "$2")
export PDSIM_DATA_DIR=$SRC
SWEEP=$SRC/scenarios/sweeps/quick-smoke.json
fail() { echo "FAIL slurm_sweep: $*"; exit 1; }

for c in munged mungekey slurmctld slurmd sbatch sinfo scontrol scancel python3 timeout; do
  command -v "$c" >/dev/null 2>&1 ||
    PATH=$PATH:/usr/sbin:/sbin command -v "$c" >/dev/null 2>&1 ||
    fail "'$c' not found: run ./setup.sh (it installs slurmctld, slurmd, slurm-client and munge)"
done
export PATH=$PATH:/usr/sbin:/sbin
[ "$(id -u)" -eq 0 ] || fail "must run as root (the test cluster runs with SlurmUser=root)"
[ -f "$SWEEP" ] || fail "missing $SWEEP"

T=$(mktemp -d /tmp/pdsim-slurm.XXXXXX); chmod 755 "$T"
ARRAY=""; MERGE=""
# Running and not a zombie (an exited daemon whose parent has not reaped it yet).
alive() { local st; st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null); [ -n "$st" ] && [ "$st" != Z ]; }
cleanup() {
  [ -n "$ARRAY$MERGE" ] && timeout 5 scancel $ARRAY $MERGE >/dev/null 2>&1
  local f p
  for f in slurmd slurmctld munged; do
    [ -s "$T/$f.pid" ] && p=$(cat "$T/$f.pid") && kill "$p" 2>/dev/null || continue
    for _ in $(seq 1 50); do alive "$p" || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  if [ -n "${KEEP_TMP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'fail "interrupted or timed out"' INT TERM
logs() { local f; for f in "$@"; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done; }
deadline() { echo $(( $(date +%s) + $1 )); }

# munged with its own key, socket, pid, log and seed files.
mungekey --create --keyfile "$T/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none || fail "cannot create a munge key"
chmod 0400 "$T/munge.key"
MSOCK=$T/munge.sock
timeout 10 munged --force --socket "$MSOCK" --key-file "$T/munge.key" --pid-file "$T/munged.pid" \
  --log-file "$T/munged.log" --seed-file "$T/munged.seed" || { logs "$T/munged.log"; fail "munged did not start"; }
timeout 10 munge -n -S "$MSOCK" | timeout 10 unmunge -S "$MSOCK" >/dev/null ||
  { logs "$T/munged.log"; fail "munge credential round trip through $MSOCK failed"; }

# Two free TCP ports for slurmctld and slurmd.
read -r P1 P2 < <(python3 -c '
import socket
s=[socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1",0))
print(*[x.getsockname()[1] for x in s])')
[ -n "${P2:-}" ] || fail "no free ports"

H=$(hostname -s)
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<CONF
ClusterName=pdsimtest
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$P1
SlurmdPort=$P2
AuthType=auth/munge
AuthInfo=socket=$MSOCK
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
PlugStackConfig=$T/plugstack.conf
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=10 State=UP
CONF
: > "$T/plugstack.conf"
export SLURM_CONF=$T/slurm.conf

timeout 20 slurmctld -f "$SLURM_CONF" -i || { logs "$T/slurmctld.log"; fail "slurmctld did not start"; }
timeout 20 slurmd -f "$SLURM_CONF" || { logs "$T/slurmd.log"; fail "slurmd did not start"; }
end=$(deadline 30)
until [ "$(timeout 5 sinfo -h -n "$H" -o %T 2>/dev/null)" = idle ]; do
  [ "$(date +%s)" -lt "$end" ] || { timeout 5 sinfo; logs "$T/slurmctld.log" "$T/slurmd.log"; fail "node $H not idle within 30 s"; }
  sleep 0.5
done

# The array is docs/sweep/slurm-array.sh itself, as documented (run from a folder holding
# build/pdsim and out/sweeps/): task i of 2 runs shard i/2 into
# out/sweeps/quick-smoke.shard-i-of-2.jsonl. The command line overrides its 16 CPUs and 1 hour.
# Then the merge, once the whole array has succeeded.
mkdir -p "$T/build" "$T/out/sweeps"; ln -s "$PDSIM" "$T/build/pdsim"
ARRAY=$(cd "$T" && timeout 10 sbatch --parsable --array=0-1 --cpus-per-task=1 --time=5 \
  "$SRC/docs/sweep/slurm-array.sh" "$SWEEP") || { logs "$T/slurmctld.log"; fail "sbatch of the shard array failed"; }
ARRAY=${ARRAY%%;*}
MERGE=$(cd "$T" && timeout 10 sbatch --parsable --dependency="afterok:$ARRAY" --ntasks=1 --time=5 \
  --output="$T/merge-%j.log" \
  --wrap "exec build/pdsim sweep merge out/sweeps/quick-smoke.shard-*-of-2.jsonl -o ALL.jsonl") ||
  { logs "$T/slurmctld.log"; fail "sbatch of the merge job failed"; }
MERGE=${MERGE%%;*}

end=$(deadline 60)
while :; do
  job=$(timeout 5 scontrol show job "$MERGE" 2>/dev/null)
  st=$(grep -o 'JobState=[A-Z_]*' <<<"$job" | cut -d= -f2)
  grep -q 'Reason=DependencyNeverSatisfied' <<<"$job" && st=DEPENDENCY_NEVER_SATISFIED
  case "$st" in
    COMPLETED) break ;;
    DEPENDENCY_NEVER_SATISFIED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
      timeout 5 scontrol show job "$ARRAY"; logs "$T"/out/sweeps/slurm-*.log "$T"/merge-*.log "$T/slurmd.log"
      fail "merge job $MERGE ended $st" ;;
  esac
  [ "$(date +%s)" -lt "$end" ] || { timeout 5 scontrol show job "$ARRAY"; timeout 5 scontrol show job "$MERGE"
    logs "$T"/out/sweeps/slurm-*.log "$T"/merge-*.log "$T/slurmctld.log" "$T/slurmd.log"; fail "merge job $MERGE not done within 60 s (state ${st:-unknown})"; }
  sleep 0.5
done
grep -q "merged 8 points" "$T"/merge-*.log || { logs "$T"/merge-*.log; fail "merge log does not say 'merged 8 points'"; }

# The same sweep in one local process; the merged shards must equal it byte for byte.
(cd "$T" && timeout 60 "$PDSIM" sweep "$SWEEP" --jobs 1 --no-progress --results "$T/local.jsonl") >"$T/local.log" 2>&1 ||
  { logs "$T/local.log"; fail "local sweep failed"; }
cmp "$T/ALL.jsonl" "$T/local.jsonl" || fail "merged Slurm shards differ from the local sweep"
n0=$(wc -l < "$T/out/sweeps/quick-smoke.shard-0-of-2.jsonl"); n1=$(wc -l < "$T/out/sweeps/quick-smoke.shard-1-of-2.jsonl")
[ "$n0" -eq 4 ] && [ "$n1" -eq 4 ] || fail "shard files have $n0 and $n1 lines (want 4 and 4)"
echo "slurm_sweep: array $ARRAY (2 shards, $n0 + $n1 points) and merge job $MERGE: merged file equals the local run"
