"""relay.testing: TVM's workloads with TVM's structure and parameters (mlp, resnet, resnet_3d,
dqn, dcgan, mobilenet, lstm, inception_v3, squeezenet, vgg, densenet, synthetic; byoc's
annotator is imported on demand, as in TVM), TVM's parameter initializers (init:
create_workload), the YOLO box helpers (yolo_detection) and its test helpers."""
from . import mlp, resnet, resnet_3d, dqn, dcgan, mobilenet, lstm  # noqa: F401
from . import inception_v3, squeezenet, vgg, densenet  # noqa: F401
from . import init, layers, synthetic, temp_op_attr, yolo_detection  # noqa: F401
from .init import create_workload  # noqa: F401


def run_opt_pass(expr, opt_pass, import_prelude=False):
    """``opt_pass`` applied to ``expr`` after InferType (relay.testing.run_opt_pass): the
    function, or the body when ``expr`` is not a function."""
    from ... import IRModule, transform
    from .. import transform as relay_transform
    from ..expr import Function

    assert isinstance(opt_pass, transform.Pass)
    mod = IRModule.from_expr(expr)
    mod = relay_transform.InferType()(mod)
    mod = opt_pass(mod)
    entry = mod["main"]
    return entry if isinstance(expr, Function) else entry.body


def run_infer_type(expr):
    """``expr`` with its types inferred (relay.testing.run_infer_type)."""
    from .. import transform as relay_transform

    return run_opt_pass(expr, relay_transform.InferType())


from ...testing.utils import enabled_targets  # noqa: F401,E402


from .grad_check import _np_randn_from_type, check_grad  # noqa: F401,E402
from .helpers import count_ops, rand  # noqa: F401,E402
from .nat import count, make_nat_value, make_nat_expr  # noqa: F401,E402
from ..prelude import Prelude  # noqa: F401,E402 (TVM's relay.testing imports it)
from ..transform import gradient  # noqa: F401,E402 (as TVM's relay.testing)
