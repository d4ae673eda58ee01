"""The pages of a class (`notebooks/class.ipynb`), as the link that opened them says.

- **code** (`/j`): a box for the room code, for a device without a camera;
- **join** (`/j/CODE`, the board's QR code): a name (or a pick from the class list), then this
  page is the student's own: the lobby, their table once dealt, then their seat at it (the
  game's own seat page, built here in place) or, for a game played on one shared screen, which
  screen is theirs (root class `playbook-class-student`);
- **board** (`?code=..&board=..`, the projector): the code large with its QR code and the names
  as they arrive, every table at a glance, Leerdam's villages side by side year by year, then
  the results (root class `playbook-class-board`);
- **monitor** (`?code=..&monitor=..`, the facilitator): deal, move, start, every table's state
  and whom it has waited on for how long, a seat to a bot, the class CSV, end the class
  (root class `playbook-class-monitor`).

Student pages carry no teacher navigation (the template hides the header's links on them), and a
page receives only what its key allows: a student's page never holds another student's key.
Every change goes through `playbook.classes.submit`, with the version the page showed.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

import i18n
from drawing.common import download_link, esc, number
from drawing.timeline import scenes_for
from i18n import _, _n, render
from playbook import classes as cl
from playbook import timer
from playbook.access import key_matches, new_key
from playbook.links import class_links, class_query, in_voila, page, public_base, table_query
from playbook.store import STOPPED, HandOver, Refused, Store, StoreFault
from rules import RuleError
from rules.games import CARDS, card
from rules.text import Said, say

from . import live
from .address import page_query, qr_svg
from .board import ClassDebrief
from .class_glance import glance_html, groups_html, names_html, results_html
from .class_students import ago, connected_ids, repaint_presence, students_box, waited_seats
from .common import Announcer, DebriefBar, StatusLine, close_tree, csv_text, words_of
from .languages import room_languages_html
from .live import LiveFollow
from .lost_presses import listen
from .pace import PacePanel, TimerKeeper
from .styles import style_html

__all__ = ["ClassPage"]

#: how often the board and the monitor look at the tables' versions while the class plays.
TABLES_LOOK_SECONDS = 2.0

def _load_seat_pages() -> None:
    """The dashboards of the games whose students play on a seat of their own (their cards'
    `devices`), loaded with this module: a kernel kept ready for a class has its student's seat
    page loaded before the class comes."""
    for game in CARDS:
        if game.devices and game.has("dashboard"):
            game.module("dashboard")


_load_seat_pages()


#: a class's phase as its facilitator's page names it.
_PHASES = {"lobby": say("lobby"), "dealt": say("dealt"), "playing": say("playing"), "over": say("over")}


class ClassPage(widgets.VBox):
    """One page of a class (see the module docstring). Attributes tests rely on: `store`,
    `role`, `record` (None when there is no class), `student` (a student page's), `status`,
    `screen`, `seat_page` (the game's dashboard a student plays on, once seated)."""

    def __init__(self, store: Store | None = None, query: str | None = None) -> None:
        self.store = store if store is not None else Store()
        self.query = page_query() if query is None else query
        self.role = "code"
        self.record: cl.ClassRecord | None = None
        self.student: cl.Student | None = None
        self.seat_page: Any = None
        # A student's card, redrawn in place as the lobby fills: a new widget for every name that
        # arrives was six messages to every phone in the room, thirty times over.
        self.student_card = widgets.HTML()
        #: the class board's debrief: its tables side by side, round by round.
        self.class_debrief: ClassDebrief | None = None
        self._key = ""
        #: the key this browser keeps for itself (its script reports it in `device_box`): the
        #: device a student is, whichever way they come back.
        self.device = ""
        self.device_box = widgets.Text(layout=widgets.Layout(display="none")).add_class("pb-device")
        #: the monitor's line of the languages the students' pages read (`widgets.languages`).
        self.languages_line = widgets.HTML().add_class("pb-class-languages")
        self.device_box.observe(lambda change: self.device_said(str(change["new"])), "value")
        #: the class a page opened by an old link belongs to: the device may still be a student's.
        self._class_id = ""
        #: a name this page asked the facilitator for, and the key it will hold if approved.
        self._asked: tuple[str, str] | None = None
        #: a name just refused as taken: the join page offers to ask for it.
        self._taken = ""
        #: the monitor's student whose name is being changed, and a removal asked once.
        self._renaming = ""
        self._removing = ""
        #: the first of End's two presses was made: kept through the redraws a live class makes.
        self._ending = False
        #: what the phase buttons were made for (`_draw_controls`)
        self._controls_shown: tuple[Any, ...] | None = None
        #: the rule of the last change this page had refused ("" when it went through).
        self._refused = ""
        #: the monitor: where the action being made was pressed (a student's id, "controls",
        #: "table-N"), what the last one did there (`_say_at`: said beside it), and the places
        #: a redraw put a line to say it in; the student picked for a swap.
        self._at = ""
        self._said: tuple[str, str, bool] | None = None
        self._spots: dict[str, tuple[widgets.HTML, str]] = {}
        self._selected = ""
        self._connected_seen: tuple[str, ...] = ()
        self._presence_bucket = 0
        self._drawn_tables: dict[str, Any] = {}
        self._hint = ""
        #: when this student page last noted, in the store, that it is there (`_beaten`).
        self._presence_noted = 0.0
        self._tables_seen: tuple[int, ...] = ()
        self._shown: Any = None
        self.header = widgets.HTML().add_class("pb-class-header")
        self.status = StatusLine()
        #: what the page's live region says of the class (the student's screen, a pause).
        self.announcer = Announcer()
        # Following the class: the page's heartbeat, and the look at the class (and its tables).
        self.live = LiveFollow(self.status, self._look, lambda: self.record is not None, say("check the class"), self._beaten, self.fault_message)
        listen(self)  # a press on a button just replaced is said here (`widgets.lost_presses`)
        self.screen = widgets.VBox().add_class("pb-class-screen")
        self.heartbeat, self.alive = self.live.heartbeat, self.live.alive
        self.navigator = widgets.HTML(layout=widgets.Layout(display="none")).add_class("pb-navigator")
        #: the monitor's debrief (every table's decisions and the class handout), kept across
        #: redraws and emptied only when a table moves on.
        self.debrief_bar = DebriefBar(self.prepare_debrief, _("Prepare the class debrief (CSV and handout)"))
        #: the monitor's first lines, kept across redraws: the class's phase buttons, then
        #: `pace_box`, a box for other controls of the whole class (its pace), then what the
        #: last of them did.
        self.pace_box = widgets.HBox().add_class("pb-class-pace")
        #: what other controls add to each student's row on the monitor (a student's extra time):
        #: each is called with the class and the student, and gives small widgets for the row.
        self.row_extras: list[Callable[[cl.ClassRecord, cl.Student], Sequence[widgets.Widget]]] = []
        self.controls_row = widgets.HBox((self.pace_box,)).add_class("pb-controls-row")
        self.controls_said = widgets.HTML().add_class("pb-said-controls")
        self.controls = widgets.VBox((self.controls_row, self.controls_said)).add_class("pb-class-controls")
        self._debrief_seen: Any = None
        #: the class's pace on the monitor, and the timers the monitor and the board keep.
        self.pace_panel = PacePanel(self._submit, self.move_on)
        self.row_extras.append(self.pace_panel.extra_time)
        self.timer = TimerKeeper(self.store, self._timed_tables, lambda: not self.live.gone())
        super().__init__((widgets.HTML(style_html("dashboard.css", "class.css")), self.header, self.status, self.announcer, self.screen, self.navigator, self.device_box, self.heartbeat, self.alive))
        self.add_class("playbook-root")
        self.add_class("playbook-class")
        self.open_from_query()

    # -- what the link opens ------------------------------------------------------------------------
    def open_from_query(self) -> None:
        params = urllib.parse.parse_qs(self.query.lstrip("?"))
        code = cl.clean_code((params.get("code") or [""])[0])
        if not code:
            self._set_role("code")
            self._draw()
            return
        record = cl.class_by_code(self.store, code)
        if record is None:
            self._set_role("code")
            self.status.refuse(_("There is no class with the code {code}: check the code on the board.", code=code))
            self._draw()
            return
        self.record = record
        self._class_id = record.id
        given = lambda name: (params.get(name) or [""])[0]  # noqa: E731
        if given("board") or given("monitor"):
            role = "board" if key_matches(record.board_key, given("board")) else "monitor" if key_matches(record.monitor_key, given("monitor")) else ""
            if not role:
                self._deny(_("This link is not valid (wrong or old key): ask the facilitator for the class's links."))
                return
            self._set_role(role)
        elif given("student"):
            student = record.by_key(given("student"), given("key"))
            if student is None:
                # An old link of this device's own place still finds it once the device is heard
                # (`device_said`); another device's page stays shut.
                self._deny(_("This page's key no longer opens a place in the class (it was released, or moved to another device). Join again with the code."))
                self.navigator.value = f'<a data-forget-class="{esc(record.code)}"></a>'
                return
            self.student, self._key = student, given("key")
            self._set_role("student")
        else:
            self._set_role("join")
        self._draw()
        self._start_watching()

    def _set_role(self, role: str) -> None:
        for old in ("code", "join", "student", "board", "monitor", "denied"):
            self.remove_class(f"playbook-class-{old}")
        self.role = role
        self.add_class(f"playbook-class-{role}")
        self._shown = None

    def _deny(self, reason: str) -> None:
        self._set_role("denied")
        self.record, self.student = None, None
        self.header.value = '<h2 style="margin:8px 0">Playbook class</h2>'
        self._replace(())
        if self.seat_page is not None:  # a seat this page no longer holds: it stops following
            close_tree([self.seat_page])
            self.seat_page = None
        self.status.refuse(reason)

    def _replace(self, children: Sequence[widgets.Widget]) -> None:
        old = [w for w in self.screen.children if w is not self.seat_page and w is not self.student_card and w is not self.controls]
        self.screen.children = tuple(children)
        close_tree([w for w in old if w not in children])

    # -- changes ---------------------------------------------------------------------------------------
    def _submit(self, change: cl.ClassChange) -> bool:
        """One change to the class, with the version this page shows; False (and why) if refused."""
        self._refused = ""
        if self.record is None:
            return False
        try:
            self.record = cl.submit(self.store, self.record.id, change, self.record.version)
        except cl.ClassError as exc:
            self._refused = exc.rule
            if exc.record is not None:
                self.record = exc.record
            said = exc.message[:1].upper() + exc.message[1:]
            self._say_at(self._at, said if said.endswith(".") else _("{reason}.", reason=said), False)
            self._draw()
            return False
        except StoreFault as exc:  # the machine's (a full disk, a database gone): nothing was saved
            self._say_at(self._at, self.fault_message(exc), False)
            return False
        except (RuleError, Refused, KeyError) as exc:
            reason = render(exc.said) if isinstance(exc, RuleError) else exc.message if isinstance(exc, Refused) else str(exc)
            self._say_at(self._at, _("Nothing was changed: {reason}", reason=reason), False)
            return False
        self.status.clear()
        self._said = None
        self._draw()
        return True

    def join(self, name: str) -> bool:
        """A student joins with `name`: this page becomes theirs, for good once the device has
        kept its key (`device_said`). This device's own place, if it has one, comes back instead."""
        if self.role != "join" or self.record is None:
            self.status.refuse(_("Open the class's code first."))
            return False
        if self._recognise():
            return True
        key = new_key()
        self._taken = ""
        if not self._submit(cl.Join(name, key, self.device)):
            if self._refused == "device":
                return self._recognise()
            if self._refused == "names":
                self._taken = name
                self._shown = None
                self._draw()
            return False
        joined = next((s for s in reversed(self.record.students) if key_matches(s.key, key)), None)
        if joined is None:
            return False
        self._become(joined, key)
        return True

    def ask_seat(self, name: str) -> bool:
        """On another device: ask the facilitator for `name`'s place (approved on the monitor)."""
        if self.role != "join" or self.record is None:
            self.status.refuse(_("Open the class's code first."))
            return False
        if not self.device:
            self.status.refuse(_("This page has not kept a key yet: wait a moment, then ask again."))
            return False
        key = new_key()
        if not self._submit(cl.AskSeat(name, key, self.device)):
            if self._refused == "device":
                return self._recognise()
            return False
        self._asked, self._taken = (name, key), ""
        self._shown = None
        self.status.ok(_("Asked: the facilitator approves {name}'s place for this device on their page. Keep this page open: it changes by itself.", name=name))
        self._draw()
        return True

    def _become(self, student: cl.Student, key: str) -> None:
        """This page is `student`'s from now on: the address bar (and the device) keep their link;
        a join not yet kept asks the page's script to keep it and say so (`data-keep`)."""
        assert self.record is not None
        self.student, self._key, self._asked, self._taken = student, key, None, ""
        self._set_role("student")
        query = class_query(self.record.code, student=student.id, key=key)
        keep = "" if student.kept else f' data-keep="{esc(student.id)}"'
        # The address bar and the device keep this student's own link: a reload, or the code
        # opened again here, comes back to it.
        self.navigator.value = f'<a data-href="{esc(query)}" data-class-of="{esc(self.record.code)}"{keep}></a>'
        self._draw()
        self._start_watching()

    def _recognise(self) -> bool:
        """This device's own place in the class, if it has one, opened here; True when it was."""
        if not self.device or not self._class_id or self.role not in ("join", "denied", "code"):
            return False
        try:
            record = cl.load_class(self.store, self._class_id)
        except KeyError:
            return False
        mine = record.by_device(self.device)
        if mine is None:
            return False
        self.record = record
        self.status.ok(_("Welcome back, {name}: this device is your place in the class.", name=mine.name))
        self._become(mine, mine.key)
        return True

    def device_said(self, value: str) -> None:
        """The page's script reports the key this browser keeps (and, after a join, that it has
        kept the student's link: "DEVICE kept:STUDENT"); this device is known from now on."""
        device, _, kept = value.strip().partition(" kept:")
        if not 16 <= len(device) <= 100 or (device == self.device and not kept):
            return
        self.device = device
        if self._recognise():
            return
        student = self.student
        if self.role == "student" and student is not None and kept == student.id and self.record is not None:
            current = self.record.student(student.id)
            if current is not None and not current.kept:
                self._submit(cl.Keep(student.id, self._key, device))
                found = self.record.student(student.id) if self.record is not None else None
                if found is not None and found.kept:
                    self.student = found
                    self.navigator.value = self.navigator.value.replace(f' data-keep="{esc(student.id)}"', "")
                    self._shown = None
                    self._draw()

    def deal(self, mix: bool = False) -> bool:
        self._at, self._selected = "controls", ""
        return self._allowed(say("deal the tables")) and self._submit(cl.Deal(mix))

    def move(self, student_id: str, group: int) -> bool:
        """Move a student to a table with room (between the deal and the start)."""
        self._at = student_id
        if not self._allowed(say("move a student")) or self.record is None:
            return False
        student = self.record.student(student_id)
        if not self._submit(cl.Move(student_id, group)):
            return False
        self._selected = ""
        self._shown = None
        self._draw()
        table = self._table_word()
        if student is not None:
            self._say_at(student_id, _("{name} moved to {table} {n}.", name=student.name, table=table, n=group + 1), True)
        else:
            self._say_at(student_id, _("The student moved to {table} {n}.", table=table, n=group + 1), True)
        return True

    def swap(self, first: str, second: str) -> bool:
        """Swap two students of different tables (between the deal and the start): each takes the
        other's seat; said beside the second, the one pressed last."""
        self._at = second
        if not self._allowed(say("swap two students")) or self.record is None:
            return False
        if not self._submit(cl.Swap(first, second)):
            return False
        self._selected = ""
        self._shown = None
        self._draw()
        a, b = self.record.student(first), self.record.student(second)
        if a is not None and b is not None and a.group is not None and b.group is not None:
            table = self._table_word()
            self._say_at(second, _("Swapped: {second} is at {table} {n}, {first} at {table} {m}.", second=b.name, first=a.name, table=table, n=b.group + 1, m=a.group + 1), True)
        return True

    def start(self) -> bool:
        self._at, self._selected = "controls", ""
        return self._allowed(say("start the tables")) and self._submit(cl.Start())

    def deal_waiting(self) -> bool:
        self._at = "controls"
        return self._allowed(say("deal the late students")) and self._submit(cl.DealWaiting())

    def end(self) -> bool:
        self._at = "controls"
        return self._allowed(say("end the class")) and self._submit(cl.End())

    def release_student(self, student_id: str) -> bool:
        """Free a student's name for another device, at any phase; their seat at a table is
        released in the same change (the old device's pages open nothing more)."""
        self._at = student_id
        if not self._allowed(say("release a student")) or self.record is None:
            return False
        student = self.record.student(student_id)
        if student is None or not self._submit(cl.ReleaseStudent(student_id, new_key())):
            return False
        self._say_at(student_id, _("{name}'s name is free: they join again with it (from any device), and take their place back.", name=student.name), True)
        return True

    def rename_student(self, student_id: str, name: str) -> bool:
        """Give a student another name in the class, at any phase."""
        student = self._student_to_change(student_id, say("rename a student"))
        if student is None or self.record is None:
            return False
        if not self._submit(cl.RenameStudent(student_id, name)):
            return False
        self._renaming = ""
        renamed = self.record.student(student_id)
        new_name = renamed.name if renamed is not None else name
        where = cl.seat_of(self.record, student)
        # A game's names are in its setup, fixed once it starts: its seat keeps the dealt name.
        self._shown = None
        self._draw()
        if where:
            said = _(
                "{name} is now {new} in the class. At {table} {n} the seat keeps the name {name}: a game's names are fixed once it starts.",
                name=student.name, new=new_name, table=self._table_word(), n=(student.group or 0) + 1,
            )  # fmt: skip
        else:
            said = _("{name} is now {new} in the class.", name=student.name, new=new_name)
        self._say_at(student_id, said, True)
        return True

    def remove_student(self, student_id: str) -> bool:
        """Take a student out of the class, at any phase (after the start a bot plays their seat)."""
        student = self._student_to_change(student_id, say("remove a student"))
        if student is None or self.record is None:
            return False
        if not self._submit(cl.RemoveStudent(student_id)):
            return False
        self._removing = ""
        if cl.seat_of(self.record, student) is not None:
            said = _("{name} is out of the class. A bot plays their seat at {table} {n}.", name=student.name, table=self._table_word(), n=(student.group or 0) + 1)
        else:
            said = _("{name} is out of the class.", name=student.name)
        # The student's row is gone: said beside the class's buttons, at the top.
        self._say_at("controls", said, True)
        return True

    def approve(self, request_id: str) -> bool:
        """Approve a student's request for their place on another device: one press."""
        if not self._allowed(say("approve a request")) or self.record is None:
            return False
        request = next((r for r in self.record.requests if r.id == request_id), None)
        student = self.record.student(request.student) if request is not None else None
        self._at = student.id if student is not None else "controls"
        if not self._submit(cl.Approve(request_id)):
            return False
        if student is not None:
            said = _("{name}'s place is on their new device; the old one opens nothing more.", name=student.name)
        else:
            said = _("The student's place is on their new device; the old one opens nothing more.")
        self._say_at(self._at, said, True)
        return True

    def deny_request(self, request_id: str) -> bool:
        if not self._allowed(say("turn a request down")) or self.record is None:
            return False
        request = next((r for r in self.record.requests if r.id == request_id), None)
        self._at = request.student if request is not None else "controls"
        return self._submit(cl.DenyRequest(request_id))

    def hand_to_bot(self, table_index: int, seat: int) -> bool:
        """A bot plays an absent student's seat (the table's own facilitator page hands it back)."""
        if not self._allowed(say("hand a seat to a bot")) or self.record is None:
            return False
        # said in the student's row, where the press was (else in the table's line)
        record = self.record
        table_id = record.tables[table_index] if 0 <= table_index < len(record.tables) else ""
        self._at = next((s.id for s in record.students if cl.seat_of(record, s) == (table_id, seat)), f"table-{table_index}")
        from playbook.bots import strategies

        bot = card(self.record.game).fill_bot
        if bot not in strategies(self.record.game):
            self._say_at(self._at, _("This game has no bots."), False)
            return False
        try:
            table = self.store.load(table_id)
            self.store.submit(table_id, HandOver(seat, bot), table.version)
        except StoreFault as exc:
            self._say_at(self._at, self.fault_message(exc), False)
            return False
        except Refused as exc:
            self._say_at(self._at, exc.message, False)
            return False
        self._shown = None
        self._draw()
        seat_name = render(card(self.record.game).seat_labels(table.game.setup)[seat])
        self._say_at(self._at, _("A bot ({bot}) plays {name}'s seat at {table} {n}.", bot=bot, name=seat_name, table=self._table_word(), n=table_index + 1), True)
        return True

    def move_on(self) -> bool:
        """Next round or year for every table: every seat each table waits for is moved on by
        the timer's rule (`playbook.timer.move_on`), table by table through the write path."""
        if not self._allowed(say("move every table on")) or self.record is None:
            return False
        try:
            moves = sum(timer.move_on(self.store, table_id) for table_id in self.record.tables)
        except StoreFault as exc:
            self.status.refuse(self.fault_message(exc))
            return False
        measure = card(self.record.game).length
        unit = render(measure.unit) if measure else _("step")
        self.status.ok(_n(
            "Every table moved on to its next {unit} ({n} moves made for the players, marked as timed out).",
            "Every table moved on to its next {unit} ({n} moves made for the players, marked as timed out).",
            moves, unit=unit,
        ))  # fmt: skip
        self._shown = None
        self.refresh()
        return True

    def _timed_tables(self) -> Sequence[str]:
        """The tables whose timers this page keeps: every table of the class, on its monitor and board."""
        record = self.record
        return record.tables if record is not None and self.role in ("monitor", "board") and record.phase == "playing" else ()

    def fault_message(self, fault: StoreFault) -> str:
        """What this page says when the server cannot save (or read): the monitor says what to
        do about it, a student's page (or the board) to tell the teacher."""
        return fault.for_page(self.role == "monitor")

    def _table_word(self) -> str:
        """The class's game's word for a table ("table", "village"), as a sentence says it."""
        return render(card(self.record.game).words.Table).lower() if self.record is not None else _("table")

    def _student_to_change(self, student_id: str, what: Said) -> cl.Student | None:
        """The class's student `student_id`, if this page may `what` and the student is still
        there (else said, beside the controls)."""
        self._at = student_id
        if not self._allowed(what) or self.record is None:
            return None
        student = self.record.student(student_id)
        if student is None:
            self._say_at("controls", _("No such student: the list has changed, look again."), False)
        return student

    def _allowed(self, what: Said) -> bool:
        if self.role == "monitor":
            return True
        self.status.refuse(_("Only the facilitator's page can {what}.", what=render(what)))
        return False

    # -- drawing ---------------------------------------------------------------------------------------
    def _draw(self) -> None:
        if self.role == "code":
            self._draw_code()
        elif self.role == "join":
            self._draw_join()
        elif self.role == "student":
            self._draw_student()
        elif self.role == "board":
            self._draw_board()
        elif self.role == "monitor":
            self._draw_monitor()

    def _head(self, title: str, line: str = "") -> None:
        self.header.value = self._corner() + f'<h2 style="margin:8px 0 2px">{esc(title)}</h2>' + (f'<div class="pb-muted">{esc(line)}</div>' if line else "")

    def _corner(self) -> str:
        """The room code and the short address in a corner of the board and the facilitator's
        page, in every phase: a student whose phone closed mid-lesson finds the way back."""
        record = self.record
        if record is None or self.role not in ("board", "monitor"):
            return ""
        if os.environ.get("PLAYBOOK_LOCAL_ONLY") == "1":
            address = ""  # phones cannot reach a local-only server: the board says so in the lobby
        else:
            short = class_links(public_base(), record)["join"].split("/j/")[0] + "/j"
            address = f'<div class="pb-corner-address">{esc(short)}</div>'
        return (
            f'<div class="pb-class-corner" role="note" aria-label="{esc(_("Room code {code}", code=" ".join(record.code)))}">'
            f'<span class="pb-corner-label">{esc(_("Room code"))}</span> <b class="pb-corner-code">{esc(record.code)}</b>{address}</div>'
        )

    def _draw_code(self) -> None:
        if self._shown == "code":
            return
        self._shown = "code"
        self._head(_("Join a class"), _("Type the room code from the board."))
        box = widgets.Text(placeholder=_("e.g. {code}", code="K7QM2P"), description=_("Room code"), layout=widgets.Layout(width="320px")).add_class("pb-code-box")
        # TRANSLATORS: a button: on to the next step of joining
        go = widgets.Button(description=_("Next"), button_style="primary").add_class("pb-code-go")

        def next_step(_event: Any = None) -> None:
            code = cl.clean_code(box.value)
            record = cl.class_by_code(self.store, code) if code else None
            if record is None:
                self.status.refuse(_("No class has the code {code}: check it on the board.", code=code or _("(empty)")))
                if code and in_voila():  # to the server's door, which counts this device's wrong codes and slows them (playbook.doors)
                    go.disabled = box.disabled = True
                    self.navigator.value = f'<a data-go="../../j/{esc(code)}"></a>'
                return
            self.status.clear()
            self.record, self._class_id = record, record.id
            self._set_role("join")
            self.navigator.value = f'<a data-href="{esc(class_query(record.code))}"></a>'
            # The code typed again on a device that is a student's: their own place.
            if self._recognise():
                return
            self._draw()
            self._start_watching()

        go.on_click(next_step)
        self._replace((widgets.HBox((box, go), layout=widgets.Layout(flex_flow="row wrap", align_items="center")),))

    def _draw_join(self) -> None:
        record = self.record
        assert record is not None
        key = ("join", record.phase, self._asked, self._taken)
        if self._shown == key:
            return
        self._shown = key
        self._head(_("Which one are you? · {title}", title=record.heading), _("Room code {code}", code=record.code))
        if record.phase == "over":
            self._replace((widgets.HTML(f'<div class="pb-big">{esc(_("This class is over."))}</div>'),))
            return
        if self._asked is not None:
            name = self._asked[0]
            asked = _("Asked for {name}'s place", name=name)
            self._replace((widgets.HTML(
                f'<div class="pb-class-student-card pb-asked"><div class="pb-big">{esc(asked)}</div>'
                f'<div>{esc(_("The facilitator approves it on their page: this page then becomes your seat. Keep it open; it changes by itself."))}</div></div>'
            ),))
            return
        ask: list[widgets.Widget] = []
        if self._taken:
            button = widgets.Button(description=_("I am {name}: ask for my place", name=self._taken), button_style="warning", layout=widgets.Layout(width="auto")).add_class("pb-ask-seat")
            button.on_click(lambda _event, name=self._taken: self.ask_seat(name))
            ask = [widgets.HTML(f"<div>{esc(_('{name} is on another device. If that is you, ask the facilitator to move your place to this one:', name=self._taken))}</div>"), button]
        if record.roster:
            buttons = []
            # Every name, taken or not: pressed again on its own device it is that student's
            # place; on another, the page offers to ask the facilitator for it.
            for i, name in enumerate(record.roster):
                button = widgets.Button(description=_("I am {name}", name=name), button_style="primary").add_class(f"pb-roster-{i}")
                button.on_click(lambda _event, name=name: self.join(name))
                buttons.append(button)
            note = widgets.HTML(f"<div>{esc(_('Press your own name.'))}</div>")
            self._replace((note, widgets.VBox(tuple(buttons)).add_class("pb-join-seats"), *ask))
            return
        name = widgets.Text(placeholder=_("your name, as the class knows you"), description=_("Your name"), layout=widgets.Layout(width="340px")).add_class("pb-name-box")
        # TRANSLATORS: a button: join the class
        go = widgets.Button(description=_("Join"), button_style="primary", icon="sign-in").add_class("pb-join-class")
        go.on_click(lambda _event: self.join(name.value))
        late = record.phase == "playing"
        note = widgets.HTML(
            f"<div>{esc(_('Type your name and press Join. This page then becomes yours: keep it open.'))}</div>"
            + (f'<div class="pb-muted">{esc(_("The tables have already started: you will wait until the facilitator deals you a table."))}</div>' if late else "")
        )
        self._replace((note, widgets.HBox((name, go), layout=widgets.Layout(flex_flow="row wrap", align_items="center")), *ask))

    def _draw_student(self) -> None:
        record, student = self.record, self.student
        assert record is not None and student is not None
        student = record.student(student.id) or student
        self.student = student
        where = cl.seat_of(record, student)
        if where is not None and card(record.game).devices and record.phase in ("playing", "over") and student.kept:
            self._seat_student(record, student, where)
            return
        key = ("student", record.phase, student.group, student.kept, student.name, record.groups, tuple(s.name for s in record.students) if record.phase == "lobby" else ())
        if self._shown == key:
            return
        self._shown = key
        self._head(f"{student.name} · {record.heading}", _("Room code {code}", code=record.code))
        if not student.kept:
            # Not "You are in" before the device has kept its key: a phone locked now would
            # lose its name (the name stays free a little while, then is free again).
            body = (
                f'<div class="pb-big pb-keeping">{esc(_("Keeping your place on this device, {name}…", name=student.name))}</div>'
                f'<div>{esc(_("A moment: keep this page open."))}</div>'
            )
        elif record.phase == "over":
            body = f'<div class="pb-big">{esc(_("The class is over. Thank you!"))}</div>'
        elif student.group is None and record.phase == "playing":
            body = (
                f'<div class="pb-big">{esc(_("The tables have started."))}</div>'
                f'<div>{esc(_("You are on the waiting list: the facilitator will deal you a table with the others who came late. Keep this page open; it changes by itself."))}</div>'
            )
        elif student.group is None:
            others = [s.name for s in record.students if s.id != student.id]
            body = (
                f'<div class="pb-big">{esc(_("You are in, {name}.", name=student.name))}</div>'
                f'<div>{esc(_("Wait for the facilitator to deal the tables: this page changes by itself."))}</div>'
                f'<div class="pb-muted" style="margin-top:8px">{esc(_("Here already ({n}):", n=len(record.students)))}</div>{names_html([student.name, *others])}'
            )
        else:
            mates = ", ".join(m for m in cl.table_names(record, record.groups[student.group]) if m != student.name)
            table = f'<div class="pb-big">{esc(_("Table {n}", n=student.group + 1))}</div>'
            if record.phase == "dealt":
                body = f"{table}<div>{esc(_('With: {names}. Wait for the start.', names=mates))}</div>"
            else:
                gm = card(record.game).gm
                if gm and student.seat == 0:
                    role = _("You are the GM, with {names}. Your table plays on one shared screen.", names=mates)
                else:
                    role = _("You play {name}, with {names}. Your table plays on one shared screen.", name=student.name, names=mates)
                link = ""
                if student.group < len(record.tables):
                    href = page("", card(record.game).notebook) + table_query(record.tables[student.group])
                    words = _("Open your table's screen")
                    screen = f'<a class="pb-table-screen" href="{esc(href)}" target="_blank" rel="noopener">{esc(words)}</a>'
                    link = f"<div>{_('{link} (one shared screen for the table).', link=screen)}</div>"
                body = f"{table}<div>{esc(role)}</div>{link}"
        self.student_card.value = f'<div class="pb-class-student-card">{body}</div>'
        # The screen's sentences, not the lobby's list of names: each arrival is no news to say.
        self.announcer.follow("screen", words_of(body.split('<div class="pb-muted"', 1)[0]))
        if self.screen.children != (self.student_card,):
            self._replace((self.student_card,))

    def _seat_student(self, record: cl.ClassRecord, student: cl.Student, where: tuple[str, int]) -> None:
        """The student's seat: the game's own seat page, built here, claimed for this device."""
        table_id, seat = where
        if self.seat_page is not None and self.seat_page.table_id == table_id:
            return
        try:
            table = self.store.load(table_id)
        except KeyError:
            self.status.refuse(_("Your table is no longer saved here: ask the facilitator."))
            return
        dashboard = card(record.game).module("dashboard").DASHBOARD
        # The student is known (by their key or their device): their seat opens with its key as it
        # stands, claimed for this page if no page holds it yet. Their seat's link, their class
        # link and the join address all come back here; only another device approved by the
        # facilitator (or a release) changes the seat's key.
        slip = dict(table.meta.get("seat_keys") or {}).get(str(seat), "")
        seat_page = dashboard(self.store, query=table_query(table_id, seat=seat, key=slip))
        # The seat page's heartbeat is the one the page's script presses now (the first on the
        # page): it notes the student's presence for the monitor, as this page's did.
        seat_page.heartbeat.on_click(lambda _event: self._note_presence())
        # dashboard.css came with this page (JupyterLab): sent again below class.css, it would win its ties
        seat_page.style_html.value = style_html(*seat_page.sheets)
        self.seat_page = seat_page
        self.navigator.value = ""  # the seat's own link (the seat page's navigator) is the address from now on
        # The seat's own link is on the game's page; the code opened again on this device goes
        # straight to it.
        seat_page.navigator.value = seat_page.navigator.value.replace('data-href="?', f'data-href="{page("", card(record.game).notebook)}?', 1).replace("<a ", f'<a data-class-of="{esc(record.code)}" ', 1)
        self.header.value = ""
        self.status.clear()
        self._replace((seat_page,))

    # -- the board -----------------------------------------------------------------------------------------
    def _tables(self) -> list[Any]:
        record = self.record
        return [self.store.load(t) for t in record.tables] if record is not None else []

    def _draw_board(self) -> None:
        record = self.record
        assert record is not None
        tables = self._tables()
        key = ("board", record.version, tuple(t.version for t in tables))
        if self._shown == key:
            return
        self._shown = key
        base = public_base()
        links = class_links(base, record)
        self._head(record.heading)
        parts = []
        paused = record.pace.get("paused_at") is not None and record.phase == "playing"
        self.announcer.follow("paused", _("Paused by the teacher") if paused else "")
        if paused:
            parts.append(f'<div class="pb-big pb-class-paused">{esc(_("Paused by the teacher"))}</div>')
        local = os.environ.get("PLAYBOOK_LOCAL_ONLY") == "1"
        # The join code while students still come; gone once the class is over.
        if record.phase in ("lobby", "dealt") or (record.waiting and record.phase != "over"):
            short = f'<b class="pb-short-address">{esc(links["join"].split("/j/")[0])}/j</b>'
            where = (
                '<div class="pb-local-only pb-tone-bad" style="font-weight:700">'
                + _(
                    "This server is local only: phones cannot join. Start it with {command} (without {option}).",
                    command="<code>playbook serve</code>",
                    option="<code>--local</code>",
                )
                + "</div>"
                if local
                else f'<div class="pb-big-label">{_("Open {address} and type the code, or scan:", address=short)}</div>'
            )
            parts.append(
                '<div style="display:flex;flex-wrap:wrap;gap:32px;align-items:center">'
                + ("" if local else qr_svg(links["join"], 260))
                + f'<div><div class="pb-big-label">{esc(_("Room code"))}</div><div class="pb-class-code">{esc(record.code)}</div>{where}</div></div>'
            )
        if record.phase == "lobby":
            here = f'<span class="pb-key-number">{esc(number(len(record.students)))}</span>'
            parts.append(f"<h2>{_('Here: {n} of {expected}', n=here, expected=record.expected)}</h2>{names_html([s.name for s in record.students])}")
        elif record.phase == "dealt":
            parts.append(f"<h2>{esc(_('The tables'))}</h2>" + groups_html(record))
        else:
            # Once it is over, the results lead: the room reads them first, from the back.
            over = record.phase == "over" or (tables and all(t.game.rules.over(t.game.state) for t in tables))
            if over:
                parts.append(results_html(record, tables))
            parts.append(glance_html(record, tables))
            compare = scenes_for(record.game).side_by_side
            if compare is not None and tables:
                parts.append(compare([t.game.state for t in tables]))
            if record.waiting and record.phase != "over":
                parts.append(f"<h2>{esc(_('Waiting for a table ({n})', n=len(record.waiting)))}</h2>{names_html([s.name for s in record.waiting])}")
        body: list[widgets.Widget] = [widgets.HTML("".join(parts)).add_class("pb-class-board-body")]
        if record.phase in ("playing", "over") and tables:
            # The tables compared in one debrief, round by round (what each board showed then).
            if self.class_debrief is None:
                self.class_debrief = ClassDebrief(record.heading, card(record.game).words.Table)
            self.class_debrief.show([t.game for t in tables])
            body.append(self.class_debrief)
        self._replace(tuple(body))

    # -- the monitor -----------------------------------------------------------------------------------------
    def _draw_monitor(self) -> None:
        record = self.record
        assert record is not None
        tables = self._tables()
        now = time.time()
        seen = cl.presence(self.store, record)
        connected = connected_ids(record, seen, now)
        # Who is connected is not in the key: it is redrawn in place (`class_students.repaint_presence`).
        self._repaint_languages(record)
        key = ("monitor", record.version, tuple(t.version for t in tables), self._selected, self._renaming, self._removing)
        if self._shown == key:
            return
        self._shown, self._connected_seen, self._presence_bucket = key, connected, int(now // 30)
        self._drawn_tables = {t.id: t for t in tables}
        self._spots = {}
        links = class_links(public_base(), record)
        phase = render(_PHASES[record.phase]) if record.phase in _PHASES else record.phase
        self._head(
            _("{title} · the facilitator's page", title=record.heading),
            _n("Room code {code} · {n} students · {phase}", "Room code {code} · {n} students · {phase}", len(record.students), code=record.code, phase=phase),
        )
        self._draw_controls(record)
        board_link = f'<a class="pb-class-board-link" href="{esc(class_links("", record)["board"])}" target="_blank" rel="noopener">{esc(_("Open the class board"))}</a>'
        info = widgets.HTML(
            "<div>"
            + _(
                "{board} for the projector. Students open {address} (or the board's QR code). Keep this page to yourself.",
                board=board_link,
                address=f"<b>{esc(links['join'])}</b>",
            )
            + "</div>"
        ).add_class("pb-class-info")
        # The phase's buttons first: a class of 30 puts them below a long list otherwise.
        parts: list[widgets.Widget] = [self.controls]
        if record.requests:  # a student waiting on another device: right below the buttons
            parts.append(self._requests_box(record))
        parts.append(info)
        parts.append(self.languages_line)
        if record.phase == "playing":
            self.pace_panel.show(record)
            parts.append(self.pace_panel)
        self.pace_box.children = self.pace_panel.buttons if record.phase == "playing" else ()
        if record.phase in ("playing", "over"):
            # A line a table (whom it waits on, a bot for an absent seat): short, and what a
            # class at play needs first.
            parts.append(self._tables_box(record, tables))
        if record.phase != "over" and record.students:
            parts.append(students_box(self, record, tables, seen, now))
        if record.phase in ("playing", "over"):
            rows = cl.decision_rows(self.store, record)
            parts.append(
                widgets.HTML(
                    download_link(csv_text(rows), f"class-{record.code}.csv", _n("The class CSV ({n} decisions)", "The class CSV ({n} decisions)", len(rows)), "text/csv")
                    if rows
                    else f'<span class="pb-muted">{esc(_("No decision yet: the class CSV comes with the first."))}</span>'
                ).add_class("pb-class-csv")
            )
            versions = (record.version, tuple(t.version for t in tables))
            if self._debrief_seen != versions:
                self._debrief_seen = versions
                over = any(cl.table_over(t) for t in tables)  # a stopped table is over for its debrief
                anonymous = any(getattr(t.game.setup, "anonymous", False) and not getattr(t.game.state, "pledges_shown", False) for t in tables)
                self.debrief_bar.show(ready=True, secrets=over and card(record.game).hides, name_by_default=not anonymous)
            parts.append(self.debrief_bar)
        self._replace(tuple(parts))

    def _draw_controls(self, record: cl.ClassRecord) -> None:
        """The class's phase buttons (deal, start, deal the latecomers), first on the page, then
        `pace_box` (other controls of the class), then End; below them what the last press did.
        The buttons are made again only when they change: a button replaced under a press (a
        table moved on) loses it."""
        self.controls_said.value = self._said_html("controls")
        self._spots["controls"] = (self.controls_said, "")
        shown = (record.phase, len(record.waiting))
        if shown == self._controls_shown:
            return
        self._controls_shown = shown
        buttons: list[widgets.Widget] = []
        if record.phase in ("lobby", "dealt"):
            deal = widgets.Button(description=_("Deal the tables") if record.phase == "lobby" else _("Deal again"), button_style="primary" if record.phase == "lobby" else "").add_class("pb-deal")
            mix = widgets.Checkbox(value=False, description=_("Mix (else in order of arrival)"), indent=False, layout=widgets.Layout(width="auto")).add_class("pb-deal-mix")
            deal.on_click(lambda _event: self.deal(mix.value))
            buttons += [deal, mix]
        if record.phase == "dealt":
            start = widgets.Button(description=_("Start the tables"), button_style="success", icon="play").add_class("pb-start-class")
            start.on_click(lambda _event: self.start())
            buttons.insert(0, start)
        if record.phase == "playing" and record.waiting:
            late = widgets.Button(description=_n("Deal the {n} waiting", "Deal the {n} waiting", len(record.waiting)), button_style="primary", layout=widgets.Layout(width="auto")).add_class("pb-deal-waiting")
            late.on_click(lambda _event: self.deal_waiting())
            buttons.append(late)
        if record.phase != "over":
            again = _("Press again to end it: the tables stop for good")
            end = widgets.Button(description=again if self._ending else _("End the class"), button_style="danger", layout=widgets.Layout(width="auto")).add_class("pb-end-class")

            def ending(_event: Any) -> None:
                # Two presses: the first says what the second does.
                if not self._ending:
                    self._ending = True
                    # the button shown now: a redraw may have put a new one in this one's place
                    for shown in (end, *self.controls_row.children):
                        if "pb-end-class" in getattr(shown, "_dom_classes", ()):
                            shown.description = again
                else:
                    self._ending = False
                    self.end()

            end.on_click(ending)
        else:
            end = None
        old = [w for w in self.controls_row.children if w is not self.pace_box]
        # End last, apart at the right (class.css): not the neighbour of Deal or Start.
        self.controls_row.children = (*buttons, self.pace_box, *([end] if end is not None else []))
        close_tree(old)

    def _said_html(self, where: str) -> str:
        """What the last action pressed at `where` (a student's id, "controls", "table-N") did."""
        if self._said is None or self._said[0] != where:
            return ""
        _where, message, ok = self._said
        # The page's status line says it to a screen reader (`_say_at`); this is for the eye.
        return f'<div class="pb-said pb-said-{"ok" if ok else "refuse"}"><span aria-hidden="true">{"✓" if ok else "✗"}</span> {esc(message)}</div>'

    def _say_at(self, where: str, message: str, ok: bool) -> None:
        """Say `message` beside what was pressed (`where`), and on the page's status line: the
        spot is redrawn in place, the rest of the page is not."""
        (self.status.ok if ok else self.status.refuse)(message)
        self._said = (where, message, ok) if where else None
        spot = self._spots.get(where)
        if spot is not None:
            spot[0].value = spot[1] + self._said_html(where)

    def prepare_debrief(self, name_secrets: bool = True) -> None:
        """The class's debrief: every table's decisions (CSV) and the handout of all its tables,
        the villages compared. A table's secrets are named once its game is over or stopped
        (the class ended), and only when `name_secrets` (the facilitator's choice)."""
        record = self.record
        if record is None or self.role != "monitor" or not record.tables:
            self.status.refuse(_("Only the facilitator's page makes the class debrief, once the tables are dealt."))
            return
        from printables import debrief

        reveal = None if name_secrets else False
        rows = cl.decision_rows(self.store, record, reveal=reveal, reveal_pledges=name_secrets)
        word = render(card(record.game).words.Table)
        stored = self._tables()
        tables = [(_("{table} {n}", table=word, n=i + 1), t.game) for i, t in enumerate(stored)]
        stopped = {label: text for (label, _game), t in zip(tables, stored) if (text := cl.stopped_text(t.game, t.meta))}
        pdf = debrief.build_pdf(tables, reveal=reveal, reveal_pledges=name_secrets, title=_("{title}: the debrief", title=record.heading), stopped=stopped)
        running = sum(1 for t in stored if not cl.table_over(t))
        if not card(record.game).hides:
            note = ""
        elif not name_secrets:
            note = _("Secret choices are kept: nothing the board did not show is named.")
        elif running:
            note = _n(
                "{n} table is still playing: their secrets are named once they are over.",
                "{n} tables are still playing: their secrets are named once they are over.",
                running,
            )
        else:
            note = _("Secret choices are named.")
        self.debrief_bar.offer(csv_text(rows, columns=cl.CSV_COLUMNS), f"class-{record.code}-decisions.csv", len(rows), pdf, f"class-{record.code}-debrief.pdf", note)

    def _requests_box(self, record: cl.ClassRecord) -> widgets.Widget:
        """Students asking for their place on another device, first on the page: one press each."""
        rows: list[widgets.Widget] = []
        now = time.time()
        for request in record.requests:
            student = record.student(request.student)
            if student is None:
                continue
            approve = widgets.Button(description=_("Approve {name}", name=student.name), button_style="success", layout=widgets.Layout(width="auto")).add_class(f"pb-approve-{request.id}")
            approve.on_click(lambda _event, rid=request.id: self.approve(rid))
            # TRANSLATORS: a button: refuse a student's request for their place on another device
            deny = widgets.Button(description=_("Turn down"), layout=widgets.Layout(width="auto")).add_class(f"pb-deny-{request.id}")
            deny.on_click(lambda _event, rid=request.id: self.deny_request(rid))
            line = widgets.HTML(_("{name} asks for their place on another device ({ago} ago)", name=f"<b>{esc(student.name)}</b>", ago=esc(ago(now - request.at))))
            rows.append(widgets.HBox((line, approve, deny), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px")))
        head = widgets.HTML(f"<h3>{esc(_('Asking for their place on another device'))}</h3>")
        return widgets.VBox((head, *rows)).add_class("pb-class-requests")

    def _press_swap(self, student_id: str) -> None:
        """Swap in two presses: the first picks a student, the second (on a student of another
        table) swaps them; pressed again on the first, it is cancelled."""
        first = self._selected
        if not first or first == student_id or self.record is None or self.record.student(first) is None:
            self._selected = "" if first == student_id else student_id
            self._said = None
            self._shown = None
            self._draw()
            return
        self.swap(first, student_id)

    def _start_renaming(self, student_id: str) -> None:
        self._renaming = student_id
        self._shown = None
        self._draw()

    def _press_remove(self, student_id: str) -> None:
        """Two presses: the first says what the second does."""
        if self._removing != student_id:
            self._removing = student_id
            self._shown = None
            self._draw()
            return
        self.remove_student(student_id)

    def _tables_box(self, record: cl.ClassRecord, tables: Sequence[Any]) -> widgets.Widget:
        rows: list[widgets.Widget] = []
        now = time.time()
        # the seats whose student has a row on the page (the students are listed until the end)
        rowed = {where for s in record.students if (where := cl.seat_of(record, s)) is not None} if record.phase != "over" else set()
        for i, table in enumerate(tables):
            state, rules = table.game.state, table.game.rules
            names = [render(label) for label in card(record.game).seat_labels(table.game.setup)]  # a GM's seat too
            since = self.store.changes(table.id)[-1]["at"] if table.version else now
            links = {"facilitator": page("", card(record.game).notebook) + table_query(table.id, facilitator=table.meta.get("facilitator_key", ""))}
            stopped = bool(table.meta.get(STOPPED))
            step = render(cl.step_of(state))
            if rules.over(state):
                line = _("finished: {scores}", scores=", ".join(f"{names[s]} {score}" for _r, s, score in rules.standings(state)[:3]))
            elif stopped:  # the class was ended: it waits for no one
                line = _("{step} · stopped when the class ended", step=step)
            else:
                waiting = [names[s] for s in waited_seats(table)]
                # A line, not a roll call: a village of 10 all waited on reads as its count.
                if len(waiting) > 4:
                    who = _("{n}: {names} and {more} more", n=len(waiting), names=", ".join(waiting[:3]), more=len(waiting) - 3)
                else:
                    who = ", ".join(waiting)
                line = _("{step} · waited {ago} on {who}", step=step, ago=ago(now - since), who=who) if waiting else _("{step} · playing", step=step)
            word = render(card(record.game).words.Table)
            controls = esc(_("its controls"))
            base = f'<b>{esc(word)} {i + 1}</b> · {esc(line)} · <a class="pb-table-controls-{i}" href="{esc(links["facilitator"])}" target="_blank" rel="noopener">{controls}</a>'
            head = widgets.HTML(base + self._said_html(f"table-{i}"))
            self._spots[f"table-{i}"] = (head, base)
            parts: list[widgets.Widget] = [head]
            if not rules.over(state) and not stopped and card(record.game).fill_bot:
                # A student's seat has its Bot button in their row below; a seat no row shows, here.
                for seat in [s for s in waited_seats(table) if (table.id, s) not in rowed]:
                    bot = widgets.Button(description=_("Bot for {name}", name=names[seat]), tooltip=_("A bot plays this absent student's seat")).add_class(f"pb-class-bot-{i}-{seat}").add_class("pb-small")
                    bot.on_click(lambda _event, i=i, seat=seat: self.hand_to_bot(i, seat))
                    parts.append(bot)
            rows.append(widgets.HBox(tuple(parts), layout=widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 10px")))
        heading = render(card(record.game).words.every)
        return widgets.VBox((widgets.HTML(f"<h3>{esc(heading)}</h3>"), *rows)).add_class("pb-class-tables")

    # -- live ------------------------------------------------------------------------------------------
    def _beaten(self) -> None:
        self._note_presence()
        if self.seat_page is not None:
            # The page is there, but maybe not yet the seat page inside it: that one's own
            # heartbeat (the first on the page once drawn) confirms the seat, after the page
            # put its link in the address bar; confirmed earlier, a reload lost the seat.
            self.seat_page.live.last_beat = self.live.last_beat

    def _note_presence(self) -> None:
        """A student's page notes in the store that it is there, at most every
        `classes.PRESENCE_WRITE_SECONDS` (its heartbeat comes every 4 s): the monitor's dots."""
        if self.role != "student" or self.student is None or self.record is None:
            return
        now = time.time()
        if now - self._presence_noted < cl.PRESENCE_WRITE_SECONDS:
            return
        self._presence_noted = now
        record, student_id = self.record, self.student.id

        def note() -> None:
            try:
                cl.note_presence(self.store, record, student_id, now, i18n.current())
            except Exception:  # a note missed (a busy database) only makes the dot late: try at the next beat
                self._presence_noted = 0.0

        if live.in_kernel():
            # Beside the kernel's loop: a write waiting on a busy database must not hold up the
            # heartbeat's answer (the page would think its server gone).
            threading.Thread(target=note, name="presence", daemon=True).start()
        else:
            note()

    def _repaint_languages(self, record: cl.ClassRecord) -> bool:
        """The monitor's line of the languages the students' pages read, redrawn in place when
        they changed (a phone switched); whether it changed."""
        said = room_languages_html(cl.room_languages(self.store, record))
        if self.languages_line.value == said:
            return False
        self.languages_line.value = said
        return True

    def refresh(self) -> bool:
        """Look at the class (and, on the board and monitor, its tables); redraw if they moved."""
        if self.record is None:
            return False
        try:
            record = cl.load_class(self.store, self.record.id)
        except KeyError:
            return False
        tables = tuple(self.store.version(t) for t in record.tables) if self.role in ("board", "monitor") else ()
        if record.version == self.record.version and tables == self._tables_seen:
            if self.role != "monitor":
                return False
            return self._repaint_languages(record) | repaint_presence(self, record)
        self.record, self._tables_seen = record, tables
        if self.student is not None:
            found = record.student(self.student.id)
            if found is None or not key_matches(found.key, self._key):
                why = (
                    _("The facilitator took you out of the class: this page no longer opens a place.")
                    if found is None
                    else _("Your name was released: join again with it to take your place back.")
                    if found.free
                    else _("Your place moved to another device (the facilitator approved it): this page no longer opens it.")
                )
                self._deny(why)
                self.navigator.value = f'<a data-forget-class="{esc(record.code)}"></a>'
                return True
        if self._asked is not None and self.role == "join":
            name, key = self._asked
            mine = next((s for s in record.students if key_matches(s.key, key)), None)
            if mine is not None:
                self.status.ok(_("Approved: this device is {name}'s place now.", name=mine.name))
                self._become(mine, key)
                return True
            if not any(key_matches(r.key, key) for r in record.requests):
                self._asked = None
                self.status.refuse(_("The facilitator did not move {name}'s place to this device. Ask them, then ask again.", name=name))
        self._draw()
        return True

    def _start_watching(self) -> None:
        # A student's page notes itself (and its language) as it opens, not at its first beat:
        # a phone that switched language reloads, and the monitor's count follows at once.
        self._note_presence()
        self.live.start()
        self.timer.start()

    async def _look(self, closed: threading.Event) -> None:
        """Wait for a change to the class (on the board and the monitor, look at its tables
        every few seconds too), then redraw."""
        record = self.record
        if record is None:
            return
        timeout = TABLES_LOOK_SECONDS if self.role in ("board", "monitor") else live.WAIT_SECONDS
        await asyncio.to_thread(cl.wait_class, self.store, record.id, record.version, timeout)
        if self.seat_page is None or self.role != "student":
            self.refresh()
        else:  # the seat page is the page now: only note the class seen, or the next wait returns at once
            latest = await asyncio.to_thread(cl.load_class, self.store, record.id)
            mine = latest.student(self.student.id) if self.student is not None else None
            if mine is None or not key_matches(mine.key, self._key):
                self.refresh()  # the place was released, moved to another device or removed: say which
            else:
                self.record = latest

    def close(self) -> None:
        self.live.stop()
        self.timer.stop()
        super().close()
