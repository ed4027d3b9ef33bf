"""tvm.topi.utils: get_const_tuple, the one helper TVM's Relay tests use from it."""


def get_const_tuple(in_tuple):
    """The integers of a shape (ints, IntImm, or anything int() accepts) as a tuple."""
    return tuple(int(v) for v in in_tuple)
