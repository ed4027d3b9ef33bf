"""tvm.runtime.container: ADT (what executors return for a tuple), tuple_object, String and
ShapeTuple, as TVM v0.13's Python sees them."""


class ADT:
    """An algebraic data type value: a tag and fields. A tuple is the ADT of tag 0."""

    def __init__(self, tag, fields):
        self.tag = tag
        self._fields = list(fields)

    def __getitem__(self, index):
        return self._fields[index]

    def __len__(self):
        return len(self._fields)

    def __iter__(self):
        return iter(self._fields)

    def __repr__(self):
        return "ADT(tag={}, fields={})".format(self.tag, self._fields)


def tuple_object(fields=None):
    """The ADT of a tuple holding ``fields``."""
    return ADT(0, fields or [])


String = str


class ShapeTuple(tuple):
    """A shape (tvm.runtime.ShapeTuple): a tuple of ints."""

    def __new__(cls, shape):
        return super().__new__(cls, (int(d) for d in shape))
