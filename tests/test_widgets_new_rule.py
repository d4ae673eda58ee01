"""The New Rule dashboard, headless: clicks run handlers and `.value` fires observers."""

from __future__ import annotations

import base64
import datetime
import json
import re

import ipywidgets as widgets

from rules import load_game
from rules.new_rule import Draw, Pay, legal_payments, payment_levels, suggested_payment
from tests.support.headless import find, one, synced_text, walk
from tests.support.keys import INDEX
from tests.support.new_rule_page import human_seat, play_one, play_until, secrets_of, start
from widgets.new_rule import NewRuleDashboard


def html_values(root: widgets.Widget) -> list[str]:
    return [w.value for w in walk(root) if isinstance(w, widgets.HTML)]


# -- opening ------------------------------------------------------------------------------


def test_opens_on_the_picker_with_no_tables(store):
    dash = NewRuleDashboard(store, query=INDEX)
    assert "playbook-new-rule" in dash._dom_classes and "playbook-index" in dash._dom_classes
    assert dash.game is None
    assert find(dash, "pb-resume") == []
    assert "No unfinished tables" in synced_text(dash)
    assert one(dash, "pb-start") and one(dash, "pb-name-4")
    assert dash.status.kind != "refuse"
    assert one(dash, "pb-undo").disabled


def test_default_store_honours_playbook_db(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "env.sqlite3"))
    dash = NewRuleDashboard()
    assert dash.store.path == tmp_path / "env.sqlite3"


# -- a whole game --------------------------------------------------------------------------


def test_whole_game_through_clicks_with_a_bot(store):
    dash = NewRuleDashboard(store)
    start(dash, bots={2: "balanced"})
    assert one(dash, "pb-seat-2").disabled  # a bot's bowl is no one's to open
    assert "Round 1 of 2" in one(dash, "pb-round").value
    assert "Scores appear when the game ends" in one(dash, "pb-standings").value
    kinds = set()
    while not dash.game.state.over:
        kinds.add(dash.game.state.phase)
        play_one(dash, swap=len(dash.game.actions) % 3 == 0)
        # Every click was saved at once.
        assert store.record(dash.table_id)["actions"] == json.loads(dash.game.to_json())["actions"]
    assert kinds >= {"draw", "choose", "pick", "pay"}
    assert {a.kind for a in dash.game.actions} >= {"draw", "keep", "swap", "pick", "pay"}
    standings = one(dash, "pb-standings").value
    assert "Rank" in standings and "Ana" in standings and "Bo" in standings
    assert "Game over" in one(dash, "pb-turn").value
    assert load_game(download_text(dash)).state == dash.game.state  # offered at once: nothing is secret now
    assert store.tables(game="new-rule", unfinished=True) == []


# -- paying ---------------------------------------------------------------------------------


def test_the_payment_opens_on_the_best_payment_and_best_payment_puts_it_back(store):
    dash = NewRuleDashboard(store)
    start(dash)
    play_until(dash, lambda s: s.phase == "pay")
    state, seat = dash.game.state, human_seat(dash)
    best = suggested_payment(state, seat)
    one(dash, f"pb-seat-{seat}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    chooser = one(dash, "pb-pay")
    assert chooser.payment() == best
    assert not one(dash, "pb-pay-confirm").disabled and "✔ pays" in one(dash, "pb-pay-levels").value
    suggest = one(dash, "pb-pay-suggest")
    assert suggest.description == "Best payment" and "score" in suggest.tooltip
    # Change it by hand (one candy more of a colour the seat still holds), then put it back.
    colour = next(c for c, n in zip(state.colours, state.players[seat].bowl) if n > best.returned.count(c) + (best.eaten if c == "red" else 0))
    one(dash, f"pb-pay-{colour}").value += 1
    assert chooser.payment() != best and one(dash, "pb-pay-confirm").disabled
    suggest.click()
    assert chooser.payment() == best and not one(dash, "pb-pay-confirm").disabled
    one(dash, "pb-pay-confirm").click()
    assert dash.status.kind != "refuse", dash.status.message
    paid = [a for a in dash.game.actions if isinstance(a, Pay)][-1]
    assert paid == best and payment_levels(state, seat, paid.returned, paid.eaten) == state.strength


def test_the_payment_has_one_control_per_colour_and_eating_red_is_a_choice_on_reds(store):
    dash = NewRuleDashboard(store)
    start(dash)
    play_until(dash, lambda s: s.phase == "pay" and s.players[human_seat(dash)].bowl[s.colours.index("red")] > 0)
    state, seat = dash.game.state, human_seat(dash)
    one(dash, f"pb-seat-{seat}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    chooser = one(dash, "pb-pay")
    held = [c for c, n in zip(state.colours, state.players[seat].bowl) if n]
    numbers = [w for w in walk(chooser) if isinstance(w, widgets.BoundedIntText)]
    # One per colour held, no "eat red" field; the colour's symbol shown, not read aloud.
    assert [w.description.split("</span> ")[1].split()[0] for w in numbers] == held
    assert all(w.description_allow_html and w.description.startswith('<span aria-hidden="true">') for w in numbers)
    assert not any("eat" in w.description for w in numbers)
    eat = one(dash, "pb-pay-eat")
    assert isinstance(eat, widgets.ToggleButtons) and eat.value == "eat"
    for stepper in chooser.steppers.values():
        stepper.value = 0
    one(dash, "pb-pay-red").value = 1
    assert chooser.payment() == Pay(seat=seat, returned=(), eaten=1)
    eat.value = "return"
    assert chooser.payment() == Pay(seat=seat, returned=("red",), eaten=0)


# -- refusals ------------------------------------------------------------------------------


def test_a_refused_move_shows_why_and_changes_nothing(store):
    dash = NewRuleDashboard(store)
    start(dash)
    before = (dash.game.state, list(dash.game.actions))
    assert not dash.act(Draw(seat=1))
    assert dash.status.kind == "refuse" and "turn to draw" in one(dash, "pb-status").value
    assert (dash.game.state, dash.game.actions) == before
    assert len(store.record(dash.table_id)["actions"]) == len(before[1])


def test_a_stale_confirm_with_a_bad_payment_is_refused(store):
    dash = NewRuleDashboard(store)
    start(dash)
    play_until(dash, lambda s: s.phase == "pay")
    seat = human_seat(dash)
    one(dash, f"pb-seat-{seat}").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    held = next(c for c, n in zip(dash.game.state.colours, dash.game.state.players[seat].bowl) if n and c not in dash.game.state.infection)
    chooser = one(dash, "pb-pay")
    for stepper in chooser.steppers.values():
        stepper.value = 0  # clear the best payment it opened on
    one(dash, f"pb-pay-{held}").value = 1  # one candy is never a whole level
    confirm = one(dash, "pb-pay-confirm")
    assert confirm.disabled and "Not yet" in one(dash, "pb-pay-levels").value
    before = (dash.game.state, list(dash.game.actions))
    confirm.click()  # a disabled button clicked anyway (a stale page): the rules refuse
    assert dash.status.kind == "refuse" and "per level" in dash.status.message
    assert (dash.game.state, dash.game.actions) == before


def test_a_bad_setup_is_refused_and_saves_nothing(store):
    dash = NewRuleDashboard(store)
    one(dash, "pb-players").value = 3
    for i, name in enumerate(("Ana", "ana", "Cy")):
        one(dash, f"pb-name-{i}").value = name
    one(dash, "pb-start").click()
    assert dash.game is None and "same name" in dash.status.message
    one(dash, "pb-name-1").value = "Bo"
    one(dash, "pb-max-rounds").value = "soon"
    one(dash, "pb-start").click()
    assert dash.game is None and "round limit" in dash.status.message
    assert store.tables() == []


def test_no_round_limit_is_allowed(store):
    dash = NewRuleDashboard(store)
    start(dash, rounds="none")
    assert dash.game.setup.max_rounds is None
    assert "no round limit" in one(dash, "pb-round").value


# -- privacy ---------------------------------------------------------------------------------


def test_the_private_panel_never_holds_another_seats_secrets(store):
    dash = NewRuleDashboard(store)
    start(dash)
    one(dash, "pb-seat-0").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    one(dash, "pb-draw").click()
    drawn = dash.game.state.drawn
    assert "You drew" in synced_text(dash) and 'data-seat="0"' in synced_text(dash)
    shown = [w for child in one(dash, "pb-private-panel").children for w in walk(child)]
    one(dash, "pb-seat-1").click()  # seat 0 has not even pressed "Done - hide"
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    text = synced_text(dash)
    assert 'data-seat="0"' not in text and "You drew" not in text
    assert "base64" not in text  # no save file (it holds every hand) unless someone asks
    assert not find(dash, "pb-keep") and not find(dash, "pb-swap")
    for secret in secrets_of(dash, 0):
        assert secret not in text
    assert f"drew {drawn[0]}" not in text
    # Seat 0's old panel is closed, not just detached: nothing of it lives in the front end.
    assert all(w.comm is None for w in shown)

    one(dash, "pb-hide").click()
    assert one(dash, "pb-private-panel").children == ()
    play_until(dash, lambda s: s.phase == "pick")
    one(dash, "pb-seat-0").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    find(dash, "pb-pick")[-1].click()
    assert "Your secret pick" in synced_text(dash)
    one(dash, "pb-seat-1").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    text = synced_text(dash)
    assert "Your secret pick" not in text and "You picked" not in text
    for secret in secrets_of(dash, 0):
        assert secret not in text


# -- resume, undo, save files --------------------------------------------------------------


def test_a_second_dashboard_resumes_the_same_table(store):
    first = NewRuleDashboard(store)
    start(first, names=("Ana", "Bo", "Cy", "Di"), bots={3: "random"})
    play_until(first, lambda s: s.phase == "pay")
    second = NewRuleDashboard(store, query=INDEX)  # the server key: the index lists the tables
    (button,) = find(second, "pb-resume")
    assert button.table_id == first.table_id
    button.click()
    assert second.table_id == first.table_id
    assert second.game.actions == first.game.actions
    assert second.game.state == first.game.state
    assert second.bots == {3: "random"}
    # The resumed page plays on. The first page is now behind, but another seat's payment is
    # still legal on the latest table: it goes through, after the second page's move.
    paid = human_seat(second)
    play_one(second)
    other = next(s for s in first.game.state.waiting_for() if s not in first.bots and s != paid)
    payment = next(legal_payments(first.game.state, other, limit=1))
    assert first.act(payment) is True
    second.refresh()
    assert first.game.actions == second.game.actions
    assert [a.seat for a in first.game.actions if isinstance(a, Pay)][-2:] == [paid, other]


def test_undo_takes_back_a_move_and_is_refused_after_chance(store):
    dash = NewRuleDashboard(store)
    start(dash)
    undo = one(dash, "pb-undo")
    assert undo.disabled and "chance" in undo.tooltip  # the deal
    one(dash, "pb-seat-0").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    one(dash, "pb-draw").click()
    assert undo.disabled and "chance outcome" in undo.tooltip
    before = dash.game.state
    one(dash, "pb-keep").click()
    assert not undo.disabled
    undo.click()
    assert dash.game.state == before and dash.status.kind == "ok"
    assert len(store.record(dash.table_id)["actions"]) == len(dash.game.actions)
    assert find(dash, "pb-keep")  # seat 0 chooses again


def test_undo_also_takes_back_the_bot_moves_that_followed(store):
    dash = NewRuleDashboard(store)
    start(dash, bots={0: "balanced"})
    play_until(dash, lambda s: s.phase == "choose" and s.turn == 2)
    before = dash.game.state
    play_one(dash)  # seat 2 keeps; the bot at seat 0 picks at once
    assert dash.game.actions[-1].kind == "pick" and dash.game.actions[-1].seat == 0
    one(dash, "pb-undo").click()
    assert dash.game.state == before


def download_text(dash: NewRuleDashboard) -> str:
    if not dash.game.state.over:
        assert "base64" not in one(dash, "pb-download").value  # the file holds every secret
        one(dash, "pb-save-file").click()
    link = one(dash, "pb-download").value
    match = re.search(r'href="data:application/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)"', link)
    assert match and "download=" in link
    return base64.b64decode(match.group(1)).decode("utf-8")


def upload(dash: NewRuleDashboard, data: bytes, name: str = "game.json") -> None:
    stamp = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    file = {"name": name, "type": "application/json", "size": len(data), "content": memoryview(data), "last_modified": stamp}
    one(dash, "pb-upload").value = (file,)


def test_download_is_the_save_file(store):
    dash = NewRuleDashboard(store)
    start(dash)
    play_until(dash, lambda s: s.phase == "pick")
    game = load_game(download_text(dash))
    assert game.actions == dash.game.actions and game.state == dash.game.state
    play_one(dash)
    assert "base64" not in one(dash, "pb-download").value  # dropped at the next move


def test_upload_opens_a_good_file_and_refuses_a_bad_one(store):
    dash = NewRuleDashboard(store)
    start(dash)
    play_until(dash, lambda s: s.phase == "pick")
    good = download_text(dash)
    before = (dash.table_id, dash.game.state, list(dash.game.actions), len(store.tables()))
    record = json.loads(good)
    record["seed"] += 1
    for bad, said in [
        (b"{not json", "damaged or truncated"),
        (good[: len(good) // 2].encode(), "damaged or truncated"),
        (json.dumps(record).encode(), "checksum"),
        (b'{"format": "something else"}', "not a playbook save file"),
    ]:
        upload(dash, bad, "bad.json")
        assert dash.status.kind == "refuse" and said in dash.status.message
        assert "Nothing was changed" in one(dash, "pb-status").value
        assert (dash.table_id, dash.game.state, dash.game.actions, len(store.tables())) == before
    assert one(dash, "pb-upload").value == ()
    upload(dash, good.encode())
    assert dash.status.kind == "ok" and dash.table_id != before[0]
    assert dash.game.actions == before[2] and len(store.tables()) == 2


def test_user_text_is_escaped_in_html(store):
    names = ("<script>alert(1)</script>", "Bo & Co", "Cy 🍬")
    dash = NewRuleDashboard(store)
    start(dash, names=names)
    one(dash, "pb-seat-0").click()
    one(dash, "pb-show-private").click()  # the screen asks first: the view is private
    values = "\n".join(html_values(dash))
    assert "<script>" not in values and "&lt;script&gt;alert(1)&lt;/script&gt;" in values
    assert "Bo & Co" not in values and "Bo &amp; Co" in values
    assert "Cy 🍬" in values
    assert load_game(download_text(dash)).setup.names == names
    lobby = NewRuleDashboard(store, query=INDEX)
    listed = "\n".join(html_values(lobby))
    assert "<script>" not in listed and "&lt;script&gt;" in listed


def test_an_all_bot_table_plays_itself_to_the_end(store):
    dash = NewRuleDashboard(store)
    start(dash, bots={0: "balanced", 1: "random", 2: "balanced"}, rounds="3")
    assert dash.game.state.over
    assert all(b.disabled for i in range(3) for b in find(dash, f"pb-seat-{i}"))
    assert "Rank" in one(dash, "pb-standings").value
