"""tvm.target.VirtualDevice: a device, a target and a memory scope, as TVM v0.13 names where a
value lives (PlanDevices' annotations). relaypass runs everything on the CPU; this is the value
itself, for programs that make and compare them."""
from ..nd import Device

# TVM's kInvalidDeviceType: a VirtualDevice that leaves the device type open.
_INVALID_DEVICE_TYPE = -1


class VirtualDevice:
    """TVM's VirtualDevice(device=None, target=None, memory_scope="")."""

    def __init__(self, device=None, target=None, memory_scope=""):
        if device is not None and not isinstance(device, Device):
            raise TypeError("VirtualDevice takes a Device, got {}".format(type(device).__name__))
        self.device_type_int = device.device_type if device is not None else _INVALID_DEVICE_TYPE
        self.virtual_device_id = device.device_id if device is not None else -1
        self.target = target
        self.memory_scope = memory_scope

    def _key(self):
        return (self.device_type_int, self.virtual_device_id,
                str(self.target) if self.target is not None else None, self.memory_scope)

    def __eq__(self, other):
        return isinstance(other, VirtualDevice) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        parts = []
        if self.device_type_int != _INVALID_DEVICE_TYPE:
            parts.append("device_type={}".format(self.device_type_int))
        if self.virtual_device_id >= 0:
            parts.append("virtual_device_id={}".format(self.virtual_device_id))
        if self.target is not None:
            parts.append("target={}".format(self.target))
        if self.memory_scope:
            parts.append("memory_scope='{}'".format(self.memory_scope))
        return "VirtualDevice({})".format(", ".join(parts))
