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
. ../check-lib.sh
run_twice Departures DEPARTURES_CLOCK
if [ "${1:-}" = --update ]; then
    cp "$ticking/after-ticks.png" "$ticking/mid-flick.png" Golden/; echo "updated Golden/after-ticks.png and Golden/mid-flick.png"; exit 0
fi
PYTHONPATH=.. /usr/bin/python3 - "$ticking" "$still" <<'PY'
import sys
from golden import compare_goldens, scroll_views, same_offsets
ticking, still = sys.argv[1], sys.argv[2]
compare_goldens("departures", ticking, ["after-ticks", "mid-flick"])
mid = scroll_views(ticking, "mid-flick")[0]["departures"]
assert mid["phase"] in ("decelerating", "bouncing"), "the 14 s tick stopped the flick"
same_offsets("departures", ticking, still, [(s, "departures") for s in ["mid-flick", "after-insert", "flick-rest"]])
ticks = scroll_views(ticking, "ticks")[0]["departures"]
print(f"departures state: list offset {ticks['offset']}, top row {ticks['topId']}")
assert ticks["topId"] == "dep-1", "the row being read moved when departures were added"
PY
set +e
msg=$(env -u DISPLAY "$bin" 2>&1 < /dev/null); status=$?
set -e
if ls /dev/dri/card* >/dev/null 2>&1; then echo "departures: a display is present; skipped the no-display check"; else
    [ $status = 2 ] && echo "$msg" | grep -q "run --backend headless" || { echo "departures without a display: status $status, '$msg'" >&2; exit 1; }
fi
echo "departures: built outside the package, golden matches, clean message without a display"
