"""A script written for TVM as its quick-start tutorial does it, for "llvm" on the CPU: resnet-18
from relay.testing, relay.build at opt_level 3, the graph executor, export_library to a temp
dir, load_module in the same process, run again and compare. Run unchanged through
`python3 -m relaypass.tvm_compat` by tests/python/test_tvm_user_scripts.py."""
import numpy as np

from tvm import relay
from tvm.relay import testing
import tvm
from tvm import te
from tvm.contrib import graph_executor
import tvm.testing

batch_size = 1
num_class = 1000
image_shape = (3, 224, 224)
data_shape = (batch_size,) + image_shape
out_shape = (batch_size, num_class)

mod, params = relay.testing.resnet.get_workload(
    num_layers=18, batch_size=batch_size, image_shape=image_shape
)
text = mod.astext(show_meta_data=False)
assert "nn.conv2d" in text

opt_level = 3
target = tvm.target.Target("llvm")
with tvm.transform.PassContext(opt_level=opt_level):
    lib = relay.build(mod, target, params=params)

dev = tvm.cpu()
data = np.random.uniform(-1, 1, size=data_shape).astype("float32")
module = graph_executor.GraphModule(lib["default"](dev))
module.set_input("data", data)
module.run()
out = module.get_output(0, tvm.nd.empty(out_shape)).numpy()
print(out.flatten()[0:10])

from tvm.contrib import utils

temp = utils.tempdir()
path_lib = temp.relpath("deploy_lib.tar")
lib.export_library(path_lib)
print(temp.listdir())

loaded_lib = tvm.runtime.load_module(path_lib)
input_data = tvm.nd.array(data)

module = graph_executor.GraphModule(loaded_lib["default"](dev))
module.run(data=input_data)
out_deploy = module.get_output(0).numpy()
print(out_deploy.flatten()[0:10])

tvm.testing.assert_allclose(out_deploy, out, atol=1e-5)
print("QUICK_START_OK", out.shape)
