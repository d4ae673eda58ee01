"""The command line's links a phone can open (`table new`, `class new`, `print --seat-links`),
and `print` for a whole class, called in-process through `main(argv)`.

The links' address is found as `playbook serve` finds it (`playbook.serve.phone_address`), by a
real call: finding it sends nothing (no test sends traffic to this machine's network address).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from playbook import classes, running, serve
from playbook.cli import CLASS_MOST, main
from printables import slips
from tests.support.pdfs import pages_text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `playbook ARGV` (argparse's refusals exit 2 too)."""
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A table store and a data folder of this test's own (no `playbook serve` recorded), no
    PLAYBOOK_URL: the folder to write files in."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.sqlite3"))
    monkeypatch.delenv("PLAYBOOK_URL", raising=False)
    return tmp_path


@pytest.fixture
def network_host(monkeypatch: pytest.MonkeyPatch) -> str:
    """This machine's address on its network, as `playbook serve` finds it; only on a machine
    with no network is the finding replaced, by a documentation address (RFC 5737)."""
    host = serve.lan_address()
    if host.startswith("127."):
        host = "192.0.2.10"
        monkeypatch.setattr(serve, "lan_address", lambda: host)
    return host


@pytest.fixture
def qr_payloads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every URL the seat slips draw as a QR code, in order (the slips still draw them)."""
    drawn: list[str] = []
    draw = slips._qr

    def recording(canvas: object, url: str, *rest: float) -> None:
        drawn.append(url)
        draw(canvas, url, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(slips, "_qr", recording)
    yield drawn


def every_link(links: dict) -> list[str]:
    urls = [value for key, value in links.items() if key in ("join", "board", "monitor", "facilitator")]
    return urls + [seat["url"] for seat in links.get("seats", [])]


def local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


# -- links a phone can open ----------------------------------------------------------------------------


def test_table_and_class_links_carry_this_machines_network_address(capsys: pytest.CaptureFixture[str], here: Path, network_host: str) -> None:
    code, out, err = run(capsys, "class", "new", "leerdam", "--students", "30", "--json")
    made = json.loads(out)
    assert code == 0 and made["join"] == f"http://{network_host}:8866/j/{made['code']}"
    assert all(not local(url) and url.startswith(f"http://{network_host}:8866/") for url in every_link(made))
    assert "warning" not in err
    code, out, err = run(capsys, "table", "new", "new-rule", "--players", "4", "--json")
    table = json.loads(out)
    assert code == 0 and len(table["seats"]) == 4 and "warning" not in err
    assert all(not local(url) and url.startswith(f"http://{network_host}:8866/voila/render/") for url in every_link(table))
    code, out, _ = run(capsys, "class", "new", "new-rule", "--students", "25")
    assert code == 0 and f"join:    http://{network_host}:8866/j/" in out and "localhost" not in out


def test_links_carry_the_public_url_or_playbook_url(capsys: pytest.CaptureFixture[str], here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYBOOK_URL", "https://school.example/playbook/")
    code, out, err = run(capsys, "class", "new", "leerdam", "--students", "30", "--json")
    made = json.loads(out)
    assert code == 0 and made["join"] == f"https://school.example/playbook/j/{made['code']}" and "warning" not in err
    assert all(url.startswith("https://school.example/playbook/") for url in every_link(made))
    code, out, _ = run(capsys, "table", "new", "leerdam", "--players", "5", "--json")
    assert code == 0 and all(url.startswith("https://school.example/playbook/voila/render/") for url in every_link(json.loads(out)))
    # --public-url wins over PLAYBOOK_URL; --url, its old name, still works.
    for option in ("--public-url", "--url"):
        code, out, _ = run(capsys, "table", "new", "new-rule", "--players", "3", option, "http://10.0.0.5:9000/", "--json")
        assert code == 0 and all(url.startswith("http://10.0.0.5:9000/voila/render/") for url in every_link(json.loads(out)))
    code, _, err = run(capsys, "class", "new", "leerdam", "--students", "30", "--public-url", "school.example")
    assert code == 2 and "is not an address such as https://school.example/playbook/" in err


def test_links_lead_to_the_playbook_serve_running_here(capsys: pytest.CaptureFixture[str], here: Path, network_host: str) -> None:
    running.record(f"http://{network_host}:9100/", os.getpid())  # a `playbook serve --port 9100` on this machine
    code, out, _ = run(capsys, "class", "new", "leerdam", "--students", "12", "--json")
    made = json.loads(out)
    assert code == 0 and made["join"] == f"http://{network_host}:9100/j/{made['code']}"


def test_a_machine_without_a_network_says_so_and_links_to_localhost(capsys: pytest.CaptureFixture[str], here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "lan_address", lambda: "127.0.0.1")  # no network: what lan_address finds then
    code, out, err = run(capsys, "class", "new", "leerdam", "--students", "30", "--json")
    made = json.loads(out)
    assert code == 0 and made["join"] == f"http://localhost:8866/j/{made['code']}"
    assert "playbook class new: warning: this machine has no network" in err and "no phone can open" in err and "--public-url" in err
    code, _, err = run(capsys, "table", "new", "new-rule", "--players", "3", "--json")
    assert code == 0 and "playbook table new: warning: this machine has no network" in err


@pytest.mark.parametrize("game", ["new-rule", "dangerous-ideas"])
def test_seat_slips_carry_the_links_public_address(capsys: pytest.CaptureFixture[str], here: Path, network_host: str, monkeypatch: pytest.MonkeyPatch, qr_payloads: list[str], game: str) -> None:
    for base in (f"http://{network_host}:8866/", "https://school.example/playbook/"):
        if base.startswith("https:"):
            monkeypatch.setenv("PLAYBOOK_URL", base)
        code, out, _ = run(capsys, "table", "new", game, "--players", "4", "--names", "Ana,Bo,Cy,Di", "--json")
        assert code == 0
        links = here / "links.json"
        links.write_text(out, encoding="utf-8")
        qr_payloads.clear()
        code, _, err = run(capsys, "print", game, "--players", "4", "--seat-links", str(links), "-o", str(here / "slips.pdf"))
        assert code == 0 and "warning" not in err
        seats = [seat["url"] for seat in json.loads(out)["seats"]]
        assert qr_payloads == seats and all(url.startswith(base) and "&key=" in url for url in qr_payloads)
        text = " ".join(pages_text((here / "slips.pdf").read_bytes()))
        assert "localhost" not in text and urlsplit(base).netloc in text


def test_seat_links_to_localhost_print_with_a_warning(capsys: pytest.CaptureFixture[str], here: Path, qr_payloads: list[str]) -> None:
    links = here / "links.json"
    seat = "http://localhost:8866/voila/render/new_rule.ipynb?table=T&seat=0&key=K"
    links.write_text(json.dumps({"board": "b", "facilitator": "f", "seats": [{"seat": 0, "name": "Ana", "url": seat}]}), encoding="utf-8")
    code, _, err = run(capsys, "print", "new-rule", "--players", "3", "--seat-links", str(links), "-o", str(here / "slips.pdf"))
    assert code == 0 and (here / "slips.pdf").is_file() and qr_payloads == [seat]
    assert f"playbook print: warning: {links} holds links to http://localhost:8866, which no phone can open" in err


# -- printing for a class ------------------------------------------------------------------------------


def headers(pages: list[str], pattern: str) -> list[str]:
    """Each page's table header ('Leerdam · Village 2 of 3'), "" for a page without one."""
    found = [re.findall(pattern, page) for page in pages]
    return [hits[-1] if hits else "" for hits in found]


@pytest.mark.heavy
def test_print_leerdam_for_a_class_of_30_is_three_villages_of_10(capsys: pytest.CaptureFixture[str], here: Path) -> None:
    out = here / "class.pdf"
    code, _, err = run(capsys, "print", "leerdam", "--players", "30", "-o", str(out))
    assert code == 0 and "Leerdam for a class of 30: 3 villages side by side (10, 10 and 10)" in err
    pages = pages_text(out.read_bytes())
    assert pages[0].startswith("Leerdam for a class of 30")
    assert all(f"Leerdam, village {i} of 3: 10 households" in pages[0] for i in (1, 2, 3)) and "of 4" not in pages[0]
    villages = headers(pages[1:], r"Leerdam · Village \d of 3")
    assert "" not in villages and sorted(set(villages)) == [f"Leerdam · Village {i} of 3" for i in (1, 2, 3)]
    assert villages == sorted(villages)  # each village's pages together, in order
    for i in (1, 2, 3):
        ledgers = [page for page, village in zip(pages[1:], villages, strict=True) if village.endswith(f"{i} of 3") and "Household ledger ·" in page]
        assert len(ledgers) == 10
    assert "written for" not in err  # villages of 10: within the text's own 5-10


@pytest.mark.heavy
def test_print_new_rule_for_a_class_of_30_is_six_tables_of_5(capsys: pytest.CaptureFixture[str], here: Path) -> None:
    out = here / "class.pdf"
    code, _, err = run(capsys, "print", "new-rule", "--players", "30", "-o", str(out))
    assert code == 0 and "6 tables side by side (5, 5, 5, 5, 5 and 5)" in err
    pages = pages_text(out.read_bytes())
    assert all(f"New Rule, table {i} of 6: 5 players" in pages[0] for i in range(1, 7))
    tables = headers(pages[1:], r"New Rule · Table \d of 6")
    assert "" not in tables and sorted(set(tables)) == [f"New Rule · Table {i} of 6" for i in range(1, 7)]


def test_a_class_print_deals_the_names_in_order(capsys: pytest.CaptureFixture[str], here: Path) -> None:
    out = here / "class.pdf"
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu"]
    code, _, err = run(capsys, "print", "new-rule", "--players", "7", "--names", ",".join(names), "-o", str(out))
    assert code == 0 and "2 tables side by side (4 and 3)" in err
    pages = pages_text(out.read_bytes())
    assert "New Rule, table 1 of 2: 4 players Ana, Bo, Cy, Di" in pages[0] and "New Rule, table 2 of 2: 3 players Ed, Fa, Gu" in pages[0]
    pads = {header: page for page, header in zip(pages[1:], headers(pages[1:], r"New Rule · Table \d of 2 Score pad · \w+"), strict=True) if header}
    assert sorted(pads) == sorted(f"New Rule · Table {1 if i < 4 else 2} of 2 Score pad · {name}" for i, name in enumerate(names))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["leerdam", "--players", "61"], "argument --players: leerdam takes 3-20 households at one village, or a class of 21-60 in villages of 5-10, not 61"),
        (["new-rule", "--players", "2"], "argument --players: new-rule takes 3-5 players at one table, or a class of 6-60 in tables of 3-5, not 2"),
        (["all", "--players", "30"], "argument --players: all prints for a group of 1-20, not 30; for a class, print its game"),
        (["leerdam", "--players", "30", "--seat-links", "links.json"], "argument --seat-links: a links file is one village's seats; a class of 30 joins by its room code"),
    ],
)
def test_a_count_no_class_takes_is_refused_and_writes_nothing(capsys: pytest.CaptureFixture[str], here: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str) -> None:
    monkeypatch.chdir(here)
    (here / "links.json").write_text('{"seats": [{"seat": 0, "name": "Ana", "url": "http://h/?seat=0"}]}', encoding="utf-8")
    code, _, err = run(capsys, "print", *argv, "-o", "out.pdf")
    assert code == 2 and f"playbook print: error: {message}" in err and not (here / "out.pdf").exists()


def test_the_command_lines_largest_class_is_the_classes(capsys: pytest.CaptureFixture[str]) -> None:
    assert CLASS_MOST == classes.MAX_STUDENTS
    with pytest.raises(SystemExit):
        main(["print", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"up to {CLASS_MOST}: a class" in help_text and "leerdam villages of 5-10" in help_text and "playbook print leerdam --players 30" in help_text
