"""TVM's "Compile ONNX Models" flow as a user runs it with the model already in TVM's test-data
cache: download_testdata finds the cached file (no network), from_onnx with a shape dict,
create_executor("graph") at opt_level 1 through relay.build_module, run on an image-shaped
input. The image comes from NumPy here (TVM's tutorial reads cat.png with PIL, which Debian's
python3 here does not have). Run unchanged through `python3 -m relaypass.tvm_compat` by
tests/python/test_tvm_user_scripts.py, which puts a super-resolution-shaped model in the cache
and checks the printed output against NumPy."""
import os

from tvm import testing

testing.utils.install_request_hook(depth=3)
import onnx
import numpy as np
import tvm
from tvm import te
import tvm.relay as relay
from tvm.contrib.download import download_testdata

model_url = "".join(
    [
        "https://gist.github.com/zhreshold/",
        "bcda4716699ac97ea44f791c24310193/raw/",
        "93672b029103648953c4e5ad3ac3aadf346a4cdc/",
        "super_resolution_0.2.onnx",
    ]
)
model_path = download_testdata(model_url, "super_resolution.onnx", module="onnx")
onnx_model = onnx.load(model_path)

x = np.load(download_testdata("https://example.invalid/image_y.npy", "image_y.npy", module="data"))

target = "llvm"
input_name = "1"
shape_dict = {input_name: x.shape}
mod, params = relay.frontend.from_onnx(onnx_model, shape_dict)

with tvm.transform.PassContext(opt_level=1):
    executor = relay.build_module.create_executor(
        "graph", mod, tvm.cpu(0), target, params
    ).evaluate()

dtype = "float32"
tvm_output = executor(tvm.nd.array(x.astype(dtype))).numpy()
np.save(os.environ["COMPILE_ONNX_OUTPUT"], tvm_output)
print("COMPILE_ONNX_OK", tvm_output.shape)
