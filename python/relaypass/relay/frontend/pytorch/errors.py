"""The errors from_pytorch raises, worded as TVM v0.13's."""

# Nodes the importer handles itself rather than through the converter table.
BUILTIN_NODE_KINDS = (
    "prim::Constant",
    "prim::GetAttr",
    "prim::ListConstruct",
    "prim::ListUnpack",
    "prim::TupleConstruct",
    "prim::TupleUnpack",
    "prim::RaiseException",
    "prim::If",
    "prim::Loop",
)


def missing_conversions(op_names, known):
    """The op kinds in ``op_names`` with no converter; ``relu_`` counts as ``relu`` (TVM converts
    an in-place op as its out-of-place twin)."""
    known = set(known) | set(BUILTIN_NODE_KINDS)
    return sorted(
        name for name in op_names
        if name not in known and not (name.endswith("_") and name[:-1] in known))


def report_missing_conversion(op_names, known):
    """TVM's check before converting: one NotImplementedError listing every op it cannot convert."""
    missing = missing_conversions(op_names, known)
    if missing:
        raise NotImplementedError(
            "The following operators are not implemented: {}".format(missing))


def missing_relay_op(op_kind, relay_op):
    """For a converter that needs, in this one case, a Relay operator relaypass does not have."""
    return NotImplementedError(
        "The following operators are not implemented: {} (relaypass has no Relay operator "
        "{} yet)".format([op_kind], relay_op))


def unsupported(op_kind, what):
    """A case of an op TVM converts that relaypass cannot represent (yet)."""
    return NotImplementedError("{}: {} is not supported by relaypass".format(op_kind, what))
