#!/usr/bin/env python3
"""Judder of a steady drag, with and without touch resampling, through `glide feel trace`.

A finger drags at 1000 pt/s for 0.6 s, sampled at 90, 100, 120, 133 and 240 Hz (each sample up
to 1 ms early or late, with its true time and place); the display draws at 60 Hz. For each
rate it prints the standard deviation of the content's movement per frame and how far the
content trails the finger, from the frame rows of `glide feel trace --resample on|off`.

    swift build -c release --product glide
    python3 Tests/Feel/judder.py [--glide .build/release/glide]
"""

import argparse
import random
import statistics
import subprocess

RATES = [90, 100, 120, 133, 240]
SPEED = 1000.0          # points per second, finger moving up, content offset growing
DOWN_Y = 700.0
SLOP = 8.0
HZ = 60


def trace(rate):
    rnd = random.Random(rate)
    times = [0.0] + [k / rate + rnd.uniform(-0.001, 0.001) for k in range(1, int(0.6 * rate))]
    lines = ["t_ms,phase,id,x,y"]
    for i, t in enumerate(times):
        lines.append(f"{t * 1000:.3f},{'down' if i == 0 else 'move'},0,400,{DOWN_Y - SPEED * t:.4f}")
    lines.append(f"{times[-1] * 1000 + 1:.3f},up,0")
    return "\n".join(lines) + "\n", times[-1]


def measure(glide, rate, resample):
    text, last = trace(rate)
    out = subprocess.run([glide, "feel", "trace", "-", "--viewport", "800x800", "--content", "800x5000",
                          "--resample", resample], input=text, capture_output=True, text=True, check=True).stdout
    offsets, lag = [], 0.0
    for row in out.splitlines()[1:]:
        f = row.split(",")
        t = float(f[0]) / 1000
        n = round(t * HZ)
        # Frame rows only (t = n/60), while the finger drags, well past the slop.
        if abs(t - n / HZ) > 1e-6 or f[6] != "dragging" or t < 0.1 or t > last:
            continue
        offset = float(f[2])
        shown_at = (offset + SLOP) / SPEED      # offset = (down - slop) - finger(shown_at)
        lag = max(lag, t - shown_at)
        offsets.append(offset)
    moves = [b - a for a, b in zip(offsets, offsets[1:])]
    return statistics.pstdev(moves), lag, len(moves)


def table(glide):
    rows = []
    for rate in RATES:
        off = measure(glide, rate, "off")
        on = measure(glide, rate, "on")
        rows.append((rate, off, on))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--glide", default=".build/release/glide")
    args = p.parse_args()
    print("| touchscreen | frames | off: spread | off: lag | on: spread | on: lag |")
    print("|---|---|---|---|---|---|")
    for rate, off, on in table(args.glide):
        print(f"| {rate} Hz | {on[2] + 1} | {off[0]:.2f} px | {off[1] * 1000:.1f} ms | {on[0]:.2f} px | {on[1] * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
