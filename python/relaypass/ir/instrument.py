"""tvm.ir.instrument: the same module as relaypass.instrument."""
from ..instrument import *  # noqa: F401,F403
from ..instrument import PassInstrument, pass_instrument, PassTimingInstrument  # noqa: F401
from ..instrument import PassPrintingInstrument  # noqa: F401
