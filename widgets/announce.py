"""What a table's page says of its game to the page's live region (`widgets.common.Announcer`).

After each redraw, from the state the page redraws from, once each:

- a confirmation of the move this page just made ("Done. You pledged 2 units to the dyke."):
  the line of the log only the seat reads, on its own page only (a shared screen keeps no
  secret in its messages), else the first public line naming the mover;
- a moment of the game since the page last said one (the reveal, a year's or round's result:
  the debrief's moments, each game's `GameScenes.moment`) with the public log lines that came
  with it, not a seat's routine "Bo has made a secret pledge" (the turn line says who is left);
- whose turn it is (the header's turn line), "Your turn." first on the seat waited for.

A redraw of the same state says nothing. Refusals are the status line's (`StatusLine`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from drawing.timeline import scenes_for
from i18n import render
from rules.core import AnyGame

from .common import Announcer, words_of

__all__ = ["OUTCOME_LINES", "GameSaid", "confirmation", "outcome_lines"]

#: at most this many lines of the log tell a moment's outcome.
OUTCOME_LINES = 5


def outcome_lines(events: Sequence[Any], names: Sequence[str]) -> list[str]:
    """The public lines of the log `events` that tell an outcome (a seat's own lines are its
    confirmation's): not a seat's routine "Bo has made a secret pledge", at most the last
    OUTCOME_LINES."""
    routine = tuple(f"{name} has " for name in names)
    # The routine lines are found by their English (`str`); the lines kept are said in the page's language.
    lines = [render(e.text) for e in events if e.visible(None) and not str(e.text).startswith(routine)]
    return lines[-OUTCOME_LINES:]


def confirmation(events: Sequence[Any], seat: int | None, name: str) -> str:
    """What a move just made did, in the words of the log it added: the line only `seat` reads
    ("You pledged 1 unit to the dyke."; None: a shared screen, no such line), else the first
    public line naming the mover `name` ("Ana keeps the draw.")."""
    own = [render(e.text) for e in events if seat is not None and e.visible_to is not None and seat in e.visible_to]
    named = [render(e.text) for e in events if e.visible_to is None and str(e.text).startswith(f"{name} ")]
    said = own[:1] or named[:1]
    return f"Done. {said[0]}" if said else "Done."


class GameSaid:
    """One table page's messages of its game, into `announcer` (see the module docstring)."""

    def __init__(self, announcer: Announcer) -> None:
        self.announcer = announcer
        #: the seat whose move the page is submitting (its redraw confirms it), or None.
        self.acting: int | None = None
        #: the state last said, and its table (another table opened: nothing said of it yet).
        self._state: Any = None
        self._table: str | None = None

    def redrawn(
        self,
        game: AnyGame,
        table_id: str | None,
        seat: int | None,
        names: Sequence[str],
        seat_name: Callable[[int], str],
        turn_html: str,
        waiting: Collection[int],
    ) -> None:
        """The page drew `game`; `seat`: a seat page's own seat (None: a shared screen, a board)."""
        state = game.state
        before = self._state if self._table == table_id else None
        self._state, self._table = state, table_id
        if before is not None and before is not state:
            log, earlier = tuple(getattr(state, "log", ())), tuple(getattr(before, "log", ()))
            grew = len(log) >= len(earlier)  # shorter: an undo, no news of the game
            confirmed = ""
            if grew and self.acting is not None:
                confirmed = confirmation(log[len(earlier) :], seat, seat_name(self.acting))
                self.announcer.announce(confirmed)
            moment = scenes_for(game.rules.slug).moment(before, state) if grew else None
            if moment is not None:
                # Not the move just confirmed a second time ("Ana returns 2 red").
                lines = [line for line in outcome_lines(log[len(earlier) :], names) if f"Done. {line}" != confirmed]
                self.announcer.announce(f"{moment[0]}. {' '.join(lines)}".strip())
        turn = words_of(turn_html)
        if turn and seat is not None and seat in set(waiting) and not game.rules.over(state):
            turn = f"Your turn. {turn}"
        self.announcer.follow("turn", turn)
