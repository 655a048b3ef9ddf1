"""Every public function and method of the package has annotations that resolve
(`typing.get_type_hints`), as type checkers, IDEs and `help()` read them; and no annotation
in the package's source writes `X | Y`, which Python 3.9 cannot evaluate (the wheel supports
CPython 3.9 and later, and on 3.10 and later `get_type_hints` would not notice)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import typing
from pathlib import Path

import pytest

import picollo

# picollo.otel is walked where the OpenTelemetry SDK it extends is installed (not on Python
# 3.9: scripts/bullseye.sh leaves the SDK and test_otel_aggregation.py out, and says so).
def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


OPTIONAL = ["otel"] if _installed("opentelemetry.sdk") else []
MODULES = ["picollo"] + [f"picollo.{m}" for m in (
    "histogram", "float_histogram", "float_snapshot", "metrics", "bench", "perf", "log",
    "approx", "suite", "pytest_plugin", "prometheus", *OPTIONAL)]
SOURCES = sorted(Path(picollo.__file__).parent.glob("*.py"))


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


def annotations(tree):
    """Every annotation in `tree`: of parameters, returns, variables and fields."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            params = a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
            yield from (p.annotation for p in params if p is not None and p.annotation)
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def has_union_operator(annotation):
    """Whether `annotation` uses `|`, in a string annotation too."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                if has_union_operator(ast.parse(node.value, mode="eval")):
                    return True
            except SyntaxError:
                pass
    return False


def union_annotations(source):
    """`line: annotation` for each annotation in `source` that uses `|`."""
    return [f"{a.lineno}: {ast.unparse(a)}" for a in annotations(ast.parse(source))
            if has_union_operator(a)]


def test_the_union_check_finds_unions():
    source = ("def f(a: int | None, *b: 'str | bytes') -> tuple[int | None, int]:\n"
              "    c: 'list[int] | None' = None\n"
              "def g(a: Optional[int], b: \"Union[str, bytes]\") -> dict[str, int]: ...\n")
    assert union_annotations(source) == [
        "1: int | None", "1: 'str | bytes'", "1: tuple[int | None, int]",
        "2: 'list[int] | None'"]


def test_the_sources_are_found():
    assert {"histogram.py", "bench.py", "_export.py"} <= {p.name for p in SOURCES}


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_no_annotation_uses_the_union_operator(path):
    assert union_annotations(path.read_text(encoding="utf-8")) == []
