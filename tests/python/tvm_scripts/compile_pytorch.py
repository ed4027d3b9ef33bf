"""TVM's "Compile PyTorch Models" flow (gallery/how_to/compile_models/from_pytorch.py) as a user
runs it, without the network: torchvision's resnet18 with random weights (no pretrained weights
can be downloaded) and a NumPy image instead of the downloaded cat picture; trace, from_pytorch,
relay.build at opt_level 3, graph_executor, and the top-1 class compared with PyTorch's. Run
unchanged through `python3 -m relaypass.tvm_compat` by tests/python/test_tvm_user_scripts.py."""
import tvm
from tvm import relay

import numpy as np

# PyTorch imports
import torch
import torchvision

model_name = "resnet18"
model = getattr(torchvision.models, model_name)(weights=None)
model = model.eval()

# We grab the TorchScripted model via tracing
input_shape = [1, 3, 224, 224]
input_data = torch.randn(input_shape)
scripted_model = torch.jit.trace(model, input_data).eval()

img = np.random.RandomState(0).uniform(0, 1, (1, 3, 224, 224)).astype("float32")

input_name = "input0"
shape_list = [(input_name, img.shape)]
mod, params = relay.frontend.from_pytorch(scripted_model, shape_list)

target = tvm.target.Target("llvm", host="llvm")
dev = tvm.cpu(0)
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target=target, params=params)

from tvm.contrib import graph_executor

dtype = "float32"
m = graph_executor.GraphModule(lib["default"](dev))
# Set inputs
m.set_input(input_name, tvm.nd.array(img.astype(dtype)))
# Execute
m.run()
# Get outputs
tvm_output = m.get_output(0)

top1_tvm = np.argmax(tvm_output.numpy()[0])
with torch.no_grad():
    torch_img = torch.from_numpy(img)
    output = model(torch_img)
    top1_torch = np.argmax(output.numpy())
np.testing.assert_allclose(tvm_output.numpy(), output.numpy(), rtol=1e-4, atol=1e-4)
print("Relay top-1 id: {}, torch top-1 id: {}".format(top1_tvm, top1_torch))
assert top1_tvm == top1_torch
print("COMPILE_PYTORCH_OK")
