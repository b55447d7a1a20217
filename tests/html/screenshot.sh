#!/usr/bin/env bash
# Renders every kind of pdsim report page in headless Chromium and checks that the charts were
# drawn. Not part of CI (it installs a browser): run by hand after changing the report pages.
#
#   tests/html/screenshot.sh [PDSIM_BINARY [OUT_DIR [MORE.html...]]]
#
# 1. installs chromium with apt-get if it is missing (Debian 12: `apt-get install -y chromium`);
# 2. writes the six pages with PDSIM_BINARY (default build/pdsim), each with --report FILE.html:
#      run.html      `pdsim run` of the reference EFA scenario (1024 requests);
#      seeds.html    `pdsim run` of the quick EFA scenario with --seeds 8 (the spread over seeds);
#      compare.html  `pdsim compare` quick EFA vs quick RoCE with --seeds 4 --param-samples 4;
#      validate.html `pdsim validate` of the GLM-5.1 validation set (three measured runs);
#      fit.html      `pdsim calibrate serving` of that set, one parameter, leave-one-out on;
#      sweep.html    `pdsim sweep` of scenarios/sweeps/glm51-efa-capacity.json (SLOs, capacity);
#    MORE.html pages are checked too;
# 3. for each page: `chromium --headless --dump-dom` must show <body data-charts-rendered="N">
#    with N equal to the number of <canvas> elements (the page script sets it after Chart.js
#    drew every chart), and `--screenshot` must give a PNG whose decoded pixels are not blank
#    (more than 8 distinct colours and more than 2% non-white pixels, checked with Python's
#    zlib: no ImageMagick needed).
# Screenshots are left in OUT_DIR (default out/html-screenshots) to look at.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pdsim=${1:-$root/build/pdsim}
out=${2:-$root/out/html-screenshots}
mkdir -p "$out"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "installing chromium (apt-get)..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  browser=$(command -v chromium)
fi
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files
       --virtual-time-budget=5000 --run-all-compositor-stages-before-draw)

q=(--progress off)
"$pdsim" run "$root/scenarios/glm51-2p2d-efa.json" --out "$out/run" --report "$out/run.html" "${q[@]}" >/dev/null
"$pdsim" run "$root/scenarios/glm51-2p2d-efa-quick.json" --seeds 8 --out "$out/seeds" \
  --report "$out/seeds.html" "${q[@]}" >/dev/null
"$pdsim" compare "$root/scenarios/glm51-2p2d-efa-quick.json" "$root/scenarios/glm51-2p2d-roce-quick.json" \
  --seeds 4 --param-samples 4 --out "$out/compare" --report "$out/compare.html" "${q[@]}" >/dev/null
set_file="$root/calibrate/validation/glm51-2p2d-p5en-20260430.json"
"$pdsim" validate "$set_file" --report "$out/validate.html" "${q[@]}" >/dev/null
"$pdsim" calibrate serving "$set_file" --fit serving.decode.host_us_per_iteration=0:30000 \
  -o "$out/fit-overlay.json" --report "$out/fit.html" >/dev/null 2>&1
rm -f "$out/sweep.jsonl" "$out/sweep.analysis.json"
"$pdsim" sweep "$root/scenarios/sweeps/glm51-efa-capacity.json" --results "$out/sweep.jsonl" \
  --report "$out/sweep.html" "${q[@]}" >/dev/null
pages=("$out/run.html" "$out/seeds.html" "$out/compare.html" "$out/validate.html" "$out/fit.html"
       "$out/sweep.html" "${@:3}")

status=0
for page in "${pages[@]}"; do
  name=$(basename "$page" .html)
  dom=$("$browser" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null)
  canvases=$(grep -o '<canvas' <<<"$dom" | wc -l)
  drawn=$(grep -o 'data-charts-rendered="[0-9]*"' <<<"$dom" | grep -o '[0-9]*' || echo 0)
  "$browser" "${flags[@]}" --window-size=1280,4200 --screenshot="$out/$name.png" "file://$page" >/dev/null 2>&1
  verdict=$(python3 - "$out/$name.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, inked, total = bytearray(stride), set(), 0, 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):  # undo the PNG row filter
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 4):  # every 4th pixel is plenty
        px = bytes(line[x:x + 3]); colours.add(px); total += 1
        inked += px != b"\xff\xff\xff"
    prev = line
ok = len(colours) > 8 and inked > 0.02 * total
print(f"{'ok' if ok else 'BLANK'} {w}x{h} colours={len(colours)} non-white={100.0 * inked / total:.1f}%")
PY
)
  echo "$name: canvases=$canvases drawn=$drawn screenshot: $verdict ($out/$name.png)"
  if [ "$canvases" -eq 0 ] || [ "$drawn" != "$canvases" ] || [[ $verdict != ok* ]]; then status=1; fi
done
exit $status
