#!/usr/bin/env bash
# The unity build (the default) compiles sources in batches of 8, which hides a file that leans on
# a batch-mate's includes or names. This compiles every C++ translation unit on its own, as
# -DPDSIM_UNITY_BUILD=OFF would, but front end only (-fsyntax-only: parsing, name lookup and
# template instantiation, which is where such a file fails; no code generation and no link, which
# the unity build already covers). CUDA sources are never batched and are left out.
#   tests/build/unity_off_check.sh [BUILD_DIR [COMPILED_OBJ_DIR]]
# (default build-nounity; JOBS parallel compilers). With COMPILED_OBJ_DIR (CI passes the fuzz
# build's build-fuzz/obj, where tests/fuzz/run_fuzz.sh compiles 212 sources one by one with clang)
# a source whose object is there has already compiled on its own and is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-nounity}
compiled=${2:-}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPDSIM_UNITY_BUILD=OFF -DPDSIM_BUILD_CUDA=OFF \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
# One NUL-terminated shell command per C++ translation unit: its real compile line with the object
# output replaced by -fsyntax-only.
python3 - "$dir/compile_commands.json" "$PWD" "$compiled" >"$dir/syntax_commands" <<'PY'
import json, os, re, shlex, sys
root, compiled = sys.argv[2], sys.argv[3]
for e in json.load(open(sys.argv[1])):
    if not e["file"].endswith(".cpp"):
        continue
    # run_fuzz.sh's object name: the path under the root with '/' as '_', .cpp as .o
    rel = os.path.relpath(e["file"], root)
    if compiled and os.path.isfile(os.path.join(compiled, rel.replace("/", "_")[:-4] + ".o")):
        continue
    cmd = re.sub(r" -o \S+ -c ", " -fsyntax-only ", e["command"])
    if "-fsyntax-only" not in cmd:
        sys.exit("unity_off_check: cannot rewrite the compile line of " + e["file"])
    sys.stdout.write("cd " + shlex.quote(e["directory"]) + " && " + cmd + "\0")
PY
n=$(tr -cd '\0' <"$dir/syntax_commands" | wc -c)
echo "unity-off check: $n translation units, $JOBS at a time"
if xargs -0 -P "$JOBS" -n 1 bash -c <"$dir/syntax_commands"; then
  echo "unity-off check: all $n compile on their own"
else
  echo "unity-off check: FAILED (the errors above); build with -DPDSIM_UNITY_BUILD=OFF to see them" >&2
  exit 1
fi
