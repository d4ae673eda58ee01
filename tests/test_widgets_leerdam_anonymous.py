"""Leerdam's anonymous pledges on the pages: the board, the seat pages, the facilitator's choice.

The two-worlds test of `test_rules_leerdam_anonymous` again, on the board page: the same
village and dice with the households' strategies turned one seat round give the same board,
widget for widget (the plots' pixels included), at every stage before the end.
"""

from __future__ import annotations

import html

from playbook.store import Store
from rules import Game, load_game
from rules import leerdam as ld
from tests.support.anonymous_village import NAMES, world
from tests.support.headless import csv_rows, everything, links, seat_query, visible
from tests.support.headless import one as the
from tests.support.headless import walk as tree
from tests.support.leerdam_page import allocate, cell, pledge, start
from widgets.leerdam import LeerdamDashboard


def board_of(store: Store, game: Game) -> LeerdamDashboard:
    """A board page of a new stored table holding `game`."""
    host = LeerdamDashboard(store, query="")
    host.start(game.copy(), {})
    return LeerdamDashboard(store, query=links(host)["board"])


def public_parts(board: LeerdamDashboard) -> list[object]:
    """What the board's own widgets send (not the join code: it holds the table's own key)."""
    # The board by phase: its scene (the chart included) and the pledges' table below it.
    parts = [board.phase_board.scene, board.pledge_table]
    return [(type(w).__name__, {k: v for k, v in w.get_state().items() if k not in ("layout", "style")}) for w in tree_of(parts)]


def tree_of(parts):
    for part in parts:
        yield from tree(part)


def prefix(game: Game, steps: int) -> Game:
    return Game(game.rules, game.setup, game.seed, list(game.actions[:steps]))


def test_the_board_is_the_same_whichever_household_gave_what(store):
    a, b = world(0), world(1)
    # A stage of each kind: pledging, just revealed, allocating, a year done, years later.
    stages = []
    for kind in ("contribute", "allocate"):
        for year in (1, 2, 5):
            stages.append(next(i for i, s in enumerate(a.states) if s.phase == kind and s.year == year and s.pledges.count(None) < 3))
    for step in stages:
        assert a.states[step].pledges != b.states[step].pledges or a.states[step].plans != b.states[step].plans
        board_a, board_b = board_of(store, prefix(a, step)), board_of(store, prefix(b, step))
        assert public_parts(board_a) == public_parts(board_b), f"the boards differ at step {step}"
        text = everything(board_a)
        scene = board_a.phase_board.scene.value
        assert "data-seat-pledge" not in text and "Anonymous pledges" in scene
        for name in NAMES:
            assert f"{html.escape(name)} · " not in scene  # no capacity beside a name


def test_a_class_plays_an_anonymous_village_by_clicks_and_the_facilitator_shows_the_pledges(store):
    host = LeerdamDashboard(store, query="")
    the(host, "pb-anonymous").value = True
    start(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={2: "fair", 3: "altruist", 4: "free-rider"}, max_years="2")
    assert store.load(host.table_id).game.setup.anonymous  # through the store
    board = LeerdamDashboard(store, query=links(host)["board"])
    ana = LeerdamDashboard(store, query=seat_query(host, 0))
    for year in (1, 2):
        # Ana is on her own device: her seat has no hot-seat button on the shared screen.
        ana.refresh()
        the(ana, "pb-pledge").value = 4 if year == 1 else 3
        the(ana, "pb-pledge-confirm").click()
        assert ana.status.kind != "refuse", ana.status.message
        host.refresh()
        pledge(host, 1, 0)
        for page in (board, ana):
            page.refresh()
        reveal = board.phase_board.scene.value
        assert "total is announced" in reveal and f'data-total="{host.game.state.total}"' in reveal
        text = everything(board)
        assert "data-seat-pledge" not in text and "Ana: 4" not in text and "Bo: 0" not in text
        assert "Anonymous pledges" in reveal and "pb-standings-big" not in reveal  # no household's numbers
        mine = the(ana, "pb-household").value
        assert f"Your pledge: <b>{4 if year == 1 else 3}</b>" in mine
        assert "Bo: 0" not in everything(ana)
        ana.refresh()
        free = ana.game.state.free_units(0)
        for activity, units in (("subsistence", min(2, free)), ("profit", max(0, free - 2))):
            cell(ana, 0, activity).value = units
        the(ana, "pb-alloc-confirm").click()
        assert ana.status.kind != "refuse", ana.status.message
        host.refresh()
        allocate(host, 1, {(1, "subsistence"): 2, (1, "leisure"): 1})
        if year == 1:
            rows = csv_rows(the(host, "pb-csv").value)
            assert rows and all("household" not in r and r["total"] for r in rows)  # the village's years only
            board.refresh()
            assert "VP of the whole village" in board.phase_board.scene.value  # the village's sums, drawn
            assert "VP of each household" not in board.phase_board.scene.value
    state = host.game.state
    assert state.over
    board.refresh()
    # The end: the results are shown, the pledges stay anonymous until the facilitator chooses.
    assert "Ana" in board.phase_board.scene.value and board.pledge_table.value == ""
    choice = the(host, "pb-debrief-choice")
    assert visible(choice) and not visible(board.debrief_choice) and not visible(ana.debrief_choice)
    the(host, "pb-show-pledges").click()
    assert store.load(host.table_id).game.state.pledges_shown  # through the store
    board.refresh()
    table = board.pledge_table.value
    assert '<tr data-pledges-of="0"><td><b>Ana</b></td><td>4</td><td>3</td></tr>' in table
    assert '<tr data-pledges-of="1"><td><b>Bo</b></td><td>0</td><td>0</td></tr>' in table
    # The debrief on the board now shows each year's pledges by household.
    debrief = board.phase_board.debrief
    debrief.step_to(next(k for k, m in enumerate(debrief.timeline.moments) if m.state.total is not None))
    assert "data-seat-pledge" in debrief.scene.value
    the(host, "pb-show-pledges").click()  # and back: anonymous again
    board.refresh()
    assert board.pledge_table.value == "" and "data-seat-pledge" not in everything(board)
    assert host.game.state.pledges_shown is False


def test_the_facilitators_choice_is_refused_on_other_pages_and_before_the_end(store):
    host = LeerdamDashboard(store, query="")
    the(host, "pb-anonymous").value = True
    start(host, names=("Ana", "Bo", "Cy"), bots={})
    assert not visible(host.debrief_choice)
    version = host.version
    host._show_pledges_clicked()
    assert host.status.kind == "refuse" and "until the game ends" in host.status.message and host.version == version
    page = LeerdamDashboard(store, query=seat_query(host, 0))
    page._show_pledges_clicked()
    assert page.status.kind == "refuse" and not page.game.state.pledges_shown


def test_an_anonymous_table_resumes_from_the_store_and_its_save_file_keeps_the_variant(store):
    game = world(0)
    game.apply(ld.ShowPledges())
    board = board_of(store, game)
    table = store.load(board.table_id)
    assert table.game.setup.anonymous and table.game.state == game.state and table.game.state.pledges_shown
    assert load_game(table.game.to_json()).state == game.state
    assert board.pledge_table.value  # shown at the end, so the board has the pledges' table
