"""The pages the server writes itself, without a kernel (the room is full), the refusals of a
bad link, and the notebooks' titles in the header and the tab: in the request's language."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest

import i18n
from playbook.access import claim_free, resolve
from playbook.budget import room_full_page
from playbook.links import CLASS_PAGE, table_query
from playbook.page_texts import head_in, page_title, script_block
from playbook.serve import background_server
from playbook.store import Store
from rules.games import CARDS
from tests.support.pseudo import escaped, html_texts, widget_texts
from tests.support.tables import make_table
from widgets.leerdam import LeerdamDashboard

#: the head as Voila draws it, up to the tab's title (nbconvert's lab template).
VOILA_HEAD = '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0">\n<title>{}</title>'


def _block(page: str) -> dict[str, object]:
    start = page.index('id="playbook-texts">') + len('id="playbook-texts">')
    return dict(json.loads(page[start : page.index("</script>", start)]))


@pytest.mark.parametrize("reason", ["full", "client"])
def test_the_room_full_page_is_all_translated_and_reads_dutch(reason: str) -> None:
    pseudo = room_full_page(reason, 6, lang=i18n.PSEUDO)
    assert html_texts(pseudo) and escaped(html_texts(pseudo)) == []
    assert '<html lang="qps" dir="ltr">' in pseudo and 'content="6"' in pseudo
    dutch = room_full_page(reason, 6, lang="nl")
    assert '<html lang="nl" dir="ltr">' in dutch and "The room is full" not in dutch
    assert "<title>De ruimte is even vol</title>" in dutch and "over 6 seconden" in dutch
    assert 'dir="rtl"' in room_full_page(reason, 6, lang="ar")
    # English reads as before (tests/test_page_budget.py reads its sentences).
    assert "<title>The room is full for a moment</title>" in room_full_page(reason, 6, lang="en")


def test_a_bad_link_is_refused_in_the_pages_language(tmp_path: Path, pseudo: None) -> None:
    store = Store(tmp_path / "t.sqlite3")
    table_id, _links = make_table(store, "leerdam", ("Ana", "Bo", "Cy", "Di", "Ed"))
    meta = store.info(table_id).meta
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Leerdam"]

    def meta_of(wanted: str) -> tuple[str, dict[str, object]]:
        info = store.info(wanted)
        return info.game, info.meta

    reasons = [
        resolve(table_query(table_id, seat=2, key="made-up"), "leerdam", meta_of).reason,
        resolve(table_query(table_id, board="made-up"), "leerdam", meta_of).reason,
        resolve(table_query(table_id, board=meta["board_key"]), "new-rule", meta_of).reason,
        resolve(table_query("no-such-table", board="x"), "leerdam", meta_of).reason,
        claim_free(meta, 1, [1]),
        claim_free({"claims": {"2": {}}}, 2, []),
    ]
    assert all(reasons) and escaped(reasons) == []
    # The page a bad link opens says so, and nothing else, in the page's language.
    page = LeerdamDashboard(store, query=table_query(table_id, board="made-up"))
    assert page.role == "denied"
    # (the page's hidden parts, its heartbeat and the debrief's button, are the table's, not this page's)
    shown = [text for part in (page.header, page.status, page.screen) for text in widget_texts(part)]
    assert shown and escaped(shown, names=names) == []
    i18n.use("nl")
    dutch = LeerdamDashboard(store, query=table_query(table_id, board=meta["board_key"] + "x"))
    said = " ".join(widget_texts(dutch.status))
    assert "Deze link is niet geldig" in said and "This link is not valid" not in said
    store.close()


def test_a_notebooks_title_is_said_in_the_pages_language_in_the_tab_and_the_header() -> None:
    head, title = head_in(VOILA_HEAD.format("Balance lab"), "nl")
    assert title == "Balanslab" and "<title>Balanslab</title>" in head and "Balance lab" not in head
    assert _block(script_block("nl", title) + "</script>")["page_title"] == "Balanslab"
    assert "Balanslab" in str(_block(script_block("nl", title) + "</script>")["setting_up"])
    assert head_in(VOILA_HEAD.format("Print studio"), i18n.PSEUDO)[1].startswith("⟦")
    # a notebook without a title is named by its file, as the header names it; a game by its card
    assert head_in(VOILA_HEAD.format("new_rule"), "en") == (VOILA_HEAD.format("New Rule"), "New Rule")
    assert page_title("Leerdam", "de") == i18n.render(CARDS["leerdam"].title, "de")
    assert page_title("Welcome", "en") == "Welcome" and page_title("Something else", "nl") == "Something else"


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read().decode("utf-8", "replace")
    finally:
        connection.close()


@pytest.mark.heavy
@pytest.mark.timeout(180)
def test_a_real_server_says_the_room_is_full_in_the_browsers_or_the_devices_language(tmp_path: Path) -> None:
    # A budget of 3 keeps its 3 for the class's own devices: every page without a key is turned away.
    args = ["--PlaybookVoila.max_pages=3"]
    with background_server(None, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3", extra_args=args) as server:
        join = f"/voila/render/{CLASS_PAGE}"
        status, dutch = _get(server.port, join, {"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5"})
        assert status == 503 and '<html lang="nl"' in dutch and "De ruimte is even vol" in dutch
        status, pseudo = _get(server.port, join, {"Accept-Language": "nl", "Cookie": "pb-lang=qps"})
        assert status == 503 and escaped(html_texts(pseudo)) == [] and "⟦" in pseudo
        status, english = _get(server.port, join, {})
        assert status == 503 and "The room is full for a moment" in english
