"""A Danger World table on its own devices, headless: the GM's page, each player's page and the
board, each opened with the query its link gives, on one store.

A player's page offers only their own character's controls and their own check; the GM's page
the check for anyone, the GM panel and the odds table; the board nothing to press. Whatever a
page should not do, the rules (or the seat page's own check) refuse with a reason and change
nothing.
"""

from __future__ import annotations

import base64
import re

import ipywidgets as widgets

from playbook.access import resolve
from playbook.store import Store
from rules.danger_world import (
    ApplyHit,
    BeginCheck,
    CreateCharacter,
    Lock,
    SetAspects,
    SpendBotches,
)
from tests.support.headless import click, find, links, one, synced_text, visible, walk
from widgets.danger_world import DangerWorldDashboard

NAMES = ("Wren", "Bo", "Juno")
GM = "Morgan"
GM_SEAT = len(NAMES)
WREN = (4, 1, 2, 1, 3, 2, 1, 2)
ASPECTS = ("Cat burglar", "Owes the guild", "Never leaves a friend")


def new_table(store: Store, seed: int = 1) -> DangerWorldDashboard:
    host = DangerWorldDashboard(store, query="")
    one(host, "pb-gm-name").value = GM
    one(host, "pb-players").value = len(NAMES)
    for i, name in enumerate(NAMES):
        one(host, f"pb-name-{i}").value = name
    one(host, "pb-pool-start").value = 3  # SP in the general pool: the GM can compel
    one(host, "pb-seed").value = seed
    one(host, "pb-start").click()
    assert host.role == "facilitator" and host.game is not None, host.status.message
    return host


def page(store: Store, host: DangerWorldDashboard, seat: int) -> DangerWorldDashboard:
    dash = DangerWorldDashboard(store, query=str(links(host)["seats"][seat]["url"]))
    assert dash.role == "seat" and dash.seat == seat, dash.status.message
    return dash


def shown_classes(root: widgets.Widget) -> set[str]:
    """The classes of every widget on the page as it shows (hidden branches left out)."""
    found: set[str] = set()

    def visit(widget: widgets.Widget) -> None:
        if getattr(widget, "layout", None) is not None and widget.layout.display == "none":
            return
        found.update(widget._dom_classes)
        for child in getattr(widget, "children", ()):
            visit(child)

    visit(root)
    return found


def make_sheet(dash: DangerWorldDashboard, i: int) -> None:
    for stat, value in zip(("agility", "endurance", "speed", "strength", "perception", "reasoning", "charisma", "cool"), WREN):
        one(dash, f"pb-stat-{i}-{stat}").value = value
    for k, aspect in enumerate(ASPECTS):
        one(dash, f"pb-aspect-{i}-{k}").value = aspect
    click(one(dash, f"pb-sheet-confirm-{i}"))
    assert dash.status.kind != "refuse", dash.status.message


def test_a_table_has_a_seat_link_for_each_character_and_one_for_the_gm(store):
    host = new_table(store)
    found = links(host)
    assert [s["name"] for s in found["seats"]] == [*NAMES, f"{GM} (GM)"]
    meta = store.info(host.table_id).meta
    assert len(meta["seat_keys"]) == len(NAMES) + 1 and len(set(meta["seat_keys"].values())) == len(NAMES) + 1

    def role(query: str) -> tuple[str, int | None]:
        access = resolve(query, "danger-world", lambda t: (store.info(t).game, store.info(t).meta))
        return access.role, access.seat

    assert role(found["seats"][GM_SEAT]["url"]) == ("seat", GM_SEAT)
    assert role(found["board"]) == ("board", None)
    assert role(f"?table={host.table_id}") == ("denied", None)  # no shared screen without a key any more
    # The facilitator's class card lists the GM's seat with the others.
    rows = " ".join(r.children[0].value for r in host.class_panel.rows.children)
    assert GM in rows and all(name in rows for name in NAMES)


def test_a_players_page_offers_only_their_own_character_and_check(store):
    host = new_table(store)
    wren = page(store, host, 0)
    shown = shown_classes(wren)
    # Wren's own sheet builder, nobody else's; no GM panel, no GM parts of a check.
    assert "pb-builder-0" in shown and "pb-sheet-1" in shown and "pb-sheet-2" in shown
    assert not find(wren, "pb-builder-1") and not find(wren, "pb-edit-1") and "pb-quick-all" not in shown
    assert "pb-gm" not in shown and "pb-gm-spend" not in shown and "pb-odds-grid" not in shown
    make_sheet(wren, 0)
    assert host.refresh() and host.game.state.characters[0].ready
    assert host.game.actions[-1].seat == 0
    # The check: Wren only, stats, difficulty, SP, danger dice; no compels, no complications.
    wren.refresh()
    assert [v for _, v in one(wren, "pb-actor").options] == [0]
    shown = shown_classes(wren)
    assert {"pb-roll", "pb-stat-a", "pb-stat-b", "pb-difficulty", "pb-invoke-0", "pb-danger-dice"} <= shown
    assert not {"pb-compel-0", "pb-complications", "pb-waive"} & shown


def test_a_player_may_not_act_for_another_character_or_as_the_gm(store):
    host = new_table(store)
    wren = page(store, host, 0)
    before = store.version(host.table_id)
    # A hand-made message from Wren's page for Bo, or in the GM's seat: refused by the page...
    for action in (
        CreateCharacter(seat=1, character=1, stats=WREN, aspects=ASPECTS),
        ApplyHit(seat=GM_SEAT, character=0, hit="reduced"),
    ):
        assert wren.act(action) is False
        assert "Wren's own page" in wren.status.message
    # ... and in Wren's own seat, by the rules, with the reason.
    assert wren.act(CreateCharacter(seat=0, character=1, stats=WREN, aspects=ASPECTS)) is False
    assert "only Bo's player or the GM acts for Bo" in wren.status.message
    make_sheet(wren, 0)
    assert wren.act(ApplyHit(seat=0, character=0, hit="reduced")) is False
    assert f"only the GM ({GM}) does that" in wren.status.message
    assert wren.act(SetAspects(seat=0, character=1, aspects=ASPECTS)) is False
    assert store.version(host.table_id) == before + 1  # Wren's sheet alone


def test_a_check_from_the_players_phone_to_the_gms_botches(store):
    host = new_table(store, seed=5)
    wren, gm, bo = page(store, host, 0), page(store, host, GM_SEAT), page(store, host, 1)
    # Whose page, in words that read aloud: the person, then the role (not "the GM (Morgan)'s").
    assert gm.status.message.startswith(f"This is {GM}'s page, the GM's: "), gm.status.message
    assert wren.status.message.startswith("This is Wren's own page: "), wren.status.message
    make_sheet(wren, 0)
    for dash in (gm, bo):
        dash.refresh()
    # The GM's page: the check for anyone with a sheet, the GM's parts of it, the odds table.
    shown = shown_classes(gm)
    assert {"pb-actor", "pb-compel-0", "pb-complications", "pb-gm", "pb-end-encounter", "pb-short-rest", "pb-new-session", "pb-odds-grid"} <= shown
    assert 'data-dice="6" data-difficulty="3"' in one(gm, "pb-odds-grid").value
    assert not find(gm, "pb-builder-0")  # a sheet is its player's to write
    # Bo has no sheet yet: his page cannot check.
    assert one(bo, "pb-actor").options == ()
    # Wren rolls from her phone.
    one(wren, "pb-stat-a").value, one(wren, "pb-stat-b").value = "agility", "perception"
    one(wren, "pb-difficulty").value = 6
    click(one(wren, "pb-roll"))
    assert wren.status.kind != "refuse", wren.status.message
    begun = next(a for a in wren.game.actions if isinstance(a, BeginCheck))
    assert begun.seat == 0 and begun.compels == () and begun.complications == 0
    state = wren.game.state
    assert state.phase == "lock" and visible(one(wren, "pb-lock")) and one(wren, "pb-odds").value
    # Each phone says whose move it is in its own words: Wren's "Your check", the others her name.
    assert "Your check: lock, re-roll or take a set." in one(wren, "pb-turn").value
    # Others watch Wren's dice: no lock, no coach (it is Wren's own aid).
    for other in (gm, bo):
        other.refresh()
        assert "pb-lock" not in shown_classes(other) and "pb-reroll" not in shown_classes(other)
        assert one(other, "pb-coach").value == "" and one(other, "pb-odds").value == ""
        assert all(b.disabled for b in find(other, "dw-die"))
        assert "Wren: lock, re-roll or take a set." in one(other, "pb-turn").value
    # Bo may not lock Wren's dice (the rules let only Wren's player or the GM act for Wren).
    assert bo.act(Lock(seat=1, dice=(0,))) is False and "only Wren's player or the GM acts for Wren" in bo.status.message
    # Wren takes no set (difficulty 6): the check fails; with botches it waits for the GM.
    while wren.game.state.phase == "lock":
        click(one(wren, "pb-no-set"))
    gm.refresh()
    state = gm.game.state
    assert state.phase == "gm" and state.check.botches >= 1  # seed 5: a botch for the GM
    # The board shows the check's outcome while its botches wait for the GM.
    board = DangerWorldDashboard(store, query=str(links(host)["board"]))
    scene = board.phase_board.last
    assert scene.phase == "reveal" and "Failure" in scene.centre and f"{GM} spends them now" in scene.centre
    assert "pb-gm-spend" in shown_classes(gm)
    assert "Your move: spend" in one(gm, "pb-turn").value
    bo.refresh()
    assert f"{GM}: spend" in one(bo, "pb-turn").value
    assert bo.act(SpendBotches(seat=1, options=())) is False and "only the GM" in bo.status.message
    click(one(gm, "pb-gm-option-danger"))
    click(one(gm, "pb-gm-spend"))
    assert gm.status.kind != "refuse", gm.status.message
    assert gm.game.actions[-1].seat == GM_SEAT and gm.game.state.phase == "table"
    assert gm.game.state.characters[0].danger >= 1


def test_every_action_a_gm_page_sends_carries_the_gm_seat(store):
    host = new_table(store)
    wren, gm = page(store, host, 0), page(store, host, GM_SEAT)
    make_sheet(wren, 0)
    gm.refresh()
    one(gm, "pb-actor").value = 0
    one(gm, "pb-compel-0").value = 1
    one(gm, "pb-complications").value = 1
    click(one(gm, "pb-roll"))
    assert gm.status.kind != "refuse", gm.status.message
    begun = next(a for a in gm.game.actions if isinstance(a, BeginCheck))
    assert begun.seat == GM_SEAT and begun.character == 0 and begun.complications == 1 and len(begun.compels) == 1
    assert all(a.seat in (0, GM_SEAT) for a in gm.game.actions if not a.chance)


def test_the_board_shows_every_character_and_offers_nothing(store):
    host = new_table(store)
    board = DangerWorldDashboard(store, query=str(links(host)["board"]))
    assert board.role == "board"
    party = one(board, "pb-board-party").value
    assert all(name in party for name in NAMES) and "dw-track" in party
    # Nothing to press on the board's screen.
    assert not [w for w in walk(board.screen) if isinstance(w, widgets.Button) and visible(w) and not w.disabled]
    assert board.act(ApplyHit(seat=GM_SEAT, character=0, hit="reduced")) is False
    # The board's frames carry no key.
    meta = store.info(host.table_id).meta
    text = synced_text(board)
    assert not any(k in text for k in (meta["facilitator_key"], *meta["seat_keys"].values()))


# -- a class of Danger World, phones only ---------------------------------------------------------


def test_a_class_is_dealt_started_and_ended_with_phones_only(store):
    from playbook import classes as cl
    from tests.support.classes import class_page, monitor, student

    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Ha")
    record = cl.create_class(store, "danger-world", len(names), seed=4)
    phones = [student(store, record.code, name) for name in names]
    facilitator = monitor(store, record)
    assert facilitator.deal() and facilitator.start(), facilitator.status.message
    record = facilitator.record
    assert len(record.tables) == 2
    gms = []
    for phone in phones:
        phone.refresh()
        seat_page = phone.seat_page
        assert seat_page is not None and seat_page.role == "seat", phone.status.message
        me = phone.student
        group = record.groups[me.group]
        setup = seat_page.game.setup
        if me.seat == 0:  # the first student of a table is its GM: their phone is the GM's seat
            gms.append(seat_page)
            assert seat_page.seat == setup.gm_seat and setup.gm == me.name and seat_page._gm_page()
            assert find(seat_page, "pb-gm") and not find(seat_page, "pb-builder-0")
        else:
            assert setup.names[seat_page.seat] == me.name and len(group) - 1 == setup.players
            assert find(seat_page, f"pb-builder-{seat_page.seat}") and "pb-gm" not in shown_classes(seat_page)
    assert len(gms) == 2
    # A player makes their sheet on their phone; their table's GM sees it.
    player = next(p.seat_page for p in phones if p.student.seat == 1)
    make_sheet(player, player.seat)
    gm = next(g for g in gms if g.table_id == player.table_id)
    assert gm.refresh() and gm.game.state.characters[player.seat].ready
    # The other table's GM is released for another device: their old phone's seat opens nothing more.
    other_gm = next(g for g in gms if g.table_id != player.table_id)
    gm_student = next(p.student for p in phones if p.seat_page is other_gm)
    facilitator.refresh()
    assert facilitator.release_student(gm_student.id), facilitator.status.message
    other_gm.refresh()
    assert other_gm.role == "denied" and "released" in other_gm.status.message
    # The monitor: the tables, the CSV of decisions; then the end stops every table.
    facilitator.refresh()
    assert "The class CSV (1 decisions)" in one(facilitator, "pb-class-csv").value  # the sheet made on the phone
    assert facilitator.end(), facilitator.status.message
    player.refresh()
    assert "This table has stopped." in player.header.turn_html.value  # a cooperative game ranks nobody
    facilitator.refresh()
    assert "Session 1 · stopped when the class ended" in synced_text(facilitator)
    assert player.act(ApplyHit(seat=player.seat, character=player.seat, hit="reduced")) is False
    # The class board at a glance and the debrief: the sheet made on the phone, credited to its student.
    board = class_page(store, cl.load_class(store, record.id), "board")
    assert board.class_debrief is not None and "Table 2" in synced_text(board)
    # A cooperative game's results name no leader: who still stands.
    assert "3 of 3 player characters standing when the class ended (session 1)" in synced_text(board) and "lead" not in synced_text(board)
    one(facilitator, "pb-debrief-prepare").click()
    link = one(facilitator, "pb-debrief-csv").value
    assert "data:text/csv" in link and one(facilitator, "pb-debrief-pdf").value
    raw = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1)).decode("utf-8-sig")
    maker = next(p.student.name for p in phones if p.seat_page is player)
    assert any(maker in line and "sheet" in line for line in raw.splitlines()), raw[:400]


def test_a_table_saved_before_the_gm_had_a_seat_gets_its_key_when_its_facilitator_opens_it(store):
    from playbook.access import table_keys
    from rules import new_game
    from rules.danger_world import Setup

    # Made as the playbook made Danger World tables before: a key per character, none for the GM.
    table_id = store.create(new_game("danger-world", Setup(names=NAMES, gm=GM), 1), "old", {"bots": {}, **table_keys(len(NAMES))})
    old = store.info(table_id).meta
    facilitator = DangerWorldDashboard(store, query=f"?table={table_id}&facilitator={old['facilitator_key']}")
    assert facilitator.role == "facilitator"
    meta = store.info(table_id).meta
    assert set(meta["seat_keys"]) == {"0", "1", "2", "3"} and all(meta["seat_keys"][s] == old["seat_keys"][s] for s in "012")
    assert page(store, facilitator, GM_SEAT)._gm_page()


def test_the_shared_screen_makes_no_quick_sheet_for_a_character_on_a_device(store):
    host = new_table(store)
    page(store, host, 0)  # Wren's phone holds her seat
    host.refresh()
    click(one(host, "pb-quick-all"))
    state = store.load(host.table_id).game.state
    assert not state.characters[0].ready and state.characters[1].ready and state.characters[2].ready


def test_an_absent_gm_and_an_absent_player_are_each_played_by_a_bot_from_the_monitor(store):
    """The monitor names the GM a table waits on and offers a bot for their seat as for a
    player's: a player's bot takes a quick sheet; the GM's bot spends each check's botches as
    the lab's GM does (`lab.danger_world.gm_spend`), so the table plays on."""
    from playbook import classes as cl
    from rules.danger_world import ChooseSet
    from tests.support.classes import monitor, student

    names = ("Ana", "Bo", "Cy")
    record = cl.create_class(store, "danger-world", len(names), seed=4)
    phones = {name: student(store, record.code, name) for name in names}
    facilitator = monitor(store, record)
    assert facilitator.deal() and facilitator.start(), facilitator.status.message
    for phone in phones.values():
        phone.refresh()
    gm_phone = next(p for p in phones.values() if p.student.seat == 0)
    players = [p for p in phones.values() if p.student.seat != 0]
    table_id = gm_phone.seat_page.table_id
    gm_seat = gm_phone.seat_page.seat
    # The absent player's seat: a bot makes their sheet at once.
    absent = players[1].seat_page.seat
    facilitator.refresh()
    assert facilitator.hand_to_bot(0, absent), facilitator.status.message
    assert store.load(table_id).game.state.characters[absent].ready
    # The other player makes a sheet and fails a check: the table waits on its GM, by name.
    maker = players[0].seat_page
    maker.refresh()
    make_sheet(maker, maker.seat)
    for _ in range(30):  # checks until one fails with botches (the table's dice are its own)
        assert maker.act(BeginCheck(seat=maker.seat, character=maker.seat, stats=("agility", "perception"), difficulty=6))
        assert maker.act(ChooseSet(seat=maker.seat, height=None))
        if store.load(table_id).game.state.phase == "gm":
            break
    assert store.load(table_id).game.state.phase == "gm"
    facilitator.refresh()
    gm_name = gm_phone.student.name
    assert f"on {gm_name} (GM)" in synced_text(facilitator)
    assert find(facilitator, f"pb-class-bot-0-{gm_seat}")
    # The GM's bot spends the botches in the same change: the table is open again.
    assert facilitator.hand_to_bot(0, gm_seat), facilitator.status.message
    game = store.load(table_id).game
    spent = [a for a in game.actions if isinstance(a, SpendBotches)]
    assert len(spent) == 1 and spent[0].seat == gm_seat and game.state.phase != "gm"
    assert f"A bot (careful) plays {gm_name} (GM)" in synced_text(facilitator)
