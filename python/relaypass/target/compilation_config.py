"""tvm.target.make_compilation_config: TVM v0.13's CompilationConfig (src/target/
compilation_config.cc) for PlanDevices: the host target, the primitive targets (each with that
host), the default device for primitives (PassContext option relay.fallback_device_type, else the
one device type in use, else the CPU) and the host's virtual device."""
from .._errors import TVMError
from .target import Target
from .virtual_device import VirtualDevice

_KDL_CPU = 1
_KDL_HEXAGON = 16


class _Device:
    """A (device_type, device_id) pair, as VirtualDevice takes one."""

    def __init__(self, device_type, device_id):
        self.device_type = device_type
        self.device_id = device_id


class CompilationConfig:
    """The targets and default devices a compilation uses (TVM's CompilationConfig)."""

    def __init__(self, host_target, primitive_targets, default_primitive_virtual_device,
                 host_virtual_device):
        self.host_target = host_target
        self.primitive_targets = primitive_targets
        self.default_primitive_virtual_device = default_primitive_virtual_device
        self.host_virtual_device = host_virtual_device
        self.optional_homogeneous_target = (
            primitive_targets[0] if len(primitive_targets) == 1 else None)

    def _as_option(self):
        """PlanDevices' `config` option (passes/plan_devices.h)."""
        return {
            "default_primitive_virtual_device": self.default_primitive_virtual_device,
            "host_virtual_device": self.host_virtual_device,
            "primitive_targets": [VirtualDevice(None, t) for t in self.primitive_targets],
        }

    def __repr__(self):
        lines = ["Primitive targets:"]
        for t in self.primitive_targets:
            lines.append("  {} |-> {}".format(t.kind.device_type, t))
        lines.append("Default primitive virtual device: {}".format(
            self.default_primitive_virtual_device))
        lines.append("Host virtual device: {}".format(self.host_virtual_device))
        return "\n".join(lines)


def _fallback_device_type(ctxt):
    config = getattr(ctxt, "config", None) or {}
    value = config.get("relay.fallback_device_type") if hasattr(config, "get") else None
    if value is None:
        return None
    value = int(getattr(value, "value", value))
    return value if value != -1 else None  # -1: the registry's "not set"


def make_compilation_config(ctxt, target, target_host=None):
    """TVM's make_compilation_config(ctxt, target, target_host=None)."""
    raw_targets = Target.canon_multi_target_and_host(target, target_host)
    if not raw_targets:
        raise TVMError("Require at least one target")
    with_host = [t for t in raw_targets if t.host is not None]
    cpu_like = [t for t in raw_targets if t.kind.device_type in (_KDL_CPU, _KDL_HEXAGON)]
    if with_host:  # rule A: the first target's host
        host_target = Target(str(with_host[0].host))
    elif cpu_like:  # rule B: a CPU-like target
        host_target = Target(str(cpu_like[0]))
    else:  # rule C: the default CPU target
        host_target = Target("llvm")
    host_virtual_device = VirtualDevice(_Device(host_target.kind.device_type, 0), host_target)
    primitive_targets = [Target(str(t), host=host_target) for t in raw_targets]

    device_types = []
    for t in primitive_targets:
        if t.kind.device_type not in device_types:
            device_types.append(t.kind.device_type)
    fallback = _fallback_device_type(ctxt)
    if fallback is not None:  # rule D
        if fallback <= 0:
            raise TVMError("The 'relay.fallback_device_type' pass attribute is set to an invalid "
                           "device type {}".format(fallback))
        default_type = fallback
    elif len(device_types) == 1:  # rule E
        default_type = device_types[0]
    else:  # rule F
        default_type = _KDL_CPU
    matching = [t for t in primitive_targets if t.kind.device_type == default_type]
    if not matching:
        raise TVMError("No target is specified for device type {}. The available targets are: "
                       "{}".format(default_type, ", ".join(str(t) for t in primitive_targets)))
    default_virtual_device = VirtualDevice(_Device(default_type, 0), matching[0])
    return CompilationConfig(host_target, primitive_targets, default_virtual_device,
                             host_virtual_device)
