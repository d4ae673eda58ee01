"""The shared pages, the store's and the classes' refusals and the command line, in the reader's
language: read in the pseudo-language, no text of theirs escapes translation; in Dutch they read
the catalog's Dutch, and a refusal keeps its rule's id.

The games' own panels (a Leerdam ledger, New Rule's bowl) are the games' to mark: the table pages
are read here through the shared parts only (status line, header, save bar, debrief bar, timer,
the class card, the privacy curtain, the board's join code), the class pages whole."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets
import pytest

import i18n
from playbook import classes as cl
from playbook.cli import language, main
from playbook.store import Store
from playbook.store_faults import StoreFault
from tests.support.classes import monitor, student
from tests.support.headless import click, one
from tests.support.pseudo import escaped, html_texts, widget_texts
from tests.support.tables import make_table
from widgets.classroom import ClassPage
from widgets.leerdam import LeerdamDashboard

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")


def shared_texts(page: Any) -> list[str]:
    """What a table page's shared parts say (its game's own panels aside)."""
    parts: list[widgets.Widget] = [page.status]
    for name in ("savebar", "debrief_bar", "pace_bar", "class_panel", "countdown", "join_html"):
        part = getattr(page, name, None) or page._parts.get(name)
        if isinstance(part, widgets.Widget):
            parts.append(part)
    curtain = page.seat_curtain()
    if curtain is not None:
        parts += [curtain.hide_button, curtain.prompt, curtain.ask_text, curtain.show_button, curtain.cancel_button]
    return [text for part in parts for text in joined_texts(part)]


def joined_texts(root: widgets.Widget) -> list[str]:
    """`widget_texts`, an HTML widget's text nodes read as one text: a message that carries
    markup (a link inside a sentence) is bracketed as a whole, not node by node."""
    found: list[str] = []
    todo = [root]
    while todo:
        widget = todo.pop()
        if "pb-heartbeat" in getattr(widget, "_dom_classes", ()):
            continue  # the page's hidden heartbeat: no reader meets it
        if isinstance(widget, widgets.HTML):
            found.append(" ".join(html_texts(widget.value)))
        else:
            found += list(widget_texts(widget)) if not getattr(widget, "children", ()) else [
                text for trait in ("description", "tooltip", "placeholder") if isinstance(text := getattr(widget, trait, None), str) and text
            ]
        todo += [c for c in getattr(widget, "children", ()) if isinstance(c, widgets.Widget)]
    return found


def untranslated(texts: list[str], *names: str) -> list[str]:
    # Addresses are not messages.
    return escaped([re.sub(r"https?://\S+", " ", text) for text in texts], names=[*NAMES, *names])


def test_a_tables_facilitator_seat_and_board_pages_say_their_shared_text_in_the_pages_language(store: Store, pseudo: None) -> None:
    table_id, links = make_table(store, "leerdam", NAMES)
    host = LeerdamDashboard(store, query=links["facilitator"])
    seat = LeerdamDashboard(store, query=links["seats"][0]["url"])
    board = LeerdamDashboard(store, query=links["board"])
    assert host.role == "facilitator" and seat.role == "seat" and board.role == "board"
    title = store.info(table_id).title
    join = links.get("join", "")
    found = {"facilitator": untranslated(shared_texts(host), title, join), "seat": untranslated(shared_texts(seat), title, join), "board": untranslated(shared_texts(board), title, join)}
    # Refusals and confirmations: a timer too short (the pace's refusal), undo with nothing to
    # take back (the rules' reason, said by the playbook), a seat page asked to run the table.
    one(host, "pb-table-timer").value = 3
    click(one(host, "pb-table-timer-set"))
    assert host.status.kind == "refuse" and "⟦" in host.status.message
    found["timer refused"] = untranslated(shared_texts(host), title, join)
    host.undo()
    found["undo refused"] = untranslated(shared_texts(host), title, join)
    assert not seat.allowed(i18n.say("undo"))
    found["seat refused"] = untranslated(shared_texts(seat), title, join)
    host.release(1)
    found["released"] = untranslated(shared_texts(host), title, join)
    assert {where: texts for where, texts in found.items() if texts} == {}


def test_a_class_lobby_monitor_board_and_student_pages_say_everything_in_the_pages_language(store: Store, pseudo: None) -> None:
    record = cl.create_class(store, "new-rule", 5)
    code = ClassPage(store, query="")
    names = ["Ana", "Bo", "Cy", "Dee"]
    phones = [student(store, record.code, name) for name in names]
    desk = monitor(store, record)
    board = ClassPage(store, query="?" + cl.class_links("", record)["board"].split("?", 1)[1])
    record = cl.load_class(store, record.id)
    # i18n.PSEUDO: the language the phones read, as the monitor counts them (by its code: it has no name of its own)
    leave = [*names, record.code, record.title, "K7QM2P", cl.class_links("", record)["join"], i18n.PSEUDO]

    def pages(phase: str, whole: bool = True) -> dict[str, list[str]]:
        """Every page read whole; once the tables play, the board's and the monitor's cards of
        each table hold the game's own words (its step, its scene): those two are read through
        their class parts then."""
        for page in (desk, board, *phones):
            page.refresh()
        read: dict[str, list[str]] = {}
        for i, page in enumerate((code, desk, board, *phones)):
            if whole:
                texts = joined_texts(page)
            elif page.role == "student":
                seat = page.seat_page
                texts = [t for part in (page.header, page.status, page.student_card) for t in joined_texts(part)] + (shared_texts(seat) if seat is not None else [])
            elif page.role == "monitor":
                texts = [t for part in (page.header, page.status, page.controls, page.pace_panel, page.debrief_bar) for t in joined_texts(part)]
            else:
                texts = [t for part in (page.header, page.status) for t in joined_texts(part)]
            read[f"{phase} {page.role} {i}"] = untranslated(texts, *leave)
        return read

    found = pages("lobby")
    assert desk.deal()
    found |= pages("dealt")
    assert not phones[0].deal()  # a student's page refuses, in its language
    found |= pages("refused")
    assert desk.start()
    found |= pages("playing", whole=False)
    assert desk.end() or desk.end()
    found |= pages("over", whole=False)
    desk.prepare_debrief(True)
    found |= pages("debrief", whole=False)
    assert {where: texts for where, texts in found.items() if texts} == {}


def test_the_class_monitor_reads_dutch_where_it_read_english(store: Store) -> None:
    record = cl.create_class(store, "new-rule", 4)
    desk = monitor(store, record)
    assert "Deal the tables" in [w.description for w in widget_texts_buttons(desk)]
    i18n.use("nl")
    try:
        dutch = monitor(store, record)
        buttons = [w.description for w in widget_texts_buttons(dutch)]
        assert "Tafels indelen" in buttons and "Klas beëindigen" in buttons and "Deal the tables" not in buttons
        assert not dutch.deal()  # no student yet: the refusal in Dutch
        assert dutch.status.message.startswith("Er doet nog geen leerling mee")
    finally:
        i18n.use("en")


def widget_texts_buttons(root: widgets.Widget) -> list[widgets.Button]:
    found, todo = [], [root]
    while todo:
        widget = todo.pop()
        if isinstance(widget, widgets.Button):
            found.append(widget)
        todo += [c for c in getattr(widget, "children", ()) if isinstance(c, widgets.Widget)]
    return found


def test_a_refusal_is_said_in_the_readers_language_and_keeps_its_rules_id(store: Store) -> None:
    with pytest.raises(cl.ClassError) as refused:
        cl.table_sizes(0, "leerdam")
    exc = refused.value
    assert exc.rule == "deal" and str(exc) == "no student has joined yet" and exc.message == "no student has joined yet"
    with i18n.speaking("nl"):
        assert exc.message == "er doet nog geen leerling mee" and exc.rule == "deal"
    record = cl.create_class(store, "leerdam", 4)
    with pytest.raises(cl.ClassError) as stale:
        cl.submit(store, record.id, cl.Start(), record.version)
    with i18n.speaking("de"):
        assert stale.value.rule == "start" and stale.value.message == "teile zuerst die Tische ein"
    assert stale.value.message == "deal the tables first"
    full = StoreFault("disk-full", "no space left on device", "a test")
    with i18n.speaking("nl"):
        assert full.rule == full.reason == "disk-full"
        assert full.for_page(teacher=False).startswith("De server kan nu niet opslaan (de schijf is vol)")
        assert full.for_page(teacher=True).startswith("De schijf van de server is vol")
    assert full.for_page(teacher=True).startswith("The server's disk is full")


def test_the_command_line_speaks_playbook_lang_or_the_locales_language(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert language({"PLAYBOOK_LANG": "nl", "LANG": "de_DE.UTF-8"}) == "nl"
    assert language({"LANG": "de_DE.UTF-8"}) == "de" and language({"LC_ALL": "C", "LANG": "C.UTF-8"}) == "en" and language({}) == "en"
    monkeypatch.setenv("PLAYBOOK_LANG", "nl")
    with pytest.raises(SystemExit):
        main(["class", "--help"])
    said = capsys.readouterr().out
    assert "gebruik: playbook class" in said and "positionele argumenten" in said and "toon deze hulptekst en stop" in said
    assert "Een klas komt binnen met de klascode en wordt in tafels ingedeeld." in said and "voorbeeld:" in said
    with pytest.raises(SystemExit):
        main(["class", "new"])
    assert "playbook class new: fout: de volgende argumenten zijn verplicht: game, --students" in capsys.readouterr().err
    assert main(["debrief", __file__]) == 2  # a refusal of the command line's own, in Dutch
    assert "playbook debrief: fout: zeg wat je wilt schrijven: --csv BESTAND.csv en/of --pdf BESTAND.pdf" in capsys.readouterr().err
    monkeypatch.setenv("PLAYBOOK_LANG", "en")
    with pytest.raises(SystemExit):
        main(["class", "--help"])
    assert "positional arguments" in capsys.readouterr().out and i18n.current() == "en"
