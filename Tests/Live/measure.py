"""Measures the live view (issue 34) against a release build of glide, with the catalog:

  1. frame-to-browser latency and bytes per second during flicks, in headless Chromium over
     loopback, for each encoding (PNG and zlib-compressed rows) at 60 updates a second, and
     PNG at the default 30;
  2. glide's CPU (user + system time over wall time) and frames per second with 0, 1 and 5
     viewers attached, at the default 30 updates a second and at 60 (websocket-client readers in this process, which is not counted);
  3. glide's resident memory with a viewer that never reads.

    swift build -c release --product glide
    python3 Tests/Live/measure.py [--glide .build/release/glide] [--size 1280x800] [--seconds 10]

The flick workload is the same in every run: the feed swiped up and down through the remote
API, one swipe every 0.35 s, so the content keeps moving.
"""

import argparse
import json
import os
import pathlib
import shutil
import socket
import base64
import statistics
import threading
import time

from glide_remote import Glide, HeadlessApp

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024


def frames(g):
    return int(g.state()["frameNumber"])


def flick_for(g, seconds, width, height):
    x = width * 0.6
    end = time.monotonic() + seconds
    up = True
    while time.monotonic() < end:
        a, b = (height * 0.85, height * 0.2) if up else (height * 0.2, height * 0.85)
        g.swipe((x, a), (x, b), duration=0.08)
        up = not up
        time.sleep(0.25)


def measure_browser(glide, size, seconds, encoding, fps):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    w, h = map(int, size.split("x"))
    options = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={w + 40},{h + 120}", "--force-color-profile=srgb"]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        with HeadlessApp(glide, size=size) as app:
            g = Glide(app.url)
            driver.get(app.url + f"/live?encoding={encoding}&fps={fps}")
            deadline = time.monotonic() + 20
            while driver.execute_script("return window.glideLive.frame") < 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            g.wait_for_rest()
            driver.execute_script("window.glideLive.latencies = []; window.glideLive.bytes = 0; window.glideLive.updates = 0")
            f0, t0 = frames(g), time.monotonic()
            flick_for(g, seconds, w, h)
            elapsed = time.monotonic() - t0
            f1 = frames(g)
            live = driver.execute_script("return window.glideLive")
            lat = sorted(live["latencies"])
            return {
                "encoding": encoding,
                "fps": fps,
                "kiosk frames/s": round((f1 - f0) / elapsed, 1),
                "updates/s": round(live["updates"] / elapsed, 1),
                "KiB/s": round(live["bytes"] / elapsed / 1024),
                "latency ms p50": round(statistics.median(lat), 1) if lat else None,
                "latency ms p90": round(lat[int(len(lat) * 0.9)], 1) if lat else None,
            }
    finally:
        driver.quit()


def measure_cpu(glide, size, seconds, viewers, fps=30, encoding="png"):
    import websocket
    w, h = map(int, size.split("x"))
    with HeadlessApp(glide, size=size) as app:
        g = Glide(app.url)
        g.wait_for_rest()
        received = [0] * viewers
        sockets = []
        for i in range(viewers):
            ws = websocket.create_connection(app.url.replace("http", "ws") + f"/live/socket?encoding={encoding}&fps={fps}", timeout=30)
            sockets.append(ws)

            def read(i=i, ws=ws):
                try:
                    while True:
                        received[i] += len(ws.recv())
                except Exception:
                    pass
            threading.Thread(target=read, daemon=True).start()
        time.sleep(1)
        c0, f0, t0 = cpu_seconds(app.process.pid), frames(g), time.monotonic()
        flick_for(g, seconds, w, h)
        elapsed = time.monotonic() - t0
        c1, f1 = cpu_seconds(app.process.pid), frames(g)
        for ws in sockets:
            ws.close()
        return {"viewers": viewers, "fps": fps, "glide CPU %": round(100 * (c1 - c0) / elapsed, 1),
                "kiosk frames/s": round((f1 - f0) / elapsed, 1),
                "KiB/s per viewer": round(statistics.mean(received) / elapsed / 1024) if viewers else 0}


def measure_never_reading(glide, size, seconds):
    w, h = map(int, size.split("x"))
    with HeadlessApp(glide, size=size) as app:
        g = Glide(app.url)
        g.wait_for_rest()
        host, port = app.url[len("http://"):].rsplit(":", 1)
        s = socket.create_connection((host, int(port)))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /live/socket HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        before = rss_mb(app.process.pid)
        peak = before
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            flick_for(g, 1, w, h)
            peak = max(peak, rss_mb(app.process.pid))
        return {"RSS MB before": round(before, 1), "RSS MB peak": round(peak, 1), "RSS MB after": round(rss_mb(app.process.pid), 1)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--glide", default=str(ROOT / ".build" / "release" / "glide"))
    p.add_argument("--size", default="1280x800")
    p.add_argument("--seconds", type=float, default=10)
    a = p.parse_args()
    results = {"browser": [measure_browser(a.glide, a.size, a.seconds, e, f) for e, f in (("png", 60), ("deflate", 60), ("png", 30))],
               "cpu": [measure_cpu(a.glide, a.size, a.seconds, n, f) for n, f in ((0, 30), (1, 30), (5, 30), (1, 60), (5, 60))],
               "never reading": measure_never_reading(a.glide, a.size, max(20.0, a.seconds))}
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
