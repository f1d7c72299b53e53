"""The live view (GET /live): in a real browser (headless Chromium through selenium) and against
clients that misbehave. Each test starts its own `glide run --backend headless --remote`.

    swift build --product glide
    python3 -m pip install ./Tests/RemoteClient selenium     # and Debian's chromium chromium-driver
    python3 -m pytest -q Tests/Live
"""

import base64
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from PIL import Image, ImageChops

from glide_remote import Glide, HeadlessApp

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = os.environ.get("GLIDE", str(ROOT / ".build" / "debug" / "glide"))
TOKEN = "live-t0ken-1234"

pytestmark = pytest.mark.skipif(not os.path.exists(GLIDE), reason=f"{GLIDE} not built")


@pytest.fixture
def app(request):
    marker = request.node.get_closest_marker("app")
    args = list(marker.args) if marker else ["--app", "list"]
    kwargs = dict(marker.kwargs) if marker else {}
    with HeadlessApp(GLIDE, *args, size=kwargs.get("size", "800x480"), token=kwargs.get("token")) as a:
        yield a


def glide_of(app, token=None):
    return Glide(app.url, token=token)


# -- a browser --------------------------------------------------------------------------------

@pytest.fixture
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        pytest.skip("chromedriver not installed (Debian: chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,950",
              "--force-color-profile=srgb"]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def live_state(browser):
    return browser.execute_script("return window.glideLive")


def wait_for(predicate, timeout=20, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def canvas_image(browser):
    url = browser.execute_script("return document.getElementById('screen').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def screenshot_image(g):
    return Image.open(io.BytesIO(g.screenshot())).convert("RGB")


def canvas_equals_screenshot(browser, g):
    """The canvas shows exactly what /screenshot.png shows (both lossless): True once it does."""
    a, b = canvas_image(browser), screenshot_image(g)
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def list_offset(state):
    return next(s for s in state["scrollViews"] if s["id"] == "list")["offset"][1]


@pytest.mark.parametrize("encoding", ["png", "deflate"])
def test_canvas_equals_screenshot_after_a_flick(app, browser, encoding):
    g = glide_of(app)
    browser.get(app.url + f"/live?encoding={encoding}")
    wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update")
    assert browser.execute_script("const c = document.getElementById('screen'); return [c.width, c.height]") == [800, 480]
    g.wait_for_rest()
    wait_for(lambda: canvas_equals_screenshot(browser, g), what="the canvas to show the screen")
    g.swipe((400, 420), (400, 80), duration=0.08)
    state = g.wait_for_rest(timeout=20)
    assert list_offset(state) > 340
    wait_for(lambda: canvas_equals_screenshot(browser, g), what="the canvas to show the flicked list")
    live = live_state(browser)
    assert live["updates"] > 5 and live["connected"]


@pytest.mark.app(size="1280x800")
def test_a_click_on_the_canvas_reaches_the_app(app, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    g = glide_of(app)
    browser.get(app.url + "/live")
    wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update")
    state = g.wait_for_rest()
    control = state["pageControls"][0]
    assert control["currentPage"] == 0
    x, y, w, h = control["frame"]
    canvas = browser.find_element("id", "screen")
    # The canvas is drawn at its pixel size, scaled down by CSS to the window: click where the
    # page control's trailing side is shown.
    scale = canvas.size["width"] / 1280
    ActionChains(browser).move_to_element_with_offset(
        canvas, int((x + w * 0.8) * scale - canvas.size["width"] / 2), int((y + h / 2) * scale - canvas.size["height"] / 2)
    ).click().perform()
    state = wait_for(lambda: (s := g.wait_for_rest())["pageControls"][0]["currentPage"] == 1 and s, what="page 1")
    assert live_state(browser)["sent"] >= 2  # a press and a release
    wait_for(lambda: canvas_equals_screenshot(browser, g), what="the canvas to show page 1")


def test_a_drag_on_the_canvas_scrolls(app, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    g = glide_of(app)
    browser.get(app.url + "/live")
    wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update")
    canvas = browser.find_element("id", "screen")
    actions = ActionChains(browser, duration=10).move_to_element(canvas).click_and_hold()
    for _ in range(10):
        actions.move_by_offset(0, -15)
    actions.release().perform()
    assert list_offset(g.wait_for_rest(timeout=20)) > 50


@pytest.mark.app(size="800x480")
def test_two_fingers_on_a_touch_browser_pinch_the_photo(app, browser):
    """A touch browser's fingers (Chromium's touch events through the DevTools protocol) become
    fingers of the app: two of them pinch the catalog's photo."""
    g = glide_of(app)
    x, y, w, h = next(e for e in g.wait_for_rest()["elements"] if e["id"] == "tab-photo")["frame"]
    g.tap(x + w / 2, y + h / 2)  # "Photo" in the catalog's sidebar at 800x480
    g.wait_for_rest()
    browser.get(app.url + "/live")
    wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update")
    canvas = browser.find_element("id", "screen")
    box = browser.execute_script("const r = document.getElementById('screen').getBoundingClientRect();"
                                 "return [r.left, r.top, r.width / 800];")
    left, top, scale = box

    def points(d, ids=(0, 1)):
        cx, cy = 520, 240
        return [{"x": left + (cx + side * d / 2) * scale, "y": top + cy * scale, "id": i}
                for i, side in zip(ids, (-1, 1))]

    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(80)})
    for k in range(1, 16):
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(80 + 12 * k)})
        time.sleep(0.016)
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    state = g.wait_for_rest(timeout=20)
    assert max(v["scale"] for v in state["scrollViews"]) > 1.5, state["scrollViews"]
    assert live_state(browser)["sent"] >= 4


def test_read_only_view_sends_nothing(app, browser):
    g = glide_of(app)
    browser.get(app.url + "/live?readonly=1")
    wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update")
    assert live_state(browser)["readOnly"]
    from selenium.webdriver.common.action_chains import ActionChains
    canvas = browser.find_element("id", "screen")
    ActionChains(browser).move_to_element(canvas).click_and_hold().move_by_offset(0, -150).release().perform()
    assert list_offset(g.wait_for_rest()) == 0 and live_state(browser)["sent"] == 0


# -- raw sockets --------------------------------------------------------------------------------

def ws_connect(app, path="/live/socket", headers=None, source=None, **kwargs):
    """A socket to the app's live view; `source` is the loopback address it comes from
    (127.0.0.2, ...: another client, as far as per-client limits go)."""
    websocket = pytest.importorskip("websocket")
    url = app.url.replace("http://", "ws://") + path
    if source is not None:
        parts = urllib.parse.urlsplit(app.url)
        kwargs["socket"] = socket.create_connection((parts.hostname, parts.port), timeout=10, source_address=(source, 0))
    return websocket.create_connection(url, header=headers or [], timeout=10, **kwargs)


def read_until_closed(ws, limit=200):
    """Reads messages until the server closes; returns (close code, reason, messages read)."""
    import websocket
    seen = 0
    for _ in range(limit):
        try:
            op, data = ws.recv_data(control_frame=True)
        except websocket.WebSocketConnectionClosedException:
            return None, "", seen
        if op == websocket.ABNF.OPCODE_CLOSE:
            code = struct.unpack(">H", data[:2])[0] if len(data) >= 2 else None
            return code, data[2:].decode(errors="replace"), seen
        seen += 1
    raise AssertionError("the socket stayed open")


def test_socket_protocol_and_input(app):
    ws = ws_connect(app)
    hello = json.loads(ws.recv())
    assert hello == {"type": "hello", "readOnly": False, "encoding": "png"}
    update = ws.recv()
    kind, flags, x, y, w, h, sw, sh, frame = struct.unpack("<BBxxIIIIIII", update[:32])
    assert (kind, flags & 1, x, y, w, h, sw, sh) == (1, 1, 0, 0, 800, 480, 800, 480)
    assert update[40:48] == b"\x89PNG\r\n\x1a\n"
    g = glide_of(app)
    g.wait_for_rest()
    ws.send(json.dumps({"t": 0, "key": "PageDown"}))
    assert wait_for(lambda: list_offset(g.wait_for_rest()) > 0, what="the key to scroll")
    ws.close()
    for query, word in [("fps=0", "fps"), ("fps=61", "fps"), ("encoding=jpeg", "encoding")]:
        code, reason, seen = read_until_closed(ws_connect(app, "/live/socket?" + query))
        assert code == 1008 and word in reason and seen == 0


def test_a_viewer_that_leaves_lifts_its_fingers(app):
    g = glide_of(app)
    g.wait_for_rest()
    ws = ws_connect(app)
    ws.send(json.dumps({"t": 0, "touch": "down", "id": 0, "x": 400, "y": 300}))
    ws.send(json.dumps({"t": 0, "touch": "move", "id": 0, "x": 400, "y": 200}))
    time.sleep(0.3)
    ws.close()
    # The finger it held is cancelled: the list comes to rest instead of being held for good.
    g.wait_for_rest(timeout=10)


def test_token_protects_the_page_and_the_socket():
    with HeadlessApp(GLIDE, "--app", "list", token=TOKEN) as app:
        def get(headers):
            req = urllib.request.Request(app.url + "/live", headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return r.status, dict(r.headers), r.read()
            except urllib.error.HTTPError as e:
                return e.code, dict(e.headers), e.read()

        status, headers, _ = get({})
        assert status == 401 and headers["WWW-Authenticate"].startswith("Basic")
        assert get({"Authorization": "Basic " + base64.b64encode(b"kiosk:wrong-token").decode()})[0] == 401
        status, headers, page = get({"Authorization": "Basic " + base64.b64encode(f"kiosk:{TOKEN}".encode()).decode()})
        assert status == 200 and b'<canvas id="screen"' in page and b"http" not in page.split(b"<script>")[1].replace(b"https:", b"")
        cookie = headers["Set-Cookie"].split(";")[0]
        assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"] and TOKEN not in cookie
        assert get({"Authorization": f"Bearer {TOKEN}"})[0] == 200

        # Without the token or the cookie the socket is refused before the upgrade, with 401.
        websocket = pytest.importorskip("websocket")
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            ws_connect(app)
        assert refused.value.status_code == 401
        ws = ws_connect(app, headers=[f"Cookie: {cookie}"])
        assert json.loads(ws.recv())["type"] == "hello"
        ws.close()
        ws = ws_connect(app, headers=[f"Authorization: Bearer {TOKEN}"])
        assert json.loads(ws.recv())["type"] == "hello"
        ws.close()


def spki_sha256(certificate):
    """base64 of the SHA-256 of the certificate's public key, as Chromium's
    --ignore-certificate-errors-spki-list takes it."""
    key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-pubkey", "-noout"], capture_output=True, check=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl reads the certificate's key")
def test_the_live_view_over_https_with_a_self_signed_certificate(tmp_path):
    """Beyond loopback the kiosk serves HTTPS and WSS with the self-signed certificate it made;
    Chromium, told to accept that certificate's key (as a person accepts it once), shows the
    screen live, and the session cookie it got is Secure."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        pytest.skip("chromedriver not installed (Debian: chromium chromium-driver)")
    env = dict(os.environ, STATE_DIRECTORY=str(tmp_path))
    with HeadlessApp(GLIDE, "--app", "list", token=TOKEN, address="0.0.0.0:0", env=env) as app:
        url = app.url.replace("0.0.0.0", "127.0.0.1")
        assert url.startswith("https://")
        fingerprint = wait_for(lambda: re.search(r"SHA-256 fingerprint (\S+)", app.log()), what="the fingerprint").group(1)
        g = Glide(url, token=TOKEN, fingerprint=fingerprint)
        options = webdriver.ChromeOptions()
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,950",
                  "--force-color-profile=srgb",
                  "--ignore-certificate-errors-spki-list=" + spki_sha256(tmp_path / "remote-tls-certificate.pem")]:
            options.add_argument(a)
        browser = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            browser.execute_cdp_cmd("Network.enable", {})
            browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": f"Bearer {TOKEN}"}})
            browser.get(url + "/live")
            wait_for(lambda: live_state(browser)["frame"] >= 0, what="the first update over WSS")
            g.wait_for_rest()
            wait_for(lambda: canvas_equals_screenshot(browser, g), what="the canvas to show the screen")
            cookie = next(c for c in browser.get_cookies() if c["name"] == "glide_live")
            assert cookie["secure"] and cookie["httpOnly"]
        finally:
            browser.quit()


def test_other_sites_cannot_open_the_socket(app):
    code, reason, seen = read_until_closed(ws_connect(app, origin="http://evil.example"))
    assert code == 1008 and "other sites" in reason and seen == 0
    code, reason, seen = read_until_closed(ws_connect(app, host="evil.example"))
    assert code == 1008 and "loopback" in reason and seen == 0
    # A page of evil.example cannot even load the page after DNS rebinding.
    req = urllib.request.Request(app.url + "/live", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 403


@pytest.mark.app("--app", "list", "--remote-view-only")
def test_view_only_server_takes_no_input(app):
    ws = ws_connect(app)
    assert json.loads(ws.recv())["readOnly"] is True
    ws.send(json.dumps({"t": 0, "key": "PageDown"}))
    time.sleep(0.5)
    assert list_offset(glide_of(app).wait_for_rest()) == 0
    ws.close()


def test_offenders_are_dropped_with_a_reason(app):
    g = glide_of(app)
    # Garbage as input.
    ws = ws_connect(app)
    ws.send("this is not a script line")
    code, reason, _ = read_until_closed(ws)
    assert code == 1008 and "not a JSON object" in reason
    # Binary input.
    ws = ws_connect(app)
    ws.send_binary(os.urandom(1000))
    code, reason, _ = read_until_closed(ws)
    assert code == 1008 and "text" in reason
    # A message over 4 KiB.
    ws = ws_connect(app)
    ws.send(json.dumps({"t": 0, "key": "Up", "pad": "x" * 10000}))
    code, reason, _ = read_until_closed(ws)
    assert code == 1008 and "4096 bytes" in reason
    # 10,000 touches a second.
    ws = ws_connect(app)
    ws.send(json.dumps({"t": 0, "touch": "down", "id": 0, "x": 400, "y": 300}))
    try:
        for i in range(10000):
            ws.send(json.dumps({"t": 0, "touch": "move", "id": 0, "x": 400, "y": 300 - i % 100}))
    except Exception:
        pass  # closed under us
    code, reason, _ = read_until_closed(ws, limit=100000)
    assert code == 1008 and "a second" in reason
    g.wait_for_rest(timeout=10)  # its finger was cancelled
    # The app answered all along.
    assert g.state()["scrollViews"]


def test_a_100_mb_frame_is_refused_unread(app):
    host, port = app.url[len("http://"):].rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /live/socket HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b"101" in s.recv(1024).split(b"\r\n")[0]
    # A masked binary frame header announcing 100 MB, then a little of it.
    s.sendall(struct.pack(">BBQ", 0x82, 0x80 | 127, 100 << 20) + os.urandom(4) + os.urandom(65536))
    deadline = time.monotonic() + 10
    closed = False
    while time.monotonic() < deadline:
        try:
            if not s.recv(65536):
                closed = True
                break
        except (ConnectionResetError, BrokenPipeError):
            closed = True
            break
    assert closed
    assert glide_of(app).state()["scrollViews"]


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])


def test_a_viewer_that_never_reads_is_bounded_and_dropped(app):
    g = glide_of(app)
    host, port = app.url[len("http://"):].rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /live/socket?encoding=deflate HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    before = peak = rss_kb(app.process.pid)
    start = time.monotonic()
    # Flick up and down (every frame changes most of the screen) until the socket's buffers are
    # full and a write has waited 10 s: the viewer is then dropped (its socket closed by the
    # server). How soon the buffers fill depends on how fast frames come (a busy machine's
    # later), so the flicks go on until then, memory bounded all along.
    dropped = lambda: "read nothing for 10 s" in app.log()
    while not dropped() and time.monotonic() - start < 120:
        g.swipe((400, 420), (400, 60), duration=0.05)
        g.swipe((400, 60), (400, 420), duration=0.05)
        peak = max(peak, rss_kb(app.process.pid))
    assert peak - before < 40_000, (before, peak)
    assert dropped(), "the stalled viewer was not dropped in 120 s of flicks"
    assert g.state()["scrollViews"]


def test_fifty_viewers_at_once(app):
    g = glide_of(app)
    counts = [0] * 50
    sockets = []
    def reader(i, ws):
        try:
            while True:
                if ws.recv():
                    counts[i] += 1
        except Exception:
            pass
    # Fifty clients (one address may hold eight viewers: a ninth from it is refused).
    for i in range(50):
        ws = ws_connect(app, source=f"127.0.0.{i + 2}")
        sockets.append(ws)
        threading.Thread(target=reader, args=(i, ws), daemon=True).start()
    crowd = [ws_connect(app, source="127.0.1.1") for _ in range(8)]
    code, reason, _ = read_until_closed(ws_connect(app, source="127.0.1.1"))
    assert code == 1013 and "8 from this address" in reason
    for ws in crowd:
        ws.close()
    g.swipe((400, 420), (400, 80), duration=0.08)
    g.wait_for_rest(timeout=30)
    wait_for(lambda: min(counts) >= 3, timeout=30, what="every viewer to get updates")
    t0 = time.monotonic()
    assert g.state()["scrollViews"] and time.monotonic() - t0 < 2
    for ws in sockets:
        ws.close()


# -- scoped tokens --------------------------------------------------------------------------

def test_a_view_token_watches_and_a_replaced_token_ends_its_session(tmp_path):
    """A `view` token's live socket is read-only whatever it asks; a `control` token's drives the
    app; replacing the control token in the file ends the session it opened, and only that one."""
    tokens = tmp_path / "tokens"
    tokens.write_text("watcher view view-Token-0001\nrobot control ctrl-Token-0002\n")
    tokens.chmod(0o600)
    with HeadlessApp(GLIDE, "--app", "list", tokens_file=tokens) as app:
        watcher = ws_connect(app, "/live/socket?readonly=0", headers=["Authorization: Bearer view-Token-0001"])
        assert json.loads(watcher.recv())["readOnly"] is True
        robot = ws_connect(app, headers=["Authorization: Bearer ctrl-Token-0002"])
        assert json.loads(robot.recv())["readOnly"] is False
        tokens.write_text("watcher view view-Token-0001\nrobot control ctrl-Token-0003\n")
        code, reason, _ = read_until_closed(robot)
        assert code == 1008 and "token was replaced" in reason
        watcher.ping()
        assert watcher.connected
        watcher.close()
        log = app.log()
    assert "live control session" in log and "by 'robot' (control)" in log and "Token-000" not in log
