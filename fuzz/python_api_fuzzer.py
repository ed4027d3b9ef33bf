#!/usr/bin/env python3
"""A fuzzer of relaypass's public Python API (builders, passes, executors, NDArrays, parameter
files, the text parser, the pattern language).

    PYTHONPATH=build/python python3 fuzz/python_api_fuzzer.py --seconds 600 [--seed S]
        [--findings DIR] [--batch N] [--timeout SECONDS]

Every case is a self-contained Python program (PRELUDE + a generated body) made from
(seed, index) alone: `--show SEED:INDEX` prints it, `--run SEED:INDEX` runs it in this process.
Cases run in worker subprocesses, a batch at a time; a worker that dies by a signal or stops
answering within the per-case timeout is killed, and the case it was running is run again alone
in a fresh subprocess to confirm it (if it does not fail alone, the batch's cases before it are
run one by one after each other in one fresh process, then each alone, to find the culprit).

Outcomes. OK: the case returns, or raises an Exception subclass (TVMError, ValueError, ...).
FINDING: the process is killed by a signal, hangs past the timeout, raises something that is
not an Exception (or a SystemError), or an oracle finds a wrong number (raises Mismatch):
  (a) debug, graph, vm executors, relay.build + GraphModule and relay.vm.compile +
      VirtualMachine agree on the same module (dtype-aware tolerance, NaN positions equal);
  (b) a program built only of ops with a NumPy equivalent equals NumPy on the same inputs (the
      generator tracks value intervals and exactness so that a comparison, floor or cast of an
      inexact float is not compared, and a float cast to an integer is only compared in range);
  (c) passes (FoldConstant, random Sequentials; FastMath and ToMixedPrecision excluded) and
      params bound at build (which folds the whole program) give the same numbers;
  plus round trips (nd.array, relay.const, save/load_param_dict) that must give back the array.
Each finding is written to --findings DIR as a .json (description) and .py (repro) file.
"""
import argparse
import json
import math
import os
import queue
import random
import resource
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------------------------
# The prelude every case program starts with: the oracles.
# ----------------------------------------------------------------------------------------------
PRELUDE = r'''
import warnings
warnings.simplefilter("ignore")
import numpy as np
import relaypass as tvm
from relaypass import relay
from relaypass.relay.op._make import call as op_call
from relaypass.contrib import graph_executor
from relaypass.runtime import vm as rt_vm
from relaypass.relay import dataflow_pattern as dfp
nan, inf = float("nan"), float("inf")


class Mismatch(Exception):
    """An oracle found a wrong number (the fuzzer reports it as a finding)."""


NOTES = []


def flat(v):
    """A result (NDArray, ADT, tuple, list, numpy) as a flat list of numpy arrays."""
    if isinstance(v, tvm.nd.NDArray):
        return [v.numpy().copy()]
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        return [np.asarray(v)]
    if isinstance(v, (list, tuple)) or hasattr(v, "__iter__") and hasattr(v, "__len__"):
        out = []
        for x in v:
            out.extend(flat(x))
        return out
    raise Mismatch("unexpected result kind %r" % type(v).__name__)


def tol(dtype, strict):
    if dtype == "float16":
        return 2e-2 if strict else 4e-2
    if dtype == "float32":
        return 1e-5 if strict else 2e-4
    if dtype == "float64":
        return 1e-12 if strict else 1e-8
    return 0


def close(a, b, what, strict=False, rewritten=False):
    """a (a relaypass result) equals b (another executor's, or NumPy's). With `rewritten` (a is
    from an optimized program, b from the program as written), where either is not finite both
    need only be non-finite: TVM's algebraic rewrites are exact only on finite values, e.g.
    SwitchAddMultiply turns c2 * (x + c1) into x * c2 + (c1 * c2), which is NaN where c2 is inf
    and c1 is 0, while the program as written gives inf."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise Mismatch("%s: shape %s vs %s" % (what, a.shape, b.shape))
    if a.dtype != b.dtype:
        raise Mismatch("%s: dtype %s vs %s" % (what, a.dtype, b.dtype))
    if a.dtype.kind != "f":
        if not np.array_equal(a, b):
            bad = np.argwhere(a != b)[:3].tolist()
            raise Mismatch("%s: values differ at %s: %s vs %s" % (
                what, bad, [a[tuple(i)].item() for i in bad], [b[tuple(i)].item() for i in bad]))
        return
    if rewritten and a.dtype.kind == "f":
        # compared flattened from here on; positions where both are non-finite are left out
        both = ~np.isfinite(a) & ~np.isfinite(b)
        a, b = a[~both], b[~both]
    an, bn = np.isnan(a), np.isnan(b)
    if not np.array_equal(an, bn):
        bad = np.argwhere(an != bn)[:3].tolist()
        raise Mismatch("%s: NaN positions differ at %s: %s vs %s" % (
            what, bad, [a[tuple(i)].item() for i in bad], [b[tuple(i)].item() for i in bad]))
    ai, bi = np.isinf(a), np.isinf(b)
    fin = ~(an | ai | bi)
    t = tol(str(a.dtype), strict)
    scale = max(1.0, float(np.max(np.abs(b[fin]))) if fin.any() else 1.0)
    infs_ok = np.array_equal(a[ai | bi], b[ai | bi])
    if not infs_ok:
        # an overflow at the edge of the range (float16, exp) may round either way
        big = np.abs(np.where(ai, b, a)[ai ^ bi]) if (ai ^ bi).any() else np.array([])
        finfo = np.finfo(a.dtype)
        if not (np.array_equal(ai & bi, ai & bi) and big.size and np.all(big > finfo.max / 4)
                and np.array_equal(np.sign(a[ai ^ bi]), np.sign(b[ai ^ bi]))):
            raise Mismatch("%s: infinities differ: %s vs %s" % (what, a[ai | bi][:4], b[ai | bi][:4]))
    if fin.any() and not np.allclose(a[fin], b[fin], rtol=t, atol=t * scale):
        d = np.abs(a.astype("float64") - b.astype("float64"))
        d[~fin] = 0
        i = np.unravel_index(np.argmax(d), d.shape)
        raise Mismatch("%s: values differ at %s: %r vs %r (tolerance %g)" % (
            what, list(i), a[i].item(), b[i].item(), t))


def same(xs, ys, what, strict=False, rewritten=False):
    if len(xs) != len(ys):
        raise Mismatch("%s: %d outputs vs %d" % (what, len(xs), len(ys)))
    for k, (x, y) in enumerate(zip(xs, ys)):
        close(x, y, "%s, output %d" % (what, k), strict, rewritten)


def run_kind(kind, mod, args, opt_level=2, params=None, config=None):
    """main of mod on args through one of the executors; a flat list of numpy arrays."""
    with tvm.transform.PassContext(opt_level=opt_level, config=config or {}):
        if kind in ("debug", "graph", "vm"):
            f = relay.create_executor(kind, mod=mod, device=tvm.cpu(0), target="llvm",
                                      params=params).evaluate()
            return flat(f(*args))
        names = [p.name_hint for p in mod["main"].params]
        if kind == "build":
            lib = relay.build(mod, target="llvm", params=params)
            g = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
            for n, a in zip(names, args):
                if params and n in params:
                    continue
                g.set_input(n, a)
            g.run()
            return [g.get_output(i).numpy().copy() for i in range(g.get_num_outputs())]
        if kind == "vmcompile":
            exe = relay.vm.compile(mod, target="llvm", params=params)
            m = rt_vm.VirtualMachine(exe, tvm.cpu(0))
            rest = [a for n, a in zip(names, args) if not (params and n in params)]
            return flat(m.invoke("main", *rest))
    raise ValueError(kind)


def attempt(fn, *a, **k):
    """fn(*a, **k), or the Exception it raised (an Exception is an acceptable outcome)."""
    try:
        return fn(*a, **k)
    except Mismatch:
        raise
    except SystemError:
        raise
    except Exception as e:  # noqa: BLE001 (any Python exception is a clean outcome)
        return e


def err(x):
    return isinstance(x, Exception)


def check_program(mod, args, ref=None, kinds=("graph", "vm", "build", "vmcompile"),
                  opt_levels=(0, 3), passes=None, pass_opt=2, config=None, odd=None,
                  bad=None, bind=None, compare_passes=True):
    """The oracles on one module: NumPy (ref), executors, passes, odd and bad arguments."""
    base = attempt(run_kind, "debug", mod, args, 0)
    if not err(base) and ref is not None:
        same(base, ref, "debug executor vs NumPy")
    for i, kind in enumerate(kinds):
        lvl = opt_levels[i % len(opt_levels)]
        r = attempt(run_kind, kind, mod, args, lvl, None, config)
        if err(base) or err(r):
            if err(base) != err(r) and "not supported (" not in repr(r):
                NOTES.append("%s(opt_level=%d) %s where debug %s" % (
                    kind, lvl, "raised " + repr(r)[:200] if err(r) else "ran",
                    "raised " + repr(base)[:200] if err(base) else "ran"))
            continue
        if lvl >= 4:
            continue  # opt_level 4 runs FastMath (fast_exp, fast_tanh): other numbers by design
        same(r, base, "%s executor (opt_level=%d) vs debug executor" % (kind, lvl),
             rewritten=True)
    if bind:
        # Parameters bound at build become constants: FoldConstant folds the whole program.
        params = {n: a for n, a in zip([p.name_hint for p in mod["main"].params], args)
                  if n in bind}
        for kind in ("build", "vm"):
            r = attempt(run_kind, kind, mod, args, 3, params)
            if not err(r) and not err(base):
                same(r, base, "%s with params %s bound vs debug executor" % (kind, sorted(params)),
                     rewritten=True)
    folded = attempt(lambda: relay.transform.FoldConstant()(relay.transform.InferType()(mod)))
    if not err(folded) and not err(base):
        r = attempt(run_kind, "debug", folded, args, 0)
        if not err(r):
            same(r, base, "FoldConstant'ed module vs unfolded (debug executor)")
    if passes is not None:
        def run_passes():
            with tvm.transform.PassContext(opt_level=pass_opt, config=config or {}):
                return tvm.transform.Sequential(passes)(mod)
        m2 = attempt(run_passes)
        if not err(m2) and not err(base):
            r = attempt(run_kind, "debug", m2, args, 0)
            if not err(r) and compare_passes:
                same(r, base, "after passes %s (debug executor)" % [p.info.name for p in passes],
                     rewritten=True)
            r = attempt(run_kind, "vm", m2, args, 3)
            if not err(r) and compare_passes:
                same(r, base, "after passes, vm executor", rewritten=True)
    for kind, variant in (odd or []):
        # Compared with the same executor on C-ordered arguments: executors may differ from each
        # other within tolerance (relay.build runs SimplifyInference, whose epsilon TVM rounds to
        # float32), but the memory layout of an argument must not change the numbers.
        same_kind = attempt(run_kind, kind, mod, args, 0)
        r = attempt(run_kind, kind, mod, variant, 0)
        if not err(r) and not err(same_kind):
            same(r, same_kind, "%s executor on the same arguments in another memory layout" % kind,
                 strict=True)
    for kind, variant, why in (bad or []):
        r = attempt(run_kind, kind, mod, variant, 0)
        if not err(r):
            raise Mismatch("%s executor accepted an argument that does not fit main (%s) and "
                           "returned %s" % (kind, why, [x.shape for x in r]))
    return base


def inputs_for(mod, rng, zero=False):
    """Random arguments for main's parameters (tensor types only)."""
    out = []
    for p in mod["main"].params:
        t = p.checked_type if hasattr(p, "checked_type") else p.type_annotation
        shape = [max(0, int(d)) for d in t.shape]
        if zero and shape:
            shape[0] = 0
        dt = str(t.dtype)
        if dt == "bool":
            out.append(rng.integers(0, 2, shape).astype(bool))
        elif dt.startswith("float"):
            out.append((rng.integers(-40, 40, shape) / 4).astype(dt))
        else:
            out.append(rng.integers(-100, 100, shape).astype(dt))
    return out


def touch(v):
    """Read every element of a result (an out-of-bounds read shows here)."""
    for a in flat(v):
        a.tobytes()
        if a.dtype.kind in "fiub" and a.size:
            a.sum()
'''

# ----------------------------------------------------------------------------------------------
# Generation.
# ----------------------------------------------------------------------------------------------
FLOATS = ["float32", "float32", "float32", "float16", "float64"]
INTS = ["int32", "int8", "int16", "int64", "uint8"]
ALL_DTYPES = FLOATS + INTS + ["bool"]
HUGE = [2 ** 31, 2 ** 31 - 1, 2 ** 63, 2 ** 63 - 1, -2 ** 63, 2 ** 64, -2 ** 31 - 1, 10 ** 30]
MANT = {"float16": 11, "float32": 24, "float64": 53}
F16MAX = 65504.0


def irange(dt):
    import numpy as np
    if dt == "bool":
        return 0, 1
    if dt.startswith("float"):
        return -math.inf, math.inf
    i = np.iinfo(dt)
    return int(i.min), int(i.max)


def tvm_widen_cast(src, dst):
    """TVM v0.13's IsWidenCast (SimplifyConsecutiveCast): int < uint < float, bits not fewer."""
    code = {"int": 0, "uin": 1, "boo": 1, "flo": 2}
    bits = 1 if src == "bool" else int("".join(c for c in src if c.isdigit()))
    dbits = 1 if dst == "bool" else int("".join(c for c in dst if c.isdigit()))
    return code[src[:3]] <= code[dst[:3]] and bits <= dbits


def cast_keeps_values(src, dst, lo, hi):
    """Whether every value in [lo, hi] of dtype src is the same after a cast to dst."""
    if dst.startswith("float"):
        return src.startswith("float") or max(abs(lo), abs(hi)) <= 2 ** MANT[dst]
    if src.startswith("float"):
        return False
    tlo, thi = irange(dst)
    return tlo <= lo and hi <= thi


def lit(x):
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
    return repr(x)


def prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Val:
    def __init__(self, code, ref, shape, dtype, lo, hi, nan=False, exact=True, frac=0):
        self.code, self.ref, self.shape, self.dtype = code, ref, tuple(shape), dtype
        self.lo, self.hi, self.nan, self.exact, self.frac = lo, hi, nan, exact, frac

    @property
    def kind(self):
        return "b" if self.dtype == "bool" else ("f" if self.dtype.startswith("float") else "i")


class ProgramGen:
    """Random well-typed programs with a NumPy reference where every op has one."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []      # relay code
        self.reflines = []   # numpy code
        self.inputs = []     # (var name, array code)
        self.vals = []
        self.n = 0
        self.ref_ok = True
        self.globals = []
        self.has_refs = False

    def name(self, p):
        self.n += 1
        return "%s%d" % (p, self.n)

    # -- leaves --------------------------------------------------------------------------------
    def data(self, shape, dtype):
        r = self.rng
        n = prod(shape)
        special = r.random() < 0.08
        vals = []
        for _ in range(n):
            if dtype == "bool":
                vals.append(r.random() < 0.5)
            elif dtype.startswith("float"):
                if special and r.random() < 0.3:
                    vals.append(r.choice([math.nan, math.inf, -math.inf, -0.0, 1e30, -1e30]))
                else:
                    vals.append(r.randint(-40, 40) / 4)
            else:
                lo, hi = irange(dtype)
                if special and r.random() < 0.4:
                    vals.append(r.choice([lo, hi, 0, -1 if lo < 0 else 1]))
                else:
                    vals.append(r.randint(max(lo, -20), min(hi, 20)))
        lo = hi = None
        nanp = any(isinstance(v, float) and math.isnan(v) for v in vals)
        fin = [float(v) for v in vals if not (isinstance(v, float) and math.isnan(v))]
        if fin:
            lo, hi = min(fin), max(fin)
        else:
            lo, hi = 0.0, 0.0
        if dtype == "float16":
            if hi > F16MAX:
                hi = math.inf
            if lo < -F16MAX:
                lo = -math.inf
        code = "np.array([%s], dtype=%r).reshape(%r)" % (", ".join(lit(v) for v in vals), dtype,
                                                        tuple(shape))
        inexact = any(abs(v) >= 1e29 for v in fin if not math.isinf(v))
        return code, lo, hi, nanp, not inexact

    def shape(self, rank=None, small=False):
        r = self.rng
        if rank is None:
            rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        dims = [r.choice([1, 1, 2, 2, 3, 4, 5] if not small else [1, 2, 3]) for _ in range(rank)]
        if r.random() < 0.04 and rank:
            dims[r.randrange(rank)] = 0
        while prod(dims) > 120:
            dims[dims.index(max(dims))] -= 1
        return tuple(dims)

    def new_input(self, shape, dtype):
        nm = self.name("x")
        code, lo, hi, nanp, exact = self.data(shape, dtype)
        self.lines.append("%s = relay.var(%r, shape=%r, dtype=%r)" % (nm, nm, tuple(shape), dtype))
        self.inputs.append((nm, code))
        v = Val(nm, "a_" + nm, shape, dtype, lo, hi, nanp, exact, 2)
        self.vals.append(v)
        return v

    def new_const(self, shape, dtype):
        nm = self.name("c")
        code, lo, hi, nanp, exact = self.data(shape, dtype)
        self.lines.append("%s_np = %s" % (nm, code))
        self.lines.append("%s = relay.const(%s_np, dtype=%r)" % (nm, nm, dtype))
        self.reflines.append("r_%s = %s_np" % (nm, nm))
        v = Val(nm, "r_" + nm, shape, dtype, lo, hi, nanp, exact, 2)
        self.vals.append(v)
        return v

    def leaf(self, shape, dtype):
        if self.rng.random() < 0.5:
            return self.new_input(shape, dtype)
        return self.new_const(shape, dtype)

    def emit(self, code, ref, shape, dtype, lo, hi, nan=False, exact=True, frac=0, npok=True):
        nm = self.name("e")
        self.lines.append("%s = %s" % (nm, code))
        if ref is None or not npok:
            self.reflines.append("r_%s = None" % nm)
        else:
            self.reflines.append("r_%s = %s" % (nm, ref))
        v = Val(nm, "r_" + nm, shape, dtype, lo, hi, nan, exact, frac)
        if ref is None or not npok:
            v.noref = True
        self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True):
        c = [v for v in self.vals if pred(v)]
        if not c:
            return None
        # prefer recent values so that programs are chains, not forests
        return c[-1] if self.rng.random() < 0.5 else self.rng.choice(c)

    def r(self, v):
        """The ref of v, or a marker that the program has no ref."""
        if getattr(v, "noref", False):
            self.ref_ok = False
        return v.ref

    def fit(self, dt, lo, hi):
        """Wrap-around of integers: an interval beyond the dtype becomes the whole range."""
        if dt.startswith("float"):
            m = F16MAX if dt == "float16" else (3.4e38 if dt == "float32" else 1.7e308)
            return (lo if lo >= -m else -math.inf), (hi if hi <= m else math.inf)
        a, b = irange(dt)
        if lo is None or lo < a or hi > b:
            return a, b
        return lo, hi

    def is_exact(self, dt, lo, hi, frac):
        if not dt.startswith("float"):
            return True
        m = max(abs(lo), abs(hi), 1.0)
        if math.isinf(m):
            return False
        return math.log2(m) + frac + 1 <= MANT[dt]

    def compatible(self, v):
        """A second operand for v: same dtype, a broadcast-compatible shape."""
        r = self.rng
        if r.random() < 0.4:
            w = self.pick(lambda u: u.dtype == v.dtype and u is not v and self._bc(u.shape, v.shape))
            if w is not None:
                return w
        shape = list(v.shape)
        if shape and r.random() < 0.4:
            shape = shape[r.randrange(len(shape) + 1):]
        shape = [1 if r.random() < 0.2 else d for d in shape]
        return self.leaf(tuple(shape), v.dtype)

    @staticmethod
    def _bc(a, b):
        import numpy as np
        try:
            np.broadcast_shapes(a, b)
            return True
        except ValueError:
            return False

    # -- ops -----------------------------------------------------------------------------------
    def op_binary(self):
        import numpy as np
        a = self.pick(lambda v: v.kind != "b")
        if a is None:
            return None
        name = self.rng.choice(["add", "subtract", "multiply", "maximum", "minimum", "divide",
                                "floor_mod", "mod", "power"])
        b = self.compatible(a)
        shape = np.broadcast_shapes(a.shape, b.shape)
        dt = a.dtype
        nan = a.nan or b.nan
        fl = a.kind == "f"
        infs = any(math.isinf(x) for x in (a.lo, a.hi, b.lo, b.hi))
        exact = a.exact and b.exact
        frac = max(a.frac, b.frac)
        ref = None
        if name in ("add", "subtract"):
            if name == "add":
                lo, hi = a.lo + b.lo, a.hi + b.hi
            else:
                lo, hi = a.lo - b.hi, a.hi - b.lo
            ref = "np.%s(%s, %s)" % (name, self.r(a), self.r(b))
            nan = nan or (fl and infs)
        elif name == "multiply":
            ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)
                  if not ((x == 0 and math.isinf(y)) or (y == 0 and math.isinf(x)))] or [0]
            lo, hi = min(ps), max(ps)
            frac = a.frac + b.frac
            ref = "np.multiply(%s, %s)" % (self.r(a), self.r(b))
            nan = nan or (fl and infs)
        elif name in ("maximum", "minimum"):
            f = max if name == "maximum" else min
            lo, hi = f(a.lo, b.lo), f(a.hi, b.hi)
            # TVM's max/min of NaN is not NumPy's (no NaN propagation promised)
            ref = None if nan else "np.%s(%s, %s)" % (name, self.r(a), self.r(b))
        elif name == "divide":
            if not fl:
                return None
            lo, hi, nan, exact = -math.inf, math.inf, True, False
            ref = "np.divide(%s, %s)" % (self.r(a), self.r(b))
        elif name == "power":
            if not fl:
                return None
            lo, hi, nan, exact = -math.inf, math.inf, True, False
            ref = None
        else:  # floor_mod, mod: integers by a constant divisor that has no zero
            if fl:
                return None
            c = self.name("d")
            vals = [self.rng.choice([1, 2, 3, 7, -1, -2, -5]) for _ in range(prod(b.shape))]
            if a.dtype.startswith("uint"):
                vals = [abs(x) for x in vals]
            self.lines.append("%s = relay.const(np.array(%r, dtype=%r).reshape(%r))" % (
                c, vals, dt, b.shape))
            self.reflines.append("r_%s = np.array(%r, dtype=%r).reshape(%r)" % (c, vals, dt, b.shape))
            b = Val(c, "r_" + c, b.shape, dt, min(vals or [1]), max(vals or [1]))
            shape = np.broadcast_shapes(a.shape, b.shape)
            lo, hi = irange(dt)
            npf = "np.mod" if name == "floor_mod" else "np.fmod"
            ref = "%s(%s, %s)" % (npf, self.r(a), self.r(b))
        lo, hi = self.fit(dt, lo, hi)
        ex = exact and self.is_exact(dt, lo, hi, frac)
        return self.emit("relay.%s(%s, %s)" % (name, a.code, b.code), ref, shape, dt, lo, hi,
                         nan, ex, frac)

    def op_compare(self):
        a = self.pick(lambda v: v.kind != "b")
        if a is None:
            return None
        import numpy as np
        name = self.rng.choice(["equal", "not_equal", "less", "greater", "less_equal",
                                "greater_equal"])
        b = self.compatible(a)
        shape = np.broadcast_shapes(a.shape, b.shape)
        ok = a.exact and b.exact
        return self.emit("relay.%s(%s, %s)" % (name, a.code, b.code),
                         "np.%s(%s, %s)" % (name, self.r(a), self.r(b)) if ok else None,
                         shape, "bool", 0, 1, npok=ok)

    def op_logical(self):
        a = self.pick(lambda v: v.kind == "b")
        if a is None:
            return self.op_compare()
        import numpy as np
        name = self.rng.choice(["logical_and", "logical_or", "logical_xor", "logical_not"])
        if name == "logical_not":
            return self.emit("relay.logical_not(%s)" % a.code, "np.logical_not(%s)" % self.r(a),
                             a.shape, "bool", 0, 1)
        b = self.compatible(a)
        return self.emit("relay.%s(%s, %s)" % (name, a.code, b.code),
                         "np.%s(%s, %s)" % (name, self.r(a), self.r(b)),
                         np.broadcast_shapes(a.shape, b.shape), "bool", 0, 1)

    def op_unary(self):
        a = self.pick(lambda v: v.kind != "b")
        if a is None:
            return None
        fl = a.kind == "f"
        names = ["abs", "negative", "relu", "sign"]
        if fl:
            names += ["exp", "log", "sqrt", "tanh", "sigmoid", "floor", "ceil", "trunc", "round",
                      "sin", "cos", "erf", "rsqrt", "isnan", "isfinite", "isinf"]
        name = self.rng.choice(names)
        if fl and not a.exact and (name in ("floor", "ceil", "trunc", "round", "sign") or (
                name in ("sin", "cos") and not max(abs(a.lo), abs(a.hi)) <= 8)):
            # An inexact argument may differ between executors by rounding (relay.build runs
            # SimplifyInference: layer_norm in float32 where the kernel keeps double); these ops
            # turn that into a whole unit (floor near an integer) or any value (sin(1e15)). Seed
            # 14 case 3492: sin(sqrt(layer_norm(x, gamma=1e30))).
            name = "tanh"
        dt, lo, hi, nan, exact, frac = a.dtype, a.lo, a.hi, a.nan, a.exact, a.frac
        code = "relay.%s(%s)" % (name, a.code)
        ref = None
        if name == "abs":
            m = max(abs(lo), abs(hi))
            lo, hi = (0 if lo >= 0 or fl else min(lo, -hi)), m
            if not fl and a.lo <= irange(dt)[0]:
                lo, hi = irange(dt)
            ref = "np.abs(%s)" % self.r(a)
        elif name == "negative":
            lo, hi = -hi, -lo
            ref = "np.negative(%s)" % self.r(a)
        elif name == "relu":
            code = "relay.nn.relu(%s)" % a.code
            lo, hi = max(lo, 0), max(hi, 0)
            ref = None if nan else "np.maximum(%s, np.zeros((), %r))" % (self.r(a), dt)
        elif name == "sign":
            lo, hi = -1, 1
            ref = "np.sign(%s)" % self.r(a) if (not fl or not nan) else None
        elif name in ("isnan", "isfinite", "isinf"):
            ref = "np.%s(%s)" % (name, self.r(a)) if exact else None
            return self.emit(code, ref, a.shape, "bool", 0, 1, npok=exact)
        elif name in ("floor", "ceil", "trunc"):
            ref = "np.%s(%s)" % (name, self.r(a)) if exact else None
            lo, hi = math.floor(lo) if not math.isinf(lo) else lo, math.ceil(hi) if not math.isinf(hi) else hi
        elif name == "round":
            ref = None
            lo, hi = lo - 1, hi + 1
        else:
            exact = False
            if name == "exp":
                lo, hi = (math.exp(min(lo, 700)) if not math.isinf(lo) else 0.0), (
                    math.exp(hi) if hi < 700 else math.inf)
                ref = "np.exp(%s)" % self.r(a)
            elif name in ("log", "sqrt", "rsqrt"):
                nan = nan or lo < 0
                lo, hi = -math.inf, math.inf
                ref = {"log": "np.log(%s)", "sqrt": "np.sqrt(%s)",
                       "rsqrt": "np.reciprocal(np.sqrt(%s))"}[name] % self.r(a)
            elif name in ("tanh", "sin", "cos", "erf"):
                lo, hi = -1, 1
                nan = nan or math.isinf(a.lo) or math.isinf(a.hi) if name in ("sin", "cos") else nan
                ref = "np.tanh(%s)" % self.r(a) if name == "tanh" else None
                # sin/cos of an inexact argument: an ulp of error in it moves the result by up to
                # |x| ulps (seed 12 case 16216: cos(exp(8.5)), one ulp of exp is 5e-4 of cos).
                if (name in ("sin", "cos") and not math.isinf(a.lo) and not math.isinf(a.hi)
                        and (a.exact or max(abs(a.lo), abs(a.hi)) <= 8)):
                    ref = "np.%s(%s)" % (name, self.r(a))
            elif name == "sigmoid":
                lo, hi = 0, 1
                ref = "(1 / (1 + np.exp(-%s.astype('float64')))).astype(%r)" % (self.r(a), dt)
        lo, hi = self.fit(dt, lo, hi)
        return self.emit(code, ref, a.shape, dt, lo, hi, nan,
                         exact and self.is_exact(dt, lo, hi, frac), frac)

    def axes(self, rank, single=False):
        r = self.rng
        if rank == 0:
            return None
        c = r.random()
        if c < 0.25:
            return None
        if single or c < 0.6:
            return r.randrange(-rank, rank)
        k = r.randint(0, rank)
        return sorted(r.sample(range(rank), k))

    def op_reduce(self):
        a = self.pick(lambda v: v.kind != "b")
        if a is None:
            return None
        r = self.rng
        name = r.choice(["sum", "max", "min", "mean", "prod", "argmax", "argmin"])
        rank = len(a.shape)
        axis = self.axes(rank, single=name.startswith("arg"))
        keep = r.random() < 0.4
        excl = r.random() < 0.15 and axis is not None and not name.startswith("arg")
        ax = [axis] if isinstance(axis, int) else axis
        # TVM's GetReduceAxes: no axis, or an empty list, reduces every axis (exclude or not)
        red = list(range(rank)) if not ax else sorted({x % rank for x in ax})
        if excl and ax:
            red = [i for i in range(rank) if i not in red]
        npaxis = tuple(red)
        shape = tuple((1 if i in red else d) for i, d in enumerate(a.shape) if keep or i not in red)
        cnt = prod([a.shape[i] for i in red])
        dt, lo, hi, nan, exact = a.dtype, a.lo, a.hi, a.nan, a.exact
        kw = "axis=%r, keepdims=%r%s" % (axis, keep, ", exclude=True" if excl else "")
        code = "relay.%s(%s, %s)" % (name, a.code, kw)
        fl = a.kind == "f"
        ref = None
        huge = fl and not (max(abs(lo), abs(hi)) <= 1e15)
        if name == "sum":
            lo, hi = cnt * min(lo, 0), cnt * max(hi, 0)
            if fl:
                exact = False
                ref = None if dt == "float16" or huge else \
                    "np.sum(%s.astype('float64'), axis=%r, keepdims=%r).astype(%r)" % (
                        self.r(a), npaxis, keep, dt)
            else:
                ref = "np.sum(%s, axis=%r, keepdims=%r, dtype=%r)" % (self.r(a), npaxis, keep, dt)
            nan = nan or (fl and (math.isinf(a.lo) or math.isinf(a.hi)))
        elif name in ("max", "min"):
            ref = None if (nan or cnt == 0) else "np.%s(%s, axis=%r, keepdims=%r)" % (
                "amax" if name == "max" else "amin", self.r(a), npaxis, keep)
            if cnt == 0:
                lo, hi = irange(dt)
        elif name == "mean":
            if not fl or dt == "float16":
                ref = None
            else:
                ref = None if cnt == 0 or huge else \
                    "np.mean(%s.astype('float64'), axis=%r, keepdims=%r).astype(%r)" % (
                        self.r(a), npaxis, keep, dt)
            exact = False
            nan = nan or cnt == 0 or math.isinf(a.lo) or math.isinf(a.hi)
            if not fl:
                lo, hi = irange(dt)
        elif name == "prod":
            lo, hi = irange(dt)
            exact = False if fl else exact
            ref = None if fl else "np.prod(%s, axis=%r, keepdims=%r, dtype=%r)" % (
                self.r(a), npaxis, keep, dt)
            nan = nan or fl
        else:
            if excl:
                return None
            f = "np.argmax" if name == "argmax" else "np.argmin"
            npax = None if axis is None else axis
            ok = not nan and exact and cnt > 0 and (rank > 0)
            ref = "%s(%s, axis=%r, keepdims=%r).astype('int32')" % (f, self.r(a), npax, keep) \
                if ok else None
            if axis is None and keep:
                shape = tuple(1 for _ in a.shape)
            return self.emit(code, ref, shape, "int32", 0, max(0, prod(a.shape)), npok=ok)
        lo, hi = self.fit(dt, lo, hi)
        return self.emit(code, ref, shape, dt, lo, hi, nan, exact and self.is_exact(dt, lo, hi, a.frac),
                         a.frac, npok=ref is not None)

    def op_transform(self):
        r = self.rng
        a = self.pick()
        if a is None:
            return None
        name = r.choice(["transpose", "reshape", "concatenate", "stack", "strided_slice", "take",
                         "where", "cast", "expand_dims", "squeeze", "tile", "broadcast_to",
                         "reverse", "clip", "split", "cumsum"])
        rank = len(a.shape)
        keep = dict(lo=a.lo, hi=a.hi, nan=a.nan, exact=a.exact, frac=a.frac)
        if name == "transpose":
            axes = None if r.random() < 0.3 else r.sample(range(rank), rank)
            if axes and r.random() < 0.3:
                axes = [x - rank if r.random() < 0.5 else x for x in axes]
            perm = list(reversed(range(rank))) if axes is None else [x % rank for x in axes]
            shape = tuple(a.shape[i] for i in perm)
            return self.emit("relay.transpose(%s, %r)" % (a.code, axes),
                             "np.transpose(%s, %r)" % (self.r(a), perm), shape, a.dtype, **keep)
        if name == "reshape":
            n = prod(a.shape)
            dims = []
            m = n
            while m > 1 and len(dims) < 4:
                f = r.choice([d for d in range(2, m + 1) if m % d == 0][:3])
                dims.append(f)
                m //= f
            if n == 0:
                dims = [0] + dims
            r.shuffle(dims)
            if r.random() < 0.3:
                dims.insert(r.randint(0, len(dims)), 1)
            new = list(dims)
            if n > 0 and new and r.random() < 0.3:
                new[r.randrange(len(new))] = -1
            return self.emit("relay.reshape(%s, %r)" % (a.code, new),
                             "np.reshape(%s, %r)" % (self.r(a), tuple(dims)), tuple(dims),
                             a.dtype, **keep)
        if name in ("concatenate", "stack"):
            if rank == 0 and name == "concatenate":
                return None
            ax = r.randrange(-rank, rank) if name == "concatenate" else r.randrange(-rank - 1, rank + 1)
            shape = list(a.shape)
            if name == "concatenate":
                shape[ax] = r.choice([0, 1, 2, 3])
            b = self.leaf(tuple(shape), a.dtype)
            ref = "np.%s([%s, %s], axis=%d)" % (name, self.r(a), self.r(b), ax)
            import numpy as np
            out = eval("np.%s([np.zeros(%r), np.zeros(%r)], axis=%d).shape" % (name, a.shape, b.shape, ax))
            return self.emit("relay.%s([%s, %s], %d)" % (name, a.code, b.code, ax), ref, out,
                             a.dtype, min(a.lo, b.lo), max(a.hi, b.hi), a.nan or b.nan,
                             a.exact and b.exact, max(a.frac, b.frac))
        if name == "strided_slice":
            if rank == 0:
                return None
            k = r.randint(1, rank)
            begin, end, strides, sl = [], [], [], []
            for i in range(k):
                d = a.shape[i]
                s = r.choice([1, 1, 1, 2, -1, -2, 3])
                b_ = r.randint(-d - 2, d + 2)
                e_ = r.randint(-d - 2, d + 2)
                begin.append(b_)
                end.append(e_)
                strides.append(s)
                sl.append("%d:%d:%d" % (b_, e_, s))
            import numpy as np
            shape = np.zeros(a.shape)[eval("np.s_[%s]" % ", ".join(sl))].shape
            st = strides if r.random() < 0.8 or any(s != 1 for s in strides) else None
            return self.emit("relay.strided_slice(%s, %r, %r, %r)" % (a.code, begin, end, st),
                             "%s[%s]" % (self.r(a), ", ".join(sl)), shape, a.dtype, **keep)
        if name == "take":
            axis = None if (rank == 0 or r.random() < 0.3) else r.randrange(-rank, rank)
            d = prod(a.shape) if axis is None else a.shape[axis]
            ishape = self.shape(r.choice([0, 1, 1, 2]), small=True)
            mode = r.choice(["clip", "wrap"])
            idx = [r.randint(-d - 2, d + 2) for _ in range(prod(ishape))]
            c = self.name("i")
            self.lines.append("%s = relay.const(np.array(%r, dtype='int32').reshape(%r))" % (c, idx, ishape))
            self.reflines.append("r_%s = np.array(%r, dtype='int32').reshape(%r)" % (c, idx, ishape))
            if axis is None:
                shape = ishape
            else:
                shape = a.shape[:axis % rank] + ishape + a.shape[axis % rank + 1:]
            ok = d > 0 or prod(ishape) == 0
            return self.emit("relay.take(%s, %s, axis=%r, mode=%r)" % (a.code, c, axis, mode),
                             "np.take(%s, r_%s, axis=%r, mode=%r)" % (self.r(a), c, axis, mode)
                             if ok else None, shape, a.dtype, npok=ok, **keep)
        if name == "where":
            cond = self.pick(lambda v: v.kind == "b" and self._bc(v.shape, a.shape))
            if cond is None:
                cond = self.leaf(a.shape, "bool")
            b = self.compatible(a)
            import numpy as np
            shape = np.broadcast_shapes(cond.shape, a.shape, b.shape)
            return self.emit("relay.where(%s, %s, %s)" % (cond.code, a.code, b.code),
                             "np.where(%s, %s, %s)" % (self.r(cond), self.r(a), self.r(b)), shape,
                             a.dtype, min(a.lo, b.lo), max(a.hi, b.hi), a.nan or b.nan,
                             a.exact and b.exact, max(a.frac, b.frac))
        if name == "cast":
            dt = r.choice(ALL_DTYPES)
            if getattr(a, "lossy_widen", False):
                # TVM's SimplifyConsecutiveCast drops the inner cast of cast(cast(x)) when
                # IsWidenCast says it widens (int8 -> uint8 does), even where it changed values
                # (-4 -> 252): optimised and unoptimised executors then differ, as TVM's do.
                # tests/bad_input/python_fuzz_cases/consecutive_cast_keeps_tvms_two_answers.json
                return None
            ok = True
            lo, hi = a.lo, a.hi
            if a.kind == "f" and dt != "bool" and not dt.startswith("float"):
                tlo, thi = irange(dt)
                ok = (not a.nan) and a.exact and tlo <= a.lo and a.hi <= thi
            if dt == "float16" and a.kind != "f" and max(abs(a.lo), abs(a.hi)) > F16MAX:
                ok = False
            if dt == "bool":
                lo, hi = 0, 1
            elif a.kind == "f" and dt.startswith("float") and dt != a.dtype:
                # an inexact float32 value made float64 keeps float32's error: not compared
                ok = ok and a.exact
            lo, hi = self.fit(dt, lo, hi) if dt != "bool" else (0, 1)
            if a.kind == "f" and not dt.startswith("float") and not ok:
                lo, hi = irange(dt)
            ex = a.exact and self.is_exact(dt, lo, hi, a.frac) if dt.startswith("float") else True
            v = self.emit("relay.cast(%s, %r)" % (a.code, dt),
                          "%s.astype(%r)" % (self.r(a), dt) if ok else None, a.shape, dt,
                          lo, hi, a.nan and dt.startswith("float"), ex and ok, a.frac, npok=ok)
            v.lossy_widen = tvm_widen_cast(a.dtype, dt) and (
                a.nan or not cast_keeps_values(a.dtype, dt, a.lo, a.hi))
            return v
        if name == "expand_dims":
            ax = r.randrange(-rank - 1, rank + 1)
            k = r.choice([1, 1, 2])
            pos = ax % (rank + 1)
            shape = a.shape[:pos] + (1,) * k + a.shape[pos:]
            return self.emit("relay.expand_dims(%s, %d, %d)" % (a.code, ax, k),
                             "np.reshape(%s, %r)" % (self.r(a), shape), shape, a.dtype, **keep)
        if name == "squeeze":
            ones = [i for i, d in enumerate(a.shape) if d == 1]
            if r.random() < 0.4:
                axis, sq = None, ones
            else:
                sq = r.sample(ones, r.randint(0, len(ones)))
                axis = sq
            shape = tuple(d for i, d in enumerate(a.shape) if i not in sq)
            return self.emit("relay.squeeze(%s, %r)" % (a.code, axis),
                             "np.reshape(%s, %r)" % (self.r(a), shape), shape, a.dtype, **keep)
        if name == "tile":
            reps = [r.choice([1, 2, 3]) for _ in range(r.randint(1, 3))]
            import numpy as np
            shape = np.tile(np.zeros(a.shape), reps).shape
            if prod(shape) > 400:
                return None
            return self.emit("relay.tile(%s, %r)" % (a.code, reps),
                             "np.tile(%s, %r)" % (self.r(a), reps), shape, a.dtype, **keep)
        if name == "broadcast_to":
            shape = tuple([r.choice([1, 2, 3])] * r.randint(0, 1) +
                          [d if d != 1 else r.choice([1, 2, 3]) for d in a.shape])
            return self.emit("relay.broadcast_to(%s, %r)" % (a.code, shape),
                             "np.broadcast_to(%s, %r).copy()" % (self.r(a), shape), shape, a.dtype,
                             **keep)
        if name == "reverse":
            if rank == 0:
                return None
            ax = r.randrange(-rank, rank)
            return self.emit("relay.reverse(%s, %d)" % (a.code, ax),
                             "np.flip(%s, %d)" % (self.r(a), ax), a.shape, a.dtype, **keep)
        if name == "clip":
            if a.kind != "f":
                return None
            lo_, hi_ = sorted([r.randint(-20, 20) / 4, r.randint(-20, 20) / 4])
            return self.emit("relay.clip(%s, %r, %r)" % (a.code, lo_, hi_),
                             None if a.nan else "np.clip(%s, %r, %r).astype(%r)" % (
                                 self.r(a), lo_, hi_, a.dtype),
                             a.shape, a.dtype, lo_, hi_, a.nan, a.exact, max(a.frac, 2),
                             npok=not a.nan)
        if name == "split":
            if rank == 0:
                return None
            ax = r.randrange(-rank, rank)
            d = a.shape[ax]
            divs = [k for k in range(1, max(d, 1) + 1) if d % k == 0] if d else [1]
            if r.random() < 0.5:
                sec = r.choice(divs)
                npsec = sec
                n = sec
            else:
                sec = sorted(r.randint(0, d) for _ in range(r.randint(1, 2)))
                npsec = sec
                n = len(sec) + 1
            i = r.randrange(n)
            import numpy as np
            shape = np.split(np.zeros(a.shape), npsec, ax)[i].shape
            return self.emit("relay.split(%s, %r, %d)[%d]" % (a.code, sec, ax, i),
                             "np.split(%s, %r, %d)[%d]" % (self.r(a), npsec, ax, i), shape,
                             a.dtype, **keep)
        if name == "cumsum":
            if a.kind == "b":
                return None
            axis = None if rank == 0 or r.random() < 0.3 else r.randrange(-rank, rank)
            shape = (prod(a.shape),) if axis is None else a.shape
            n = prod(a.shape) if axis is None else a.shape[axis]
            lo, hi = self.fit(a.dtype, n * min(a.lo, 0), n * max(a.hi, 0))
            fl = a.kind == "f"
            ref = ("np.cumsum(%s.astype('float64'), axis=%r).astype(%r)" if fl else
                   "np.cumsum(%s, axis=%r, dtype=%r)") % (self.r(a), axis, a.dtype)
            if a.dtype == "float16" or fl and not (max(abs(a.lo), abs(a.hi)) <= 1e15):
                ref = None
            return self.emit("relay.cumsum(%s, axis=%r)" % (a.code, axis), ref, shape, a.dtype,
                             lo, hi, a.nan or fl and (math.isinf(a.lo) or math.isinf(a.hi)),
                             False if fl else True, a.frac, npok=ref is not None)
        return None

    def op_nn(self):
        """Ops without a NumPy reference here: executors and passes must agree."""
        r = self.rng
        a = self.pick(lambda v: v.kind == "f")
        if a is None:
            return None
        rank = len(a.shape)
        name = r.choice(["softmax", "log_softmax", "dense", "conv2d", "max_pool2d", "avg_pool2d",
                         "batch_flatten", "bias_add", "batch_norm", "layer_norm", "topk",
                         "dropout", "global_avg_pool2d", "leaky_relu"])
        dt = a.dtype
        if not (max(abs(a.lo), abs(a.hi)) <= 1e6):
            # huge or infinite values: a normalization or a dot product overflows in an order the
            # executors may choose differently (float arithmetic, not a bug)
            return None
        un = dict(lo=-math.inf, hi=math.inf, nan=True, exact=False, npok=False)
        if name in ("softmax", "log_softmax", "leaky_relu"):
            if rank == 0:
                return None
            if name == "leaky_relu":
                return self.emit("relay.nn.leaky_relu(%s, %r)" % (a.code, r.choice([0.1, -2.0, 0.0])),
                                 None, a.shape, dt, **un)
            return self.emit("relay.nn.%s(%s, %d)" % (name, a.code, r.randrange(-rank, rank)),
                             None, a.shape, dt, **un)
        if name == "dense":
            if rank != 2:
                return None
            units = r.choice([1, 2, 3])
            w = self.leaf((units, a.shape[1]), dt)
            return self.emit("relay.nn.dense(%s, %s)" % (a.code, w.code), None,
                             (a.shape[0], units), dt, **un)
        if name == "batch_flatten":
            if rank < 1:
                return None
            return self.emit("relay.nn.batch_flatten(%s)" % a.code, None,
                             (a.shape[0], prod(a.shape[1:])), dt, **un)
        if name == "bias_add":
            if rank < 2:
                return None
            b = self.leaf((a.shape[1],), dt)
            return self.emit("relay.nn.bias_add(%s, %s)" % (a.code, b.code), None, a.shape, dt, **un)
        if name == "topk":
            if rank == 0:
                return None
            ax = r.randrange(-rank, rank)
            k = r.randint(1, max(1, a.shape[ax]))
            shape = list(a.shape)
            shape[ax] = k
            return self.emit("relay.topk(%s, %d, %d, ret_type='values')" % (a.code, k, ax), None,
                             tuple(shape), dt, **un)
        if name == "dropout":
            return self.emit("relay.nn.dropout(%s, %r)" % (a.code, r.choice([0.0, 0.5])), None,
                             a.shape, dt, **un)
        if name == "layer_norm":
            if rank == 0:
                return None
            g = self.leaf((a.shape[-1],), dt)
            b = self.leaf((a.shape[-1],), dt)
            return self.emit("relay.nn.layer_norm(%s, %s, %s)" % (a.code, g.code, b.code), None,
                             a.shape, dt, **un)
        if name == "batch_norm":
            if rank < 2:
                return None
            c = a.shape[1]
            ps = [self.new_const((c,), dt).code for _ in range(4)]
            return self.emit("relay.nn.batch_norm(%s, %s)[0]" % (a.code, ", ".join(ps)), None,
                             a.shape, dt, **un)
        if rank != 4:
            return None
        n, c, h, w = a.shape
        if name == "global_avg_pool2d":
            return self.emit("relay.nn.global_avg_pool2d(%s)" % a.code, None, (n, c, 1, 1), dt, **un)
        kh, kw = r.randint(1, max(1, h)), r.randint(1, max(1, w))
        s = r.choice([1, 2])
        p = r.choice([0, 1])
        oh, ow = (h + 2 * p - kh) // s + 1, (w + 2 * p - kw) // s + 1
        if oh <= 0 or ow <= 0:
            return None
        if name == "conv2d":
            oc = r.choice([1, 2, 3])
            wt = self.leaf((oc, c, kh, kw), dt)
            return self.emit("relay.nn.conv2d(%s, %s, strides=%d, padding=%d)" % (
                a.code, wt.code, s, p), None, (n, oc, oh, ow), dt, **un)
        extra = ", count_include_pad=%r" % (r.random() < 0.5) if name == "avg_pool2d" else ""
        if p * 2 >= kh or p * 2 >= kw:
            p = 0
            oh, ow = (h - kh) // s + 1, (w - kw) // s + 1
        return self.emit("relay.nn.%s(%s, pool_size=(%d, %d), strides=%d, padding=%d%s)" % (
            name, a.code, kh, kw, s, p, extra), None, (n, c, oh, ow), dt, **un)

    def op_control(self):
        """Tuples, let, local and global functions, if."""
        r = self.rng
        a = self.pick()
        if a is None:
            return None
        kind = r.choice(["tuple", "let", "fn", "global", "if", "ref", "ref"])
        keep = dict(lo=a.lo, hi=a.hi, nan=a.nan, exact=a.exact, frac=a.frac)
        if kind == "tuple":
            b = self.pick() or a
            t = self.name("t")
            self.lines.append("%s = relay.Tuple([%s, %s])" % (t, a.code, b.code))
            i = r.randint(0, 1)
            v = [a, b][i]
            return self.emit("relay.TupleGetItem(%s, %d)" % (t, i), self.r(v), v.shape, v.dtype,
                             v.lo, v.hi, v.nan, v.exact, v.frac)
        if kind == "let":
            lv = self.name("lv")
            self.lines.append("%s = relay.var(%r)" % (lv, lv))
            if a.kind == "b":
                return self.emit("relay.Let(%s, %s, relay.logical_and(%s, %s))" % (lv, a.code, lv, lv),
                                 self.r(a), a.shape, "bool", 0, 1)
            lo, hi = self.fit(a.dtype, 2 * a.lo, 2 * a.hi)
            return self.emit("relay.Let(%s, %s, relay.add(%s, %s))" % (lv, a.code, lv, lv),
                             "np.add(%s, %s)" % (self.r(a), self.r(a)), a.shape, a.dtype, lo, hi,
                             a.nan or a.kind == "f" and math.isinf(a.lo) | math.isinf(a.hi),
                             a.exact and self.is_exact(a.dtype, lo, hi, a.frac), a.frac)
        if kind in ("fn", "global"):
            p = self.name("p")
            typed = r.random() < 0.7 or kind == "global"
            self.lines.append("%s = relay.var(%r%s)" % (
                p, p, ", shape=%r, dtype=%r" % (a.shape, a.dtype) if typed else ""))
            body = "relay.negative(%s)" % p if a.kind != "b" else "relay.logical_not(%s)" % p
            ref = ("np.negative(%s)" if a.kind != "b" else "np.logical_not(%s)") % self.r(a)
            f = self.name("f")
            self.lines.append("%s = relay.Function([%s], %s)" % (f, p, body))
            if kind == "global":
                g = self.name("g")
                self.lines.append("%s = relay.GlobalVar(%r)" % (g, g))
                self.globals.append((g, f))
                callee = g
            else:
                callee = f
            lo, hi = (0, 1) if a.kind == "b" else self.fit(a.dtype, -a.hi, -a.lo)
            return self.emit("relay.Call(%s, [%s])" % (callee, a.code), ref, a.shape, a.dtype,
                             lo, hi, a.nan, a.exact, a.frac)
        if kind == "ref":
            # let rv = ref(a); let _ = rv := op(!rv); !rv  (RefCreate/RefRead/RefWrite)
            self.has_refs = True
            rv, u = self.name("rv"), self.name("u")
            self.lines.append("%s = relay.var(%r)" % (rv, rv))
            self.lines.append("%s = relay.var(%r)" % (u, u))
            if a.kind == "b":
                upd, ref = "relay.logical_not(relay.RefRead(%s))" % rv, "np.logical_not(%s)" % self.r(a)
                lo, hi = 0, 1
            else:
                upd, ref = "relay.negative(relay.RefRead(%s))" % rv, "np.negative(%s)" % self.r(a)
                lo, hi = self.fit(a.dtype, -a.hi, -a.lo)
            twice = r.random() < 0.3
            body = "relay.RefRead(%s)" % rv
            if twice:  # written twice: the second write wins
                body = "relay.Let(relay.var('w'), relay.RefWrite(%s, %s), %s)" % (rv, upd, body)
                ref, lo, hi = self.r(a), a.lo, a.hi
            return self.emit("relay.Let(%s, relay.RefCreate(%s), relay.Let(%s, relay.RefWrite(%s, %s), %s))"
                             % (rv, a.code, u, rv, upd, body), ref, a.shape, a.dtype, lo, hi,
                             a.nan, a.exact, a.frac)
        if kind == "if":
            x = self.pick(lambda v: v.kind != "b" and v.exact and not v.nan and not getattr(v, "noref", False))
            b = self.pick(lambda v: v.shape == a.shape and v.dtype == a.dtype) or a
            if x is None:
                return None
            cond = "relay.greater(relay.sum(%s), relay.const(0, %r))" % (x.code, x.dtype)
            cref = "np.sum(%s, dtype=%r) > 0" % (self.r(x), x.dtype)
            return self.emit("relay.If(%s, %s, %s)" % (cond, a.code, b.code),
                             "(%s if %s else %s)" % (self.r(a), cref, self.r(b)), a.shape, a.dtype,
                             min(a.lo, b.lo), max(a.hi, b.hi), a.nan or b.nan, a.exact and b.exact,
                             max(a.frac, b.frac))
        return None

    def build(self, n_ops=None):
        r = self.rng
        for _ in range(r.randint(1, 2)):
            self.new_input(self.shape(), r.choice(ALL_DTYPES))
        if n_ops is None:
            n_ops = r.randint(1, 10)
        ops = [self.op_binary] * 4 + [self.op_unary] * 3 + [self.op_reduce] * 2 + \
            [self.op_transform] * 5 + [self.op_compare, self.op_logical] + [self.op_nn] * 2 + \
            [self.op_control] * 2
        made = 0
        tries = 0
        while made < n_ops and tries < 60:
            tries += 1
            try:
                v = r.choice(ops)()
            except ValueError:  # shapes that do not broadcast: the generator's own miss
                v = None
            if v is not None:
                made += 1
        outs = [v for v in self.vals if v.code.startswith("e")]
        if not outs:
            outs = [self.vals[-1]]
        if r.random() < 0.25 and len(outs) > 1:
            res = r.sample(outs, 2)
        else:
            res = [outs[-1]]
        refs = [self.r(v) for v in res]
        return res, refs


PASSES = [
    "relay.transform.InferType()", "relay.transform.FoldConstant()",
    "relay.transform.SimplifyInference()", "relay.transform.FuseOps(%d)",
    "relay.transform.ToANormalForm()", "relay.transform.ToGraphNormalForm()",
    "relay.transform.DeadCodeElimination(%r, %r)", "relay.transform.EliminateCommonSubexpr()",
    "relay.transform.SimplifyExpr()", "relay.transform.CanonicalizeOps()",
    "relay.transform.AlterOpLayout()", "relay.transform.Legalize()",
    "relay.transform.ToBasicBlockNormalForm()", "relay.transform.Inline()",
    "relay.transform.LambdaLift()", "relay.transform.DefuseOps()",
    "relay.transform.DynamicToStatic()", "relay.transform.CanonicalizeCast()",
    "relay.transform.CombineParallelDense(2)", "relay.transform.FoldScaleAxis()",
    "relay.transform.EtaExpand(%r, %r)", "relay.transform.RemoveUnusedFunctions()",
    "relay.transform.SimplifyExprPostAlterOp()", "relay.transform.FoldExplicitPadding()",
    "relay.transform.LabelOps()", "relay.transform.PlanDevices()",
    "relay.transform.FlattenAtrousConv()", "relay.transform.CombineParallelConv2D(2)",
    "relay.transform.ConvertLayout({'nn.conv2d': ['NHWC', 'default']})",
    "relay.transform.DefaultPipeline()",
    "relay.transform.FastMath()", "relay.transform.ToMixedPrecision(%r)",
]
NONSEMANTIC = ("FastMath", "ToMixedPrecision")


def rand_pass(r):
    p = r.choice(PASSES)
    n = p.count("%")
    if n == 0:
        return p
    if "FuseOps" in p:
        return p % r.choice([-1, 0, 1, 2, 3, 4, 100])
    if "MixedPrecision" in p:
        return p % r.choice(["float16", "float32", "bfloat16", "int8", "float64"])
    return p % tuple(r.random() < 0.5 for _ in range(n))


def rand_config(r):
    if r.random() < 0.6:
        return "{}"
    c = {}
    if r.random() < 0.5:
        c["relay.FuseOps.max_depth"] = r.choice([0, 1, 2, 256, 2 ** 31 - 1, -1])
    if r.random() < 0.5:
        c["relay.FuseOps.link_params"] = r.random() < 0.5
    return repr(c)


def program_case(r, odd_args=True):
    g = ProgramGen(r)
    res, refs = g.build()
    out = res[0].code if len(res) == 1 else "relay.Tuple([%s])" % ", ".join(v.code for v in res)
    params = [nm for nm, _ in g.inputs]
    L = []
    L += ["%s = %s" % ("a_" + nm, code) for nm, code in g.inputs]
    L += g.lines
    L.append("mod = tvm.IRModule()")
    for gv, f in g.globals:
        L.append("mod[%s] = %s" % (gv, f))
    L.append("mod['main'] = relay.Function([%s], %s)" % (", ".join(params), out))
    L.append("args = [%s]" % ", ".join("a_" + nm for nm in params))
    if g.ref_ok:
        L.append("with np.errstate(all='ignore'):")
        L += ["    " + x for x in g.reflines]
        L.append("    ref = [%s]" % ", ".join(refs))
        L.append("if any(x is None for x in ref):\n    ref = None")
        L.append("else:\n    ref = [np.asarray(x) for x in ref]")
    else:
        L.append("ref = None  # an op without a NumPy reference here")
    kinds = r.sample(["graph", "vm", "build", "vmcompile"], r.randint(1, 4))
    lv = [r.choice([0, 1, 2, 3, 4]) for _ in range(2)]
    passes = [rand_pass(r) for _ in range(r.randint(0, 5))]
    pass_opt = r.randint(0, 4)
    cmp_passes = not any(n in p for p in passes for n in NONSEMANTIC)
    if pass_opt >= 4 and any("DefaultPipeline" in p for p in passes):
        cmp_passes = False  # the default pipeline at opt_level 4 includes FastMath
    if g.has_refs and drops_effects(passes):
        cmp_passes = False
    odd = []
    bad = []
    if odd_args and params:
        k = r.randrange(len(params))
        nm = "a_" + params[k]
        variant = r.choice([
            "%s.astype(%s.dtype.newbyteorder('>'))" % (nm, nm),
            "np.asfortranarray(%s)" % nm,
            "np.repeat(%s, 2, axis=-1)[..., ::2] if %s.ndim else %s" % (nm, nm, nm),
            "np.ascontiguousarray(%s.T).T" % nm,
            "%s.tolist()" % nm,
            "tvm.nd.array(%s)" % nm,
            "relay.const(%s)" % nm,
        ])
        kind = r.choice(["debug", "vm", "graph", "build", "vmcompile"])
        odd.append("(%r, args[:%d] + [%s] + args[%d:])" % (kind, k, variant, k + 1))
        badv, why = r.choice([
            ("np.zeros(%s.shape + (2,), %s.dtype)" % (nm, nm), "an extra axis"),
            ("np.zeros((%s.size + 1,), %s.dtype)" % (nm, nm), "another size"),
            ("None", "None"),
            ("'abc'", "a string"),
            ("np.zeros(%s.shape, 'complex64')" % nm, "complex dtype"),
        ])
        if "newbyteorder" not in badv:
            bad.append("(%r, args[:%d] + [%s] + args[%d:], %r)" % (kind, k, badv, k + 1, why))
    bind = r.sample(params, r.randint(0, len(params))) if r.random() < 0.3 else None
    L.append("check_program(mod, args, ref, kinds=%r, opt_levels=%r, passes=[%s], pass_opt=%d, "
             "config=%s, odd=[%s], bad=[%s], bind=%r, compare_passes=%r)" % (
                 tuple(kinds), tuple(lv), ", ".join(passes), pass_opt, rand_config(r),
                 ", ".join(odd), ", ".join(bad), bind, cmp_passes))
    return "\n".join(L)


# -- hostile attributes on every registered op --------------------------------------------------
def hostile(r, kind):
    if kind in ("int", "index"):
        return r.choice([0, -1, 1, 2, 3, -2, None, "a", 1.5, [1], True, float("nan")] + HUGE)
    if kind in ("int_array", "int_or_int_array"):
        c = r.random()
        if c < 0.15:
            return r.choice([None, "ab", 3, 1.5, [[1]], [None], [1.5], {}, [True]])
        n = r.choice([0, 1, 2, 3, 4, 6, 9])
        return [r.choice([0, 1, 2, -1, -2, 3, 5] + HUGE) for _ in range(n)]
    if kind == "float_array":
        return r.choice([[], [float("nan")], None, [1e308] * 4, [0.0, 0.0, 1.0, 1.0], "x"])
    if kind == "float":
        return r.choice([0.0, -1.0, 1.0, 1e-30, float("nan"), float("inf"), -float("inf"), 1e308,
                         None, "x", 2 ** 63, -5])
    if kind == "bool":
        return r.choice([True, False, 2, None, "true", 0])
    if kind == "dtype":
        return r.choice(["", "int8", "float16", "bool", "floaty", "int7", "uint64", "handle",
                         None, 3, "float64", "int64", "uint1", "float8", "bfloat16"])
    if kind == "str":
        return r.choice(["", "NCHW", "NHWC", "XYZW", "NCHW4c", "OIHW", "\x00", "a" * 5000, 5,
                         None, "clip", "wrap", "fast", "both", "values", "nearest_neighbor",
                         "linear", "ij,jk->ik", "...", "add", "update", "end", "size", "DCR",
                         "CRD", "reflect", "edge", "constant", "half_pixel", "ii->i"])
    return r.choice([None, 0, "x", [1]])


def hostile_case(r):
    import numpy as np  # noqa: F401 (only to fail early)
    ops = HOSTILE_OPS
    name = r.choice(ops)
    sig = SIGS[name]
    n_in, _, fields = sig
    L = []
    ins = []
    dtypes = []
    nin = n_in if n_in >= 0 else 1
    for i in range(nin):
        rank = r.choice([0, 1, 2, 3, 4, 4, 5])
        shape = [r.choice([0, 1, 1, 2, 3, 4, 5, 8]) for _ in range(rank)]
        if r.random() < 0.1 and shape:
            shape[r.randrange(rank)] = r.choice([2 ** 31, 2 ** 40, -1])
        dt = r.choice(ALL_DTYPES + ["float32"] * 4)
        nm = "x%d" % i
        if r.random() < 0.3 and all(0 <= d < 10 for d in shape):
            L.append("%s = relay.const(np.random.default_rng(%d).integers(-5, 5, %r).astype(%r))"
                     % (nm, r.randrange(1000), tuple(shape), dt))
        else:
            L.append("%s = relay.var(%r, shape=%r, dtype=%r)" % (nm, nm, tuple(shape), dt))
        ins.append(nm)
        dtypes.append(dt)
    if n_in < 0:
        ins = ["relay.Tuple([%s])" % ", ".join(ins)]
    attrs = {}
    for fname, fkind, _, default in fields:
        if r.random() < 0.5:
            attrs[fname] = hostile(r, fkind)
    if r.random() < 0.05:
        attrs["no_such_attr"] = 1
    L.append("e = op_call(%r, [%s], **%r)" % (name, ", ".join(ins), attrs))
    L.append("mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(e), e))")
    L.append("mod = relay.transform.InferType()(mod)")
    L.append("rng = np.random.default_rng(%d)" % r.randrange(10 ** 6))
    L.append("args = inputs_for(mod, rng)")
    L.append("base = attempt(run_kind, 'debug', mod, args, 0)")
    L.append("if not err(base):\n    touch(base)")
    k = r.choice(["vm", "graph", "build", "vmcompile"])
    L.append("other = attempt(run_kind, %r, mod, args, %d)" % (k, r.choice([0, 2, 3])))
    # TVM's own executors disagree on clip of a bool tensor: topi's clip casts a_min/a_max to
    # bool (any nonzero bound is True) while SimplifyExpr drops a clip whose bounds hold [0, 1]
    # (tests/bad_input/python_fuzz_cases/clip_bool_keeps_tvms_two_answers.json pins both).
    if not (name == "clip" and dtypes and dtypes[0] == "bool"):
        L.append("if not err(base) and not err(other):\n    same(other, base, '%s vs debug')" % k)
    if r.random() < 0.5:
        L.append("with tvm.transform.PassContext(opt_level=3):\n"
                 "    m2 = attempt(tvm.transform.Sequential([%s]), mod)" % ", ".join(
                     rand_pass(r) for _ in range(r.randint(1, 4))))
        L.append("if not err(m2):\n    r2 = attempt(run_kind, 'debug', m2, args, 0)\n"
                 "    if not err(r2) and not err(base):\n        touch(r2)")
    return "\n".join(L)


def wrapper_case(r):
    """Python wrappers (relay.nn.conv2d, relay.strided_slice, ...) with hostile arguments."""
    calls = [
        ("relay.nn.conv2d", 2, ["strides", "padding", "dilation", "groups", "channels", "kernel_size"]),
        ("relay.nn.max_pool2d", 1, ["pool_size", "strides", "padding", "dilation", "ceil_mode"]),
        ("relay.nn.avg_pool2d", 1, ["pool_size", "strides", "padding", "count_include_pad"]),
        ("relay.nn.pad", 1, ["pad_width", "pad_value", "pad_mode"]),
        ("relay.strided_slice", 1, ["begin", "end", "strides", "axes", "slice_mode"]),
        ("relay.reshape", 1, ["newshape"]), ("relay.transpose", 1, ["axes"]),
        ("relay.split", 1, ["indices_or_sections", "axis"]), ("relay.take", 2, ["axis", "mode", "batch_dims"]),
        ("relay.full", 1, ["shape", "dtype"]), ("relay.zeros", 0, ["shape", "dtype"]),
        ("relay.one_hot", 3, ["depth", "axis", "dtype"]), ("relay.topk", 1, ["k", "axis", "ret_type"]),
        ("relay.cumsum", 1, ["axis", "exclusive"]), ("relay.tile", 1, ["reps"]),
        ("relay.repeat", 1, ["repeats", "axis"]), ("relay.expand_dims", 1, ["axis", "num_newaxis"]),
        ("relay.squeeze", 1, ["axis"]), ("relay.sum", 1, ["axis", "keepdims", "exclude"]),
        ("relay.argmax", 1, ["axis", "keepdims", "select_last_index"]),
        ("relay.broadcast_to", 1, ["shape"]), ("relay.trilu", 2, ["upper"]),
        ("relay.nn.upsampling", 1, ["scale_h", "scale_w", "method"]),
        ("relay.nn.depth_to_space", 1, ["block_size", "mode"]), ("relay.layout_transform", 1, ["src_layout", "dst_layout"]),
        ("relay.image.resize2d", 1, ["size", "method", "roi"]), ("relay.clip", 1, ["a_min", "a_max"]),
        ("relay.cast", 1, ["dtype"]), ("relay.nn.softmax", 1, ["axis"]),
        ("relay.nn.batch_matmul", 2, ["transpose_a", "transpose_b", "out_dtype"]),
        ("relay.einsum", 1, ["equation"]), ("relay.stack", 1, ["axis"]),
        ("relay.concatenate", 1, ["axis"]), ("relay.reverse_sequence", 2, ["seq_axis", "batch_axis"]),
    ]
    name, nin, kws = r.choice(calls)
    vals = [None, 0, -1, 1, 2, 3, 2 ** 31, 2 ** 63, -2 ** 63, 1.5, float("nan"), "abc", "", [],
            [0], [1, 1], [-1, -1], [2 ** 31, 1], [[1, 2], [3, 4]], [[2 ** 62, 2 ** 62]] * 4,
            (1, 2, 3, 4), True, "NCHW", [1.5, 2], {"a": 1}, [None, 1]]
    L = []
    shape = tuple(r.choice([1, 2, 3, 4]) for _ in range(r.choice([1, 2, 3, 4, 4])))
    ins, dtypes = [], []
    for i in range(nin):
        nm = "x%d" % i
        if name in ("relay.stack", "relay.concatenate") and i == 0:
            L.append("%s = [relay.var('a', shape=%r), relay.var('b', shape=%r)]" % (nm, shape, shape))
        elif name in ("relay.one_hot",) and i > 0:
            L.append("%s = relay.const(%r)" % (nm, r.choice([1.0, 0, 2 ** 31 - 1])))
        elif name in ("relay.take", "relay.reverse_sequence", "relay.trilu", "relay.einsum") and i > 0:
            L.append("%s = relay.const(np.array(%r, 'int32'))" % (nm, [r.randint(-5, 5) for _ in range(3)]
                                                                   if name != "relay.trilu" else r.randint(-9, 9)))
        elif name == "relay.full" and i == 0:
            L.append("%s = relay.const(%r)" % (nm, r.choice([1.0, 0, -1])))
        else:
            dtypes.append(r.choice(ALL_DTYPES))
            L.append("%s = relay.var(%r, shape=%r, dtype=%r)" % (nm, nm, shape, dtypes[-1]))
        ins.append(nm)
    if name == "relay.einsum":
        ins = ["[%s]" % ", ".join(ins)]
    kw = {k: r.choice(vals) for k in kws if r.random() < 0.6}
    L.append("e = %s(%s, **%r)" % (name, ", ".join(ins), kw))
    L.append("e = e.astuple() if hasattr(e, 'astuple') else e")
    L.append("mod = relay.transform.InferType()(tvm.IRModule.from_expr("
             "relay.Function(relay.analysis.free_vars(e), e)))")
    L.append("args = inputs_for(mod, np.random.default_rng(%d))" % r.randrange(10 ** 6))
    L.append("base = attempt(run_kind, 'debug', mod, args, 0)")
    L.append("if not err(base):\n    touch(base)\n    other = attempt(run_kind, 'vm', mod, args, 3)")
    # clip of a bool tensor: TVM's two answers (see hostile_case; seed 14 case 17351)
    if not (name == "relay.clip" and dtypes and dtypes[0] == "bool"):
        L.append("    if not err(other):\n        same(other, base, 'vm vs debug')")
    return "\n".join(L)


def nd_case(r):
    arrays = [
        "np.arange(12, dtype='>f4').reshape(3, 4)", "np.arange(12, dtype='>i8').reshape(3, 4)",
        "np.arange(24, dtype='float32').reshape(2, 3, 4).transpose(2, 0, 1)",
        "np.arange(20, dtype='int16')[::3]", "np.arange(20, dtype='float64')[::-2]",
        "np.zeros((0, 3), 'float32')", "np.zeros((3, 0, 2), 'int8')", "np.float32(3.5)",
        "np.array(7, dtype='uint8')", "np.array([np.nan, np.inf, -np.inf, -0.0], 'float16')",
        "np.asfortranarray(np.arange(6, dtype='int32').reshape(2, 3))",
        "np.array([True, False, True])", "np.array([1 + 2j])", "np.array(['a', 'b'])",
        "np.array([object()])", "np.zeros((2,), dtype=[('a', 'f4'), ('b', 'i4')])",
        "np.array(['2020-01-01'], dtype='datetime64[D]')", "np.broadcast_to(np.float32(1), (4, 5))",
        "np.arange(6, dtype='uint64').reshape(2, 3)", "np.array([2 ** 63 - 1, -2 ** 63], 'int64')",
        "np.arange(8, dtype='float32').reshape(2, 2, 2)[:, ::-1, :]",
        "np.frombuffer(bytes(range(16)), dtype='<u2')", "np.ones((1,) * 32, 'float32')",
        "np.array([1e38, -1e38], 'float32')", "np.lib.stride_tricks.as_strided(np.zeros(4, 'f4'), (3, 3), (4, 0))",
        "[1, 2, 3]", "[[1.5], [2.5]]", "[[1, 2], [3]]", "3", "2.5", "True", "None", "2 ** 70", "[]",
    ]
    L = ["a = %s" % r.choice(arrays)]
    what = r.choice(["ndarray", "const", "const_dtype", "copyfrom", "empty", "run_const"])
    if what == "ndarray":
        L.append("x = tvm.nd.array(a)")
        L.append("b = np.asarray(a)")
        L.append("y = x.numpy()")
        L.append("if y.shape != b.shape or not np.array_equal(y, b, equal_nan=b.dtype.kind == 'f') "
                 "or y.dtype.newbyteorder('=') != b.dtype.newbyteorder('='):\n"
                 "    raise Mismatch('nd.array(%r %s) gave back %r %s' % (b, b.dtype, y, y.dtype))")
    elif what in ("const", "const_dtype"):
        dt = r.choice(ALL_DTYPES) if what == "const_dtype" else None
        L.append("c = relay.const(a%s)" % (", dtype=%r" % dt if dt else ""))
        L.append("y = c.data.numpy()")
        L.append("b = np.asarray(a)")
        if dt:
            L.append("b = b.astype(%r)" % dt)
        else:
            L.append("b = b.astype({np.dtype('int64'): np.int32, np.dtype('float64'): np.float32}"
                     ".get(b.dtype, b.dtype))")
        L.append("if y.shape != b.shape or not np.array_equal(y, b, equal_nan=b.dtype.kind == 'f'):\n"
                 "    raise Mismatch('relay.const gave back %r (%s) for %r (%s)' % (y, y.dtype, b, b.dtype))")
        L.append("f = relay.transform.FoldConstant()(tvm.IRModule.from_expr(relay.Function([], "
                 "relay.add(c, c) if y.dtype != bool else relay.logical_or(c, c))))")
        L.append("z = run_kind(%r, f, [], 0)[0]" % r.choice(["debug", "vm", "graph"]))
        L.append("with np.errstate(all='ignore'):\n    w = (y + y) if y.dtype != bool else (y | y)")
        L.append("close(z, w, 'c + c of a constant vs NumPy')")
    elif what == "copyfrom":
        shape = r.choice(["(3, 4)", "(2,)", "()", "(0,)", "(4, 3)"])
        L.append("x = tvm.nd.empty(%s, %r)" % (shape, r.choice(ALL_DTYPES)))
        L.append("x.copyfrom(a)")
        L.append("y = x.numpy()")
        L.append("b = np.asarray(a)")
        L.append("if y.shape != b.shape:\n    raise Mismatch('copyfrom kept shape %s of a %s array' % (y.shape, b.shape))")
        L.append("if not np.array_equal(y, b.astype(y.dtype), equal_nan=y.dtype.kind == 'f'):\n"
                 "    raise Mismatch('copyfrom wrote %r for %r' % (y, b))")
    elif what == "empty":
        L[0] = "a = None"
        shape = r.choice(["(-1,)", "(2 ** 62, 2 ** 62)", "(2 ** 40,)", "()", "(0, 2 ** 62)", "('a',)",
                          "(1.5,)", "2 ** 63", "-3"])
        L.append("x = tvm.nd.empty(%s, %r)" % (shape, r.choice(ALL_DTYPES + ["complex64", "int4", "x"])))
        L.append("touch(x)")
    else:
        L.append("c = relay.const(a)")
        L.append("v = relay.var('v', shape=c.data.shape, dtype=str(c.data.dtype))")
        L.append("mod = tvm.IRModule.from_expr(relay.Function([v], relay.Tuple([c, v])))")
        L.append("r = check_program(mod, [c.data.numpy()], [c.data.numpy(), c.data.numpy()], "
                 "kinds=('graph', 'vm', 'build', 'vmcompile'))")
    return "\n".join(L)


def params_case(r):
    L = ["arrs = {"]
    for i in range(r.randint(0, 4)):
        L.append("    %r: %s," % (r.choice(["p%d" % i, "", "a" * 300, "x\x00y", "é"]), r.choice([
            "np.arange(6, dtype='float32').reshape(2, 3)", "np.zeros((0, 5), 'int8')",
            "np.array(3, 'int64')", "np.array([np.nan], 'float16')", "np.arange(4, dtype='>i4')",
            "np.array([True, False])", "np.arange(10, dtype='uint16')[::2]",
            "np.ones((2, 2), 'float64').T", "tvm.nd.array(np.ones(3, 'uint8'))"])))
    L.append("}")
    L.append("blob = relay.save_param_dict(arrs)")
    L.append("back = relay.load_param_dict(blob)")
    L.append("if sorted(back) != sorted(arrs):\n    raise Mismatch('names %r came back as %r' % (sorted(arrs), sorted(back)))")
    L.append("for k, v in arrs.items():\n"
             "    b = v.numpy() if isinstance(v, tvm.nd.NDArray) else v\n"
             "    y = back[k].numpy()\n"
             "    if y.shape != b.shape or not np.array_equal(y, b, equal_nan=b.dtype.kind == 'f'):\n"
             "        raise Mismatch('param %r came back as %r from %r' % (k, y, b))")
    L.append("import random as _r\nR = _r.Random(%d)" % r.randrange(10 ** 9))
    mut = r.choice(["flip", "trunc", "field", "random", "insert", "types"])
    if mut == "flip":
        L.append("b = bytearray(blob)\nfor _ in range(R.randint(1, 8)):\n"
                 "    if b:\n        b[R.randrange(len(b))] ^= 1 << R.randrange(8)")
    elif mut == "trunc":
        L.append("b = bytes(blob[:R.randrange(len(blob) + 1)])")
    elif mut == "field":
        L.append("b = bytearray(blob)\nif len(b) >= 8:\n    o = R.randrange(len(b) - 7)\n"
                 "    b[o:o + 8] = R.choice([2 ** 63 - 1, 2 ** 64 - 1, 2 ** 31, 2 ** 32 - 1, 0, 2 ** 40])"
                 ".to_bytes(8, 'little')")
    elif mut == "random":
        L.append("b = bytes(R.randrange(256) for _ in range(R.randrange(200)))")
    elif mut == "insert":
        L.append("b = bytearray(blob)\no = R.randrange(len(b) + 1)\nb[o:o] = bytes(R.randrange(256) for _ in range(R.randrange(1, 16)))")
    else:
        L.append("b = R.choice([None, 'abc', 5, memoryview(bytes(blob)), [1, 2], bytes(blob) * 2, "
                 "np.frombuffer(bytes(blob), 'uint8')])")
    L.append("d = relay.load_param_dict(b)")
    L.append("for v in d.values():\n    touch(v)")
    return "\n".join(L)


TEXT_SNIPPETS = ["(", ")", "{", "}", "%0", "%x", "99999999999999999999", "-1", "0", "nan", "inff",
                 "1e400f", "meta[relay.Constant][0]", "meta[relay.Constant][99]", "fn", "let",
                 "if", "else", ",", ";", "Tensor[(2147483648), float32]", "Tensor[(-1), int8]",
                 "int64", "float16", "bool", "\"", "/*", "*/", "\x00", "\\", ".0", ".2147483648",
                 "axis=", "axis=2147483647", "newshape=[-1, -1]", "strides=[0]", "@main", "def",
                 "\n", "ty=", "add(", "nn.conv2d(", "%0.0", "\U0001F600"]


def text_case(r):
    body = program_case(r, odd_args=False).rsplit("\ncheck_program", 1)[0]
    L = [body, "text = mod.astext()" if r.random() < 0.7 else "text = mod.astext(False)",
         "import random as _r", "R = _r.Random(%d)" % r.randrange(10 ** 9),
         "S = %r" % TEXT_SNIPPETS]
    L.append("t = list(text)\nfor _ in range(R.randint(1, 4)):\n"
             "    k = R.random()\n    o = R.randrange(len(t) + 1)\n"
             "    if k < 0.3:\n        del t[o:o + R.randint(1, 20)]\n"
             "    elif k < 0.7:\n        t[o:o] = list(R.choice(S))\n"
             "    elif k < 0.85 and t:\n        o2 = R.randrange(len(t))\n        t[o:o] = t[o2:o2 + R.randint(1, 40)]\n"
             "    else:\n        t[o:o + 1] = list(str(R.choice([2 ** 31, 2 ** 63, -2 ** 63, 0, -1])))\n"
             "text2 = ''.join(t)")
    L.append("print('MUTATED TEXT:', repr(text2))")
    L.append("m = tvm.parser.parse(text2)")
    L.append("m = relay.transform.InferType()(m)")
    L.append("m.astext()")
    L.append("a2 = inputs_for(m, np.random.default_rng(1))")
    L.append("b1 = attempt(run_kind, 'debug', m, a2, 0)")
    L.append("if not err(b1):\n    touch(b1)\n    b2 = attempt(run_kind, 'vm', m, a2, 3)\n"
             "    if not err(b2):\n        same(b2, b1, 'vm vs debug on a parsed module')")
    return "\n".join(L)


def adt_case(r):
    """Relay's functional half (issue 32): a Prelude list of random tensors folded, mapped and
    matched, polymorphic helpers, references in a closure, `?` extents and dyn ops; checked
    against NumPy, debug against vm, and then mutated as text (a parse error or a run is fine,
    a crash or a wrong number is not)."""
    n = r.randint(0, 6)
    width = r.randint(1, 4)
    dyn = r.random() < 0.5
    scale = r.choice([1.0, 2.0, -0.5])
    L = ["rng = np.random.default_rng(%d)" % r.randrange(10 ** 6),
         "mod = tvm.IRModule()",
         "p = relay.prelude.Prelude(mod)",
         "shape = (%s, %d)" % ("relay.Any()" if dyn else "1", width),
         "x = relay.var('x', shape=shape, dtype='float32')",
         "items = [relay.multiply(x, relay.const(%r * (k + 1), 'float32')) for k in range(%d)]"
         % (scale, n),
         "xs = p.nil()",
         "for it in reversed(items):\n    xs = p.cons(it, xs)",
         "a, b = relay.var('a'), relay.var('b')",
         "total = p.foldl(relay.Function([a, b], relay.add(a, b)), relay.zeros_like(x), xs)",
         "y = relay.var('y')",
         "mapped = p.map(relay.Function([y], relay.nn.relu(y)), xs)",
         "h, t = relay.var('h'), relay.var('t')",
         "first = relay.Match(mapped, [relay.Clause(relay.PatternConstructor(p.cons, "
         "[relay.PatternVar(h), relay.PatternWildcard()]), h), relay.Clause("
         "relay.PatternWildcard(), relay.zeros_like(x))], %s)" % (r.random() < 0.8),
         "cell = relay.var('cell')",
         "f = relay.Function([], relay.RefRead(cell))",
         "body = relay.Let(cell, relay.RefCreate(total), relay.Tuple([relay.Call(f, []), first, "
         "p.length(xs)]))",
         "mod['main'] = relay.Function([x], body)",
         "rows = %d if %r else 1" % (r.randint(0, 3), dyn),
         "xv = rng.standard_normal((rows, %d)).astype('float32')" % width,
         "ref_total = sum(xv * np.float32(%r * (k + 1)) for k in range(%d)) if %d else "
         "np.zeros_like(xv)" % (scale, n, n),
         "ref_first = np.maximum(xv * np.float32(%r), 0) if %d else np.zeros_like(xv)" % (scale, n),
         "args = [xv]",
         "b1 = attempt(run_kind, 'debug', mod, args, 0)",
         "if not err(b1):\n    close(b1[0], ref_total, 'foldl vs numpy')\n"
         "    close(b1[1], ref_first, 'match of map vs numpy')\n"
         "    close(b1[2], np.array(%d, 'int32'), 'length', strict=True)\n"
         "    b2 = attempt(run_kind, 'vm', mod, args, 3)\n"
         "    if not err(b2):\n        same(b2, b1, 'vm vs debug on an ADT program')" % n,
         "import random as _r",
         "R = _r.Random(%d)" % r.randrange(10 ** 9),
         "S = %r" % ADT_SNIPPETS,
         "t = list(mod.astext())\nfor _ in range(R.randint(1, 3)):\n"
         "    o = R.randrange(len(t) + 1)\n    k = R.random()\n"
         "    if k < 0.4:\n        del t[o:o + R.randint(1, 12)]\n"
         "    else:\n        t[o:o] = list(R.choice(S))\n"
         "text2 = ''.join(t)",
         "print('MUTATED TEXT:', repr(text2))",
         "m = tvm.parser.parse(text2)",
         "m.astext()",
         "b3 = attempt(run_kind, 'debug', m, args, 0)",
         "touch(b3)"]
    return "\n".join(L)


ADT_VALUE_MUTATIONS = ["none", "none", "tag", "option_tag", "unknown_tag", "fields_missing",
                       "fields_extra", "shape", "dtype", "int", "cycle", "tuple_for_list",
                       "constructor_value", "constructor_value_arity", "long"]


def adt_value_case(r):
    """Runtime ADT values given to the executors as TVM's tests give a List (ADT(tag, fields),
    tuple_object for tuples; or the interpreter's ConstructorValue): a well-formed list is
    checked against NumPy; a malformed one (a tag of the other constructor, of Option, of no
    constructor, too few or too many fields, a tensor of the wrong shape or dtype, an int, a
    list that contains itself, a tuple where a list goes, a ConstructorValue of the wrong arity)
    must give a clean error or run, never crash; a long list must not exhaust any stack."""
    mutation = r.choice(ADT_VALUE_MUTATIONS)
    n = 3000 if mutation == "long" else r.randint(0, 5)
    width = r.randint(1, 3)
    kind = r.choice(["debug", "vm"])
    L = ["from relaypass.runtime.container import ADT, tuple_object",
         "from relaypass.relay.backend.interpreter import ConstructorValue",
         "rng = np.random.default_rng(%d)" % r.randrange(10 ** 6),
         "mod = tvm.IRModule()",
         "p = relay.prelude.Prelude(mod)",
         "t = relay.TensorType((%d,), 'float32')" % width,
         "xs = relay.var('xs', type_annotation=p.l(t))",
         "acc, it = relay.var('acc', t), relay.var('it', t)",
         "step = relay.Function([acc, it], relay.add(acc, it))",
         "mod['main'] = relay.Function([xs], relay.Tuple([p.foldl(step, relay.zeros((%d,), "
         "'float32'), xs), p.length(xs)]))" % width,
         "vals = [rng.standard_normal(%d).astype('float32') for _ in range(%d)]" % (width, n),
         "v = ADT(p.nil.tag, [])",
         "for a in reversed(vals):\n    v = ADT(p.cons.tag, [tvm.nd.array(a), v])",
         "mutation = %r" % mutation,
         "cell = v\nfor _ in range(%d):\n    cell = cell[1] if cell.tag == p.cons.tag else cell"
         % r.randint(0, max(0, n - 1)),
         "if mutation == 'tag':\n    cell.tag = p.nil.tag if cell.tag == p.cons.tag else p.cons.tag",
         "if mutation == 'option_tag':\n    cell.tag = p.some.tag",
         "if mutation == 'unknown_tag':\n    cell.tag = %d" % r.choice([-1, 7, 2 ** 31 - 1, 12345]),
         "if mutation == 'fields_missing':\n    cell._fields = cell._fields[:-1]",
         "if mutation == 'fields_extra':\n    cell._fields = cell._fields + [tvm.nd.array(vals[0] "
         "if vals else np.zeros(%d, 'float32'))]" % width,
         "if mutation == 'shape' and cell.tag == p.cons.tag:\n    cell._fields[0] = tvm.nd.array("
         "np.zeros(%d, 'float32'))" % (width + 1),
         "if mutation == 'dtype' and cell.tag == p.cons.tag:\n    cell._fields[0] = tvm.nd.array("
         "np.zeros(%d, 'int32'))" % width,
         "if mutation == 'int' and cell.tag == p.cons.tag:\n    cell._fields[0] = 3",
         "if mutation == 'cycle' and cell.tag == p.cons.tag:\n    cell._fields[1] = cell",
         "if mutation == 'tuple_for_list':\n    v = tuple_object([tvm.nd.array(a) for a in vals])",
         "if mutation in ('constructor_value', 'constructor_value_arity'):\n"
         "    w = ConstructorValue(p.nil.tag, [], p.nil)\n"
         "    for a in reversed(vals):\n"
         "        w = ConstructorValue(p.cons.tag, [tvm.nd.array(a), w], p.cons)\n"
         "    if mutation == 'constructor_value_arity':\n"
         "        w = ConstructorValue(p.cons.tag, [w], p.cons)\n"
         "    v = w",
         "res = attempt(run_kind, %r, mod, [v], 0)" % kind,
         "if mutation in ('none', 'long', 'constructor_value'):\n"
         "    if err(res):\n        raise Mismatch('a well-formed list was refused: ' + repr(res)[:300])\n"
         "    ref = sum(vals) if vals else np.zeros(%d, 'float32')\n"
         "    close(res[0], ref, 'foldl of a runtime List vs numpy')\n"
         "    close(res[1], np.array(len(vals), 'int32'), 'length', strict=True)\n"
         "elif not err(res):\n    touch(res)" % width]
    return "\n".join(L)


ADT_SNIPPETS = ["match", "match?", "=>", "_", "Cons", "Nil", "List[", "[A]", "fn", "ref(",
                "ref_read(", "ref_write(", "?", "(", ")", "{", "}", ",", ";", "%x", "@main",
                "type", "Some", "None", "Option[", "int32", "-1", "99999999999"]


def pattern_case(r):
    body = program_case(r, odd_args=False).rsplit("\ncheck_program", 1)[0]

    def pat(d):
        c = r.random()
        if d > 3 or c < 0.25:
            return r.choice(["dfp.wildcard()", "dfp.is_constant()", "dfp.is_var()", "dfp.is_var('x1')"])
        if c < 0.55:
            op = r.choice(["add", "multiply", "nn.relu", "exp", "sum", "cast", "transpose",
                           "reshape", "take", "no_such_op", "where", "nn.conv2d", "subtract"])
            n = {"add": 2, "multiply": 2, "subtract": 2, "take": 2, "where": 3, "nn.conv2d": 2}.get(op, 1)
            return "dfp.is_op(%r)(%s)" % (op, ", ".join(pat(d + 1) for _ in range(n)))
        if c < 0.65:
            return "(%s | %s)" % (pat(d + 1), pat(d + 1))
        if c < 0.72:
            return "%s.has_dtype(%r)" % (pat(d + 1), r.choice(ALL_DTYPES + ["x"]))
        if c < 0.78:
            return "%s.has_shape(%r)" % (pat(d + 1), r.choice([(2, 3), (), (1,), [2 ** 63], ["a"]]))
        if c < 0.84:
            return "%s.has_attr(%r)" % (pat(d + 1), r.choice([{"axis": [1]}, {"keepdims": True},
                                                               {"dtype": "int32"}, {"x": None}, {}]))
        if c < 0.9:
            return "dfp.is_tuple([%s])" % ", ".join(pat(d + 1) for _ in range(r.randint(0, 2)))
        if c < 0.95:
            return "dfp.is_tuple_get_item(%s, %r)" % (pat(d + 1), r.choice([0, 1, None, -1, 2 ** 40]))
        return "%s.optional(lambda x: dfp.is_op('nn.relu')(x))" % pat(d + 1)

    p = pat(0)
    L = [body, "main = relay.transform.InferType()(mod)['main']", "P = %s" % p]
    what = r.choice(["match", "partition", "rewrite", "dominates"])
    if what == "match":
        L.append("P.match(main.body)")
    elif what == "partition":
        L.append("nb = P.partition(main.body)")
        L.append("m2 = tvm.IRModule()\nfor gv in mod.get_global_vars():\n"
                 "    if gv.name_hint != 'main':\n        m2[gv.name_hint] = mod[gv]")
        L.append("m2['main'] = relay.Function(main.params, nb)")
        L.append("b1 = attempt(run_kind, 'debug', mod, args, 0)")
        L.append("b2 = attempt(run_kind, 'debug', m2, args, 0)")
        L.append("if not err(b1) and not err(b2):\n    same(b2, b1, 'partitioned %s vs original' % P)")
        L.append("b3 = attempt(run_kind, 'vm', m2, args, 3)")
        L.append("if not err(b1) and not err(b3):\n    same(b3, b1, 'vm on partitioned vs original')")
    elif what == "rewrite":
        ret = r.choice(["post", "pre", "None", "5", "relay.const(1.0)", "node_map", "post.args[0] if hasattr(post, 'args') and post.args else post"])
        L.append("class CB(dfp.DFPatternCallback):\n"
                 "    def __init__(self):\n        super().__init__(%r, %r)\n        self.pattern = P\n"
                 "    def callback(self, pre, post, node_map):\n        return %s" % (
                     r.random() < 0.5, r.random() < 0.5, ret))
        L.append("nb = dfp.rewrite(CB(), main.body, mod)")
        if ret in ("post", "pre"):
            L.append("m2 = tvm.IRModule()\nfor gv in mod.get_global_vars():\n"
                     "    if gv.name_hint != 'main':\n        m2[gv.name_hint] = mod[gv]")
            L.append("m2['main'] = relay.Function(main.params, nb)")
            L.append("b1 = attempt(run_kind, 'debug', mod, args, 0)")
            L.append("b2 = attempt(run_kind, 'debug', m2, args, 0)")
            L.append("if not err(b1) and not err(b2):\n    same(b2, b1, 'identity rewrite vs original')")
    else:
        L.append("dfp.dominates(%s, %s, %s).match(main.body)" % (pat(2), pat(2), pat(2)))
    return "\n".join(L)


def drops_effects(passes):
    """Whether a pass of `passes` may drop an effect (a RefWrite), as TVM's do by design:
    DeadCodeElimination(ignore_impurity=True), and ToGraphNormalForm, which drops an unused
    let, effectful or not (TVM's to_gnf.cc)."""
    return any(("DeadCodeElimination" in p and p.endswith("True)")) or "ToGraphNormalForm" in p
               for p in passes)


def context_case(r):
    """PassContext, Sequential and pass options with hostile values."""
    body = program_case(r, odd_args=False).rsplit("\ncheck_program", 1)[0]
    opt = r.choice([0, 3, -1, 2 ** 31, 2 ** 63, None, "3", 4.5, 100])
    cfg = r.choice(["{}", "{'relay.FuseOps.max_depth': %r}" % r.choice([0, -1, 2 ** 63, "x", None, 1.5, [1]]),
                    "{'relay.FuseOps.link_params': %r}" % r.choice([2, None, "yes", True]),
                    "{'relay.memory_budget': %r}" % r.choice([0, -1, 1, 2 ** 63, "1GB", 1.5]),
                    "{'no.such': 1}", "{1: 2}", "None"])
    req = r.choice(["None", "['FoldConstant']", "['NoSuchPass']", "[1]", "'FuseOps'"])
    dis = r.choice(["None", "['FuseOps']", "['FoldConstant', 'SimplifyExpr']", "['x' * 1000]", "[None]"])
    pass_list = [rand_pass(r) for _ in range(r.randint(0, 4))]
    passes = ", ".join(pass_list)
    L = [body,
         "with tvm.transform.PassContext(opt_level=%r, config=%s, required_pass=%s, disabled_pass=%s):"
         % (opt, cfg, req, dis),
         "    m2 = attempt(tvm.transform.Sequential([%s], opt_level=%r), mod)" % (passes, r.choice([0, 2, 5, -3])),
         "    b = attempt(lambda: relay.create_executor(%r, mod=mod, target='llvm').evaluate()(*args))"
         % r.choice(["graph", "vm", "debug"]),
         "    if not err(b):\n        touch(b)",
         "    lib = attempt(relay.build, mod, target=%r)" % r.choice(["llvm", "c", "cuda", "llvm -mcpu=x", "", None]),
         "b0 = attempt(run_kind, 'debug', mod, args, 0)",
         "if not err(b) and not err(b0) and %r:\n    same(flat(b), b0, 'executor under that PassContext vs debug')"
         % (isinstance(opt, int) and opt < 4),
         "if not err(m2) and not err(b0):\n    r2 = attempt(run_kind, 'debug', m2, args, 0)\n"
         "    if not err(r2) and %r:\n        same(r2, b0, 'Sequential under that PassContext vs original')"
         % (not any(n in passes for n in NONSEMANTIC) and not (
             "DefaultPipeline" in passes and not (isinstance(opt, int) and opt < 4))
            and not ("RefCreate" in body and drops_effects(pass_list))),
         ]
    return "\n".join(L)


CASE_KINDS = [(program_case, 40), (hostile_case, 20), (wrapper_case, 10), (nd_case, 6),
              (params_case, 5), (text_case, 8), (pattern_case, 6), (context_case, 5),
              (adt_case, 6), (adt_value_case, 4)]

HOSTILE_OPS = []
SIGS = {}


def _load_sigs():
    """Operator signatures, read once from relaypass in a subprocess (the fuzzer itself never
    imports relaypass, so a crash cannot take it down) and cached next to the findings."""
    global HOSTILE_OPS
    if HOSTILE_OPS:
        return
    code = ("import json, relaypass\nfrom relaypass import _core\n"
            "print(json.dumps({n: _core.op_signature(n) for n in _core.list_op_names()}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    SIGS.update({k: tuple(v) for k, v in json.loads(out).items()})
    HOSTILE_OPS[:] = sorted(SIGS)


def make_case(seed, index):
    """The program of case (seed, index): PRELUDE + the generated body."""
    r = random.Random("%d:%d" % (seed, index))
    fns = [f for f, w in CASE_KINDS for _ in range(w)]
    fn = r.choice(fns)
    try:
        if fn is hostile_case:
            _load_sigs()
        body = fn(r)
    except Exception as e:  # noqa: BLE001 (a bug of the generator: reported, not fatal)
        import traceback
        return "generator_error", "raise ValueError(%r)" % traceback.format_exc()[-1500:]
    return fn.__name__, "# case %d:%d (%s)\n%s" % (seed, index, fn.__name__, body)


# ----------------------------------------------------------------------------------------------
# Running.
# ----------------------------------------------------------------------------------------------
def exec_case(body):
    """Run one case's body after the prelude in a fresh namespace; the outcome as a dict."""
    ns = {"__name__": "__fuzzcase__"}
    try:
        exec(compile(PRELUDE, "<prelude>", "exec"), ns)
    except Exception as e:  # noqa: BLE001
        return {"status": "setup", "detail": repr(e)}
    try:
        exec(compile(body, "<case>", "exec"), ns)
    except ns["Mismatch"] as e:
        return {"status": "mismatch", "detail": str(e)[:2000]}
    except SystemError as e:
        return {"status": "systemerror", "detail": repr(e)[:2000]}
    except Exception as e:  # noqa: BLE001 (a Python exception is a clean outcome)
        return {"status": "exception", "detail": ("%s: %s" % (type(e).__name__, e))[:300],
                "notes": ns.get("NOTES", [])[:3]}
    except BaseException as e:  # noqa: BLE001 (not an Exception: a finding)
        return {"status": "baseexception", "detail": repr(e)[:2000]}
    return {"status": "ok", "notes": ns.get("NOTES", [])[:3]}


def limit_memory():
    # A runaway allocation is a MemoryError in the child, not the machine's OOM killer.
    # Not under ASan (make test-asan preloads libasan): its shadow memory reserves terabytes of
    # address space, so an address-space limit would stop every child at start.
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        gb = int(os.environ.get("PYFUZZ_MEMORY_GB", "4"))
        resource.setrlimit(resource.RLIMIT_AS, (gb << 30, gb << 30))
    os.setsid()


def worker_main(seed, start, count, cases=None):
    import faulthandler
    faulthandler.enable()
    indices = cases if cases is not None else range(start, start + count)
    for i in indices:
        kind, body = make_case(seed, i)
        print("START %d" % i, flush=True)
        res = exec_case(body)
        res["index"] = i
        res["kind"] = kind
        print("DONE " + json.dumps(res), flush=True)


def spawn(seed, indices):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(seed),
           "--cases", ",".join(str(i) for i in indices)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=limit_memory, env=dict(os.environ, PYTHONFAULTHANDLER="1"))


def run_batch(seed, indices, timeout):
    """Run indices in one worker. Returns (results, failure): failure is None or
    (index, 'signal'|'hang'|'exit', detail, stderr tail)."""
    p = spawn(seed, indices)
    q = queue.Queue()
    err_lines = []

    def reader():
        for line in p.stdout:
            q.put(line)
        q.put(None)

    def err_reader():
        for line in p.stderr:
            err_lines.append(line)
            del err_lines[:-60]

    threading.Thread(target=reader, daemon=True).start()
    threading.Thread(target=err_reader, daemon=True).start()
    results, current = [], None
    deadline = time.time() + timeout + 15  # the first case also pays the import
    while True:
        try:
            line = q.get(timeout=max(0.1, deadline - time.time()))
        except queue.Empty:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return results, (current, "hang", "no answer within %d s" % timeout, "".join(err_lines))
        if line is None:
            break
        if line.startswith("START "):
            current = int(line.split()[1])
            deadline = time.time() + timeout
        elif line.startswith("DONE "):
            results.append(json.loads(line[5:]))
            current = None
    rc = p.wait()
    time.sleep(0.05)
    if rc != 0 or current is not None:
        how = "signal" if rc < 0 else "exit"
        detail = ("killed by %s" % signal.Signals(-rc).name) if rc < 0 else "exit status %d" % rc
        return results, (current, how, detail, "".join(err_lines))
    return results, None


FINDING_STATUS = ("mismatch", "systemerror", "baseexception")


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.findings_dir = args.findings
        os.makedirs(self.findings_dir, exist_ok=True)
        self.stats = {"cases": 0, "ok": 0, "exception": 0, "findings": 0, "notes": 0}
        self.kinds = {}
        self.signatures = set()
        self.notes = []
        self.exc = {}

    def record(self, seed, index, kind, how, detail, stderr=""):
        _, body = make_case(seed, index)
        sig = (how, detail.split(":")[0][:60] if how == "mismatch" else detail[:40], kind)
        self.stats["findings"] += 1
        name = "%s-%d-%d" % (how, seed, index)
        desc = {"finding": how, "detail": detail, "seed": seed, "index": index, "kind": kind,
                "stderr_tail": stderr[-3000:], "new_signature": sig not in self.signatures}
        self.signatures.add(sig)
        with open(os.path.join(self.findings_dir, name + ".json"), "w") as f:
            json.dump(desc, f, indent=1)
        with open(os.path.join(self.findings_dir, name + ".py"), "w") as f:
            f.write("# %s: %s\n# reproduce: PYTHONPATH=build/python python3 %s\n" % (
                how, detail.replace("\n", " ")[:300], name + ".py"))
            f.write(PRELUDE)
            f.write("\n" + body + "\n")
        print("FINDING %s %d:%d (%s): %s" % (how, seed, index, kind, detail[:300]), flush=True)

    def confirm(self, seed, index):
        """Run one case alone in a fresh process: its failure, or None."""
        _, fail = run_batch(seed, [index], self.args.timeout)
        return fail

    def handle(self, results):
        """Counts results; returns the indices whose prelude failed to import relaypass (a
        package being rebuilt under the fuzzer: they are run again later, not findings)."""
        retry = [r["index"] for r in results if r["status"] == "setup"]
        if retry:
            print("relaypass did not import (%s); waiting 30 s" % results[0].get("detail", "")[:200],
                  flush=True)
            self.stats["setup_retries"] = self.stats.get("setup_retries", 0) + 1
            time.sleep(30)
        results = [r for r in results if r["status"] != "setup"]
        for res in results:
            self.stats["cases"] += 1
            st = res["status"]
            self.kinds[res["kind"]] = self.kinds.get(res["kind"], 0) + 1
            if st in FINDING_STATUS:
                self.record(self.args.seed, res["index"], res["kind"], st, res.get("detail", ""))
            else:
                self.stats["ok" if st == "ok" else "exception"] += 1
                if st == "exception":
                    key = res["kind"] + ": " + res.get("detail", "")[:70]
                    self.exc[key] = self.exc.get(key, 0) + 1
            for n in res.get("notes", []) or []:
                self.stats["notes"] += 1
                if len(self.notes) < 200:
                    self.notes.append("%d:%d %s" % (self.args.seed, res["index"], n))
        return retry

    def run(self):
        a = self.args
        t_end = time.time() + a.seconds if a.count is None else math.inf
        stop = a.start + a.count if a.count is not None else math.inf
        nxt = a.start
        while time.time() < t_end and nxt < stop:
            indices = list(range(nxt, int(min(nxt + a.batch, stop))))
            nxt += len(indices)
            while indices and time.time() < t_end + a.timeout:
                results, fail = run_batch(a.seed, indices, a.timeout)
                retry = self.handle(results)
                if fail is None and not retry:
                    break
                done = {r["index"] for r in results} - set(retry)
                if fail is None or fail[0] in retry:
                    indices = [i for i in indices if i not in done]
                    continue
                idx, how, detail, stderr = fail
                if idx is None:  # died between cases
                    idx = next(i for i in indices if i not in done)
                alone = self.confirm(a.seed, idx)
                if alone is not None:
                    self.stats["cases"] += 1
                    kind, _ = make_case(a.seed, idx)
                    self.record(a.seed, idx, kind, alone[1], alone[2], alone[3])
                else:
                    # Not reproducible alone: the earlier cases of the batch left state behind.
                    # Run them one by one, each alone, to find one that fails alone.
                    for j in [i for i in indices if i in done] + [idx]:
                        f2 = self.confirm(a.seed, j)
                        if f2 is not None:
                            self.record(a.seed, j, make_case(a.seed, j)[0], f2[1], f2[2], f2[3])
                    self.record(a.seed, idx, make_case(a.seed, idx)[0], how + "-in-batch",
                                detail + " (only after the batch's earlier cases %s)" % sorted(done),
                                stderr)
                    self.stats["cases"] += 1
                indices = [i for i in indices if i not in done and i != idx]
        self.stats["kinds"] = self.kinds
        self.stats["seconds"] = a.seconds
        self.stats["seed"] = a.seed
        self.stats["last_index"] = nxt
        with open(os.path.join(self.findings_dir, "stats-%d.json" % a.seed), "w") as f:
            json.dump({"stats": self.stats, "notes": self.notes,
                       "exceptions": sorted(self.exc.items(), key=lambda kv: -kv[1])[:80]},
                      f, indent=1)
        print(json.dumps(self.stats), flush=True)
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--findings", default=os.path.join(os.getcwd(), "pyfuzz-findings"))
    ap.add_argument("--batch", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--count", type=int, help="run exactly this many cases (from --start), "
                    "whatever the time: a deterministic sweep")
    ap.add_argument("--replay", metavar="FILE", help="run a kept case file (.json with 'body', "
                    "or .py) in this process and print its outcome as JSON; exit status 0 if "
                    "the outcome is clean, 3 if it is a finding")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cases", help=argparse.SUPPRESS)
    ap.add_argument("--show", metavar="SEED:INDEX", help="print the program of one case")
    ap.add_argument("--run", metavar="SEED:INDEX", help="run one case in this process")
    a = ap.parse_args()
    if a.worker:
        worker_main(a.seed, 0, 0, [int(x) for x in a.cases.split(",") if x])
        return 0
    if a.replay:
        with open(a.replay) as f:
            text = f.read()
        body = json.loads(text)["body"] if a.replay.endswith(".json") else text
        if isinstance(body, list):
            body = "\n".join(body)
        res = exec_case(body)
        print(json.dumps(res))
        return 3 if res["status"] in FINDING_STATUS else 0
    if a.show or a.run:
        s, i = (int(x) for x in (a.show or a.run).split(":"))
        kind, body = make_case(s, i)
        if a.show:
            print(PRELUDE + "\n" + body)
            return 0
        print(json.dumps(exec_case(body)))
        return 0
    return Fuzzer(a).run()


if __name__ == "__main__":
    sys.exit(main())
