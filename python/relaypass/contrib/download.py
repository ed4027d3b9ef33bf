"""tvm.contrib.download. relaypass downloads nothing: these fail with a clear error when used
(a machine without network access would fail the same way)."""
from .._errors import TVMError


def download(url, path, overwrite=False, size_compare=False, retries=3):
    raise TVMError("relaypass does not download files (asked for {})".format(url))


def download_testdata(url, relpath, module=None, overwrite=False):
    raise TVMError(
        "relaypass does not download test data (asked for {} as {}); "
        "put the file on disk and open it directly".format(url, relpath)
    )
