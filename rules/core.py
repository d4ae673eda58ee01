"""The machinery every game shares: typed refusals, seeded chance, the game record.

A game is (setup, seed, actions). Each game module supplies a `GameRules` object: pure
functions from a state and an action to the next state. `Game` drives one record: it checks
and applies actions, asks the seeded generator for chance outcomes (which enter the action
log like any move, so a replay is exact and a test can force a roll), and undoes.

Nothing here does I/O: the save file is text in and text out; the SQLite store lives in
`playbook.store`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameRules",
    "RuleError",
    "SaveFileError",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "action_from_json",
    "action_to_json",
    "rng_for",
]

SAVE_FORMAT = "playbook-game"
SAVE_VERSION = 1


class RuleError(ValueError):
    """An action was refused. `rule` names the rule it broke; the state is unchanged."""

    def __init__(self, rule: str, message: str, action: object | None = None) -> None:
        self.rule = rule
        self.action = action
        super().__init__(f"{message} (rule: {rule})")
        self.message = message


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
    """One readable line of the game's log, with who may read it."""

    text: str
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

    Built from a game module's own names by `GameRules.of(globals(), slug, title)`: its
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

    @classmethod
    def of(cls, names: Mapping[str, Any], slug: str, title: str) -> GameRules:
        functions = ("initial", "check", "play", "chance", "hides", "view_for", "scores", "standings")
        return cls(slug, title, names["Setup"], names["ACTIONS"], *(names[f] for f in functions), names.get("legal_actions"))

    def setup_from_json(self, data: Any) -> Any:
        return setup_from_json(self.setup, data)

    @staticmethod
    def waiting_for(state: Any) -> Sequence[int]:
        return state.waiting_for()

    @staticmethod
    def over(state: Any) -> bool:
        return bool(state.over)


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
            raise SaveFileError(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise SaveFileError(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_coerce(a, v, where) for a, v in zip(args, value))
    if origin is frozenset:
        if not isinstance(value, list):
            raise SaveFileError(f"{where}: expected a list, got {value!r}")
        return frozenset(_coerce(args[0], v, where) for v in value)
    if origin is typing.Literal:
        if value not in args:
            raise SaveFileError(f"{where}: {value!r} is not one of {args}")
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise SaveFileError(f"{where}: expected an object, got {value!r}")
        return _build(tp, value, where)
    if tp is bool:
        if not isinstance(value, bool):
            raise SaveFileError(f"{where}: expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SaveFileError(f"{where}: expected a whole number, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SaveFileError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise SaveFileError(f"{where}: expected text, got {value!r}")
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
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = set(data) - names - {"kind"}
    if unknown:
        raise SaveFileError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kwargs = {}
    for name in names:
        if name in data:
            kwargs[name] = _coerce(hints[name], data[name], f"{where}.{name}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise SaveFileError(f"{where}: {exc}") from None


def action_from_json(kinds: Iterable[type[Action]], data: Any, where: str = "action") -> Action:
    """Parse one action; `kinds` are the game's action classes."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise SaveFileError(f"{where}: not an action (expected an object with a 'kind')")
    by_kind = {cls.kind: cls for cls in kinds}
    cls = by_kind.get(data["kind"])
    if cls is None:
        raise SaveFileError(f"{where}: unknown action kind {data['kind']!r}")
    return _build(cls, data, where)


def setup_from_json(cls: type[Setup], data: Any, where: str = "setup") -> Setup:
    """Parse a setup dataclass from JSON, with the same strict typing as actions."""
    if not isinstance(data, dict):
        raise SaveFileError(f"{where}: expected an object")
    return _build(cls, data, where)


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass
class Game(Generic[Setup, S]):
    """One game record being played: setup + seed + the actions applied so far.

    `state` is always the result of replaying `actions` from `rules.initial(setup)`.
    Chance outcomes the state waits for are drawn at once from the seeded generator and
    appended to the log, unless `auto_chance` is off (tests that force a roll).
    """

    rules: GameRules
    setup: Setup
    seed: int
    actions: list[Action] = field(default_factory=list)
    auto_chance: bool = True
    state: S = field(init=False)
    _history: list[S] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        pending = list(self.actions)
        self.actions = []
        self.state = self.rules.initial(self.setup)
        self._history = [self.state]
        for index, action in enumerate(pending):
            try:
                self._step(action)
            except RuleError as exc:
                raise RuleError(exc.rule, f"action {index + 1} ({action.kind}): {exc.message}", action) from None
        self._roll()

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
        """Check and apply one action (then any chance it leads to); raise `RuleError` if refused."""
        self._step(action)
        self._roll()
        return self.state

    def _step(self, action: Action) -> None:
        self.rules.check(self.state, action)
        self.state = self.rules.play(self.state, action)
        self.actions.append(action)
        self._history.append(self.state)

    def _roll(self) -> None:
        if not self.auto_chance:
            return
        while (outcome := self.rules.chance(self.state, rng_for(self.seed, len(self.actions)))) is not None:
            self._step(outcome)

    # -- undo ------------------------------------------------------------------------
    def undo_blocker(self) -> str | None:
        """Why the last action cannot be undone, or None when it can."""
        if not self.actions:
            return "nothing to undo"
        last = self.actions[-1]
        if last.chance:
            return "the last action was a chance outcome"
        if self.rules.hides(self._history[-2], last):
            return "the last action revealed hidden information"
        return None

    def undo(self) -> Action:
        """Take back the last action; refuse when it revealed hidden or random outcomes."""
        reason = self.undo_blocker()
        if reason is not None:
            raise RuleError("undo", f"cannot undo: {reason}")
        self._history.pop()
        self.state = self._history[-1]
        return self.actions.pop()

    # -- the save file ----------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        body = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.rules.slug,
            "setup": _plain(self.setup),
            "seed": self.seed,
            "actions": [action_to_json(a) for a in self.actions],
        }
        return {**body, "digest": _digest(body)}

    def to_json(self) -> str:
        return json.dumps(self.to_record(), ensure_ascii=False, indent=1)

    @classmethod
    def from_record(cls, rules_by_slug: Mapping[str, GameRules], data: Any) -> Game[Any, Any]:
        """Rebuild a game from a parsed save file, checking every action again."""
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
        rules = rules_by_slug.get(data["game"])
        if rules is None:
            raise SaveFileError(f"unknown game {data['game']!r}")
        seed = _coerce(int, data["seed"], "seed")
        if not isinstance(data["actions"], list):
            raise SaveFileError("damaged save file: 'actions' is not a list")
        setup = rules.setup_from_json(data["setup"])
        actions = [action_from_json(rules.actions, a, f"action {i + 1}") for i, a in enumerate(data["actions"])]
        try:
            return cls(rules, setup, seed, actions)
        except RuleError as exc:
            raise SaveFileError(f"the save file's moves do not replay: {exc}") from None

    @classmethod
    def from_json(cls, rules_by_slug: Mapping[str, GameRules], text: str | bytes) -> Game[Any, Any]:
        try:
            data = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SaveFileError(f"damaged or truncated save file: not valid JSON ({exc})") from None
        return cls.from_record(rules_by_slug, data)


def ranked(scores: Sequence[int], key: Callable[[int], Any]) -> list[tuple[int, int, int]]:
    """(rank, seat, score) best first, seats sorted by `key` (smaller is better); seats with
    equal keys share a rank (1, 1, 3)."""
    order = sorted(range(len(scores)), key=key)
    table: list[tuple[int, int, int]] = []
    for i, seat in enumerate(order):
        rank = table[-1][0] if i and key(order[i - 1]) == key(seat) else i + 1
        table.append((rank, seat, scores[seat]))
    return table


def seats_text(names: Sequence[str], seats: Iterable[int]) -> str:
    """'Ana, Bo and Cy' for a list of seats."""
    people = [names[s] for s in seats]
    if len(people) <= 1:
        return "".join(people)
    return ", ".join(people[:-1]) + " and " + people[-1]


def check_names(names: Sequence[str], low: int, high: int, who: str = "players") -> tuple[str, ...]:
    """Trimmed, non-empty, distinct names within the game's player range."""
    cleaned = tuple(" ".join(str(n).split()) for n in names)
    if not low <= len(cleaned) <= high:
        raise RuleError("player count", f"this game takes {low}-{high} {who}, not {len(cleaned)}")
    for name in cleaned:
        if not name:
            raise RuleError("names", "every seat needs a name")
        if len(name) > 40:
            raise RuleError("names", f"the name {name[:20]!r}... is longer than 40 characters")
    folded = [n.casefold() for n in cleaned]
    if len(set(folded)) != len(folded):
        raise RuleError("names", "two seats have the same name")
    return cleaned

