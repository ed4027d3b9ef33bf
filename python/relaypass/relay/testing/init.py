"""relay.testing.init: TVM's parameter initializers and create_workload, in Python for any
network (the built-in ResNet / MobileNet workloads use the C++ twin, workloads/init.cc, which
draws the same numbers)."""
import numpy as np


class Initializer:
    """Fills an array by its parameter's name: ``*weight`` by _init_weight, ``*bias``,
    ``*beta``, ``*mean`` with 0, ``*gamma``, ``*var`` with 1; any other name is a ValueError."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def __call__(self, desc, arr):
        for suffix, init in (("weight", self._init_weight), ("bias", self._init_bias),
                             ("gamma", self._init_gamma), ("beta", self._init_beta),
                             ("mean", self._init_mean), ("var", self._init_var)):
            if desc.endswith(suffix):
                init(desc, arr)
                return
        self._init_default(desc, arr)

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_mean(self, _, arr):
        arr[:] = 0.0

    def _init_var(self, _, arr):
        arr[:] = 1.0

    def _init_weight(self, name, arr):
        raise NotImplementedError("Must override it")

    def _init_default(self, name, _):
        raise ValueError(
            "Unknown initialization pattern for %s. Default initialization is now limited to "
            '"weight", "bias", "gamma" (1.0), and "beta" (0.0).'
            "Please use mx.sym.Variable(init=mx.init.*) to set initialization pattern" % name)


class Xavier(Initializer):
    """Xavier initialization of weights: uniform in [-s, s], s = sqrt(magnitude / factor), the
    factor being the mean ("avg"), fan in ("in") or fan out ("out") of the weight (the kernel
    area alone for a name containing "depthwise"), drawn from NumPy's global random stream."""

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError("Xavier initializer cannot be applied to vector {0}. It requires "
                             "at least 2D.".format(name))
        hw_scale = np.prod(shape[2:]) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        factors = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}
        if self.factor_type not in factors:
            raise ValueError("Incorrect factor type")
        factor = hw_scale if "depthwise" in name else factors[self.factor_type]
        scale = np.sqrt(self.magnitude / factor)
        if self.rnd_type != "uniform":
            raise ValueError("Unknown random type")
        _fill_uniform(arr, -scale, scale)


# Elements drawn per np.random.uniform call by _fill_uniform.
_CHUNK = 1 << 18


def _fill_uniform(arr, low, high):
    """``arr[:] = np.random.uniform(low, high, size=arr.shape)`` in chunks: the legacy stream
    gives each element one double in order, so the numbers are the same, without the float64
    copy of the whole array (VGG's 100M-element fc6 weight fills about twice as fast)."""
    flat = arr.reshape(-1)
    if not arr.flags.c_contiguous or flat.size <= _CHUNK:
        arr[:] = np.random.uniform(low, high, size=arr.shape)
        return
    for start in range(0, flat.size, _CHUNK):
        stop = min(start + _CHUNK, flat.size)
        flat[start:stop] = np.random.uniform(low, high, size=stop - start)


class Constant(Initializer):
    """Every weight element 1 / (the weight's element count), so a weight sums to 1."""

    def _init_weight(self, name, arr):
        arr[:] = 1.0 / int(np.prod(arr.shape))


def create_workload(net, initializer=None, seed=0):
    """(mod, params): ``net`` (a relay.Function) as a type-inferred module's "main", and a value
    for each of its parameters but "data", made by ``initializer`` (default Xavier()) after
    ``np.random.seed(seed)`` (NumPy's global stream, as TVM does), as NDArrays on cpu(0)."""
    from ... import nd
    from ...ir import IRModule
    from .. import transform

    mod = transform.InferType()(IRModule.from_expr(net))
    np.random.seed(seed)
    initializer = initializer if initializer else Xavier()
    # One value per name, as TVM's dict of name -> type: a repeated name (lstm's "data") keeps
    # its first place and its last type.
    types = {}
    for param in mod["main"].params:
        types[param.name_hint] = param.checked_type
    params = {}
    for name, ty in types.items():
        if name == "data":
            continue
        value = np.zeros(ty.concrete_shape, dtype=ty.dtype)
        initializer(name, value)
        params[name] = nd.array(value, device=nd.cpu(0))
    return mod, params
