"""The students on a class's monitor (`widgets.classroom.ClassPage`, the facilitator's page):
each a small row with a dot (their page connected now, or not seen for how long), their name,
their state and small buttons (Approve, Swap, Bot, Rename, Release, Remove), in a grid of
cards by table once dealt; and the dots redrawn in place as students come and go.

Who is connected is read from the store's presence notes (`playbook.classes.presence`), which
each student's page writes at its heartbeat, sparingly (`classes.PRESENCE_WRITE_SECONDS`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from drawing.common import esc, number
from i18n import _, _n, render
from playbook import classes as cl
from playbook.store import STOPPED
from rules.games import card

#: the monitor these rows are drawn for (`widgets.classroom.ClassPage`: it imports this module,
#: so not imported back): its presses, what it picked and what its last press did.
ClassPage = Any

__all__ = ["ago", "chip_text", "connected_ids", "repaint_presence", "students_box", "students_count", "waited_seats"]


def ago(seconds: float) -> str:
    """A time span as the monitor says it: "40 s", "2 min"."""
    minutes = int(seconds // 60)
    return _("{n} min", n=minutes) if minutes else _("{n} s", n=int(seconds))


def connected_ids(record: cl.ClassRecord, seen: dict[str, float], now: float) -> tuple[str, ...]:
    """The students whose page was heard lately (`classes.CONNECTED_SECONDS`)."""
    return tuple(s.id for s in record.students if now - seen.get(s.id, 0.0) <= cl.CONNECTED_SECONDS)


def students_box(page: ClassPage, record: cl.ClassRecord, tables: Sequence[Any], seen: dict[str, float], now: float) -> widgets.Widget:
    """Every student as a small row (a chip) with their state, whether their page is
    connected, and their actions: release the name (another device joins with it), rename,
    remove (two presses), approve a new device, and, between the deal and the start, swap
    with a student of another table or move to a table with room. Grouped by table once dealt."""
    words = card(record.game).words
    by_table = {t.id: t for t in tables}
    asking = {r.student: r for r in record.requests}
    waited = {(t.id, seat) for t in tables for seat in waited_seats(t)} if card(record.game).fill_bot else set()
    chips: dict[str, widgets.Widget] = {s.id: student_chip(page, record, s, by_table, asking, seen, now, waited) for s in record.students}
    groups: list[widgets.Widget] = []
    if record.groups:
        high = card(record.game).players.class_high
        selected = record.student(page._selected) if page._selected else None
        for i, group in enumerate(record.groups):
            people = [sid for sid in group if sid is not None]
            bots = len(group) - len(people)
            table_name = _("{table} {n}", table=render(words.Table), n=i + 1)
            count = _n("{people} + {n} bot", "{people} + {n} bots", bots, people=len(people)) if bots else number(len(people))
            head_parts: list[widgets.Widget] = [widgets.HTML(f"<b>{esc(table_name)}</b> · {esc(count)}")]
            if record.phase == "dealt" and selected is not None and selected.group != i and len(people) < high:
                here = widgets.Button(description=_("Move {name} here", name=selected.name), tooltip=_("{table} has room", table=table_name)).add_class(f"pb-move-here-{i}").add_class("pb-small")
                here.on_click(lambda _event, i=i, sid=selected.id: page.move(sid, i))
                head_parts.append(here)
            head = widgets.HBox(tuple(head_parts)).add_class("pb-table-head")
            groups.append(widgets.VBox((head, *(chips[sid] for sid in people if sid in chips))).add_class("pb-student-table").add_class(f"pb-student-table-{i}"))
        waiting = [s.id for s in record.students if s.group is None]
        if waiting:
            waiting_for = _("Waiting for a {table}", table=render(words.Table).lower())
            head = widgets.HTML(f"<b>{esc(waiting_for)}</b> · {esc(number(len(waiting)))}").add_class("pb-table-head")
            groups.append(widgets.VBox((head, *(chips[sid] for sid in waiting))).add_class("pb-student-table").add_class("pb-student-waiting"))
    else:
        groups.append(widgets.VBox(tuple(chips.values())).add_class("pb-student-table").add_class("pb-student-lobby"))
    table = esc(render(words.Table).lower())
    picked = record.student(page._selected) if page._selected else None
    hint = (
        ""
        if record.phase != "dealt"
        else '<span class="pb-swap-hint">'
        + _("{name} picked: press Swap on a student of another {table}, or Move here on a {table} with room.", name=f"<b>{esc(picked.name)}</b>", table=table)
        + "</span>"
        if picked is not None
        else f'<span class="pb-muted pb-swap-hint">{_("Swap: press it on one student, then on a student of another {table}.", table=table)}</span>'
    )
    counted = students_count(record, seen, now)
    head_line = widgets.HTML(f'<div class="pb-students-head">{counted}{hint}</div>')
    page._spots["students-head"] = (head_line, counted)
    page._hint = hint
    grid = widgets.Box(tuple(groups)).add_class("pb-student-grid")
    return widgets.VBox((head_line, grid)).add_class("pb-class-students")


def students_count(record: cl.ClassRecord, seen: dict[str, float], now: float) -> str:
    on = sum(1 for s in record.students if now - seen.get(s.id, 0.0) <= cl.CONNECTED_SECONDS)
    return f"<h3>{esc(_('Students: {n} of {expected} · {on} connected now', n=len(record.students), expected=record.expected, on=on))}</h3>"


def repaint_presence(page: ClassPage, record: cl.ClassRecord) -> bool:
    """On the monitor, when only who is connected moved (or the "not seen for" lines are half
    a minute old): each student's words redrawn in place, no widget made; True if any was."""
    now = time.time()
    seen = cl.presence(page.store, record)
    connected = connected_ids(record, seen, now)
    if connected == page._connected_seen and int(now // 30) == page._presence_bucket:
        return False
    page._connected_seen, page._presence_bucket = connected, int(now // 30)
    asking = {r.student: r for r in record.requests}
    for student in record.students:
        spot = page._spots.get(student.id)
        if spot is not None and (base := chip_text(record, student, page._drawn_tables, asking, seen, now)) != spot[1]:
            page._spots[student.id] = (spot[0], base)
            spot[0].value = base + page._said_html(student.id)
    head = page._spots.get("students-head")
    if head is not None:
        counted = students_count(record, seen, now)
        head[0].value = f'<div class="pb-students-head">{counted}{page._hint}</div>'
    return True


def chip_text(record: cl.ClassRecord, student: cl.Student, tables: dict[str, Any], asking: Any, seen: dict[str, float], now: float) -> str:
    """A student row's words: the dot, the name, the state, and connected or not seen for how long."""
    heard = seen.get(student.id)
    if heard is not None and now - heard <= cl.CONNECTED_SECONDS:
        dot = f'<span class="pb-dot pb-dot-on" title="{esc(_("connected"))}">●</span>'
        line = _("connected")
    else:
        dot = f'<span class="pb-dot pb-dot-off" title="{esc(_("not connected"))}">○</span>'
        line = _("not seen for {ago}", ago=ago(now - heard)) if heard is not None else _("not seen yet")
    where = cl.seat_of(record, student)
    if student.id in asking:
        state = _("asking for their place on another device")
    elif student.free:
        state = _("released")
    elif not student.kept:
        state = _("joining…")
    elif where is not None and card(record.game).devices:
        table = tables.get(where[0])
        claim = dict(table.meta.get("claims") or {}).get(str(where[1])) if table is not None else None
        bot = table is not None and where[1] in table.bots
        state = _("a bot plays their seat") if bot else _("on their seat") if isinstance(claim, dict) and claim.get("confirmed") else _("not on their seat yet")
    else:
        state = _("joined")
    return f'{dot}<b class="pb-chip-name">{esc(student.name)}</b> <span class="pb-chip-state">{esc(state)} · {esc(line)}</span>'


def student_chip(
    page: ClassPage, record: cl.ClassRecord, student: cl.Student, tables: dict[str, Any], asking: dict[str, cl.SeatRequest], seen: dict[str, float], now: float, waited: set[tuple[str, int]]
) -> widgets.Widget:
    """One student's row on the monitor: a dot (connected, or not seen for how long), the
    name, the state, small buttons, and what the last press on it did."""
    sid = student.id
    base = chip_text(record, student, tables, asking, seen, now)
    html = widgets.HTML(base + page._said_html(sid)).add_class("pb-chip-text")
    page._spots[sid] = (html, base)
    where = cl.seat_of(record, student)
    buttons: list[widgets.Widget] = []

    def small(description: str, css: str, tooltip: str = "", style: str = "") -> widgets.Button:
        button = widgets.Button(description=description, tooltip=tooltip, button_style=style).add_class(css).add_class("pb-small")
        buttons.append(button)
        return button

    request = asking.get(sid)
    if request is not None:
        small(_("Approve"), f"pb-approve-chip-{request.id}", _("Their place moves to the device that asks"), "success").on_click(lambda _event, rid=request.id: page.approve(rid))
    if record.phase == "dealt" and student.group is not None:
        chosen = page._selected == sid
        other = record.student(page._selected) if page._selected and not chosen else None
        # Short on every row (the picked student is said once, above the tables): a long
        # label on thirty rows wraps each of them.
        tip = _("Swap with {name}", name=other.name) if other is not None else _("Swap two students of different tables: press on one, then on the other")
        # TRANSLATORS: a small button on a student's row: swap them with a student of another table
        small(_("Cancel swap") if chosen else _("Swap"), f"pb-swap-{sid}", tip, "info" if chosen else "").on_click(lambda _event, sid=sid: page._press_swap(sid))
    if where is not None and where in waited and student.group is not None:
        # the table waits on this student: a bot may play their seat (its own page hands it back)
        # TRANSLATORS: a small button: a bot plays this student's seat
        small(_("Bot"), f"pb-class-bot-{student.group}-{where[1]}", _("A bot plays this absent student's seat; the table's own page hands it back")).on_click(
            lambda _event, i=student.group, seat=where[1]: page.hand_to_bot(i, seat)
        )
    if page._renaming == sid:
        box = widgets.Text(value=student.name, layout=widgets.Layout(width="160px")).add_class(f"pb-rename-box-{sid}")
        buttons.append(box)
        # TRANSLATORS: a small button: save the student's new name
        small(_("Save"), f"pb-rename-save-{sid}", "", "primary").on_click(lambda _event, sid=sid, box=box: page.rename_student(sid, box.value))
    else:
        small(_("Rename"), f"pb-rename-student-{sid}").on_click(lambda _event, sid=sid: page._start_renaming(sid))
    # TRANSLATORS: a small button: free the student's name for another device
    small(_("Release"), f"pb-release-student-{sid}", _("Free this name for another device: the next device that joins with it is this student")).on_click(lambda _event, sid=sid: page.release_student(sid))
    removing = page._removing == sid
    small(_("Press again to remove") if removing else _("Remove"), f"pb-remove-student-{sid}", _("Take this student out of the class"), "danger" if removing else "").on_click(
        lambda _event, sid=sid: page._press_remove(sid)
    )
    for extra in page.row_extras:
        buttons.extend(extra(record, student))
    row = widgets.HBox(tuple(buttons)).add_class("pb-chip-actions")
    chip = widgets.VBox((html, row)).add_class("pb-student-chip").add_class(f"pb-student-{sid}")
    if page._selected == sid:
        chip.add_class("pb-chip-selected")
    return chip


def waited_seats(table: Any) -> list[int]:
    """The seats a table waits on that a person plays (none once it is over or stopped)."""
    state, rules = table.game.state, table.game.rules
    if rules.over(state) or table.meta.get(STOPPED):
        return []
    names = card(rules.slug).seat_names(table.game.setup)  # a GM's seat too
    return [s for s in rules.waiting_for(state) if s not in table.bots and s < len(names)]
