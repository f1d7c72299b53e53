"""Tests/RemoteClient: the glide-remote package's own tests and examples.

They use the package as installed (`python3 -m pip install ./Tests/RemoteClient`): its pytest
plugin comes through the `pytest11` entry point, not from this folder, so a broken install shows.
"""

import sys

import pytest

pytest_plugins = ["pytester"]  # test_plugin.py runs pytest on small test files

if "glide_remote.pytest_plugin" not in sys.modules:
    # Not installed, or plugin autoloading is off: say so where the fixture is used.
    @pytest.fixture
    def glide():
        pytest.fail("the glide-remote pytest plugin is not loaded: python3 -m pip install ./Tests/RemoteClient",
                    pytrace=False)

    @pytest.fixture
    def glide_binary():
        pytest.fail("the glide-remote pytest plugin is not loaded: python3 -m pip install ./Tests/RemoteClient",
                    pytrace=False)
