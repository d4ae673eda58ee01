"""Dangerous Ideas played from phones, headless: four seat pages and the facilitator's page of one
table, each acting through its own page's write path (`TableDashboard.act`) as a click does.

A seat page shows its philosophy's tree and the controls of what that seat may do now, nothing
for another seat; in phase 2 two phones spend from pages that had not seen each other's spend,
and both spends land, once each.
"""

from __future__ import annotations

import pytest

from lab.dangerous_ideas import legal_actions
from rules.dangerous_ideas import Connect, Defend, Pass, Place, Roll, Title, TurnStones, Write
from tests.support.classes import joined
from tests.support.dangerous_ideas_page import click, start
from tests.support.headless import csv_rows, find, links, one, seat_query, synced_text, visible, walk
from widgets.dangerous_ideas import DangerousIdeasDashboard

NAMES = ("Reason", "Faith", "Chaos", "Progress")
START = ("think",) * 3 + ("create",) * 2 + ("connect", "defend")


@pytest.fixture
def table(store):
    """The facilitator's page and the four seats' pages of a new table (no bots)."""
    host = DangerousIdeasDashboard(store)
    start(host, NAMES, chapters=4)
    assert host.role == "facilitator"
    seats = [DangerousIdeasDashboard(store, query=seat_query(host, seat)) for seat in range(len(NAMES))]
    assert [page.role for page in seats] == ["seat"] * 4
    return host, seats


def look(*pages: DangerousIdeasDashboard) -> None:
    """Each page sees the table as it is now (a kernel's watcher does this by itself)."""
    for page in pages:
        page.refresh()


def act(page: DangerousIdeasDashboard, action) -> None:
    assert page.act(action), page.status.message


def to_a_turn(host: DangerousIdeasDashboard, seats: list[DangerousIdeasDashboard]) -> int:
    """Starting stones, the setting round and the first title, each from its seat's phone; the
    turn's stones on Create. Returns whose turn it is."""
    for seat, page in enumerate(seats):
        act(page, Place(seat=seat, place=START))
    look(host, *seats)
    while host.game.state.phase == "setting":
        seat = host.game.state.turn
        branch = next(a.branch for a in legal_actions(host.game.state, seat) if isinstance(a, Write))
        act(seats[seat], Write(seat=seat, branch=branch, text=f"{NAMES[seat]} is right {branch}", holder="Goldilocks"))
        look(host, *seats)
    starter = host.game.state.starter
    act(seats[starter], Title(seat=starter, title="In which Goldilocks wakes"))
    look(host, *seats)
    turn = host.game.state.turn
    act(seats[turn], TurnStones(seat=turn, place=("create", "create")))
    look(host, *seats)
    return turn


def test_each_phone_places_its_own_stones_and_no_other_seats(table) -> None:
    host, seats = table
    # Everyone places at once: each phone has its own placer, for its own sheet.
    for seat, page in enumerate(seats):
        assert one(page, "pb-own-sheet").value.count(f'data-seat="{seat}"') == 1
        # Its tree is drawn once, above the others'.
        assert [w for w in find(page, f"pb-sheet-{seat}") if visible(w) and w.value] == []
        assert all(visible(w) and w.value for other in range(4) if other != seat for w in find(page, f"pb-sheet-{other}"))
        assert find(page, "pb-seat-0" if seat else "pb-seat-1") == []
        assert one(page, "pb-place-confirm").description == "Place these stones"
    # Faith's phone cannot place Reason's stones, even by a hand-made message.
    assert not seats[1].act(Place(seat=0, place=START))
    assert seats[1].status.message == "This is Faith's own page: it plays only that seat."
    assert host.game.state.sheets[0].placed is False
    for node, count in {"think": 3, "create": 2, "connect": 1, "defend": 1}.items():
        one(seats[1], f"pb-place-{node}").value = count
    click(seats[1], "pb-place-confirm")
    assert seats[1].game.state.sheets[1].placed
    assert "Nothing to do now" in synced_text(one(seats[1], "pb-controls"))
    # Reason's phone had not seen Faith's placing: its own lands all the same.
    act(seats[0], Place(seat=0, place=START))
    assert seats[0].game.state.sheets[0].placed and seats[0].game.state.sheets[1].placed


def test_the_setting_round_is_on_the_phone_whose_turn_it_is(table) -> None:
    host, seats = table
    for seat, page in enumerate(seats):
        act(page, Place(seat=seat, place=START))
    look(host, *seats)
    turn = host.game.state.turn
    assert host.game.state.phase == "setting"
    for seat, page in enumerate(seats):
        assert bool(find(page, "pb-write-confirm")) == (seat == turn), seat
        assert visible(one(page, "pb-narration")) == (seat == turn)
    # The facilitator's page plays no seat a phone holds: it says whom the table waits for.
    assert find(host, "pb-write-confirm") == []
    assert f"waiting for {NAMES[turn]} on their own phones" in synced_text(host.controls)


def draft_a_meme(actor) -> None:
    """The actor's phone starts a Create meme action: its text, holder and narration typed."""
    click(actor, "pb-create")
    one(actor, "pb-meme-text").value = "Everything has a reason"
    one(actor, "pb-meme-holder").value = "Goldilocks"
    one(actor, "pb-narration").value = "Reason whispers to Goldilocks."


def test_two_phones_spend_in_the_same_second_and_both_land_once(table) -> None:
    host, seats = table
    turn = to_a_turn(host, seats)
    actor = seats[turn]
    draft_a_meme(actor)
    click(actor, "pb-announce-stake")
    assert host.refresh() and host.game.state.phase == "respond"
    look(*seats)
    helper, hinderer, bystander = (seats[(turn + k) % 4] for k in (1, 2, 3))
    # Phase 2 on every phone at once: no "who spends?" and no passing for the others.
    for page in (helper, hinderer, bystander):
        assert find(page, "pb-connect") and find(page, "pb-defend") and find(page, "pb-pass")
        assert find(page, "pb-all-pass") == [] and not any(c.startswith("pb-responder-") for w in walk(page) for c in w._dom_classes)
    pool = host.game.state.attempt.pool
    click(helper, "pb-connect")
    one(helper, "pb-stake-node").value = 1
    click(hinderer, "pb-defend")
    one(hinderer, "pb-stake-node").value = 1
    # A spend being chosen on one phone is that phone's own.
    assert find(bystander, "pb-stake-confirm") == []
    click(helper, "pb-stake-confirm")
    # The hinderer's page has not seen the connect: its defend is decided against the table as
    # it is now, and lands too (the store lets different seats' plays commute).
    assert hinderer.version < helper.version
    click(hinderer, "pb-stake-confirm")
    host.refresh()
    kinds = [(a.kind, a.seat) for a in host.game.actions[-2:]]
    assert kinds == [("connect", helper.seat), ("defend", hinderer.seat)]
    assert sum(1 for a in host.game.actions if isinstance(a, (Connect, Defend))) == 2
    a = host.game.state.attempt
    assert a.sides[helper.seat] == "connect" and a.sides[hinderer.seat] == "defend"
    assert a.pools[-2:] == (pool + 1, a.pool)
    # The bystander's phone may not spend for the others, nor pass for them.
    assert not bystander.act(Connect(seat=helper.seat, from_node=1))
    assert not bystander.act(Pass(seat=actor.seat))
    assert host.game.state.attempt.passed == (False,) * 4
    # Everyone passes from their own phone: the dice roll.
    for page in seats:
        page.refresh()
        click(page, "pb-pass")
    look(host, *seats)
    assert host.game.state.phase in ("reroll", "outcome")


def test_the_board_shows_every_tree_the_meme_action_its_odds_and_the_story_and_plays_nothing(table) -> None:
    host, seats = table
    board = DangerousIdeasDashboard(host.store, query=links(host)["board"])
    assert board.role == "board"
    turn = to_a_turn(host, seats)
    actor = seats[turn]
    draft_a_meme(actor)
    one(seats[(turn + 1) % 4], "pb-narration").value = "A draft nobody sent"
    click(actor, "pb-announce-stake")
    board.refresh()
    scene = board.phase_board.scene.value
    host.refresh()
    a = host.game.state.attempt
    assert "Everything has a reason" in scene and f"Pool {a.pool}" in scene and "% to succeed" in scene
    trees = one(board, "pb-board-trees").value
    assert all(f">{name}<" in trees for name in NAMES)
    story = one(board, "pb-story").value
    assert "Reason whispers to Goldilocks." in story and "In which Goldilocks wakes" in story
    text = synced_text(board)
    assert "A draft nobody sent" not in text and "seat=" not in text
    # Read-only: no control of a seat, and a hand-made message is refused.
    assert find(board, "pb-pass") == [] and find(board, "pb-stake-confirm") == [] and find(board, "pb-controls") == []
    assert not board.act(Pass(seat=turn)) and board.status.message == "This page only shows the table."
    # Everyone passes: the roll and its outcome on the board.
    for page in seats:
        page.refresh()
        click(page, "pb-pass")
    board.refresh()
    dice = host.store.load(host.table_id).game.state.attempt.dice
    assert f"{dice[0]} + {dice[1]} = {sum(dice)}" in board.phase_board.scene.value


# -- a class of Dangerous Ideas, with phones only -----------------------------------------------------


def test_a_class_is_dealt_started_played_from_phones_and_ended(store) -> None:
    students = ["Ana", "Bo", "Cy", "Di", "Ed", "Fi", "Gus", "Hal"]
    phones, facilitator = joined(store, "dangerous-ideas", students, seed=4)
    assert facilitator.deal() and facilitator.start(), facilitator.status.message
    record = facilitator.record
    assert len(record.tables) >= 2
    for phone in phones:
        phone.refresh()
    # Every phone became its student's seat: a Dangerous Ideas seat page, placing its own stones.
    pages = [phone.seat_page for phone in phones]
    assert all(isinstance(p, DangerousIdeasDashboard) and p.role == "seat" for p in pages), [p and p.role for p in pages]
    assert "shared screen" not in " ".join(synced_text(phone) for phone in phones)
    for page in pages:
        assert find(page, "pb-place-confirm") and page.game.state.sheets[page.seat].name == page.seat_name(page.seat)
        for node, count in {"think": 3, "create": 2, "connect": 1, "defend": 1}.items():
            one(page, f"pb-place-{node}").value = count
        click(page, "pb-place-confirm")
    states = [store.load(t).game.state for t in record.tables]
    assert all(s.phase == "setting" for s in states)
    # The monitor sees each table's state; the class ends; its debrief's CSV names each phone's moves.
    facilitator.refresh()
    assert facilitator.end(), facilitator.status.message
    facilitator.refresh()
    one(facilitator, "pb-debrief-prepare").click()
    rows = csv_rows(one(facilitator, "pb-debrief-csv").value)
    assert sorted(r["student"] for r in rows) == sorted(students)
    ana = next(r for r in rows if r["student"] == "Ana")
    assert ana["decision"].startswith("places the starting stones") and ana["amount"] == "7"
    # A stopped table takes no more moves from a phone, and says so.
    page = pages[0]
    page.refresh()
    assert not visible(page.curtain)
    assert not page.act(Write(seat=page.seat, branch="probe-1", text="Late", holder="Goldilocks"))
    assert "ended the class" in page.status.message


def test_with_table_dice_the_actors_phone_enters_the_roll_and_no_other(store) -> None:
    host = DangerousIdeasDashboard(store)
    start(host, NAMES, chapters=4, table_dice=True)
    seats = [DangerousIdeasDashboard(store, query=seat_query(host, seat)) for seat in range(len(NAMES))]
    turn = to_a_turn(host, seats)
    actor = seats[turn]
    click(actor, "pb-create")
    one(actor, "pb-meme-text").value = "Everything has a reason"
    one(actor, "pb-meme-holder").value = "Goldilocks"
    click(actor, "pb-announce-stake")
    for page in seats:
        page.refresh()
        click(page, "pb-pass")
    look(host, *seats)
    assert host.game.state.phase == "roll"
    other = seats[(turn + 1) % 4]
    assert find(other, "pb-table-dice-enter") == [] and f"{NAMES[turn]} rolls and enters the dice." in synced_text(one(other, "pb-controls"))
    # A hand-made message from another phone is refused; the actor's phone enters the dice.
    assert not other.act(Roll(dice=(2, 3)))
    assert other.status.message == f"This is {NAMES[other.seat]}'s own page: it plays only that seat."
    one(actor, "pb-table-die-0").value = 2
    one(actor, "pb-table-die-1").value = 3
    click(actor, "pb-table-dice-enter")
    host.refresh()
    assert host.game.state.attempt.dice == (2, 3)


def test_the_join_code_makes_a_phone_a_philosophys_seat(store) -> None:
    host = DangerousIdeasDashboard(store)
    start(host, NAMES, chapters=4)
    phone = DangerousIdeasDashboard(store, query=links(host)["join"])
    assert phone.role == "join"
    click(phone, "pb-claim-2")
    assert phone.role == "seat" and phone.seat == 2
    assert find(phone, "pb-place-confirm") and "Chaos" in one(phone, "pb-own-sheet").value
    # Chaos's seat is on a phone now: the join page offers it no more, and the facilitator's
    # page plays the other three only.
    again = DangerousIdeasDashboard(store, query=links(host)["join"])
    assert find(again, "pb-claim-2") == [] and len(find(again, "pb-claim-0")) == 1
    host.refresh()
    assert host.playable() == frozenset({0, 1, 3})


def test_each_phone_says_whose_turn_it_is_in_its_own_words(table) -> None:
    """The seat that moves reads "Your turn"; every other phone the mover's name."""
    host, seats = table
    turn = to_a_turn(host, seats)
    for seat, page in enumerate(seats):
        said = one(page, "pb-turn").value
        if seat == turn:
            assert "Your turn: 2 actions left." in said, said
        else:
            assert f"{NAMES[turn]}&#x27;s turn" in said or f"{NAMES[turn]}'s turn" in said, said
    assert f"{NAMES[turn]}" in one(host, "pb-turn").value  # the facilitator's page plays every seat: names


def test_the_board_names_who_names_the_chapter(table) -> None:
    """Before a chapter's first turn the room waits on its starter: the board says who."""
    from widgets.board import board_scene

    host, seats = table
    for seat, page in enumerate(seats):
        act(page, Place(seat=seat, place=START))
    look(host)
    while host.game.state.phase == "setting":
        seat = host.game.state.turn
        branch = next(a.branch for a in legal_actions(host.game.state, seat) if isinstance(a, Write))
        act(seats[seat], Write(seat=seat, branch=branch, text=f"{NAMES[seat]} is right {branch}", holder="Goldilocks"))
        look(host)
    state = host.game.state
    assert state.phase == "title"
    scene = board_scene(host.game)
    starter = NAMES[state.starter]
    assert f"{starter} names the chapter." in scene.centre and any(f.label == "Turn" and f.value == starter for f in scene.facts)
