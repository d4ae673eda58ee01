"""Every game's materials for one group of 1-20 people, in one PDF with a contents page.

Each game is printed for the players it takes (`plan`): New Rule in tables of 3-5 and
Dangerous Ideas in tables of 3-10, as even as can be; Danger World as a GM and up to 12
player characters a table (the first name of a table is its GM); Leerdam as one village of
3-20 households, with a warning outside the 5-10 its text is written for. A game the group is
too small for is left out, and the contents page says why. Every game's part starts on a new
page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, PageBreak

from rules.core import even_tables

from . import common, danger_world, dangerous_ideas, fonts, leerdam, new_rule

__all__ = ["GROUP_RANGE", "Part", "build_pdf", "build_story", "plan", "split"]

GROUP_RANGE = (1, 20)
#: the most households a village has: over it, the group plays as two (or more) villages.
VILLAGE_MOST = 10
TITLE = "Playbook: printable materials"


@dataclass(frozen=True)
class Part:
    """One game's materials for one table: `names` has "" for a seat written in by hand."""

    game: str  # slug
    title: str
    table: int  # 1-based
    tables: int
    names: tuple[str, ...]
    gm: str = ""  # Danger World only

    @property
    def key(self) -> str:
        return f"{self.game}-{self.table}"

    @property
    def heading(self) -> str:
        where = f", {'village' if self.game == 'leerdam' else 'table'} {self.table} of {self.tables}" if self.tables > 1 else ""
        if self.game == "danger-world":
            return f"{self.title}{where}: GM + {len(self.names)} players"
        who = "households" if self.game == "leerdam" else "players"
        return f"{self.title}{where}: {len(self.names)} {who}"

    @property
    def detail(self) -> str:
        named = [n for n in self.names if n]
        people = fonts.name_list(named) if named else "names written in by hand"
        if len(named) not in (0, len(self.names)):
            people += f" (+{len(self.names) - len(named)} to write in)"
        if self.game == "danger-world":
            return fonts.name_list([f"GM {self.gm or '(to write in)'}", people], sep=" · ")
        return people


def split(count: int, low: int, high: int) -> list[int]:
    """Table sizes for `count` people in tables of `low`-`high`, as even as can be; [] when
    `count` is under `low`."""
    if count < low:
        return []
    # The same sizes as a class is dealt into (`playbook.classes.table_sizes`).
    return even_tables(count, high)


def _cut(names: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    out, start = [], 0
    for size in sizes:
        out.append(tuple(names[start : start + size]))
        start += size
    return out


def plan(players: int, names: Sequence[str] | None = None) -> tuple[list[Part], list[str]]:
    """The parts to print for a group of `players` (named in order, or not), and the notes
    the contents page and the command line give: warnings and games left out."""
    low, high = GROUP_RANGE
    if not low <= players <= high:
        raise ValueError(f"a group of {players} is outside {low}-{high} people")
    seats = list(names or ())
    if seats and len(seats) != players:
        raise ValueError(f"{len(seats)} names were given for {players} people")
    seats += [""] * (players - len(seats))
    parts: list[Part] = []
    notes: list[str] = []
    for module, slug, (lo, hi) in (
        (new_rule, "new-rule", new_rule.PLAYER_RANGE),
        (dangerous_ideas, "dangerous-ideas", dangerous_ideas.PLAYER_RANGE),
    ):
        sizes = split(players, lo, hi)
        if not sizes:
            notes.append(f"{module.GAME_TITLE} takes {lo}-{hi} players: not printed for {players}.")
        for i, group in enumerate(_cut(seats, sizes), 1):
            parts.append(Part(slug, module.GAME_TITLE, i, len(sizes), group))
    # Danger World: a GM and up to 12 player characters a table; the first name of each table is its GM.
    most = danger_world.PLAYER_RANGE[1] + 1
    sizes = split(players, 2, most)
    if not sizes:
        notes.append(f"{danger_world.GAME_TITLE} needs a GM and at least one player: not printed for {players}.")
    for i, group in enumerate(_cut(seats, sizes), 1):
        parts.append(Part("danger-world", danger_world.GAME_TITLE, i, len(sizes), group[1:], gm=group[0]))
    lo, hi = leerdam.HOUSEHOLD_RANGE
    if players < lo:
        notes.append(f"{leerdam.GAME_TITLE} takes {lo}-{hi} households: not printed for {players}.")
    elif players > VILLAGE_MOST:
        # The text: "if more than 10, we can run two parallel communities". Villages as even
        # as a class's tables are dealt.
        sizes = split(players, lo, VILLAGE_MOST)
        for i, group in enumerate(_cut(seats, sizes), 1):
            parts.append(Part("leerdam", leerdam.GAME_TITLE, i, len(sizes), group))
        notes.append(f"{leerdam.GAME_TITLE} is written for 5-{VILLAGE_MOST} households: {players} play as {len(sizes)} villages side by side ({' and '.join(map(str, sizes))}).")
    else:
        parts.append(Part("leerdam", leerdam.GAME_TITLE, 1, 1, tuple(seats)))
        warning = leerdam_warning(players)
        if warning:
            notes.append(warning)
    order = {"new-rule": 0, "leerdam": 1, "danger-world": 2, "dangerous-ideas": 3}
    parts.sort(key=lambda p: (order[p.game], p.table))
    return parts, notes


def leerdam_warning(households: int) -> str:
    """The warning docs/rules/leerdam.md gives outside 5-10 households, or ""."""
    if 5 <= households <= 10:
        return ""
    return f"Leerdam is written for 5-10 households; printed for {households} (the playbook accepts 3-20)."


_MODULES = {"new-rule": new_rule, "leerdam": leerdam, "danger-world": danger_world, "dangerous-ideas": dangerous_ideas}


def _part_story(part: Part, page: str) -> list[Flowable]:
    module = _MODULES[part.game]
    names = part.names if any(part.names) else None
    players = len(part.names)
    if part.game == "danger-world":
        return module.build_story(names, players=players, page=page, gm=part.gm or None)
    return module.build_story(names, players=players, page=page)


def build_story(players: int, names: Sequence[str] | None = None, *, page: str = "a4") -> list[Flowable]:
    """The contents page, then every part, each starting on a new page."""
    parts, notes = plan(players, names)
    entries = [common.Entry(p.heading, p.detail, p.key) for p in parts]
    story: list[Flowable] = [
        common.Section("Playbook", f"Contents · {players} {'person' if players == 1 else 'people'}"),
        common.Contents("Contents", entries, notes),
    ]
    for part in parts:
        story += [PageBreak(), common.ContentsMark(part.key)] + _part_story(part, page)
    return story


def build_pdf(players: int, names: Sequence[str] | None = None, *, page: str = "a4", bleed: bool = False) -> bytes:
    """Every game's materials for the group as PDF bytes (see `plan`)."""
    common.page_size(page)
    story = build_story(players, names, page=page)
    return common.build_document(story, page=page, title=TITLE, subject="New Rule, Leerdam, Danger World, Dangerous Ideas", bleed=bleed)


def booklet_pdf(*, page: str = "a4") -> bytes:
    """The four games' rules cards as one fold-in-half booklet."""
    story: list[Flowable] = []
    for module in (new_rule, leerdam, danger_world, dangerous_ideas):
        if story:
            story.append(PageBreak())
        low = getattr(module, "PLAYER_RANGE", None) or module.HOUSEHOLD_RANGE
        players = max(low[0], getattr(module, "DEFAULT_PLAYERS", 0) or getattr(module, "DEFAULT_HOUSEHOLDS", 0))
        story += _card_for_booklet(module, players, page)
    return common.build_booklet(story, page=page, title="Playbook: rules cards")


def _card_for_booklet(module: object, players: int, page: str) -> list[Flowable]:
    """A game's rules card for the booklet (the Dangerous Ideas one without its story pages)."""
    story = module.booklet_story(players=players, page=page)  # type: ignore[attr-defined]
    if module is dangerous_ideas:
        cut = next((i for i, f in enumerate(story) if isinstance(f, PageBreak)), len(story))
        story = story[:cut]
    return story
