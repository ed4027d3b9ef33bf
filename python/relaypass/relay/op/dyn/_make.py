"""tvm.relay.op.dyn._make: TVM's constructors of the dyn.* calls, with its positional signatures."""
from .._make import call


def reshape(data, newshape, allowzero=False):
    return call("dyn.reshape", [data, newshape], allowzero=bool(allowzero))


def broadcast_to(data, shape):
    return call("dyn.broadcast_to", [data, shape])


def zeros(shape, dtype):
    return call("dyn.zeros", [shape], dtype=dtype)


def ones(shape, dtype):
    return call("dyn.ones", [shape], dtype=dtype)


def full(fill_value, shape, dtype):
    return call("dyn.full", [fill_value, shape], dtype=dtype)


def tile(data, reps):
    return call("dyn.tile", [data, reps])


def expand_dims(data, axis, num_newaxis=1):
    return call("dyn.expand_dims", [data, axis], num_newaxis=int(num_newaxis))


def squeeze(data, axes):
    return call("dyn.squeeze", [data, axes])


def strided_slice(data, begin, end, strides, slice_mode="end"):
    return call("dyn.strided_slice", [data, begin, end, strides], slice_mode=slice_mode)


def one_hot(indices, on_value, off_value, depth, axis, dtype):
    return call("dyn.one_hot", [indices, on_value, off_value, depth], axis=axis, dtype=dtype)


def topk(data, k, axis, ret_type, is_ascend, dtype):
    return call("dyn.topk", [data, k], axis=axis, ret_type=ret_type, is_ascend=is_ascend,
                dtype=dtype)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value):
    return call("dyn.sparse_to_dense", [sparse_indices, sparse_values, default_value, output_shape])
