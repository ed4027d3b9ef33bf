"""relay.random: TVM v0.13's Threefry generator (python/tvm/topi/random/kernel.py). The core is
checked against Random123's known-answer vector for Threefry-4x64-20 with a zero key and counter
(09218ebde6c85537 55941f5266d86105 4bd25e16282434dc ee29ec846bd2e40b): TVM leaves out the last
key injection, which adds 5 to the last word there, so TVM's first block is that vector with the
last word minus 5. uniform and normal are checked against the same words turned into floats by
NumPy, as TVM's topi does it."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _run(body):
    return relay.create_executor("vm", tvm.IRModule.from_expr(relay.Function([], body))).evaluate()()


def test_first_block_is_random123s_vector_without_the_last_injection():
    key, words = _run(relay.random.threefry_generate(relay.random.threefry_key(0), (4,)))
    expected = [0x09218EBDE6C85537, 0x55941F5266D86105, 0x4BD25E16282434DC, 0xEE29EC846BD2E40B - 5]
    assert [int(w) for w in words.numpy()] == expected
    # The counter (word 7) moves on by the number of words drawn.
    assert int(key.numpy()[7]) == 4


def test_a_remainder_and_the_next_key_differ_and_repeat():
    key = relay.random.threefry_key(7)
    next_key, first = relay.TupleWrapper(relay.random.threefry_generate(key, (7,)), 2)
    _, second = relay.TupleWrapper(relay.random.threefry_generate(next_key, (7,)), 2)
    a, b = _run(relay.Tuple([first, second]))
    a2, _ = _run(relay.Tuple([first, second]))
    assert (a.numpy() == a2.numpy()).all()
    assert (a.numpy()[-3:] != b.numpy()[-3:]).any()


def test_split_keys_give_different_words():
    left, right = relay.TupleWrapper(relay.random.threefry_split(relay.random.threefry_key(1)), 2)
    _, x = relay.TupleWrapper(relay.random.threefry_generate(left, (8,)), 2)
    _, y = relay.TupleWrapper(relay.random.threefry_generate(right, (8,)), 2)
    a, b = _run(relay.Tuple([x, y]))
    assert (a.numpy() != b.numpy()).any()


def _uniform_from_words(words, dtype, low, high):
    if dtype == "float32":
        bits = (words.astype("uint32") >> np.uint32(9)) | np.uint32(127 << 23)
        standard = bits.view("float32") - np.float32(1)
    else:
        bits = (words >> np.uint64(12)) | np.uint64(1023 << 52)
        standard = bits.view("float64") - 1.0
    return standard * (np.array(high, dtype) - np.array(low, dtype)) + np.array(low, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_and_normal_are_the_words_turned_into_floats(dtype):
    key = relay.random.threefry_key(3)
    _, words = _run(relay.random.threefry_generate(key, (2, 6)))
    _, u = _run(relay.random.uniform(key, (12,), dtype, low=-2.0, high=5.0))
    expected = _uniform_from_words(words.numpy().reshape(-1), dtype, -2.0, 5.0)
    np.testing.assert_allclose(u.numpy(), expected, rtol=1e-6)
    assert ((u.numpy() >= -2.0) & (u.numpy() < 5.0)).all()
    _, n = _run(relay.random.normal(key, (6,), dtype, mean=1.0, scale=2.0))
    standard = _uniform_from_words(words.numpy().reshape(-1), dtype, 0.0, 1.0)
    u1, u2 = 1 - standard[:6], standard[6:]
    box_muller = np.sqrt(-2 * np.log(u1)) * np.sin(2 * np.pi * u2) * 2.0 + 1.0
    np.testing.assert_allclose(n.numpy(), box_muller, rtol=1e-4, atol=1e-5)


def test_types_and_a_wrong_key():
    f = relay.Function([], relay.random.uniform(relay.random.threefry_key(1), (3, 4), "float64"))
    ret = relay.transform.InferType()(tvm.IRModule.from_expr(f))["main"].ret_type
    assert ret == relay.TupleType([relay.TensorType((10,), "uint64"),
                                   relay.TensorType((3, 4), "float64")])
    bad = relay.const(np.arange(9, dtype="uint64"))
    with pytest.raises(tvm.error.TVMError, match="the key must be"):
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.Function([], relay.random.threefry_split(bad))))


def test_multinomial_follows_the_cumulative_probabilities():
    # A row with one nonzero (negative values count as 0) always gives that index; other rows
    # give, per draw u (the words as float32 uniforms, as above), the first index whose
    # cumulative probability exceeds u: TVM's topi rule, worked in NumPy.
    probs = np.array([[0.0, -1.0, 3.0, 0.0], [1.0, 2.0, 3.0, 4.0]], "float32")
    key = relay.random.threefry_key(11)
    _, idx = _run(relay.random.multinomial(key, relay.const(probs), num_samples=5))
    assert idx.dtype == "int32" and idx.shape == (2, 5)
    assert (idx.numpy()[0] == 2).all()
    _, words = _run(relay.random.threefry_generate(key, (10,)))
    u = _uniform_from_words(words.numpy(), "float32", 0.0, 1.0).reshape(2, 5)
    cumulative = np.cumsum(probs[1] / probs[1].sum())
    expected = [int(np.argmax(cumulative > draw)) for draw in u[1]]
    assert list(idx.numpy()[1]) == expected
