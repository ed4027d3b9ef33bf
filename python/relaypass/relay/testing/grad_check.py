"""relay.testing.check_grad: compares relay.transform.gradient's gradients with two-sided
finite differences of the function (TVM's relay.testing.check_grad, same parameters)."""
import numpy as np


def _np_randn_from_type(ty, scale=1, mean=0):
    shape = [int(d) for d in ty.shape]
    return np.asarray(mean + scale * np.random.randn(*shape)).astype(ty.dtype)  # 0-d too


def check_grad(func, inputs=None, test_inputs=None, eps=1e-6, atol=1e-5, rtol=1e-3, scale=None,
               mean=0, mode="higher_order", target_devices=None, executor_kind="debug"):
    """Check ``func``'s analytic gradients against numerical ones.

    ``inputs`` (NumPy arrays, random normal with standard deviation ``scale``, default 10 *
    ``eps``, around ``mean`` when omitted) are the arguments; ``test_inputs`` the ones (by
    identity) whose gradients are checked (default: all). Each element of each tested input is
    moved by +-eps and the approximation sum((f(x+eps) - f(x-eps)) / (2 eps)) compared with the
    gradient within ``atol``/``rtol``. ``target_devices`` limits the (target, device) pairs."""
    from .. import create_executor
    from ..transform import gradient
    from . import enabled_targets, run_infer_type

    fwd_func = run_infer_type(func)
    bwd_func = run_infer_type(gradient(fwd_func, mode=mode))
    if scale is None:
        scale = 10 * eps
    if inputs is None:
        inputs = [_np_randn_from_type(p.checked_type, scale, mean) for p in fwd_func.params]
    if test_inputs is None:
        test_inputs = inputs
    for target, dev in enabled_targets():
        if target_devices and (target, dev) not in target_devices:
            continue
        bwd = create_executor(executor_kind, device=dev, target=target).evaluate(bwd_func)
        fwd = create_executor(executor_kind, device=dev, target=target).evaluate(fwd_func)
        _, grads = bwd(*inputs)
        grads = [g.numpy().astype("float64") for g in grads]
        if test_inputs is not inputs:
            picked = []
            for test_input in test_inputs:
                for i, g in enumerate(grads):
                    if inputs[i] is test_input:
                        picked.append(g)
                        break
            grads = picked
        assert len(grads) > 0, "You must test at least one gradient."
        approx_grads = []
        for x in test_inputs:
            approx = np.zeros(x.shape)
            for i in np.ndindex(*x.shape):
                x_i = x[i]
                x[i] = x_i + eps
                plus = fwd(*inputs).numpy().astype("float64")
                x[i] = x_i - eps
                minus = fwd(*inputs).numpy().astype("float64")
                x[i] = x_i
                approx[i] = np.sum((plus - minus) / (2 * eps))
            approx_grads.append(approx)
        for g, approx in zip(grads, approx_grads):
            np.testing.assert_allclose(g, approx, atol=atol, rtol=rtol)
