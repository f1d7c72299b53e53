"""GET /metrics, a fleet's series in Prometheus' text format (issue 62): who may read them and
what they count, a real Prometheus (Debian's package) scraping two glides over loopback, the
shipped alert rules under promtool, and the Grafana dashboard's queries.

    python3 -m pytest -q Tests/RemoteClient/test_metrics.py
"""

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from glide_remote import GlideError, HeadlessApp

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "Board" / "prometheus"
VERSION = re.search(r'static let version = "([^"]+)"',
                    (ROOT / "Sources/AppContract/Version.swift").read_text()).group(1)
TOKENS = """# name  scope    token
watcher view     view-Token-0001
robot   control  ctrl-Token-0002
"""
SAMPLE = re.compile(r'^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$')


def samples(text):
    """{(name, frozenset of (label, value)): value} of an exposition."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        assert m, f"not a sample line: {line!r}"
        labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        out[(m.group(1), labels)] = float(m.group(3))
    return out


def value(text, name, **labels):
    return samples(text).get((name, frozenset(labels.items())))


def tool(name):
    """The path of a Prometheus tool; CI installs Debian's prometheus package, so a missing one
    fails there rather than skipping."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed (apt-get install prometheus)")
        pytest.skip(f"{name} is not installed (apt-get install prometheus)")
    return path


def tokens_file(tmp_path):
    path = tmp_path / "tokens"
    path.write_text(TOKENS)
    path.chmod(0o600)
    return path


def test_metrics_need_a_view_token_and_count_frames_touches_and_requests(glide_binary, tmp_path):
    with HeadlessApp(glide_binary, "--app", "list", tokens_file=tokens_file(tmp_path), clock="wall") as app:
        anonymous = app.client(token=None)
        watcher = app.client(token="view-Token-0001")
        robot = app.client(token="ctrl-Token-0002")
        with pytest.raises(GlideError) as refused:
            anonymous.metrics()
        assert refused.value.status == 401
        watcher.wait_for_rest()
        first = watcher.metrics()
        assert value(first, "glide_build_info", version=VERSION, commit=value_of_commit(first), app="glide") == 1
        robot.tap(200, 200)
        robot.tap(200, 260)
        watcher.wait_for_rest()
        # Every other spelling of the path is refused, and counted apart from the route.
        for path in ["/metrics/", "//metrics", "/metrics/../metrics"]:
            status, _ = watcher._request("GET", path)
            assert status == 404, path
        text = watcher.metrics()
        assert value(text, "glide_touches_total") == 2
        frames = value(text, "glide_frames_total")
        assert frames > 0 and value(text, "glide_frame_seconds_count") == frames
        # Input that changed the screen, timed to the present of its frame (headless).
        assert value(text, "glide_input_to_flip_seconds_count") >= 1
        assert value(text, "glide_remote_requests_total", endpoint="/metrics", status="401") == 1
        assert value(text, "glide_remote_requests_total", endpoint="/metrics", status="200") == 1
        assert value(text, "glide_remote_requests_total", endpoint="/events", status="200") == 2
        assert value(text, "glide_remote_requests_total", endpoint="other", status="404") >= 2
        assert value(text, "glide_screen_on") == 1 and value(text, "glide_display_opening_hours") == 1
        assert value(text, "glide_resident_memory_bytes") > 10e6
        # The first scrape's ping was answered by the loop before this one.
        assert value(text, "glide_loop_stalled_seconds") == 0


def value_of_commit(text):
    info = [labels for (name, labels) in samples(text) if name == "glide_build_info"]
    assert len(info) == 1
    return dict(info[0])["commit"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def query(base, expr):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as r:
        reply = json.load(r)
    assert reply["status"] == "success", reply
    return reply["data"]["result"]


def test_a_real_prometheus_scrapes_two_glides(glide_binary, tmp_path):
    prometheus = tool("prometheus")
    with HeadlessApp(glide_binary, "--app", "list", tokens_file=tokens_file(tmp_path), clock="wall") as a, \
         HeadlessApp(glide_binary, "--app", "order", tokens_file=tokens_file(tmp_path), clock="wall") as b:
        (tmp_path / "token").write_text("view-Token-0001\n")
        targets = [urllib.parse.urlparse(x.url).netloc for x in (a, b)]
        config = {
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(SHIPPED / "glide-rules.yml")],
            "scrape_configs": [{
                "job_name": "glide",
                "authorization": {"credentials_file": str(tmp_path / "token")},
                "static_configs": [{"targets": targets}],
            }],
        }
        (tmp_path / "prometheus.yml").write_text(json.dumps(config))   # JSON is YAML
        def start():
            # A port found free may be taken before Prometheus binds it (by the other pytest
            # worker's hundreds of connections): then it exits, and starts again on another.
            port = free_port()
            with open(tmp_path / "prometheus.log", "a") as log:   # Prometheus keeps its own copy
                return f"http://127.0.0.1:{port}", subprocess.Popen(
                    [prometheus, f"--config.file={tmp_path / 'prometheus.yml'}", f"--storage.tsdb.path={tmp_path / 'data'}",
                     f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
        base, server = start()
        try:
            a.client(token="ctrl-Token-0002").tap(200, 200)
            deadline = time.monotonic() + 60
            found, restarts = [], 0
            while time.monotonic() < deadline:
                if server.poll() is not None and restarts < 3:
                    base, server = start()
                    restarts += 1
                try:
                    found = query(base, "glide_build_info")
                    if len(found) == 2 and sum(1 for s in query(base, "up") if s["value"][1] == "1") == 2:
                        break
                except OSError:
                    pass
                time.sleep(0.5)
            assert len(found) == 2, (tmp_path / "prometheus.log").read_text()[-2000:]
            assert {s["metric"]["instance"] for s in found} == set(targets)
            assert {s["metric"]["version"] for s in found} == {VERSION}
            touches = {s["metric"]["instance"]: float(s["value"][1]) for s in query(base, "glide_touches_total")}
            assert touches == {targets[0]: 1.0, targets[1]: 0.0}
            assert all(float(s["value"][1]) > 0 for s in query(base, "glide_frames_total"))
            # The shipped rules loaded and are quiet on healthy kiosks. The memory rule may be
            # pending (not firing: it must hold six hours): its rate over a glide's first seconds,
            # as it draws its first frames, says little.
            with urllib.request.urlopen(base + "/api/v1/rules", timeout=10) as r:
                groups = json.load(r)["data"]["groups"]
            states = {rule["name"]: rule["state"] for g in groups for rule in g["rules"]}
            assert set(states) == {"GlideFrameLoopStalled", "GlideMemoryGrowing", "GlideScreenOffInOpeningHours"}
            assert states["GlideFrameLoopStalled"] == states["GlideScreenOffInOpeningHours"] == "inactive", states
            assert states["GlideMemoryGrowing"] in ("inactive", "pending"), states
            # Every query of the Grafana dashboard is one Prometheus takes, and finds series.
            dashboard = json.loads((SHIPPED / "grafana-dashboard.json").read_text())
            for panel in dashboard["panels"]:
                for target in panel["targets"]:
                    expr = target["expr"].replace('instance=~"$instance"', 'instance=~".+"')
                    query(base, expr)
                    assert query(base, re.sub(r"(rate|increase)\((.*)\[\w+\]\)", r"\2", expr)) or "histogram" in expr, expr
        finally:
            server.terminate()
            server.wait(timeout=10)


def test_the_shipped_alert_rules_pass_their_promtool_tests():
    promtool = tool("promtool")
    subprocess.run([promtool, "check", "rules", str(SHIPPED / "glide-rules.yml")], check=True, capture_output=True)
    run = subprocess.run([promtool, "test", "rules", "glide-rules-test.yml"], cwd=SHIPPED, capture_output=True, text=True)
    assert run.returncode == 0 and "SUCCESS" in run.stdout, run.stdout + run.stderr


def test_version_names_the_release_and_the_commit(glide_binary):
    """`glide --version` is `glide VERSION (COMMIT)`; CI builds with GLIDE_COMMIT, so there the
    commit is the one checked out."""
    out = subprocess.run([glide_binary, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    m = re.fullmatch(r"glide (\d+\.\d+\.\d+) \(([0-9a-f]{12}|unknown)\)", out)
    assert m and m.group(1) == VERSION, out
    if os.environ.get("CI") and os.environ.get("GLIDE_COMMIT"):
        assert m.group(2) == os.environ["GLIDE_COMMIT"], out


def test_the_screen_off_outside_opening_hours_is_in_the_metrics(glide_binary, tmp_path):
    """A Monday at 23:00 with shop hours of 07:00 to 22:00: dark by the schedule, not idle, and
    the metrics say so (the alert GlideScreenOffInOpeningHours stays quiet)."""
    with HeadlessApp(glide_binary, "--app", "list", "--display-schedule", "Mon-Fri 07:00-22:00",
                     "--start-time", "2026-12-07T23:00", tokens_file=tokens_file(tmp_path), clock="wall") as app:
        watcher = app.client(token="view-Token-0001")
        deadline = time.monotonic() + 10
        while watcher.state()["display"]["on"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert watcher.state()["display"] == {"on": False, "reason": "schedule"}
        text = watcher.metrics()
        assert (value(text, "glide_screen_on"), value(text, "glide_screen_idle"),
                value(text, "glide_display_opening_hours")) == (0, 0, 0)
