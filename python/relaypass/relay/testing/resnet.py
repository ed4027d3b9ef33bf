"""relay.testing.resnet: ResNet v2 as TVM builds it, parameters bit-exact with TVM's."""
from ... import _core


def get_workload(batch_size=1, num_classes=1000, num_layers=18, image_shape=(3, 224, 224),
                 layout="NCHW", dtype="float32", **kwargs):
    """(mod, params): the typed module and its parameters as NDArrays."""
    return _core.resnet_workload(batch_size, num_classes, num_layers, image_shape, layout, dtype)
