"""`cmake --install` puts a package that the system Python imports without the build tree."""
import os
import subprocess
import sys

import pytest


def test_cmake_install_gives_an_importable_package(tmp_path):
    build = os.environ.get("RELAYPASS_BINARY_DIR")
    if not build or not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        pytest.skip("RELAYPASS_BINARY_DIR (set by ctest) names no CMake build tree")
    env = dict(os.environ, DESTDIR=str(tmp_path))
    subprocess.run(["cmake", "--install", build, "--prefix", "/usr/local"], check=True, env=env,
                   capture_output=True)
    sites = [root for root, dirs, _ in os.walk(tmp_path)
             if "relaypass" in dirs and os.path.exists(os.path.join(root, "relaypass", "__init__.py"))]
    assert len(sites) == 1, sites
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = sites[0]
    code = ("import relaypass, relaypass.relay as r; "
            "print(relaypass.__file__); print(r.transform.FoldConstant().info.name)")
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True,
                         text=True, cwd=str(tmp_path)).stdout.split()
    assert out[0].startswith(str(tmp_path)) and out[1] == "FoldConstant"
