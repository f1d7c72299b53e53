"""pytest examples for glide_remote: each test starts `glide run --backend headless --remote
127.0.0.1:0` (a free port on loopback) and drives it through the client.

    swift build --product glide
    python3 -m pytest -q Tests/RemoteClient

Set GLIDE=/path/to/glide to test another build.
"""

import os
import pathlib
import signal
import struct
import subprocess
import time

import pytest

from glide_remote import Glide, GlideError, NotAtRest, start_headless

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = os.environ.get("GLIDE", str(ROOT / ".build" / "debug" / "glide"))


def start_glide(*args, token=None):
    return start_headless(GLIDE, *args, token=token)


@pytest.fixture
def list_app():
    if not os.path.exists(GLIDE):
        pytest.skip(f"{GLIDE} not built (swift build --product glide)")
    proc, url = start_glide("--app", "list")
    yield Glide(url)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def list_offset(state):
    return next(s for s in state["scrollViews"] if s["id"] == "list")["offset"][1]


def test_screenshot_and_state(list_app):
    state = list_app.wait_for_rest()
    assert list_offset(state) == 0
    assert png_size(list_app.screenshot()) == (800, 480)


def test_scanout_screenshot_source(list_app):
    list_app.swipe((400, 400), (400, 300), duration=0.1)
    list_app.wait_for_rest(timeout=15)
    # Headless, the display's own buffer is also what the canvas screenshot shows, so the two
    # sources agree; on a board the scanout one comes from the writeback connector (vboard).
    assert list_app.screenshot(source="scanout") == list_app.screenshot()
    with pytest.raises(GlideError) as e:
        list_app.screenshot(source="panel")
    assert e.value.status == 400 and "source=scanout" in str(e.value)


def test_display_off_and_on(list_app):
    list_app.wait_for_rest()
    lit = list_app.screenshot()
    assert list_app.display(False) == {"on": False}
    assert list_app.state()["display"] == {"on": False}
    # Headless, the dark screen is a black frame on the display, which both sources show.
    dark = list_app.screenshot(source="scanout")
    assert dark != lit and dark == list_app.screenshot()
    assert list_app.display(True) == {"on": True}
    state = list_app.wait_for_rest()
    assert state["display"] == {"on": True}
    assert list_app.screenshot(source="scanout") == list_app.screenshot() == lit


def test_swipe_scrolls_the_list(list_app):
    list_app.wait_for_rest()
    reply = list_app.swipe((400, 400), (400, 100), duration=0.15)
    assert reply["events"] == 21 and reply["lastApplied"] >= reply["arrival"]
    state = list_app.wait_for_rest(timeout=15)
    assert list_offset(state) > 300  # a flick carries on past the finger's 300 px


def test_tap_and_key(list_app):
    list_app.wait_for_rest()
    list_app.tap(400, 100)
    assert list_offset(list_app.wait_for_rest()) == 0  # a tap does not scroll
    list_app.key("PageDown")
    assert list_offset(list_app.wait_for_rest()) > 0
    list_app.key("Home")
    assert list_offset(list_app.wait_for_rest()) == 0


def test_wait_for_rest_times_out_while_scrolling(list_app):
    list_app.wait_for_rest()
    list_app.swipe((400, 450), (400, 50), duration=0.05)  # a fast flick coasts for a while
    with pytest.raises(NotAtRest) as e:
        list_app.wait_for_rest(timeout=0.05)
    assert e.value.state["scrollViews"]


def test_bad_script_names_the_line(list_app):
    with pytest.raises(GlideError) as e:
        list_app.send_events(['{"t":0,"key":"PageDown"}', '{"t":1,"touch":"down"}'])
    assert e.value.status == 400 and e.value.line == 2


def test_pinch_zooms_the_photo():
    if not os.path.exists(GLIDE):
        pytest.skip("glide not built")
    proc, url = start_glide()  # the catalog: sidebar with a zoomable photo screen
    try:
        g = Glide(url)
        g.tap(60, 200)  # "Photo" in the sidebar at 800x480
        time.sleep(0.5)
        g.pinch((520, 240), 80, 240, duration=0.3)
        scales = [s["scale"] for s in g.state()["scrollViews"]]
        assert max(scales) > 1.5, scales
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def test_token_required_off_loopback_and_checked():
    if not os.path.exists(GLIDE):
        pytest.skip("glide not built")
    bad = subprocess.run([GLIDE, "run", "--backend", "headless", "--remote", "0.0.0.0:0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "token" in bad.stderr
    proc, url = start_glide("--app", "list", token="t0ken-t0ken")
    try:
        with pytest.raises(GlideError) as e:
            Glide(url).state()
        assert e.value.status == 401
        assert Glide(url, token="t0ken-t0ken").state()["scrollViews"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
