"""The `playbook` command: serve the dashboards, print materials, simulate, compare, replay."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import lab
from rules import danger_world, dangerous_ideas, load_game

__all__ = ["main"]

PRINT_GAMES = ("new-rule", "leerdam", "danger-world", "dangerous-ideas")
VARIANTS_HELP = (
    "VARIANTS are key=value pairs separated by spaces or commas: bots=NAME*K,... gives one bot per "
    "seat (NAME*K repeats a bot); players=N cycles the default bots to N seats; any other key is a "
    "setup variant of the game (misfortune=3,2,1,0,0,0, max_rounds=none, anonymous=true) or a lab "
    "option (new-rule: cap; danger-world: gm, difficulty, rounds, sheet, sweep_trials)."
)


class UsageError(Exception):
    """Bad arguments: reported on stderr with exit status 2."""


def _names(text: str | None, players: int | None) -> list[str] | None:
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if players is not None and len(names) != players:
        raise UsageError(f"--names gives {len(names)} names but --players is {players}")
    return names


def _cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    extra = [f"--Voila.ip={args.ip}"] if args.ip else []
    return serve(port=args.port, notebook=args.notebook, open_browser=args.open, extra_args=extra)


def _printer(game: str) -> Any:
    """The printables module of `game` (imported on demand: ReportLab is slow to load)."""
    import importlib

    return importlib.import_module("printables." + game.replace("-", "_"))


def _cmd_print(args: argparse.Namespace) -> int:
    from reportlab.platypus import PageBreak

    from printables.common import build_document

    names = _names(args.names, args.players)
    if args.game_file is not None:
        saved = load_game(Path(args.game_file).read_bytes())
        if args.game not in ("all", saved.rules.slug):
            raise UsageError(f"{args.game_file} is a {saved.rules.slug} game, not {args.game}")
        story = _printer(saved.rules.slug).build_story(state=saved.state, page=args.page)
        title = f"{saved.rules.title}: what you played"
    else:
        games = list(PRINT_GAMES) if args.game == "all" else [args.game]
        story = []
        for game in games:
            if story:
                story.append(PageBreak())  # each game starts its own page (and its own headers)
            story += _printer(game).build_story(names, players=args.players, page=args.page)
        title = "Playbook: printable materials"
    data = build_document(story, page=args.page, title=title)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print(f"wrote {out} ({len(data) // 1024} KiB)", file=sys.stderr)
    return 0


def _bar(total: int, quiet: bool) -> tuple[Any, Any]:
    """A tqdm progress bar on stderr (when it is a terminal) and the callback that moves it."""
    if quiet or not sys.stderr.isatty():
        return None, None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="game", file=sys.stderr)
    return bar, lambda done: bar.update(done - bar.n)


def _write_reports(args: argparse.Namespace, result: Any) -> None:
    from lab.report import csv_text

    if args.csv:
        Path(args.csv).write_text(csv_text(result), encoding="utf-8")
        print(f"wrote {args.csv}", file=sys.stderr)
    if args.pdf:
        from printables.balance_report import build_pdf

        Path(args.pdf).write_bytes(build_pdf(result, page=args.page))
        print(f"wrote {args.pdf}", file=sys.stderr)


def _play(args: argparse.Namespace, total: int, call: Any) -> int:
    """Run `call(progress)` under a progress bar, write the reports asked for, print the JSON."""
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    bar, progress = _bar(total, args.quiet)
    try:
        result = call(progress)
    finally:
        if bar is not None:
            bar.close()
    _write_reports(args, result)
    print(json.dumps(result.as_dict(), indent=None if args.json else 2, ensure_ascii=False))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
    spec = lab.spec(args.game, args.variant or "", bots)
    return _play(args, args.games, lambda progress: lab.simulate(args.game, args.games, args.seed, spec, workers=args.workers, scheduler=args.scheduler, progress=progress))


def _cmd_compare(args: argparse.Namespace) -> int:
    a, b = lab.spec(args.game, args.a or ""), lab.spec(args.game, args.b)
    return _play(args, 2 * args.games, lambda progress: lab.compare(args.game, a, b, args.games, args.seed, workers=args.workers, scheduler=args.scheduler, progress=progress))


def _run_options(p: argparse.ArgumentParser) -> None:
    """The options `simulate` and `compare` share."""
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run: game i is seeded from (seed, i) (default 0)")
    p.add_argument("--workers", type=int, help="processes to use (default: every core; 1: no pool)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="send the games to a Dask scheduler, e.g. tcp://10.0.0.5:8786 (needs the [lab] extra)")
    p.add_argument("--csv", metavar="FILE.csv", help="also write one row per game as CSV")
    p.add_argument("--pdf", metavar="FILE.pdf", help="also write a printable report with plots and findings")
    p.add_argument("--page", choices=["a4", "letter"], default="a4", help="the report's paper size (default a4)")
    p.add_argument("--json", action="store_true", help="one line of JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _cmd_odds(args: argparse.Namespace) -> int:
    if args.game == "dangerous-ideas":
        if args.pool is None:
            raise UsageError("dangerous-ideas odds need --pool N")
        report = dangerous_ideas.odds_report(args.pool, args.seeds)
    else:
        if args.dice is None or args.difficulty is None:
            raise UsageError("danger-world odds need --dice N and --difficulty D")
        report = danger_world.odds_report(args.dice, args.difficulty, penalty=args.penalty, rerolls=args.rerolls)
    print(json.dumps(report, indent=2))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    game = load_game(Path(args.file).read_bytes())
    rules, state = game.rules, game.state
    names = state.setup.names
    report = {
        "game": rules.slug,
        "actions": len(game.actions),
        "over": rules.over(state),
        "ended": getattr(state, "ended", ""),
        "standings": [
            {"rank": rank, "seat": seat, "name": names[seat], "score": score} for rank, seat, score in rules.standings(state)
        ],
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="playbook", description="Playbook and print generator for four tabletop games.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("serve", help="serve the playbook dashboards with Voila", description="Start Voila on the playbook's notebooks (http://localhost:8866 by default).")
    p.add_argument("--port", type=int, default=8866, help="port to listen on (default 8866)")
    p.add_argument("--notebook", help="serve one notebook instead of the whole playbook")
    p.add_argument("--open", action="store_true", help="open a browser tab")
    p.add_argument("--ip", help="address to listen on (default 127.0.0.1; 0.0.0.0 lets other devices on the network join)")
    p.set_defaults(run=_cmd_serve)

    p = sub.add_parser(
        "print",
        help="print play materials as PDF",
        description="Blank materials for N players, or (with --game-file) the sheets of a saved game filled in.",
    )
    p.add_argument("game", choices=[*PRINT_GAMES, "all"], help="which game's materials, or all")
    p.add_argument("--players", type=int, help="number of players (blank materials)")
    p.add_argument("--names", help="comma-separated player names, printed on the sheets")
    p.add_argument("--page", choices=["a4", "letter"], default="a4", help="paper size (default a4)")
    p.add_argument("--game-file", metavar="SAVE.json", help="fill the sheets from a saved game")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf", help="where to write the PDF")
    p.set_defaults(run=_cmd_print)

    bots = "; ".join(f"{slug}: {', '.join(names)}" for slug, names in lab.BOTS.items())
    p = sub.add_parser(
        "simulate",
        help="play many bot games and report outcome statistics and findings",
        description="Bot games for balance testing; the same seed gives the same numbers, on any number of workers. " + VARIANTS_HELP,
        epilog='example: playbook simulate leerdam --games 10000 --variant "bots=fair*5,free-rider*5,misfortune=3,2,1,0,0,0" --json',
    )
    p.add_argument("game", choices=list(lab.GAMES), help="which game")
    p.add_argument("--bots", help=f"comma-separated bot per seat ({bots})")
    p.add_argument("--variant", metavar="VARIANTS", help="setup variants and lab options, e.g. misfortune=3,2,1,0,0,0")
    _run_options(p)
    p.set_defaults(run=_cmd_simulate)

    p = sub.add_parser(
        "compare",
        help="two setups on the same seeds, each measure side by side with a 95%% interval",
        description="Play setups A and B on the same seeds (common random numbers) and report each measure for A and B, "
        "the difference B - A with its paired 95% interval, and whether it is within noise. " + VARIANTS_HELP,
        epilog='example: playbook compare leerdam --a "bots=fair*10" --b "bots=fair*10,misfortune=3,2,1,0,0,0" --games 10000 --json',
    )
    p.add_argument("game", choices=list(lab.GAMES), help="which game")
    p.add_argument("--a", metavar="VARIANTS", default="", help="setup A (default: the game's default table)")
    p.add_argument("--b", metavar="VARIANTS", required=True, help="setup B")
    _run_options(p)
    p.set_defaults(run=_cmd_compare)

    p = sub.add_parser(
        "odds",
        help="exact probabilities as JSON",
        description="Exact odds, as a decimal and a fraction. danger-world: --dice N --difficulty D "
        "[--penalty P] [--rerolls R], the chance of a set of height D or more when the player locks "
        "and re-rolls optimally. dangerous-ideas: --pool N [--seeds S], the chance a meme action "
        "succeeds when the actor spends up to S seeds wisely.",
    )
    p.add_argument("game", choices=["danger-world", "dangerous-ideas"], help="which game")
    p.add_argument("--dice", type=int, help="danger-world: dice in the pool")
    p.add_argument("--difficulty", type=int, help="danger-world: difficulty 2-6")
    p.add_argument("--penalty", type=int, default=0, help="danger-world: penalty dice (default 0)")
    p.add_argument("--rerolls", type=int, default=2, help="danger-world: lock/re-roll rounds (default 2)")
    p.add_argument("--pool", type=int, help="dangerous-ideas: stones in the pool")
    p.add_argument("--seeds", type=int, default=0, help="dangerous-ideas: seeds the actor may spend (default 0)")
    p.set_defaults(run=_cmd_odds)

    p = sub.add_parser("replay", help="check a saved game and print its standings as JSON", description="Replay every move of a save file, refusing damaged or tampered files.")
    p.add_argument("file", metavar="FILE.json")
    p.set_defaults(run=_cmd_replay)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (UsageError, ValueError, OSError) as exc:  # RuleError and SaveFileError are ValueErrors
        print(f"playbook {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
