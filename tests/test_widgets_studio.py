"""The print studio and the balance lab, headless: clicks run handlers and `.value` fires observers."""

from __future__ import annotations

import base64
import datetime
import io
import random
import re

import pypdf
import pytest

import rules
import widgets.studio as studio_module
from lab import BOTS as LAB_BOTS
from lab.core import play_out
from playbook.store import Store
from rules import new_rule
from tests.support.headless import click, one
from tests.support.keys import INDEX
from widgets.studio import PrintStudio

pytestmark = pytest.mark.timeout(60)

NAMES = ("Ana", "Bo", "<b>Zoë & 🍬")


def linked_pdf(link_html: str) -> bytes:
    """The bytes behind the data-URI `<a download>` link."""
    match = re.search(r'href="data:application/pdf;base64,([A-Za-z0-9+/=]+)"', link_html)
    assert match, link_html[:200]
    return base64.b64decode(match.group(1))


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def played_save() -> str:
    """A finished New Rule game by bots, as save-file text."""
    game = rules.new_game("new-rule", new_rule.Setup(names=("Ana", "Bo", "Cy")), seed=7)
    play_out(game, [LAB_BOTS["new-rule"]["balanced"]] * 3, random.Random(1))
    assert game.state.over
    return game.to_json()


# -- print studio ---------------------------------------------------------------------------


def test_studio_root_and_controls(store: Store) -> None:
    studio = PrintStudio(store)
    assert {"playbook-root", "playbook-print-studio"} <= set(studio._dom_classes)
    for css in (
        "pb-studio-game", "pb-studio-players", "pb-studio-names", "pb-studio-page", "pb-studio-upload",
        "pb-studio-table", "pb-studio-make", "pb-studio-preview", "pb-studio-prev", "pb-studio-next",
        "pb-studio-download", "pb-status",
    ):
        one(studio, css)
    games = [value for _, value in studio.game.options]
    assert games[:2] == ["new-rule", "leerdam"] and "dangerous-ideas" in games


def test_studio_leaves_out_a_game_whose_printables_do_not_import(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real = studio_module.printables_for
    monkeypatch.setattr(studio_module, "printables_for", lambda slug: None if slug == "danger-world" else real(slug))
    studio = PrintStudio(store)
    assert "danger-world" not in [value for _, value in studio.game.options]
    assert "Danger World" in studio.missing_note.value


def test_blank_new_rule_pdf_with_awkward_names(store: Store) -> None:
    studio = PrintStudio(store)
    studio.game.value = "new-rule"
    studio.players.value = 3
    studio.names.value = "\n".join(NAMES)
    click(studio.make_button)
    assert studio.status.kind == "ok", studio.status.message
    pdf = linked_pdf(one(studio, "pb-studio-download").value)
    assert pdf.startswith(b"%PDF")
    assert NAMES[2] in pdf_text(pdf)
    # The name reaches the page's HTML only escaped.
    assert "<b>Zoë" not in studio.download.value
    assert len(studio.preview.png) > 1000 and bytes(studio.preview.png).startswith(b"\x89PNG")
    assert studio.pages > 1 and studio.prev_button.disabled and not studio.next_button.disabled
    first = studio.preview.png
    click(studio.next_button)
    assert studio.page_index == 1 and studio.preview.png != first
    assert "Page 2 of" in studio.page_number.value
    click(studio.prev_button)
    assert studio.page_index == 0 and studio.preview.png == first


def test_bad_player_count_makes_nothing(store: Store) -> None:
    studio = PrintStudio(store)
    studio.game.value = "new-rule"
    studio.players.value = 2
    click(studio.make_button)
    assert studio.status.kind == "refuse"
    assert "3-5" in studio.status.message
    assert studio.pdf is None and studio.download.value == "" and len(studio.preview.png) == 0
    # Two seats with one name are refused by the names rule, also shown.
    studio.players.value = 3
    studio.names.value = "Ana\nana"
    click(studio.make_button)
    assert studio.status.kind == "refuse" and "same name" in studio.status.message
    assert studio.pdf is None


def test_uploaded_save_prints_filled_pads(store: Store) -> None:
    studio = PrintStudio(store)
    studio.source.value = "saved"
    data = played_save().encode()
    studio.upload.value = (
        {"name": "bots.json", "type": "application/json", "size": len(data), "content": memoryview(data), "last_modified": datetime.datetime.now(datetime.UTC)},
    )
    assert studio.loaded is not None and studio.status.kind == "ok"
    assert studio.warning.value == ""  # a finished game hides nothing
    click(studio.make_button)
    assert studio.status.kind == "ok", studio.status.message
    text = pdf_text(linked_pdf(studio.download.value))
    assert "Score pad — Ana" in text and "(final)" in text
    assert "kept" in text or "swap" in text  # rows filled from the game


def test_bad_upload_changes_nothing(store: Store) -> None:
    studio = PrintStudio(store)
    assert not studio.load_file(b"{not json", "broken.json")
    assert studio.status.kind == "refuse" and "broken.json" in studio.status.message
    assert studio.loaded is None


def test_unfinished_stored_table_warns(store: Store) -> None:
    game = rules.new_game("new-rule", new_rule.Setup(names=("Ana", "Bo", "<i>Cy</i>")), seed=3)
    table_id = store.create(game)
    # Without the facilitator's link no stored table is listed, nor loaded by script.
    anyone = PrintStudio(store, query="")
    anyone.source.value = "saved"
    assert [value for _, value in anyone.table.options] == [""]
    assert not anyone.load_table(table_id) and anyone.status.kind == "refuse"
    studio = PrintStudio(store, query=INDEX)
    studio.source.value = "saved"
    assert table_id in [value for _, value in studio.table.options]
    studio.table.value = table_id
    assert studio.loaded is not None and "not finished" in studio.loaded_html.value
    assert "hidden information" in studio.warning.value
    assert "&lt;i&gt;Cy&lt;/i&gt;" in studio.loaded_html.value
    click(studio.make_button)
    assert studio.status.kind == "ok" and studio.pdf is not None


def test_every_game_waits_for_a_free_heavy_slot(store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from playbook import heavy

    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.sqlite3"))
    monkeypatch.setattr(heavy, "HEAVY_WAIT_SECONDS", 0.0)
    studio = PrintStudio(store)
    studio.game.value = studio_module.ALL_GAMES
    with heavy.heavy_work("one"), heavy.heavy_work("two"):
        click(studio.make_button)
    assert studio.status.kind == "refuse" and "already running" in studio.status.message
    assert studio.pdf is None and studio.download.value == ""
