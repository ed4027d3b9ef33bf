"""pytest setup: the package under test is the build tree's (PYTHONPATH=build/python, set by
ctest); running pytest by hand from the checkout finds build/python too."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("RELAYPASS_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
TEST_DATA = os.path.join(SOURCE_DIR, "tests", "data")

try:
    import relaypass  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(SOURCE_DIR, "build", "python"))
