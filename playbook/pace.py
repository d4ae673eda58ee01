"""A lesson's pace: its length, a timer per decision, extra time, pause, and every table moved on.

**Length.** A class (or a table) sets how long its game runs through the game's own setup field
(its card's `length`: Leerdam's `max_years`, New Rule's `max_rounds`, Dangerous Ideas'
`chapters`); `length_variants` turns "2" or "end" (until the text's end) into that field, and a
class carries it to every table it deals as one of its variants.

**A timer per decision.** A table's meta key `pace` holds its settings (`Pace`: seconds per
decision, off at 0; who moves for a seat that runs out, the game's stated default or its fill
bot; extra time per seat; the moment the teacher paused). The deadline of a seat's decision
counts from the moment the table began to wait for that seat, kept in the meta key
`waiting_since` by the store itself, in the same transaction as the change that made the table
wait (`after_change`): a seat the table still waits for at the same step (year, round and phase)
keeps its moment, so ten households pledging in secret all count from the phase's start, not
from the last pledge. Kept rather than derived from the store's record of changes because the
record says which seats a change touched, not whom the table waited for after it: deriving it
would replay the game at every version, on every page, every second.

**At zero** a page open for the table (the board, the facilitator's page or the class monitor:
`playbook.timer.run_timer`) submits the seat's move through the store's one write path, as an ordinary `Play`
marked `timed_out` with the version it loaded: of two pages that try, the second finds the seat
moved and is refused as stale, and nothing is done twice. The move is the game's stated default
(the rules module's `timeout_move`) or the game's fill bot (`card.fill_bot`, through
`playbook.bots`), the facilitator's choice; where a game states no default for a move, its fill
bot makes it. The store keeps which moves were timed out (meta key `timed_out`, by the move's
place in the log), for the debrief and the CSV.

**Pause** stops every timer of the table (`paused_at`); resume shifts every moment by the pause,
so each seat has the time it had left. A class pauses, resumes and sets extra time for its
tables in the class's own transaction (`playbook.class_pace`); "next round for every table" moves every
waiting seat on by the timer's rule (`playbook.timer.move_on`), table by table through the write path.

Nothing here reads a clock: `now` is passed in, so tests inject it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import _
from rules.core import AnyGame
from rules.games import card
from rules.text import Said, say

from .refusals import Refusal

__all__ = [
    "BY_BOT",
    "BY_DEFAULT",
    "EXTRA_CHOICES",
    "PACE",
    "SINCE",
    "TIMED_OUT",
    "Pace",
    "PaceError",
    "after_change",
    "after_undo",
    "length_of",
    "length_variants",
    "pace_of",
    "pause_meta",
    "paused",
    "table_pace",
    "timed_out",
    "timed_out_mark",
]

#: a table's meta keys: its `Pace`, when it began to wait for each seat, its timed-out moves.
PACE = "pace"
SINCE = "waiting_since"
TIMED_OUT = "timed_out"
#: who moves for a seat whose time ran out.
BY_DEFAULT = "default"
BY_BOT = "bot"
#: the extra time a student may be given, as a factor of the table's seconds.
EXTRA_CHOICES = (1.0, 1.5, 2.0)
#: the longest timer a decision may have (an hour), and the shortest (a decision needs a moment).
MOST_SECONDS = 3600
LEAST_SECONDS = 5


class PaceError(Refusal):
    """A pace setting that was not made (nothing changed); the message says why."""

    def __init__(self, message: str | Said) -> None:
        super().__init__(message, "pace")


def extra_choices() -> str:
    """The extra-time factors as a refusal names them: "x1, x1.5, x2"."""
    return ", ".join(f"x{f:g}" for f in EXTRA_CHOICES)


# -- length ------------------------------------------------------------------------------------------


def length_variants(game: str, length: object) -> dict[str, Any]:
    """The setup variant that sets `game`'s length: `length` a number of its steps (years,
    rounds, chapters), "end" (or "none") for the text's own end, or ""/None for the game's
    default. PaceError for a game without a set length, or a length that is no number."""
    if length is None or (isinstance(length, str) and not length.strip()):
        return {}
    measure = card(game).length
    if measure is None:
        raise PaceError(say("{game} has no set length: its GM ends it", game=card(game).title))
    if isinstance(length, str):
        text = length.strip().lower()
        if text in ("end", "none", "text", "until the end"):
            return {measure.field: None}
        if not text.isdigit():
            raise PaceError(say("a length is a number of {units} (or 'end'), not {length}", units=measure.units, length=repr(length)))
        length = int(text)
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise PaceError(say("a length is at least 1 {unit}, not {length}", unit=measure.unit, length=repr(length)))
    return {measure.field: length}


def length_of(game: str, variants: Mapping[str, Any]) -> str:
    """The length `variants` set, in words: "2 years", "until the text's end", or "" (the game's default)."""
    measure = card(game).length
    if measure is None or measure.field not in variants:
        return ""
    value = variants[measure.field]
    if value is None:
        return _("until the text's end")
    # The card's own word for one and for many: a length of 1 year, of 2 years.
    return _("{n} {unit}", n=value, unit=measure.unit if value == 1 else measure.units)


# -- the settings -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pace:
    """A table's timer: `seconds` per decision (0: no timer), who moves for a seat at zero
    (`by`: the game's default or its fill bot), extra time per seat (a factor), and the moment
    the teacher paused (None: running)."""

    seconds: int = 0
    by: str = BY_DEFAULT
    extra: dict[int, float] = field(default_factory=dict)
    paused_at: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, int) or not (self.seconds == 0 or LEAST_SECONDS <= self.seconds <= MOST_SECONDS):
            raise PaceError(say("a timer has {low}-{high} seconds per decision, or 0 for none (not {seconds})", low=str(LEAST_SECONDS), high=str(MOST_SECONDS), seconds=repr(self.seconds)))
        if self.by not in (BY_DEFAULT, BY_BOT):
            raise PaceError(say("at zero the game's default or its fill bot moves ({default} or {bot}), not {by}", default=repr(BY_DEFAULT), bot=repr(BY_BOT), by=repr(self.by)))
        for factor in self.extra.values():
            if factor not in EXTRA_CHOICES:
                raise PaceError(say("extra time is {choices}, not x{factor}", choices=extra_choices(), factor=str(factor)))

    @property
    def on(self) -> bool:
        return self.seconds > 0

    def seconds_for(self, seat: int) -> float:
        return self.seconds * self.extra.get(seat, 1.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "by": self.by,
            "extra": {str(s): f for s, f in sorted(self.extra.items()) if f != 1.0},
            **({"paused_at": self.paused_at} if self.paused_at is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Pace:
        if not isinstance(data, Mapping):
            return cls()
        extra = {int(s): float(f) for s, f in dict(data.get("extra") or {}).items() if str(s).isdigit()}
        paused = data.get("paused_at")
        return cls(int(data.get("seconds") or 0), str(data.get("by") or BY_DEFAULT), extra, None if paused is None else float(paused))


def pace_of(meta: Mapping[str, Any]) -> Pace:
    """A table's timer from its meta (no timer when it has none, or a damaged one)."""
    try:
        return Pace.from_json(meta.get(PACE))
    except (PaceError, TypeError, ValueError):
        return Pace()


# -- what the store keeps with every change -----------------------------------------------------------


def _step(state: Any) -> tuple[Any, ...]:
    """Where a game stands: its year, round or chapter, and its phase (a seat's decision is one
    of these; the same seat waited on at a new step starts a new decision)."""
    return (getattr(state, "year", getattr(state, "round", getattr(state, "chapter", None))), getattr(state, "phase", None))


def after_change(meta: Mapping[str, Any], game_before: AnyGame | None, game_after: AnyGame, now: float) -> dict[str, Any]:
    """The meta keys the store writes with a change (in its transaction): `waiting_since`, when
    the table began to wait for each seat it waits for now. A seat the table waited for before,
    at the same step, keeps its moment; any other starts now. A paused table's new waits start
    at the pause (resume then shifts them all alike)."""
    rules = game_after.rules
    waiting = () if rules.over(game_after.state) else tuple(rules.waiting_for(game_after.state))
    old = {int(s): float(t) for s, t in dict(meta.get(SINCE) or {}).items() if str(s).isdigit()}
    same_step = game_before is not None and _step(game_before.state) == _step(game_after.state)
    before = set(rules.waiting_for(game_before.state)) if game_before is not None and not rules.over(game_before.state) else set()
    paused = pace_of(meta).paused_at
    start = now if paused is None else min(now, paused)
    since = {str(s): (old[s] if same_step and s in before and s in old else start) for s in waiting}
    return {SINCE: since}


def after_undo(meta: Mapping[str, Any], moves: int) -> dict[str, Any]:
    """The timed-out marks of moves still in the log after an undo left `moves` of them (nothing
    for a table whose timer never moved)."""
    if TIMED_OUT not in meta:
        return {}
    marks = {k: v for k, v in dict(meta.get(TIMED_OUT) or {}).items() if str(k).isdigit() and int(k) < moves}
    return {TIMED_OUT: marks}


def timed_out_mark(meta: Mapping[str, Any], index: int, how: str) -> dict[str, Any]:
    """Meta with the move at `index` of the log marked as made by the timer (`how`: "default"
    or "bot NAME")."""
    return {TIMED_OUT: {**dict(meta.get(TIMED_OUT) or {}), str(index): how}}


def pause_meta(meta: Mapping[str, Any], paused: bool, now: float) -> dict[str, Any] | None:
    """The meta keys that pause a table at `now`, or resume it (every seat's moment moved on by
    the pause); None when it already is as asked."""
    pace = pace_of(meta)
    if paused == (pace.paused_at is not None):
        return None
    if paused:
        return {PACE: dataclasses.replace(pace, paused_at=now).to_json()}
    assert pace.paused_at is not None
    shift = max(0.0, now - pace.paused_at)
    since = {s: float(t) + shift for s, t in dict(meta.get(SINCE) or {}).items()}
    return {PACE: dataclasses.replace(pace, paused_at=None).to_json(), SINCE: since}


def table_pace(settings: Mapping[str, Any], seats: Sequence[str | None]) -> dict[str, Any]:
    """The `pace` meta of a class's table whose rules' seats are the students `seats` (None for
    a bot): the class's timer (`settings`: `Pace`'s JSON, its extra time by student id), each
    student's extra time on their seat, paused if the class is."""
    base = Pace.from_json({k: v for k, v in settings.items() if k != "extra"})
    by_student = {str(k): float(v) for k, v in dict(settings.get("extra") or {}).items()}
    extra = {seat: by_student[sid] for seat, sid in enumerate(seats) if sid is not None and sid in by_student}
    return {PACE: dataclasses.replace(base, extra=extra).to_json()}


def paused(meta: Mapping[str, Any]) -> bool:
    return pace_of(meta).paused_at is not None


def timed_out(meta: Mapping[str, Any]) -> dict[int, str]:
    """Move index -> how it was made, for the moves a timer made."""
    return {int(k): str(v) for k, v in dict(meta.get(TIMED_OUT) or {}).items() if str(k).isdigit()}
