"""The recurrent layers torch.nn.LSTM, GRU and RNN trace to: aten::lstm, aten::gru, aten::rnn_tanh
and aten::rnn_relu, unrolled over the (static) sequence length as TVM's lstm / gru converters
unroll them: per layer and direction, the input projection x W_ih^T + b_ih, then one step per
time step with h W_hh^T + b_hh and PyTorch's gate equations. TVM v0.13 converts aten::lstm
(with projections) and aten::gru; rnn_tanh / rnn_relu use the same unrolling.

Dropout between layers is applied by PyTorch only when training (`train`); a traced module in
eval mode passes train=False and its dropout is a no-op here too. Training-mode dropout is refused
(TVM refuses any nonzero dropout)."""
from ... import expr as _expr
from ... import op as _op
from .registry import converter
from .shape_ops import unbind


_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _affine(x, weight, bias):
    out = _op.nn.dense(x, weight)
    return out if bias is None else _op.add(out, bias)


def _lstm_step(x_proj, h, c, layer):
    """One LSTM step: PyTorch's gates i, f, g, o in that order; the projection, if any, maps the
    new hidden state to proj_size."""
    gates = _op.add(x_proj, _affine(h, layer["w_hid"], layer.get("b_hid")))
    i, f, g, o = _split(gates, 4)
    c = _op.add(_op.multiply(_op.sigmoid(f), c), _op.multiply(_op.sigmoid(i), _op.tanh(g)))
    h = _op.multiply(_op.sigmoid(o), _op.tanh(c))
    if layer.get("proj") is not None:
        h = _op.nn.dense(h, layer["proj"])
    return h, c


def _gru_step(x_proj, h, layer):
    """One GRU step: PyTorch's gates r, z, n; n = tanh(x_n + r * (h W_hn + b_hn))."""
    x_r, x_z, x_n = _split(x_proj, 3)
    h_r, h_z, h_n = _split(_affine(h, layer["w_hid"], layer.get("b_hid")), 3)
    r = _op.sigmoid(_op.add(x_r, h_r))
    z = _op.sigmoid(_op.add(x_z, h_z))
    n = _op.tanh(_op.add(x_n, _op.multiply(r, h_n)))
    one = _expr.const(1.0, "float32")
    return _op.add(_op.multiply(_op.subtract(one, z), n), _op.multiply(z, h))


def _split(x, parts):
    pieces = _op.split(x, parts, axis=-1)
    return [pieces[k] for k in range(parts)]


def _run_direction(kind, steps, layer, backwards):
    """The outputs of one direction of one layer over the time steps (in time order), and its
    final states."""
    order = list(reversed(range(len(steps)))) if backwards else list(range(len(steps)))
    h, c = layer["h"], layer.get("c")
    outputs = [None] * len(steps)
    for t in order:
        x_proj = _affine(steps[t], layer["w_inp"], layer.get("b_inp"))
        if kind == "lstm":
            h, c = _lstm_step(x_proj, h, c, layer)
        elif kind == "gru":
            h = _gru_step(x_proj, h, layer)
        else:
            pre = _op.add(x_proj, _affine(h, layer["w_hid"], layer.get("b_hid")))
            h = _op.tanh(pre) if kind == "rnn_tanh" else _op.nn.relu(pre)
        outputs[t] = h
    return outputs, h, c


def _layers(kind, weights, has_biases, num_layers, bidirectional):
    """The weights of each (layer, direction) by name, in PyTorch's flat order: w_ih, w_hh,
    b_ih, b_hh (when has_biases), w_hr (LSTM projections)."""
    directions = 2 if bidirectional else 1
    count = len(weights)
    if count % (num_layers * directions):
        raise ValueError("aten::%s: %d weights do not divide into %d layers of %d directions"
                         % (kind, count, num_layers, directions))
    per = count // (num_layers * directions)
    names = ["w_inp", "w_hid"] + (["b_inp", "b_hid"] if has_biases else [])
    if per == len(names) + 1 and kind == "lstm":
        names.append("proj")
    elif per != len(names):
        raise ValueError("aten::%s: expected %d weights per layer and direction, got %d"
                         % (kind, len(names), per))
    return [[dict(zip(names, weights[(l * directions + d) * per:(l * directions + d + 1) * per]))
             for d in range(directions)] for l in range(num_layers)]


def _convert(ctx, kind, data, h0, c0, weights, has_biases, num_layers, dropout, train,
             bidirectional, batch_first):
    if dropout and train and num_layers > 1:
        raise NotImplementedError("aten::%s with dropout in training mode is not supported by "
                                  "relaypass's PyTorch frontend" % kind)
    x = _op.transpose(data, (1, 0, 2)) if batch_first else data
    shape = ctx.infer_shape(x)
    if len(shape) != 3 or not all(isinstance(d, int) for d in shape):
        raise NotImplementedError("aten::%s needs a 3-D input of static shape, got %s"
                                  % (kind, shape))
    batch, dtype = shape[1], ctx.infer_type(data).dtype
    layers = _layers(kind, weights, has_biases, num_layers, bidirectional)
    directions = len(layers[0])
    # W_hh is (gates * hidden_size, size of h): h is proj_size wide when an LSTM projects.
    gates_rows, hidden = ctx.infer_shape(layers[0][0]["w_hid"])
    cell = gates_rows // _GATES[kind]
    h_states = unbind(ctx, h0, 0) if h0 is not None else \
        [_op.zeros((batch, hidden), dtype)] * (num_layers * directions)
    c_states = unbind(ctx, c0, 0) if c0 is not None else \
        [_op.zeros((batch, cell), dtype)] * (num_layers * directions)
    steps = unbind(ctx, x, 0)
    final_h, final_c = [], []
    for l, directed in enumerate(layers):
        results = []
        for d, layer in enumerate(directed):
            layer = dict(layer, h=h_states[l * directions + d], c=c_states[l * directions + d])
            results.append(_run_direction(kind, steps, layer, backwards=d == 1))
            final_h.append(results[-1][1])
            final_c.append(results[-1][2])
        if directions == 1:
            steps = results[0][0]
        else:
            steps = [_op.concatenate([fw, bw], axis=-1)
                     for fw, bw in zip(results[0][0], results[1][0])]
    output = _op.stack(steps, 0)
    if batch_first:
        output = _op.transpose(output, (1, 0, 2))
    if kind == "lstm":
        return output, _op.stack(final_h, 0), _op.stack(final_c, 0)
    return output, _op.stack(final_h, 0)


@converter("aten::lstm", needs=("nn.dense", "split", "stack"))
def lstm(ctx, inputs, input_types):
    if len(inputs) != 9 or not isinstance(inputs[1], (list, tuple)):
        raise NotImplementedError("aten::lstm on packed sequences is not supported by "
                                  "relaypass's PyTorch frontend")
    h0, c0 = (list(inputs[1]) + [None, None])[:2]
    return _convert(ctx, "lstm", inputs[0], h0, c0, list(inputs[2]), *inputs[3:9])


def _single_state(kind):
    def convert(ctx, inputs, input_types):
        if len(inputs) != 9 or isinstance(inputs[1], (list, tuple)):
            raise NotImplementedError("aten::%s on packed sequences is not supported by "
                                      "relaypass's PyTorch frontend" % kind)
        return _convert(ctx, kind, inputs[0], inputs[1], None, list(inputs[2]), *inputs[3:9])

    return convert


for _kind in ("gru", "rnn_tanh", "rnn_relu"):
    converter("aten::" + _kind, needs=("nn.dense", "split", "stack"))(_single_state(_kind))
