"""Every decision of a recorded game and what it led to: the rows of the debrief and its CSV.

Each game module has a `decisions(game, reveal=...)` that replays the game's action log and
describes each player's (or the facilitator's) move in the room's words; chance outcomes (a
roll, a draw) are not decisions: their log lines join the outcome of the decision before them.
This module holds the shared part: the typed row, the replay that builds the rows, and the one
CSV writer every export uses (the table's, the class's, the command line's).

Language: a describer says each part of a row as a message (`rules.text.say`: names as typed,
as values); `collect` says the rows through the `render` it is given, the export's language
(`i18n.render` bound to it, from the layer that writes the file), English (`str`) by default.

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
from .text import Said, say

__all__ = [
    "COLUMNS",
    "COLUMN_LABELS",
    "Decision",
    # the record a game module's `decisions(game)` reads, for the modules' one import line
    "Game",
    "Made",
    "Render",
    "Words",
    "collect",
    "columns_with",
    "commas",
    "csv_text",
    "decision_rows",
    "first_states",
    "step_number",
]

#: The CSV's columns, in order: "step_number" is the round, year or chapter as a number, and
#: "amount" the number a decision gave (pledged, paid, drawn, rolled), which "amount_is" names,
#: both blank where a decision has none or keeps it secret: columns a spreadsheet can chart.
COLUMNS = ("table", "step", "step_number", "seat", "player", "decision", "amount", "amount_is", "outcome")

#: What each column holds, in the reader's words: a header cell says it beside the column's id
#: (`i18n.header_cell`). The columns a table's or a class's export adds after "player" too.
COLUMN_LABELS: Mapping[str, Said] = {
    "table": say("Table"),
    # TRANSLATORS: a CSV column: where the game stood (a year, a round, a chapter, a check).
    "step": say("Year or round"),
    # TRANSLATORS: a CSV column: the year, round or chapter as a number.
    "step_number": say("Year or round number"),
    "seat": say("Seat"),
    "player": say("Player"),
    # TRANSLATORS: a CSV column: who chose a move, the student or the bot that played for them.
    "by": say("Chosen by"),
    "student": say("Student"),
    # TRANSLATORS: a CSV column: how a seat's timer made a move when its time ran out.
    "timed_out": say("Timed out"),
    "decision": say("Decision"),
    # TRANSLATORS: a CSV column: the number a decision gave (units pledged, candies paid).
    "amount": say("Amount"),
    # TRANSLATORS: a CSV column: what the amount counts ("units pledged").
    "amount_is": say("Amount is"),
    "outcome": say("Outcome"),
}

#: A part of a row as a describer says it: a message, or text as typed (a name).
Words = Said | str
#: Says a message in the export's language (`i18n.render` bound to it); `str` is English.
Render = Callable[[Words], str]


@dataclass(frozen=True)
class Decision:
    """One decision in a game's record, its words said in the export's language (`collect`)."""

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
    #: the round, year or chapter of `step` as a number, read from its English (`step_number`).
    step_number: int | None = None


@dataclass(frozen=True)
class Made:
    """What a game's describer says of one action: a decision row's own part. `amount` is the
    number the decision gave (its game's module says which), given only where the export may
    name it: a withheld pledge has none. Its words are messages (names as typed)."""

    step: Words
    seat: int | None
    player: Words
    decision: Words
    withheld: bool = False
    amount: int | None = None
    amount_is: Words = ""


#: A game's describer: (state before, action, state after, state at the record's end, reveal)
#: -> a new decision, or words a chance outcome adds to the last decision's outcome (only what
#: `reveal` allows), or None.
Describe = Callable[[Any, Action, Any, Any, bool], "Made | Words | None"]


def collect(game: AnyGame, describe: Describe, *, reveal: bool, scrub: Callable[[Words], Words] | None = None, render: Render = str) -> list[Decision]:
    """The decisions of `game`'s record, each with the public log lines it led to (each passed
    through `scrub`, which may reword a line that names what this export keeps), said by
    `render` (the export's language; English by default)."""
    rules = game.rules
    final = game.state
    state = rules.initial(game.setup)
    found: list[Decision] = []
    for index, action in enumerate(game.actions):
        before = state
        state = rules.play(state, action)
        said = [e.text for e in state.log[len(before.log) :] if e.visible(None)]
        if scrub is not None:
            said = [scrub(line) for line in said]
        lines = [render(line) for line in said]
        made = describe(before, action, state, final, reveal)
        if isinstance(made, Made):
            amount_is = render(made.amount_is) if made.amount is not None else ""
            # The step's number is read from its English ("Year 3"), whatever the language.
            number = step_number(str(made.step))
            found.append(Decision(index + 1, render(made.step), made.seat, render(made.player), render(made.decision), " / ".join(lines), made.withheld, made.amount, amount_is, number))
            continue
        extra = [render(made)] if isinstance(made, Said | str) and made else []
        if found and (lines or extra):
            last = found[-1]
            outcome = " / ".join(filter(None, [last.outcome, *lines, *extra]))
            found[-1] = dataclasses.replace(last, outcome=outcome)
    return found


def commas(parts: Sequence[Words], between: str = ",") -> Words:
    """Parts of a decision said one after another, "2 subsistence to Bo, 1 profit to Cy" (or
    with `between` ";" or "+": "a; b", "Agility + Cool"): one message per separator, so a
    language may order or punctuate it."""
    joined = parts[0]
    for part in parts[1:]:
        if between == ";":
            # TRANSLATORS: two parts of a list in a debrief's row ("a full hit on Bo; danger +1 on Cy"); keep the order.
            joined = say("{first}; {then}", first=joined, then=part)
        elif between == "+":
            # TRANSLATORS: two stats added together in a check ("Agility + Cool"); keep the order.
            joined = say("{first} + {then}", first=joined, then=part)
        else:
            # TRANSLATORS: two parts of a list in a log line ("2 on Think, 1 on Probe"); keep the order.
            joined = say("{first}, {then}", first=joined, then=part)
    return joined


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
        row: dict[str, object] = {"table": table, "step": d.step, "step_number": d.step_number, "seat": "" if d.seat is None else d.seat + 1, "player": d.player}
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


def csv_text(rows: Sequence[Mapping[str, object]], bom: bool = True, columns: Sequence[str] = (), header: Mapping[str, str] | None = None) -> str:
    """Rows of plain values as CSV text with a header (`columns`, else the first row's keys);
    None is blank. No rows and no `columns` give "". A column's header cell is its id, or what
    `header` has for it (`i18n.csv_text`: the reader's words, the id in parentheses).

    For a download: it starts with a byte-order mark (`bom`), without which Excel reads UTF-8
    as another code page ("ZoÃ«"), and no cell is a live formula (`=HYPERLINK(...)` as a name).
    """
    if not rows and not columns:
        return ""
    out = io.StringIO()
    # CRLF rows, as the CSV standard and Excel have them: a cell holding a CR is then quoted too.
    fields = list(columns or rows[0])
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\r\n")
    writer.writerow({column: _safe_cell((header or {}).get(column, column)) for column in fields})
    writer.writerows({k: _safe_cell(v) for k, v in row.items()} for row in rows)
    return ("\ufeff" if bom else "") + out.getvalue()
