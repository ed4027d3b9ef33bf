"""relay.transform.SplitArgs and Target.max_function_args (python/relaypass/relay/split_args.py).

Where expected values come from: TVM v0.13's src/relay/transforms/split_args.cc (read): a
concatenate of n >= limit = max_function_args - 1 tensors becomes a concatenate of
ceil(n / limit) stop_fusion(concatenate(chunk)) in order; fewer than limit, or a negative
max_function_args, leaves it as it is; Target.max_function_args is the target's attribute, -1
when unset (python/tvm/target/target.py)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def typed(f):
    return relay.transform.InferType()(tvm.IRModule.from_expr(f))["main"]


def concat_of(n):
    xs = [relay.var("p%d" % i, shape=(1, 2)) for i in range(n)]
    return xs, relay.Function(xs, relay.concatenate(relay.Tuple(xs), axis=1))


def test_split_into_chunks_behind_stop_fusion():
    xs, f = concat_of(7)
    mod = relay.transform.SplitArgs(4)(tvm.IRModule.from_expr(f))  # limit 3: 3 + 3 + 1
    parts = [relay.annotation.stop_fusion(relay.concatenate(relay.Tuple(c), axis=1))
             for c in (xs[0:3], xs[3:6], xs[6:7])]
    expected = relay.Function(xs, relay.concatenate(relay.Tuple(parts), axis=1))
    assert tvm.ir.structural_equal(mod["main"], typed(expected))
    # same values
    vals = [np.full((1, 2), i, "float32") for i in range(7)]
    out = relay.create_executor("debug", mod=mod).evaluate()(*vals)
    np.testing.assert_array_equal(out.numpy(), np.concatenate(vals, axis=1))


def test_no_split_below_the_limit_or_without_one():
    _, f = concat_of(2)
    mod = tvm.IRModule.from_expr(f)
    assert tvm.ir.structural_equal(relay.transform.SplitArgs(4)(mod)["main"], typed(f))
    _, f = concat_of(50)
    mod = tvm.IRModule.from_expr(f)
    assert tvm.ir.structural_equal(relay.transform.SplitArgs(-1)(mod)["main"], typed(f))
    with pytest.raises(tvm.error.TVMError, match="at least 2"):
        relay.transform.SplitArgs(1)


def test_target_max_function_args():
    assert tvm.target.Target("llvm").max_function_args == -1
    assert tvm.target.Target("metal -max_function_args=31").max_function_args == 31
