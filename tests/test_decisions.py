"""The record of decisions: one row per decision for all four games, its outcome the log lines
it led to, the CSV that carries it (names with markup, emoji, right-to-left script, formulas),
and the secrets an export before the end keeps."""

from __future__ import annotations

import csv
import io

import pytest

import lab
from lab.core import play_out
from rules import decisions_of
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import AnyGame, Game, rng_for
from rules.decisions import COLUMNS, csv_text, decision_rows
from tests.support.played import NAMES, AnonymousSetup, danger_world_game, played

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def games() -> dict[str, AnyGame]:
    return {
        "leerdam": played("leerdam", 5),
        "new-rule": played("new-rule", 4),
        "dangerous-ideas": played("dangerous-ideas", 3),
        "danger-world": danger_world_game(),
    }


def expected_outcomes(game: AnyGame, reveal: bool) -> list[tuple[int, str]]:
    """(action number, outcome) per decision, worked out from the kept states: the public lines
    a decision added, and those of the chance outcomes right after it (with `reveal`, also the
    line only the drawer of a blind draw read)."""
    states = game.states
    found: list[tuple[int, list[str]]] = []
    for i, action in enumerate(game.actions):
        before, after = states[i], states[i + 1]
        drawn = reveal and isinstance(action, nr.Drawn)
        lines = [str(e.text) for e in after.log[len(before.log) :] if e.visible_to is None or drawn]
        if action.chance or (action.seat is None and game.rules.slug in ("new-rule", "dangerous-ideas")):
            if found:
                found[-1][1].extend(lines)
            continue
        found.append((i + 1, lines))
    return [(n, " / ".join(lines)) for n, lines in found]


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "dangerous-ideas", "danger-world"])
def test_one_row_per_decision_and_its_outcome_is_the_log(games, slug) -> None:
    game = games[slug]
    rows = decisions_of(game)
    decided = [i for i, a in enumerate(game.actions) if not a.chance]
    assert len(rows) == len(decided) > 10
    assert [r.number - 1 for r in rows] == decided
    assert [(r.number, r.outcome) for r in rows] == expected_outcomes(game, reveal=True)
    assert [(r.number, r.outcome) for r in decisions_of(game, reveal=False)] == expected_outcomes(game, reveal=False)
    names = game.setup.names
    for r in rows:
        action = game.actions[r.number - 1]
        assert r.decision and r.step
        if r.seat is not None:
            assert r.player == names[r.seat]
        if slug != "danger-world":  # Danger World names the character a check is about
            assert r.seat == action.seat


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "dangerous-ideas", "danger-world"])
def test_the_csv_carries_every_row_and_every_name_as_typed(games, slug) -> None:
    game = games[slug]
    found = decisions_of(game)
    text = csv_text(decision_rows(found, table="T1"))
    assert text.startswith("\ufeff")
    back = list(csv.DictReader(io.StringIO(text[1:], newline="")))
    assert len(back) == len(found) and tuple(back[0]) == COLUMNS
    for row, d in zip(back, found):
        assert row["table"] == "T1" and row["step"] == d.step and row["decision"] == d.decision.replace("=SUM", "=SUM")
        assert row["seat"] == ("" if d.seat is None else str(d.seat + 1))
        assert row["player"] == ("'" + d.player if d.player.startswith("=") else d.player)
    players = {row["player"] for row in back}
    assert {n for n in game.setup.names if not n.startswith("=")} <= players
    assert not any(cell.startswith(("=", "+", "@")) for row in back for cell in row.values())


def test_a_blind_draw_and_a_swapped_colour_stay_secret_in_a_public_export(games) -> None:
    game = games["new-rule"]
    full, public = decisions_of(game), decisions_of(game, reveal=False)
    assert [d.number for d in full] == [d.number for d in public]
    assert any(" drew " in d.outcome for d in full) and not any(" drew " in d.outcome for d in public)
    swaps = [i for i, d in enumerate(full) if d.decision.startswith("returns the draw")]
    assert swaps and all(public[i].withheld and "takes a colour in secret" in public[i].decision for i in swaps)
    assert all(f"picks {c}" not in public[i].decision for i in swaps for c in game.setup.colours)
    # The picks were all revealed during the game: a public export of a finished game names them.
    assert [d.decision for d in full if d.decision.startswith("picks")] == [d.decision for d in public if d.decision.startswith("picks")]


def test_a_pick_is_withheld_until_the_reveal() -> None:
    game = Game(nr.RULES, nr.Setup(names=NAMES[:3]), 5)
    while game.state.phase != "pick":
        seat = game.state.turn
        game.apply(nr.Draw(seat=seat) if game.state.phase == "draw" else nr.Keep(seat=seat))
    colour = next(c for c in game.state.colours if game.state.count(0, c))
    game.apply(nr.Pick(seat=0, colour=colour))
    public = decisions_of(game, reveal=False)
    assert public[-1].decision == "picks a colour in secret" and public[-1].withheld
    assert decisions_of(game)[-1].decision == f"picks {colour}"


def test_a_pledge_is_withheld_until_the_reveal_and_an_allocation_in_a_public_export() -> None:
    game = Game(ld.RULES, ld.Setup(names=NAMES, misfortune_by_hand=True), 5)
    game.apply(ld.SetMisfortune(losses=(0,) * 5))
    game.apply(ld.Contribute(seat=0, units=4))
    game.apply(ld.Contribute(seat=1, units=2))
    public = decisions_of(game, reveal=False)
    assert [d.decision for d in public[1:]] == ["pledges in secret"] * 2 and all(d.withheld for d in public[1:])
    assert "4" not in csv_text(decision_rows(public[1:])).split("\r\n", 1)[1].replace("Year 1", "")
    for seat in range(2, 5):
        game.apply(ld.Contribute(seat=seat, units=1))
    revealed = decisions_of(game, reveal=False)
    assert revealed[1].decision == "pledges 4 units to the dyke" and not revealed[1].withheld
    game.apply(ld.Allocate(seat=0, plan=(ld.Assignment(0, "subsistence", 2),)))
    assert decisions_of(game, reveal=False)[-1].decision == "allocates this year's labour"
    assert decisions_of(game)[-1].decision == "allocates 2 subsistence to own household"


def test_the_facilitator_may_keep_leerdams_pledges_out_of_a_full_export(games) -> None:
    game = games["leerdam"]
    kept = decisions_of(game, reveal=True, reveal_pledges=False)
    pledges = [d for d in kept if game.actions[d.number - 1].kind == "contribute"]
    assert pledges and all(d.decision == "pledges in secret" and d.withheld for d in pledges)
    assert any(d.decision.startswith("allocates ") and not d.withheld for d in kept)
    # The board named them at the reveal; kept, not even that line names them.
    assert any(ld.REVEAL_LINE in d.outcome for d in decisions_of(game))
    assert not any(ld.REVEAL_LINE in d.outcome for d in kept + decisions_of(game, reveal=False, reveal_pledges=False))
    assert any("kept out of this export" in d.outcome for d in kept)


def test_an_anonymous_village_names_no_household_before_the_facilitator_shows_them() -> None:
    setup = AnonymousSetup(names=NAMES)
    bots = [lab.BOTS["leerdam"][b] for b in lab.DEFAULT_BOTS["leerdam"]]
    game = play_out(Game(ld.RULES, setup, 3), (bots * 5)[:5], rng_for(3, -1))
    assert game.state.over and not ld.pledges_public(game.setup)
    for kept in (decisions_of(game), decisions_of(game, reveal=False), decisions_of(game, reveal=True, reveal_pledges=False)):
        moves = {game.actions[d.number - 1].kind: d for d in kept}
        assert moves["contribute"].decision == "pledges in secret" and moves["allocate"].decision == "allocates this year's labour"
        assert all(d.withheld for d in kept if game.actions[d.number - 1].kind in ("contribute", "allocate", "gift", "accept"))
        assert not any(ld.REVEAL_LINE in d.outcome for d in kept)
    shown = decisions_of(game, reveal=True, reveal_pledges=True)
    assert any(d.decision.startswith("pledges ") and d.decision != "pledges in secret" for d in shown)
    assert any(d.decision.startswith("allocates ") and not d.withheld for d in shown)
    # Before the end not even the facilitator's choice names them.
    early = Game(ld.RULES, setup, 3, actions=game.actions[:20])
    assert not early.state.over
    assert all(d.decision == "pledges in secret" for d in decisions_of(early, reveal=True, reveal_pledges=True) if early.actions[d.number - 1].kind == "contribute")


def test_dangerous_ideas_decisions_name_places_as_the_players_do(games) -> None:
    """The sheet prints no branch numbers: a decision names a node, a meme or an empty branch."""
    import re

    branch_id = re.compile(r"\b(probe|create|connect|defend)-[123]\b")
    rows = decisions_of(games["dangerous-ideas"])
    assert not [d.decision for d in rows if branch_id.search(d.decision)]
    assert any("on a leaf branch by " in d.decision for d in rows)
