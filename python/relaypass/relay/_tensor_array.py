"""TVM's tensor arrays (relay.prelude.TensorArrayOps): for one dtype, the ADT ``tensor_<dtype>_t``
(tensor_nil and tensor0 .. tensor6, a tensor of rank 0 .. 6 whose extents are all `?`) and the
functions over a ``List[tensor_<dtype>_t]``, with TVM v0.13's names, signatures and bodies
(python/tvm/relay/prelude.py). The bodies use dynamic extents: they run on the evaluator."""
from .expr import Any, Var, GlobalVar, If, const
from .ty import GlobalTypeVar, TensorType, scalar_type
from .function import Function
from .adt import Constructor, TypeData, Clause, Match
from .adt import PatternConstructor, PatternVar, PatternWildcard
from .op.tensor import add, subtract, equal
from . import op, transform

MAX_RANK = 6  # tensor0 .. tensor6
MAX_CONCAT_RANK = 4  # TVM concatenates tensor1 .. tensor4 only


def _any_shape(rank):
    return [Any() for _ in range(rank)]


def _int32():
    return scalar_type("int32")


class TensorArrayOps:
    """TVM's tensor array definitions for ``dtype``; ``register()`` adds them to
    ``prelude.mod`` (Prelude.load_prelude does so for nine dtypes)."""

    def __init__(self, prelude, dtype):
        self.prelude = prelude
        self.dtype = dtype
        self.list, self.cons, self.nil = self.prelude.mod.get_type("List")

    def get_name(self, canonical):
        """The definition's name: ``<canonical>_<dtype>`` (``tensor_<dtype>_t`` for the ADT)."""
        return self.prelude.get_name(canonical, self.dtype)

    def get_global_var(self, canonical):
        """The GlobalVar of a function this registered."""
        return self.prelude.get_global_var(canonical, self.dtype)

    def get_type(self, canonical):
        """The GlobalTypeVar of the ADT (``get_type("tensor_t")``)."""
        return self.prelude.get_type(canonical, self.dtype)

    def get_ctor(self, canonical):
        """A constructor of the ADT (``tensor_nil``, ``tensor0`` .. ``tensor6``)."""
        return self.prelude.get_ctor(self.tensor_type_var.name_hint, canonical, self.dtype)

    # TVM's define_tensor_array_gather calls self.get_var, which its class lacks; here it is
    # get_global_var, so gather can be defined (register() leaves it out, as TVM's does).
    get_var = get_global_var

    def _tensor_ctor(self, rank):
        return self.get_ctor("tensor%d" % rank)

    def _ta_type(self):
        return self.list(self.tensor_type_var())

    def define_tensor_adt(self):
        """type tensor_<dtype>_t { tensor_nil, tensor0(Tensor[(), dtype]), ...,
        tensor6(Tensor[(?, ?, ?, ?, ?, ?), dtype]) }"""
        self.tensor_type_var = GlobalTypeVar(self.get_name("tensor_t"))
        ctors = [Constructor(self.get_name("tensor_nil"), [], self.tensor_type_var)]
        for rank in range(MAX_RANK + 1):
            ctors.append(Constructor(self.get_name("tensor%d" % rank),
                                     [TensorType(_any_shape(rank), self.dtype)],
                                     self.tensor_type_var))
        self.prelude.mod[self.tensor_type_var] = TypeData(self.tensor_type_var, [], ctors)

    def define_tensor_take(self):
        """tensor_take(t, lower, upper): rows lower .. upper-1 of t (axis 0), ranks 1 .. 6."""
        take_var = GlobalVar(self.get_name("tensor_take"))
        t = Var("tensor", self.tensor_type_var())
        lower = Var("lower", _int32())
        upper = Var("upper", _int32())
        clauses = []
        for rank in range(1, MAX_RANK + 1):
            ctor = self._tensor_ctor(rank)
            tv = Var("t%d" % rank)
            rows = op.arange(lower, upper, dtype="int32")
            # TVM's rank-1 case takes with axis=None (the same rows of a vector).
            taken = op.take(tv, rows) if rank == 1 else op.take(tv, rows, axis=0)
            clauses.append(Clause(PatternConstructor(ctor, [PatternVar(tv)]), ctor(taken)))
        self.prelude.mod[take_var] = Function(
            [t, lower, upper], Match(t, clauses, False), self.tensor_type_var(), [])

    def define_tensor_expand_dims(self):
        """tensor_expand_dims(t): t with a new axis of extent 1 in front (rank k to k + 1)."""
        expand_dims_var = GlobalVar(self.get_name("tensor_expand_dims"))
        x = Var("x", self.tensor_type_var())
        clauses = []
        for rank in range(MAX_RANK):
            tv = Var("t%d" % rank)
            clauses.append(Clause(PatternConstructor(self._tensor_ctor(rank), [PatternVar(tv)]),
                                  self._tensor_ctor(rank + 1)(op.expand_dims(tv, 0, 1))))
        self.prelude.mod[expand_dims_var] = Function(
            [x], Match(x, clauses, False), self.tensor_type_var())

    def define_tensor_concat(self):
        """tensor_concatenate(x, y): x and y (same rank, 1 .. 4) joined on axis 0."""
        concat_var = GlobalVar(self.get_name("tensor_concatenate"))
        x = Var("x", self.tensor_type_var())
        y = Var("y", self.tensor_type_var())
        clauses = []
        for rank in range(1, MAX_CONCAT_RANK + 1):
            ctor = self._tensor_ctor(rank)
            first, second = Var("t%d1" % rank), Var("t%d2" % rank)
            inner = Match(y, [Clause(PatternConstructor(ctor, [PatternVar(second)]),
                                     ctor(op.concatenate([first, second], axis=0)))], False)
            clauses.append(Clause(PatternConstructor(ctor, [PatternVar(first)]), inner))
        self.prelude.mod[concat_var] = Function(
            [x, y], Match(x, clauses, False), self.tensor_type_var())

    def define_tensor_array(self):
        """tensor_array(n): a list of n tensor_nil."""
        ta_var = GlobalVar(self.get_name("tensor_array"))
        setattr(self.prelude, self.get_name("tensor_array"), ta_var)
        n = Var("x", _int32())
        body = If(equal(n, const(0)), self.nil(),
                  self.cons(self.get_ctor("tensor_nil")(), ta_var(subtract(n, const(1)))))
        self.prelude.mod[ta_var] = Function([n], body, self._ta_type(), [])

    def define_tensor_array_read(self):
        """tensor_array_read(ta, n): the n-th element."""
        read_var = GlobalVar(self.get_name("tensor_array_read"))
        setattr(self.prelude, self.get_name("tensor_array_read"), read_var)
        ta = Var("tensor_array", self._ta_type())
        n = Var("x", _int32())
        self.prelude.mod[read_var] = Function(
            [ta, n], self.prelude.nth(ta, n), self.tensor_type_var(), [])

    def define_tensor_array_write(self):
        """tensor_array_write(ta, n, v): ta with its n-th element replaced by v."""
        write_var = GlobalVar(self.get_name("tensor_array_write"))
        ta = Var("tensor_array", self._ta_type())
        n = Var("x", _int32())
        v = Var("v", self.tensor_type_var())
        self.prelude.mod[write_var] = Function(
            [ta, n, v], self.prelude.update(ta, n, v), self._ta_type(), [])

    def define_tensor_array_unstack(self, rank):
        """tensor_array_unstack_tensor<rank>(t): the rows of a rank-``rank`` tensor as a list of
        rank - 1 tensors (through its helper, which counts i up to the extent of axis 0)."""
        helper_name = self.get_name("tensor_array_unstack_tensor%d_helper" % rank)
        helper_var = GlobalVar(helper_name)
        if rank > 1:  # TVM sets the rank-1 names as no attributes
            setattr(self.prelude, helper_name, helper_var)
        tensor = Var("t", TensorType(_any_shape(rank), self.dtype))
        up = Var("up", _int32())
        i = Var("i", _int32())
        row = op.take(tensor, i) if rank == 1 else op.take(tensor, i, axis=0)
        helper_body = If(equal(i, up), self.nil(),
                         self.cons(self._tensor_ctor(rank - 1)(row),
                                   helper_var(add(i, const(1)), up, tensor)))
        self.prelude.mod[helper_var] = Function(
            [i, up, tensor], helper_body, self._ta_type(), [])

        unstack_name = self.get_name("tensor_array_unstack_tensor%d" % rank)
        unstack_var = GlobalVar(unstack_name)
        if rank > 1:
            setattr(self.prelude, unstack_name, unstack_var)
        whole = Var("tensor", TensorType(_any_shape(rank), self.dtype))
        rows = op.take(op.shape_of(whole), const(0))
        self.prelude.mod[unstack_var] = Function(
            [whole], helper_var(const(0), rows, whole), self._ta_type(), [])

    def define_tensor_array_scatter(self):
        """tensor_array_scatter(ta, indices, values): ta with values[k] written at indices[k]."""
        helper_var = GlobalVar(self.get_name("tensor_array_scatter_helper"))
        ta = Var("ta", self._ta_type())
        current = Var("current", _int32())
        limit = Var("limit", _int32())
        indices_ = Var("indices_", TensorType([Any()], "int32"))
        values_ = Var("values_", self._ta_type())
        write_var = self.get_global_var("tensor_array_write")
        read_var = self.get_global_var("tensor_array_read")
        helper_body = If(
            equal(current, limit), ta,
            helper_var(write_var(ta, op.take(indices_, current), read_var(values_, current)),
                       add(current, const(1)), limit, indices_, values_))
        self.prelude.mod[helper_var] = Function(
            [ta, current, limit, indices_, values_], helper_body, self._ta_type(), [])

        scatter_name = self.get_name("tensor_array_scatter")
        scatter_var = GlobalVar(scatter_name)
        setattr(self.prelude, scatter_name, scatter_var)
        tensor_array = Var("tensor_array", self._ta_type())
        indices = Var("indices", TensorType([Any()], "int32"))
        values = Var("values", self._ta_type())
        limit = op.take(op.shape_of(indices), const(0))
        body = helper_var(tensor_array, const(0), limit, indices, values)
        self.prelude.mod[scatter_var] = Function(
            [tensor_array, indices, values], body, self._ta_type(), [])

    def define_tensor_array_split(self):
        """tensor_array_split(ta, value, lengths): ta with element k set to the next lengths[k]
        rows of value."""
        helper_name = self.get_name("ta_split_helper")
        helper_var = GlobalVar(helper_name)
        setattr(self.prelude, helper_name, helper_var)
        ta1 = Var("tensor_array", self._ta_type())
        value1 = Var("value1", self.tensor_type_var())
        offset1 = Var("offset1", _int32())
        current1 = Var("current1", _int32())
        limit1 = Var("limit1", _int32())
        lengths1 = Var("lengths", TensorType([Any()], "int32"))
        write_var = self.get_global_var("tensor_array_write")
        take_var = self.get_global_var("tensor_take")
        length = op.take(lengths1, current1)
        rest = helper_var(ta1, value1, add(offset1, length), add(current1, const(1)), limit1,
                          lengths1)
        helper_body = If(
            equal(current1, limit1), ta1,
            write_var(rest, current1,
                      take_var(value1, offset1, add(op.take(lengths1, current1), offset1))))
        self.prelude.mod[helper_var] = Function(
            [ta1, value1, offset1, current1, limit1, lengths1], helper_body, self._ta_type(), [])

        split_name = self.get_name("tensor_array_split")
        split_var = GlobalVar(split_name)
        setattr(self.prelude, split_name, split_var)
        tensor_array = Var("tensor_array", self._ta_type())
        value = Var("value", self.tensor_type_var())
        lengths = Var("lengths", TensorType([Any()], "int32"))
        limit = op.take(op.shape_of(lengths), const(0))
        body = helper_var(tensor_array, value, const(0), const(0), limit, lengths)
        self.prelude.mod[split_var] = Function(
            [tensor_array, value, lengths], body, self._ta_type(), [])

    def define_tensor_array_concat(self):
        """tensor_array_concat(ta): the elements joined on axis 0 (tensor_nil for an empty
        list)."""
        concat_name = self.get_name("tensor_array_concat")
        concat_var = GlobalVar(concat_name)
        setattr(self.prelude, concat_name, concat_var)
        tensor_concat_var = self.get_global_var("tensor_concatenate")
        tensor_array = Var("tensor_array", self._ta_type())
        hd = Var("hd")
        tl = Var("tl")
        nil_case = Clause(PatternConstructor(self.nil), self.get_ctor("tensor_nil")())
        cons_case = Clause(
            PatternConstructor(self.cons, [PatternVar(hd), PatternVar(tl)]),
            Match(tl, [Clause(PatternConstructor(self.nil), hd),
                       Clause(PatternWildcard(), tensor_concat_var(hd, concat_var(tl)))], False))
        self.prelude.mod[concat_var] = Function(
            [tensor_array], Match(tensor_array, [nil_case, cons_case], False),
            self.tensor_type_var(), [])

    def define_tensor_array_gather(self):
        """tensor_array_gather(ta, indices): the elements at indices, stacked (TVM leaves it
        out of register())."""
        helper_name = self.get_name("tensor_array_gather_helper")
        helper_var = GlobalVar(helper_name)
        setattr(self.prelude, helper_name, helper_var)
        stack_var = self.get_var("tensor_array_stack")
        read_var = self.get_var("tensor_array_read")
        ta = Var("ta", self._ta_type())
        accu = Var("accu", self._ta_type())
        current = Var("current", _int32())
        limit = Var("limit", _int32())
        indices_ = Var("indices_", TensorType([Any()], "int32"))
        previous = subtract(current, const(1))
        helper_body = If(
            equal(current, const(0)), stack_var(accu),
            helper_var(ta, self.cons(read_var(ta, op.take(indices_, previous)), accu),
                       subtract(current, const(1)), limit, indices_))
        self.prelude.mod[helper_var] = Function(
            [ta, accu, current, limit, indices_], helper_body, self.tensor_type_var(), [])

        gather_name = self.get_name("tensor_array_gather")
        gather_var = GlobalVar(gather_name)
        setattr(self.prelude, gather_name, gather_var)
        tensor_array = Var("tensor_array", self._ta_type())
        indices = Var("indices", TensorType([Any()], "int32"))
        limit = op.take(op.shape_of(indices), const(0))
        body = helper_var(tensor_array, self.nil(), limit, limit, indices)
        self.prelude.mod[gather_var] = Function(
            [tensor_array, indices], body, self.tensor_type_var(), [])

    def define_tensor_array_stack(self):
        """tensor_array_stack(ta): the elements stacked on a new axis 0 (each expanded, then
        folded with tensor_concatenate), in A-normal form as TVM writes it."""
        stack_name = self.get_name("tensor_array_stack")
        stack_var = GlobalVar(stack_name)
        setattr(self.prelude, stack_name, stack_var)
        tensor_array = Var("tensor_array", self._ta_type())
        expand_dims_var = self.get_global_var("tensor_expand_dims")
        concat_var = self.get_global_var("tensor_concatenate")
        expanded = self.prelude.map(expand_dims_var, tensor_array)
        tensors = self.prelude.foldl(concat_var, self.prelude.hd(expanded),
                                     self.prelude.tl(expanded))
        self.prelude.mod[stack_var] = Function(
            [tensor_array], transform.ToANormalFormExpr(tensors), self.tensor_type_var(),
            [])

    def register(self):
        """Adds every definition to the Prelude's module (all but gather, as TVM does)."""
        self.define_tensor_adt()
        self.define_tensor_take()
        self.define_tensor_expand_dims()
        self.define_tensor_concat()
        self.define_tensor_array()
        self.define_tensor_array_read()
        self.define_tensor_array_write()
        for rank in range(1, MAX_RANK + 1):
            self.define_tensor_array_unstack(rank)
        self.define_tensor_array_scatter()
        self.define_tensor_array_split()
        self.define_tensor_array_concat()
        self.define_tensor_array_stack()


def _unstack_of_rank(rank):
    def define(self):
        self.define_tensor_array_unstack(rank)

    define.__name__ = "define_tensor_array_unstack_tensor%d" % rank
    define.__doc__ = "TVM's per-rank definer: define_tensor_array_unstack(%d)." % rank
    return define


for _rank in range(1, MAX_RANK + 1):
    setattr(TensorArrayOps, "define_tensor_array_unstack_tensor%d" % _rank,
            _unstack_of_rank(_rank))
