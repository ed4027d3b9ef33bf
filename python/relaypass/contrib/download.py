"""tvm.contrib.download, as TVM v0.13's (python/tvm/contrib/download.py) but without the
network: relaypass never downloads. A file already where TVM would have put it is used as it
is; one that is missing raises an error that names the full path it is expected at, so it can
be put there by hand (or the script pointed at it).

The test data folder is TVM's: ``$TEST_DATA_ROOT_PATH`` when that is set, else
``~/.tvm_test_data``; ``download_testdata(url, relpath, module)`` looks for
``<root>/<module>/<relpath>``, ``module`` being a folder name or a list of them."""
import os
from pathlib import Path

from .._errors import TVMError


def _default_root():
    # TVM v0.13, download.py: TEST_DATA_ROOT_PATH from the environment variable of that name,
    # else Path(Path("~").expanduser(), ".tvm_test_data").
    if "TEST_DATA_ROOT_PATH" in os.environ:
        return Path(os.environ.get("TEST_DATA_ROOT_PATH"))
    return Path(Path("~").expanduser(), ".tvm_test_data")


# TVM's module variable (TVM also creates the folder on import; relaypass writes nothing, so it
# does not). Read again at each call unless a script assigned its own.
TEST_DATA_ROOT_PATH = _default_root()
_IMPORT_TIME_ROOT = TEST_DATA_ROOT_PATH


def _root():
    if TEST_DATA_ROOT_PATH is not _IMPORT_TIME_ROOT:
        return Path(TEST_DATA_ROOT_PATH)  # set by the script, as TVM's tests sometimes do
    return _default_root()


class DownloadError(TVMError, FileNotFoundError):
    """A file relaypass would have had to download (a TVMError and a FileNotFoundError)."""

    __str__ = BaseException.__str__


def download(url, path, overwrite=False, size_compare=False, retries=3):
    """Downloads the file from the internet, in TVM; in relaypass, returns when ``path`` is
    already a file (and ``overwrite`` is False) and otherwise raises DownloadError naming
    ``url`` and ``path``. ``size_compare`` (which asks the server for the size) and ``retries``
    are accepted for TVM's signature."""
    path = Path(path).resolve()
    if path.exists() and path.is_file() and not overwrite:
        return
    if overwrite and path.is_file():
        reason = "overwrite=True asks for a fresh copy of {}".format(path)
    else:
        reason = "{} does not exist".format(path)
    raise DownloadError(
        "relaypass does not download files: {} (from {}); put the file at {} by hand".format(
            reason, url, path
        )
    )


def download_testdata(url, relpath, module=None, overwrite=False):
    """The path of a test data file in TVM's test data folder (``$TEST_DATA_ROOT_PATH`` or
    ``~/.tvm_test_data``) / ``module`` / ``relpath``, as a str. TVM downloads it when it is
    missing; relaypass raises DownloadError naming that full path (and ``url``) instead.

    module : str, list or tuple of folder names, or None."""
    if module is None:
        module_path = ""
    elif isinstance(module, str):
        module_path = module
    elif isinstance(module, (list, tuple)):
        module_path = Path(*module)
    else:
        raise ValueError("Unsupported module: {!r}".format(module))
    abspath = Path(_root(), module_path, relpath)
    path = Path(abspath).resolve()
    if not (path.exists() and path.is_file()) or overwrite:
        if overwrite and path.is_file():
            reason = "overwrite=True asks for a fresh copy of it"
        else:
            reason = "the file is not there"
        raise DownloadError(
            "relaypass does not download test data: {} is needed at {} ({}); download it "
            "from that URL by hand and put it there (the folder is $TEST_DATA_ROOT_PATH, "
            "else ~/.tvm_test_data)".format(url, abspath, reason)
        )
    return str(abspath)
