"""tvm.runtime.Module, BenchmarkResult and load_module, as TVM v0.13 has them.

A relaypass module is not machine code: the factory module relay.build returns holds the
optimized Relay module, its parameters and the graph JSON, and runs on relaypass's evaluator.
``export_library`` writes all of it to one versioned file (docs/artifact.md), whatever the file
name's extension (.so and .tar are accepted, as scripts use them); ``load_module``
(runtime/graph_factory.py) reads it back.
"""
import time

import numpy as _np

from .._errors import TVMError


class BenchmarkResult:
    """Runtimes of a benchmark, in seconds (tvm.runtime.module.BenchmarkResult)."""

    def __init__(self, results):
        self.results = results
        self.mean = _np.mean(self.results)
        self.std = _np.std(self.results)
        self.median = _np.median(self.results)
        self.min = _np.min(self.results)
        self.max = _np.max(self.results)

    def __repr__(self):
        return (
            f"BenchmarkResult(min={self.min}, mean={self.mean}, median={self.median}, "
            f"max={self.max}, std={self.std}, results={self.results})"
        )

    def __str__(self):
        return (
            f"Execution time summary:\n"
            f"{'mean (ms)':^12} {'median (ms)':^12} {'max (ms)':^12} "
            f"{'min (ms)':^12} {'std (ms)':^12}\n"
            f"{self.mean * 1000:^12.4f} {self.median * 1000:^12.4f} {self.max * 1000:^12.4f} "
            f"{self.min * 1000:^12.4f} {self.std * 1000:^12.4f}"
            "               "
        )


def _time(func, args, number, repeat, min_repeat_ms, limit_zero_time_iterations,
          cooldown_interval_ms, repeats_to_cooldown):
    """TVM's time evaluator: one warm-up call, then ``repeat`` means of ``number`` calls, the
    number grown until one repeat lasts ``min_repeat_ms``."""
    func(*args)
    results = []
    for r in range(repeat):
        if cooldown_interval_ms > 0 and r > 0 and r % repeats_to_cooldown == 0:
            time.sleep(cooldown_interval_ms / 1000.0)
        count = number
        zero_iterations = 0
        while True:
            start = time.perf_counter()
            for _ in range(count):
                func(*args)
            elapsed = time.perf_counter() - start
            if elapsed == 0.0 and zero_iterations < limit_zero_time_iterations:
                zero_iterations += 1
                continue
            if elapsed * 1000.0 >= min_repeat_ms or min_repeat_ms <= 0:
                break
            # As TVM: the next count aims at min_repeat_ms with a margin, at least doubling.
            count = max(int(count * min_repeat_ms / max(elapsed * 1000.0, 1e-9) * 1.618), count * 2)
        results.append(elapsed / count)
    return BenchmarkResult(results)


class Module:
    """A runtime module: named functions (``mod["name"]``, ``mod.get_function(name)``).

    ``functions`` maps names to Python callables; ``type_key`` names the kind of module."""

    __slots__ = ["_type_key", "_functions", "_imported", "entry_name", "_default_name", "_factory"]

    def __init__(self, type_key, functions=None, imported=None):
        self._type_key = type_key
        self._functions = dict(functions or {})
        self._imported = list(imported or [])
        self.entry_name = "__tvm_main__"

    @property
    def type_key(self):
        return self._type_key

    @property
    def imported_modules(self):
        return list(self._imported)

    def import_module(self, module):
        self._imported.append(module)

    def implements_function(self, name, query_imports=False):
        if name in self._functions:
            return True
        return query_imports and any(m.implements_function(name, True) for m in self._imported)

    def get_function(self, name, query_imports=False):
        if name in self._functions:
            return self._functions[name]
        if query_imports:
            for m in self._imported:
                if m.implements_function(name, True):
                    return m.get_function(name, True)
        raise AttributeError("Module has no function '%s'" % name)

    def __getitem__(self, name):
        if not isinstance(name, str):
            raise ValueError("Can only take string as function name")
        return self.get_function(name)

    def __contains__(self, name):
        return self.implements_function(name)

    def __call__(self, *args):
        return self.get_function(self.entry_name)(*args)

    def __repr__(self):
        return "Module(%s, %x)" % (self.type_key, id(self))

    def get_source(self, fmt=""):
        """The library module of a build answers "asm" (and "s"): the assembly of the int8
        kernel functions its operators call, or a comment saying that it generates no code
        (docs/python.md). Other formats and modules have no source."""
        asm = self._functions.get("_asm")
        if asm is not None and fmt in ("asm", "s"):
            return asm()
        raise TVMError(
            "Module[%s] has no source: relaypass runs Relay on its evaluator and generates no "
            "code" % self.type_key
        )

    def time_evaluator(self, func_name, dev, number=10, repeat=1, min_repeat_ms=0,
                       limit_zero_time_iterations=100, cooldown_interval_ms=0,
                       repeats_to_cooldown=1, f_preproc=""):
        """A function that runs ``func_name`` as TVM's time evaluator does and returns a
        BenchmarkResult (seconds per call)."""
        func = self.get_function(func_name)

        def evaluator(*args):
            return _time(func, args, number, repeat, min_repeat_ms, limit_zero_time_iterations,
                         cooldown_interval_ms, repeats_to_cooldown)

        return evaluator

    def export_library(self, file_name, fcompile=None, addons=None, workspace_dir=None, **kwargs):
        export = self._functions.get("_export")
        if export is None:
            raise TVMError(
                "Module[%s] cannot be exported: only the module relay.build returns (or "
                "load_module read) holds what runs" % self.type_key
            )
        export(str(file_name))

    def save(self, file_name, fmt=""):
        self.export_library(file_name)
