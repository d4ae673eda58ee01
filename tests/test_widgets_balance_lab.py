"""The balance lab, headless: clicks run handlers and `.value` fires observers."""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
import time

import pypdf
import pytest

from lab import DEFAULT_BOTS, simulate
from lab.core import close_pool, default_workers
from playbook import heavy
from rules import RuleError
from tests.support.headless import click, one
from widgets.balance_lab import BalanceLab
from widgets.studio import seat_range

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def own_slots(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """The heavy-work slots of a server of this test's own (its PLAYBOOK_DB under tmp)."""
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.sqlite3"))


def linked(link_html: str, mime: str) -> bytes:
    """The bytes behind one data-URI `<a download>` link."""
    match = re.search(rf'href="data:{re.escape(mime)}(?:;charset=utf-8)?;base64,([A-Za-z0-9+/=]+)"', link_html)
    assert match, link_html[:200]
    return base64.b64decode(match.group(1))


def test_lab_same_seed_same_numbers() -> None:
    lab = BalanceLab()
    assert {"playbook-root", "playbook-balance-lab"} <= set(lab._dom_classes)
    assert lab.game.value == "new-rule"
    assert [m.value for m in lab.bot_menus] == list(DEFAULT_BOTS["new-rule"])
    assert "max_rounds" in lab.note.value
    one(lab, "pb-lab-bot-0").value = "random"
    lab.games.value = 5
    lab.seed.value = 11
    lab.workers.value = 1
    click(lab.run_button)
    assert lab.status.kind == "ok", lab.status.message
    first = one(lab, "pb-lab-results").value
    assert lab.progress.value == 5
    assert "Win share per seat by bot" in first and "Endings" in first
    assert lab.chart.png.startswith(b"\x89PNG")
    numbers = json.loads(linked(lab.download.value, "application/json"))
    assert numbers["games"] == 5 and numbers["bots"][0] == "random"
    rows = linked(lab.download.value, "text/csv").decode("utf-8").splitlines()
    assert len(rows) == 6 and rows[0].startswith("game,seed,rounds")
    click(lab.run_button)
    assert one(lab, "pb-lab-results").value == first


def test_lab_seats_stay_in_range() -> None:
    lab = BalanceLab()
    low, high = seat_range("new-rule")
    for _ in range(10):
        if not lab.add_button.disabled:
            click(lab.add_button)
    assert len(lab.bot_menus) == high and lab.add_button.disabled
    for _ in range(10):
        if not lab.remove_button.disabled:
            click(lab.remove_button)
    assert len(lab.bot_menus) == low and lab.remove_button.disabled
    lab.game.value = "leerdam"
    assert len(lab.bot_menus) == 7 and "threshold" in lab.bot_menus[0].options


def test_lab_compares_two_villages_and_offers_the_report() -> None:
    lab = BalanceLab()
    lab.game.value = "leerdam"
    one(lab, "pb-lab-village").value = "cooperators"
    assert {m.value for m in lab.bot_menus} == {"fair"}
    lab.compare.value = True
    assert [m.value for m in lab.setup_b.bot_menus] == ["fair"] * 7  # B starts as a copy of A
    one(lab, "pb-lab-b-variants").value = "misfortune=3,2,1,0,0,0"
    lab.games.value, lab.seed.value, lab.workers.value = 40, 3, 1
    click(lab.run_button)
    assert lab.status.kind == "ok", lab.status.message
    assert lab.progress.value == 80
    table = html.unescape(one(lab, "pb-lab-comparison").value)
    assert "misfortune=3,2,1,0,0,0" in table and "95% interval" in table and "mean VP per household" in table
    assert "mean VP: fair" not in table  # one kind at the table: its mean is the household mean, counted once
    assert "What changed from A to B" in lab.findings.value
    pdf = pypdf.PdfReader(io.BytesIO(linked(lab.download.value, "application/pdf")))
    text = " ".join(page.extract_text() for page in pdf.pages)
    assert "Leerdam: balance report" in text and "Side by side" in text
    csv_rows = linked(lab.download.value, "text/csv").decode("utf-8").splitlines()
    assert len(csv_rows) == 81 and csv_rows[0].startswith("setup,game,seed")


@pytest.mark.heavy
def test_a_comparison_below_the_minimum_games_gives_no_verdict() -> None:
    lab = BalanceLab()
    lab.game.value = "leerdam"
    lab.compare.value = True
    one(lab, "pb-lab-b-variants").value = "misfortune=3,2,1,0,0,0"
    lab.games.value, lab.seed.value, lab.workers.value = 10, 3, 1
    click(lab.run_button)
    assert lab.status.kind == "ok", lab.status.message
    table = html.unescape(one(lab, "pb-lab-comparison").value)
    measures = len(lab.result.table)
    # a harsher misfortune track lowers VP far beyond the noise here, but 10 games earn no verdict
    assert table.count("<td>too few games</td>") == measures and "<td>different</td>" not in table and "<td>within noise</td>" not in table
    assert "fewer than 30 games: the numbers, but no verdict" in table
    pdf = pypdf.PdfReader(io.BytesIO(linked(lab.download.value, "application/pdf")))
    text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())  # cells wrap
    assert text.count("too few games") == measures and "no verdict" in text
    lab.games.value = 30
    click(lab.run_button)
    table = html.unescape(one(lab, "pb-lab-comparison").value)
    assert "too few games" not in table and "<td>different</td>" in table


def test_lab_refuses_a_bad_variant_and_changes_nothing() -> None:
    lab = BalanceLab()
    lab.game.value = "leerdam"
    one(lab, "pb-lab-variants").value = "misfortune=9,9"
    click(lab.run_button)
    assert lab.status.kind == "refuse" and "misfortune" in lab.status.message
    assert lab.result is None and lab.download.value == ""


def test_odds_dangerous_ideas_pool_8() -> None:
    lab = BalanceLab()
    odds = lab.odds
    odds.game.value = "dangerous-ideas"
    odds.inputs["pool"].value = 8
    odds.inputs["seeds"].value = 0
    text = html.unescape(one(lab, "pb-odds-result").value)
    assert "13/18" in text and "72.22%" in text


def test_odds_danger_world_caps_dice() -> None:
    odds = BalanceLab().odds
    assert odds.inputs["dice"].max == 12
    odds.game.value = "danger-world"
    for name, value in (("dice", 3), ("difficulty", 2), ("penalty", 0), ("rerolls", 0)):
        odds.inputs[name].value = value
    assert odds.report is not None and odds.report["exact"] in odds.result.value


# -- the lab's processes ---------------------------------------------------------------------------


def _children() -> set[int]:
    """This process's child processes, from /proc (no psutil)."""
    found = set()
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        try:
            with open(f"/proc/{os.getpid()}/task/{task}/children") as handle:
                found |= {int(pid) for pid in handle.read().split()}
        except FileNotFoundError:  # the thread ended since the folder was read: it has no children
            continue
    return found


def test_lab_refuses_more_cores_than_the_machine_has_and_starts_nothing() -> None:
    cores = default_workers()
    lab = BalanceLab()
    assert lab.workers.max == cores
    lab.workers.value = 64
    assert lab.workers.value == cores  # the box stops at the machine's cores
    before = _children()
    with pytest.raises(RuleError, match=f"this machine has {cores} core"):
        simulate("leerdam", 40, 1, workers=cores + 1)
    assert _children() == before


@pytest.mark.heavy
@pytest.mark.skipif(default_workers() < 2, reason="a pool needs two cores")
def test_a_closed_lab_page_leaves_no_process_behind() -> None:
    close_pool()  # an earlier test's pool, kept for its next run, is not this page's
    before = _children()
    lab = BalanceLab()
    lab.game.value = "leerdam"
    lab.games.value, lab.workers.value = 40, 2
    click(lab.run_button)
    assert lab.status.kind == "ok", lab.status.message
    assert len(_children() - before) == 2  # one pool of two workers, kept for the next run
    lab.workers.value = 1
    lab.workers.value = 2
    click(lab.run_button)
    assert len(_children() - before) == 2  # still one pool, never one per worker count
    lab.close()
    assert _children() == before


@pytest.mark.heavy
def test_a_busy_server_refuses_a_lab_run_and_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heavy, "HEAVY_WAIT_SECONDS", 0.0)
    lab = BalanceLab()
    lab.game.value = "leerdam"
    lab.workers.value = 1
    with heavy.heavy_work("one"), heavy.heavy_work("two"):
        click(lab.run_button)
    assert lab.status.kind == "refuse" and "already running 2 heavy jobs" in lab.status.message
    assert lab.result is None and lab.progress.value == 0
    click(lab.run_button)  # the slots are free again
    assert lab.status.kind == "ok", lab.status.message


def test_the_lab_page_reviews_the_text_as_written() -> None:
    lab = BalanceLab()
    lab.game.value = "leerdam"
    lab.games.value, lab.workers.value = 40, 1
    click(one(lab, "pb-lab-review"))
    assert lab.status.kind == "ok", lab.status.message
    text = html.unescape(lab.findings.value)
    assert "What wins: a free-rider wins" in text and "95% interval" in text and "pledges nothing" in text
    lab.games.value = 10
    click(lab.review_button)
    assert lab.status.kind == "refuse" and "at least 30 games" in lab.status.message and lab.findings.value == ""


@pytest.mark.skipif(default_workers() < 2, reason="a pool needs two cores")
def test_an_idle_pool_closes_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    from lab import core

    close_pool()
    before = _children()
    monkeypatch.setattr(core, "POOL_IDLE_SECONDS", 0.2)
    simulate("leerdam", 40, 1, workers=2, extras=False)
    assert len(_children() - before) == 2
    for _ in range(600):  # the idle timer shuts the pool down in its own thread (slow on a busy machine)
        if _children() == before:
            break
        time.sleep(0.1)
    assert _children() == before
