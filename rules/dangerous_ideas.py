"""Dangerous Ideas: competing philosophies retell a story. Text `seeds/dangerous-ideas.txt`.

Each player's sheet has five nodes (Think and the hubs Probe, Create, Connect, Defend) and
twelve meme branches, leaf or coiled. Players place stones, fill two branches in the setting
round, then play chapters. On a turn a player gains 2 stones and tries up to two actions:
power actions (Gain 3 stones, Move stones one step) or meme actions (Create a new meme,
Spread one of theirs to a new holder), each optionally replacing another player's meme held
by the same holder. A meme action is a pool of stones: the actor stakes (phase 1), the others
Connect (add) or Defend (remove) (phase 2), then 2d6 must come in at or under the pool, 11
and 12 always failing, with red seeds re-rolling single dice (phase 3). Gaps are ruled in
RULINGS.md (Dangerous Ideas).

Choices this module makes where RULINGS.md is silent (also in docs/rules/dangerous-ideas.md):
- Chapters are counted from 0 inside the model (chapter k is started by seat k mod P) and
  shown from 1 ("Chapter 1" is started by seat 0). The left neighbour is the next seat.
- The 7 starting stones are placed before the setting round, in any order.
- The two setting-round memes may not be the same text with the same holder.
- Holders are matched like texts (trimmed, inner spaces collapsed, case ignored).
- Memes written in the setting round carry no bonus stones until Chapter 1 refreshes them.
- A turn ends when its player says so (after 0-2 actions), so the starter can declare the
  plot unfinished at the end of the turn. Declaring it is not one of the two actions.
- "Up to as many from Think as from the node" counts over the whole meme action per player.
- A spend stone-count past the pool's floor is still discarded; the pool stops at 0.
- Phase 2 ends when every player has passed since the last spend; phase 3 ends when every
  player holding seeds has passed since the last re-roll. Whoever passed may still spend.
- A meme may be involved in several spends of the same action (its bonus stone only once).
- The outcome step waits for the actor (the new meme's branch, hub stones, narration) also
  on a failure, so every meme action ends with the actor's narration.
- Tie-break "stones on the sheet" counts the player's own stones, not bonus counters.
- Nothing is hidden: every sheet, stake and roll is public (view_for gives the same to all).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from itertools import compress
from operator import attrgetter, not_
from typing import Any, ClassVar, Literal

from .core import Action, Event, GameRules, RuleError, check_names, ranked, seats_said
from .decisions import Decision, Game, Made, Render, Words, collect, commas
from .games import card
from .records import _new, _setattr, construct, evolve
from .text import Said, say, say_n

__all__ = [
    "ACTIONS",
    "BRANCHES",
    "DEFAULT_LAYOUT",
    "HUBS",
    "NODES",
    "PLACES",
    "RULES",
    "STORIES",
    "Attempt",
    "Conclude",
    "Connect",
    "Create",
    "Crossed",
    "Defend",
    "EndTurn",
    "Example",
    "Gain",
    "Meme",
    "Move",
    "Outcome",
    "Pass",
    "Passage",
    "Place",
    "PlotUnfinished",
    "Ref",
    "Rerolled",
    "Roll",
    "Setup",
    "Sheet",
    "Spend",
    "SpendSeed",
    "Spread",
    "Stake",
    "State",
    "Step",
    "StoryLine",
    "Title",
    "TurnStones",
    "Use",
    "View",
    "Write",
    "adjacent",
    "bears_example",
    "branch_said",
    "branch_words",
    "by_hand",
    "chance",
    "check",
    "clean",
    "decisions",
    "default_chapters",
    "ending",
    "goldilocks_setup",
    "hides",
    "hub_of",
    "initial",
    "involvable",
    "is_legal",
    "may_involve",
    "meme_key",
    "odds_report",
    "place_said",
    "place_words",
    "play",
    "role_node",
    "scores",
    "seed_advice",
    "sheet_score",
    "standings",
    "story_said",
    "success_chance",
    "tiebreaks",
    "transcript",
    "transcript_text",
    "view_for",
    "wins",
]

#: What the game is: its name, who plays it and what it calls them (`rules.games`).
CARD = card("dangerous-ideas")

# -- the sheet ----------------------------------------------------------------------------------

NODES: tuple[str, ...] = ("think", "probe", "create", "connect", "defend")
HUBS: tuple[str, ...] = NODES[1:]
#: branch names: hub and position, "probe-1" .. "defend-3", in hub order.
BRANCHES: tuple[str, ...] = tuple(f"{hub}-{i}" for hub in HUBS for i in (1, 2, 3))
PLACES: tuple[str, ...] = NODES + BRANCHES
LEAF, COILED = "leaf", "coiled"
#: branch types in BRANCHES order: Probe L L C, Create C C L, Connect C C L, Defend L L C.
DEFAULT_LAYOUT: tuple[str, ...] = (
    LEAF, LEAF, COILED,
    COILED, COILED, LEAF,
    COILED, COILED, LEAF,
    LEAF, LEAF, COILED,
)  # fmt: skip
_BRANCH_INDEX = {b: i for i, b in enumerate(BRANCHES)}
_NODE_INDEX = {n: i for i, n in enumerate(NODES)}
_PLACE_INDEX = {p: i for i, p in enumerate(PLACES)}
_THINK = _NODE_INDEX["think"]

TURN_STONES = 2
GAIN_STONES = 3
PLOT_STONES = 2
CONNECT_REWARD = 2
NEW_MEME_STONES = 1
BONUS_STONES = 2
ACTIONS_PER_TURN = 2
#: a roll of this total or more always fails.
ALWAYS_FAILS = 11
UNIQUE_POINTS = 4
#: the target meme's stones remove this many pool stones each.
TARGET_WEIGHT = 2

MAX_TEXT = 200
MAX_HOLDER = 80
MAX_NARRATION = 4000

Phase = Literal["place", "setting", "title", "turn-start", "turn", "stake", "respond", "roll", "reroll", "rerolling", "outcome", "over"]
#: the five nodes as a page names them (the glossary's terms; the ids stay in actions and saves).
NODE_NAMES: dict[str, Said] = {"think": say("Think"), "probe": say("Probe"), "create": say("Create"), "connect": say("Connect"), "defend": say("Defend")}
#: PHASE_TEXT below, said in the reader's language.
PHASE_SAID: dict[str, Said] = {
    "place": say("players are placing their starting stones"),
    "setting": say("the setting round"),
    "title": say("the starter announces the chapter"),
    "turn-start": say("the turn's 2 stones are being placed"),
    "turn": say("a player's turn"),
    "stake": say("phase 1: the actor stakes"),
    "respond": say("phase 2: the table connects or defends"),
    "roll": say("the dice are being rolled"),
    "reroll": say("phase 3: seeds may re-roll a die"),
    "rerolling": say("a die is being re-rolled"),
    "outcome": say("the actor concludes the meme action"),
    "over": say("the game is over"),
}
PHASE_TEXT = {
    "place": "players are placing their starting stones",
    "setting": "the setting round",
    "title": "the starter announces the chapter",
    "turn-start": "the turn's 2 stones are being placed",
    "turn": "a player's turn",
    "stake": "phase 1: the actor stakes",
    "respond": "phase 2: the table connects or defends",
    "roll": "the dice are being rolled",
    "reroll": "phase 3: seeds may re-roll a die",
    "rerolling": "a die is being re-rolled",
    "outcome": "the actor concludes the meme action",
    "over": "the game is over",
}


def clean(text: str) -> str:
    """Trimmed, inner spaces collapsed: how texts are written on the sheet."""
    return " ".join(str(text).split())


def meme_key(text: str) -> str:
    """Meme identity: texts match after trimming, collapsing inner spaces, ignoring case."""
    return _key(text) if type(text) is str else clean(text).casefold()


@lru_cache(maxsize=4096)
def _key(text: str) -> str:
    # Every check and score asks for the keys of the same few texts. The records' own texts
    # (cleaned str) are keyed here directly, a call fewer than `meme_key`.
    return clean(text).casefold()


def hub_of(branch: str) -> str:
    return branch.split("-", 1)[0]


def branch_words(layout: Sequence[str], branch: str) -> str:
    """'a leaf branch by Probe': an empty branch as the players name it. The sheet prints no
    branch numbers, and two empty branches of one type by one hub are the same choice."""
    return str(branch_said(layout, branch))


def branch_said(layout: Sequence[str], branch: str) -> Said:
    """`branch_words` as a message, said in the reader's language."""
    hub = NODE_NAMES[hub_of(branch)]
    if layout[_BRANCH_INDEX[branch]] == LEAF:
        return say("a leaf branch by {hub}", hub=hub)
    return say("a coiled branch by {hub}", hub=hub)


def place_words(layout: Sequence[str], sheet: Sheet, place: str) -> str:
    """A place on a sheet in the players' words: 'Think', the meme written on a filled branch
    ("'Bears are friends - Goldilocks'"), or the empty branch's type and hub."""
    return str(place_said(layout, sheet, place))


def place_said(layout: Sequence[str], sheet: Sheet, place: str) -> Said | str:
    """`place_words` said in the reader's language (a meme stays as its players wrote it)."""
    if place in NODES:
        return NODE_NAMES[place]
    meme = sheet.meme(place)
    return _quote(meme.text, meme.holder) if meme is not None else branch_said(layout, place)


def adjacent(a: str, b: str) -> bool:
    """One step on the sheet: a branch and its hub, a hub and Think."""
    if a == "think":
        return b in HUBS
    if b == "think":
        return a in HUBS
    if a in BRANCHES:
        return b == hub_of(a)
    if b in BRANCHES:
        return a == hub_of(b)
    return False


def default_chapters(players: int) -> int:
    """2 x players with 3-4 players, else 1 x players."""
    return 2 * players if players <= 4 else players


# -- setup ------------------------------------------------------------------------------------


#: Stories the playbook offers to retell, each said in the reader's language. A table stores a
#: story's English (its msgid: the same text a table stored before languages), and `story_said`
#: finds it again, so each page says it in its own language; a story typed by the table is its
#: own text, kept as written.
STORIES: tuple[Said, ...] = (say("Goldilocks and the Three Bears"),)


def story_said(story: str) -> str | Said:
    """The stored `story` as a page says it: an offered one (`STORIES`) in the reader's language,
    any other as typed."""
    return next((offered for offered in STORIES if str(offered) == story), story)


@dataclass(frozen=True)
class Setup:
    """Players and variants. Every number can be changed by a facilitator."""

    names: tuple[str, ...]
    #: branch types in BRANCHES order (Probe 1-3, Create 1-3, Connect 1-3, Defend 1-3).
    layout: tuple[str, ...] = DEFAULT_LAYOUT
    #: red seeds on each sheet.
    seeds: int = 3
    #: chapters in the story; None: 2 x players with 3-4 players, else 1 x players.
    chapters: int | None = None
    #: stones each player places on the five nodes before the setting round.
    start_stones: int = 7
    #: the story the table retells ("Goldilocks and the Three Bears"), for headers and print.
    story: str = ""
    #: the table rolls its own 2d6 (and seed re-rolls) and enters them, instead of the playbook.
    table_dice: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", check_names(self.names, CARD.players.low, CARD.players.high, CARD.words.players))
        object.__setattr__(self, "story", " ".join(str(self.story).split()))
        if len(self.story) > 80:
            raise RuleError("setup", say("the story's name is 80 characters at most"))
        layout = tuple(str(t).strip().lower() for t in self.layout)
        object.__setattr__(self, "layout", layout)
        if len(layout) != len(BRANCHES) or not set(layout) <= {LEAF, COILED}:
            raise RuleError("setup", say("the layout names {count} branch types, each 'leaf' or 'coiled'", count=len(BRANCHES)))
        if LEAF not in layout or COILED not in layout:
            raise RuleError("setup", say("the sheet needs at least one leaf and one coiled branch for the setting round"))
        if not isinstance(self.seeds, int) or not 0 <= self.seeds <= 20:
            raise RuleError("setup", say("each sheet shows 0-20 red seeds"))
        if self.chapters is not None and not 1 <= self.chapters <= 60:
            raise RuleError("setup", say("the story has 1-60 chapters, or the default"))
        if not 0 <= self.start_stones <= 50:
            raise RuleError("setup", say("each player places 0-50 starting stones"))

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def chapter_count(self) -> int:
        return self.chapters if self.chapters is not None else default_chapters(self.players)

    def branch_type(self, branch: str) -> str:
        return self.layout[_BRANCH_INDEX[branch]]


# -- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A meme instance on a sheet: (owner seat, branch)."""

    seat: int
    branch: str


@dataclass(frozen=True)
class Use:
    """Involving one of the spender's memes: its bonus stone (0 or 1) and own stones."""

    branch: str
    bonus: int = 0
    stones: int = 0


@dataclass(frozen=True)
class Step:
    """`stones` stones moving one step, from `source` to `target`."""

    source: str
    target: str
    stones: int = 1


@dataclass(frozen=True)
class Told(Action):
    """A player's action; every one may carry narration for the story."""

    narration: str = ""


def _sheet_order(place: Iterable[str]) -> tuple[str, ...]:
    if type(place) is tuple and all(type(p) is str for p in place):
        return _sorted_places(place)
    return tuple(sorted(place, key=_place_sort_key))


@lru_cache(maxsize=1024)
def _sorted_places(place: tuple[str, ...]) -> tuple[str, ...]:
    # A table places the same few sets of stones turn after turn: each is sorted once.
    return tuple(sorted(place, key=_place_sort_key))


def _place_sort_key(place: object) -> tuple[int, str]:
    return _place_order(place), str(place)


def _place_order(place: object) -> int:
    return _PLACE_INDEX.get(place, len(PLACES)) if isinstance(place, str) else len(PLACES)


@dataclass(frozen=True)
class _Placing(Told):
    """Stones put on the sheet, one entry per stone, kept in sheet order: the same stones on
    the same places are the same action, in whatever order they were named."""

    place: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "place", _sheet_order(self.place))


@dataclass(frozen=True)
class Place(_Placing):
    """The starting stones, one entry per stone, on the five nodes."""

    kind: ClassVar[str] = "place"


@dataclass(frozen=True)
class Write(Told):
    """Setting round: a meme on an empty branch, with its holder, and one stone on it."""

    kind: ClassVar[str] = "write"
    branch: str = ""
    text: str = ""
    holder: str = ""


@dataclass(frozen=True)
class Title(Told):
    """The chapter's starter announces its title (the one-sentence synopsis)."""

    kind: ClassVar[str] = "title"
    title: str = ""


@dataclass(frozen=True)
class TurnStones(_Placing):
    """The 2 stones gained at the start of a turn, placed on nodes or filled branches."""

    kind: ClassVar[str] = "turn-stones"


@dataclass(frozen=True)
class Gain(_Placing):
    """Power action: 3 stones placed anywhere."""

    kind: ClassVar[str] = "gain"


@dataclass(frozen=True)
class Move(Told):
    """Power action: any number of stones, each one step (branch <-> hub, hub <-> Think)."""

    kind: ClassVar[str] = "move"
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class _MemeAction(Told):
    """A meme action's announcement: the meme's text and the character to hold it."""

    text: str = ""
    holder: str = ""
    #: another player's meme held by the same holder, to be replaced on success.
    target: Ref | None = None


@dataclass(frozen=True)
class Create(_MemeAction):
    """Meme action: a text not yet on the actor's sheet, held by `holder`."""

    kind: ClassVar[str] = "create"


@dataclass(frozen=True)
class Spread(_MemeAction):
    """Meme action: a text already on the actor's sheet, to a holder not holding it there."""

    kind: ClassVar[str] = "spread"


@dataclass(frozen=True)
class PlotUnfinished(Told):
    """The starter, on their own turn, once a chapter: +2 stones on Create."""

    kind: ClassVar[str] = "plot-unfinished"


@dataclass(frozen=True)
class EndTurn(Told):
    """The player whose turn it is ends it (passing any actions left)."""

    kind: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class Spend(Told):
    """Stones for or against a meme action: the actor stakes, another player connects or
    defends. `role` says which."""

    #: "actor", "connect" or "defend".
    role: ClassVar[str]
    #: stones from the role's node (Create/Probe for the actor, Connect, Defend).
    from_node: int = 0
    #: stones from Think, up to as many as spent from the node in this meme action.
    from_think: int = 0
    memes: tuple[Use, ...] = ()


@dataclass(frozen=True)
class Stake(Spend):
    """The actor's stones into the pool (phase 1, and more in phase 2)."""

    kind: ClassVar[str] = "stake"
    role: ClassVar[str] = "actor"


@dataclass(frozen=True)
class Connect(Spend):
    """Another player's stones into the pool (phase 2)."""

    kind: ClassVar[str] = "connect"
    role: ClassVar[str] = "connect"


@dataclass(frozen=True)
class Defend(Spend):
    """Another player's stones, each removing itself and one pool stone (two from the target)."""

    kind: ClassVar[str] = "defend"
    role: ClassVar[str] = "defend"


@dataclass(frozen=True)
class Pass(Told):
    """Done for now: the actor closes phase 1; anyone stops spending, or lets the roll stand."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Roll(Action):
    """Chance: the 2d6 of phase 3."""

    kind: ClassVar[str] = "roll"
    chance: ClassVar[bool] = True
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class SpendSeed(Told):
    """Cross off a red seed to re-roll die 0 or die 1."""

    kind: ClassVar[str] = "spend-seed"
    die: int = 0


@dataclass(frozen=True)
class Rerolled(Action):
    """Chance: the new value of the die a seed re-rolled."""

    kind: ClassVar[str] = "rerolled"
    chance: ClassVar[bool] = True
    die: int = 0
    value: int = 1


@dataclass(frozen=True)
class Conclude(Told):
    """The actor ends the meme action: on success the new meme's branch and hub stones moved onto it."""

    kind: ClassVar[str] = "conclude"
    branch: str | None = None
    from_hub: int = 0


#: in the order of a turn.
ACTIONS: tuple[type[Action], ...] = (
    Place, Write, Title, TurnStones, Gain, Move, Create, Spread, PlotUnfinished, EndTurn,
    Stake, Connect, Defend, Pass, Roll, SpendSeed, Rerolled, Conclude,
)  # fmt: skip


# -- state --------------------------------------------------------------------------------------


class _Held:
    """A meme's text held by a character, each matched as `meme_key` matches texts."""

    text: str
    holder: str

    @property
    def key(self) -> str:
        return _key(self.text)

    @property
    def holder_key(self) -> str:
        return _key(self.holder)


@dataclass(frozen=True)
class Meme(_Held):
    """A filled branch: the meme, its holder, own stones and bonus stones (0-2)."""

    id: int
    text: str
    holder: str
    stones: int = 0
    bonus: int = 0
    #: the chapter (from 1; 0 the setting round) it was written in.
    chapter: int = 0


@dataclass(frozen=True)
class Crossed:
    """A meme crossed off by a successful replacement (kept for the printed sheet)."""

    branch: str
    text: str
    holder: str
    by: int
    chapter: int


@dataclass(frozen=True)
class Sheet:
    name: str
    #: stones on Think, Probe, Create, Connect, Defend.
    nodes: tuple[int, ...] = (0, 0, 0, 0, 0)
    #: one entry per branch in BRANCHES order; None is an empty branch.
    branches: tuple[Meme | None, ...] = (None,) * 12
    seeds: int = 3
    crossed: tuple[Crossed, ...] = ()
    placed: bool = False
    #: own stones ever put on the sheet, and own stones spent (discarded).
    gained: int = 0
    spent: int = 0

    def node(self, name: str) -> int:
        return self.nodes[_NODE_INDEX[name]]

    def meme(self, branch: str) -> Meme | None:
        return self.branches[_BRANCH_INDEX[branch]] if branch in _BRANCH_INDEX else None

    def stones_at(self, place: str) -> int:
        if place in _NODE_INDEX:
            return self.node(place)
        meme = self.meme(place)
        return meme.stones if meme else 0

    # A branch holds a meme (a record: always true) or None: the filled ones are those whose
    # entry is true.

    def memes(self) -> list[tuple[str, Meme]]:
        """(branch, meme) of each filled branch, in BRANCHES order."""
        return [(b, m) for b, m in zip(BRANCHES, self.branches) if m is not None]

    def empty(self) -> list[str]:
        return list(compress(BRANCHES, map(not_, self.branches)))

    @property
    def filled(self) -> int:
        return sum(map(bool, self.branches))

    @property
    def stones(self) -> int:
        """Own stones on the sheet (nodes and branches)."""
        return sum(self.nodes) + sum(m.stones for m in self.branches if m)

    @property
    def bonus(self) -> int:
        return sum(m.bonus for m in self.branches if m)

    def keys(self) -> set[str]:
        return {_key(m.text) for m in self.branches if m}  # `m.key` without the property's call


@dataclass(frozen=True)
class Attempt(_Held):
    """The meme action being played."""

    kind: str
    actor: int
    text: str
    holder: str
    target: Ref | None
    target_id: int | None
    #: the actor's action number in the turn (1 or 2).
    number: int
    pool: int = 0
    #: the pool after each spend.
    pools: tuple[int, ...] = ()
    node_spent: tuple[int, ...] = ()
    think_spent: tuple[int, ...] = ()
    #: per seat: "actor", "connect", "defend" or "".
    sides: tuple[str, ...] = ()
    passed: tuple[bool, ...] = ()
    dice: tuple[int, ...] = ()
    first_dice: tuple[int, ...] = ()
    rerolling: int | None = None
    seeds_spent: tuple[int, ...] = ()
    success: bool | None = None

    @property
    def total(self) -> int:
        return sum(self.dice)


@dataclass(frozen=True)
class Outcome:
    """A finished meme action, for the story, the dashboard and the balance tools."""

    chapter: int
    actor: int
    kind: str
    text: str
    holder: str
    target: Ref | None
    pools: tuple[int, ...]
    pool: int
    first_dice: tuple[int, ...]
    dice: tuple[int, ...]
    success: bool
    connected: tuple[int, ...]
    defended: tuple[int, ...]
    seeds_spent: tuple[int, ...]
    #: the branch the new meme went on (success only).
    branch: str | None = None


@dataclass(frozen=True)
class StoryLine:
    """One line of the story: a title, a narration or an outcome."""

    chapter: int
    seat: int | None
    kind: str
    text: str | Said


@dataclass(frozen=True)
class State:
    setup: Setup
    phase: Phase
    sheets: tuple[Sheet, ...]
    #: chapter index from 0 (-1 before the first chapter).
    chapter: int = -1
    title: str = ""
    #: the seat whose turn (or setting-round step) it is.
    turn: int | None = None
    turns_done: int = 0
    actions_taken: int = 0
    plot_declared: bool = False
    attempt: Attempt | None = None
    #: (kind, text key, holder key) of this turn's last action when it was a failed meme action.
    last_failed: tuple[str, str, str] | None = None
    #: (meme id, action number) involved during the current turn.
    involved: frozenset[tuple[int, int]] = frozenset()
    #: memes that gave a bonus stone during the current turn.
    bonus_taken: frozenset[int] = frozenset()
    #: (targeting seat, meme id): targets named for replacement so far.
    targeted: frozenset[tuple[int, int]] = frozenset()
    next_id: int = 1
    outcomes: tuple[Outcome, ...] = ()
    #: chapter titles so far.
    titles: tuple[str, ...] = ()
    story: tuple[StoryLine, ...] = ()
    log: tuple[Event, ...] = ()
    #: why the story ended, in English (records and the lab read it); `ending(state)` says it.
    ended: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def n(self) -> int:
        return len(self.setup.names)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def starter(self) -> int | None:
        return self.chapter % len(self.sheets) if self.chapter >= 0 else None  # one sheet a seat

    @property
    def actions_left(self) -> int:
        return ACTIONS_PER_TURN - self.actions_taken

    def chapter_order(self, chapter: int | None = None) -> tuple[int, ...]:
        """Turn order in a chapter: from the starter's left neighbour round to the starter."""
        k = self.chapter if chapter is None else chapter
        return _order_from(self.n, (k + 1) % self.n)  # from the starter's left neighbour

    def order_from(self, seat: int) -> tuple[int, ...]:
        return _order_from(self.n, seat)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits on, in the order they are asked: everyone while the
        starting stones are placed, the player whose step it is, and in phases 2 and 3 the
        table round from the actor (in phase 3, those holding seeds)."""
        phase = self.phase
        if phase == "place":
            return tuple(s for s in range(self.n) if not self.sheets[s].placed)
        if phase == "title":
            return (self.starter,) if self.starter is not None else ()
        if phase in ("setting", "turn-start", "turn"):
            return (self.turn,) if self.turn is not None else ()
        a = self.attempt
        if a is None:
            return ()
        if phase in ("stake", "outcome"):
            return (a.actor,)
        if phase == "respond":
            return _not_passed(a.actor, a.passed)
        if phase == "reroll":
            return tuple(s for s in _order_from(len(a.passed), a.actor) if not a.passed[s] and self.sheets[s].seeds > 0)
        return ()


# -- small helpers ------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _order_from(n: int, seat: int) -> tuple[int, ...]:
    return tuple((seat + i) % n for i in range(n))


@lru_cache(maxsize=4096)
def _not_passed(actor: int, passed: tuple[bool, ...]) -> tuple[int, ...]:
    # Phase 2 asks the table again after every spend: the same few tuples over and over.
    return tuple(s for s in _order_from(len(passed), actor) if not passed[s])


def _require(condition: bool, rule: str, message: str | Said) -> None:
    """Refuse with a fixed message; a formatted one is written `if ...: raise`, so that it is
    only made on refusal."""
    if not condition:
        raise RuleError(rule, message)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)  # two new sequences, where slicing and joining make five
    changed[index] = value
    return tuple(changed)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _quote(meme_text: str, holder: str) -> str:
    """'Porridge is healthy - Mama Bear': a meme as the rules text writes it."""
    return f"'{meme_text} - {holder}'"


def _commas(parts: Sequence[Said | str]) -> Said | str:
    """Parts of a line said one after another, "2 on Think, 1 on Probe", in one message per comma."""
    joined = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two parts of a list in a log line ("2 on Think, 1 on Probe"); keep the order.
        joined = say("{first}, {then}", first=joined, then=part)
    return joined


def _say(state: State, text: str | Said, **changes: Any) -> State:
    """The state with `text` logged, and `changes` made in the same copy (`construct` written
    out for the line and the state: a game logs some 450 lines)."""
    fields = state.__dict__.copy()
    if changes:
        fields.update(changes)
    event = _new(Event)
    _setattr(event, "__dict__", {"text": text, "visible_to": None, "round": state.chapter + 1})
    fields["log"] = state.log + (event,)
    new = _new(State)
    _setattr(new, "__dict__", fields)
    return new


def _tell(state: State, seat: int | None, kind: str, text: str | Said, **changes: Any) -> State:
    """A story line (narration, title, outcome); it also goes into the event log (and `changes`
    are made in the same copy). The playbook's own lines are messages; a narration is typed."""
    if not isinstance(text, Said):
        text = clean(text) if kind != "narration" else str(text).strip()
    if not text:
        return evolve(state, **changes) if changes else state
    story = state.story + (construct(StoryLine, {"chapter": state.chapter + 1, "seat": seat, "kind": kind, "text": text}),)
    if kind == "narration" and seat is not None:
        return _say(state, f"{state.names[seat]}: \u201c{text}\u201d", story=story, **changes)
    return _say(state, text, story=story, **changes)


def _narrate(state: State, action: Told) -> State:
    if action.seat is not None and action.narration != "":
        return _tell(state, action.seat, "narration", action.narration)
    return state


def _add_node(sheet: Sheet, node: str, stones: int) -> Sheet:
    i = _NODE_INDEX[node]
    return evolve(sheet, nodes=_set(sheet.nodes, i, sheet.nodes[i] + stones))


def _set_meme(sheet: Sheet, branch: str, meme: Meme | None) -> Sheet:
    return evolve(sheet, branches=_set(sheet.branches, _BRANCH_INDEX[branch], meme))


def _add_at(sheet: Sheet, place: str, stones: int) -> Sheet:
    if place in _NODE_INDEX:
        return _add_node(sheet, place, stones)
    meme = sheet.meme(place)
    assert meme is not None
    return _set_meme(sheet, place, evolve(meme, stones=meme.stones + stones))


def _gain(sheet: Sheet, places: Iterable[str]) -> Sheet:
    """A stone on each place (a node or a filled branch), in one copy of the sheet."""
    nodes = list(sheet.nodes)
    branches = None
    count = 0
    for place in places:
        if place in _NODE_INDEX:
            nodes[_NODE_INDEX[place]] += 1
        else:
            branches = branches or list(sheet.branches)
            i = _BRANCH_INDEX[place]
            meme = branches[i]
            assert meme is not None
            branches[i] = evolve(meme, stones=meme.stones + 1)
        count += 1
    changed = tuple(branches) if branches else sheet.branches
    return evolve(sheet, nodes=tuple(nodes), branches=changed, gained=sheet.gained + count)


def _describe_places(layout: Sequence[str], sheet: Sheet, places: Sequence[str]) -> Said | str:
    """'2 on Think, 1 on 'Wolves lie - Wolf'': stones placed, in sheet order."""
    if type(places) is tuple and all(type(p) is str and p in _NODE_INDEX for p in places):
        return _describe_nodes(places)  # the usual placement: nodes only, the same few each turn
    counts = Counter(places)
    return _commas([say("{count} on {place}", count=n, place=place_said(layout, sheet, p)) for p, n in sorted(counts.items(), key=lambda kv: _place_order(kv[0]))])


@lru_cache(maxsize=1024)
def _describe_nodes(places: tuple[str, ...]) -> Said | str:
    """`_describe_places` for nodes only (their words do not depend on the sheet)."""
    counts = Counter(places)
    # TRANSLATORS: stones placed on a node of the sheet: "2 on Think".
    return _commas([say("{count} on {place}", count=n, place=NODE_NAMES[place]) for place, n in sorted(counts.items(), key=lambda kv: _place_order(kv[0]))])


# -- checking -----------------------------------------------------------------------------------


def check(state: State, action: Action) -> None:
    """Raise RuleError when `action` is not allowed now; the state is never changed.

    Nothing is allowed once the game is over. A player's action must come from a seat, with
    narration of at most 4,000 characters; then each action has its own rule, below in the
    order of a turn (`_RULE_AND_STEP`).
    """
    if state.phase == "over":
        raise RuleError("game over", say("the game is over"))
    (_RULE_AND_STEP.get(type(action)) or _inherited(action))[0](state, action)


def is_legal(state: State, action: Action) -> bool:
    """Would `check` allow `action` now?"""
    try:
        check(state, action)
    except RuleError:
        return False
    return True


def _teller(state: State, action: Told) -> int:
    """The seat a player's action comes from, once it and the narration are checked."""
    seat = action.seat
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.sheets)):
        raise RuleError("seat", say("there is no seat {seat}", seat=repr(seat)))
    _require(isinstance(action.narration, str), "narration", say("narration must be text"))
    if len(action.narration) > MAX_NARRATION:
        raise RuleError("narration", say("narration is limited to {limit} characters", limit=MAX_NARRATION))
    return seat


def _phase(state: State, phases: Sequence[str], what: Said) -> None:
    if state.phase not in phases:
        raise RuleError("phase", say("{what} is not possible now ({phase})", what=what, phase=PHASE_SAID[state.phase]))


def _their_turn(state: State, seat: int, who: int | None, what: Said) -> None:
    if seat != who:
        if who is None:
            raise RuleError("turn order", say("{what}: it is nobody's move, not {name}'s", what=what, name=state.names[seat]))
        raise RuleError("turn order", say("{what}: it is {expected}'s move, not {name}'s", what=what, expected=state.names[who], name=state.names[seat]))


def _check_text(value: object, rule: str, what: Said, limit: int) -> str:
    if not isinstance(value, str):
        raise RuleError(rule, say("the {what} must be text", what=what))
    text = clean(str(value))
    if not text:
        raise RuleError(rule, say("the {what} may not be empty", what=what))
    if len(text) > limit:
        raise RuleError(rule, say("the {what} is longer than {limit} characters", what=what, limit=limit))
    return text


def _check_places(state: State, seat: int, place: object, count: int, nodes_only: bool) -> None:
    _require(isinstance(place, tuple), "placement", say("a placement lists one place per stone"))
    assert isinstance(place, tuple)
    if len(place) != count:
        raise RuleError("placement", say_n("place exactly {n} stone, not {given}", "place exactly {n} stones, not {given}", count, given=len(place)))
    sheet = state.sheets[seat]
    for p in place:
        if p in _NODE_INDEX:
            continue
        if nodes_only:
            raise RuleError("placement", say("these stones go on the five nodes, not on {place}", place=repr(p)))
        if p not in _BRANCH_INDEX:
            raise RuleError("placement", say("{place} is not a node or branch of the sheet", place=repr(p)))
        if sheet.meme(p) is None:
            raise RuleError("placement", say("{place} is an empty branch: stones sit on nodes or filled branches", place=p))


def _check_place(state: State, action: Place) -> None:
    seat = _teller(state, action)
    _phase(state, ("place",), say("placing starting stones"))
    if state.sheets[seat].placed:
        raise RuleError("setup", say("{name} has already placed the starting stones", name=state.names[seat]))
    _check_places(state, seat, action.place, state.setup.start_stones, nodes_only=True)


def _check_write(state: State, action: Write) -> None:
    seat = _teller(state, action)
    _phase(state, ("setting",), say("writing a setting-round meme"))
    _their_turn(state, seat, state.turn, say("the setting round"))
    if action.branch not in _BRANCH_INDEX:
        raise RuleError("branch", say("{branch} is not a branch of the sheet", branch=repr(action.branch)))
    sheet = state.sheets[seat]
    if sheet.meme(action.branch) is not None:
        raise RuleError("branch", say("{branch} is already filled", branch=action.branch))
    text = _check_text(action.text, "meme text", say("meme text"), MAX_TEXT)
    holder = _check_text(action.holder, "holder", say("holder"), MAX_HOLDER)
    name = state.names[seat]
    for branch, meme in sheet.memes():
        kind = state.setup.branch_type(branch)
        if state.setup.branch_type(action.branch) == kind:
            raise RuleError(
                "setting round",
                say("{name} has written a leaf meme already: the second is coiled", name=name) if kind == LEAF else say("{name} has written a coiled meme already: the second is leaf", name=name),
            )
        if meme.key == meme_key(text) and meme.holder_key == meme_key(holder):
            raise RuleError("setting round", say("{holder} already holds '{words}' on {name}'s sheet", holder=holder, words=text, name=name))


def _check_title(state: State, action: Title) -> None:
    seat = _teller(state, action)
    _phase(state, ("title",), say("announcing a chapter"))
    _their_turn(state, seat, state.starter, say("announcing the chapter"))
    _check_text(action.title, "title", say("chapter title"), MAX_TEXT)


def _check_turn_stones(state: State, action: TurnStones) -> None:
    seat = _teller(state, action)
    _phase(state, ("turn-start",), say("placing the turn's stones"))
    _their_turn(state, seat, state.turn, say("placing the turn's stones"))
    _check_places(state, seat, action.place, TURN_STONES, nodes_only=False)


def _check_action_slot(state: State, seat: int, what: Said) -> None:
    """One of the turn's two actions: the player's turn, an action left."""
    _phase(state, ("turn",), what)
    _their_turn(state, seat, state.turn, what)
    if state.actions_taken >= ACTIONS_PER_TURN:
        raise RuleError("two actions", say("{name} has used both actions this turn", name=state.names[seat]))


def _check_gain(state: State, action: Gain) -> None:
    seat = _teller(state, action)
    _check_action_slot(state, seat, say("a Gain action"))
    _check_places(state, seat, action.place, GAIN_STONES, nodes_only=False)


def _check_move(state: State, action: Move) -> None:
    seat = _teller(state, action)
    _check_action_slot(state, seat, say("a Move action"))
    _require(isinstance(action.steps, tuple) and len(action.steps) > 0, "move", say("a Move action moves at least one stone"))
    sheet = state.sheets[seat]
    leaving: Counter[str] = Counter()
    for step in action.steps:
        _require(isinstance(step, Step), "move", say("each step names a source, a target and a number of stones"))
        if not (step.source in PLACES and step.target in PLACES):
            raise RuleError("move", say("{source} -> {target} is not on the sheet", source=repr(step.source), target=repr(step.target)))
        _require(_is_int(step.stones) and step.stones > 0, "move", say("each step moves one or more stones"))
        if not adjacent(step.source, step.target):
            raise RuleError("move", say("{source} -> {target} is not one step: stones move branch <-> its hub and hub <-> Think", source=step.source, target=step.target))
        for place in (step.source, step.target):
            if place in _BRANCH_INDEX and sheet.meme(place) is None:
                raise RuleError("move", say("{place} is an empty branch", place=place))
        leaving[step.source] += step.stones
    for place, count in leaving.items():
        if count > sheet.stones_at(place):
            raise RuleError(
                "move",
                say_n(
                    "{n} stone cannot leave {place}: it holds {held} (each stone moves one step per action)",
                    "{n} stones cannot leave {place}: it holds {held} (each stone moves one step per action)",
                    count,
                    place=place,
                    held=sheet.stones_at(place),
                ),
            )


def _check_meme_action(state: State, action: Create | Spread) -> None:
    seat = _teller(state, action)
    kind = action.kind
    _check_action_slot(state, seat, say("a create action") if kind == "create" else say("a spread action"))
    text = _check_text(action.text, "meme text", say("meme text"), MAX_TEXT)
    holder = _check_text(action.holder, "holder", say("holder"), MAX_HOLDER)
    sheet = state.sheets[seat]
    key, holder_key = meme_key(text), meme_key(holder)
    name = state.names[seat]
    if isinstance(action, Create):
        if key in sheet.keys():  # noqa: SIM118 - a Sheet's keys are its memes'; a Sheet is no dict
            raise RuleError("create", say("'{words}' is already on {name}'s sheet: spread it instead", words=text, name=name))
    else:
        if key not in sheet.keys():  # noqa: SIM118 - as above
            raise RuleError("spread", say("'{words}' is not on {name}'s sheet yet: create it first", words=text, name=name))
        if any(m.key == key and m.holder_key == holder_key for _, m in sheet.memes()):
            raise RuleError("spread", say("{holder} already holds '{words}' on {name}'s sheet", holder=holder, words=text, name=name))
    if not sheet.empty():
        raise RuleError("empty branch", say("{name} has no empty branch for a new meme", name=name))
    if action.target is not None:
        _check_target(state, seat, action.target, holder_key, holder)
    if state.last_failed == (kind, key, holder_key):
        raise RuleError(
            "repeat after failure",
            (
                say("that create of '{words}' for {holder} just failed: {name} may not try it again as the next action this turn", words=text, holder=holder, name=name)
                if kind == "create"
                else say("that spread of '{words}' for {holder} just failed: {name} may not try it again as the next action this turn", words=text, holder=holder, name=name)
            ),
        )


def _check_target(state: State, seat: int, target: object, holder_key: str, holder: str) -> Meme:
    _require(isinstance(target, Ref), "replace target", say("a replace target names a seat and a branch"))
    assert isinstance(target, Ref)
    if not (_is_int(target.seat) and 0 <= target.seat < state.n):
        raise RuleError("replace target", say("there is no seat {seat}", seat=repr(target.seat)))
    _require(target.seat != seat, "replace target", say("a player cannot replace their own meme"))
    meme = state.sheets[target.seat].meme(target.branch)
    if meme is None:
        raise RuleError("replace target", say("{name} has no meme on {branch}", name=state.names[target.seat], branch=repr(target.branch)))
    if meme.holder_key != holder_key:
        raise RuleError("replace target", say("{meme} is not held by {holder}: only a meme of the same holder can be replaced", meme=_quote(meme.text, meme.holder), holder=holder))
    if (seat, meme.id) in state.targeted:
        raise RuleError("replace once", say("{name} has already targeted {owner}'s {meme} once this game", name=state.names[seat], owner=state.names[target.seat], meme=_quote(meme.text, meme.holder)))
    return meme


def _check_plot_unfinished(state: State, action: PlotUnfinished) -> None:
    seat = _teller(state, action)
    _phase(state, ("turn",), say("declaring the plot unfinished"))
    _their_turn(state, seat, state.turn, say("declaring the plot unfinished"))
    if seat != state.starter:
        raise RuleError("plot unfinished", say("only the chapter's starter ({name}) may declare its plot unfinished", name=state.names[state.starter or 0]))
    _require(not state.plot_declared, "plot unfinished", say("the plot was already declared unfinished this chapter"))


def _check_end_turn(state: State, action: EndTurn) -> None:
    seat = _teller(state, action)
    _phase(state, ("turn",), say("ending the turn"))
    _their_turn(state, seat, state.turn, say("ending the turn"))


def role_node(attempt: Attempt, role: str) -> str:
    """The node a spender in `role` spends from: the actor's Create for a Create action and
    Probe for a Spread, a connector's Connect, a defender's Defend."""
    if role == "actor":
        return "create" if attempt.kind == "create" else "probe"
    return role


def may_involve(state: State, seat: int, role: str, branch: str) -> bool:
    """May `seat` in `role` ("actor", "connect", "defend") involve its meme on `branch` by type?"""
    a = state.attempt
    i = _BRANCH_INDEX.get(branch)
    if a is None or i is None:
        return False
    meme = state.sheets[seat].branches[i]
    return meme is not None and _may_involve(a, seat, role, state.setup.layout[i], meme)


def involvable(state: State, seat: int, role: str) -> list[tuple[str, Meme]]:
    """(branch, meme) of each meme `seat` in `role` may involve by type (`may_involve`), in
    BRANCHES order."""
    a = state.attempt
    if a is None:
        return []
    kind, also = _involve_rule(a, seat, role)
    branches = state.sheets[seat].branches
    found = []
    # The filled branches only (a meme is true), picked by `compress`.
    for branch, k, meme in compress(zip(BRANCHES, state.setup.layout, branches), branches):
        if meme is not None and (k == kind or (also is not None and also(meme))):
            found.append((branch, meme))
    return found


def _may_involve(a: Attempt, seat: int, role: str, kind: str, meme: Meme) -> bool:
    """`may_involve` for a meme of branch type `kind` (leaf or coiled) on `seat`'s sheet."""
    allowed, also = _involve_rule(a, seat, role)
    return kind == allowed or (also is not None and also(meme))


def _involve_rule(a: Attempt, seat: int, role: str) -> tuple[str, Callable[[Meme], bool] | None]:
    """The branch type whose memes `seat` in `role` may involve, and a test of the memes it
    may involve whatever their type (None: no other)."""
    if role == "connect" or (role == "actor" and a.kind == "create"):
        return COILED, None
    if role == "actor":  # a Spread: also the spread meme's instances
        return LEAF, lambda meme: meme.key == a.key
    if a.target is not None and a.target.seat == seat:
        # The owner of a replace target, defending: also the target and their memes held by that holder.
        return LEAF, lambda meme: meme.id == a.target_id or meme.holder_key == a.holder_key
    return LEAF, None


def _involve_refusal(a: Attempt, role: str, kind: str, meme: str) -> Said:
    """Why `meme` (of branch type `kind`) may not be involved by a spender in `role`."""
    values = {"meme": meme}
    if kind == LEAF:
        if role == "actor":
            if a.kind == "create":
                return say("{meme} is a leaf meme: a Create action involves coiled memes", **values)
            return say("{meme} is a leaf meme: a Spread involves leaf memes and the spread meme's instances", **values)
        if role == "connect":
            return say("{meme} is a leaf meme: connecting involves coiled memes", **values)
        return say("{meme} is a leaf meme: defending involves leaf memes (and, for the target's owner, memes of the target's holder)", **values)
    if role == "actor":
        if a.kind == "create":
            return say("{meme} is a coiled meme: a Create action involves coiled memes", **values)
        return say("{meme} is a coiled meme: a Spread involves leaf memes and the spread meme's instances", **values)
    if role == "connect":
        return say("{meme} is a coiled meme: connecting involves coiled memes", **values)
    return say("{meme} is a coiled meme: defending involves leaf memes (and, for the target's owner, memes of the target's holder)", **values)


def _check_spend(state: State, action: Spend) -> None:
    seat = _teller(state, action)
    a = state.attempt
    role = action.role
    if role == "actor":
        _phase(state, ("stake", "respond"), say("staking"))
        assert a is not None
        _their_turn(state, seat, a.actor, say("staking"))
    else:
        if state.phase == "stake":
            raise RuleError(
                "phase 1", say("the actor is still staking (phase 1): connect comes in phase 2") if role == "connect" else say("the actor is still staking (phase 1): defend comes in phase 2")
            )
        _phase(state, ("respond",), say("to connect") if role == "connect" else say("to defend"))
        assert a is not None
        _require(seat != a.actor, "connect or defend", say("the actor stakes: only the other players connect or defend"))
        other = "defend" if role == "connect" else "connect"
        if a.sides[seat] == other:
            raise RuleError(
                "connect or defend",
                say("{name} has already chosen to defend in this action: never both", name=state.names[seat])
                if other == "defend"
                else say("{name} has already chosen to connect in this action: never both", name=state.names[seat]),
            )
    _require(_is_int(action.from_node) and action.from_node >= 0, "stones", say("stones are counted in whole numbers from 0"))
    _require(_is_int(action.from_think) and action.from_think >= 0, "stones", say("stones are counted in whole numbers from 0"))
    _require(isinstance(action.memes, tuple), "involve", say("involved memes are a list"))
    sheet = state.sheets[seat]
    name = state.names[seat]
    node = role_node(a, role)
    if action.from_node > sheet.node(node):
        raise RuleError("stones", say_n("{name} has only {n} stone on {node}", "{name} has only {n} stones on {node}", sheet.node(node), name=name, node=NODE_NAMES[node]))
    if action.from_think > sheet.node("think"):
        raise RuleError("stones", say_n("{name} has only {n} stone on {node}", "{name} has only {n} stones on {node}", sheet.node("think"), name=name, node=NODE_NAMES["think"]))
    node_total = a.node_spent[seat] + action.from_node
    think_total = a.think_spent[seat] + action.from_think
    if think_total > node_total:
        raise RuleError(
            "think",
            say("Think gives up to as many stones as spent from {node}: {name} would spend {think} from Think against {spent}", node=NODE_NAMES[node], name=name, think=think_total, spent=node_total),
        )
    seen: set[str] = set()
    total = action.from_node + action.from_think
    for use in action.memes:
        _require(isinstance(use, Use), "involve", say("each involved meme names a branch"))
        if use.branch not in _BRANCH_INDEX:
            raise RuleError("involve", say("{branch} is not a branch of the sheet", branch=repr(use.branch)))
        if use.branch in seen:
            raise RuleError("involve", say("{branch} is involved twice in one spend", branch=use.branch))
        seen.add(use.branch)
        meme = sheet.meme(use.branch)
        if meme is None:
            raise RuleError("involve", say("{name}'s {branch} is an empty branch", name=name, branch=use.branch))
        kind = state.setup.branch_type(use.branch)
        if not _may_involve(a, seat, role, kind, meme):
            raise RuleError("involve", _involve_refusal(a, role, kind, _quote(meme.text, meme.holder)))
        if any(mid == meme.id and number != a.number for mid, number in state.involved):
            raise RuleError("once per turn", say("{meme} was already involved in another action this turn", meme=_quote(meme.text, meme.holder)))
        _require(_is_int(use.bonus) and use.bonus in (0, 1), "bonus", say("an involved meme gives at most one bonus stone"))
        _require(_is_int(use.stones) and use.stones >= 0, "involve", say("stones are counted in whole numbers from 0"))
        if use.bonus:
            if meme.bonus <= 0:
                raise RuleError("bonus", say("{meme} has no bonus stone left this chapter", meme=_quote(meme.text, meme.holder)))
            if meme.id in state.bonus_taken:
                raise RuleError("bonus", say("{meme} has already given a bonus stone this turn (one per player's turn)", meme=_quote(meme.text, meme.holder)))
        if use.stones > meme.stones:
            raise RuleError("involve", say_n("{meme} has only {n} stone on it", "{meme} has only {n} stones on it", meme.stones, meme=_quote(meme.text, meme.holder)))
        if use.bonus + use.stones <= 0:
            raise RuleError("involve", say("involving {branch} spends nothing", branch=use.branch))
        total += use.bonus + use.stones
    _require(total > 0, "empty spend", say("a spend puts at least one stone in"))


def _check_pass(state: State, action: Pass) -> None:
    seat = _teller(state, action)
    _phase(state, ("stake", "respond", "reroll"), say("passing"))
    a = state.attempt
    assert a is not None
    if state.phase == "stake":
        _their_turn(state, seat, a.actor, say("closing phase 1"))
    elif state.phase == "respond":
        if a.passed[seat]:
            raise RuleError("pass", say("{name} has passed already; the table waits on the others", name=state.names[seat]))
    else:
        if state.sheets[seat].seeds <= 0:
            raise RuleError("pass", say("{name} holds no seeds: the roll does not wait on them", name=state.names[seat]))
        if a.passed[seat]:
            raise RuleError("pass", say("{name} has let the roll stand already", name=state.names[seat]))


def _check_roll(state: State, action: Roll) -> None:
    _phase(state, ("roll",), say("rolling the dice"))
    _require(
        isinstance(action.dice, tuple) and len(action.dice) == 2 and all(_is_int(d) and 1 <= d <= 6 for d in action.dice),
        "dice",
        say("a roll is two dice of 1-6"),
    )


def _check_spend_seed(state: State, action: SpendSeed) -> None:
    seat = _teller(state, action)
    _phase(state, ("reroll",), say("spending a seed"))
    if state.sheets[seat].seeds <= 0:
        raise RuleError("seeds", say("{name} has no red seeds left", name=state.names[seat]))
    _require(_is_int(action.die) and action.die in (0, 1), "seeds", say("a seed re-rolls die 0 or die 1"))


def _check_rerolled(state: State, action: Rerolled) -> None:
    _phase(state, ("rerolling",), say("re-rolling a die"))
    assert state.attempt is not None
    if action.die != state.attempt.rerolling:
        raise RuleError("dice", say("die {die} is the one being re-rolled", die=str(state.attempt.rerolling)))
    _require(_is_int(action.value) and 1 <= action.value <= 6, "dice", say("a die shows 1-6"))


def _check_conclude(state: State, action: Conclude) -> None:
    seat = _teller(state, action)
    _phase(state, ("outcome",), say("concluding a meme action"))
    a = state.attempt
    assert a is not None
    _their_turn(state, seat, a.actor, say("concluding the meme action"))
    _require(_is_int(action.from_hub) and action.from_hub >= 0, "new meme", say("stones are counted in whole numbers from 0"))
    if not a.success:
        _require(action.branch is None and action.from_hub == 0, "outcome", say("the action failed: no meme is written"))
        return
    sheet = state.sheets[seat]
    _require(action.branch in _BRANCH_INDEX, "new meme", say("the new meme goes on an empty branch: name one"))
    assert action.branch is not None
    if sheet.meme(action.branch) is not None:
        raise RuleError("new meme", say("{branch} is not empty", branch=action.branch))
    hub = hub_of(action.branch)
    if action.from_hub > sheet.node(hub):
        raise RuleError(
            "new meme",
            say_n(
                "{name} has only {n} stone on {node} to move onto the new meme",
                "{name} has only {n} stones on {node} to move onto the new meme",
                sheet.node(hub),
                name=state.names[seat],
                node=NODE_NAMES[hub],
            ),
        )


def _check_unknown(state: State, action: Action) -> None:
    if isinstance(action, Told):
        _teller(state, action)
    raise RuleError("action", say("Dangerous Ideas has no action {action}", action=type(action).__name__))


# -- playing ------------------------------------------------------------------------------------


def initial(setup: Setup) -> State:
    """The story before anyone has placed a stone."""
    sheets = tuple(Sheet(name=name, seeds=setup.seeds) for name in setup.names)
    state = State(setup=setup, phase="place", sheets=sheets)
    state = _say(state, say_n("Dangerous Ideas for {names}: {n} chapter.", "Dangerous Ideas for {names}: {n} chapters.", setup.chapter_count, names=seats_said(setup.names, range(setup.players))))
    return _say(state, say_n("Everyone places {n} stone on the five nodes of their sheet.", "Everyone places {n} stones on the five nodes of their sheet.", setup.start_stones))


def play(state: State, action: Action) -> State:
    """The state after a checked action: each action's own step, below in the order of a
    turn (`_RULE_AND_STEP`), with the steps of the story it leads to (the setting round, a
    chapter, a turn, the end)."""
    return (_RULE_AND_STEP.get(type(action)) or _inherited(action))[1](state, action)


def _play_place(state: State, action: Place) -> State:
    seat = action.seat
    assert seat is not None
    sheet = evolve(_gain(state.sheets[seat], action.place), placed=True)
    state = evolve(state, sheets=_set(state.sheets, seat, sheet))
    state = _say(state, say("{name} places the starting stones: {places}.", name=state.names[seat], places=_describe_places(state.setup.layout, sheet, action.place)))
    state = _narrate(state, action)
    return _begin_setting(state) if all(s.placed for s in state.sheets) else state


def _begin_setting(state: State) -> State:
    state = evolve(state, phase="setting", turn=0)
    return _say(state, say("The setting round: each player fills one leaf and one coiled branch. {name} begins.", name=state.names[0]))


def _play_write(state: State, action: Write) -> State:
    seat = action.seat
    assert seat is not None
    text, holder = clean(action.text), clean(action.holder)
    meme = Meme(id=state.next_id, text=text, holder=holder, stones=0, bonus=0, chapter=0)
    sheet = _set_meme(state.sheets[seat], action.branch, meme)
    sheet = _gain(sheet, [action.branch])
    # The narration's line comes first; the sheet, the id and the turn go in with the next.
    changes: dict[str, Any] = {"sheets": _set(state.sheets, seat, sheet), "next_id": state.next_id + 1}
    if sheet.filled >= 2:
        changes["turn"] = seat + 1 if seat + 1 < state.n else None
    state = _narrate(state, action)
    line = say("{name} writes {meme} on {branch}.", name=state.names[seat], meme=_quote(text, holder), branch=branch_said(state.setup.layout, action.branch))
    state = _tell(state, seat, "outcome", line, **changes)
    return _begin_chapter(state) if sheet.filled >= 2 and seat + 1 >= state.n else state


def _begin_chapter(state: State) -> State:
    k = state.chapter + 1
    if k >= state.setup.chapter_count:
        return _end(state)
    sheets = tuple(evolve(s, branches=tuple(m if m is None or m.bonus == BONUS_STONES else evolve(m, bonus=BONUS_STONES) for m in s.branches)) for s in state.sheets)
    state = evolve(
        state,
        phase="title",
        chapter=k,
        title="",
        sheets=sheets,
        turn=None,
        turns_done=0,
        plot_declared=False,
        involved=frozenset(),
        bonus_taken=frozenset(),
        last_failed=None,
    )
    line = say(
        "Chapter {chapter} of {count}: {name} starts it. Every meme's bonus stones are refreshed to {bonus}.",
        chapter=k + 1,
        count=state.setup.chapter_count,
        name=state.names[k % state.n],
        bonus=BONUS_STONES,
    )
    return _say(state, line)


def _play_title(state: State, action: Title) -> State:
    title = clean(action.title)
    state = _tell(state, action.seat, "title", say("Chapter {chapter}: {title}", chapter=state.chapter + 1, title=title), title=title, titles=state.titles + (title,))
    state = _narrate(state, action)
    return _begin_turn(state, state.chapter_order()[0])


def _begin_turn(state: State, seat: int, **changes: Any) -> State:
    return _say(
        state,
        say_n("{name}'s turn: {n} stone to place.", "{name}'s turn: {n} stones to place.", TURN_STONES, name=state.names[seat]),
        phase="turn-start",
        turn=seat,
        actions_taken=0,
        involved=frozenset(),
        bonus_taken=frozenset(),
        last_failed=None,
        attempt=None,
        **changes,
    )


def _play_turn_stones(state: State, action: TurnStones) -> State:
    seat = action.seat
    assert seat is not None
    sheet = state.sheets[seat]
    line = say("{name} places the turn's stones: {places}.", name=state.names[seat], places=_describe_places(state.setup.layout, sheet, action.place))
    state = _say(state, line, sheets=_set(state.sheets, seat, _gain(sheet, action.place)), phase="turn")
    return _narrate(state, action)


def _play_gain(state: State, action: Gain) -> State:
    seat = action.seat
    assert seat is not None
    sheet = state.sheets[seat]
    line = say_n("{name} gains {n} stone: {places}.", "{name} gains {n} stones: {places}.", GAIN_STONES, name=state.names[seat], places=_describe_places(state.setup.layout, sheet, action.place))
    sheets = _set(state.sheets, seat, _gain(sheet, action.place))
    state = _say(state, line, sheets=sheets, actions_taken=state.actions_taken + 1, last_failed=None)
    return _narrate(state, action)


def _play_move(state: State, action: Move) -> State:
    seat = action.seat
    assert seat is not None
    sheet = state.sheets[seat]
    for step in action.steps:
        sheet = _add_at(_add_at(sheet, step.source, -step.stones), step.target, step.stones)
    layout = state.setup.layout
    steps = [say("{count} from {source} to {target}", count=s.stones, source=place_said(layout, sheet, s.source), target=place_said(layout, sheet, s.target)) for s in action.steps]
    line = say("{name} moves stones: {steps}.", name=state.names[seat], steps=_commas(steps))
    state = _say(state, line, sheets=_set(state.sheets, seat, sheet), actions_taken=state.actions_taken + 1, last_failed=None)
    return _narrate(state, action)


def _play_meme_action(state: State, action: Create | Spread) -> State:
    """The announcement: the meme action begins, and the actor stakes (phase 1)."""
    seat = action.seat
    assert seat is not None
    name = state.names[seat]
    text, holder = clean(action.text), clean(action.holder)
    target_id = None
    targeted = state.targeted
    if action.target is not None:
        meme = state.sheets[action.target.seat].meme(action.target.branch)
        assert meme is not None
        target_id = meme.id
        targeted = targeted | {(seat, meme.id)}
    n = state.n
    number = state.actions_taken + 1
    attempt = construct(  # `Attempt(...)` without its `__init__` (18 fields)
        Attempt,
        {
            "kind": action.kind,
            "actor": seat,
            "text": text,
            "holder": holder,
            "target": action.target,
            "target_id": target_id,
            "number": number,
            "pool": 0,
            "pools": (),
            "node_spent": (0,) * n,
            "think_spent": (0,) * n,
            "sides": _set(("",) * n, seat, "actor"),
            "passed": (False,) * n,
            "dice": (),
            "first_dice": (),
            "rerolling": None,
            "seeds_spent": (0,) * n,
            "success": None,
        },
    )
    state = evolve(state, phase="stake", attempt=attempt, targeted=targeted, actions_taken=number, last_failed=None)
    # As the rules text tells it: "she announces that she is attempting to spread his democracy
    # meme to Papa Bear ... an attempt to replace German Efficiency's '...' meme".
    line: Said
    if action.target is not None:
        victim = state.sheets[action.target.seat].meme(action.target.branch)
        assert victim is not None
        values = {"name": name, "words": text, "holder": holder, "owner": state.names[action.target.seat], "meme": _quote(victim.text, victim.holder)}
        if action.kind == "create":
            line = say("{name} tries to create a new meme, '{words}', held by {holder}, replacing {owner}'s {meme}.", **values)
        else:
            line = say("{name} tries to spread '{words}' to {holder}, replacing {owner}'s {meme}.", **values)
    elif action.kind == "create":
        line = say("{name} tries to create a new meme, '{words}', held by {holder}.", name=name, words=text, holder=holder)
    else:
        line = say("{name} tries to spread '{words}' to {holder}.", name=name, words=text, holder=holder)
    state = _tell(state, seat, "outcome", line)
    return _narrate(state, action)


def _play_plot_unfinished(state: State, action: PlotUnfinished) -> State:
    seat = action.seat
    assert seat is not None
    sheets = _set(state.sheets, seat, _gain(state.sheets[seat], ["create"] * PLOT_STONES))
    line = say("{name} declares the chapter's plot unfinished: +{stones} stones on Create.", name=state.names[seat], stones=PLOT_STONES)
    state = _say(state, line, sheets=sheets, plot_declared=True)
    return _narrate(state, action)


def _play_end_turn(state: State, action: EndTurn) -> State:
    seat = action.seat
    assert seat is not None
    state = _narrate(state, action)
    state = _say(state, say("{name} ends the turn.", name=state.names[seat]))
    done = state.turns_done + 1
    if done < state.n:  # the next player's turn, in the same copy
        return _begin_turn(state, state.chapter_order()[done], turns_done=done)
    state = evolve(state, turns_done=done, turn=None, involved=frozenset(), bonus_taken=frozenset(), last_failed=None)
    return _begin_chapter(state)


def _play_spend(state: State, action: Spend) -> State:
    seat, a = action.seat, state.attempt
    assert seat is not None and a is not None
    role = action.role
    node = role_node(a, role)
    sheet = state.sheets[seat]
    from_node, from_think, memes = action.from_node, action.from_think, action.memes
    # One copy of the sheet, of the attempt and of the state for the whole spend.
    nodes = list(sheet.nodes)
    nodes[_NODE_INDEX[node]] -= from_node
    nodes[_THINK] -= from_think
    own = from_node + from_think
    bonus = 0
    weighted = 0
    parts: list[Said | str] = []
    if from_node:
        parts.append(say("{count} from {place}", count=from_node, place=NODE_NAMES[node]))
    if from_think:
        parts.append(say("{count} from {place}", count=from_think, place=NODE_NAMES["think"]))
    branches = sheet.branches
    involving: dict[str, Any] = {}  # the memes involved, for the state
    if memes:
        changed = list(branches)
        involved = set(state.involved)
        bonus_taken = set(state.bonus_taken)
        for use in memes:
            i = _BRANCH_INDEX[use.branch]
            meme = changed[i]
            assert meme is not None
            changed[i] = evolve(meme, stones=meme.stones - use.stones, bonus=meme.bonus - use.bonus)
            own += use.stones
            bonus += use.bonus
            involved.add((meme.id, a.number))
            if use.bonus:
                bonus_taken.add(meme.id)
            if role == "defend" and a.target is not None and a.target.seat == seat and meme.id == a.target_id:
                weighted += use.stones + use.bonus
            quoted = _quote(meme.text, meme.holder)
            if use.bonus and use.stones:
                parts.append(say("{bonus} bonus and {own} own from {meme}", bonus=use.bonus, own=use.stones, meme=quoted))
            elif use.bonus:
                parts.append(say("{bonus} bonus from {meme}", bonus=use.bonus, meme=quoted))
            else:
                parts.append(say("{own} own from {meme}", own=use.stones, meme=quoted))
        branches = tuple(changed)
        involving = {"involved": frozenset(involved), "bonus_taken": frozenset(bonus_taken)}
    sheet = evolve(sheet, nodes=tuple(nodes), branches=branches, spent=sheet.spent + own)
    stones = own + bonus
    if role == "defend":
        # Each stone from the target counts double.
        removed = stones + (TARGET_WEIGHT - 1) * weighted
        pool = max(0, a.pool - removed)
    else:
        removed = 0
        pool = a.pool + stones
    attempt = evolve(
        a,
        pool=pool,
        pools=a.pools + (pool,),
        node_spent=_set(a.node_spent, seat, a.node_spent[seat] + from_node),
        think_spent=_set(a.think_spent, seat, a.think_spent[seat] + from_think),
        sides=a.sides if role == "actor" else _set(a.sides, seat, role),
        passed=(False,) * len(a.passed),
    )
    name = state.names[seat]
    values = {"name": name, "spent": _commas(parts), "pool": pool}
    if role == "defend" and weighted:
        line = say_n(
            "{name} defends with {n} stone: {spent}, removing {removed} (each stone from the target counts double). The pool is {pool}.",
            "{name} defends with {n} stones: {spent}, removing {removed} (each stone from the target counts double). The pool is {pool}.",
            stones,
            removed=removed,
            **values,
        )
    elif role == "defend":
        line = say_n(
            "{name} defends with {n} stone: {spent}, removing {removed}. The pool is {pool}.",
            "{name} defends with {n} stones: {spent}, removing {removed}. The pool is {pool}.",
            stones,
            removed=removed,
            **values,
        )
    elif role == "connect":
        line = say_n("{name} connects with {n} stone: {spent}. The pool is {pool}.", "{name} connects with {n} stones: {spent}. The pool is {pool}.", stones, **values)
    else:
        line = say_n("{name} stakes {n} stone: {spent}. The pool is {pool}.", "{name} stakes {n} stones: {spent}. The pool is {pool}.", stones, **values)
    state = _say(state, line, sheets=_set(state.sheets, seat, sheet), attempt=attempt, **involving)
    return _narrate(state, action) if action.narration else state


def _play_pass(state: State, action: Pass) -> State:
    seat, a = action.seat, state.attempt
    assert seat is not None and a is not None
    if action.narration:
        state = _narrate(state, action)
    if state.phase == "stake":
        name = state.names[seat]
        line = say("{name} has a pool of {pool}. Phase 2: the others may connect or defend; {name} may add more.", name=name, pool=a.pool)
        return _say(state, line, phase="respond", attempt=evolve(a, passed=(False,) * state.n))
    # The pass in one copy of the attempt and of the state, written out: phase 2 passes round
    # the table after every spend, some 300 times a game.
    fields = a.__dict__.copy()
    fields["passed"] = _set(a.passed, seat, True)
    a = construct(Attempt, fields)
    if all(a.passed):  # the last pass: the dice roll, or the roll stands (in the same copy)
        if state.phase == "respond":
            line = say_n("Nobody spends more: {n} stone in the pool. The dice roll.", "Nobody spends more: {n} stones in the pool. The dice roll.", a.pool)
            return _say(state, line, phase="roll", attempt=a)
        return _resolve(state, a)
    fields = state.__dict__.copy()
    fields["attempt"] = a
    return construct(State, fields)


def _play_roll(state: State, action: Roll) -> State:
    a = state.attempt
    assert a is not None
    dice = action.dice
    # The roll, and the seeds awaited (`_await_seeds`), in one copy of the attempt and of the state.
    passed = tuple(s.seeds == 0 for s in state.sheets)
    a = evolve(a, dice=tuple(dice), first_dice=tuple(dice), passed=passed, rerolling=None)
    line = say("{name} rolls {first} + {second} = {total} against a pool of {pool}.", name=state.names[a.actor], first=dice[0], second=dice[1], total=sum(dice), pool=a.pool)
    state = _say(state, line, attempt=a, phase="reroll")
    return _resolve(state, a) if all(passed) else state


def _play_spend_seed(state: State, action: SpendSeed) -> State:
    seat, a = action.seat, state.attempt
    assert seat is not None and a is not None
    sheet = state.sheets[seat]
    sheets = _set(state.sheets, seat, evolve(sheet, seeds=sheet.seeds - 1))
    seeds_spent = _set(a.seeds_spent, seat, a.seeds_spent[seat] + 1)
    # The narration's line comes first; the seed, the phase and the die go in with the next.
    state = _narrate(state, action)
    line = say("{name} crosses off a red seed to re-roll die {die} (showing {value}).", name=state.names[seat], die=action.die + 1, value=a.dice[action.die])
    return _say(state, line, sheets=sheets, phase="rerolling", attempt=evolve(a, rerolling=action.die, seeds_spent=seeds_spent))


def _play_rerolled(state: State, action: Rerolled) -> State:
    a = state.attempt
    assert a is not None
    dice = _set(a.dice, action.die, action.value)
    line = say(
        "Die {die} comes up {value}: the dice show {first} + {second} = {total} against a pool of {pool}.",
        die=action.die + 1,
        value=action.value,
        first=dice[0],
        second=dice[1],
        total=sum(dice),
        pool=a.pool,
    )
    return _await_seeds(_say(state, line, attempt=evolve(a, dice=dice, rerolling=None)))


def _await_seeds(state: State) -> State:
    """After a roll or a re-roll: everyone holding seeds decides again; the roll stands when none re-rolls."""
    a = state.attempt
    assert a is not None
    a = evolve(a, passed=tuple(s.seeds == 0 for s in state.sheets), rerolling=None)
    return _resolve(state, a) if all(a.passed) else evolve(state, attempt=a, phase="reroll")


def wins(pool: int, total: int) -> bool:
    """Does a roll `total` succeed against `pool`? 11 and 12 always fail."""
    return total < ALWAYS_FAILS and total <= pool


def _resolve(state: State, a: Attempt) -> State:
    """The roll stands: the attempt `a` (the state's, with the last pass or roll that `state`
    does not hold yet) succeeds or fails, in one copy of the state."""
    success = wins(a.pool, a.total)
    a = evolve(a, success=success)
    values = {"first": a.dice[0], "second": a.dice[1], "total": a.total, "pool": a.pool, "holder": a.holder, "words": a.text}
    if success:
        line = say("The roll stands at {first} + {second} = {total} against a pool of {pool}: it succeeds, and {holder} takes up '{words}'.", **values)
        return _tell(state, None, "outcome", line, attempt=a, phase="outcome")
    if a.total >= ALWAYS_FAILS:
        line = say("The roll stands at {first} + {second} = {total} against a pool of {pool} (11 and 12 always fail): it fails, and {holder} does not take up '{words}'.", **values)
    else:
        line = say("The roll stands at {first} + {second} = {total} against a pool of {pool}: it fails, and {holder} does not take up '{words}'.", **values)
    return _tell(state, None, "outcome", line, attempt=a, phase="outcome", last_failed=(a.kind, a.key, a.holder_key))


def _play_conclude(state: State, action: Conclude) -> State:
    seat, a = action.seat, state.attempt
    assert seat is not None and a is not None
    name = state.names[seat]
    connected = tuple(s for s in range(state.n) if a.sides[s] == "connect")
    defended = tuple(s for s in range(state.n) if a.sides[s] == "defend")
    state = _narrate(state, action)
    branch = None
    # The sheets change as the lines are told (no line reads them): in one copy, at the end.
    sheets = list(state.sheets)
    next_id = state.next_id
    if a.success:
        branch = action.branch
        assert branch is not None
        sheet = sheets[seat]
        hub = hub_of(branch)
        meme = Meme(
            id=next_id,
            text=a.text,
            holder=a.holder,
            stones=NEW_MEME_STONES + action.from_hub,
            bonus=BONUS_STONES,
            chapter=state.chapter + 1,
        )
        # `_add_node`, `_set_meme` and the stones gained in one copy of the sheet.
        h = _NODE_INDEX[hub]
        sheet = evolve(
            sheet,
            nodes=_set(sheet.nodes, h, sheet.nodes[h] - action.from_hub),
            branches=_set(sheet.branches, _BRANCH_INDEX[branch], meme),
            gained=sheet.gained + NEW_MEME_STONES,
        )
        sheets[seat] = sheet
        next_id += 1
        values = {"name": name, "meme": _quote(a.text, a.holder), "branch": branch_said(state.setup.layout, branch)}
        if action.from_hub:
            written = say_n(
                "{name} writes {meme} on {branch}, moving {n} stone from {hub} onto it.",
                "{name} writes {meme} on {branch}, moving {n} stones from {hub} onto it.",
                action.from_hub,
                hub=NODE_NAMES[hub],
                **values,
            )
        else:
            written = say("{name} writes {meme} on {branch}.", **values)
        state = _tell(state, seat, "outcome", written)
        if a.target is not None:
            owner = sheets[a.target.seat]
            victim = owner.meme(a.target.branch)
            if victim is not None and victim.id == a.target_id:
                owner = _set_meme(owner, a.target.branch, None)
                owner = _add_node(owner, hub_of(a.target.branch), victim.stones)
                owner = evolve(owner, crossed=owner.crossed + (Crossed(a.target.branch, victim.text, victim.holder, seat, state.chapter + 1),))
                sheets[a.target.seat] = owner
                state = _tell(
                    state,
                    a.target.seat,
                    "outcome",
                    _crossed_off(state.names[a.target.seat], _quote(victim.text, victim.holder), victim.stones, NODE_NAMES[hub_of(a.target.branch)]),
                )
        for s in connected:
            sheets[s] = _gain(sheets[s], ["think"] * CONNECT_REWARD)
        if connected:
            state = _say(state, say("{names} connected: +{stones} stones on Think each.", names=seats_said(state.names, connected), stones=CONNECT_REWARD))
    record = construct(  # `Outcome(...)` without its `__init__` (15 fields)
        Outcome,
        {
            "chapter": state.chapter + 1,
            "actor": seat,
            "kind": a.kind,
            "text": a.text,
            "holder": a.holder,
            "target": a.target,
            "pools": a.pools,
            "pool": a.pool,
            "first_dice": a.first_dice,
            "dice": a.dice,
            "success": bool(a.success),
            "connected": connected,
            "defended": defended,
            "seeds_spent": a.seeds_spent,
            "branch": branch,
        },
    )
    changes = {"sheets": tuple(sheets), "next_id": next_id} if a.success else {}
    state = evolve(state, outcomes=state.outcomes + (record,), attempt=None, phase="turn", **changes)
    full = [s for s, sheet in enumerate(state.sheets) if all(sheet.branches)]  # every branch holds a meme
    if full:
        return _end(state)
    return state


def ending(state: State) -> Said | None:
    """Why the story ended, said in the reader's language (`state.ended` is its English): a
    sheet with every branch filled ends it at once, else the last chapter did."""
    if not state.over:
        return None
    full = [s for s, sheet in enumerate(state.sheets) if all(sheet.branches)]
    if full:
        return say("{names} filled all {count} branches", names=seats_said(state.names, full), count=len(BRANCHES))
    return say("the story's last chapter (Chapter {chapter}) is over", chapter=state.chapter + 1)


def _crossed_off(owner: str, meme: str, stones: int, hub: Said) -> Said:
    """'Cy crosses off 'X - Y'; its 2 stones go to Probe.'"""
    if not stones:
        return say("{owner} crosses off {meme}.", owner=owner, meme=meme)
    return say_n("{owner} crosses off {meme}; its stone goes to {hub}.", "{owner} crosses off {meme}; its {n} stones go to {hub}.", stones, owner=owner, meme=meme, hub=hub)


def _end(state: State) -> State:
    state = evolve(state, phase="over", turn=None, attempt=None)
    why = ending(state)
    assert why is not None
    state = evolve(state, ended=str(why))
    state = _say(state, say("The story ends: {why}.", why=why))
    table = standings(state)
    best = [s for rank, s, _ in table if rank == 1]
    summary = "; ".join(f"{state.names[s]} {score}" for _, s, score in table)
    if len(best) == 1:
        line = say("Final scores: {scores}. {name} wins and announces the moral of the story.", scores=summary, name=state.names[best[0]])
    else:
        line = say("Final scores: {scores}. {names} share the win and announce the moral of the story.", scores=summary, names=seats_said(state.names, best))
    state = _say(state, line)
    return evolve(state, story=state.story + (StoryLine(state.chapter + 1, None, "outcome", state.log[-1].text),))


def _play_unknown(state: State, action: Action) -> State:
    raise RuleError("action", say("Dangerous Ideas has no action {action}", action=type(action).__name__))


#: each action's own rule (`check`) and step (`play`), in the order of a turn.
_RULE_AND_STEP: dict[type[Action], tuple[Callable[[State, Any], None], Callable[[State, Any], State]]] = {
    Place: (_check_place, _play_place),
    Write: (_check_write, _play_write),
    Title: (_check_title, _play_title),
    TurnStones: (_check_turn_stones, _play_turn_stones),
    Gain: (_check_gain, _play_gain),
    Move: (_check_move, _play_move),
    Create: (_check_meme_action, _play_meme_action),
    Spread: (_check_meme_action, _play_meme_action),
    PlotUnfinished: (_check_plot_unfinished, _play_plot_unfinished),
    EndTurn: (_check_end_turn, _play_end_turn),
    Stake: (_check_spend, _play_spend),
    Connect: (_check_spend, _play_spend),
    Defend: (_check_spend, _play_spend),
    Pass: (_check_pass, _play_pass),
    Roll: (_check_roll, _play_roll),
    SpendSeed: (_check_spend_seed, _play_spend_seed),
    Rerolled: (_check_rerolled, _play_rerolled),
    Conclude: (_check_conclude, _play_conclude),
}
_UNKNOWN = (_check_unknown, _play_unknown)


def _inherited(action: Action) -> tuple[Callable[[State, Any], None], Callable[[State, Any], State]]:
    """The rule and step of the first of the game's actions `action` is made from (its own
    class having none)."""
    return next((entry for cls, entry in _RULE_AND_STEP.items() if isinstance(action, cls)), _UNKNOWN)


def chance(state: State, rng: random.Random) -> Action | None:
    """The dice the game rolls now (the 2d6, or a seed's re-roll), or None: nothing to roll,
    or the table rolls its own."""
    phase = state.phase
    if phase != "roll" and phase != "rerolling":
        return None
    if state.setup.table_dice:
        return None  # the table rolls: the game waits for the dice to be entered (`by_hand`)
    if phase == "roll":
        return Roll(dice=(rng.randint(1, 6), rng.randint(1, 6)))
    if state.attempt is not None and state.attempt.rerolling is not None:
        return Rerolled(die=state.attempt.rerolling, value=rng.randint(1, 6))
    return None


def by_hand(state: State, action: Action) -> bool:
    """With table dice, the 2d6 and the seed re-rolls are rolled at the table and entered."""
    return state.setup.table_dice and isinstance(action, (Roll, Rerolled))


def hides(state: State, action: Action) -> bool:
    """Nothing is hidden in Dangerous Ideas; only the dice (chance) cannot be taken back."""
    return action.chance


# -- score ----------------------------------------------------------------------------------------


_TEXT = attrgetter("text")


def sheet_score(sheet: Sheet) -> int:
    """Group memes by text: a group of 1 scores 4, a group of k >= 2 scores 4 + k."""
    return _score_of(tuple(map(_TEXT, filter(None, sheet.branches))))  # the memes' texts, read in C


@lru_cache(maxsize=4096)
def _score_of(texts: tuple[str, ...]) -> int:
    # Every view and every standing asks for the scores; the memes on a sheet change rarely.
    groups = Counter(meme_key(text) for text in texts)
    return sum(UNIQUE_POINTS if k == 1 else UNIQUE_POINTS + k for k in groups.values())


def scores(state: State) -> tuple[int, ...]:
    return tuple(sheet_score(s) for s in state.sheets)


def tiebreaks(state: State) -> tuple[int, ...]:
    """Own stones on the sheet plus unspent seeds."""
    return tuple(s.stones + s.seeds for s in state.sheets)


def standings(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, score), best first; ties broken by stones + seeds, then shared."""
    points, ties = scores(state), tiebreaks(state)
    return ranked(points, lambda seat: (-points[seat], -ties[seat]))


# -- the story ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """One chapter of the transcript (the setting round is chapter 0)."""

    chapter: int
    heading: str
    lines: tuple[str, ...]


def transcript(state: State, said: Callable[[Said | str], str] = str) -> list[Passage]:
    """The story so far: chapter titles, narrations and outcomes, grouped by chapter; `said`
    says the playbook's own lines and headings (in English by default, a page passes its
    language's `i18n.render`); narrations and titles stay as typed."""
    grouped: dict[int, list[str]] = {0: []}
    for line in state.story:
        lines = grouped.setdefault(line.chapter, [])
        if line.kind == "title":
            continue
        if line.kind == "narration" and line.seat is not None:
            lines.append(f"{state.names[line.seat]}: {line.text}")
        else:
            lines.append(said(line.text))
    passages = []
    for k in sorted(grouped):
        if k == 0:
            heading = said(say("The setting"))
        else:
            title = state.titles[k - 1] if k - 1 < len(state.titles) else ""
            heading = said(say("Chapter {chapter}: {title}", chapter=k, title=title) if title else say("Chapter {chapter}", chapter=k))
        passages.append(Passage(k, heading, tuple(grouped[k])))
    return passages


def transcript_text(state: State) -> str:
    """The transcript as plain text, a heading and its lines per chapter."""
    blocks = []
    for p in transcript(state):
        blocks.append("\n".join([p.heading, *(f"  {line}" for line in p.lines)]))
    return "\n\n".join(blocks)


# -- the decisions, for the debrief ------------------------------------------------------------


def _where(state: State, seat: int, place: str) -> Words:
    return place_said(state.setup.layout, state.sheets[seat], place)


def _places(state: State, seat: int, places: Sequence[str]) -> Words:
    return _describe_places(state.setup.layout, state.sheets[seat], places)


def _spend_said(before: State, seat: int, action: Spend) -> Said:
    a = before.attempt
    node = role_node(a, action.role) if a is not None else "node"
    parts: list[Words] = []
    if action.from_node:
        # TRANSLATORS: stones spent from a place of the sheet, in a debrief's row ("2 from Probe").
        parts.append(say("{n} from {place}", n=action.from_node, place=NODE_NAMES.get(node, node.title())))
    if action.from_think:
        parts.append(say("{n} from {place}", n=action.from_think, place=NODE_NAMES["think"]))
    for use in action.memes:
        meme = before.sheets[seat].meme(use.branch)
        label = _quote(meme.text, meme.holder) if meme is not None else use.branch
        parts.append(say("{n} from {place}", n=use.bonus + use.stones, place=label))
    what = commas(parts) if parts else say("nothing")
    if action.kind == "stake":
        return say("stakes {what}", what=what)
    if action.kind == "connect":
        return say("connects {what}", what=what)
    return say("defends {what}", what=what)


def decisions(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Every decision of `game`: stones placed and moved, memes written, created and spread,
    stakes, connections and defences, seeds spent, chapters titled. Nothing is secret in
    Dangerous Ideas, so `reveal` changes nothing. Narration is in the outcome (the story).
    `reveal_pledges` is for games whose seats give a secret amount; this one has none.
    `render` says the rows (`rules.decisions.collect`).
    """

    def move(before: State, action: Action, after: State, final: State, revealing: bool) -> Made | None:
        seat = action.seat
        if action.chance or seat is None:
            return None  # the dice: their lines join the decision before
        step = say("Chapter {n}", n=before.chapter + 1) if before.chapter >= 0 else say("Setting")
        who = before.names[seat]
        amount: int | None = None
        amount_is: Words = ""
        if isinstance(action, (Place, TurnStones, Gain)):
            amount, amount_is = len(action.place), say("stones placed")
        elif isinstance(action, Move):
            amount, amount_is = sum(s.stones for s in action.steps), say("stones moved")
        text: Words
        if isinstance(action, Place):
            text = say("places the starting stones: {places}", places=_places(before, seat, action.place))
        elif isinstance(action, Write):
            text = say("writes {meme} on {place}", meme=_quote(clean(action.text), clean(action.holder)), place=_where(before, seat, action.branch))
        elif isinstance(action, Title):
            text = say("titles the chapter: {title}", title=clean(action.title))
        elif isinstance(action, TurnStones):
            text = say("places the turn's stones: {places}", places=_places(before, seat, action.place))
        elif isinstance(action, Gain):
            text = say("gains 3 stones: {places}", places=_places(before, seat, action.place))
        elif isinstance(action, Move):
            # TRANSLATORS: stones moved on a sheet, in a debrief's row ("2 from Think to Probe").
            moves = [say("{n} from {source} to {target}", n=s.stones, source=_where(before, seat, s.source), target=_where(before, seat, s.target)) for s in action.steps]
            text = say("moves stones: {moves}", moves=commas(moves))
        elif isinstance(action, (Create, Spread)):
            meme = _quote(clean(action.text), clean(action.holder))
            victim = before.sheets[action.target.seat].meme(action.target.branch) if action.target is not None else None
            if action.target is not None and victim is not None:
                owner, replaced = before.names[action.target.seat], _quote(victim.text, victim.holder)
                if isinstance(action, Create):
                    text = say("creates {meme}, replacing {name}'s {victim}", meme=meme, name=owner, victim=replaced)
                else:
                    text = say("spreads {meme}, replacing {name}'s {victim}", meme=meme, name=owner, victim=replaced)
            else:
                text = say("creates {meme}", meme=meme) if isinstance(action, Create) else say("spreads {meme}", meme=meme)
        elif isinstance(action, PlotUnfinished):
            text = say("declares the plot unfinished")
        elif isinstance(action, EndTurn):
            text = say("ends the turn")
        elif isinstance(action, Spend):
            text = _spend_said(before, seat, action)
        elif isinstance(action, Pass):
            text = say("passes")
        elif isinstance(action, SpendSeed):
            text = say("spends a red seed to re-roll die {n}", n=action.die + 1)
        elif isinstance(action, Conclude):
            if action.branch and action.from_hub:
                place, hub = _where(before, seat, action.branch), NODE_NAMES[hub_of(action.branch)]
                text = say("concludes: the meme goes on {place}, with {n} more from {hub}", place=place, n=action.from_hub, hub=hub)
            elif action.branch:
                text = say("concludes: the meme goes on {place}", place=_where(before, seat, action.branch))
            else:
                text = say("concludes the meme action")
        else:
            return None
        return Made(step, seat, who, text, amount=amount, amount_is=amount_is)

    return collect(game, move, reveal=reveal, render=render)


# -- what each seat sees ------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """What a seat sees. Nothing in Dangerous Ideas is hidden: every seat gets the same."""

    seat: int | None
    phase: Phase
    chapter: int
    chapters: int
    title: str
    starter: int | None
    turn: int | None
    actions_left: int
    sheets: tuple[Sheet, ...]
    attempt: Attempt | None
    #: the actor's chance of success now, spending their own seeds wisely.
    odds: Fraction | None
    waiting_for: tuple[int, ...]
    scores: tuple[int, ...]
    log: tuple[str | Said, ...]
    ended: str
    standings: tuple[tuple[int, int, int], ...] = field(default=())
    #: `ended` as a message, said in the reader's language.
    ending: Said | None = None


def view_for(state: State, seat: int | None) -> View:
    """Everything, for any seat: stones, memes, stakes and dice are public in this game."""
    a = state.attempt
    odds = None
    if a is not None and state.phase in ("stake", "respond", "roll"):
        odds = success_chance(a.pool, state.sheets[a.actor].seeds)
    return View(
        seat=seat,
        phase=state.phase,
        chapter=state.chapter + 1,
        chapters=state.setup.chapter_count,
        title=state.title,
        starter=state.starter,
        turn=state.turn,
        actions_left=state.actions_left,
        sheets=state.sheets,
        attempt=a,
        odds=odds,
        waiting_for=state.waiting_for(),
        scores=scores(state),
        log=tuple(e.text for e in state.log if e.visible(seat)),
        ended=state.ended,
        standings=tuple(standings(state)),
        ending=ending(state),
    )


# -- exact odds -----------------------------------------------------------------------------------

_FACES = range(1, 7)


def _clamp_pool(pool: int) -> int:
    return max(0, min(pool, ALWAYS_FAILS - 1))


# The chances below are counted in sixths to the power of the seeds left (whole numbers: exact,
# and far quicker than adding and comparing Fractions); the public functions give Fractions.


@cache
def _after(pool: int, a: int, b: int, seeds: int) -> int:
    """Chance of success from dice (a, b) with `seeds` left, re-rolling wisely, in
    `6 ** seeds`-ths."""
    if wins(pool, a + b):
        every: int = 6**seeds  # however the seeds left fall
        return every
    if seeds <= 0:
        return 0
    return max(_reroll(pool, a, b, 0, seeds), _reroll(pool, a, b, 1, seeds))


@cache
def _reroll(pool: int, a: int, b: int, die: int, seeds: int) -> int:
    """Chance of success when die `die` of (a, b) is re-rolled now (using one of `seeds`), in
    `6 ** seeds`-ths: the six faces' chances with a seed fewer, in `6 ** (seeds - 1)`-ths, added."""
    if die == 0:
        return sum(_after(pool, v, b, seeds - 1) for v in _FACES)
    return sum(_after(pool, a, v, seeds - 1) for v in _FACES)


def _check_odds_args(pool: int, seeds: int) -> None:
    _require(_is_int(pool), "odds", say("the pool is a whole number of stones"))
    _require(_is_int(seeds) and 0 <= seeds <= 50, "odds", say("seeds are a whole number from 0 to 50"))


@cache
def success_chance(pool: int, seeds: int = 0) -> Fraction:
    """Exact chance a meme action succeeds against `pool` when the actor spends up to `seeds`
    red seeds wisely (each re-rolls one die of their choice, only while the roll fails).

    Other players' seeds are not counted: they could re-roll a success away.
    """
    _check_odds_args(pool, seeds)
    p = _clamp_pool(pool)
    return Fraction(sum(_after(p, a, b, seeds) for a in _FACES for b in _FACES), 36 * 6**seeds)


def seed_advice(pool: int, dice: tuple[int, int], seeds: int) -> tuple[int | None, Fraction, Fraction]:
    """(die to re-roll or None, chance if that die is re-rolled, chance if the roll stands).

    The re-roll chance assumes the actor goes on spending the other `seeds - 1` wisely. The
    die is None when standing is at least as good (the roll already succeeds) or no seed is
    left; with no seed the re-roll chance is the standing chance.
    """
    if type(pool) is int and type(seeds) is int and type(dice) is tuple and len(dice) == 2 and type(dice[0]) is int and type(dice[1]) is int:
        return _seed_advice(pool, dice, seeds)
    return _seed_advice.__wrapped__(pool, dice, seeds)


@lru_cache(maxsize=4096)
def _seed_advice(pool: int, dice: tuple[int, int], seeds: int) -> tuple[int | None, Fraction, Fraction]:
    # Asked at every re-roll; Fractions are slow to compare, and the answers few.
    _check_odds_args(pool, seeds)
    a, b = dice
    _require(_is_int(a) and _is_int(b) and 1 <= a <= 6 and 1 <= b <= 6, "odds", say("two dice of 1-6"))
    p = _clamp_pool(pool)
    stands = Fraction(1 if wins(p, a + b) else 0)
    if seeds <= 0:
        return None, stands, stands
    first, second = _reroll(p, a, b, 0, seeds), _reroll(p, a, b, 1, seeds)
    die, most = (0, first) if first >= second else (1, second)
    best = Fraction(most, 6**seeds)
    return (die if best > stands else None), best, stands


def odds_report(pool: int, seeds: int = 0) -> dict[str, Any]:
    """The numbers behind `playbook odds dangerous-ideas` as plain JSON-ready data."""
    by_seeds = {}
    for s in range(seeds + 1):
        chance_ = success_chance(pool, s)
        by_seeds[str(s)] = {"fraction": f"{chance_.numerator}/{chance_.denominator}", "probability": float(chance_)}
    best = success_chance(pool, seeds)
    return {
        "game": "dangerous-ideas",
        "pool": pool,
        "seeds": seeds,
        "success": {"fraction": f"{best.numerator}/{best.denominator}", "probability": float(best)},
        "by_seeds_spent_at_most": by_seeds,
        "note": "2d6 at or under the pool succeeds, 11 and 12 always fail; only the actor's seeds are counted.",
    }


# -- the Rules object ---------------------------------------------------------------------------


def timeout_move(state: State, seat: int) -> Action | None:
    """The move a player's timer makes when it runs out (docs/rules/dangerous-ideas.md): on
    their turn they end it; staking, responding or re-rolling they pass. None for the moves
    nobody can make for a player (placing stones, writing a meme, a title): the fill bot makes
    those."""
    if seat not in state.waiting_for():
        return None
    if state.phase == "turn":
        return EndTurn(seat=seat)
    if state.phase in ("stake", "respond", "reroll"):
        return Pass(seat=seat)
    return None


RULES = GameRules.of(globals(), CARD)


# -- the text's examples, replayed by the rules ---------------------------------------------------


@dataclass(frozen=True)
class Example:
    """A scripted stretch of play: the record (setup + actions, chance included) and states.

    `Game(RULES, example.setup, seed, list(example.actions))` replays it exactly.
    """

    setup: Setup
    actions: tuple[Action, ...]
    #: (label, state after that step) for the steps worth showing; a label is a message (the
    #: reference panel says it in the page's language).
    steps: tuple[tuple[Said, State], ...]
    state: State
    #: the pool after each labelled step (bears' example only).
    pools: tuple[int, ...] = ()


class _Script:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.state = initial(setup)
        self.actions: list[Action] = []
        self.steps: list[tuple[Said, State]] = []
        self.pools: list[int] = []

    def do(self, *actions: Action) -> State:
        for action in actions:
            check(self.state, action)
            self.state = play(self.state, action)
            self.actions.append(action)
        return self.state

    def mark(self, label: Said, pool: bool = False) -> None:
        self.steps.append((label, self.state))
        if pool and self.state.attempt is not None:
            self.pools.append(self.state.attempt.pool)

    def everyone_passes(self) -> None:
        phase = self.state.phase
        while self.state.phase == phase and self.state.waiting_for():
            self.do(Pass(seat=self.state.waiting_for()[0]))

    def meme_action(self, announce: Action, stake: Stake, dice: tuple[int, int], branch: str | None) -> None:
        """A quick scripted meme action: stake, nobody responds, forced dice, nobody re-rolls."""
        actor = announce.seat
        self.do(announce, stake, Pass(seat=actor))
        self.everyone_passes()
        self.do(Roll(dice=dice))
        self.everyone_passes()
        self.do(Conclude(seat=actor, branch=branch))

    def example(self) -> Example:
        return Example(self.setup, tuple(self.actions), tuple(self.steps), self.state, tuple(self.pools))


GOLDILOCKS = ("Manifest Destiny", "Vegetarianism", "German Efficiency")
MD, VEG, GE = 0, 1, 2

_SETTING = (
    (MD, "connect-1", "Humans will one day own the forest", "Goldilocks",
     "Once upon a time there was a little girl named Goldilocks. Goldilocks knew that one day she and her family would own all of the dark forest that grew next to their cottage at the edge of the field."),
    (MD, "probe-1", "The woods could use some good telegraph wires", "Goldilocks",
     "She would often wander through the woods, imagining in her head where the new telegraph wires would go."),
    (VEG, "connect-1", "Porridge for breakfast is healthy", "Mama Bear",
     "In the forest lived three bears: Papa Bear, Mama Bear, and Baby Bear. Mama Bear always served her family porridge for breakfast, and never animal products like bacon and eggs."),
    (VEG, "defend-1", "Bears are friends, not food", "Goldilocks",
     "Goldilocks had seen the bears in the forest before, and had convinced her father not to hunt them, because she knew that bears are just like people."),
    (GE, "probe-1", "Punctual exercise is an important part of the day", "Papa Bear",
     "Papa Bear knew that exercise was healthy, so every day at exactly 9:00 in the morning, he would gather his family together and they would go for a walk."),
    (GE, "connect-1", "Everything has its place", "Baby Bear",
     "Baby Bear's job was to keep their house clean, and always knew exactly where everything was."),
)  # fmt: skip

#: starting stones: chosen so the bears' sidebar finds the stones it describes.
_GOLDILOCKS_STONES = {
    MD: ("think",) * 4 + ("create",) + ("connect",) * 2,
    VEG: ("think",) * 3 + ("create",) * 4,
    GE: ("think",) * 5 + ("defend",) + ("create",),
}


def _goldilocks_script() -> _Script:
    # The text's dice were rolled at the table: its example is a table-dice game.
    script = _Script(Setup(names=GOLDILOCKS, table_dice=True))
    for seat in (MD, VEG, GE):
        script.do(Place(seat=seat, place=_GOLDILOCKS_STONES[seat]))
    for seat, branch, text, holder, narration in _SETTING:
        script.do(Write(seat=seat, branch=branch, text=text, holder=holder, narration=narration))
        # TRANSLATORS: a step of the text's example: {name} (a philosophy) writes {meme}, the designers' words, in English.
        script.mark(say("{name} writes '{meme}'", name=GOLDILOCKS[seat], meme=f"{text} - {holder}"))
    return script


def goldilocks_setup() -> Example:
    """The setting-round sidebar: Goldilocks and the Three Bears, three players, six memes."""
    return _goldilocks_script().example()


def bears_example() -> Example:
    """The bears' sidebars replayed by the rules: the pool goes 10, 8, 6, 4, 6; the roll 4 + 6,
    the 6 re-rolled with a seed to 4, and 8 fails against 6.

    (The text says 6 where German Efficiency's leaf meme brings the pool to 4, then 8 after
    Vegetarianism connects, and has the 8 succeed. See docs/rules/dangerous-ideas.md.)

    Chapter 1 is an invented prelude in which Vegetarianism, German Efficiency and Manifest
    Destiny create the memes the sidebar needs; Chapter 2's title is the sidebar's, and German
    Efficiency uses his 'punctual exercise' bonus once on his own turn before the sidebar.
    """
    s = _goldilocks_script()
    s.do(Title(seat=MD, title="In Which Goldilocks Wanders Into The Woods"))
    # Chapter 1 (Vegetarianism, German Efficiency, then the starter): three memes the sidebar uses.
    prelude = (
        (VEG, "Treat all living things with respect", "Baby Bear", "create-2"),
        (GE, "Try everything once", "Goldilocks", "defend-1"),
        (MD, "Important decisions should be made through democracy", "Mama Bear", "create-1"),
    )
    for seat, text, holder, branch in prelude:
        s.do(TurnStones(seat=seat, place=("create", "create")))
        s.meme_action(Create(seat=seat, text=text, holder=holder), Stake(seat=seat, from_node=2), (1, 1), branch)
        s.do(EndTurn(seat=seat))
    s.do(Title(seat=VEG, title="In Which The Bears Return To Find Their Porridge Eaten"))
    # German Efficiency's turn: his 'punctual exercise' meme gives a bonus stone to a spread that fails.
    s.do(TurnStones(seat=GE, place=("probe", "probe")))
    s.meme_action(
        Spread(seat=GE, text="Punctual exercise is an important part of the day", holder="Baby Bear"),
        Stake(seat=GE, from_node=1, memes=(Use("probe-1", bonus=1),)),
        (6, 6),
        None,
    )
    s.do(EndTurn(seat=GE))
    # The sidebar: Manifest Destiny's turn.
    s.do(TurnStones(seat=MD, place=("probe", "probe")))
    s.do(Move(seat=MD, steps=(Step("think", "probe", 4), Step("connect", "think", 2), Step("create", "create-1", 1))))
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, Manifest Destiny (she).
    s.mark(say("{name} moves her stones", name=GOLDILOCKS[MD]))
    s.do(
        Spread(
            seat=MD,
            text="Important decisions should be made through democracy",
            holder="Papa Bear",
            target=Ref(GE, "probe-1"),
        ),
        Stake(
            seat=MD,
            from_node=6,
            from_think=2,
            narration="When the three bears returned to their house, Papa Bear saw immediately that something was wrong. He stood in the doorway to their house, ready to make an autocratic announcement, when he paused. Perhaps the whole family should be involved? 'Gracious,' Papa Bear thought to himself. 'If this sort of thing can happen when we're away, perhaps getting exercise isn't as important as I supposed!'",
        ),
        Stake(
            seat=MD,
            memes=(Use("create-1", bonus=1, stones=1),),
            narration="Mama Bear brushed past him into the house. Seeing the state of things and the look on Papa Bear's face, she declared, 'Something here is wrong. The best way to find out quickly will be if we all participate equally, and discuss things together before making hasty decisions. Papa Bear, what do you see?'",
        ),
        Pass(seat=MD),
    )
    # TRANSLATORS: a step of the text's example (a meme action's phase 1); {name} is a philosophy, Manifest Destiny.
    s.mark(say("Phase 1: {name}'s pool", name=GOLDILOCKS[MD]), pool=True)
    s.do(
        Defend(
            seat=GE,
            memes=(Use("probe-1", bonus=1),),
            narration="Papa Bear shook his head and flexed his muscles. 'Surely,' he thought, 'my exercise will have prepared me for this incursion, whatever it turns out to be.'",
        )
    )
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, German Efficiency (he).
    s.mark(say("{name} spends the target's bonus stone (it counts double)", name=GOLDILOCKS[GE]), pool=True)
    s.do(
        Defend(
            seat=GE,
            from_node=1,
            from_think=1,
            narration="Papa Bear grumbled at Mama Bear's suggestion. 'What I see is that someone has broken into our house, and has been eating from my bowl! We can all participate, but I should be the one to tell people what to do. The culprit could be escaping while we dither and discuss!'",
        )
    )
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, German Efficiency (he).
    s.mark(say("{name} spends 1 from Defend and 1 from Think", name=GOLDILOCKS[GE]), pool=True)
    s.do(
        Defend(
            seat=GE,
            memes=(Use("defend-1", bonus=1, stones=1),),
            narration="Papa bear surveyed the house, mumbling to himself. He could clearly see that each of their bowls of porridge had been sampled, and could see disturbed furniture in the next room. Surely he could see how best to deal with the incursion, without having to discuss everything with his family ad nauseum first!",
        )
    )
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, German Efficiency (he); "the text" is the game's rules text.
    s.mark(say("{name} spends his leaf meme's bonus and own stone (the text says {pool})", name=GOLDILOCKS[GE], pool=6), pool=True)
    s.do(
        Connect(
            seat=VEG,
            memes=(Use("connect-1", bonus=1), Use("create-2", bonus=1)),
            narration="'Well, someone has been eating from my bowl, too, which shows that whoever it is at least knows the value of a good meal. You're being too harsh, Papa Bear--you clearly need my input to better see the big picture.' Then Baby Bear piped up, 'Someone's been eating from my bowl, and has eaten it all up! Whoever it is must be starving! Please, Papa Bear, can't we try to help?'",
        )
    )
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, Vegetarianism; "the text" is the game's rules text.
    s.mark(say("{name} connects with two bonus stones (the text says {pool})", name=GOLDILOCKS[VEG], pool=8), pool=True)
    s.everyone_passes()
    s.do(Roll(dice=(4, 6)))
    # TRANSLATORS: a step of the text's example; {name} is a philosophy, Manifest Destiny.
    s.mark(say("{name} rolls {first} and {second}", name=GOLDILOCKS[MD], first=4, second=6))
    s.do(SpendSeed(seat=MD, die=1), Rerolled(die=1, value=4))
    # TRANSLATORS: a step of the text's example: a red seed re-rolls the die showing {die}, which comes up {value}.
    s.mark(say("A seed re-rolls the {die}: another {value}", die=6, value=4))
    s.everyone_passes()
    s.do(
        Conclude(
            seat=MD,
            narration="Papa Bear shook his head. 'I hear you both,' he sighed, 'but someone has to lead this family, and today it will be me.'",
        )
    )
    # TRANSLATORS: the last step of the text's example: the dice's total {total} is over the pool, so spreading the meme fails.
    s.mark(say("The roll of {total} stands against a pool of {pool}: the spread fails", total=8, pool=6))
    return s.example()
