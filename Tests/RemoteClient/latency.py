"""Measures the remote API's latency against a real app: screenshot, state, and a tap on the
page control until the state shows the next page.

    swift build -c release --product glide
    python3 -m pip install ./Tests/RemoteClient
    python3 Tests/RemoteClient/latency.py [path/to/glide]
"""

import pathlib
import statistics
import sys
import time

from glide_remote import HeadlessApp

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "release" / "glide")


def summary(values):
    return f"median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f}, n={len(values)})"


def main():
    with HeadlessApp(GLIDE, size="1280x800") as app:
        g = app.client()
        g.wait_for_rest()
        shots, states, taps = [], [], []
        for _ in range(30):
            t = time.perf_counter(); g.screenshot(); shots.append((time.perf_counter() - t) * 1000)
        for _ in range(30):
            t = time.perf_counter(); g.state(); states.append((time.perf_counter() - t) * 1000)
        for _ in range(5):  # the carousel has 6 pages: five trailing taps
            control = g.state()["pageControls"][0]
            x, y, w, h = control["frame"]
            page = control["currentPage"]
            t = time.perf_counter()
            g.tap(x + w * 0.85, y + h / 2)
            deadline = time.time() + 5
            while g.state()["pageControls"][0]["currentPage"] == page and time.time() < deadline:
                pass
            taps.append((time.perf_counter() - t) * 1000)
            g.wait_for_rest()
        print("GET /screenshot.png (1280x800):", summary(shots))
        print("GET /state:", summary(states))
        print("tap on the page control until /state shows the next page:", summary(taps))


if __name__ == "__main__":
    main()
