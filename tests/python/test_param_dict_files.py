"""Parameter files (tvm.runtime.save_param_dict / load_param_dict, relay's names for them) and
the artifact container (relaypass._core.*_artifact*). Expected bytes are built with struct.pack
from the layout in TVM v0.13's source (src/runtime/file_utils.cc SaveParams,
include/tvm/runtime/ndarray.h SaveDLTensor, dmlc's serializer for the name list) and from
docs/artifact.md; expected values are NumPy's."""
import struct

import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass import _core

LIST_MAGIC = 0xF7E58D4F05049CB7
ARRAY_MAGIC = 0xDD5E40F096B4A13F


def pack_array(code, bits, shape, data):
    """One array as SaveDLTensor writes it: magic, reserved, DLDevice{kDLCPU, 0}, ndim,
    DLDataType{code, bits, lanes=1}, shape, byte count, bytes."""
    out = struct.pack("<QQiiiBBH", ARRAY_MAGIC, 0, 1, 0, len(shape), code, bits, 1)
    out += struct.pack("<%dq" % len(shape), *shape)
    return out + struct.pack("<q", len(data)) + data


def pack_dict(entries):
    """entries: (name, array bytes) in file order."""
    out = struct.pack("<QQQ", LIST_MAGIC, 0, len(entries))
    for name, _ in entries:
        out += struct.pack("<Q", len(name)) + name.encode()
    out += struct.pack("<Q", len(entries))
    for _, array in entries:
        out += array
    return out


def test_save_load_numpy_values():
    # TVM's test_save_load behaviour: NumPy values are accepted, the result is a bytearray, and
    # relay.load_param_dict gives NDArrays with the same contents.
    x = np.arange(20, dtype="float32").reshape(10, 2)
    y = np.full((1, 2, 3), -3.5, dtype="float32")
    param_bytes = tvm.runtime.save_param_dict({"x": x, "y": y})
    assert isinstance(param_bytes, bytearray)
    loaded = relay.load_param_dict(param_bytes)
    assert sorted(loaded) == ["x", "y"]
    assert all(isinstance(v, tvm.nd.NDArray) for v in loaded.values())
    np.testing.assert_array_equal(loaded["x"].numpy(), x)
    np.testing.assert_array_equal(loaded["y"].numpy(), y)
    assert loaded["y"].shape == (1, 2, 3) and loaded["y"].dtype == "float32"


def test_one_ndarray_under_two_names():
    # TVM's test_ndarray_reflection behaviour: one NDArray saved under two names loads as two
    # entries with the same contents.
    arr = tvm.nd.array(np.linspace(0.0, 1.0, 20, dtype="float32").reshape(10, 2))
    params = {"x": arr, "y": arr}
    assert params["x"].same_as(params["y"])
    loaded = relay.load_param_dict(relay.save_param_dict(params))
    np.testing.assert_array_equal(loaded["x"].numpy(), arr.numpy())
    np.testing.assert_array_equal(loaded["y"].numpy(), loaded["x"].numpy())


def test_bytes_are_tvms_layout():
    w = np.array([[1.0, 2.0], [3.0, 4.0]], dtype="float32")
    flag = np.array([True, False, True])
    scale = np.array(0.5, dtype="float64")
    expected = pack_dict(
        [
            # names in sorted order, as relaypass writes them
            ("flag", pack_array(1, 1, [3], b"\x01\x00\x01")),  # bool is TVM's uint1, 1 byte each
            ("scale", pack_array(2, 64, [], scale.tobytes())),
            ("w", pack_array(2, 32, [2, 2], w.tobytes())),
        ]
    )
    got = tvm.runtime.save_param_dict({"w": w, "flag": flag, "scale": scale})
    assert bytes(got) == expected
    loaded = tvm.runtime.load_param_dict(expected)
    assert loaded["flag"].dtype == "bool"
    np.testing.assert_array_equal(loaded["flag"].numpy(), flag)
    assert loaded["scale"].shape == ()


@pytest.mark.parametrize(
    "value",
    [
        np.array([[0.5, -1.25, 3e38]], dtype="float32"),
        np.array([-128, -1, 0, 127], dtype="int8"),
        np.array([np.iinfo("int64").min, np.iinfo("int64").max], dtype="int64"),
        np.array([1.0, -2.0, 65504.0, 6e-8], dtype="float16"),
        np.array([[True, False], [False, True]]),
        np.array([1e300], dtype="float64"),
        np.array([255, 0], dtype="uint8"),
        np.array([7], dtype="int32").reshape(()),  # 0-d
        np.zeros((0, 3), dtype="float32"),  # no elements
    ],
    ids=["float32", "int8", "int64", "float16", "bool", "float64", "uint8", "0-d", "empty"],
)
def test_round_trip(value):
    loaded = tvm.runtime.load_param_dict(tvm.runtime.save_param_dict({"p": value}))["p"]
    assert loaded.dtype == str(value.dtype)
    assert tuple(int(d) for d in loaded.shape) == value.shape
    np.testing.assert_array_equal(loaded.numpy(), value)


def test_bfloat16_round_trip():
    bits = np.array([0x3F80, 0xC000], dtype="uint16")  # bfloat16 1.0 and -2.0
    arr = tvm.nd.NDArray(bits, "bfloat16")
    data = tvm.runtime.save_param_dict({"b": arr})
    # After the 41-byte header and name: DLDataType {kDLBfloat = 4, 16, 1} at byte 41 + 28.
    assert bytes(data[69:73]) == bytes([4, 16, 1, 0])
    assert bytes(data[-12:]) == struct.pack("<q", 4) + bits.tobytes()
    loaded = tvm.runtime.load_param_dict(data)["b"]
    assert loaded.dtype == "bfloat16"
    np.testing.assert_array_equal(loaded.numpy(), bits)


def test_bytes_like_inputs_and_relay_names():
    data = relay.save_param_dict({"a": np.ones(3, dtype="float32")})
    for form in (bytes(data), bytearray(data), memoryview(bytes(data))):
        np.testing.assert_array_equal(relay.load_param_dict(form)["a"].numpy(), np.ones(3))
    assert relay.save_param_dict({}) == tvm.runtime.save_param_dict({})
    with pytest.raises(TypeError):
        tvm.runtime.load_param_dict("not bytes")


def test_files(tmp_path):
    params = {"w": np.arange(6, dtype="int64").reshape(2, 3)}
    path = tmp_path / "params.bin"
    tvm.runtime.save_param_dict_to_file(params, str(path))
    assert path.read_bytes() == bytes(tvm.runtime.save_param_dict(params))
    loaded = tvm.runtime.load_param_dict_from_file(str(path))
    np.testing.assert_array_equal(loaded["w"].numpy(), params["w"])
    loaded = tvm.runtime.load_param_dict_from_file(path)  # os.PathLike too
    np.testing.assert_array_equal(loaded["w"].numpy(), params["w"])
    with pytest.raises(tvm.TVMError, match="No such file or directory"):
        tvm.runtime.load_param_dict_from_file(str(tmp_path / "missing.bin"))
    with pytest.raises(tvm.TVMError, match="it is a directory"):
        tvm.runtime.load_param_dict_from_file(str(tmp_path))
    path.write_bytes(b"\x00" * 40)
    with pytest.raises(tvm.TVMError, match=r"params.bin: byte 0: not a TVM parameter file"):
        tvm.runtime.load_param_dict_from_file(str(path))


def valid_bytes():
    return bytes(
        tvm.runtime.save_param_dict(
            {"a": np.array([1, 2], dtype="int8"), "b": np.array(1.5, dtype="float32")}
        )
    )


def test_every_truncation_raises_tvm_error():
    data = valid_bytes()
    for n in range(len(data)):
        with pytest.raises(tvm.TVMError, match=r"<param bytes>: byte \d+: "):
            tvm.runtime.load_param_dict(data[:n])


def test_damaged_bytes_raise_tvm_error():
    data = valid_bytes()
    # The offsets follow the layout: header 24, names 9 + 9, array count 8, then "a".
    cases = {
        "wrong magic": (0, b"\x00"),
        "name count": (16, struct.pack("<Q", 2**63)),
        "array count": (42, struct.pack("<Q", 3)),
        "array magic": (50, b"\x00"),
        "device type": (66, struct.pack("<i", 2)),
        "ndim": (74, struct.pack("<i", 1 << 20)),
        "dtype": (78, bytes([5, 64, 1, 0])),
        "dimension": (82, struct.pack("<q", -1)),
        "byte count": (90, struct.pack("<q", 2**62)),
    }
    for what, (at, patch) in cases.items():
        damaged = data[:at] + patch + data[at + len(patch) :]
        with pytest.raises(tvm.TVMError, match=r"byte %d: " % at):
            tvm.runtime.load_param_dict(damaged)
    with pytest.raises(tvm.TVMError, match="bytes after the last array"):
        tvm.runtime.load_param_dict(data + b"\x00")


def test_artifact_bytes_and_round_trip():
    sections = {"module": "def @main() { 0 }", "params": valid_bytes(), "graph_json": b"{}"}
    data = _core.serialize_artifact(sections)
    # docs/artifact.md: "RPARTIFACT", u32 version 1, u64 count, then (name, bytes) in name order.
    expected = b"RPARTIFACT" + struct.pack("<IQ", 1, 3)
    for name in sorted(sections):
        value = sections[name]
        value = value.encode() if isinstance(value, str) else value
        expected += struct.pack("<Q", len(name)) + name.encode() + struct.pack("<Q", len(value))
        expected += value
    assert data == expected
    parsed = _core.parse_artifact(data)
    assert parsed == {
        "graph_json": b"{}",
        "module": b"def @main() { 0 }",
        "params": valid_bytes(),
    }
    assert _core.parse_artifact(bytearray(data)) == parsed


def test_artifact_damage_raises_tvm_error():
    data = _core.serialize_artifact({"module": b"text", "params": b"\x01\x02"})
    for n in range(len(data)):
        with pytest.raises(tvm.TVMError, match=r"<artifact bytes>: byte \d+: "):
            _core.parse_artifact(data[:n])
    newer = data[:10] + struct.pack("<I", 2) + data[14:]
    with pytest.raises(tvm.TVMError, match=r"version 2 is not supported \(this relaypass reads version 1\)"):
        _core.parse_artifact(newer)
    with pytest.raises(tvm.TVMError, match="bytes after the last section"):
        _core.parse_artifact(data + b"!")
    with pytest.raises(tvm.TVMError, match="section count"):
        _core.parse_artifact(data[:14] + struct.pack("<Q", 2**64 - 1) + data[22:])


def test_artifact_files(tmp_path):
    path = tmp_path / "lib.rpa"
    _core.write_artifact_file(str(path), {"module": "x", "executor_config": b"{}"})
    assert _core.read_artifact_file(str(path)) == {"executor_config": b"{}", "module": b"x"}
    assert _core.read_artifact_file(path) == {"executor_config": b"{}", "module": b"x"}
    assert [p.name for p in tmp_path.iterdir()] == ["lib.rpa"]  # no temporary file left
    with pytest.raises(tvm.TVMError, match="over the limit"):
        _core.read_artifact_file(str(path), max_bytes=10)
    with pytest.raises(tvm.TVMError, match="it is a directory"):
        _core.read_artifact_file(str(tmp_path))
    with pytest.raises(tvm.TVMError, match="No such file or directory"):
        _core.write_artifact_file(str(tmp_path / "no" / "lib.rpa"), {})
