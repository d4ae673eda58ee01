"""A class's pace: its timer, each student's extra time and the teacher's pause, as changes of
the class (`playbook.classes.submit`, one transaction) that its running tables follow in that
same transaction (`ClassTables.update_meta`). The timer itself is `playbook.pace`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.games import card
from rules.text import say

from . import pace
from .classes import ClassRecord, TablesChange
from .pace import BY_BOT, BY_DEFAULT, EXTRA_CHOICES, PACE, Pace, PaceError, extra_choices, pace_of, pause_meta
from .store import ClassTables

__all__ = ["PauseClass", "SetExtra", "SetPace", "class_pace", "seats_of", "table_pace"]


def class_pace(record: ClassRecord) -> Pace:
    """The timer the class gives its tables (extra time is per student: `table_pace`)."""
    return Pace.from_json({k: v for k, v in record.pace.items() if k != "extra"})


def table_pace(record: ClassRecord, seats: Sequence[str | None]) -> dict[str, Any]:
    """The `pace` meta of the class's table whose rules' seats are the students `seats`."""
    return pace.table_pace(record.pace, seats)


def _update_tables(record: ClassRecord, tables: ClassTables, update: Callable[[dict[str, Any], int], dict[str, Any] | None], summary: str) -> None:
    for index, table_id in enumerate(record.tables):
        tables.update_meta(table_id, lambda meta, i=index: update(meta, i), summary)  # type: ignore[misc]


def seats_of(record: ClassRecord, index: int) -> tuple[str | None, ...]:
    """The students of table `index`'s rules' seats (a GM, first at a table, holds none)."""
    group = record.groups[index] if index < len(record.groups) else ()
    return tuple(group[1:] if card(record.game).gm else group)


@dataclass(frozen=True)
class SetPace(TablesChange):
    """The class's timer: `seconds` per decision (0: none) and who moves at zero; its tables
    follow at once (each seat's clock keeps its start)."""

    seconds: int
    by: str = BY_DEFAULT
    kind = "pace"

    def decide(self, record: ClassRecord, now: float) -> tuple[ClassRecord, str]:
        Pace(self.seconds, self.by)  # checked: a PaceError says what is wrong
        record = dataclasses.replace(record, pace={**record.pace, "seconds": self.seconds, "by": self.by})
        said = f"a timer of {self.seconds} s per decision" if self.seconds else "no timer"
        return record, said + (", then the fill bot moves" if self.seconds and self.by == BY_BOT else "")

    def on_tables(self, record: ClassRecord, tables: ClassTables, now: float) -> None:
        def update(meta: dict[str, Any], index: int) -> dict[str, Any]:
            old = pace_of(meta)
            return {PACE: dataclasses.replace(old, seconds=self.seconds, by=self.by).to_json()}

        _update_tables(record, tables, update, "the class's timer")


@dataclass(frozen=True)
class SetExtra(TablesChange):
    """Extra time for one student (x1, x1.5, x2), on their seat from now on."""

    student: str
    factor: float
    kind = "extra-time"

    def decide(self, record: ClassRecord, now: float) -> tuple[ClassRecord, str]:
        who = record.student(self.student)
        if who is None:
            raise PaceError(say("no such student"))
        factor = float(self.factor)
        if factor not in EXTRA_CHOICES:
            raise PaceError(say("extra time is {choices}, not x{factor}", choices=extra_choices(), factor=str(self.factor)))
        extra = {k: v for k, v in dict(record.pace.get("extra") or {}).items() if k != who.id}
        if factor != 1.0:
            extra[who.id] = factor
        record = dataclasses.replace(record, pace={**record.pace, "extra": extra})
        return record, f"{who.name} has x{factor:g} the time" if factor != 1.0 else f"{who.name} has the class's time"

    def on_tables(self, record: ClassRecord, tables: ClassTables, now: float) -> None:
        def update(meta: dict[str, Any], index: int) -> dict[str, Any] | None:
            if self.student not in seats_of(record, index):
                return None
            old = pace_of(meta)
            mine = table_pace(record, seats_of(record, index))[PACE]["extra"]
            return {PACE: dataclasses.replace(old, extra={int(s): f for s, f in mine.items()}).to_json()}

        _update_tables(record, tables, update, "extra time")


@dataclass(frozen=True)
class PauseClass(TablesChange):
    """Pause (`paused` True) or resume the whole class: its timers stop; on resume every
    deadline moves on by the pause, so each seat has the time it had left."""

    paused: bool
    kind = "pause"

    def decide(self, record: ClassRecord, now: float) -> tuple[ClassRecord, str]:
        if self.paused == (record.pace.get("paused_at") is not None):
            raise PaceError(say("the class is paused already") if self.paused else say("the class is not paused"))
        pace = {k: v for k, v in record.pace.items() if k != "paused_at"}
        if self.paused:
            pace["paused_at"] = now
        return dataclasses.replace(record, pace=pace), "paused by the teacher" if self.paused else "resumed"

    def on_tables(self, record: ClassRecord, tables: ClassTables, now: float) -> None:
        def update(meta: dict[str, Any], index: int) -> dict[str, Any] | None:
            return pause_meta(meta, self.paused, now)

        _update_tables(record, tables, update, "paused by the teacher" if self.paused else "resumed")
