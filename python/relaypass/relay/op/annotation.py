"""relay.annotation."""
from ._make import call


def stop_fusion(data):
    """A boundary FuseOps does not fuse across."""
    return call("annotation.stop_fusion", [data])


def checkpoint(data):
    """A checkpoint for the gradient pass to recompute (TVM's annotation.checkpoint)."""
    return call("annotation.checkpoint", [data])


def compiler_begin(data, compiler):
    """Where a region for ``compiler`` begins (BYOC; AnnotateTarget inserts these)."""
    return call("annotation.compiler_begin", [data], compiler=compiler)


def compiler_end(data, compiler):
    """Where a region for ``compiler`` ends."""
    return call("annotation.compiler_end", [data], compiler=compiler)


def _make_virtual_device(device):
    """TVM's _make_virtual_device: a VirtualDevice from a Device, a device name or itself."""
    from ...nd import Device, device as _device
    from ...target import VirtualDevice

    if isinstance(device, VirtualDevice):
        return device
    if isinstance(device, Device):
        return VirtualDevice(device)
    if isinstance(device, str):
        return VirtualDevice(_device(device))
    raise ValueError("expecting a Device or device name, but received a %s" % (type(device)))


def on_device(body, device, constrain_result=False, constrain_body=True):
    """TVM's on_device: ``body`` is on ``device`` (a Device, device name or VirtualDevice);
    ``constrain_result`` also puts the result there, ``constrain_body=False`` frees the body."""
    return call("on_device", [body], virtual_device=_make_virtual_device(device),
                constrain_result=bool(constrain_result), constrain_body=bool(constrain_body))


def function_on_device(function, param_devices, result_device):
    """TVM's function_on_device: ``function`` with the virtual devices of its parameters and
    result."""
    from ... import _core

    return _core.function_on_device(function,
                                    [_make_virtual_device(d) for d in param_devices],
                                    _make_virtual_device(result_device))
