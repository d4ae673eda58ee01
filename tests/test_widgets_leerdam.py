"""The Leerdam dashboard, headless: clicks run handlers and `.value` fires observers."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re

import ipywidgets as widgets

import widgets.leerdam as leerdam_widgets
from rules import load_game
from rules.leerdam import Contribute
from tests.support.headless import csv_rows, everything
from tests.support.headless import find as all_with
from tests.support.headless import one as the
from tests.support.headless import walk as tree
from tests.support.keys import INDEX
from tests.support.leerdam_page import BOTS, NAMES, allocate, cell, play_year, pledge, start
from widgets.common import csv_text
from widgets.leerdam import LeerdamDashboard

# -- reading the page ------------------------------------------------------------------------------


def html_of(root: widgets.Widget) -> str:
    return "\n".join(w.value for w in tree(root) if isinstance(w, widgets.HTML))


def link_text(link: str, mime: str) -> str:
    match = re.search(rf'href="data:{re.escape(mime)};charset=utf-8;base64,([A-Za-z0-9+/=]+)"', link)
    assert match and "download=" in link, link[:200]
    return base64.b64decode(match.group(1)).decode("utf-8-sig")


# -- opening --------------------------------------------------------------------------------------


def test_opens_on_the_picker_and_warns_outside_5_to_10(store):
    dash = LeerdamDashboard(store)
    assert {"playbook-root", "playbook-leerdam"} <= set(dash._dom_classes)
    assert dash.game is None and all_with(dash, "pb-resume") == []
    assert the(dash, "pb-name-19") and the(dash, "pb-kind-19") and the(dash, "pb-start")
    warning = the(dash, "pb-setup-warning")
    assert warning.value == ""  # 7 households
    the(dash, "pb-players").value = 4
    assert "5-10 households" in warning.value
    the(dash, "pb-players").value = 12
    assert "5-10 households" in warning.value
    assert [row.layout.display for row in dash.form.rows[11:13]] == ["flex", "none"]


def test_a_bad_setup_is_refused_and_saves_nothing(store):
    dash = LeerdamDashboard(store)
    the(dash, "pb-players").value = 5
    the(dash, "pb-name-1").value = "aalders"
    the(dash, "pb-start").click()
    assert dash.game is None and "same name" in dash.status.message
    the(dash, "pb-name-1").value = "Bo"
    the(dash, "pb-misfortune-1").value = 9
    the(dash, "pb-start").click()
    assert dash.game is None and "misfortune table" in dash.status.message
    the(dash, "pb-misfortune-1").value = 2
    the(dash, "pb-end-on").value = "one"
    the(dash, "pb-start").click()
    assert dash.game is None and "end faces" in dash.status.message
    assert store.tables() == []


# -- a whole game -----------------------------------------------------------------------------------


def test_whole_years_with_two_humans_and_three_bots_until_the_end(store):
    dash = LeerdamDashboard(store)
    start(dash, max_years="3", end_check=2)
    assert dash.bots == BOTS and all(the(dash, f"pb-seat-{s}").disabled for s in BOTS)
    assert "Year 1" in the(dash, "pb-round").value and 'data-year="1"' in the(dash, "pb-year").value
    assert 'data-dyke="3"' in the(dash, "pb-dyke").value
    assert 'data-low="3" data-high="6"' in the(dash, "pb-thresholds").value
    assert "Pledged: 3 of 5" in the(dash, "pb-pledged-count").value  # the bots at once
    assert the(dash, "pb-plots").layout.display == "none"
    years = 0
    while not dash.game.state.over:
        play_year(dash)
        years += 1
        # Every click was saved at once.
        assert store.record(dash.table_id)["actions"] == json.loads(dash.game.to_json())["actions"]
        assert the(dash, "pb-plots").png[:8] == b"\x89PNG\r\n\x1a\n" and 'alt="Charts of the village' in the(dash, "pb-plots").value
        assert f"data-flood=\"{dash.game.state.years[-1].flood}\"" in the(dash, "pb-flood").value
    assert 2 <= years <= 3
    assert {a.kind for a in dash.game.actions} >= {"misfortune", "contribute", "allocate", "flood", "end-roll"}
    assert "Game over" in the(dash, "pb-turn").value
    standings = the(dash, "pb-standings").value
    assert all(name in standings for name in NAMES) and "Wealth" in standings and "VP" in standings
    assert "Village chronicle" in the(dash, "pb-chronicle").value and "The game ends" in the(dash, "pb-chronicle").value
    assert load_game(link_text(the(dash, "pb-download").value, "application/json")).state == dash.game.state
    assert store.tables(game="leerdam", unfinished=True) == []


def test_the_csv_has_a_header_and_one_row_per_household_per_year(store):
    dash = LeerdamDashboard(store)
    start(dash, max_years="2", end_check=5)
    play_year(dash)
    play_year(dash)
    assert dash.game.state.over
    rows = csv_rows(the(dash, "pb-csv").value)
    assert len(rows) == 5 * 2
    assert {(r["year"], r["household"]) for r in rows} == {(str(y), n) for y in (1, 2) for n in NAMES}
    assert {"contribution", "subsistence", "leisure", "profit", "vp", "wealth", "flooded", "dyke"} <= set(rows[0])
    ana_1 = next(r for r in rows if r["year"] == "1" and r["household"] == "Ana")
    assert ana_1["contribution"] == "1"


def test_plots_are_drawn_only_when_a_year_finishes(store, monkeypatch):
    calls = []
    real = leerdam_widgets.village_figure

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(leerdam_widgets, "village_figure", counted)
    dash = LeerdamDashboard(store)
    start(dash)
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    allocate(dash, 0)
    assert calls == []
    allocate(dash, 1)
    assert len(calls) == 1
    png = the(dash, "pb-plots").png
    pledge(dash, 0, 2)
    assert len(calls) == 1 and the(dash, "pb-plots").png == png


def test_the_csv_holds_finished_years_only(store):
    dash = LeerdamDashboard(store)
    start(dash)
    assert 'data-csv-years="0"' in the(dash, "pb-csv").value and "base64" not in the(dash, "pb-csv").value
    play_year(dash)
    pledge(dash, 0, 1)
    pledge(dash, 1, 2)
    state = dash.game.state
    assert state.year == 2 and state.phase == "allocate"  # year 2 is under way, its pledges in
    link = the(dash, "pb-csv").value
    assert 'data-csv-years="1"' in link and "year 2 is added when it ends" in link
    rows = csv_rows(link)
    assert {r["year"] for r in rows} == {"1"} and len(rows) == 5
    # Every row is a finished year: the dyke it ended on, never the 0 of a year not yet played.
    assert {r["dyke"] for r in rows} == {str(state.years[0].dyke_after)} and "0" not in {r["dyke"] for r in rows}


def test_csv_cells_never_become_formulas_and_numbers_stay_numbers():
    rows = [
        {"name": "=HYPERLINK(\"http://x\",\"y\")", "vp": -5, "wealth": -2.5, "note": "-3", "who": "Zoë"},
        {"name": "+1+1", "vp": 0, "wealth": 1.0, "note": "@SUM(A1)", "who": "-Bo-"},
        {"name": "\tTab", "vp": 3, "wealth": None, "note": "\rCR", "who": "plain = fine"},
    ]
    text = csv_text(rows)
    assert text.startswith("\ufeff")
    back = list(csv.DictReader(io.StringIO(text[1:], newline="")))
    assert [r["name"] for r in back] == ["'=HYPERLINK(\"http://x\",\"y\")", "'+1+1", "'\tTab"]
    assert [r["vp"] for r in back] == ["-5", "0", "3"] and [r["wealth"] for r in back] == ["-2.5", "1.0", ""]
    assert [r["note"] for r in back] == ["-3", "'@SUM(A1)", "'\rCR"]  # a number written as text is no formula
    assert [r["who"] for r in back] == ["Zoë", "'-Bo-", "plain = fine"]
    assert not csv_text(rows, bom=False).startswith("\ufeff")


def test_a_household_name_reaches_the_csv_as_text(store):
    dash = LeerdamDashboard(store)
    start(dash, names=("=HYPERLINK(\"http://x\")", "Zoë", "Cy", "Di", "Ed"), max_years="1")
    play_year(dash)
    assert dash.game.state.over
    rows = csv_rows(the(dash, "pb-csv").value)
    assert {r["household"] for r in rows} >= {"'=HYPERLINK(\"http://x\")", "Zoë"}


# -- refusals ---------------------------------------------------------------------------------------


def test_a_pledge_above_capacity_is_refused_and_changes_nothing(store):
    dash = LeerdamDashboard(store)
    start(dash)
    capacity = dash.game.state.capacity(0)
    before = (dash.game.state, list(dash.game.actions), len(store.record(dash.table_id)["actions"]))
    pledge(dash, 0, capacity + 1, hide=False)
    # The refusal names the secret pledge tried: on the projector's hot seat it is shown only
    # in the household's own panel, never in the status line the room sees.
    assert f"0-{capacity} units" in the(dash, "pb-panel-status").value
    assert f"not {capacity + 1}" in the(dash, "pb-panel-status").value
    assert "units" not in the(dash, "pb-status").value and dash.status.kind != "refuse"
    the(dash, "pb-hide").click()
    assert f"not {capacity + 1}" not in everything(dash)
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    assert (dash.game.state, dash.game.actions, len(store.record(dash.table_id)["actions"])) == before
    assert the(dash, "pb-pledge")  # still asking


# -- privacy ----------------------------------------------------------------------------------------


def test_no_other_households_pledge_reaches_the_widgets_before_the_reveal(store):
    dash = LeerdamDashboard(store)
    start(dash, seed=3)
    pledge(dash, 0, 4, hide=False)
    assert "Your secret pledge: 4" in everything(dash)
    old_panel = [w for child in the(dash, "pb-private-panel").children for w in tree(child)]
    secret_lines = [str(e.text) for e in dash.game.state.log if e.visible_to == frozenset({0})]
    assert secret_lines
    the(dash, "pb-seat-1").click()  # seat 0 forgot to press "Done - hide"
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    text = everything(dash)
    assert 'data-seat="1"' in text and 'data-seat="0"' not in text
    assert "Your secret pledge" not in text and "You pledged" not in text
    for line in secret_lines:
        assert line not in text and html.escape(line) not in text
    assert all(w.comm is None for w in old_panel)  # closed, not just detached
    assert "data:application/json" not in text  # no save file (it holds the pledges) unless asked for
    # The projector: who has pledged, never how much.
    assert "data-seat-pledge" not in html_of(dash) and "data-revealed" not in the(dash, "pb-reveal").value
    assert "Pledged: 4 of 5" in the(dash, "pb-pledged-count").value
    the(dash, "pb-hide").click()
    assert the(dash, "pb-private-panel").children == ()
    pledge(dash, 1, 0)
    reveal = the(dash, "pb-reveal").value
    assert 'data-revealed="1"' in reveal and "Ana: 4" in reveal and "Bo: 0" in reveal
    total = dash.game.state.total
    assert f'data-total="{total}"' in reveal
    for seat in (0, 1):
        allocate(dash, seat)
    # Year 2: last year's pledges stay up, labelled; this year's stay hidden.
    pledge(dash, 0, 3)
    assert 'data-year="2" data-seat-pledge' not in html_of(dash)
    assert "Last year (year 1)" in the(dash, "pb-reveal").value


# -- deals, gifts, allocation ---------------------------------------------------------------------------


def test_a_deal_between_two_humans_moves_wealth_and_units(store):
    dash = LeerdamDashboard(store)
    start(dash, seed=5)
    play_year(dash, {0: 1, 1: 1})
    state = dash.game.state
    wealth = [h.wealth for h in state.households]
    assert wealth[0] >= 8, wealth
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    free_bo = dash.game.state.free_units(1)
    # Ana offers Bo 8 Wealth for 2 units on Ana's Profit.
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    the(dash, "pb-offer-partner").value = 1
    the(dash, "pb-offer-wealth").value = 8
    the(dash, "pb-offer-units").value = 2
    the(dash, "pb-offer-activity").value = "profit"
    the(dash, "pb-offer-send").click()
    assert dash.status.kind != "refuse", dash.status.message
    assert the(dash, "pb-withdraw-1") and dash.game.state.households[0].wealth == wealth[0]
    the(dash, "pb-hide").click()
    the(dash, "pb-seat-1").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    assert "Ana offers you 8 Wealth for 2 units" in html_of(dash)
    the(dash, "pb-accept-1").click()
    state = dash.game.state
    assert [h.wealth for h in state.households[:2]] == [wealth[0] - 8, wealth[1] + 8]
    assert state.free_units(1) == free_bo - 2
    assert html.escape("Deal: Bo works 2 units on Ana's profit for 8 Wealth.") in the(dash, "pb-chronicle").value
    assert cell(dash, 1, "subsistence").max == free_bo - 2
    the(dash, "pb-hide").click()
    # Ana's preview counts the 2 hired units on her Profit.
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    cell(dash, 0, "subsistence").value = 2
    cell(dash, 0, "profit").value = 1
    preview = the(dash, "pb-alloc-preview").value
    assert "+27 Wealth" in preview  # 3 units of Profit: 10 + 9 + 8
    the(dash, "pb-hide").click()
    allocate(dash, 0, {(0, "subsistence"): 2, (0, "profit"): 1})
    allocate(dash, 1)
    row = next(r for r in dash.game.state.ledger if r.year == 2 and r.seat == 0)
    assert row.profit == 3 and row.wealth_profit == 27


def test_the_hire_form_waits_for_wealth_to_hire_with(store):
    dash = LeerdamDashboard(store)
    start(dash, seed=5)
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    assert dash.game.state.phase == "allocate" and all(h.wealth == 0 for h in dash.game.state.households)
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    # Year 1: nobody holds Wealth, so nobody can pay for labour: one line says why.
    assert not all_with(dash, "pb-offer-send") and not all_with(dash, "pb-offer-partner")
    assert "costs Wealth: you have none yet" in the(dash, "pb-no-hire").value
    assert the(dash, "pb-alloc-confirm")  # the allocation itself is there
    the(dash, "pb-hide").click()
    for seat in (0, 1):
        allocate(dash, seat)
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    assert dash.game.state.households[0].wealth > 0
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    assert the(dash, "pb-offer-send") and not all_with(dash, "pb-no-hire")


def test_offers_can_be_declined_withdrawn_and_bots_answer_at_once(store):
    dash = LeerdamDashboard(store)
    start(dash, seed=5)
    play_year(dash, {0: 1, 1: 1})
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    assert dash.game.state.phase == "allocate"
    assert not any(dash.game.state.plans[s] for s in BOTS)  # the bots wait, so they can be hired

    def offer(partner: int, wealth: int, units: int) -> None:
        the(dash, "pb-seat-0").click()
        the(dash, "pb-show-private").click()  # the screen asks first: the view is private
        the(dash, "pb-offer-partner").value = partner
        the(dash, "pb-offer-wealth").value = wealth
        the(dash, "pb-offer-units").value = units
        the(dash, "pb-offer-send").click()
        assert dash.status.kind != "refuse", dash.status.message
        the(dash, "pb-hide").click()

    offer(1, 0, 1)
    offer(1, 0, 2)
    the(dash, "pb-seat-1").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    the(dash, "pb-decline-1").click()
    the(dash, "pb-hide").click()
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    the(dash, "pb-withdraw-2").click()
    the(dash, "pb-hide").click()
    assert [d.status for d in dash.game.state.deals] == ["declined", "declined"]
    wealth = dash.game.state.households[0].wealth
    assert wealth >= 6
    offer(2, 6, 1)  # the fair bot takes 6 Wealth a unit or more
    assert dash.game.state.deals[-1].status == "done"
    assert dash.game.state.households[0].wealth == wealth - 6
    assert dash.game.state.plans[2] is None  # it answered, and still waits to allocate


def test_a_gift_moves_wealth_and_a_bad_one_is_refused(store):
    dash = LeerdamDashboard(store)
    start(dash, seed=5)
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    the(dash, "pb-gift-to").value = 1
    the(dash, "pb-gift-wealth").value = 5
    the(dash, "pb-gift-send").click()
    assert "only 0 Wealth" in the(dash, "pb-panel-status").value  # in the household's panel
    assert dash.status.kind != "refuse" and dash.game.state.households[1].wealth == 0
    the(dash, "pb-hide").click()
    play_year(dash, {0: 1, 1: 1})
    wealth = [h.wealth for h in dash.game.state.households[:2]]
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    the(dash, "pb-gift-to").value = 1
    the(dash, "pb-gift-wealth").value = 5
    the(dash, "pb-gift-send").click()
    assert [h.wealth for h in dash.game.state.households[:2]] == [wealth[0] - 5, wealth[1] + 5]
    assert "gives 5 Wealth to Bo" in the(dash, "pb-chronicle").value


def test_the_allocation_preview_shows_the_texts_example(store):
    dash = LeerdamDashboard(store)
    start(dash, by_hand=True)
    assert dash.game.state.phase == "misfortune"
    assert html.escape("set this year's misfortune") in the(dash, "pb-turn").value
    the(dash, "pb-loss-1").value = 4  # Bo is struck by misfortune
    the(dash, "pb-misfortune-set").click()
    assert dash.game.state.capacity(1) == 2
    pledge(dash, 0, 1)
    pledge(dash, 1, 0)
    # Ana has 5 units: 2 own Subsistence, 2 own Leisure, 1 to Bo's Subsistence.
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    assert 'data-left="5"' in the(dash, "pb-alloc-preview").value
    cell(dash, 0, "subsistence").value = 2
    cell(dash, 0, "leisure").value = 2
    cell(dash, 1, "subsistence").value = 1
    preview = the(dash, "pb-alloc-preview").value
    assert 'data-left="0"' in preview and "0 of 5 units left" in preview
    own = re.search(r'<tr data-recipient="0">(.*?)</tr>', preview).group(1)
    assert "+2 VP" in own and "+0 Wealth" in own
    bo = re.search(r'<tr data-recipient="1">(.*?)</tr>', preview).group(1)
    assert re.sub(r"<td [^>]*><span>(.*?)</span></td>", r"<td>\1</td>", bo).count("<td>1</td><td>0</td><td>0</td>") == 1
    assert not the(dash, "pb-alloc-confirm").disabled
    cell(dash, 0, "profit").value = 1  # one unit too many: Confirm waits
    assert the(dash, "pb-alloc-confirm").disabled and "1 unit too many" in the(dash, "pb-alloc-preview").value
    cell(dash, 0, "profit").value = 0
    the(dash, "pb-alloc-confirm").click()
    the(dash, "pb-hide").click()
    allocate(dash, 1, {(1, "subsistence"): 1, (1, "profit"): 1})
    rows = {r.seat: r for r in dash.game.state.ledger if r.year == 1}
    assert rows[0].vp_allocation == 2
    # Bo: his own unit and Ana's on his Subsistence (the altruist bot may add one more), no penalty.
    assert rows[1].subsistence >= 2 and (rows[1].vp_allocation, rows[1].wealth_profit) == (0, 10)


# -- facilitator --------------------------------------------------------------------------------------


def test_the_facilitator_advances_a_stalled_year(store):
    dash = LeerdamDashboard(store)
    start(dash)
    pledge(dash, 0, 2)
    assert not the(dash, "pb-advance").disabled
    the(dash, "pb-advance").click()  # Bo never pledged: 0
    state = dash.game.state
    assert state.phase == "allocate" and state.pledges[1] == 0
    allocate(dash, 0)
    the(dash, "pb-advance").click()  # the bots allocate their own way, Bo feeds his household
    state = dash.game.state
    assert state.year == 2 and "The facilitator moves on" in the(dash, "pb-chronicle").value
    rows = {r.seat: r for r in state.ledger if r.year == 1}
    assert rows[1].subsistence == 2 and rows[1].profit == 0
    assert rows[4].profit > 0  # the free-rider bot played its own plan, not the default
    assert the(dash, "pb-undo").disabled  # an advance cannot be taken back


def test_table_dice_are_typed_in_by_the_facilitator_and_marked_in_the_save_file(store):
    dash = LeerdamDashboard(store)
    start(dash, table_dice=True)
    assert dash.game.state.phase == "misfortune" and dash.game.actions == []  # waits for the table
    box = the(dash, "pb-table-dice-box")
    assert box.layout.display == "flex" and "Misfortune" in html_of(box)
    for seat, face in enumerate((1, 2, 3, 4, 5)):
        the(dash, f"pb-die-{seat}").value = face
    the(dash, "pb-dice-enter").click()
    state = dash.game.state
    assert state.phase == "contribute" and [state.capacity(s) for s in range(5)] == [4, 5, 6, 6, 6]
    assert "Misfortune dice: 1 2 3 4 5" in the(dash, "pb-chronicle").value
    for seat in (0, 1):
        pledge(dash, seat, 1)
    for seat in (0, 1):
        allocate(dash, seat)  # the bots allocate last: the harvest, then the flood is due
    assert dash.game.state.phase == "flood" and box.layout.display == "flex"
    assert "Facilitator: roll the flood die" in dash.header.turn_html.value
    the(dash, "pb-die-0").value = 6
    the(dash, "pb-dice-enter").click()
    state = dash.game.state
    assert state.years[-1].flood == 6 and state.phase == "misfortune" and state.year == 2
    record = store.record(dash.table_id)
    assert [a["kind"] for a in record["actions"] if a.get("by_hand")] == ["misfortune", "flood"]
    again = LeerdamDashboard(store)
    again.resume(dash.table_id)
    assert again.game.state == state


def test_undo_takes_back_a_pledge_that_revealed_nothing(store):
    dash = LeerdamDashboard(store)
    start(dash)
    before = dash.game.state
    pledge(dash, 0, 2)
    assert not the(dash, "pb-undo").disabled
    the(dash, "pb-undo").click()
    assert dash.game.state == before and dash.status.kind == "ok"
    assert len(store.record(dash.table_id)["actions"]) == len(dash.game.actions)
    assert not dash.act(Contribute(seat=0, units=99))


# -- resume, escaping ---------------------------------------------------------------------------------


def test_a_second_dashboard_resumes_the_identical_table(store):
    first = LeerdamDashboard(store)
    start(first)
    play_year(first)
    pledge(first, 0, 2)
    second = LeerdamDashboard(store, query=INDEX)  # the server key: the index lists the tables
    (button,) = all_with(second, "pb-resume")
    assert button.table_id == first.table_id
    button.click()
    assert second.game.actions == first.game.actions
    assert second.game.state == first.game.state
    assert second.bots == BOTS
    assert the(second, "pb-reveal").value == the(first, "pb-reveal").value
    assert the(second, "pb-plots").png == the(first, "pb-plots").png


def test_user_text_is_escaped_in_html(store):
    names = ("<script>alert(1)</script>", "Bo & Co", "Cy 🌷", "Di", "Ed")
    dash = LeerdamDashboard(store)
    start(dash, names=names)
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    values = html_of(dash)
    assert "<script>" not in values and "&lt;script&gt;alert(1)&lt;/script&gt;" in values
    assert "Bo & Co" not in values and "Bo &amp; Co" in values
    assert "Cy 🌷" in values
    assert load_game(link_text_after_prepare(dash)).setup.names == names
    lobby = LeerdamDashboard(store, query=INDEX)
    assert "<script>" not in html_of(lobby) and "&lt;script&gt;" in html_of(lobby)


def link_text_after_prepare(dash: LeerdamDashboard) -> str:
    assert "base64" not in the(dash, "pb-download").value  # mid-game: only on request
    the(dash, "pb-save-file").click()
    return link_text(the(dash, "pb-download").value, "application/json")


def test_the_module_docstring_lists_the_stable_classes(store):
    documented = leerdam_widgets.__doc__
    required = ["pb-name-<i>", "kind-<i>", "players", "seed", "start", "resume", "seat-<i>", "hide", "pledge", "pledge-confirm", "alloc-<recipient>-<activity>", "alloc-preview", "alloc-confirm", "offer-partner", "offer-wealth", "offer-units", "offer-activity", "offer-send", "accept-<deal id>", "decline-<deal id>", "gift-to", "gift-wealth", "gift-send", "advance", "dyke", "year", "pledged-count", "reveal", "flood", "chronicle", "standings", "plots", "csv", "undo", "download", "upload", "status"]
    missing = [c for c in ("pb-" + c.removeprefix("pb-") for c in required) if f"``{c}``" not in documented]
    assert not missing
    dash = LeerdamDashboard(store)
    start(dash)
    for css in ("pb-dyke", "pb-year", "pb-pledged-count", "pb-reveal", "pb-flood", "pb-chronicle", "pb-standings", "pb-plots", "pb-csv", "pb-advance"):
        assert the(dash, css)


def test_a_preset_allocates_in_one_click_and_the_grid_grows_on_demand(store):
    dash = LeerdamDashboard(store)
    start(dash)
    pledge(dash, 0, 1)
    pledge(dash, 1, 1)
    the(dash, "pb-seat-0").click()
    the(dash, "pb-show-private").click()  # the screen asks first: the view is private
    free = dash.game.state.free_units(0)
    # Only your own row to begin with: other households' rows are added when needed.
    assert all_with(dash, "pb-alloc-0-profit") and not all_with(dash, "pb-alloc-1-profit")
    the(dash, "pb-alloc-add").value = 1
    assert all_with(dash, "pb-alloc-1-profit") and the(dash, "pb-alloc-add").value == -1
    the(dash, "pb-alloc-preset-profit").click()
    plan = dash.game.state.plans[0]
    assert {(a.recipient, a.activity): a.units for a in plan} == {(0, "subsistence"): 2, (0, "profit"): free - 2}
