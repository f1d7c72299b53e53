"""`glide bench zoom` (benchmark R2) and `glide bench feed` (R1) refuse bad input with a clear
message and write the frame they are asked for, the same on any number of threads. Timing is never asserted here: ratios come from Tests/Peers/pixman/compare.sh.

    swift build --product glide
    python3 -m pytest -q Tests/Bench
"""

import math
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = os.environ.get("GLIDE", str(ROOT / ".build" / "debug" / "glide"))


def bench(*args, scene="zoom"):
    if not os.path.exists(GLIDE):
        pytest.skip(f"{GLIDE} not built (swift build --product glide)")
    return subprocess.run([GLIDE, "bench", scene, *args], capture_output=True, text=True, timeout=600)


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


@pytest.mark.parametrize("threads", ["0", "-2", "65"])
def test_the_feed_refuses_bad_thread_counts(threads):
    result = bench(f"--threads={threads}", scene="feed")
    assert result.returncode != 0
    assert f"--threads must lie in 1...64, not {threads}" in result.stderr, result.stderr


@pytest.mark.parametrize("scene, args", [
    ("feed", ["--size", "400x300", "--png-frame", "7"]),
    ("feed", ["--size", "400x300", "--png-frame", "7", "--incremental"]),
    ("zoom", ["--size", "101x77", "--png-frame", "5"]),
])
def test_bands_on_threads_write_the_frame_one_thread_writes(tmp_path, scene, args):
    frames = []
    for threads in ["1", "2", "3"]:
        png = tmp_path / f"{threads}.png"
        result = bench(*args, "--frames", "0" if scene == "feed" else "9", "--threads", threads,
                       "--png", str(png), scene=scene)
        assert result.returncode == 0, result.stderr
        frames.append(png.read_bytes())
    assert frames[0].startswith(b"\x89PNG")
    assert frames[1] == frames[0] and frames[2] == frames[0]


def test_video_bench_gives_its_figures():
    """`glide bench video` on the catalog's clip, played once: the decode floor and Glide's CPU
    per second of clip, a frame's scaling by Glide and by GStreamer's videoscale, and the feed's
    frames with its clips playing and paused, and what asking whether they are in sight costs a
    frame. Their sizes are not asserted, only that each is a
    figure: above zero, but for videoscale's, a difference of two CPU readings that noise may
    take below zero on one short run."""
    result = bench("--loops", "1", scene="video")
    assert result.returncode == 0, result.stderr
    lines = [l for l in result.stdout.splitlines() if l.startswith("video ")]
    assert len(lines) == 4, result.stdout
    for pattern in (r"decode floor \(gst-launch\) ([0-9.]+) ms, Glide showing it at 1280x800 ([0-9.]+) ms",
                    r"Glide's bilinear ([0-9.]+) ms, GStreamer's videoscale .* (-?[0-9.]+) ms;",
                    r"frame median ([0-9.]+) ms .* clips paused ([0-9.]+) ms",
                    r"asked up to three times a frame: ([0-9.]+) µs a frame, ([0-9.]+) % of the median frame"):
        match = next((re.search(pattern, l) for l in lines if re.search(pattern, l)), None)
        assert match, (pattern, result.stdout)
        assert float(match.group(1)) > 0 and all(math.isfinite(float(v)) for v in match.groups()), match.group(0)
