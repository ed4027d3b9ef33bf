"""tvm.relay.backend.interpreter: the value the interpreter gives for a reference (RefValue).
The executors themselves are create_executor's (relay.build_module)."""


class RefValue:
    """A reference cell as the interpreter returns it (TVM's relay.RefValue): ``.value`` is the
    content the cell had when evaluation finished. Passed as an argument, it is a new cell
    holding that content (TVM's interpreter makes a RefCreate of it)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "RefValue({!r})".format(self.value)
