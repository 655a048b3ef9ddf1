"""Every public function and method of the package has annotations that resolve
(`typing.get_type_hints`), as type checkers, IDEs and `help()` read them."""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest

import picollo

MODULES = ["picollo"] + [f"picollo.{m}" for m in (
    "histogram", "float_histogram", "float_snapshot", "metrics", "bench", "perf", "log",
    "approx")]


def exported(module):
    """The names `module` exports: its `__all__`, else its public names defined in it."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [name for name, obj in vars(module).items() if not name.startswith("_")
            and getattr(obj, "__module__", None) == module.__name__]


def members(cls):
    """The public functions and property getters of `cls`, inherited ones included."""
    for attr in dir(cls):
        if attr.startswith("_"):
            continue
        member = inspect.getattr_static(cls, attr)
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            member = member.fget
        if inspect.isfunction(member):
            yield attr, member


def public_callables():
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in exported(module):
            obj = getattr(module, name)
            yield f"{module_name}.{name}", obj
            if inspect.isclass(obj):
                for attr, member in members(obj):
                    yield f"{module_name}.{name}.{attr}", member


CALLABLES = [(name, obj) for name, obj in public_callables()
             if inspect.isfunction(obj) or inspect.isclass(obj)]


def test_the_walk_finds_the_api():
    names = {name for name, _ in CALLABLES}
    assert "picollo.metrics.to_otlp" in names
    assert "picollo.histogram.Histogram.percentile" in names
    assert len(names) > 100


@pytest.mark.parametrize("name,obj", CALLABLES, ids=[name for name, _ in CALLABLES])
def test_annotations_resolve(name, obj):
    typing.get_type_hints(obj)


def test_to_otlp_names_the_integer_histogram():
    from picollo import metrics
    assert typing.get_type_hints(metrics.to_otlp)["histogram"] is picollo.Histogram
