"""The random.* operators by TVM v0.13's names and signatures (python/tvm/relay/op/random/
kernel.py). A key is a uint64 tensor of shape (10); every function returns the next key with its
values, and a key must not be used twice (it would give the same numbers again)."""
import sys

import numpy as np

from .._make import call

__all__ = ["threefry_key", "threefry_generate", "threefry_split", "uniform", "normal", "multinomial"]


def threefry_key(seed):
    """A new Threefry key from an integer seed (its 32 bytes in the machine's order as the key's
    first four words, then an empty path and counter), as TVM makes it."""
    from ...expr import const

    words = np.frombuffer(int(seed).to_bytes(32, sys.byteorder), dtype="uint64")
    state = np.concatenate((words, np.array([0, 0, 0, 0, 1 << 63, 0], dtype="uint64")))
    return const(state, "uint64")


def threefry_generate(key, shape):
    """(next key, uint64 random words of ``shape``)."""
    return call("random.threefry_generate", [key], out_shape=[int(d) for d in shape])


def threefry_split(key):
    """Two keys that give independent numbers."""
    return call("random.threefry_split", [key])


def _scalar(value, dtype):
    from ...expr import RelayExpr, const

    return value if isinstance(value, RelayExpr) else const(value, dtype)


def uniform(key, shape, dtype="float32", low=0.0, high=1.0):
    """(next key, draws of ``shape`` uniform in [low, high))."""
    return call("random.uniform", [key, _scalar(low, dtype), _scalar(high, dtype)],
                out_shape=[int(d) for d in shape], out_dtype=dtype)


def normal(key, shape, dtype="float32", mean=0.0, scale=1.0):
    """(next key, draws of ``shape`` from the normal distribution of ``mean`` and ``scale``)."""
    return call("random.normal", [key, _scalar(mean, dtype), _scalar(scale, dtype)],
                out_shape=[int(d) for d in shape], out_dtype=dtype)


def multinomial(key, probs, num_samples=1):
    """(next key, int32 indices of shape probs.shape[:-1] + [num_samples]) drawn from each row's
    probabilities (the last axis; negative values count as 0, rows are normalized)."""
    return call("random.multinomial", [key, probs], num_samples=int(num_samples))
