"""The pytest plugin of tvm.testing (TVM v0.13's python/tvm/testing/plugin.py, by behaviour).

Enable it with ``pytest_plugins = ["tvm.testing.plugin"]`` in a conftest.py, as TVM's root
conftest.py (and ../shared/tvm_tests/conftest.py) do. It

- registers the markers of every tvm.testing Feature (``pytest -m gpu``, ...) and prints the
  enabled targets;
- parametrizes every test that uses the ``target`` fixture (directly or through ``dev``) over
  the test targets (TVM_TEST_TARGETS, else tvm.testing.DEFAULT_TEST_TARGETS), minus the
  kinds given to ``exclude_targets``, unless the test parametrizes ``target`` itself
  (``parametrize_targets``, ``pytest.mark.parametrize``);
- gives each target value the marks of its requirement (``requires_cuda``, ``requires_llvm``,
  ...), so a target that cannot run here is collected and skipped with TVM's reason, and an
  xfail mark for the kinds given to ``known_failing_targets``;
- parametrizes the fixtures made by ``tvm.testing.parameters`` together;
- counts the tests using each cached ``tvm.testing.fixture``, removes fixture functions from
  the test modules' globals (using one without requesting it is then a NameError) and orders
  tests by file and line;
- provides the ``dev`` fixture: ``tvm.device(target)``.
"""
import pytest
import _pytest.fixtures
import _pytest.mark.structures

from . import utils


def pytest_configure(config):
    """Registers the markers; prints the enabled targets and the -m expression."""
    for feature in utils.Feature._all_features.values():  # pylint: disable=protected-access
        feature._register_marker(config)  # pylint: disable=protected-access
    print("enabled targets:", "; ".join(target for target, _ in utils.enabled_targets()))
    print("pytest marker:", config.option.markexpr)


def pytest_addoption(parser):
    """--gtest_args, which TVM's C++-test wrappers take (as a ``gtest_args`` fixture)."""
    parser.addoption("--gtest_args", action="store", default="")


def pytest_generate_tests(metafunc):
    """Parametrizes one test function (see the module docstring)."""
    _parametrize_correlated_parameters(metafunc)
    _auto_parametrize_target(metafunc)
    _add_target_specific_marks(metafunc)

    gtest_args = metafunc.config.option.gtest_args
    if "gtest_args" in metafunc.fixturenames and gtest_args is not None:
        metafunc.parametrize("gtest_args", [gtest_args])


def pytest_collection_modifyitems(config, items):  # pylint: disable=unused-argument
    """Bookkeeping once the tests are chosen."""
    _count_num_fixture_uses(items)
    _remove_global_fixture_definitions(items)
    _sort_tests(items)


@pytest.fixture
def dev(target):
    """The device of the test's target."""
    return utils._device(target)  # pylint: disable=protected-access


def pytest_sessionfinish(session, exitstatus):
    """With -m, selecting no test is not an error."""
    if session.config.option.markexpr != "":
        if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK


def _parametrize_arg_names(mark):
    names = mark.args[0] if mark.args else mark.kwargs.get("argnames", "")
    if isinstance(names, str):
        names = names.split(",")
    return [name.strip() for name in names if name.strip()]


def _auto_parametrize_target(metafunc):
    """A test using ``target`` that does not parametrize it gets
    ``pytest.mark.parametrize("target", <test targets>, scope="session")``. It is added as a
    mark (not metafunc.parametrize) so that _add_target_specific_marks sees it with the
    others, and pytest applies it after the test's own parametrize marks."""
    if "target" not in metafunc.fixturenames:
        return
    named = [
        name
        for mark in metafunc.definition.iter_markers("parametrize")
        for name in _parametrize_arg_names(mark)
    ]
    if "target" in named:
        return
    excluded = getattr(metafunc.function, "tvm_excluded_targets", [])
    targets = [
        t["target"]
        for t in utils._get_targets()  # pylint: disable=protected-access
        if t["target_kind"] not in excluded
    ]
    metafunc.definition.add_marker(pytest.mark.parametrize("target", targets, scope="session"))


def _add_target_specific_marks(metafunc):
    """Every parametrization of ``target`` (ours or the test's) gets, per value, the marks of
    the target's requirement, and xfail for a kind the test lists as known failing (for our
    own parametrization and parametrize_targets, the marks on the function itself)."""
    if "target" not in metafunc.fixturenames:
        return
    own_marks = metafunc.definition.own_markers
    xfail_kinds = getattr(metafunc.function, "tvm_known_failing_targets", [])

    for mark in metafunc.definition.iter_markers("parametrize"):
        names = _parametrize_arg_names(mark)
        if "target" not in names:
            continue
        position = names.index("target")
        argvalues = mark.args[1] if len(mark.args) > 1 else mark.kwargs.get("argvalues")

        rewritten = []
        for value in argvalues:
            if isinstance(value, _pytest.mark.structures.ParameterSet):
                values, extra = value.values, list(value.marks)
            elif len(names) == 1:
                values, extra = (value,), []
            else:
                values, extra = value, []
            target = values[position]
            if mark in own_marks:
                kind = utils._target_kind(target)  # pylint: disable=protected-access
                if kind in xfail_kinds:
                    reason = f'Known failing test for target "{kind}"'
                    extra.append(pytest.mark.xfail(reason=reason))
            rewritten.append(pytest.param(*values, marks=_target_to_requirement(target) + extra))

        try:
            argvalues[:] = rewritten
        except TypeError as err:
            func = metafunc.definition.function
            raise TypeError(
                f"Unit test {metafunc.function.__name__} "
                f"({func.__code__.co_filename}:{func.__code__.co_firstlineno}) "
                "is parametrized using a tuple of parameters instead of a list "
                "of parameters."
            ) from err


def _target_to_requirement(target):
    """The marks of the Feature a target needs ([] for a kind with none, such as "c")."""
    kind = utils._target_kind(target)  # pylint: disable=protected-access
    libs = utils._target_libs(target)  # pylint: disable=protected-access
    if kind == "cuda" and "cudnn" in libs:
        return utils.requires_cudnn.marks()
    if kind == "cuda" and "cublas" in libs:
        return utils.requires_cublas.marks()
    feature = {
        "cuda": utils.requires_cuda,
        "rocm": utils.requires_rocm,
        "vulkan": utils.requires_vulkan,
        "nvptx": utils.requires_nvptx,
        "metal": utils.requires_metal,
        "opencl": utils.requires_opencl,
        "llvm": utils.requires_llvm,
        "hexagon": utils.requires_hexagon,
    }.get(kind)
    return feature.marks() if feature is not None else []


def _fixture_func_attr(func, name):
    """An attribute set on a fixture's function (looked for through pytest's wrapper)."""
    while func is not None:
        if hasattr(func, name):
            return getattr(func, name)
        func = getattr(func, "__wrapped__", None)
    return None


def _parametrize_correlated_parameters(metafunc):
    """The fixtures of one tvm.testing.parameters call, parametrized as one group."""
    groups = {}
    for name, fixturedefs in metafunc.definition._fixtureinfo.name2fixturedefs.items():
        func = fixturedefs[-1].func
        group = _fixture_func_attr(func, "parametrize_group")
        values = _fixture_func_attr(func, "parametrize_values")
        if group is None or values is None:
            continue
        ids = _fixture_func_attr(func, "parametrize_ids")
        entry = groups.setdefault(group, {"ids": ids, "params": []})
        assert ids == entry["ids"]
        entry["params"].append((name, values))

    for entry in groups.values():
        params, ids = entry["params"], entry["ids"]
        if ids is not None:
            ids = list(ids)
        if len(params) == 1:
            name, values = params[0]
            metafunc.parametrize(name, list(values), indirect=True, ids=ids)
        else:
            names = ",".join(name for name, _ in params)
            rows = list(zip(*[values for _, values in params]))
            metafunc.parametrize(names, rows, indirect=True, ids=ids)


def _count_num_fixture_uses(items):
    """Tells each cached fixture how many (not skipped) tests use it."""
    for item in items:
        skipped = item.get_closest_marker("skip") or any(
            mark.args[0] for mark in item.iter_markers("skipif") if mark.args
        )
        if skipped:
            continue
        fixtureinfo = getattr(item, "_fixtureinfo", None)
        if fixtureinfo is None:
            continue
        for fixturedefs in fixtureinfo.name2fixturedefs.values():
            counter = _fixture_func_attr(fixturedefs[-1].func, "num_tests_use_this_fixture")
            if counter is not None:
                counter[0] += 1


def _remove_global_fixture_definitions(items):
    """Deletes the fixture functions from the test modules' globals."""
    modules = {getattr(item, "module", None) for item in items} - {None}
    for module in modules:
        for name in dir(module):
            marker = _pytest.fixtures.getfixturemarker(getattr(module, name, None))
            if isinstance(marker, _pytest.fixtures.FixtureFunctionMarker):
                delattr(module, name)


def _sort_tests(items):
    """Orders the tests by file, line and function, so that a cached fixture's tests run
    together and its cache is dropped early."""

    def key(item):
        filename, lineno, name = item.location
        return filename, lineno if lineno is not None else -1, name.split("[")[0]

    items.sort(key=key)
