"""The board by phase and the debrief, headless: every game's scene in each phase from its public
view, the debrief's steps against what the live board showed and against the stored history, and
secrets kept until the facilitator reveals them after the end."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import lab
from drawing.board import log_html, scene_html
from drawing.timeline import Timeline, scenes_for
from playbook.store import Play, Store
from rules import leerdam as ld
from rules import new_game
from rules import new_rule as nr
from rules.core import AnyGame
from rules.games import card
from tests.support.phases import NAMES, PHASES, danger_world, dangerous_ideas, leerdam, new_rule, play
from tests.support.stores import run_alone
from tests.support.tables import stored
from widgets.board import board_scene
from widgets.danger_world import DangerWorldDashboard
from widgets.dangerous_ideas import DangerousIdeasDashboard
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard


def text_of(scene_value: str) -> str:
    """What a reader sees: the tags out (names sit in <bdi>), the entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", scene_value))


@pytest.mark.parametrize("slug, phase", [(slug, phase) for slug, phases in PHASES.items() for phase in phases])
def test_each_games_board_follows_the_phase_of_play(slug: str, phase: str) -> None:
    game = PHASES[slug][phase]()
    scene = scenes_for(slug).scene(game.state)
    assert scene.phase == phase, (slug, scene.heading)
    drawn = scene_html(scene, Timeline.of(game).chart(), "Title")
    assert f'data-phase="{phase}"' in drawn and scene.facts, "every scene has its key numbers"
    # Names are escaped wherever they are drawn (one of them is an <i> tag).
    assert "<i>Co</i>" not in drawn
    if phase == "results":
        standings = game.rules.standings(game.state)
        names = game.setup.names
        winners = [names[s] for rank, s, _ in standings if rank == 1]
        if slug != "danger-world":  # cooperative: the party falls together
            assert all(w in scene.winner for w in winners) and "win" in scene.winner
        assert (len(scene.story) == 5 and 'class="pb-results-winner"' in drawn) or "pb-results-winner" in drawn


def test_the_results_name_the_winner_and_tell_the_story_in_five_lines() -> None:
    game = leerdam()
    scene = scenes_for("leerdam").scene(game.state)
    best = max(range(len(NAMES)), key=lambda s: game.state.households[s].vp)
    assert NAMES[best] in scene.winner
    assert len(scene.story) == 5 and scene.story[0].startswith("3 years")
    assert any("flood" in line for line in scene.story)


def test_the_log_shows_its_last_lines_and_the_rest_is_one_click_away() -> None:
    lines = [f"line {i} <b>" for i in range(10)]
    drawn = log_html(lines)
    shown = drawn.split("<details")[0]
    assert "line 9" in shown and "line 7" in shown and "line 6" not in shown
    assert "<details" in drawn and "All 10 lines" in drawn and "line 0" in drawn
    assert "<b>" not in drawn
    assert "<details" not in log_html(lines[:3])


def test_the_boards_scene_never_shows_a_secret_before_the_reveal() -> None:
    game = leerdam(lambda g: sum(p is not None for p in g.state.pledges) == 3)
    pledges = [p for p in game.state.pledges if p is not None]
    drawn = text_of(scene_html(scenes_for("leerdam").scene(game.state), Timeline.of(game).chart()))
    assert "3 of 4" in drawn
    for seat, units in enumerate(game.state.pledges):
        if units is not None:
            assert f"{NAMES[seat]}: {units}" not in drawn
    assert pledges  # the bots pledged something
    game = new_rule(lambda g: g.state.phase == "pick" and sum(p is not None for p in g.state.picks) == 2)
    raw = scene_html(scenes_for("new-rule").scene(game.state), Timeline.of(game).chart())
    assert "Picks in: 2 of 3" in text_of(raw)
    assert "data-colour" not in raw.split("pb-board-log")[0]  # no candy drawn: no pick shown


# -- the table's pages ------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["leerdam", "new-rule"])
def test_the_debrief_steps_through_every_round_as_the_board_showed_it_then(store: Store, slug: str) -> None:
    """A table played one move at a time through the store, its board following; then the
    finished board's debrief, step by step, against what the board drew at that moment and
    against the state replayed from the stored history."""
    start = new_game(slug, ld.Setup(names=NAMES, max_years=3) if slug == "leerdam" else nr.Setup(names=NAMES[:3], max_rounds=3), 7)
    table_id, links = stored(store, start)
    dash = card(slug).module("dashboard").DASHBOARD
    board = dash(store, query=links["board"])
    facilitator = dash(store, query=links["facilitator"])
    bots = list(lab.BOTS[slug].values())
    rng = random.Random(7)
    shown: dict[int, str] = {}
    while True:
        table = store.load(table_id)
        if table.game.rules.over(table.game.state):
            break
        seat = table.game.rules.waiting_for(table.game.state)[0]
        store.submit(table_id, Play(bots[seat % len(bots)](table.game.state, seat, rng)), table.version)
        board.refresh()
        shown[len(board.game.actions)] = board.phase_board.scene.value
    assert board.phase_board.last.phase == "results" and board.join_html.value == ""  # no join code at the end
    debrief = board.phase_board.debrief
    assert debrief is not None and debrief.reveal.layout.display != "flex"  # no secrets control on the board
    history = [row for row in store.history(table_id) if row["undone"] is None]
    rules = board.game.rules
    moments = debrief.timeline.moments
    word = "Year" if slug == "leerdam" else "Round"
    assert {m.round for m in moments} >= {1, 2, 3}
    assert [label for label, _ in debrief.jump.options][1:4] == [f"{word} 1", f"{word} 2", f"{word} 3"]
    debrief.step_to(0)
    for k in range(1, len(moments)):
        debrief.next.click()
        assert debrief.step == k
        moment = moments[k]
        # What the board drew when the table stood there: the very same drawing.
        inner = debrief.scene.value.removeprefix('<div class="pb-phase-board">').removesuffix("</div>")
        assert inner == shown[moment.index], moment.label
        # The stored history replayed to that step gives the same public view.
        state = rules.initial(board.game.setup)
        for row in history[: moment.index]:
            state = rules.play(state, _action(rules, row["action"]))
        assert rules.view_for(state, None) == rules.view_for(moment.state, None)
        assert debrief.secrets.value == ""  # nobody chose to show the secrets
    assert debrief.next.disabled and not debrief.back.disabled
    debrief.back.click()
    assert debrief.step == len(moments) - 2
    debrief.jump.value = dict(debrief.jump.options)[f"{word} 2"]
    assert moments[debrief.step].round == 2 and f"{word} 2" in debrief.step_html.value

    # The facilitator shows the secret choices: the board's debrief follows.
    facilitator.refresh()
    facilitator.open_debrief()
    assert facilitator.debrief is not None and facilitator.debrief.reveal.layout.display == "flex"
    facilitator.debrief.reveal.value = True
    assert store.info(table_id).meta.get("debrief_reveal") is True
    board.refresh()
    board.phase_board.debrief.jump.value = dict(board.phase_board.debrief.jump.options)[f"{word} 1"]
    secrets = text_of(board.phase_board.debrief.secrets.value)
    assert ("You pledged" if slug == "leerdam" else " drew ") in secrets
    facilitator.debrief.reveal.value = False
    board.refresh()
    assert board.phase_board.debrief.secrets.value == ""


def _action(rules: Any, data: Any) -> Any:
    from rules.core import action_from_json

    return action_from_json(rules.actions, data)


def test_a_running_tables_debrief_is_public_only_and_refuses_to_reveal(store: Store) -> None:
    game = leerdam(lambda g: g.state.year == 2 and sum(p is not None for p in g.state.pledges) == 2)
    table_id, links = stored(store, game)
    facilitator = LeerdamDashboard(store, query=links["facilitator"])
    facilitator.open_debrief()
    debrief = facilitator.debrief
    assert debrief is not None and debrief.reveal.disabled
    assert [m.label for m in debrief.timeline.moments][:3] == ["The start", "Year 1: the pledges revealed", "Year 1: the flood"]
    assert facilitator.reveal_secrets(True) is False and "until the game is over" in facilitator.status.message
    assert "debrief_reveal" not in store.info(table_id).meta
    drawn = text_of(debrief.scene.value)
    for seat in range(4):
        units = game.state.pledges[seat]
        if units is not None:
            assert f"{NAMES[seat]}: {units}" not in drawn  # this year's pledges: still secret
    assert debrief.secrets.value == ""
    # A board never offers the reveal, and a board page cannot ask for it.
    board = LeerdamDashboard(store, query=links["board"])
    assert board.reveal_secrets(True) is False and board.phase_board.debrief is None


def test_a_board_waits_for_players_with_the_join_code_large_then_plays(store: Store) -> None:
    game = new_game("new-rule", nr.Setup(names=NAMES[:3]), 1)
    table_id, links = stored(store, game)
    board = NewRuleDashboard(store, query=links["board"])
    assert board.phase_board.last.phase == "waiting" and "pb-join-big" in board.join_html.value
    assert "3 of 3" in text_of(board.phase_board.scene.value).split("Still free")[1]
    table = store.load(table_id)
    seat = table.game.rules.waiting_for(table.game.state)[0]
    store.submit(table_id, Play(nr.Draw(seat=seat)), table.version)
    board.refresh()
    assert board.phase_board.last.phase == "decision" and "pb-join-small" in board.join_html.value


@pytest.mark.parametrize("dashboard, make", [(DangerousIdeasDashboard, dangerous_ideas)])
def test_a_game_on_one_shared_screen_has_a_read_only_board(store: Store, dashboard: Any, make: Callable[[], AnyGame], monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose card says it is played on one shared screen (none of the four now: a card
    may still say so) opens a table for whoever has its link, and a read-only board."""
    import dataclasses

    from rules import games

    monkeypatch.setitem(games._CARDS, dashboard.slug, dataclasses.replace(card(dashboard.slug), devices=False))
    game = make(lambda g: len(g.actions) > 40)
    table_id = store.create(game, "open table", {})
    board = dashboard(store, query=f"?table={table_id}&board=1")
    assert board.role == "board" and board.phase_board is not None and board.phase_board.last is not None
    assert board.act(game.actions[-1]) is False and board.status.kind == "refuse"
    assert board_scene(game) == board.phase_board.last
    # The table's own page links to its board and steps through the game so far.
    page = dashboard(store, query=f"?table={table_id}")
    assert page.role == "open" and f"table={table_id}&amp;board=1" in page.board_link.value
    page.open_debrief()
    assert page.debrief is not None and page.debrief.reveal.layout.display == "none"
    assert page.debrief.step == len(page.debrief.timeline.moments) - 1 > 0


def test_the_class_board_compares_its_tables_round_by_round() -> None:
    from widgets.board import ClassDebrief

    villages = [leerdam(years=3), leerdam(lambda g: g.state.year == 3, names=("Ed", "Fa", "Gu", "Ha"))]
    compare = ClassDebrief("A class", "Village")
    compare.show(villages)
    assert compare.round == 3 and compare.next.disabled
    compare.back.click()
    assert compare.round == 2
    drawn = text_of(compare.body.value)
    assert "Village 1" in drawn and "Village 2" in drawn
    # Each village is drawn as its board was at the last moment of year 2.
    for i, game in enumerate(villages):
        timeline = Timeline.of(game)
        k = max(j for j, m in enumerate(timeline.moments) if m.round <= 2)
        assert f'data-table="{i}" data-step="{k}"' in compare.body.value
        assert timeline.moments[k].label == "Year 2: the flood"


def test_a_danger_world_page_follows_its_table_inside_an_event_loop(store: Store, monkeypatch) -> None:
    """Danger World's dashboard once hid the table page's "is the page gone" check behind an
    attribute of its own, so its pages never followed other pages' moves."""
    import asyncio

    from widgets import live as live_module

    monkeypatch.setattr(live_module, "in_kernel", lambda: True)
    from tests.support.tables import stored

    waiting, decision = danger_world(sheets=1), danger_world(lambda g: g.state.phase == "lock")
    table_id, found = stored(store, waiting)

    async def follow() -> str:
        board = DangerWorldDashboard(store, query=found["board"])
        for action in decision.actions[len(waiting.actions) :]:
            if not action.chance:
                store.submit(table_id, Play(action), store.version(table_id))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if board.phase_board.last.phase != "waiting":
                break
        board.close()
        return board.phase_board.last.phase

    assert run_alone(follow) == "decision"


def test_the_class_board_shows_each_tables_phase_and_compares_them_and_drops_the_code_at_the_end(store: Store) -> None:
    from playbook import classes as cl
    from tests.support.classes import class_page as _page
    from tests.support.classes import monitor as _monitor
    from tests.support.classes import student as _student

    record = cl.create_class(store, "new-rule", 6, seed=4)
    for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Fa"):
        _student(store, record.code, name)
    monitor = _monitor(store, record)
    monitor.deal()
    monitor.start()
    record = cl.load_class(store, record.id)
    board = _page(store, record, "board")
    body = board.screen.children[0].value
    assert len(record.tables) == 2 and body.count('data-phase="decision"') == 2  # each table's phase at a glance
    assert "pb-key-number" in body and "&board=" in html.unescape(body)
    compare = board.class_debrief
    assert compare is not None and compare in board.screen.children
    # Both tables played to the end (by the tables' own moves): the class board compares them round by round.
    bots = list(lab.BOTS["new-rule"].values())
    rng = random.Random(4)
    for table_id in record.tables:
        while not (table := store.load(table_id)).game.state.over:
            seat = table.game.rules.waiting_for(table.game.state)[0]
            store.submit(table_id, Play(bots[seat % len(bots)](table.game.state, seat, rng)), table.version)
    one_more = _student(store, record.code, "Gu")  # a late student: the code would show while they wait
    assert one_more.record is not None
    board.refresh()
    assert "<svg" in board.screen.children[0].value  # the join code, for the late one
    monitor.refresh()
    monitor.end()
    board.refresh()
    body = board.screen.children[0].value
    assert "<svg" not in body and "pb-class-code" not in body  # no join code once the class is over
    assert "Results" in body and board.class_debrief.round >= 1
    assert text_of(board.class_debrief.body.value).count("The results") == 2


def test_an_anonymous_village_board_shows_totals_only_until_the_facilitator_shows_the_pledges() -> None:
    """The board draws from the public view: with anonymous pledges no step of the live board or
    of the debrief names a household's pledge, VP or Wealth before the end; once the facilitator
    shows the pledges after the end, the debrief's steps follow that choice."""
    game = play(new_game("leerdam", ld.Setup(names=NAMES, max_years=3, anonymous=True), 5))
    timeline = Timeline.of(game)
    scenes = scenes_for("leerdam")
    for k, moment in enumerate(timeline.moments):
        raw = scene_html(scenes.scene(moment.state), timeline.chart(k))
        assert "data-seat-pledge" not in raw, moment.label
        if not moment.state.over:
            assert "VP of each household" not in raw and "Wealth of each household" not in raw
    revealed = [m for m in timeline.moments if m.state.total is not None]
    assert revealed and "Total" in text_of(scene_html(scenes.scene(revealed[0].state)))  # the total is public
    # Kept anonymous at the end: the debrief shows no secret, whatever the board's meta asks.
    from widgets.board import Debrief

    debrief = Debrief("Leerdam", facilitator=True)
    debrief.show(game, reveal=True)
    debrief.jump.value = dict(debrief.jump.options)["Year 1"]
    assert debrief.secrets.value == "" and debrief.reveal.layout.display == "none"
    # The facilitator shows the pledges after the end: the debrief's steps show them too.
    game.apply(ld.ShowPledges(show=True))
    debrief.show(game)
    debrief.jump.value = dict(debrief.jump.options)["Year 1"]
    assert "You pledged" in text_of(debrief.secrets.value)
    shown = Timeline.of(game)
    assert [m.label for m in shown.moments].count("The end") == 1
    step = next(k for k, m in enumerate(shown.moments) if m.state.total is not None and m.state.years)
    raw = scene_html(scenes.scene(shown.moments[step].state, game.state), shown.chart(step, game.state))
    assert "data-seat-pledge" in raw and "VP of each household" in raw
