"""glide_remote: a client for Glide's remote-control API, and a pytest plugin (fixture `glide`)
that runs the same tests against a headless app or a fleet of boards.

    from glide_remote import Glide
    g = Glide("http://127.0.0.1:8080", token=None)
    g.wait_for_rest()
    g.swipe((400, 400), (400, 100))
"""

from .client import Glide, GlideError, HeadlessApp, NotAccessible, NotAtRest, WaitTimeout, find_binary, start_headless

__version__ = "0.1.0"

__all__ = ["Glide", "GlideError", "NotAccessible", "NotAtRest", "WaitTimeout", "HeadlessApp", "start_headless", "find_binary",
           "__version__"]
