"""tvm.relay.random: TVM's splittable Threefry random numbers (threefry_key, threefry_generate,
threefry_split, uniform, normal) over the library's random.* operators."""
from .kernel import *  # noqa: F401,F403
