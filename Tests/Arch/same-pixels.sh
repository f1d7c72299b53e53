#!/usr/bin/env bash
# The same pixels on x86_64 and aarch64 (ARCH-1): runs the catalog through the tour tour.py places
# at each size (rubber band, flicks, a page snap, the page control, the photo's pinch and
# double tap, the Japanese article; screenshots mid-animation) with this machine's glide and with
# the aarch64 glide under qemu-user, at each SIZE given (default 1280x800 and 480x800), and
# requires every screenshot and the final state to be equal, pixel for pixel.
#   Tests/Arch/same-pixels.sh [WxH...]     GLIDE_BIN: the x86_64 glide (default: a debug build)
set -euo pipefail
/usr/bin/python3 -c "import PIL" 2>/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pil >/dev/null
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${SAME_PIXELS_OUT:-$ROOT/.build-cross/same-pixels}
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(1280x800 480x800)
if [ -z "${GLIDE_BIN:-}" ]; then
    (cd "$ROOT" && swift build --product glide >/dev/null)
    GLIDE_BIN=$(cd "$ROOT" && swift build --show-bin-path)/glide
fi
"$ROOT/Board/cross.sh" aarch64 >/dev/null   # build (or reuse) the aarch64 glide
# Every screenshot and the final state of DIR/x86_64 and DIR/aarch64 equal, pixel for pixel.
same() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, os, sys
from PIL import Image, ImageChops
out, size = sys.argv[1], sys.argv[2]
x86, arm = os.path.join(out, "x86_64"), os.path.join(out, "aarch64")
shots = sorted(f for f in os.listdir(x86) if f.endswith(".png"))
bad = []
for f in shots:
    if not os.path.exists(os.path.join(arm, f)): bad.append(f"{f}: missing on aarch64"); continue
    a, b = (Image.open(os.path.join(d, f)).convert("RGBA") for d in (x86, arm))
    if a.size != b.size: bad.append(f"{f}: {a.size} vs {b.size}"); continue
    diff = ImageChops.difference(a, b)
    # Counted only when they differ (a million pixels a shot, in Python); each band looked at,
    # as an RGBA image's getbbox looks at its alpha alone.
    if any(band.getbbox() for band in diff.split()):
        bad.append(f"{f}: {sum(1 for p in diff.getdata() if any(p))} pixels differ")
if json.load(open(os.path.join(x86, "final.json"))) != json.load(open(os.path.join(arm, "final.json"))):
    bad.append("final.json differs")
for line in bad: print(f"{size}: {line}")
print(f"{size}: {len(shots)} screenshots, {len(shots) - len(bad)} identical on x86_64 and aarch64")
sys.exit(1 if bad else 0)
PY
}
status=0
for size in "${SIZES[@]}"; do
    rm -rf "$OUT/$size"; mkdir -p "$OUT/$size"
    # The tour is placed by the catalog's layout at this size (tour.py).
    echo '{"t":1500,"state":"start"}' > "$OUT/$size/start.jsonl"
    (cd "$ROOT" && "$GLIDE_BIN" run --backend headless --app catalog --size "$size" --script "$OUT/$size/start.jsonl" --out "$OUT/$size/start" >/dev/null)
    python3 "$ROOT/Tests/Arch/tour.py" "$OUT/$size/start/start.json" > "$OUT/$size/tour.jsonl"
    args=(run --backend headless --app catalog --size "$size" --script "$OUT/$size/tour.jsonl")
    (cd "$ROOT" && "$GLIDE_BIN" "${args[@]}" --out "$OUT/$size/x86_64" >/dev/null)
    (cd "$ROOT" && "$ROOT/Board/cross.sh" aarch64 run "${args[@]}" --out "$OUT/$size/aarch64" >/dev/null)
    same "$OUT/$size" "$size" || status=1
done
# The clips (issue 63): the attract loop at two times, the first touch, the feed with its cards
# playing (GStreamer decodes on both machines; H.264 decoding is exact by its standard), at
# SAME_PIXELS_VIDEO_SIZE (default the first size), half a second after the script (a looping
# clip never rests).
size=${SAME_PIXELS_VIDEO_SIZE:-${SIZES[0]}}
rm -rf "$OUT/video"; mkdir -p "$OUT/video"
printf '%s\n' '{"t":500,"screenshot":"video-attract-0.5s"}' '{"t":1500,"screenshot":"video-attract-1.5s"}' \
    '{"t":1600,"touch":"down","id":0,"x":200,"y":200}' '{"t":1650,"touch":"up","id":0}' \
    '{"t":2500,"screenshot":"video-feed-2.5s"}' > "$OUT/video/tour.jsonl"
args=(run --backend headless --app catalog --manifest Board/content/video.json --size "$size" --settle-seconds 0.5 --script "$OUT/video/tour.jsonl")
(cd "$ROOT" && "$GLIDE_BIN" "${args[@]}" --out "$OUT/video/x86_64" >/dev/null)
(cd "$ROOT" && "$ROOT/Board/cross.sh" aarch64 run "${args[@]}" --out "$OUT/video/aarch64" >/dev/null)
same "$OUT/video" "video $size" || status=1
exit $status
