"""PyTorch's types in Relay terms: scalar type names and numeric ids to dtypes, the dtype of each
input of a node, typed scalar constants, and PyTorch's type promotion (torch.result_type)."""
import numpy as np

from ... import expr as _expr

_DTYPE_NAMES = {
    "float64": ("double", "float64", "torch.float64"),
    "float32": ("float", "float32", "torch.float32"),
    "float16": ("half", "float16", "torch.float16"),
    "int64": ("long", "int64", "torch.int64"),
    "int32": ("int", "int32", "torch.int32"),
    "int16": ("short", "int16", "torch.int16"),
    "int8": ("char", "int8", "torch.int8"),
    "uint8": ("byte", "uint8", "torch.uint8"),
    "quint8": ("quint8", "torch.quint8"),
    "qint8": ("qint8", "torch.qint8"),
    "qint32": ("qint32", "torch.qint32"),
    "bool": ("bool", "torch.bool"),
    "str": ("str",),
}
_DTYPE_BY_NAME = {alias: dtype for dtype, aliases in _DTYPE_NAMES.items() for alias in aliases}

# PyTorch's ScalarType ids, as TorchScript constants carry them (None: torch's default, int64).
_DTYPE_BY_ID = {
    11: "bool",
    7: "float64",
    6: "float32",
    5: "float16",
    4: "int64",
    3: "int32",
    2: "int16",
    1: "int8",
    0: "uint8",
    None: "int64",
}


def convert_data_type(input_type, default_dtype=None):
    """A PyTorch scalar type name (``Float``, ``torch.int64``, ``long``) as a dtype;
    ``default_dtype`` when ``input_type`` is None."""
    if input_type is None and default_dtype is not None:
        return default_dtype
    dtype = _DTYPE_BY_NAME.get(str(input_type).lower())
    if dtype is None:
        raise NotImplementedError("input_type {} is not handled yet".format(input_type))
    return dtype


def convert_dtype_value(value):
    """A PyTorch ScalarType id (6 for float32) as a dtype."""
    if value not in _DTYPE_BY_ID:
        raise NotImplementedError("Torch data type value {} is not handled yet.".format(value))
    return _DTYPE_BY_ID[value]


def typed_const(value, dtype):
    """A scalar constant of ``dtype`` (a float or integer dtype)."""
    if dtype not in ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8"):
        raise NotImplementedError("input_type {} is not handled yet".format(dtype))
    return _expr.const(np.dtype(dtype).type(value), dtype=dtype)


def value_type(torch_type, default_dtype="float32"):
    """What TVM's converters see as the type of a TorchScript value: a dtype for tensors and
    scalars, ``ListType``, the lower-cased type for optionals, ``UnsupportedType`` otherwise."""
    kind = torch_type.kind()
    if kind == "TensorType":
        scalar = torch_type.scalarType()
        return default_dtype if scalar is None else convert_data_type(scalar)
    if kind == "ListType":
        return "ListType"
    if kind == "OptionalType":
        return str(torch_type).lower()
    if kind in ("IntType", "FloatType", "BoolType", "StringType"):
        return convert_data_type(str(torch_type).lower())
    return "UnsupportedType"


def node_input_types(node, outputs, default_dtype="float32"):
    """The type of each input of ``node``; a parameter (prim::GetAttr) has its variable's dtype."""
    types = []
    for value in node.inputs():
        if value.node().kind() == "prim::GetAttr":
            converted = outputs.get(value.debugName())
            if isinstance(converted, _expr.Var):
                types.append(converted.type_annotation.dtype)
            else:
                types.append(default_dtype)
        else:
            types.append(value_type(value.type(), default_dtype))
    return types


_TORCH_DTYPES = (
    "float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")


def result_type(tensor_dtypes, scalars):
    """torch.result_type over tensors of ``tensor_dtypes`` and the Python scalars ``scalars``."""
    import torch

    def torch_dtype(dtype):
        if dtype not in _TORCH_DTYPES:
            raise NotImplementedError("input_type {} is not handled yet".format(dtype))
        return getattr(torch, dtype)

    if tensor_dtypes:
        result = tensor_dtypes[0]
        for dtype in tensor_dtypes[1:]:
            if dtype != result:
                promoted = torch.result_type(
                    torch.zeros((), dtype=torch_dtype(result)),
                    torch.zeros((), dtype=torch_dtype(dtype)))
                result = convert_data_type(str(promoted))
    else:
        result = "bool"  # the smallest type: scalars promote it
    for scalar in scalars:
        promoted = torch.result_type(torch.zeros((), dtype=torch_dtype(result)), scalar)
        result = convert_data_type(str(promoted))
    return result
