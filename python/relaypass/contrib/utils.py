"""tvm.contrib.utils: temporary directories (and is_source_path) with the behaviour of TVM
v0.13's python/tvm/contrib/utils.py.

A TempDirectory disappears when ``remove()`` is called, when the object is garbage collected,
at the end of a ``with`` block, and, for any still left, when the program exits. One made with
``keep_for_debug=True`` (or while ``TempDirectory.set_keep_for_debug()`` is active) is kept:
it is created as ``<tmp>/tvm-debug-mode-tempdirs/<date>___<random>/<5-digit number>``."""
import atexit
import contextlib
import datetime
import itertools
import os
import pathlib
import shutil
import tempfile
import threading


class DirectoryCreatedPastAtExit(Exception):
    """A TempDirectory was asked for after the exit-time cleanup had run."""


class TempDirectory(object):
    """A directory for temporary files, deleted when no longer wanted.

    ``temp_dir`` is its path as a str (None once removed), ``path`` the same as a
    pathlib.Path, and ``tmp / "name"`` a pathlib.Path inside it."""

    # Class-wide switch that set_keep_for_debug() turns on for its block.
    _KEEP_FOR_DEBUG = False

    # Directories to delete at exit; None after that has happened.
    TEMPDIRS = set()

    _debug_counter = itertools.count()
    _debug_lock = threading.Lock()
    _DEBUG_PARENT_DIR = None

    @classmethod
    def _next_debug_dir(cls):
        with cls._debug_lock:
            if cls._DEBUG_PARENT_DIR is None:
                root = os.path.join(tempfile.gettempdir(), "tvm-debug-mode-tempdirs")
                os.makedirs(root, exist_ok=True)
                stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H-%M-%S___")
                cls._DEBUG_PARENT_DIR = tempfile.mkdtemp(prefix=stamp, dir=root)
            number = next(cls._debug_counter)
        return os.path.join(cls._DEBUG_PARENT_DIR, "%05d" % number)

    @classmethod
    def remove_tempdirs(cls):
        """Delete every directory not removed yet; later TempDirectory() calls then raise
        DirectoryCreatedPastAtExit. Registered with atexit."""
        pending = getattr(cls, "TEMPDIRS", None)
        if pending is None:
            return
        for directory in list(pending):
            shutil.rmtree(directory, ignore_errors=True)
        cls.TEMPDIRS = None

    @classmethod
    @contextlib.contextmanager
    def set_keep_for_debug(cls, set_to=True):
        """Within the block, new TempDirectories (without an explicit keep_for_debug) are kept
        after the program ends, for inspection."""
        saved = cls._KEEP_FOR_DEBUG
        cls._KEEP_FOR_DEBUG = set_to
        try:
            yield
        finally:
            cls._KEEP_FOR_DEBUG = saved

    def __init__(self, custom_path=None, keep_for_debug=None):
        self.temp_dir = None  # (for __del__, should what follows fail)
        if TempDirectory.TEMPDIRS is None:
            raise DirectoryCreatedPastAtExit()
        keep = self._KEEP_FOR_DEBUG if keep_for_debug is None else keep_for_debug
        self._created_with_keep_for_debug = bool(keep)

        if custom_path:
            directory = custom_path
            os.mkdir(directory)  # an existing directory is an error, as in TVM
        elif self._created_with_keep_for_debug:
            directory = self._next_debug_dir()
            os.mkdir(directory)
        else:
            directory = tempfile.mkdtemp()
        self.temp_dir = directory
        if not self._created_with_keep_for_debug:
            TempDirectory.TEMPDIRS.add(directory)

    def remove(self):
        """Delete the directory and everything in it (a kept one stays on disk); afterwards
        ``temp_dir`` is None. Calling it again does nothing."""
        directory, self.temp_dir = self.temp_dir, None
        if not directory or self._created_with_keep_for_debug:
            return
        shutil.rmtree(directory, ignore_errors=True)
        if TempDirectory.TEMPDIRS is not None:
            TempDirectory.TEMPDIRS.discard(directory)

    @property
    def path(self):
        return pathlib.Path(self.temp_dir)

    def __truediv__(self, other):
        if not isinstance(other, (str, pathlib.Path)):
            raise TypeError(
                "TempDirectory / operator: must supply str or pathlib.Path; got %r" % (other,)
            )
        return self.path / other

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()
        return False

    def __del__(self):
        if TempDirectory.TEMPDIRS is None:
            return  # the program is exiting and the atexit cleanup has run
        self.remove()

    def relpath(self, name):
        """The path of ``name`` inside the directory (a str)."""
        return os.path.join(self.temp_dir, name)

    def listdir(self):
        """The names of the entries in the directory."""
        return os.listdir(self.temp_dir)


atexit.register(TempDirectory.remove_tempdirs)


def tempdir(custom_path=None, keep_for_debug=None):
    """A new TempDirectory: a fresh one under the system's temporary folder, or ``custom_path``
    (created; it must not exist yet). ``keep_for_debug=True`` keeps it after the program ends."""
    return TempDirectory(custom_path=custom_path, keep_for_debug=keep_for_debug)


def is_source_path(path):
    """Whether ``path`` can be a path to source code rather than the code itself: an existing
    file or directory, or a single line ``name.ext`` whose extension has no surrounding
    whitespace."""
    if os.path.exists(path):
        return True
    if "\n" in path:
        return False
    stem, dot, ext = path.rpartition(".")
    return bool(dot) and ext == ext.strip()
