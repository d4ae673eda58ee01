"""Where the playbook keeps its files (`playbook.places`), the links it gives out
(`playbook.links`), and the server's heavy-work slots (`playbook.heavy`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from playbook import heavy, links, places, running
from playbook.classes import ClassRecord
from playbook.refusals import Refusal
from playbook.serve import kept_server_key
from playbook.store import Store
from rules import RuleError

META = {"facilitator_key": "F-key", "board_key": "B-key", "join_key": "J-key", "seat_keys": {"0": "S0", "1": "S1"}}


@pytest.fixture
def data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A data folder of this test's own, with no PLAYBOOK_DB."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.delenv("PLAYBOOK_DB", raising=False)
    return tmp_path / "share" / "playbook"


# -- one data folder -----------------------------------------------------------------------------------


def test_every_file_the_playbook_keeps_is_in_its_one_data_folder(data_home: Path) -> None:
    assert places.data_folder() == data_home
    assert places.store_location() == str(data_home / "tables.sqlite3")
    assert places.busy_folder() == data_home / "busy"
    assert places.servers_folder() == data_home / "servers"
    assert places.key_file() == data_home / "server.key"
    store = Store()
    assert store.location == str(data_home / "tables.sqlite3") and Path(store.location).is_file()
    store.close()
    running.record("http://10.1.2.3:8866", 4242)
    assert [p.name for p in (data_home / "servers").iterdir()] == ["4242.json"]
    key = kept_server_key()
    assert places.key_file().read_text().strip() == key


def test_the_busy_slots_sit_beside_a_sqlite_store_and_in_the_data_folder_for_postgresql(data_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "school" / "tables.sqlite3"))
    assert places.busy_folder() == tmp_path / "school" / "busy"
    monkeypatch.setenv("PLAYBOOK_DB", "postgresql://playbook@db.school.example/playbook")
    assert places.is_postgres(places.store_location()) and places.busy_folder() == data_home / "busy"


def test_a_servers_turns_folder_is_its_own_and_goes_with_it() -> None:
    with places.turns_folder() as first, places.turns_folder() as second:
        assert first != second and first.is_dir() and first.stat().st_mode & 0o777 == 0o700
    assert not first.exists() and not second.exists()


# -- one link builder ----------------------------------------------------------------------------------


def test_a_hidden_games_table_links_carry_each_readers_key() -> None:
    made = links.table_links("http://10.0.0.5:8866/", "leerdam", "T1", META, ["Ana", "Bo"])
    page = "http://10.0.0.5:8866/voila/render/leerdam.ipynb"
    assert made == {
        "table": "T1",
        "game": "leerdam",
        "facilitator": f"{page}?table=T1&facilitator=F-key",
        "board": f"{page}?table=T1&board=B-key",
        "join": f"{page}?table=T1&join=J-key",
        "seats": [
            {"seat": 0, "name": "Ana", "url": f"{page}?table=T1&seat=0&key=S0"},
            {"seat": 1, "name": "Bo", "url": f"{page}?table=T1&seat=1&key=S1"},
        ],
    }
    # Relative to the game's own page, and for a table saved before it had keys.
    assert links.table_links("", "new-rule", "T2", {}, ["Cy"])["seats"] == [{"seat": 0, "name": "Cy", "url": "?table=T2&seat=0"}]


def test_an_open_games_table_has_one_link_for_all_and_a_board_without_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose card says it is played on one shared screen (none of the four now)."""
    import dataclasses

    from rules import games

    monkeypatch.setitem(games._CARDS, "dangerous-ideas", dataclasses.replace(games.card("dangerous-ideas"), devices=False))
    made = links.table_links("https://school.example/playbook", "dangerous-ideas", "T3", META, ["Ana"])
    assert made == {
        "table": "T3",
        "game": "dangerous-ideas",
        "facilitator": "https://school.example/playbook/voila/render/dangerous_ideas.ipynb?table=T3&facilitator=F-key",
        "board": "https://school.example/playbook/voila/render/dangerous_ideas.ipynb?table=T3",
        "seats": [],
    }


def test_a_class_has_a_short_join_address_a_board_and_a_monitor() -> None:
    record = ClassRecord(id="C", code="K7QM2P", game="leerdam", title="", expected=3, monitor_key="M-key", board_key="B-key")
    assert links.class_links("http://10.0.0.5:8866/", record) == {
        "code": "K7QM2P",
        "join": "http://10.0.0.5:8866/j/K7QM2P",
        "board": "http://10.0.0.5:8866/voila/render/class.ipynb?code=K7QM2P&board=B-key",
        "monitor": "http://10.0.0.5:8866/voila/render/class.ipynb?code=K7QM2P&monitor=M-key",
    }
    assert links.class_links("", record) == {
        "code": "K7QM2P",
        "join": "class.ipynb?code=K7QM2P",
        "board": "class.ipynb?code=K7QM2P&board=B-key",
        "monitor": "class.ipynb?code=K7QM2P&monitor=M-key",
    }
    assert links.index_link("http://h:9000/", "K") == "http://h:9000/voila/render/index.ipynb?key=K"


def test_the_public_address_is_the_servers_the_pages_host_or_the_running_serve(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYBOOK_URL", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)

    def network() -> str:  # what `playbook serve` would give phones here
        return "http://192.0.2.10:8866"

    assert links.public_base() == "http://localhost:8866"
    assert links.command_line_address(None, network) == links.CommandLineBase("http://192.0.2.10:8866", "network")
    assert not links.command_line_address(None, network).warning()
    offline = links.command_line_address(None, lambda: "http://localhost:8866")
    assert offline.local_only and "this machine has no network" in offline.warning()
    running.record("http://10.1.2.3:9000/", os.getpid())  # a `playbook serve` on this machine
    assert links.public_base() == "http://10.1.2.3:9000" == links.command_line_address(None, network).base
    assert links.command_line_address("http://given:1/", network) == links.CommandLineBase("http://given:1", "--public-url")
    monkeypatch.setenv("VOILA_PREHEAT", "False")  # a page's kernel: the host the page was asked for
    monkeypatch.setenv("SERVER_NAME", "192.0.2.8")
    monkeypatch.setenv("SERVER_PORT", "8000")
    assert links.public_base() == "http://192.0.2.8:8000"
    monkeypatch.setenv("PLAYBOOK_URL", "https://school.example/playbook/")
    assert links.public_base() == "https://school.example/playbook" == links.command_line_address(None, network).base


# -- heavy work ----------------------------------------------------------------------------------------


def test_a_busy_server_refuses_heavy_work_with_its_own_kind_and_frees_each_slot(data_home: Path) -> None:
    with heavy.heavy_work("one"), heavy.heavy_work("two"), pytest.raises(heavy.ServerBusy) as busy, heavy.heavy_work("a third", wait=0.0):
        pass
    assert isinstance(busy.value, Refusal) and not isinstance(busy.value, (RuleError, ValueError))
    assert busy.value.message == "the server is already running 2 heavy jobs; a third was not started: try again in a minute"
    assert busy.value.rule == "busy" and str(busy.value) == busy.value.message
    assert sorted(p.name for p in places.busy_folder().iterdir()) == ["slot-0.lock", "slot-1.lock"]
    with heavy.heavy_work("one", wait=0.0), heavy.heavy_work("two", wait=0.0):
        pass  # both slots were given back
