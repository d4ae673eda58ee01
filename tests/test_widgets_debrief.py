"""The debrief's downloads, headless: the CSV of every decision and the handout on a table's
facilitator page and on the class monitor; what they keep secret before the end and after
it; and that a board or seat page has neither."""

from __future__ import annotations

import base64
import csv
import io
import re

import pypdf
import pytest

from playbook import classes as cl
from playbook.store import Play
from rules import new_rule as nr
from tests.support.classes import class_page as _page
from tests.support.classes import monitor as _monitor
from tests.support.classes import student as _student
from tests.support.headless import everything, links, seat_query, visible
from tests.support.headless import one as the
from tests.support.leerdam_page import play_year, pledge
from tests.support.leerdam_page import start as start_leerdam
from widgets.leerdam import LeerdamDashboard

pytestmark = pytest.mark.timeout(240)
NAMES = ("<b>Ana</b>", "Bo & Co", "Cy 🐉", "דנה", "Ed")


def linked(link: str, mime: str) -> bytes:
    match = re.search(rf'href="data:{re.escape(mime)}(;charset=utf-8)?;base64,([A-Za-z0-9+/=]+)"', link)
    assert match and "download=" in link, link[:200]
    return base64.b64decode(match.group(2))


def csv_of(dash) -> list[dict[str, str]]:
    raw = linked(the(dash, "pb-debrief-csv").value, "text/csv")
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def pdf_text(dash) -> str:
    pdf = linked(the(dash, "pb-debrief-pdf").value, "application/pdf")
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_mid_game_the_facilitators_debrief_names_no_pledge_not_yet_revealed(store) -> None:
    dash = LeerdamDashboard(store, query="")
    start_leerdam(dash, names=NAMES, bots={})
    assert visible(dash.debrief_bar) and the(dash, "pb-debrief-csv").value == ""
    assert not visible(the(dash, "pb-debrief-secrets"))
    pledge(dash, 0, 4)
    pledge(dash, 1, 3)
    the(dash, "pb-debrief-prepare").click()
    rows = csv_of(dash)
    assert [r["decision"] for r in rows] == ["pledges in secret"] * 2 and [r["player"] for r in rows] == list(NAMES[:2])
    assert {r["table"] for r in rows} == {store.info(dash.table_id).title}  # the table as the room knows it
    assert "Secrets are named once it is over" in the(dash, "pb-debrief-note").value
    assert "debrief" in pdf_text(dash)
    # A new move makes the files stale: they go at the next redraw.
    pledge(dash, 2, 1)
    assert the(dash, "pb-debrief-csv").value == "" and the(dash, "pb-debrief-pdf").value == ""


def test_after_the_end_the_facilitator_names_the_pledges_or_keeps_them(store) -> None:
    dash = LeerdamDashboard(store, query="")
    start_leerdam(dash, names=NAMES, bots={2: "fair", 3: "altruist", 4: "free-rider"}, max_years="1")
    play_year(dash, {0: 4, 1: 2})
    assert dash.game.state.over
    box = the(dash, "pb-debrief-secrets")
    assert visible(box) and box.value is True
    the(dash, "pb-debrief-prepare").click()
    named = csv_of(dash)
    pledges = [r for r in named if r["decision"].startswith("pledges")]
    ana = next(r for r in pledges if r["player"] == NAMES[0])
    assert len(pledges) == 5 and ana["decision"] == "pledges 4 units to the dyke" and ana["seat"] == "1"
    assert any(r["decision"].startswith("allocates 2 subsistence") for r in named)
    assert "Most given to the dyke" in pdf_text(dash)
    box.value = False
    the(dash, "pb-debrief-prepare").click()
    kept = csv_of(dash)
    assert len(kept) == len(named) and all(r["decision"] == "pledges in secret" for r in kept if r["decision"].startswith("pledges"))
    assert "Most given to the dyke" not in pdf_text(dash) and "Secret choices are kept" in the(dash, "pb-debrief-note").value


def test_board_and_seat_pages_offer_no_debrief(store) -> None:
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=NAMES[:3], bots={})
    pledge(host, 0, 4)
    for query in (links(host)["board"], seat_query(host, 1)):
        page = LeerdamDashboard(store, query=query)
        assert page.role in ("board", "seat") and not visible(page.debrief_bar)
        page.prepare_debrief(True)
        assert page.status.kind == "refuse" and page.debrief_bar.csv_link.value == ""
        assert "base64" not in everything(page.debrief_bar)


def test_the_class_monitor_offers_the_class_csv_and_the_class_handout(store) -> None:
    record = cl.create_class(store, "new-rule", 6, seed=2)
    for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Fay"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    assert len(monitor.record.tables) == 2
    table_id = monitor.record.tables[0]
    store.submit(table_id, Play(nr.Draw(seat=0)), store.version(table_id))
    monitor.refresh()
    rows = list(csv.DictReader(io.StringIO(linked(the(monitor, "pb-class-csv").value, "text/csv").decode("utf-8-sig"), newline="")))
    assert rows[0]["decision"] == "draws blindly" and " drew " not in rows[0]["outcome"] and rows[0]["student"] == "Ana"
    assert visible(monitor.debrief_bar)
    the(monitor, "pb-debrief-prepare").click()
    text = pdf_text(monitor)
    assert "New Rule debrief: Table 1" in text and "New Rule debrief: Table 2" in text
    assert len(csv_of(monitor)) == len(rows)
    # The class board (the projector) has no debrief to make.
    board = _page(store, monitor.record, "board")
    assert board.role == "board" and board.debrief_bar not in list(board.screen.children)
    board.prepare_debrief(True)
    assert board.status.kind == "refuse" and board.debrief_bar.csv_link.value == ""
