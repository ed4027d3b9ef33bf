"""relay.testing.lstm: TVM's LSTM cell as a closed relay.Function of let bindings, and an RNN
that unrolls it ``iterations`` times (each step its own ``data`` input and weights
``i2h_<i>_weight``, ``i2h_<i>_bias``, ``h2h_<i>_weight``, ``h2h_<i>_bias``)."""
from .. import analysis
from .. import op as _op
from ..expr import Call, Function, Tuple, TupleGetItem, Var
from ..scope_builder import ScopeBuilder
from ..ty import TensorType, TupleType
from . import layers
from .init import create_workload


def _types(num_hidden, batch_size, dtype):
    """(input/state type, weight type, bias type) of a cell."""
    return (TensorType((batch_size, num_hidden), dtype),
            TensorType((4 * num_hidden, num_hidden), dtype),
            TensorType((4 * num_hidden,), dtype))


def lstm_cell(num_hidden, batch_size=1, dtype="float32", name=""):
    """fn (inputs, states: (h, c), i2h_weight, i2h_bias, h2h_weight, h2h_bias) ->
    (next_h, (next_h, next_c)): gates = dense(inputs) + dense(h), split in four (input, forget,
    transform, output gates), next_c = forget * c + input * tanh(transform), next_h = output *
    tanh(next_c). Every step is a typed let binding, as in TVM."""
    builder = ScopeBuilder()
    input_type, weight_type, bias_type = _types(num_hidden, batch_size, dtype)
    dense_type = TensorType((batch_size, 4 * num_hidden), dtype)
    slice_type = TupleType([input_type, input_type, input_type, input_type])
    ret_type = TupleType([input_type, TupleType([input_type, input_type])])

    inputs = Var("inputs", input_type)
    states = Var("states", TupleType([input_type, input_type]))
    i2h_weight = Var("i2h_weight", weight_type)
    i2h_bias = Var("i2h_bias", bias_type)
    h2h_weight = Var("h2h_weight", weight_type)
    h2h_bias = Var("h2h_bias", bias_type)

    i2h = builder.let(("i2h", dense_type), layers.dense_add_bias(
        data=inputs, units=num_hidden * 4, weight=i2h_weight, bias=i2h_bias,
        name="%si2h" % name))
    h2h = builder.let(("h2h", dense_type), layers.dense_add_bias(
        data=TupleGetItem(states, 0), units=num_hidden * 4, weight=h2h_weight, bias=h2h_bias,
        name="%sh2h" % name))
    gates = builder.let(("gates", dense_type), _op.add(i2h, h2h))
    slice_gates = builder.let(("slice_gates", slice_type),
                              _op.split(gates, indices_or_sections=4, axis=1).astuple())

    def gate(gate_name, activation, index):
        return builder.let((gate_name, input_type), activation(TupleGetItem(slice_gates, index)))

    in_gate = gate("in_gate", _op.sigmoid, 0)
    forget_gate = gate("forget_gate", _op.sigmoid, 1)
    in_transform = gate("in_transform", _op.tanh, 2)
    out_gate = gate("out_gate", _op.sigmoid, 3)
    next_c = builder.let(("next_c", input_type), _op.add(
        _op.multiply(forget_gate, TupleGetItem(states, 1)), _op.multiply(in_gate, in_transform)))
    next_h = builder.let(("next_h", input_type), _op.multiply(out_gate, _op.tanh(next_c)))
    ret = builder.let(("ret", ret_type), Tuple([next_h, Tuple([next_h, next_c])]))
    builder.ret(ret)
    return Function([inputs, states, i2h_weight, i2h_bias, h2h_weight, h2h_bias], builder.get(),
                    ret_type)


def get_net(iterations, num_hidden, batch_size=1, dtype="float32"):
    """The unrolled RNN: zero initial states, then ``iterations`` calls of a fresh lstm_cell,
    each on its own ``data`` input and the previous call's states; returns the last output."""
    input_type, weight_type, bias_type = _types(num_hidden, batch_size, dtype)
    state_type = TupleType([input_type, input_type])
    cell_type = TupleType([input_type, state_type])
    builder = ScopeBuilder()
    zeros = builder.let(("zeros", input_type), _op.zeros((batch_size, num_hidden), dtype))
    states = builder.let(("init_states", state_type), Tuple([zeros, zeros]))
    out = None
    for i in range(iterations):
        args = [Var("data", input_type), states,
                Var("i2h_%d_weight" % i, weight_type), Var("i2h_%d_bias" % i, bias_type),
                Var("h2h_%d_weight" % i, weight_type), Var("h2h_%d_bias" % i, bias_type)]
        cell_fn = lstm_cell(num_hidden, batch_size, dtype, "lstm_%d" % i)
        call = builder.let(("call_%d" % i, cell_type), Call(cell_fn, args))
        out = builder.let(("out_%d" % i, input_type), TupleGetItem(call, 0))
        states = builder.let(("states_%d" % i, state_type), TupleGetItem(call, 1))
    builder.ret(out)
    body = builder.get()
    return Function(analysis.free_vars(body), body, input_type)


def get_workload(iterations, num_hidden, batch_size=1, dtype="float32"):
    """(mod, params): the unrolled RNN through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(iterations, num_hidden, batch_size, dtype))
