"""relay-opt reading a saved TorchScript model (torch.jit.save): --input-shape per input, --run
with the model's own weights, and --bind-params, against eager PyTorch's output on the same input
(the expected values); a missing shape and an unloadable file are clear errors."""
import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("RELAYPASS_BINARY_DIR") or os.path.join(HERE, "..", "..", "build")
RELAY_OPT = os.path.join(BUILD, "relay-opt")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).flatten(1))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    if not os.path.exists(RELAY_OPT):
        pytest.skip("no relay-opt in " + BUILD)
    folder = tmp_path_factory.mktemp("torchscript")
    x = np.random.RandomState(0).uniform(-1, 1, (1, 3, 8, 8)).astype("float32")
    net = Net().eval()
    path = str(folder / "net.pt")
    torch.jit.save(torch.jit.trace(net, torch.from_numpy(x)), path)
    np.save(str(folder / "x.npy"), x)
    with torch.no_grad():
        expected = net(torch.from_numpy(x)).numpy()
    return folder, path, expected


@pytest.mark.parametrize("extra", [[], ["--bind-params", "--pipeline=default", "-O3"]])
def test_runs_with_the_models_weights(saved, extra):
    folder, path, expected = saved
    out = str(folder / "out.npy")
    subprocess.run([RELAY_OPT, path, "--input-shape", "input=1,3,8,8", "--run", "--input",
                    "input=" + str(folder / "x.npy"), "--output", out, "-o", os.devnull] + extra,
                   check=True, capture_output=True)
    np.testing.assert_allclose(np.load(out), expected, rtol=1e-5, atol=1e-5)


def test_errors_name_the_problem(saved, tmp_path):
    _, path, _ = saved
    missing = subprocess.run([RELAY_OPT, path], capture_output=True, text=True)
    assert missing.returncode != 0 and "--input-shape" in missing.stderr
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a TorchScript archive")
    bad = subprocess.run([RELAY_OPT, str(junk), "--input-shape", "x=1"], capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "the PyTorch frontend failed" in bad.stderr
