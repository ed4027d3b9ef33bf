"""relay.testing.mobilenet: MobileNet v1 as TVM builds it, parameters bit-exact with TVM's."""
from ... import _core


def get_workload(batch_size=1, num_classes=1000, image_shape=(3, 224, 224), dtype="float32",
                 layout="NCHW"):
    """(mod, params): the typed module and its parameters as NDArrays."""
    return _core.mobilenet_workload(batch_size, num_classes, image_shape, layout, dtype)
