"""relay.dataflow_pattern: TVM v0.13's pattern language (is_op, wildcard, ..., DFPatternCallback,
rewrite, partition) over relaypass's C++ matcher (docs/patterns.md)."""
from .. import _core

__all__ = [
    "DFPattern",
    "DFPatternCallback",
    "is_op",
    "wildcard",
    "is_var",
    "is_constant",
    "is_expr",
    "is_tuple",
    "is_tuple_get_item",
    "is_if",
    "is_let",
    "has_attr",
    "has_type",
    "has_dtype",
    "has_shape",
    "dominates",
    "match",
    "rewrite",
    "partition",
]


class DFPattern:
    """A pattern. Call it on argument patterns to make a call pattern; ``|`` makes an
    alternative; ``+ - * /`` make calls of add, subtract, multiply, divide."""

    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = node

    def __hash__(self):
        return hash(self._node)

    def __eq__(self, other):
        return isinstance(other, DFPattern) and self._node == other._node

    def __call__(self, *args):
        if len(args) == 1 and args[0] is None:
            return DFPattern(_core.pattern_call(self._node, None))
        return DFPattern(_core.pattern_call(self._node, [_pattern(a)._node for a in args]))

    def __or__(self, other):
        return DFPattern(_core.pattern_alt(self._node, _pattern(other)._node))

    def __add__(self, other):
        return is_op("add")(self, other)

    def __sub__(self, other):
        return is_op("subtract")(self, other)

    def __mul__(self, other):
        return is_op("multiply")(self, other)

    def __truediv__(self, other):
        return is_op("divide")(self, other)

    def has_attr(self, attrs):
        return DFPattern(_core.pattern_has_attr(self._node, dict(attrs)))

    def has_type(self, ttype):
        return DFPattern(_core.pattern_has_type(self._node, ttype))

    def has_dtype(self, dtype):
        return DFPattern(_core.pattern_has_dtype(self._node, str(dtype)))

    def has_shape(self, shape):
        return DFPattern(_core.pattern_has_shape(self._node, [int(d) for d in shape]))

    def match(self, expr):
        return _core.pattern_match(self._node, expr)

    def partition(self, expr, attrs=None, check=None):
        return partition(self, expr, attrs, check)

    def dominates(self, parent, path=None):
        if path is None:
            path = wildcard()
        return DFPattern(_core.pattern_dominates(self._node, _pattern(parent)._node,
                                                 _pattern(path)._node))

    def optional(self, option_constructor):
        return self | option_constructor(self)


def _pattern(p):
    """A DFPattern; an expression becomes is_expr(expr)."""
    if isinstance(p, DFPattern):
        return p
    if isinstance(p, _core.RelayExpr):
        return is_expr(p)
    raise TypeError("expected a DFPattern, got %r" % (p,))


def is_op(op_name):
    return DFPattern(_core.pattern_is_op(op_name))


def wildcard():
    return DFPattern(_core.pattern_wildcard())


def is_var(name=""):
    return DFPattern(_core.pattern_is_var(name))


def is_constant():
    return DFPattern(_core.pattern_is_constant())


def is_expr(expr):
    return DFPattern(_core.pattern_is_expr(expr))


def is_tuple(fields):
    if fields is None:
        return DFPattern(_core.pattern_is_tuple(None))
    return DFPattern(_core.pattern_is_tuple([_pattern(f)._node for f in fields]))


def is_tuple_get_item(tuple_value, index=None):
    return DFPattern(_core.pattern_is_tuple_get_item(_pattern(tuple_value)._node,
                                                     -1 if index is None else int(index)))


def is_if(cond, true_branch, false_branch):
    return DFPattern(_core.pattern_is_if(_pattern(cond)._node, _pattern(true_branch)._node,
                                         _pattern(false_branch)._node))


def is_let(var, value, body):
    return DFPattern(_core.pattern_is_let(_pattern(var)._node, _pattern(value)._node,
                                          _pattern(body)._node))


def has_attr(attrs, pattern=None):
    return (wildcard() if pattern is None else pattern).has_attr(attrs)


def has_type(ttype, pattern=None):
    return (wildcard() if pattern is None else pattern).has_type(ttype)


def has_dtype(dtype, pattern=None):
    return (wildcard() if pattern is None else pattern).has_dtype(dtype)


def has_shape(shape, pattern=None):
    return (wildcard() if pattern is None else pattern).has_shape(shape)


def dominates(parent, path, child):
    return _pattern(child).dominates(parent, path)


def match(pattern, expr):
    return _pattern(pattern).match(expr)


class DFPatternCallback:
    """Subclass it, set ``self.pattern`` and define ``callback(pre, post, node_map)``; node_map
    maps each pattern to the (rewritten) expressions it matched."""

    def __init__(self, require_type=False, rewrite_once=False):
        self.pattern = None
        self.require_type = require_type
        self.rewrite_once = rewrite_once

    def rewrite(self, expr):
        return rewrite(self, expr)

    def callback(self, pre, post, node_map):
        raise NotImplementedError("Unimplemented")


def rewrite(callbacks, expr, mod=None):
    """Rewrite ``expr`` with the callbacks (one or a list) until it stops changing."""
    if isinstance(callbacks, DFPatternCallback):
        callbacks = [callbacks]
    items = []
    for cb in callbacks:
        if cb.pattern is None:
            raise ValueError("DFPatternCallback.pattern is not set")

        def call(pre, post, node_map, _cb=cb):
            wrapped = {DFPattern(k): v for k, v in node_map.items()}
            return _cb.callback(pre, post, wrapped)

        items.append((_pattern(cb.pattern)._node, call, bool(cb.require_type),
                      bool(cb.rewrite_once)))
    return _core.pattern_rewrite(items, expr, mod)


def partition(pattern, expr, attrs=None, check=None):
    """Replace the matches of ``pattern`` (that ``check`` accepts) by calls of functions with
    PartitionedFromPattern (and ``attrs``) attributes."""
    return _core.pattern_partition(_pattern(pattern)._node, expr,
                                   None if attrs is None else dict(attrs), check)
