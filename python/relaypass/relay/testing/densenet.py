"""relay.testing.densenet: TVM's port of MXNet's DenseNet (121, 161, 169, 201): a 7x7/2 conv,
batch_norm, relu, 3x3/2 max pool, dense blocks (each layer: batch_norm, relu, 1x1 conv,
batch_norm, relu, 3x3 conv; a block concatenates its layers' outputs) with transitions
(batch_norm, relu, 1x1 conv, 2x2 average pool) between them, batch_norm, relu, 7x7 average
pool, batch_flatten and a dense layer with bias ("dense")."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from ..ty import TensorType
from . import layers
from .init import create_workload

# densenet_size: (num_init_features, growth_rate, block_config), TVM's table (169's 69 too)
_SPECS = {
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (69, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
}


def _make_dense_layer(data, growth_rate, bn_size, index):
    """One dense layer (``batch_1_<index>``, ``conv2d_1_<index>``, ``batch_2_<index>``,
    ``conv2d_2_<index>``)."""
    net = _op.nn.relu(layers.batch_norm_infer(data, name="batch_1_%s" % index))
    net = layers.conv2d(net, channels=bn_size * growth_rate, kernel_size=(1, 1),
                        name="conv2d_1_%s" % index)
    net = _op.nn.relu(layers.batch_norm_infer(net, name="batch_2_" + index))
    return layers.conv2d(net, channels=growth_rate, kernel_size=(3, 3), padding=(1, 1),
                         name="conv2d_2_%s" % index)


def _make_dense_block(data, num_layers, bn_size, growth_rate, index):
    """``num_layers`` dense layers in a chain, their outputs concatenated on the channels."""
    layer_out = data
    blocks = []
    for i in range(num_layers):
        layer_out = _make_dense_layer(layer_out, growth_rate, bn_size, "%s_%s" % (index, i))
        blocks.append(layer_out)
    return _op.concatenate(blocks, 1)


def _make_transition(data, num_output_features, index):
    """batch_norm (``batch_t_<index>``), relu, 1x1 conv (``conv_t_<index>``), 2x2/2 avg pool."""
    net = _op.nn.relu(layers.batch_norm_infer(data, name="batch_t_%s" % index))
    net = layers.conv2d(net, channels=num_output_features, kernel_size=(1, 1),
                        name="conv_t_%s" % index)
    return _op.nn.avg_pool2d(net, pool_size=(2, 2), strides=(2, 2))


def _make_dense_net(num_init_features, growth_rate, block_config, data_shape, data_dtype,
                    bn_size=4, classes=1000):
    """The network as a relay.Function of ``data`` (data_shape, data_dtype)."""
    data = var("data", TensorType(data_shape, data_dtype))
    net = layers.conv2d(data, channels=num_init_features, kernel_size=(7, 7), strides=(2, 2),
                        padding=(3, 3), name="conv1")
    net = _op.nn.relu(layers.batch_norm_infer(net, name="batch1"))
    net = _op.nn.max_pool2d(net, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    num_features = num_init_features
    for i, num_layers in enumerate(block_config):
        net = _make_dense_block(net, num_layers, bn_size, growth_rate, i)
        num_features = num_features + num_layers * growth_rate
        if i != len(block_config) - 1:
            net = _make_transition(net, num_features // 2, i)
            num_features = num_features // 2
    net = _op.nn.relu(layers.batch_norm_infer(net, name="batch2"))
    net = _op.nn.batch_flatten(_op.nn.avg_pool2d(net, pool_size=(7, 7)))
    net = layers.dense_add_bias(net, units=classes, name="dense")
    return Function(analysis.free_vars(net), net)


def get_workload(densenet_size=121, classes=1000, batch_size=4, image_shape=(3, 224, 224),
                 dtype="float32"):
    """(mod, params): DenseNet-``densenet_size`` through create_workload (Xavier, seed 0)."""
    num_init_features, growth_rate, block_config = _SPECS[densenet_size]
    data_shape = tuple([batch_size] + list(image_shape))
    net = _make_dense_net(num_init_features, growth_rate, block_config, data_shape, dtype, 4,
                          classes)
    return create_workload(net)
