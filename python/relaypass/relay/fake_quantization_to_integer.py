"""tvm.relay.transform.fake_quantization_to_integer: the rules of FakeQuantizationToInteger live
in C++ (src/qnn/fq2i_rules.cc, TVM's rules); rules written in Python are not supported."""
from .._errors import OpNotImplemented


def register_fake_quantization_to_integer(op_name, func=None, level=10):
    """Not available: relaypass's FakeQuantizationToInteger rules are C++ (docs/qnn.md)."""
    raise OpNotImplemented(
        "register_fake_quantization_to_integer: relaypass's FakeQuantizationToInteger rules are "
        "built in (docs/qnn.md); %s cannot get one from Python" % op_name)


def register_optional_fake_quantization_to_integer(op_name, func=None, level=10):
    """Not available, as register_fake_quantization_to_integer."""
    return register_fake_quantization_to_integer(op_name, func, level)
