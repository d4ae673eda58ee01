"""New Rule: candy immune systems. Rules text `seeds/new-rule.txt`, gaps ruled in RULINGS.md.

A round: in seat order each player still in draws two candies blindly and keeps them or
swaps them for one of a chosen colour; then everyone secretly picks a colour they hold, the
picks are revealed together, and the most-picked colours infect everyone at the strength of
their count; each player pays that many levels or is out.

Choices this module makes where RULINGS.md is silent (also in docs/rules/new-rule.md):
- The two candies of a paid level may be of different non-infection colours.
- The game also ends when fewer than two players are still in.
- Players who are out rank by the round they went out (later is better), ties shared.
- Bowls are private; their candy totals, payments, swaps and eaten reds are public.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from .core import Action, Event, GameRules, RuleError, check_names, ranked, seats_said
from .decisions import Decision, Game, Made, Render, Words, collect
from .games import card
from .records import evolve
from .text import Listed, Said, listed, say, say_n

__all__ = [
    "COLOURS",
    "RULES",
    "SYMBOLS",
    "Deal",
    "Draw",
    "Drawn",
    "Keep",
    "Pay",
    "Pick",
    "Setup",
    "State",
    "Swap",
    "decisions",
    "legal_actions",
    "legal_payments",
    "max_levels",
    "scores",
    "standings",
    "suggested_payment",
    "view_for",
]

#: What the game is: its name, who plays it and what it calls them (`rules.games`).
CARD = card("new-rule")

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "brown")
#: A shape per colour so no one needs to tell colours apart by hue alone.
SYMBOLS: Mapping[str, str] = {
    "red": "♥",
    "orange": "▲",
    "yellow": "★",
    "green": "♣",
    "blue": "●",
    "brown": "■",
    "purple": "◆",
    "pink": "✿",
}
FALLBACK_SYMBOLS = "✚✦❖◐⬟⬢"
DRAW_SIZE = 2
#: colours a game may have: every one needs its own symbol, and a bowl of more is no game.
MAX_COLOURS = 12

Phase = Literal["deal", "draw", "drawing", "choose", "pick", "pay", "over"]
Bag = tuple[int, ...]


def symbol(colours: Sequence[str], colour: str) -> str:
    """The shape that stands for `colour` in this game's palette."""
    if colour in SYMBOLS:
        return SYMBOLS[colour]
    extras = [c for c in colours if c not in SYMBOLS]
    return FALLBACK_SYMBOLS[extras.index(colour) % len(FALLBACK_SYMBOLS)]


# -- setup -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Players and variants. Every number can be changed by a facilitator."""

    names: tuple[str, ...]
    #: candy colours in the game; the antibody colour must be among them.
    colours: tuple[str, ...] = COLOURS
    #: the antibody colour: eaten for one level each, counted whole in the score.
    antibody: str = "red"
    #: bags of candy per player, each holding `per_bag` of every colour.
    bags_per_player: int = 2
    per_bag: int = 9
    #: candies each player draws at setup.
    hand: int = 10
    #: the game ends after this many rounds; None plays the text as written.
    max_rounds: int | None = 12

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", check_names(self.names, CARD.players.low, CARD.players.high, CARD.words.players))
        if not 2 <= len(self.colours) <= MAX_COLOURS:
            raise RuleError("setup", say("the game has 2-{most} colours, not {n}", most=MAX_COLOURS, n=len(self.colours)))
        colours = tuple(str(c).strip().lower() for c in self.colours)
        object.__setattr__(self, "colours", colours)
        if any(len(c) > 20 for c in colours):
            raise RuleError("setup", say("a colour's name is at most 20 characters"))
        if len(colours) < 2 or len(set(colours)) != len(colours) or not all(colours):
            raise RuleError("setup", say("the game needs at least two distinct colour names"))
        if self.antibody not in colours:
            raise RuleError("setup", say("the antibody colour {colour} is not one of the colours", colour=repr(self.antibody)))
        if not 1 <= self.bags_per_player <= 10 or not 1 <= self.per_bag <= 50:
            raise RuleError("setup", say("bags per player must be 1-10 and candies per colour per bag 1-50"))
        if not self.hand >= 1:
            raise RuleError("setup", say("each player starts with at least one candy"))
        if self.hand * len(self.names) > self.total_candies:
            raise RuleError("setup", say("{n} candies cannot give {players} players {hand} each", n=self.total_candies, players=len(self.names), hand=self.hand))
        if self.max_rounds is not None and not 1 <= self.max_rounds <= 200:
            raise RuleError("setup", say("the round limit must be 1-200, or none"))

    @property
    def total_candies(self) -> int:
        return len(self.names) * self.bags_per_player * self.per_bag * len(self.colours)

    @property
    def players(self) -> int:
        return len(self.names)


# -- actions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal(Action):
    """Chance: the ten candies each player draws at setup, seat by seat."""

    kind: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True
    hands: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))


@dataclass(frozen=True)
class Draw(Action):
    """The seat whose turn it is reaches into the common bowl."""

    kind: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Drawn(Action):
    """Chance: the candies that seat drew blindly (seen only by that seat)."""

    kind: ClassVar[str] = "drawn"
    chance: ClassVar[bool] = True
    candies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "candies", tuple(sorted(self.candies)))


@dataclass(frozen=True)
class Keep(Action):
    """Keep both drawn candies."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True)
class Swap(Action):
    """Return both drawn candies and take one of `colour` from the common bowl."""

    kind: ClassVar[str] = "swap"
    colour: str = ""


@dataclass(frozen=True)
class Pick(Action):
    """The secret choice of one colour the seat holds; revealed with everyone's."""

    kind: ClassVar[str] = "pick"
    colour: str = ""


@dataclass(frozen=True)
class Pay(Action):
    """Fight off the infection: candies returned to the common bowl, antibodies eaten."""

    kind: ClassVar[str] = "pay"
    returned: tuple[str, ...] = ()
    eaten: int = 0

    def __post_init__(self) -> None:
        # One spelling per payment, so equal payments compare (and dedupe) equal.
        object.__setattr__(self, "returned", tuple(sorted(self.returned)))


ACTIONS: tuple[type[Action], ...] = (Deal, Draw, Drawn, Keep, Swap, Pick, Pay)


# -- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    name: str
    #: candies held, one count per setup colour (private to the player).
    bowl: Bag
    #: the round the player went out in, or None while still in.
    out_round: int | None = None
    #: antibodies eaten over the whole game.
    eaten: int = 0

    @property
    def out(self) -> bool:
        return self.out_round is not None

    @property
    def candies(self) -> int:
        return sum(self.bowl)


@dataclass(frozen=True)
class RoundLine:
    """One player's row on the score pad for one round."""

    round: int
    seat: int
    drawn: tuple[str, ...] = ()
    #: "kept", "swapped" or "" before the choice.
    choice: str = ""
    #: the colour taken on a swap.
    chosen: str | None = None
    picked: str | None = None
    infection: tuple[str, ...] = ()
    strength: int = 0
    returned: tuple[str, ...] = ()
    eaten: int = 0
    #: "out: could not pay" and the like, in English (the records keep it).
    note: str = ""
    #: why the player went out, said in the reader's language ("" when still in).
    out: str | Said = ""


@dataclass(frozen=True)
class State:
    setup: Setup
    phase: Phase
    round: int
    common: Bag
    players: tuple[Player, ...]
    #: the seat drawing (draw phases), else None.
    turn: int | None = None
    #: the current seat's blind draw, private until kept or returned.
    drawn: tuple[str, ...] = ()
    #: secret picks, one per seat (None: not yet), revealed all at once.
    picks: tuple[str | None, ...] = ()
    infection: tuple[str, ...] = ()
    strength: int = 0
    paid: tuple[bool, ...] = ()
    #: score pad rows for finished rounds and the one being played.
    pad: tuple[RoundLine, ...] = ()
    log: tuple[Event, ...] = ()
    #: why the game ended ("" while it goes on): in English, and as a message a page says.
    ended: str = ""
    ending: str | Said = ""

    @property
    def colours(self) -> tuple[str, ...]:
        return self.setup.colours

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(i for i, p in enumerate(self.players) if not p.out)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def count(self, seat: int, colour: str) -> int:
        return self.players[seat].bowl[self.colours.index(colour)]

    def waiting_for(self) -> tuple[int, ...]:
        """Seats the game is waiting on right now."""
        if self.phase in ("draw", "choose") and self.turn is not None:
            return (self.turn,)
        if self.phase == "pick":
            return tuple(s for s in self.active if self.picks[s] is None)
        if self.phase == "pay":
            return tuple(s for s in self.active if not self.paid[s])
        return ()


# -- bag arithmetic ------------------------------------------------------------------------


def _bag(colours: Sequence[str], candies: Iterable[str]) -> Bag:
    candies = candies if isinstance(candies, (tuple, list)) else list(candies)
    return tuple([candies.count(c) for c in colours])  # a handful of candies: faster than a Counter


def _add(a: Bag, b: Bag) -> Bag:
    return tuple(x + y for x, y in zip(a, b))


def _sub(a: Bag, b: Bag) -> Bag:
    return tuple(x - y for x, y in zip(a, b))


def _fits(part: Bag, whole: Bag) -> bool:
    return all(0 <= p <= w for p, w in zip(part, whole))


def _candies(colours: Sequence[str], bag: Bag) -> tuple[str, ...]:
    out: list[str] = []
    for c, n in zip(colours, bag):
        out += [c] * n  # a whole bowl is hundreds of candies: one list step per colour
    return tuple(out)


def _sample(colours: Sequence[str], bag: Bag, k: int, rng: random.Random) -> tuple[str, ...]:
    """k candies drawn blindly, without replacement."""
    return tuple(sorted(rng.sample(_candies(colours, bag), k)))


#: The standard colours as words of the reader's language; a colour's id (these English words, or a
#: name the facilitator typed) stays as it is in actions and saves.
_COLOUR_WORDS: Mapping[str, Said] = {
    "red": say("red"),
    "orange": say("orange"),
    "yellow": say("yellow"),
    "green": say("green"),
    "blue": say("blue"),
    "brown": say("brown"),
    "purple": say("purple"),
    "pink": say("pink"),
}


def colour_word(colour: str) -> str | Said:
    """A candy colour as the reader's language names it; a colour the facilitator named as typed."""
    return _COLOUR_WORDS.get(colour, colour)


def describe_said(candies: Sequence[str]) -> Said:
    """'2 blue, 1 red' for a handful of candies, in the reader's language (`str()`: `describe`)."""
    if not candies:
        return say("nothing")
    counts = sorted(Counter(candies).items())
    # TRANSLATORS: a number of candies of one colour, in a list such as "2 blue, 1 red".
    parts = [say("{n} {colour}", n=n, colour=colour_word(c)) for c, n in counts]
    said = parts[-1]
    for part in reversed(parts[:-1]):
        # TRANSLATORS: two items of a list of candies ("2 blue, 1 red"): keep the order.
        said = say("{first}, {rest}", first=part, rest=said)
    return said


def describe(candies: Sequence[str]) -> str:
    """'2 blue, 1 red' for a handful of candies."""
    return str(describe_said(candies))


def _colours_said(colours: Sequence[str]) -> Listed:
    """Colours in a sentence, "yellow and green" (English joins them with "and")."""
    return listed(colour_word(c) for c in colours)


# -- the rules -----------------------------------------------------------------------------


def _say(state: State, text: str | Said, seats: Iterable[int] | None = None) -> tuple[Event, ...]:
    visible = None if seats is None else frozenset(seats)
    return state.log + (Event(text, visible, state.round),)


def _line(state: State, seat: int, **changes: Any) -> tuple[RoundLine, ...]:
    """The score pad with this round's row for `seat` updated."""
    pad = list(state.pad)
    for i in range(len(pad) - 1, -1, -1):
        if pad[i].round == state.round and pad[i].seat == seat:
            pad[i] = evolve(pad[i], **changes)
            return tuple(pad)
    return state.pad + (RoundLine(state.round, seat, **changes),)


def initial(setup: Setup) -> State:
    n = setup.players
    per_colour = n * setup.bags_per_player * setup.per_bag
    return State(
        setup=setup,
        phase="deal",
        round=0,
        common=tuple(per_colour for _ in setup.colours),
        players=tuple(Player(name, tuple(0 for _ in setup.colours)) for name in setup.names),
        picks=(None,) * n,
        paid=(False,) * n,
    )


def _require(condition: bool, rule: str, message: str | Said) -> None:
    if not condition:
        raise RuleError(rule, message)


def _require_seat(state: State, action: Action) -> int:
    seat = action.seat
    _require(isinstance(seat, int) and 0 <= seat < state.setup.players, "seat", say("there is no seat {seat}", seat=repr(seat)))
    assert seat is not None
    _require(not state.players[seat].out, "out", say("{name} is out of the game", name=state.names[seat]))
    return seat


def _require_colour(state: State, colour: str) -> None:
    _require(colour in state.colours, "colour", say("{colour} is not a colour in this game", colour=repr(colour)))


def check(state: State, action: Action) -> None:
    """Raise RuleError when `action` is not allowed now."""
    if state.over:
        raise RuleError("game over", say("the game is over"))
    if isinstance(action, Deal):
        _require(state.phase == "deal", "turn order", say("the candies were dealt already"))
        hands = [_bag(state.colours, h) for h in action.hands]
        _require(len(hands) == state.setup.players, "setup", say("one hand per player is dealt"))
        _require(all(sum(h) == state.setup.hand for h in hands), "setup", say_n("each hand holds {n} candy", "each hand holds {n} candies", state.setup.hand))
        _require(all(set(h) <= set(state.colours) for h in action.hands), "colour", say("a dealt candy is not a colour in this game"))
        total = tuple(sum(col) for col in zip(*hands))
        _require(_fits(total, state.common), "setup", say("the common bowl does not hold those candies"))
        return
    if isinstance(action, Draw):
        seat = _require_seat(state, action)
        _require(state.phase == "draw", "turn order", say("it is not time to draw (now: {phase})", phase=state.phase))
        _require(seat == state.turn, "turn order", say("it is {name}'s turn to draw, not {other}'s", name=state.names[state.turn or 0], other=state.names[seat]))
        return
    if isinstance(action, Drawn):
        _require(state.phase == "drawing", "turn order", say("no one is drawing now"))
        _require(action.seat == state.turn, "turn order", say("the draw belongs to the seat whose turn it is"))
        _require(all(c in state.colours for c in action.candies), "colour", say("a drawn candy is not a colour in this game"))
        want = min(DRAW_SIZE, sum(state.common))
        _require(len(action.candies) == want, "draw", say_n("the draw is {n} candy", "the draw is {n} candies", want))
        _require(_fits(_bag(state.colours, action.candies), state.common), "draw", say("the common bowl does not hold those candies"))
        return
    if isinstance(action, (Keep, Swap)):
        seat = _require_seat(state, action)
        _require(state.phase == "choose" and seat == state.turn, "turn order", say("{name} has no draw to keep or return", name=state.names[seat]))
        if isinstance(action, Swap):
            _require_colour(state, action.colour)
            _require(len(state.drawn) > 0, "swap", say("there is nothing to return: the bowl was empty"))
            after = _add(state.common, _bag(state.colours, state.drawn))
            _require(
                after[state.colours.index(action.colour)] > 0,
                "swap",
                say("the common bowl holds no {colour} candy to take", colour=colour_word(action.colour)),
            )
        return
    if isinstance(action, Pick):
        seat = _require_seat(state, action)
        _require(state.phase == "pick", "turn order", say("it is not time to pick an infection (now: {phase})", phase=state.phase))
        _require(state.picks[seat] is None, "one pick", say("{name} has already picked", name=state.names[seat]))
        _require_colour(state, action.colour)
        _require(state.count(seat, action.colour) > 0, "pick", say("{name} holds no {colour} candy to pick", name=state.names[seat], colour=colour_word(action.colour)))
        return
    if isinstance(action, Pay):
        seat = _require_seat(state, action)
        _require(state.phase == "pay", "turn order", say("it is not time to pay (now: {phase})", phase=state.phase))
        _require(not state.paid[seat], "one payment", say("{name} has already paid this round", name=state.names[seat]))
        payment_levels(state, seat, action.returned, action.eaten)
        return
    raise RuleError("action", say("New Rule has no action {kind}", kind=type(action).__name__))


def payment_levels(state: State, seat: int, returned: Sequence[str], eaten: int) -> int:
    """Levels a payment pays; raise RuleError when it is not a legal payment of exactly `strength`."""
    colours, antibody = state.colours, state.setup.antibody
    for c in returned:
        _require_colour(state, c)
    bowl = state.players[seat].bowl
    _require(isinstance(eaten, int) and eaten >= 0, "antibodies", say("a payment eats zero or more antibodies"))
    held_red = bowl[colours.index(antibody)]
    _require(eaten <= held_red, "antibodies", say("{name} holds only {n} {colour} to eat", name=state.names[seat], n=held_red, colour=colour_word(antibody)))
    spent = _add(_bag(colours, returned), _bag(colours, [antibody] * eaten))
    _require(_fits(spent, bowl), "payment", say("{name} does not hold {candies} plus {n} {colour} to eat", name=state.names[seat], candies=describe_said(returned), n=eaten, colour=colour_word(antibody))
        if eaten
        else say("{name} does not hold {candies}", name=state.names[seat], candies=describe_said(returned)))
    infected = set(state.infection)
    plain = sum(1 for c in returned if c not in infected)
    sick = len(returned) - plain
    _require(plain % 2 == 0, "two per level", say("non-infection candies are returned two per level"))
    _require(sick % 4 == 0, "double rate", say("infection-colour candies are returned four per level"))
    if sick:
        plain_held = sum(n for c, n in zip(colours, bowl) if c not in infected)
        left = plain_held - plain - (eaten if antibody not in infected else 0)
        _require(
            left < 2,
            "double rate",
            say(
                "infection-colour candies may be paid only once fewer than 2 other candies are left ({name} would still hold {n})",
                name=state.names[seat],
                n=left,
            ),
        )
    levels = plain // 2 + eaten + sick // 4
    _require(levels == state.strength, "exact payment", say_n("that pays {n} level; the infection's strength is {strength}", "that pays {n} levels; the infection's strength is {strength}", levels, strength=state.strength))
    return levels


def max_levels(state: State, seat: int) -> int:
    """The most levels `seat` could pay against the current infection."""
    colours, antibody = state.colours, state.setup.antibody
    infected = set(state.infection)
    bowl = dict(zip(colours, state.players[seat].bowl))
    reds = bowl[antibody]
    plain = sum(n for c, n in bowl.items() if c not in infected and c != antibody)
    sick = sum(n for c, n in bowl.items() if c in infected and c != antibody)
    return reds + plain // 2 + sick // 4


def _next_seat(state: State, after: int | None) -> int | None:
    """The next seat still in, to the left of `after` within this round; None at the round's end."""
    start = -1 if after is None else after
    for seat in range(start + 1, state.setup.players):
        if not state.players[seat].out:
            return seat
    return None


def _out(state: State, seat: int, why: Said) -> State:
    """`seat` returns everything to the common bowl and leaves the game."""
    player = state.players[seat]
    players = list(state.players)
    players[seat] = evolve(player, bowl=tuple(0 for _ in player.bowl), out_round=state.round)
    state = evolve(
        state,
        common=_add(state.common, player.bowl),
        players=tuple(players),
        pad=_line(state, seat, note=f"out: {why}", out=why),
    )
    return evolve(state, log=_say(state, say_n("{name} is out: {why} (returns {n} candy).", "{name} is out: {why} (returns {n} candies).", player.candies, name=player.name, why=why)))


def _begin_round(state: State) -> State:
    if state.setup.max_rounds is not None and state.round >= state.setup.max_rounds:
        return _end(state, say("the {n}-round limit was reached", n=state.setup.max_rounds))
    if len(state.active) < 2:
        return _end(state, say("fewer than two players are still in"))
    if sum(state.common) == 0:
        return _end(state, say("the common bowl is empty"))
    n = state.setup.players
    state = evolve(state, round=state.round + 1, phase="draw", picks=(None,) * n, paid=(False,) * n, infection=(), strength=0)
    state = evolve(state, turn=_next_seat(state, None))
    return evolve(state, log=_say(state, say_n("Round {round} begins: {n} candy in the common bowl.", "Round {round} begins: {n} candies in the common bowl.", sum(state.common), round=state.round)))


def _end(state: State, why: Said) -> State:
    state = evolve(state, phase="over", turn=None, ended=str(why), ending=why)
    table = standings(state)
    best = [s for rank, s, _ in table if rank == 1]
    state = evolve(state, log=_say(state, say("The game ends: {why}.", why=why)))
    return evolve(state, log=_say(state, final_scores(state.names, table, best)))


def final_scores(names: Sequence[str], table: Sequence[tuple[int, int, int]], best: Sequence[int]) -> Said:
    """The last log line: "Final scores: Ana 3; Bo 2. Ana wins." in the reader's language."""
    # TRANSLATORS: one player's score in the final scores ("Ana 3").
    scores = [say("{name} {score}", name=names[s], score=score) for _rank, s, score in table]
    summary = scores[-1]
    for part in reversed(scores[:-1]):
        # TRANSLATORS: two scores in the list of final scores ("Ana 3; Bo 2"): keep the order.
        summary = say("{first}; {rest}", first=part, rest=summary)
    if len(best) == 1:
        return say("Final scores: {scores}. {name} wins.", scores=summary, name=seats_said(names, best))
    return say("Final scores: {scores}. {names} share the win.", scores=summary, names=seats_said(names, best))


def _after_choice(state: State, seat: int) -> State:
    nxt = _next_seat(state, seat)
    if nxt is not None:
        return evolve(state, phase="draw", turn=nxt, drawn=())
    state = evolve(state, phase="pick", turn=None, drawn=())
    return evolve(state, log=_say(state, say("Everyone has drawn. Each player secretly picks a colour.")))


def _reveal(state: State) -> State:
    picks = {s: state.picks[s] for s in state.active}
    counts = Counter(picks.values())
    strength = max(counts.values())
    infection = tuple(c for c in state.colours if counts.get(c) == strength)
    # TRANSLATORS: one player's revealed pick ("Ana yellow").
    picked = [say("{name} {colour}", name=state.names[s], colour=colour_word(c)) for s, c in picks.items() if c is not None]
    shown = picked[-1]
    for part in reversed(picked[:-1]):
        shown = say("{first}, {rest}", first=part, rest=shown)
    state = evolve(state, phase="pay", infection=infection, strength=strength)
    state = evolve(state, log=_say(state, say("Revealed: {picks}. Infection: {colours}, strength {strength}.", picks=shown, colours=_colours_said(infection), strength=strength)))
    for seat in state.active:
        state = evolve(state, pad=_line(state, seat, picked=picks[seat], infection=infection, strength=strength))
    for seat in state.active:
        if max_levels(state, seat) < strength:
            state = _out(state, seat, say("cannot fight off a strength-{strength} infection", strength=strength))
    return _after_payment(state)


def _after_payment(state: State) -> State:
    if any(not state.paid[s] for s in state.active):
        return state
    for seat in state.active:
        if state.players[seat].candies == 0:
            state = _out(state, seat, say("the bowl is empty"))
    return _begin_round(state)


def _took(colour: str) -> Said:
    """'You took a blue candy.' (English picks "a" or "an" by the colour's first letter)."""
    if colour[:1].lower() in "aeiou":
        return say("You took an {colour} candy.", colour=colour_word(colour))
    return say("You took a {colour} candy.", colour=colour_word(colour))


def _paid(name: str, action: Pay, antibody: str) -> Said:
    """A payment's log line: what the seat returned and how many antibodies it ate."""
    if action.returned and action.eaten:
        return say("{name} returns {candies} and eats {n} {colour}.", name=name, candies=describe_said(action.returned), n=action.eaten, colour=colour_word(antibody))
    if action.eaten:
        return say("{name} eats {n} {colour}.", name=name, n=action.eaten, colour=colour_word(antibody))
    if action.returned:
        return say("{name} returns {candies}.", name=name, candies=describe_said(action.returned))
    return say("{name} pays nothing.", name=name)


def play(state: State, action: Action) -> State:
    colours = state.colours
    if isinstance(action, Deal):
        players = tuple(evolve(p, bowl=_bag(colours, hand)) for p, hand in zip(state.players, action.hands))
        dealt = _bag(colours, [c for hand in action.hands for c in hand])
        state = evolve(state, players=players, common=_sub(state.common, dealt))
        state = evolve(state, log=_say(state, say_n("Each player draws {n} candy from the common bowl.", "Each player draws {n} candies from the common bowl.", state.setup.hand)))
        for seat, hand in enumerate(action.hands):
            state = evolve(state, log=_say(state, say("{name} starts with {candies}.", name=state.names[seat], candies=describe_said(hand)), [seat]))
        return _begin_round(state)
    if isinstance(action, Draw):
        return evolve(state, phase="drawing")
    if isinstance(action, Drawn):
        seat = action.seat
        assert seat is not None
        state = evolve(
            state,
            phase="choose",
            drawn=action.candies,
            common=_sub(state.common, _bag(colours, action.candies)),
            pad=_line(state, seat, drawn=action.candies),
        )
        state = evolve(state, log=_say(state, say_n("{name} draws {n} candy blindly.", "{name} draws {n} candies blindly.", len(action.candies), name=state.names[seat])))
        return evolve(state, log=_say(state, say("{name} drew {candies}.", name=state.names[seat], candies=describe_said(action.candies)), [seat]))
    if isinstance(action, Keep):
        seat = action.seat
        assert seat is not None
        players = list(state.players)
        players[seat] = evolve(players[seat], bowl=_add(players[seat].bowl, _bag(colours, state.drawn)))
        state = evolve(state, players=tuple(players), pad=_line(state, seat, choice="kept"))
        state = evolve(state, log=_say(state, say("{name} keeps the draw.", name=state.names[seat])))
        return _after_choice(state, seat)
    if isinstance(action, Swap):
        seat = action.seat
        assert seat is not None
        common = _add(state.common, _bag(colours, state.drawn))
        taken = _bag(colours, [action.colour])
        players = list(state.players)
        players[seat] = evolve(players[seat], bowl=_add(players[seat].bowl, taken))
        state = evolve(state, common=_sub(common, taken), players=tuple(players), pad=_line(state, seat, choice="swapped", chosen=action.colour))
        # Everyone sees the swap; only the swapper knows the colour taken (RULINGS.md).
        state = evolve(state, log=_say(state, say("{name} returns the draw and takes one candy of their choice.", name=state.names[seat])))
        state = evolve(state, log=_say(state, _took(action.colour), [seat]))
        return _after_choice(state, seat)
    if isinstance(action, Pick):
        seat = action.seat
        assert seat is not None
        picks = list(state.picks)
        picks[seat] = action.colour
        state = evolve(state, picks=tuple(picks))
        state = evolve(state, log=_say(state, say("{name} has picked a colour in secret.", name=state.names[seat])))
        state = evolve(state, log=_say(state, say("You picked {colour}.", colour=colour_word(action.colour)), [seat]))
        if all(state.picks[s] is not None for s in state.active):
            return _reveal(state)
        return state
    if isinstance(action, Pay):
        seat = action.seat
        assert seat is not None
        spent = _add(_bag(colours, action.returned), _bag(colours, [state.setup.antibody] * action.eaten))
        players = list(state.players)
        player = players[seat]
        players[seat] = evolve(player, bowl=_sub(player.bowl, spent), eaten=player.eaten + action.eaten)
        paid = list(state.paid)
        paid[seat] = True
        state = evolve(
            state,
            players=tuple(players),
            paid=tuple(paid),
            common=_add(state.common, _bag(colours, action.returned)),
            pad=_line(state, seat, returned=action.returned, eaten=action.eaten),
        )
        state = evolve(state, log=_say(state, _paid(state.names[seat], action, state.setup.antibody)))
        return _after_payment(state)
    raise RuleError("action", say("New Rule has no action {kind}", kind=type(action).__name__))


def chance(state: State, rng: random.Random) -> Action | None:
    if state.phase == "deal":
        bag = state.common
        hands = []
        for _ in state.names:
            hand = _sample(state.colours, bag, state.setup.hand, rng)
            bag = _sub(bag, _bag(state.colours, hand))
            hands.append(hand)
        return Deal(hands=tuple(hands))
    if state.phase == "drawing":
        k = min(DRAW_SIZE, sum(state.common))
        return Drawn(seat=state.turn, candies=_sample(state.colours, state.common, k, rng))
    return None


def hides(state: State, action: Action) -> bool:
    """The last pick reveals everyone's secret choice: no undo past it."""
    if isinstance(action, Pick):
        return sum(1 for s in state.active if state.picks[s] is None) == 1
    return action.chance


# -- reading the state ----------------------------------------------------------------------


def scores(state: State) -> tuple[int, ...]:
    """Smallest count among the non-antibody colours, plus antibodies held."""
    colours, antibody = state.colours, state.setup.antibody
    result = []
    for p in state.players:
        counts = dict(zip(colours, p.bowl))
        result.append(min(n for c, n in counts.items() if c != antibody) + counts[antibody])
    return tuple(result)


def standings(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, score), best first. Players still in rank above those out; ties share a rank."""
    points = scores(state)
    rounds = state.setup.max_rounds or 10**6

    def key(seat: int) -> tuple[int, int, int]:
        p = state.players[seat]
        return (0 if not p.out else 1, -points[seat], -(p.out_round or rounds))

    return ranked(points, key)


_NO_PAY = Pay()


def legal_payments(state: State, seat: int, limit: int | None = None) -> Iterator[Pay]:
    """Every legal payment for `seat` now (up to `limit`), fewest antibodies eaten first."""
    if state.phase != "pay" or seat not in state.active or state.paid[seat]:
        return
    colours, antibody = state.colours, state.setup.antibody
    infected = set(state.infection)
    bowl = state.players[seat].bowl
    strength = state.strength
    red_i = colours.index(antibody)
    plain_held = sum(n for c, n in zip(colours, bowl) if c not in infected)
    found = 0
    for eaten in range(min(bowl[red_i], strength) + 1):
        rest = list(bowl)
        rest[red_i] -= eaten
        for pairs in range(strength - eaten, -1, -1):
            quads = strength - eaten - pairs
            # Built this way every payment fits the bowl and pays `strength` levels; only the
            # double rate's condition is left to `payment_levels` (checked here without it).
            left = plain_held - 2 * pairs - (eaten if antibody not in infected else 0)
            if quads and left >= 2:
                continue
            plain = [(c, n) for c, n in zip(colours, rest) if c not in infected]
            sick = [(c, n) for c, n in zip(colours, rest) if c in infected]
            tails = list(_multisets(sick, 4 * quads))  # the same for every choice of `a`
            for a in _multisets(plain, 2 * pairs):
                for b in tails:
                    # copied from a blank payment: a bowl can have thousands, and __init__ is slow
                    yield evolve(_NO_PAY, seat=seat, returned=tuple(sorted(a + b)), eaten=eaten)
                    found += 1
                    if limit is not None and found >= limit:
                        return


def _bowl_score(colours: Sequence[str], antibody: str, bowl: Bag) -> int:
    """The score of one bowl: its smallest non-antibody colour plus its antibodies."""
    return min(n for c, n in zip(colours, bowl) if c != antibody) + bowl[colours.index(antibody)]


def _take(bowl: Bag, where: Sequence[int], k: int, red_i: int, reds: int) -> Bag | None:
    """`bowl` less k candies from the colours at `where`: `reds` antibodies, the rest always
    from the fullest other colour (that keeps the smallest colour, hence the score, highest).
    None when those colours do not hold that many."""
    rest = list(bowl)
    if reds:
        if red_i not in where or rest[red_i] < reds:
            return None
        rest[red_i] -= reds
    others = [i for i in where if i != red_i]
    for _ in range(k - reds):
        fullest = max(others, key=lambda i: rest[i], default=None)
        if fullest is None or rest[fullest] == 0:
            return None
        rest[fullest] -= 1
    return tuple(rest)


def suggested_payment(state: State, seat: int) -> Pay | None:
    """The legal payment that leaves `seat` the highest score; None when `seat` has nothing to pay.

    Ties keep the most candies, then the most colours, then eat before returning. Every split
    of the levels (antibodies eaten, pairs, fours at double rate) and every number of
    antibodies returned inside them is tried; the other candies of a part always come from its
    fullest colour, which no other choice of them beats on the score or the colours kept.
    """
    if state.phase != "pay" or seat not in state.active or state.paid[seat]:
        return None
    colours, antibody = state.colours, state.setup.antibody
    infected = set(state.infection)
    bowl = state.players[seat].bowl
    red_i = colours.index(antibody)
    plain = [i for i, c in enumerate(colours) if c not in infected]
    sick = [i for i, c in enumerate(colours) if c in infected]
    red_plain = red_i in plain
    best: tuple[tuple[int, int, int, int], Pay] | None = None
    for eaten in range(min(bowl[red_i], state.strength), -1, -1):
        after_eating = tuple(n - eaten if i == red_i else n for i, n in enumerate(bowl))
        for quads in range(state.strength - eaten + 1):
            pairs = state.strength - eaten - quads
            # The antibodies sit in one part (pairs when red is no infection colour, else fours).
            red_part, red_k = (plain, 2 * pairs) if red_plain else (sick, 4 * quads)
            other, other_k = (sick, 4 * quads) if red_plain else (plain, 2 * pairs)
            for reds in range(min(red_k, after_eating[red_i]) + 1):
                part = _take(after_eating, red_part, red_k, red_i, reds)
                left = _take(part, other, other_k, red_i, 0) if part is not None else None
                if left is None:
                    continue
                returned = _candies(colours, _sub(after_eating, left))
                try:
                    payment_levels(state, seat, returned, eaten)
                except RuleError:
                    continue  # fours at double rate while 2 or more other candies are left
                key = (_bowl_score(colours, antibody, left), sum(left), sum(1 for n in left if n), eaten)
                if best is None or key > best[0]:
                    best = (key, Pay(seat=seat, returned=returned, eaten=eaten))
    return best[1] if best else None


def _multisets(stock: Sequence[tuple[str, int]], k: int) -> Iterator[tuple[str, ...]]:
    """Every way to take k candies from (colour, count) stock."""
    if k == 0:
        yield ()
        return
    if not stock:
        return
    (colour, n), rest = stock[0], stock[1:]
    for take in range(min(n, k), -1, -1):
        for tail in _multisets(rest, k - take):
            yield (colour,) * take + tail


def legal_actions(state: State, seat: int, payment_limit: int | None = 200) -> list[Action]:
    """The actions `seat` may take now (payments capped at `payment_limit`)."""
    if state.over or not 0 <= seat < state.setup.players or state.players[seat].out:
        return []
    if state.phase == "draw" and state.turn == seat:
        return [Draw(seat=seat)]
    if state.phase == "choose" and state.turn == seat:
        after = _add(state.common, _bag(state.colours, state.drawn))
        swaps: list[Action] = [Swap(seat=seat, colour=c) for c, n in zip(state.colours, after) if n > 0] if state.drawn else []
        return [Keep(seat=seat), *swaps]
    if state.phase == "pick" and state.picks[seat] is None:
        return [Pick(seat=seat, colour=c) for c, n in zip(state.colours, state.players[seat].bowl) if n > 0]
    if state.phase == "pay":
        return list(legal_payments(state, seat, payment_limit))
    return []


# -- what each seat may see -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    name: str
    candies: int
    out: bool
    eaten: int
    picked: bool
    paid: bool
    #: the bowl's colour counts: only the seat's own, or everyone's once the game is over.
    bowl: Bag | None = None
    #: the secret pick: only the seat's own until the reveal.
    pick: str | None = None


@dataclass(frozen=True)
class View:
    """What one seat (or the table, seat None) may see."""

    seat: int | None
    colours: tuple[str, ...]
    antibody: str
    round: int
    max_rounds: int | None
    phase: Phase
    turn: int | None
    #: the common bowl's total and the colours it still holds: never its per-colour counts,
    #: which would give every blind draw away (RULINGS.md).
    common_total: int
    common_colours: tuple[str, ...]
    seats: tuple[SeatView, ...]
    #: the seat's own blind draw, when it is theirs to keep or return.
    drawn: tuple[str, ...]
    infection: tuple[str, ...]
    strength: int
    waiting_for: tuple[int, ...]
    log: tuple[str | Said, ...]
    ended: str
    standings: tuple[tuple[int, int, int], ...] = field(default=())
    #: `ended` as a message, said in the reader's language.
    ending: str | Said = ""


def view_for(state: State, seat: int | None) -> View:
    """Everything `seat` may see; `None` is the public table (a projector, a spectator)."""
    revealed = state.phase in ("pay", "over") and state.strength > 0
    seats = []
    for i, p in enumerate(state.players):
        mine = seat == i or state.over
        seats.append(
            SeatView(
                name=p.name,
                candies=p.candies,
                out=p.out,
                eaten=p.eaten,
                picked=state.picks[i] is not None if state.picks else False,
                paid=state.paid[i] if state.paid else False,
                bowl=p.bowl if mine else None,
                pick=state.picks[i] if (seat == i or revealed) and state.picks else None,
            )
        )
    return View(
        seat=seat,
        colours=state.colours,
        antibody=state.setup.antibody,
        round=state.round,
        max_rounds=state.setup.max_rounds,
        phase=state.phase,
        turn=state.turn,
        common_total=sum(state.common),
        common_colours=tuple(c for c, n in zip(state.colours, state.common) if n),
        seats=tuple(seats),
        drawn=state.drawn if seat is not None and seat == state.turn else (),
        infection=state.infection,
        strength=state.strength,
        waiting_for=state.waiting_for(),
        log=tuple(e.text for e in state.log if e.visible(seat)),
        ended=state.ended,
        standings=tuple(standings(state)) if state.over else (),
        ending=state.ending,
    )


# -- the Rules object the Game driver uses --------------------------------------------------------


def timeout_move(state: State, seat: int) -> Action | None:
    """The move a player's timer makes when it runs out (the text names none; docs/rules/new-rule.md):
    draw, keep what was drawn, pick the colour the player holds most of (ties: the game's
    colour order), pay the best payment the rules allow (`suggested_payment`). None when the
    game does not wait for `seat`, or has no such move for it."""
    if seat not in state.waiting_for():
        return None
    if state.phase == "draw":
        return Draw(seat=seat)
    if state.phase == "choose":
        return Keep(seat=seat)
    if state.phase == "pick":
        held = [(state.count(seat, c), -i, c) for i, c in enumerate(state.colours) if state.count(seat, c) > 0]
        return Pick(seat=seat, colour=max(held)[2]) if held else None
    if state.phase == "pay":
        return suggested_payment(state, seat)
    return None


RULES = GameRules.of(globals(), CARD)


# -- the decisions, for the debrief ------------------------------------------------------------


def _picks_revealed(final: State, round_: int) -> bool:
    """The board has shown `round_`'s picks by the end of the record."""
    return final.round > round_ or final.over or final.phase == "pay"


def _a_said(colour: str) -> Said:
    """'a red', 'an orange' (a colour the facilitator named too), in the reader's language."""
    if colour[:1].lower() in "aeiou":
        # TRANSLATORS: a candy of one colour, in "takes an orange" (a debrief's row).
        return say("an {colour}", colour=colour_word(colour))
    # TRANSLATORS: a candy of one colour, in "takes a red" (a debrief's row).
    return say("a {colour}", colour=colour_word(colour))


def decisions(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Every decision of `game`: draws, keeps and swaps, picks, payments.

    `reveal` names every secret (the facilitator's export of a finished game): what each blind
    draw held, the colour a swap took, each pick. Without it a row names a pick only once the
    picks were revealed, and a draw's candies never.
    `reveal_pledges` is for games whose seats give a secret amount; this one has none.
    `render` says the rows (`rules.decisions.collect`).
    """

    def move(before: State, action: Action, after: State, final: State, revealing: bool) -> Made | Words | None:
        step = say("Round {n}", n=before.round)
        seat = action.seat
        if isinstance(action, Drawn):
            return say("{name} drew {candies}.", name=before.names[seat or 0], candies=describe_said(action.candies)) if revealing else None
        if action.chance or seat is None:
            return None
        who = before.names[seat]
        if isinstance(action, Draw):
            return Made(step, seat, who, say("draws blindly"))
        if isinstance(action, Keep):
            if revealing:
                return Made(step, seat, who, say("keeps the draw ({candies})", candies=describe_said(before.drawn)), amount=len(before.drawn), amount_is=say("candies kept"))
            return Made(step, seat, who, say("keeps the draw"))
        if isinstance(action, Swap):
            if revealing:
                return Made(step, seat, who, say("returns the draw ({candies}) and takes {colour}", candies=describe_said(before.drawn), colour=_a_said(action.colour)))
            return Made(step, seat, who, say("returns the draw and takes a colour in secret"), withheld=True)
        if isinstance(action, Pick):
            if revealing or _picks_revealed(final, before.round):
                return Made(step, seat, who, say("picks {colour}", colour=colour_word(action.colour)))
            return Made(step, seat, who, say("picks a colour in secret"), withheld=True)
        if isinstance(action, Pay):
            parts: list[Said] = []
            if action.returned:
                parts.append(say("returns {candies}", candies=describe_said(action.returned)))
            if action.eaten:
                parts.append(say("eats {n} {colour}", n=action.eaten, colour=colour_word(before.setup.antibody)))
            paid = len(action.returned) + action.eaten
            return Made(step, seat, who, say("pays: {what}", what=listed(parts) if parts else say("nothing")), amount=paid, amount_is=say("candies paid"))
        return None

    return collect(game, move, reveal=reveal, render=render)


def worked_example() -> tuple[State, dict[str, int]]:
    """The text's infection example read as four players: yellow, yellow, green, brown.

    Returns the state after the reveal and each player's strength to pay.
    """
    setup = Setup(names=("Ana", "Bo", "Cy", "Di"))
    state = initial(setup)
    hands = (
        ("yellow",) * 4 + ("blue",) * 2 + ("green",) * 2 + ("red",) * 2,
        ("yellow",) * 2 + ("orange",) * 4 + ("brown",) * 2 + ("red",) * 2,
        ("green",) * 4 + ("blue",) * 4 + ("yellow",) * 2,
        ("brown",) * 5 + ("orange",) * 3 + ("yellow",) * 1 + ("red",) * 1,
    )
    state = play(state, Deal(hands=hands))
    for seat in range(4):
        state = play(state, Draw(seat=seat))
        state = play(state, Drawn(seat=seat, candies=("blue", "green")))
        state = play(state, Keep(seat=seat))
    for seat, colour in enumerate(("yellow", "yellow", "green", "brown")):
        check(state, Pick(seat=seat, colour=colour))
        state = play(state, Pick(seat=seat, colour=colour))
    return state, {state.names[s]: state.strength for s in state.active}
