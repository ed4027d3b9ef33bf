"""tvm.relay.backend.Executor/Runtime, tvm.contrib.download and tvm.contrib.utils.tempdir.

Where the expected values come from (TVM v0.13, read by hand):
- src/relay/backend/executor.cc: the executors "aot" and "graph", their options, types and
  defaults, the messages of Executor::Create / ListExecutorOptions, and the printed form
  (name followed by the attribute map);
- src/relay/backend/runtime.cc: the runtimes "crt" and "cpp" with the Bool option "system-lib"
  and no default; a Runtime prints as its name;
- python/tvm/relay/backend/executor.py, runtime.py: list_registered, list_registered_options
  (which looks the object up by str()), __contains__, __getitem__, __eq__;
- python/tvm/runtime/object_generic.py (convert_to_object): the type a Python value gets (bool
  and int -> "IntImm", float -> "FloatImm", str -> "runtime.String", list -> "Array");
- python/tvm/contrib/download.py: the test data folder ($TEST_DATA_ROOT_PATH, else
  ~/.tvm_test_data), <root>/<module...>/<relpath>, the str returned; download() returning when
  the file exists. The errors for missing files are relaypass's own (it never downloads);
- python/tvm/contrib/utils.py: TempDirectory/tempdir (removal on remove(), on garbage
  collection and at exit; keep_for_debug), relpath, listdir, is_source_path.
"""
import gc
import os
import tempfile

import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import download, utils
from relaypass.relay.backend import Executor, Runtime


# ---- Executor (executor.cc) ----


def test_registered_executors_and_their_option_types():
    assert sorted(Executor.list_registered()) == ["aot", "graph"]
    assert Executor.list_registered_options("aot") == {
        "link-params": "IntImm",  # Bool
        "unpacked-api": "IntImm",  # Bool
        "interface-api": "runtime.String",  # String
        "workspace-byte-alignment": "IntImm",  # Integer
        "constant-byte-alignment": "IntImm",  # Integer
    }
    assert Executor.list_registered_options("graph") == {"link-params": "IntImm"}


def test_executor_defaults_and_given_options():
    graph = Executor("graph")
    assert graph.name == "graph"
    assert graph["link-params"] == 0 and not graph["link-params"]  # Bool(false)
    aot = Executor("aot", {"interface-api": "c", "workspace-byte-alignment": 16})
    assert aot["link-params"]  # the aot default is Bool(true)
    assert aot["interface-api"] == "c"
    assert aot["workspace-byte-alignment"] == 16
    assert "interface-api" in aot and "unpacked-api" not in aot  # no default for unpacked-api
    assert aot.attrs == {"interface-api": "c", "workspace-byte-alignment": 16, "link-params": 1}
    assert Executor("aot", {"link-params": False})["link-params"] == 0  # a default is overridden


def test_executor_prints_name_then_attributes():
    assert str(Executor("graph")) == 'graph{"link-params": T.bool(False)}'
    assert str(Executor("aot", {"interface-api": "c"})) == (
        'aot{"interface-api": "c", "link-params": T.bool(True)}'
    )
    # so an Executor object, unlike its name, does not name a registered executor
    with pytest.raises(tvm.TVMError, match=r'Executor "aot\{.*\}" is not defined'):
        Executor.list_registered_options(Executor("aot"))


def test_executor_equality():
    assert Executor("aot") == Executor("aot")
    assert Executor("aot", {"interface-api": "c"}) != Executor("aot")
    assert Executor("graph") != Executor("aot")


def test_executor_errors():
    with pytest.raises(tvm.TVMError, match='^Executor "vm" is not defined$'):
        Executor("vm")
    with pytest.raises(tvm.TVMError, match='^Executor "vm" is not defined$'):
        Executor.list_registered_options("vm")
    not_available = '^Attribute "system-lib" is not available on this Executor$'
    with pytest.raises(tvm.TVMError, match=not_available):
        Executor("graph", {"system-lib": True})
    cases = [
        ("interface-api", 1, "runtime.String", "IntImm"),
        ("interface-api", ["c"], "runtime.String", "Array"),
        ("unpacked-api", "yes", "IntImm", "runtime.String"),
        ("workspace-byte-alignment", 16.0, "IntImm", "FloatImm"),
    ]
    for key, value, expected, found in cases:
        message = 'Attribute "{}" should have type "{}" but instead found "{}"'.format(
            key, expected, found
        )
        with pytest.raises(tvm.TVMError) as info:
            Executor("aot", {key: value})
        assert str(info.value) == message
    with pytest.raises(KeyError):
        Executor("aot")["unpacked-api"]  # not given and without default


# ---- Runtime (runtime.cc) ----


def test_runtimes_options_and_printing():
    assert sorted(Runtime.list_registered()) == ["cpp", "crt"]
    for name in ("cpp", "crt"):
        assert Runtime.list_registered_options(name) == {"system-lib": "IntImm"}
        assert Runtime.list_registered_options(Runtime(name)) == {"system-lib": "IntImm"}
    cpp = Runtime("cpp")
    assert str(cpp) == "cpp" and cpp.name == "cpp"
    assert "system-lib" not in cpp  # no default
    crt = Runtime("crt", {"system-lib": True})
    assert str(crt) == "crt"  # the attributes are not printed
    assert crt["system-lib"] == 1
    assert crt == Runtime("crt", {"system-lib": True}) and crt != Runtime("crt")


def test_runtime_errors():
    with pytest.raises(tvm.TVMError, match='^Runtime "c" is not defined$'):
        Runtime("c")
    not_available = '^Attribute "link-params" is not available on this Runtime$'
    with pytest.raises(tvm.TVMError, match=not_available):
        Runtime("cpp", {"link-params": True})
    wrong_type = 'should have type "IntImm" but instead found "runtime.String"$'
    with pytest.raises(tvm.TVMError, match='^Attribute "system-lib" ' + wrong_type):
        Runtime("cpp", {"system-lib": "1"})


def test_relay_backend_names():
    assert relay.backend.Executor is Executor and relay.backend.Runtime is Runtime
    # the code generators are not there; using one says so (te_compiler's cache is, empty)
    with pytest.raises(tvm.error.OpNotImplemented, match="te_compiler"):
        relay.backend.te_compiler.lower_to_primfunc(None)
    with pytest.raises(tvm.error.OpNotImplemented, match="aot"):
        relay.backend.aot.AOTLowerMain()


# ---- download (contrib/download.py) ----


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A HOME of its own, without TEST_DATA_ROOT_PATH."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("TEST_DATA_ROOT_PATH", raising=False)
    return tmp_path


def _place(path, text="data"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_download_testdata_finds_a_file_in_home_folder(home):
    target = _place(home / ".tvm_test_data" / "data" / "cat.png")
    found = download.download_testdata("https://example.org/cat.png", "cat.png", module="data")
    assert found == str(target) and isinstance(found, str)
    # module as a list of folders, and no module
    nested = _place(home / ".tvm_test_data" / "onnx" / "models" / "m.onnx")
    assert download.download_testdata("u", "m.onnx", module=["onnx", "models"]) == str(nested)
    assert download.download_testdata("u", "m.onnx", module=("onnx", "models")) == str(nested)
    top = _place(home / ".tvm_test_data" / "top.txt")
    assert download.download_testdata("u", "top.txt") == str(top)


def test_download_testdata_follows_test_data_root_path(home, tmp_path, monkeypatch):
    root = tmp_path / "elsewhere"
    target = _place(root / "keras" / "w.h5")
    monkeypatch.setenv("TEST_DATA_ROOT_PATH", str(root))
    assert download.download_testdata("u", "w.h5", module="keras") == str(target)


def test_download_testdata_missing_file_names_the_expected_path(home):
    expected = home / ".tvm_test_data" / "data" / "dog.jpg"
    with pytest.raises(tvm.TVMError) as info:
        download.download_testdata("https://example.org/dog.jpg", "dog.jpg", module="data")
    message = str(info.value)
    assert str(expected) in message
    assert "https://example.org/dog.jpg" in message
    assert "does not download" in message
    assert isinstance(info.value, FileNotFoundError)
    assert not expected.parent.exists()  # nothing is created
    # overwrite=True asks for a fresh copy, which relaypass cannot fetch either
    _place(expected)
    with pytest.raises(tvm.TVMError, match="overwrite"):
        download.download_testdata("u", "dog.jpg", module="data", overwrite=True)
    with pytest.raises(ValueError):
        download.download_testdata("u", "dog.jpg", module=3)


def test_download_returns_for_an_existing_file(tmp_path):
    path = _place(tmp_path / "f.bin")
    assert download.download("https://example.org/f.bin", str(path)) is None
    assert download.download("https://example.org/f.bin", path, size_compare=True) is None
    with pytest.raises(tvm.TVMError) as info:
        download.download("https://example.org/g.bin", str(tmp_path / "g.bin"))
    assert "https://example.org/g.bin" in str(info.value)
    assert str(tmp_path / "g.bin") in str(info.value)
    with pytest.raises(tvm.TVMError, match="overwrite"):
        download.download("https://example.org/f.bin", str(path), overwrite=True)


# ---- tempdir (contrib/utils.py) ----


def test_tempdir_lifecycle():
    temp = utils.tempdir()
    directory = temp.temp_dir
    assert os.path.isdir(directory)
    assert temp.relpath("a.txt") == os.path.join(directory, "a.txt")
    with open(temp.relpath("a.txt"), "w") as f:
        f.write("x")
    assert temp.listdir() == ["a.txt"]
    assert temp / "a.txt" == temp.path / "a.txt"
    temp.remove()
    assert not os.path.exists(directory) and temp.temp_dir is None
    temp.remove()  # a second time does nothing


def test_tempdir_removed_when_collected_or_leaving_with():
    temp = utils.tempdir()
    directory = temp.temp_dir
    del temp
    gc.collect()
    assert not os.path.exists(directory)
    with utils.tempdir() as temp:
        directory = temp.temp_dir
        assert os.path.isdir(directory)
    assert not os.path.exists(directory)


def test_tempdir_custom_path(tmp_path):
    wanted = str(tmp_path / "mine")
    temp = utils.tempdir(wanted)
    assert temp.temp_dir == wanted and os.path.isdir(wanted)
    with pytest.raises(FileExistsError):  # the directory is made, so it must not exist
        utils.tempdir(wanted)
    temp.remove()
    assert not os.path.exists(wanted)


def test_tempdir_keep_for_debug(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(utils.TempDirectory, "_DEBUG_PARENT_DIR", None)
    kept = utils.tempdir(keep_for_debug=True)
    directory = kept.temp_dir
    assert directory.startswith(str(tmp_path / "tvm-debug-mode-tempdirs"))
    kept.remove()
    assert os.path.isdir(directory)  # kept on disk
    with utils.TempDirectory.set_keep_for_debug():
        also_kept = utils.tempdir()
    other = also_kept.temp_dir
    del also_kept
    gc.collect()
    assert os.path.isdir(other)
    not_kept = utils.tempdir(keep_for_debug=False)  # the argument wins over the class switch
    assert not not_kept.temp_dir.startswith(str(tmp_path / "tvm-debug-mode-tempdirs"))


def test_is_source_path(tmp_path):
    assert utils.is_source_path(str(tmp_path))  # exists
    assert utils.is_source_path("kernel.cc")
    assert not utils.is_source_path("no_extension")
    assert not utils.is_source_path("int main() {}\nreturn.c")
    assert not utils.is_source_path("file. cc")
