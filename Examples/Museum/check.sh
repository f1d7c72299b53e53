#!/usr/bin/env bash
# Builds the museum guide as an app outside the Glide package would be built and runs it
# headless through golden.jsonl at 800x480: a flick of the exhibit list, a tap that pushes an
# exhibit, a swipe of its photo carousel and an edge swipe back, while the header's clock ticks
# every second. Compares the frames taken mid-flick, mid-push, mid-swipe and after the way
# back with Golden/*.png (at most 0.1% of the pixels may differ by more than 2 per channel,
# none by more than 8: font rendering is the only expected difference between machines), then
# runs the same script with the clock stopped (MUSEUM_CLOCK=off) and checks that the list and
# the carousel end exactly where they do with it: a ticking label never changes motion.
# Then renders the first screen in light, dark and high contrast at 800x480, 1280x800 and
# 480x800 (schemes.jsonl, the clock stopped) against Golden/scheme-*.png.
#   Examples/Museum/check.sh            check
#   Examples/Museum/check.sh --update   rewrite the goldens (look at them first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
. ../check-lib.sh
run_twice Museum MUSEUM_CLOCK
shots="list-mid-flick push-mid carousel-mid-swipe back"
# The docs' app in each scheme, on each panel: every colour comes from the theme.
schemes=$(mktemp -d /tmp/Museum-schemes.XXXXXX)
scheme_shots=""
for size in 800x480 1280x800 480x800; do
    for scheme in light dark contrast; do
        flags=(--color-scheme "$([ $scheme = dark ] && echo dark || echo light)")
        [ $scheme = contrast ] && flags+=(--high-contrast)
        MUSEUM_CLOCK=off "$bin" run --backend headless --size "$size" --script schemes.jsonl --out "$schemes/run" "${flags[@]}" >/dev/null
        mv "$schemes/run/scheme.png" "$schemes/scheme-$scheme-$size.png"
        scheme_shots+=" scheme-$scheme-$size"
    done
done
if [ "${1:-}" = --update ]; then
    for s in $shots; do cp "$ticking/$s.png" "Golden/$s.png"; done
    for s in $scheme_shots; do cp "$schemes/$s.png" "Golden/$s.png"; done
    echo "updated Golden/{${shots// /,}}.png and Golden/scheme-*.png"; exit 0
fi
PYTHONPATH=.. /usr/bin/python3 -c "import sys; from golden import compare_goldens; compare_goldens('museum', sys.argv[1], sys.argv[2:])" \
    "$schemes" $scheme_shots
PYTHONPATH=.. /usr/bin/python3 - "$ticking" "$still" $shots <<'PY'
import sys
from golden import compare_goldens, same_offsets, scroll_views as views
ticking, still, shots = sys.argv[1], sys.argv[2], sys.argv[3:]
compare_goldens("museum", ticking, shots)
mid, _ = views(ticking, "list-mid-flick")
assert mid["exhibits"]["phase"] == "decelerating", f"the 1 s tick stopped the flick: {mid['exhibits']}"
swipe, _ = views(ticking, "carousel-mid-swipe")
assert swipe["photos"]["phase"] == "snapping", f"the 9 s tick stopped the page snap: {swipe['photos']}"
same_offsets("museum", ticking, still, [("list-mid-flick", "exhibits"), ("list-rest", "exhibits"),
                                        ("carousel-mid-swipe", "photos"), ("carousel-rest", "photos"), ("back", "exhibits")])
rest = views(ticking, "carousel-rest")[0]["photos"]
assert rest["offset"][0] == rest["viewportSize"][0] and rest["page"] == 1, f"the carousel ended between pages: {rest}"
back, state = views(ticking, "back")
assert back["exhibits"]["offset"] == views(ticking, "list-rest")[0]["exhibits"]["offset"], "the list lost its place"
assert state["navigation"][0]["depth"] == 1, "the edge swipe did not go back"
PY
echo "museum: built outside the package, goldens match, motion unchanged by the ticking clock"
