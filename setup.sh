#!/usr/bin/env bash
# Installs the Debian packages pdsim needs. Idempotent: apt runs only when something is missing.
# Slurm, munge, Open MPI and yamllint are for the tests that run sweep shards on a throwaway Slurm
# cluster and under mpirun, and check the Kubernetes manifest (docs/sweep.md).
set -euo pipefail
PKGS=(build-essential cmake pkg-config git
      libsimgrid-dev libboost-dev libeigen3-dev libcli11-dev nlohmann-json3-dev libnlopt-dev
      libgtest-dev libgmock-dev libbenchmark-dev
      libfabric-dev libfabric-bin libibverbs-dev rdma-core libopenmpi-dev openmpi-bin
      slurmctld slurmd slurm-client munge yamllint
      clang-14 clang-format libclang-rt-14-dev time python3 valgrind)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
