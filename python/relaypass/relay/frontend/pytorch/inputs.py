"""The Relay variables of the graph's inputs, from ``input_infos`` (TVM's checks and messages)."""
from ....ir import structural_equal
from ... import expr as _expr
from ...ty import TensorType, TupleType
from .dtypes import convert_data_type


def _is_int_seq(seq):
    return len(seq) > 0 and all(isinstance(i, int) for i in seq)


def _normalize(input_infos, default_dtype):
    """[(name, (shape, dtype))] from TVM's two spellings: (name, shape), (name, (shape, dtype))."""
    if not isinstance(input_infos, list):
        raise RuntimeError("Graph inputs input_infos should be a list")
    normalized = []
    for num, info in enumerate(input_infos):
        if not isinstance(info, tuple):
            raise RuntimeError("Graph input {} is not a tuple".format(num))
        if len(info) != 2 or not isinstance(info[0], str):
            raise RuntimeError(
                "Graph input {} is not valid, expected ('name', shape) or "
                "('name', (shape, dtype))".format(info))
        spec = info[1]
        if not isinstance(spec, tuple) or len(spec) == 0 or not isinstance(spec[-1], str):
            normalized.append((info[0], (spec, default_dtype)))
        else:
            normalized.append(info)
    return normalized


def _relay_type(name, shape, dtype, torch_type, default_dtype, list_type):
    kind = torch_type.kind()
    if kind == "TensorType":
        shape = [int(d) for d in shape] if _all_ints(shape) else shape
        if not (_is_int_seq(shape) or len(shape) == 0):
            raise RuntimeError("Shape for Tensors must be lists of ints (input '{}')".format(name))
        if (torch_type.dim() is not None and torch_type.dim() != len(shape)) or (
                torch_type.sizes() is not None
                and any(s1 != s2 for s1, s2 in zip(torch_type.sizes(), shape))):
            raise RuntimeError(
                "Shapes of input list and information in the graph do not match (input '{}': "
                "{} given, the graph has {})".format(name, list(shape), torch_type.sizes()))
        if len(shape) > 1 and any(d <= 0 for d in shape[1:]):
            raise RuntimeError(
                "Expected input's non-batch dimensions to have positive length, but input has a "
                "shape of {} (input '{}')".format(torch_type.sizes(), name))
        scalar = torch_type.scalarType() or dtype
        return TensorType(shape, convert_data_type(scalar, default_dtype=default_dtype))
    if kind == "TupleType":
        if not isinstance(shape, tuple):
            raise RuntimeError("Shapes for tuples must be tuples (input '{}')".format(name))
        return TupleType([
            _relay_type(name, s, dtype, t, default_dtype, list_type)
            for s, t in zip(shape, torch_type.elements())])
    if kind == "OptionalType":
        return _relay_type(name, shape, dtype, torch_type.getElementType(), default_dtype,
                           list_type)
    if kind == "ListType":
        # As TVM: the Prelude's List of the elements' one type (a list of shapes in input_infos).
        if not isinstance(shape, list) or not shape:
            raise RuntimeError("Shapes for lists must be non-empty lists (input '{}')".format(name))
        element_types = [_relay_type(name, s, dtype, torch_type.getElementType(), default_dtype,
                                     list_type) for s in shape]
        if any(not structural_equal(t, element_types[0]) for t in element_types):
            raise RuntimeError("List elements need have identical types (input '{}')".format(name))
        return list_type(element_types[0])
    raise NotImplementedError("unsupported input type (input '{}': {})".format(name, kind))


def _all_ints(shape):
    try:
        return all(int(d) == d for d in shape)
    except (TypeError, ValueError):
        return False


def input_vars(graph, input_infos, is_module, default_dtype, list_type):
    """{graph input debug name: Relay var named as in input_infos}; ``list_type(element type)``
    gives the type of a list input (the Prelude's List)."""
    graph_inputs = list(graph.inputs())
    if is_module:
        graph_inputs = graph_inputs[1:]  # "self"
    infos = _normalize(input_infos, default_dtype)
    if len(graph_inputs) != len(infos):
        raise RuntimeError("PyTorch has {} inputs and input_infos lists {}.".format(
            len(graph_inputs), len(infos)))
    found = {}
    for value, (name, (shape, dtype)) in zip(graph_inputs, infos):
        shape = tuple(shape) if not isinstance(shape, tuple) and \
            value.type().kind() == "TensorType" else shape
        found[value.debugName()] = _expr.var(
            name, type_annotation=_relay_type(name, shape, dtype, value.type(), default_dtype,
                                              list_type))
    return found
