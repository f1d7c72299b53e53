"""The pytest plugin of glide_remote (loaded through the `pytest11` entry point `glide`).

The fixture `glide` is a `Glide` client:

* without `--glide-url`/`--glide-boards`, connected to a headless app started for the test
  (`glide run --backend headless --remote 127.0.0.1:0 --size 800x480 --remote-clock virtual` +
  `--glide-args` + the arguments of `@pytest.mark.glide_app(...)`) and stopped with SIGTERM after
  it. On the virtual clock time moves only when the test waits for rest or advances it, so a
  golden holds on a busy machine (`--glide-clock wall` or `glide_app(clock="wall")` for real time);
* with boards, connected to each board in turn: every test that uses the fixture is
  parametrized over the boards, with the board's name as its id.

Either way the fixture first waits for rest. `glide.expect_screenshot(NAME)` compares with
`goldens/NAME.png` beside the test file. At the end: a per-board summary (fleets) and, with
`--glide-report FILE`, a JSON report per board.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import time
import urllib.error
import urllib.parse
from typing import Dict, List, Optional

import pytest

from . import __version__
from .client import Glide, HeadlessApp, parse_fingerprint

HEADLESS = "headless"
DEFAULT_SIZE = "800x480"


class Board:
    """A board to test: `name` (the test id), `url`, and where its token came from
    (`token_env`, a variable's name; the token itself is never shown)."""

    def __init__(self, name: str, url: str, token: Optional[str] = None, token_env: Optional[str] = None,
                 fingerprint: Optional[str] = None, ca_file: Optional[str] = None):
        self.name = name
        self.url = url
        self.token = token
        self.token_env = token_env
        self.fingerprint = fingerprint
        self.ca_file = ca_file

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.url!r})"


def _default_name(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return parts.netloc or url


def _check_url(url: str, where: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise pytest.UsageError(f"{where}: {url!r} is not an http://HOST:PORT URL")
    return url.rstrip("/")


def _token(env: Optional[str], where: str) -> Optional[str]:
    if env is None:
        return os.environ.get("GLIDE_TOKEN") or None
    if env not in os.environ:
        raise pytest.UsageError(f"{where}: token-env={env}, but the environment has no {env}")
    return os.environ[env]


def parse_boards(text: str, source: str = "boards file") -> List[Board]:
    """Boards from a boards file: one a line, `URL` or `NAME URL`, optionally followed by
    `token-env=VARNAME` (the board's token is in that environment variable; otherwise
    GLIDE_TOKEN's is used), `fingerprint=AB:CD:...` (the SHA-256 fingerprint of the board's
    self-signed certificate, as it logs it) and `ca=FILE` (a CA to verify it with). `#` starts a
    comment; blank lines are ignored."""
    boards = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        where = f"{source}:{number}"
        words = line.split()
        settings = {}
        for w in [w for w in words if re.match(r"(token-env|fingerprint|ca)=", w)]:
            key, value = w.split("=", 1)
            if key in settings:
                raise pytest.UsageError(f"{where}: {key}= is given twice")
            settings[key] = value
        words = [w for w in words if not re.match(r"(token-env|fingerprint|ca)=", w)]
        envs = [settings["token-env"]] if "token-env" in settings else []
        if envs and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", envs[0]):
            raise pytest.UsageError(f"{where}: expected one token-env=VARNAME")
        if "fingerprint" in settings:
            try:
                parse_fingerprint(settings["fingerprint"])
            except ValueError as e:
                raise pytest.UsageError(f"{where}: {e}")
        if len(words) == 1:
            name, url = _default_name(words[0]), words[0]
        elif len(words) == 2:
            name, url = words
        else:
            raise pytest.UsageError(f"{where}: expected `URL` or `NAME URL` [token-env=VARNAME]")
        env = envs[0] if envs else None
        boards.append(Board(name, _check_url(url, where), _token(env, where), env, settings.get("fingerprint"),
                            settings.get("ca")))
    return boards


def _boards_from_options(config) -> List[Board]:
    boards = []
    for value in config.getoption("glide_url") or []:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)=(\w+://.*)", value)
        name, url = (m.group(1), m.group(2)) if m else (_default_name(value), value)
        boards.append(Board(name, _check_url(url, "--glide-url"), _token(None, "--glide-url")))
    path = config.getoption("glide_boards")
    if path:
        p = pathlib.Path(path)
        if not p.is_absolute():
            p = pathlib.Path(config.invocation_params.dir) / p
        try:
            text = p.read_text()
        except OSError as e:
            raise pytest.UsageError(f"--glide-boards: cannot read {path}: {e.strerror}")
        boards += parse_boards(text, str(path))
    seen = set()
    for b in boards:
        if b.name in seen:
            raise pytest.UsageError(f"two boards are named {b.name!r}: give them names (NAME URL in --glide-boards, "
                                    f"NAME=URL with --glide-url)")
        seen.add(b.name)
    return boards


def _find_binary(config) -> tuple:
    """(path or None, where it was looked for)."""
    given = config.getoption("glide_binary") or os.environ.get("GLIDE")
    if given:
        p = pathlib.Path(given)
        if not p.is_absolute():
            p = pathlib.Path(config.invocation_params.dir) / p
        return (str(p) if p.is_file() else None), str(p)
    starts = [pathlib.Path(str(config.rootpath)), pathlib.Path(config.invocation_params.dir)]
    for start in starts:
        for folder in [start, *start.parents]:
            candidate = folder / ".build" / "debug" / "glide"
            if candidate.is_file():
                return str(candidate), str(candidate)
    return None, f".build/debug/glide under {starts[0]} or above"


class GlideSession:
    """What one pytest run knows (the boards, the binary, the goldens written, the outcomes per
    board), and its hooks: registered as the plugin "glide-session" for the run."""

    def __init__(self, config):
        self.config = config
        self.boards = _boards_from_options(config)
        self.binary, self.binary_where = _find_binary(config)
        self.extra_args = shlex.split(config.getoption("glide_args") or "")
        self.update_goldens = bool(config.getoption("update_goldens"))
        self.report_path = config.getoption("glide_report")
        self.written_goldens: set = set()
        self.item_board: Dict[str, str] = {}
        self.outcomes: Dict[str, Dict[str, dict]] = {}  # board -> nodeid -> {outcome, message, duration}
        self.report_written: Optional[str] = None

    @property
    def fleet(self) -> bool:
        return bool(self.boards)

    def board_names(self) -> List[str]:
        if self.fleet:
            return [b.name for b in self.boards]
        return [HEADLESS] if self.item_board or self.outcomes else []

    # -- hooks -----------------------------------------------------------------------------
    def pytest_collection_modifyitems(self, items):
        for item in items:
            if "glide" not in getattr(item, "fixturenames", ()):
                continue
            callspec = getattr(item, "callspec", None)
            board = callspec.params.get("glide") if callspec is not None else None
            name = board.name if isinstance(board, Board) else HEADLESS
            self.item_board[item.nodeid] = name
            # With pytest-xdist (-n N: boards tested at once) the reports reach a controller
            # that collected nothing: the board travels with each report.
            item.user_properties.append(("glide_board", name))

    def pytest_runtest_logreport(self, report):
        board = self.item_board.get(report.nodeid) or dict(report.user_properties).get("glide_board")
        if board is None:
            return
        entry = self.outcomes.setdefault(board, {}).setdefault(
            report.nodeid, {"outcome": None, "message": None, "duration": 0.0})
        entry["duration"] = round(entry["duration"] + (getattr(report, "duration", 0.0) or 0.0), 3)
        if report.failed:
            if entry["outcome"] != "failed":
                entry["outcome"] = "failed"
                entry["message"] = _message(report)
        elif report.skipped:
            if entry["outcome"] is None:
                entry["outcome"] = "skipped"
                entry["message"] = _message(report)
        elif report.when == "call" and entry["outcome"] is None:
            entry["outcome"] = "passed"

    def pytest_sessionfinish(self, session, exitstatus):
        if not self.report_path or hasattr(self.config, "workerinput"):
            return
        path = pathlib.Path(self.report_path)
        if not path.is_absolute():
            path = pathlib.Path(self.config.invocation_params.dir) / path
        boards = self.summary()
        report = {
            "glide_remote": __version__,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "mode": "boards" if self.fleet else HEADLESS,
            "exitstatus": int(exitstatus),
            "ok": bool(boards) and all(b["ok"] for b in boards.values()),
            "boards": boards,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2) + "\n")
        self.report_written = str(path)

    def pytest_terminal_summary(self, terminalreporter):
        if not self.fleet and not self.report_written:
            return
        boards = self.summary()
        terminalreporter.section("glide boards")
        width = max([len(n) for n in boards] + [5])
        for name, b in boards.items():
            c = b["counts"]
            line = (f"{name:<{width}}  {'ok' if b['ok'] else 'FAIL':<4}  {c['passed']} passed, {c['failed']} failed, "
                    f"{c['skipped']} skipped" + (f"  ({b['url']})" if b["url"] else ""))
            terminalreporter.write_line(line, green=b["ok"], red=not b["ok"])
            for f in b["failures"]:
                first = (f["message"] or "").strip().splitlines()
                terminalreporter.write_line(f"    {f['test']}: {first[0] if first else 'failed'}")
        if self.report_written:
            terminalreporter.write_line(f"glide report: {self.report_written}")

    # -- the report ------------------------------------------------------------------------
    def summary(self) -> dict:
        """Per board: url, ok (no failure and at least one pass), counts, the passed, failed
        and skipped tests (node ids), failures (test, message), skips (test, reason)."""
        boards = {}
        urls = {b.name: b.url for b in self.boards}
        for name in self.board_names():
            tests = self.outcomes.get(name, {})
            by: Dict[str, list] = {"passed": [], "failed": [], "skipped": []}
            failures, skips = [], []
            for nodeid, e in tests.items():
                outcome = e["outcome"] or "skipped"
                by[outcome].append(nodeid)
                if outcome == "failed":
                    failures.append({"test": nodeid, "message": e["message"]})
                elif e["message"]:
                    skips.append({"test": nodeid, "reason": e["message"]})
            boards[name] = {
                "url": urls.get(name),
                "ok": not by["failed"] and bool(by["passed"]),
                "counts": {k: len(v) for k, v in by.items()},
                **by,
                "failures": failures,
                "skips": skips,
                "duration": round(sum(e["duration"] for e in tests.values()), 3),
            }
        return boards


def _message(report, limit: int = 4000) -> Optional[str]:
    longrepr = report.longrepr
    if longrepr is None:
        return None
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (file, line, reason)
        return str(longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(longrepr, "reprcrash", None)
    text = crash.message if crash is not None and crash.message else str(longrepr)
    if report.when != "call":
        text = f"(in {report.when}) {text}"
    return text if len(text) <= limit else text[:limit] + "..."


_SESSION = pytest.StashKey[GlideSession]()


def _session(config) -> GlideSession:
    return config.stash[_SESSION]


# -- hooks -----------------------------------------------------------------------------------

def pytest_addoption(parser):
    group = parser.getgroup("glide", "Glide remote control (glide_remote)")
    group.addoption("--glide-url", action="append", default=[], metavar="URL",
                    help="run the tests that use the `glide` fixture against the app at URL (http://HOST:PORT; "
                         "NAME=URL names the board); repeat for several boards: each such test runs once a board")
    group.addoption("--glide-boards", metavar="FILE",
                    help="boards to test, one a line: `URL` or `NAME URL`, optionally `token-env=VARNAME`; "
                         "# comments")
    group.addoption("--glide-ca", metavar="PEM",
                    help="verify the boards' HTTPS with this CA file (default: $GLIDE_CA_FILE, else the system's)")
    group.addoption("--glide-fingerprint", metavar="SHA256",
                    help="trust the board whose certificate has this SHA-256 fingerprint (its self-signed one, "
                         "as it logs it; default: $GLIDE_FINGERPRINT); fingerprint= in --glide-boards is per board")
    group.addoption("--glide-client-cert", metavar="PEM",
                    help="present this client certificate to boards that want one (default: $GLIDE_CLIENT_CERT)")
    group.addoption("--glide-client-key", metavar="PEM",
                    help="the key of --glide-client-cert, when not in the same file (default: $GLIDE_CLIENT_KEY)")
    group.addoption("--glide-binary", metavar="PATH",
                    help="the glide binary for headless apps (default: $GLIDE, else .build/debug/glide under the "
                         "rootdir or above)")
    group.addoption("--glide-args", default="", metavar="ARGS",
                    help="extra arguments for every headless app (shell-split), before the glide_app marker's")
    group.addoption("--glide-clock", choices=["virtual", "wall"], default="virtual",
                    help="the clock of the headless apps the `glide` fixture starts: virtual (the default: time "
                         "moves only when the test waits or advances it, so goldens hold on a busy machine) or wall")
    group.addoption("--update-goldens", action="store_true", default=False,
                    help="expect_screenshot writes (or overwrites) the goldens instead of comparing")
    group.addoption("--glide-report", metavar="FILE",
                    help="write a JSON report per board: passed, failed and skipped tests, failure messages")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "glide_app(*args, size='800x480', clock=None): the arguments of the headless app that the `glide` fixture "
        "starts (e.g. \"--app\", \"list\"), and its clock (default --glide-clock's); ignored when testing boards "
        "(--glide-url/--glide-boards)")
    session = GlideSession(config)
    config.stash[_SESSION] = session
    config.pluginmanager.register(session, "glide-session")


def pytest_unconfigure(config):
    session = config.stash.get(_SESSION, None)
    if session is not None and config.pluginmanager.is_registered(session):
        config.pluginmanager.unregister(session)


def pytest_generate_tests(metafunc):
    session = _session(metafunc.config)
    if "glide" in metafunc.fixturenames and session.fleet:
        metafunc.parametrize("glide", session.boards, ids=[b.name for b in session.boards], indirect=True)


# -- fixtures --------------------------------------------------------------------------------

def _goldens_folder(request) -> pathlib.Path:
    path = getattr(request.node, "path", None) or pathlib.Path(str(request.node.fspath))
    return pathlib.Path(path).parent / "goldens"


@pytest.fixture(scope="session")
def glide_binary(request) -> str:
    """The glide binary for headless apps (--glide-binary, $GLIDE, .build/debug/glide); skips the
    test when there is none."""
    session = _session(request.config)
    if not session.binary:
        pytest.skip(f"no glide binary ({session.binary_where}): swift build --product glide, "
                    f"or --glide-binary/GLIDE, or test boards with --glide-url")
    return session.binary


@pytest.fixture
def glide(request):
    """A `Glide` client, at rest: for each board given with --glide-url/--glide-boards, or for a
    headless app started for this test (arguments from @pytest.mark.glide_app) and stopped with
    SIGTERM after it (which must exit with 0). `glide.expect_screenshot(NAME)` compares with
    goldens/NAME.png beside the test file."""
    session = _session(request.config)
    goldens = _goldens_folder(request)
    board = getattr(request, "param", None)
    if isinstance(board, Board):
        options = request.config.getoption
        g = Glide(board.url, token=board.token, name=board.name, goldens=goldens,
                  update_goldens=session.update_goldens, fingerprint=board.fingerprint or options("glide_fingerprint"),
                  ca_file=board.ca_file or options("glide_ca"), client_cert=options("glide_client_cert"),
                  client_key=options("glide_client_key"))
        g._written_goldens = session.written_goldens
        g.app = None
        try:
            g.wait_for_rest(30)
        except (urllib.error.URLError, OSError) as e:
            pytest.fail(f"board {board.name} ({board.url}) does not answer: {getattr(e, 'reason', e)}", pytrace=False)
        yield g
        return
    if not session.binary:
        pytest.skip(f"no glide binary ({session.binary_where}): swift build --product glide, "
                    f"or --glide-binary/GLIDE, or test boards with --glide-url")
    marker = request.node.get_closest_marker("glide_app")
    args = list(session.extra_args)
    size = DEFAULT_SIZE
    clock = request.config.getoption("--glide-clock")
    if marker is not None:
        args += [str(a) for a in marker.args]
        size = str(marker.kwargs.get("size", size))
        clock = str(marker.kwargs.get("clock", clock))
    app = HeadlessApp(session.binary, args=args, size=size, clock=clock)
    app.start()
    try:
        g = app.client(goldens=goldens, update_goldens=session.update_goldens)
        g._written_goldens = session.written_goldens
        g.app = app
        g.wait_for_rest(30)
        yield g
    finally:
        code = app.stop()
        log = app.log()
        app.close()
    assert code == 0, f"glide exited with {code} after SIGTERM; the end of its log:\n{log[-3000:]}"
