"""tvm.target.Target as TVM v0.13's Python sees it, over relaypass's target parser
(relaypass/passes/target.h: TVM's kinds, options and string form). A target is also a ``with``
context, which AlterOpLayout hooks see as Target.current()."""
import re

from .. import _core
from .._errors import TVMValueError

_CoreTarget = _core.Target


class TargetKind:
    """A target's kind (tvm.target.TargetKind): name, device_type and options."""

    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type

    @property
    def options(self):
        return _CoreTarget.list_kind_options(self.name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, TargetKind) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


def _spec_from_dict(config):
    config = dict(config)
    if "kind" not in config:
        raise TVMValueError("a target dict needs a 'kind'")
    words = [str(config.pop("kind"))]
    config.pop("host", None)
    for key, value in config.items():
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = int(value)
        words.append("-{}={}".format(key, value))
    return " ".join(words)


class Target:
    """A compilation target (tvm.target.Target): ``Target("llvm -mcpu=skylake-avx512")``,
    ``Target(target, host=...)``, or a dict of TVM's JSON form."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self._core = target._core
            host = host if host is not None else target.host
        elif isinstance(target, dict):
            if host is None and "host" in target:
                host = target["host"]
            self._core = _CoreTarget(_spec_from_dict(target))
        elif isinstance(target, str):
            self._core = _CoreTarget(target)
        else:
            raise TVMValueError(
                "target must be a str, a dict or a Target, got {}".format(type(target).__name__)
            )
        self.host = None if host is None else Target(host)
        self._scope = []

    @property
    def kind(self):
        return TargetKind(self._core.kind, self._core.device_type)

    @property
    def keys(self):
        return list(self._core.keys)

    @property
    def attrs(self):
        out = {}
        for key, text in self._core.attrs.items():
            kind = self._core.attr_type(key)
            if kind == "bool" or kind == "int":
                out[key] = int(text)
            elif kind == "array":
                out[key] = [v for v in text.split(",") if v]
            else:
                out[key] = text
        return out

    def get_attr(self, key, default=None):
        return self.attrs.get(key, default)

    @property
    def mcpu(self):
        return self.attrs.get("mcpu", "")

    @property
    def mattr(self):
        return self.attrs.get("mattr", [])

    @property
    def model(self):
        return self.attrs.get("model", "unknown")

    @property
    def libs(self):
        return self.attrs.get("libs", [])

    @property
    def device_name(self):
        return self.attrs.get("device", "")

    @property
    def max_num_threads(self):
        return self.attrs.get("max_num_threads")

    @property
    def thread_warp_size(self):
        return self.attrs.get("thread_warp_size")

    @property
    def max_function_args(self):
        """The most arguments a kernel of this target takes (-1: no limit), as TVM's."""
        return int(self.attrs.get("max_function_args", -1))

    @property
    def features(self):
        return {}

    def with_host(self, host=None):
        return Target(self, host)

    def export(self):
        out = {"kind": self.kind.name, "keys": self.keys}
        out.update(self.attrs)
        if self.host is not None:
            out["host"] = self.host.export()
        return out

    def __str__(self):
        return str(self._core)

    def __repr__(self):
        return str(self)

    def __eq__(self, other):
        if isinstance(other, str):
            other = Target(other)
        return isinstance(other, Target) and str(self) == str(other) and self.host == other.host

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(str(self))

    def __enter__(self):
        self._core.__enter__()
        return self

    def __exit__(self, *args):
        self._core.__exit__(*args)

    @staticmethod
    def current(allow_none=True):
        current = _CoreTarget.current(allow_none)
        if current is None:
            if not allow_none:
                raise TVMValueError("Target context required. Please set it by constructing "
                                    "a TargetContext")
            return None
        return Target(str(current))

    @staticmethod
    def list_kinds():
        return list(_CoreTarget.list_kinds())

    @staticmethod
    def target_or_current(target):
        if target is None:
            target = Target.current()
        if target is None:
            raise TVMValueError("Target is not set in env or passed as argument.")
        return target

    @staticmethod
    def canon_target(target):
        if target is None:
            return None
        return target if isinstance(target, Target) else Target(target)

    @staticmethod
    def canon_target_and_host(target, target_host=None):
        target = Target.canon_target(target)
        if target is None:
            assert target_host is None, "Target host is not empty when target is empty."
            return target, target_host
        if target.host is None and target_host is not None:
            target = target.with_host(target_host)
        if target is not None:
            target_host = target.host
        return target, target_host

    @staticmethod
    def canon_multi_target(multi_targets):
        if multi_targets is None:
            return None
        if isinstance(multi_targets, (dict, list, tuple)) and not _is_target_dict(multi_targets):
            values = multi_targets.values() if isinstance(multi_targets, dict) else multi_targets
            return [Target.canon_target(t) for t in values]
        return [Target.canon_target(multi_targets)]

    @staticmethod
    def canon_multi_target_and_host(target, target_host=None):
        raw = Target.canon_multi_target(target)
        return [Target.canon_target_and_host(t, target_host)[0] for t in raw]


def _is_target_dict(value):
    return isinstance(value, dict) and "kind" in value


def create(target):
    """tvm.target.create (older TVM): Target(target)."""
    return Target(target)


def _helper(kind, model, options, extra=()):
    opts = ["-model=%s" % model] + list(extra) + list(options or [])
    return Target(" ".join([kind] + opts))


def cuda(model="unknown", arch=None, options=None):
    return _helper("cuda", model, options, ["-arch=%s" % arch] if arch else [])


def rocm(model="unknown", options=None):
    return _helper("rocm", model, options)


def mali(model="unknown", options=None):
    return _helper("opencl", model, options, ["-device=mali"])


def intel_graphics(model="unknown", options=None):
    return _helper("opencl", model, options, ["-device=intel_graphics", "-thread_warp_size=16"])


def arm_cpu(model="unknown", options=None):
    return _helper("llvm", model, options, ["-device=arm_cpu"])


def rasp(options=None):
    return arm_cpu("bcm2837", ["-mtriple=armv7l-linux-gnueabihf", "-mattr=+neon"] + list(options or []))


def bifrost(model="unknown", options=None):
    return _helper("opencl", model, options, ["-device=bifrost"])


_HEXAGON_VERSIONS = ["v65", "v66", "v67", "v67t", "v68", "v69", "v71", "v73", "v75"]
_HEXAGON_VTCM_BYTES = {"v65": 1 << 18, "v66": 1 << 18, "v68": 4 << 20, "v69": 8 << 20,
                       "v73": 8 << 20, "v75": 8 << 20}


def hexagon(cpu_ver="v68", **kwargs):
    """tvm.target.hexagon: a Hexagon target of TVM v0.13's form (kind hexagon, keys hexagon and
    cpu: mtriple, mcpu hexagon<ver>, mattr from hvx / use_qfloat / use_ieee_fp, llvm-options,
    num-cores, vtcm-capacity). relaypass compiles nothing for Hexagon; the target selects TVM's
    Hexagon legalizations (relay.qnn.transform.Legalize)."""
    try:
        cpu_ver = cpu_ver[cpu_ver.index("v"):].lower()
        if cpu_ver not in _HEXAGON_VERSIONS:
            raise ValueError
    except ValueError:
        raise ValueError("{} is not a valid Hexagon version\nvalid versions include {}".format(
            cpu_ver, _HEXAGON_VERSIONS)) from None
    arch = int(re.match(r"v([0-9]+)", cpu_ver).group(1))
    config = {"hvx": 128, "llvm_options": None, "use_qfloat": arch >= 68, "use_ieee_fp": False,
              "vtcm_capacity": _HEXAGON_VTCM_BYTES.get(cpu_ver, 0)}
    config.update(kwargs)
    if config.get("llvm_args"):
        config["llvm_options"] = config["llvm_args"]
    mattr = []
    if config["hvx"] > 0:
        if config["hvx"] not in (0, 64, 128):
            raise ValueError("Invalid hvx value, should be one of [0, 64, 128]")
        mattr += ["+hvx" + cpu_ver, "+hvx-length%db" % config["hvx"]]
    else:
        mattr += ["-hvx"]
    if arch >= 68:
        mattr.append(("-", "+")[bool(config["use_qfloat"])] + "hvx-qfloat")
        mattr.append(("-", "+")[bool(config["use_ieee_fp"])] + "hvx-ieee-fp")
    llvm_options = config["llvm_options"]
    if arch == 68:
        llvm_options = (llvm_options or "") + " -force-hvx-float"
    spec = {"kind": "hexagon", "mtriple": "hexagon", "mcpu": "hexagon" + cpu_ver, "mattr": mattr,
            "num-cores": config["num_cores"] if "num_cores" in kwargs else 4,
            "vtcm-capacity": config["vtcm_capacity"]}
    if llvm_options and llvm_options.strip():
        spec["llvm-options"] = [s.replace("=", "@") for s in llvm_options.split()]
    return Target(spec)
