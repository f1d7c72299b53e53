"""The resampling goal through the command line: a steady 1000 pt/s drag at 90-240 Hz drawn at
60 Hz moves within 0.5 px of the same distance every frame, at most 13 ms (8 ms plus the 5 ms
latency) behind the finger; without resampling it judders.

    swift build --product glide
    python3 -m pytest -q Tests/Feel
"""

import os
import pathlib

import pytest

from judder import table

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = os.environ.get("GLIDE", str(ROOT / ".build" / "debug" / "glide"))


def test_resampling_meets_the_goal_at_every_rate():
    if not os.path.exists(GLIDE):
        pytest.skip(f"{GLIDE} not built (swift build --product glide)")
    for rate, off, on in table(GLIDE):
        assert on[2] >= 25, f"{rate} Hz: too few frames measured"
        assert on[0] <= 0.5, f"{rate} Hz: {on[0]:.2f} px spread with resampling"
        assert on[1] <= 0.013 + 1e-6, f"{rate} Hz: {on[1] * 1000:.1f} ms behind"
        assert off[0] > 1.5, f"{rate} Hz: {off[0]:.2f} px spread without resampling: the measure sees no judder"
