"""tvm.ir.save_json / tvm.ir.load_json: Relay nodes in TVM's JSON node format.

The layout is TVM v0.13's (src/node/serialization.cc): a document
``{"root": i, "nodes": [...], "b64ndarrays": [...], "attrs": {"tvm_version": ...}}`` whose
``nodes[0]`` is ``{"type_key": ""}`` (null); every other node has a ``type_key`` and, by kind,
``attrs`` (field name -> string: numbers and dtypes as text, object fields as the index of the
node they refer to, null as "0"), ``data`` (Array elements, Map values), ``keys`` (the keys of a
Map whose keys are all strings) or ``repr_str``/``repr_b64`` (runtime.String, Op). A Constant's
``data`` field is an index into ``b64ndarrays``: each the base64 of the tensor in TVM's NDArray
byte layout (the one parameter files hold). Field names and order are those of TVM v0.13's
``VisitAttrs`` of each node.

Both walks use explicit stacks (no recursion that grows with the input) and a node shared in the
graph is written once. relaypass keeps no spans, checked types or virtual devices on its nodes:
they are saved as TVM's defaults (null, null, the unconstrained VirtualDevice) and ignored on load.
"""
import base64
import json as _json
import struct

from .. import _core
from .._errors import TVMError
from .span import SourceName as _SourceName, Span as _Span

TVM_VERSION = "0.13.0"

# Field lists (v0.13 VisitAttrs order) of the expression nodes: (name, kind); kinds: "node" (an
# object reference), "int", "vdev" (virtual_device_), "null" (span/_checked_type_: saved null).
_EXPR_TAIL = [("virtual_device_", "vdev"), ("span", "null"), ("_checked_type_", "null")]

# Older spellings of type keys (TVM's json_compact upgrades them the same way).
_ALIASES = {
    "relay.GlobalVar": "GlobalVar",
    "relay.Op": "Op",
    "relay.TupleType": "TupleType",
    "relay.FuncType": "FuncType",
    "relay.IncompleteType": "IncompleteType",
    "relay.TypeVar": "TypeVar",
    "relay.GlobalTypeVar": "GlobalTypeVar",
    "relay.TypeCall": "TypeCall",
    "StrMap": "Map",
    "relay.attrs.DictAttrs": "DictAttrs",
    "Variable": "tir.Var",
    "SizeVar": "tir.SizeVar",
    "Add": "tir.Add",
    "Sub": "tir.Sub",
    "Mul": "tir.Mul",
    "FloorDiv": "tir.FloorDiv",
    "FloorMod": "tir.FloorMod",
    "Min": "tir.Min",
    "Max": "tir.Max",
}

# The TIR nodes relaypass loads: variables (symbolic dimensions) and the integer arithmetic of
# dimension expressions (relaypass/_symbolic.py).
_TIR_LOADED = ("tir.Var", "tir.SizeVar", "tir.Add", "tir.Sub", "tir.Mul", "tir.FloorDiv",
               "tir.FloorMod", "tir.Min", "tir.Max")


def _err(msg):
    return TVMError("load_json: " + msg)


# Nodes of TVM's that relaypass's IR has no counterpart for: load_json says so by name
# (OpNotImplemented) rather than calling them unknown. v0.6 spellings are listed too.
_TIR_EXPRS = ["Add", "Sub", "Mul", "Div", "Mod", "FloorDiv", "FloorMod", "Min", "Max", "EQ",
              "NE", "LT", "LE", "GT", "GE", "And", "Or", "Not", "Select", "Cast", "Call", "Let",
              "Ramp", "Broadcast", "Shuffle", "Load", "BufferLoad", "ProducerLoad", "Reduce",
              "StringImm"]
_UNAVAILABLE = dict(
    [("TypeRelation", "type relations as IR nodes")]
    + [(k, "TIR expressions") for op in _TIR_EXPRS for k in (op, "tir." + op)
       if "tir." + op not in _TIR_LOADED])


def _unavailable(key):
    from .._errors import OpNotImplemented

    return OpNotImplemented("load_json: %s is not available: relaypass's IR has no %s"
                            % (key, _UNAVAILABLE[key]))


# ---------------------------------------------------------------------------------------------
# Attrs objects: the field kinds of an attrs type, from the defaults of an operator using it.

_ATTRS_OP = None
_ATTRS_KINDS = {}


def _attrs_op(type_key):
    global _ATTRS_OP
    if _ATTRS_OP is None:
        table = {}
        for name in _core.list_op_names():
            try:
                key = _core.Op.get(name).attrs_type_key
            except Exception:  # noqa: BLE001
                continue
            if key and key not in table:
                table[key] = name
        _ATTRS_OP = table
    return _ATTRS_OP.get(type_key)


def _is_dtype_field(name):
    return name == "dtype" or name.endswith("_dtype")


def _attrs_kinds(type_key):
    """{field: kind} for an attrs type: "int"/"float"/"bool" (saved as text), "dtype" (a
    DataType, saved as text), "string" (a tvm::String: a runtime.String node) or "node" (an
    ObjectRef: Array, Integer, ... possibly null). Found from make_op_attrs' defaults; a required
    field's kind is the kind of the first trial value it accepts."""
    if type_key in _ATTRS_KINDS:
        return _ATTRS_KINDS[type_key]
    op = _attrs_op(type_key)
    if op is None:
        return None
    given = {}
    trials = {}
    attrs = None
    for _ in range(64):
        try:
            attrs = _core.make_op_attrs(op, dict(given))
            break
        except Exception as exc:  # noqa: BLE001
            msg = str(exc)
            if "attribute '" not in msg:
                # the last trial value was rejected: try the next one for that field
                if not given:
                    return None
                last = list(given)[-1]
                if not trials[last]:
                    return None
                given[last] = trials[last].pop(0)
                continue
            field = msg.split("attribute '", 1)[1].split("'", 1)[0]
            if field in given:
                if not trials[field]:
                    return None
                given[field] = trials[field].pop(0)
                continue
            trials[field] = ["float32", 0, [0], 0.5]
            given[field] = trials[field].pop(0)
    if attrs is None:
        return None
    kinds = {}
    for name, value in attrs.items():
        if isinstance(value, bool):
            kinds[name] = "bool"
        elif isinstance(value, int):
            kinds[name] = "int"
        elif isinstance(value, float):
            kinds[name] = "float"
        elif isinstance(value, str):
            kinds[name] = "dtype" if _is_dtype_field(name) else "string"
        else:
            kinds[name] = "node"
    # A required field given an int counts as an int; one given a list as a node.
    _ATTRS_KINDS[type_key] = kinds
    return kinds


def _float_text(value):
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return "%.17g" % value


# ---------------------------------------------------------------------------------------------
# Tensors: TVM's NDArray bytes, taken from (and given to) the parameter-file codec.

_PARAM_PREFIX = struct.pack("<QQQQ", 0xF7E58D4F05049CB7, 0, 1, 1) + b"x" + struct.pack("<Q", 1)


def _tensor_bytes(arr):
    blob = bytes(_core.save_param_dict({"x": arr}))
    if not blob.startswith(_PARAM_PREFIX):
        raise TVMError("save_json: unexpected parameter-file layout")
    return blob[len(_PARAM_PREFIX):]


def _tensor_from_bytes(raw):
    try:
        params = _core.load_param_dict(_PARAM_PREFIX + raw)
        return params["x"]
    except Exception as exc:  # noqa: BLE001
        raise _err("bad NDArray in b64ndarrays: %s" % exc) from None


# ---------------------------------------------------------------------------------------------
# save_json


class _Id:
    """relay.Id: the vid of a Var (relaypass's Var is its own identity)."""

    def __init__(self, var):
        self.var = var


class _VDev:
    pass


_VDEV = _VDev()


def _describe_adt(obj):
    """_describe's answer for the ADT and polymorphism nodes (TVM v0.13's ir/type.h,
    ir/type_relation.h, ir/adt.h and relay/adt.h VisitAttrs), None for any other value."""
    c = _core
    if isinstance(obj, (c.GlobalTypeVar, c.TypeVar)):
        key = "GlobalTypeVar" if isinstance(obj, c.GlobalTypeVar) else "TypeVar"
        return (key, {"kind": str(int(obj.kind)), "span": "0"}, [("name_hint", obj.name_hint)],
                [], [], None)
    if isinstance(obj, c.TypeCall):
        return ("TypeCall", {"span": "0"}, [("func", obj.func), ("args", list(obj.args))], [], [],
                None)
    if isinstance(obj, c.TypeData):
        refs = [("header", obj.header), ("type_vars", list(obj.type_vars)),
                ("constructors", list(obj.constructors))]
        return "relay.TypeData", {"span": "0"}, refs, [], [], None
    if isinstance(obj, c.Constructor):
        # A constructor visits no virtual_device_ (ConstructorNode::VisitAttrs).
        lit = {"tag": str(obj.tag), "span": "0", "_checked_type_": "0"}
        refs = [("name_hint", obj.name_hint), ("inputs", list(obj.inputs)),
                ("belong_to", obj.belong_to)]
        return "relay.Constructor", lit, refs, [], [], None
    if isinstance(obj, c.Match):
        lit = {"complete": str(int(bool(obj.complete))), "span": "0", "_checked_type_": "0"}
        refs = [("data", obj.data), ("clauses", list(obj.clauses)), ("virtual_device_", _VDEV)]
        return "relay.Match", lit, refs, [], [], None
    if isinstance(obj, c.Clause):
        return "relay.Clause", {}, [("lhs", obj.lhs), ("rhs", obj.rhs)], [], [], None
    if isinstance(obj, c.PatternWildcard):
        return "relay.PatternWildcard", {"span": "0"}, [], [], [], None
    if isinstance(obj, c.PatternVar):
        return "relay.PatternVar", {"span": "0"}, [("var", obj.var)], [], [], None
    if isinstance(obj, c.PatternConstructor):
        refs = [("constructor", obj.constructor), ("patterns", list(obj.patterns))]
        return "relay.PatternConstructor", {"span": "0"}, refs, [], [], None
    if isinstance(obj, c.PatternTuple):
        return ("relay.PatternTuple", {"span": "0"}, [("patterns", list(obj.patterns))], [], [],
                None)
    return None


def _describe(obj):
    """(type_key, literal attrs, [(field, child)], data children, keys, repr_str) of a value."""
    c = _core
    lit, refs, data, keys, rep = {}, [], [], [], None

    def expr(key, pairs):
        refs.extend(pairs)
        refs.append(("virtual_device_", _VDEV))
        lit["span"] = "0"
        lit["_checked_type_"] = "0"
        return key

    if isinstance(obj, bool):
        return "IntImm", {"dtype": "bool", "value": str(int(obj)), "span": "0"}, [], [], [], None
    if isinstance(obj, int):
        dtype = "int32" if -(2 ** 31) <= obj < 2 ** 31 else "int64"
        return "IntImm", {"dtype": dtype, "value": str(obj), "span": "0"}, [], [], [], None
    if isinstance(obj, float):
        return "FloatImm", {"dtype": "float32", "value": _float_text(obj), "span": "0"}, [], [], [], None
    if isinstance(obj, str):
        return "runtime.String", {}, [], [], [], obj
    if isinstance(obj, (list, tuple)):
        return "Array", {}, [], list(obj), [], None
    if isinstance(obj, dict):
        if all(isinstance(k, str) for k in obj):
            return "Map", {}, [], list(obj.values()), list(obj.keys()), None
        pairs = []
        for k, v in obj.items():
            pairs += [k, v]
        return "Map", {}, [], pairs, [], None
    if obj is _VDEV:
        return ("VirtualDevice", {"device_type_int": "-1", "virtual_device_id": "-1", "target": "0"},
                [("memory_scope", "")], [], [], None)
    if isinstance(obj, _Id):
        return "relay.Id", {}, [("name_hint", obj.var.name_hint)], [], [], None
    if isinstance(obj, _DictAttrs):
        return "DictAttrs", {}, [("__dict__", obj.items)], [], [], None
    if isinstance(obj, c.Op):
        return "Op", {}, [], [], [], obj.name
    if isinstance(obj, c.Var):
        key = expr("relay.Var", [("vid", _Id(obj)), ("type_annotation", obj.type_annotation)])
        return key, lit, refs, [], [], None
    if isinstance(obj, c.GlobalVar):
        return expr("GlobalVar", [("name_hint", obj.name_hint)]), lit, refs, [], [], None
    if isinstance(obj, c.Constant):
        return expr("relay.Constant", [("data", _Tensor(obj.data))]), lit, refs, [], [], None
    if isinstance(obj, c.Tuple):
        return expr("relay.Tuple", [("fields", list(obj.fields))]), lit, refs, [], [], None
    if isinstance(obj, c.Call):
        key = expr("relay.Call", [("op", obj.op), ("args", list(obj.args)), ("attrs", obj.attrs),
                                  ("type_args", list(obj.type_args or []))])
        return key, lit, refs, [], [], None
    if isinstance(obj, c.Let):
        key = expr("relay.Let", [("var", obj.var), ("value", obj.value), ("body", obj.body)])
        return key, lit, refs, [], [], None
    if isinstance(obj, c.If):
        key = expr("relay.If", [("cond", obj.cond), ("true_branch", obj.true_branch),
                                ("false_branch", obj.false_branch)])
        return key, lit, refs, [], [], None
    if isinstance(obj, c.TupleGetItem):
        lit["index"] = str(obj.index)
        return expr("relay.TupleGetItem", [("tuple_value", obj.tuple_value)]), lit, refs, [], [], None
    if isinstance(obj, c.RefCreate):
        return expr("relay.RefCreate", [("value", obj.value)]), lit, refs, [], [], None
    if isinstance(obj, c.RefRead):
        return expr("relay.RefRead", [("ref", obj.ref)]), lit, refs, [], [], None
    if isinstance(obj, c.RefWrite):
        return expr("relay.RefWrite", [("ref", obj.ref), ("value", obj.value)]), lit, refs, [], [], None
    if isinstance(obj, c.Function):
        fattrs = dict(obj.attrs or {})
        key = expr("relay.Function", [
            ("params", list(obj.params)), ("body", obj.body), ("ret_type", obj.ret_type),
            ("type_params", list(obj.type_params or [])),
            ("attrs", _DictAttrs(fattrs) if fattrs else None)])
        return key, lit, refs, [], [], None
    if isinstance(obj, c.IRModule):
        funcs = dict(obj.functions.items())
        gmap = {gv.name_hint: gv for gv in funcs}
        tdefs = dict(obj.type_definitions.items())
        tmap = {gtv.name_hint: gtv for gtv in tdefs}
        refs = [("functions", funcs), ("type_definitions", tdefs), ("global_var_map_", gmap),
                ("global_type_var_map_", tmap)]
        return "IRModule", {"source_map": "0", "attrs": "0"}, refs, [], [], None
    if isinstance(obj, c.TensorType):
        shape = [_ANY if int(d) < 0 else int(d) for d in obj.shape]
        return ("relay.TensorType", {"dtype": str(obj.dtype), "span": "0"}, [("shape", shape)],
                [], [], None)
    if isinstance(obj, c.TupleType):
        return "TupleType", {"span": "0"}, [("fields", list(obj.fields))], [], [], None
    if isinstance(obj, c.FuncType):
        refs = [("arg_types", list(obj.arg_types)), ("ret_type", obj.ret_type),
                ("type_params", list(obj.type_params or [])), ("type_constraints", [])]
        return "FuncType", {"span": "0"}, refs, [], [], None
    adt = _describe_adt(obj)
    if adt is not None:
        return adt
    if isinstance(obj, c.IncompleteType):
        return "IncompleteType", {"kind": "0", "span": "0"}, [], [], [], None
    if isinstance(obj, c.RefType):
        return "relay.RefType", {"span": "0"}, [("value", obj.value)], [], [], None
    if isinstance(obj, _Span):
        lit = {k: str(getattr(obj, k)) for k in ("line", "column", "end_line", "end_column")}
        return "Span", lit, [("source_name", obj.source_name)], [], [], None
    if isinstance(obj, _SourceName):
        return "SourceName", {}, [("name", obj.name)], [], [], None
    if obj is _ANY:
        return "tir.Any", {"dtype": "int32", "span": "0"}, [], [], [], None
    if isinstance(obj, c.Attrs):
        kinds = _attrs_kinds(obj.type_key) or {}
        for name, value in obj.items():
            kind = kinds.get(name)
            if kind is None:  # unknown attrs type: by the value's Python type
                kind = {bool: "bool", int: "int", float: "float"}.get(type(value))
                if kind is None:
                    kind = ("dtype" if _is_dtype_field(name) else "string") if isinstance(
                        value, str) else "node"
            if value is None:
                lit[name] = "0"
            elif kind in ("bool", "int"):
                lit[name] = str(int(value))
            elif kind == "float":
                lit[name] = _float_text(float(value))
            elif kind == "dtype":
                lit[name] = str(value)
            else:
                refs.append((name, value))
        return obj.type_key, lit, refs, [], [], None
    raise TVMError("save_json: cannot serialize a value of type %s" % type(obj).__name__)


class _DictAttrs:
    def __init__(self, items):
        self.items = items


class _Tensor:
    def __init__(self, arr):
        self.arr = arr


class _AnyDim:
    pass


_ANY = _AnyDim()


def _identity(obj):
    # Python scalars, strings and containers are values: each occurrence is its own node.
    if obj is None or isinstance(obj, (bool, int, float, str, list, tuple, dict)):
        return None
    return id(obj)


def save_json(node):
    """tvm.ir.save_json: ``node`` (a Relay expression, type, IRModule, attrs, or a list/dict of
    them) as a JSON string in TVM's node format (module docstring)."""
    nodes = [{"type_key": ""}]
    tensors = []
    index = {}   # id(obj) -> node index
    keep = []    # keeps visited objects alive so that id() stays unique
    pending = []  # (json node, [(field, child)], data children)

    def visit(obj):
        """Index of obj's node, creating it (its children pushed onto the stack)."""
        if obj is None:
            return 0
        if isinstance(obj, _Tensor):
            tensors.append(base64.b64encode(_tensor_bytes(obj.arr)).decode("ascii"))
            return -(len(tensors))  # a tensor index, marked negative
        ident = _identity(obj)
        if ident is not None and ident in index:
            return index[ident]
        keep.append(obj)
        type_key, lit, refs, data, keys, rep = _describe(obj)
        jnode = {"type_key": type_key}
        if rep:  # as TVM, an empty repr is not written
            if rep.isprintable() and rep.isascii():
                jnode["repr_str"] = rep
            else:
                jnode["repr_b64"] = base64.b64encode(rep.encode("utf-8")).decode("ascii")
        jnode["attrs"] = dict(lit)
        if keys:
            jnode["keys"] = list(keys)
        idx = len(nodes)
        nodes.append(jnode)
        if ident is not None:
            index[ident] = idx
        work.append((jnode, refs, data))
        return idx

    work = []
    root = visit(node)
    if root < 0:
        raise TVMError("save_json: an NDArray is saved as part of a Constant")
    while work:
        jnode, refs, data = work.pop()
        for field, child in refs:
            i = visit(child)
            jnode["attrs"][field] = str(-i - 1) if i < 0 else str(i)
        if data:
            jnode["data"] = [visit(child) for child in data]
        pending.append(jnode)
    for jnode in nodes:
        if not jnode.get("attrs"):
            jnode.pop("attrs", None)
        if "attrs" in jnode:
            jnode["attrs"] = dict(sorted(jnode["attrs"].items()))
    doc = {"root": root, "nodes": nodes, "b64ndarrays": tensors,
           "attrs": {"tvm_version": TVM_VERSION}}
    return _json.dumps(doc, indent=2)


# ---------------------------------------------------------------------------------------------
# load_json

# Object-reference fields of each node kind (other fields are literals or ignored).
_REF_FIELDS = {
    "relay.Var": ["vid", "type_annotation"],
    "relay.Id": [],
    "GlobalVar": [],
    "relay.Constant": [],
    "relay.Tuple": ["fields"],
    "relay.Call": ["op", "args", "attrs"],
    "relay.Let": ["var", "value", "body"],
    "relay.If": ["cond", "true_branch", "false_branch"],
    "relay.TupleGetItem": ["tuple_value"],
    "relay.RefCreate": ["value"],
    "relay.RefRead": ["ref"],
    "relay.RefWrite": ["ref", "value"],
    "relay.Function": ["params", "body", "ret_type", "type_params", "attrs"],
    "IRModule": ["functions", "type_definitions"],
    "relay.TensorType": ["shape"],
    "TupleType": ["fields"],
    "FuncType": ["arg_types", "ret_type", "type_params"],
    "TypeVar": [],
    "GlobalTypeVar": [],
    "TypeCall": ["func", "args"],
    "relay.TypeData": ["header", "type_vars", "constructors"],
    "relay.Constructor": ["inputs", "belong_to"],
    "relay.Match": ["data", "clauses"],
    "relay.Clause": ["lhs", "rhs"],
    "relay.PatternWildcard": [],
    "relay.PatternVar": ["var"],
    "relay.PatternConstructor": ["constructor", "patterns"],
    "relay.PatternTuple": ["patterns"],
    "IncompleteType": [],
    "relay.RefType": ["value"],
    "DictAttrs": ["__dict__"],
    "IntImm": [],
    "FloatImm": [],
    "tir.Var": ["type_annotation"],
    "tir.SizeVar": ["type_annotation"],
    "tir.Add": ["a", "b"],
    "tir.Sub": ["a", "b"],
    "tir.Mul": ["a", "b"],
    "tir.FloorDiv": ["a", "b"],
    "tir.FloorMod": ["a", "b"],
    "tir.Min": ["a", "b"],
    "tir.Max": ["a", "b"],
    "tir.Any": [],
    "runtime.String": [],
    "Op": [],
    "VirtualDevice": [],
    "Span": ["source_name"],
    "SourceName": [],
}
# tvm::String fields: a runtime.String node in v0.13, a literal in older files.
_STRING_FIELDS = {"tir.Var": ["name", "name_hint"], "tir.SizeVar": ["name", "name_hint"],
                  "relay.Id": ["name_hint"], "GlobalVar": ["name_hint"], "SourceName": ["name"],
                  "TypeVar": ["name_hint"], "GlobalTypeVar": ["name_hint"],
                  "relay.Constructor": ["name_hint"]}


def _ref(jnode, field, n_nodes, required=False):
    value = jnode.get("attrs", {}).get(field)
    if value is None:
        if required:
            raise _err("%s misses field %s" % (jnode["type_key"], field))
        return 0
    if value == "null":
        return 0
    try:
        i = int(value)
    except (TypeError, ValueError):
        raise _err("field %s of %s is not a node index: %r" % (field, jnode["type_key"], value)) \
            from None
    if not 0 <= i < n_nodes:
        raise _err("field %s of %s: node index %d out of range" % (field, jnode["type_key"], i))
    return i


def _children(jnode, nodes):
    """Indices of the nodes this node refers to (its dependencies)."""
    n = len(nodes)
    key = jnode["type_key"]
    if key in _UNAVAILABLE:
        raise _unavailable(key)
    out = []
    data = jnode.get("data", [])
    for i in data:
        if not isinstance(i, int) or not 0 <= i < n:
            raise _err("%s: data index %r out of range" % (key, i))
        out.append(i)
    if key in _REF_FIELDS:
        for field in _REF_FIELDS[key]:
            out.append(_ref(jnode, field, n))
        for field in _STRING_FIELDS.get(key, []):
            i = _string_ref(jnode, field, nodes)
            if i is not None:
                out.append(i)
    elif key not in ("Array", "Map", ""):
        kinds = _attrs_kinds(key)
        if kinds is None:
            raise _err("unknown type_key %s" % key)
        for field, kind in kinds.items():
            if kind == "node":
                out.append(_ref(jnode, field, n))
            elif kind == "string":
                i = _string_ref(jnode, field, nodes)
                if i is not None:
                    out.append(i)
    return [i for i in out if i != 0]


def _string_ref(jnode, field, nodes):
    value = jnode.get("attrs", {}).get(field)
    if isinstance(value, str) and value.isdigit():
        i = int(value)
        if 0 < i < len(nodes) and nodes[i].get("type_key") == "runtime.String":
            return i
    return None


def _read_doc(json_str):
    if isinstance(json_str, (bytes, bytearray)):
        json_str = bytes(json_str).decode("utf-8", "replace")
    if not isinstance(json_str, str):
        raise _err("expects a JSON string, got %s" % type(json_str).__name__)
    try:
        doc = _json.loads(json_str)
    except ValueError as exc:
        raise _err("malformed JSON: %s" % exc) from None
    if not isinstance(doc, dict) or "root" not in doc or "nodes" not in doc:
        raise _err("malformed JSON graph: expects an object with 'root' and 'nodes'")
    nodes = doc["nodes"]
    if not isinstance(nodes, list) or not nodes:
        raise _err("malformed JSON graph: 'nodes' is not a non-empty list")
    for i, jn in enumerate(nodes):
        if not isinstance(jn, dict):
            raise _err("malformed JSON graph: node %d is not an object" % i)
        jn = dict(jn)
        key = jn.get("type_key", "")
        if not isinstance(key, str):
            raise _err("malformed JSON graph: node %d has a non-string type_key" % i)
        if key == "relay.Op" and "global_key" in jn:  # v0.6: the op name was global_key
            jn["repr_str"] = jn["global_key"]
        jn["type_key"] = _ALIASES.get(key, key)
        attrs = jn.get("attrs", {})
        if not isinstance(attrs, dict) or not all(isinstance(v, str) for v in attrs.values()):
            raise _err("malformed JSON graph: node %d's attrs are not strings" % i)
        for name in ("data", "keys"):
            if not isinstance(jn.get(name, []), list):
                raise _err("malformed JSON graph: node %d's %s is not a list" % (i, name))
        nodes[i] = jn
    root = doc["root"]
    if not isinstance(root, int) or not 0 <= root < len(nodes):
        raise _err("root %r is not a node index" % (root,))
    tensors = doc.get("b64ndarrays", [])
    if not isinstance(tensors, list) or not all(isinstance(t, str) for t in tensors):
        raise _err("malformed JSON graph: 'b64ndarrays' is not a list of strings")
    return doc, nodes, root, tensors


def _lit(jnode, field, conv, default=None):
    value = jnode.get("attrs", {}).get(field)
    if value is None:
        if default is not None:
            return default
        raise _err("%s misses field %s" % (jnode["type_key"], field))
    try:
        return conv(value)
    except (TypeError, ValueError):
        raise _err("wrong value format for field %s of %s: %r" % (field, jnode["type_key"], value)) \
            from None


def _parse_float(text):
    return float({"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text))


class _Loader:
    def __init__(self, nodes, tensors):
        self.nodes = nodes
        self.tensors = tensors
        self.built = {0: None}
        self.tensor_cache = {}

    def ref(self, jnode, field, required=False):
        return self.built[_ref(jnode, field, len(self.nodes), required)]

    def tir(self, jnode, key, r):
        """A TIR variable (v0.6 spells its name `name`, later versions `name_hint`) or one of
        the integer operations of dimension expressions."""
        from .. import _symbolic

        if key in ("tir.Var", "tir.SizeVar"):
            field = "name_hint" if "name_hint" in jnode.get("attrs", {}) else "name"
            name = self.string(jnode, field)
            dtype = jnode.get("attrs", {}).get("dtype", "int32")
            if key == "tir.Var":
                return _symbolic.SymbolicVar(name, dtype, "tvm.tir.Var")
            return _symbolic.SymbolicSizeVar(name, dtype, "tvm.tir.SizeVar")
        a, b = r("a", True), r("b", True)
        op = {"tir.Add": lambda: a + b, "tir.Sub": lambda: a - b, "tir.Mul": lambda: a * b,
              "tir.FloorDiv": lambda: a // b, "tir.FloorMod": lambda: a % b,
              "tir.Min": lambda: _symbolic.dim_min(a, b),
              "tir.Max": lambda: _symbolic.dim_max(a, b)}[key]
        if not any(isinstance(v, _symbolic.SymbolicVar) for v in (a, b)):
            from .._values import IntImm

            return IntImm(op())  # constants fold as TVM's operators fold them
        return op()

    def string(self, jnode, field):
        i = _string_ref(jnode, field, self.nodes)
        if i is not None:
            return self.built[i]
        return _lit(jnode, field, str)

    def tensor(self, jnode):
        i = _lit(jnode, "data", int)
        if not 0 <= i < len(self.tensors):
            raise _err("relay.Constant: tensor index %d out of range" % i)
        if i not in self.tensor_cache:
            try:
                raw = base64.b64decode(self.tensors[i], validate=True)
            except ValueError:
                raise _err("b64ndarrays[%d] is not base64" % i) from None
            self.tensor_cache[i] = _tensor_from_bytes(raw)
        return self.tensor_cache[i]

    def build(self, jnode):
        c = _core
        key = jnode["type_key"]
        r = lambda f, req=False: self.ref(jnode, f, req)  # noqa: E731
        if key == "":
            return None
        if key == "Array":
            return [self.built[i] for i in jnode.get("data", [])]
        if key == "Map":
            data = jnode.get("data", [])
            keys = jnode.get("keys", [])
            if keys:
                if len(keys) != len(data):
                    raise _err("Map: %d keys for %d values" % (len(keys), len(data)))
                return {str(k): self.built[i] for k, i in zip(keys, data)}
            if len(data) % 2:
                raise _err("Map: odd number of data entries")
            return {self.built[data[i]]: self.built[data[i + 1]] for i in range(0, len(data), 2)}
        if key == "runtime.String":
            if "repr_str" in jnode:
                return str(jnode["repr_str"])
            if "repr_b64" in jnode:
                try:
                    return base64.b64decode(jnode["repr_b64"]).decode("utf-8")
                except ValueError:
                    raise _err("runtime.String: bad repr_b64") from None
            return ""
        if key == "IntImm":
            value = _lit(jnode, "value", int)
            return bool(value) if jnode["attrs"].get("dtype") == "bool" else value
        if key == "FloatImm":
            return _lit(jnode, "value", _parse_float)
        if key == "tir.Any":
            return -1
        if key in _TIR_LOADED:
            return self.tir(jnode, key, r)
        if key == "Span":
            return _Span(r("source_name"), *(_lit(jnode, f, int) for f in
                                             ("line", "end_line", "column", "end_column")))
        if key == "SourceName":
            return _SourceName(self.string(jnode, "name"))
        if key == "VirtualDevice":
            return None
        if key == "Op":
            name = jnode.get("repr_str")
            if not isinstance(name, str):
                raise _err("Op without a name")
            try:
                return c.Op.get(name)
            except Exception:  # noqa: BLE001
                raise _err("unknown operator %s" % name) from None
        if key == "relay.Id":
            return _IdName(self.string(jnode, "name_hint"))
        if key == "relay.Var":
            vid = r("vid", True)
            if not isinstance(vid, _IdName):
                raise _err("relay.Var: vid is not a relay.Id")
            return c.Var(vid.name, r("type_annotation"))
        if key == "GlobalVar":
            return c.GlobalVar(self.string(jnode, "name_hint"))
        if key == "relay.Constant":
            return c.Constant(self.tensor(jnode))
        if key == "relay.Tuple":
            return c.Tuple(list(r("fields") or []))
        if key == "relay.Call":
            return c.Call(r("op", True), list(r("args") or []), r("attrs"))
        if key == "relay.Let":
            return c.Let(r("var", True), r("value", True), r("body", True))
        if key == "relay.If":
            return c.If(r("cond", True), r("true_branch", True), r("false_branch", True))
        if key == "relay.TupleGetItem":
            return c.TupleGetItem(r("tuple_value", True), _lit(jnode, "index", int))
        if key == "relay.RefCreate":
            return c.RefCreate(r("value", True))
        if key == "relay.RefRead":
            return c.RefRead(r("ref", True))
        if key == "relay.RefWrite":
            return c.RefWrite(r("ref", True), r("value", True))
        if key == "relay.Function":
            fattrs = r("attrs")
            fn = c.Function(list(r("params") or []), r("body", True), r("ret_type"),
                            list(r("type_params") or []))
            for name, value in (fattrs or {}).items():
                fn = fn.with_attr(name, value)
            return fn
        if key == "DictAttrs":
            return dict(r("__dict__") or {})
        if key == "IRModule":
            funcs = r("functions") or {}
            tdefs = r("type_definitions") or {}
            return c.IRModule(funcs or None, tdefs or None)
        if key == "relay.TensorType":
            return c.TensorType(list(r("shape") or []), _lit(jnode, "dtype", str))
        if key == "TupleType":
            return c.TupleType(list(r("fields") or []))
        if key == "FuncType":
            return c.FuncType(list(r("arg_types") or []), r("ret_type", True),
                              list(r("type_params") or []))
        adt = self.build_adt(jnode, key)
        if adt is not None:
            return adt
        if key == "IncompleteType":
            return c.IncompleteType()
        if key == "relay.RefType":
            return c.RefType(r("value", True))
        kinds = _attrs_kinds(key)
        if kinds is None:
            raise _err("unknown type_key %s" % key)
        values = {}
        for field, kind in kinds.items():
            if field not in jnode.get("attrs", {}):
                continue
            if kind == "node":
                value = r(field)
            elif kind == "string":
                if jnode["attrs"][field] in ("0", "null"):  # null: the field's default
                    continue
                value = self.string(jnode, field)
            elif kind == "dtype":
                value = _lit(jnode, field, str)
                if value == "void":
                    value = ""
            elif kind == "float":
                value = _lit(jnode, field, _parse_float)
            elif kind == "bool":
                value = bool(_lit(jnode, field, int))
            else:
                value = _lit(jnode, field, int)
            if value is not None:
                values[field] = value
        try:
            return c.make_op_attrs(_attrs_op(key), values)
        except Exception as exc:  # noqa: BLE001
            raise _err("%s: %s" % (key, exc)) from None


    def _type_var_name(self, jnode):
        """A type variable's name: its name_hint, or (TVM v0.6 files) the name of the TIR
        variable its "var" field points to, which json_compact upgrades the same way."""
        attrs = jnode.get("attrs", {})
        if "name_hint" not in attrs and "var" in attrs:
            var = self.nodes[_ref(jnode, "var", len(self.nodes), True)]
            name = var.get("attrs", {}).get("name", var.get("attrs", {}).get("name_hint"))
            if not isinstance(name, str):
                raise _err("%s: its var has no name" % jnode["type_key"])
            return name
        return self.string(jnode, "name_hint")

    def build_adt(self, jnode, key):
        """build's answer for the ADT and polymorphism nodes, None for other keys."""
        c = _core
        r = lambda f, req=False: self.ref(jnode, f, req)  # noqa: E731
        if key in ("TypeVar", "GlobalTypeVar"):
            kind = _lit(jnode, "kind", int, 5 if key == "GlobalTypeVar" else 0)
            cls = c.GlobalTypeVar if key == "GlobalTypeVar" else c.TypeVar
            return cls(self._type_var_name(jnode), kind)
        if key == "TypeCall":
            return c.TypeCall(r("func", True), list(r("args") or []))
        if key == "relay.TypeData":
            return c.TypeData(r("header", True), list(r("type_vars") or []),
                              list(r("constructors") or []))
        if key == "relay.Constructor":
            # The tag is the module's to give (when the type definition is added).
            return c.Constructor(self.string(jnode, "name_hint"), list(r("inputs") or []),
                                 r("belong_to", True))
        if key == "relay.Match":
            complete = bool(_lit(jnode, "complete", int, 1))
            return c.Match(r("data", True), list(r("clauses") or []), complete)
        if key == "relay.Clause":
            return c.Clause(r("lhs", True), r("rhs", True))
        if key == "relay.PatternWildcard":
            return c.PatternWildcard()
        if key == "relay.PatternVar":
            return c.PatternVar(r("var", True))
        if key == "relay.PatternConstructor":
            return c.PatternConstructor(r("constructor", True), list(r("patterns") or []))
        if key == "relay.PatternTuple":
            return c.PatternTuple(list(r("patterns") or []))
        return None


class _IdName:
    def __init__(self, name):
        self.name = name


def load_json(json_str):
    """tvm.ir.load_json: the node a JSON string in TVM's node format describes (module
    docstring); malformed input or an unknown type_key raises TVMError naming it."""
    _doc, nodes, root, tensors = _read_doc(json_str)
    loader = _Loader(nodes, tensors)
    # Post-order over the nodes reachable from root, with an explicit stack.
    state = {0: 2, root: 1}
    stack = [(root, iter(_children(nodes[root], nodes)))]
    order = []
    while stack:
        i, pending = stack[-1]
        for child in pending:
            cs = state.get(child, 0)
            if cs == 1:
                raise _err("cyclic reference detected in JSON graph (node %d)" % child)
            if cs == 0:
                state[child] = 1
                stack.append((child, iter(_children(nodes[child], nodes))))
                break
        else:
            stack.pop()
            state[i] = 2
            order.append(i)
    for i in order:
        if i in loader.built:
            continue
        try:
            loader.built[i] = loader.build(nodes[i])
        except TVMError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise _err("cannot build node %d (%s): %s" % (i, nodes[i]["type_key"], exc)) from None
    return loader.built[root]
