"""Lists built at run time as TVM's from_pytorch builds them: the Prelude's List ADT.

A `prim::ListConstruct` stays a Python list (its items known at import) unless TVM's rule
(_should_construct_dynamic_list in TVM's pytorch.py) says it changes at run time: it is carried
through a `prim::Loop` and indexed there, or grown by `aten::add` into a list. Such a list
becomes `Cons(..., Nil)`; list + list is the Prelude's `concat`, `list[i]` its `nth`, `len` its
`length`; `aten::stack` and `aten::cat` of one go through the static tensor arrays (a
`tensor_constructor` mapped over the list, `tensor_array_stack` / `tensor_array_concat`,
`tensor_get_data`), whose result has a `?` first extent. TVM's tensor arrays are float32 only;
here they take the elements' dtype."""
from ... import expr as _expr
from ...expr import Any
from .graph import users


def _uses_of(value):
    return [use.user for use in value.uses()]


def should_construct_dynamic_list(node):
    """TVM's rule: a list constructed here is an ADT when it (or the loop variable it becomes)
    is read by `aten::__getitem__` together with other list ops, or grown by an `aten::add`
    whose result is a list."""
    uses = users(node)
    for loop in [user for user in uses if user.kind() == "prim::Loop"]:
        offsets = [i for i, value in enumerate(loop.inputs()) if value.node() == node]
        block_inputs = list(list(loop.blocks())[0].inputs())
        for offset in offsets:
            uses += _uses_of(block_inputs[offset - 1])
    kinds = {"aten::add" if user.kind() == "aten::add_" else user.kind() for user in uses}
    found = {"aten::add", "aten::__getitem__"} & kinds
    if found and found != {"aten::add"}:
        return True
    return any(user.kind() in ("aten::add", "aten::add_") and
               user.output().type().kind() == "ListType" for user in uses)


def is_adt_list(value):
    """A run-time list (an expression of List type), as opposed to a Python list of items."""
    return isinstance(value, _expr.Expr) and not isinstance(value, _expr.Tuple)


def to_list_adt(ctx, items):
    """Cons(items[0], Cons(items[1], ... Nil)) of the Prelude's List."""
    prelude = ctx.prelude
    result = prelude.nil()
    for item in reversed(items):
        result = prelude.cons(item, result)
    return result


def as_list_adt(ctx, value):
    return value if is_adt_list(value) else to_list_adt(ctx, list(value))


def concat(ctx, lhs, rhs):
    """list + list where either side is a run-time list."""
    return ctx.prelude.concat(as_list_adt(ctx, lhs), as_list_adt(ctx, rhs))


def nth(ctx, lst, index):
    index = index if isinstance(index, _expr.Expr) else _expr.const(int(index), "int32")
    return ctx.prelude.nth(lst, index)


def length(ctx, lst):
    return ctx.prelude.length(lst)


def _element_type(ctx, lst):
    element = ctx.infer_type(ctx.prelude.hd(lst))
    if not hasattr(element, "shape"):
        raise NotImplementedError("stacking a run-time list of {} (not tensors) is not "
                                  "supported".format(element))
    return tuple(int(d) for d in element.shape), str(element.dtype)


def _tensor_array(ctx, lst, shape, dtype):
    """The list as a static tensor array of elements of ``shape`` (its elements must fit it)."""
    from ...prelude import StaticTensorArrayOps

    StaticTensorArrayOps(ctx.prelude, dtype, shape).register()
    make = ctx.prelude.get_tensor_ctor_static("tensor_constructor", dtype, shape)
    return ctx.prelude.map(make, lst)


def _get_data(ctx, tensor, dtype, shape):
    from ...prelude import StaticTensorArrayOps

    StaticTensorArrayOps(ctx.prelude, dtype, shape).register()
    return ctx.prelude.get_global_var_static("tensor_get_data", dtype, shape)(tensor)


def stack(ctx, lst, axis):
    """aten::stack of a run-time list: along axis 0 only (as TVM)."""
    if int(axis) != 0:
        raise NotImplementedError("aten::stack of a run-time list is supported on axis 0 only")
    shape, dtype = _element_type(ctx, lst)
    array = _tensor_array(ctx, lst, shape, dtype)
    stacked = ctx.prelude.get_global_var_static("tensor_array_stack", dtype, shape)(array)
    return _get_data(ctx, stacked, dtype, (Any(),) + shape)


def cat(ctx, lst, axis):
    """aten::cat of a run-time list: along axis 0 only (as TVM)."""
    if int(axis) != 0:
        raise NotImplementedError("aten::cat of a run-time list is supported on axis 0 only")
    shape, dtype = _element_type(ctx, lst)
    # The array's elements are typed with a `?` first extent, the type of the result that
    # tensor_array_concat builds from them (TVM types them with the elements' own shape, which
    # its concatenate then refuses).
    joined_shape = (Any(),) + shape[1:]
    array = _tensor_array(ctx, lst, joined_shape, dtype)
    joined = ctx.prelude.get_global_var_static("tensor_array_concat", dtype, joined_shape)(array)
    return _get_data(ctx, joined, dtype, joined_shape)
