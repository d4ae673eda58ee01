"""The Dangerous Ideas dashboard, headless: clicks run handlers and `.value` fires observers."""

from __future__ import annotations

import base64
import re

import ipywidgets as widgets
import pytest

from drawing.dangerous_ideas import sheet_svg
from rules import load_game
from rules.dangerous_ideas import Place, State, success_chance
from tests.support.dangerous_ideas_page import ANA, BO, CY, MEMES, NAMES, click, place_starting_stones, setting_round, start, to_first_turn, write
from tests.support.headless import find, one, walk
from tests.support.keys import INDEX
from widgets.dangerous_ideas import DangerousIdeasDashboard

#: seeds whose dice make the scripted meme action succeed, and fail.
SUCCESS_SEED, FAILURE_SEED = 1, 2


def html_values(root: widgets.Widget) -> str:
    return "\n".join(w.value for w in walk(root) if isinstance(w, widgets.HTML))


def pool(dash: DangerousIdeasDashboard) -> int:
    match = re.search(r'data-pool="(\d+)"', one(dash, "pb-pool").value)
    assert match, one(dash, "pb-pool").value
    return int(match.group(1))


def announce_create(dash: DangerousIdeasDashboard, text: str = "Bears like honey", holder: str = "Goldilocks") -> None:
    """Bo places the turn's stones on Create and announces a Create."""
    one(dash, "pb-place-create").value = 2
    click(dash, "pb-place-confirm")
    click(dash, "pb-create")
    one(dash, "pb-meme-text").value = text
    one(dash, "pb-meme-holder").value = holder
    click(dash, "pb-announce")
    assert dash.game.state.phase == "stake"


# -- opening ------------------------------------------------------------------------------


def test_opens_on_the_picker_with_the_new_game_form(store):
    dash = DangerousIdeasDashboard(store)
    assert {"playbook-root", "playbook-dangerous-ideas"} <= set(dash._dom_classes)
    assert dash.game is None and find(dash, "pb-resume") == []
    for css in (
        "pb-players",
        "pb-name-9",
        "pb-kind-9",
        "pb-story-name",
        "pb-seeds",
        "pb-chapters",
        "pb-start-stones",
        "pb-layout",
        "pb-seed",
        "pb-start",
    ):
        assert one(dash, css)
    assert one(dash, "pb-undo").disabled


def test_a_bad_setup_is_refused_and_saves_nothing(store):
    dash = DangerousIdeasDashboard(store)
    for hub in ("probe", "create", "connect", "defend"):
        one(dash, f"pb-layout-{hub}").value = ("leaf", "leaf", "leaf")
    one(dash, "pb-start").click()
    assert dash.game is None and "coiled" in dash.status.message
    assert store.tables() == []


# -- setup, the setting round and a full meme action by clicks ------------------------------


def test_setup_and_setting_round_by_clicks(store):
    dash = DangerousIdeasDashboard(store)
    start(dash)
    assert "Retelling" not in one(dash, "pb-title").value and "Goldilocks and the Three Bears" in one(dash, "pb-title").value
    # The stepper counts down and Confirm waits for exactly 7.
    one(dash, "pb-place-think").value = 5
    assert "2 of 7 still to place" in one(dash, "pb-place-left").value and one(dash, "pb-place-confirm").disabled
    one(dash, "pb-place-create").value = 3
    assert "1 too many" in one(dash, "pb-place-left").value and one(dash, "pb-place-confirm").disabled
    one(dash, "pb-place-think").value = 0
    one(dash, "pb-place-create").value = 0
    place_starting_stones(dash)
    state = dash.game.state
    assert all(sheet.node("think") == 3 and sheet.node("create") == 2 for sheet in state.sheets)
    # The setting round: after a leaf meme only coiled branches are offered.
    write(dash, "The woods need telegraph wires", "Goldilocks", "Once upon a time...", leaf=True)
    assert all("coiled" in label for label, _ in one(dash, "pb-write-branch").options)
    write(dash, "Humans will own the forest", "Goldilocks")
    assert dash.game.state.turn == BO
    for seat in (BO, CY):
        (leaf, lh), (coiled, ch) = MEMES[seat]
        write(dash, leaf, lh, leaf=True)
        write(dash, coiled, ch)
    state = dash.game.state
    assert state.phase == "title" and all(sheet.filled == 2 for sheet in state.sheets)
    assert "Humans will own the forest" in one(dash, "pb-sheet-0").value
    characters = one(dash, "pb-characters").value
    assert "Goldilocks" in characters and "Baby Bear" in characters
    assert "Once upon a time..." in one(dash, "pb-story").value
    assert store.record(dash.table_id)["actions"][-1]["kind"] == "write"


@pytest.mark.parametrize(("seed", "succeeds"), [(SUCCESS_SEED, True), (FAILURE_SEED, False)])
def test_a_meme_action_with_a_connector_and_a_defender(store, seed, succeeds):
    dash = DangerousIdeasDashboard(store)
    start(dash, seed=seed)
    to_first_turn(dash)
    announce_create(dash)
    seeds = dash.game.state.sheets[BO].seeds
    assert pool(dash) == 0

    # Phase 1: the pool preview follows the steppers before anything is staked.
    one(dash, "pb-stake-node").value = 4
    assert "→ <b>4</b>" in one(dash, "pb-pool").value and pool(dash) == 0
    assert f'data-chance="{success_chance(4, seeds)}"' in one(dash, "pb-odds").value
    one(dash, "pb-stake-node").value = 1
    one(dash, "pb-stake-think").value = 2
    assert "Think gives up to as many" in one(dash, "pb-stake-why").value
    assert one(dash, "pb-stake-confirm").disabled and "→" not in one(dash, "pb-pool").value
    one(dash, "pb-stake-node").value = 4
    bonus = one(dash, "pb-stake-create-1-bonus") if find(dash, "pb-stake-create-1-bonus") else None
    one(dash, "pb-narration").value = "Bo wonders aloud about honey."
    click(dash, "pb-stake-confirm")
    assert pool(dash) == 6 and dash.game.state.phase == "stake"
    assert one(dash, "pb-narration").value == ""  # it went with the stake
    click(dash, "pb-pass")
    assert dash.game.state.phase == "respond"
    assert bonus is None or bonus.comm is None  # the old controls are closed

    # Phase 2: Cy (left of Bo) is asked first and connects; only Connect's sources are offered.
    assert one(dash, f"pb-responder-{CY}").button_style == "info"
    click(dash, "pb-connect")
    one(dash, "pb-stake-node").value = 1
    assert "→ <b>7</b>" in one(dash, "pb-pool").value
    offered = [c[len("pb-stake-") : -len("-bonus")] for w in walk(one(dash, "pb-controls")) for c in w._dom_classes if c.endswith("-bonus")]
    assert offered and all(dash.game.state.setup.branch_type(b) == "coiled" for b in offered)
    one(dash, "pb-narration").value = "Cy's Baby Bear agrees."
    click(dash, "pb-stake-confirm")
    assert pool(dash) == 7
    assert dash.game.state.attempt.sides[CY] == "connect"

    # Ana defends: her leaf meme's bonus stone and one stone from Defend.
    assert one(dash, f"pb-responder-{ANA}").button_style == "info"
    click(dash, "pb-defend")
    leaf_branch = next(b for b, _ in dash.game.state.sheets[ANA].memes() if dash.game.state.setup.branch_type(b) == "leaf")
    one(dash, f"pb-stake-{leaf_branch}-bonus").value = True
    assert "→ <b>6</b>" in one(dash, "pb-pool").value
    one(dash, "pb-stake-node").value = 1
    assert "→ <b>5</b>" in one(dash, "pb-pool").value
    assert f'data-chance="{success_chance(5, seeds)}"' in one(dash, "pb-odds").value
    one(dash, "pb-narration").value = "Ana's Goldilocks scoffs."
    click(dash, "pb-stake-confirm")
    assert pool(dash) == 5 and dash.game.state.attempt.pools == (6, 7, 5)
    # Cy, having connected, may not defend as well.
    one(dash, f"pb-responder-{CY}").click()
    assert one(dash, "pb-defend").disabled

    # Everyone else passes: the dice roll, seeds may re-roll, the actor concludes.
    click(dash, "pb-all-pass")
    state = dash.game.state
    assert state.phase in ("reroll", "outcome") and len(state.attempt.dice) == 2
    assert "di-die" in one(dash, "pb-dice").value
    if state.phase == "reroll":
        assert one(dash, "pb-seed-advice").value
        click(dash, "pb-seed-all-pass")
    state = dash.game.state
    assert state.phase == "outcome"
    think_before = state.sheets[CY].node("think")
    filled_before = state.sheets[BO].filled
    if state.attempt.success:
        one(dash, "pb-conclude-branch").value = "create-3"
    one(dash, "pb-narration").value = "And Goldilocks thought about honey all day."
    click(dash, "pb-conclude")
    state = dash.game.state
    outcome = state.outcomes[-1]
    assert outcome.success == succeeds, outcome
    assert state.phase == "turn" and outcome.pools == (6, 7, 5) and outcome.connected == (CY,) and outcome.defended == (ANA,)
    shown = one(dash, "pb-outcome").value
    if outcome.success:
        assert state.sheets[BO].meme("create-3").text == "Bears like honey"
        assert state.sheets[BO].filled == filled_before + 1
        assert state.sheets[CY].node("think") == think_before + 2
        assert "Success" in shown and "+2 stones on Think" in shown and "Bears like honey" in one(dash, "pb-sheet-1").value
    else:
        assert state.sheets[BO].filled == filled_before
        assert state.sheets[CY].node("think") == think_before
        assert "Failed" in shown
    # Every narration went into the story, in order.
    story = one(dash, "pb-story").value
    said = [
        "Bo wonders aloud about honey.",
        "Cy&#x27;s Baby Bear agrees.",
        "Ana&#x27;s Goldilocks scoffs.",
        "And Goldilocks thought about honey all day.",
    ]
    assert all(line in story for line in said)
    assert [story.index(line) for line in said] == sorted(story.index(line) for line in said)
    assert "Chapter 1: In Which Goldilocks Wanders Into The Woods" in story
    assert store.record(dash.table_id)["actions"][-1]["kind"] == "conclude"


def test_the_turn_menu_offers_only_legal_actions(store):
    dash = DangerousIdeasDashboard(store)
    start(dash)
    to_first_turn(dash)
    one(dash, "pb-place-think").value = 1
    one(dash, "pb-place-create").value = 1
    click(dash, "pb-place-confirm")
    assert one(dash, "pb-plot-unfinished").disabled  # Bo did not start Chapter 1
    # Gain 3 on Think and a branch.
    click(dash, "pb-gain")
    one(dash, "pb-place-think").value = 2
    leaf = next(b for b, _ in dash.game.state.sheets[BO].memes())
    one(dash, f"pb-place-{leaf}").value = 1
    click(dash, "pb-place-confirm")
    sheet = dash.game.state.sheets[BO]
    assert sheet.node("think") == 6 and sheet.meme(leaf).stones == 2
    # A Move: Think -> Probe twice over, then the branch's stones to its hub.
    click(dash, "pb-move")
    assert "think" in [v for _, v in one(dash, "pb-move-source").options]
    assert one(dash, "pb-move-confirm").disabled
    one(dash, "pb-move-source").value = "think"
    one(dash, "pb-move-target").value = "probe"
    one(dash, "pb-move-stones").value = 2
    click(dash, "pb-move-add")
    one(dash, "pb-move-source").value = leaf
    assert [v for _, v in one(dash, "pb-move-target").options] == [leaf.split("-")[0]]
    assert one(dash, "pb-move-stones").max == 2
    click(dash, "pb-move-add")
    assert "2 Think → Probe" in one(dash, "pb-move-steps").value
    click(dash, "pb-move-confirm")
    sheet = dash.game.state.sheets[BO]
    assert sheet.node("think") == 4 and sheet.meme(leaf).stones == 0
    # Both actions used: only End turn is left.
    assert all(one(dash, css).disabled for css in ("pb-gain", "pb-move", "pb-create", "pb-spread"))
    click(dash, "pb-end-turn")
    assert dash.game.state.turn == CY


def test_a_spread_can_name_only_a_legal_replace_target(store):
    dash = DangerousIdeasDashboard(store)
    start(dash)
    to_first_turn(dash)
    one(dash, "pb-place-think").value = 2
    click(dash, "pb-place-confirm")
    click(dash, "pb-spread")
    one(dash, "pb-meme-text").value = "Porridge is healthy"
    one(dash, "pb-meme-holder").value = "Goldilocks"
    labels = [label for label, _ in one(dash, "pb-replace-target").options]
    # Goldilocks holds two of Ana's memes; Bo's own memes are never targets.
    assert labels[0] == "no replacement" and len(labels) == 3 and all(label.startswith("Ana's") for label in labels[1:])
    one(dash, "pb-replace-target").value = labels[1]
    click(dash, "pb-announce")
    attempt = dash.game.state.attempt
    assert attempt.kind == "spread" and attempt.target is not None and attempt.target.seat == ANA
    assert "replacing Ana" in one(dash, "pb-attempt").value
    # Probe is empty, so the stake comes from memes: the spread meme itself may be involved.
    assert one(dash, "pb-stake-node").disabled
    porridge = next(b for b, m in dash.game.state.sheets[BO].memes() if m.text == "Porridge is healthy")
    assert dash.game.state.setup.branch_type(porridge) == "coiled"
    one(dash, f"pb-stake-{porridge}-bonus").value = True
    assert "→ <b>1</b>" in one(dash, "pb-pool").value


# -- refusals, undo, resume, save files ----------------------------------------------------------


def test_a_refused_action_shows_why_and_changes_nothing(store):
    dash = DangerousIdeasDashboard(store)
    start(dash)
    to_first_turn(dash)
    one(dash, "pb-place-create").value = 2
    click(dash, "pb-place-confirm")
    click(dash, "pb-create")
    one(dash, "pb-meme-text").value = "bears are   FRIENDS, not food"  # already on Bo's sheet
    one(dash, "pb-meme-holder").value = "Papa Bear"
    announce = one(dash, "pb-announce")
    assert announce.disabled and "spread it instead" in one(dash, "pb-meme-why").value
    before = (dash.game.state, list(dash.game.actions), len(store.record(dash.table_id)["actions"]))
    announce.click()  # a disabled button clicked anyway (a stale page): the rules refuse
    assert dash.status.kind == "refuse" and "spread it instead" in one(dash, "pb-status").value
    assert (dash.game.state, dash.game.actions, len(store.record(dash.table_id)["actions"])) == before
    assert not dash.act(Place(seat=ANA, place=("think",) * 7))
    assert "not possible now" in dash.status.message and dash.game.state == before[0]


def test_undo_takes_back_a_move_but_not_the_dice(store):
    dash = DangerousIdeasDashboard(store)
    start(dash)
    undo = one(dash, "pb-undo")
    assert undo.disabled
    place_starting_stones(dash)
    assert not undo.disabled
    before = dash.game.state
    write(dash, "The woods need telegraph wires", "Goldilocks", leaf=True)
    undo.click()
    assert dash.game.state == before and dash.status.kind == "ok"
    assert len(store.record(dash.table_id)["actions"]) == len(dash.game.actions)
    setting_round(dash)
    one(dash, "pb-title-text").value = "A chapter"
    click(dash, "pb-title-confirm")
    announce_create(dash)
    one(dash, "pb-stake-node").value = 1
    click(dash, "pb-stake-confirm")
    click(dash, "pb-pass")
    click(dash, "pb-all-pass")
    assert one(dash, "pb-undo").disabled and "chance" in one(dash, "pb-undo").tooltip


def test_a_second_dashboard_resumes_the_identical_state(store):
    first = DangerousIdeasDashboard(store)
    start(first, bots={CY: "sensible"}, story="Puss in Boots")
    place_starting_stones(first)
    for seat in (ANA, BO):
        (leaf, lh), (coiled, ch) = MEMES[seat]
        write(first, leaf, lh, f"{NAMES[seat]} narrates.", leaf=True)
        write(first, coiled, ch)
    one(first, "pb-title-text").value = "In Which The Cat Gets Boots"
    click(first, "pb-title-confirm")
    announce_create(first)
    one(first, "pb-stake-node").value = 2
    click(first, "pb-stake-confirm")
    click(first, "pb-pass")
    assert first.game.state.phase == "respond"

    second = DangerousIdeasDashboard(store, query=INDEX)  # the server key: the index lists the tables
    (button,) = find(second, "pb-resume")
    assert button.table_id == first.table_id
    button.click()
    assert second.game.actions == first.game.actions and second.game.state == first.game.state
    assert second.bots == {CY: "sensible"} and second.story == "Puss in Boots"
    assert "Puss in Boots" in one(second, "pb-title").value
    assert one(second, "pb-story").value == one(first, "pb-story").value
    assert one(second, "pb-pool").value == one(first, "pb-pool").value
    assert [one(second, f"pb-sheet-{s}").value for s in range(3)] == [one(first, f"pb-sheet-{s}").value for s in range(3)]


def download_text(dash: DangerousIdeasDashboard) -> str:
    one(dash, "pb-save-file").click()
    link = one(dash, "pb-download").value
    match = re.search(r'href="data:application/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)"', link)
    assert match and "keep it from the players" not in link  # nothing is secret in this game
    return base64.b64decode(match.group(1)).decode("utf-8")


# -- escaping and the story -----------------------------------------------------------------------


def test_names_memes_and_narration_are_escaped(store):
    names = ("<script>alert(1)</script>", "Bo & Co", "Cy 🐻")
    dash = DangerousIdeasDashboard(store)
    start(dash, names=names, story="<i>Goldi</i> & the 🐻🐻🐻")
    place_starting_stones(dash)
    write(dash, "<b>Honey</b> & jam 🍯", "<img src=x onerror=alert(2)>", "She said <script>x()</script> & left 🌲", leaf=True)
    text = html_values(dash)
    for raw in ("<script>", "<b>Honey</b>", "<img src=x", "<i>Goldi</i>", "Bo & Co"):
        assert raw not in text, raw
    for escaped in (
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&lt;b&gt;Honey&lt;/b&gt; &amp; jam 🍯",
        "&lt;img src=x onerror=alert(2)&gt;",
        "&lt;i&gt;Goldi&lt;/i&gt; &amp; the 🐻🐻🐻",
        "Bo &amp; Co",
        "Cy 🐻",
        "She said &lt;script&gt;x()&lt;/script&gt; &amp; left 🌲",
    ):
        assert escaped in text, escaped
    assert "&lt;b&gt;Honey&lt;/b&gt;" in sheet_svg(dash.game.state, 0)
    game = load_game(download_text(dash))
    assert game.setup.names == names and game.state == dash.game.state
    listed = html_values(DangerousIdeasDashboard(store, query=INDEX))
    assert "<script>" not in listed and "&lt;script&gt;" in listed


# -- bots -------------------------------------------------------------------------------------------


def test_a_bot_filled_game_runs_to_the_end(store):
    dash = DangerousIdeasDashboard(store)
    start(dash, names=("Sage", "Rogue", "Muse"), bots={0: "sensible", 1: "random", 2: "sensible"}, chapters=1)
    state: State = dash.game.state
    assert state.over and state.outcomes
    assert "The story ends" in one(dash, "pb-actor").value
    table = one(dash, "pb-standings").value
    assert "Rank" in table and "Sage" in table and "Groups" in table
    assert "Game over" in one(dash, "pb-turn").value
    assert "base64" in one(dash, "pb-download").value
    assert store.tables(game="dangerous-ideas", unfinished=True) == []
    assert "Chapter 1" in one(dash, "pb-story").value


def test_a_bot_answers_a_human_meme_action(store):
    dash = DangerousIdeasDashboard(store)
    start(dash, bots={ANA: "sensible", CY: "random"})
    place_starting_stones(dash)
    (leaf, lh), (coiled, ch) = MEMES[BO]
    write(dash, leaf, lh, leaf=True)
    write(dash, coiled, ch)
    # The bot that starts Chapter 1 titled it; Bo's turn waits for Bo.
    assert dash.game.state.phase == "turn-start" and dash.game.state.turn == BO
    announce_create(dash)
    one(dash, "pb-stake-node").value = 4
    click(dash, "pb-stake-confirm")
    click(dash, "pb-pass")
    # The bots answered at once; only Bo is asked now.
    assert dash.game.state.waiting_for() == (BO,)
    assert [w._dom_classes[0] for w in walk(one(dash, "pb-controls")) if any(c.startswith("pb-responder-") for c in w._dom_classes)] == [
        "pb-responder-1"
    ]
    click(dash, "pb-pass")
    assert dash.game.state.phase in ("reroll", "outcome", "turn")


def test_table_dice_are_typed_in_and_a_seed_reroll_too(store):
    dash = DangerousIdeasDashboard(store)
    start(dash, table_dice=True)
    to_first_turn(dash)
    announce_create(dash)
    one(dash, "pb-stake-node").value = 2
    click(dash, "pb-stake-confirm")
    click(dash, "pb-pass")
    click(dash, "pb-all-pass")
    assert dash.game.state.phase == "roll"  # the playbook does not roll: the table does
    one(dash, "pb-table-die-0").value = 3
    one(dash, "pb-table-die-1").value = 6
    click(dash, "pb-table-dice-enter")
    state = dash.game.state
    assert state.phase == "reroll" and state.attempt.dice == (3, 6)
    click(dash, "pb-seed-die-1")
    assert dash.game.state.phase == "rerolling"
    one(dash, "pb-table-die-0").value = 2
    click(dash, "pb-table-dice-enter")
    assert dash.game.state.attempt.dice == (3, 2)
    record = store.record(dash.table_id)
    assert [a["kind"] for a in record["actions"] if a.get("by_hand")] == ["roll", "rerolled"]


def test_a_red_seed_rerolls_one_die(store):
    dash = DangerousIdeasDashboard(store)
    start(dash, seed=FAILURE_SEED)
    to_first_turn(dash)
    announce_create(dash)
    one(dash, "pb-stake-node").value = 2
    click(dash, "pb-stake-confirm")
    click(dash, "pb-pass")
    click(dash, "pb-all-pass")
    state = dash.game.state
    assert state.phase == "reroll"
    first = state.attempt.dice
    # The actor is asked first; the advice names a die (or says the roll already succeeds).
    assert one(dash, f"pb-seed-seat-{BO}").button_style == "info"
    assert "re-roll die" in one(dash, "pb-seed-advice").value or "succeeds as it stands" in one(dash, "pb-seed-advice").value
    click(dash, "pb-seed-die-1")
    state = dash.game.state
    assert state.sheets[BO].seeds == 2 and state.attempt.first_dice == first and state.attempt.dice[0] == first[0]
    assert state.phase == "reroll"  # everyone holding seeds decides again
    # Cy lets it stand by choice; then everyone else does.
    one(dash, f"pb-seed-seat-{CY}").click()
    click(dash, "pb-seed-pass")
    assert dash.game.state.attempt.passed[CY]
    click(dash, "pb-seed-all-pass")
    assert dash.game.state.phase == "outcome"
    assert any("crosses off a red seed" in line for line in (str(e.text) for e in dash.game.state.log))


# -- the players' words ------------------------------------------------------------------------------

#: the model's branch names ("probe-1"): never shown to a player.
BRANCH_ID = re.compile(r"\b(probe|create|connect|defend)-[123]\b")


def shown_text(root: widgets.Widget) -> str:
    """What a person reads or hovers: HTML text (tags and attributes dropped, tooltips kept),
    labels, options, placeholders and tooltips; not CSS classes or values behind options."""
    out = []
    for w in walk(root):
        state = w.get_state()
        if isinstance(w, widgets.HTML):
            out.append(re.sub(r"<[^>]*>", " ", w.value))
        out += [str(state.get(k) or "") for k in ("description", "placeholder", "tooltip")]
        out += [str(o) for o in state.get("_options_labels", ())]
        out += [str(o) for o in state.get("options", ()) if isinstance(o, str)]
    return "\n".join(out)


def test_no_branch_name_reaches_the_page_from_setting_round_to_new_meme(store):
    dash = DangerousIdeasDashboard(store)
    start(dash, table_dice=True)
    place_starting_stones(dash)
    seen = [shown_text(dash)]
    assert one(dash, "pb-write-branch").options[0][0].startswith("A ") and "branch by" in one(dash, "pb-write-branch").options[0][0]
    setting_round(dash)
    one(dash, "pb-title-text").value = "In Which Goldilocks Wanders Into The Woods"
    click(dash, "pb-title-confirm")
    announce_create(dash)
    seen.append(shown_text(dash))
    one(dash, "pb-stake-node").value = 3
    click(dash, "pb-stake-confirm")
    click(dash, "pb-pass")
    click(dash, "pb-all-pass")
    one(dash, "pb-table-die-0").value = 1
    one(dash, "pb-table-die-1").value = 2
    click(dash, "pb-table-dice-enter")
    if dash.game.state.phase == "reroll":
        click(dash, "pb-seed-all-pass")
    assert dash.game.state.attempt.success
    labels = [label for label, _ in one(dash, "pb-conclude-branch").options]
    assert len(labels) == len(set(labels)) and any(label.startswith("A leaf branch by Create") for label in labels)
    seen.append(shown_text(dash))
    click(dash, "pb-conclude")
    seen.append(shown_text(dash))
    found = [m.group(0) for text in seen for m in BRANCH_ID.finditer(text)]
    assert found == []
    story = one(dash, "pb-story").value
    assert "Bo tries to create a new meme, &#x27;Bears like honey&#x27;, held by Goldilocks." in story
    assert "Bo writes &#x27;Bears like honey - Goldilocks&#x27; on a leaf branch by Probe." in story


# -- a meme action in a few clicks -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [SUCCESS_SEED, FAILURE_SEED, 3, 4])
def test_a_meme_action_takes_at_most_five_clicks_and_two_fields(store, seed):
    dash = DangerousIdeasDashboard(store)
    start(dash, seed=seed)
    to_first_turn(dash)
    one(dash, "pb-place-create").value = 2
    click(dash, "pb-place-confirm")
    state = dash.game.state
    create_stones, think = state.sheets[BO].node("create"), state.sheets[BO].node("think")
    clicks, fields = 0, 0

    def press(css: str) -> None:
        nonlocal clicks
        clicks += 1
        click(dash, css)

    def type_in(css: str, value: str) -> None:
        nonlocal fields
        fields += 1
        one(dash, css).value = value

    press("pb-create")
    type_in("pb-meme-text", "Bears like honey")
    type_in("pb-meme-holder", "Goldilocks")
    assert one(dash, "pb-announce-stake").description == f"Create and stake {create_stones + min(think, create_stones) + 1}"
    press("pb-announce-stake")  # announce, the default stake, phase 2 open
    state = dash.game.state
    assert state.phase == "respond" and state.attempt.pool == create_stones + min(think, create_stones) + 1  # + the coiled meme's bonus
    press("pb-all-pass")
    if dash.game.state.phase == "reroll":
        press("pb-seed-all-pass")
    assert dash.game.state.phase == "outcome"
    press("pb-conclude")  # the first empty branch offered, nothing moved from the hub
    state = dash.game.state
    assert state.phase == "turn" and len(state.outcomes) == 1 and state.actions_left == 1
    assert clicks <= 5 and fields <= 2, (clicks, fields)
