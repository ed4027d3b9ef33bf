"""relay.frontend.from_pytorch on quantized (eager-mode, int8) PyTorch modules, as TVM v0.13's
qnn_torch.py converts them: each quantized operator in a small module (quantized with the fbgemm
qconfig, per tensor or per channel, calibrated on the test input, as TVM's
tests/python/frontend/pytorch/qnn_test.py does), converted and run on the graph executor, against
PyTorch's own int8 output on the same input (expected values: PyTorch). TVM's qnn_test asserts
no bound for these modules (it prints the differences); the bounds here are in steps of the
output's quantization scale, from the differences measured on this implementation (PyTorch adds
conv/linear biases in float and rounds once; TVM's graph adds them as int32 and requantizes, so
a value may land one step away)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402
from torch.ao.quantization import DeQuantStub, QuantStub, QuantWrapper, fuse_modules  # noqa: E402

from relaypass import relay  # noqa: E402

torch.set_num_threads(1)


def _qconfig(per_channel):
    from torch.ao.quantization.observer import MovingAverageMinMaxObserver, default_weight_observer

    if per_channel:
        return torch.ao.quantization.get_default_qconfig("fbgemm")
    act = MovingAverageMinMaxObserver.with_args(reduce_range=False)
    return torch.ao.quantization.QConfig(activation=act, weight=default_weight_observer)


def _quantize(module, inp, per_channel=False, fuse=None):
    module.eval()
    if fuse:
        fuse(module)
    module.qconfig = _qconfig(per_channel)
    torch.ao.quantization.prepare(module, inplace=True)
    module(inp)
    torch.ao.quantization.convert(module, inplace=True)
    return torch.jit.trace(module, inp).eval()


def _input(shape, seed=0):
    return torch.rand(shape, generator=torch.Generator().manual_seed(seed))


def _run(script_module, inp, executor="graph", **kwargs):
    mod, params = relay.frontend.from_pytorch(script_module, [("input", tuple(inp.shape))],
                                              **kwargs)
    run = relay.create_executor(executor, mod=mod, params=params).evaluate()
    return mod, params, run(input=inp.numpy()).numpy()


def _output_scale(script_module):
    """The scale of the final dequantize's input: the traced graph prepared as the importer
    prepares it (the dequantize then takes the scale and zero point as inputs 1 and 2)."""
    from relaypass.relay.frontend.pytorch import qnn_graph

    graph = script_module.graph.copy()
    torch._C._jit_pass_onnx_function_substitution(graph)
    qnn_graph.inline_input_quant_params_for_fx(graph, script_module.state_dict())
    qnn_graph.add_input_quant_params_to_op_inputs(graph)
    for node in reversed(list(graph.nodes())):  # the last dequantize gives the output
        if node.kind() == "aten::dequantize":
            return node.inputsAt(1).node().f("value")
    raise AssertionError("no dequantize")


def _check(module, inp, max_steps, mean_steps=0.5, **kwargs):
    """max / mean abs difference from PyTorch in steps of the output scale (the scale of the
    last quantized op with explicit output parameters before the dequantize)."""
    traced = _quantize(module, inp, **kwargs)
    with torch.no_grad():
        expected = traced(inp).numpy()
    _, _, got = _run(traced, inp)
    scale = _output_scale(traced)
    diff = np.abs(got - expected) / scale
    assert got.shape == expected.shape
    assert diff.max() <= max_steps + 1e-3, diff.max()
    assert diff.mean() <= mean_steps, diff.mean()
    return traced


class ConvBn(nn.Module):
    def __init__(self, with_relu=False):
        super().__init__()
        layers = [nn.Conv2d(3, 8, 3, padding=1, bias=True), nn.BatchNorm2d(8)]
        if with_relu:
            layers.append(nn.ReLU())
        self.conv = nn.Sequential(*layers)
        self.quant_wrap = QuantWrapper(self.conv)
        self.with_relu = with_relu

    def forward(self, x):
        return self.quant_wrap(x)

    def fuse(self):
        fuse_modules(self.conv, ["0", "1", "2"] if self.with_relu else ["0", "1"], inplace=True)


@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("with_relu", [False, True])
def test_quantized_conv2d(per_channel, with_relu):
    torch.manual_seed(1)
    module = ConvBn(with_relu)
    _check(module, _input((1, 3, 12, 12)), max_steps=1, per_channel=per_channel,
           fuse=lambda m: m.fuse())


class Linear(nn.Module):
    def __init__(self, with_relu=False):
        super().__init__()
        layers = [nn.Linear(16, 32)] + ([nn.ReLU()] if with_relu else [])
        self.fc = nn.Sequential(*layers)
        self.quant_wrap = QuantWrapper(self.fc)
        self.with_relu = with_relu

    def forward(self, x):
        return self.quant_wrap(x)

    def fuse(self):
        if self.with_relu:
            fuse_modules(self.fc, ["0", "1"], inplace=True)


@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("with_relu", [False, True])
def test_quantized_linear(per_channel, with_relu):
    torch.manual_seed(2)
    _check(Linear(with_relu), _input((4, 16)), max_steps=1, per_channel=per_channel,
           fuse=lambda m: m.fuse())


def test_quantized_conv_transpose2d():
    """quantized::conv_transpose2d through qnn.conv2d_transpose (IOHW weight), per tensor as
    TVM's qnn_test; stride 2 and padding 1 (onednn, PyTorch's engine here, packs only a zero
    output_padding)."""
    torch.manual_seed(7)
    module = QuantWrapper(nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1))
    _check(module, _input((1, 3, 6, 6)), max_steps=1)


class Functional(nn.Module):
    """x -> quantize -> conv (so values have their own scale) -> fn(FloatFunctional, y) ->
    dequantize."""

    def __init__(self, fn):
        super().__init__()
        torch.manual_seed(3)
        self.quant = QuantStub()
        self.conv = nn.Conv2d(3, 3, 1)
        self.ff = torch.ao.nn.quantized.FloatFunctional()
        self.fn = fn
        self.dequant = DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        return self.dequant(self.fn(self.ff, x, self.conv(x)))


@pytest.mark.parametrize("name,fn,max_steps", [
    ("add", lambda ff, x, y: ff.add(x, y), 1),
    ("add_relu", lambda ff, x, y: ff.add_relu(x, y), 1),
    ("mul", lambda ff, x, y: ff.mul(x, y), 1),
    ("cat", lambda ff, x, y: ff.cat([x, y], dim=1), 1),
    ("add_scalar", lambda ff, x, y: ff.add_scalar(y, 0.5), 1),
    ("mul_scalar", lambda ff, x, y: ff.mul_scalar(y, 0.3), 1),
    ("mul_scalar negative", lambda ff, x, y: ff.mul_scalar(y, -0.3), 1),
])
def test_quantized_binary_ops(name, fn, max_steps):
    _check(Functional(fn), _input((1, 3, 8, 8)), max_steps=max_steps)


class Unary(nn.Module):
    def __init__(self, layer, conv=True):
        super().__init__()
        torch.manual_seed(4)
        self.quant = QuantStub()
        self.conv = nn.Conv2d(3, 4, 1) if conv else nn.Identity()
        self.layer = layer
        self.dequant = DeQuantStub()

    def forward(self, x):
        return self.dequant(self.layer(self.conv(self.quant(x))))


class Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


# Pooling on the int32 values truncates the average (TVM's apply_with_upcast) where PyTorch
# rounds it: half the values are one step lower (mean 0.5 steps).
@pytest.mark.parametrize("name,layer,max_steps", [
    ("relu", nn.ReLU(), 0),
    ("relu6", nn.ReLU6(), 0),
    ("hardtanh", nn.Hardtanh(-0.5, 0.5), 0),
    ("hardswish", nn.Hardswish(), 1),
    ("hardsigmoid", nn.Hardsigmoid(), 1),
    ("sigmoid", nn.Sigmoid(), 1),
    ("max_pool2d", nn.MaxPool2d(2), 0),
    ("avg_pool2d", nn.AvgPool2d(2), 1),
    ("adaptive_avg_pool2d", nn.AdaptiveAvgPool2d((1, 1)), 1),
    ("mean", Lambda(lambda x: x.mean(dim=(2, 3), keepdim=True)), 1),
    ("upsample bilinear", Lambda(lambda x: nn.functional.interpolate(
        x, scale_factor=2, mode="bilinear", align_corners=True)), 1),
    ("upsample nearest", Lambda(lambda x: nn.functional.interpolate(
        x, scale_factor=2, mode="nearest")), 0),
    ("flatten contiguous", Lambda(lambda x: torch.flatten(x.contiguous(), 1)), 0),
])
def test_quantized_unary_ops(name, layer, max_steps):
    mean_steps = 0.6 if "pool" in name else 0.5
    _check(Unary(layer), _input((1, 3, 8, 8)), max_steps=max_steps, mean_steps=mean_steps)


def test_quantized_module_graph_and_params():
    """TVM's graph: qnn.quantize of the input, the weight a float parameter quantized in the
    graph (named after the module, as TVM names it), qnn.conv2d, requantize, dequantize."""
    torch.manual_seed(1)
    traced = _quantize(ConvBn(), _input((1, 3, 12, 12)), fuse=lambda m: m.fuse())
    mod, params, _ = _run(traced, _input((1, 3, 12, 12)))
    text = mod.astext()
    for op in ("qnn.quantize", "qnn.conv2d", "qnn.requantize", "qnn.dequantize"):
        assert op in text
    # the packed params' attribute path without "._packed_params", as TVM names them
    weight, bias = "quant_wrap.module.0_weight", "quant_wrap.module.0_bias"
    assert sorted(params) == [bias, weight]
    assert params[weight].dtype == "float32"
    assert [p.name_hint for p in mod["main"].params] == ["input", weight, bias]


def test_keep_quantized_weight():
    """keep_quantized_weight: an int8 weight and an int32 bias quantized at import time (TVM's
    quantize_numpy); the output is the same as with the weights quantized in the graph."""
    torch.manual_seed(2)
    inp = _input((4, 16))
    traced = _quantize(Linear(), inp)
    _, params, reference = _run(traced, inp)
    mod, kept, got = _run(traced, inp, keep_quantized_weight=True)
    weight, bias = kept["quant_wrap.module.0._packed_params_weight"], kept["quant_wrap.module.0._packed_params_bias"]
    assert weight.dtype == "int8" and bias.dtype == "int32"
    float_weight = params["quant_wrap.module.0._packed_params_weight"].numpy()
    assert np.abs(weight.numpy()).max() > 0 and float_weight.shape == weight.shape
    assert "qnn.quantize(%fc" not in mod.astext()
    np.testing.assert_array_equal(got, reference)


def test_debug_executor_agrees_with_graph_executor():
    torch.manual_seed(1)
    inp = _input((1, 3, 12, 12))
    traced = _quantize(ConvBn(True), inp, per_channel=True, fuse=lambda m: m.fuse())
    _, _, graph_out = _run(traced, inp)
    _, _, debug_out = _run(traced, inp, executor="debug")
    np.testing.assert_array_equal(graph_out, debug_out)


def test_linear_dynamic():
    """quantize_dynamic's quantized::linear_dynamic: the input quantized at run time with
    PyTorch's reduce_range parameters (qmax 127), a float output. PyTorch computes the same
    integers; the outputs differ by float rounding only (measured: 1.2e-7)."""
    torch.manual_seed(5)
    model = nn.Sequential(nn.Linear(16, 8)).eval()
    quantized = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
    inp = _input((3, 16))
    traced = torch.jit.trace(quantized, inp)
    with torch.no_grad():
        expected = traced(inp).numpy()
    _, _, got = _run(traced, inp)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_unsupported_quantized_op_is_listed():
    """A quantized op with no converter (quantized::leaky_relu: TVM v0.13 has none either) is
    in the frontend's one error listing the missing conversions."""
    traced = _quantize(Unary(nn.LeakyReLU(0.1)), _input((1, 3, 8, 8)))
    with pytest.raises(NotImplementedError,
                       match=r"The following operators are not implemented: .*quantized::leaky_relu"):
        relay.frontend.from_pytorch(traced, [("input", (1, 3, 8, 8))])


class SmallNet(nn.Module):
    """A small quantized CNN with resnet18's quantized ops: conv-bn-relu, max pool, a residual
    add_relu, adaptive average pooling, flatten and a linear classifier."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(6)
        self.quant = QuantStub()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.skip = torch.ao.nn.quantized.FloatFunctional()
        self.avg = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 10)
        self.dequant = DeQuantStub()

    def forward(self, x):
        x = self.pool(self.conv1(self.quant(x)))
        x = self.skip.add_relu(x, self.conv2(x))
        return self.dequant(self.fc(torch.flatten(self.avg(x), 1)))

    def fuse(self):
        for block in (self.conv1, self.conv2):
            fuse_modules(block, ["0", "1", "2"], inplace=True)


@pytest.mark.parametrize("per_channel", [False, True])
def test_small_quantized_model_after_build(per_channel):
    """relay.build at opt level 3 and the graph executor, as TVM's qnn_test runs its models:
    the same top-1 as PyTorch's int8 model, within two output steps, and the debug executor
    computes the same values as the built module."""
    import relaypass as tvm
    from relaypass.contrib import graph_executor

    inp = _input((2, 3, 16, 16), seed=3)
    traced = _quantize(SmallNet(), inp, per_channel=per_channel, fuse=lambda m: m.fuse())
    with torch.no_grad():
        expected = traced(inp).numpy()
    mod, params = relay.frontend.from_pytorch(traced, [("input", (2, 3, 16, 16))])
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm", params=params)
    runner = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    runner.set_input("input", inp.numpy())
    runner.run()
    built = runner.get_output(0).numpy()
    scale = _output_scale(traced)
    assert np.abs(built - expected).max() <= 2 * scale + 1e-6
    np.testing.assert_array_equal(np.argmax(built, axis=1), np.argmax(expected, axis=1))
    debug = relay.create_executor("debug", mod=mod).evaluate()(inp.numpy(), **params).numpy()
    np.testing.assert_array_equal(debug, built)


def test_fx_quantized_module():
    """An FX-quantized module (prepare_fx / convert_fx) passes aten::quantize_per_tensor its
    scale and zero point as module attributes, inlined as constants (TVM's
    inline_input_quant_params_for_fx); the output agrees with PyTorch's within one step."""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    torch.manual_seed(8)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Flatten(),
                          nn.Linear(4 * 8 * 8, 5)).eval()
    inp = _input((1, 3, 8, 8))
    prepared = prepare_fx(model, get_default_qconfig_mapping("fbgemm"), example_inputs=(inp,))
    prepared(inp)
    traced = torch.jit.trace(convert_fx(prepared), inp)
    with torch.no_grad():
        expected = traced(inp).numpy()
    _, _, got = _run(traced, inp)
    assert np.abs(got - expected).max() <= _output_scale(traced) + 1e-6
