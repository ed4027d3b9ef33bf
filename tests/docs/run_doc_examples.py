#!/usr/bin/python3
"""Docs that run: executes the commands and code examples of one Markdown file.

    run_doc_examples.py --source-dir DIR --build-dir DIR FILE.md

From FILE.md it takes
  * every ```sh block: each command line (continuations joined) is run with bash in a fresh
    directory holding `build` (a link to the build directory) and a copy of docs/examples/, with
    build/ on PATH (so `relay-opt` and `build/relay-opt` both work) and PYTHONPATH=build/python.
    Assignments (`P=...`, `export X=...`) are kept for the following lines of the block. A line
    that is not a relay-opt, python3 or assignment line must match SKIP below, which says why it
    is not run here (and what tests it instead); any other line fails the test, so a new kind of
    command in the docs has to be made runnable or explained.
  * every ```python block (README.md, docs/python.md and any other file): run with
    /usr/bin/python3 in the same kind of directory.
  * every ```cpp block that is a whole program (has `int main(`): compiled with g++ against
    include/ and the built static library, and run. Other ```cpp blocks are fragments of a
    program (a class, a registration, three lines of a main) and are listed as skipped; the
    API they use is compiled by the tests of each area.
Inputs the commands name are shipped in docs/examples/ or made here (MAKE_INPUTS). A command
fails the test when it exits non-zero (pipelines with pipefail). A command whose line ends in the
comment `# exits 1` is one the docs show failing on purpose: it must exit with status 1.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# Commands the docs show that this test does not run, with the reason. Keys are regular
# expressions matched against the start of the command line.
SKIP = {
    r"make build\b": "builds the tree this test runs in (the test runs after the build)",
    r"make run\b": "tested by test_cli's CliMakeRunTest (the same relay-opt command, then dot)",
    r"make test\b": "runs this test (and every other)",
    r"make fuzz\b": "needs clang and runs for 30 minutes (docs/reliability.md; `make fuzz` CI job)",
    r"cmake --install\b": "tested by outside_project_builds_readme_example and "
                          "tests/python/test_install.py (install into a temporary prefix)",
    r"build/relay-opt \[INPUT\] \[options\]": "a synopsis, not a command",
    r"python3 -m relaypass\.tvm_compat SCRIPT": "a synopsis (the README runs a real script)",
}

# Files the commands read that are made here rather than shipped.
def make_x_npy(path):
    """x.npy for `--input=x=x.npy` on chain-4: float32 (1, 16), NumPy format 1.0."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 16), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<16f", *[(i - 8) / 4.0 for i in range(16)]))


def make_image_npy(path):
    """image.npy for docs/cli.md's ONNX command's --input: float32 (1, 3, 224, 224)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    count = 3 * 224 * 224
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % count, *[((i * 13) % 17 - 8) / 8.0 for i in range(count)]))


def make_model_onnx(path):
    """model.onnx for docs/cli.md's ONNX command: input `input` (N, 3, 224, 224) with a dynamic
    batch, Conv (initializer weights) + Relu + GlobalAveragePool."""
    import onnx
    from onnx import TensorProto, helper
    weights = helper.make_tensor("w", TensorProto.FLOAT, [4, 3, 3, 3],
                                 [((i * 7) % 11 - 5) / 10.0 for i in range(4 * 3 * 3 * 3)])
    graph = helper.make_graph(
        [helper.make_node("Conv", ["input", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("GlobalAveragePool", ["r"], ["output"])],
        "docs_model",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["N", 4, 1, 1])],
        initializer=[weights])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


MAKE_INPUTS = {"x.npy": make_x_npy, "image.npy": make_image_npy, "model.onnx": make_model_onnx}


def blocks(text):
    """(language, first line number, lines) of every fenced block."""
    out = []
    lang = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence and lang is None:
            lang, start, body = fence.group(1), number + 1, []
        elif line.startswith("```") and lang is not None:
            out.append((lang, start, body))
            lang = None
        elif lang is not None:
            body.append(line)
    return out


def commands(lines, start):
    """(line number, command) with backslash continuations joined; blank lines and lines that
    are only comments dropped."""
    out = []
    pending, pending_at = "", None
    for offset, line in enumerate(lines):
        if pending_at is None:
            pending_at = start + offset
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        command = (pending + line).strip()
        pending, at, pending_at = "", pending_at, None
        if command and not command.startswith("#"):
            out.append((at, command))
    return out


class Runner:
    def __init__(self, source_dir, build_dir):
        self.source_dir = source_dir
        self.build_dir = build_dir
        self.failures = []
        self.ran = 0
        self.skipped = []

    def workdir(self):
        work = tempfile.mkdtemp(prefix="relaypass-docs-")
        os.symlink(self.build_dir, os.path.join(work, "build"))
        examples = os.path.join(self.source_dir, "docs", "examples")
        shutil.copytree(examples, os.path.join(work, "docs", "examples"))
        for name in os.listdir(examples):
            shutil.copy(os.path.join(examples, name), work)
        return work

    def environment(self, work):
        # `python3` is Debian's, the one the package is built for (docs/python.md), whatever
        # else is on PATH.
        bin_dir = os.path.join(work, ".bin")
        if not os.path.exists(bin_dir):
            os.mkdir(bin_dir)
            os.symlink("/usr/bin/python3", os.path.join(bin_dir, "python3"))
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([bin_dir, os.path.join(work, "build"), env.get("PATH", "")])
        env["PYTHONPATH"] = os.path.join(work, "build", "python")
        return env

    def needs(self, command, work):
        """Makes the generated inputs the command names; returns a reason to skip or None."""
        for name, make in MAKE_INPUTS.items():
            if re.search(r"(^|[\s=])" + re.escape(name) + r"(\s|$)", command) and \
                    not os.path.exists(os.path.join(work, name)):
                try:
                    make(os.path.join(work, name))
                except ImportError as e:
                    return "cannot make %s: %s" % (name, e)
        if re.search(r"\|\s*dot\b", command) and shutil.which("dot") is None:
            return "Graphviz's dot is not installed (make run installs it)"
        return None

    def run_shell_block(self, where, lines, start):
        work = self.workdir()
        prelude = []
        try:
            for at, command in commands(lines, start):
                label = "%s:%d: %s" % (where, at, command)
                skip = next((why for pattern, why in SKIP.items()
                             if re.match(pattern, command)), None)
                if skip:
                    self.skipped.append((label, skip))
                    continue
                if re.match(r"^(export\s+)?[A-Za-z_][A-Za-z0-9_]*=", command):
                    prelude.append(command)
                    continue
                if not re.match(r"^(build/relay-opt|relay-opt|python3)\b", command):
                    self.failures.append(label + "\n  no rule to run or skip this command: make it "
                                         "runnable or add it to SKIP in tests/docs with a reason")
                    continue
                reason = self.needs(command, work)
                if reason:
                    self.skipped.append((label, reason))
                    continue
                expect_failure = re.search(r"#\s*exits 1\b[^#]*$", command) is not None
                script = "set -o pipefail\n" + "\n".join(prelude + [command]) + "\n"
                result = subprocess.run(["bash", "-c", script], cwd=work,
                                        env=self.environment(work), capture_output=True,
                                        text=True)
                self.ran += 1
                ok = result.returncode == 1 if expect_failure else result.returncode == 0
                if not ok:
                    self.failures.append(
                        "%s\n  exit status %d%s\n  stderr: %s" %
                        (label, result.returncode, " (expected 1)" if expect_failure else "",
                         result.stderr.strip()[-2000:]))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def run_python_block(self, where, lines, start):
        work = self.workdir()
        try:
            label = "%s:%d: ```python block" % (where, start)
            result = subprocess.run(["/usr/bin/python3", "-c", "\n".join(lines)], cwd=work,
                                    env=self.environment(work), capture_output=True, text=True)
            self.ran += 1
            if result.returncode != 0:
                self.failures.append("%s\n  exit status %d\n  stderr: %s" %
                                     (label, result.returncode, result.stderr.strip()[-2000:]))
        finally:
            shutil.rmtree(work, ignore_errors=True)


def run_cpp_block(runner, where, lines, start):
    label = "%s:%d: ```cpp block" % (where, start)
    source = "\n".join(lines)
    if "int main(" not in source:
        runner.skipped.append((label, "a fragment of a program, not a whole one"))
        return
    work = runner.workdir()
    try:
        with open(os.path.join(work, "example.cc"), "w") as f:
            f.write(source + "\n")
        build = subprocess.run(
            ["g++", "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror",
             "-I" + os.path.join(runner.source_dir, "include"), "example.cc",
             # as relaypass.pc links the static library: its installer object kept
             "-Wl,--undefined=relaypass_builtin_registrations",
             os.path.join(runner.build_dir, "librelaypass.a"), "-lopenblas", "-lonnx",
             "-lonnx_proto", "-lprotobuf", "-lpthread", "-o", "example"],
            cwd=work, capture_output=True, text=True)
        runner.ran += 1
        if build.returncode != 0:
            runner.failures.append("%s\n  does not compile:\n%s" % (label, build.stderr[-3000:]))
            return
        result = subprocess.run(["./example"], cwd=work, capture_output=True, text=True)
        if result.returncode != 0:
            runner.failures.append("%s\n  exit status %d\n  stderr: %s" %
                                   (label, result.returncode, result.stderr.strip()[-2000:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("doc")
    args = parser.parse_args()
    runner = Runner(os.path.abspath(args.source_dir), os.path.abspath(args.build_dir))
    where = os.path.relpath(args.doc, args.source_dir)
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    for lang, start, lines in blocks(text):
        if lang == "sh":
            runner.run_shell_block(where, lines, start)
        elif lang == "python":
            runner.run_python_block(where, lines, start)
        elif lang == "cpp":
            run_cpp_block(runner, where, lines, start)
    for label, why in runner.skipped:
        print("skipped: %s\n  because: %s" % (label, why))
    print("%s: %d ran, %d skipped, %d failed" %
          (where, runner.ran, len(runner.skipped), len(runner.failures)))
    for failure in runner.failures:
        print("FAILED: " + failure)
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
