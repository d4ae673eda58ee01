"""The machinery every game shares: typed refusals, seeded chance, the game record.

A game is (setup, seed, actions). Each game module supplies a `GameRules` object: pure
functions from a state and an action to the next state. `Game` drives one record: it checks
and applies actions, asks the seeded generator for chance outcomes (which enter the action
log like any move, so a replay is exact and a test can force a roll), and undoes.

Nothing here does I/O: the save file is text in and text out; the SQLite store lives in
`playbook.store`.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
import math
import random
import types
import typing
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

from .confusables import CONFUSABLES
from .text import Listed, Said, listed, say

if TYPE_CHECKING:
    from .games import Card

__all__ = [
    "MAX_ACTIONS",
    "MAX_SEED",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "Action",
    "AnyGame",
    "Event",
    "Game",
    "GameRules",
    "RuleError",
    "SaveFileError",
    "action_from_json",
    "action_to_json",
    "actions_from_json",
    "check_names",
    "check_types",
    "even_tables",
    "look_alike",
    "look_alike_pair",
    "look_alike_reason",
    "name_key",
    "name_keys",
    "name_problem",
    "parse_save_text",
    "plural",
    "rng_for",
    "skeleton",
]

SAVE_FORMAT = "playbook-game"
SAVE_VERSION = 1

# Limits a save file must keep before it is even replayed: a file past them is refused at once,
# so a hand-made file cannot tie up a kernel or its memory. Real games stay far below them.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_ACTIONS = 20_000
#: JSON nesting: a save file needs about five levels.
MAX_DEPTH = 16
#: digits in any number (seeds fit 19).
MAX_DIGITS = 20


class RuleError(ValueError):
    """An action was refused. `rule` names the rule it broke (an id, never translated); the
    state is unchanged. `said` is the reason to show a reader (`i18n.render` says it in the
    page's language); `message` is it in English."""

    def __init__(self, rule: str, message: str | Said, action: object | None = None) -> None:
        self.rule = rule
        self.action = action
        self.said = message
        self.message = str(message)
        super().__init__(f"{self.message} (rule: {rule})")


class SaveFileError(ValueError):
    """A save file could not be read: damaged, truncated, tampered or from the future."""


@dataclass(frozen=True)
class Action:
    """Base of every game's actions: small, immutable, hashable values.

    `kind` is the action's name in save files; `chance` marks outcomes that the game's
    seeded generator supplies (rolls, draws), which are logged like any other action.
    """

    kind: ClassVar[str] = "action"
    chance: ClassVar[bool] = False
    #: the seat acting, or None for the table (a facilitator, or chance).
    seat: int | None = None


@dataclass(frozen=True)
class Event:
    """One readable line of the game's log, with who may read it. `text` is a `Said` where the
    line is marked for translation (`i18n.render` says it); `str(text)` is the line in English."""

    text: str | Said
    #: seats allowed to see the line; None means everyone.
    visible_to: frozenset[int] | None = None
    round: int = 0

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


S = TypeVar("S")
Setup = TypeVar("Setup")


@dataclass(frozen=True)
class GameRules:
    """One game's rules as the `Game` driver, the store and the front ends use them.

    Built from a game module's own names by `GameRules.of(globals(), CARD)`: its
    `Setup`, `ACTIONS` and the functions `initial`, `check`, `play`, `chance`, `hides`,
    `view_for`, `scores`, `standings` (and `legal_actions` where the game has one). States
    answer `waiting_for()` and `over`.
    """

    slug: str
    title: str
    setup: type
    actions: tuple[type[Action], ...]
    initial: Callable[[Any], Any]
    check: Callable[[Any, Action], None]
    play: Callable[[Any, Action], Any]
    chance: Callable[[Any, random.Random], Action | None]
    hides: Callable[[Any, Action], bool]
    view_for: Callable[[Any, int | None], Any]
    scores: Callable[[Any], tuple[int, ...]]
    standings: Callable[[Any], list[tuple[int, int, int]]]
    legal_actions: Callable[..., list[Action]] | None = None
    #: whether a chance outcome may be entered by hand now (dice rolled at the table).
    by_hand: Callable[[Any, Action], bool] | None = None
    #: setup fields a game no longer has, with the one value older files may still give them.
    retired: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, names: Mapping[str, Any], game: Card) -> GameRules:
        """The rules of `game` (its card: the slug and title) from its module's `names`."""
        functions = ("initial", "check", "play", "chance", "hides", "view_for", "scores", "standings")
        found = {f: names[f] for f in functions}
        found["check"] = _typed_check(names["check"], names["ACTIONS"])
        return cls(
            game.slug, game.title, names["Setup"], names["ACTIONS"], **found,
            legal_actions=names.get("legal_actions"), by_hand=names.get("by_hand"), retired=names.get("RETIRED_SETUP", {}),
        )  # fmt: skip

    def setup_from_json(self, data: Any) -> Any:
        if isinstance(data, dict) and any(k in data for k in self.retired):
            data = dict(data)
            for name, harmless in self.retired.items():
                if name in data and data.pop(name) != harmless:
                    raise SaveFileError(f"setup: this file uses the {name!r} variant, which the playbook no longer has")
        return setup_from_json(self.setup, data)

    @staticmethod
    def waiting_for(state: Any) -> Sequence[int]:
        waiting: Sequence[int] = state.waiting_for()
        return waiting

    @staticmethod
    def over(state: Any) -> bool:
        return bool(state.over)


def _typed_check(check: Callable[[Any, Action], None], kinds: Sequence[type[Action]]) -> Callable[[Any, Action], None]:
    """`check` that first refuses an action of another game or with a field of the wrong type
    (a Python caller's `units=1.5`), so every refusal is a `RuleError`, never a `TypeError`."""
    known = tuple(kinds)

    def checked(state: Any, action: Action) -> None:
        if not isinstance(action, known):
            raise RuleError("action", f"{type(action).__name__} is not an action of this game", action if isinstance(action, Action) else None)
        check_types(action)
        check(state, action)

    checked.__doc__ = check.__doc__
    return checked


def check_types(action: Action) -> None:
    """Raise `RuleError` when a field of `action` does not have its annotated type."""
    kind: type = type(action)
    if not all(fits(getattr(action, name)) for name, fits in _field_checks(kind)):
        try:  # the slow path, for a message that names the field
            _build(type(action), {f.name: _plain(getattr(action, f.name)) for f in dataclasses.fields(action)}, action.kind)
        except SaveFileError as exc:
            raise RuleError("types", str(exc), action) from None
        raise RuleError("types", f"{action.kind}: a field has the wrong type", action)


@functools.cache
def _field_checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool]], ...]:
    hints = _hints(cls)
    return tuple((f.name, _fits(hints[f.name])) for f in dataclasses.fields(cls) if f.name in hints)


def _fits(tp: Any) -> Callable[[Any], bool]:
    """A quick test that a Python value has the annotated type `tp` (bool is not an int)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = [_fits(a) for a in args]
        return lambda v: any(fits(v) for fits in options)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _fits(args[0])
            return lambda v: type(v) is tuple and all(item(x) for x in v)
        items = [_fits(a) for a in args]
        return lambda v: type(v) is tuple and len(v) == len(items) and all(f(x) for f, x in zip(items, v))
    if origin is frozenset:
        item = _fits(args[0])
        return lambda v: isinstance(v, frozenset) and all(item(x) for x in v)
    if origin is typing.Literal:
        return lambda v: v in args
    if tp is type(None):
        return lambda v: v is None
    if tp is int:
        return lambda v: type(v) is int
    if tp is bool:
        return lambda v: type(v) is bool
    if tp is float:
        return lambda v: type(v) in (int, float)
    if tp is str:
        return lambda v: type(v) is str
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return lambda v: isinstance(v, tp) and all(fits(getattr(v, name)) for name, fits in _field_checks(tp))
    return lambda v: True


def rng_for(seed: int, step: int) -> random.Random:
    """The generator for the chance event at `step` of a game seeded with `seed`.

    One generator per step (not one running generator) so a loaded or undone game needs no
    hidden generator state: the record alone decides every future roll.
    """
    return random.Random(f"{seed}:{step}")


def _plain(value: Any) -> Any:
    """A JSON-ready copy of a dataclass field value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    data = {"kind": action.kind}
    data.update({f.name: _plain(getattr(action, f.name)) for f in dataclasses.fields(action)})
    return data


def _short(value: Any) -> str:
    """A value for an error message, cut short: a message stays one readable line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _coerce(tp: Any, value: Any, where: str) -> Any:
    """Turn JSON `value` into the annotated type `tp`, refusing anything else."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(arg, value, where)
            except SaveFileError as exc:
                errors.append(str(exc))
        raise SaveFileError(errors[0] if errors else f"{where}: unexpected null")
    if origin is tuple:
        if not isinstance(value, list):
            raise SaveFileError(f"{where}: expected a list, got {_short(value)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise SaveFileError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_coerce(a, v, where) for a, v in zip(args, value))
    if origin is frozenset:
        if not isinstance(value, list):
            raise SaveFileError(f"{where}: expected a list, got {_short(value)}")
        return frozenset(_coerce(args[0], v, where) for v in value)
    if origin is typing.Literal:
        if value not in args:
            raise SaveFileError(f"{where}: {_short(value)} is not one of {args}")
        return value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise SaveFileError(f"{where}: expected an object, got {_short(value)}")
        return _build(tp, value, where)
    if tp is bool:
        if not isinstance(value, bool):
            raise SaveFileError(f"{where}: expected true or false, got {_short(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SaveFileError(f"{where}: expected a whole number, got {_short(value)}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SaveFileError(f"{where}: expected a number, got {_short(value)}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise SaveFileError(f"{where}: expected text, got {_short(value)}")
        return value
    if tp is Any:
        return value
    raise SaveFileError(f"{where}: cannot read a value of type {tp!r}")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # Resolving annotations is slow and a long save file builds the same classes many times.
    return typing.get_type_hints(cls)


def _build(cls: type, data: Mapping[str, Any], where: str) -> Any:
    hints = _hints(cls)
    # In the fields' order, so a file with two bad fields is always told of the same one first.
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    unknown = set(data) - set(names) - {"kind"}
    if unknown:
        word = "field" if len(unknown) == 1 else "fields"
        raise SaveFileError(f"{where}: unknown {word} {_short(', '.join(sorted(unknown)))}")
    kwargs = {}
    for name in names:
        if name in data:
            kwargs[name] = _coerce(hints[name], data[name], f"{where}.{name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise SaveFileError(f"{where}: {str(exc)[:200]}") from None


def action_from_json(kinds: Iterable[type[Action]], data: Any, where: str = "action") -> Action:
    """Parse one action; `kinds` are the game's action classes."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise SaveFileError(f"{where}: not an action (expected an object with a 'kind')")
    by_kind = {cls.kind: cls for cls in kinds}
    cls = by_kind.get(data["kind"])
    if cls is None:
        raise SaveFileError(f"{where}: unknown action kind {_short(data['kind'])}")
    action: Action = _build(cls, data, where)
    return action


def setup_from_json(cls: type[Setup], data: Any, where: str = "setup") -> Setup:
    """Parse a setup dataclass from JSON, with the same strict typing as actions."""
    if not isinstance(data, dict):
        raise SaveFileError(f"{where}: expected an object")
    setup: Setup = _build(cls, data, where)
    return setup


def actions_from_json(rules: GameRules, items: Sequence[Any]) -> tuple[list[Action], set[int]]:
    """Parse a record's actions, and the indices of those marked as entered by hand."""
    actions, marks = [], set()
    for index, item in enumerate(items):
        where = f"action {index + 1}"
        if isinstance(item, dict) and "by_hand" in item:
            item = dict(item)
            if item.pop("by_hand") is not True:
                raise SaveFileError(f"{where}: by_hand must be true when present")
            marks.add(index)
        actions.append(action_from_json(rules.actions, item, where))
    return actions, marks


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in parsed JSON (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _json_number(text: str) -> int | float:
    digits = sum(ch.isdigit() for ch in text)
    if digits > MAX_DIGITS:
        raise SaveFileError(f"a number in the file has {digits} digits; a save file's numbers have at most {MAX_DIGITS}")
    return float(text) if any(ch in text for ch in ".eE") else int(text)


def _json_constant(name: str) -> Any:
    raise SaveFileError(f"the file holds {name}, which is not a number a save file uses")


def parse_save_text(text: str | bytes) -> Any:
    """The JSON of a save file, refusing at once anything past the limits a real game keeps:
    its size, its nesting, the digits in its numbers. Every failure is a `SaveFileError`."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > MAX_FILE_BYTES:
        raise SaveFileError(f"this file is {size // 1024} KiB; a save file is at most {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        data = json.loads(text, parse_int=_json_number, parse_float=_json_number, parse_constant=_json_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFileError(f"damaged or truncated save file: not valid JSON ({exc})") from None
    except RecursionError:
        raise SaveFileError(f"the file's lists nest too deeply (a save file nests at most {MAX_DEPTH} levels)") from None
    if _depth(data) > MAX_DEPTH:
        raise SaveFileError(f"the file's lists nest too deeply (a save file nests at most {MAX_DEPTH} levels)")
    return data


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


#: Recent states a game keeps for undo; undoing further back replays the record instead, so a
#: long game costs memory for its log, not for every state it passed through.
UNDO_STATES = 64
#: Seeds are whole numbers that fit a database's signed 64-bit integer.
MAX_SEED = 2**63 - 1


@dataclass
class Game(Generic[Setup, S]):
    """One game record being played: setup + seed + the actions applied so far.

    `state` is always the result of replaying `actions` from `rules.initial(setup)`.
    Chance outcomes the state waits for are drawn at once from the seeded generator and
    appended to the log, unless `auto_chance` is off (tests that force a roll).

    A chance outcome can also be entered by hand where the game allows it (dice rolled at the
    table): its index is in `by_hand` and the save file marks it. With `verify` on (save files
    and the table store), every other replayed chance outcome must be exactly what the seed
    gives at its step, so an edited draw or roll is refused, naming the step.
    """

    rules: GameRules
    setup: Setup
    seed: int
    actions: list[Action] = field(default_factory=list)
    auto_chance: bool = True
    #: indices into `actions` of chance outcomes entered by hand instead of drawn from the seed.
    by_hand: set[int] = field(default_factory=set)
    #: check replayed chance outcomes against the seed (records from outside this process).
    verify: bool = False
    #: recent states kept for undo; None keeps every state (tests that inspect each step).
    keep: int | None = UNDO_STATES
    state: S = field(init=False)
    _recent: deque[S] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            # The value itself is left out: a 5000-digit number cannot even be printed.
            raise RuleError("seed", f"the seed must be a whole number from 0 to {MAX_SEED}")
        pending, marks = list(self.actions), set(self.by_hand)
        self.actions, self.by_hand = [], set()
        self.state = self.rules.initial(self.setup)
        self._recent = deque([self.state], maxlen=None if self.keep is None else self.keep + 1)
        self.extend(pending, marks)
        self._roll()

    @property
    def states(self) -> tuple[S, ...]:
        """The states kept, oldest first, ending with `state` (all of them when `keep` is None)."""
        return tuple(self._recent)

    def copy(self) -> Game[Setup, S]:
        """An independent game at the same point (states are immutable and shared)."""
        twin = copy.copy(self)  # no __init__: nothing is replayed
        twin.actions, twin.by_hand = list(self.actions), set(self.by_hand)
        twin._recent = deque(self._recent, maxlen=self._recent.maxlen)
        return twin

    # -- playing ---------------------------------------------------------------------
    def check(self, action: Action) -> None:
        self.rules.check(self.state, action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.rules.check(self.state, action)
        except RuleError:
            return False
        return True

    def apply(self, action: Action) -> S:
        """Check and apply one action (then any chance it leads to); raise `RuleError` if refused.

        A chance outcome passed in is taken as entered by hand, which the game must allow
        (`GameRules.by_hand`); with `auto_chance` off (a test forcing a roll) it is simply applied.
        """
        hand = False
        if isinstance(action, Action) and action.chance:
            hand = self._allows_by_hand(action)
            if not hand and self.auto_chance:
                raise RuleError("chance", f"the {action.kind} comes from the playbook's dice (the seed), not from a player", action)
        self._step(action, hand)
        self._roll()
        return self.state

    def extend(self, actions: Sequence[Action], by_hand: Iterable[int] = ()) -> S:
        """Replay recorded actions (chance outcomes included, nothing rolled); `by_hand` holds
        the indices, counted in the whole log, of outcomes marked as entered by hand."""
        marks = set(by_hand)
        start = len(self.actions)
        for offset, action in enumerate(actions):
            index = start + offset
            try:
                if not action.chance and index in marks:
                    raise RuleError("by hand", f"a {action.kind} is not a chance outcome")
                hand = action.chance and self._outcome_by_hand(action, index in marks)
                self._step(action, hand)
            except RuleError as exc:
                raise RuleError(exc.rule, f"action {index + 1} ({action.kind}): {exc.message}", action) from None
        return self.state

    def _allows_by_hand(self, action: Action) -> bool:
        return self.rules.by_hand is not None and bool(self.rules.by_hand(self.state, action))

    def _outcome_by_hand(self, action: Action, marked: bool) -> bool:
        """Whether a replayed chance outcome was entered by hand; refuse a forged one.

        Where the game has the table roll (`GameRules.by_hand`), the outcome is the table's.
        Anywhere else a mark is refused, and with `verify` the outcome must be the seed's.
        """
        if self._allows_by_hand(action):
            return True
        if marked:
            raise RuleError("by hand", f"this {action.kind} cannot be entered by hand in this game")
        if self.verify:
            expected = self.rules.chance(self.state, rng_for(self.seed, len(self.actions)))
            if expected is None:
                raise RuleError("forged", f"no {action.kind} is due at this step: the record was edited")
            if expected != action:
                raise RuleError("forged", f"the {action.kind} is not what the seed gives at this step: the record was edited")
        return False

    def _step(self, action: Action, hand: bool = False) -> None:
        self.rules.check(self.state, action)
        self.state = self.rules.play(self.state, action)
        if hand:
            self.by_hand.add(len(self.actions))
        self.actions.append(action)
        self._recent.append(self.state)

    def _roll(self) -> None:
        if not self.auto_chance:
            return
        while (outcome := self.rules.chance(self.state, rng_for(self.seed, len(self.actions)))) is not None:
            self._step(outcome)

    # -- undo ------------------------------------------------------------------------
    def _before_last(self) -> S:
        """The state before the last action: kept, or replayed when undo went past what was kept."""
        if len(self._recent) >= 2:
            return self._recent[-2]
        state: S = self.rules.initial(self.setup)
        for action in self.actions[:-1]:
            state = self.rules.play(state, action)
        return state

    def undo_blocker(self) -> str | None:
        """Why the last action cannot be undone, or None when it can."""
        if not self.actions:
            return "nothing to undo"
        last = self.actions[-1]
        if last.chance:
            return "the last action was a chance outcome"
        if self.rules.hides(self._before_last(), last):
            return "the last action revealed hidden information"
        return None

    def undo(self) -> Action:
        """Take back the last action; refuse when it revealed hidden or random outcomes."""
        reason = self.undo_blocker()
        if reason is not None:
            raise RuleError("undo", f"cannot undo: {reason}")
        before = self._before_last()
        self._recent.pop()
        if not self._recent:
            self._recent.append(before)
        self.state = before
        self.by_hand.discard(len(self.actions) - 1)
        return self.actions.pop()

    # -- the save file ----------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        actions = []
        for index, action in enumerate(self.actions):
            data = action_to_json(action)
            if index in self.by_hand:
                data["by_hand"] = True
            actions.append(data)
        body = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.rules.slug,
            "setup": _plain(self.setup),
            "seed": self.seed,
            "actions": actions,
        }
        return {**body, "digest": _digest(body)}

    def to_json(self) -> str:
        return json.dumps(self.to_record(), ensure_ascii=False, indent=1)

    @classmethod
    def from_record(cls, rules_by_slug: Mapping[str, GameRules], data: Any) -> Game[Any, Any]:
        """Rebuild a game from a parsed save file, checking every action again.

        The digest only tells a damaged file from a whole one (anyone can recompute it); what
        stops a forged file is the replay: every move must be legal and every chance outcome
        the seed's own, or marked as entered by hand where the game allows that.
        """
        if not isinstance(data, dict):
            raise SaveFileError("not a playbook save file: expected a JSON object")
        if data.get("format") != SAVE_FORMAT:
            raise SaveFileError("not a playbook save file: the 'format' field is missing or wrong")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise SaveFileError("damaged save file: the 'version' field is missing")
        if version > SAVE_VERSION:
            raise SaveFileError(
                f"this save file is version {version}, made by a newer playbook; "
                f"this one reads up to version {SAVE_VERSION}. Update the playbook to open it."
            )
        missing = [k for k in ("game", "setup", "seed", "actions", "digest") if k not in data]
        if missing:
            raise SaveFileError(f"damaged save file: missing {', '.join(missing)}")
        body = {k: v for k, v in data.items() if k != "digest"}
        if data["digest"] != _digest(body):
            raise SaveFileError("this save file was changed after it was saved (its checksum does not match)")
        rules = rules_by_slug.get(data["game"]) if isinstance(data["game"], str) else None
        if rules is None:
            raise SaveFileError(f"unknown game {_short(data['game'])}")
        seed = _coerce(int, data["seed"], "seed")
        if not isinstance(data["actions"], list):
            raise SaveFileError("damaged save file: 'actions' is not a list")
        if len(data["actions"]) > MAX_ACTIONS:
            raise SaveFileError(f"this save file holds {len(data['actions'])} moves; a game has at most {MAX_ACTIONS}")
        setup = rules.setup_from_json(data["setup"])
        actions, marks = actions_from_json(rules, data["actions"])
        try:
            return cls(rules, setup, seed, actions, by_hand=marks, verify=True)
        except RuleError as exc:
            raise SaveFileError(f"the save file's moves do not replay: {exc}") from None

    @classmethod
    def from_json(cls, rules_by_slug: Mapping[str, GameRules], text: str | bytes) -> Game[Any, Any]:
        return cls.from_record(rules_by_slug, parse_save_text(text))



#: A game of any kind, its setup and state read through its own rules and modules: what the
#: store, the pages, the debrief and the printables hold.
AnyGame: TypeAlias = Game[Any, Any]

def ranked(scores: Sequence[int], key: Callable[[int], Any]) -> list[tuple[int, int, int]]:
    """(rank, seat, score) best first, seats sorted by `key` (smaller is better); seats with
    equal keys share a rank (1, 1, 3)."""
    order = sorted(range(len(scores)), key=key)
    table: list[tuple[int, int, int]] = []
    for i, seat in enumerate(order):
        rank = table[-1][0] if i and key(order[i - 1]) == key(seat) else i + 1
        table.append((rank, seat, scores[seat]))
    return table


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 unit', '2 units', '0 units' ('1 die', '3 dice' with `many`): never 'unit(s)'."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def even_tables(count: int, largest: int) -> list[int]:
    """The people at each table for `count` people: as few tables as `largest` allows, their
    sizes as even as can be (16 in tables of up to 10: 8 and 8; 11: 6 and 5). [] for nobody."""
    if count < 1:
        return []
    tables = math.ceil(count / largest)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seats_said(names: Sequence[str], seats: Iterable[int]) -> Listed:
    """The seats' names as a list the reader's language says ("Ana, Bo and Cy"); `str()` is
    the English of `seats_text`."""
    return listed(names[s] for s in seats)


def seats_text(names: Sequence[str], seats: Iterable[int]) -> str:
    """'Ana, Bo and Cy' for a list of seats (in English: `seats_said` for a reader's language)."""
    return str(seats_said(names, seats))


def winners_said(names: Sequence[str], seats: Sequence[int], who: str | Said = "players") -> Said:
    """'Cy wins', 'Ana, Bo and Di share the win', or 'all 6 households tie' (`who` names them:
    a `Said` noun is said in the reader's language, a plain one as it is)."""
    if len(seats) == len(names) > 1:
        return say("all {n} {who} tie", n=len(names), who=who)
    if len(seats) > 1:
        return say("{names} share the win", names=seats_said(names, seats))
    return say("{name} wins", name=seats_said(names, seats))


def winners_text(names: Sequence[str], seats: Sequence[int], who: str = "players") -> str:
    """`winners_said` in English."""
    return str(winners_said(names, seats, who))


def leaders_said(names: Sequence[str], seats: Sequence[int], who: str | Said = "players") -> Said:
    """'Cy leads', 'Ana and Bo share the lead', or 'all 6 households are level' (a game stopped
    before its end)."""
    if len(seats) == len(names) > 1:
        return say("all {n} {who} are level", n=len(names), who=who)
    if len(seats) > 1:
        return say("{names} share the lead", names=seats_said(names, seats))
    return say("{name} leads", name=seats_said(names, seats))


#: Characters that turn the direction of the text around them (embeddings, overrides, isolates):
#: in a name they would reorder the text after it on every page and sheet.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Letters and symbols that draw nothing (Hangul fillers, the braille blank, ...).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
#: Unicode's default-ignorable code points that are not format characters (Cf): marks and
#: selectors that draw nothing, such as the combining grapheme joiner (U+034F) and Khmer's
#: inherent vowels (U+17B4, U+17B5). From DerivedCoreProperties.txt, Default_Ignorable_Code_Point.
IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0xFE00, 0xFE0F),
    (0xFFF0, 0xFFF8),
    (0x1D173, 0x1D17A),
    (0xE0100, 0xE01EF),
)


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text`: NFD, each character replaced by its prototype in Unicode's
    confusables (`rules.confusables`, a dict look-up a character), NFD again. Two strings with the
    same skeleton look alike: "Аna" (a Cyrillic А) and "Ana", "PayPaI" and "Paypal", "Amie" and
    "Arnie" (m looks like rn)."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join([CONFUSABLES.get(c, c) for c in decomposed]))


@functools.lru_cache(maxsize=4096)
def name_keys(name: str) -> tuple[str, str]:
    """What a reader sees of `name`, as two keys; two names look the same when either key is the
    same (`look_alike`).

    Both start from the name's seen part: NFKC, without invisible characters and spaces. The first
    key is its skeleton (`skeleton`), case kept: "PayPaI" and "Paypal" (I looks like l), "Вo" and
    "Bo". The second is the skeleton of the seen part case folded: "ana", "ANA" and "аna" (a
    Cyrillic а). One key could not be both: I is i case aside and looks like l, but i and l do not
    look alike ("Neil" and "Nell" are two names).
    """
    text = unicodedata.normalize("NFKC", name)
    shown = "".join("".join(c for c in text if not _invisible(c)).split())
    return skeleton(shown), skeleton(shown.casefold())


def name_key(name: str) -> str:
    """`name` as names compare case aside: the skeleton of its seen part, case folded (the second
    of `name_keys`). Equal keys look the same; so do names whose first keys are equal
    (`look_alike`), which this one key cannot tell."""
    return name_keys(name)[1]


def look_alike(first: str, second: str) -> bool:
    """Whether two names look the same on a page, one seat passing for the other (`name_keys`)."""
    return any(a == b for a, b in zip(name_keys(first), name_keys(second)))


def look_alike_pair(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two of `names` that look the same (`look_alike`), the earlier first, or None."""
    seen: tuple[dict[str, str], dict[str, str]] = ({}, {})
    for name in names:
        keys = name_keys(name)
        other = next((found[key] for found, key in zip(seen, keys) if key in found), None)
        if other is not None:
            return other, name
        for found, key in zip(seen, keys):
            found[key] = name
    return None


def look_alike_reason(first: str, second: str, labels: tuple[str | Said, str | Said] | None = None) -> Said | str:
    """Why two names that look the same do, in a reader's words, `labels` naming them ("" when
    nothing but their look can be said): "the second is written partly in another alphabet:
    Cyrillic А (U+0410) looks like Latin A", "in the second, I (U+0049) looks like l", "the
    second holds a character that draws nothing (U+034F)". A message (`str()` its English) whose
    labels, by default "the first" and "the second", are said in the reader's language too."""
    if labels is None:
        # TRANSLATORS: the first and the second of two names that look the same.
        labels = (say("the first"), say("the second"))
    for label, name, other in ((labels[1], second, first), (labels[0], first, second)):
        seen = set(unicodedata.normalize("NFKC", other)) | set(unicodedata.normalize("NFKC", other).casefold())
        for char in name:
            if char in seen or char.isspace():
                continue
            code = f"U+{ord(char):04X}"
            if _invisible(char):
                return say("{label} holds a character that draws nothing ({code})", label=label, code=code)
            plain = unicodedata.normalize("NFKC", char)
            if plain != char and plain in seen:
                return say("{label} is written in another form of the same letters: {char} ({code}) is {plain}", label=label, char=char, code=code, plain=plain)
            prototype = CONFUSABLES.get(plain) or CONFUSABLES.get(plain.casefold(), "")
            if not prototype:
                continue
            script, looks = _script(plain), _script(prototype[0])
            if script != looks and unicodedata.category(plain).startswith("L") and unicodedata.category(prototype[0]).startswith("L"):
                return say(
                    "{label} is written partly in another alphabet: {script} {char} ({code}) looks like {looks} {prototype}",
                    label=label, script=script, char=char, code=code, looks=looks, prototype=prototype,
                )  # fmt: skip
            return say("in {label}, {char} ({code}) looks like {prototype}", label=label, char=char, code=code, prototype=prototype)
    return ""


def _script(char: str) -> str:
    """The alphabet a letter belongs to, as its Unicode name begins ("Latin", "Cyrillic", "Greek")."""
    return unicodedata.name(char, "").split(" ")[0].title() or "unnamed"


def _invisible(char: str) -> bool:
    """A character that draws nothing of its own (zero-width, controls, spaces, blank letters)."""
    if char in BLANK_LETTERS or unicodedata.category(char) in ("Cf", "Cc", "Zs", "Zl", "Zp"):
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in IGNORABLE_RANGES)


def name_problem(name: str, first: bool = False) -> Said | str:
    """Why `name` cannot be a seat's name, or "": a message (`str()` its English); `first` for
    one that starts a sentence (capitalised)."""
    if not name:
        return say("Every seat needs a name") if first else say("every seat needs a name")
    if len(name) > 40:
        short = repr(name[:20])
        return say("The name {name}... is longer than 40 characters", name=short) if first else say("the name {name}... is longer than 40 characters", name=short)
    shown = _shown(name)
    for char in name:
        code = f"{ord(char):04X}"
        if char in BIDI_CONTROLS:
            if first:
                return say("The name {name} holds a text-direction control (U+{code}), which would turn the text after it around", name=shown, code=code)
            return say("the name {name} holds a text-direction control (U+{code}), which would turn the text after it around", name=shown, code=code)
        if unicodedata.category(char) == "Cc":
            if first:
                return say("The name {name} holds a control character (U+{code})", name=shown, code=code)
            return say("the name {name} holds a control character (U+{code})", name=shown, code=code)
    if all(_invisible(c) or unicodedata.category(c) in ("Mn", "Me") for c in name):
        return say("The name {name} has no visible character", name=shown) if first else say("the name {name} has no visible character", name=shown)
    return ""


def _shown(name: str) -> str:
    """A name quoted for a message, its invisible characters spelled out."""
    return "“" + "".join(f"<U+{ord(c):04X}>" if _invisible(c) and c != " " else c for c in name) + "”"


def check_names(names: Sequence[str], low: int, high: int, who: str | Said = "players") -> tuple[str, ...]:
    """Trimmed, visible, distinct names within the game's player range.

    Refused, with the rule named: an empty name, one over 40 characters, one with a control or
    text-direction character, one with nothing visible (zero-width spaces, say), and two names
    that look the same (`look_alike`: once normalised (NFKC), without invisible characters, case
    aside, or written with letters of other alphabets, digits or letter pairs that look alike, by
    Unicode's confusables), with why they do.
    """
    cleaned = tuple(" ".join(str(n).split()) for n in names)
    if not low <= len(cleaned) <= high:
        raise RuleError("player count", say("this game takes {low}-{high} {who}, not {n}", low=low, high=high, who=who, n=len(cleaned)))
    for name in cleaned:
        problem = name_problem(name)
        if problem:
            raise RuleError("names", problem)
    pair = look_alike_pair(cleaned)
    if pair is not None:
        other, name = pair
        a, b = _shown(other), _shown(name)
        if other == name:
            said = say("two seats have the same name")
        elif other.casefold() == name.casefold():
            said = say("two seats have the same name ({first} and {second})", first=a, second=b)
        else:
            why = look_alike_reason(other, name)
            if why:
                said = say("two seats have names that look the same ({first} and {second}, {why})", first=a, second=b, why=why)
            else:
                said = say("two seats have names that look the same ({first} and {second})", first=a, second=b)
        raise RuleError("names", said)
    return cleaned

