"""TVM's fixed-rank tensor arrays (relay.prelude.StaticTensorArrayOps): for one dtype and shape,
the ADT ``static_tensor_<dtype>_<dims>_t`` (tensor_nil and tensor_constructor of a
Tensor[shape, dtype]) and the functions over lists of it, with TVM v0.13's names (the "any"
spelling of a `?` extent, "scalar" for shape (), the "batch1" infix) and bodies
(python/tvm/relay/prelude.py). Functions whose results change the shape (take, concatenate,
expand_dims, stack, split) define the ADT of that shape too."""
from .expr import Any, Var, GlobalVar, If, const
from .ty import GlobalTypeVar, TensorType, scalar_type
from .function import Function
from .adt import Constructor, TypeData, Clause, Match
from .adt import PatternConstructor, PatternVar, PatternWildcard
from .op.tensor import add, subtract, equal
from . import op


def _is_any(dim):
    if isinstance(dim, Any):
        return True
    if isinstance(dim, int):
        return dim == -1
    return str(dim) in ("?", "Any", "any")


def _to_str(shape):
    return "_".join("any" if _is_any(dim) else str(dim) for dim in shape)


def get_name_static(canonical, dtype, shape, batch_dim=None, extra_shapes=None):
    """TVM's _get_name_static: ``static_tensor_<dtype>_<dims>_t`` for the ADT, else
    ``<canonical>_<dtype>_<dims>`` (``..._batch1_<dims>`` when batch_dim is 1; constructors
    never take the batch infix); dims are the extents joined by "_" ("any" for `?`, "scalar"
    for shape ()), followed by ``_<name>_<dims>`` for each of extra_shapes."""
    shape_str = _to_str(shape)
    if extra_shapes is not None:
        for name, extra in extra_shapes.items():
            shape_str += "_{}_{}".format(name, _to_str(extra))
    if not shape_str:
        shape_str = "scalar"
    if canonical == "tensor_t":
        return "static_tensor_{}_{}_t".format(dtype, shape_str)
    if batch_dim is None or canonical in ("tensor_constructor", "tensor_nil") or batch_dim != 1:
        return "{}_{}_{}".format(canonical, dtype, shape_str)
    return "{}_{}_batch{}_{}".format(canonical, dtype, batch_dim, shape_str)


def get_tensor_array_shape(expr, dtype, prelude):
    """TVM's get_tensor_array_shape: the static shape of the tensor array ``expr`` (a tuple of
    ints and Any), read from its element ADT's name; None for a dynamic tensor array. Sets
    prelude.mod["main"] to a function of expr's free variables returning expr, as TVM does."""
    from ..ir import TypeCall
    from .analysis import free_vars
    from . import transform

    mod = prelude.mod
    mod["main"] = Function(free_vars(expr), expr)
    mod = transform.InferType()(mod)
    checked_type = mod["main"].body.checked_type
    assert isinstance(checked_type, TypeCall), "Input must be a tensor array."
    ta_type_str = checked_type.args[0].func.name_hint
    prefix = "static_tensor_{}".format(dtype)
    if not ta_type_str.startswith(prefix):
        return None
    shape_str = ta_type_str.replace("{}_".format(prefix), "").replace("_t", "")
    shape = []
    if "scalar" not in shape_str:
        for dim_str in shape_str.split("_"):
            shape.append(Any() if dim_str in ("?", "any") else int(dim_str))
    return tuple(shape)


def _int32():
    return scalar_type("int32")


class StaticTensorArrayOps:
    """TVM's tensor array definitions for ``dtype`` and a fixed-rank ``shape`` (extents may be
    Any); ``batch_dim=1`` stacks into a leading axis of extent 1 instead of `?`."""

    def __init__(self, prelude, dtype, shape, batch_dim=None):
        self.prelude = prelude
        self.dtype = dtype
        self.shape = shape
        self.batch_dim = batch_dim
        self.list, self.cons, self.nil = self.prelude.mod.get_type("List")

    def get_name(self, canonical, extra_shapes=None):
        """The definition's name (see get_name_static)."""
        return get_name_static(canonical, self.dtype, self.shape, self.batch_dim, extra_shapes)

    def get_global_var(self, canonical):
        """The GlobalVar of a function this registered."""
        return self.prelude.get_global_var_static(canonical, self.dtype, self.shape,
                                                  self.batch_dim)

    def get_type(self, canonical):
        """The GlobalTypeVar of the ADT (``get_type("tensor_t")``)."""
        return self.prelude.get_type_static(canonical, self.dtype, self.shape)

    def get_ctor(self, canonical):
        """A constructor of the ADT (``tensor_nil``, ``tensor_constructor``)."""
        return self.prelude.get_ctor_static("tensor_t", canonical, self.dtype, self.shape)

    def is_cached(self, name):
        """Whether the module defines a function of that name already."""
        return name in {g.name_hint for g in self.prelude.mod.get_global_vars()}

    def _create_global_var(self, name):
        """The module's GlobalVar of that name, or a new one."""
        for gvar in self.prelude.mod.get_global_vars():
            if gvar.name_hint == name:
                return gvar
        return GlobalVar(name)

    def _get_adt_by_shape(self, shape):
        """The ADT of ``shape`` (defined if new): its type, constructor and ops."""
        adt_ops = StaticTensorArrayOps(self.prelude, self.dtype, shape, self.batch_dim)
        adt_ops.define_tensor_adt()
        return adt_ops.get_type("tensor_t"), adt_ops.get_ctor("tensor_constructor"), adt_ops

    def _rows_shape(self):
        return [Any()] + list(self.shape[1:])

    def _stacked_shape(self):
        new_axis = Any() if self.batch_dim is None or self.batch_dim != 1 else self.batch_dim
        return [new_axis] + list(self.shape)

    def _ta_type(self):
        return self.list(self.tensor_type_var())

    def define_tensor_adt(self):
        """type static_tensor_<dtype>_<dims>_t { tensor_nil, tensor_constructor(Tensor[shape]) }
        (once per module)."""
        type_name = self.get_name("tensor_t")
        if type_name in {v.name_hint for v in self.prelude.mod.get_global_type_vars()}:
            self.tensor_type_var = self.get_type("tensor_t")
            return
        self.tensor_type_var = GlobalTypeVar(type_name)
        nil = Constructor(self.get_name("tensor_nil"), [], self.tensor_type_var)
        case = Constructor(self.get_name("tensor_constructor"),
                           [TensorType(self.shape, self.dtype)], self.tensor_type_var)
        self.prelude.mod[self.tensor_type_var] = TypeData(self.tensor_type_var, [], [nil, case])

    def define_tensor_array(self):
        """tensor_array(n): a list of n tensor_nil."""
        ta_var = self._create_global_var(self.get_name("tensor_array"))
        n = Var("x", _int32())
        body = If(equal(n, const(0)), self.nil(),
                  self.cons(self.get_ctor("tensor_nil")(), ta_var(subtract(n, const(1)))))
        self.prelude.mod[ta_var] = Function(
            [n], body, self.list(self.get_ctor("tensor_t")()), [])

    def define_tensor_take(self):
        """tensor_take(t, lower, upper): rows lower .. upper-1, of shape (?, shape[1:])."""
        if not self.shape:
            return
        take_name = self.get_name("tensor_take")
        if self.is_cached(take_name):
            return
        take_var = GlobalVar(take_name)
        origin_ctor = self.get_ctor("tensor_constructor")
        out_type, out_ctor, _ = self._get_adt_by_shape(self._rows_shape())
        t = Var("tensor", self.tensor_type_var())
        lower = Var("lower", _int32())
        upper = Var("upper", _int32())
        tvar = Var("t")
        case = Clause(PatternConstructor(origin_ctor, [PatternVar(tvar)]),
                      out_ctor(op.take(tvar, op.arange(lower, upper, dtype="int32"), axis=0)))
        self.prelude.mod[take_var] = Function(
            [t, lower, upper], Match(t, [case], False), out_type(), [])

    def define_tensor_concatenate(self):
        """tensor_concatenate(x, y): x and y joined on axis 0, of shape (?, shape[1:])."""
        if not self.shape:
            return
        concat_name = self.get_name("tensor_concatenate")
        concat_var = GlobalVar(concat_name)
        if self.is_cached(concat_name):
            return
        out_type, out_ctor, _ = self._get_adt_by_shape(self._rows_shape())
        origin_ctor = self.get_ctor("tensor_constructor")
        x = Var("x", self.tensor_type_var())
        y = Var("y", self.tensor_type_var())
        t1 = Var("t1")
        t2 = Var("t2")
        inner = Match(y, [Clause(PatternConstructor(origin_ctor, [PatternVar(t2)]),
                                 out_ctor(op.concatenate([t1, t2], axis=0)))], False)
        case = Clause(PatternConstructor(origin_ctor, [PatternVar(t1)]), inner)
        self.prelude.mod[concat_var] = Function([x, y], Match(x, [case], False), out_type(), [])

    def define_tensor_expand_dims(self):
        """tensor_expand_dims(t): t with a new axis in front (typed `?`, or 1 when batch_dim
        is 1, so that stacking can concatenate)."""
        name = self.get_name("tensor_expand_dims")
        expand_dims_var = self._create_global_var(name)
        setattr(self.prelude, name, expand_dims_var)
        origin_ctor = self.get_ctor("tensor_constructor")
        x = Var("x", self.tensor_type_var())
        out_type, out_ctor, _ = self._get_adt_by_shape(self._stacked_shape())
        t = Var("t")
        case = Clause(PatternConstructor(origin_ctor, [PatternVar(t)]),
                      out_ctor(op.expand_dims(t, 0, 1)))
        self.prelude.mod[expand_dims_var] = Function([x], Match(x, [case], False), out_type(), [])

    def define_tensor_array_read(self):
        """tensor_array_read(ta, n): the n-th element."""
        read_name = self.get_name("tensor_array_read")
        if self.is_cached(read_name):
            return
        read_var = GlobalVar(read_name)
        ta = Var("tensor_array", self._ta_type())
        n = Var("x", _int32())
        self.prelude.mod[read_var] = Function(
            [ta, n], self.prelude.nth(ta, n), self.tensor_type_var(), [])

    def define_tensor_array_write(self):
        """tensor_array_write(ta, n, v): ta with its n-th element replaced by v."""
        write_name = self.get_name("tensor_array_write")
        if self.is_cached(write_name):
            return
        write_var = GlobalVar(write_name)
        ta = Var("tensor_array", self._ta_type())
        n = Var("x", _int32())
        v = Var("v", self.tensor_type_var())
        self.prelude.mod[write_var] = Function(
            [ta, n, v], self.prelude.update(ta, n, v), self._ta_type(), [])

    def define_tensor_array_unstack(self):
        """tensor_array_unstack(t): the rows of a Tensor[shape] as a list of shape[1:]
        tensors."""
        if not self.shape:
            return
        helper_name = self.get_name("tensor_array_unstack_helper")
        helper_var = self._create_global_var(helper_name)
        setattr(self.prelude, helper_name, helper_var)
        tensor = Var("t", TensorType(self.shape, self.dtype))
        up = Var("up", _int32())
        i = Var("i", _int32())
        tensor_var = Var("tensor", TensorType(self.shape, self.dtype))
        row_type, row_ctor, _ = self._get_adt_by_shape(self.shape[1:])
        helper_body = If(equal(i, up), self.nil(),
                         self.cons(row_ctor(op.take(tensor, i, axis=0)),
                                   helper_var(add(i, const(1)), up, tensor)))
        self.prelude.mod[helper_var] = Function(
            [i, up, tensor], helper_body, self.list(row_type()), [])

        unstack_name = self.get_name("tensor_array_unstack")
        unstack_var = self._create_global_var(unstack_name)
        setattr(self.prelude, unstack_name, unstack_var)
        rows = op.take(op.shape_of(tensor_var), const(0))
        self.prelude.mod[unstack_var] = Function(
            [tensor_var], helper_var(const(0), rows, tensor_var), self.list(row_type()), [])

    def define_tensor_array_scatter(self, indices_shape=None, force_update=False):
        """tensor_array_scatter(ta, indices, values): ta with values[k] written at indices[k].
        ``indices_shape`` gives indices a static shape (its name then ends in
        ``_indices_<dims>``); a defined scatter is redefined only with ``force_update``."""
        extra_shapes = {"indices": indices_shape} if indices_shape is not None else None
        scatter_name = self.get_name("tensor_array_scatter", extra_shapes)
        if hasattr(self.prelude, scatter_name) and not force_update:
            return
        helper_var = self._create_global_var(
            self.get_name("tensor_array_scatter_helper", extra_shapes))
        ta = Var("ta", self._ta_type())
        current = Var("current", _int32())
        limit = Var("limit", _int32())
        indices_ = Var("indices_", TensorType(indices_shape or [Any()], "int32"))
        values_ = Var("values_", self._ta_type())
        write_var = self.get_global_var("tensor_array_write")
        read_var = self.get_global_var("tensor_array_read")
        helper_body = If(
            equal(current, limit), ta,
            helper_var(write_var(ta, op.take(indices_, current), read_var(values_, current)),
                       add(current, const(1)), limit, indices_, values_))
        self.prelude.mod[helper_var] = Function(
            [ta, current, limit, indices_, values_], helper_body, self._ta_type(), [])

        scatter_var = self._create_global_var(scatter_name)
        setattr(self.prelude, scatter_name, scatter_var)
        tensor_array = Var("tensor_array", self._ta_type())
        indices = Var("indices", TensorType(indices_shape or [Any()], "int32"))
        values = Var("values", self._ta_type())
        if indices_shape is None:
            limit = op.take(op.shape_of(indices), const(0))
        else:
            limit = const(indices_shape[0])
        body = helper_var(tensor_array, const(0), limit, indices, values)
        self.prelude.mod[scatter_var] = Function(
            [tensor_array, indices, values], body, self._ta_type(), [])

    def define_tensor_array_split(self, value_shape=None, lengths_shape=None,
                                  force_update=False):
        """tensor_array_split(ta, value, lengths): a list of (?, shape[1:]) tensors, element k
        the next lengths[k] rows of value. ``value_shape`` / ``lengths_shape`` give static
        shapes; a defined split is redefined only with ``force_update``."""
        if not self.shape:
            return
        split_name = self.get_name("tensor_array_split")
        if self.is_cached(split_name):
            if not force_update:
                return
            helper_var = self.get_global_var("ta_split_helper")
            split_var = self.get_global_var("tensor_array_split")
        else:
            helper_var = GlobalVar(self.get_name("ta_split_helper"))
            split_var = GlobalVar(split_name)

        out_type, _, out_ops = self._get_adt_by_shape(self._rows_shape())
        out_ops.define_tensor_array_write()
        write_var = out_ops.get_global_var("tensor_array_write")
        if value_shape is None:
            value_type = self.tensor_type_var
            take_var = self.get_global_var("tensor_take")
        else:
            value_type, _, value_ops = self._get_adt_by_shape(value_shape)
            value_ops.define_tensor_take()
            take_var = value_ops.get_global_var("tensor_take")

        ta1 = Var("tensor_array", self.list(out_type()))
        value1 = Var("value1", value_type())
        offset1 = Var("offset1", _int32())
        current1 = Var("current1", _int32())
        limit1 = Var("limit1", _int32())
        lengths1 = Var("lengths", TensorType(lengths_shape or [Any()], "int32"))
        rest = helper_var(ta1, value1, add(offset1, op.take(lengths1, current1)),
                          add(current1, const(1)), limit1, lengths1)
        helper_body = If(
            equal(current1, limit1), ta1,
            write_var(rest, current1,
                      take_var(value1, offset1, add(op.take(lengths1, current1), offset1))))
        self.prelude.mod[helper_var] = Function(
            [ta1, value1, offset1, current1, limit1, lengths1], helper_body,
            self.list(out_type()), [])

        tensor_array = Var("tensor_array", self.list(out_type()))
        value = Var("value", value_type())
        lengths = Var("lengths", TensorType(lengths_shape or [Any()], "int32"))
        if lengths_shape is None:
            limit = op.take(op.shape_of(lengths), const(0))
        else:
            limit = const(lengths_shape[0])
        body = helper_var(tensor_array, value, const(0), const(0), limit, lengths)
        self.prelude.mod[split_var] = Function(
            [tensor_array, value, lengths], body, self.list(out_type()), [])

    def define_tensor_array_concat(self):
        """tensor_array_concat(ta): the elements (of shape (?, shape[1:])) joined on axis 0."""
        if not self.shape:
            return
        concat_name = self.get_name("tensor_array_concat")
        if self.is_cached(concat_name):
            return
        concat_var = GlobalVar(concat_name)
        out_type, _, out_ops = self._get_adt_by_shape(self._rows_shape())
        out_ops.define_tensor_concatenate()
        tensor_concat_var = out_ops.get_global_var("tensor_concatenate")
        tensor_nil = out_ops.get_ctor("tensor_nil")
        tensor_array = Var("tensor_array", self.list(out_type()))
        hd = Var("hd")
        tl = Var("tl")
        nil_case = Clause(PatternConstructor(self.nil), tensor_nil())
        cons_case = Clause(
            PatternConstructor(self.cons, [PatternVar(hd), PatternVar(tl)]),
            Match(tl, [Clause(PatternConstructor(self.nil), hd),
                       Clause(PatternWildcard(), tensor_concat_var(hd, concat_var(tl)))], False))
        self.prelude.mod[concat_var] = Function(
            [tensor_array], Match(tensor_array, [nil_case, cons_case], False), out_type(), [])

    def define_tensor_array_stack(self):
        """tensor_array_stack(ta): the elements stacked on a new axis 0 (the one element
        expanded when batch_dim is 1)."""
        stack_name = self.get_name("tensor_array_stack")
        stack_var = self._create_global_var(stack_name)
        setattr(self.prelude, stack_name, stack_var)
        tensor_array = Var("tensor_array", self._ta_type())
        expand_dims_var = self.get_global_var("tensor_expand_dims")
        out_type, _, out_ops = self._get_adt_by_shape(self._stacked_shape())
        out_ops.define_tensor_concatenate()
        concat_var = out_ops.get_global_var("tensor_concatenate")
        expanded = self.prelude.map(expand_dims_var, tensor_array)
        if self.batch_dim is not None and self.batch_dim == 1:
            tensors = self.prelude.id(self.prelude.hd(expanded))
        else:
            tensors = self.prelude.foldl(concat_var, self.prelude.hd(expanded),
                                         self.prelude.tl(expanded))
        self.prelude.mod[stack_var] = Function([tensor_array], tensors, out_type(), [])

    def define_tensor_array_gather(self):
        """tensor_array_gather(ta, indices): the elements at indices, stacked."""
        helper_var = self._create_global_var(self.get_name("tensor_array_gather_helper"))
        out_type, _, _ = self._get_adt_by_shape(self._stacked_shape())
        stack_var = self.get_global_var("tensor_array_stack")
        read_var = self.get_global_var("tensor_array_read")
        ta = Var("ta", self._ta_type())
        accu = Var("accu", self._ta_type())
        current = Var("current", _int32())
        limit = Var("limit", _int32())
        indices_ = Var("indices_", TensorType([Any()], "int32"))
        helper_body = If(
            equal(current, const(0)), stack_var(accu),
            helper_var(ta,
                       self.cons(read_var(ta, op.take(indices_, subtract(current, const(1)))),
                                 accu),
                       subtract(current, const(1)), limit, indices_))
        self.prelude.mod[helper_var] = Function(
            [ta, accu, current, limit, indices_], helper_body, out_type(), [])

        gather_var = self._create_global_var(self.get_name("tensor_array_gather"))
        tensor_array = Var("tensor_array", self._ta_type())
        indices = Var("indices", TensorType([Any()], "int32"))
        limit = op.take(op.shape_of(indices), const(0))
        body = helper_var(tensor_array, self.nil(), limit, limit, indices)
        self.prelude.mod[gather_var] = Function([tensor_array, indices], body, out_type(), [])

    def define_tensor_get_data(self):
        """tensor_get_data(t): the Tensor[shape, dtype] inside t."""
        get_data_var = self._create_global_var(self.get_name("tensor_get_data"))
        ctor = self.get_ctor("tensor_constructor")
        t = Var("tensor", self.tensor_type_var())
        tvar = Var("t")
        case = Clause(PatternConstructor(ctor, [PatternVar(tvar)]), tvar)
        self.prelude.mod[get_data_var] = Function(
            [t], Match(t, [case], False), TensorType(self.shape, self.dtype), [])

    def register(self):
        """Adds every definition to the Prelude's module."""
        self.define_tensor_adt()
        self.define_tensor_take()
        self.define_tensor_concatenate()
        self.define_tensor_expand_dims()
        self.define_tensor_array()
        self.define_tensor_array_read()
        self.define_tensor_array_write()
        self.define_tensor_array_unstack()
        self.define_tensor_array_scatter()
        self.define_tensor_array_split()
        self.define_tensor_array_concat()
        self.define_tensor_array_stack()
        self.define_tensor_array_gather()
        self.define_tensor_get_data()
