#!/usr/bin/env bash
# Builds the Departures example as an app outside the Glide package would be built, runs it
# headless through golden.jsonl (a swipe on the list, 12 clock ticks, two departures inserted
# above the row being read, then a flick across a tick and an insertion) and compares the
# screenshots with Golden/after-ticks.png and Golden/mid-flick.png: at most 0.1% of the pixels
# may differ, none by more than 8 per channel (font rendering is the only expected source of
# difference between machines). Runs the script again with the clock stopped
# (DEPARTURES_CLOCK=off): the flick must end exactly where it does with the clock ticking. Also
# checks the exit status and message of the app without a display and without `run`.
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
still=$(mktemp -d /tmp/departures-still.XXXXXX)
"$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$out"
DEPARTURES_CLOCK=off "$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$still"
if [ "${1:-}" = --update ]; then
    cp "$out/after-ticks.png" "$out/mid-flick.png" Golden/; echo "updated Golden/after-ticks.png and Golden/mid-flick.png"; exit 0
fi
PYTHONPATH=.. /usr/bin/python3 - "$out" "$still" <<'PY'
import json, sys
from golden import compare_goldens, scroll_views
out, still = sys.argv[1], sys.argv[2]
compare_goldens("departures", out, ["after-ticks", "mid-flick"])
def departures(run, state):
    return scroll_views(run, state)[0]["departures"]
assert departures(out, "mid-flick")["phase"] in ("decelerating", "bouncing"), "the 14 s tick stopped the flick"
for state in ["mid-flick", "after-insert", "flick-rest"]:
    a, b = departures(out, state)["offset"], departures(still, state)["offset"]
    print(f"departures {state}: list at {a} with the clock ticking, {b} without")
    assert a == b, f"{state}: the ticking clock moved the list"
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
