"""Random draws: aten::randn and aten::multinomial as TVM's converters (a Threefry key from a
seed TVM takes at import time: the current time for randn, a NumPy draw for multinomial)."""
import time

import numpy as np

from ... import expr as _expr
from ... import op as _op
from .registry import converter


@converter("aten::randn", needs=("random.normal",))
def randn(ctx, inputs, input_types):
    output = _op.random.normal(_op.random.threefry_key(int(time.time())), inputs[0])
    _, values = _expr.TupleWrapper(output, 2)
    return values


@converter("aten::multinomial", needs=("random.multinomial",))
def multinomial(ctx, inputs, input_types):
    probs, num_samples = inputs[0], inputs[1]
    replacement = inputs[2] if inputs[2] else True
    if replacement is False and num_samples > 1:
        raise NotImplementedError("Multinomial without replacement is not yet supported.")
    key = _op.random.threefry_key(np.random.randint(1e6))
    _, indices = _expr.TupleWrapper(_op.random.multinomial(key, probs, num_samples), 2)
    return indices
