"""The class board's cards: the tables as dealt, every table at a glance while they play, and
the results (`widgets.classroom.ClassPage` draws them on the class board and the monitor)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from drawing.common import card as card_html
from drawing.common import esc, text
from i18n import _, render
from playbook import classes as cl
from playbook.links import page, table_query
from rules.core import leaders_said, winners_said
from rules.games import card

from .board import board_scene
from .class_students import waited_seats
from .pace import countdown_html

__all__ = ["glance_html", "groups_html", "names_html", "results_html"]


def names_html(names: Sequence[str]) -> str:
    return '<div class="pb-names">' + "".join(f'<span class="pb-name-chip">{esc(n)}</span>' for n in names) + "</div>"


def groups_html(record: cl.ClassRecord) -> str:
    """The tables as dealt: one card a table with its names (the board before the start)."""
    cards = []
    for i, group in enumerate(record.groups):
        names = cl.table_names(record, group)
        cards.append(card_html(_("Table {n}", n=i + 1), names_html(names), "pb-class-table"))
    return '<div class="pb-glance">' + "".join(cards) + "</div>"

def glance_html(record: cl.ClassRecord, tables: Sequence[Any]) -> str:
    """Every table at a glance: its step, whom it waits on, its headline figures and its board."""
    cards = []
    for i, table in enumerate(tables):
        state, rules = table.game.state, table.game.rules
        names = [render(label) for label in card(record.game).seat_labels(table.game.setup)]  # a GM's seat too
        if rules.over(state):
            line = _("Finished")
        elif record.phase == "over":
            line = _("stopped when the class ended")
        else:
            waiting = [names[s] for s in waited_seats(table)]
            if len(waiting) > 4:  # a card, not a roll call: the room reads the count
                line = _("waiting for {n}: {names} and {more} more", n=len(waiting), names=", ".join(waiting[:3]), more=len(waiting) - 3)
            else:
                line = _("waiting for {names}", names=", ".join(waiting)) if waiting else _("playing")
        board = table.meta.get("board_key")
        # A game on one shared screen has a board too (`&board=1`): the same public view, read-only.
        href = page("", card(record.game).notebook) + table_query(table.id, board=board if board and card(record.game).devices else 1)
        scene = board_scene(table.game)
        facts = "".join(f'<div><div class="pb-glance-label">{text(f.label)}</div><div class="pb-key-number">{text(f.value)}</div></div>' for f in scene.facts[:3])
        facts = f'<div style="display:flex;flex-wrap:wrap;gap:4px 28px">{facts}</div>'
        cards.append(
            card_html(
                # The step the table is at now: its board may still show the last step's
                # outcome (a year's flood) until the next move.
                _(
                    "{table} {n} · {step}",
                    table=render(card(record.game).words.Table),
                    n=i + 1,
                    step=_("the end") if rules.over(state) else render(cl.step_of(state) or scene.heading),
                ),
                f'<div class="pb-glance-line" data-phase="{scene.phase}">{text(line)}</div>{facts}{countdown_html(table, None, time.time(), announce=False)}'
                f'<div><a class="pb-table-board-{i}" href="{esc(href)}" target="_blank" rel="noopener">{esc(_("Open its board"))}</a></div>',
                "pb-class-table",
            )
        )
    return f"<h2>{esc(render(card(record.game).words.every))}</h2>" + '<div class="pb-glance">' + "".join(cards) + "</div>"

def results_html(record: cl.ClassRecord, tables: Sequence[Any]) -> str:
    """Each table's winners (or who led when the class ended), in the game's words."""
    lines = []
    words = card(record.game).words
    for i, table in enumerate(tables):
        state, rules = table.game.state, table.game.rules
        names = [render(label) for label in card(record.game).seat_labels(table.game.setup)]  # a GM's seat too
        where = esc(_("{table} {n}", table=render(words.Table), n=i + 1))
        standings = rules.standings(state)
        first = [seat for rank, seat, _s in standings if rank == 1]
        step = render(cl.step_of(state)).lower()
        ended = _(" when the class ended ({step})", step=step) if step else _(" when the class ended (before the first move)")
        if not rules.over(state) and record.phase != "over":
            lines.append(f"<li>{_('{table}: still playing', table=where)}</li>")
            continue
        if not words.points:  # a cooperative game ranks nobody: its end, or who still stands
            if rules.over(state):
                said = render(board_scene(table.game).winner)
            else:
                said = _("{n} of {total} {players} standing{ended}", n=len(first), total=len(standings), players=render(words.players), ended=ended)
            lines.append(f'<li class="pb-class-winner-{i}">{where}: <b>{text(said)}</b></li>')
            continue
        # ended by the facilitator: who led then, and when
        said = render(winners_said(names, first, words.players)) if rules.over(state) else render(leaders_said(names, first, words.players)) + ended
        score = esc(_("({n} {points})", n=standings[0][2], points=render(words.points)))
        lines.append(f'<li class="pb-class-winner-{i}">{where}: <b>{text(said)}</b> {score}</li>')
    return f'<h2>{esc(_("Results"))}</h2><ul class="pb-class-results" style="font-size:32px">{"".join(lines)}</ul>'
