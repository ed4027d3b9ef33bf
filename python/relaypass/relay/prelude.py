"""tvm.relay.prelude: the Prelude (TVM's List, Option and Tree ADTs and the functions over them,
relay/std_library.py) loaded into a module, with TVM's tensor arrays for nine dtypes
(TensorArrayOps, _tensor_array.py) and the fixed-rank ones built on request
(StaticTensorArrayOps, _static_tensor_array.py)."""
from ._tensor_array import TensorArrayOps  # noqa: F401
from ._static_tensor_array import (  # noqa: F401
    StaticTensorArrayOps,
    get_tensor_array_shape,
    get_name_static as _get_name_static,
)

# TVM's Prelude.load_prelude: the globals it sets as attributes.
_GLOBAL_DEFS = [
    "id", "compose", "flip", "hd", "tl", "nth", "update", "map", "foldl", "foldr", "foldr1",
    "concat", "filter", "zip", "rev", "map_accuml", "map_accumr", "unfoldl", "unfoldr", "sum",
    "length", "tmap", "size", "iterate",
]

# The dtypes load_prelude registers tensor arrays for, in TVM's order.
_TENSOR_ARRAY_DTYPES = ["float32", "float16", "float64", "int32", "uint8", "int8", "int16",
                        "uint16", "int64"]


def _find_ctor(mod, ty_name, name):
    # TVM searches IRModule.get_type's tuple, whose first item is the GlobalTypeVar: asking for
    # the type's own name gives the type (the tensor_array definitions rely on that).
    for item in mod.get_type(ty_name):
        if item.name_hint == name:
            return item
    raise Exception(f"could not find {name}")  # pylint: disable=broad-exception-raised


class Prelude:
    """TVM's Prelude: ``Prelude(mod)`` imports prelude.rly into ``mod`` (a new module if None)
    and registers the tensor arrays."""

    def __init__(self, mod=None):
        from ..ir import IRModule

        if mod is None:
            mod = IRModule()
        self.mod = mod
        self.load_prelude()

    def get_name(self, canonical, dtype):
        """The name of a tensor array definition: ``tensor_<dtype>_t`` for the ADT,
        ``<canonical>_<dtype>`` otherwise."""
        if canonical == "tensor_t":
            return "tensor_{}_t".format(dtype)
        return "{}_{}".format(canonical, dtype)

    def get_global_var(self, canonical, dtype):
        """The GlobalVar of a tensor array function."""
        return self.mod.get_global_var(self.get_name(canonical, dtype))

    def get_type(self, canonical, dtype):
        """The GlobalTypeVar of a tensor array ADT."""
        return self.mod.get_global_type_var(self.get_name(canonical, dtype))

    def get_ctor(self, ty_name, canonical, dtype):
        """The constructor ``get_name(canonical, dtype)`` of the ADT named ty_name."""
        return _find_ctor(self.mod, ty_name, self.get_name(canonical, dtype))

    def get_var(self, canonical, dtype):
        """The GlobalVar of a tensor array function (get_global_var)."""
        return self.get_global_var(canonical, dtype)

    def get_tensor_ctor(self, canonical, dtype):
        """A constructor of ``tensor_<dtype>_t``."""
        ty = self.get_type("tensor_t", dtype)
        return self.get_ctor(ty.name_hint, canonical, dtype)

    def get_name_static(self, canonical, dtype, shape, batch_dim=None):
        """The name of a fixed-rank tensor array definition (TVM's _get_name_static)."""
        return _get_name_static(canonical, dtype, shape, batch_dim)

    def get_global_var_static(self, canonical, dtype, shape, batch_dim=None):
        """The GlobalVar of a fixed-rank tensor array function."""
        return self.mod.get_global_var(
            self.get_name_static(canonical, dtype, shape, batch_dim))

    def get_type_static(self, canonical, dtype, shape):
        """The GlobalTypeVar of a fixed-rank tensor array ADT."""
        return self.mod.get_global_type_var(self.get_name_static(canonical, dtype, shape))

    def get_ctor_static(self, ty_name, name, dtype, shape):
        """A constructor of the fixed-rank ADT of ``shape``."""
        return _find_ctor(self.mod, self.get_name_static(ty_name, dtype, shape),
                          self.get_name_static(name, dtype, shape))

    def get_tensor_ctor_static(self, name, dtype, shape):
        """A constructor of ``static_tensor_<dtype>_<dims>_t``."""
        return self.get_ctor_static("tensor_t", name, dtype, shape)

    def load_prelude(self):
        """Parses the Prelude into the module (once), sets its names as attributes and
        registers the tensor arrays of nine dtypes."""
        self.mod.import_from_std("prelude.rly")
        for name in _GLOBAL_DEFS:
            setattr(self, name, self.mod.get_global_var(name))
        self.l, self.cons, self.nil = self.mod.get_type("List")
        self.optional, self.some, self.none = self.mod.get_type("Option")
        self.tree, self.rose = self.mod.get_type("Tree")
        for dtype in _TENSOR_ARRAY_DTYPES:
            TensorArrayOps(self, dtype).register()
