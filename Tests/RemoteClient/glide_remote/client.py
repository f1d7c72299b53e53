"""A client for Glide's remote-control API (REM-1), for test authors.

Start the app with the server, e.g.

    glide run --backend headless --remote 127.0.0.1:8080
    glide board ... --remote 127.0.0.1:8080          (on a board / the virtual board)

then:

    from glide_remote import Glide
    g = Glide("http://127.0.0.1:8080", token=None)
    g.wait_for_rest()
    g.swipe((900, 400), (300, 400), duration=0.15)
    state = g.wait_for_rest()          # the state JSON once nothing moves
    png = g.screenshot()               # bytes of a PNG of what is on screen

Coordinates are screen pixels of the app's canvas; times are seconds. Every gesture is one
`POST /events` request in the headless script format (JSON Lines, `t` in ms relative to the
request's arrival); the call returns once all its events were applied, with the loop's
timestamps (`arrival`, `firstApplied`, `lastApplied`, `frameNumber`).

The transport is the standard library's; only `screenshot_image` and `expect_screenshot` need
Pillow (imported when called).
"""

from __future__ import annotations

import functools
import hashlib
import http.client
import io
import json
import math
import os
import pathlib
import re
import select
import signal
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import IO, Any, Callable, Iterable, Sequence, Tuple, Union

__all__ = ["Glide", "GlideError", "NotAccessible", "NotAtRest", "WaitTimeout", "HeadlessApp", "start_headless", "find_binary"]


class GlideError(Exception):
    """The server refused a request: `.status` (HTTP status), `.message` (the server's `error`)
    and `.line` (for a bad script, the first bad line, counted from 1; otherwise None)."""

    def __init__(self, status: int, message: str, line: int | None = None):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.line = line


class NotAtRest(GlideError):
    """`wait_for_rest` timed out (HTTP 408); `.state` holds the state at the deadline."""

    def __init__(self, state: dict, waited_ms: float):
        super().__init__(408, f"not at rest after {waited_ms:.0f} ms")
        self.state = state


class WaitTimeout(AssertionError):
    """`wait_until`'s condition was not met in time; `.state` is the last state seen."""

    def __init__(self, message: str, state: dict | None):
        super().__init__(message)
        self.state = state


Point = Sequence[float]
Line = Union[dict, str]


class NotAccessible(AssertionError):
    """`expect_accessible` found something: `.findings` holds them (dicts, as `audit` gives)."""

    def __init__(self, message: str, findings: list):
        super().__init__(message)
        self.findings = findings


def _short_json(value: Any, limit: int = 2000) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


class Glide:
    """One running app's remote-control server at `base_url` (`http://HOST:PORT`).

    `token` is sent as `Authorization: Bearer TOKEN` (needed when the app was started with
    `--remote-tokens`, `--remote-token` or `--remote-token-file`); it is never shown in `repr` or
    in errors. `token_name` takes it from the environment instead: `token_name="ci"` reads
    `GLIDE_TOKEN_CI` (upper case, other characters as `_`), so no secret is written in a test.
    `virtual_clock`: the app runs on a clock only requests move (`--remote-clock virtual`, which
    `HeadlessApp` and the pytest plugin start headless apps with): `wait_until` then moves it on
    instead of sleeping, and `advance` moves it.
    `timeout` (seconds) bounds each request beyond the time its own work needs.

    HTTPS (`https://HOST:PORT`, which every address but loopback is): `ca_file` is a PEM file of
    the CA (or the board's own certificate) to verify the server with, as a browser would (the
    host name must match); `fingerprint` pins the server's certificate by the SHA-256
    fingerprint the board logs ("AB:CD:..."; colons and case do not matter), for a board's
    self-signed certificate; `client_cert` (and `client_key`, when the key is not in the same
    file) is the certificate to present to a board that wants one (`--remote-client-ca`). Each
    defaults to the environment's GLIDE_CA_FILE, GLIDE_FINGERPRINT, GLIDE_CLIENT_CERT and
    GLIDE_CLIENT_KEY.

    `name`, `goldens` and `update_goldens` are used by `expect_screenshot`; the pytest fixture
    `glide` sets them (the board's name, the `goldens/` folder beside the test file, and
    `--update-goldens`), and `app` (the HeadlessApp it started; None for a board).
    """

    def __init__(self, base_url: str = "http://127.0.0.1:8080", token: str | None = None, timeout: float = 30.0,
                 *, name: str | None = None, goldens: str | os.PathLike | None = None, update_goldens: bool = False,
                 token_name: str | None = None, virtual_clock: bool = False,
                 ca_file: str | os.PathLike | None = None, fingerprint: str | None = None,
                 client_cert: str | os.PathLike | None = None, client_key: str | os.PathLike | None = None):
        self.base_url = base_url.rstrip("/")
        self._opener = _opener(self.base_url, ca_file or os.environ.get("GLIDE_CA_FILE"),
                               fingerprint or os.environ.get("GLIDE_FINGERPRINT"),
                               client_cert or os.environ.get("GLIDE_CLIENT_CERT"),
                               client_key or os.environ.get("GLIDE_CLIENT_KEY"))
        if token_name is not None:
            if token is not None:
                raise ValueError("give token or token_name, not both")
            token = token_from_environment(token_name)
        self.token = token
        self.virtual_clock = virtual_clock
        self.timeout = timeout
        self.name = name
        self.goldens = pathlib.Path(goldens) if goldens is not None else None
        self.update_goldens = update_goldens
        self._written_goldens: set | None = None  # shared between boards by the pytest plugin
        self.app: HeadlessApp | None = None  # the app the pytest fixture started, if it did

    def __repr__(self) -> str:
        return f"Glide({self.base_url!r}{', name=' + repr(self.name) if self.name else ''}" \
               f"{', token=<hidden>' if self.token else ''})"

    # -- transport -------------------------------------------------------------------------
    def _request(self, method: str, path: str, body: bytes | None = None,
                 timeout: float | None = None) -> Tuple[int, bytes]:
        req = urllib.request.Request(self.base_url + path, data=body, method=method)
        if self.token is not None:
            req.add_header("Authorization", f"Bearer {self.token}")
        if body is not None:
            req.add_header("Content-Type", "application/x-ndjson")
        try:
            with self._opener.open(req, timeout=timeout or self.timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    @staticmethod
    def _error(status: int, data: bytes) -> GlideError:
        try:
            j = json.loads(data)
            return GlideError(status, j.get("error", data.decode(errors="replace")), j.get("line"))
        except (ValueError, AttributeError):
            return GlideError(status, data.decode(errors="replace"))

    def _ok(self, method: str, path: str, body: bytes | None = None, timeout: float | None = None) -> bytes:
        status, data = self._request(method, path, body, timeout)
        if status != 200:
            raise self._error(status, data)
        return data

    # -- reading ---------------------------------------------------------------------------
    def screenshot(self, source: str = "canvas", mask: Iterable[str] | None = None) -> bytes:
        """PNG bytes (RGB) of the frame on screen (`GET /screenshot.png`): the last presented
        canvas, or with `source="scanout"` the pixels read back from the display (a board's
        writeback connector; GlideError 409 where the display cannot be read back). `mask`
        names views (by id) painted over in magenta: what changes by itself, a clock or a
        caret, left out of a golden (GlideError 404 for an id no view on screen has)."""
        params = {} if source == "canvas" else {"source": source}
        if mask:
            params["mask"] = ",".join(mask)
        query = "?" + urllib.parse.urlencode(params) if params else ""
        return self._ok("GET", "/screenshot.png" + query)

    def screenshot_image(self, source: str = "canvas", mask: Iterable[str] | None = None):
        """The screenshot as a `PIL.Image.Image` in RGB mode (needs Pillow)."""
        from PIL import Image

        image = Image.open(io.BytesIO(self.screenshot(source, mask)))
        image.load()
        return image.convert("RGB")

    def state(self) -> dict:
        """The UI state now, without waiting (`GET /state`): scrollViews (id, frame, offset,
        page, phase, ...), pageControls, focus, display ({"on": bool}), t."""
        return json.loads(self._ok("GET", "/state"))

    def metrics(self) -> str:
        """The app's series in Prometheus' text format (`GET /metrics`, a `view` token):
        glide_frames_total, glide_frame_seconds, glide_input_to_flip_seconds, glide_touches_total,
        glide_remote_requests_total{endpoint,status}, glide_build_info{version,commit,app}, ..."""
        return self._ok("GET", "/metrics").decode()

    def audit(self, rules: Iterable[str] | None = None) -> list:
        """The accessibility audit of the screen shown now (`GET /audit`): a list of findings,
        each a dict with `rule` (contrast, target-size, label, overflow, keypad, timeout,
        motion, rest), `id`, `frame` (pixels), `figure`, `screen` ("live") and `message`. `rules`
        checks only those; an unknown rule is a GlideError 400."""
        query = "" if rules is None else "?rules=" + urllib.parse.quote(",".join(rules))
        return json.loads(self._ok("GET", "/audit" + query))["findings"]

    def expect_accessible(self, rules: Iterable[str] | None = None, ignore: Iterable[str] = (), *,
                          timeout: float = 10.0) -> None:
        """Waits for rest and audits the screen (`audit`); raises NotAccessible (an
        AssertionError) listing each finding, unless its view's id or its rule is in `ignore`
        (a decorative view the app knows about, a rule the kiosk meets another way)."""
        self.wait_for_rest(timeout)
        skip = set(ignore)
        found = [f for f in self.audit(rules) if f.get("id") not in skip and f.get("rule") not in skip]
        if found:
            lines = "\n".join(f"  {f['rule']} {f.get('id') or '-'}: {f['message']}" for f in found)
            raise NotAccessible(f"{len(found)} accessibility finding(s) on {self.name}:\n{lines}", found)

    def wait_for_rest(self, timeout: float = 10.0) -> dict:
        """The state once nothing animates, no injected event is pending and a frame was
        presented after the last one (`POST /wait?until=rest`); raises NotAtRest (with
        `.state` at the deadline) after `timeout` seconds."""
        ms = max(0, int(timeout * 1000))
        status, data = self._request("POST", f"/wait?until=rest&timeout_ms={ms}", b"", timeout=timeout + self.timeout)
        if status == 408:
            j = json.loads(data)
            raise NotAtRest(j["state"], j["waitedMs"])
        if status != 200:
            raise self._error(status, data)
        return json.loads(data)["state"]

    def wait_until(self, predicate: Callable[[dict], bool], timeout: float = 10.0, interval: float = 0.05) -> dict:
        """Waits for rest, then checks `predicate(state)`; returns the first state at rest for
        which it is true. While the app rests and the predicate is false (something outside
        the app, a timer or a real finger, has yet to change it) it asks again every
        `interval` seconds. Raises WaitTimeout (an AssertionError, with `.state`, the last
        state seen) after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        state: dict | None = None
        at_rest = False
        while True:
            remaining = deadline - time.monotonic()
            try:
                state = self.wait_for_rest(max(0.0, remaining))
                at_rest = True
            except NotAtRest as e:
                state, at_rest = e.state, False
            if at_rest and predicate(state):
                return state
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                what = getattr(predicate, "__name__", repr(predicate))
                rest = "at rest" if at_rest else "not at rest"
                raise WaitTimeout(f"wait_until({what}) not true after {timeout:g} s ({rest}); "
                                  f"last state: {_short_json(state)}", state)
            if at_rest:
                if self.virtual_clock:
                    self.advance(interval)
                else:
                    time.sleep(min(interval, remaining))

    def advance(self, seconds: float) -> dict:
        """Moves a virtual clock `seconds` on (`POST /clock?advance_ms=N`), drawing every frame
        on the way, and returns the state then. Only for an app started with
        `--remote-clock virtual` (a GlideError with status 409 otherwise)."""
        ms = max(0, int(round(seconds * 1000)))
        return json.loads(self._ok("POST", f"/clock?advance_ms={ms}", b"", timeout=self.timeout + seconds))["state"]

    def display(self, on: bool) -> dict:
        """Wakes (`on=True`) or blanks (`on=False`) the screen as idle blanking does
        (`POST /display`); returns `{"on": bool}`."""
        return json.loads(self._ok("POST", "/display", json.dumps({"on": bool(on)}).encode()))

    def live_page(self) -> str:
        """The HTML of the live-view page (`GET /live`), fetched with the token header."""
        return self._ok("GET", "/live").decode("utf-8", errors="replace")

    # -- input -----------------------------------------------------------------------------
    def send_events(self, lines: Iterable[Line]) -> dict:
        """Injects script lines (dicts or JSON strings in the headless script format, `t` in ms
        from the request's arrival; `POST /events`); returns the server's timing reply
        `{"events", "arrival", "firstApplied", "lastApplied", "frameNumber"}` once all were
        applied. A refused script raises GlideError with `.line`."""
        lines = list(lines)
        text = "".join((l if isinstance(l, str) else json.dumps(l, separators=(",", ":"))) + "\n" for l in lines)
        times = []
        for l in lines:
            try:
                times.append(float((json.loads(l) if isinstance(l, str) else l)["t"]))
            except (ValueError, KeyError, TypeError):
                pass  # the server names the bad line
        span = max([0.0] + times) / 1000
        return json.loads(self._ok("POST", "/events", text.encode(), timeout=self.timeout + span))

    def tap(self, x: float, y: float, hold: float = 0.05, finger: int = 0) -> dict:
        """A finger down at (x, y) and up after `hold` seconds."""
        return self.send_events([
            {"t": 0, "touch": "down", "id": finger, "x": x, "y": y},
            {"t": round(hold * 1000, 3), "touch": "up", "id": finger},
        ])

    def swipe(self, start: Point, end: Point, duration: float = 0.15, step: float = 0.008, finger: int = 0,
              hold: float = 0.0) -> dict:
        """A finger from `start` to `end` over `duration` s (moves every `step` s), then lifted: a
        flick that carries on. With `hold` > 0 the finger stays still at `end` for `hold` s
        before it lifts: a drag that stops where the finger stopped."""
        return self.send_events(self._drag_lines([(start, end)], duration, step, first_id=finger, hold=hold))

    def pinch(self, center: Point, start_distance: float, end_distance: float, duration: float = 0.25,
              angle: float = 0.0, step: float = 0.008) -> dict:
        """Two fingers on opposite sides of `center` moving from `start_distance` apart to
        `end_distance` apart (zoom in when end > start), along `angle` radians."""
        cx, cy = center
        dx, dy = math.cos(angle) / 2, math.sin(angle) / 2
        a = ((cx - dx * start_distance, cy - dy * start_distance), (cx - dx * end_distance, cy - dy * end_distance))
        b = ((cx + dx * start_distance, cy + dy * start_distance), (cx + dx * end_distance, cy + dy * end_distance))
        return self.send_events(self._drag_lines([a, b], duration, step, first_id=0))

    def key(self, name: str) -> dict:
        """Press and release a key by its Linux name without KEY_ (Up, PageDown, Space, End, Tab...)."""
        return self.send_events([{"t": 0, "key": name}])

    def type_text(self, text: str) -> dict:
        """Types `text` into the focused text field, as a physical keyboard would (at most
        65,536 bytes of UTF-8 a call)."""
        return self.send_events([{"t": 0, "type": text}])

    def tap_key(self, label: str) -> dict:
        """Taps the on-screen keyboard's key labelled `label` where the state says it is."""
        keys = self.state().get("keyboard", {}).get("keys", [])
        for k in keys:
            if k["label"] == label:
                x, y, w, h = k["frame"]
                return self.tap(x + w / 2, y + h / 2)
        raise GlideError(f"no key {label!r} on the on-screen keyboard (keys: {[k['label'] for k in keys]})")

    @staticmethod
    def _drag_lines(paths, duration: float, step: float, first_id: int, hold: float = 0.0) -> list:
        steps = max(1, int(round(duration / step)))
        lines = []
        for i, (s, _) in enumerate(paths):
            lines.append({"t": 0, "touch": "down", "id": first_id + i, "x": s[0], "y": s[1]})
        for k in range(1, steps + 1):
            f = k / steps
            t = round(k * step * 1000, 3)
            for i, (s, e) in enumerate(paths):
                lines.append({"t": t, "touch": "move", "id": first_id + i,
                              "x": round(s[0] + (e[0] - s[0]) * f, 3), "y": round(s[1] + (e[1] - s[1]) * f, 3)})
        for k in range(1, int(round(hold / step)) + 1):
            t = round((steps + k) * step * 1000, 3)
            for i, (_, e) in enumerate(paths):
                lines.append({"t": t, "touch": "move", "id": first_id + i, "x": round(e[0], 3), "y": round(e[1], 3)})
        if hold > 0:
            steps += int(round(hold / step))
        t_up = round(steps * step * 1000 + 4, 3)
        for i in range(len(paths)):
            lines.append({"t": t_up, "touch": "up", "id": first_id + i})
        return lines

    # -- goldens ---------------------------------------------------------------------------
    def expect_screenshot(self, name: str, tolerance: int = 2, max_fraction: float = 0.001,
                          max_difference: int = 8, *, source: str = "canvas", timeout: float = 10.0,
                          mask: Iterable[str] | None = None):
        """Waits for rest, takes a screenshot and compares it with the golden `NAME.png` in
        `self.goldens` (the pytest fixture: `goldens/` beside the test file).

        It matches when at most `max_fraction` of the pixels (rounded down: 384 of 800x480)
        differ by more than `tolerance` in some channel (R, G or B, 0-255) and no pixel differs
        by more than `max_difference` in any channel. The defaults are the repository's rule
        for goldens: at most 0.1% of the pixels may differ by more than 2 per channel, none by
        more than 8 (font rendering is the only expected difference between machines).

        On a mismatch it writes `NAME.actual.png` and `NAME.diff.png` beside the golden (with
        the board's name for a fleet: `NAME.BOARD.actual.png`) and raises GoldenMismatch (an
        AssertionError) naming the files and the counts; so does a golden of another size, and
        a missing golden (run with `--update-goldens`, or `update_goldens=True`, to write it).
        With `update_goldens` the golden is written (or overwritten) and the check passes;
        a second board of the same run is compared with what the first one wrote.
        `mask` names views painted over in both (see `screenshot`): a ticking clock, a field's
        caret.
        Returns the comparison (a `golden.Comparison`, or None when the golden was written)."""
        from . import golden

        self.wait_for_rest(timeout)
        png = self.screenshot(source, mask)
        folder = self.goldens if self.goldens is not None else pathlib.Path("goldens")
        return golden.check(png, folder, name, board=self.name, update=self.update_goldens,
                            tolerance=tolerance, max_fraction=max_fraction, max_difference=max_difference,
                            written=self._written_goldens)


# -- starting an app -------------------------------------------------------------------------

def tls_context(ca_file: str | os.PathLike | None = None, fingerprint: str | None = None,
                client_cert: str | os.PathLike | None = None,
                client_key: str | os.PathLike | None = None) -> ssl.SSLContext:
    """The TLS context of a client: verifying the server with `ca_file` (or the system's CAs),
    or, with `fingerprint`, trusting exactly the certificate of that fingerprint (checked once
    connected, see `PinnedHTTPSConnection`); presenting `client_cert` when given."""
    if fingerprint:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    else:
        context = ssl.create_default_context(cafile=os.fspath(ca_file) if ca_file else None)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if client_cert:
        context.load_cert_chain(os.fspath(client_cert), os.fspath(client_key) if client_key else None)
    return context


def parse_fingerprint(text: str) -> bytes:
    """The 32 bytes of a SHA-256 fingerprint written `AB:CD:...`, `abcd...` or `SHA256:AB:...`."""
    hexdigits = re.sub(r"[\s:]", "", re.sub(r"(?i)^sha-?256[:=]?", "", text.strip()))
    if not re.fullmatch(r"[0-9A-Fa-f]{64}", hexdigits):
        raise ValueError(f"{text[:100]!r} is not a SHA-256 fingerprint (64 hex digits, colons allowed)")
    return bytes.fromhex(hexdigits)


def fingerprint_of(der: bytes) -> str:
    """`AB:CD:...`, as the board logs its certificate's."""
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection that, once the handshake is done, closes unless the server's
    certificate has the pinned SHA-256 fingerprint."""

    def __init__(self, *args: Any, pin: bytes, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._pin = pin

    def connect(self) -> None:
        super().connect()
        der = self.sock.getpeercert(binary_form=True) or b""
        if hashlib.sha256(der).digest() != self._pin:
            got = fingerprint_of(der)
            self.close()
            raise ssl.SSLCertVerificationError(
                f"the server's certificate has SHA-256 fingerprint {got}, not the pinned one")


class _PinnedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, context: ssl.SSLContext, pin: bytes):
        super().__init__(context=context)
        self._pin = pin

    def https_open(self, req):
        return self.do_open(functools.partial(PinnedHTTPSConnection, pin=self._pin), req, context=self._context)


def _opener(base_url: str, ca_file, fingerprint, client_cert, client_key) -> urllib.request.OpenerDirector:
    if not base_url.startswith("https:"):
        return urllib.request.build_opener()
    context = tls_context(ca_file, fingerprint, client_cert, client_key)
    if fingerprint:
        return urllib.request.build_opener(_PinnedHTTPSHandler(context, parse_fingerprint(fingerprint)))
    return urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))


def find_binary(start: str | os.PathLike | None = None) -> str | None:
    """The glide binary to start: `$GLIDE`, else `.build/debug/glide` in `start` (default: the
    current directory) or the nearest folder above it that has one; None if there is none."""
    env = os.environ.get("GLIDE")
    if env:
        return env
    here = pathlib.Path(start or os.getcwd()).resolve()
    for folder in [here, *here.parents]:
        candidate = folder / ".build" / "debug" / "glide"
        if candidate.is_file():
            return str(candidate)
    return None


def _tail(f: IO | None, limit: int = 4000) -> str:
    if f is None or not hasattr(f, "seek"):
        return ""
    try:
        f.flush()
        f.seek(0)
        data = f.read()
    except (OSError, ValueError):
        return ""
    if isinstance(data, bytes):
        data = data.decode(errors="replace")
    return data[-limit:]


def token_from_environment(name: str) -> str:
    """The token named `name` from the environment: `GLIDE_TOKEN_<NAME>` (`ci` -> `GLIDE_TOKEN_CI`,
    `fleet-1` -> `GLIDE_TOKEN_FLEET_1`). Raises KeyError naming the variable (never a token)."""
    variable = "GLIDE_TOKEN_" + re.sub(r"[^A-Z0-9]", "_", name.upper())
    token = os.environ.get(variable)
    if not token:
        raise KeyError(f"the token named {name!r} is not in the environment: set {variable}")
    return token


def start_headless(binary: str | None = None, *extra: str, args: Sequence[str] = (), token: str | None = None,
                   size: str = "800x480", stderr: Any = subprocess.DEVNULL,
                   startup_timeout: float = 60.0, clock: str | None = None,
                   tokens_file: str | os.PathLike | None = None, address: str = "127.0.0.1:0",
                   env: dict | None = None) -> Tuple[subprocess.Popen, str]:
    """Starts `BINARY run --backend headless --remote 127.0.0.1:0 --size SIZE ARGS...` (a free
    port on loopback; `binary` defaults to `find_binary()`) and returns (process, base URL) once
    it listens. `args` (or further positional arguments) are added to the command line; with
    `token` the app wants it (given in a private file, `--remote-token-file`, removed once the app
    has read it). `stderr` is where the
    app's log goes (a file to keep it; by default it is dropped). `clock` is `wall` or `virtual`
    (`--remote-clock`; None: the app's default, wall); `tokens_file` a file of named tokens
    (`--remote-tokens`). `address` is where it listens (`--remote`; any address but loopback
    serves HTTPS only), `env` its environment (None: this process's). Stop the process when done
    (SIGTERM: it exits with 0), or use HeadlessApp."""
    binary = binary or find_binary()
    if not binary or not os.path.exists(binary):
        raise FileNotFoundError(f"no glide binary at {binary!r} (swift build --product glide, or set GLIDE)")
    cmd = [binary, "run", "--backend", "headless", "--remote", address, "--size", size, *extra, *args]
    if token:
        # In a file only this user may read, never on the command line: any user on the machine
        # can read a process's arguments in /proc/PID/cmdline. glide reads it at start.
        fd, token_path = tempfile.mkstemp(prefix="glide-token-")
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
        cmd += ["--remote-token-file", token_path]
    if tokens_file is not None:
        cmd += ["--remote-tokens", str(tokens_file)]
    if clock is not None:
        cmd += ["--remote-clock", clock]
    try:
        return _await_listening(cmd, stderr, startup_timeout, env)
    finally:
        if token:
            os.unlink(token_path)


def _await_listening(cmd: list, stderr: Any, startup_timeout: float, env: dict | None) -> Tuple[subprocess.Popen, str]:
    """Runs `cmd` and returns (process, base URL) once it says where it listens."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    deadline = time.monotonic() + startup_timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            line = proc.stdout.readline()
            m = re.search(r"remote control on (https?://\S+)", line)
            if m:
                # Keep reading the app's output so it never blocks on a full pipe.
                threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
                return proc, m.group(1)
            if not line and proc.poll() is not None:
                break
        elif proc.poll() is not None:
            break
    proc.kill()
    proc.wait()
    shown = " ".join(cmd)
    log = _tail(stderr if stderr not in (None, subprocess.DEVNULL, subprocess.PIPE) else None)
    raise RuntimeError(f"glide did not start its remote server (exit {proc.returncode}): {shown}"
                       + (f"\n{log}" if log else ""))


class HeadlessApp:
    """A headless app with the remote server on a free loopback port, as a context manager:

        with HeadlessApp(args=["--app", "list"]) as app:
            g = app.client()            # Glide(app.url)
            ...
        assert app.returncode == 0      # stopped with SIGTERM on exit

    `.url`, `.process`, `.returncode` (after `stop`), `.log()` (the app's stderr so far).
    Arguments as for `start_headless`; with `clock="virtual"` a test's screenshots never depend
    on the machine's speed (a ticking clock or a blinking caret stays where the test put it), and
    `client()` knows it."""

    def __init__(self, binary: str | None = None, *extra: str, args: Sequence[str] = (), token: str | None = None,
                 size: str = "800x480", startup_timeout: float = 60.0, clock: str | None = None,
                 tokens_file: str | os.PathLike | None = None, address: str = "127.0.0.1:0",
                 env: dict | None = None):
        self.binary = binary
        self.address = address
        self.env = env
        self.clock = clock
        self.tokens_file = tokens_file
        self.args = [*extra, *args]
        self.token = token
        self.size = size
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen | None = None
        self.url: str | None = None
        self.returncode: int | None = None
        self._stderr: IO | None = None

    def start(self) -> "HeadlessApp":
        self._stderr = tempfile.TemporaryFile(mode="w+b", prefix="glide-stderr-")
        try:
            self.process, self.url = start_headless(self.binary, args=self.args, token=self.token, size=self.size,
                                                    stderr=self._stderr, startup_timeout=self.startup_timeout,
                                                    clock=self.clock, tokens_file=self.tokens_file,
                                                    address=self.address, env=self.env)
        except BaseException:
            self._stderr.close()
            self._stderr = None
            raise
        return self

    def client(self, **kwargs: Any) -> Glide:
        """A Glide client for this app (with its token, and told of its clock)."""
        kwargs.setdefault("virtual_clock", self.clock == "virtual")
        if "token_name" not in kwargs:
            kwargs.setdefault("token", self.token)
        return Glide(self.url, **kwargs)

    def log(self) -> str:
        """What the app wrote on stderr so far (its log)."""
        return _tail(self._stderr, limit=1 << 20)

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, then waits up to `timeout` s (then SIGKILL); returns the exit code (0 for a
        clean stop, negative for a signal)."""
        if self.process is not None and self.returncode is None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
            try:
                self.returncode = self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.returncode = self.process.wait()
        return self.returncode

    def close(self) -> None:
        try:
            self.stop()
        finally:
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None

    def __enter__(self) -> "HeadlessApp":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()
