"""The printed debrief handout: results, charts of the game, the story in a few lines.

For one table or a class (all its tables, in order). This module only dispatches: it asks the
game's printables module (through its card) for each table's pages, `debrief_story`, and,
for a class, for its tables compared, `debrief_compare` (Leerdam's villages year by year).
The blocks those pages are made of are the charts (`printables.charts`) and the results and
story blocks (`printables.common`); none of them knows a game.

Secrets: a handout made before a game ends (`reveal` off) draws only what the board showed;
Leerdam's pledges by household print only where `reveal_pledges` allows. User text (names,
memes, titles) reaches the page through `fonts.markup` / `fonts.draw_string` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.platypus import Flowable, PageBreak

from i18n import _
from rules.core import AnyGame
from rules.games import card

from . import common
from .document import printables

__all__ = ["build_pdf"]


def build_pdf(
    tables: Sequence[tuple[str, AnyGame]],
    *,
    page: str = "a4",
    reveal: bool | None = None,
    reveal_pledges: bool | None = None,
    title: str = "",
    stopped: Mapping[str, str] | None = None,
) -> bytes:
    """The debrief handout of `tables` ((label, game) pairs of one game) as PDF bytes: one section
    per table, then the tables compared when there are several. `reveal` (default: each game
    once it is over) allows what was secret; `title` heads each table's first page. `stopped`
    maps the label of a table its facilitator stopped to where it stood ("stopped in year 2"):
    such a table is over for the handout. Same input, same bytes."""
    common.page_size(page)
    story = _story(tables, page, reveal, reveal_pledges, title, dict(stopped or {}))
    game = tables[0][1]
    title = _("{game}: debrief handout", game=game.rules.title)
    return common.build_document(story, page=page, title=title, subject=_("Results, charts and the story of the game"))


def _story(tables: Sequence[tuple[str, AnyGame]], page: str, reveal: bool | None, reveal_pledges: bool | None, title: str, stopped: dict[str, str]) -> list[Flowable]:
    if not tables:
        raise ValueError("a debrief needs at least one table")
    slugs = {game.rules.slug for _label, game in tables}
    if len(slugs) != 1:
        raise ValueError("the tables of one debrief play the same game")
    game_card = card(slugs.pop())
    module = printables(game_card)
    width, _height = common.frame_size(page)
    story: list[Flowable] = []
    for label, game in tables:
        if story:
            story.append(PageBreak())
        shown = (game.rules.over(game.state) or label in stopped) if reveal is None else reveal
        story.append(common.Section(game_card.title, _("Debrief · {table}", table=label) if label else _("Debrief")))
        heading = _("{game} debrief: {table}", game=game_card.title, table=label) if label else _("{game} debrief", game=game_card.title)
        story.append(common.heading(title or heading, 0))
        if title:
            story.append(common.para(heading, "subtitle"))
        story += module.debrief_story(game, label=label, width=width, reveal=shown, reveal_pledges=reveal_pledges, stopped=stopped.get(label, ""))
    compare = module.debrief_compare
    if len(tables) > 1 and compare is not None:
        story.append(PageBreak())
        story.append(common.Section(game_card.title, _("Debrief · the tables compared")))
        all_over = all(g.rules.over(g.state) or label in stopped for label, g in tables)
        story += compare(tables, width=width, reveal=all_over if reveal is None else reveal, reveal_pledges=reveal_pledges, stopped=stopped)
    return story

