# A script written for TVM (README.md: `python3 -m relaypass.tvm_compat my_tvm_script.py`): it
# imports tvm, and relaypass.tvm_compat makes that import relaypass.
import tvm
from tvm import relay

x = relay.var("x", shape=(1, 16))
y = relay.nn.relu(relay.add(x, relay.multiply(relay.const(2.0), relay.const(3.0))))
mod = tvm.IRModule.from_expr(relay.Function([x], y))
with tvm.transform.PassContext(opt_level=3):
    mod = tvm.transform.Sequential([relay.transform.FoldConstant(), relay.transform.FuseOps()])(mod)
print(mod)
