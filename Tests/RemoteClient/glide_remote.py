"""A small client for Glide's remote-control API (REM-1), for test authors.

Standard library only. Start the app with the server, e.g.

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
"""

from __future__ import annotations

import json
import re
import select
import subprocess
import threading
import time
import math
import urllib.error
import urllib.request
from typing import Iterable, Sequence

__all__ = ["Glide", "GlideError", "NotAtRest"]


class GlideError(Exception):
    """The server refused a request (status and its message)."""

    def __init__(self, status: int, message: str, line: int | None = None):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.line = line


class NotAtRest(GlideError):
    """`wait_for_rest` timed out; `.state` holds the state at the deadline."""

    def __init__(self, state: dict, waited_ms: float):
        super().__init__(408, f"not at rest after {waited_ms:.0f} ms")
        self.state = state


Point = Sequence[float]


class Glide:
    def __init__(self, base_url: str = "http://127.0.0.1:8080", token: str | None = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # -- transport -------------------------------------------------------------------------
    def _request(self, method: str, path: str, body: bytes | None = None, timeout: float | None = None):
        req = urllib.request.Request(self.base_url + path, data=body, method=method)
        if self.token is not None:
            req.add_header("Authorization", f"Bearer {self.token}")
        if body is not None:
            req.add_header("Content-Type", "application/x-ndjson")
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    @staticmethod
    def _error(status: int, data: bytes) -> GlideError:
        try:
            j = json.loads(data)
            return GlideError(status, j.get("error", data.decode(errors="replace")), j.get("line"))
        except ValueError:
            return GlideError(status, data.decode(errors="replace"))

    # -- reading ---------------------------------------------------------------------------
    def screenshot(self, source: str = "canvas") -> bytes:
        """PNG bytes of the frame on screen: the last presented canvas, or with source="scanout"
        the pixels read back from the display (a board's writeback connector; 409 where the
        display has none)."""
        status, data = self._request("GET", "/screenshot.png" + ("" if source == "canvas" else f"?source={source}"))
        if status != 200:
            raise self._error(status, data)
        return data

    def display(self, on: bool) -> dict:
        """Wakes (on=True) or blanks the screen as idle blanking does; returns {"on": bool}."""
        status, data = self._request("POST", "/display", json.dumps({"on": on}).encode())
        if status != 200:
            raise self._error(status, data)
        return json.loads(data)

    def state(self) -> dict:
        """The UI state: scrollViews (id, frame, offset, page, phase, ...), pageControls, focus, t."""
        status, data = self._request("GET", "/state")
        if status != 200:
            raise self._error(status, data)
        return json.loads(data)

    def wait_for_rest(self, timeout: float = 10.0) -> dict:
        """Returns the state once nothing animates and no injected event is pending; raises
        NotAtRest (with the state) after `timeout` seconds."""
        ms = max(0, int(timeout * 1000))
        status, data = self._request("POST", f"/wait?until=rest&timeout_ms={ms}", b"", timeout=timeout + self.timeout)
        if status == 408:
            j = json.loads(data)
            raise NotAtRest(j["state"], j["waitedMs"])
        if status != 200:
            raise self._error(status, data)
        return json.loads(data)["state"]

    # -- input -----------------------------------------------------------------------------
    def send_events(self, lines: Iterable[dict | str]) -> dict:
        """Injects script lines (dicts or JSON strings, `t` in ms from arrival); returns the
        server's timing reply once all were applied."""
        text = "".join((l if isinstance(l, str) else json.dumps(l, separators=(",", ":"))) + "\n" for l in lines)
        span = max([0.0] + [float(json.loads(l)["t"]) if isinstance(l, str) else float(l["t"]) for l in lines]) / 1000
        status, data = self._request("POST", "/events", text.encode(), timeout=self.timeout + span)
        if status != 200:
            raise self._error(status, data)
        return json.loads(data)

    def tap(self, x: float, y: float, hold: float = 0.05, finger: int = 0) -> dict:
        return self.send_events([
            {"t": 0, "touch": "down", "id": finger, "x": x, "y": y},
            {"t": round(hold * 1000, 3), "touch": "up", "id": finger},
        ])

    def swipe(self, start: Point, end: Point, duration: float = 0.15, step: float = 0.008, finger: int = 0) -> dict:
        """A finger from `start` to `end` over `duration` s (moves every `step` s), then lifted."""
        return self.send_events(self._drag_lines([(start, end)], duration, step, first_id=finger))

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

    @staticmethod
    def _drag_lines(paths, duration: float, step: float, first_id: int) -> list[dict]:
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
        t_up = round(steps * step * 1000 + 4, 3)
        for i in range(len(paths)):
            lines.append({"t": t_up, "touch": "up", "id": first_id + i})
        return lines


def start_headless(glide: str, *args: str, token: str | None = None, size: str = "800x480"):
    """Starts `glide run --backend headless --remote 127.0.0.1:0` (a free port on loopback) with
    `args`; returns (process, base URL) once it listens. Terminate the process when done."""
    cmd = [glide, "run", "--backend", "headless", "--remote", "127.0.0.1:0", "--size", size, *args]
    if token:
        cmd += ["--remote-token", token]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            line = proc.stdout.readline()
            m = re.search(r"remote control on (http://\S+)", line)
            if m:
                # Keep reading the app's output so it never blocks on a full pipe.
                threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
                return proc, m.group(1)
            if not line and proc.poll() is not None:
                break
    proc.kill()
    raise RuntimeError("glide did not start its remote server")
