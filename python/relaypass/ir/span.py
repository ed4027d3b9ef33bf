"""tvm.ir.Span and tvm.ir.SourceName as values (TVM's field names and constructor order).
relaypass's IR nodes keep no spans: a span given to a node's constructor is dropped and
``node.span`` is None. Spans can be made, compared (identity, as TVM's objects) and saved with
tvm.ir.save_json / load_json."""


class SourceName:
    """The name of a source (a file name): ``SourceName(name)``."""

    def __init__(self, name):
        self.name = str(name)

    def same_as(self, other):
        return self is other

    def __repr__(self):
        return self.name


class Span:
    """A region of a source: ``Span(source_name, line, end_line, column, end_column)``."""

    def __init__(self, source_name, line, end_line, column, end_column):
        if isinstance(source_name, str):
            source_name = SourceName(source_name)
        self.source_name = source_name
        self.line = int(line)
        self.end_line = int(end_line)
        self.column = int(column)
        self.end_column = int(end_column)

    def same_as(self, other):
        return self is other

    def __repr__(self):
        return "Span({}, {}:{}-{}:{})".format(
            self.source_name, self.line, self.column, self.end_line, self.end_column)
