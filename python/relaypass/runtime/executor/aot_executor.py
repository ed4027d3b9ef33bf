"""tvm.runtime.executor.AotModule: TVM v0.13's wrapper of the module an AOT build makes.

relaypass has no ahead-of-time code generator: relay.build(..., executor=Executor("aot")) makes
the same optimized module as for the graph executor, and the module ``lib["default"](dev)``
returns runs it on the evaluator behind AotModule's methods."""


class AotModule:
    """Wraps the module of an AOT build (TVM's tvm.runtime.executor.AotModule)."""

    def __init__(self, module):
        if getattr(module, "type_key", None) not in ("AotExecutor", "GraphExecutor"):
            raise TypeError("AotModule wraps the module lib[\"default\"](dev) makes, got {}".format(
                type(module).__name__))
        self.module = module
        self._set_input = module["set_input"]
        self._run = module["run"]
        self._get_output = module["get_output"]
        self._get_input = module["get_input"]
        self._get_num_outputs = module["get_num_outputs"]
        self._get_input_index = module["get_input_index"]
        self._get_num_inputs = module["get_num_inputs"]
        self._get_input_name = module["get_input_name"]

    def set_input(self, key=None, value=None, **params):
        if key is not None:
            self._set_input(key, value)
        for k, v in params.items():
            if self._get_input_index(k) >= 0:
                self._set_input(k, v)

    def run(self, **input_dict):
        if input_dict:
            self.set_input(**input_dict)
        self._run()

    def get_num_outputs(self):
        return self._get_num_outputs()

    def get_num_inputs(self):
        return self._get_num_inputs()

    def get_input(self, index, out=None):
        value = self._get_input(index)
        if out:
            out.copyfrom(value)
            return out
        return value

    def get_input_index(self, name):
        return self._get_input_index(name)

    def get_input_name(self, index):
        return self._get_input_name(index)

    def get_output(self, index, out=None):
        return self._get_output(index, out)
