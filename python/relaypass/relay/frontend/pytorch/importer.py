"""relay.frontend.from_pytorch: a TorchScript module or function as a Relay module, as TVM v0.13
converts it."""
import datetime
import os

from ... import analysis
from ... import expr as _expr
from ...function import Function
from ....ir import IRModule
from . import errors, qnn_graph
from .context import ConversionContext
from .convert import NodeConverter, _to_tuple
from .graph import (SourceNames, all_op_names, input_names, run_jit_passes)
from .inputs import input_vars
from .params import convert_params
from .table import build_convert_map

def from_pytorch(script_module, input_infos, custom_convert_map=None, default_dtype="float32",
                 use_parser_friendly_name=False, keep_quantized_weight=False,
                 export_renamed_c_graph_path=None):
    """Load a TorchScript module (torch.jit.trace or torch.jit.script) or traced function as a
    Relay module, as TVM v0.13's relay.frontend.from_pytorch.

    input_infos: [(name, shape)] or [(name, (shape, dtype))], one per graph input in order; main
    takes the inputs under these names. custom_convert_map: {op kind: fn(inputs, input_types)}
    over the built-in converters. default_dtype: the dtype of values whose type TorchScript does
    not give. use_parser_friendly_name: '_' instead of '.' in parameter names.
    keep_quantized_weight: for a quantized module, the weights as int8 parameters (and the biases
    as int32) quantized at import time, instead of float parameters quantized in the graph.
    export_renamed_c_graph_path: a folder to write the renamed TorchScript graph to.

    Returns (mod, params): main's parameters are the inputs, then the module's weights, whose
    NDArrays params holds by name (``aten::_convolution_0.weight``).
    """
    import torch

    if not isinstance(script_module, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
        raise TypeError(
            "from_pytorch takes a TorchScript module or function (torch.jit.trace or "
            "torch.jit.script), not {}".format(type(script_module).__name__))
    graph = script_module.graph.copy()
    takes_sequences = any(
        value.type().kind() in ("TupleType", "ListType") for value in graph.inputs())
    run_jit_passes(graph, lower_all_tuples=not takes_sequences)

    ctx = ConversionContext(default_dtype)
    convert_map = build_convert_map(ctx, custom_convert_map)
    op_names = all_op_names(graph)
    errors.report_missing_conversion(op_names, convert_map)

    is_module = isinstance(script_module, torch.jit.ScriptModule)
    state_dict = script_module.state_dict() if is_module else {}
    if use_parser_friendly_name:
        state_dict = {key.replace(".", "_"): value for key, value in state_dict.items()}
    outputs = input_vars(graph, input_infos, is_module, default_dtype,
                         list_type=lambda element: ctx.prelude.l(element))
    source_names = SourceNames(graph, use_parser_friendly_name)
    param_vars, tensors, packed_param_map = convert_params(
        graph, state_dict, source_names, use_parser_friendly_name)
    outputs.update(param_vars)
    if qnn_graph.is_quantized_graph(op_names):
        ctx.quantized = True
        _prepare_quantized(script_module, graph, outputs, tensors, packed_param_map,
                           keep_quantized_weight)

    converter = NodeConverter(ctx, convert_map)
    results = converter.convert_nodes(graph.nodes(), outputs, input_names(graph.return_node()))
    results = [_to_tuple(r) if isinstance(r, (list, _expr.TupleWrapper)) else r for r in results]
    body = results[0] if len(results) == 1 else _expr.Tuple(results)

    # With run-time lists, main lives beside the Prelude it calls (TVM's module always holds it).
    mod = ctx.maybe_prelude.mod if ctx.maybe_prelude is not None else IRModule()
    mod["main"] = Function(_main_params(body, input_infos, tensors), body)
    if export_renamed_c_graph_path:
        _export_graph(export_renamed_c_graph_path, graph)
    return mod, tensors


def _prepare_quantized(script_module, graph, outputs, tensors, packed_param_map,
                       keep_quantized_weight):
    """TVM's steps for a quantized module: unpack the packed weights, append each quantized
    op's input scale and zero point to its inputs, bind the packed-param values to the
    (quantized) weights and add the weights to the params."""
    weight_quant_params = qnn_graph.get_weight_quant_params(
        script_module, packed_param_map.values())
    qnn_graph.inline_input_quant_params_for_fx(graph, script_module.state_dict())
    input_scales_for_bias = qnn_graph.add_input_quant_params_to_op_inputs(graph)
    qnn_graph.add_quant_params_to_outputs(outputs, packed_param_map, weight_quant_params,
                                          input_scales_for_bias, keep_quantized_weight)
    qnn_graph.add_quant_params(tensors, weight_quant_params)


def _main_params(body, input_infos, tensors):
    """The data inputs in input_infos' order, then the parameters in first-use order."""
    data, weights = [], []
    for var in analysis.free_vars(body):
        (weights if var.name_hint in tensors else data).append(var)
    order = {info[0]: i for i, info in enumerate(input_infos)}
    data.sort(key=lambda var: order.get(var.name_hint, len(order)))
    return data + weights


def _export_graph(location, graph):
    os.makedirs(location, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%m_%d_%Y_%H_%M_%S")
    with open(os.path.join(location, "tvm_exported_c_graph_{}.txt".format(stamp)), "w") as f:
        f.write(str(graph))
