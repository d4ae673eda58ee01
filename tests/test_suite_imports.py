"""The tests read as a library: no test module imports another test module or a conftest.

What two modules share lives in `tests/support/`; a helper found only in a test module is a
helper another module cannot use without bringing every test of it along (and pytest would
collect them twice under another name). Read from the source, without importing anything.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: a module no other module may import: a test module or a conftest, at any depth.
FORBIDDEN = re.compile(r"(^|\.)(test_[^.]*|conftest)(\.|$)")


def _package_of(path: Path) -> str:
    """The dotted package a file under ROOT belongs to ("tests.support" for tests/support/x.py)."""
    return ".".join(path.relative_to(ROOT).parent.parts)


def imported(source: str, package: str) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for each module `source` imports, relative imports resolved
    against `package`, `from a import b` read as both `a` and `a.b`, and the literal names
    passed to `importlib.import_module` or `__import__`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*parts, base] if base else parts)
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if base else alias.name
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else called.id if isinstance(called, ast.Name) else ""
            if name in ("import_module", "__import__"):
                yield node.lineno, node.args[0].value


def forbidden_imports(source: str, package: str) -> list[str]:
    """Each import of a test module or a conftest in `source`, as "line N: module"."""
    return [f"line {line}: {module}" for line, module in imported(source, package) if FORBIDDEN.search(module)]


def python_files() -> list[Path]:
    """Every Python file of the tests, the root conftest and the benchmarks (which use
    `tests.support` too)."""
    return sorted([*(ROOT / "tests").rglob("*.py"), ROOT / "conftest.py", *(ROOT / "benchmarks").rglob("*.py")])


def test_no_module_imports_a_test_module_or_a_conftest() -> None:
    files = python_files()
    assert len([f for f in files if f.name.startswith("test_")]) > 50  # the scan sees the suite
    found = {
        str(path.relative_to(ROOT)): bad
        for path in files
        if (bad := forbidden_imports(path.read_text(encoding="utf-8"), _package_of(path)))
    }
    assert not found, f"import from tests/support/ instead: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from tests.test_widgets_new_rule import one",
        "import tests.test_store",
        "from tests import test_store",
        "from tests.conftest import INDEX",
        "from tests import conftest",
        "import conftest",
        "from .test_classes import _student",
        "from . import test_classes",
        "from .conftest import INDEX",
        "from ..conftest import NOTEBOOK_CHECKS",
        "def f():\n    from tests.test_words import walk",
        "importlib.import_module('tests.test_lab')",
    ],
)
def test_the_scan_finds_every_way_of_importing_a_test_module(source: str) -> None:
    assert forbidden_imports(source, "tests.support"), source


@pytest.mark.parametrize(
    "source",
    [
        "from tests.support.headless import one",
        "from tests.support import stores",
        "from .headless import one",
        "import pytest",
        "from rules import testing_tools",
        "from playbook import contest",
    ],
)
def test_the_scan_lets_the_library_through(source: str) -> None:
    assert forbidden_imports(source, "tests.support") == [], source
