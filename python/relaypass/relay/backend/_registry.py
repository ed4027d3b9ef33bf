"""The attribute registry behind Executor and Runtime: TVM v0.13's AttrRegistry with
ExecutorRegEntry / RuntimeRegEntry (src/relay/backend/executor.cc, runtime.cc), in Python.

A registered name has options, each with a TVM type key ("IntImm", "runtime.String") and maybe
a default. ``create`` checks the options it is given as TVM's ``Executor::Create`` does, with
TVM's messages, and adds the defaults; values are converted as TVM's FFI converts Python values
(``convert_to_object``): bool -> IntImm of dtype bool, int -> IntImm, float -> FloatImm,
str -> runtime.String, list/tuple -> Array, dict -> Map."""
import numbers

from ..._errors import TVMError
from ..._values import FloatImm, IntImm, IntImm64


class BoolImm(IntImm):
    """A boolean constant (TVM's IntImm of dtype bool, what True becomes in an attribute map)."""

    dtype = "bool"

    def __repr__(self):  # TVMScript's form, which TVM v0.13's printer gives an IntImm of bool
        return "T.bool({})".format(bool(self))

    __str__ = __repr__


def convert(value):
    """(TVM type key, value) for a Python value, as TVM's convert_to_object turns it into an
    object (python/tvm/runtime/object_generic.py)."""
    if isinstance(value, IntImm):
        return "IntImm", value
    if isinstance(value, FloatImm):
        return "FloatImm", value
    if isinstance(value, bool):
        return "IntImm", BoolImm(value)
    if isinstance(value, numbers.Integral):
        v = int(value)
        return "IntImm", (IntImm(v) if -(2**31) <= v < 2**31 else IntImm64(v))
    if isinstance(value, numbers.Real):
        return "FloatImm", FloatImm(value)
    if isinstance(value, str):
        return "runtime.String", str(value)
    if isinstance(value, (list, tuple)):
        return "Array", [convert(v)[1] for v in value]
    if isinstance(value, dict):
        return "Map", {convert(k)[1]: convert(v)[1] for k, v in value.items()}
    if value is None:
        # TVM keeps a null object here (and then crashes reading its type); name it instead.
        return "None", None
    raise ValueError("don't know how to convert type {} to object".format(type(value)))


def _escape(text):
    out = []
    for ch in text:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20:
            out.append("\\x{:02x}".format(ord(ch)))
        else:
            out.append(ch)
    return "".join(out)


def repr_value(value):
    """A value as TVM's ReprPrinter prints it inside a Map."""
    if isinstance(value, str):
        return '"{}"'.format(_escape(value))
    if isinstance(value, BoolImm):
        return repr(value)
    if isinstance(value, IntImm):  # TVMScript: an int32 bare, other widths T.int64(5)
        if value.dtype == "int32":
            return str(int(value))
        return "T.{}({})".format(value.dtype, int(value))
    if isinstance(value, FloatImm):
        return repr(float(value))
    if isinstance(value, list):
        return "[" + ", ".join(repr_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return repr_map(value)
    return repr(value)


def repr_map(mapping):
    """A Map<String, ObjectRef> as TVM's ReprPrinter prints it (src/node/container_printing.cc):
    ``{"key": value, ...}``."""
    items = []
    for key, value in mapping.items():
        head = '"{}"'.format(key) if isinstance(key, str) else repr_value(key)
        items.append("{}: {}".format(head, repr_value(value)))
    return "{" + ", ".join(items) + "}"


class KeyNotFound(TVMError, KeyError):
    """A missing key of an attribute map (TVM's MapGetItem check; also a KeyError)."""

    __str__ = BaseException.__str__


class AttrMap(dict):
    """The attributes of an Executor or Runtime (TVM's Map<String, ObjectRef>), a read-only dict
    whose missing keys raise TVM's error."""

    def __missing__(self, key):
        raise KeyNotFound('cannot find the corresponding key in the Map: "{}"'.format(key))

    def _readonly(self, *args, **kwargs):
        raise TypeError("the attributes of an Executor or Runtime cannot be changed")

    __setitem__ = __delitem__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly

    def __repr__(self):
        return repr_map(self)

    def __reduce__(self):  # copy and pickle without the blocked __setitem__
        return (_attr_map, (dict(self),))


def _attr_map(items):
    result = AttrMap()
    dict.update(result, items)
    return result


_NO_DEFAULT = object()


class Registry:
    """Registered names of one kind ("Executor", "Runtime"), each with its options."""

    def __init__(self, kind):
        self.kind = kind
        self._entries = {}  # name -> {option: (type_key, default)}, in registration order

    def register(self, name):
        """The entry for ``name`` (created when new); ``add_attr_option`` on it adds options."""
        return _Entry(self._entries.setdefault(name, {}))

    def _get(self, name):
        entry = self._entries.get(str(name))
        if entry is None:
            raise TVMError('{} "{}" is not defined'.format(self.kind, name))
        return entry

    def names(self):
        return list(self._entries)

    def options(self, name):
        return {key: type_key for key, (type_key, _) in self._get(name).items()}

    def create(self, name, attrs):
        """The checked attributes (defaults added) of ``name`` with the given options."""
        entry = self._get(name)
        result = AttrMap()
        for key, value in dict(attrs).items():
            if not isinstance(key, str):
                raise TVMError(
                    "the options of {} {} are named by strings, not {!r}".format(
                        self.kind.lower(), name, key
                    )
                )
            if key not in entry:
                raise TVMError(
                    'Attribute "{}" is not available on this {}'.format(key, self.kind)
                )
            actual, converted = convert(value)
            expected = entry[key][0]
            if actual != expected:
                raise TVMError(
                    'Attribute "{}" should have type "{}" but instead found "{}"'.format(
                        key, expected, actual
                    )
                )
            dict.__setitem__(result, key, converted)
        for key, (_, default) in entry.items():
            if default is not _NO_DEFAULT and key not in result:
                dict.__setitem__(result, key, default)
        return result


class _Entry:
    def __init__(self, options):
        self._options = options

    def add_attr_option(self, key, type_key, default=_NO_DEFAULT):
        """Adds an option with TVM's type key ("IntImm", "runtime.String") and maybe a default
        (given as a Python value, converted as TVM's FFI would)."""
        if default is not _NO_DEFAULT:
            actual, default = convert(default)
            if actual != type_key:
                raise TVMError(
                    'the default of "{}" has type "{}", not "{}"'.format(key, actual, type_key)
                )
        self._options[key] = (type_key, default)
        return self


class ConfigObject:
    """What Executor and Runtime share: TVM's Executor/Runtime Python classes
    (python/tvm/relay/backend/executor.py, runtime.py) over the node ``{name, attrs}``."""

    _registry = None  # set by the subclass

    @classmethod
    def list_registered(cls):
        """The names registered for this kind (a list)."""
        return cls._registry.names()

    @classmethod
    def list_registered_options(cls, name_or_object):
        """{option name: TVM type key} for one name, given as a str or as the object (through
        its str(), as TVM does)."""
        return cls._registry.options(str(name_or_object))

    def __init__(self, name, options=None) -> None:
        if options is None:
            options = {}
        attrs = self._registry.create(name, options)
        self._name = str(name)
        self._attrs = attrs

    @property
    def name(self):
        return self._name

    @property
    def attrs(self):
        """The attributes, defaults included (TVM's DictAttrs; relaypass's DictAttrs is a dict)."""
        return dict(self._attrs)

    def __contains__(self, name):
        return name in self._attrs

    def __getitem__(self, name):
        return self._attrs[name]

    def __eq__(self, other):
        # TVM's: same printed form and the same attributes
        # (TVM raises AttributeError for an object without attributes, such as a str)
        other_attrs = getattr(other, "_attrs", None)
        if other_attrs is None:
            return False
        return str(other) == str(self) and dict(other_attrs) == dict(self._attrs)

    __hash__ = None  # as TVM's classes, which define __eq__ only

    def __repr__(self):
        return str(self)
