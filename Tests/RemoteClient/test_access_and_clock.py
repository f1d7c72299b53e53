"""Scoped tokens, tokens taken by name from the environment, and the virtual clock that keeps
goldens steady on a busy machine.

    python3 -m pytest -q Tests/RemoteClient/test_access_and_clock.py
"""

import os
import signal
import time

import pytest

from glide_remote import GlideError, HeadlessApp

TOKENS = """# name  scope    token
watcher view     view-Token-0001
robot   control  ctrl-Token-0002
fleet   admin    admn-Token-0003
"""


def middle(state, id):
    x, y, w, h = next(e for e in state["elements"] if e["id"] == id)["frame"]
    return x + w / 2, y + h / 2


@pytest.mark.glide_app(size="1280x800")
def test_a_blinking_caret_holds_still_until_time_is_moved(glide):
    """The plugin's headless apps run on the virtual clock: two screenshots of a focused field
    0.6 s apart are the same, however slow the machine; moving the clock half a second blinks it."""
    assert glide.virtual_clock
    glide.tap(*middle(glide.wait_for_rest(), "tab-search"))
    glide.tap(*middle(glide.wait_for_rest(), "search-field"))
    before = glide.wait_for_rest()
    first = glide.screenshot()
    time.sleep(0.6)
    assert glide.screenshot() == first
    assert glide.state()["t"] == before["t"]
    after = glide.advance(0.5)
    assert after["t"] == pytest.approx(before["t"] + 0.5, abs=1e-9)
    assert glide.screenshot() != first          # the caret blinked
    glide.advance(0.5)
    assert glide.screenshot() == first          # and came back


def test_scopes_and_tokens_by_name(glide_binary, tmp_path, monkeypatch):
    path = tmp_path / "tokens"
    path.write_text(TOKENS)
    path.chmod(0o600)
    monkeypatch.setenv("GLIDE_TOKEN_WATCHER", "view-Token-0001")
    monkeypatch.setenv("GLIDE_TOKEN_ROBOT", "ctrl-Token-0002")
    # The wall clock, as on a board: waiting for rest is then only reading (on a virtual clock it
    # moves time, which needs control).
    with HeadlessApp(glide_binary, "--app", "list", tokens_file=path, clock="wall") as app:
        watcher = app.client(token_name="watcher")
        robot = app.client(token_name="robot")
        watcher.wait_for_rest()
        with pytest.raises(GlideError) as refused:
            watcher.key("End")
        assert refused.value.status == 403 and "needs a token of scope control" in str(refused.value)
        robot.key("End")
        assert robot.wait_for_rest()["scrollViews"][0]["offset"][1] > 0
        with pytest.raises(GlideError) as admin_only:
            robot.display(False)
        assert admin_only.value.status == 403
        # SIGHUP reads the file again: the robot's token is replaced and stops working.
        path.write_text(TOKENS.replace("ctrl-Token-0002", "ctrl-Token-0099"))
        app.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                robot.state()
                time.sleep(0.1)
            except GlideError as e:
                assert e.status == 401
                break
        else:
            pytest.fail("the replaced token still works")
        # The signal itself reads the file (the file's own change may have been seen first:
        # then the signal's reading finds nothing changed, and still says it read).
        deadline = time.monotonic() + 10
        while "(SIGHUP): " not in app.log() and time.monotonic() < deadline:
            time.sleep(0.1)
        log = app.log()
    assert f"tokens read again from {path} (SIGHUP): " in log
    assert "audit: POST /events 200 by 'robot' (control)" in log
    assert "Token-00" not in log
    with pytest.raises(KeyError) as missing:
        app.client(token_name="nobody")
    assert "GLIDE_TOKEN_NOBODY" in str(missing.value)


def test_a_token_file_others_may_read_is_refused(glide_binary, tmp_path):
    path = tmp_path / "tokens"
    path.write_text(TOKENS)
    path.chmod(0o644)
    with pytest.raises(RuntimeError) as refused:
        HeadlessApp(glide_binary, "--app", "list", tokens_file=path, startup_timeout=20).start()
    assert "group or others may read or write it" in str(refused.value)
