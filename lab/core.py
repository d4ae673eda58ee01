"""What every game's lab shares: a setup to run, bot games played lean, and the runner.

A `Spec` is one setup a designer wants to try: the game, one bot per seat and the variant
options (fields of the game's `Setup`, plus the lab's own options for that game). `parse_spec`
reads the command line's VARIANTS text into one.

`play_lean` plays one bot game with the rules' own `play` and `chance`, exactly as
`rules.core.Game` would (same states, same rolls) but without the undo history, the action
log or a seeded generator per step that rolls nothing. `run_games` plays many, in this
process, over a process pool (every core by default) or on a Dask cluster: game i is seeded
from (seed, i) alone, so the results are the same whatever runs them.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
import random
import threading
import types
import typing
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rules import GAMES
from rules.core import Action, AnyGame, GameRules, RuleError, rng_for
from rules.text import Said, say, say_n

__all__ = [
    "Bot",
    "Finding",
    "LabGame",
    "LabModule",
    "Spec",
    "bot_setup",
    "close_pool",
    "distribution",
    "game_seed",
    "mean_interval",
    "paired_difference",
    "parse_spec",
    "play_lean",
    "play_out",
    "run_games",
    "share_interval",
    "summary",
    "t_quantile",
    "t_two_sided",
]

Bot = Callable[[Any, int, random.Random], Action]
Row = dict[str, Any]
#: per-game values a comparison sets side by side, by measure; None: the game has no value (no meme action to succeed).
Measures = Mapping[str, Sequence[float | None]]

#: the most games a chunk of work holds: small enough for a smooth progress bar.
CHUNK = 50


# -- a setup to run -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One setup: the game, a bot per seat and variant options (setup fields or lab options)."""

    game: str
    bots: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def setup(self, lab_options: Sequence[str] = ()) -> Any:
        """The rules' `Setup` for this spec (lab options left out); seats named after bots."""
        rules = GAMES[self.game]
        names = tuple(f"{b} {i + 1}" for i, b in enumerate(self.bots))
        fields = {k: v for k, v in self.options if k not in lab_options}
        try:
            return rules.setup(names=names, **fields)
        except TypeError as exc:
            raise RuleError("variant", f"{exc}") from None

    @property
    def text(self) -> str:
        """The spec in the VARIANTS syntax `parse_spec` reads."""
        parts = ["bots=" + ",".join(_runs(self.bots))]
        for key, value in self.options:
            if isinstance(value, tuple):
                value = ",".join(str(v) for v in value)
            parts.append(f"{key}={'none' if value is None else str(value).lower() if isinstance(value, bool) else value}")
        return " ".join(parts)


def _runs(bots: Sequence[str]) -> list[str]:
    """'fair,fair,fair,free-rider' -> ['fair*3', 'free-rider']."""
    return [name if (k := len(list(group))) == 1 else f"{name}*{k}" for name, group in itertools.groupby(bots)]


def _coerce(tp: Any, text: str, key: str) -> Any:
    """A variant value typed on the command line, read as the setup field's type."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    word = text.strip().lower()
    if origin in (typing.Union, types.UnionType):
        if word in ("none", "") and type(None) in args:
            return None
        return _coerce(next(a for a in args if a is not type(None)), text, key)
    if origin is tuple:
        items = [t for t in text.replace(",", " ").split() if t]
        inner = args[0] if args else str
        values = tuple(_coerce(inner, t, key) for t in items)
        if args and args[-1] is not Ellipsis and len(args) != len(values):
            raise RuleError("variant", say("{key} takes {count} values, not {given}", key=key, count=len(args), given=len(values)))
        return values
    if tp is bool:
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise RuleError("variant", say("{key} is true or false, not {given}", key=key, given=repr(text)))
    if tp is int:
        try:
            return int(word)
        except ValueError:
            raise RuleError("variant", say("{key} is a whole number, not {given}", key=key, given=repr(text))) from None
    return text.strip()


def parse_spec(game: str, text: str, bots: Mapping[str, Bot], default_bots: Sequence[str], lab_options: Mapping[str, Any]) -> Spec:
    """Read VARIANTS: `key=value` pairs, separated by spaces or commas.

    `bots=fair*5,free-rider*5` gives one bot per seat (`name*k` repeats a bot); `players=N`
    keeps the default bots, cycled to N seats; any other key is a field of the game's
    `Setup` (`misfortune=3,2,1,0,0,0`, `max_rounds=none`, `table_dice=true`) or one of the
    game's lab options. A value runs until the next `key=`, so lists need no quotes.
    """
    pairs: list[tuple[str, list[str]]] = []
    for token in text.replace(";", " ").replace(",", " , ").split():
        if "=" in token:
            key, _, value = token.partition("=")
            pairs.append((key.strip().replace("-", "_"), [value] if value else []))
        elif token != ",":
            if not pairs:
                raise RuleError("variant", say("{given} needs a key, as in bots={token}", given=repr(token), token=token))
            pairs[-1][1].append(token)
    setup_type = GAMES[game].setup
    hints = typing.get_type_hints(setup_type)
    settable = {f.name for f in dataclasses.fields(setup_type) if f.init and f.name != "names"}
    chosen = list(default_bots)
    options: dict[str, Any] = {}
    for key, values in pairs:
        if key == "bots":
            chosen = []
            for item in values:
                name, _, count = item.partition("*")
                if name not in bots:
                    raise RuleError("bots", say("unknown bot {given}; choose from {bots}", given=repr(name), bots=", ".join(bots)))
                if count and not count.isdigit():
                    raise RuleError("bots", say("{given}: write a bot and a count, as in {name}*5", given=repr(item), name=name))
                chosen += [name] * (int(count) if count else 1)
        elif key == "players":
            if len(values) != 1 or not values[0].isdigit():
                raise RuleError("variant", say("players is a whole number"))
            n = int(values[0])
            base = chosen or list(default_bots)
            chosen = [base[i % len(base)] for i in range(n)]
        elif key in settable:
            options[key] = _coerce(hints[key], " ".join(values), key)
        elif key in lab_options:
            default = lab_options[key]
            kind = tuple[int, ...] if isinstance(default, tuple) else bool | None if default is None else type(default)
            options[key] = _coerce(kind, " ".join(values), key)
        else:
            known = ", ".join(sorted({"bots", "players", *settable, *lab_options}))
            raise RuleError("variant", say("{game} has no variant {given}; choose from {known}", game=game, given=repr(key), known=known))
    if not chosen:
        raise RuleError("bots", say("name at least one bot"))
    spec = Spec(game, tuple(chosen), tuple(options.items()))
    spec.setup(tuple(lab_options))  # refuse a bad setup now, not in a worker
    return spec


# -- playing one game -----------------------------------------------------------------------------


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed`: runs with other seeds share no game."""
    return seed * 2**32 + index


class _LazyRandom:
    """`rng_for(seed, step)`, made only when `chance` asks for a roll: most steps roll nothing."""

    #: whether `chance` asked this step for a roll (the generator was made): a plain attribute,
    #: read after every move.
    rolled = False

    def __init__(self, seed: int, step: int) -> None:
        self._key = (seed, step)

    def __getattr__(self, name: str) -> Any:
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self._rng = rng_for(*self._key)
            self.rolled = True
        value = self.__dict__[name] = getattr(rng, name)  # the next roll finds it at once
        return value


def play_lean(
    rules: GameRules,
    setup: Any,
    seed: int,
    choose: Callable[[Any], Action | None],
    *,
    check: bool = True,
    stop: Callable[[Any], bool] | None = None,
    max_actions: int = 100_000,
) -> Any:
    """The final state of a game whose every move `choose(state)` makes (None: stop here).

    Chance outcomes come from `rules.chance(state, rng_for(seed, step))` at the same steps
    as in `Game`, so the states are the ones `Game(rules, setup, seed)` would reach. With
    `check` each chosen move is checked by the rules first (a bot that breaks a rule raises
    `RuleError`). `stop(state)` ends the game early (a safety cap), as does `max_actions`.
    """
    play, rule_check = rules.play, rules.check
    # Asked with a stand-in for the step's Random (`_LazyRandom`): it looks up Random's methods.
    chance: Callable[[Any, _LazyRandom], Action | None] = rules.chance  # type: ignore[assignment]  # a Random by duck typing
    state = rules.initial(setup)
    step = 0
    rng = _LazyRandom(seed, step)
    while True:
        # One lazy generator serves the steps that roll nothing (most): re-keyed, not remade.
        while (outcome := chance(state, rng)) is not None:
            state = play(state, outcome)
            step += 1
            rng = _LazyRandom(seed, step)
        if state.over or (stop is not None and stop(state)):
            return state
        if step >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        action = choose(state)
        if action is None:
            return state
        if check:
            rule_check(state, action)
        state = play(state, action)
        step += 1
        if rng.rolled:  # a new generator for the next step
            rng = _LazyRandom(seed, step)
        else:
            rng._key = (seed, step)


#: with the option checked unset, every SAMPLE-th game (0, 50, ...) has every move checked by
#: the rules; the others trust the bots, whose moves are legal by construction (and tested).
SAMPLE = 50


def checked(spec: Spec, index: int) -> bool:
    """Whether game `index` checks every bot move (the same whoever plays it)."""
    choice = spec.option("checked")
    return index % SAMPLE == 0 if choice is None else bool(choice)


def seat_chooser(bots: Sequence[Bot], rng: random.Random) -> Callable[[Any], Action]:
    """`choose` for `play_lean`: the bot of the first seat the game waits on."""

    def choose(state: Any) -> Action:
        waiting = state.waiting_for()
        if not waiting:
            raise RuntimeError("the game waits on the facilitator, not on a seat")
        return bots[waiting[0]](state, waiting[0], rng)

    return choose


def play_out(game: AnyGame, bots: Sequence[Bot], rng: random.Random, max_actions: int = 100_000) -> AnyGame:
    """Let `bots[seat]` choose for every seat a `Game` waits on until it is over (the record
    keeps every move: for tests, printables and saved example games)."""
    rules = game.rules
    while not rules.over(game.state):
        if len(game.actions) >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        waiting = rules.waiting_for(game.state)
        if not waiting:
            raise RuntimeError("the game waits on the facilitator, not on a seat")
        game.apply(bots[waiting[0]](game.state, waiting[0], rng))
    return game


def bot_setup(rules: GameRules, strategies: Mapping[str, Bot], bots: Sequence[str], setup: Any = None) -> Any:
    """The setup for a bot table, one strategy name per seat; without one, seats are named
    after their bots. Refuses unknown strategies and a count that does not fit the setup."""
    unknown = [b for b in bots if b not in strategies]
    if unknown:
        raise RuleError("bots", say("unknown bot {given}; choose from {bots}", given=repr(unknown[0]), bots=", ".join(strategies)))
    setup = setup or rules.setup(names=tuple(f"{b} {i + 1}" for i, b in enumerate(bots)))
    if len(bots) != len(setup.names):
        raise RuleError("bots", say_n("{n} bot for {seats} seats", "{n} bots for {seats} seats", len(bots), seats=len(setup.names)))
    return setup


# -- many games: here, on every core, or on a Dask cluster ---------------------------------------


PlayGame = Callable[[Spec, int, int], Row]


#: the words of the numbers every game's summary may have, by key (`label_of`); as the lab's
#: tables always wrote a key ("win_share_by_seat" -> "Win share by seat").
LABELS: Mapping[str, Said] = {
    "games": say("Games"),
    # TRANSLATORS: a column of the lab's CSV: the game's number in the run.
    "game": say("Game"),
    # TRANSLATORS: a column of the lab's CSV: which of the two setups compared (A or B).
    "setup": say("Setup"),
    "seed": say("Seed"),
    "variant": say("Variant"),
    "endings": say("Endings"),
    "winning_score": say("Winning score"),
    "score_spread": say("Score spread"),
    "win_share_by_seat": say("Win share by seat"),
    "win_share_per_seat_by_bot": say("Win share per seat by bot"),
    "mean": say("Mean"),
    "sd": say("Sd"),
    "min": say("Min"),
    "max": say("Max"),
}


def label_of(key: str, own: Mapping[str, Said] | None = None, readable: bool = True) -> Said | str:
    """The words of a number's key, as a game's lab (`own`: its `LabGame.labels`) or every lab
    says them; else, with `readable`, the key made readable ("rounds_played" -> "Rounds
    played"), or the key as is."""
    own = own or {}
    said = own.get(key) or LABELS.get(key)
    if said is not None:
        return said
    what, colon, kind = key.partition(": ")
    if colon and f"{what}: {{kind}}" in own:  # a measure per kind of bot: "mean VP: fair"
        return dataclasses.replace(own[f"{what}: {{kind}}"], values=(("kind", kind),))
    return key.replace("_", " ").capitalize() if readable else key


@dataclass(frozen=True)
class LabGame:
    """One game's lab: its bots, its own options and how a run is played, summed up and read."""

    slug: str
    bots: Mapping[str, Bot]
    default_bots: tuple[str, ...]
    #: the lab's own options for this game (not setup fields), with their defaults.
    options: Mapping[str, Any]
    #: one game's row of plain numbers: `play_game(spec, seed, index)`.
    play_game: PlayGame
    #: the JSON-ready statistics of a run's rows.
    summarise: Callable[[Spec, Sequence[Row]], dict[str, Any]]
    #: per-game values a comparison sets side by side: name -> values, one per row.
    measures: Callable[[Spec, Sequence[Row]], Measures]
    #: what a designer must not miss, each shown only when it holds in these rows.
    findings: Callable[[Spec, Sequence[Row]], list[Finding]]
    #: extra tables a run adds beside its rows (Danger World's check sweep).
    extras: Callable[..., dict[str, Any]] | None = None
    #: what a comparison sets beside its table, from A's and B's summaries (Leerdam: each
    #: village's dyke year by year, drawn side by side).
    compared_extras: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None
    #: the design review of the text as written: sentences with intervals (`lab.review`),
    #: `review(spec, rows)`, or `review(spec, rows, (aimed_spec, aimed_rows))` with `aimed`.
    review: Callable[..., list[Finding]] | None = None
    #: the VARIANTS text that plays the text as written, where the model's defaults do not.
    as_written: str = ""
    #: VARIANTS (beside `as_written`) of a second table the review plays: bots that aim for what
    #: the default bots never reach, so that "no game reaches it" does not rest on bots that
    #: never try. Its review then takes that table's (spec, rows) too.
    aimed: str = ""
    #: at a table with people (`playbook.bots`): of the seats the game waits for, those whose
    #: bots move now, `(state, waiting, bot_seats) -> seats`; the others' bots wait for the
    #: people (Leerdam's allocate after them, so that people can still hire them). None: every
    #: bot moves when the game waits for it. The table's facilitator can release them anyway.
    bots_move_now: Callable[[Any, tuple[int, ...], Collection[int]], tuple[int, ...]] | None = None
    #: what a run of this game plays, said beside the balance lab's numbers.
    note: str | Said = ""
    #: a VARIANTS example, shown in the balance lab's empty variants box.
    variant_example: str | Said = ""
    #: what each bot does, in words a reader's language says (`lab.bot_doc`); a bot not
    #: named here is said by its docstring.
    bot_words: Mapping[str, Said] = field(default_factory=dict)
    #: the words of this game's numbers (its summary's keys, their tables' rows, its villages),
    #: by key, for the lab's tables (`label_of`); beside `LABELS`, which every game shares.
    labels: Mapping[str, Said] = field(default_factory=dict)
    #: ready-made tables of bots by name (Leerdam's villages), offered beside the seats.
    line_ups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the charts of a run (`lab.Run`) as matplotlib figures (matplotlib is imported inside).
    figures: Callable[[Any], list[Any]] | None = None

    def spec(self, text: str = "", bots: Sequence[str] | None = None) -> Spec:
        """A spec from VARIANTS text (and, if given, one bot per seat)."""
        spec = parse_spec(self.slug, text, self.bots, self.default_bots, self.options)
        if bots is not None:
            spec = dataclasses.replace(spec, bots=tuple(bots))
            bot_setup(GAMES[self.slug], self.bots, spec.bots, spec.setup(tuple(self.options)))
        return spec

    def setup(self, spec: Spec) -> Any:
        return spec.setup(tuple(self.options))


@runtime_checkable
class LabModule(Protocol):
    """What a game's lab module (its card's "lab" layer) provides: its `LabGame`."""

    GAME: LabGame


def _chunk(play_game: PlayGame, spec: Spec, seed: int, indices: range) -> list[Row]:
    return [play_game(spec, seed, i) for i in indices]


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: this process's one pool of workers (a Voila page is a kernel: one pool per page at most).
_POOL: dict[str, Any] = {"workers": 0, "pool": None, "timer": None}
#: an idle pool is closed after this many seconds (a page left open keeps no processes).
POOL_IDLE_SECONDS = 120.0
_POOL_LOCK = threading.Lock()


def _pool(workers: int) -> ProcessPoolExecutor:
    """The pool of `workers` processes, kept for the next run (starting one costs more than a
    small run); a pool of another size is closed first, so a process never holds two."""
    with _POOL_LOCK:
        if _POOL["timer"] is not None:
            _POOL["timer"].cancel()
            _POOL["timer"] = None
        pool = _POOL["pool"]
        if pool is not None and _POOL["workers"] == workers:
            return pool
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        import multiprocessing

        # fork: a worker starts as a copy of this process, lab imported, without re-running
        # the caller's script (spawn would, and a script without a main guard would loop).
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))
        _POOL.update(workers=workers, pool=pool)
        return pool


def _idle_later() -> None:
    """Close the pool if no run uses it within `POOL_IDLE_SECONDS`."""
    with _POOL_LOCK:
        if _POOL["pool"] is None:
            return
        if _POOL["timer"] is not None:
            _POOL["timer"].cancel()
        timer = threading.Timer(POOL_IDLE_SECONDS, lambda: _close_idle(timer))
        timer.daemon = True
        _POOL["timer"] = timer
        timer.start()


def _close_idle(timer: threading.Timer) -> None:
    """The idle timer's end: close the pool unless a run took it since (a run drops the timer)."""
    with _POOL_LOCK:
        if _POOL["timer"] is not timer:
            return
        pool = _POOL["pool"]
        _POOL.update(workers=0, pool=None, timer=None)
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def close_pool() -> None:
    """Stop this process's workers now (a page closing, an idle pool); the next run starts anew."""
    with _POOL_LOCK:
        if _POOL["timer"] is not None:
            _POOL["timer"].cancel()
        pool = _POOL["pool"]
        _POOL.update(workers=0, pool=None, timer=None)
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def run_games(
    play_game: PlayGame,
    spec: Spec,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Row]:
    """`play_game(spec, seed, i)` for i in 0..games-1, in order.

    `workers`: processes to use (None: every core; 1: this process only). `scheduler`: the
    address of a Dask scheduler (`tcp://host:8786`) to send the games to instead.
    `progress(done)` is called as games finish. The rows do not depend on who played them.
    """
    if games < 0:
        raise RuleError("games", say("the number of games is 0 or more"))
    cores = default_workers()
    workers = cores if workers is None else workers
    if workers < 1:
        raise RuleError("workers", say("use at least one worker"))
    if scheduler is None and workers > cores:
        # more processes than cores only adds memory and switching; refused before any starts
        raise RuleError("workers", say_n("this machine has {n} core: use 1 to {n} workers, not {workers}", "this machine has {n} cores: use 1 to {n} workers, not {workers}", cores, workers=workers))
    size = max(1, min(CHUNK, math.ceil(games / (4 * max(workers, 1)))))
    chunks = [range(start, min(start + size, games)) for start in range(0, games, size)]
    results: dict[int, list[Row]] = {}
    done = 0
    if scheduler is not None:
        from distributed import Client
        from distributed import as_completed as dask_completed

        with Client(scheduler) as client:
            futures = {client.submit(_chunk, play_game, spec, seed, c, pure=False): c.start for c in chunks}
            for future in dask_completed(futures):
                results[futures[future]] = future.result()
                done += len(results[futures[future]])
                if progress is not None:
                    progress(done)
    elif workers == 1 or len(chunks) <= 1:
        for c in chunks:
            results[c.start] = _chunk(play_game, spec, seed, c)
            done += len(c)
            if progress is not None:
                progress(done)
    else:
        pool = _pool(workers)
        try:
            futures = {pool.submit(_chunk, play_game, spec, seed, c): c.start for c in chunks}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                done += len(results[futures[future]])
                if progress is not None:
                    progress(done)
        finally:
            _idle_later()
    return [row for start in sorted(results) for row in results[start]]


# -- numbers for reports --------------------------------------------------------------------------


def distribution(counts: Mapping[int, int]) -> dict[str, Any]:
    """Mean, min, max and histogram of a count of whole-number outcomes (balance reports)."""
    values = sorted(k for k, n in counts.items() for _ in range(n))
    return {
        "mean": round(sum(values) / len(values), 3) if values else None,
        "min": values[0] if values else None,
        "max": values[-1] if values else None,
        "histogram": {str(k): counts[k] for k in sorted(counts)},
    }


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Mean, spread (sample standard deviation), min and max of per-game values."""
    values = [v for v in values if v is not None]
    if not values:
        return {"mean": None, "sd": None, "min": None, "max": None}
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return {"mean": round(mean, 4), "sd": round(sd, 4), "min": min(values), "max": max(values)}


#: the confidence of every interval the lab shows, and the family-wise error rate of a comparison.
LEVEL = 0.95


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta I_x(a, b) by its continued fraction (modified Lentz)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast only below this point
        return 1.0 - _beta_fraction(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            term = 1.0
        elif i % 2:
            term = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        else:
            term = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1.0 + term * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + term / c
        c = c if abs(c) > tiny else tiny
        f *= c * d
        if abs(1.0 - c * d) < 1e-13:
            break
    return front * (f - 1.0)


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom (the p-value of a t-test)."""
    if df < 1:
        raise ValueError("a t-test needs one degree of freedom or more")
    if not math.isfinite(t):
        return 0.0
    return _beta_fraction(df / 2, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=4096)
def t_quantile(df: int, level: float = LEVEL) -> float:
    """The t with P(|T| <= t) = `level` for `df` degrees of freedom (12.706 for 1, 1.960 at infinity)."""
    low, high = 0.0, 1e7
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided(middle, df) > 1 - level:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float, float, float]:
    """The mean of per-game values, its t interval (low, high) and the t-test's two-sided
    p-value against 0. One value: an infinite interval; no spread: a point (p 1 at 0, else 0)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    if n < 2:
        return mean, -math.inf, math.inf, 1.0
    if sd == 0:
        return mean, mean, mean, 1.0 if mean == 0 else 0.0
    se = sd / math.sqrt(n)
    half = t_quantile(n - 1, level) * se
    return mean, mean - half, mean + half, t_two_sided(mean / se, n - 1)


def share_interval(count: float, total: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson's interval for a share of games (`count` may hold shared wins as shares): sound
    at 0 of 2,000 (the normal one says 0 to 0)."""
    if total == 0:
        return 0.0, 1.0
    z = t_quantile(10**9, level)
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z / (1 + z * z / total) * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(a: Sequence[float | None], b: Sequence[float | None]) -> dict[str, Any]:
    """B - A over games played on the same seeds (a game with no value on either side left
    out): the mean difference and its 95% t interval.

    Paired: each game's difference is taken first, so the shared luck of a seed cancels out.
    `p` is the paired t-test's two-sided p-value; `noise` is true when the interval holds 0 (a
    comparison then sets it again for its whole family of measures, see `findings.holm`).
    """
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    n = len(pairs)
    if n == 0:
        return {"a": None, "b": None, "difference": None, "low": None, "high": None, "p": None, "noise": True, "identical": False, "games": 0}
    diffs = [y - x for x, y in pairs]
    mean, low, high, p = mean_interval(diffs)
    return {
        "a": round(sum(x for x, _ in pairs) / n, 4),
        "b": round(sum(y for _, y in pairs) / n, 4),
        "difference": round(mean, 4),
        "low": round(low, 4) if math.isfinite(low) else None,
        "high": round(high, 4) if math.isfinite(high) else None,
        "p": p,
        "noise": not (low > 0 or high < 0),
        #: every game came out the same in A and B (common random numbers can make a change exact).
        "identical": all(d == 0 for d in diffs),
        "games": n,
    }


@dataclass(frozen=True)
class Finding:
    """One thing a designer must not miss, in words, with the numbers it rests on."""

    key: str
    text: str
    numbers: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "text": self.text, "numbers": dict(self.numbers)}


def shares(rows: Sequence[Row], key: str) -> dict[str, float]:
    """How often each value of `key` occurs, as shares of the rows."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[str(row[key])] = counts.get(str(row[key]), 0) + 1
    return {k: round(n / len(rows), 4) for k, n in sorted(counts.items())} if rows else {}


def iter_seats(row: Row, prefix: str) -> Iterator[tuple[int, Any]]:
    """(seat, value) of a row's per-seat columns `prefix1`, `prefix2`, ..."""
    seat = 1
    while f"{prefix}{seat}" in row:
        yield seat - 1, row[f"{prefix}{seat}"]
        seat += 1
