"""relay.dataflow_pattern and the BYOC passes from Python, on cases of TVM v0.13's
tests/python/relay/test_dataflow_pattern.py (test_match_op, test_match_call_commutive,
test_match_dominator, test_rewrite, test_partition_check, ...) and
test_pass_partition_graph.py (test_dnnl_fuse's pattern table). Expected answers are TVM's."""
import numpy as np

import relaypass as tvm
from relaypass import relay
from relaypass.relay.dataflow_pattern import (
    DFPatternCallback,
    dominates,
    is_constant,
    is_op,
    is_tuple,
    is_var,
    partition,
    rewrite,
    wildcard,
)

K_ELEMWISE = 0


def test_match_op_and_call():
    x = relay.var("x")
    y = relay.var("y")
    assert is_op("add")(wildcard(), wildcard()).match(x + y)
    assert not is_op("add")(wildcard(), wildcard()).match(x - y)
    add = is_op("add")(is_var("x"), is_var("y"))
    assert add.match(x + y)
    assert add.match(y + x)
    assert (is_op("add") | is_op("subtract"))(wildcard(), wildcard()).match(x - y)
    assert is_tuple([is_var("x"), wildcard()]).match(relay.Tuple([x, y]))


def test_match_attr_type_and_optional():
    x = relay.var("x", shape=(10, 10), dtype="float32")
    w = relay.var("w")
    conv = relay.nn.conv2d(x, w)
    conv_p = is_op("nn.conv2d")(wildcard(), wildcard())
    assert conv_p.has_attr({"data_layout": "NCHW"}).match(conv)
    assert not conv_p.has_attr({"data_layout": "NHWC"}).match(conv)
    assert wildcard().has_attr({"TOpPattern": K_ELEMWISE})(wildcard()).match(relay.nn.relu(x))
    assert wildcard().has_dtype("float32").match(x)
    assert wildcard().has_shape((10, 10)).match(x)
    opt = conv_p.optional(lambda c: is_op("nn.relu")(c))
    assert opt.match(conv) and opt.match(relay.nn.relu(conv))


def test_match_dominator():
    is_conv2d = is_op("nn.conv2d")(wildcard(), wildcard())
    is_unary_elemwise = (wildcard().has_attr({"TOpPattern": K_ELEMWISE}))(wildcard())
    reduction = is_op("add")(wildcard(), wildcard())
    diamond = dominates(is_conv2d, is_unary_elemwise, reduction)
    inp = relay.var("input")
    weight = relay.var("weight")
    conv2d = relay.nn.conv2d(inp, weight)
    relu = relay.nn.relu(relay.nn.relu(conv2d))
    leaky_relu = relay.nn.leaky_relu(conv2d, alpha=0)
    assert diamond.match(relu + leaky_relu)


def test_rewrite_callback_subclass():
    x = relay.var("x")
    y = relay.var("y")

    class TestRewrite(DFPatternCallback):
        def __init__(self):
            super().__init__()
            self.pattern = is_op("add")(wildcard(), wildcard())

        def callback(self, pre, post, node_map):
            return post.args[0] - post.args[1]

    out = rewrite(TestRewrite(), x + y)
    assert is_op("subtract")(is_var("x"), is_var("y")).match(out)


def test_rewrite_node_map():
    x = relay.var("x")

    class CollapseRelu(DFPatternCallback):
        def __init__(self):
            super().__init__()
            self.inp = wildcard()
            self.pattern = is_op("nn.relu")(is_op("nn.relu")(self.inp))

        def callback(self, pre, post, node_map):
            return relay.nn.relu(node_map[self.inp][0])

    e = x
    for _ in range(4):
        e = relay.nn.relu(e)
    out = CollapseRelu().rewrite(e)
    tvm.ir.assert_structural_equal(out, relay.nn.relu(x))


def test_partition_check():
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(is_var("input"), wildcard()))

    def check(pre):
        return pre.args[0].attrs.data_layout == "NCHW"

    x = relay.var("input")
    w = relay.var("weight")
    relu = relay.nn.relu(relay.nn.conv2d(x, w))
    xf = relay.var("input")
    wf = relay.var("weight")
    func = relay.Function([xf, wf], relay.nn.relu(relay.nn.conv2d(xf, wf))).with_attr(
        "PartitionedFromPattern", "nn.conv2d_nn.relu_")
    reference = func(x, w)
    assert tvm.ir.structural_equal(pattern.partition(relu, check=check), reference)
    nhwc = relay.nn.relu(relay.nn.conv2d(x, w, data_layout="NHWC"))
    assert nhwc == partition(pattern, nhwc, check=check)


def test_byoc_flow_from_python():
    @tvm.ir.register_op_attr("add", "target.pytest_target")
    def _add(expr):  # pylint: disable=unused-variable
        return True

    x = relay.var("x", shape=(10, 10))
    y = relay.var("y", shape=(10, 10))
    mod = tvm.IRModule.from_expr(relay.Function([x, y], relay.nn.relu(x + y)))
    mod = relay.transform.InferType()(mod)
    mod = relay.transform.AnnotateTarget("pytest_target")(mod)
    mod = relay.transform.MergeCompilerRegions()(mod)
    mod = relay.transform.PartitionGraph()(mod)
    fn = mod["tvmgen_default_pytest_target_main_0"]
    assert fn.attrs["Compiler"] == "pytest_target"
    assert "annotation.compiler" not in mod.astext()


def test_merge_composite_pattern_table():
    def make_pattern(with_bias=True):
        data = wildcard()
        weight = wildcard()
        bias = wildcard()
        conv = is_op("nn.conv2d")(data, weight)
        conv_out = is_op("add")(conv, bias) if with_bias else conv
        return is_op("nn.relu")(conv_out)

    table = [("dnnl.conv2d_bias_relu", make_pattern(True)),
             ("dnnl.conv2d_relu", make_pattern(False))]
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.const(np.ones((4, 3, 3, 3), "float32"))
    b = relay.const(np.ones((4, 1, 1), "float32"))
    out = relay.nn.relu(relay.nn.conv2d(x, w) + b)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([x], out)))
    mod = relay.transform.MergeComposite(table)(mod)
    text = mod.astext()
    assert 'Composite="dnnl.conv2d_bias_relu"' in text
    assert 'PartitionedFromPattern="nn.conv2d_add_nn.relu_"' in text
    from relaypass.relay.op.contrib import get_pattern_table

    assert [name for name, _ in get_pattern_table("dnnl")] == [
        "dnnl.conv2d_bias_relu", "dnnl.conv2d_relu"]
