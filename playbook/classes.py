"""A class: one game for one room, its students, its room code and the tables it is dealt into.

A class is a record kept beside the tables in the same store and changed through the same kind
of write path: `submit(store, class_id, change, seen)` decides one change in one transaction
against the latest record, where `seen` is the version the page showed. Joins commute (thirty
students joining in the same second all get in, each once); a deal, a move between tables and
the start are the facilitator's and need an up-to-date page. Starting the class creates its
tables in that same transaction, so a table is never half made and no student is dealt twice.

The phases: **lobby** (students join by the code and wait), **dealt** (every student has a
table; the facilitator may still move students), **playing** (the tables exist and play; a late
student waits, and the facilitator may deal the waiting students into tables of their own),
**over**.

The record is plain data (`ClassRecord`, JSON in the store); everything here that decides
something is a pure function of it: `table_sizes`, `deal`, `apply_change`. Pages are in
`widgets/classroom.py`; the command line's `playbook class new` is `create_class`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import LANGUAGES, render
from rules import GAMES, RuleError, SaveFileError, new_game
from rules.core import even_tables, look_alike, look_alike_pair, look_alike_reason, name_problem
from rules.decisions import columns_with
from rules.games import CARDS, card, slugs
from rules.text import Said, say, say_n

from .access import key_matches, new_key, table_keys
from .bots import strategies
from .links import class_links
from .pace import table_pace
from .refusals import Refusal
from .store import CLASS_ENDED, STOPPED, ClassTables, ClassUpdate, HandOver, Refused, Release, Store, StoredClass, Table

__all__ = [
    "CODE_ALPHABET",
    "EMPTY_CLASS_HOURS",
    "Approve",
    "AskSeat",
    "ClassError",
    "ClassRecord",
    "Deal",
    "DealWaiting",
    "DenyRequest",
    "End",
    "Join",
    "Keep",
    "Move",
    "ReleaseStudent",
    "RemoveStudent",
    "RenameStudent",
    "SeatRequest",
    "Start",
    "Student",
    "Swap",
    "apply_change",
    "class_by_code",
    "class_links",
    "create_class",
    "deal",
    "device_hash",
    "ended_classes",
    "expire_empty",
    "load_class",
    "new_code",
    "note_presence",
    "presence",
    "submit",
    "table_sizes",
]

#: a room code's letters: no 0/O, 1/I/L, nor lowercase, so a code read off a projector is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: most students a class takes.
MAX_STUDENTS = 60
#: seconds a join waits for its device to keep its key: after that, a join not kept holds no
#: name (another device may join with it) and no place at a deal.
KEEP_SECONDS = 20.0


class ClassError(Refusal):
    """A class change that was not made (nothing changed); `record` is the class as it stands."""

    def __init__(self, rule: str, message: str | Said, record: ClassRecord | None = None) -> None:
        super().__init__(message, rule)
        self.record = record


# -- the record ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    #: the student's own key (their page's link holds it): their device is them.
    key: str
    joined: float
    #: the table (an index into the class's groups) and the seat there, once dealt.
    group: int | None = None
    seat: int | None = None
    #: the hash of the key the student's device keeps (`device_hash`): that device is theirs,
    #: however it comes back (a seat link, the join address, the code, the name pressed again).
    device: str = ""
    #: the device has kept its key (it said so): until then the join is not final.
    kept: bool = True
    #: released by the facilitator: the next device that joins with this name becomes this student.
    free: bool = False

    def on_device(self, device: str) -> bool:
        """Whether `device` (a device's own key, as its page reported it) is this student's."""
        return bool(device) and key_matches(self.device, device_hash(device))

    def lost(self, now: float) -> bool:
        """A join whose device never kept its key: it holds no name."""
        return not self.kept and now - self.joined > KEEP_SECONDS


@dataclass(frozen=True)
class SeatRequest:
    """A student asks for their place on another device; the facilitator approves it or not."""

    id: str
    student: str
    #: the new device's student key (its page holds it) and its device key's hash.
    key: str
    device: str
    at: float


def device_hash(device: str) -> str:
    """What a class keeps of a device's key: its SHA-256 (the key itself stays on the device)."""
    return hashlib.sha256(str(device).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ClassRecord:
    id: str
    code: str
    game: str
    title: str
    #: students expected (the facilitator's number); more may join, up to MAX_STUDENTS.
    expected: int
    monitor_key: str
    board_key: str
    roster: tuple[str, ...] = ()
    #: bots fill a table that would otherwise be short of the game's minimum.
    bots: bool = True
    phase: str = "lobby"
    students: tuple[Student, ...] = ()
    #: the students of each table, in seat order (a student id, or None for a bot's seat).
    groups: tuple[tuple[str | None, ...], ...] = ()
    #: the table ids, once started (one per group).
    tables: tuple[str, ...] = ()
    seed: int = 0
    created: float = 0.0
    version: int = 0
    #: setup variants every table of the class is made with, as in a save file's setup
    #: (`{"anonymous": true}`: Leerdam's anonymous pledges).
    variants: dict[str, Any] = field(default_factory=dict)
    #: students asking for their place on another device (the monitor approves them).
    requests: tuple[SeatRequest, ...] = ()
    #: the class's timer (`playbook.class_pace`): seconds per decision, who moves at zero, each
    #: student's extra time (student id -> factor), the moment the teacher paused.
    pace: dict[str, Any] = field(default_factory=dict)
    #: the class's language (the board's and every page's default, `playbook.languages`); ""
    #: for none chosen (a class stored before languages): the server's default.
    lang: str = ""

    def student(self, student_id: str) -> Student | None:
        return next((s for s in self.students if s.id == student_id), None)

    def by_device(self, device: str) -> Student | None:
        """The student whose device this is (`device`: the key that device keeps), if any."""
        return next((s for s in self.students if s.on_device(device)), None)

    def by_name(self, name: str) -> Student | None:
        """The student with this name, or one that looks the same (`rules.core.look_alike`: case,
        width, invisible characters aside, and letters of other alphabets that look alike)."""
        return next((s for s in self.students if look_alike(s.name, name)), None)

    def by_key(self, student_id: str, key: str) -> Student | None:
        """The student whose page this is, when the key is theirs."""
        found = self.student(student_id)
        return found if found is not None and key_matches(found.key, key) else None

    @property
    def heading(self) -> str:
        """The class's title as a page shows it (`heading_in` the page's language)."""
        return self.heading_in()

    def heading_in(self, lang: str | None = None) -> str:
        """The class's title in `lang` (the current language by default): the facilitator's as
        typed; with none typed ("", or the English default a class stored before languages
        holds), "Leerdam class" in that language."""
        default = say("{game} class", game=GAMES[self.game].title)
        return self.title if self.title and self.title != str(default) else render(default, lang or None)

    @property
    def waiting(self) -> tuple[Student, ...]:
        """Students who joined but have no table (yet)."""
        return tuple(s for s in self.students if s.group is None)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, version: int) -> ClassRecord:
        """A record from its JSON (`to_json`) at `version` (the store's, which the JSON's follows)."""
        data = json.loads(text)
        data["students"] = tuple(Student(**s) for s in data.get("students", ()))
        data["groups"] = tuple(tuple(g) for g in data.get("groups", ()))
        data["tables"] = tuple(data.get("tables", ()))
        data["roster"] = tuple(data.get("roster", ()))
        data["requests"] = tuple(SeatRequest(**r) for r in data.get("requests", ()))
        data["version"] = version
        return cls(**data)


# -- dealing ---------------------------------------------------------------------------------------------


def table_sizes(students: int, game: str, bots: bool = True) -> list[int]:
    """The people at each table for `students` students: as few tables as the game's largest
    class table allows (its card's `players.class_range`), their sizes as even as possible (30
    New Rule: 6 of 5; 16 Leerdam: 2 of 8). A table short of the smallest is filled by bots when
    `bots`, else refused."""
    low, high = card(game).players.class_range
    if students < 1:
        raise ClassError("deal", say("no student has joined yet"))
    sizes = even_tables(students, high)
    if sizes[-1] < low and not bots:
        raise ClassError("deal", say_n("{n} students cannot make tables of {low}-{high}: allow bots to fill the short table, or wait for more", "{n} students cannot make tables of {low}-{high}: allow bots to fill the short table, or wait for more", students, low=low, high=high))
    return sizes


def deal(students: Sequence[str], game: str, bots: bool = True, mix: bool = False, seed: int = 0) -> tuple[tuple[str | None, ...], ...]:
    """The students (ids, in order of arrival) dealt into tables: in order of arrival (the first
    arrivals fill the first table, as oTree's rooms do), or shuffled by `seed` when `mix`; the
    seats bots fill are None, last at their table."""
    order = list(students)
    if mix:
        random.Random(f"deal:{seed}").shuffle(order)
    low = card(game).players.class_low
    groups = []
    start = 0
    for size in table_sizes(len(order), game, bots):
        people = order[start : start + size]
        start += size
        groups.append(tuple(people) + (None,) * max(0, low - size))
    return tuple(groups)


def new_code(rng: random.Random | None = None) -> str:
    """A room code: six letters and digits from `CODE_ALPHABET`."""
    pick = rng.choice if rng is not None else secrets.choice
    return "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: str) -> str:
    """What a student typed, as a code: upper case, no spaces or dashes; O read as 0 is not
    in the alphabet, so O and 0 both mean... nothing: the alphabet has neither."""
    return "".join(c for c in str(text).upper() if c.isalnum())[:12]


# -- changes ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassChange:
    kind = "change"
    #: a join commutes with every other change: it is decided against the latest record.
    commutes = False


@dataclass(frozen=True)
class Join(ClassChange):
    """A student joins with `name` and a new student key (their page keeps it), from the device
    whose key is `device` ("" while the page has not heard it). Not final until `Keep`."""

    name: str
    key: str
    device: str = ""
    kind = "join"
    commutes = True


@dataclass(frozen=True)
class Keep(ClassChange):
    """The student's device has kept its keys (its page's script said so): the join is final,
    and the device (`device`, the key it keeps) is the student's from now on."""

    student: str
    key: str
    device: str
    kind = "keep"
    commutes = True


@dataclass(frozen=True)
class AskSeat(ClassChange):
    """A student on another device asks for their place by `name`: the facilitator approves
    it (`Approve`); `key` and `device` are the new device's."""

    name: str
    key: str
    device: str
    kind = "ask-seat"
    commutes = True


@dataclass(frozen=True)
class Approve(ClassChange):
    """The facilitator approves a request (`SeatRequest.id`): the student's place, and their
    seat at a table, are the new device's; the old device's pages open nothing more."""

    request: str
    kind = "approve"
    commutes = True


@dataclass(frozen=True)
class DenyRequest(ClassChange):
    """The facilitator turns a request down: nothing else changes."""

    request: str
    kind = "deny-request"
    commutes = True


@dataclass(frozen=True)
class Deal(ClassChange):
    """Deal the students present into tables (shuffled when `mix`); they may still be moved."""

    mix: bool = False
    kind = "deal"


@dataclass(frozen=True)
class Move(ClassChange):
    """Move a student to another table before the tables start."""

    student: str
    group: int
    kind = "move"


@dataclass(frozen=True)
class Swap(ClassChange):
    """Swap two students of different tables before the start, each taking the other's seat:
    possible when every table is at the largest size, where a move is refused. After the start
    it is refused (a seat's game was dealt with its player's name, and its moves are theirs)."""

    a: str
    b: str
    kind = "swap"


@dataclass(frozen=True)
class Start(ClassChange):
    """Create the dealt tables: the class plays."""

    kind = "start"


@dataclass(frozen=True)
class DealWaiting(ClassChange):
    """Deal the students who came late into tables of their own, and start them."""

    kind = "deal-waiting"


@dataclass(frozen=True)
class ReleaseStudent(ClassChange):
    """Free a student's name for another device (their old page's link stops working, and their
    seat at a table is released): the next device that joins with the name is the student."""

    student: str
    new_key: str
    kind = "release-student"
    commutes = True


@dataclass(frozen=True)
class RenameStudent(ClassChange):
    """Give a student another name in the class (a table already playing keeps the name its game
    was dealt with: a game's names are fixed once it starts)."""

    student: str
    name: str
    kind = "rename-student"
    commutes = True


@dataclass(frozen=True)
class RemoveStudent(ClassChange):
    """Take a student out of the class: before the start out of their table (a bot fills a
    short one), after it their seat goes to the game's fill bot."""

    student: str
    kind = "remove-student"
    commutes = True


@dataclass(frozen=True)
class End(ClassChange):
    """End the class: its tables stop where they are (`ENDED`), and the board shows the results."""

    kind = "end"


@dataclass(frozen=True)
class TablesChange(ClassChange):
    """A change of the class that its running tables follow in the same transaction (its pace:
    `playbook.class_pace`): `decide` the record, then `on_tables` changes each table's meta."""

    def decide(self, record: ClassRecord, now: float) -> tuple[ClassRecord, str]:
        raise NotImplementedError

    def on_tables(self, record: ClassRecord, tables: ClassTables, now: float) -> None:
        raise NotImplementedError


#: what a table of an ended class says to a move (`playbook.store.STOPPED`).
ENDED = str(CLASS_ENDED)


def apply_change(record: ClassRecord, change: ClassChange, now: float) -> tuple[ClassRecord, str]:
    """The record after `change`, and a line saying what happened; ClassError if refused.

    Pure: the tables a Start or DealWaiting creates are made by `submit` from the new groups.
    """
    refuse = lambda rule, text: ClassError(rule, text, record)  # noqa: E731
    if record.phase == "over" and not isinstance(change, ReleaseStudent):
        raise refuse("over", say("this class is over"))
    if isinstance(change, Join):
        return _join(record, change, now, refuse)
    if isinstance(change, Keep):
        kept = record.student(change.student)
        if kept is None or not key_matches(kept.key, change.key):
            raise refuse("keep", say("this page no longer holds that place in the class: join again"))
        if not isinstance(change.device, str) or len(change.device) < 16:
            raise refuse("keep", say("a device keeps a key of its own"))
        other = record.by_device(change.device)
        if other is not None and other.id != kept.id:
            raise refuse("device", say("this device is {name}'s place in the class already", name=other.name))
        record = _replace_student(record, dataclasses.replace(kept, kept=True, device=device_hash(change.device)))
        return record, f"{kept.name}'s device keeps their place"
    if isinstance(change, AskSeat):
        asking = record.by_name(" ".join(str(change.name).split()))
        if asking is None:
            raise refuse("ask", say("no one called {name} has joined this class: join with your name instead", name=str(change.name)))
        if asking.free or asking.lost(now):
            raise refuse("ask", say("{name}'s name is free: join with it", name=asking.name))
        if not isinstance(change.device, str) or len(change.device) < 16 or not isinstance(change.key, str) or len(change.key) < 16:
            raise refuse("ask", say("this page has not kept a key yet: wait a moment, then ask again"))
        if asking.on_device(change.device):
            raise refuse("device", say("this device is {name}'s place in the class already", name=asking.name))
        mine = device_hash(change.device)
        kept_requests = tuple(r for r in record.requests if r.student != asking.id and not key_matches(r.device, mine))
        request = SeatRequest(secrets.token_urlsafe(6), asking.id, change.key, mine, now)
        return dataclasses.replace(record, requests=(*kept_requests, request)), f"{asking.name} asks for their place on another device"
    if isinstance(change, (Approve, DenyRequest)):
        request = next((r for r in record.requests if r.id == change.request), None)
        asking = record.student(request.student) if request is not None else None
        if request is None or asking is None:
            raise refuse("request", say("that request is gone: it was approved, turned down or asked again"))
        rest = tuple(r for r in record.requests if r.id != request.id)
        if isinstance(change, DenyRequest):
            return dataclasses.replace(record, requests=rest), f"{asking.name}'s request for another device turned down"
        moved = dataclasses.replace(asking, key=request.key, device=request.device, kept=True, free=False)
        record = _replace_student(dataclasses.replace(record, requests=rest), moved)
        return record, f"{asking.name}'s place moved to another device"
    if isinstance(change, Deal):
        if record.phase not in ("lobby", "dealt"):
            raise refuse("deal", say("the tables have started: deal the late students into tables of their own instead"))
        record = _drop_lost(record, now)
        groups = deal([s.id for s in record.students], record.game, record.bots, change.mix, record.seed)
        record = _seated(dataclasses.replace(record, groups=groups, phase="dealt"))
        return record, f"dealt {len(record.students)} students into {len(groups)} tables"
    if isinstance(change, Move):
        if record.phase != "dealt":
            raise refuse("move", say("students move between tables after the deal and before the start"))
        mover = record.student(change.student)
        if mover is None or not 0 <= change.group < len(record.groups):
            raise refuse("move", say("no such student or table"))
        moved = [tuple(s for s in g if s != change.student) for g in record.groups]
        moved[change.group] = (*moved[change.group], change.student)
        low, high = card(record.game).players.class_range
        if sum(1 for s in moved[change.group] if s is not None) > high:
            raise refuse("move", say("table {table} has {high} already, the most it takes: swap {name} with one of its students instead", table=change.group + 1, high=high, name=mover.name))
        record = _seated(dataclasses.replace(record, groups=tuple(_refill(g, low, record.bots) for g in moved)))
        return record, f"{mover.name} moved to table {change.group + 1}"
    if isinstance(change, Swap):
        return _swap(record, change, refuse)
    if isinstance(change, Start):
        if record.phase != "dealt":
            raise refuse("start", say("deal the tables first"))
        record = _drop_lost(record, now)
        low = card(record.game).players.class_low
        for i, seats in enumerate(record.groups):
            if not any(s is not None for s in seats):
                raise refuse("start", say("table {table} has nobody: move someone there or deal again", table=i + 1))
            if len(seats) < low:
                raise refuse("start", say("table {table} has {n}, fewer than {low}: allow bots or move students", table=i + 1, n=len(seats), low=low))
        return dataclasses.replace(record, phase="playing"), f"started {len(record.groups)} tables"
    if isinstance(change, DealWaiting):
        if record.phase != "playing":
            raise refuse("deal", say("this is for students who came after the start"))
        record = _drop_lost(record, now)
        waiting = [s.id for s in record.waiting]
        if not waiting:
            raise refuse("deal", say("no student is waiting"))
        groups = deal(waiting, record.game, record.bots, False, record.seed + len(record.groups))
        record = _seated(dataclasses.replace(record, groups=record.groups + groups))
        return record, f"dealt {len(waiting)} late students into {len(groups)} more tables"
    if isinstance(change, ReleaseStudent):
        released = record.student(change.student)
        if released is None:
            raise refuse("release", say("no such student: the list has changed, look again"))
        if not isinstance(change.new_key, str) or len(change.new_key) < 16:
            raise refuse("release", say("a release needs a new key"))
        record = _replace_student(record, dataclasses.replace(released, key=change.new_key, device="", free=True, kept=True))
        record = dataclasses.replace(record, requests=tuple(r for r in record.requests if r.student != released.id))
        return record, f"{released.name} released for another device"
    if isinstance(change, RenameStudent):
        renamed = record.student(change.student)
        if renamed is None:
            raise refuse("rename", say("no such student: the list has changed, look again"))
        name = " ".join(str(change.name).split())
        problem = name_problem(name, first=True)
        if problem:
            raise refuse("names", problem)
        same = next((s for s in record.students if s.id != renamed.id and look_alike(s.name, name)), None)
        if same is not None:
            why = look_alike_reason(same.name, name, (same.name, name)) if same.name.casefold() != name.casefold() else ""
            raise refuse(
                "names",
                say("{other} is another student's name in this class, and {name} looks the same ({why})", other=same.name, name=name, why=why)
                if why
                else say("{other} is another student's name in this class", other=same.name),
            )
        record = _replace_student(record, dataclasses.replace(renamed, name=name))
        at_table = seat_of(record, renamed) is not None
        # A game's names are in its setup, fixed once it starts: the seat keeps the name it was dealt.
        kept_name = f" (at table {renamed.group + 1 if renamed.group is not None else 0} the seat keeps the name {renamed.name}: a game's names are fixed once it starts)" if at_table else ""
        return record, f"{renamed.name} renamed {name}{kept_name}"
    if isinstance(change, RemoveStudent):
        removed = record.student(change.student)
        if removed is None:
            raise refuse("remove", say("no such student: the list has changed, look again"))
        where = seat_of(record, removed)
        if where is not None and (not card(record.game).fill_bot or card(record.game).fill_bot not in strategies(record.game)):
            raise refuse("remove", say("{name} plays at table {table} and this game has no bot to take the seat: release the name instead", name=removed.name, table=(removed.group or 0) + 1))
        return _without(record, removed.id), f"{removed.name} removed from the class" + (f" (a bot plays their seat at table {(removed.group or 0) + 1})" if where is not None else "")
    if isinstance(change, End):
        return dataclasses.replace(record, phase="over"), "the class is over"
    if isinstance(change, TablesChange):
        try:
            return change.decide(record, now)
        except Refusal as exc:
            raise refuse(exc.rule, exc.said) from None
    raise refuse("change", say("a class does not know the change {kind}", kind=type(change).__name__))


def _swap(record: ClassRecord, change: Swap, refuse: Any) -> tuple[ClassRecord, str]:
    """Two students of different tables take each other's seat (before the start)."""
    first, second = record.student(change.a), record.student(change.b)
    if first is None or second is None:
        raise refuse("swap", say("no such student: the list has changed, look again"))
    if record.phase == "lobby":
        raise refuse("swap", say("deal the tables first: students swap tables after the deal"))
    if record.phase != "dealt":
        # A started table's game was dealt with its players' names and has their moves: a seat
        # cannot change hands in it without rewriting what it recorded. Release or remove instead.
        raise refuse(
            "swap",
            say(
                "the tables have started: {first} and {second} keep their seats (a started game's players are fixed); release a name for another device instead",
                first=first.name,
                second=second.name,
            ),
        )
    if first.group is None or second.group is None:
        raise refuse("swap", say("{name} has no table yet: deal again", name=(first if first.group is None else second).name))
    if first.id == second.id or first.group == second.group:
        raise refuse("swap", say("{first} and {second} are at the same table already: pick a student of another table", first=first.name, second=second.name))
    swapped = {first.id: second.id, second.id: first.id}
    groups = tuple(tuple(swapped.get(s, s) if s is not None else None for s in g) for g in record.groups)
    record = _seated(dataclasses.replace(record, groups=groups))
    return record, f"{first.name} (now table {second.group + 1}) and {second.name} (now table {first.group + 1}) swapped"


def _smallest_group(record: ClassRecord) -> int | None:
    """Where a student who joins after the deal sits: the table with the fewest people, if it
    has room (else they wait for the start, and then for a table of late students)."""
    high = card(record.game).players.class_high
    people = [sum(1 for s in g if s is not None) for g in record.groups]
    if not people or min(people) >= high:
        return None
    return people.index(min(people))


def _refill(group: tuple[str | None, ...], low: int, bots: bool) -> tuple[str | None, ...]:
    people = tuple(s for s in group if s is not None)
    return people + (None,) * (max(0, low - len(people)) if bots else 0)


def _join(record: ClassRecord, change: Join, now: float, refuse: Any) -> tuple[ClassRecord, str]:
    """A join: a new student, or a name taken again (released by the facilitator, or held by a
    join its device never kept), or a refusal that says why."""
    name = " ".join(str(change.name).split())
    problem = name_problem(name, first=True)
    if problem:
        raise refuse("names", problem)
    if record.roster and not any(look_alike(name, r) for r in record.roster):
        raise refuse("roster", say("{name} is not on this class's list: pick your name from the list", name=name))
    if not isinstance(change.key, str) or len(change.key) < 16:
        raise refuse("join", say("a join needs a key of its own"))
    mine = record.by_device(change.device) if change.device else None
    if mine is not None:
        # The page says this device's own place is there: it goes back to it, nothing changes.
        raise refuse("device", say("this device is {name}'s place in the class already", name=mine.name))
    device = device_hash(change.device) if change.device else ""
    same = record.by_name(name)
    if same is not None:
        if not (same.free or same.lost(now)):
            # TRANSLATORS: your name and the other student's, in why two names look the same.
            why = look_alike_reason(name, same.name, (say("yours"), say("theirs"))) if same.name.casefold() != name.casefold() else ""
            raise refuse(
                "names",
                say(
                    "{name} looks the same as {other}, who has joined already ({why}). If that is you on another device, ask the facilitator for your place (the button below); else add a letter to your name",
                    name=name,
                    other=same.name,
                    why=why,
                )
                if why
                else say(
                    "{other} has joined already. If that is you on another device, ask the facilitator for your place (the button below); else add a letter to your name",
                    other=same.name,
                ),
            )
        again = dataclasses.replace(same, key=change.key, device=device, kept=False, free=False, joined=now)
        record = dataclasses.replace(_replace_student(record, again), requests=tuple(r for r in record.requests if r.student != same.id))
        return record, f"{same.name} joined again"
    if len(record.students) >= MAX_STUDENTS:
        raise refuse("full", say("this class is full ({n} students)", n=MAX_STUDENTS))
    student = Student(secrets.token_urlsafe(6), name, change.key, now, device=device, kept=False)
    group = None
    if record.phase == "dealt":
        group = _smallest_group(record)
    if group is not None:
        people = tuple(s for s in record.groups[group] if s is not None) + (student.id,)
        low = card(record.game).players.class_low
        # The newcomer takes a bot's place at that table, if a bot was to fill it.
        filled = _refill(people, low, record.bots)
        groups = record.groups[:group] + (filled,) + record.groups[group + 1 :]
        record = dataclasses.replace(record, groups=groups)
        student = dataclasses.replace(student, group=group, seat=len(people) - 1)
    record = dataclasses.replace(record, students=(*record.students, student))
    return record, f"{name} joined" + (f" (table {group + 1})" if group is not None else " (waiting)" if record.phase == "playing" else "")


def _replace_student(record: ClassRecord, student: Student) -> ClassRecord:
    return dataclasses.replace(record, students=tuple(student if s.id == student.id else s for s in record.students))


def _without(record: ClassRecord, student_id: str) -> ClassRecord:
    """The record without a student: before the start their table closes up (a bot fills a short
    one); once the tables play, their seat stays, a bot's (`submit` hands it over)."""
    students = tuple(s for s in record.students if s.id != student_id)
    requests = tuple(r for r in record.requests if r.student != student_id)
    if record.phase == "playing" or record.tables:
        groups = tuple(tuple(None if s == student_id else s for s in g) for g in record.groups)
        return dataclasses.replace(record, students=students, groups=groups, requests=requests)
    low = card(record.game).players.class_low
    groups = tuple(_refill(tuple(s for s in g if s != student_id), low, record.bots) if student_id in g else g for g in record.groups)
    return _seated(dataclasses.replace(record, students=students, groups=groups, requests=requests))


def _drop_lost(record: ClassRecord, now: float) -> ClassRecord:
    """The record without joins whose device never kept its key: they hold no place."""
    for student in record.students:
        if student.lost(now) and seat_of(record, student) is None:
            record = _without(record, student.id)
    return record


def _seated(record: ClassRecord) -> ClassRecord:
    """Every student's table and seat, from the groups."""
    where = {sid: (g, i) for g, group in enumerate(record.groups) for i, sid in enumerate(group) if sid is not None}
    students = tuple(dataclasses.replace(s, group=where.get(s.id, (None, None))[0], seat=where.get(s.id, (None, None))[1]) for s in record.students)
    return dataclasses.replace(record, students=students)


# -- the store: one transaction a change -----------------------------------------------------------------


def create_class(
    store: Store,
    game: str,
    expected: int,
    roster: Sequence[str] = (),
    bots: bool = True,
    seed: int | None = None,
    title: str = "",
    variants: Mapping[str, Any] | None = None,
    pace: Mapping[str, Any] | None = None,
    lang: str = "",
) -> ClassRecord:
    """A new class in the lobby, with a room code no other class has. `variants` are setup
    fields for every table (JSON values, as in a save file's setup), checked now. `lang`: the
    class's language ("" for the server's default)."""
    if game not in CARDS:
        raise ClassError("game", say("no game {game}: choose from {games}", game=repr(game), games=", ".join(slugs())))
    variants = _checked_variants(game, variants or {})
    timer = _checked_pace(pace or {})
    if lang and lang not in LANGUAGES:
        raise ClassError("lang", say("no language {lang}: choose from {languages}", lang=repr(lang), languages=", ".join(LANGUAGES)))
    if not 3 <= int(expected) <= MAX_STUDENTS:
        raise ClassError("students", say("a class has 3-{high} students, not {n}", high=MAX_STUDENTS, n=str(expected)))
    names = tuple(" ".join(str(n).split()) for n in roster if str(n).strip())
    for name in names:
        problem = name_problem(name)
        if problem:
            raise ClassError("roster", say("the list: {problem}", problem=problem))
    pair = look_alike_pair(names)
    if pair is not None:
        why = look_alike_reason(*pair) if pair[0].casefold() != pair[1].casefold() else ""
        raise ClassError(
            "roster",
            say("the list has two names that look the same: {first} and {second} ({why})", first=pair[0], second=pair[1], why=why)
            if why
            else say("the list has two names that look the same: {first} and {second}", first=pair[0], second=pair[1]),
        )
    now = time.time()
    for _attempt in range(20):
        record = ClassRecord(
            id=secrets.token_urlsafe(9),
            code=new_code(),
            game=game,
            title=title,  # none typed: "" (`heading` says the default in each page's language)
            expected=int(expected),
            monitor_key=new_key(),
            board_key=new_key(),
            roster=names,
            bots=bool(bots),
            seed=secrets.randbelow(2**31) if seed is None else int(seed),
            created=now,
            version=1,
            variants=variants,
            pace=timer,
            lang=lang,
        )
        if store.add_class(record.id, record.code, game, record.to_json(), now):
            return record
        # else the code was taken (by a class made at the same instant, or an old one): draw another
    raise ClassError("code", say("could not find a free room code"))


def _checked_variants(game: str, variants: Mapping[str, Any]) -> dict[str, Any]:
    """`variants` when they make a setup of `game` (tried on the smallest class table), else ClassError."""
    data = dict(variants)
    if "names" in data or "gm" in data:
        raise ClassError("variants", say("a class names its seats itself: give only the game's variants"))
    names = [f"Seat {i + 1}" for i in range(card(game).players.class_low)]
    try:
        GAMES[game].setup_from_json({**_seats_setup(game, names), **data})
    except (SaveFileError, RuleError) as exc:
        raise ClassError("variants", say("the variants do not make a game: {reason}", reason=exc.said if isinstance(exc, RuleError) else str(exc))) from None
    return data


def _checked_pace(pace: Mapping[str, Any]) -> dict[str, Any]:
    """A class's timer (`playbook.pace.Pace`'s JSON: seconds, by) when it is one, else ClassError."""
    from .pace import Pace

    try:
        return {k: v for k, v in Pace.from_json({**pace, "extra": {}}).to_json().items() if k != "extra"}
    except (Refusal, TypeError, ValueError) as exc:
        raise ClassError("pace", exc.said if isinstance(exc, Refusal) else str(exc)) from None


def _seats_setup(game: str, names: Sequence[str]) -> dict[str, Any]:
    """The setup fields that seat the people of a class table: with a GM (the card's `gm`), the
    first is the GM and the others play the seats."""
    if card(game).gm:
        return {"names": list(names[1:]), "gm": names[0]}
    return {"names": list(names)}


def _record(stored: StoredClass) -> ClassRecord:
    return ClassRecord.from_json(stored.record, stored.version)


def load_class(store: Store, class_id: str) -> ClassRecord:
    """The class as it stands; KeyError if there is none."""
    return _record(store.class_record(class_id))


def class_by_code(store: Store, code: str) -> ClassRecord | None:
    """The class with this room code (as a student typed it), or None."""
    stored = store.class_by_code(clean_code(code))
    return None if stored is None else _record(stored)


def class_version(store: Store, class_id: str) -> int:
    return store.class_version(class_id)


def wait_class(store: Store, class_id: str, seen: int, timeout: float = 10.0) -> int:
    """Block until the class's version differs from `seen` (or `timeout` passes)."""
    return store.wait_class(class_id, seen, timeout)


def classes(store: Store, open_only: bool = True) -> list[ClassRecord]:
    """Classes, newest first."""
    return [_record(stored) for stored in store.classes(open_only)]


#: a class no student has joined this many hours after it was made is removed (`expire_empty`).
EMPTY_CLASS_HOURS = 24


def expire_empty(store: Store, now: float | None = None) -> int:
    """Remove the classes made more than EMPTY_CLASS_HOURS ago that no student ever joined (a
    class made from the command line and never used), in one transaction; how many went. The
    front page and `playbook serve` call it as they open."""
    before = (time.time() if now is None else now) - EMPTY_CLASS_HOURS * 3600

    def unused(stored: StoredClass) -> bool:
        record = _record(stored)
        return not record.students and not record.tables

    return store.remove_classes(before, unused)


def ended_classes(store: Store) -> list[ClassRecord]:
    """The classes that are over, newest first: the front page lists them with their debrief."""
    return [record for record in classes(store, open_only=False) if record.phase == "over"]


#: changes a facilitator decides nothing on: a device keeping its key (30 of them come in the
#: seconds a class joins, just as the facilitator presses Deal). A page behind by these alone is
#: not behind.
UNSEEN = frozenset({"keep"})


def submit(store: Store, class_id: str, change: ClassChange, seen: int) -> ClassRecord:
    """Decide `change` against the latest record in one transaction (`Store.change_class`); the
    new record.

    A page that is behind: a join is decided against the latest record (joins commute); any
    other change needs the page to have seen the latest version (`ClassError` "stale"), but for
    changes it decides nothing on (`UNSEEN`: a device keeping its key).
    Starting creates the tables in the same transaction; ending stops them there.
    """

    def decide(stored: StoredClass, tables: ClassTables) -> ClassUpdate:
        record = _record(stored)
        behind = seen < record.version and not change.commutes and not set(tables.kinds_since(class_id, seen)) <= UNSEEN
        if seen > record.version or behind:
            raise ClassError("stale", say("the class moved on since this page showed it: nothing was done. Look again, then press once more if you still mean it."), record)
        now = time.time()
        new, summary = apply_change(record, change, now)
        if isinstance(change, TablesChange):
            change.on_tables(new, tables, now)
        if isinstance(change, (Start, DealWaiting)):
            made = list(record.tables)
            for group in new.groups[len(made) :]:
                made.append(_create_table(tables, new, group, len(made)))
            new = dataclasses.replace(new, tables=tuple(made))
        if isinstance(change, End):  # the results stand as they are now: no table plays on
            for table_id in new.tables:
                tables.stop(table_id, ENDED)
        _seat_follows(record, new, change, tables)
        new = dataclasses.replace(new, version=record.version + 1)
        return ClassUpdate(new.to_json(), change.kind, summary, finished=new.phase == "over")

    return _record(store.change_class(class_id, decide))


def _seat_follows(before: ClassRecord, after: ClassRecord, change: ClassChange, tables: ClassTables) -> None:
    """A student's seat at a table follows their place in the class, in the class's own
    transaction: released (a release, another device approved) so that the old device's seat
    page opens nothing more, or handed to the game's fill bot (a student removed after the start)."""
    if isinstance(change, (ReleaseStudent, Approve, RemoveStudent)):
        sid = change.student if not isinstance(change, Approve) else next(r.student for r in before.requests if r.id == change.request)
        student = before.student(sid)
        where = seat_of(before, student) if student is not None else None
        if where is None or (not card(before.game).devices and not isinstance(change, RemoveStudent)):
            return
        table_id, seat = where
        try:
            if isinstance(change, RemoveStudent):
                tables.submit(table_id, HandOver(seat, card(before.game).fill_bot))
            if card(before.game).devices:
                tables.submit(table_id, Release(seat, new_key()))
        except Refused as exc:
            raise ClassError("table", say("nothing was changed: the table refused ({reason})", reason=exc.said), before) from None
        except Exception as exc:  # a bot that cannot play the seat yet (a character not yet made)
            reason = type(exc).__name__
            said = (
                say("nothing was changed: a bot cannot take {name}'s seat now ({reason}); release the name instead", name=student.name, reason=reason)
                if student is not None
                else say("nothing was changed: a bot cannot take the student's seat now ({reason}); release the name instead", reason=reason)
            )
            raise ClassError("table", said, before) from None


#: a student's page notes that it is there at most this often (its heartbeat beats every 4 s):
#: 30 phones are two short writes a second, and no version moves for them.
PRESENCE_WRITE_SECONDS = 10.0
#: a student whose page was heard within this long is connected (a write missed or late aside).
CONNECTED_SECONDS = 25.0


def note_presence(store: Store, record: ClassRecord, student_id: str, now: float | None = None, lang: str = "") -> None:
    """A student's page is there (its heartbeat), speaking `lang`: kept beside the class (`Store.note_presence`)."""
    store.note_presence(record.id, student_id, time.time() if now is None else now, lang)


def room_languages(store: Store, record: ClassRecord) -> dict[str, int]:
    """How many of the class's students read each language on their page, by language code."""
    return store.languages(record.id)


def presence(store: Store, record: ClassRecord) -> dict[str, float]:
    """When each student's page was last heard, by student id (none yet: not in it)."""
    return store.presence(record.id)


def class_changes(store: Store, class_id: str) -> list[dict[str, Any]]:
    return store.class_changes(class_id)


def table_names(record: ClassRecord, group: Sequence[str | None]) -> tuple[str, ...]:
    """The seat names of a table: its students' names, then "Bot 1", "Bot 2"... for bots."""
    names: list[str] = []
    bots = 0
    for sid in group:
        if sid is None:
            bots += 1
            names.append(f"Bot {bots}")
        else:
            student = record.student(sid)
            names.append(student.name if student is not None else f"Seat {len(names) + 1}")
    return tuple(names)


def _game_seats(record: ClassRecord, group: Sequence[str | None]) -> Sequence[str | None]:
    """The students (None for a bot) of a table's seats in the rules: a GM (the card's `gm`),
    first at the table, holds none of them."""
    return group[1:] if card(record.game).gm else group


def _create_table(tables: ClassTables, record: ClassRecord, group: Sequence[str | None], index: int) -> str:
    """One of the class's tables, made inside the class's transaction; the seats of absent
    students (None) are played by the game's fill bot (its card's `fill_bot`)."""
    rules = GAMES[record.game]
    setup = rules.setup_from_json({**record.variants, **_seats_setup(record.game, table_names(record, group))})
    game = new_game(record.game, setup, (record.seed + 7919 * (index + 1)) % (2**31))
    known = list(strategies(record.game))
    wanted = card(record.game).fill_bot
    fill = wanted if wanted in known else (known[0] if known else None)
    bots = {str(seat): fill for seat, sid in enumerate(_game_seats(record, group)) if sid is None and fill is not None}
    meta: dict[str, Any] = {"bots": bots, **table_keys(len(card(record.game).seat_names(setup))), "class": record.id, "class_table": index}
    meta.update(table_pace(record.pace, _game_seats(record, group)))
    if record.lang:  # the class's tables speak the class's language
        meta["lang"] = record.lang
    # The table's stored title: said once, in the class's language (the front page lists it so).
    return tables.create(game, render(say("{title}: table {n}", title=record.heading_in(record.lang), n=index + 1), record.lang or None), meta)


def seat_of(record: ClassRecord, student: Student) -> tuple[str, int] | None:
    """The table id and seat a student plays, once the tables exist."""
    if student.group is None or student.group >= len(record.tables) or student.seat is None:
        return None
    if not card(record.game).gm:
        return record.tables[student.group], student.seat
    # A GM sits first at a class table; in the rules the characters' seats come first and the
    # GM's own seat after them (`Card.seat_names`).
    group = record.groups[student.group] if student.group < len(record.groups) else ()
    return record.tables[student.group], (len(group) - 1 if student.seat == 0 else student.seat - 1)


# -- the record of play ---------------------------------------------------------------------------------


def step_of(state: Any) -> Said | str:
    """Where a game stands in the room's words: "Year 3", "Round 2", "Chapter 1"."""
    steps = (
        ("year", say("Year {n}")),
        ("round", say("Round {n}")),
        ("chapter", say("Chapter {n}")),
        ("session", say("Session {n}")),
    )
    for attr, word in steps:
        value = getattr(state, attr, None)
        if isinstance(value, int):
            if value < 0:  # Dangerous Ideas' chapter before the first: its stones being placed
                # TRANSLATORS: a game not started yet (its stones being placed), where a step number would be.
                return say("Setup")
            return dataclasses.replace(word, values=(("n", value + 1 if attr == "chapter" else value),))
    return ""


def timed_out_cells(meta: Mapping[str, Any]) -> dict[int, str]:
    """The CSV's "timed_out" cell of each decision (by its number) a seat's timer made: "default"
    (the game's stated default) or "bot NAME" (the fill bot)."""
    from .pace import timed_out

    return {index + 1: how for index, how in timed_out(meta).items()}


def decision_rows(store: Store, record: ClassRecord, reveal: bool | None = None, reveal_pledges: bool | None = None) -> list[dict[str, Any]]:
    """One row per decision at every table of the class, in the order they were made: the
    table, the round or year, the seat, the player, who chose (the student, or the bot that
    played their seat then: "bot (fair) for Dara"), the decision, its number and what it led to
    at once (`rules.decisions`), in the current language. A table's secrets (pledges, picks, draws) are named once its
    game is over or stopped (`table_over`), unless `reveal` says otherwise; `reveal_pledges`
    is Leerdam's."""
    from rules import decisions_of
    from rules.decisions import decision_rows as plain_rows

    rows: list[dict[str, Any]] = []
    for index, table_id in enumerate(record.tables):
        table = store.load(table_id)
        game = table.game
        group = record.groups[index] if index < len(record.groups) else ()
        seats = _game_seats(record, group)
        found = decisions_of(game, reveal=table_over(table) if reveal is None else reveal, reveal_pledges=reveal_pledges, render=render)
        timed_out = timed_out_cells(table.meta)
        students: dict[int, str] = {}
        for d in found:
            if d.seat is None:
                continue
            sid = seats[d.seat] if d.seat < len(seats) else None
            student = record.student(sid) if sid else None
            name = student.name if student is not None else None
            students[d.number] = chooser(name, table.bot_of_move(d.number - 1), sid is None)
            timed = timed_out.get(d.number, "")
            if timed.startswith("bot"):  # the fill bot moved for a student whose time ran out
                students[d.number] = chooser(name, timed.removeprefix("bot").strip(), True)
        rows.extend(plain_rows(found, index + 1, student=students, timed_out=timed_out))
    return rows


#: the class CSV's columns (`decision_rows`): the decisions' own, and who chose after the player.
CSV_COLUMNS = columns_with("student", "timed_out")


def chooser(student: str | None, bot: str | None, bot_seat: bool) -> str:
    """Who made a move, for the class CSV (in the current language): the student, or the bot that played then (`bot`,
    "" when unnamed), for whom: "bot (fair) for Dara"; a seat bots fill from the start: "bot (fair)"."""
    if bot is None and not bot_seat:
        return student or ""
    # TRANSLATORS: who made a move, in a CSV: a bot by its name ("fair" is a name: keep it).
    named = say("bot ({bot})", bot=bot) if bot else say("bot")
    # TRANSLATORS: who made a move, in a CSV: "bot (fair) for Dara".
    return render(say("{bot} for {student}", bot=named, student=student) if student else named)


def table_over(table: Table) -> bool:
    """A table over for the debrief's purpose: its game is over, or it was stopped (its class
    ended): either way no move is to come, and its secrets may be named."""
    return bool(table.game.rules.over(table.game.state) or table.meta.get(STOPPED))


def stopped_text(game: Any, meta: Mapping[str, Any]) -> str:
    """Where a stopped table's game stood ("stopped in year 2"); "" for a game that ended by its
    rules or still plays (`meta` is the table's)."""
    if game.rules.over(game.state) or not meta.get(STOPPED):
        return ""
    return render(stopped_said(game.state))


def stopped_said(state: Any) -> Said:
    """"stopped in year 2" (a step's word in the middle of a sentence: its own message, as a
    language writes the step there), or "stopped before the first move"."""
    steps = (
        ("year", say("stopped in year {n}")),
        ("round", say("stopped in round {n}")),
        ("chapter", say("stopped in chapter {n}")),
        ("session", say("stopped in session {n}")),
    )
    for attr, words in steps:
        value = getattr(state, attr, None)
        if isinstance(value, int):
            if value < 0:  # Dangerous Ideas' stones still being placed
                return say("stopped in setup")
            return dataclasses.replace(words, values=(("n", value + 1 if attr == "chapter" else value),))
    return say("stopped before the first move")
