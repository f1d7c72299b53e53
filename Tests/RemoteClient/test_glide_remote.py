"""The client against a real app: the `glide` fixture of the glide-remote pytest plugin starts
`glide run --backend headless --remote 127.0.0.1:0` (a free port on loopback) for each test,
with the arguments of its `glide_app` marker, and stops it with SIGTERM afterwards.

    swift build --product glide
    python3 -m pip install ./Tests/RemoteClient
    python3 -m pytest -q Tests/RemoteClient

Set GLIDE=/path/to/glide (or --glide-binary) to test another build.
"""

import math
import struct
import subprocess

import pytest

from glide_remote import Glide, GlideError, HeadlessApp, NotAccessible, NotAtRest, WaitTimeout

list_app = pytest.mark.glide_app("--app", "list")


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def list_offset(state):
    return next(s for s in state["scrollViews"] if s["id"] == "list")["offset"][1]


@list_app
def test_screenshot_and_state(glide):
    state = glide.wait_for_rest()
    assert list_offset(state) == 0
    assert png_size(glide.screenshot()) == (800, 480)
    image = glide.screenshot_image()
    assert image.mode == "RGB" and image.size == (800, 480)


@list_app
def test_scanout_screenshot_source(glide):
    glide.swipe((400, 400), (400, 300), hold=0.2)  # a drag that stops: the list has moved
    assert list_offset(glide.wait_for_rest(timeout=15)) > 0
    # Headless, the display's own buffer is also what the canvas screenshot shows, so the two
    # sources agree; on a board the scanout one comes from the writeback connector (vboard).
    assert glide.screenshot(source="scanout") == glide.screenshot()
    with pytest.raises(GlideError) as e:
        glide.screenshot(source="panel")
    assert e.value.status == 400 and "source=scanout" in str(e.value)


@list_app
def test_display_off_and_on(glide):
    lit = glide.screenshot()
    assert glide.display(False) == {"on": False}
    assert glide.state()["display"] == {"on": False, "reason": "remote"}
    # Headless, the dark screen is a black frame on the display, which both sources show.
    dark = glide.screenshot(source="scanout")
    assert dark != lit and dark == glide.screenshot()
    assert glide.display(True) == {"on": True}
    state = glide.wait_for_rest()
    assert state["display"] == {"on": True, "reason": "on"}
    assert glide.screenshot(source="scanout") == glide.screenshot() == lit


@pytest.mark.glide_app()  # the catalog: its tab "tab-feed"
def test_a_mask_paints_views_over(glide):
    state = glide.wait_for_rest()
    fx, fy, fw, fh = next(e for e in state["elements"] if e["id"] == "tab-feed")["frame"]
    # The tab's frame in whole pixels, rounded outwards as the mask paints it.
    x, y, x1, y1 = math.floor(fx), math.floor(fy), math.ceil(fx + fw), math.ceil(fy + fh)
    masked = glide.screenshot_image(mask=["tab-feed"])
    assert masked.crop((x, y, x1, y1)).getcolors() == [((x1 - x) * (y1 - y), (255, 0, 255))]
    # Nothing else is painted: the tab's rectangle holds every magenta pixel of the screen.
    magenta = dict((c, n) for n, c in masked.getcolors(masked.width * masked.height))[(255, 0, 255)]
    assert magenta == (x1 - x) * (y1 - y)
    with pytest.raises(GlideError) as e:
        glide.screenshot(mask=["tab-feed", "no-such-view"])
    assert e.value.status == 404 and "'no-such-view'" in str(e.value)


@list_app
def test_swipe_scrolls_the_list(glide):
    reply = glide.swipe((400, 400), (400, 100), duration=0.15)
    assert reply["events"] == 21 and reply["lastApplied"] >= reply["arrival"]
    state = glide.wait_for_rest(timeout=15)
    assert list_offset(state) > 300  # a flick carries on past the finger's 300 px


@list_app
def test_tap_and_key(glide):
    glide.tap(400, 100)
    assert list_offset(glide.wait_for_rest()) == 0  # a tap does not scroll
    glide.key("PageDown")
    assert list_offset(glide.wait_for_rest()) > 0
    glide.key("Home")
    assert list_offset(glide.wait_for_rest()) == 0


@list_app
def test_wait_until(glide):
    glide.key("End")
    state = glide.wait_until(lambda s: list_offset(s) > 1000, timeout=15)
    assert list_offset(state) > 1000
    with pytest.raises(WaitTimeout) as e:
        glide.wait_until(lambda s: list_offset(s) < 0, timeout=0.3)
    assert isinstance(e.value, AssertionError) and "last state" in str(e.value)
    assert list_offset(e.value.state) > 1000


@list_app
def test_wait_for_rest_times_out_while_scrolling(glide):
    glide.swipe((400, 450), (400, 50), duration=0.05)  # a fast flick coasts for a while
    with pytest.raises(NotAtRest) as e:
        glide.wait_for_rest(timeout=0.05)
    assert e.value.state["scrollViews"]


@list_app
def test_bad_script_names_the_line(glide):
    with pytest.raises(GlideError) as e:
        glide.send_events(['{"t":0,"key":"PageDown"}', '{"t":1,"touch":"down"}'])
    assert e.value.status == 400 and e.value.line == 2


@pytest.mark.glide_app()  # the catalog: sidebar with a zoomable photo screen
def test_pinch_zooms_the_photo(glide):
    x, y, w, h = next(e for e in glide.wait_for_rest()["elements"] if e["id"] == "tab-photo")["frame"]
    glide.tap(x + w / 2, y + h / 2)  # "Photo" in the sidebar at 800x480
    glide.wait_for_rest()
    glide.pinch((520, 240), 80, 240, duration=0.3)
    scales = [s["scale"] for s in glide.state()["scrollViews"]]
    assert max(scales) > 1.5, scales


def test_token_required_off_loopback_and_checked(glide_binary):
    bad = subprocess.run([glide_binary, "run", "--backend", "headless", "--remote", "0.0.0.0:0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "token" in bad.stderr
    with HeadlessApp(glide_binary, args=["--app", "list"], token="t0ken-t0ken-42") as app:
        with pytest.raises(GlideError) as e:
            Glide(app.url).state()
        assert e.value.status == 401
        g = app.client()
        assert g.state()["scrollViews"]
        assert "t0ken" not in repr(g)
        # The live view's page, with the token header too.
        assert "<html" in g.live_page().lower()
        with pytest.raises(GlideError) as e:
            Glide(app.url).live_page()
        assert e.value.status == 401
    assert app.returncode == 0


@pytest.mark.glide_app(size="1280x800")
def test_search_screen_types_and_filters(glide):
    """The catalog's search screen from the outside: tap the tab, the field, keys on the
    on-screen keyboard and typed text; the list filters and the field is never covered."""
    def middle(state, id):
        x, y, w, h = next(e for e in state["elements"] if e["id"] == id)["frame"]
        return x + w / 2, y + h / 2
    glide.tap(*middle(glide.wait_for_rest(), "tab-search"))
    state = glide.wait_for_rest()
    glide.tap(*middle(state, "search-field"))
    state = glide.wait_for_rest()
    assert state["keyboard"]["visible"] and state["focus"] == "search-field"
    glide.tap_key("m")
    glide.type_text("ünch")
    state = glide.wait_for_rest()
    field = next(f for f in state["textFields"] if f["id"] == "search-field")
    assert field["text"] == "münch" and field["selection"] == [5, 5]
    assert field["frame"][1] + field["frame"][3] <= state["keyboard"]["frame"][1]
    shown = [e["id"] for e in state["elements"] if e["id"].startswith("search-item-")]
    assert shown == ["search-item-55"]   # München Hbf


@pytest.mark.glide_app("--app", "order", "--text-size", "300", size="480x800")
def test_expect_accessible_passes_on_the_ordering_demo(glide):
    # At 300 % text on a portrait panel the header stacks its parts: nothing is cut off.
    glide.expect_accessible()
    assert glide.audit(["contrast", "target-size"]) == []


@pytest.mark.glide_app("--app", "gallery", "--color-scheme", "dark", "--layout-direction", "rtl", "--text-size", "200",
                       size="1024x600")
def test_expect_accessible_passes_on_every_screen_of_default_views(glide):
    # The gallery is made of Glide's own views only: no ignores on any of its seven screens.
    # Its tab bar runs right to left, seven equal tabs along the bottom.
    firsts = []
    for i in range(7):
        glide.tap(1024 - (i + 0.5) * 1024 / 7, 600 - 20)
        state = glide.wait_for_rest()
        firsts.append(next(e["id"] for e in state["elements"] if e.get("id")))
        glide.expect_accessible()
    assert firsts[:5] == ["button-prominent", "toggle-on", "field-empty", "show-alert", "nav-row-0"]
    # The modals too, each open, then closed with Esc.
    glide.tap(1024 - 3.5 * 1024 / 7, 600 - 20)
    for shows in ["show-alert", "show-dialog", "show-sheet"]:
        x, y, w, h = next(e["frame"] for e in glide.wait_for_rest()["elements"] if e.get("id") == shows)
        glide.tap(x + w / 2, y + h / 2)
        assert glide.wait_for_rest()["modal"] is not None
        glide.expect_accessible()
        glide.key("Esc")
        assert glide.wait_for_rest().get("modal") is None


@pytest.mark.glide_app("--app", "list", "--idle-reset-seconds", "30")
def test_expect_accessible_names_what_it_finds(glide):
    # The list app starts over after 30 s and warns nobody: the EAA's "enough time".
    with pytest.raises(NotAccessible) as found:
        glide.expect_accessible()
    assert [f["rule"] for f in found.value.findings] == ["timeout"]
    assert "warns nobody" in str(found.value) and found.value.findings[0]["figure"] == 30
    glide.expect_accessible(ignore=["timeout"])
    with pytest.raises(GlideError) as bad:
        glide.audit(["colour"])
    assert bad.value.status == 400 and "unknown rule" in str(bad.value)
