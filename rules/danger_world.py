"""Danger World: a GM, player characters, pools of d6 and sets. Text `seeds/danger-world.txt`.

A check: the player and the GM agree on two stats and a difficulty (2-6, moved by modifiers);
the two stats' dice, bonus dice (aspects invoked with story points, one-time pools won
earlier) and up to zone-rank danger dice make the pool; Bashed boxes, complications and GM
compels add penalty dice. Everything is rolled; then up to two rounds of: lock any unlocked
pool dice (for good), re-roll the rest. The player takes at most one set (h dice showing h,
less the penalty dice showing h): at least the difficulty succeeds, higher adds bonus dice,
lower may be taken as a partial success. Every 1 left showing is a botch the GM spends on
danger, setbacks and hits on the damage track.

The GM does not roll dice and nothing at the table is secret: every view shows everything.

Choices made where RULINGS.md is silent (also in docs/rules/danger-world.md):
- Seats 0..n-1 are the players (seat i plays character i); the GM sits at seat n, and seat
  None also acts as the GM. A character's player or the GM may act for that character.
- A check uses two different stats.
- Story points: invocations are paid from the SP the player held before the check, compels
  from the pool as it stood before the check (SP received in a check are not recycled in it).
- A one-time bonus pool is used whole. An aid check declares a difficulty for the record but
  its only outcome is the aided character's bonus pool (the set height).
- A partial success is taken by choosing the lower set; choosing no set declines it.
- An Injured box lowers one of the eight stats chosen uniformly by the seeded generator; a
  stat already at 1 stays at 1.
- A K.O.'d character cannot act until the encounter ends; the K.O.'d box itself is cleared by
  a long rest. Dead is permanent in the model.
- Rests and new sessions end the running encounter first; the whole party rests together.
- A hit on a dead character is refused; a hit in a botch spending on a character an earlier
  option of the same spending killed is wasted.
- The GM option "a penalty die on a challenge" waits on the character (`Character.challenge`)
  and is rolled with its next check, aid checks included; the table sees it beforehand and may
  remove it then (`BeginCheck.waive`). Either way it is gone after that check begins.
- Locks are made only while a re-roll remains; `Unlock` exists only to be refused.
- The game is over when every character is dead.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate, product
from math import comb, factorial
from operator import mul
from typing import Any, ClassVar, Literal

from .core import Action, Event, GameRules, RuleError, check_names, seats_text
from .decisions import Decision, Game, Made, Render, Words, collect, commas
from .games import card
from .text import Said, listed, say, say_n

__all__ = [
    "ACCOMPLISHMENT",
    "ACTIONS",
    "ASPECTS",
    "BOXES",
    "DIFFICULTY_MAX",
    "DIFFICULTY_MIN",
    "GM_OPTIONS",
    "GM_OPTION_TEXT",
    "HITS",
    "LEVELS_PER_ZONE",
    "MAX_ZONE",
    "MENTAL",
    "ODDS_LIMITS",
    "PHYSICAL",
    "READY_SHEETS",
    "RULES",
    "STATS",
    "STAT_MAX",
    "STAT_MIN",
    "TRACK",
    "ApplyHit",
    "BeginCheck",
    "BonusPool",
    "Character",
    "CharacterView",
    "Check",
    "CheckResult",
    "ChooseSet",
    "Compel",
    "CreateCharacter",
    "EndEncounter",
    "GmOption",
    "InjuryStat",
    "Invocation",
    "Lock",
    "LongRest",
    "NewSession",
    "PolicyRun",
    "ReadySheet",
    "Reroll",
    "Rerolled",
    "Roll",
    "SetAspects",
    "SetStats",
    "SetUse",
    "Setup",
    "ShortRest",
    "SpendBotches",
    "State",
    "Unlock",
    "View",
    "best_locks",
    "chance",
    "check",
    "coach",
    "count_botches",
    "decisions",
    "difficulty_after",
    "fit_stats",
    "hides",
    "initial",
    "odds_report",
    "play",
    "quick_sheet",
    "scores",
    "set_heights",
    "set_use",
    "simulate_policy",
    "standings",
    "success_chance",
    "track_after_hit",
    "view_for",
    "worked_example",
    "zone_rank",
]

#: What the game is: its name, who plays it and what it calls them (`rules.games`).
CARD = card("danger-world")

# -- constants ---------------------------------------------------------------------------------

STATS: tuple[str, ...] = ("agility", "endurance", "speed", "strength", "perception", "reasoning", "charisma", "cool")
#: the stats as a page names them (the ids above stay in actions and saves).
STAT_NAMES: Mapping[str, Said] = {
    "agility": say("Agility"),
    "endurance": say("Endurance"),
    "speed": say("Speed"),
    "strength": say("Strength"),
    "perception": say("Perception"),
    "reasoning": say("Reasoning"),
    "charisma": say("Charisma"),
    "cool": say("Cool"),
}
PHYSICAL: tuple[str, ...] = STATS[:4]
MENTAL: tuple[str, ...] = STATS[4:]
STAT_MIN, STAT_MAX = 1, 4
SHEET_DICE = 16
ASPECTS = 3
ASPECT_LENGTH = 80
#: the damage track, left to right: (section, boxes). Section i is danger zone i + 1.
TRACK: tuple[tuple[str, int], ...] = (("Bashed", 3), ("Stunned", 3), ("Injured", 3), ("K.O.'d", 1), ("Dead", 1))
BOXES: tuple[int, ...] = tuple(n for _, n in TRACK)
#: the track's sections as a page names them, in TRACK order.
SECTION_NAMES: tuple[Said, ...] = (say("Bashed"), say("Stunned"), say("Injured"), say("K.O.'d"), say("Dead"))
BASHED, STUNNED, INJURED, KO, DEAD = range(5)
LEVELS_PER_ZONE = 5
MAX_ZONE = 5
DIFFICULTY_MIN, DIFFICULTY_MAX = 2, 6
HEIGHTS = range(2, 7)
HITS: tuple[str, ...] = ("reduced", "full", "overload")
#: what the GM may buy with botches, and the cost of each.
GM_OPTIONS: Mapping[str, int] = {
    "danger": 1,
    "penalty": 1,
    "reduced": 2,
    "minor": 2,
    "meaningful": 3,
    "full": 4,
    "significant": 4,
    "major": 5,
    "overload": 6,
    "huge": 6,
}
#: the GM's options said in the reader's language.
GM_OPTION_SAID: Mapping[str, Said] = {
    "danger": say("danger +1"),
    "penalty": say("a penalty die on a challenge"),
    "reduced": say("a reduced hit"),
    "minor": say("a minor setback"),
    "meaningful": say("a meaningful setback"),
    "full": say("a full hit"),
    "significant": say("a significant setback"),
    "major": say("a major setback"),
    "overload": say("an overload hit"),
    "huge": say("a huge setback"),
}
#: the same options in English.
GM_OPTION_TEXT: Mapping[str, str] = {option: str(said) for option, said in GM_OPTION_SAID.items()}
#: the narrative weight of a set (the text's PC Difficulties table).
ACCOMPLISHMENT: Mapping[int, str] = {2: "minor", 3: "meaningful", 4: "significant", 5: "major", 6: "huge"}
#: "a minor accomplishment", ... said in the reader's language.
ACCOMPLISHMENT_SAID: Mapping[int, Said] = {
    2: say("a minor accomplishment"),
    3: say("a meaningful accomplishment"),
    4: say("a significant accomplishment"),
    5: say("a major accomplishment"),
    6: say("a huge accomplishment"),
}
#: sanity limit on the dice of one check (pool and penalty).
MAX_DICE = 60

Stage = Literal["roll", "lock", "reroll", "gm"]
Phase = Literal["table", "roll", "lock", "reroll", "gm", "injury", "over"]
Outcome = Literal["benefit", "success", "partial", "failure", "aid"]


def zone_rank(level: int) -> int:
    """The danger zone of a danger level: 0-4 zone 1, 5-9 zone 2, ..., 20 and up zone 5."""
    return min(MAX_ZONE, max(0, level) // LEVELS_PER_ZONE + 1)


def difficulty_after(base: int, modifiers: Sequence[int]) -> tuple[int, bool]:
    """(difficulty, flagged): the base moved by the modifiers, clamped to 2-6; flagged when the
    net change is beyond +-1 (allowed, but the text advises against it)."""
    net = sum(modifiers)
    return max(DIFFICULTY_MIN, min(DIFFICULTY_MAX, base + net)), abs(net) > 1


def track_after_hit(damage: Sequence[int], hit: str, zone: int) -> tuple[int, ...]:
    """Filled boxes per section after a hit taken in danger zone `zone`.

    Reduced: the left-most empty box of the whole track. Full: the left-most empty box of the
    zone's section, spilling right while sections are full. Overload: that box and every box of
    every section to its left. A track with no box left to fill is returned unchanged.
    """
    if hit not in HITS:
        raise RuleError("hit", say("{hit} is not a hit; choose one of {hits}", hit=repr(hit), hits=", ".join(HITS)))
    boxes = list(damage)
    start = 0 if hit == "reduced" else max(1, min(MAX_ZONE, zone)) - 1
    for i in range(start, len(BOXES)):
        if boxes[i] < BOXES[i]:
            boxes[i] += 1
            if hit == "overload":
                for j in range(i):
                    boxes[j] = BOXES[j]
            break
    return tuple(boxes)


# -- sets and botches, as plain functions of the dice ------------------------------------------------


@dataclass(frozen=True)
class SetUse:
    """A set the dice allow: its height, and how many normal and danger dice it uses."""

    height: int
    normal: int
    danger: int
    #: pool dice (indices) the set is made of: normal dice first, then danger dice.
    dice: tuple[int, ...]


def _width(faces: Sequence[int], penalty_faces: Sequence[int], height: int) -> int:
    return sum(1 for f in faces if f == height) - sum(1 for f in penalty_faces if f == height)


def set_heights(faces: Sequence[int], penalty_faces: Sequence[int] = ()) -> tuple[int, ...]:
    """Heights h in 2-6 with an available width (pool dice showing h less penalty dice showing h)
    of at least h. Ones never form a set."""
    return tuple(h for h in HEIGHTS if _width(faces, penalty_faces, h) >= h)


def set_use(faces: Sequence[int], normal: int, penalty_faces: Sequence[int], height: int) -> SetUse | None:
    """The set of `height`, if the dice allow one. Pool dice `faces[:normal]` are normal dice,
    the rest danger dice. Penalty dice cancel danger dice before normal dice; the set uses
    normal dice before danger dice."""
    if height not in HEIGHTS or _width(faces, penalty_faces, height) < height:
        return None
    normals = [i for i in range(min(normal, len(faces))) if faces[i] == height]
    dangers = [i for i in range(normal, len(faces)) if faces[i] == height]
    cancel = sum(1 for f in penalty_faces if f == height)
    dangers = dangers[: max(0, len(dangers) - cancel)]
    cancel = max(0, cancel - len([i for i in range(normal, len(faces)) if faces[i] == height]))
    normals = normals[: max(0, len(normals) - cancel)]
    use_normal = min(height, len(normals))
    use_danger = height - use_normal
    return SetUse(height, use_normal, use_danger, tuple(normals[:use_normal] + dangers[:use_danger]))


def count_botches(faces: Sequence[int], penalty_faces: Sequence[int] = ()) -> int:
    """Every die showing 1: pool (normal and danger) and penalty."""
    return sum(1 for f in faces if f == 1) + sum(1 for f in penalty_faces if f == 1)


# -- setup ----------------------------------------------------------------------------------------


#: the GM's name when none is typed: the word, said in each reader's language (`Setup.gm_named`).
DEFAULT_GM = "GM"


@dataclass(frozen=True)
class Setup:
    """The GM, the player characters (one per player) and the variants."""

    #: the player characters' names, one per player seat.
    names: tuple[str, ...]
    #: the GM's name (the GM sits at seat len(names)).
    gm: str = DEFAULT_GM
    #: story points each player starts a session with.
    story_points: int = 3
    #: story points in the general pool at the start of a session.
    pool_start: int = 0
    #: lock-and-re-roll rounds per check.
    rerolls: int = 2
    #: the danger level returns to 0 when an encounter ends.
    danger_resets: bool = True
    #: dice on a character sheet (16 for a new PC: 1 per stat plus 8).
    sheet_dice: int = SHEET_DICE

    @property
    def gm_named(self) -> str | Said:
        """The GM as the table says them: the name typed, or with the default (none typed) the
        word "GM" in the reader's language (English "GM" as ever)."""
        return say("GM") if self.gm == DEFAULT_GM else self.gm

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", check_names(self.names, CARD.players.low, CARD.players.high, CARD.words.players))
        gm = " ".join(str(self.gm).split())
        if not gm or len(gm) > 40:
            raise RuleError("names", say("the GM needs a name of 1-40 characters"))
        object.__setattr__(self, "gm", gm)
        if not 0 <= self.story_points <= 20:
            raise RuleError("setup", say("players start a session with 0-20 story points"))
        if not 0 <= self.pool_start <= 50:
            raise RuleError("setup", say("the general pool starts with 0-50 story points"))
        if not 0 <= self.rerolls <= 5:
            raise RuleError("setup", say("a check allows 0-5 re-rolls"))
        if not len(STATS) * STAT_MIN <= self.sheet_dice <= len(STATS) * STAT_MAX:
            raise RuleError("setup", say("a sheet holds {low}-{high} dice", low=len(STATS) * STAT_MIN, high=len(STATS) * STAT_MAX))

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def gm_seat(self) -> int:
        return len(self.names)


# -- actions ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invocation:
    """The player spends `sp` story points on aspect `aspect` (0-2): as many bonus dice."""

    aspect: int = 0
    sp: int = 1


@dataclass(frozen=True)
class Compel:
    """The GM pays `sp` story points from the pool to invoke aspect `aspect` against the
    character: as many penalty dice."""

    aspect: int = 0
    sp: int = 1


@dataclass(frozen=True)
class GmOption:
    """One thing the GM buys with botches (see GM_OPTIONS); `character` defaults to the actor."""

    option: str = "danger"
    character: int | None = None
    #: the story: what the setback is, which challenge gets the penalty die.
    note: str = ""


@dataclass(frozen=True)
class CreateCharacter(Action):
    """Fill in a character sheet: the eight stats (STATS order) and three aspects."""

    kind: ClassVar[str] = "create-character"
    character: int = 0
    stats: tuple[int, ...] = ()
    aspects: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetStats(Action):
    """Rewrite a sheet's stats (improvement over time; `Setup.sheet_dice` dice in all)."""

    kind: ClassVar[str] = "set-stats"
    character: int = 0
    stats: tuple[int, ...] = ()


@dataclass(frozen=True)
class SetAspects(Action):
    """Rewrite a sheet's three aspects."""

    kind: ClassVar[str] = "set-aspects"
    character: int = 0
    aspects: tuple[str, ...] = ()


@dataclass(frozen=True)
class BeginCheck(Action):
    """Make a check: everything agreed before the roll, story points spent at once."""

    kind: ClassVar[str] = "begin-check"
    character: int = 0
    #: two different stats (names from STATS).
    stats: tuple[str, ...] = ()
    difficulty: int = 2
    #: +1 (harder) or -1 (easier) per modifier of the challenge.
    modifiers: tuple[int, ...] = ()
    invocations: tuple[Invocation, ...] = ()
    compels: tuple[Compel, ...] = ()
    #: the character's one-time bonus pools to use (indices into its `bonus`).
    bonus: tuple[int, ...] = ()
    #: danger dice, 0 up to the character's zone rank.
    danger: int = 0
    #: penalty dice from complications on the challenge.
    complications: int = 0
    #: of the GM's penalty dice waiting on the character (`Character.challenge`), how many the
    #: table removes from this check; the others are rolled with it.
    waive: int = 0
    #: an aid check: the character this check gives bonus dice to.
    aid: int | None = None


@dataclass(frozen=True)
class Roll(Action):
    """Chance: every die of the check, rolled at once."""

    kind: ClassVar[str] = "roll"
    chance: ClassVar[bool] = True
    normal: tuple[int, ...] = ()
    danger: tuple[int, ...] = ()
    penalty: tuple[int, ...] = ()


@dataclass(frozen=True)
class Lock(Action):
    """Lock pool dice (indices; normal dice first, then danger dice). Locks are permanent."""

    kind: ClassVar[str] = "lock"
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Unlock(Action):
    """Always refused: dice once locked may not be unlocked (so a front end can say why)."""

    kind: ClassVar[str] = "unlock"
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reroll(Action):
    """Re-roll every unlocked pool die."""

    kind: ClassVar[str] = "reroll"


@dataclass(frozen=True)
class Rerolled(Action):
    """Chance: the new faces of the unlocked pool dice, in index order."""

    kind: ClassVar[str] = "rerolled"
    chance: ClassVar[bool] = True
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChooseSet(Action):
    """End the rolling: take the set of `height`, or none."""

    kind: ClassVar[str] = "choose-set"
    height: int | None = None


@dataclass(frozen=True)
class SpendBotches(Action):
    """The GM spends the check's botches (costs adding up to at most the botches)."""

    kind: ClassVar[str] = "spend-botches"
    options: tuple[GmOption, ...] = ()


@dataclass(frozen=True)
class ApplyHit(Action):
    """The GM hits a character outside a check: reduced, full or overload."""

    kind: ClassVar[str] = "apply-hit"
    character: int = 0
    hit: str = "reduced"


@dataclass(frozen=True)
class InjuryStat(Action):
    """Chance: the stat a new Injured box lowers."""

    kind: ClassVar[str] = "injury-stat"
    chance: ClassVar[bool] = True
    character: int = 0
    stat: str = "agility"


@dataclass(frozen=True)
class ShortRest(Action):
    """The party rests: Bashed and Stunned clear (the encounter ends first)."""

    kind: ClassVar[str] = "short-rest"


@dataclass(frozen=True)
class LongRest(Action):
    """A long rest: Bashed, Stunned, Injured and K.O.'d clear and stats are restored."""

    kind: ClassVar[str] = "long-rest"


@dataclass(frozen=True)
class EndEncounter(Action):
    """The encounter ends: the K.O.'d wake, danger returns to 0 (variant)."""

    kind: ClassVar[str] = "end-encounter"


@dataclass(frozen=True)
class NewSession(Action):
    """A new session: story points return to their starting values (the encounter ends)."""

    kind: ClassVar[str] = "new-session"


ACTIONS: tuple[type[Action], ...] = (
    CreateCharacter,
    SetStats,
    SetAspects,
    BeginCheck,
    Roll,
    Lock,
    Unlock,
    Reroll,
    Rerolled,
    ChooseSet,
    SpendBotches,
    ApplyHit,
    InjuryStat,
    ShortRest,
    LongRest,
    EndEncounter,
    NewSession,
)
GM_ACTIONS = (SpendBotches, ApplyHit, ShortRest, LongRest, EndEncounter, NewSession)


# -- state ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusPool:
    """One-time bonus dice a character holds until a check uses them."""

    dice: int
    source: str | Said = ""


@dataclass(frozen=True)
class Character:
    name: str
    #: the eight stats as written on the sheet (STATS order); () until the sheet is made.
    stats: tuple[int, ...] = ()
    aspects: tuple[str, ...] = ()
    #: the player's story points.
    sp: int = 0
    danger: int = 0
    #: filled boxes in each section of the track (Bashed, Stunned, Injured, K.O.'d, Dead).
    damage: tuple[int, ...] = (0,) * len(BOXES)
    #: points each stat has lost to injuries (restored by a long rest).
    lowered: tuple[int, ...] = (0,) * len(STATS)
    bonus: tuple[BonusPool, ...] = ()
    #: unconscious until the encounter ends.
    knocked_out: bool = False
    #: penalty dice the GM put on a challenge with botches, added to this character's next check.
    challenge: int = 0

    @property
    def ready(self) -> bool:
        return bool(self.stats) and bool(self.aspects)

    @property
    def dead(self) -> bool:
        return self.damage[DEAD] >= BOXES[DEAD]

    @property
    def zone(self) -> int:
        return zone_rank(self.danger)

    @property
    def effective(self) -> tuple[int, ...]:
        """The stats as they stand: sheet values less injuries, never below 1."""
        if not self.stats:
            return ()
        return tuple(max(STAT_MIN, s - d) for s, d in zip(self.stats, self.lowered))

    def stat(self, name: str) -> int:
        return self.effective[STATS.index(name)]

    @property
    def penalty_dice(self) -> int:
        """Penalty dice from Bashed boxes."""
        return self.damage[BASHED]

    @property
    def lost_dice(self) -> int:
        """Pool dice lost to Stunned boxes."""
        return self.damage[STUNNED]

    @property
    def health(self) -> int:
        """Empty boxes left on the track."""
        return sum(BOXES) - sum(self.damage)


@dataclass(frozen=True)
class CheckResult:
    """A finished check, for the log panel and the printed record."""

    number: int
    actor: int
    stats: tuple[str, ...]
    difficulty: int
    aid: int | None
    faces: tuple[int, ...]
    normal: int
    penalty_faces: tuple[int, ...]
    height: int | None
    outcome: Outcome
    #: one-time bonus dice won (by the actor, or by the aided character).
    bonus_won: int
    danger_raised: int
    botches: int
    rerolls: int
    spent: tuple[GmOption, ...] = ()


@dataclass(frozen=True)
class Check:
    """The check being made."""

    number: int
    actor: int
    stats: tuple[str, ...]
    base_difficulty: int
    modifiers: tuple[int, ...]
    difficulty: int
    #: the net modification is beyond +-1.
    flagged: bool
    aid: int | None
    invoked: int
    compelled: int
    #: pool dice from the stats (after Stunned), from invocations and from bonus pools.
    stat_dice: int
    bonus_dice: int
    danger: int
    penalty: int
    stage: Stage = "roll"
    #: pool dice faces: the normal dice first, then the danger dice.
    faces: tuple[int, ...] = ()
    penalty_faces: tuple[int, ...] = ()
    locked: frozenset[int] = frozenset()
    rerolls: int = 0
    result: CheckResult | None = None

    @property
    def normal(self) -> int:
        return self.stat_dice + self.bonus_dice

    @property
    def pool(self) -> int:
        return self.normal + self.danger

    @property
    def unlocked(self) -> tuple[int, ...]:
        return tuple(i for i in range(self.pool) if i not in self.locked)

    def is_danger(self, die: int) -> bool:
        return die >= self.normal

    @property
    def sets(self) -> tuple[SetUse, ...]:
        """The sets the dice allow now."""
        found = (set_use(self.faces, self.normal, self.penalty_faces, h) for h in HEIGHTS)
        return tuple(s for s in found if s is not None)

    @property
    def botches(self) -> int:
        return count_botches(self.faces, self.penalty_faces)


@dataclass(frozen=True)
class State:
    setup: Setup
    characters: tuple[Character, ...]
    #: the general pool of story points.
    pool: int
    check: Check | None = None
    #: characters waiting for an injury die, one entry per new Injured box.
    pending_injuries: tuple[int, ...] = ()
    encounter: int = 1
    session: int = 1
    #: checks begun so far.
    checks: int = 0
    results: tuple[CheckResult, ...] = ()
    log: tuple[Event, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def gm_seat(self) -> int:
        return self.setup.gm_seat

    @property
    def over(self) -> bool:
        return all(c.dead for c in self.characters)

    @property
    def phase(self) -> Phase:
        if self.over:
            return "over"
        if self.pending_injuries:
            return "injury"
        if self.check is not None:
            return self.check.stage
        return "table"

    def waiting_for(self) -> tuple[int, ...]:
        """The seat whose move the check waits on; outside a check, the players still making
        sheets (an empty tuple: the table is open, anyone may start a check)."""
        phase = self.phase
        if phase == "lock":
            assert self.check is not None
            return (self.check.actor,)
        if phase == "gm":
            return (self.gm_seat,)
        if phase == "table":
            return tuple(i for i, c in enumerate(self.characters) if not c.ready and not c.dead)
        return ()


def _say(state: State, text: str | Said) -> tuple[Event, ...]:
    return state.log + (Event(text, None, state.checks),)


def _require(condition: bool, rule: str, message: str | Said) -> None:
    if not condition:
        raise RuleError(rule, message)


def _with(state: State, index: int, **changes: Any) -> tuple[Character, ...]:
    characters = list(state.characters)
    characters[index] = replace(characters[index], **changes)
    return tuple(characters)


def _dice(faces: Iterable[int]) -> str | Said:
    text = " ".join(str(f) for f in faces)
    return text or say("none")


def _series(items: Sequence[object], semicolons: bool = False) -> object:
    """Items said one after another ("Agility 4, Speed 2"), each in the reader's language."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        if semicolons:
            # TRANSLATORS: two items of a list of dice ("pool 3 5; danger 6"): keep both fields.
            out = say("{item}; {rest}", item=item, rest=out)
        else:
            # TRANSLATORS: two items of a list ("Agility 4, Speed 2"): keep both fields.
            out = say("{item}, {rest}", item=item, rest=out)
    return out


def _sheet(stats: Sequence[int]) -> object:
    # TRANSLATORS: a stat and its dice on a character sheet ("Agility 4").
    return _series([say("{stat} {dice}", stat=STAT_NAMES[n], dice=v) for n, v in zip(STATS, stats)])


# -- the game ------------------------------------------------------------------------------------


def initial(setup: Setup) -> State:
    characters = tuple(Character(name, sp=setup.story_points) for name in setup.names)
    state = State(setup=setup, characters=characters, pool=setup.pool_start)
    cast = seats_text(setup.names, range(setup.players))
    return replace(state, log=_say(state, say("{gm} runs Danger World for {cast}. Session 1, encounter 1.", gm=setup.gm_named, cast=cast)))


def _is_gm(state: State, seat: int | None) -> bool:
    return seat is None or seat == state.gm_seat


def _character(state: State, index: Any, aided: bool = False) -> Character:
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(state.characters):
        return state.characters[index]
    if aided:
        raise RuleError("seat", say("there is no character to aid {index}", index=repr(index)))
    raise RuleError("seat", say("there is no character {index}", index=repr(index)))


def _require_for(state: State, seat: int | None, character: int) -> None:
    """The character's player or the GM may act for a character."""
    _require(
        seat is None or (isinstance(seat, int) and 0 <= seat <= state.gm_seat),
        "seat",
        say("there is no seat {seat}", seat=repr(seat)),
    )
    _require(
        _is_gm(state, seat) or seat == character,
        "seat",
        say("only {name}'s player or the GM acts for {name}", name=state.names[character]),
    )


def _check_stats(state: State, stats: Sequence[int]) -> None:
    _require(len(stats) == len(STATS), "stats", say("a sheet has {count} stats ({stats}), not {given}", count=len(STATS), stats=", ".join(STATS), given=len(stats)))
    for name, value in zip(STATS, stats):
        _require(
            isinstance(value, int) and not isinstance(value, bool) and STAT_MIN <= value <= STAT_MAX,
            "stats",
            say("{stat} is {value}: every stat is {low}-{high} dice", stat=STAT_NAMES[name], value=repr(value), low=STAT_MIN, high=STAT_MAX),
        )
    total, want = sum(stats), state.setup.sheet_dice
    _require(total == want, "sheet", say("the stats add up to {total} dice; a sheet holds {want} ({stats} plus {spread} to spread)", total=total, want=want, stats=len(STATS), spread=want - len(STATS)))


def _clean_aspects(aspects: Sequence[str]) -> tuple[str, ...]:
    return tuple(" ".join(str(a).split()) for a in aspects)


def _check_aspects(aspects: Sequence[str]) -> None:
    cleaned = _clean_aspects(aspects)
    _require(len(cleaned) == ASPECTS, "aspects", say("a character has {count} aspects, not {given}", count=ASPECTS, given=len(cleaned)))
    _require(all(cleaned), "aspects", say("an aspect cannot be empty"))
    _require(all(len(a) <= ASPECT_LENGTH for a in cleaned), "aspects", say("an aspect is at most {n} characters", n=ASPECT_LENGTH))


def _count(value: Any, rule: str, what: Said, low: int = 0, high: int = MAX_DICE) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise RuleError(rule, say("{what} must be a whole number {low}-{high}, not {value}", what=what, low=low, high=high, value=repr(value)))


def _indices(state: State, dice: Sequence[int], pool: int) -> None:
    _require(len(dice) > 0, "dice", say("name at least one die"))
    _require(len(set(dice)) == len(dice), "dice", say("a die is named twice"))
    for d in dice:
        _require(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < pool, "dice", say("there is no pool die {die} (the pool has {pool})", die=repr(d), pool=pool))


def check(state: State, action: Action) -> None:
    """Raise RuleError when `action` is not allowed now; never changes anything."""
    if state.over:
        raise RuleError("game over", say("every character is dead: the game is over"))
    if not isinstance(action, Action) or type(action) not in ACTIONS:
        raise RuleError("action", say("Danger World has no action {action}", action=type(action).__name__))
    if isinstance(action, InjuryStat):
        _require(bool(state.pending_injuries), "turn order", say("no injury waits for its die"))
        _require(action.character == state.pending_injuries[0], "injury", say("the injury die is for {name}", name=state.names[state.pending_injuries[0]]))
        _require(action.stat in STATS, "injury", say("{stat} is not a stat", stat=repr(action.stat)))
        return
    if state.pending_injuries:
        raise RuleError("turn order", say("first roll the injury die for {name}", name=state.names[state.pending_injuries[0]]))
    if isinstance(action, Unlock):
        raise RuleError("locks are permanent", say("dice once locked may not be unlocked"))
    if isinstance(action, GM_ACTIONS):
        _require(_is_gm(state, action.seat), "GM", say("only the GM ({gm}) does that", gm=state.setup.gm_named))
    if isinstance(action, (CreateCharacter, SetStats, SetAspects)):
        character = _character(state, action.character)
        _require_for(state, action.seat, action.character)
        _require(state.check is None, "turn order", say("sheets are not changed during a check"))
        if isinstance(action, CreateCharacter):
            _require(not character.stats and not character.aspects, "sheet", say("{name} already has a sheet; change it with set-stats or set-aspects", name=character.name))
            _check_stats(state, action.stats)
            _check_aspects(action.aspects)
        elif isinstance(action, SetStats):
            _require(not any(character.lowered), "stats", say("{name}'s stats are lowered by injuries: a long rest restores them first", name=character.name))
            _check_stats(state, action.stats)
        else:
            _check_aspects(action.aspects)
        return
    if isinstance(action, BeginCheck):
        _check_begin(state, action)
        return
    if isinstance(action, Roll):
        c = state.check
        _require(c is not None and c.stage == "roll", "turn order", say("no check waits for its roll"))
        assert c is not None
        rolled = (
            (action.normal, c.normal, say("the check rolls {want} normal dice, not {given}", want=c.normal, given=len(action.normal))),
            (action.danger, c.danger, say("the check rolls {want} danger dice, not {given}", want=c.danger, given=len(action.danger))),
            (action.penalty, c.penalty, say("the check rolls {want} penalty dice, not {given}", want=c.penalty, given=len(action.penalty))),
        )
        for faces, want, wrong in rolled:
            _require(len(faces) == want, "dice", wrong)
            _require(all(isinstance(f, int) and 1 <= f <= 6 for f in faces), "dice", say("every die shows 1-6"))
        return
    if isinstance(action, Rerolled):
        c = state.check
        _require(c is not None and c.stage == "reroll", "turn order", say("no re-roll is being made"))
        assert c is not None
        want = len(c.unlocked)
        _require(len(action.faces) == want, "dice", say("the re-roll throws {want} dice, not {given}", want=want, given=len(action.faces)))
        _require(all(isinstance(f, int) and 1 <= f <= 6 for f in action.faces), "dice", say("every die shows 1-6"))
        return
    if isinstance(action, (Lock, Reroll, ChooseSet)):
        c = state.check
        _require(c is not None and c.stage == "lock", "turn order", say("there are no rolled dice to lock, re-roll or read now"))
        assert c is not None
        _require_for(state, action.seat, c.actor)
        left = state.setup.rerolls - c.rerolls
        if isinstance(action, Lock):
            _require(left > 0, "re-rolls", say("no re-roll is left ({n} per check), so there is nothing to lock for", n=state.setup.rerolls))
            _indices(state, action.dice, c.pool)
            already = sorted(d for d in action.dice if d in c.locked)
            _require(not already, "dice", say("die {die} is already locked", die=str(already[0]) if already else ""))
        elif isinstance(action, Reroll):
            _require(left > 0, "re-rolls", say_n("a check allows {n} re-roll; all are used", "a check allows {n} re-rolls; all are used", state.setup.rerolls))
            _require(bool(c.unlocked), "re-rolls", say("every pool die is locked: there is nothing to re-roll"))
        else:
            h = action.height
            if h is not None:
                _require(isinstance(h, int) and not isinstance(h, bool) and h in HEIGHTS, "set", say("a set's height is 2-6, not {height}", height=repr(h)))
                _require(
                    set_use(c.faces, c.normal, c.penalty_faces, h) is not None,
                    "set",
                    say("the dice hold no set of height {height} (it needs {height} dice showing {height} beyond the penalty dice)", height=h),
                )
        return
    if isinstance(action, SpendBotches):
        c = state.check
        _require(c is not None and c.stage == "gm", "turn order", say("there are no botches to spend now"))
        assert c is not None
        cost = 0
        for option in action.options:
            _require(option.option in GM_OPTIONS, "GM options", say("{option} is not a GM option; choose from {options}", option=repr(option.option), options=", ".join(GM_OPTIONS)))
            cost += GM_OPTIONS[option.option]
            target = c.actor if option.character is None else option.character
            who = _character(state, target)
            if option.option in HITS:
                _require(not who.dead, "dead", say("{name} is dead: no hit can land", name=who.name))
                _require(who.ready, "sheet", say("{name} has no finished sheet yet: a hit can injure a stat", name=who.name))
            _require(len(option.note) <= 200, "GM options", say("a note is at most {n} characters", n=200))
        _require(cost <= c.botches, "botches", say_n("those options cost {cost}; the check has {n} botch", "those options cost {cost}; the check has {n} botches", c.botches, cost=cost))
        return
    if isinstance(action, ApplyHit):
        _require(state.check is None, "turn order", say("hits during a check are bought with its botches"))
        who = _character(state, action.character)
        _require(action.hit in HITS, "hit", say("{hit} is not a hit; choose one of {hits}", hit=repr(action.hit), hits=", ".join(HITS)))
        _require(not who.dead, "dead", say("{name} is dead: no hit can land", name=who.name))
        _require(who.ready, "sheet", say("{name} has no finished sheet yet: a hit can injure a stat", name=who.name))
        return
    if isinstance(action, (ShortRest, LongRest, EndEncounter, NewSession)):
        _require(state.check is None, "turn order", say("finish the check first"))
        return
    raise RuleError("action", say("Danger World has no action {action}", action=type(action).__name__))


def _check_begin(state: State, action: BeginCheck) -> None:
    _require(state.check is None, "turn order", say("{name}'s check is not finished", name=state.names[state.check.actor] if state.check else ""))
    actor = _character(state, action.character)
    _require_for(state, action.seat, action.character)
    _require(actor.ready, "sheet", say("{name} has no finished sheet (stats and aspects)", name=actor.name))
    _require(not actor.dead, "dead", say("{name} is dead", name=actor.name))
    _require(not actor.knocked_out, "K.O.'d", say("{name} is K.O.'d and cannot act until the encounter ends", name=actor.name))
    stats = action.stats
    _require(len(stats) == 2 and all(s in STATS for s in stats), "stats", say("a check names two stats from {stats}", stats=", ".join(STATS)))
    _require(stats[0] != stats[1], "stats", say("a check uses two different stats"))
    base = action.difficulty
    _require(isinstance(base, int) and not isinstance(base, bool) and DIFFICULTY_MIN <= base <= DIFFICULTY_MAX, "difficulty", say("a difficulty is {low}-{high}, not {value}", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX, value=repr(base)))
    _require(len(action.modifiers) <= 10, "difficulty", say("at most {n} modifiers", n=10))
    _require(all(m in (1, -1) and not isinstance(m, bool) for m in action.modifiers), "difficulty", say("each modifier is +1 or -1"))
    invoked = 0
    for inv in action.invocations:
        _require(isinstance(inv.aspect, int) and 0 <= inv.aspect < ASPECTS, "aspects", say("there is no aspect {aspect} (0-{last})", aspect=repr(inv.aspect), last=ASPECTS - 1))
        invoked += _count(inv.sp, "story points", say("an invocation"), 1)
    _require(invoked <= actor.sp, "story points", say_n("{name} has {n} story point, not the {invoked} invoked", "{name} has {n} story points, not the {invoked} invoked", actor.sp, name=actor.name, invoked=invoked))
    compelled = 0
    for comp in action.compels:
        _require(isinstance(comp.aspect, int) and 0 <= comp.aspect < ASPECTS, "aspects", say("there is no aspect {aspect} (0-{last})", aspect=repr(comp.aspect), last=ASPECTS - 1))
        compelled += _count(comp.sp, "story points", say("a compel"), 1)
    _require(compelled <= state.pool, "story points", say_n("the general pool holds {n} story point, not the {compelled} compelled", "the general pool holds {n} story points, not the {compelled} compelled", state.pool, compelled=compelled))
    _require(len(set(action.bonus)) == len(action.bonus), "bonus dice", say("a bonus pool is named twice"))
    for i in action.bonus:
        _require(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(actor.bonus), "bonus dice", say("{name} holds no bonus pool {pool}", name=actor.name, pool=repr(i)))
    zone = actor.zone
    danger = _count(action.danger, "danger dice", say("danger dice"), 0, MAX_DICE)
    _require(danger <= zone, "danger dice", say_n("{name} is in danger zone {n}: at most {n} danger die, not {danger}", "{name} is in danger zone {n}: at most {n} danger dice, not {danger}", zone, name=actor.name, danger=danger))
    _count(action.complications, "penalty dice", say("complications"))
    waive = _count(action.waive, "penalty dice", say("penalty dice removed"))
    _require(
        waive <= actor.challenge,
        "penalty dice",
        say_n(
            "the GM put {n} penalty die on {name}'s next check: the table cannot remove {waive}",
            "the GM put {n} penalty dice on {name}'s next check: the table cannot remove {waive}",
            actor.challenge,
            name=actor.name,
            waive=waive,
        ),
    )
    if action.aid is not None:
        aided = _character(state, action.aid, aided=True)
        _require(action.aid != action.character, "aid", say("a character cannot aid itself"))
        _require(not aided.dead, "aid", say("{name} is dead", name=aided.name))
    bonus = sum(actor.bonus[i].dice for i in action.bonus)
    stat_dice = max(0, actor.stat(stats[0]) + actor.stat(stats[1]) - actor.lost_dice)
    total = stat_dice + invoked + bonus + danger + actor.penalty_dice + action.complications + compelled + actor.challenge - waive
    _require(total <= MAX_DICE, "dice", say("a check rolls at most {n} dice", n=MAX_DICE))


def play(state: State, action: Action) -> State:
    """The state after a checked action."""
    if isinstance(action, CreateCharacter):
        i = action.character
        state = replace(state, characters=_with(state, i, stats=tuple(action.stats), aspects=_clean_aspects(action.aspects)))
        c = state.characters[i]
        said = say("{name} joins: {sheet}. Aspects: {aspects}.", name=c.name, sheet=_sheet(c.stats), aspects="; ".join(c.aspects))
        return replace(state, log=_say(state, said))
    if isinstance(action, SetStats):
        i = action.character
        state = replace(state, characters=_with(state, i, stats=tuple(action.stats)))
        return replace(state, log=_say(state, say("{name}'s stats are now {sheet}.", name=state.names[i], sheet=_sheet(action.stats))))
    if isinstance(action, SetAspects):
        i = action.character
        state = replace(state, characters=_with(state, i, aspects=_clean_aspects(action.aspects)))
        aspects = "; ".join(state.characters[i].aspects)
        return replace(state, log=_say(state, say("{name}'s aspects are now {aspects}.", name=state.names[i], aspects=aspects)))
    if isinstance(action, BeginCheck):
        return _begin(state, action)
    if isinstance(action, Roll):
        c = state.check
        assert c is not None
        c = replace(c, stage="lock", faces=tuple(action.normal) + tuple(action.danger), penalty_faces=tuple(action.penalty))
        state = replace(state, check=c)
        parts = [say("pool {dice}", dice=_dice(action.normal))]
        if action.danger:
            parts.append(say("danger {dice}", dice=_dice(action.danger)))
        if action.penalty:
            parts.append(say("penalty {dice}", dice=_dice(action.penalty)))
        said = say("{name} rolls: {dice}. {sets}", name=state.names[c.actor], dice=_series(parts, semicolons=True), sets=_sets_text(c))
        return replace(state, log=_say(state, said))
    if isinstance(action, Lock):
        c = state.check
        assert c is not None
        c = replace(c, locked=c.locked | frozenset(action.dice))
        state = replace(state, check=c)
        shown = " ".join(str(c.faces[d]) for d in sorted(action.dice))
        said = say_n("{name} locks {n} die showing {faces}.", "{name} locks {n} dice showing {faces}.", len(action.dice), name=state.names[c.actor], faces=shown)
        return replace(state, log=_say(state, said))
    if isinstance(action, Reroll):
        c = state.check
        assert c is not None
        return replace(state, check=replace(c, stage="reroll"))
    if isinstance(action, Rerolled):
        c = state.check
        assert c is not None
        faces = list(c.faces)
        for die, face in zip(c.unlocked, action.faces):
            faces[die] = face
        c = replace(c, stage="lock", faces=tuple(faces), rerolls=c.rerolls + 1)
        state = replace(state, check=c)
        said = say(
            "Re-roll {number} of {rerolls}: {dice}; the pool now shows {pool}. {sets}",
            number=c.rerolls,
            rerolls=state.setup.rerolls,
            dice=_dice(action.faces),
            pool=_pool_text(c),
            sets=_sets_text(c),
        )
        return replace(state, log=_say(state, said))
    if isinstance(action, ChooseSet):
        return _choose(state, action.height)
    if isinstance(action, SpendBotches):
        return _spend(state, action.options)
    if isinstance(action, ApplyHit):
        return _hit(state, action.character, action.hit, None)
    if isinstance(action, InjuryStat):
        i = action.character
        c = state.characters[i]
        s = STATS.index(action.stat)
        state = replace(state, pending_injuries=state.pending_injuries[1:])
        if c.effective[s] > STAT_MIN:
            lowered = list(c.lowered)
            lowered[s] += 1
            state = replace(state, characters=_with(state, i, lowered=tuple(lowered)))
            value = state.characters[i].effective[s]
            said = say("The injury die picks {stat}: {name}'s {stat} drops to {value} until a long rest.", stat=STAT_NAMES[action.stat], name=c.name, value=value)
            return replace(state, log=_say(state, said))
        return replace(state, log=_say(state, say("The injury die picks {stat}, already at {value}: it goes no lower.", stat=STAT_NAMES[action.stat], value=STAT_MIN)))
    if isinstance(action, EndEncounter):
        return _end_encounter(state, say("The encounter ends"))
    if isinstance(action, (ShortRest, LongRest)):
        long = isinstance(action, LongRest)
        state = _end_encounter(state, say("The party rests; the encounter is over"))
        cleared = (BASHED, STUNNED, INJURED, KO) if long else (BASHED, STUNNED)
        characters = []
        for c in state.characters:
            if c.dead:
                characters.append(c)
                continue
            damage = tuple(0 if i in cleared else n for i, n in enumerate(c.damage))
            characters.append(replace(c, damage=damage, lowered=(0,) * len(STATS) if long else c.lowered))
        state = replace(state, characters=tuple(characters))
        text = (
            say("A long rest: Bashed, Stunned, Injured and K.O.'d boxes clear and stats are restored.")
            if long
            else say("A short rest: Bashed and Stunned boxes clear.")
        )
        return replace(state, log=_say(state, text))
    if isinstance(action, NewSession):
        state = _end_encounter(state, say("The session ends"))
        characters = tuple(replace(c, sp=state.setup.story_points) for c in state.characters)
        state = replace(state, characters=characters, pool=state.setup.pool_start, session=state.session + 1)
        return replace(
            state,
            log=_say(
                state,
                say_n(
                    "Session {session} begins: every player has {n} story point, the pool {pool}.",
                    "Session {session} begins: every player has {n} story points, the pool {pool}.",
                    state.setup.story_points,
                    session=state.session,
                    pool=state.pool,
                ),
            ),
        )
    raise RuleError("action", say("Danger World has no action {action}", action=type(action).__name__))


def _pool_text(c: Check) -> str | Said:
    normal = _dice(c.faces[: c.normal])
    if c.danger:
        return say("{normal} | danger {danger}", normal=normal, danger=_dice(c.faces[c.normal:]))
    return normal


def _sets_text(c: Check) -> Said:
    sets = c.sets
    if not sets:
        return say("No set.")
    # TRANSLATORS: a set the dice allow: its height and how many of its dice are danger dice.
    heights = [say("{height} ({danger} danger)", height=s.height, danger=s.danger) if s.danger else say("{height}", height=s.height) for s in sets]
    return say("Sets: {sets}.", sets=_series(heights))


def _begin(state: State, action: BeginCheck) -> State:
    i = action.character
    actor = state.characters[i]
    invoked = sum(x.sp for x in action.invocations)
    compelled = sum(x.sp for x in action.compels)
    used = set(action.bonus)
    pools = sum(actor.bonus[b].dice for b in used)
    difficulty, flagged = difficulty_after(action.difficulty, action.modifiers)
    stat_dice = max(0, actor.stat(action.stats[0]) + actor.stat(action.stats[1]) - actor.lost_dice)
    number = state.checks + 1
    c = Check(
        number=number,
        actor=i,
        stats=tuple(action.stats),
        base_difficulty=action.difficulty,
        modifiers=tuple(action.modifiers),
        difficulty=difficulty,
        flagged=flagged,
        aid=action.aid,
        invoked=invoked,
        compelled=compelled,
        stat_dice=stat_dice,
        bonus_dice=invoked + pools,
        danger=action.danger,
        penalty=actor.penalty_dice + action.complications + compelled + actor.challenge - action.waive,
    )
    keep = tuple(p for b, p in enumerate(actor.bonus) if b not in used)
    # The GM's challenge dice are rolled now or removed now: either way this check takes them.
    characters = _with(state, i, sp=actor.sp - invoked + compelled, bonus=keep, challenge=0)
    state = replace(state, characters=characters, pool=state.pool + invoked - compelled, check=c, checks=number)
    first, second = STAT_NAMES[action.stats[0]], STAT_NAMES[action.stats[1]]
    lines: list[Said] = [
        say("Check {number}: {name} aids {aided} with {first} + {second}.", number=number, name=actor.name, aided=state.names[action.aid], first=first, second=second)
        if action.aid is not None
        else say(
            "Check {number}: {name} attempts a difficulty-{difficulty} check with {first} + {second}.",
            number=number,
            name=actor.name,
            difficulty=difficulty,
            first=first,
            second=second,
        )
    ]
    if action.modifiers:
        net = sum(action.modifiers)
        moved = {"base": action.difficulty, "sign": "+" if net >= 0 else "-", "net": abs(net), "difficulty": difficulty}
        if flagged:
            lines.append(
                say_n(
                    "Difficulty {base} {sign} {net} from {n} modifier = {difficulty} (flagged: a net change beyond +-1).",
                    "Difficulty {base} {sign} {net} from {n} modifiers = {difficulty} (flagged: a net change beyond +-1).",
                    len(action.modifiers),
                    **moved,
                )
            )
        else:
            lines.append(
                say_n("Difficulty {base} {sign} {net} from {n} modifier = {difficulty}.", "Difficulty {base} {sign} {net} from {n} modifiers = {difficulty}.", len(action.modifiers), **moved)
            )
    for inv in action.invocations:
        lines.append(
            say_n(
                "{name} invokes \u201c{aspect}\u201d for {n} story point: +{bonus} bonus.",
                "{name} invokes \u201c{aspect}\u201d for {n} story points: +{bonus} bonus.",
                inv.sp,
                name=actor.name,
                aspect=actor.aspects[inv.aspect],
                bonus=inv.sp,
            )
        )
    for comp in action.compels:
        lines.append(
            say_n(
                "{gm} compels \u201c{aspect}\u201d for {n} story point: +{penalty} penalty.",
                "{gm} compels \u201c{aspect}\u201d for {n} story points: +{penalty} penalty.",
                comp.sp,
                gm=state.setup.gm_named,
                aspect=actor.aspects[comp.aspect],
                penalty=comp.sp,
            )
        )
    if pools:
        lines.append(say("{name} spends one-time bonus pools: +{dice} dice.", name=actor.name, dice=pools))
    if actor.challenge:
        kept = actor.challenge - action.waive
        if action.waive:
            lines.append(
                say_n(
                    "{gm}'s penalty die on the challenge: +{kept} penalty ({waived} removed by the table).",
                    "{gm}'s penalty dice on the challenge: +{kept} penalty ({waived} removed by the table).",
                    actor.challenge,
                    gm=state.setup.gm_named,
                    kept=kept,
                    waived=action.waive,
                )
            )
        else:
            lines.append(
                say_n("{gm}'s penalty die on the challenge: +{kept} penalty.", "{gm}'s penalty dice on the challenge: +{kept} penalty.", actor.challenge, gm=state.setup.gm_named, kept=kept)
            )
    parts = [say("{count} pool dice", count=c.normal)]
    if actor.lost_dice and stat_dice < actor.stat(action.stats[0]) + actor.stat(action.stats[1]):
        parts[0] = say("{count} pool dice (Stunned: -{lost})", count=c.normal, lost=actor.lost_dice)
    if c.danger:
        parts.append(say("{count} danger", count=c.danger))
    if c.penalty:
        parts.append(say("{count} penalty", count=c.penalty))
    lines.append(say("Dice: {dice}.", dice=_series(parts)))
    for line in lines:
        state = replace(state, log=_say(state, line))
    return state


def _choose(state: State, height: int | None) -> State:
    c = state.check
    assert c is not None
    actor = state.characters[c.actor]
    use = set_use(c.faces, c.normal, c.penalty_faces, height) if height is not None else None
    raised = use.danger if use else 0
    bonus_won = 0
    characters = list(state.characters)
    lines: list[Said] = []
    if use and raised:
        characters[c.actor] = replace(characters[c.actor], danger=actor.danger + raised)
        lines.append(
            say_n(
                "The set uses {n} danger die: {name}'s danger rises to {danger} (zone {zone}).",
                "The set uses {n} danger dice: {name}'s danger rises to {danger} (zone {zone}).",
                raised,
                name=actor.name,
                danger=actor.danger + raised,
                zone=zone_rank(actor.danger + raised),
            )
        )
    outcome: Outcome
    if c.aid is not None:
        outcome = "aid"
        if use:
            bonus_won = use.height
            aided = characters[c.aid]
            source = say("aid from {name} (check {number})", name=actor.name, number=c.number)
            characters[c.aid] = replace(aided, bonus=aided.bonus + (BonusPool(bonus_won, source),))
            lines.insert(
                0,
                say_n(
                    "{name} makes a set of {height}: {aided} gains {n} bonus die.",
                    "{name} makes a set of {height}: {aided} gains {n} bonus dice.",
                    bonus_won,
                    name=actor.name,
                    height=use.height,
                    aided=aided.name,
                ),
            )
        else:
            lines.insert(0, say("{name} makes no set: the aid gives nothing.", name=actor.name))
    elif use is None:
        outcome = "failure"
        lines.insert(0, say("No set: {name} fails the difficulty-{difficulty} check.", name=actor.name, difficulty=c.difficulty))
    elif use.height >= c.difficulty:
        bonus_won = use.height - c.difficulty
        outcome = "benefit" if bonus_won else "success"
        met = {"height": use.height, "difficulty": c.difficulty, "accomplishment": ACCOMPLISHMENT_SAID[use.height], "name": actor.name}
        if bonus_won:
            who = characters[c.actor]
            characters[c.actor] = replace(who, bonus=who.bonus + (BonusPool(bonus_won, say("benefit (check {number})", number=c.number)),))
            said = say_n(
                "A set of {height} against difficulty {difficulty}: {accomplishment}, {name} succeeds with a benefit of {n} bonus die.",
                "A set of {height} against difficulty {difficulty}: {accomplishment}, {name} succeeds with a benefit of {n} bonus dice.",
                bonus_won,
                **met,
            )
        else:
            said = say("A set of {height} against difficulty {difficulty}: {accomplishment}, {name} succeeds.", **met)
        lines.insert(0, said)
    else:
        outcome = "partial"
        bonus_won = use.height
        who = characters[c.actor]
        characters[c.actor] = replace(who, bonus=who.bonus + (BonusPool(bonus_won, say("partial success (check {number})", number=c.number)),))
        lines.insert(
            0,
            say_n(
                "A set of {height} against difficulty {difficulty}: a partial success worth {n} bonus die.",
                "A set of {height} against difficulty {difficulty}: a partial success worth {n} bonus dice.",
                bonus_won,
                height=use.height,
                difficulty=c.difficulty,
            ),
        )
    botches = c.botches
    result = CheckResult(
        number=c.number,
        actor=c.actor,
        stats=c.stats,
        difficulty=c.difficulty,
        aid=c.aid,
        faces=c.faces,
        normal=c.normal,
        penalty_faces=c.penalty_faces,
        height=use.height if use else None,
        outcome=outcome,
        bonus_won=bonus_won,
        danger_raised=raised,
        botches=botches,
        rerolls=c.rerolls,
    )
    if botches:
        lines.append(say_n("{n} botch for {gm} to spend.", "{n} botches for {gm} to spend.", botches, gm=state.setup.gm_named))
    state = replace(state, characters=tuple(characters), check=replace(c, result=result, stage="gm" if botches else c.stage))
    for line in lines:
        state = replace(state, log=_say(state, line))
    return state if botches else _finish(state)


def _finish(state: State) -> State:
    c = state.check
    assert c is not None and c.result is not None
    return replace(state, check=None, results=state.results + (c.result,))


def _spend(state: State, options: Sequence[GmOption]) -> State:
    c = state.check
    assert c is not None and c.result is not None
    if not options:
        state = replace(state, log=_say(state, say("{gm} lets the botches go.", gm=state.setup.gm_named)))
    for option in options:
        target = c.actor if option.character is None else option.character
        name = state.names[target]
        note = f" ({option.note})" if option.note else ""
        if option.option == "danger":
            who = state.characters[target]
            state = replace(state, characters=_with(state, target, danger=who.danger + 1))
            said = say("{gm} spends 1: {name}'s danger rises to {danger}{note}.", gm=state.setup.gm_named, name=name, danger=who.danger + 1, note=note)
            state = replace(state, log=_say(state, said))
        elif option.option in HITS:
            if state.characters[target].dead:
                wasted = {
                    "reduced": say("{gm}'s reduced hit on {name} is wasted: {name} is already dead.", gm=state.setup.gm_named, name=name),
                    "full": say("{gm}'s full hit on {name} is wasted: {name} is already dead.", gm=state.setup.gm_named, name=name),
                    "overload": say("{gm}'s overload hit on {name} is wasted: {name} is already dead.", gm=state.setup.gm_named, name=name),
                }
                state = replace(state, log=_say(state, wasted[option.option]))
                continue
            state = _hit(state, target, option.option, GM_OPTIONS[option.option])
        elif option.option == "penalty":
            who = state.characters[target]
            state = replace(state, characters=_with(state, target, challenge=who.challenge + 1))
            said = say("{gm} spends 1: a penalty die on a challenge{note}, +1 penalty die on {name}'s next check.", gm=state.setup.gm_named, note=note, name=name)
            state = replace(state, log=_say(state, said))
        else:
            cost = GM_OPTIONS[option.option]
            said = say("{gm} spends {cost}: {option} for {name}{note}.", gm=state.setup.gm_named, cost=cost, option=GM_OPTION_SAID[option.option], name=name, note=note)
            state = replace(state, log=_say(state, said))
    spent = replace(c.result, spent=tuple(options))
    state = replace(state, check=replace(c, result=spent))
    return _finish(state)


def _hit(state: State, target: int, hit: str, spent: int | None) -> State:
    """`hit` lands on `target`: the GM's own (`spent` None) or bought with `spent` botches."""
    c = state.characters[target]
    zone = c.zone
    damage = track_after_hit(c.damage, hit, zone)
    filled = [i for i in range(len(BOXES)) if damage[i] > c.damage[i]]
    changes: dict[str, Any] = {"damage": damage}
    new_injuries = damage[INJURED] - c.damage[INJURED]
    if damage[KO] > c.damage[KO]:
        changes["knocked_out"] = True
    state = replace(state, characters=_with(state, target, **changes))
    # TRANSLATORS: a section of the damage track and its filled boxes ("Bashed 2/3").
    boxes = _series([say("{section} {filled}/{boxes}", section=SECTION_NAMES[i], filled=damage[i], boxes=BOXES[i]) for i in filled]) or say("nothing left to fill")
    said = {"gm": state.setup.gm_named, "cost": spent, "name": c.name, "zone": zone, "boxes": boxes}
    if spent is None:
        landed = {
            "reduced": say("{gm} lands a reduced hit on {name}: {boxes}.", **said),
            "full": say("{gm} lands a full hit on {name} in zone {zone}: {boxes}.", **said),
            "overload": say("{gm} lands a overload hit on {name} in zone {zone}: {boxes}.", **said),
        }
    else:
        landed = {
            "reduced": say("{gm} spends {cost}: a reduced hit on {name}: {boxes}.", **said),
            "full": say("{gm} spends {cost}: a full hit on {name} in zone {zone}: {boxes}.", **said),
            "overload": say("{gm} spends {cost}: a overload hit on {name} in zone {zone}: {boxes}.", **said),
        }
    state = replace(state, log=_say(state, landed[hit]))
    after = state.characters[target]
    if after.dead:
        state = replace(state, log=_say(state, say("{name} is dead.", name=c.name)))
    elif changes.get("knocked_out") and not c.knocked_out:
        state = replace(state, log=_say(state, say("{name} is K.O.'d until the encounter ends.", name=c.name)))
    if new_injuries:
        state = replace(state, pending_injuries=state.pending_injuries + (target,) * new_injuries)
    return state


def _end_encounter(state: State, why: Said) -> State:
    reset = state.setup.danger_resets
    characters = tuple(replace(c, knocked_out=False, danger=0 if reset else c.danger) for c in state.characters)
    woke = [i for i, c in enumerate(state.characters) if c.knocked_out and not c.dead]
    state = replace(state, characters=characters, encounter=state.encounter + 1)
    text = say("{why}; danger returns to 0.", why=why) if reset else say("{why}.", why=why)
    if woke:
        text = say_n("{text} {names} wakes.", "{text} {names} wake.", len(woke), text=text, names=listed(state.names[i] for i in woke))
    state = replace(state, log=_say(state, text))
    return replace(state, log=_say(state, say("Encounter {number}.", number=state.encounter)))


def chance(state: State, rng: random.Random) -> Action | None:
    """The roll the state waits for, drawn from `rng`."""
    if state.over:
        return None
    if state.pending_injuries:
        return InjuryStat(character=state.pending_injuries[0], stat=rng.choice(STATS))
    c = state.check
    if c is None:
        return None
    if c.stage == "roll":
        def d6(n: int) -> tuple[int, ...]:
            return tuple(rng.randint(1, 6) for _ in range(n))

        return Roll(normal=d6(c.normal), danger=d6(c.danger), penalty=d6(c.penalty))
    if c.stage == "reroll":
        return Rerolled(faces=tuple(rng.randint(1, 6) for _ in c.unlocked))
    return None


def hides(state: State, action: Action) -> bool:
    """Nothing at a Danger World table is secret; only dice rolls cannot be taken back."""
    return action.chance


# -- reading the state -------------------------------------------------------------------------------


def scores(state: State) -> tuple[int, ...]:
    """Empty boxes on each character's damage track (there is no score: the game is cooperative)."""
    return tuple(c.health for c in state.characters)


def standings(state: State) -> list[tuple[int, int, int]]:
    """(rank, seat, empty damage boxes): Danger World is cooperative, so every character shares
    rank 1 while alive; the dead rank below the living."""
    table = []
    for seat, c in enumerate(state.characters):
        table.append((2 if c.dead else 1, seat, c.health))
    return sorted(table)


@dataclass(frozen=True)
class CharacterView:
    name: str
    ready: bool
    #: the stats as they stand (after injuries) and as written on the sheet.
    stats: tuple[int, ...]
    sheet: tuple[int, ...]
    aspects: tuple[str, ...]
    sp: int
    danger: int
    zone: int
    damage: tuple[int, ...]
    #: penalty dice from Bashed and pool dice lost to Stunned.
    penalty_dice: int
    lost_dice: int
    knocked_out: bool
    dead: bool
    bonus: tuple[BonusPool, ...]
    health: int
    #: the GM's penalty dice waiting for the character's next check.
    challenge: int = 0


@dataclass(frozen=True)
class View:
    """What a seat sees. Danger World has no hidden information: every seat sees the same."""

    seat: int | None
    gm: str | Said
    gm_seat: int
    phase: Phase
    pool: int
    characters: tuple[CharacterView, ...]
    check: Check | None
    #: the sets the rolled dice allow now, the re-rolls left and the current check's botches.
    sets: tuple[SetUse, ...]
    rerolls_left: int
    botches: int
    waiting_for: tuple[int, ...]
    encounter: int
    session: int
    results: tuple[CheckResult, ...]
    log: tuple[str | Said, ...]
    over: bool
    standings: tuple[tuple[int, int, int], ...] = field(default=())


def view_for(state: State, seat: int | None) -> View:
    """Everything at the table: the GM does not roll and nothing is hidden, so every seat
    (and the projector, seat None) gets the same view."""
    characters = tuple(
        CharacterView(
            name=c.name,
            ready=c.ready,
            stats=c.effective,
            sheet=c.stats,
            aspects=c.aspects,
            sp=c.sp,
            danger=c.danger,
            zone=c.zone,
            damage=c.damage,
            penalty_dice=c.penalty_dice,
            lost_dice=c.lost_dice,
            knocked_out=c.knocked_out,
            dead=c.dead,
            bonus=c.bonus,
            health=c.health,
            challenge=c.challenge,
        )
        for c in state.characters
    )
    c = state.check
    rolled = c is not None and c.stage in ("lock", "gm")
    return View(
        seat=seat,
        gm=state.setup.gm_named,
        gm_seat=state.gm_seat,
        phase=state.phase,
        pool=state.pool,
        characters=characters,
        check=c,
        sets=c.sets if rolled and c is not None else (),
        rerolls_left=state.setup.rerolls - c.rerolls if c is not None else state.setup.rerolls,
        botches=c.botches if rolled and c is not None else 0,
        waiting_for=state.waiting_for(),
        encounter=state.encounter,
        session=state.session,
        results=state.results,
        log=tuple(e.text for e in state.log if e.visible(seat)),
        over=state.over,
        standings=tuple(standings(state)),
    )



# -- the decisions, for the debrief ------------------------------------------------------------


def decisions(game: Game[Setup, State], reveal: bool = True, reveal_pledges: bool | None = None, render: Render = str) -> list[Decision]:
    """Every decision of `game`: sheets, checks (begin, locks, re-rolls, the set taken), the GM's
    spending and hits, rests. Nothing at a Danger World table is secret, so `reveal` changes
    nothing; a row's seat is the character concerned (None for the GM's own moves).
    `reveal_pledges` is for games whose seats give a secret amount; this one has none.
    `render` says the rows (`rules.decisions.collect`).
    """

    def stats(names: Sequence[str]) -> Words:
        return commas([STAT_NAMES.get(n, n) for n in names], "+")

    def move(before: State, action: Action, after: State, final: State, revealing: bool) -> Made | None:
        check = before.check
        number = check.number if check is not None else before.checks + 1
        step = say("Encounter {n}", n=before.encounter)
        at_check = say("Encounter {n}, check {check}", n=before.encounter, check=number)
        gm = before.setup.gm_named
        if isinstance(action, (CreateCharacter, SetStats, SetAspects)):
            i = action.character
            text: Words
            if isinstance(action, SetAspects):
                text = say("rewrites the aspects: {aspects}", aspects="; ".join(action.aspects))  # as the players wrote them
            else:
                # TRANSLATORS: a stat and its value on a character sheet, in a debrief's row ("Agility 3").
                sheet = commas([say("{stat} {value}", stat=STAT_NAMES.get(n, n), value=v) for n, v in zip(STATS, action.stats)])
                if isinstance(action, CreateCharacter):
                    text = say("makes the sheet: {sheet}. Aspects: {aspects}", sheet=sheet, aspects="; ".join(action.aspects))
                else:
                    text = say("rewrites the stats: {sheet}", sheet=sheet)
            return Made(step, i, before.names[i], text)
        if isinstance(action, BeginCheck):
            i = action.character
            difficulty, _ = difficulty_after(action.difficulty, action.modifiers)
            what = say("aids {name}", name=before.names[action.aid]) if action.aid is not None else say("a difficulty-{n} check", n=difficulty)
            text = say("{what} with {stats}", what=what, stats=stats(action.stats))
            extras: list[Words] = []
            if action.invocations:
                extras.append(say("{n} SP invoked", n=sum(x.sp for x in action.invocations)))
            if action.compels:
                extras.append(say("{n} SP compelled by {gm}", n=sum(x.sp for x in action.compels), gm=gm))
            if action.danger:
                extras.append(say_n("{n} danger die", "{n} danger dice", action.danger))
            if action.complications:
                extras.append(say_n("{n} complication", "{n} complications", action.complications))
            if extras:
                # TRANSLATORS: a check in a debrief's row, and what was added to it ("2 SP invoked, 1 danger die").
                text = say("{check} ({extras})", check=text, extras=commas(extras))
            made = Made(at_check, i, before.names[i], text)
            return made if action.aid is not None else replace(made, amount=difficulty, amount_is=say("difficulty"))
        if isinstance(action, (Lock, Reroll, ChooseSet)) and check is not None:
            who = before.names[check.actor]
            amount: int | None
            if isinstance(action, Lock):
                faces = " ".join(str(check.faces[d]) for d in sorted(action.dice))
                text, amount, amount_is = say("locks dice showing {faces}", faces=faces), len(action.dice), say("dice locked")
            elif isinstance(action, Reroll):
                unlocked = len(check.unlocked)
                text, amount, amount_is = say_n("re-rolls {n} unlocked die", "re-rolls {n} unlocked dice", unlocked), unlocked, say("dice rolled")
            else:
                text = say("takes the set of {height}", height=action.height) if action.height is not None else say("takes no set")
                amount, amount_is = action.height or 0, say("set made")
            return Made(at_check, check.actor, who, text, amount=amount, amount_is=amount_is)
        if isinstance(action, SpendBotches):
            spent: list[Words] = [
                say("{option} on {name}", option=GM_OPTION_SAID[o.option], name=before.names[check.actor if o.character is None else o.character])
                if check is not None
                else GM_OPTION_SAID[o.option]
                for o in action.options
            ]
            return Made(at_check, None, gm, say("spends the botches: {spent}", spent=commas(spent, ";") if spent else say("none")))
        if isinstance(action, ApplyHit):
            return Made(step, None, gm, say("lands {hit} on {name}", hit=GM_OPTION_SAID[action.hit], name=before.names[action.character]))
        words = {
            ShortRest: say("calls a short rest"),
            LongRest: say("calls a long rest"),
            EndEncounter: say("ends the encounter"),
            NewSession: say("starts a new session"),
        }
        if type(action) in words:
            return Made(step, None, gm, words[type(action)])
        return None  # the dice: their lines join the decision before

    return collect(game, move, reveal=reveal, render=render)


# -- exact odds -----------------------------------------------------------------------------------
#
# A check's chance depends only on, for each face h in D..6, how many more dice showing h it
# needs ("deficit": h plus the penalty dice showing h, less the dice locked on h), the number of
# free dice and the re-rolls left. Faces below D (ones included) are interchangeable junk, and so
# is any face whose deficit exceeds the free dice. Faces with equal deficits are interchangeable,
# so a state is (sorted deficits, free dice, re-rolls) - shared by every pool size, difficulty
# and penalty roll. `_value` gives a state's chance as an integer over 6**(free * (rerolls + 1)).
#
# After a roll, the player locks any sub-multiset A of the new dice: the box of reachable
# deficits is [d - O, d] for an outcome O. The best lock over every box is one cumulative-max
# pass per face over the table of "lock to exactly d'" values, so a state costs one pass over its
# box instead of one search per outcome.

_FACT = [factorial(i) for i in range(2 * MAX_DICE + 1)]
_COMB = [[comb(n, k) for k in range(n + 1)] for n in range(2 * MAX_DICE + 1)]
ODDS_LIMITS: Mapping[str, tuple[int, int]] = {"dice": (0, 20), "difficulty": (2, 6), "penalty": (0, 6), "rerolls": (0, 4)}


_POW6: list[int] = [int(6**i) for i in range(400)]


def _pow6(n: int) -> int:
    return _POW6[n] if n < len(_POW6) else int(6**n)


def _incomplete(deficits: tuple[int, ...], free: int) -> int:
    """Sequences of `free` d6 that show fewer than d dice of every live face (deficit d)."""
    junk = 6 - len(deficits)
    ways = [junk**t for t in range(free + 1)]
    for d in deficits:
        nxt = [0] * (free + 1)
        for t in range(free + 1):
            row = _COMB[t]
            nxt[t] = sum(row[o] * ways[t - o] for o in range(min(d - 1, t) + 1))
        ways = nxt
    return ways[free]


@lru_cache(maxsize=128)
def _layout(deficits: tuple[int, ...], free: int) -> tuple[list[tuple[int, ...]], list[int], list[int], tuple[int, ...], int]:
    """The box of outcomes O (0 <= O_h < d_h) that complete no face, in O-major order: the
    deficits left (d - O), the free dice left if all of O were locked (-1: impossible), the
    number of roll sequences giving O, the strides, and the sum of those numbers."""
    sums, dens = [0], [1]
    for d in deficits:
        sums = [a + o for a in sums for o in range(d)]
        dens = [a * _FACT[o] for a in dens for o in range(d)]
    junk = 6 - len(deficits)
    top = _FACT[free]
    ordered = [top // _FACT[j] * junk**j for j in range(free + 1)]
    left = [free - s for s in sums]
    weights = [ordered[k] // den if k >= 0 else 0 for k, den in zip(left, dens)]
    remaining = list(product(*[range(d, 0, -1) for d in deficits]))
    strides = []
    size = 1
    for d in reversed(deficits):
        strides.append(size)
        size *= d
    return remaining, left, weights, tuple(reversed(strides)), sum(weights)


_canonical: dict[tuple[tuple[int, ...], int, int], int] = {}


def _locked_value(remaining: tuple[int, ...], free: int, rerolls: int) -> int:
    """`_value` of a state given with unsorted deficits that may include dead faces."""
    key = (remaining, free, rerolls)
    value = _canonical.get(key)
    if value is None:
        live = tuple(sorted(x for x in remaining if x <= free))
        value = _value(live, free, rerolls) if live else 0
        _canonical[key] = value
    return value


@cache
def _value(deficits: tuple[int, ...], free: int, rerolls: int) -> int:
    """Chance (over 6**(free * (rerolls + 1))) of completing a face when `free` dice are rolled
    now with `rerolls` lock-and-re-roll rounds after it, playing optimally."""
    if not deficits or free == 0:
        return 0
    if rerolls == 0:
        return _pow6(free) - _incomplete(deficits, free)
    remaining, left, weights, strides, incomplete = _layout(deficits, free)
    after = rerolls - 1
    # best[i]: the value (over 6**(free * rerolls)) of locking exactly box entry i's dice; then,
    # after the passes below, the best lock among the dice of outcome i.
    scale = [_pow6((free - k) * rerolls) for k in range(free + 1)]
    known = _canonical.get
    best: list[int] = []
    keep = best.append
    for rem, k in zip(remaining, left):
        if k < 0:
            keep(0)
            continue
        value = known((rem, k, after))
        if value is None:
            value = _locked_value(rem, k, after)
        keep(value * scale[k])
    size = len(best)
    for axis, d in enumerate(deficits):
        if d == 1:
            continue
        stride = strides[axis]
        block = d * stride
        if stride == 1:
            best = [x for b in range(0, size, block) for x in accumulate(best[b : b + block], max)]
            continue
        for b in range(0, size, block):
            for j in range(1, d):
                lo = b + j * stride
                best[lo : lo + stride] = map(max, best[lo : lo + stride], best[lo - stride : lo])
    kept: int = sum(map(mul, weights, best))
    return (_pow6(free) - incomplete) * _pow6(free * rerolls) + kept


def _check_odds_args(dice: int, difficulty: int, penalty: int, rerolls: int) -> None:
    for name, value in (("dice", dice), ("difficulty", difficulty), ("penalty", penalty), ("rerolls", rerolls)):
        low, high = ODDS_LIMITS[name]
        _require(isinstance(value, int) and not isinstance(value, bool) and low <= value <= high, "odds", f"{name} must be {low}-{high}, not {value!r}")


def _needs(difficulty: int, penalty_counts: Mapping[int, int]) -> tuple[int, ...]:
    """Dice showing h a set of height h needs, for h = difficulty..6."""
    return tuple(h + penalty_counts.get(h, 0) for h in range(difficulty, 7))


@lru_cache(maxsize=4096)
def success_chance(dice: int, difficulty: int, penalty: int = 0, rerolls: int = 2) -> Fraction:
    """Exact chance that a pool of `dice` normal dice makes a set of height >= `difficulty`,
    with `penalty` penalty dice (rolled once, never re-rolled) and `rerolls` lock-and-re-roll
    rounds played optimally."""
    _check_odds_args(dice, difficulty, penalty, rerolls)
    relevant = 7 - difficulty
    junk = difficulty - 1
    total = 0
    for counts in product(range(penalty + 1), repeat=relevant):
        placed = sum(counts)
        if placed > penalty:
            continue
        ways = _FACT[penalty] // _FACT[penalty - placed] * junk ** (penalty - placed)
        for c in counts:
            ways //= _FACT[c]
        needs = _needs(difficulty, dict(zip(range(difficulty, 7), counts)))
        live = tuple(sorted(n for n in needs if n <= dice))
        total += ways * _value(live, dice, rerolls) if live else 0
    return Fraction(total, _pow6(dice * (rerolls + 1)) * _pow6(penalty))


def _lock_chance(needs: tuple[int, ...], counts: Sequence[int], free: int, rerolls_left: int) -> Fraction:
    """The chance left after locking dice that show `counts` of each relevant face, with `free`
    dice re-rolled now and `rerolls_left - 1` rounds after that."""
    if any(c >= n for c, n in zip(counts, needs)):
        return Fraction(1)
    live = tuple(sorted(n - c for n, c in zip(needs, counts) if n - c <= free))
    if not live or free == 0:
        return Fraction(0)
    return Fraction(_value(live, free, rerolls_left - 1), _pow6(free * rerolls_left))


def _made(faces: Sequence[int], penalty_faces: Sequence[int], difficulty: int) -> bool:
    return any(h >= difficulty for h in set_heights(faces, penalty_faces))


def best_locks(
    faces: Sequence[int],
    locked: Iterable[int],
    penalty_faces: Sequence[int],
    difficulty: int,
    rerolls_left: int,
) -> list[tuple[frozenset[int], Fraction]]:
    """The lock choices before the next re-roll, best first, each with the exact chance of a
    set of height >= `difficulty` it leaves when play goes on optimally.

    `faces` are the pool dice showing (all treated as normal dice), `locked` the indices
    already locked. Each choice is the whole set of locked indices after locking (a superset of
    `locked`); choices that lock the same faces are listed once (lowest indices), and dice
    showing faces that cannot help (ones, faces below the difficulty) are never locked - re-
    rolling them never hurts. Locking every useful die of a made set gives chance 1: stop.
    With no re-roll left, the one entry is `locked` and whether the dice already succeed.
    """
    faces = tuple(faces)
    held = frozenset(locked)
    _require(len(faces) <= MAX_DICE and len(penalty_faces) <= MAX_DICE, "dice", f"at most {MAX_DICE} dice")
    _require(all(isinstance(f, int) and 1 <= f <= 6 for f in faces) and all(isinstance(f, int) and 1 <= f <= 6 for f in penalty_faces), "dice", say("every die shows 1-6"))
    _require(all(isinstance(i, int) and 0 <= i < len(faces) for i in held), "dice", "a locked die is not in the pool")
    _require(isinstance(difficulty, int) and DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX, "difficulty", "a difficulty is 2-6")
    _require(isinstance(rerolls_left, int) and rerolls_left >= 0, "re-rolls", "re-rolls left is 0 or more")
    if rerolls_left == 0:
        return [(held, Fraction(int(_made(faces, penalty_faces, difficulty))))]
    pen = Counter(penalty_faces)
    heights = [h for h in range(difficulty, 7) if h + pen[h] <= len(faces)]
    needs = tuple(h + pen[h] for h in heights)
    base = [sum(1 for i in held if faces[i] == h) for h in heights]
    open_dice = [[i for i in range(len(faces)) if i not in held and faces[i] == h] for h in heights]
    ranked = []
    for extra in product(*[range(len(dice) + 1) for dice in open_dice]):
        chosen = held.union(*[dice[:n] for dice, n in zip(open_dice, extra)]) if heights else held
        counts = [b + e for b, e in zip(base, extra)]
        value = _lock_chance(needs, counts, len(faces) - len(chosen), rerolls_left)
        ranked.append((chosen, value))
    ranked.sort(key=lambda item: (-item[1], len(item[0]), sorted(item[0])))
    return ranked


def coach(state: State) -> list[tuple[frozenset[int], Fraction]]:
    """`best_locks` for the check being made (empty outside the lock-and-re-roll stage)."""
    c = state.check
    if c is None or c.stage != "lock":
        return []
    return best_locks(c.faces, c.locked, c.penalty_faces, c.difficulty, state.setup.rerolls - c.rerolls)


def odds_report(dice: int, difficulty: int, penalty: int = 0, rerolls: int = 2) -> dict[str, Any]:
    """The exact odds as JSON-ready data (for `playbook odds danger-world`)."""
    chance_now = success_chance(dice, difficulty, penalty, rerolls)
    by_rerolls = {}
    for r in range(rerolls + 1):
        p = success_chance(dice, difficulty, penalty, r)
        by_rerolls[str(r)] = {"chance": round(float(p), 6), "exact": f"{p.numerator}/{p.denominator}"}
    return {
        "game": "danger-world",
        "dice": dice,
        "difficulty": difficulty,
        "penalty": penalty,
        "rerolls": rerolls,
        "chance": round(float(chance_now), 6),
        "exact": f"{chance_now.numerator}/{chance_now.denominator}",
        "percent": f"{float(chance_now):.2%}",
        "by_rerolls": by_rerolls,
        "assumes": "a set of height >= difficulty; every pool die a normal die; penalty dice rolled once; locks and re-rolls played optimally",
    }


@dataclass(frozen=True)
class PolicyRun:
    """A seeded simulation of the optimal lock-and-re-roll policy."""

    dice: int
    difficulty: int
    penalty: int
    rerolls: int
    trials: int
    successes: int

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def stderr(self) -> float:
        p = self.rate
        return (p * (1 - p) / self.trials) ** 0.5 if self.trials else 0.0


@cache
def _policy(needs: tuple[int, ...], base: tuple[int, ...], showing: tuple[int, ...], free_now: int, rerolls_left: int) -> tuple[int, ...]:
    """How many of the unlocked dice showing each relevant face to lock (best first choice)."""
    best: tuple[Fraction, tuple[int, ...]] | None = None
    for extra in product(*[range(n + 1) for n in showing]):
        counts = [b + e for b, e in zip(base, extra)]
        value = _lock_chance(needs, counts, free_now - sum(extra), rerolls_left)
        if best is None or value > best[0]:
            best = (value, extra)
    assert best is not None
    return best[1]


def simulate_policy(dice: int, difficulty: int, penalty: int = 0, rerolls: int = 2, trials: int = 10_000, seed: int = 0) -> PolicyRun:
    """Play `trials` checks with the optimal policy (from the exact tables), seeded; count sets
    of height >= `difficulty` made with the real set rules."""
    _check_odds_args(dice, difficulty, penalty, rerolls)
    rng = random.Random(seed)
    made = 0
    for _ in range(trials):
        pen = tuple(rng.randint(1, 6) for _ in range(penalty))
        faces = [rng.randint(1, 6) for _ in range(dice)]
        counts = Counter(pen)
        heights = [h for h in range(difficulty, 7) if h + counts[h] <= dice]
        needs = tuple(h + counts[h] for h in heights)
        locked: set[int] = set()
        for left in range(rerolls, 0, -1):
            base = tuple(sum(1 for i in locked if faces[i] == h) for h in heights)
            if any(b >= n for b, n in zip(base, needs)):
                break
            open_dice = [[i for i in range(dice) if i not in locked and faces[i] == h] for h in heights]
            extra = _policy(needs, base, tuple(len(x) for x in open_dice), dice - len(locked), left)
            for group, n in zip(open_dice, extra):
                locked.update(group[:n])
            if len(locked) == dice:
                break
            for i in range(dice):
                if i not in locked:
                    faces[i] = rng.randint(1, 6)
        made += _made(faces, pen, difficulty)
    return PolicyRun(dice, difficulty, penalty, rerolls, trials, made)


# -- the Rules object ------------------------------------------------------------------------------


def timeout_move(state: State, seat: int) -> Action | None:
    """The move a player's timer makes when it runs out: none. Every decision of a check is the
    player's story to tell (the text states no default), so a timer hands it to the fill bot."""
    return None


RULES = GameRules.of(globals(), CARD)


# -- ready-made sheets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadySheet:
    """A finished sheet to start from: stats in `STATS` order and three aspects. The ready-made
    ones' label and aspects are the playbook's suggestions, said in the page's language
    (`written`); once on a sheet, an aspect is the player's text, kept as written."""

    label: str | Said
    stats: tuple[int, ...]
    aspects: tuple[str | Said, ...]

    def written(self, said: Callable[[Said], str] = str) -> ReadySheet:
        """The sheet with its label and aspects as text: `said` says each message (English by
        default; a page passes its language's `i18n.render`)."""
        def text(value: str | Said) -> str:
            return said(value) if isinstance(value, Said) else value

        return ReadySheet(text(self.label), self.stats, tuple(text(a) for a in self.aspects))


#: The text names no characters; Wren is the courtyard example's sneak (`worked_example`), the
#: others cover the text's other examples (the pressure-plate trap's Agility, Speed and
#: Perception; the guards; talking one's way through). Each is a legal new PC: 16 dice, 1-4 each.
#: A character's given name is a name, the same in every language.
READY_SHEETS: tuple[ReadySheet, ...] = (
    ReadySheet(say("{name}, the cat burglar", name="Wren"), (4, 1, 2, 1, 3, 2, 1, 2), (say("Cat burglar"), say("Owes the guild"), say("Never leaves a friend"))),
    ReadySheet(say("{name}, the bruiser", name="Brick"), (2, 3, 1, 4, 2, 1, 1, 2), (say("Built like a barn door"), say("Hot-headed"), say("Protects the weak"))),
    ReadySheet(say("{name}, the fixer", name="Sage"), (1, 1, 2, 1, 3, 4, 3, 1), (say("Knows someone who knows someone"), say("Reads people like books"), say("Coward at heart"))),
    ReadySheet(say("{name}, the scout", name="Vesper"), (3, 2, 4, 1, 3, 1, 1, 1), (say("Eyes like a hawk"), say("Runs first, asks later"), say("Cannot sit still"))),
)

#: Aspects a quick character draws three of: the playbook's suggestions, offered in the page's
#: language (once on a sheet, an aspect is the player's text, kept as written).
QUICK_ASPECTS: tuple[Said, ...] = (
    say("Quick on my feet"), say("Stubborn as a mule"), say("Owes the wrong people"), say("Never forgets a face"),
    say("Afraid of the dark"), say("Soft spot for strays"), say("Born in the gutter"), say("Trusts no one"),
    say("Ex-soldier"), say("Silver tongue"), say("Old wound aches in the cold"), say("Always hungry"),
)  # fmt: skip


def fit_stats(stats: Sequence[int], sheet_dice: int = SHEET_DICE) -> tuple[int, ...]:
    """`stats` brought to `sheet_dice` dice (a variant's sheet size), keeping their shape:
    dice go to the strongest stats below the maximum, and come off the weakest above 1."""
    out = [min(STAT_MAX, max(STAT_MIN, int(v))) for v in stats]
    order = sorted(range(len(out)), key=lambda i: (-out[i], i))
    while sum(out) < sheet_dice:
        i = next(i for i in order if out[i] < STAT_MAX)
        out[i] += 1
    while sum(out) > sheet_dice:
        i = next(i for i in reversed(order) if out[i] > STAT_MIN)
        out[i] -= 1
    return tuple(out)


def quick_sheet(seed: int, sheet_dice: int = SHEET_DICE, said: Callable[[Said], str] = str) -> ReadySheet:
    """A legal sheet drawn from `seed`: 1 die in each stat, the rest spread at random (none
    above 4), three different aspects. The same seed gives the same sheet; `said` says its
    aspects (in English by default, a page passes its language's `i18n.render`)."""
    if not len(STATS) * STAT_MIN <= sheet_dice <= len(STATS) * STAT_MAX:
        raise RuleError("setup", say("a sheet holds {low}-{high} dice", low=len(STATS) * STAT_MIN, high=len(STATS) * STAT_MAX))
    rng = random.Random(f"quick-sheet:{seed}")
    stats = [STAT_MIN] * len(STATS)
    for _ in range(sheet_dice - sum(stats)):
        stats[rng.choice([i for i, v in enumerate(stats) if v < STAT_MAX])] += 1
    return ReadySheet(said(say("a quick character")), tuple(stats), tuple(said(aspect) for aspect in rng.sample(QUICK_ASPECTS, ASPECTS)))


# -- the text's worked example ------------------------------------------------------------------------


def worked_example(succeed: bool = True) -> State:
    """The courtyard: sneaking past skilled guards is a difficulty-4 check that rolls 3 botches.

    Wren (Agility 4, Perception 3) rolls seven dice. Succeeding, four 4s make the set and the GM
    spends the 3 botches on a meaningful setback: a final difficulty-3 check still to make.
    Failing, no set is made and the 3 botches trap Wren: a difficulty-3 check to escape before
    the courtyard can be tried again.
    """
    state = initial(Setup(names=("Wren",), gm="Morgan"))
    steps: list[Action] = [
        CreateCharacter(seat=0, character=0, stats=(4, 1, 2, 1, 3, 2, 1, 2), aspects=("Cat burglar", "Owes the guild", "Never leaves a friend")),
        BeginCheck(seat=0, character=0, stats=("agility", "perception"), difficulty=4),
        Roll(normal=(4, 4, 4, 4, 1, 1, 1) if succeed else (4, 4, 2, 3, 1, 1, 1)),
        ChooseSet(seat=0, height=4 if succeed else None),
        SpendBotches(
            options=(
                GmOption(
                    "meaningful",
                    note="a guard lingers by the gate: a final difficulty-3 check to slip out"
                    if succeed
                    else "trapped behind the well: a difficulty-3 check to escape before trying again",
                ),
            )
        ),
    ]
    for step in steps:
        check(state, step)
        state = play(state, step)
    return state
