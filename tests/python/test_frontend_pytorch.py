"""relay.frontend.from_pytorch: TorchScript modules in, (mod, params) out, run on relaypass.

Every expected value here comes from PyTorch itself: the module is run eagerly on the same
input and the converted module must agree with it."""
from typing import List, Tuple

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relaypass as tvm  # noqa: E402
from relaypass import relay  # noqa: E402
from relaypass.contrib import graph_executor  # noqa: E402


def _seeded_input(*shape, seed=0):
    return torch.from_numpy(np.random.RandomState(seed).uniform(-1, 1, shape).astype("float32"))


def _convert(module, inputs, script=False):
    module = module.eval()
    scripted = torch.jit.script(module) if script else torch.jit.trace(module, inputs)
    infos = [("input{}".format(i), tuple(x.shape)) for i, x in enumerate(inputs)]
    return relay.frontend.from_pytorch(scripted, infos)


def _run(mod, params, inputs, kind="graph"):
    named = {"input{}".format(i): x.numpy() for i, x in enumerate(inputs)}
    out = relay.create_executor(kind, mod=mod, params=params).evaluate()(**named)
    if isinstance(out, (list, tuple)):
        return [o.numpy() for o in out]
    if hasattr(out, "fields"):
        return [o.numpy() for o in out.fields]
    return [out.numpy()]


def _expected(module, inputs):
    with torch.no_grad():
        out = module.eval()(*inputs)
    return [o.numpy() for o in out] if isinstance(out, (tuple, list)) else [out.numpy()]


def _check(module, inputs, rtol=1e-5, atol=1e-5, kind="graph", script=False):
    torch.manual_seed(0)
    mod, params = _convert(module, inputs, script=script)
    actual = _run(mod, params, inputs, kind)
    expected = _expected(module, inputs)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)
    return mod, params


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(1)
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.depthwise = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False)
        self.fc = torch.nn.Linear(8 * 4 * 4, 10)
        with torch.no_grad():  # statistics that are not the identity
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.nn.functional.hardswish(self.depthwise(y))
        y = torch.nn.functional.max_pool2d(y, 2)
        return torch.softmax(self.fc(torch.flatten(y, 1)), dim=-1)


def test_cnn_matches_pytorch_with_tvm_names():
    model = SmallCnn()
    mod, params = _check(model, [_seeded_input(1, 3, 8, 8)])
    main = mod["main"]
    assert main.params[0].name_hint == "input0"
    # Parameter names: the first user's source name, then the state_dict attribute.
    assert {name.split(".")[-1] for name in params} == {"weight", "bias", "running_mean",
                                                        "running_var"}
    assert "aten::_convolution_0.weight" in params and "aten::linear_0.bias" in params
    np.testing.assert_array_equal(params["aten::_convolution_0.weight"].numpy(),
                                  model.conv.weight.detach().numpy())
    text = mod.astext(False) if hasattr(mod, "astext") else str(mod)
    for op in ("nn.conv2d", "nn.batch_norm", "nn.max_pool2d", "nn.dense", "nn.softmax"):
        assert op in text


def test_relay_build_and_graph_executor():
    model = SmallCnn()
    x = _seeded_input(1, 3, 8, 8, seed=3)
    mod, params = _convert(model, [x])
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm", params=params)
    runner = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    runner.set_input("input0", x.numpy())
    runner.run()
    np.testing.assert_allclose(runner.get_output(0).numpy(), _expected(model, [x])[0],
                               rtol=1e-5, atol=1e-6)


class Elementwise(torch.nn.Module):
    def forward(self, x, y):
        a = torch.nn.functional.gelu(x) + torch.nn.functional.silu(y)
        b = torch.nn.functional.elu(x, alpha=0.7) - 2 * torch.nn.functional.leaky_relu(y, 0.1)
        c = torch.clamp(x * y, min=-0.3, max=0.4) / (torch.abs(y) + 1.0)
        d = torch.rsub(x, 1.5) + torch.sigmoid(y) * torch.tanh(x)
        e = torch.nn.functional.logsigmoid(x) + torch.nn.functional.hardsigmoid(y)
        f = torch.pow(torch.abs(x) + 0.5, 1.5) + torch.exp(-x * x) + torch.erf(y)
        return torch.where(x > y, a + b, c + d) + e * f


def test_elementwise_and_activations():
    _check(Elementwise(), [_seeded_input(2, 3, 4), _seeded_input(2, 3, 4, seed=1)])


class ShapeOps(torch.nn.Module):
    def forward(self, x):
        a = x.view(2, 12).t().reshape(3, 8)
        b = x.permute(2, 0, 1)[1:3, :, ::2]
        c = torch.cat([x, x * 2], dim=1).transpose(0, 2)
        d1, d2 = torch.chunk(x, 2, dim=2)
        e = torch.stack([d1, d2], dim=0)
        f = x[:, 1].unsqueeze(0).expand(3, 2, 4)
        return a, b, c, e, f


def test_shape_ops_and_tuple_outputs():
    _check(ShapeOps(), [_seeded_input(2, 3, 4)])


class Products(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(2)
        self.proj = torch.nn.Linear(4, 5)

    def forward(self, x, y):
        batched = torch.matmul(x, y)  # (2, 3, 4) @ (4, 6): broadcast batch_matmul
        return self.proj(x), batched, torch.bmm(x, x.transpose(1, 2))


def test_matmul_and_linear():
    _check(Products(), [_seeded_input(2, 3, 4), _seeded_input(4, 6, seed=1)])


class Reductions(torch.nn.Module):
    def forward(self, x):
        values, _ = torch.max(x, dim=1)
        return (x.mean(dim=(2,), keepdim=True), x.sum(1), values,
                torch.std(x, dim=2, unbiased=False), x.var(dim=1), torch.argmax(x, dim=2),
                torch.logsumexp(x, dim=[1]))


def test_reductions():
    _check(Reductions(), [_seeded_input(2, 3, 4)])


class ScriptedIf(torch.nn.Module):
    def forward(self, x):
        if bool(x.sum() > 0.0):
            return x * 2.0
        return x - 1.0


class ScriptedLoop(torch.nn.Module):
    def forward(self, x):
        y = x
        for _ in range(3):
            y = y * 0.5 + x
        return y


@pytest.mark.parametrize("module", [ScriptedIf(), ScriptedLoop()],
                         ids=["prim_If", "prim_Loop"])
def test_control_flow_runs_on_the_vm(module):
    for seed in (0, 1):
        x = _seeded_input(3, 4, seed=seed) + (0.5 if seed else -0.5)
        _check(module, [x], kind="vm", script=True)


def test_resnet18_random_weights():
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    x = _seeded_input(1, 3, 224, 224)
    expected = _expected(model, [x])[0]
    mod, params = _convert(model, [x])
    actual = _run(mod, params, [x])[0]
    scale = np.abs(expected).max()
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5 * scale)
    assert actual.argmax() == expected.argmax()


# Errors


class Unsupported(torch.nn.Module):
    def forward(self, x):
        return torch.cummax(x, 0)[0] + torch.kthvalue(x, 1, 0)[0]


def test_every_missing_op_in_one_message():
    with pytest.raises(NotImplementedError) as info:
        _convert(Unsupported(), [_seeded_input(3, 4)])
    assert str(info.value) == (
        "The following operators are not implemented: ['aten::cummax', 'aten::kthvalue']")


def test_custom_convert_map_replaces_a_missing_op():
    def cummax_as_identity(inputs, input_types):
        return inputs[0], None

    module = Unsupported()
    traced = torch.jit.trace(module, [_seeded_input(3, 4)])
    with pytest.raises(NotImplementedError, match=r"\['aten::kthvalue'\]"):
        relay.frontend.from_pytorch(traced, [("x", (3, 4))],
                                    custom_convert_map={"aten::cummax": cummax_as_identity})


def test_wrong_input_shape_names_the_input():
    traced = torch.jit.trace(torch.nn.ReLU(), [_seeded_input(2, 3)])
    # torch.jit.trace records the example's sizes; another shape contradicts the graph
    graph_sizes = list(traced.graph.inputs())[1].type().sizes()
    if graph_sizes is None:
        pytest.skip("this torch version does not record input sizes in traced graphs")
    with pytest.raises(RuntimeError, match="data"):
        relay.frontend.from_pytorch(traced, [("data", (2, 5))])


def test_input_info_count_and_form():
    traced = torch.jit.trace(torch.nn.ReLU(), [_seeded_input(2, 3)])
    with pytest.raises(RuntimeError, match="PyTorch has 1 inputs and input_infos lists 0"):
        relay.frontend.from_pytorch(traced, [])
    with pytest.raises(RuntimeError, match="should be a list"):
        relay.frontend.from_pytorch(traced, {"data": (2, 3)})


def test_not_torchscript():
    with pytest.raises(TypeError, match="TorchScript"):
        relay.frontend.from_pytorch(torch.nn.ReLU(), [("data", (2, 3))])


class SelfAttention(torch.nn.Module):
    """torch.nn.MultiheadAttention in eval mode traces to aten::_native_multi_head_attention."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(5)
        self.attention = torch.nn.MultiheadAttention(8, 2, batch_first=True)

    def forward(self, x):
        out, _ = self.attention(x, x, x, need_weights=False)
        return out


def test_native_multi_head_attention_matches_pytorch():
    # Expected values: PyTorch's own output on the same input. The fused kernel is traced only
    # without autograd (as torchvision's ViT is in eval).
    module, x = SelfAttention().eval(), _seeded_input(2, 5, 8)
    with torch.no_grad():
        traced = torch.jit.trace(module, x, check_trace=False)
        expected = module(x).numpy()
    assert "aten::_native_multi_head_attention" in str(traced.inlined_graph)
    mod, params = relay.frontend.from_pytorch(traced, [("input0", (2, 5, 8))])
    out = relay.create_executor("graph", mod=mod).evaluate()(x.numpy(), **params)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


class ToDtype(torch.nn.Module):
    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        return x.to(self.dtype)


def test_to_casts_every_dtype_relaypass_has_and_refuses_complex():
    # Expected values: PyTorch's own casts (TVM v0.13 returns the input unchanged for these).
    x = _seeded_input(6) * 3
    for dtype in (torch.int8, torch.uint8, torch.bool):
        traced = torch.jit.trace(ToDtype(dtype), x)
        mod, params = relay.frontend.from_pytorch(traced, [("x", (6,))])
        out = relay.create_executor("graph", mod=mod).evaluate()(x.numpy(), **params)
        np.testing.assert_array_equal(out.numpy(), ToDtype(dtype)(x).numpy())
    traced = torch.jit.trace(ToDtype(torch.complex64), x)
    with pytest.raises(NotImplementedError, match="no complex64 dtype"):
        relay.frontend.from_pytorch(traced, [("x", (6,))])


@pytest.mark.parametrize("num_boxes,iou", [(12, 0.3), (60, 0.5)])
def test_torchvision_nms(num_boxes, iou):
    # Expected: torchvision.ops.nms itself (the kept indices, best score first). Boxes are drawn
    # small in a small square so that many overlap and are suppressed; scores are distinct and
    # partly negative (the converter shifts them above zero, as TVM's).
    torchvision = pytest.importorskip("torchvision")

    class Nms(torch.nn.Module):
        def forward(self, boxes, scores):
            return torchvision.ops.nms(boxes, scores, iou)

    rng = np.random.RandomState(3)
    corner = rng.uniform(0, 1, (num_boxes, 2)).astype("float32")
    boxes = torch.from_numpy(np.concatenate([corner, corner + 0.4], axis=1))
    scores = torch.from_numpy(rng.permutation(num_boxes).astype("float32") - num_boxes / 2)
    mod, params = _convert(Nms(), [boxes, scores])
    actual = _run(mod, params, [boxes, scores], kind="vm")[0]
    expected = torchvision.ops.nms(boxes, scores, iou).numpy()
    assert 0 < len(expected) < num_boxes  # some boxes really are suppressed
    assert actual.dtype == np.int64
    np.testing.assert_array_equal(actual, expected)


class _Recurrent(torch.nn.Module):
    """A torch.nn recurrent layer whose every result (output, and final states) is returned."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        out, state = self.layer(x)
        if isinstance(state, tuple):
            return (out,) + state
        return out, state


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.nn.LSTM(6, 5),
        lambda: torch.nn.LSTM(6, 5, num_layers=2, bidirectional=True, batch_first=True),
        lambda: torch.nn.LSTM(6, 5, num_layers=2, proj_size=3),
        lambda: torch.nn.LSTM(6, 5, bias=False, dropout=0.5, num_layers=2),
        lambda: torch.nn.GRU(6, 5, num_layers=2, bidirectional=True),
        lambda: torch.nn.GRU(6, 5, batch_first=True, bias=False),
        lambda: torch.nn.RNN(6, 5, num_layers=2, nonlinearity="tanh"),
        lambda: torch.nn.RNN(6, 5, bidirectional=True, nonlinearity="relu"),
    ],
    ids=["lstm", "lstm-2-bidir-batch-first", "lstm-proj", "lstm-nobias-dropout-eval", "gru-2-bidir",
         "gru-batch-first-nobias", "rnn-tanh-2", "rnn-relu-bidir"],
)
def test_recurrent_layers(make):
    # Expected: the PyTorch module itself in eval mode (its dropout inactive), 4 time steps.
    torch.manual_seed(2)
    module = _Recurrent(make())
    _check(module, [_seeded_input(3, 4, 6)], rtol=1e-5, atol=1e-5)


def test_recurrent_layer_with_initial_state():
    # Expected: PyTorch's LSTM given (h0, c0) as inputs of the traced function.
    torch.manual_seed(4)

    class WithState(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = torch.nn.LSTM(6, 5, num_layers=2)

        def forward(self, x, h, c):
            out, (h, c) = self.lstm(x, (h, c))
            return out, h, c

    _check(WithState(), [_seeded_input(4, 2, 6), _seeded_input(2, 2, 5, seed=1),
                         _seeded_input(2, 2, 5, seed=2)])


class _StackInLoop(torch.nn.Module):
    def forward(self, x):
        rows = []
        for i in range(x.size(0)):
            rows += [x[i] * 2.0]
        return torch.stack(rows, dim=0)


class _RunningSums(torch.nn.Module):
    """Reads the list it grows (aten::__getitem__ of the loop's list), then concatenates it."""

    def forward(self, x):
        sums = [x[0]]
        for i in range(x.size(0) - 1):
            sums += [sums[i] + x[i + 1]]
        return torch.cat(sums, dim=0)


class _SumOfList(torch.nn.Module):
    """aten::len of a run-time list as a loop's trip count."""

    def forward(self, x):
        parts = []
        for i in range(x.size(0)):
            parts += [torch.relu(x[i] - 0.1)]
        total = torch.zeros_like(x[0])
        for j in range(len(parts)):
            total = total + parts[j]
        return total


@pytest.mark.parametrize("module", [_StackInLoop, _RunningSums, _SumOfList])
def test_run_time_lists(module):
    # Expected: the scripted module run eagerly by PyTorch. The lists grow in prim::Loop, so they
    # are the Prelude's List ADT (TVM's rule), run on the VM.
    mod, _ = _check(module(), [_seeded_input(5, 3, 4)], kind="vm", script=True)
    assert mod.get_global_type_var("List") is not None


def test_static_list_stays_a_python_list():
    # A list that is only built and stacked needs no ADT: main is alone in its module.
    class Static(torch.nn.Module):
        def forward(self, x):
            return torch.stack([x, x + 1.0], dim=0)

    mod, _ = _check(Static(), [_seeded_input(2, 3)], script=True)
    assert [gv.name_hint for gv in mod.get_global_vars()] == ["main"]


class _ScaleEachState(torch.nn.Module):
    """A list input (List[Tuple[Tensor, Tensor]]) read by index, and a list result."""

    def forward(self, x, states: List[Tuple[torch.Tensor, torch.Tensor]]):
        out: List[Tuple[torch.Tensor, torch.Tensor]] = []
        for i in range(2):
            h, c = states[i]
            out += [(h * x, c + x)]
        return out


class _TwoStackedLoops(torch.nn.Module):
    """The second loop runs over the `?` first extent of the first loop's stack: aten::size of
    it is shape_of at run time (a constant -1 would run the loop zero times)."""

    def forward(self, x):
        rows = []
        for i in range(x.size(0)):
            rows += [x[i] + 1.0]
        stacked = torch.stack(rows, dim=0)
        again = []
        for j in range(stacked.size(0)):
            again += [stacked[j] * 3.0]
        return torch.stack(again, dim=0)


def test_list_input_and_list_result():
    # Expected: PyTorch's own result. The list input is the Prelude's List (input_infos gives a
    # list of element shapes, as TVM's), passed to the VM as TVM's tests pass it: ADTs with the
    # constructors' tags; the list result comes back as ADTs (Cons cells) of tuples.
    from relaypass.relay.prelude import Prelude
    from relaypass.runtime.container import ADT, tuple_object

    scripted = torch.jit.script(_ScaleEachState())
    x = _seeded_input(2, 3)
    states = [(_seeded_input(2, 3, seed=s), _seeded_input(2, 3, seed=s + 10)) for s in (1, 2)]
    mod, params = relay.frontend.from_pytorch(
        scripted, [("x", (2, 3)), ("states", [((2, 3), (2, 3)), ((2, 3), (2, 3))])])
    prelude = Prelude(tvm.IRModule())
    value = ADT(prelude.nil.tag, [])
    for h, c in reversed(states):
        value = ADT(prelude.cons.tag, [tuple_object([tvm.nd.array(h.numpy()),
                                                     tvm.nd.array(c.numpy())]), value])
    result = relay.create_executor("vm", mod=mod).evaluate()(x.numpy(), value)
    expected = scripted(x, states)
    for h_expected, c_expected in expected:
        assert result.tag == prelude.cons.tag
        pair, result = result[0], result[1]
        np.testing.assert_allclose(pair[0].numpy(), h_expected.numpy(), rtol=1e-6)
        np.testing.assert_allclose(pair[1].numpy(), c_expected.numpy(), rtol=1e-6)
    assert result.tag == prelude.nil.tag


def test_size_of_a_run_time_extent():
    # Expected: PyTorch's own result (5 rows, each (x + 1) * 3).
    mod, _ = _check(_TwoStackedLoops(), [_seeded_input(5, 3)], kind="vm", script=True)
    assert "shape_of" in mod["main"].astext()


class _Ranges(torch.nn.Module):
    """range(start, stop) and range(start, stop, -1): TorchScript's aten::__range_length and
    aten::__derive_index."""

    def forward(self, x):
        y = x[0]
        for i in range(1, x.size(0)):
            y = y + x[i] * float(i)
        for j in range(x.size(0) - 1, 0, -2):
            y = y - x[j]
        return y


def test_range_with_start_and_step():
    # Expected: PyTorch's own result of the scripted loops.
    _check(_Ranges(), [_seeded_input(6, 3)], kind="vm", script=True)
