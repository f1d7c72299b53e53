"""Screenshots compared with goldens (needs Pillow).

The rule, the repository's (Examples/golden.py): at most 0.1% of the pixels may differ by more
than 2 in some channel, and none by more than 8. Here the three numbers are parameters:

    tolerance       per-channel difference (0-255) a pixel may have and still count as equal (2)
    max_fraction    the fraction of the pixels that may differ by more than `tolerance`, rounded
                    down to a pixel count (0.001: 384 pixels of 800x480)
    max_difference  the largest per-channel difference any pixel may have (8)

    from glide_remote.golden import compare
    c = compare(actual_image, golden_image)       # a Comparison; c.ok, c.off, c.worst, c.total
"""

from __future__ import annotations

import io
import math
import os
import pathlib
import re
from dataclasses import dataclass
from typing import Optional

from PIL import Image, ImageChops

__all__ = ["Comparison", "GoldenMismatch", "compare", "diff_image", "check"]


class GoldenMismatch(AssertionError):
    """A screenshot does not match its golden (or there is no golden, or its size differs).
    `.golden`, `.actual` and `.diff` are the files (None where not written), `.comparison` the
    counts (None for a missing golden or another size)."""

    def __init__(self, message: str, golden: pathlib.Path, actual: Optional[pathlib.Path] = None,
                 diff: Optional[pathlib.Path] = None, comparison: Optional["Comparison"] = None):
        super().__init__(message)
        self.golden = golden
        self.actual = actual
        self.diff = diff
        self.comparison = comparison


@dataclass
class Comparison:
    """The counts of one comparison: `off` pixels of `total` differ by more than `tolerance`
    (at most `allowed` may), the worst differs by `worst` (at most `max_difference`)."""

    total: int
    off: int
    worst: int
    tolerance: int
    allowed: int
    max_difference: int

    @property
    def ok(self) -> bool:
        return self.off <= self.allowed and self.worst <= self.max_difference

    def describe(self) -> str:
        return (f"{self.off} of {self.total} pixels differ by more than {self.tolerance} per channel "
                f"(at most {self.allowed} may), the worst by {self.worst} (at most {self.max_difference})")


def _max_channel_difference(a: Image.Image, b: Image.Image) -> Image.Image:
    """An "L" image: each pixel's largest per-channel difference."""
    r, g, b_ = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b_)


def compare(actual: Image.Image, golden: Image.Image, tolerance: int = 2, max_fraction: float = 0.001,
            max_difference: int = 8) -> Comparison:
    """Compares two images of the same size (converted to RGB) with the rule above."""
    a, b = actual.convert("RGB"), golden.convert("RGB")
    if a.size != b.size:
        raise ValueError(f"sizes differ: {a.size[0]}x{a.size[1]} and {b.size[0]}x{b.size[1]}")
    histogram = _max_channel_difference(a, b).histogram()
    total = a.size[0] * a.size[1]
    off = sum(histogram[tolerance + 1:])
    worst = max((v for v, n in enumerate(histogram) if n), default=0)
    allowed = int(math.floor(max_fraction * total + 1e-9))
    return Comparison(total=total, off=off, worst=worst, tolerance=tolerance, allowed=allowed,
                      max_difference=max_difference)


def diff_image(actual: Image.Image, golden: Image.Image, tolerance: int = 2) -> Image.Image:
    """The difference made visible: the golden dimmed to grey, every pixel that differs at all in
    red (brighter the more it differs, at least half bright), and those beyond `tolerance` in
    full red; when they are few (under 2% of the pixels), ringed in yellow so that single pixels
    can be found."""
    a, b = actual.convert("RGB"), golden.convert("RGB")
    d = _max_channel_difference(a, b)
    grey = b.convert("L").point(lambda v: 40 + v // 4)
    base = Image.merge("RGB", (grey, grey, grey))
    amplified = d.point(lambda v: 0 if v == 0 else min(255, 128 + v * 16))
    red = Image.merge("RGB", (amplified, Image.new("L", a.size, 0), Image.new("L", a.size, 0)))
    out = Image.composite(red, base, d.point(lambda v: 255 if v else 0))
    beyond = d.point(lambda v: 255 if v > tolerance else 0)
    count = beyond.histogram()[255]
    if count:
        if count < a.size[0] * a.size[1] // 50:  # a few pixels: ringed so that they can be found
            from PIL import ImageFilter

            ring = ImageChops.subtract(beyond.filter(ImageFilter.MaxFilter(9)), beyond)
            out = Image.composite(Image.new("RGB", a.size, (255, 230, 0)), out, ring)
        out = Image.composite(Image.new("RGB", a.size, (255, 0, 0)), out, beyond)
    return out


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "board"


def _remove(*paths: pathlib.Path) -> None:
    for p in paths:
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def check(png: bytes, folder: os.PathLike, name: str, board: Optional[str] = None, update: bool = False,
          tolerance: int = 2, max_fraction: float = 0.001, max_difference: int = 8,
          written: Optional[set] = None) -> Optional[Comparison]:
    """Compares the PNG `png` with `FOLDER/NAME.png` (see `Glide.expect_screenshot`). With
    `update` the golden is written instead, unless `written` (a set shared by the boards of one
    run) says this run already wrote it: then it is compared. On a mismatch writes
    `NAME[.BOARD].actual.png` and `NAME[.BOARD].diff.png` beside it and raises GoldenMismatch."""
    folder = pathlib.Path(folder)
    golden_path = folder / f"{name}.png"
    stem = f"{name}.{_safe(board)}" if board else name
    actual_path = folder / f"{stem}.actual.png"
    diff_path = folder / f"{stem}.diff.png"
    actual = Image.open(io.BytesIO(png))
    actual.load()
    actual = actual.convert("RGB")
    key = str(golden_path.resolve())
    if update and (written is None or key not in written):
        folder.mkdir(parents=True, exist_ok=True)
        actual.save(golden_path)
        if written is not None:
            written.add(key)
        _remove(actual_path, diff_path)
        return None
    if not golden_path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        actual.save(actual_path)
        _remove(diff_path)
        raise GoldenMismatch(f"no golden {golden_path}: run with --update-goldens to write it (and look at it "
                             f"before committing it); this screenshot is in {actual_path}",
                             golden_path, actual=actual_path)
    golden = Image.open(golden_path)
    golden.load()
    golden = golden.convert("RGB")
    if golden.size != actual.size:
        actual.save(actual_path)
        _remove(diff_path)
        raise GoldenMismatch(f"{golden_path} is {golden.size[0]}x{golden.size[1]} but the screenshot"
                             f"{' of ' + board if board else ''} is {actual.size[0]}x{actual.size[1]} "
                             f"(written to {actual_path}): another --size or display?",
                             golden_path, actual=actual_path)
    comparison = compare(actual, golden, tolerance, max_fraction, max_difference)
    if comparison.ok:
        _remove(actual_path, diff_path)
        return comparison
    actual.save(actual_path)
    diff_image(actual, golden, tolerance).save(diff_path)
    raise GoldenMismatch(f"screenshot{' of ' + board if board else ''} differs from {golden_path}: "
                         f"{comparison.describe()}; see {actual_path} and {diff_path} "
                         f"(--update-goldens to accept it)",
                         golden_path, actual=actual_path, diff=diff_path, comparison=comparison)
