"""The Danger World dashboard, headless: clicks run handlers and `.value` fires observers.

Dice come from the table's seed. Where a test needs particular dice (a lock worth making, a
set, botches), `find_seed` replays the same number of actions on a bare `Game` for seed after
seed and returns the first that gives them: the dashboard, started with that seed, then rolls
exactly those dice (a chance draw depends only on the seed and the action count).
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import html
import io
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets

import widgets.danger_world as dw_widgets
from drawing.danger_world import percent
from rules import Game, load_game
from rules.danger_world import (
    READY_SHEETS,
    RULES,
    STATS,
    BeginCheck,
    Compel,
    CreateCharacter,
    Invocation,
    Lock,
    Reroll,
    Setup,
    State,
    coach,
    difficulty_after,
    success_chance,
)
from tests.support.headless import find, walk
from tests.support.headless import one as the
from tests.support.keys import INDEX
from widgets.danger_world import DangerWorldDashboard

NAMES = ("Wren", "Bo")
GM = "Morgan"
#: Wren of the courtyard: Agility 4, Perception 3 (16 dice).
WREN = (4, 1, 2, 1, 3, 2, 1, 2)
BO = (1, 3, 1, 4, 2, 2, 1, 2)
ASPECTS = ("Cat burglar", "Owes the guild", "Never leaves a friend")


# -- reading the page ---------------------------------------------------------------------------


def html_of(root: widgets.Widget) -> str:
    return "\n".join(w.value for w in walk(root) if isinstance(w, widgets.HTML))


def shown(widget: widgets.Widget) -> bool:
    return widget.layout.display != "none"


def click(root: DangerWorldDashboard, css: str) -> None:
    button = the(root, css)
    assert not button.disabled, f"{css} is disabled"
    button.click()
    assert root.status.kind != "refuse", root.status.message


# -- playing through the widgets ----------------------------------------------------------------


def start(dash: DangerWorldDashboard, names: Sequence[str] = NAMES, seed: int = 1, gm: str = GM, rerolls: int = 2) -> None:
    the(dash, "pb-gm-name").value = gm
    the(dash, "pb-players").value = len(names)
    for i, name in enumerate(names):
        the(dash, f"pb-name-{i}").value = name
    the(dash, "pb-rerolls").value = rerolls
    the(dash, "pb-seed").value = seed
    the(dash, "pb-start").click()
    assert dash.game is not None, dash.status.message


def fill_sheet(dash: DangerWorldDashboard, i: int, stats: Sequence[int], aspects: Sequence[str] = ASPECTS) -> None:
    for stat, value in zip(STATS, stats):
        the(dash, f"pb-stat-{i}-{stat}").value = value
    for k, aspect in enumerate(aspects):
        the(dash, f"pb-aspect-{i}-{k}").value = aspect


def build(dash: DangerWorldDashboard, i: int, stats: Sequence[int], aspects: Sequence[str] = ASPECTS) -> None:
    fill_sheet(dash, i, stats, aspects)
    click(dash, f"pb-sheet-confirm-{i}")
    assert dash.game.state.characters[i].ready


def plan(dash: DangerWorldDashboard, difficulty: int = 3, complications: int = 2, actor: int = 0) -> None:
    """Wren (or `actor`) checks Agility + Perception; nothing else is spent."""
    the(dash, "pb-actor").value = actor
    the(dash, "pb-stat-a").value = "agility"
    the(dash, "pb-stat-b").value = "perception"
    the(dash, "pb-difficulty").value = difficulty
    the(dash, "pb-complications").value = complications


def rolled(dash: DangerWorldDashboard, seed: int) -> None:
    """A table on `seed`: Wren's sheet, the planned check, the roll and the coach's best lock."""
    start(dash, seed=seed)
    build(dash, 0, WREN)
    plan(dash)
    click(dash, "pb-roll")
    click(dash, "pb-coach-best")


def best_new_lock(state: State) -> tuple[int, ...]:
    return tuple(sorted(coach(state)[0][0] - state.check.locked))


def find_seed(wanted: Callable[[State], bool], sheets: int = 1, complications: int = 2, difficulty: int = 3) -> int:
    """The first seed whose check (the first `sheets` sheets, Wren's roll, the coach's best lock,
    a re-roll) ends in `wanted`. The dashboard must apply the same number of actions."""
    for seed in range(2000):
        game = Game(RULES, Setup(names=NAMES, gm=GM), seed)
        for i, stats in enumerate((WREN, BO)[:sheets]):
            game.apply(CreateCharacter(seat=i, character=i, stats=stats, aspects=ASPECTS))
        game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=difficulty, complications=complications))
        lock = best_new_lock(game.state)
        if not lock:
            continue
        game.apply(Lock(seat=0, dice=lock))
        game.apply(Reroll(seat=0))
        if wanted(game.state):
            return seed
    raise AssertionError("no seed in range gives those dice")


def link_text(link: str, mime: str) -> str:
    match = re.search(rf'href="data:{re.escape(mime)};charset=utf-8;base64,([A-Za-z0-9+/=]+)"', link)
    assert match and "download=" in link, link[:200]
    return base64.b64decode(match.group(1)).decode("utf-8-sig")  # CSV links start with a BOM


# -- opening ----------------------------------------------------------------------------------------


def test_opens_on_the_picker_with_the_form(store):
    dash = DangerWorldDashboard(store)
    assert {"playbook-root", "playbook-danger-world"} <= set(dash._dom_classes)
    assert dash.game is None and find(dash, "pb-resume") == []
    for css in ("pb-gm-name", "pb-players", "pb-name-11", "pb-story-points", "pb-pool-start", "pb-rerolls", "pb-danger-resets", "pb-sheet-dice", "pb-seed", "pb-start"):
        assert the(dash, css)
    the(dash, "pb-players").value = 2
    assert [shown(the(dash, f"pb-name-{i}")) for i in (1, 2)] == [True, False]
    assert find(dash, "pb-curtain") == [] and "hidden information" in DangerWorldDashboard.__doc__


def test_a_bad_setup_is_refused_and_saves_nothing(store):
    dash = DangerWorldDashboard(store)
    the(dash, "pb-players").value = 2
    the(dash, "pb-name-1").value = "wren"
    the(dash, "pb-name-0").value = "Wren"
    the(dash, "pb-start").click()
    assert dash.game is None and "same name" in dash.status.message
    the(dash, "pb-name-1").value = "Bo"
    the(dash, "pb-gm-name").value = "  "
    the(dash, "pb-start").click()
    assert dash.game is None and "GM needs a name" in dash.status.message
    assert store.tables() == []


def test_variants_reach_the_setup(store):
    dash = DangerWorldDashboard(store)
    the(dash, "pb-story-points").value = 5
    the(dash, "pb-pool-start").value = 2
    the(dash, "pb-danger-resets").value = False
    the(dash, "pb-sheet-dice").value = 18
    start(dash, rerolls=1)
    setup = dash.game.setup
    assert (setup.gm, setup.names, setup.story_points, setup.pool_start, setup.rerolls, setup.danger_resets, setup.sheet_dice) == (
        GM, NAMES, 5, 2, 1, False, 18
    )
    assert 'data-pool="2"' in the(dash, "pb-sp-pool").value
    assert "of 18" in the(dash, "pb-sheet-count-0").value


# -- the character builder ------------------------------------------------------------------------------


def test_a_sheet_that_does_not_add_up_is_refused_and_changes_nothing(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    assert "Waiting for sheets: Wren and Bo" in the(dash, "pb-turn").value
    assert 'data-total="8"' in the(dash, "pb-sheet-count-0").value  # 1 die in each stat
    fill_sheet(dash, 0, (4, 1, 2, 1, 3, 2, 1, 1))  # 15 dice
    count = the(dash, "pb-sheet-count-0").value
    assert "15 of 16" in count and "1 more to place" in count
    assert "add up to 15 dice" in the(dash, "pb-sheet-verdict-0").value  # the rules' own words, live
    before = (dash.game.state, list(dash.game.actions), len(store.record(dash.table_id)["actions"]))
    the(dash, "pb-sheet-confirm-0").click()
    assert dash.status.kind == "refuse" and "add up to 15 dice" in dash.status.message and "Nothing was changed" in dash.status.message
    assert (dash.game.state, dash.game.actions, len(store.record(dash.table_id)["actions"])) == before
    # Empty aspects are refused too; a full sheet is accepted.
    the(dash, "pb-stat-0-cool").value = 2
    the(dash, "pb-aspect-0-2").value = "   "
    assert "16 of 16" in the(dash, "pb-sheet-count-0").value
    assert "aspect cannot be empty" in the(dash, "pb-sheet-verdict-0").value
    the(dash, "pb-aspect-0-2").value = ASPECTS[2]
    assert "accept" in the(dash, "pb-sheet-verdict-0").value
    click(dash, "pb-sheet-confirm-0")
    wren = dash.game.state.characters[0]
    assert wren.stats == WREN and wren.aspects == ASPECTS
    assert not shown(the(dash, "pb-builder-0")) and shown(the(dash, "pb-builder-1"))
    sheet = the(dash, "pb-sheet-0").value
    assert 'data-ready="1"' in sheet and "Cat burglar" in sheet and "SP 3" in sheet and "zone 1" in sheet
    assert 'data-track="0,0,0,0,0"' in the(dash, "pb-track-0").value
    assert "Waiting for sheets: Bo" in the(dash, "pb-turn").value


def test_confirm_looks_ready_only_for_a_sheet_the_rules_accept(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    confirm = the(dash, "pb-sheet-confirm-0")
    # A blank sheet (8 of 16 dice, no aspects): disabled, not primary, the reason as tooltip.
    assert confirm.disabled and confirm.button_style != "primary" and "add up to 8 dice" in confirm.tooltip
    fill_sheet(dash, 0, (4, 1, 2, 1, 3, 2, 1, 1))  # 15 dice
    assert confirm.disabled and confirm.button_style != "primary" and "add up to 15 dice" in confirm.tooltip
    the(dash, "pb-stat-0-cool").value = 2
    assert not confirm.disabled and confirm.button_style == "primary"
    the(dash, "pb-aspect-0-1").value = ""
    assert confirm.disabled and confirm.button_style != "primary" and "aspect cannot be empty" in confirm.tooltip
    the(dash, "pb-aspect-0-1").value = ASPECTS[1]
    click(dash, "pb-sheet-confirm-0")
    # Editing: an unchanged sheet has nothing to save.
    click(dash, "pb-edit-0")
    confirm = the(dash, "pb-sheet-confirm-0")
    assert confirm.disabled and "nothing has changed" in confirm.tooltip
    the(dash, "pb-aspect-0-0").value = "Roof runner"
    assert not confirm.disabled and confirm.button_style == "primary"


def test_a_sheet_can_be_revised_between_checks(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    click(dash, "pb-edit-0")
    assert shown(the(dash, "pb-builder-0")) and the(dash, "pb-stat-0-agility").value == 4
    assert "nothing has changed" in the(dash, "pb-sheet-verdict-0").value
    the(dash, "pb-stat-0-agility").value = 3
    the(dash, "pb-stat-0-cool").value = 3
    the(dash, "pb-aspect-0-0").value = "Roof runner"
    click(dash, "pb-sheet-confirm-0")
    wren = dash.game.state.characters[0]
    assert wren.stats == (3, 1, 2, 1, 3, 2, 1, 3) and wren.aspects[0] == "Roof runner"
    assert [a.kind for a in dash.game.actions[-2:]] == ["set-stats", "set-aspects"]
    assert not shown(the(dash, "pb-builder-0"))


# -- a check ----------------------------------------------------------------------------------------------


def test_the_check_builder_previews_the_pool_difficulty_and_odds(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    assert [label for label, _ in the(dash, "pb-actor").options] == ["Wren"]  # Bo has no sheet yet
    assert "Bo: Bo has no finished sheet" in html_of(dash)
    plan(dash, difficulty=4, complications=0)
    preview = the(dash, "pb-check-preview").value
    assert 'data-pool="7"' in preview and 'data-penalty="0"' in preview
    assert the(dash, "pb-roll").description == "Roll 7 dice"
    odds = the(dash, "pb-odds").value
    assert percent(success_chance(7, 4, 0, 2)) in odds
    # Modifiers: each +1 or -1; the result is clamped to 2-6 and a net beyond +-1 is flagged.
    for _ in range(3):
        click(dash, "pb-mod-plus")
    result = the(dash, "pb-difficulty-result").value
    assert difficulty_after(4, (1, 1, 1)) == (6, True)
    assert 'data-difficulty="6"' in result and 'data-flagged="1"' in result and "net +3" in result
    click(dash, "pb-mod-clear")
    click(dash, "pb-mod-minus")
    result = the(dash, "pb-difficulty-result").value
    assert 'data-difficulty="3"' in result and "data-flagged" not in result
    # Spending more SP than Wren holds: the rules' refusal, live, and on Roll.
    the(dash, "pb-invoke-0").value = 3
    the(dash, "pb-invoke-1").value = 1
    assert "has 3 story points, not the 4 invoked" in the(dash, "pb-check-preview").value
    actions = len(dash.game.actions)
    the(dash, "pb-roll").click()
    assert dash.status.kind == "refuse" and len(dash.game.actions) == actions
    # Danger dice: 0 up to the zone rank (1 at danger 0).
    assert the(dash, "pb-danger-dice").max == 1


def test_a_check_with_a_lock_a_reroll_a_set_and_a_hit_on_the_track(store):
    seed = find_seed(lambda s: bool(s.check.sets) and s.check.botches >= 2, sheets=2)
    dash = DangerWorldDashboard(store)
    start(dash, seed=seed)
    build(dash, 0, WREN)
    build(dash, 1, BO)
    plan(dash)
    click(dash, "pb-roll")
    state = dash.game.state
    check = state.check
    assert state.phase == "lock" and check.pool == 7 and len(check.penalty_faces) == 2
    assert [b.description for b in dash.die_buttons] == [str(f) for f in check.faces]
    assert all("dw-penalty" in b._dom_classes and b.disabled for b in dash.penalty_buttons)
    assert the(dash, "pb-undo").disabled  # dice were rolled
    # The coach ranks the locks; its best choice is selected by clicking the dice.
    coach_html = the(dash, "pb-coach").value
    lock = best_new_lock(state)
    assert f'data-lock="{",".join(map(str, lock))}"' in coach_html
    assert the(dash, "pb-lock").disabled
    for k in lock:
        the(dash, f"pb-die-{k}").value = True
    assert not the(dash, "pb-lock").disabled and the(dash, "pb-lock").description.startswith(f"Lock {len(lock)}")
    click(dash, "pb-lock")
    assert dash.game.state.check.locked == frozenset(lock)
    assert all("dw-locked" in the(dash, f"pb-die-{k}")._dom_classes for k in lock)
    assert 'data-rerolls-left="2"' in the(dash, "pb-tray-title").value
    click(dash, "pb-reroll")
    check = dash.game.state.check
    assert check.rerolls == 1 and all(check.faces[k] == state.check.faces[k] for k in lock)
    assert 'data-rerolls-left="1"' in the(dash, "pb-tray-title").value
    # The legal sets are offered, labelled with what they bring; take the highest.
    heights = [s.height for s in check.sets]
    assert [b.description.split(":")[0] for b in dash.set_buttons] == [f"Set of {h}" for h in heights]
    assert the(dash, "pb-no-set")
    botches = check.botches
    click(dash, f"pb-set-{heights[-1]}")
    state = dash.game.state
    assert state.phase == "gm" and state.check.result.height == heights[-1]
    outcome = the(dash, "pb-outcome").value
    assert f'data-outcome="{state.check.result.outcome}"' in outcome
    assert f'data-botches="{botches}"' in the(dash, "pb-botches").value
    assert shown(dash.spend_box) and not shown(the(dash, "pb-check-builder"))
    # Only affordable options are enabled; the basket adds up.
    assert the(dash, "pb-gm-target").value == 0
    enabled = {o for o, b in dash.option_buttons.items() if not b.disabled}
    assert enabled == {o for o, cost in dw_widgets.GM_OPTIONS.items() if cost <= botches}
    the(dash, "pb-gm-target").value = 1  # the hit lands on Bo
    the(dash, "pb-gm-note").value = "a guard's club"
    click(dash, "pb-gm-option-reduced")
    assert 'data-cost="2"' in the(dash, "pb-gm-basket").value and "a guard&#x27;s club" in the(dash, "pb-gm-basket").value
    assert "Bo: Bashed 1/3" in the(dash, "pb-gm-preview").value
    assert {o for o, b in dash.option_buttons.items() if not b.disabled} == {o for o, c in dw_widgets.GM_OPTIONS.items() if c <= botches - 2}
    assert 'data-track="0,0,0,0,0"' in the(dash, "pb-track-1").value
    click(dash, "pb-gm-spend")
    state = dash.game.state
    assert state.phase == "table" and state.characters[1].damage == (1, 0, 0, 0, 0)
    track = the(dash, "pb-track-1").value
    assert 'data-track="1,0,0,0,0"' in track and 'data-section="Bashed" data-filled="1"' in track
    assert "Bashed: +1 penalty die" in the(dash, "pb-sheet-1").value
    history = the(dash, "pb-history").value
    assert 'data-check="1"' in history and "a reduced hit on Bo (a guard&#x27;s club)" in history
    link = the(dash, "pb-history-csv").value
    assert base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1)).startswith(b"\xef\xbb\xbf")  # Excel's UTF-8 mark
    rows = list(csv.DictReader(io.StringIO(link_text(link, "text/csv"), newline="")))
    assert len(rows) == 1 and rows[0]["who"] == "Wren" and rows[0]["set"] == str(heights[-1]) and rows[0]["botches"] == str(botches)
    assert "reduced hit" in html.unescape(the(dash, "pb-log").value)
    # Every click was saved at once.
    assert len(store.record(dash.table_id)["actions"]) == len(dash.game.actions)


def test_undo_takes_back_a_lock_but_not_a_roll_and_locks_are_permanent(store):
    seed = find_seed(lambda s: True)
    dash = DangerWorldDashboard(store)
    start(dash, seed=seed)
    build(dash, 0, WREN)
    assert not the(dash, "pb-undo").disabled  # a sheet rolled no dice
    plan(dash)
    click(dash, "pb-roll")
    assert the(dash, "pb-undo").disabled
    lock = best_new_lock(dash.game.state)
    click(dash, "pb-coach-best")
    assert dash._selected == set(lock)
    click(dash, "pb-lock")
    locked = dash.game.state.check.locked
    # A locked die cannot be unlocked: the rules say so, nothing changes.
    the(dash, f"pb-die-{lock[0]}").value = True
    assert dash.status.kind == "refuse" and "may not be unlocked" in dash.status.message
    assert dash.game.state.check.locked == locked and the(dash, f"pb-die-{lock[0]}").value is False
    # The lock itself (no dice rolled) can be taken back.
    assert not the(dash, "pb-undo").disabled
    click(dash, "pb-undo")
    assert dash.game.state.check.locked == frozenset() and dash.game.actions[-1].kind == "roll"
    assert the(dash, "pb-undo").disabled


def test_a_refusal_is_cleared_once_a_later_move_works(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    # a second screen at the table: another facilitator's page (its link)
    other = DangerWorldDashboard(store, query=f"table={dash.table_id}&facilitator={store.info(dash.table_id).meta['facilitator_key']}")
    assert other.role == "facilitator" and other.game.state == dash.game.state
    # A hit on Bo, who has no sheet: the button is off, but a stale page can still press it.
    other.gm_target.value = 1
    assert other.hit_buttons["reduced"].disabled
    other.hit_buttons["reduced"].click()
    assert other.status.kind == "refuse" and "Bo has no finished sheet" in other.status.message
    # Wren's roll on the first screen works; the second screen follows and drops the old refusal.
    plan(dash)
    click(dash, "pb-roll")
    assert other.refresh() is True
    assert other.status.kind != "refuse" and "no finished sheet" not in the(other, "pb-status").value
    # On the same screen too: a refusal, then a move that works.
    dash.act(Lock(seat=0, dice=(99,)))
    assert dash.status.kind == "refuse"
    click(dash, "pb-no-set")
    assert dash.status.kind != "refuse" and the(dash, "pb-status").value == ""


def test_the_gms_penalty_die_on_a_challenge_comes_with_the_next_check(store):
    seed = find_seed(lambda s: s.check.botches >= 1)
    dash = DangerWorldDashboard(store)
    rolled(dash, seed)
    click(dash, "pb-reroll")
    click(dash, "pb-no-set")
    assert dash.game.state.phase == "gm" and the(dash, "pb-gm-target").value == 0
    click(dash, "pb-gm-option-penalty")
    assert "+1 penalty die on the next check" in the(dash, "pb-gm-preview").value
    click(dash, "pb-gm-spend")
    assert dash.game.state.characters[0].challenge == 1
    assert "The GM&#x27;s challenge: +1 penalty die on the next check" in the(dash, "pb-sheet-0").value
    # The next check: the table sees the die in the preview and may remove it.
    plan(dash, complications=0)
    waive = the(dash, "pb-waive")
    assert shown(waive) and waive.max == 1
    preview = the(dash, "pb-check-preview").value
    assert 'data-penalty="1"' in preview and "the GM's challenge 1" in preview
    assert the(dash, "pb-roll").description == "Roll 8 dice"
    waive.value = 1
    assert 'data-penalty="0"' in the(dash, "pb-check-preview").value
    waive.value = 0
    click(dash, "pb-roll")
    state = dash.game.state
    assert state.check.penalty == 1 and len(dash.penalty_buttons) == 1 and state.characters[0].challenge == 0
    click(dash, "pb-no-set")
    if dash.game.state.phase == "gm":
        click(dash, "pb-gm-spend")  # let any botches go
    assert dash.game.state.phase == "table" and not shown(the(dash, "pb-waive"))


def test_rerolls_run_out_and_no_set_fails(store):
    dash = DangerWorldDashboard(store)
    start(dash, rerolls=1)
    build(dash, 0, WREN)
    plan(dash, difficulty=6, complications=0)
    click(dash, "pb-roll")
    assert not the(dash, "pb-reroll").disabled
    click(dash, "pb-reroll")
    assert the(dash, "pb-reroll").disabled and the(dash, "pb-lock").disabled
    assert all(b.disabled for b in dash.die_buttons)
    assert "no re-roll is left" in the(dash, "pb-coach").value.lower()
    botches = dash.game.state.check.botches
    click(dash, "pb-no-set")
    result = dash.game.state.results[-1] if dash.game.state.check is None else dash.game.state.check.result
    assert result.outcome == "failure" and result.botches == botches
    assert 'data-outcome="failure"' in the(dash, "pb-outcome").value


def _bonus_seed() -> int:
    """The first seed whose check in `test_story_points_bonus_pools_and_danger_dice` offers a set
    above its difficulty (2), so that it wins a bonus pool."""
    invoke, compel = Invocation(aspect=0, sp=2), Compel(aspect=1, sp=1)
    for seed in range(2000):
        game = Game(RULES, Setup(names=NAMES, gm=GM, pool_start=2, rerolls=0), seed)
        for i, stats in enumerate((WREN, BO)):
            game.apply(CreateCharacter(seat=i, character=i, stats=stats, aspects=ASPECTS))
        game.apply(BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=2, invocations=(invoke,), compels=(compel,), danger=1, complications=0))
        if any(s.height > 2 for s in game.state.check.sets):
            return seed
    raise AssertionError("no seed in range gives a set above the difficulty")


def test_story_points_bonus_pools_and_danger_dice(store):
    dash = DangerWorldDashboard(store)
    the(dash, "pb-pool-start").value = 2
    start(dash, seed=_bonus_seed(), rerolls=0)
    build(dash, 0, WREN)
    build(dash, 1, BO)
    plan(dash, difficulty=2, complications=0)
    the(dash, "pb-invoke-0").value = 2
    the(dash, "pb-compel-1").value = 1
    the(dash, "pb-danger-dice").value = 1
    preview = the(dash, "pb-check-preview").value
    assert 'data-pool="10"' in preview and 'data-penalty="1"' in preview  # 7 + 2 invoked + 1 danger; 1 compelled
    click(dash, "pb-roll")
    state = dash.game.state
    assert (state.characters[0].sp, state.pool) == (3 - 2 + 1, 2 + 2 - 1)
    assert [("dw-danger" in b._dom_classes) for b in dash.die_buttons] == [False] * 9 + [True]
    assert 'data-pool="3"' in the(dash, "pb-sp-pool").value
    # The highest set beats the difficulty: its benefit is a bonus pool of H - 2 dice, shown on
    # the sheet and offered (one box) in the next check's builder.
    height = max(s.height for s in state.check.sets)
    assert not find(dash, "pb-bonus-0")
    click(dash, f"pb-set-{height}")
    if dash.game.state.phase == "gm":
        click(dash, "pb-gm-spend")  # the GM lets the botches go
    assert [pool.dice for pool in dash.game.state.characters[0].bonus] == [height - 2]
    assert "Bonus pools" in the(dash, "pb-sheet-0").value
    the(dash, "pb-actor").value = 0
    assert len(find(dash, "pb-bonus-0")) == 1 and not find(dash, "pb-bonus-1")
    the(dash, "pb-bonus-0").value = True
    assert f'data-pool="{7 + height - 2}"' in the(dash, "pb-check-preview").value


def test_hits_between_checks_fill_the_track_and_rests_clear_it(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    build(dash, 1, BO)
    assert shown(dash.between_box) and not shown(dash.spend_box)
    the(dash, "pb-gm-target").value = 0
    click(dash, "pb-hit-full")
    click(dash, "pb-hit-overload")
    # Zone 1: a full hit fills Bashed 1; an overload hit fills the next box and every box to its left.
    assert dash.game.state.characters[0].damage == (2, 0, 0, 0, 0)
    click(dash, "pb-hit-reduced")
    assert 'data-track="3,0,0,0,0"' in the(dash, "pb-track-0").value
    click(dash, "pb-hit-reduced")
    assert 'data-track="3,1,0,0,0"' in the(dash, "pb-track-0").value
    assert "Stunned: -1 pool die" in the(dash, "pb-sheet-0").value
    assert dash.game.state.characters[0].lost_dice == 1
    click(dash, "pb-short-rest")
    assert 'data-track="0,0,0,0,0"' in the(dash, "pb-track-0").value
    assert "Encounter 2" in the(dash, "pb-round").value
    click(dash, "pb-new-session")
    assert "Session 2" in the(dash, "pb-round").value
    assert not the(dash, "pb-long-rest").disabled and not the(dash, "pb-end-encounter").disabled


# -- saving, resuming, escaping ------------------------------------------------------------------------


def test_a_second_dashboard_resumes_the_identical_table(store):
    seed = find_seed(lambda s: s.check.botches >= 1)
    first = DangerWorldDashboard(store)
    rolled(first, seed)
    click(first, "pb-lock")
    click(first, "pb-reroll")
    second = DangerWorldDashboard(store, query=INDEX)  # the server key: the index lists the tables
    (button,) = find(second, "pb-resume")
    assert button.table_id == first.table_id
    button.click()
    assert second.game.actions == first.game.actions
    assert second.game.state == first.game.state
    for css in ("pb-tray-title", "pb-coach", "pb-odds", "pb-sheet-0", "pb-track-0", "pb-log"):
        assert the(second, css).value == the(first, css).value, css
    assert [b.description for b in second.die_buttons] == [b.description for b in first.die_buttons]
    # The save file is always offered (nothing is secret) and loads to the same state.
    assert load_game(link_text(the(second, "pb-download").value, "application/json")).state == first.game.state


def test_a_failure_inside_the_rules_leaves_the_saved_table_as_it_was(store, monkeypatch):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    before = (dash.game.state, list(dash.game.actions))

    def broken(state, action):
        raise IndexError("tuple index out of range")

    # The store decides every change with its own copy of the table: break that copy's rules.
    monkeypatch.setattr(store._cache[dash.table_id].game, "rules", dataclasses.replace(RULES, play=broken))
    the(dash, "pb-gm-target").value = 0
    the(dash, "pb-hit-reduced").click()
    assert dash.status.kind == "refuse" and "rules engine failed on apply-hit" in dash.status.message
    assert (dash.game.state, dash.game.actions) == before and dash.game.rules is RULES
    click(dash, "pb-hit-reduced")  # the table goes on
    assert dash.game.state.characters[0].damage == (1, 0, 0, 0, 0)


def test_a_bad_upload_changes_nothing(store):
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    before = dash.game.state
    dash.load_file(b"{not json", "broken.json")
    assert dash.status.kind == "refuse" and dash.game.state == before


def test_user_text_is_escaped_in_html(store):
    names = ("<script>alert(1)</script>", "Bo & Co", "Cy 🐉")
    dash = DangerWorldDashboard(store)
    start(dash, names=names, gm="GM <b>&</b>")
    aspects = ("<img src=x onerror=alert(1)>", "Salt & pepper", "Dragon-born 🐉")
    build(dash, 0, WREN, aspects)
    plan(dash, complications=0)
    click(dash, "pb-roll")
    values = html_of(dash)
    assert "<script>" not in values and "&lt;script&gt;alert(1)&lt;/script&gt;" in values
    assert "<img src=x" not in values and "&lt;img src=x onerror=alert(1)&gt;" in values
    assert "Bo & Co" not in values and "Bo &amp; Co" in values and "Salt &amp; pepper" in values
    assert "Cy 🐉" in values and "Dragon-born 🐉" in values
    assert "GM <b>" not in values and "GM &lt;b&gt;&amp;&lt;/b&gt;" in values
    assert load_game(link_text(the(dash, "pb-download").value, "application/json")).setup.names == names
    lobby = DangerWorldDashboard(store, query=INDEX)
    assert "<script>" not in html_of(lobby) and "&lt;script&gt;" in html_of(lobby)


def test_the_module_docstring_lists_the_stable_classes(store):
    documented = dw_widgets.__doc__
    required = ["pb-gm-name", "pb-name-<i>", "pb-players", "pb-seed", "pb-start", "pb-resume", "pb-stat-<i>-<stat>", "pb-aspect-<i>-<k>", "pb-sheet-confirm-<i>", "pb-sheet-<i>", "pb-track-<i>", "pb-actor", "pb-stat-a", "pb-stat-b", "pb-difficulty", "pb-mod-plus", "pb-mod-minus", "pb-invoke-<k>", "pb-compel-<k>", "pb-bonus", "pb-danger-dice", "pb-complications", "pb-waive", "pb-roll", "pb-die-<k>", "pb-lock", "pb-reroll", "pb-set-<height>", "pb-no-set", "pb-coach", "pb-odds", "pb-outcome", "pb-botches", "pb-gm-option-<option>", "pb-gm-target", "pb-gm-spend", "pb-short-rest", "pb-long-rest", "pb-end-encounter", "pb-history", "pb-undo", "pb-download", "pb-upload", "pb-status", "pb-odds-grid", "pb-board-party"]
    missing = [c for c in required if f"``{c}``" not in documented]
    assert not missing
    dash = DangerWorldDashboard(store)
    start(dash)
    build(dash, 0, WREN)
    for css in ("pb-sheet-0", "pb-track-0", "pb-actor", "pb-stat-a", "pb-stat-b", "pb-difficulty", "pb-mod-plus", "pb-invoke-0", "pb-compel-2",
                "pb-bonus", "pb-danger-dice", "pb-complications", "pb-roll", "pb-lock", "pb-reroll", "pb-coach", "pb-odds",
                "pb-outcome", "pb-botches", "pb-gm-option-full", "pb-gm-target", "pb-gm-spend", "pb-short-rest", "pb-long-rest",
                "pb-end-encounter", "pb-new-session", "pb-history", "pb-sp-pool"):  # fmt: skip
        assert the(dash, css)
    plan(dash)
    click(dash, "pb-roll")
    assert the(dash, "pb-no-set") and the(dash, "pb-die-0") and the(dash, "pb-tray")


# -- characters without 33 fields -------------------------------------------------------------------


def test_three_quick_characters_take_one_click_and_stay_editable(store):
    dash = DangerWorldDashboard(store)
    start(dash, names=("Wren", "Ash", "Juno"))
    assert dash.game.state.waiting_for() == (0, 1, 2)
    assert shown(the(dash, "pb-quick-all"))
    # Sheets first while they are written.
    assert dash.table_box.children.index(dash.party_box) < dash.table_box.children.index(dash.checks_row)
    click(dash, "pb-quick-all")
    state = dash.game.state
    assert all(c.ready for c in state.characters) and state.waiting_for() == ()
    assert all(sum(c.stats) == 16 and max(c.stats) <= 4 and min(c.stats) >= 1 and len(set(c.aspects)) == 3 for c in state.characters)
    # Then the check builder and the dice tray come first: no scrolling past every sheet.
    assert dash.table_box.children.index(dash.checks_row) < dash.table_box.children.index(dash.party_box)
    assert not shown(the(dash, "pb-quick-all"))
    click(dash, "pb-edit-1")
    assert shown(the(dash, "pb-builder-1")) and the(dash, "pb-stat-1-agility").value == state.characters[1].stats[0]


def test_one_quick_character_and_one_ready_made_one(store):
    dash = DangerWorldDashboard(store)
    start(dash, names=("Wren", "Ash"))
    click(dash, "pb-quick-0")
    assert dash.game.state.characters[0].ready and not dash.game.state.characters[1].ready
    ready = the(dash, "pb-ready-1")
    labels = [label for label, _ in ready.options]
    assert "Wren, the cat burglar" in labels and len(labels) == len(READY_SHEETS) + 1
    ready.value = labels.index("Brick, the bruiser") - 1
    assert the(dash, "pb-stat-1-strength").value == 4 and the(dash, "pb-aspect-1-0").value == "Built like a barn door"
    assert ready.value == -1 and not dash.game.state.characters[1].ready  # put in the builder, not saved yet
    the(dash, "pb-aspect-1-2").value = "Sings when nervous"  # editable before it is saved
    click(dash, "pb-sheet-confirm-1")
    assert dash.game.state.characters[1].aspects == ("Built like a barn door", "Hot-headed", "Sings when nervous")
