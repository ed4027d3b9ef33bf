"""tvm._ffi.base: the error class TVM's tests catch (``except tvm._ffi.base.TVMError``)."""
from .._errors import TVMError  # noqa: F401
