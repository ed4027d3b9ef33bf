"""Signal processing: aten::stft as TVM's converter (Relay's stft; the centring pad of
torch.stft is its own aten::pad node in the graph)."""
from ... import op as _op
from .registry import converter


@converter("aten::stft", needs=("stft",))
def stft(ctx, inputs, input_types):
    data, n_fft, hop_length, win_length, window, normalized, onesided = inputs[:7]
    return _op.stft(data, n_fft, hop_length, win_length, window, normalized, onesided)
