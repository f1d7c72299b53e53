"""`glide bench zoom` (benchmark R2) refuses bad input with a clear message and writes the frame
it is asked for. Timing is never asserted here: ratios come from Tests/Peers/pixman/compare.sh.

    swift build --product glide
    python3 -m pytest -q Tests/Bench
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = os.environ.get("GLIDE", str(ROOT / ".build" / "debug" / "glide"))


def bench(*args):
    if not os.path.exists(GLIDE):
        pytest.skip(f"{GLIDE} not built (swift build --product glide)")
    return subprocess.run([GLIDE, "bench", "zoom", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--threads", "0"], "--threads must lie in 1...64, not 0"),
    (["--threads=-3"], "--threads must lie in 1...64, not -3"),
    (["--threads", "100000"], "--threads must lie in 1...64, not 100000"),
    (["--frames", "1"], "--frames must lie in 2...1000000"),
    (["--size", "8x8"], "--size must lie in 16x16...16384x16384"),
    (["--size", "0x0"], "--size must be WxH"),
    (["--size", "wide"], "--size must be WxH"),
    (["--png-frame", "3"], "--png and --png-frame go together"),
    (["--image", "/nonexistent.png"], "/nonexistent.png: open(/nonexistent.png) failed: No such file or directory"),
    (["--image", "/dev/zero"], "/dev/zero is a character device, not a regular file"),
])
def test_bad_input_is_refused_with_a_clear_message(args, message):
    result = bench(*args)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_a_corrupt_picture_names_its_path(tmp_path):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    result = bench("--image", str(broken))
    assert result.returncode == 2
    assert f"glide bench zoom: {broken}: invalid PNG" in result.stderr, result.stderr


def test_a_small_run_prints_median_and_p90_and_writes_the_frame(tmp_path):
    png = tmp_path / "frame.png"
    result = bench("--size", "64x36", "--frames", "3", "--warmup", "1", "--threads", "2",
                   "--png-frame", "2", "--png", str(png))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("zoom 64x36 2 threads: median "), result.stdout
    assert " ms, p90 " in result.stdout
    assert png.read_bytes().startswith(b"\x89PNG")
