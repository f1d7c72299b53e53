#!/usr/bin/env bash
# Builds the Departures example as an app outside the Glide package would be built, runs it
# headless through golden.jsonl (a swipe on the list, 12 clock ticks, two departures inserted
# above the row being read) and compares the screenshot with Golden/after-ticks.png: at most
# 0.1% of the pixels may differ, none by more than 8 per channel (font rendering is the only
# expected source of difference between machines). Also checks the exit status and message of
# the app without a display and without `run`.
#   Examples/Departures/check.sh            check
#   Examples/Departures/check.sh --update   rewrite the golden (look at it first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
/usr/bin/python3 -c "import PIL" 2>/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pil >/dev/null
swift build 2>&1 | grep -E "error|warning: unre|Compiling Departures|Build complete" || true
bin=$(swift build --show-bin-path)/Departures
[ -x "$bin" ] || { echo "departures: the build failed" >&2; exit 1; }
out=$(mktemp -d /tmp/departures.XXXXXX)
"$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$out"
if [ "${1:-}" = --update ]; then cp "$out/after-ticks.png" Golden/after-ticks.png; echo "updated Golden/after-ticks.png"; exit 0; fi
/usr/bin/python3 - "$out" <<'PY'
import json, sys
from PIL import Image, ImageChops
out = sys.argv[1]
a = Image.open(f"{out}/after-ticks.png").convert("RGB")
b = Image.open("Golden/after-ticks.png").convert("RGB")
assert a.size == b.size, f"size {a.size} != golden {b.size}"
diff = ImageChops.difference(a, b)
pixels = list(diff.getdata())
off = sum(1 for p in pixels if max(p) > 2)
worst = max(max(p) for p in pixels)
print(f"departures golden: {off} of {len(pixels)} pixels differ by more than 2 (worst {worst})")
assert off <= len(pixels) // 1000 and worst <= 8, "the screenshot differs from Golden/after-ticks.png"
s = json.load(open(f"{out}/ticks.json"))
rows = [e["id"] for e in s["elements"]] if s.get("elements") else []
sv = {v["id"]: v for v in s["scrollViews"]}
print(f"departures state: list offset {sv['departures']['offset']}, top row {sv['departures']['topId']}")
assert sv["departures"]["topId"] == "dep-1", "the row being read moved when departures were added"
PY
set +e
msg=$(env -u DISPLAY "$bin" 2>&1 < /dev/null); status=$?
set -e
if ls /dev/dri/card* >/dev/null 2>&1; then echo "departures: a display is present; skipped the no-display check"; else
    [ $status = 2 ] && echo "$msg" | grep -q "run --backend headless" || { echo "departures without a display: status $status, '$msg'" >&2; exit 1; }
fi
echo "departures: built outside the package, golden matches, clean message without a display"
