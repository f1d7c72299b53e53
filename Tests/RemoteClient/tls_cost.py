"""What TLS costs the remote API, measured against the same app in one run: the time to a
connection ready for a request (TCP, and TLS's handshake on top) and a 1280x800 screenshot over
one kept-alive connection, plain HTTP on loopback against HTTPS with the app's self-signed
certificate (P-256).

    python3 -m pip install ./Tests/RemoteClient
    python3 Tests/RemoteClient/tls_cost.py [path/to/glide]     # a release build, e.g. the board's
"""

import http.client
import os
import pathlib
import re
import socket
import ssl
import statistics
import sys
import tempfile
import time

from glide_remote import HeadlessApp

ROOT = pathlib.Path(__file__).resolve().parents[2]
GLIDE = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "release" / "glide")
TOKEN = "cost-Token-0001"
ROUNDS = 60


def median_ms(values):
    return f"{statistics.median(values) * 1000:.2f} ms (min {min(values) * 1000:.2f}, n={len(values)})"


def measure(url, context):
    host, port = re.match(r"https?://([^:/]+):(\d+)", url).groups()
    host = "127.0.0.1" if host == "0.0.0.0" else host
    connects, shots = [], []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        sock = socket.create_connection((host, int(port)))
        if context is not None:
            sock = context.wrap_socket(sock, server_hostname=host)
        connects.append(time.perf_counter() - t)
        sock.close()
    make = (lambda: http.client.HTTPSConnection(host, int(port), context=context)) if context else \
        (lambda: http.client.HTTPConnection(host, int(port)))
    connection = make()
    for _ in range(ROUNDS):
        t = time.perf_counter()
        connection.request("GET", "/screenshot.png", headers={"Authorization": f"Bearer {TOKEN}"})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200 and body[:4] == b"\x89PNG", response.status
        shots.append(time.perf_counter() - t)
    connection.close()
    return connects, shots


def main():
    results = {}
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, STATE_DIRECTORY=state)
        for name, address in (("http (loopback)", "127.0.0.1:0"), ("https (self-signed)", "0.0.0.0:0")):
            with HeadlessApp(GLIDE, "--app", "catalog", size="1280x800", token=TOKEN, clock="wall", address=address,
                             env=env) as app:
                context = None
                if app.url.startswith("https:"):
                    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
                time.sleep(1)
                results[name] = measure(app.url, context)
    for name, (connects, shots) in results.items():
        print(f"{name:22} connect {median_ms(connects)}   screenshot {median_ms(shots)}")
    (pc, ps), (tc, ts) = results.values()
    print(f"TLS adds {1000 * (statistics.median(tc) - statistics.median(pc)):.2f} ms to a connection and "
          f"{1000 * (statistics.median(ts) - statistics.median(ps)):.2f} ms to a screenshot on a kept connection "
          f"({statistics.median(ts) / statistics.median(ps):.2f}x)")


if __name__ == "__main__":
    main()
