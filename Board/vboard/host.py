#!/usr/bin/env python3
"""Host side of the virtual-board test: boots QEMU, answers the guest's @@SHOT name@@ markers with
QMP screendumps, collects @@STATE/@@UPTIME/@@IDLE/@@STATS/@@EXIT markers, then checks:
  1. the first frame on the virtual screen equals the headless render (exact RGB),
  2. the tap changed the state and the screen,
  3. the swipe moved the content up (the best row shift between screendumps is > 0, inside the
     scroll view that moved) and the app's state reports a larger offset,
  4. through the remote-control API on the forwarded port (VBOARD_REMOTE, VBOARD_TOKEN): a request
     without the token gets 401, an injected swipe scrolls the feed, the live view's socket sends
     the screen as the screenshot shows it, and /screenshot.png after
     /wait equals QEMU's screendump of the same moment,
  5. glide's VT (its standard input) is in graphics mode with the keyboard off while it runs,
     and back as it was after exit,
  6. SIGUSR1 drops DRM master for good, SIGUSR2 takes it back and shows the frame again; an
     unplugged display (connector status forced off) pauses drawing and its replug resumes it,
  7. the input recorded on the board replays headless to the same state and picture (HL-2),
  8. glide exited with status 0 and the text console came back,
  9. glide took atomic modesetting on virtio-gpu, the Departures example legacy (forced),
 10. on VKMS (a second card, vblank timer): atomic with damage clips, flips paced at the refresh
     period, the frame read back through its writeback connector (/screenshot.png?source=scanout)
     equal to the headless render at 1024x768, a swipe scrolled, a clean exit; its --stats are
     printed as figures,
 11. idle blanking on virtio-gpu: DPMS Off after 10 s without input (the CRTC inactive in the
     atomic state in debugfs, the screendump dark), on again after a tap that does not reach the
     app (its state unchanged), and the next tap does; a display schedule whose day is a
     holiday switches it off the same way, and a tap wakes it (state `display` reason `woken`).
Usage: host.py OUTDIR EXPECTED_FIRST_PNG ROTATION QEMU_ARGS...
The screendumps (panel orientation) are turned back into the upright canvas before comparing.   (exit status 0 when everything passes)"""
import base64, hashlib, http.client, json, os, re, socket, ssl, subprocess, sys, threading, time, zlib

from PIL import Image  # Debian's python3-pil: vboard.sh and image.sh run this with /usr/bin/python3

# The whole guest run, killed after this: about 110 s in a fast hour here, three times that in a
# CI host's slow one.
TIMEOUT = float(os.environ.get("VBOARD_QEMU_TIMEOUT_SECONDS", "900"))


def read_png(path):
    """An image file (QEMU's PNG or PPM screendumps, glide's PNGs) as (width, height, [row bytes in
    RGB]). Pillow decodes it: the pure-Python PNG decoder this replaced took about 1.2 s an image
    here, 30 s of each board test's checks after its guest had powered off."""
    with Image.open(path) as im:
        w, h = im.size
        data = im.convert("RGB").tobytes()
    stride = w * 3
    return w, h, [data[y * stride:(y + 1) * stride] for y in range(h)]


def to_canvas(img, rotation):
    """Turns a panel image (w, h, rows) into the upright canvas the app drew."""
    w, h, rows = img
    if rotation == 0: return img
    if rotation == 180: return w, h, [bytes(b"".join(r[i:i + 3] for i in range(len(r) - 3, -3, -3))) for r in reversed(rows)]
    cw, ch = h, w
    out = []
    for y in range(ch):
        if rotation == 90:   # canvas (x, y) is on panel (ch - 1 - y, x)
            px = (ch - 1 - y) * 3
            out.append(b"".join(rows[x][px:px + 3] for x in range(cw)))
        else:                # 270: canvas (x, y) is on panel (y, cw - 1 - x)
            px = y * 3
            out.append(b"".join(rows[cw - 1 - x][px:px + 3] for x in range(cw)))
    return cw, ch, out


def set_pixels(row):
    """How many pixels of an RGB row have a byte that is not zero: the row's three channels as
    integers, or'ed, so that Python touches no pixel one at a time (a frame in milliseconds)."""
    n = len(row) // 3
    m = int.from_bytes(row[0::3], "little") | int.from_bytes(row[1::3], "little") | int.from_bytes(row[2::3], "little")
    return n - m.to_bytes(n, "little").count(0)


def lit_pixels(rows):
    """How many pixels of an image's rows are not black."""
    return sum(set_pixels(r) for r in rows)


def differing_pixels(a, b):
    n = 0
    for ra, rb in zip(a, b):
        if ra == rb:
            continue
        if len(ra) == len(rb):
            n += set_pixels((int.from_bytes(ra, "little") ^ int.from_bytes(rb, "little")).to_bytes(len(ra), "little"))
        else:
            n += sum(1 for i in range(0, len(ra), 3) if ra[i:i + 3] != rb[i:i + 3])
    return n


def best_shift(before, after, top, bottom):
    """The vertical shift d with after[y] == before[y + d] for the most distinctive rows (rows that
    occur at most twice in `before`, e.g. through circles and corners) in [top, bottom).
    Returns (d, votes, candidates)."""
    where = {}
    for y, r in enumerate(before): where.setdefault(r, []).append(y)
    votes, candidates = {}, 0
    for y in range(top, bottom):
        ys = where.get(after[y], ())
        if 0 < len(ys) <= 2:
            candidates += 1
            for yb in ys: votes[yb - y] = votes.get(yb - y, 0) + 1
    if not votes: return 0, 0, candidates
    d = max(votes, key=lambda k: (votes[k], -abs(k)))
    return d, votes[d], candidates


def offsets(obj, path="", frame=None):
    """Every number under a key that mentions 'offset' (lists are split by index), flattened:
    {path: (value, frame)} where frame is the [x, y, w, h] of the nearest enclosing object that has
    one (a scroll view), or None."""
    out = {}
    if isinstance(obj, dict):
        f = obj.get("frame")
        if isinstance(f, list) and len(f) == 4 and all(isinstance(v, (int, float)) for v in f): frame = f
        for k, v in obj.items():
            p = f"{path}.{k}" if path else k
            if "offset" in k.lower() and isinstance(v, (int, float)): out[p] = (v, frame)
            elif "offset" in k.lower() and isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
                for i, x in enumerate(v): out[f"{p}[{i}]"] = (x, frame)
            elif isinstance(v, (dict, list)): out.update(offsets(v, p, frame))
    elif isinstance(obj, list):
        for i, v in enumerate(obj): out.update(offsets(v, f"{path}[{i}]", frame))
    return out


def changed_keys(a, b):
    """The dotted paths whose values differ between two JSON values (for messages)."""
    out = []
    def walk(x, y, p):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)): walk(x.get(k), y.get(k), f"{p}.{k}" if p else k)
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y) and any(isinstance(v, (dict, list)) for v in x):
            for i, (u, v) in enumerate(zip(x, y)): walk(u, v, f"{p}[{i}]")
        elif x != y and not p.endswith("frame") and p not in ("t", "frameNumber"):
            out.append(f"{p} {json.dumps(x)} -> {json.dumps(y)}")
    walk(a, b, "")
    return ", ".join(out[:6]) or "nothing"


def crop(rows, x, y, w, h):
    return [r[x * 3:(x + w) * 3] for r in rows[y:y + h]]


# The guest listens on 0.0.0.0, so its API is HTTPS only, with the self-signed certificate it made
# on its first start (kept in its STATE_DIRECTORY). The guest sends that certificate over the
# serial line before the remote step; the host pins its SHA-256 fingerprint, as a test machine
# pins a board's, and checks that the guest logged the same one.
TLS = {"pem": [], "pin": None}


def pinned_socket(sock, host):
    """`sock` wrapped in TLS, refused unless the server's certificate is the pinned one."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    wrapped = context.wrap_socket(sock, server_hostname=host)
    got = hashlib.sha256(wrapped.getpeercert(binary_form=True)).hexdigest()
    if TLS["pin"] is None or got != TLS["pin"]:
        wrapped.close()
        raise ssl.SSLError(f"the guest's certificate {got[:16]}... is not the pinned one ({TLS['pin']})")
    return wrapped


class PinnedHTTPSConnection(http.client.HTTPConnection):
    def connect(self):
        super().connect()
        self.sock = pinned_socket(self.sock, self.host)


def remote_call(address, method, path, body=None, token=None, timeout=60):
    """One HTTPS request to glide's remote-control API; returns (status, body bytes)."""
    host, port = address.rsplit(":", 1)
    c = PinnedHTTPSConnection(host, int(port), timeout=timeout)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if body:
        headers["Content-Type"] = "application/x-ndjson"   # the API refuses bodies of other types
    try:
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def live_screen(address, token, timeout=30):
    """The screen as the live view's socket (GET /live/socket) first sends it, whole, as zlib
    rows: (width, height, [row bytes in RGB]). A small WebSocket client of the standard library."""
    host, port = address.rsplit(":", 1)
    s = pinned_socket(socket.create_connection((host, int(port)), timeout=timeout), host)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /live/socket?encoding=deflate HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   f"Authorization: Bearer {token}\r\n\r\n").encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            got = s.recv(4096)
            if not got: raise ConnectionError("the live view's socket closed before its answer")
            buf += got
        head, buf = buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head[:80]

        def take(n):
            nonlocal buf
            while len(buf) < n:
                chunk = s.recv(1 << 16)
                if not chunk:
                    raise ConnectionError("the live socket closed")
                buf += chunk
            out, buf = buf[:n], buf[n:]
            return out

        def message():
            data, kind = b"", None
            while True:
                b0, b1 = take(2)
                n = b1 & 0x7F
                n = int.from_bytes(take(2), "big") if n == 126 else int.from_bytes(take(8), "big") if n == 127 else n
                payload = take(n)
                op = b0 & 0x0F
                if op == 8:
                    raise ConnectionError(f"the live socket closed: {payload[2:]!r}")
                if op in (9, 10):
                    continue   # ping, pong
                kind = kind if op == 0 else op
                data += payload
                if b0 & 0x80:
                    return kind, data

        kind, hello = message()
        assert kind == 1 and json.loads(hello)["type"] == "hello", hello
        image, last = None, False
        while not last:
            kind, m = message()
            x, y, w, h, sw, sh = (int.from_bytes(m[4 + 4 * i:8 + 4 * i], "little") for i in range(6))
            last = m[1] & 1
            if image is None:
                image = [bytearray(sw * 3) for _ in range(sh)]
            rgba = zlib.decompress(m[40:])
            for row in range(h):
                line = rgba[row * w * 4:(row + 1) * w * 4]
                rgb = bytearray(w * 3)
                rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
                image[y + row][x * 3:(x + w) * 3] = rgb
        return len(image[0]) // 3, len(image), [bytes(r) for r in image]
    finally:
        s.close()


def remote_session(address, token, outdir, qmp):
    """Drives the app over the API the way a test machine would, and takes a screendump right
    after the screenshot. Returns what the checks need; errors are reported, not raised."""
    out = {"unauthorized": None}
    try:
        out["unauthorized"] = remote_call(address, "GET", "/state")[0]
        status, body = remote_call(address, "GET", "/state", token=token)
        out["before"] = json.loads(body) if status == 200 else None
        feed = next((v for v in (out["before"] or {}).get("scrollViews", []) if v.get("id") == "feed"),
                    ((out["before"] or {}).get("scrollViews") or [None])[0])
        x, y, w, h = feed["frame"]
        cx, y0, y1 = int(x + w / 2), int(y + h * 0.9), int(y + h * 0.6)
        lines = [{"t": 0, "touch": "down", "id": 0, "x": cx, "y": y0}]
        lines += [{"t": 20 * i, "touch": "move", "id": 0, "x": cx, "y": int(y0 + (y1 - y0) * i / 15)} for i in range(1, 16)]
        lines += [{"t": 310, "touch": "up", "id": 0, "x": cx, "y": y1}]
        script = "\n".join(json.dumps(l) for l in lines).encode()
        out["events"] = remote_call(address, "POST", "/events", body=script, token=token)
        out["wait"] = remote_call(address, "POST", "/wait?until=rest&timeout_ms=40000", token=token)
        status, png = remote_call(address, "GET", "/screenshot.png", token=token)
        dump = os.path.join(outdir, "remote-screendump.png")
        qmp.call("screendump", filename=os.path.abspath(dump), format="png")
        if status == 200:
            open(os.path.join(outdir, "remote-screenshot.png"), "wb").write(png)
            out["screenshot"], out["screendump"] = os.path.join(outdir, "remote-screenshot.png"), dump
        status, body = remote_call(address, "GET", "/state", token=token)
        out["after"] = json.loads(body) if status == 200 else None
        out["feed"] = feed.get("id")
        try:
            out["live"] = live_screen(address, token)
        except Exception as e:  # reported by its own check
            out["live"] = None
            out["live_error"] = f"{type(e).__name__}: {e}"
    except Exception as e:  # reported by the checks
        out["error"] = f"{type(e).__name__}: {e}"
    return out


def replay_check(outdir, record, board_state, board_canvas, check):
    """HL-2: the input recorded on the board (the tap, the swipe and the remote API's swipe),
    replayed headless on the virtual clock, must end in the state and the picture the board
    showed at the end."""
    glide, app, size = os.environ.get("VBOARD_GLIDE"), os.environ.get("VBOARD_APP"), os.environ.get("VBOARD_CANVAS")
    if app == "bringup":
        print("SKIP replay: the bring-up pattern has no headless app")
        return
    if not (glide and app and size and record and board_state):
        check(False, "replay of the recorded input (nothing recorded, or no glide binary)")
        return
    out = os.path.join(outdir, "replay")
    # VBOARD_GLIDE_RUNNER: how the host runs the board's binary (qemu-user for aarch64).
    runner = os.environ.get("VBOARD_GLIDE_RUNNER", "").split()
    try:
        # Under qemu-user on aarch64 it takes much longer than natively.
        r = subprocess.run(runner + [glide, "run", "--backend", "headless", "--app", app, "--size", size,
                            "--script", os.path.join(outdir, "record.jsonl"), "--out", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except subprocess.TimeoutExpired:
        check(False, "headless replay of record.jsonl ran within 600 s")
        return
    if r.returncode != 0:
        check(False, f"headless replay of record.jsonl ran: {r.stdout.decode(errors='replace')[-300:]}")
        return
    final = json.load(open(os.path.join(out, "final.json")))
    key = lambda s: [(v.get("id"), v.get("offset"), v.get("page")) for v in s.get("scrollViews", [])]
    check(key(final) == key(board_state), f"the headless replay ends where the board did: {key(final)} vs {key(board_state)}")
    n = differing_pixels(read_png(os.path.join(out, "final.png"))[2], board_canvas)
    check(n == 0, f"the replay's final frame equals the board's screendump ({n} pixels differ)")


def example_check(marks, shots, states, rotation, check):
    """APP-1: an app built outside the package on Kiosk.run boots on the same runtime. The
    Departures example: its first frame equals its headless render below the header (the header's
    clock shows the board's time of day, the headless one a fixed time), the clock advances on
    screen, a swipe scrolls the list, and it exits cleanly. Any other app (VBOARD_APP_PACKAGE):
    its first frame equals its headless render, a swipe scrolls a scroll view if it has one that
    can scroll, and it exits cleanly."""
    expected_png = os.environ.get("VBOARD_EXAMPLE_EXPECTED")
    name = os.environ.get("VBOARD_EXAMPLE_NAME", "Departures")
    if not expected_png:
        print("SKIP the app outside the package (VBOARD_EXAMPLE=0)")
        return
    if not all(k in shots for k in ("example-first", "example-clock", "example-swipe")):
        check(False, f"{name} reached every screenshot")
        return
    w, h, first = to_canvas(read_png(shots["example-first"]), rotation)
    ew, eh, expected = read_png(expected_png)
    if os.environ.get("VBOARD_EXAMPLE_KIND", "departures") != "departures":
        own_app_check(name, first, (w, h), expected, (ew, eh), marks, states, check)
        return
    pager = next((v for v in (states.get("example-first") or {}).get("scrollViews", []) if v.get("id") == "pager"), None)
    check(pager is not None and (w, h) == (ew, eh), f"the example reported its pager and shows a {w}x{h} canvas")
    if pager is None or (w, h) != (ew, eh):
        return
    top = int(round(pager["frame"][1]))
    n = differing_pixels(first[top:], expected[top:])
    check(n == 0, f"the example's first frame equals its headless render below the {top}-pixel header ({n} pixels differ)")
    _, _, later = to_canvas(read_png(shots["example-clock"]), rotation)
    nh, nb = differing_pixels(first[:top], later[:top]), differing_pixels(first[top:], later[top:])
    check(nh > 0 and nb == 0, f"the example's clock advanced on screen ({nh} header pixels changed, {nb} below)")
    off = lambda s: next((v["offset"][1] for v in (s or {}).get("scrollViews", []) if v.get("id") == "departures"), None)
    a, b = off(states.get("example-first")), off(states.get("example-swipe"))
    check(a is not None and b is not None and b > a, f"a swipe scrolled the example's list ({a} -> {b})")
    check(marks.get("EXEXIT") == "0", f"the example exited cleanly (status {marks.get('EXEXIT')})")


def own_app_check(name, first, size, expected, expected_size, marks, states, check):
    """The general checks of an app of one's own: what the board shows first is its headless
    render; the swipe (up, in the middle) moved the first scroll view that can scroll vertically."""
    check(size == expected_size, f"{name} shows a {size[0]}x{size[1]} canvas ({expected_size[0]}x{expected_size[1]} headless)")
    if size != expected_size:
        return
    n = differing_pixels(first, expected)
    check(n == 0, f"{name}'s first frame on the board equals its headless render ({n} pixels differ)")
    # The innermost scroll view under the swipe's start that can scroll vertically (the state
    # lists outer ones first), by its place in the list: ids are optional.
    x, y = (int(v) for v in os.environ.get("VBOARD_EXAMPLE_SWIPE", "0,0").split(",")[:2])
    before = (states.get("example-first") or {}).get("scrollViews", [])
    after = (states.get("example-swipe") or {}).get("scrollViews", [])
    under = [i for i, v in enumerate(before)
             if v["contentSize"][1] > v["viewportSize"][1] + 1
             and v["frame"][0] <= x < v["frame"][0] + v["frame"][2] and v["frame"][1] <= y < v["frame"][1] + v["frame"][3]]
    if under:
        i = under[-1]
        a = before[i]["offset"][1]
        b = after[i]["offset"][1] if i < len(after) else None
        check(b is not None and b > a, f"a swipe scrolled {name}'s scroll view {before[i].get('id')!r} ({a} -> {b})")
    else:
        print(f"SKIP the swipe check: no scroll view of {name} under ({x}, {y}) scrolls vertically")
    check(marks.get("EXEXIT") == "0", f"{name} exited cleanly (status {marks.get('EXEXIT')})")


LOGS, EXLOGS = [], []


def blank_check(blank, shots, states, check):
    """Issue 14: idle blanking through DPMS, and the waking tap swallowed."""
    check(blank.get("crtc-awake") == "active=1" and blank.get("crtc-idle") == "active=0",
          f"DPMS Off switched the CRTC off after 10 s without input ({blank.get('crtc-awake')} -> {blank.get('crtc-idle')})")
    check(any("screen off (DPMS of " in l for l in blank["log"]), "glide logged the screen off through DPMS")
    if "blanked" in shots:
        _, _, rows = read_png(shots["blanked"])
        dark = sum(r.count(0) for r in rows) / max(1, sum(len(r) for r in rows))
        check(dark > 0.99, f"the screendump while blanked is dark ({dark:.2%} black bytes; QEMU says the output is not active)")
    check(blank.get("crtc-woken") == "active=1", f"a tap switched the display back on ({blank.get('crtc-woken')})")
    key = lambda s: ([p.get("currentPage") for p in (s or {}).get("pageControls", [])],
                     [v.get("offset") for v in (s or {}).get("scrollViews", [])])
    first, woken, tapped = (states.get(k) for k in ("blank-first", "blank-woken", "blank-tapped"))
    check(isinstance(woken, dict) and woken.get("display") == {"on": True, "reason": "on"} and key(woken) == key(first),
          f"the waking tap did not reach the app: {key(first)} -> {key(woken)}")
    check(key(tapped) != key(woken), f"the next tap did: {key(woken)} -> {key(tapped)}")
    back = states.get("blank-taken-back")
    check(blank.get("crtc-dark-again") == "active=0" and blank.get("crtc-taken-back") == "active=1"
          and isinstance(back, dict) and back.get("display") == {"on": True, "reason": "on"},
          f"dark, then the display released and taken back: lit, and glide's screen on with it "
          f"({blank.get('crtc-dark-again')} -> {blank.get('crtc-taken-back')}, state {back.get('display') if isinstance(back, dict) else back})")
    if "blank-taken-back" in shots:
        _, _, rows = read_png(shots["blank-taken-back"])
        black = sum(r.count(0) for r in rows) / sum(len(r) for r in rows)
        check(black < 0.9, f"and the screendump shows the app ({black:.0%} black bytes)")
    check(blank.get("exit") == "0", f"glide with blanking exited cleanly (status {blank.get('exit')})")


def schedule_check(sched, states, check):
    """Issue 62: outside the display schedule's hours the panel is off through DPMS; a tap wakes
    it without reaching the app."""
    closed, woken = states.get("sched-closed"), states.get("sched-woken")
    check(sched.get("crtc-closed") == "active=0" and any("screen off (DPMS of " in l and "schedule" in l for l in sched["log"]),
          f"on a holiday the display schedule switched the CRTC off through DPMS ({sched.get('crtc-closed')})")
    check(sched.get("crtc-woken") == "active=1" and isinstance(woken, dict)
          and woken.get("display") == {"on": True, "reason": "woken"},
          f"a tap woke it ({sched.get('crtc-woken')}, state {woken.get('display') if isinstance(woken, dict) else woken})")
    key = lambda s: [p.get("currentPage") for p in (s or {}).get("pageControls", [])]
    if isinstance(closed, dict):
        check(key(woken) == key(closed), f"the waking tap did not reach the app: {key(closed)} -> {key(woken)}")
    check(sched.get("exit") == "0", f"glide with a display schedule exited cleanly (status {sched.get('exit')})")
    times = sched.get("seconds", "").split()
    if len(times) == 2:
        steps = " ".join(f"{k[3:]} {float(sched[k]) - float(times[0]):.1f} s," for k in ("at-off", "at-woken") if k in sched)
        print(f"  the display schedule's run took {float(times[1]) - float(times[0]):.1f} s of the guest's time ({steps} then the exit)")


def video_check(video, shots, check):
    """Issue 63: the attract loop plays on the DRM path: GStreamer decoded its first frame, and of
    three screens two seconds apart the first shows the clip (mostly its blue) and two in a row
    differ (its ball moved)."""
    check("playing" in video and not any("video " in l and "playing" not in l for l in video["log"]),
          f"the attract clip played on the board ({[l for l in video['log'] if 'video' in l][:3]})")
    chosen = next((m.group(0) for l in video["log"] for m in [re.search(r"\((hardware )?decoder \S+\)", l)] if m), None)
    check(chosen is not None, f"glide's log names the decoder GStreamer chose {chosen}")
    names = ("video-a", "video-b", "video-c")
    if all(shots.get(n) and os.path.exists(shots[n]) for n in names):
        ra, rb, rc = (read_png(shots[n])[2] for n in names)
        blue = sum(1 for row in ra for i in range(0, len(row), 3) if row[i] < 60 and row[i + 2] > 110)
        total = sum(len(row) // 3 for row in ra)
        moved = max(differing_pixels(ra, rb), differing_pixels(rb, rc))
        check(blue > total // 2 and moved > total // 100,
              f"the screen shows the clip ({100 * blue // max(1, total)} % its blue) and it moves ({moved} pixels changed in 2 s)")
    else:
        check(False, "the screens of the playing clip were taken")
    check(video.get("exit") == "0", f"glide playing a clip exited cleanly (status {video.get('exit')})")
    times = video.get("seconds", "").split()
    if len(times) == 2:
        print(f"  the clip's run took {float(times[1]) - float(times[0]):.1f} s of the guest's time")


def calibration_check(cal, shots, states, rotation, check):
    """Issue 14: `glide calibrate` against a touchscreen skewed on purpose."""
    check(cal.get("good-exit") == "0", f"glide calibrate with a tap on each cross ended with status 0 ({cal.get('good-exit')})")
    log = cal["log"].get("good", [])
    crosses = [tuple(map(float, m.groups())) for m in (re.search(r"touch cross \d of 5 at (\d+),(\d+)", l) for l in log) if m]
    touched = [tuple(map(float, m.groups())) for m in (re.search(r"cross \d touched at ([\d.]+),([\d.]+)", l) for l in log) if m]
    misses = [((a - c) ** 2 + (b - d) ** 2) ** 0.5 for (a, b), (c, d) in zip(touched, crosses)]
    check(len(touched) == 5 and min(misses) > 10,
          f"the skewed sensor put the five touches {', '.join(f'{m:.0f}' for m in misses)} px from their crosses")
    out = " ".join(cal["out"].get("good", []))
    check(re.search(r"calibration = \S+ \S+ \S+ \S+ \S+ \S+ written to /tmp/board.conf \(the old file is /tmp/board.conf.bak\)", out)
          is not None, f"it said what it wrote: {out!r}")
    check(cal.get("config", "").startswith("calibration = ") and "1 0 0 0 1 0" not in cal.get("config", ""),
          f"the config file now holds the fit: {cal.get('config')!r}")
    check(cal.get("backup") == "kept", f"the old config was kept as board.conf.bak ({cal.get('backup')})")
    if "calibrate-good" in shots:
        w, h, rows = read_png(shots["calibrate-good"])
        x, y = w // 2, h // 2
        px = tuple(rows[y][3 * x:3 * x + 3])
        check(px == (0x30, 0xD1, 0x58), f"the result screen marks the centre cross done (pixel {px})")
    m = re.search(r"(\d+) (\d+) recorded (\{.*\})", cal.get("tap", ""))
    if m:
        want = (float(m.group(1)), float(m.group(2)))
        got = json.loads(m.group(3))
        d = ((got["x"] - want[0]) ** 2 + (got["y"] - want[1]) ** 2) ** 0.5
        check(d <= 1.5, f"with the calibration, a tap at {want} through the skew landed at ({got['x']}, {got['y']}): {d:.2f} px off")
    else:
        check(False, f"the calibrated run recorded the tap ({cal.get('tap')!r})")
    if rotation == 0:
        pages = [((states.get(k) or {}).get("pageControls") or [{}])[0].get("currentPage") for k in ("cal-first", "cal-tapped")]
        if pages[0] is not None:
            check(pages[1] == pages[0] + 1, f"the calibrated tap on the page control turned the page {pages}")
    check(cal.get("board-exit") == "0", f"glide with the calibration exited cleanly ({cal.get('board-exit')})")
    spot = " ".join(cal["log"].get("spot", []))
    check(cal.get("spot-exit") == "1" and "one spot" in spot,
          f"five taps on one spot gave no calibration (status {cal.get('spot-exit')}): "
          + (re.search(r"calibrate: (.*)", spot).group(1) if "calibrate: " in spot else spot[-200:]))
    check(cal.get("after-spot") == "unchanged", f"and the config file stayed as it was ({cal.get('after-spot')})")


def key_tap(keys, patience=30.0):
    """Where the next tap of the typing run goes, from the app's state over the remote API: the
    search tab, the search field, then each key of the word; "done" after the last (or when the
    state cannot be read: the check then fails on the text). Before each it waits, at most
    `patience` seconds, until the app has answered the taps so far: the target in the state, where
    it was a quarter second before (not mid-way through a tab's switch or the keyboard's slide),
    and for a key the field holding the letters tapped before it; after the last, the whole word.
    A guest slowed by its host takes longer to answer than any fixed wait allowed."""
    address, token = os.environ.get("VBOARD_REMOTE", ""), os.environ.get("VBOARD_TOKEN")
    element, key = keys["plan"][0] if keys["plan"] else (None, None)
    deadline, last, error = time.monotonic() + patience, None, "no state read"
    while time.monotonic() < deadline:
        try:
            state = json.loads(remote_call(address, "GET", "/state", token=token)[1])
            text = next((f.get("text") for f in state.get("textFields", []) if f.get("id") == "search-field"), None)
            keyboard = state.get("keyboard") or {}
            if not keys["plan"]:
                if text == keys["typed"]: return "done"
                frame = None
            elif element:
                frame = next((e["frame"] for e in state.get("elements", []) if e.get("id") == element), None)
            elif keyboard.get("visible") and (text or "") == keys["typed"]:
                frame = next((k["frame"] for k in keyboard.get("keys", []) if k.get("label") == key), None)
            else:
                frame = None
            error = f"{element or key or 'the word'}: " + (f"not shown yet (the field holds {text!r})" if frame is None
                                                           else f"still moving ({frame} after {last})")
        except Exception as e:
            frame, error = None, f"{element or key or 'the word'}: {type(e).__name__}: {e}"
        if frame is not None and frame == last:
            keys["plan"].pop(0)
            keys["taps"].append(element or key)
            if key: keys["typed"] += key
            x, y, w, h = frame
            return f"{int(x + w / 2)} {int(y + h / 2)}"
        last = frame
        time.sleep(0.25)
    keys["error"] = error
    keys["plan"] = []
    return "done"


def keys_check(keys, states, check):
    state = states.get("keys")
    fields = state.get("textFields", []) if isinstance(state, dict) else []
    text = next((f["text"] for f in fields if f.get("id") == "search-field"), None)
    check(text == "glide", f"the on-screen keyboard typed 'glide' into the search field through the touchscreen ({text!r}, taps {keys['taps']}, {keys.get('error', 'no error')})")
    check(isinstance(state, dict) and state.get("keyboard", {}).get("visible") is True, "the keyboard showed while the field had focus")
    shown = [e["id"] for e in (state or {}).get("elements", []) if str(e.get("id", "")).startswith("search-item-")] if isinstance(state, dict) else []
    check(shown == [], f"the list filtered to what matches 'glide' (none: {shown[:5]})")
    check(keys.get("exit") == "0", f"glide typing exited cleanly ({keys.get('exit')})")
    stats = "\n".join(keys["stats"])
    m = re.search(r"input to flip \(ms, n=(\d+)\): p50 ([\d.]+)", stats)
    check(m is not None and int(m.group(1)) >= 5, f"--stats timed the taps to their flips ({m.group(0) if m else 'no input to flip line'})")


def speech_check(speech, states, outdir, check):
    state = states.get("speech")
    said = state.get("utterances", []) if isinstance(state, dict) else []
    check(len(said) >= 2 and isinstance(state, dict) and state.get("screenReader") is True,
          f"the screen reader said what the tap and the moving finger met ({[u.get('text') for u in said][:4]})")
    check(speech.get("exit") == "0", f"glide speaking exited cleanly ({speech.get('exit')})")
    stats = "\n".join(speech["stats"])
    m = re.search(r"speech: utterance to first sample on the sound card \(ms, n=(\d+)\): p50 ([\d.]+)", stats)
    check(m is not None, f"--stats timed the utterances to their first samples ({m.group(0) if m else 'no speech line'})")
    path = os.path.join(outdir, "board-speech.wav")
    try:
        import wave, struct
        with wave.open(path) as w:
            n, rate, width, channels = w.getnframes(), w.getframerate(), w.getsampwidth(), w.getnchannels()
            frames = w.readframes(n)
        samples = struct.unpack("<%dh" % (len(frames) // 2), frames) if width == 2 else ()
        loud = sum(1 for s in samples if abs(s) > 1000)
        seconds = loud / max(1, rate * channels)
        check(seconds > 0.5, f"QEMU's sound card played speech: {seconds:.2f} s above the noise in {n / max(1, rate):.1f} s of {path}")
    except Exception as e:
        check(False, f"QEMU's sound card output {path} can be read ({type(e).__name__}: {e})")


def vkms_check(vkms, states, check):
    """Issue 15: glide on the VKMS card (atomic only, vertical blanks from a timer)."""
    if os.environ.get("VBOARD_VKMS", "1") == "0":
        print("SKIP VKMS (VBOARD_VKMS=0)")
        return
    check(vkms.get("card1") == "vkms", f"the vkms module loaded as card1 (driver {vkms.get('card1')!r})")
    check(any(re.search(r"display /dev/dri/card1 .*atomic modesetting with damage clips, 3 buffers", l) for l in vkms["log"]),
          "glide chose atomic modesetting with damage clips on vkms, on three buffers")
    stats = "\n".join(vkms["stats"])
    # Paced: each flip lands on a vertical blank, so the intervals are whole periods (16.67 ms at
    # 60 Hz, as vkms's timer stamps them). One period each when the guest draws in time; a TCG
    # guest slowed by its host misses some (a median of 7 periods was seen), still on the grid.
    m = re.search(r"flip interval \(ms, n=(\d+)\): p50 ([\d.]+)\s+p90 ([\d.]+)", stats)
    periods = [float(m.group(i)) / (1000 / 60) for i in (2, 3)] if m else []
    check(m is not None and int(m.group(1)) >= 30 and all(p >= 0.94 and abs(p - round(p)) <= 0.06 for p in periods),
          "flips on vkms are paced by its vertical blank: median and 90th percentile intervals "
          + (f"{m.group(2)} and {m.group(3)} ms over {m.group(1)} flips (60 Hz: whole periods of 16.67)" if m else "not reported"))
    m = re.search(r"damage clips: (\d+) in (\d+) flips", stats)
    check(m is not None and int(m.group(2)) > 0, "damage rectangles went with the flips (FB_DAMAGE_CLIPS): "
          + (f"{m.group(1)} in {m.group(2)} flips" if m else "not reported"))
    expected, readback = os.environ.get("VBOARD_VKMS_EXPECTED"), vkms.get("scanout")
    if expected and readback:
        rw, rh, got = read_png(readback)
        ew, eh, want = read_png(expected)
        n = differing_pixels(got, want) if (rw, rh) == (ew, eh) else -1
        check(n == 0, f"the frame read back through vkms's writeback connector ({rw}x{rh}) equals the headless render "
              f"({ew}x{eh}; {n} pixels differ)")
        if vkms.get("canvas"):
            _, _, canvas = read_png(vkms["canvas"])
            check(got == canvas, "the read-back frame equals the remote canvas screenshot")
    else:
        check(False, f"the frame was read back through vkms's writeback connector ({vkms.get('scanout-error', 'no expected render')})")
    off = lambda s: {v.get("id"): v.get("offset") for v in (s or {}).get("scrollViews", [])}
    a, b = off(states.get("vkms-first")), off(states.get("vkms-swipe"))
    moved = [f"{k} {a[k]} -> {b.get(k)}" for k in a if a[k] != b.get(k)]
    check(bool(moved), f"a swipe moved a scroll view on vkms ({', '.join(moved) if moved else f'none moved: {a}'})")
    check(vkms.get("exit") == "0", f"glide on vkms exited cleanly (status {vkms.get('exit')})")


class QMP:
    def __init__(self, path):
        deadline = time.time() + 20
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX); self.s.connect(path); break
            except OSError:
                if time.time() > deadline: raise
                time.sleep(0.05)
        self.f = self.s.makefile("rw")
        self.f.readline()
        self.call("qmp_capabilities")

    def call(self, cmd, **args):
        self.f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n"); self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r or "error" in r: return r

    def steady_screendump(self, path, until=None, patience=10.0):
        """A screendump at `path` (PNG) taken once the screen shows `until` (rows, when given) or
        else holds still: dumps a quarter of a second apart, at most `patience` seconds; the last
        is kept. For a frame that follows a restart or a retaken display, where a fixed wait
        would race a host's slow hour (a frame still for a moment may not be the app's yet, so
        the expected one is waited for where it is known); its result is the last dump's QMP
        answer."""
        r = self.call("screendump", filename=os.path.abspath(path), format="png")
        deadline, following, rows = time.monotonic() + patience, path + ".next.png", None
        while "error" not in r and time.monotonic() < deadline:
            rows = rows or read_png(path)[2]
            if until is not None and rows == until: break
            time.sleep(0.25)
            r = self.call("screendump", filename=os.path.abspath(following), format="png")
            if "error" in r: break
            now = read_png(following)[2]
            os.replace(following, path)
            if until is None and now == rows: break
            rows = now
        return r


def main():
    outdir, expected_png, rotation, qemu = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    qmp_path = os.path.join(outdir, "qmp.sock")
    if os.path.exists(qmp_path): os.unlink(qmp_path)
    qemu += ["-qmp", f"unix:{qmp_path},server=on,wait=off"]
    t0 = time.time()
    proc = subprocess.Popen(qemu, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    timer = threading.Timer(TIMEOUT, proc.kill); timer.start()
    qmp = QMP(qmp_path)
    marks, shots, log = {}, {}, open(os.path.join(outdir, "console.log"), "w")
    states, stats, record, remote = {}, [], [], None
    vkms = {"log": [], "stats": []}
    blank = {"log": [], "stats": []}
    sched = {"log": [], "stats": []}
    cal = {"log": {}, "out": {}}
    speech = {"log": [], "stats": []}
    video = {"log": [], "stats": []}
    keys = {"log": [], "stats": [], "taps": [], "typed": "", "plan": [("tab-search", None), ("search-field", None)] + [(None, c) for c in "glide"]}
    runs = {"VKMS": (vkms, "glide on vkms"), "BLANK": (blank, "glide with blanking"), "SCHED": (sched, "glide with a display schedule"), "KEYS": (keys, "glide typing"),
            "SPEECH": (speech, "glide speaking"),
            "VIDEO": (video, "glide playing a clip")}

    def run_of(kind):
        for part in ("", "LOG", "STATS"):
            if kind.endswith(part) and kind[:len(kind) - len(part)] in runs:
                return kind[:len(kind) - len(part)], part
        return None

    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        log.write(line + "\n"); log.flush()
        m = re.search(r"@@(\w+) ?(.*)@@", line)
        if not m:
            if "glide:" in line or "uinput" in line: print("  guest:", line)
            continue
        kind, text = m.group(1), m.group(2)
        if kind == "SHOT":
            path = os.path.join(outdir, f"{text}.png")
            # The frame after the display is taken back or replugged: compared exactly.
            if text in ("retaken", "replugged"):
                shown = (remote or {}).get("screendump")
                r = qmp.steady_screendump(path, until=read_png(shown)[2] if shown else None)
            else:
                r = qmp.call("screendump", filename=os.path.abspath(path), format="png")
            shots[text] = path
            marks[f"shot-{text}"] = time.time() - t0
            if "error" in r: print("screendump failed:", r)
            proc.stdin.write(b"ok\n"); proc.stdin.flush()
        elif kind == "CERT":
            TLS["pem"].append(text)
            if text == "-----END CERTIFICATE-----":
                TLS["pin"] = hashlib.sha256(ssl.PEM_cert_to_DER_cert("\n".join(TLS["pem"]) + "\n")).hexdigest()
        elif kind == "REMOTE":
            remote = remote_session(os.environ.get("VBOARD_REMOTE", ""), os.environ.get("VBOARD_TOKEN"), outdir, qmp)
            print("  remote:", {k: (v if k in ("unauthorized", "error", "events", "wait") else "...") for k, v in remote.items()})
            proc.stdin.write(b"ok\n"); proc.stdin.flush()
        elif kind == "STATE":
            name, _, js = text.partition(" ")
            try: states[name] = json.loads(js)
            except ValueError: states[name] = js
            print(f"  state {name}: {js}")
        elif kind == "STATS": stats.append(text)
        elif kind == "LOG":
            LOGS.append(text)
            print("  guest glide:", text)
            m2 = re.search(r"first frame on screen at uptime ([\d.]+)", text)
            if m2: marks["first-frame-uptime"] = m2.group(1)
        elif kind == "RECORD": record.append(text)
        elif kind == "VKMSREMOTE":
            for source, name in (("scanout", "vkms-scanout.png"), ("canvas", "vkms-canvas.png")):
                try:
                    status, png = remote_call(os.environ.get("VBOARD_REMOTE", ""), "GET", f"/screenshot.png?source={source}",
                                              token=os.environ.get("VBOARD_TOKEN"))
                    if status == 200:
                        open(os.path.join(outdir, name), "wb").write(png)
                        vkms[source] = os.path.join(outdir, name)
                    else:
                        vkms[f"{source}-error"] = f"HTTP {status}: {png[:200].decode(errors='replace')}"
                except Exception as e:
                    vkms[f"{source}-error"] = f"{type(e).__name__}: {e}"
            print("  vkms read-back:", {k: v for k, v in vkms.items() if k in ("scanout", "canvas", "scanout-error", "canvas-error")})
            proc.stdin.write(b"ok\n"); proc.stdin.flush()
        elif run_of(kind):
            # A run of its own (NAME what value, NAMELOG line, NAMESTATS line): its facts, its
            # log, its --stats.
            name, part = run_of(kind)
            store, label = runs[name]
            if part == "LOG":
                store["log"].append(text)
                print(f"  guest {label}:", text)
            elif part == "STATS":
                store["stats"].append(text)
            else:
                what, _, rest = text.partition(" ")
                store[what] = rest.strip()
                print(f"  {label} {what}: {rest.strip()}")
        elif kind == "KEYTAP":
            proc.stdin.write((key_tap(keys) + "\n").encode()); proc.stdin.flush()
        elif kind == "CAL":
            what, _, rest = text.partition(" ")
            cal[what] = rest.strip()
            print(f"  calibration {what}: {rest.strip()}")
        elif kind in ("CALLOG", "CALOUT"):
            run, _, rest = text.partition(" ")
            cal["log" if kind == "CALLOG" else "out"].setdefault(run, []).append(rest)
            print(f"  guest calibrate ({run}):", rest)
        elif kind == "EXLOG":
            EXLOGS.append(text)
            print("  guest example:", text)
            m2 = re.search(r"first frame on screen at uptime ([\d.]+)", text)
            if m2: marks["example-first-frame-uptime"] = m2.group(1)
        elif kind == "DIAG":
            print("  DIAG", text)
        elif kind == "FAIL":
            print("GUEST FAILED:", text)
        elif kind == "KD":
            name, _, modes = text.partition(" ")
            marks[f"KD {name}"] = modes.strip()
            print(f"  tty1 {name}: {modes.strip()}")
        elif kind == "UNPLUG":
            what, _, when = text.partition(" ")
            marks[f"UNPLUG {what}"] = when
            print(f"  display unplug: {what} at uptime {when}")
        elif kind == "MEMORY":
            name, _, figures = text.partition(" ")
            marks[f"MEMORY {name}"] = figures.strip()
        elif kind == "MASTER":
            name, _, flag = text.partition(" ")
            marks[f"MASTER {name}"] = flag.strip()
            print(f"  DRM master {name}: {flag.strip() or '?'}")
        else:
            marks[kind + (" " + text.split()[0] if kind == "UPTIME" else "")] = text
            print(f"  {kind} {text}")
    proc.wait(); timer.cancel()
    wall = time.time() - t0
    open(os.path.join(outdir, "record.jsonl"), "w").write("\n".join(record) + ("\n" if record else ""))

    ok = True
    def check(cond, what):
        nonlocal ok
        print(("PASS " if cond else "FAIL ") + what)
        ok = ok and cond

    check(all(k in shots for k in ("first", "tap", "swipe", "console")), "guest reached every screenshot")
    if not ok:
        print(f"see {outdir}/console.log"); return 1
    w, h, first = to_canvas(read_png(shots["first"]), rotation)
    ew, eh, expected = read_png(expected_png)
    check((w, h) == (ew, eh), f"screen size {w}x{h} equals the headless canvas {ew}x{eh}")
    if (w, h) == (ew, eh):
        n = differing_pixels(first, expected)
        check(n == 0, f"first frame equals the headless render ({n} pixels differ)")
    _, _, tap = to_canvas(read_png(shots["tap"]), rotation)
    tap_changes = changed_keys(states.get("first"), states.get("tap"))
    check(tap_changes != "nothing", "tap changed the app state: " + tap_changes)
    pages = [((states.get(k) or {}).get("pageControls") or [{}])[0].get("currentPage") for k in ("first", "tap")]
    if pages[0] is not None:
        check(pages[1] == pages[0] + 1, f"the tap on the trailing side of the page control went to the next page {pages}")
    ntap = differing_pixels(first, tap)
    check(ntap > 0, f"tap changed the screen ({ntap} pixels)")

    _, _, swipe = to_canvas(read_png(shots["swipe"]), rotation)
    before, after = offsets(states.get("tap", {})), offsets(states.get("swipe", {}))
    grew = [k for k in after if k in before and after[k][0] > before[k][0]]
    check(bool(grew), "app reports a larger offset after the swipe: " +
          ", ".join(f"{k} {before[k][0]} -> {after[k][0]}" for k in grew))
    # Compare inside the scroll view that moved (less its right edge, where an indicator may
    # show); the whole canvas when the app reports no frames.
    fx, fy, fw, fh = 0, 0, w, h
    if grew and after[grew[0]][1]:
        fx, fy, fw, fh = (int(round(v)) for v in after[grew[0]][1])
        fx, fy = max(fx, 0), max(fy, 0)
        fw, fh = min(fw, w - fx) - 16, min(fh, h - fy)
    a, b = crop(tap, fx, fy, fw, fh), crop(swipe, fx, fy, fw, fh)
    d, votes, candidates = best_shift(a, b, 0, fh)
    check(d > 0 and votes >= max(8, candidates // 2),
          f"swipe moved the content up by {d} px inside [{fx},{fy} {fw}x{fh}] "
          f"({votes} of {candidates} distinctive rows match the shifted frame before it)")
    check(remote is not None and "error" not in remote, "remote control answered on the forwarded port" +
          (f" ({remote['error']})" if remote and "error" in remote else ""))
    pin = ":".join(TLS["pin"][i:i + 2] for i in range(0, 64, 2)).upper() if TLS["pin"] else None
    check(pin is not None and any(f"SHA-256 fingerprint {pin}" in l for l in LOGS),
          f"the guest logged the fingerprint of the self-signed certificate it made and serves ({pin})")
    if remote and "error" not in remote:
        check(remote["unauthorized"] == 401, f"a request without the token got {remote['unauthorized']} (401 expected)")
        check(remote["events"][0] == 200 and remote["wait"][0] == 200,
              f"POST /events {remote['events'][0]}, POST /wait {remote['wait'][0]}: {remote['wait'][1][:200]!r}")
        off = lambda s: next((v["offset"][1] for v in s.get("scrollViews", []) if v.get("id") == remote["feed"]), None)
        b, a = off(remote["before"]), off(remote["after"])
        check(b is not None and a is not None and a > b, f"the remote swipe scrolled the feed ({b} -> {a})")
        if "screenshot" in remote:
            rs, dump = read_png(remote["screenshot"]), read_png(remote["screendump"])
            n = differing_pixels(rs[2], dump[2]) if rs[:2] == dump[:2] else -1
            check(n == 0, f"the remote screenshot {rs[0]}x{rs[1]} equals QEMU's screendump {dump[0]}x{dump[1]} "
                          f"({n} pixels differ)")
        else:
            check(False, "GET /screenshot.png answered 200")
        live = remote.get("live")
        if "screenshot" in remote and live:
            rs = read_png(remote["screenshot"])
            n = differing_pixels(rs[2], live[2]) if rs[:2] == live[:2] else -1
            check(n == 0, f"the live view's socket sent the screen {live[0]}x{live[1]} as the screenshot shows it "
                          f"({n} pixels differ)")
        else:
            check(False, f"the live view's socket answered ({remote.get('live_error', 'no screenshot')})")
    master = {k.split()[1]: v for k, v in marks.items() if k.startswith("MASTER ")}
    check(master.get("running") == "y" and master.get("released") == "n" and master.get("retaken") == "y",
          f"SIGUSR1 dropped DRM master and kept it dropped for 2.5 s, SIGUSR2 took it back {master}")
    if "retaken" in shots and "screendump" in (remote or {}):
        n = differing_pixels(read_png(shots["retaken"])[2], read_png(remote["screendump"])[2])
        check(n == 0, f"after SIGUSR2 the screen shows the app's frame again ({n} pixels differ)")
    check("UNPLUG paused" in marks and "UNPLUG resumed" in marks,
          "an unplugged display paused drawing and its replug resumed it: " +
          ", ".join(k.split()[1] for k in marks if k.startswith("UNPLUG ")))
    if "replugged" in shots and "screendump" in (remote or {}):
        n = differing_pixels(read_png(shots["replugged"])[2], read_png(remote["screendump"])[2])
        check(n == 0, f"after the replug the screen shows the app's frame again ({n} pixels differ)")
    # The remote API's swipe comes through the same door as the touchscreen's, so it is recorded
    # too: the replay ends where the board was after it (and showed the same since).
    if remote and remote.get("after") and "screendump" in remote:
        replay_check(outdir, record, remote["after"], to_canvas(read_png(remote["screendump"]), rotation)[2], check)
    else:
        replay_check(outdir, record, states.get("swipe"), swipe, check)
    kd = {k.split()[1]: v for k, v in marks.items() if k.startswith("KD ")}
    check(kd.get("running") == "graphics off" and kd.get("exited") == kd.get("before") and
          (kd.get("before") or "").startswith("text"),
          f"tty1 in graphics mode with the keyboard off while glide ran, restored after {kd}")
    check("HOTPLUG" in marks, "a touchscreen plugged in after start was picked up (libinput DEVICE_ADDED)")
    check(marks.get("EXIT") == "0", f"glide exited cleanly (status {marks.get('EXIT')})")
    _, _, console = to_canvas(read_png(shots["console"]), rotation)
    ncon = differing_pixels(swipe, console)
    lit = lit_pixels(console)
    check(ncon > w * h // 2 and 0 < lit < w * h // 4,
          f"the text console took the screen back ({ncon} pixels changed, {lit} lit console pixels)")
    check(len(record) > 0, f"input was recorded ({len(record)} script lines)")
    example_check(marks, shots, states, rotation, check)
    # libinput's quirks must be those of the libinput glide links (another version's files are
    # refused whole, and touch devices lose their fixes).
    check(not any("Failed to load the device quirks" in l for l in LOGS + EXLOGS),
          "libinput loaded its device quirks")
    check(any(re.search(r"display /dev/dri/card0 .*atomic modesetting", l) for l in LOGS),
          "glide chose atomic modesetting on virtio-gpu")
    if os.environ.get("VBOARD_EXAMPLE_EXPECTED"):
        check(any("legacy modesetting" in l for l in EXLOGS), "the app outside the package ran with legacy modesetting (forced)")
    blank_check(blank, shots, states, check)
    schedule_check(sched, states, check)
    if os.environ.get("VBOARD_VIDEO_EXPECTED") == "1":
        video_check(video, shots, check)
    vkms_check(vkms, states, check)
    if os.environ.get("VBOARD_KEYS", "1") != "0":
        keys_check(keys, states, check)
    if "exit" in speech or os.environ.get("VBOARD_SPEECH_EXPECTED") == "1":
        speech_check(speech, states, outdir, check)
    calibration_check(cal, shots, states, rotation, check)

    print("figures:")
    for k in ("UPTIME init-done", "UPTIME udev-settled", "UPTIME glide-start"):
        if k in marks: print(f"  guest uptime at {k.split()[1]}: {marks[k].split()[1]} s")
    if "first-frame-uptime" in marks: print(f"  guest uptime at the first frame on screen (boot to first frame): {marks['first-frame-uptime']} s")
    if "example-first-frame-uptime" in marks:
        start = marks.get("UPTIME example-start", " ?").split()[1]
        print(f"  {os.environ.get('VBOARD_EXAMPLE_NAME', 'the Departures example')}: started at uptime {start} s, first frame on screen at {marks['example-first-frame-uptime']} s")
    if "UPTIME first-rest" in marks: print(f"  guest uptime when the app first came to rest: {marks['UPTIME first-rest'].split()[1]} s")
    if "shot-first" in marks: print(f"  host: QEMU start to the first screendump {marks['shot-first']:.1f} s")
    if "IDLE" in marks:
        m = re.match(r"ticks=(\d+) seconds=([\d.]+)\.\.([\d.]+) hz=(\d+)", marks["IDLE"])
        if m:
            ticks, a, b, hz = int(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4))
            print(f"  idle CPU of glide: {ticks} ticks in {b - a:.2f} s = {100 * ticks / hz / (b - a):.2f} %")
    for k in ("MEMORY at-rest", "MEMORY after-input"):
        if k in marks: print(f"  glide's memory {k.split()[1]}: {marks[k]}")
    for s in stats: print("  stats:", s)
    for s in vkms["stats"]: print("  stats on vkms:", s)
    for s in keys["stats"]: print("  stats typing:", s)
    for s in speech["stats"]: print("  stats speaking:", s)
    print(f"  wall time of the VM run: {wall:.1f} s")
    print(f"screendumps in {outdir}")
    print("VBOARD TEST " + ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
