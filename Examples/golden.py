"""What the example apps' checks share: goldens compared with the stated tolerance, and the
scroll views of a state file by id.

    from golden import compare_goldens, scroll_views
"""
import json
from PIL import Image, ImageChops


def compare_goldens(app, run, names, golden="Golden"):
    """Each RUN/NAME.png against GOLDEN/NAME.png: at most 0.1% of the pixels may differ by more
    than 2 per channel, none by more than 8 (font rendering is the only expected difference
    between machines)."""
    for name in names:
        a = Image.open(f"{run}/{name}.png").convert("RGB")
        b = Image.open(f"{golden}/{name}.png").convert("RGB")
        assert a.size == b.size, f"{name}: size {a.size} != golden {b.size}"
        pixels = list(ImageChops.difference(a, b).getdata())
        off = sum(1 for p in pixels if max(p) > 2)
        worst = max(max(p) for p in pixels)
        print(f"{app} golden {name}: {off} of {len(pixels)} pixels differ by more than 2 (worst {worst})")
        assert off <= len(pixels) // 1000 and worst <= 8, f"{name}.png differs from {golden}/{name}.png"


def scroll_views(run, state):
    """The scroll views of RUN/STATE.json by id, and the whole state."""
    s = json.load(open(f"{run}/{state}.json"))
    return {v["id"]: v for v in s["scrollViews"]}, s


def same_offsets(app, ticking, still, places):
    """Each (state, scroll view) is at the same offset in the run with the clock ticking as in the
    run with it stopped: a ticking label changes no motion."""
    for state, view in places:
        a, b = scroll_views(ticking, state)[0][view]["offset"], scroll_views(still, state)[0][view]["offset"]
        print(f"{app} {state}: {view} at {a} with the clock ticking, {b} without")
        assert a == b, f"{state}: the ticking clock moved {view}"
