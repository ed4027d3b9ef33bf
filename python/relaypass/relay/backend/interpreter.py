"""tvm.relay.backend.interpreter: the values the interpreter gives for a reference (RefValue)
and an ADT value (ConstructorValue). The executors themselves are create_executor's
(relay.build_module)."""


class RefValue:
    """A reference cell as the interpreter returns it (TVM's relay.RefValue): ``.value`` is the
    content the cell had when evaluation finished. Passed as an argument, it is a new cell
    holding that content (TVM's interpreter makes a RefCreate of it)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "RefValue({!r})".format(self.value)


class ConstructorValue:
    """An ADT value as TVM's interpreter returns it: the constructor's ``tag``, the ``fields``
    (a list of values) and the ``constructor`` (a relay.Constructor)."""

    def __init__(self, tag, fields, constructor):
        self.tag = tag
        self.fields = list(fields)
        self.constructor = constructor

    def __repr__(self):
        return "ConstructorValue({}, {!r})".format(self.constructor.name_hint, self.fields)


def __getattr__(name):
    # TVM's other names here: a placeholder that fails when used, as for the rest of
    # tvm.relay.backend.
    if name.startswith("__"):
        raise AttributeError(name)
    from ..._unsupported import _Missing

    return _Missing("tvm.relay.backend.interpreter." + name)
