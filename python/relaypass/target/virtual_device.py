"""tvm.target.VirtualDevice: a device type, a virtual device id, a target and a memory scope, as
TVM v0.13 names where a value lives (PlanDevices' annotations, on_device, device_copy). The C++
node itself (relaypass/ir/virtual_device.h): ``VirtualDevice(device=None, target=None,
memory_scope="")`` with ``device_type_int``, ``virtual_device_id``, ``target`` and
``memory_scope``; equality and hashing are structural."""
from .. import _core

VirtualDevice = _core.VirtualDevice
VirtualDevice.__module__ = "tvm.target.virtual_device"
