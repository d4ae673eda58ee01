"""A seat's own result at the end of its game, in its game's words and the page's language:
"Your household finished 2nd of 10 with 14 VP" (the seat page's last screen)."""

from __future__ import annotations

from i18n import SOURCE, _, current, render
from rules.core import AnyGame
from rules.games import card

__all__ = ["ordinal", "seat_place"]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st; in another language its own way
    of writing a place ("1e", "1.", "1.º")."""
    if current() != SOURCE:
        # TRANSLATORS: a place in a ranking, written with its number: "1st", Dutch "1e", German "1."
        return _("{n}th", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seat_place(game: AnyGame, seat: int, stopped: str = "") -> str:
    """`seat`'s own result at the end, in its game's words (its card's): "Your household
    finished 2nd of 10 with 14 VP" ("You finished 1st of 4 with 12 points"), or, for a game its class stopped ("stopped in year 2"),
    "Stopped in year 2: your household stood 2nd of 10 with 14 VP". Where the scores stay each
    seat's own (Leerdam's anonymous pledges not shown) the place is not said, only the score."""
    words = card(game.rules.slug).words
    standings = game.rules.standings(game.state)
    mine = next(((rank, value) for rank, s, value in standings if s == seat), None)
    if mine is None:
        return ""
    rank, value = mine
    if not words.points:
        return ""  # a game that keeps no score (a cooperative one) ranks nobody
    shared = sum(1 for r, _s, _v in standings if r == rank) > 1
    if getattr(game.setup, "anonymous", False) and not getattr(game.state, "pledges_shown", False):
        place = ""  # a household's place would tell the others' scores apart
    elif shared:
        place = _("joint {rank} of {n}", rank=ordinal(rank), n=len(standings))
    else:
        place = _("{rank} of {n}", rank=ordinal(rank), n=len(standings))
    you, points = render(words.you), render(words.points)
    if stopped:
        # What the class's end said comes first: "Stopped in year 2: your household stood 2nd of 10 with 14 VP."
        sentence = (
            _("{you} stood {place} with {value} {points}.", you=you, place=place, value=value, points=points)
            if place
            else _("{you} stood with {value} {points}.", you=you, value=value, points=points)
        )
        return _("{stopped}: {sentence}", stopped=stopped[:1].upper() + stopped[1:], sentence=sentence[:1].lower() + sentence[1:])
    if place:
        return _("{you} finished {place} with {value} {points}.", you=you, place=place, value=value, points=points)
    return _("{you} finished with {value} {points}.", you=you, value=value, points=points)
