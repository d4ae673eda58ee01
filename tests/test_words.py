"""The words a user reads: no "(s)" plurals, and the room's own words for the terms it meets.

The scan reads every string literal (f-strings included, docstrings left out) in the layers a
user sees through (rules' log lines and refusals, widgets, printables, the command line, the
lab's findings), the notebooks and the Voila template.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from rules.core import plural

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("rules", "widgets", "printables", "playbook", "lab")
#: "unit(s)", "level(es)", "click(s)": a plural left to the reader.
MAYBE_PLURAL = re.compile(r"\w\((s|es)\)")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def test_plural_says_one_unit_and_two_units() -> None:
    assert plural(1, "unit") == "1 unit"
    assert plural(2, "unit") == "2 units"
    assert plural(0, "level") == "0 levels"
    assert plural(3, "die", "dice") == "3 dice"


def test_the_scan_finds_a_plural_left_to_the_reader(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""A docstring may say stone(s)."""\nx = 3\nline = f"{x} unit(s) left"\n')
    assert [(n, MAYBE_PLURAL.search(t) is not None) for n, t in _literals(sample) if MAYBE_PLURAL.search(t)] == [(3, True)]


@pytest.mark.parametrize("layer", LAYERS)
def test_no_maybe_plural_in_the_code_a_user_reads(layer: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text.strip()[:80]!r}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, text in _literals(path)
        if MAYBE_PLURAL.search(text)
    ]
    assert found == []


def test_no_maybe_plural_in_the_notebooks_or_the_template() -> None:
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            source = "".join(cell["source"])
            found += [f"{path.name} cell {i}: {m.group(0)}" for m in MAYBE_PLURAL.finditer(source)]
    for path in sorted((ROOT / "templates").rglob("*.j2")):
        found += [f"{path.name}: {m.group(0)}" for m in MAYBE_PLURAL.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


# -- terms a room meets on first sight -----------------------------------------------------------------


def test_the_variants_say_what_their_defaults_are_in_the_rooms_words() -> None:
    from tests.support.headless import synced_text
    from widgets.danger_world import DangerWorldDashboard
    from widgets.dangerous_ideas import DangerousIdeasDashboard
    from widgets.leerdam import LeerdamDashboard
    from widgets.new_rule import NewRuleDashboard

    for cls in (DangerWorldDashboard, DangerousIdeasDashboard, LeerdamDashboard, NewRuleDashboard):
        text = synced_text(cls(None, query=""))
        assert "rulings" not in text, cls.__name__
        assert "set as the rules text plays" in text, cls.__name__


def test_a_seat_for_a_bot_says_what_the_button_does(tmp_path: Path) -> None:
    from playbook.store import Store
    from tests.support.headless import one
    from tests.support.leerdam_page import start
    from widgets.leerdam import LeerdamDashboard

    host = LeerdamDashboard(Store(tmp_path / "t.sqlite3"), query="")
    start(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    button = one(host, "pb-hand-over-3")
    assert button.layout.display == "none"  # nothing to change yet
    one(host, "pb-bot-3").value = "altruist"
    assert button.description == "Let the bot play Di" and button.layout.display != "none"
    one(host, "pb-hand-over-3").click()
    button = one(host, "pb-hand-over-3")
    one(host, "pb-bot-3").value = ""
    assert button.description == "Di plays again" and button.layout.display != "none"
    assert "Hand over" not in [b.description for b in _buttons(host)]


def test_leerdams_pledge_chips_say_who_has_not_pledged_yet(tmp_path: Path) -> None:
    from playbook.store import Store
    from tests.support.headless import one
    from tests.support.leerdam_page import pledge, start
    from widgets.leerdam import LeerdamDashboard

    host = LeerdamDashboard(Store(tmp_path / "t.sqlite3"), query="")
    start(host, names=("Ana", "Bo", "Cy"), bots={})
    pledge(host, 0, 2)
    card = one(host, "pb-pledged-count").value
    assert "Ana: pledged" in card and "Bo: not pledged yet" in card and "…" not in card
    assert "Close the year now" in [b.description for b in _buttons(host)]
    assert "missing pledge counts as 0" in one(host, "pb-advance-note").value


def _buttons(dash) -> list:
    import ipywidgets as widgets

    from tests.support.headless import walk

    return [w for w in walk(dash) if isinstance(w, widgets.Button)]
