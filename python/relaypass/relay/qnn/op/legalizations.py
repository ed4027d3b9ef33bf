"""The float reference functions of TVM's relay.qnn.op.legalizations that its tests import."""
import numpy as np


def hardswish_func(x):
    """x * relu6(x + 3) / 6, as TVM's NumPy reference of qnn.hardswish."""
    x2 = np.clip(x + 3.0, 0.0, 6.0)
    return x * x2 / 6.0
