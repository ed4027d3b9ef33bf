"""A BERT-style encoder layer exported from PyTorch with dynamic batch and sequence axes, imported
once by relay.frontend.from_onnx with no shape (the axes stay `?`), run at sequence lengths 8, 64
and 384. Expected values: PyTorch's own output of the same module (ONNX Runtime's Python package
is not installed here), within rtol / atol 1e-4."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")

from relaypass import relay  # noqa: E402


class _Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Linear(16, 32)
        self.layer = torch.nn.TransformerEncoderLayer(
            d_model=32, nhead=4, dim_feedforward=64, batch_first=True, dropout=0.0)

    def forward(self, x):
        return self.layer(self.emb(x))


def test_encoder_dynamic_batch_and_sequence(tmp_path):
    torch.manual_seed(0)
    module = _Encoder().eval()
    path = str(tmp_path / "encoder.onnx")
    torch.onnx.export(module, (torch.randn(2, 8, 16),), path, input_names=["x"],
                      output_names=["y"], opset_version=14,
                      dynamic_axes={"x": {0: "batch", 1: "seq"}, "y": {0: "batch", 1: "seq"}})
    mod, params = relay.frontend.from_onnx(onnx.load(path))
    text = mod.astext(False) if hasattr(mod, "astext") else str(mod)
    assert "%x: Tensor[(?, ?, 16), float32]" in text
    run = relay.create_executor("debug", mod=mod).evaluate()
    for batch, seq in ((2, 8), (1, 64), (2, 384)):
        x = torch.randn(batch, seq, 16)
        with torch.no_grad():
            want = module(x).numpy()
        got = run(x.numpy()).numpy()
        assert got.shape == (batch, seq, 32)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
