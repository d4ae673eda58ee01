"""Every decision of a recorded game and what it led to: the rows of the debrief and its CSV.

Each game module has a `decisions(game, reveal=...)` that replays the game's action log and
describes each player's (or the facilitator's) move in the room's words; chance outcomes (a
roll, a draw) are not decisions: their log lines join the outcome of the decision before them.
This module holds the shared part: the typed row, the replay that builds the rows, and the one
CSV writer every export uses (the table's, the class's, the command line's).

Secrets: with `reveal` off a row names only what the public board has shown by the end of the
record (a pledge after its reveal, a pick after the reveal; never a blind draw); a withheld
decision says so and is marked `withheld`. Outcomes are the public log lines only.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Action, AnyGame, Game

__all__ = [
    "COLUMNS",
    "Decision",
    # the record a game module's `decisions(game)` reads, for the modules' one import line
    "Game",
    "Made",
    "collect",
    "columns_with",
    "csv_text",
    "decision_rows",
    "first_states",
    "step_number",
]

#: The CSV's columns, in order: "step_number" is the round, year or chapter as a number, and
#: "amount" the number a decision gave (pledged, paid, drawn, rolled), which "amount_is" names,
#: both blank where a decision has none or keeps it secret: columns a spreadsheet can chart.
COLUMNS = ("table", "step", "step_number", "seat", "player", "decision", "amount", "amount_is", "outcome")


@dataclass(frozen=True)
class Decision:
    """One decision in a game's record."""

    #: the action's place in the record, from 1 (chance outcomes count too).
    number: int
    #: where the game stood: "Year 3", "Round 2", "Chapter 1", "Encounter 1, check 4".
    step: str
    #: the seat that decided, or None for the facilitator or the GM.
    seat: int | None
    #: the seat's name (the GM's or "Facilitator" for the table's own moves).
    player: str
    #: what was decided, in words.
    decision: str
    #: what it led to at once: the public log lines it and the chance after it added.
    outcome: str
    #: the decision's content is a secret this export keeps (a pledge, a pick, a draw).
    withheld: bool = False
    #: the number the decision gave (2 units pledged), None where it has none or keeps it.
    amount: int | None = None
    #: what `amount` counts, as a column's reader needs it ("units pledged").
    amount_is: str = ""


@dataclass(frozen=True)
class Made:
    """What a game's describer says of one action: a decision row's own part. `amount` is the
    number the decision gave (its game's module says which), given only where the export may
    name it: a withheld pledge has none."""

    step: str
    seat: int | None
    player: str
    decision: str
    withheld: bool = False
    amount: int | None = None
    amount_is: str = ""


#: A game's describer: (state before, action, state after, state at the record's end, reveal)
#: -> a new decision, or text a chance outcome adds to the last decision's outcome (only what
#: `reveal` allows), or None.
Describe = Callable[[Any, Action, Any, Any, bool], "Made | str | None"]


def collect(game: AnyGame, describe: Describe, *, reveal: bool, scrub: Callable[[str], str] | None = None) -> list[Decision]:
    """The decisions of `game`'s record, each with the public log lines it led to (each passed
    through `scrub`, which may reword a line that names what this export keeps)."""
    rules = game.rules
    final = game.state
    state = rules.initial(game.setup)
    found: list[Decision] = []
    for index, action in enumerate(game.actions):
        before = state
        state = rules.play(state, action)
        lines = [str(e.text) for e in state.log[len(before.log) :] if e.visible(None)]
        if scrub is not None:
            lines = [scrub(line) for line in lines]
        made = describe(before, action, state, final, reveal)
        if isinstance(made, Made):
            found.append(Decision(index + 1, made.step, made.seat, made.player, made.decision, " / ".join(lines), made.withheld, made.amount, made.amount_is if made.amount is not None else ""))
            continue
        extra = [made] if isinstance(made, str) and made else []
        if found and (lines or extra):
            last = found[-1]
            outcome = " / ".join(filter(None, [last.outcome, *lines, *extra]))
            found[-1] = dataclasses.replace(last, outcome=outcome)
    return found


def first_states(game: AnyGame, key: Callable[[Any], Any]) -> dict[Any, Any]:
    """The first state of `game`'s record with each value of `key(state)` (a round, a year, a
    check), in order: what the board showed as that step began. For a debrief's charts."""
    rules = game.rules
    state = rules.initial(game.setup)
    found = {key(state): state}
    for action in game.actions:
        state = rules.play(state, action)
        found.setdefault(key(state), state)
    return found


def columns_with(*extra: str) -> tuple[str, ...]:
    """`COLUMNS` with `extra` columns after "player", as `decision_rows(..., **extra)` fills them."""
    at = COLUMNS.index("player") + 1
    return COLUMNS[:at] + extra + COLUMNS[at:]


_FIRST_NUMBER = re.compile(r"\d+")


def step_number(step: str) -> int | None:
    """The round, year or chapter of a step as a number ("Year 3" -> 3; "Encounter 2, check 4"
    -> 2), None for a step without one ("Setting")."""
    found = _FIRST_NUMBER.search(step)
    return int(found.group()) if found else None


def decision_rows(decisions: Sequence[Decision], table: object = 1, **extra: Mapping[int, object]) -> list[dict[str, object]]:
    """Plain rows for a CSV: the `COLUMNS`, seats counted from 1 (blank for the table's own
    moves). `extra` adds a column after "player", valued per decision number."""
    rows = []
    for d in decisions:
        row: dict[str, object] = {"table": table, "step": d.step, "step_number": step_number(d.step), "seat": "" if d.seat is None else d.seat + 1, "player": d.player}
        for column, values in extra.items():
            row[column] = values.get(d.number, "")
        row.update(decision=d.decision, amount=d.amount, amount_is=d.amount_is, outcome=d.outcome)
        rows.append(row)
    return rows


# -- the CSV writer ---------------------------------------------------------------------------------

#: A cell starting with one of these is a formula to a spreadsheet (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _safe_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: a string that would start a formula gets a leading
    apostrophe. Numbers (and a string that is only a number) are left as they are."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: Sequence[Mapping[str, object]], bom: bool = True, columns: Sequence[str] = ()) -> str:
    """Rows of plain values as CSV text with a header (`columns`, else the first row's keys);
    None is blank. No rows and no `columns` give "".

    For a download: it starts with a byte-order mark (`bom`), without which Excel reads UTF-8
    as another code page ("ZoÃ«"), and no cell is a live formula (`=HYPERLINK(...)` as a name).
    """
    if not rows and not columns:
        return ""
    out = io.StringIO()
    # CRLF rows, as the CSV standard and Excel have them: a cell holding a CR is then quoted too.
    writer = csv.DictWriter(out, fieldnames=list(columns or rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: _safe_cell(v) for k, v in row.items()} for row in rows)
    return ("\ufeff" if bom else "") + out.getvalue()
