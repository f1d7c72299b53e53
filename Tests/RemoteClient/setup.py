"""Only where setuptools builds: in a temporary folder, so that `pip install ./Tests/RemoteClient`
leaves no build/ or *.egg-info here. Everything else is in pyproject.toml."""
import atexit
import shutil
import tempfile

from setuptools import setup

scratch = tempfile.mkdtemp(prefix="glide-remote-build-")
atexit.register(shutil.rmtree, scratch, True)
setup(options={"build": {"build_base": f"{scratch}/build"}, "egg_info": {"egg_base": scratch}})
