"""The dashboards' CSS is files of the Voila template, sent by no kernel a Voila page runs on.

Every page of the playbook, built headless as a kernel builds it (each game's lobby, facilitator
page with its debrief, board at the end and seat page; a class's join, board, monitor and
student pages; the front page, the print studio, the lab):

- under Voila (a kernel Voila started) no widget sends a `<style>`: the template links the
  sheets (`widgets.styles`);
- in JupyterLab, where no template is used, each `<style>` a page sends is the template's files'
  text exactly, whole files in the order the template links them; each page gets every
  dashboard's sheet and its game's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

from playbook import classes as cl
from playbook.serve import TEMPLATE_NAME, TEMPLATES_DIR
from playbook.store import Store
from rules.games import CARDS
from tests.support.classes import class_page, student
from tests.support.headless import walk
from tests.support.phases import PHASES
from tests.support.tables import stored
from widgets.styles import sheet_text, style_html

TEMPLATE = TEMPLATES_DIR / "voila" / "templates" / TEMPLATE_NAME
STATIC = TEMPLATE / "static"
STYLE = re.compile(r"<style\b[^>]*>\n?(.*?)</style>", re.S | re.I)


def after_the_cells() -> list[str]:
    """The sheets the template links after the cells (its `body_footer`), in order: the
    dashboards' own, where a kernel's `<style>` used to be in the cascade."""
    template = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    footer = re.search(r"{%-? block body_footer -?%}(.*?){%-? endblock body_footer -?%}", template, re.S)
    assert footer is not None
    return re.findall(r"""resources\.include_css\(\s*["']static/([^"']+\.css)["']\s*\)""", footer.group(1))


def dashboard_sheets() -> set[str]:
    """Every sheet a widget names (`style_html("board.css")`, a dashboard's `sheets`)."""
    named: set[str] = set()
    for path in (Path(__file__).resolve().parent.parent / "widgets").rglob("*.py"):
        named |= set(re.findall(r"""["']([a-z-]+\.css)["']""", path.read_text(encoding="utf-8")))
    return named


def pages(store: Store) -> Iterator[tuple[str, widgets.Widget, tuple[str, ...]]]:
    """(name, page, its game's sheets) for every page of the playbook."""
    from widgets.balance_lab import BalanceLab
    from widgets.front_page import TableIndex
    from widgets.studio import PrintStudio

    for game in CARDS:
        if not game.has("dashboard"):
            continue
        dashboard = game.module("dashboard").DASHBOARD
        own = tuple(dashboard.sheets)
        yield f"{game.slug} lobby", dashboard(store, query=""), own
        for phase in ("decision", "results"):
            _, links = stored(store, PHASES[game.slug][phase]())
            facilitator = dashboard(store, query="?" + links["facilitator"].split("?", 1)[1])
            facilitator.open_debrief()
            assert facilitator.debrief is not None
            yield f"{game.slug} {phase}: the facilitator's", facilitator, own
            board = links["board"].split("?", 1)[1] + ("" if game.devices else "&board=1")
            yield f"{game.slug} {phase}: the board", dashboard(store, query="?" + board), own
            for seat in links["seats"][:1]:
                yield f"{game.slug} {phase}: a seat", dashboard(store, query="?" + seat["url"].split("?", 1)[1]), own
    record = cl.create_class(store, "leerdam", 4, seed=4)
    yield "a class's join page", widgets.VBox([class_page(store, record, "join")]), ()
    students = [student(store, record.code, name) for name in ("Ana", "Bo", "Cy", "Di")]
    monitor = class_page(store, record, "monitor")
    assert monitor.deal() and monitor.start(), monitor.status.message
    students[0].refresh()
    assert students[0].seat_page is not None
    yield "a class's student, seated", students[0], ("leerdam.css",)
    yield "a class's monitor", monitor, ()
    board = class_page(store, cl.load_class(store, record.id), "board")
    assert board.class_debrief is not None
    yield "a class's board", board, ()
    yield "the front page", TableIndex(store, query="?key=k"), ()
    yield "the print studio", PrintStudio(store, query=""), ()
    yield "the balance lab", BalanceLab(), ()


def sent_styles(page: widgets.Widget) -> list[str]:
    """The text of every `<style>` the page's widgets send, in the order of the page."""
    found = []
    for widget in walk(page):
        value = getattr(widget, "value", None)
        if isinstance(value, str) and "<style" in value.lower():
            found += STYLE.findall(value)
    return found


def as_files(css: str, order: list[str]) -> list[str]:
    """`css` as whole files of the template, in the template's order; [] if it is not that."""
    names: list[str] = []
    rest = css
    for name in order:
        if rest.startswith(sheet_text(name)):
            names.append(name)
            rest = rest[len(sheet_text(name)) :]
    return names if rest == "" else []


def test_every_sheet_a_widget_names_is_linked_after_the_cells_and_holds_the_files_text() -> None:
    order = after_the_cells()
    assert dashboard_sheets() == set(order), "a sheet a widget names is not linked after the cells, or the reverse"
    assert order[0] == "dashboard.css" and order[-1] == "board.css"
    for name in order:
        assert sheet_text(name) == (STATIC / name).read_text(encoding="utf-8")
        assert "<style" not in sheet_text(name).lower() and "</" not in sheet_text(name)


def test_in_jupyterlab_a_widget_sends_the_files_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    text = "".join((STATIC / name).read_text(encoding="utf-8") for name in ("dashboard.css", "danger-world.css"))
    assert style_html("dashboard.css", "danger-world.css") == f"<style>\n{text}</style>\n"
    assert style_html() == ""


def test_under_voila_a_widget_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert style_html("dashboard.css", "board.css") == ""


def test_no_page_under_voila_sends_a_style(monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    monkeypatch.setenv("VOILA_PREHEAT", "False")  # as in a page's kernel (a ready one: "True")
    seen = 0
    for name, page, _own in pages(store):
        seen += 1
        assert sent_styles(page) == [], f"{name} sends a <style> under Voila"
        assert not any("<style" in str(getattr(w, "value", "")).lower() for w in walk(page)), name
    assert seen >= 4 * 5 + 7


def test_a_jupyterlab_page_gets_the_templates_files_each_once_in_their_order(monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    order = after_the_cells()
    for name, page, own in pages(store):
        sheets: list[str] = []
        for css in sent_styles(page):
            files = as_files(css, order)
            assert files, f"{name}: a <style> that is not the template's files, whole and in order"
            sheets += files
        assert sheets and sheets[0] == "dashboard.css", name
        assert set(own) <= set(sheets), f"{name} lacks its game's sheet"
        if "board" in name or "facilitator" in name:  # a board, a debrief
            assert "board.css" in sheets, name
        # The cascade as the template's: each sheet's last copy in the template's order (a
        # board's debrief at the end sends board.css again, right after the board's).
        last = list(reversed(dict.fromkeys(reversed(sheets))))
        assert last == sorted(last, key=order.index), (name, sheets)
        assert list(dict.fromkeys(sheets)) == last, (name, sheets)
