"""A seat's timer at work: the deadlines of a table's decisions, and the moves made at zero.

The settings, and what the store keeps with every change, are `playbook.pace`. Here a page open
for the table (the board, the facilitator's page, the class monitor) asks which deadlines have
passed (`run_timer`, with the clock passed in) and makes each seat's move through the store's
one write path, as a `Play` marked timed out with the version it loaded: of two pages that try,
the second finds the seat moved and is refused as stale, so a move is made once. "Next round /
year for every table" is `move_on`.
"""

from __future__ import annotations

import random
from typing import Any

from rules import Action
from rules.core import AnyGame
from rules.games import card

from .bots import strategies
from .pace import BY_BOT, BY_DEFAULT, SINCE, _step, pace_of
from .store import STOPPED, Play, Refused, Store, Table

__all__ = ["MOVE_ON_LIMIT", "deadlines", "left", "move_on", "run_timer", "timeout_action"]

#: how many timer moves "move every table on" makes at one table before it gives up (a game that
#: waits for nobody but the GM or the facilitator).
MOVE_ON_LIMIT = 400


# -- deadlines ----------------------------------------------------------------------------------------


def deadlines(table: Table) -> dict[int, float]:
    """Seat -> the moment its decision times out, for every seat a person plays that the table
    waits for, while its timer runs (none when it has no timer, is paused, stopped or over)."""
    pace = pace_of(table.meta)
    game = table.game
    if not pace.on or pace.paused_at is not None or table.meta.get(STOPPED) or game.rules.over(game.state):
        return {}
    since = dict(table.meta.get(SINCE) or {})
    bots = table.bots
    seats = len(getattr(game.setup, "names", ()))
    found = {}
    for seat in game.rules.waiting_for(game.state):
        if seat in bots or str(seat) not in since or not 0 <= seat < seats:  # a GM (outside the seats) has no timer
            continue
        found[seat] = float(since[str(seat)]) + pace.seconds_for(seat)
    return found


def left(table: Table, seat: int | None, now: float) -> float | None:
    """Seconds left for `seat`'s decision (for the board, None: the soonest seat's), or None
    when no timer runs for it. Never below 0."""
    due = deadlines(table)
    if seat is None:
        return max(0.0, min(due.values()) - now) if due else None
    return max(0.0, due[seat] - now) if seat in due else None


# -- the timer's moves --------------------------------------------------------------------------------


def _fill_bot(game: AnyGame) -> str | None:
    known = list(strategies(game.rules.slug))
    wanted = card(game.rules.slug).fill_bot
    return wanted if wanted in known else (known[0] if known else None)


def timeout_action(game: AnyGame, seat: int, by: str) -> tuple[Action, str] | None:
    """The move made for `seat` whose time ran out, and how ("default" or "bot NAME"): the
    game's stated default (`timeout_move` of its rules module) when `by` is "default" and the
    game has one the rules allow, else the game's fill bot. None when neither can move."""
    state = game.state
    if by == BY_DEFAULT:
        action = card(game.rules.slug).module("rules").timeout_move(state, seat)
        if action is not None and game.is_legal(action):
            return action, BY_DEFAULT
    name = _fill_bot(game)
    if name is None:
        return None
    rng = random.Random(f"timeout:{game.seed}:{len(game.actions)}:{seat}")
    try:
        action = strategies(game.rules.slug)[name](state, seat, rng)
    except Exception:  # a bot that cannot move for this seat now: the seat waits for its person
        return None
    return (action, f"{BY_BOT} {name}") if game.is_legal(action) else None


def run_timer(store: Store, table_id: str, now: float, force: bool = False) -> list[int]:
    """Make the move of every seat whose time has run out at `table_id` (when `force`, of every
    seat the table waits for, until it reaches its next round, year or chapter), each through the store's write path as a
    `Play` marked timed out, with the version this call loaded. A seat that moved meanwhile, or
    another page that made the move first, makes the attempt a no-op. The seats moved."""
    moved: list[int] = []
    first: Any = None
    for _ in range(MOVE_ON_LIMIT):
        try:
            table = store.load(table_id)
        except KeyError:
            return moved
        if force:
            game = table.game
            pace = pace_of(table.meta)
            first = _step(game.state)[0] if first is None else first
            if table.meta.get(STOPPED) or game.rules.over(game.state) or _step(game.state)[0] != first:
                return moved
            due = {s: 0.0 for s in game.rules.waiting_for(game.state) if s not in table.bots}
        else:
            pace = pace_of(table.meta)
            due = {s: t for s, t in deadlines(table).items() if t <= now}
            # Only the decisions that were due when this call first looked: a wait that began
            # since (the next phase's) has its own deadline, for a later look.
            decisions = {(s, t) for s, t in due.items()} if first is None else first
            due = {s: t for s, t in due.items() if (s, t) in decisions}
            first = decisions
        if not due:
            return moved
        seat = min(due, key=lambda s: (due[s], s))
        made = timeout_action(table.game, seat, pace.by)
        if made is None:
            return moved
        action, how = made
        try:
            store.submit(table_id, Play(action, timed_out=how), table.version)
        except Refused:
            continue  # moved meanwhile (by its player or another page): look again
        moved.append(seat)
    return moved


def move_on(store: Store, table_id: str) -> int:
    """Next round or year for every table: every seat the table waits for is moved on by the timer's rule, until
    the table reaches its next round, year or chapter (or its end, or waits for nobody a timer
    moves). How many moves were made."""
    try:
        start = _step(store.load(table_id).game.state)[0]
    except KeyError:
        return 0
    made = 0
    for _ in range(MOVE_ON_LIMIT):
        moved = run_timer(store, table_id, 0.0, force=True)
        made += len(moved)
        table = store.load(table_id)
        if not moved or _step(table.game.state)[0] != start:
            return made
    return made
