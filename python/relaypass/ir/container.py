"""tvm.ir.container: TVM's Array and Map. relaypass's API takes and returns Python lists and
dicts for them (tvm.runtime.convert makes them), so these are the list and dict types and
``isinstance(x, tvm.ir.container.Map)`` holds for a loaded or converted map."""
Array = list
Map = dict
