"""An example as a test author would write it: the screen compared with goldens kept beside
this file in goldens/ (the same golden for every board of a fleet).

    python3 -m pytest -q Tests/RemoteClient/test_example_golden.py                    # compare
    python3 -m pytest -q Tests/RemoteClient/test_example_golden.py --update-goldens   # rewrite them (look first)

On a mismatch, goldens/NAME.actual.png and goldens/NAME.diff.png show what changed.
"""

import pytest


@pytest.mark.glide_app("--app", "list")
def test_list_top_and_end(glide):
    glide.expect_screenshot("list-top")
    glide.key("End")
    state = glide.wait_until(lambda s: s["scrollViews"][0]["offset"][1] > 0)
    assert state["scrollViews"][0]["id"] == "list"
    glide.expect_screenshot("list-end")
