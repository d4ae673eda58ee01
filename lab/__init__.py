"""The balance lab: bots for every game, many games played fast, variants compared, findings.

    import lab
    run = lab.simulate("leerdam", games=1000, seed=1)             # the default village
    run.findings                                                   # what it shows, in words
    harsh = lab.spec("leerdam", "misfortune=3,2,1,0,0,0")
    comparison = lab.compare("leerdam", lab.spec("leerdam"), harsh, games=1000, seed=1)
    lab.review("leerdam")                                          # the text as written, in words

A comparison writes a change only when it holds over all its measures together (Holm), and no
run states a finding below `findings.MIN_GAMES` games.

`BOTS[slug]` maps each strategy's name to a function `(state, seat, rng) -> Action` that plays
any seat of that game; `DEFAULT_BOTS[slug]` is the game's default table. Every run is
seeded: game i of a run comes from (seed, i) alone, so the same call gives the same numbers
on one core, on every core (`workers`) or on a Dask cluster (`scheduler`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from i18n import _, _n, render
from rules.core import RuleError
from rules.games import ByGame, card, unknown_game
from rules.text import say

from .core import Bot, Finding, LabGame, Row, Spec, paired_difference, run_games
from .findings import MIN_GAMES, compared, holm, too_few

__all__ = ["BOTS", "DEFAULT_BOTS", "GAMES", "Comparison", "Review", "Run", "Spec", "compare", "review", "review_games", "simulate", "spec"]

# Each game's part of the lab is loaded when that game is first used (see `rules.games.ByGame`).
GAMES: Mapping[str, LabGame] = ByGame(lambda game: game.module("lab").GAME)
BOTS: Mapping[str, dict[str, Bot]] = ByGame(lambda game: dict(GAMES[game.slug].bots))
DEFAULT_BOTS: Mapping[str, tuple[str, ...]] = ByGame(lambda game: GAMES[game.slug].default_bots)


def _game(slug: str) -> LabGame:
    if slug not in GAMES:
        raise RuleError("game", unknown_game(slug))
    return GAMES[slug]


def spec(game: str, variants: str = "", bots: Sequence[str] | None = None) -> Spec:
    """A setup to run, from VARIANTS text (see `lab.core.parse_spec`) and optional bots."""
    return _game(game).spec(variants, bots)


def bot_doc(game: str, name: str) -> str:
    """What a bot does, in the reader's language (its game's `bot_words`), else its docstring's
    first paragraph (its first line alone can stop mid-sentence)."""
    words = _game(game).bot_words.get(name)
    if words is not None:
        return render(words)
    doc = " ".join((_game(game).bots[name].__doc__ or name).strip().split("\n\n")[0].split())
    return doc.split(": ", 1)[1] if doc.startswith(f"{name}:") else doc


@dataclass
class Run:
    """The games of one setup: a row per game, the statistics and the findings."""

    spec: Spec
    seed: int
    rows: list[Row]
    summary: dict[str, Any]
    findings: list[Finding]
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.spec.game

    def as_dict(self) -> dict[str, Any]:
        return {**self.summary, "seed": self.seed, **self.extras, "findings": [f.as_dict() for f in self.findings]}

    def figures(self) -> list[Any]:
        """The run's charts (matplotlib figures), as its game's lab draws them; none if it draws none."""
        draw = GAMES[self.game].figures
        return draw(self) if draw is not None else []


def _progress(progress: Callable[[int], None] | None, offset: int) -> Callable[[int], None] | None:
    return None if progress is None else (lambda done: progress(offset + done))


def simulate(
    game: str,
    games: int,
    seed: int,
    setup: Spec | str | None = None,
    *,
    bots: Sequence[str] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    extras: bool = True,
) -> Run:
    """Play `games` games of one setup (a `Spec`, VARIANTS text or the default table); with
    `extras`, also the game's own tables (Danger World's check sweep)."""
    lab_game = _game(game)
    chosen = setup if isinstance(setup, Spec) else lab_game.spec(setup or "", bots)
    if games < 1:
        raise RuleError("games", say("play at least one game"))
    rows = run_games(lab_game.play_game, chosen, games, seed, workers=workers, scheduler=scheduler, progress=progress)
    tables = lab_game.extras(chosen, games, seed, workers=workers, scheduler=scheduler) if extras and lab_game.extras else {}
    summary = {**lab_game.summarise(chosen, rows), "seed": seed}
    # Below the minimum a run reports its numbers but no finding (see `findings.MIN_GAMES`).
    found = too_few(games) or lab_game.findings(chosen, rows)
    return Run(chosen, seed, rows, summary, found, tables)


@dataclass
class Comparison:
    """Two setups on the same seeds: each measure side by side with the difference B - A."""

    a: Run
    b: Run
    #: one row per measure: measure, a, b, difference, low, high, noise, games.
    table: list[dict[str, Any]]
    findings: list[Finding]
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.a.game

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": len(self.a.rows),
            "seed": self.a.seed,
            "a": self.a.spec.text,
            "b": self.b.spec.text,
            "measures": self.table,
            **self.extras,
            "findings": [f.as_dict() for f in self.findings],
            "findings_a": [f.as_dict() for f in self.a.findings],
            "findings_b": [f.as_dict() for f in self.b.findings],
        }


def comparison_table(game: str, a: Run, b: Run) -> list[dict[str, Any]]:
    """Every measure both setups have, paired game by game (game i shares its seed), with
    Holm's correction over them all: a row's `holds` (and not `noise`) is a change to report."""
    lab_game = _game(game)
    ma, mb = lab_game.measures(a.spec, a.rows), lab_game.measures(b.spec, b.rows)
    table = [{"measure": name, **paired_difference(ma[name], mb[name])} for name in ma if name in mb]
    holm(table)
    return table


def compare(
    game: str,
    a: Spec | str,
    b: Spec | str,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    seed_b: int | None = None,
) -> Comparison:
    """Setups A and B on the same seeds (common random numbers); `progress` counts both.

    `seed_b` plays B on seeds of its own instead: two runs of one setup so seeded (an A/A
    test) differ only by luck, and every change the comparison writes is a false one."""
    lab_game = _game(game)
    spec_a = a if isinstance(a, Spec) else lab_game.spec(a)
    spec_b = b if isinstance(b, Spec) else lab_game.spec(b)
    # The games alone: a game's own tables (the check sweep) do not depend on the bots.
    run_a = simulate(game, games, seed, spec_a, workers=workers, scheduler=scheduler, progress=progress, extras=False)
    run_b = simulate(game, games, seed if seed_b is None else seed_b, spec_b, workers=workers, scheduler=scheduler, progress=_progress(progress, games), extras=False)
    table = comparison_table(game, run_a, run_b)
    extras = lab_game.compared_extras(run_a.summary, run_b.summary) if lab_game.compared_extras else {}
    return Comparison(run_a, run_b, table, compared(table, lab_game.labels), extras)


def review_games(game: str, games: int) -> int:
    """The games a review of `games` plays in all (a game with an aimed table plays it too)."""
    return games * (2 if _game(game).aimed else 1)


@dataclass
class Review:
    """A game's text as written, reviewed by its default bots (and, where the game has one, a
    table of bots that aim for what they never reach): sentences with intervals."""

    run: Run
    findings: list[Finding]
    aimed: Run | None = None

    @property
    def game(self) -> str:
        return self.run.game

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": len(self.run.rows),
            "seed": self.run.seed,
            "setup": self.run.spec.text,
            **({"aimed_setup": self.aimed.spec.text} if self.aimed else {}),
            "findings": [f.as_dict() for f in self.findings],
        }

    def text(self) -> str:
        """The review as plain lines, for a terminal."""
        said = dict(game=self.game, seed=str(self.run.seed), setup=self.run.spec.text)
        games = len(self.run.rows)
        if self.aimed:
            head = _n(
                "{game}: the text as written, {n} game by bots (seed {seed}; {setup}; and {aimed})",
                "{game}: the text as written, {n} games by bots (seed {seed}; {setup}; and {aimed})",
                games, **said, aimed=self.aimed.spec.text,
            )
        else:
            head = _n("{game}: the text as written, {n} game by bots (seed {seed}; {setup})", "{game}: the text as written, {n} games by bots (seed {seed}; {setup})", games, **said)
        return "\n".join([head, *(f"- {f.text}" for f in self.findings)])


def review(
    game: str,
    games: int | None = None,
    seed: int = 1,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Review:
    """What the default bots find in the text as written: what wins, how often the text's own
    end is reached, seat order, what no game reaches; each share with its 95% interval."""
    lab_game = _game(game)
    games = card(game).review_games if games is None else games
    if games < MIN_GAMES:
        raise RuleError("games", say("a review states findings: play at least {minimum} games", minimum=MIN_GAMES))
    chosen = lab_game.spec(lab_game.as_written)
    run = simulate(game, games, seed, chosen, workers=workers, scheduler=scheduler, progress=progress, extras=False)
    aimed = None
    if lab_game.aimed:
        # the same seeds: the aimed table meets the same dice as the default one
        aimed_spec = lab_game.spec(f"{lab_game.as_written} {lab_game.aimed}")
        aimed = simulate(game, games, seed, aimed_spec, workers=workers, scheduler=scheduler, progress=_progress(progress, games), extras=False)

    def seats(spec: Spec) -> str:
        return "; ".join(
            # TRANSLATORS: a bot, how many seats it plays and what it does: "fair (5 seats): pledges its share".
            _n("{bot} ({n} seat): {what}", "{bot} ({n} seats): {what}", spec.bots.count(k), bot=k, what=bot_doc(game, k).rstrip("."))
            for k in dict.fromkeys(spec.bots)
        )

    sentences = [_("These sentences are what these bots found, not a proof: {seats}.", seats=seats(chosen))]
    if aimed:
        sentences.append(_("A second table plays the same games, aiming for what those bots never do: {seats}.", seats=seats(aimed.spec)))
    if "gm" in lab_game.options:
        sentences.append(_("The GM plays the '{script}' script.", script=str(chosen.option("gm", lab_game.options.get("gm")))))
    bots = Finding(
        "bots",
        " ".join(sentences),
        {"bots": list(chosen.bots), **({"aimed_bots": list(aimed.spec.bots)} if aimed else {})},
    )
    if not lab_game.review:
        return Review(run, [bots], aimed)
    said = lab_game.review(chosen, run.rows, (aimed.spec, aimed.rows)) if aimed else lab_game.review(chosen, run.rows)
    return Review(run, [bots, *said], aimed)


def options(game: str) -> Mapping[str, Any]:
    """The lab's own options for `game` (beside its setup fields), with their defaults."""
    return dict(_game(game).options)
