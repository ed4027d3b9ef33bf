"""tvm.relay.data_dep_optimization.simplify_fc_transpose: ``nn.dense(x, transpose(w))`` with a
parameter ``w`` becomes ``nn.dense(x, w.T)``, ``w.T`` a new parameter holding w transposed."""
import numpy as np

from ... import nd
from ...ir import IRModule
from .. import transform
from ..analysis import search_fc_transpose


def convert(func, params):
    """Returns ``(new_func, params)``: every weight ``w`` found by search_fc_transpose is
    replaced by a parameter named ``w.T``, and ``params`` (changed in place, as TVM does) gets
    ``params["w.T"]`` = w transposed and loses ``params["w"]``."""
    weight_info = search_fc_transpose(func)
    for name in weight_info:
        w_np = params[name].numpy()
        params[name + ".T"] = nd.array(np.transpose(w_np, axes=[1, 0]))
        del params[name]
    new_func = transform.SimplifyFCTranspose(weight_info)(IRModule.from_expr(func))["main"]
    return new_func, params
