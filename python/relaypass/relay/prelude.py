"""tvm.relay.prelude: the Prelude (TVM's List, Option and Tree ADTs and the functions over them,
relay/std_library.py) loaded into a module. Tensor arrays (TensorArrayOps) are not there yet."""
from .._errors import OpNotImplemented

# TVM's Prelude.load_prelude: the globals it sets as attributes.
_GLOBAL_DEFS = [
    "id", "compose", "flip", "hd", "tl", "nth", "update", "map", "foldl", "foldr", "foldr1",
    "concat", "filter", "zip", "rev", "map_accuml", "map_accumr", "unfoldl", "unfoldr", "sum",
    "length", "tmap", "size", "iterate",
]


class Prelude:
    """TVM's Prelude: ``Prelude(mod)`` imports prelude.rly into ``mod`` (a new module if None)."""

    def __init__(self, mod=None):
        from ..ir import IRModule

        if mod is None:
            mod = IRModule()
        self.mod = mod
        self.load_prelude()

    def load_prelude(self):
        """Parses the Prelude into the module (once) and sets its names as attributes."""
        self.mod.import_from_std("prelude.rly")
        for name in _GLOBAL_DEFS:
            setattr(self, name, self.mod.get_global_var(name))
        self.l, self.cons, self.nil = self.mod.get_type("List")
        self.optional, self.some, self.none = self.mod.get_type("Option")
        self.tree, self.rose = self.mod.get_type("Tree")

    def get_name(self, canonical, dtype):
        """TVM's name of a tensor array definition for ``dtype``: not there in relaypass."""
        raise OpNotImplemented("Prelude.get_name: relaypass's Prelude has no tensor arrays "
                               "(%s, %s)" % (canonical, dtype))

    def get_global_var(self, canonical, dtype):
        """A tensor array function: not there in relaypass (see get_name)."""
        return self.get_name(canonical, dtype)

    def get_type(self, canonical, dtype):
        """A tensor array type: not there in relaypass (see get_name)."""
        return self.get_name(canonical, dtype)

    def get_ctor(self, ty_name, canonical, dtype):
        """A tensor array constructor: not there in relaypass (see get_name)."""
        return self.get_name(canonical, dtype)

    def get_var(self, canonical, dtype):
        """A tensor array function or constructor: not there in relaypass (see get_name)."""
        return self.get_name(canonical, dtype)


class TensorArrayOps:
    """TVM's tensor array definitions for a dtype: not there in relaypass yet."""

    def __init__(self, prelude, dtype):
        raise OpNotImplemented("relay.prelude.TensorArrayOps: relaypass's Prelude has no tensor "
                               "arrays (dtype %s)" % dtype)


class StaticTensorArrayOps:
    """TVM's static-shape tensor array definitions: not there in relaypass yet."""

    def __init__(self, prelude, dtype, shape, batch_dim=None):
        raise OpNotImplemented("relay.prelude.StaticTensorArrayOps: relaypass's Prelude has no "
                               "tensor arrays (dtype %s, shape %s)" % (dtype, shape))
