"""The table store's one write path, on SQLite and on a real PostgreSQL server.

Every test runs against both (the `location` fixture, `tests/support/stores.py`); races use real processes (spawned, each with
its own Store) and account for every submission against the database afterwards.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from playbook.refusals import Refusal
from playbook.store import STOPPED, Claim, ClassTables, ClassUpdate, HandOver, Play, Refused, Release, SetMeta, StaleTable, StoppedTable, Store, StoredClass, Undo
from rules import Game, RuleError, new_game
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import action_to_json
from tests.support.class_workers import code_taker, hung_change
from tests.support.store_workers import racer, simultaneous

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def store(location) -> Store:
    """Here the store is of both kinds, each closed afterwards."""
    opened = Store(location)
    yield opened
    opened.close()


def leerdam_table(store: Store, households: int = 5, bots: dict[int, str] | None = None, **options) -> str:
    names = tuple(f"House {i + 1}" for i in range(households))
    game = new_game("leerdam", ld.Setup(names=names, **options), 11)
    return store.create(game, meta={"bots": {str(s): b for s, b in (bots or {}).items()}})


def pledge(store: Store, table_id: str, seat: int, units: int, seen: int):
    return store.submit(table_id, Play(ld.Contribute(seat=seat, units=units)), seen)


# -- one change at a time -------------------------------------------------------------------------


def test_every_change_bumps_the_version_and_is_recorded(store):
    table_id = leerdam_table(store)
    assert store.version(table_id) == 1
    outcome = pledge(store, table_id, 0, 1, seen=1)
    assert outcome.table.version == 2 == store.version(table_id)
    assert outcome.appended and not outcome.behind
    assert [c["kind"] for c in store.changes(table_id)] == ["create", "play"]
    assert store.changes(table_id)[1]["seats"] == [0]
    again = Store(store.location).load(table_id)  # another process replays the same table
    assert again.game.state == outcome.table.game.state and again.version == 2


def test_a_page_that_is_behind_still_pledges_when_it_is_legal(store):
    table_id = leerdam_table(store)
    pledge(store, table_id, 0, 1, seen=1)
    late = pledge(store, table_id, 1, 2, seen=1)  # this page never saw seat 0's pledge
    assert late.behind and late.table.version == 3
    assert late.table.game.state.pledges[:2] == (1, 2)


def test_an_action_no_longer_legal_is_refused_with_the_reason_and_nothing_changes(store):
    table_id = leerdam_table(store)
    pledge(store, table_id, 0, 1, seen=1)
    with pytest.raises(StaleTable, match="House 1's seat moved on another page"):
        pledge(store, table_id, 0, 2, seen=1)  # a second device on the same seat, behind
    with pytest.raises(Refused, match="already pledged") as refused:
        pledge(store, table_id, 0, 2, seen=2)
    assert refused.value.rule == "one pledge" and refused.value.table.version == 2
    assert store.version(table_id) == 2 and len(store.changes(table_id)) == 2


def test_a_page_that_knows_a_newer_version_than_the_store_is_refused(store):
    # A store restored from a backup, or a page of a table in another database: its `seen` is
    # above the stored version. Nothing it sends is played, not even a pledge nobody made yet.
    table_id = leerdam_table(store)
    pledge(store, table_id, 0, 1, seen=1)
    for seen in (3, 10):
        with pytest.raises(StaleTable, match="newer table than the store holds"):
            pledge(store, table_id, 1, 2, seen=seen)
    with pytest.raises(StaleTable):
        store.submit(table_id, Undo(), seen=3)
    assert store.version(table_id) == 2 and len(store.changes(table_id)) == 2
    assert store.load(table_id).game.state.pledges[:2] == (1, None)


def test_a_page_two_versions_behind_is_stale_when_its_own_seat_moved_after_another(store):
    table_id = leerdam_table(store)
    pledge(store, table_id, 1, 2, seen=1)  # another seat moves (version 2)
    pledge(store, table_id, 0, 1, seen=2)  # then this seat, on another device (version 3)
    with pytest.raises(StaleTable, match="House 1's seat moved on another page"):
        pledge(store, table_id, 0, 3, seen=1)  # this page saw neither
    # Its own seat moved first, another seat after: stale all the same.
    other = leerdam_table(store)
    pledge(store, other, 0, 1, seen=1)
    pledge(store, other, 1, 2, seen=2)
    with pytest.raises(StaleTable, match="House 1's seat moved on another page"):
        pledge(store, other, 0, 3, seen=1)
    for table in (table_id, other):
        assert store.version(table) == 3 and store.load(table).game.state.pledges[:2] == (1, 2)
    # Two versions behind with only other seats moved: the pledge is still legal and goes through.
    pledge(store, table_id, 2, 1, seen=1)
    assert store.load(table_id).game.state.pledges[:3] == (1, 2, 1)


def test_table_actions_and_undo_need_an_up_to_date_page(store):
    table_id = leerdam_table(store)
    pledge(store, table_id, 0, 1, seen=1)
    with pytest.raises(StaleTable, match="moved on"):
        store.submit(table_id, Play(ld.Advance(seat=None)), seen=1)
    with pytest.raises(StaleTable):
        store.submit(table_id, Undo(), seen=1)
    with pytest.raises(StaleTable, match="House 1's seat moved"):
        store.submit(table_id, HandOver(0, "fair"), seen=1)  # that seat moved since the page looked
    assert store.version(table_id) == 2


def test_a_handover_or_release_of_a_seat_that_did_not_move_goes_through_a_burst(store):
    """The facilitator's page is behind while the class pledges: a seat that has not moved can
    still be handed to a bot, or released, without looking again."""
    table_id = leerdam_table(store)
    for seat in range(3):
        pledge(store, table_id, seat, 1, seen=1)  # three pledges the facilitator's page has not seen
    handed = store.submit(table_id, HandOver(4, "fair"), seen=1)
    assert handed.behind and handed.table.bots == {4: "fair"} and handed.table.game.state.pledges[4] is not None
    store.submit(table_id, Claim(3, "k" * 22), seen=1)
    with pytest.raises(StaleTable, match="House 4's seat moved"):
        store.submit(table_id, Release(3, "n" * 22), seen=1)  # a device claimed it since: look first
    released = store.submit(table_id, Release(3, "n" * 22), seen=store.version(table_id))
    assert "3" not in released.table.meta["claims"] and released.table.meta["seat_keys"]["3"] == "n" * 22


def test_undo_takes_back_what_the_page_saw_and_keeps_it_in_the_history(store):
    table_id = leerdam_table(store)
    first = pledge(store, table_id, 0, 1, seen=1)
    second = pledge(store, table_id, 1, 2, seen=2)
    undone = store.submit(table_id, Undo(), seen=3)
    assert undone.undone == second.appended and undone.table.version == 4
    assert undone.table.game.state.pledges[:2] == (1, None)
    history = {row["n"]: row for row in store.history(table_id)}
    assert all(history[n]["undone"] == 4 for n in second.appended)
    assert all(history[n]["undone"] is None for n in first.appended)
    assert store.moves(table_id) == len(undone.table.game.actions)
    # The same seat pledges again: a new row, the undone one stays undone.
    again = pledge(store, table_id, 1, 3, seen=4)
    assert set(again.appended).isdisjoint(second.appended)
    assert store.load(table_id).game.state.pledges[:2] == (1, 3)


def test_undo_goes_back_past_the_bot_moves_and_stops_at_a_reveal(store):
    table_id = leerdam_table(store, 5, bots={3: "fair", 4: "free-rider"})
    table = store.load(table_id)
    assert table.game.state.pledges[3:] == (1, 0) and table.by_bot[-2:] == (True, True)  # at once
    version = table.version
    for seat in range(2):
        version = pledge(store, table_id, seat, 1, version).table.version
    last = pledge(store, table_id, 2, 1, version)  # the last pledge: the reveal
    assert last.table.game.state.phase == "allocate"
    with pytest.raises(Refused, match="revealed hidden information"):
        store.submit(table_id, Undo(), last.table.version)
    # An offer to a bot is answered at once; one Undo takes back the answer and the offer.
    offer = store.submit(table_id, Play(ld.Offer(seat=0, partner=3, wealth=0, units=1)), last.table.version)
    assert offer.table.by_bot[-2:] == (False, True) and offer.table.game.state.deals[0].status == "declined"
    undone = store.submit(table_id, Undo(), offer.table.version)
    assert undone.undone == offer.appended and undone.table.game.state.deals == ()


def test_handing_a_seat_to_a_bot_lets_it_move_at_once_and_back(store):
    table_id = leerdam_table(store)
    outcome = store.submit(table_id, HandOver(4, "altruist"), seen=1)
    assert outcome.table.bots == {4: "altruist"} and outcome.table.game.state.pledges[4] == 2
    with pytest.raises(Refused, match="a bot plays this seat"):
        pledge(store, table_id, 4, 1, outcome.table.version)
    back = store.submit(table_id, HandOver(4, None), outcome.table.version)
    assert back.table.bots == {}
    with pytest.raises(Refused, match="unknown bot 'genius'"):
        store.submit(table_id, HandOver(1, "genius"), back.table.version)
    with pytest.raises(Refused, match="no seat 9"):
        store.submit(table_id, HandOver(9, "fair"), back.table.version)


def test_advance_lets_the_bots_allocate_first_then_moves_the_year_on(store):
    table_id = leerdam_table(store, 5, bots={1: "fair", 2: "fair", 3: "fair", 4: "fair"})
    table = pledge(store, table_id, 0, 1, seen=1).table
    assert table.game.state.phase == "allocate" and table.game.state.plans[1:] == (None,) * 4  # they wait for the person
    plan = (ld.Assignment(0, "subsistence", 2),)
    table = store.submit(table_id, Play(ld.Allocate(seat=0, plan=plan)), table.version).table
    # The bots allocated after the last person; the next year waits for pledges.
    assert table.game.state.year == 2 and table.game.state.phase == "contribute"
    table = pledge(store, table_id, 0, 1, table.version).table  # year 2: the person does not allocate
    advanced = store.submit(table_id, Play(ld.Advance(seat=None), release_bots=True), table.version).table
    year2 = [r for r in advanced.game.state.ledger if r.year == 2]
    assert advanced.game.state.year == 3
    assert (year2[0].subsistence, year2[0].profit) == (2, 0)  # the person's missing allocation: fed, rest idle
    assert all(r.profit > 0 for r in year2[1:])  # the bots chose their own plans before the Advance


def test_meta_changes_go_through_the_write_path(store):
    table_id = leerdam_table(store)
    table = store.submit(table_id, SetMeta({"seat_keys": {"0": "k"}}), seen=1).table
    assert table.meta["seat_keys"] == {"0": "k"} and table.version == 2
    with pytest.raises(Refused, match="HandOver"):
        store.submit(table_id, SetMeta({"bots": {"1": "fair"}}), seen=2)


def test_an_unknown_table_is_a_key_error(store):
    with pytest.raises(KeyError):
        store.submit("nope", Undo(), 1)
    with pytest.raises(KeyError):
        store.load("nope")


# -- the change signal ----------------------------------------------------------------------------


def test_wait_wakes_when_another_store_changes_the_table(store):
    table_id = leerdam_table(store)
    other = Store(store.location)

    def move_soon() -> None:
        time.sleep(0.3)
        pledge(other, table_id, 0, 1, seen=1)

    mover = threading.Thread(target=move_soon)
    mover.start()
    # A long timeout: the waiter returns the new version because it was woken, not timed out.
    assert store.wait(table_id, seen=1, timeout=60) == 2
    mover.join()
    assert store.wait(table_id, seen=1, timeout=60) == 2  # already newer: at once
    assert store.wait(table_id, seen=2, timeout=0.2) == 2  # nothing new: the timeout
    other.close()


# -- real processes at once --------------------------------------------------------------------------


def _spawn(target, args_list) -> None:
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=target, args=args) for args in args_list]
    for p in processes:
        p.start()
    for p in processes:
        p.join(150)
        assert p.exitcode == 0, f"a worker failed (exit code {p.exitcode})"


def _lines(folder: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]


@pytest.mark.heavy
def test_ten_households_pledge_and_allocate_at_the_same_moment_none_refused(location, tmp_path):
    store = Store(location)
    table_id = leerdam_table(store, 10)
    barrier = multiprocessing.get_context("spawn").Barrier(10)
    _spawn(simultaneous, [(location, table_id, seat, barrier, str(tmp_path / f"seat{seat}.jsonl")) for seat in range(10)])
    lines = _lines(tmp_path)
    assert len(lines) == 20
    assert [line for line in lines if line["result"] != "ok"] == []
    assert sum(line["behind"] for line in lines) >= 9  # they really were at the same moment
    state = store.load(table_id).game.state
    assert state.year == 2 and [r.contribution for r in state.ledger if r.year == 1] == [1] * 10
    store.close()


@pytest.mark.heavy
def test_five_players_pick_at_the_same_moment_none_refused(location, tmp_path):
    store = Store(location)
    game = new_game("new-rule", nr.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed")), 4)
    table_id = store.create(game)
    table = store.load(table_id)
    for seat in range(5):  # the draws, one seat after another
        table = store.submit(table_id, Play(nr.Draw(seat=seat)), table.version).table
        table = store.submit(table_id, Play(nr.Keep(seat=seat)), table.version).table
    assert table.game.state.phase == "pick"
    barrier = multiprocessing.get_context("spawn").Barrier(5)
    _spawn(simultaneous, [(location, table_id, seat, barrier, str(tmp_path / f"seat{seat}.jsonl")) for seat in range(5)])
    lines = _lines(tmp_path)
    assert [line["result"] for line in lines] == ["ok"] * 5
    assert store.load(table_id).game.state.phase in ("pay", "draw", "over")  # revealed
    store.close()


@pytest.mark.heavy
def test_eight_processes_append_undo_and_hand_over_and_every_action_is_accounted_for(location, tmp_path):
    store = Store(location)
    table_id = leerdam_table(store, 8, bots={6: "fair", 7: "fair"}, end_check_from=100)
    roles = [("seat", i) for i in range(6)] + [("undo", 0), ("hand-over", 0)]
    _spawn(racer, [(location, table_id, role, index, 25, str(tmp_path / f"{role}-{index}.jsonl")) for role, index in roles])
    everything = _lines(tmp_path)
    totals = {line["who"]: line["submitted"] for line in everything if "submitted" in line}
    lines = [line for line in everything if "result" in line]
    history = store.history(table_id)
    changes = store.changes(table_id)
    accepted = [line for line in lines if line["result"] == "ok"]
    refused = [line for line in lines if line["result"] == "refused"]
    # Every process's every submission has its line; each made enough to race.
    assert len(totals) == 8 and all(n >= 5 for n in totals.values())
    assert sum(totals.values()) == len(lines)
    # Every refusal says why; some were refused and many went through behind.
    assert all(line["rule"] and line["message"] for line in refused)
    assert accepted and sum(line["behind"] for line in accepted) > 0
    kinds = Counter((line["change"], line["result"], line.get("rule")) for line in lines)
    assert kinds["undo", "ok", None] and kinds["hand-over", "ok", None], kinds
    # One version per accepted change, no gaps, no two changes at one version.
    assert [c["version"] for c in changes] == list(range(1, len(accepted) + 2))
    assert sorted(line["version"] for line in accepted) == list(range(2, len(accepted) + 2))
    rows_by_version = defaultdict(list)
    undone_by_version = defaultdict(list)
    for row in history:
        rows_by_version[row["version"]].append(row)
        if row["undone"] is not None:
            undone_by_version[row["undone"]].append(row["n"])
            assert row["undone"] > row["version"]
    assert set(rows_by_version) <= {1} | {line["version"] for line in accepted}
    for line in accepted:
        # Exactly the rows this change wrote carry its version, once each.
        assert [r["n"] for r in rows_by_version[line["version"]]] == line["appended"]
        assert sorted(undone_by_version[line["version"]]) == sorted(line["undone"])
        if line["change"] == "play":
            first = rows_by_version[line["version"]][0]["action"]
            assert first == line["action"]
    # Nothing was undone by anything but an accepted undo, nothing lost, nothing back.
    undos = {line["version"] for line in accepted if line["change"] == "undo"}
    assert {v for v, rows in undone_by_version.items() if rows} <= undos
    live = [row for row in history if row["undone"] is None]
    table = store.load(table_id)  # the live log replays, every chance outcome checked
    assert [action_to_json(a) for a in table.game.actions] == [row["action"] for row in live]
    assert len({row["n"] for row in history}) == len(history)
    store.close()


# -- classes beside the tables ----------------------------------------------------------------------


def _add_class(store: Store, class_id: str = "c1", code: str = "ABC234", record: str = '{"v": 1}') -> None:
    assert store.add_class(class_id, code, "leerdam", record, time.time())


def _update(record: str, kind: str = "join", summary: str = "Ana joined", finished: bool = False):
    """A class change that writes `record`, whatever the class was."""
    return lambda stored, tables: ClassUpdate(record, kind, summary, finished)


def _village(names: tuple[str, ...] = ("Ana", "Bo", "Cy", "Di", "Ed")) -> Game:
    return new_game("leerdam", ld.Setup(names=names), 11)


def test_a_class_is_its_record_with_a_version_and_a_log_of_changes(store):
    _add_class(store)
    assert store.class_record("c1") == StoredClass("c1", '{"v": 1}', 1) == store.class_by_code("ABC234")
    assert store.class_version("c1") == 1 and store.class_by_code("ZZZ999") is None
    seen: list[StoredClass] = []

    def join(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        seen.append(stored)
        return ClassUpdate('{"v": 2}', "join", "Ana joined")

    assert store.change_class("c1", join) == StoredClass("c1", '{"v": 2}', 2) == store.class_record("c1")
    assert seen == [StoredClass("c1", '{"v": 1}', 1)]  # the change is decided on the class as stored
    store.change_class("c1", _update('{"v": 3}', "end", "the class is over", finished=True))
    assert [(c["version"], c["kind"], c["summary"]) for c in store.class_changes("c1")] == [
        (1, "create", "class created"),
        (2, "join", "Ana joined"),
        (3, "end", "the class is over"),
    ]
    assert store.classes() == [] and store.classes(open_only=False) == [StoredClass("c1", '{"v": 3}', 3)]
    for unknown in (lambda: store.class_record("nope"), lambda: store.class_version("nope"), lambda: store.change_class("nope", _update("{}"))):
        with pytest.raises(KeyError):
            unknown()


def test_a_taken_room_code_or_id_is_told_by_the_database_and_saves_nothing(store):
    _add_class(store, "c1", "ABC234")
    assert store.add_class("c2", "ABC234", "leerdam", "{}", time.time()) is False  # another class's code
    assert store.add_class("c1", "XYZ789", "leerdam", "{}", time.time()) is False  # another class's id
    # Any other constraint is no clash, and is not passed off as one.
    with pytest.raises(Exception) as broken:
        store.add_class("c3", "QRS456", None, "{}", time.time())  # type: ignore[arg-type]  # a class without a game
    assert type(broken.value).__name__ in ("IntegrityError", "NotNullViolation")
    assert store.classes(open_only=False) == [StoredClass("c1", '{"v": 1}', 1)]
    assert len(store.class_changes("c1")) == 1 and store.class_changes("c2") == [] == store.class_changes("c3")
    _add_class(store, "c4", "XYZ789")  # the store takes the next class as before


def test_a_class_change_makes_and_stops_its_tables_in_its_own_transaction(store):
    _add_class(store)
    made: list[str] = []

    def start(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        made.append(tables.create(_village(), "Village 1", {"bots": {"4": "fair"}}))
        return ClassUpdate('{"v": 2}', "start", "started 1 tables")

    store.change_class("c1", start)
    assert [t.id for t in store.tables()] == made and store.load(made[0]).bots == {4: "fair"}

    def end(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        tables.stop(made[0], "The class is over.")
        tables.stop(made[0], "said twice")  # a table already stopped is left as it is
        return ClassUpdate('{"v": 3}', "end", "the class is over", finished=True)

    store.change_class("c1", end)
    table = store.load(made[0])
    assert table.meta[STOPPED] == "The class is over." and table.version == 2
    with pytest.raises(StoppedTable, match="The class is over") as refused:
        pledge(store, made[0], 0, 1, seen=2)
    # The store's refusal is the playbook's own kind, not the rules'.
    assert isinstance(refused.value, Refused) and isinstance(refused.value, Refusal) and not isinstance(refused.value, RuleError)
    assert refused.value.rule == "stopped" and refused.value.table is not None and refused.value.table.version == 2


def test_a_refused_class_change_leaves_the_class_and_the_tables_it_made_as_they_were(store):
    _add_class(store)

    def refuse(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        tables.create(_village(), "Village 1", {"bots": {}})
        raise Refusal("the page was behind", "stale")

    with pytest.raises(Refusal, match="behind"):
        store.change_class("c1", refuse)
    assert store.tables() == [] and store.class_record("c1") == StoredClass("c1", '{"v": 1}', 1)
    assert len(store.class_changes("c1")) == 1


def test_wait_class_wakes_when_another_store_changes_the_class(store):
    _add_class(store)
    other = Store(store.location)

    def change_soon() -> None:
        time.sleep(0.3)
        other.change_class("c1", _update('{"v": 2}'))

    changer = threading.Thread(target=change_soon)
    changer.start()
    # A long timeout: the waiter returns the new version because it was woken, not timed out.
    assert store.wait_class("c1", seen=1, timeout=60) == 2
    changer.join()
    assert store.wait_class("c1", seen=2, timeout=0.2) == 2  # nothing new: the timeout
    other.close()


@pytest.mark.heavy
def test_six_processes_want_one_room_code_at_the_same_moment_and_one_gets_it(location, tmp_path):
    barrier = multiprocessing.get_context("spawn").Barrier(6)
    _spawn(code_taker, [(location, p, "SAME22", barrier, str(tmp_path / f"p{p}.txt")) for p in range(6)])
    assert sorted(path.read_text() for path in tmp_path.glob("p*.txt")) == ["added"] + ["taken"] * 5
    store = Store(location)
    (only,) = store.classes()
    assert store.class_by_code("SAME22") == only and len(store.class_changes(only.id)) == 1
    store.close()


def test_a_process_killed_inside_a_class_change_leaves_nothing_and_holds_no_lock(location, tmp_path):
    store = Store(location)
    _add_class(store)
    ready = tmp_path / "inside"
    worker = multiprocessing.get_context("spawn").Process(target=hung_change, args=(location, "c1", str(ready)))
    worker.start()
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert worker.is_alive() and time.monotonic() < deadline, "the worker never reached its transaction"
        time.sleep(0.05)
    # Inside its transaction: the table it made is nobody else's to see yet.
    assert store.tables() == [] and store.class_version("c1") == 1
    worker.kill()
    worker.join(30)
    # Its lock went with it: the next change goes through, and the table was never made.
    assert store.change_class("c1", _update('{"v": 2}')).version == 2
    assert store.tables() == [] and [c["kind"] for c in store.class_changes("c1")] == ["create", "join"]
    store.close()
