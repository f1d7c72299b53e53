"""The glide-remote pytest plugin itself, through pytester: small test files run by an inner
pytest with the installed plugin (goldens, a fleet of two boards, boards files and tokens), and
the golden rule on made-up images."""

import json

import pytest
from PIL import Image

from glide_remote import HeadlessApp
from glide_remote.golden import compare
from glide_remote.pytest_plugin import parse_boards

GOLDEN_TESTS = '''
import pytest

list_app = pytest.mark.glide_app("--app", "list")


@list_app
def test_same(glide):
    glide.expect_screenshot("list")


@pytest.mark.glide_app("--app", "list", size="480x800")
def test_other_size(glide):
    glide.expect_screenshot("list")


@list_app
def test_scrolled(glide):
    glide.swipe((400, 400), (400, 250), hold=0.2)  # a drag that stops: no flick to wait for
    glide.expect_screenshot("list")


@list_app
def test_no_golden(glide):
    glide.expect_screenshot("nowhere")
'''


def test_expect_screenshot_with_goldens(pytester, glide_binary):
    pytester.makepyfile(test_golden=GOLDEN_TESTS)
    binary = f"--glide-binary={glide_binary}"
    # Written with --update-goldens, the golden then matches; a scrolled list does not (with its
    # actual and diff images beside the golden), nor another size; a missing golden says what to do.
    written = pytester.runpytest(binary, "--update-goldens", "-k", "test_same")
    written.assert_outcomes(passed=1)
    goldens = pytester.path / "goldens"
    assert sorted(p.name for p in goldens.iterdir()) == ["list.png"]
    assert Image.open(goldens / "list.png").size == (800, 480)

    result = pytester.runpytest(binary, "-rf")
    result.assert_outcomes(passed=1, failed=3)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "*screenshot differs from *goldens/list.png: * pixels differ by more than 2 per channel "
        "(at most 384 may), the worst by * (at most 8); see *list.actual.png and *list.diff.png*",
    ])
    assert "no golden" in out and "nowhere.png: run with --update-goldens to write it" in out
    assert "is 800x480 but the screenshot is 480x800" in out
    diff = Image.open(goldens / "list.diff.png")
    assert diff.size == (800, 480) and diff.mode == "RGB"
    # The difference is shown in full red; the golden's own pixels only in grey.
    assert (255, 0, 0) in {c for _, c in diff.getcolors(1 << 20)}
    assert Image.open(goldens / "list.actual.png").size == (800, 480)
    assert (goldens / "nowhere.actual.png").exists() and not (goldens / "nowhere.png").exists()

    # The same screen again: it matches, and the stale files of the mismatch are gone.
    again = pytester.runpytest(binary, "-k", "test_same")
    again.assert_outcomes(passed=1)
    assert not (goldens / "list.actual.png").exists() and not (goldens / "list.diff.png").exists()


FLEET_TESTS = '''
def test_state(glide):
    assert glide.state()["scrollViews"][0]["id"] == "list"


def test_screen(glide):
    glide.expect_screenshot("list")


def test_fails_on_left(glide):
    assert glide.name != "left", "left is the odd one"


def test_local():
    pass
'''


def test_fleet_of_two_boards(pytester, glide_binary):
    pytester.makepyfile(test_fleet=FLEET_TESTS)
    with HeadlessApp(glide_binary, args=["--app", "list"]) as left, \
            HeadlessApp(glide_binary, args=["--app", "list"]) as right:
        right_name = right.url.split("//")[1]  # a board without a name: HOST:PORT
        result = pytester.runpytest("--glide-url", f"left={left.url}", "--glide-url", right.url,
                                    "--glide-report", "report.json", "--update-goldens", "-v")
    assert left.returncode == 0 and right.returncode == 0
    # Each test with the fixture once a board, with the board's name as its id; the others once.
    result.assert_outcomes(passed=6, failed=1)
    result.stdout.fnmatch_lines_random([
        "*test_fleet.py::test_state[[]left[]] PASSED*",
        f"*test_fleet.py::test_state[[]{right_name}[]] PASSED*",
        "*test_fleet.py::test_screen[[]left[]] PASSED*",
        f"*test_fleet.py::test_screen[[]{right_name}[]] PASSED*",
        "*test_fleet.py::test_fails_on_left[[]left[]] FAILED*",
        f"*test_fleet.py::test_fails_on_left[[]{right_name}[]] PASSED*",
        "*test_fleet.py::test_local PASSED*",
    ])
    result.stdout.fnmatch_lines([
        "*glide boards*",
        f"left *FAIL *2 passed, 1 failed, 0 skipped  ({left.url})",
        "*test_fails_on_left*left is the odd one*",
        f"{right_name} *ok *3 passed, 0 failed, 0 skipped  ({right.url})",
        "glide report: *report.json",
    ])
    # The first board wrote the golden, the second was compared with it.
    assert [p.name for p in (pytester.path / "goldens").iterdir()] == ["list.png"]
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["mode"] == "boards" and report["ok"] is False and report["exitstatus"] == 1
    assert list(report["boards"]) == ["left", right_name]
    l, r = report["boards"]["left"], report["boards"][right_name]
    assert l["url"] == left.url and r["url"] == right.url
    assert l["counts"] == {"passed": 2, "failed": 1, "skipped": 0} and not l["ok"]
    assert r["counts"] == {"passed": 3, "failed": 0, "skipped": 0} and r["ok"]
    assert l["failed"] == ["test_fleet.py::test_fails_on_left[left]"]
    assert "left is the odd one" in l["failures"][0]["message"]
    assert sorted(r["passed"]) == sorted(f"test_fleet.py::{t}[{right_name}]"
                                         for t in ("test_state", "test_screen", "test_fails_on_left"))


def test_boards_tested_at_once(pytester, glide_binary):
    """With pytest-xdist (-n 2) the boards are tested at the same time, in two workers; the
    report still counts each board's tests."""
    pytest.importorskip("xdist")
    pytester.makepyfile(test_fleet=FLEET_TESTS.replace("glide.expect_screenshot(\"list\")", "pass"))
    with HeadlessApp(glide_binary, args=["--app", "list"]) as left, \
            HeadlessApp(glide_binary, args=["--app", "list"]) as right:
        result = pytester.runpytest_subprocess("-n", "2", "-p", "no:benchmark", "--glide-url", f"left={left.url}",
                                               "--glide-url", f"right={right.url}", "--glide-report", "report.json")
    result.assert_outcomes(passed=6, failed=1)
    result.stdout.fnmatch_lines_random([f"left *FAIL *2 passed, 1 failed, 0 skipped  ({left.url})",
                                        f"right *ok *3 passed, 0 failed, 0 skipped  ({right.url})"])
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["boards"]["left"]["counts"] == {"passed": 2, "failed": 1, "skipped": 0}
    assert report["boards"]["right"]["counts"] == {"passed": 3, "failed": 0, "skipped": 0}


def test_boards_file_and_tokens(pytester, glide_binary, monkeypatch):
    secret = "s3cret-board-token"
    monkeypatch.setenv("GLIDE_TOKEN", "wrong-token-for-all")
    monkeypatch.setenv("SHOP1_TOKEN", secret)
    pytester.makepyfile(test_token='def test_state(glide):\n    assert glide.state()["scrollViews"]\n')
    with HeadlessApp(glide_binary, args=["--app", "list"], token=secret) as app:
        pytester.path.joinpath("boards.txt").write_text(
            f"# the shop's boards\n\nshop-1 {app.url} token-env=SHOP1_TOKEN   # its own token\n"
            f"shop-2 {app.url}\n")
        result = pytester.runpytest("--glide-boards", "boards.txt", "-v", "--glide-report", "r.json")
    # shop-1 uses its own token; shop-2 (the same app here) gets GLIDE_TOKEN's, which is refused.
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines_random(["*test_state[[]shop-1[]] PASSED*", "*test_state[[]shop-2[]] ERROR*",
                                        "*HTTP 401*"])
    text = result.stdout.str() + result.stderr.str() + (pytester.path / "r.json").read_text()
    assert secret not in text and "wrong-token-for-all" not in text
    report = json.loads((pytester.path / "r.json").read_text())
    assert report["boards"]["shop-1"]["ok"] and report["boards"]["shop-2"]["counts"]["failed"] == 1


def test_boards_file_format(monkeypatch):
    monkeypatch.setenv("A_TOKEN", "token-of-a")
    monkeypatch.delenv("GLIDE_TOKEN", raising=False)
    boards = parse_boards("# fleet\n\nhttp://10.0.0.5:8080\n  kiosk-2 http://10.0.0.6:8080/  token-env=A_TOKEN # x\n")
    assert [(b.name, b.url, b.token, b.token_env) for b in boards] == [
        ("10.0.0.5:8080", "http://10.0.0.5:8080", None, None),
        ("kiosk-2", "http://10.0.0.6:8080", "token-of-a", "A_TOKEN")]
    assert "token-of-a" not in repr(boards)
    for bad, message in [("a b c", "expected `URL` or `NAME URL`"), ("k ftp://x", "not an http"),
                         ("k http://x:1 token-env=NOPE_NOT_SET", "the environment has no NOPE_NOT_SET")]:
        with pytest.raises(pytest.UsageError, match=message):
            parse_boards(bad)


def test_no_binary_and_no_board_skips(pytester):
    pytester.makepyfile(test_skip="def test_x(glide):\n    pass\n")
    result = pytester.runpytest("--glide-binary", "/nonexistent/glide", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*no glide binary (/nonexistent/glide)*--glide-url*"])


def test_the_golden_rule():
    golden = Image.new("RGB", (800, 480), (200, 200, 200))

    def with_pixels(n, delta):
        image = golden.copy()
        for i in range(n):
            image.putpixel((i % 800, i // 800), (200 + delta, 200, 200))
        return image

    assert compare(golden, golden).ok
    assert compare(with_pixels(10000, 2), golden).ok                # within 2: equal
    assert compare(with_pixels(384, 8), golden).ok                  # 0.1% of 384000, by 8 at most
    c = compare(with_pixels(385, 3), golden)
    assert not c.ok and (c.off, c.allowed, c.worst) == (385, 384, 3)
    assert not compare(with_pixels(1, 9), golden).ok                # none by more than 8
    assert compare(with_pixels(1, 9), golden, max_difference=9).ok
    assert compare(with_pixels(385, 3), golden, tolerance=3).ok
    assert not compare(with_pixels(10, 3), golden, max_fraction=0).ok
