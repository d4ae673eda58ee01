"""The `playbook` command: serve the dashboards, print materials, simulate, compare, replay."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
import urllib.parse
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import i18n
import lab
from i18n import _, _n
from rules import RuleError, SaveFileError, load_game
from rules.core import MAX_FILE_BYTES
from rules.games import CARDS, Card, card, slugs
from rules.text import Said, listed, say

from .refusals import Refusal

__all__ = ["main"]

#: the most students a class takes (`playbook.classes.MAX_STUDENTS`, kept here so that the
#: command line starts without loading the classes; a test keeps the two equal).
CLASS_MOST = 60


class UsageError(Refusal):
    """Bad arguments: reported on stderr with exit status 2."""


def variants_help() -> str:
    """How VARIANTS are written, in the command line's language."""
    return _(
        "VARIANTS are key=value pairs separated by spaces or commas: bots=NAME*K,... gives one bot per "
        "seat (NAME*K repeats a bot); players=N cycles the default bots to N seats; any other key is a "
        "setup variant of the game (misfortune=3,2,1,0,0,0, max_rounds=none, table_dice=true) or a lab "
        "option (new-rule: cap; danger-world: gm, difficulty, rounds, sheet, sweep_trials)."
    )


def language(environ: Mapping[str, str]) -> str:
    """The command line's language: `PLAYBOOK_LANG`, else the locale's (`LANGUAGE`, `LC_ALL`,
    `LC_MESSAGES`, `LANG`, gettext's order), else English. "C" and "POSIX" are English."""
    for key in ("PLAYBOOK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key, "").split(":")[0].split(".")[0].split("@")[0]
        if value and value not in ("C", "POSIX"):
            return i18n.known(value)
    return i18n.SOURCE


#: argparse's own words that a user reads (its `_` hook looks them up here): argparse's text,
#: and the same said with fields, its %-placeholders given back as the values.
ARGPARSE_WORDS: dict[str, Said] = {
    "usage: ": say("usage: "),
    "positional arguments": say("positional arguments"),
    "options": say("options"),
    "show this help message and exit": say("show this help message and exit"),
    "show program's version number and exit": say("show program's version number and exit"),
    "argument %(argument_name)s: %(message)s": say("argument {argument}: {message}", argument="%(argument_name)s", message="%(message)s"),
    "%(prog)s: error: %(message)s\n": say("{prog}: error: {message}", prog="%(prog)s", message="%(message)s\n"),
    "unrecognized arguments: %s": say("unrecognized arguments: {arguments}", arguments="%s"),
    "the following arguments are required: %s": say("the following arguments are required: {arguments}", arguments="%s"),
    "one of the arguments %s is required": say("one of the arguments {arguments} is required", arguments="%s"),
    "not allowed with argument %s": say("not allowed with argument {argument}", argument="%s"),
    "expected one argument": say("expected one argument"),
    "expected at most one argument": say("expected at most one argument"),
    "expected at least one argument": say("expected at least one argument"),
    "ambiguous option: %(option)s could match %(matches)s": say("ambiguous option: {option} could match {matches}", option="%(option)s", matches="%(matches)s"),
    "invalid %(type)s value: %(value)r": say("invalid {type} value: {value}", type="%(type)s", value="%(value)r"),
    "invalid choice: %(value)r (choose from %(choices)s)": say("invalid choice: {value} (choose from {choices})", value="%(value)r", choices="%(choices)s"),
    "can't open '%(filename)s': %(error)s": say("can't open '{filename}': {error}", filename="%(filename)s", error="%(error)s"),
}


def _argparse_says(text: str) -> str:
    """argparse's gettext hook: its words in the command line's language (others as they are)."""
    said = ARGPARSE_WORDS.get(text)
    return i18n.render(said) if said is not None else text


@contextlib.contextmanager
def _argparse_speaking() -> Iterator[None]:
    """argparse looks its words up through its module's `_` (gettext's hook): ours while it runs."""
    before = argparse._  # type: ignore[attr-defined]
    argparse._ = _argparse_says  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = before  # type: ignore[attr-defined]


def _ranged(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (no upper bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{given} is not a whole number", given=repr(text))) from None
        if value < low or (high is not None and value > high):
            if high is not None:
                raise argparse.ArgumentTypeError(_("{value} is out of range ({low}-{high})", value=str(value), low=str(low), high=str(high)))
            raise argparse.ArgumentTypeError(_("{value} is out of range ({low} or more)", value=str(value), low=str(low)))
        return value

    parse.__name__ = "number"
    return parse


def _output(text: str) -> Path:
    """An argparse type: a PDF to write, in a folder that exists (none is made)."""
    path = Path(text)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(_("folder {folder} does not exist", folder=repr(str(folder))))
    if path.is_dir():
        raise argparse.ArgumentTypeError(_("{given} is a folder, not a file", given=repr(text)))
    return path


def _existing(text: str) -> Path:
    """An argparse type: a file that exists."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(_("no file {given}", given=repr(text)))
    return path


def _version() -> str:
    try:
        return metadata.version("playbook")
    except metadata.PackageNotFoundError:
        return "unknown"


def _names(text: str | None, players: int | None) -> list[str] | None:
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if players is not None and len(names) != players:
        raise UsageError(say("--names gives {n} names but --players is {players}", n=str(len(names)), players=str(players)))
    return names


def _setup_variants(game: str, text: str | None) -> dict[str, Any]:
    """`--variant` of a table or a class: the game's setup variants only (VARIANTS' syntax,
    e.g. "anonymous=true misfortune=3,2,1,0,0,0"), as a save file's setup writes them."""
    from lab.core import parse_spec
    from rules.core import _plain

    if not text:
        return {}
    keys = {token.partition("=")[0].strip().replace("-", "_") for token in text.replace(",", " ").split() if "=" in token}
    if keys & {"bots", "players"}:
        raise UsageError(say("argument --variant: give the game's setup variants only (seats and bots have options of their own)"))
    low = card(game).players.low
    spec = parse_spec(game, text, {"seat": None}, ["seat"] * max(3, low), {})  # type: ignore[dict-item]  # no bot plays: the spec is read for its variants
    return {key: _plain(value) for key, value in spec.options}


def _links_base(args: argparse.Namespace) -> str:
    """The server's address in the links `table new` and `class new` print (`--public-url`,
    `PLAYBOOK_URL`, the `playbook serve` running here, this machine's network address); a
    warning on stderr when no phone can open them."""
    from .links import DEFAULT_PORT, command_line_address
    from .serve import phone_address

    where = command_line_address(args.public_url, lambda: phone_address(DEFAULT_PORT).base)
    if where.warning():
        print(_("playbook {command}: warning: {warning}", command=args.command, warning=where.warning()), file=sys.stderr)
    return where.base


def _cmd_table_new(args: argparse.Namespace) -> int:
    """A new table in the store, with its keys; its links as JSON (or one per line)."""
    import secrets as _secrets

    from rules import GAMES, new_game

    from .access import table_keys
    from .links import table_links
    from .store import Store

    low, high = card(args.game).players.range
    names = _names(args.names, args.players)
    players = len(names) if names is not None else (args.players or low)
    if not low <= players <= high:
        raise UsageError(say("argument --players: {game} takes {low}-{high}, not {players}", game=args.game, low=str(low), high=str(high), players=str(players)))
    names = names or [f"Player {i + 1}" for i in range(players)]
    kinds = [k.strip() for k in args.bots.split(",")] if args.bots else ["human"] * players
    if len(kinds) != players:
        raise UsageError(say("--bots gives {n} seats but the table has {players}", n=str(len(kinds)), players=str(players)))
    bots = {str(seat): kind for seat, kind in enumerate(kinds) if kind != "human"}
    variants = _setup_variants(args.game, args.variant)
    setup = GAMES[args.game].setup_from_json({**variants, **_length(args), "names": list(names)})
    seed = args.seed if args.seed is not None else _secrets.randbelow(1_000_000)
    game = new_game(args.game, setup, seed)
    store = Store()
    seats = card(args.game).seat_names(setup)
    meta = {"bots": bots, **table_keys(len(seats)), "pace": _timer(args)}
    if args.lang:
        meta["lang"] = args.lang
    table_id = store.create(game, f"{GAMES[args.game].title}: {', '.join(setup.names)}", meta)
    links = table_links(_links_base(args), args.game, table_id, store.info(table_id).meta, seats)
    if args.json:
        print(json.dumps(links, ensure_ascii=False))
    else:
        # TRANSLATORS: the command line's list of a new table's links, one a line (the labels aligned)
        print(_("table {table} ({game})\nfacilitator: {facilitator}\nboard:       {board}", table=table_id, game=args.game, facilitator=links["facilitator"], board=links["board"]))
        if "join" in links:
            print(_("join:        {join}", join=links["join"]))
        for seat in links["seats"]:
            print(_("seat {seat} ({name}): {url}", seat=str(seat["seat"] + 1), name=seat["name"], url=seat["url"]))
    print(_("the links hold the table's keys: give each only to its reader ({where})", where=str(store.location)), file=sys.stderr)
    return 0


def _length(args: argparse.Namespace) -> dict[str, Any]:
    """`--length`: the game's setup field for it (`playbook.pace.length_variants`)."""
    from .pace import PaceError, length_variants

    try:
        return length_variants(args.game, args.length)
    except PaceError as exc:
        raise UsageError(say("argument --length: {reason}", reason=exc.said)) from None


def _timer(args: argparse.Namespace) -> dict[str, Any]:
    """`--timer` and `--at-zero`: a table's or a class's timer per decision (`playbook.pace.Pace`)."""
    from .pace import Pace, PaceError

    try:
        return Pace(args.timer or 0, args.at_zero).to_json()
    except PaceError as exc:
        raise UsageError(say("argument --timer: {reason}", reason=exc.said)) from None


def _pace_options(p: argparse.ArgumentParser, whose: str) -> None:
    """`--length`, `--timer` and `--at-zero` of `table new` and `class new`."""
    length = (
        _("how long the table plays: N years (Leerdam), rounds (New Rule) or chapters (Dangerous Ideas), or 'end' for the text's own end (default: the game's)")
        if whose == "the table"
        else _("how long every table plays: N years (Leerdam), rounds (New Rule) or chapters (Dangerous Ideas), or 'end' for the text's own end (default: the game's)")
    )
    p.add_argument("--length", metavar="N|end", help=length)
    p.add_argument("--timer", type=_ranged(0, 3600), metavar="SECONDS", help=_("seconds per decision, counted from when the table waits for the seat (default 0: no timer); needs the board or the facilitator's page open"))
    p.add_argument("--at-zero", choices=("default", "bot"), default="default", help=_("who moves for a seat whose time runs out: the game's stated default (a pledge of nothing...) or its fill bot (default: default)"))


def _cmd_class_new(args: argparse.Namespace) -> int:
    """A new class in the store: its room code and its addresses as JSON (or one per line)."""
    from .classes import create_class
    from .links import class_links
    from .store import Store

    roster: list[str] = []
    if args.roster is not None:
        try:
            roster = [line.strip() for line in args.roster.read_text(encoding="utf-8-sig").splitlines() if line.strip()]
        except UnicodeDecodeError:
            raise UsageError(say("argument --roster: {file} is not UTF-8 text (one name a line)", file=str(args.roster))) from None
    store = Store()
    variants = {**_setup_variants(args.game, args.variant), **_length(args)}
    record = create_class(store, args.game, args.students, roster=roster, bots=not args.no_bots, variants=variants, pace=_timer(args), lang=args.lang or "")
    links = {"class": record.id, "game": record.game, **class_links(_links_base(args), record)}
    if args.json:
        print(json.dumps(links, ensure_ascii=False))
    else:
        from .pace import length_of

        seconds = record.pace.get("seconds")
        pace = [length_of(record.game, record.variants), _("{n} s per decision", n=str(seconds)) if seconds else ""]
        said = "".join(f", {p}" for p in pace if p)
        about = _n("{game}, {n} students", "{game}, {n} students", record.expected, game=record.game) + said
        # TRANSLATORS: the command line's list of a new class's links, one a line (the labels aligned)
        print(_("class {code} ({about})\njoin:    {join}\nboard:   {board}\nmonitor: {monitor}", code=record.code, about=about, join=links["join"], board=links["board"], monitor=links["monitor"]))
    print(_("the board and monitor links hold the class's keys: the monitor is yours alone ({where})", where=str(store.location)), file=sys.stderr)
    return 0


def _public_url(text: str) -> str:
    """An argparse type: an http(s) address with a host (`https://school.example/playbook/`)."""
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(_("{given} is not an address such as https://school.example/playbook/", given=repr(text)))
    return text


def _lang_option(p: argparse.ArgumentParser, help_text: str, default: str | None = None) -> None:
    """`--lang` of the commands that choose a language (or print in one): a shipped language."""
    p.add_argument("--lang", choices=list(i18n.LANGUAGES), default=default, metavar="LANG", help=help_text)


def _public_url_option(p: argparse.ArgumentParser) -> None:
    """`--public-url` (alias `--url`) of the commands that print links."""
    p.add_argument(
        "--public-url",
        "--url",
        dest="public_url",
        metavar="URL",
        type=_public_url,
        help=_(
            "the address phones reach the server at, in every link, e.g. https://school.example/playbook/ (default $PLAYBOOK_URL, "
            "else the playbook serve running here, else this machine's address on the room's network, port 8866: "
            "localhost, with a warning, only when it has no network)"
        ),
    )


def _cmd_serve(args: argparse.Namespace) -> int:
    from .resources import MissingNotebook, check_notebooks

    try:
        check_notebooks(Path(args.notebook) if args.notebook is not None else None)
    except MissingNotebook as exc:
        raise UsageError(say("argument --notebook: {reason}", reason=str(exc)) if args.notebook is not None else str(exc)) from None
    from .serve import serve

    ip = "127.0.0.1" if args.local else args.ip
    return serve(
        port=args.port, notebook=args.notebook, open_browser=args.open, ip=ip, preheat=args.preheat, class_size=args.class_size, max_pages=args.max_pages,
        base_url=args.base_url, public_url=args.public_url, lang=args.lang,
    )  # fmt: skip


def _cmd_notebooks(args: argparse.Namespace) -> int:
    """Copy the playbook's notebooks out of the installed package, to open in JupyterLab."""
    import shutil

    from .resources import notebooks_dir

    sources = sorted(notebooks_dir().glob("*.ipynb"))
    there = [args.folder / s.name for s in sources if (args.folder / s.name).exists()]
    if there and not args.force:
        raise UsageError(say("{file} already exists (--force replaces the playbook's notebooks in {folder})", file=str(there[0]), folder=str(args.folder)))
    args.folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, args.folder / source.name)
    print(_n("copied {n} notebooks to {folder}: open one with `jupyter lab {folder}`, then Run > Run All Cells", "copied {n} notebooks to {folder}: open one with `jupyter lab {folder}`, then Run > Run All Cells", len(sources), folder=str(args.folder)), file=sys.stderr)
    return 0


def _print_range(game: Card) -> str:
    """How many people `game` prints for, as `print --help` says it: 'leerdam 3-20 households
    (written for 5-10)'."""
    low, high = game.players.range
    who = "" if str(game.words.players) == "players" else f" {game.words.players}"
    text_low, text_high = game.players.text_range
    if (text_low, text_high) == (low, high):
        return f"{game.slug} {low}-{high}{who}"
    return _("{game} {low}-{high}{who} (written for {text_low}-{text_high})", game=game.slug, low=str(low), high=str(high), who=who, text_low=str(text_low), text_high=str(text_high))


def _class_tables(game: Card) -> str:
    """How a class sits at `game`, as `print --help` says it: 'leerdam villages of 5-10'."""
    low, high = game.players.class_range
    if game.gm:
        return _("{game} {tables} of {low}-{high} with a GM", game=game.slug, tables=game.words.tables, low=str(low), high=str(high))
    return _("{game} {tables} of {low}-{high}", game=game.slug, tables=game.words.tables, low=str(low), high=str(high))


def _languages_offered() -> str:
    """'en (English), nl (Nederlands), ...': each language by its code and its own name."""
    return ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())


def _cmd_print(args: argparse.Namespace) -> int:
    from printables.fonts import MissingGlyphWarning

    with warnings.catch_warnings(record=True) as caught, i18n.speaking(args.lang):
        warnings.simplefilter("always", MissingGlyphWarning)
        data = _make_pdf(args)
    for warning in caught:
        if issubclass(warning.category, MissingGlyphWarning):
            print(_("playbook {command}: warning: {warning}", command="print", warning=str(warning.message)), file=sys.stderr)
    args.output.write_bytes(data)
    print(_("wrote {file} ({n} KiB)", file=str(args.output), n=str(len(data) // 1024)), file=sys.stderr)
    return 0


def _make_pdf(args: argparse.Namespace) -> bytes:
    from printables import document, pack

    names = _names(args.names, args.players)
    if names is not None and args.players is None:
        args.players = len(names)
    if args.seat_links is not None and (args.game not in CARDS or not card(args.game).devices):
        seated = " or ".join(c.slug for c in CARDS if c.devices)
        raise UsageError(say("--seat-links is for the games played on each player's own device: {games}", games=seated))
    if args.game_file is not None:
        if args.players is not None or names is not None:
            raise UsageError(say("--game-file prints the saved game's own players: leave out --players and --names"))
        saved = read_save_file(args.game_file)
        if args.game not in ("all", saved.rules.slug):
            raise UsageError(say("{file} is a {saved} game, not {game}", file=str(args.game_file), saved=saved.rules.slug, game=args.game))
        if args.booklet:
            return document.booklet(saved.rules.slug, state=saved.state, page=args.page)
        return document.pdf(saved.rules.slug, state=saved.state, page=args.page, bleed=args.bleed)
    if args.game == "all":
        low, high = pack.GROUP_RANGE
        if args.players is not None and not low <= args.players <= high:
            raise UsageError(say("argument --players: all prints for a group of {low}-{high}, not {players}; for a class, print its game (playbook print leerdam --players {players})", low=str(low), high=str(high), players=str(args.players)))
        if args.booklet:
            return pack.booklet_pdf(page=args.page)
        players = args.players if args.players is not None else 4
        for note in pack.plan(players, names)[1]:
            print(_("playbook {command}: note: {note}", command="print", note=note), file=sys.stderr)
        return pack.build_pdf(players, names, page=args.page, bleed=args.bleed)
    game = card(args.game)
    low, high = game.players.range
    if args.players is not None and not low <= args.players <= high:
        if not high < args.players <= CLASS_MOST:
            class_low, class_high = game.players.class_range
            raise UsageError(
                say(
                    "argument --players: {game} takes {low}-{high} {players} at one {table}, or a class of {class_low}-{class_high} in {tables} of {table_low}-{table_high}, not {n}",
                    game=game.slug, low=str(low), high=str(high), players=game.words.players, table=game.words.table, tables=game.words.tables,
                    class_low=str(high + 1), class_high=str(CLASS_MOST), table_low=str(class_low), table_high=str(class_high), n=str(args.players),
                )
            )  # fmt: skip
        return _class_pdf(args, game, names)
    warning = document.text_warning(game, args.players if args.players is not None else game.players.default)
    if warning:
        print(_("playbook {command}: warning: {warning}", command="print", warning=warning), file=sys.stderr)
    if args.booklet:
        return document.booklet(game, names, players=args.players, page=args.page)
    links = None
    if args.seat_links is not None:
        from printables.slips import seat_links

        from .links import local_link

        try:
            links = seat_links(args.seat_links.read_bytes())
        except ValueError as exc:
            raise UsageError(say("argument --seat-links: {reason}", reason=str(exc))) from None
        local = [url for _name, url in links if local_link(url)]
        if local:
            where = urllib.parse.urlsplit(local[0])
            print(
                _(
                    "playbook print: warning: {file} holds links to {address}, which no phone can open: "
                    "make the table again with --public-url (or PLAYBOOK_URL), or on a machine on the room's network",
                    file=str(args.seat_links),
                    address=f"{where.scheme}://{where.netloc}",
                ),
                file=sys.stderr,
            )
    return document.pdf(game, names, players=args.players, page=args.page, bleed=args.bleed, seat_links=links)


def _class_pdf(args: argparse.Namespace, game: Card, names: list[str] | None) -> bytes:
    """`game`'s materials for a class of `args.players` (more than one table takes), in
    parallel tables as `playbook class new` deals them (`printables.pack.class_plan`)."""
    from printables import document, pack

    if args.seat_links is not None:
        raise UsageError(
            say(
                "argument --seat-links: a links file is one {table}'s seats; a class of {n} joins by its room code (playbook class new {game} --students {n})",
                table=game.words.table,
                n=str(args.players),
                game=game.slug,
            )
        )
    parts, notes = pack.class_plan(game, args.players, names)
    for note in notes:
        print(_("playbook {command}: note: {note}", command="print", note=note), file=sys.stderr)
    if args.booklet:
        largest = parts[0]
        print(
            _(
                "playbook print: note: the booklet is one {table}'s ({people} {players}): print one for each of the {n} {tables}",
                table=game.words.table,
                tables=game.words.tables,
                people=len(largest.names),
                players=game.words.players,
                n=len(parts),
            ),
            file=sys.stderr,
        )
        return document.booklet(game, players=len(largest.names), page=args.page)
    return pack.class_pdf(game, args.players, names, page=args.page, bleed=args.bleed)


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
        print(_("wrote {file}", file=str(args.csv)), file=sys.stderr)
    if args.pdf:
        from printables.balance_report import build_pdf

        Path(args.pdf).write_bytes(build_pdf(result, page=args.page))
        print(_("wrote {file}", file=str(args.pdf)), file=sys.stderr)


def _play(args: argparse.Namespace, total: int, call: Any) -> int:
    """Run `call(progress)` under a progress bar, write the reports asked for, print the JSON."""
    if args.games < 1:
        raise UsageError(say("--games must be at least 1"))
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


def _cmd_review(args: argparse.Namespace) -> int:
    games = args.games or card(args.game).review_games
    bar, progress = _bar(lab.review_games(args.game, games), args.quiet)
    try:
        result = lab.review(args.game, games, args.seed, workers=args.workers, scheduler=args.scheduler, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    print(json.dumps(result.as_dict(), ensure_ascii=False) if args.json else result.text())
    return 0


def _run_options(p: argparse.ArgumentParser) -> None:
    """The options `simulate` and `compare` share."""
    p.add_argument("--games", type=_ranged(1, 1_000_000), default=100, help=_("how many games, 1-1000000 (default 100)"))
    p.add_argument("--seed", type=_ranged(0), default=0, help=_("seed of the run, 0 or more: game i is seeded from (seed, i) (default 0)"))
    p.add_argument("--workers", type=_ranged(1, 256), help=_("processes to use, 1 up to this machine's cores (default: every core; 1: no pool)"))
    p.add_argument("--scheduler", metavar="ADDRESS", help=_("send the games to a Dask scheduler, e.g. tcp://10.0.0.5:8786 (needs the [lab] extra)"))
    p.add_argument("--csv", metavar="FILE.csv", help=_("also write one row per game as CSV"))
    p.add_argument("--pdf", metavar="FILE.pdf", help=_("also write a printable report with plots and findings"))
    p.add_argument("--page", choices=["a4", "letter"], default="a4", help=_("the report's paper size (default a4)"))
    p.add_argument("--json", action="store_true", help=_("one line of JSON"))
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))


#: the odds command's options: the range of each, and the letter its value goes by.
ODDS_OPTIONS = (("dice", 0, 20, "N"), ("difficulty", 2, 6, "D"), ("penalty", 0, 6, "P"), ("rerolls", 0, 4, "R"), ("pool", 0, 100, "N"), ("seeds", 0, 30, "S"))


def _odds_report(slug: str) -> Callable[..., dict[str, Any]] | None:
    """The exact odds of a game, where its rules give them (`odds_report`, taking the options
    it needs by name: those without a default must be given)."""
    report: Callable[..., dict[str, Any]] | None = getattr(card(slug).module("rules"), "odds_report", None)
    return report


def _cmd_odds(args: argparse.Namespace) -> int:
    import inspect

    for option, low, high, _letter in ODDS_OPTIONS:
        value = getattr(args, option)
        if value is not None and not low <= value <= high:
            raise UsageError(say("argument --{option}: {value} is out of range ({low}-{high})", option=option, value=str(value), low=str(low), high=str(high)))
    report = _odds_report(args.game)
    assert report is not None  # the parser offers only the games with odds
    parameters = inspect.signature(report).parameters
    needed = [name for name, parameter in parameters.items() if parameter.default is parameter.empty]
    if any(getattr(args, name) is None for name in needed):
        letters = {option: letter for option, _low, _high, letter in ODDS_OPTIONS}
        raise UsageError(say("{game} odds need {options}", game=args.game, options=listed(f"--{name} {letters[name]}" for name in needed)))
    print(json.dumps(report(**{name: getattr(args, name) for name in parameters if getattr(args, name) is not None}), indent=2))
    return 0


def read_save_file(name: str | Path) -> Any:
    """A game from a save file on disk; a file past the size limit is refused unread."""
    path = Path(name)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise SaveFileError(_("{file} is {size} KiB; a save file is at most {most} MiB", file=str(name), size=str(size // 1024), most=MAX_FILE_BYTES // (1024 * 1024)))
    return load_game(path.read_bytes())


def _cmd_replay(args: argparse.Namespace) -> int:
    game = read_save_file(args.file)
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


def _cmd_debrief(args: argparse.Namespace) -> int:
    """Every decision as CSV and the handout as PDF, from the save files of one or more tables
    of a game (several: a class, its tables compared). Every file is read and replayed in full
    before anything is written: a damaged or forged one writes nothing."""
    from printables import debrief
    from rules import decisions_of
    from rules.decisions import COLUMNS, decision_rows

    if args.csv is None and args.pdf is None:
        raise UsageError(say("say what to write: --csv FILE.csv and/or --pdf FILE.pdf"))
    if args.csv is not None and args.pdf is not None and args.csv.resolve() == args.pdf.resolve():
        raise UsageError(say("--csv and --pdf name the same file"))
    tables: list[tuple[str, Any]] = []
    for path in args.files:
        try:
            game = read_save_file(path)
        except SaveFileError as exc:
            raise SaveFileError(f"{path}: {exc}" if len(args.files) > 1 else str(exc)) from None
        label = Path(path).stem
        if label in (seen for seen, _game in tables):
            label = f"{label} ({len(tables) + 1})"
        tables.append((label, game))
    games = {game.rules.slug for _label, game in tables}
    if len(games) > 1:
        raise UsageError(say("the save files are of different games ({games}): one debrief is one game", games=", ".join(sorted(games))))
    reveal = not args.public
    reveal_pledges = None if args.pledges is None else args.pledges == "named"
    outputs: list[tuple[Path, bytes]] = []
    with i18n.speaking(args.lang):  # the CSV's words and headers, and the handout, in --lang
        if args.csv is not None:
            found = [(label, decisions_of(game, reveal=reveal, reveal_pledges=reveal_pledges, render=i18n.render)) for label, game in tables]
            rows = [row for label, decisions in found for row in decision_rows(decisions, table=label)]
            outputs.append((args.csv, i18n.csv_text(rows, columns=COLUMNS).encode("utf-8")))
        if args.pdf is not None:
            outputs.append((args.pdf, debrief.build_pdf(tables, page=args.page, reveal=reveal, reveal_pledges=reveal_pledges)))
    # Both made before either is written: a failure leaves no half of the pair behind.
    for path, data in outputs:
        path.write_bytes(data)
        print(_("wrote {file}", file=str(path)), file=sys.stderr)
    return 0


def _command(sub: Any, name: str, help_text: str, description: str, example: str) -> argparse.ArgumentParser:
    """A subcommand whose --help ends with an example."""
    return sub.add_parser(
        name,
        help=help_text.replace("%", "%%"),  # argparse formats a command's help with %: "95% interval"
        description=description,
        epilog=_("example:\n  {example}", example=example),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="playbook",
        description=_("Playbook and print generator for four tabletop games."),
        epilog=_("example:\n  {example}", example='playbook print all --players 12 --names "Ana,Bo,..." -o everything.pdf'),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # argparse (before 3.13) writes this help as a literal, past its gettext hook
    top.add_argument("--version", action="version", version=f"playbook {_version()}", help=_("show program's version number and exit"))
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _command(
        sub,
        "serve",
        _("serve the playbook dashboards with Voila"),
        _("Start Voila on the playbook's notebooks, on the room's network: phones open the address it\n"
        "prints (this machine's network address, port 8866 by default)."),
        "playbook serve --class-size 30\n  playbook serve --base-url /playbook/ --public-url https://school.example/playbook/",
    )
    p.add_argument("--port", type=_ranged(1, 65535), default=8866, help=_("port to listen on, 1-65535 (default 8866)"))
    p.add_argument("--notebook", help=_("serve one notebook (a file that exists) instead of the whole playbook"))
    p.add_argument("--open", action="store_true", help=_("open a browser tab"))
    p.add_argument("--ip", help=_("address to listen on (default: every interface, so phones on the room's network reach it)"))
    p.add_argument("--local", action="store_true", help=_("listen on this machine only (127.0.0.1): no phone can join"))
    p.add_argument("--class-size", type=_ranged(1, 60), default=30, help=_("students who may open their pages at once, 1-60 (default 30): sizes the kernels kept ready"))
    p.add_argument("--max-pages", type=_ranged(4, 2000), default=None, help=_("most pages (kernels) open at once, 4-2000 (default: what this computer's free memory holds, at least the class and its ready pages); a device asking for more is told the room is full and tries again"))
    p.add_argument("--preheat", type=_ranged(0, 30), default=None, help=_("kernels kept ready for each class and seat page, 0-30 (default: one per student for the class page, at most 40; for a game's seat links, one per seat of the tables saved within a day and a third of each class of that game, at most 40)"))
    p.add_argument("--base-url", help=_("path to serve under behind a proxy, e.g. /playbook/ (default $PLAYBOOK_BASE_URL, else the public URL's path, else /)"))
    p.add_argument("--public-url", type=_public_url, help=_("the address players reach, for every link, QR code and slip, e.g. https://school.example/playbook/ (default $PLAYBOOK_URL)"))
    _lang_option(p, _("the pages' language where neither the class or table nor the device chose one (default $PLAYBOOK_LANG, else each browser's own)"))
    p.set_defaults(run=_cmd_serve)

    p = _command(
        sub,
        "notebooks",
        _("copy the playbook's notebooks into a folder, for JupyterLab"),
        _("Copy the notebooks of the installed playbook (one per game, the index, the print studio, the\n"
        "balance lab) into FOLDER, made if need be. Open them in JupyterLab (pip install 'playbook[jupyter]')\n"
        "and run all cells: the games play inline."),
        "playbook notebooks my-playbook && jupyter lab my-playbook",
    )
    p.add_argument("folder", type=Path, metavar="FOLDER", help=_("where to put them"))
    p.add_argument("--force", action="store_true", help=_("replace notebooks of the same names there"))
    p.set_defaults(run=_cmd_notebooks)

    printed = [c for c in CARDS if c.has("printables")]
    p = _command(
        sub,
        "print",
        _("print play materials as PDF"),
        _("Blank materials for N players, or (with --game-file) the sheets of a saved game filled in.")
        + "\n"
        + textwrap.fill(
            _(
                "Players: {ranges}; all: a group of 1-20, each game split into the tables it takes, with a contents page.",
                ranges=", ".join(map(_print_range, printed)),
            ),
            92,
        )
        + "\n"
        + textwrap.fill(
            _(
                "More people than one table takes, up to {most}: a class, in parallel tables as `playbook class new` deals it "
                "({tables}), each table's materials under its own heading after a contents page.",
                most=str(CLASS_MOST),
                tables=", ".join(map(_class_tables, printed)),
            ),
            92,
        ),
        'playbook print all --players 10 --names "Ana,Bo,Cy,Di,Ed,Fa,Gu,Hy,Io,Jo" --page letter -o pack.pdf\n'
        "  playbook print leerdam --players 30 -o class.pdf   # three villages of 10",
    )
    defaults = ", ".join(["4", *(f"{c.slug} {c.players.default}" for c in printed if c.players.default != 4)])
    p.add_argument("game", choices=[*(c.slug for c in printed), "all"], help=_("which game's materials, or all"))
    p.add_argument("--players", type=_ranged(1), help=_("number of players (default: {defaults}; the game's range above, or a class of up to {most})", defaults=defaults, most=str(CLASS_MOST)))
    p.add_argument("--names", help=_("comma-separated player names, printed on the sheets (as many as --players); danger-world: \"Player: Character\" names both"))
    p.add_argument("--page", choices=["a4", "letter"], default="a4", help=_("paper size (default a4)"))
    p.add_argument("--game-file", type=_existing, metavar="SAVE.json", help=_("fill the sheets from a saved game"))
    p.add_argument("--seat-links", type=_existing, metavar="LINKS.json", help=_("{games}: seat slips with each seat's QR code, from `playbook table new ... --json` (default: blank slips)", games=", ".join(c.slug for c in printed if c.devices)))
    p.add_argument("--bleed", action="store_true", help=_("print cut-outs 3 mm past their cut lines, crop marks at each (default off)"))
    p.add_argument("--booklet", action="store_true", help=_("the rules card (dangerous-ideas: and the story) as a fold-in-half booklet, imposed for duplex"))
    _lang_option(p, _("the language the sheets are printed in: {languages} (default {default})", languages=_languages_offered(), default=i18n.SOURCE), default=i18n.SOURCE)
    p.add_argument("-o", "--output", type=_output, required=True, metavar="FILE.pdf", help=_("where to write the PDF (its folder must exist)"))
    p.set_defaults(run=_cmd_print)

    bots = "; ".join(f"{slug}: {', '.join(names)}" for slug, names in lab.BOTS.items())
    p = _command(
        sub,
        "simulate",
        _("play many bot games and report outcome statistics and findings"),
        _("Bot games for balance testing; the same seed gives the same numbers, on any number of workers.") + "\n" + textwrap.fill(variants_help(), 92),
        'playbook simulate leerdam --games 10000 --variant "bots=fair*5,free-rider*5,misfortune=3,2,1,0,0,0" --json',
    )
    p.add_argument("game", choices=list(lab.GAMES), help=_("which game"))
    p.add_argument("--bots", help=_("comma-separated bot per seat ({bots})", bots=bots))
    p.add_argument("--variant", metavar="VARIANTS", help=_("setup variants and lab options, e.g. misfortune=3,2,1,0,0,0"))
    _run_options(p)
    p.set_defaults(run=_cmd_simulate)

    p = _command(
        sub,
        "compare",
        _("two setups on the same seeds, each measure side by side with a 95% interval"),
        _(
            "Play setups A and B on the same seeds (common random numbers) and report each measure for A\nand B, "
            "the difference B - A with its paired 95% interval, and whether it is within noise."
        )
        + "\n"
        + textwrap.fill(variants_help(), 92),
        'playbook compare leerdam --a "bots=fair*10" --b "bots=fair*10,misfortune=3,2,1,0,0,0" --games 10000 --json',
    )
    p.add_argument("game", choices=list(lab.GAMES), help=_("which game"))
    p.add_argument("--a", metavar="VARIANTS", default="", help=_("setup A (default: the game's default table)"))
    p.add_argument("--b", metavar="VARIANTS", required=True, help=_("setup B"))
    _run_options(p)
    p.set_defaults(run=_cmd_compare)

    p = _command(
        sub,
        "review",
        _("what the bots find in the text as written, with intervals"),
        _("A short design review of a game's text as written, by its default bots (New Rule's also by a\n"
        "table of hoarders, which play for its end, an empty bowl): what wins, how often\n"
        "the text's own end is reached, seat order, and what no game reaches; each share with its\n95% interval. "
        "The sentences name the bots they depend on."),
        "playbook review leerdam --games 2000",
    )
    p.add_argument("game", choices=list(lab.GAMES), help=_("which game"))
    p.add_argument("--games", type=_ranged(30, 1_000_000), help=_("how many games, 30 or more (default: {defaults})", defaults=", ".join(f"{c.slug} {c.review_games}" for c in CARDS)))
    p.add_argument("--seed", type=_ranged(0), default=1, help=_("seed of the run (default 1)"))
    p.add_argument("--workers", type=_ranged(1, 256), help=_("processes to use, 1 up to this machine's cores (default: every core; 1: no pool)"))
    p.add_argument("--scheduler", metavar="ADDRESS", help=_("send the games to a Dask scheduler (needs the [lab] extra)"))
    p.add_argument("--json", action="store_true", help=_("one line of JSON"))
    p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    p.set_defaults(run=_cmd_review)

    p = _command(
        sub,
        "odds",
        _("exact probabilities as JSON"),
        _("Exact odds, as a decimal and a fraction. danger-world: --dice N --difficulty D "
        "[--penalty P] [--rerolls R],\nthe chance of a set of height D or more when the player locks "
        "and re-rolls optimally.\ndangerous-ideas: --pool N [--seeds S], the chance a meme action "
        "succeeds when the actor\nspends up to S seeds wisely."),
        "playbook odds danger-world --dice 7 --difficulty 4 --penalty 1 --rerolls 2",
    )
    p.add_argument("game", choices=[c.slug for c in CARDS if _odds_report(c.slug) is not None], help=_("which game"))
    p.add_argument("--dice", type=int, help=_("danger-world: dice in the pool, 0-20"))
    p.add_argument("--difficulty", type=int, help=_("danger-world: difficulty 2-6"))
    p.add_argument("--penalty", type=int, default=0, help=_("danger-world: penalty dice, 0-6 (default 0)"))
    p.add_argument("--rerolls", type=int, default=2, help=_("danger-world: lock/re-roll rounds, 0-4 (default 2)"))
    p.add_argument("--pool", type=int, help=_("dangerous-ideas: stones in the pool, 0-100"))
    p.add_argument("--seeds", type=int, default=0, help=_("dangerous-ideas: seeds the actor may spend, 0-30 (default 0)"))
    p.set_defaults(run=_cmd_odds)

    p = _command(sub, "table", _("make a table for a class and print its links"), _("Tables a class plays on its own devices."), "playbook table new leerdam --players 7 --json")
    tables = p.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    p = _command(
        tables,
        "new",
        _("a new table in the store, and its links"),
        _("A new table in the table store ($PLAYBOOK_DB) and its links as JSON: facilitator (the\n"
        "table's controls), board (the projector, with the join code), join, and one link per seat.\n"
        "Players: new-rule 3-5, leerdam 3-20, danger-world 1-12 characters, dangerous-ideas 3-10."),
        'playbook table new new-rule --players 4 --names "Ana,Bo,Cy,Di" --bots human,human,human,balanced --json',
    )
    p.add_argument("game", choices=slugs(), help=_("which game"))
    p.add_argument("--players", type=_ranged(1, 20), help=_("number of seats (default: the fewest the game takes)"))
    p.add_argument("--names", help=_("comma-separated seat names (default Player 1, Player 2, ...)"))
    p.add_argument("--bots", help=_("comma-separated, one per seat: human or a bot's name (default: every seat human)"))
    p.add_argument("--seed", type=_ranged(0, 2**63 - 1), help=_("the game's seed (default: random)"))
    p.add_argument("--variant", metavar="VARIANTS", help=_('setup variants, e.g. leerdam "anonymous=true" (anonymous pledges: only the total is public until the end)'))
    _pace_options(p, "the table")
    _public_url_option(p)
    p.add_argument("--json", action="store_true", help=_("print the links as one line of JSON"))
    _lang_option(p, _("the table's language: its board's and every page's, unless a device chooses its own (default: the server's)"))
    p.set_defaults(run=_cmd_table_new, command="table new")

    p = _command(sub, "class", _("start a class: one game for one room, its code and its links"), _("A class joins by its room code and is dealt into tables."), "playbook class new leerdam --students 30 --json")
    classes = p.add_subparsers(dest="class_command", required=True, metavar="ACTION")
    p = _command(
        classes,
        "new",
        _("a new class in the store, and its links"),
        _("A new class in the table store ($PLAYBOOK_DB): its room code, the short address students\n"
        "open (/j/CODE), the class board for the projector and the facilitator's page (the monitor)."),
        "playbook class new new-rule --students 25 --roster names.txt --json",
    )
    p.add_argument("game", choices=slugs(), help=_("which game"))
    p.add_argument("--students", type=_ranged(3, CLASS_MOST), required=True, help=_("students expected, 3-{most}", most=str(CLASS_MOST)))
    p.add_argument("--roster", type=_existing, help=_("a text file of the class's names, one a line: students pick theirs"))
    p.add_argument("--no-bots", action="store_true", help=_("never fill a short table with bots"))
    p.add_argument("--variant", metavar="VARIANTS", help=_('setup variants for every table, e.g. leerdam "anonymous=true" (anonymous pledges)'))
    _pace_options(p, "every table")
    _public_url_option(p)
    p.add_argument("--json", action="store_true", help=_("print the code and links as one line of JSON"))
    _lang_option(p, _("the class's language: its board's and every page's, unless a student's phone chooses its own (default: the server's)"))
    p.set_defaults(run=_cmd_class_new, command="class new")

    p = _command(
        sub,
        "debrief",
        _("every decision of a saved game as CSV, and the debrief handout as PDF"),
        _("Replay a save file (of any game), refusing damaged or tampered files, then write one CSV row\n"
        "per decision (table, round or year, seat, player, decision, outcome) and the printed\n"
        "debrief handout (results, charts, the story). Whoever holds the save file holds every\n"
        "secret in it, so both name them (pledges, picks, draws) unless --public is given.\n"
        "Several save files of one game make a class's debrief: every table, then the tables\n"
        "compared (Leerdam's villages year by year)."),
        "playbook debrief saved.json --csv decisions.csv --pdf debrief.pdf\n  playbook debrief village1.json village2.json --pdf class-debrief.pdf",
    )
    p.add_argument("files", nargs="+", type=_existing, metavar="SAVE.json", help=_("a table's save file; several for a class (one game)"))
    p.add_argument("--csv", type=_output, metavar="FILE.csv", help=_("write every decision and its outcome as CSV (UTF-8 with a BOM)"))
    p.add_argument("--pdf", type=_output, metavar="FILE.pdf", help=_("write the debrief handout"))
    p.add_argument("--page", choices=["a4", "letter"], default="a4", help=_("the handout's page size (default a4)"))
    _lang_option(p, _("the language of the handout and the CSV: {languages} (default {default})", languages=_languages_offered(), default=i18n.SOURCE), default=i18n.SOURCE)
    p.add_argument("--public", action="store_true", help=_("name only what the board showed: no secret pledge, pick or draw"))
    p.add_argument(
        "--pledges",
        choices=["named", "anonymous"],
        help=_("Leerdam: name each household's pledge, or none (default: as the game was played)"),
    )
    p.set_defaults(run=_cmd_debrief)

    p = _command(sub, "replay", _("check a saved game and print its standings as JSON"), _("Replay every move of a save file, refusing damaged or tampered files."), "playbook replay saved.json")
    p.add_argument("file", type=_existing, metavar="FILE.json")
    p.set_defaults(run=_cmd_replay)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """The command line, in its language (`language`: `PLAYBOOK_LANG`, else the locale's)."""
    with i18n.speaking(language(os.environ)), _argparse_speaking():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (Refusal, ValueError, OSError) as exc:  # UsageError is a Refusal; RuleError and SaveFileError are ValueErrors
        # One line, argparse's way: "playbook print: error: ..."
        said = exc.message if isinstance(exc, Refusal) else i18n.render(exc.said) if isinstance(exc, RuleError) else str(exc)
        message = " ".join(said.split())
        print(_("playbook {command}: error: {message}", command=args.command, message=message), file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
